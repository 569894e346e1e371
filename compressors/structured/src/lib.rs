//! ghost's built-in structured-data compressor.
//!
//! JSON, YAML, TOML, XML and CSV/TSV become an outline: every key path down
//! to a depth, the first items of long arrays plus `… and N more items of the
//! same shape` with the shape, long strings cut with their length. Lockfiles
//! (npm's `package-lock.json`, `Cargo.lock`, `uv.lock`, `pnpm-lock.yaml`,
//! `yarn.lock`) become names and versions, never hashes (see [`lockfiles`]). JSON Lines carrying a tool's printed text
//! (`go test -json`) are read as that text (see [`text_stream`]); others
//! stay a line per record, each shrunk, with their line numbers (see
//! [`jsonl`]). Anything it cannot parse falls back to the
//! log compressor's line folding: never an error. For outlines, Claude
//! Code's `N→` line-number prefixes are removed first.

mod formats;
mod jsonl;
mod lockfiles;
pub mod render;
mod tabular;
mod text_stream;

#[cfg(target_arch = "wasm32")]
mod component;

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
    compress_within(text, source_path, None)
}

/// Tokens a table row takes, about: how many rows a budget affords.
const TOKENS_PER_ROW: u32 = 12;

/// Fewest rows of a table of records shown, whatever the budget.
const MIN_TABLE_ROWS: usize = 20;

/// Compresses `text` to fit `target_tokens` when it can: tables of records
/// show as many rows as the budget affords (never fewer than
/// [`MIN_TABLE_ROWS`]) and say how many more there are.
pub fn compress_within(
    text: &str,
    source_path: Option<&str>,
    target_tokens: Option<u32>,
) -> CompressedData {
    let mut outline = Outline::default();
    if let Some(t) = target_tokens {
        outline.table_rows =
            ((t / TOKENS_PER_ROW) as usize).clamp(MIN_TABLE_ROWS, outline.table_rows);
    }
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
    if (ext == "toml" || ext == "lock" || looks_like_toml(&body))
        && let Ok(table) = body.parse::<toml::Table>()
    {
        let value = toml_to_json(toml::Value::Table(table));
        if let Some(text) = lockfiles::toml_packages(&value, file_name(source_path)) {
            return done(text, "lockfile: names and versions");
        }
        return done(outline.render(&value), "TOML outline");
    }
    if let Some(text) = lockfiles::yarn_v1(&body) {
        return done(text, "yarn.lock: names and versions");
    }
    if ext == "yaml" || ext == "yml" || ext.is_empty() && formats::looks_like_yaml(&body) {
        if let Some(value) = formats::yaml(&body) {
            if let Some(text) = lockfiles::pnpm(&value) {
                return done(text, "pnpm lockfile: names and versions");
            }
            return done(outline.render(&value), "YAML outline");
        }
        // YAML this parser refuses (GitHub accepts laxer indentation): keep
        // the key lines down to the outline's depth, by indentation.
        return done(
            formats::yaml_by_indentation(&body, outline.max_depth),
            "YAML outline by indentation",
        );
    }
    if (matches!(ext.as_str(), "xml" | "pom" | "csproj" | "svg" | "plist")
        || trimmed.starts_with("<?xml")
        || trimmed.starts_with('<'))
        && let Some(value) = formats::xml(&body)
    {
        return done(outline.render(&value), "XML outline");
    }
    if let Some(text) = tabular::summarise(&body, &ext) {
        return done(text, "table: header, first rows, row count");
    }
    let folded = ghost_log_folding::compress_within(&body, target_tokens);
    CompressedData {
        text: folded.text,
        notes: vec!["not parsed: folded as lines".to_string()],
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

fn looks_like_toml(text: &str) -> bool {
    let mut assignments = 0;
    let mut others = 0;
    for l in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(50)
    {
        if l.starts_with('[') && l.ends_with(']') || l.contains(" = ") {
            assignments += 1;
        } else {
            others += 1;
        }
    }
    assignments > 0 && others * 4 <= assignments
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
        let out = compress(&xml, None).text;
        for i in 0..30 {
            let name = format!("Shop.Tests.CartTests.Adds{i} ");
            assert!(out.contains(&name), "lost {name:?}:\n{out}");
        }
        assert!(out.contains("Shop.Tests.CartTests.Adds7 Failure"), "{out}");
        assert!(out.contains("\"@name\": \"CartTests\""), "{out}");
        assert!(out.contains("… 3 more keys"), "{out}");
        // Without records below, a deep element is still summarised.
        let few: String = xml
            .lines()
            .filter(|l| !l.starts_with("<test-case") || l.contains("Adds1\""))
            .map(|l| format!("{l}\n"))
            .collect();
        let out = compress(&few, None).text;
        assert!(out.contains("{… ") && !out.contains("Adds1"), "{out}");
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
