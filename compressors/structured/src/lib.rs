//! ghost's built-in structured-data compressor.
//!
//! JSON, YAML, TOML and XML become an outline: every key path down
//! to a depth, the first items of long arrays plus `… and N more items of the
//! same shape` with the shape, long strings cut with their length. But an
//! outline rewrites a file in another syntax, so a YAML, TOML or XML text
//! keeps its own lines (see `in_place`) unless the outline is much smaller
//! (see `OUTLINE_AT_MOST_ONE_IN`); an INI file always does. CSV and TSV
//! keep their rows as written, up to the row budget (see `tabular`). Lockfiles
//! (npm's `package-lock.json`, `Cargo.lock`, `uv.lock`, `pnpm-lock.yaml`,
//! `yarn.lock`) become names and versions, never hashes (see [`lockfiles`]). JSON Lines carrying a tool's printed text
//! (`go test -json`) are read as that text (see [`text_stream`]); others
//! stay a line per record, each shrunk, with their line numbers (see
//! [`jsonl`]). Anything it cannot parse falls back to the
//! log compressor's line folding: never an error. For outlines, Claude
//! Code's `N→` line-number prefixes are removed first.

mod formats;
mod in_place;
mod jsonl;
mod lockfiles;
pub mod render;
mod tabular;
mod text_stream;

#[cfg(target_arch = "wasm32")]
mod component;

use ghost_types::document;
use serde_json::{Map, Value};

pub use render::Outline;

/// A compressed document and notes about it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedData {
    /// The compressed text.
    pub text: String,
    /// Short notes, e.g. "JSON outline".
    pub notes: Vec<String>,
}

/// Compresses `text`; `source_path`, when known, helps pick the format.
pub fn compress(text: &str, source_path: Option<&str>) -> CompressedData {
    compress_within(text, source_path, None, None)
}

/// Tokens a table row takes, about: how many rows a budget affords.
const TOKENS_PER_ROW: u32 = 12;

/// Fewest rows of a table of records shown, whatever the budget.
const MIN_TABLE_ROWS: usize = 20;

/// Compresses `text` to fit `target_tokens` when it can: tables of records
/// show as many rows as the budget affords (never fewer than
/// [`MIN_TABLE_ROWS`]) and say how many more there are. `tool_name` is the
/// agent tool that printed the text (a `Read` is a file the agent may edit
/// next, see `OUTLINE_OF_A_READ_AT_MOST_ONE_IN`); so is a text with a
/// `source_path` (`cat pom.xml` printed pom.xml), and one with no tool
/// named (`ghost compress pom.xml`, a pipe): only what a command printed
/// that is no file (`mvn help:effective-pom`) may be outlined sooner.
pub fn compress_within(
    text: &str,
    source_path: Option<&str>,
    tool_name: Option<&str>,
    target_tokens: Option<u32>,
) -> CompressedData {
    let mut outline = Outline::default();
    if let Some(t) = target_tokens {
        outline.table_rows =
            ((t / TOKENS_PER_ROW) as usize).clamp(MIN_TABLE_ROWS, outline.table_rows);
    }
    // A `.txt` or `.log` says nothing of the format: the text decides.
    let source_path = ghost_types::telling_path(source_path);
    // A file: read, shown by a command that prints one file (`cat
    // pom.xml`: its path comes with it), or with no tool named.
    let read = tool_name.is_none_or(|t| t == READ_TOOL) || source_path.is_some();
    let body = strip_line_numbers(text);
    let ext = source_path
        .and_then(|p| p.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()))
        .unwrap_or_default();
    let trimmed = body.trim_start();
    if (trimmed.starts_with('{') || trimmed.starts_with('['))
        && let Ok(value) = serde_json::from_str::<Value>(&body)
    {
        if let Some(text) = lockfiles::npm(&value) {
            return done(text, "npm lockfile: names and versions");
        }
        return done(outline.render(&value), "JSON outline");
    }
    if let Some(text) = text_stream::unwrap(text, target_tokens) {
        return done(text, "JSON Lines carrying text: the text folded as a log");
    }
    if let Some(text) = jsonl::records(text) {
        return done(text, "JSON Lines: a line per record, long values cut");
    }
    if let Some(values) = json_stream(&body) {
        let text: String = values.iter().map(|v| outline.render(v)).collect();
        return done(
            text,
            &format!("JSON stream: {} values outlined", values.len()),
        );
    }
    let lines = document::nonblank_lines(&body);
    if (ext == "toml" || ext == "lock" || document::looks_like_toml(&lines))
        && let Ok(table) = body.parse::<toml::Table>()
    {
        let value = toml_to_json(toml::Value::Table(table));
        if let Some(text) = lockfiles::toml_packages(&value, file_name(source_path)) {
            return done(text, "lockfile: names and versions");
        }
        return own_lines_or(text, read, outline.render(&value), "TOML outline");
    }
    if let Some(text) = lockfiles::go_sum(&body) {
        return done(text, "go.sum: module versions");
    }
    if let Some(text) = lockfiles::yarn_v1(&body) {
        return done(text, "yarn.lock: names and versions");
    }
    if ext == "yaml" || ext == "yml" || ext.is_empty() && document::looks_like_yaml(&lines) {
        if let Some(value) = formats::yaml(&body) {
            if let Some(text) = lockfiles::pnpm(&value) {
                return done(text, "pnpm lockfile: names and versions");
            }
            return own_lines_or(text, read, outline.render(&value), "YAML outline");
        }
        // YAML this parser refuses (GitHub accepts laxer indentation): keep
        // the key lines down to the outline's depth, by indentation.
        return own_lines_or(
            text,
            read,
            formats::yaml_by_indentation(&body, outline.max_depth),
            "YAML outline by indentation",
        );
    }
    if trimmed.starts_with('<')
        && let Some(text) = ghost_log_folding::xml_report::render(&body, target_tokens)
    {
        return done(text, "test report (XML): read as test results");
    }
    if (matches!(ext.as_str(), "xml" | "pom" | "csproj" | "svg" | "plist")
        || trimmed.starts_with("<?xml")
        || trimmed.starts_with('<'))
        && let Some(value) = formats::xml(&body)
    {
        return own_lines_or(text, read, outline.render(&value), "XML outline");
    }
    if matches!(ext.as_str(), "ini" | "cfg" | "conf") || document::looks_like_ini(&lines) {
        return done(in_place::fold(text), IN_OWN_LINES);
    }
    if let Some(text) = tabular::summarise(&body, &ext, outline.table_rows) {
        return done(text, "table: header, first rows, row count");
    }
    let folded = ghost_log_folding::compress_within(&body, target_tokens);
    CompressedData {
        text: folded.text,
        notes: vec!["not parsed: folded as lines".to_string()],
    }
}

/// An outline rewrites a text in another syntax, so it stands in for the
/// text's own lines (see [`in_place`]) only when it is at most one in this
/// many of their bytes: an agent searches by the text as printed.
const OUTLINE_AT_MOST_ONE_IN: usize = 2;

/// As [`OUTLINE_AT_MOST_ONE_IN`], for a file (read with the Read tool,
/// shown by `cat`, or given with no tool named): the agent's Edit tool
/// replaces exact strings taken from what it read, so the outline must
/// save much more.
const OUTLINE_OF_A_READ_AT_MOST_ONE_IN: usize = 4;

/// The agent tool whose output is a file the agent may edit next.
const READ_TOOL: &str = "Read";

/// The note of a file kept in its own lines.
const IN_OWN_LINES: &str = "in its own lines: comment runs and long texts folded";

/// `text` in its own lines, or `outline` (with `note`) where that is much
/// smaller (see [`OUTLINE_AT_MOST_ONE_IN`]); `read`: the text is a file
/// (see [`OUTLINE_OF_A_READ_AT_MOST_ONE_IN`]).
fn own_lines_or(text: &str, read: bool, outline: String, note: &str) -> CompressedData {
    let own = in_place::fold(text);
    let one_in = if read {
        OUTLINE_OF_A_READ_AT_MOST_ONE_IN
    } else {
        OUTLINE_AT_MOST_ONE_IN
    };
    if outline.len() * one_in <= own.len() {
        done(outline, note)
    } else {
        done(own, IN_OWN_LINES)
    }
}

/// The file name of `source_path`, when there is one.
fn file_name(source_path: Option<&str>) -> Option<&str> {
    source_path.map(|p| p.rsplit(['/', '\\']).next().unwrap_or(p))
}

/// Two or more JSON documents one after the other (e.g. `jq` output, or
/// pretty-printed records), and nothing else.
fn json_stream(text: &str) -> Option<Vec<Value>> {
    let t = text.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    let values: Vec<Value> = serde_json::Deserializer::from_str(t)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .ok()?;
    (values.len() >= 2).then_some(values)
}

fn done(text: String, note: &str) -> CompressedData {
    CompressedData {
        text,
        notes: vec![note.to_string()],
    }
}

/// Removes Claude Code's Read prefixes (`    12→`) when every line has one.
fn strip_line_numbers(text: &str) -> String {
    let prefix_end = |l: &str| {
        let t = l.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        (digits > 0 && t[digits..].starts_with('→'))
            .then(|| l.len() - t.len() + digits + '→'.len_utf8())
    };
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty()
        || !lines
            .iter()
            .all(|l| l.trim().is_empty() || prefix_end(l).is_some())
    {
        return text.to_string();
    }
    lines
        .iter()
        .map(|l| prefix_end(l).map_or("", |e| &l[e..]))
        .collect::<Vec<_>>()
        .join("\n")
}

fn toml_to_json(v: toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => Value::from(f),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.into_iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => Value::Object(
            t.into_iter()
                .map(|(k, v)| (k, toml_to_json(v)))
                .collect::<Map<_, _>>(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A POM with 40 dependencies: their table outline is about a third of
    /// the file's own lines. A Read of it (the agent may edit it next) keeps its own
    /// lines, its license comment folded, and so does `cat pom.xml`; the
    /// same text printed by a command that prints no file gets the outline.
    #[test]
    fn a_file_read_keeps_its_own_lines_unless_the_outline_saves_most() {
        let deps: String = (0..40)
            .map(|i| format!("    <dependency>\n      <groupId>org.example.group{i}</groupId>\n      <artifactId>lib{i}</artifactId>\n      <version>1.{i}.0</version>\n    </dependency>\n"))
            .collect();
        let license: String = (0..12).map(|i| format!("  license line {i}\n")).collect();
        let pom = format!(
            "<?xml version=\"1.0\"?>\n<!--\n{license}-->\n<project>\n  <artifactId>app</artifactId>\n  <dependencies>\n{deps}  </dependencies>\n</project>\n"
        );
        let read = compress_within(&pom, Some("pom.xml"), Some("Read"), None);
        let outline = Outline::default().render(&formats::xml(&pom).unwrap());
        // The premise: the outline is between a quarter and a half of it.
        assert!(outline.len() * 4 > read.text.len() && outline.len() * 2 < read.text.len());
        assert_eq!(read.notes, [IN_OWN_LINES]);
        assert!(
            read.text
                .contains("      <artifactId>lib39</artifactId>\n      <version>1.39.0</version>")
        );
        assert!(read.text.contains("… lines 3–15") && !read.text.contains("license line 5"));
        let printed = compress_within(&pom, None, Some("Bash"), None);
        assert_eq!(printed.notes, ["XML outline"]);
        assert_eq!(printed.text, outline);
        // `cat pom.xml`: the file, its path given.
        let shown = compress_within(&pom, Some("pom.xml"), Some("Bash"), None);
        assert_eq!(shown, read);
        // No tool named: it may be a file the agent edits next.
        let piped = compress_within(&pom, None, None, None);
        assert_eq!(piped, read);
    }

    /// With no path, a TOML manifest whose arrays span lines and a YAML
    /// file whose values are block scalars are still read as documents: in
    /// their own lines, every key as written, nothing folded as "similar".
    #[test]
    fn documents_without_a_path_are_told_by_their_lines() {
        let features: String = (0..30).map(|i| format!("    \"feature-{i}\",\n")).collect();
        let toml = format!(
            "[package]\nname = \"engine\"\nversion = \"48.0.8\"\n\n[features]\ndefault = [\n{features}]\n\n[lib]\npath = \"src/lib.rs\"\n"
        );
        let yaml: String = (0..12)
            .map(|i| format!("flag_{i}:\n  arg_name: name{i}\n  api_field: plan.field{i}\n  help_text: |\n    What flag {i} sets, in a sentence or two\n    that runs on to a second line.\n\n"))
            .collect();
        for (text, note, kept) in [
            (
                &toml,
                IN_OWN_LINES,
                vec!["[features]", "version = \"48.0.8\"", "    \"feature-29\","],
            ),
            (
                &yaml,
                IN_OWN_LINES,
                vec!["flag_11:", "  arg_name: name7", "  api_field: plan.field3"],
            ),
        ] {
            for path in [None, Some("saved/output.txt")] {
                let out = compress_within(text, path, None, None);
                assert_eq!(out.notes, [note], "{}", out.text);
                for line in &kept {
                    assert!(out.text.contains(line), "{line}: {}", out.text);
                }
            }
        }
    }

    /// An INI file keeps every section and setting as written; its comment
    /// runs fold past their first line.
    #[test]
    fn an_ini_file_keeps_its_sections_and_settings() {
        let ini = "[MASTER]\n# Add files or directories to the blacklist.\n# They should be base names,\n# not paths.\nignore=CVS\n\n[MESSAGES CONTROL]\ndisable=C0111,\n    W0142\n";
        let out = compress(ini, Some(".pylintrc"));
        assert_eq!(out.notes, [IN_OWN_LINES]);
        assert_eq!(
            out.text,
            "[MASTER]\n# Add files or directories to the blacklist.\n… lines 3–4\nignore=CVS\n\n[MESSAGES CONTROL]\ndisable=C0111,\n    W0142\n"
        );
    }

    /// A CSV's rows are its records: every one stays as written up to the
    /// outline's row budget; past it the table is sampled, with a count.
    #[test]
    fn a_table_keeps_every_row_up_to_the_budget() {
        let rows: String = (0..300)
            .map(|i| format!("example.com/m{i},v1.{i}.0,h1:abc{i}=\n"))
            .collect();
        let out = compress(&rows, Some("sums.csv")).text;
        assert!((0..300).all(|i| out.contains(&format!("example.com/m{i},v1.{i}.0,h1:abc{i}=\n"))));
        let tight = compress_within(&rows, Some("sums.csv"), None, Some(600)).text;
        assert!(tight.contains("example.com/m0,") && tight.contains("example.com/m299,"));
        assert!(tight.contains("… and 249 more rows"), "{tight}");
    }

    /// A field holding named records (a cargo package's `targets`, a yarn
    /// tree's `children`) is a column of their names, those inside them in
    /// parentheses; a leaf's empty list keeps the column when most records
    /// are leaves.
    #[test]
    fn records_inside_records_are_named_in_a_column() {
        let trees: Vec<String> = (0..30)
            .map(|i| {
                let children = if i % 5 == 0 {
                    format!(
                        r#"[{{"name": "dep-{i}@^1.0.0", "children": [{{"name": "deep-{i}@^2.0.0"}}]}}]"#
                    )
                } else {
                    "[]".to_string()
                };
                format!(r#"{{"name": "pkg-{i}@1.0.{i}", "children": {children}, "hint": null, "depth": 0}}"#)
            })
            .collect();
        let json = format!(
            r#"{{"type": "tree", "data": {{"type": "list", "trees": [{}]}}}}"#,
            trees.join(", ")
        );
        let out = compress(&json, None).text;
        assert!(out.contains("name | children"), "{out}");
        assert!(
            out.contains("pkg-5@1.0.5 | dep-5@^1.0.0 (deep-5@^2.0.0)"),
            "{out}"
        );
        assert!(out.contains("pkg-7@1.0.7"), "{out}");
    }

    #[test]
    fn lockfiles_become_names_and_versions() {
        let lock = r#"{"name": "app", "lockfileVersion": 3, "requires": true, "packages": {"": {"name": "app"}, "node_modules/semver": {"version": "7.6.0", "resolved": "https://r/semver.tgz", "integrity": "sha512-abc"}}}"#;
        let out = compress(lock, Some("package-lock.json")).text;
        assert!(out.contains("\"lockfileVersion\": 3"));
        assert!(out.contains("semver 7.6.0"), "{out}");
        assert!(!out.contains("sha512"));
        let cargo = "version = 4\n\n[[package]]\nname = \"anyhow\"\nversion = \"1.0.104\"\nchecksum = \"abc\"\n";
        let out = compress(cargo, Some("Cargo.lock")).text;
        assert!(
            out.contains("anyhow 1.0.104") && !out.contains("checksum"),
            "{out}"
        );
    }

    /// NUnit's result file nests its test cases ten elements deep, under
    /// suites for the assembly, each namespace and the fixture: below the
    /// outline's depth, but the cases are what the file holds. Each stays
    /// a row, under the names of the suites leading to it; what else the
    /// suites say is counted.
    #[test]
    fn records_deeper_than_the_outline_still_show_every_row() {
        let cases: String = (0..30)
            .map(|i| {
                let result = if i == 7 { "Failure" } else { "Success" };
                format!("<test-case name=\"Shop.Tests.CartTests.Adds{i}\" executed=\"True\" result=\"{result}\" time=\"0.001\" />\n")
            })
            .collect();
        let mut xml = cases;
        for suite in ["CartTests", "Tests", "Shop", "/src/Shop.Tests.dll"] {
            xml = format!(
                "<test-suite name=\"{suite}\" executed=\"True\" result=\"Failure\" time=\"0.08\">\n<results>\n{xml}</results>\n</test-suite>\n"
            );
        }
        let xml = format!(
            "<?xml version=\"1.0\"?>\n<test-results name=\"/src/Shop.Tests.dll\" total=\"30\" failures=\"1\">\n{xml}</test-results>\n"
        );
        // A test report is read as test results (see
        // `ghost_log_folding::xml_report`): every case named, the failing
        // one first; the outline (what other XML gets) is checked on its own.
        let kept = compress(&xml, None).text;
        assert!(
            (0..30).all(|i| kept.contains(&format!("Adds{i}"))),
            "{kept}"
        );
        assert!(kept.contains("FAILED Shop.Tests.CartTests.Adds7"), "{kept}");
        let out = Outline::default().render(&formats::xml(&xml).unwrap());
        for i in 0..30 {
            let name = format!("Shop.Tests.CartTests.Adds{i} ");
            assert!(out.contains(&name), "lost {name:?}:\n{out}");
        }
        assert!(out.contains("Shop.Tests.CartTests.Adds7 Failure"), "{out}");
        assert!(out.contains("\"@name\": \"CartTests\""), "{out}");
        assert!(out.contains("… 3 more keys"), "{out}");
        // Without records below, the outline still summarises a deep
        // element; the file itself is still a test report.
        let few: String = xml
            .lines()
            .filter(|l| !l.starts_with("<test-case") || l.contains("Adds1\""))
            .map(|l| format!("{l}\n"))
            .collect();
        let outline = Outline::default().render(&formats::xml(&few).unwrap());
        assert!(
            outline.contains("{… ") && !outline.contains("Adds1"),
            "{outline}"
        );
        assert!(
            compress(&few, None)
                .text
                .contains("Shop.Tests.CartTests.Adds1")
        );
    }

    /// A document of thousands of small tables below the outline's depth
    /// shows the first of them, up to a table's rows in all, and outlines
    /// the rest as before: never bigger than what it outlines.
    #[test]
    fn records_deeper_than_the_outline_show_up_to_a_tables_rows() {
        fn tree(depth: usize) -> Value {
            if depth == 0 {
                let items: Vec<Value> = (0..4)
                    .map(|i| serde_json::json!({"name": format!("n{i}"), "v": i}))
                    .collect();
                return serde_json::json!({ "items": items });
            }
            Value::Object((0..3).map(|i| (format!("k{i}"), tree(depth - 1))).collect())
        }
        let text = tree(8).to_string();
        let out = compress(&text, None).text;
        let rows = out
            .lines()
            .filter(|l| l.trim_start().starts_with('n'))
            .count();
        assert!(rows > 0 && out.contains("{… "), "{out}");
        assert!(
            out.len() < text.len() / 20,
            "{} of {}",
            out.len(),
            text.len()
        );
    }

    /// `npm ls --all --json` of two top packages: their trees show whole
    /// however short the top map, each package once with its
    /// dependencies, its other listings counted.
    #[test]
    fn a_short_tree_of_records_lists_every_record_once() {
        let leaf = |v: &str| serde_json::json!({"version": v, "overridden": false});
        let tree = serde_json::json!({
            "name": "app",
            "dependencies": {
                "eslint": {"version": "8.57.1", "overridden": false, "dependencies": {
                    "debug": {"version": "4.4.3", "overridden": false, "dependencies": {"ms": leaf("2.1.3")}},
                    "chalk": leaf("4.1.2"),
                }},
                "jest": {"version": "29.7.0", "overridden": false, "dependencies": {
                    "debug": {"version": "4.4.3", "overridden": false, "dependencies": {"ms": leaf("2.1.3")}},
                    "jest-cli": {"version": "29.7.0", "overridden": false, "dependencies": {"yargs": leaf("17.7.3")}},
                    "node-notifier": {},
                }},
            }
        });
        let out = compress(&tree.to_string(), None).text;
        for name in [
            "eslint 8.57.1",
            "debug 4.4.3",
            "ms 2.1.3",
            "chalk 4.1.2",
            "jest 29.7.0",
            "jest-cli 29.7.0",
            "yargs 17.7.3",
        ] {
            let (n, v) = name.split_once(' ').unwrap();
            assert!(
                out.contains(&format!("{n} | {v}")) || out.contains(name),
                "{name}: {out}"
            );
        }
        assert_eq!(out.matches("debug").count(), 1, "{out}");
        assert!(out.contains("in every row: overridden=false"), "{out}");
        assert!(out.contains("… 1 repeat of records shown above"), "{out}");
    }

    /// cargo metadata's `id` spells out each package's name and version:
    /// it is named among the fields not shown, and the name and version stay.
    #[test]
    fn a_column_spelling_out_two_others_is_not_shown() {
        let packages: Vec<Value> = (0..20)
            .map(|i| {
                serde_json::json!({
                    "name": format!("crate{i}"),
                    "version": format!("0.{i}.1"),
                    "id": format!("registry+https://github.com/rust-lang/crates.io-index#crate{i}@0.{i}.1"),
                    "edition": "2021",
                })
            })
            .collect();
        let out = compress(
            &serde_json::json!({ "packages": packages }).to_string(),
            None,
        )
        .text;
        assert!(out.contains("not shown: id"), "{out}");
        assert!(!out.contains("crates.io-index"), "{out}");
        assert!(
            (0..20).all(|i| out.contains(&format!("crate{i} 0.{i}.1"))),
            "{out}"
        );
    }

    /// Past a table's rows every record keeps its name and version (cargo
    /// metadata of a 663-package workspace had lost 242 names); only
    /// their other cells go, up to four rows' worth of names a row.
    #[test]
    fn records_past_a_tables_rows_keep_their_names() {
        let packages: Vec<Value> = (0..500)
            .map(|i| {
                serde_json::json!({
                    "name": format!("crate{i}"),
                    "version": format!("1.{i}.0"),
                    "description": format!("The crate number {i}, which does a thing of its own"),
                })
            })
            .collect();
        let text = serde_json::json!({ "packages": packages }).to_string();
        let out = compress(&text, None).text;
        assert!(
            out.contains("… 100 more records, by name version only:"),
            "{out}"
        );
        assert!(
            (0..500).all(|i| out.contains(&format!("crate{i} 1.{i}.0"))
                || out.contains(&format!("crate{i} | 1.{i}.0"))),
            "{out}"
        );
        assert!(!out.contains("number 450,"), "{out}");
        // Under a budget of 600 tokens: 50 rows, then 200 names, then a count.
        let tight = compress_within(&text, None, None, Some(600)).text;
        assert!(
            tight.contains("… 450 more records, by name version only:"),
            "{tight}"
        );
        assert!(
            tight.contains("crate249 1.249.0") && !tight.contains("crate250 "),
            "{tight}"
        );
        assert!(
            tight.contains("… and 250 more records not named"),
            "{tight}"
        );
    }

    /// Under a budget a tree shows the rows it affords, then names each
    /// record not shown yet, once.
    #[test]
    fn a_tree_past_its_rows_names_the_records_not_shown() {
        let deps = |from: usize| -> serde_json::Map<String, Value> {
            (from..from + 30)
                .map(|i| {
                    let nested = serde_json::json!({"shared": {"version": "1.0.0"}});
                    (
                        format!("pkg{i}"),
                        serde_json::json!({"version": format!("2.{i}.0"), "dependencies": nested}),
                    )
                })
                .collect()
        };
        let tree = serde_json::json!({
            "name": "app",
            "dependencies": {
                "a": {"version": "1.0.0", "dependencies": deps(0)},
                "b": {"version": "1.0.0", "dependencies": deps(30)},
            }
        });
        let out = compress_within(&tree.to_string(), None, None, Some(240)).text;
        assert!(
            out.contains("those not named above, by (key) version only:"),
            "{out}"
        );
        assert!(
            (0..60).all(|i| out.contains(&format!("pkg{i} 2.{i}.0"))
                || out.contains(&format!("pkg{i} | 2.{i}.0"))),
            "{out}"
        );
        assert_eq!(out.matches("shared").count(), 1, "{out}");
    }

    #[test]
    fn a_stream_of_json_documents_is_outlined_one_by_one() {
        let long = "y".repeat(400);
        let text = format!(
            "{{\n  \"type\": \"a\",\n  \"text\": \"{long}\"\n}}\n{{\n  \"type\": \"b\"\n}}\n"
        );
        let out = compress(&text, None);
        assert_eq!(out.notes, ["JSON stream: 2 values outlined"]);
        assert!(out.text.contains("\"type\": \"a\"") && out.text.contains("\"type\": \"b\""));
        assert!(out.text.len() < text.len() / 2, "{}", out.text);
    }

    #[test]
    fn read_line_numbers_are_removed_and_invalid_input_folds() {
        let numbered = "     1→{\n     2→  \"a\": 1\n     3→}\n";
        assert!(compress(numbered, None).text.contains("\"a\": 1"));
        let broken = "{ \"a\": 1,\n".repeat(50);
        let out = compress(&broken, Some("x.json"));
        assert_eq!(out.notes, vec!["not parsed: folded as lines".to_string()]);
    }
}
