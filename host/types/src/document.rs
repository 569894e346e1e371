//! TOML, YAML and INI documents and delimited tables told by the shape of
//! their lines, for a text no tool or path speaks for (a `uv.lock` or
//! `pnpm-lock.yaml` saved as `.txt`, a `.pylintrc`, `cat Cargo.toml`):
//! nearly every line is a table header, a key with its value or an item of
//! a list, and the keys nest. The classifier calls such a text structured
//! and the structured compressor picks its parser by the same rules.
//!
//! Every function takes a text's nonblank lines (comments included), as
//! [`nonblank_lines`] gives them.

/// A text's nonblank lines, the first [`LINES_JUDGED`]: what the
/// functions here judge.
pub fn nonblank_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(LINES_JUDGED)
        .collect()
}

/// A document's shape is judged by its first this many nonblank lines.
pub const LINES_JUDGED: usize = 400;

/// Share of the judged lines that must have a document's shape.
const DOCUMENT_SHARE: f32 = 0.9;

/// Fewer lines than this say too little to call a text a document.
const LINES_AT_LEAST: usize = 5;

/// Whether `lines` (nonblank, comments included) read as a TOML document:
/// table headers (`[package]`, `[[package]]`) and `key = value` lines with
/// a TOML value (a string, a number, a boolean, an array or an inline
/// table: Python's `DEBUG = True` is not one), the lines of a multi-line
/// array counting as its value's; at least one table header.
pub fn looks_like_toml(lines: &[&str]) -> bool {
    let mut shaped = 0;
    let mut tables = 0;
    let mut open_arrays = 0usize;
    for l in lines {
        let t = l.trim();
        if open_arrays > 0 || t.starts_with('#') {
            shaped += 1;
            open_arrays = nested_arrays_after(t, open_arrays);
            continue;
        }
        if is_table_header(t) {
            tables += 1;
            shaped += 1;
        } else if let Some((key, value)) = t.split_once(" = ")
            && is_toml_key(key)
            && is_toml_value(value)
        {
            shaped += 1;
            open_arrays = nested_arrays_after(value, 0);
        }
    }
    tables > 0 && is_document(shaped, lines.len())
}

/// Whether `lines` (nonblank, comments included) read as an INI file
/// (`setup.cfg`, `tox.ini`, `.pylintrc`): `[section]` headers, `key=value`
/// or `key: value` settings with a bare key, `#` and `;` comments, and the
/// indented lines continuing a setting's value; at least one section.
pub fn looks_like_ini(lines: &[&str]) -> bool {
    let mut shaped = 0;
    let mut sections = 0;
    let mut in_setting = false;
    for l in lines {
        let t = l.trim();
        if t.starts_with('#') || t.starts_with(';') {
            shaped += 1;
        } else if l.starts_with([' ', '\t']) {
            shaped += usize::from(in_setting);
        } else if t
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .is_some_and(|name| !name.trim().is_empty() && !name.contains(['[', ']']))
        {
            // A section's name may have spaces: `[MESSAGES CONTROL]`.
            sections += 1;
            shaped += 1;
            in_setting = false;
        } else if t
            .split_once(['=', ':'])
            .is_some_and(|(key, _)| is_ini_key(key.trim_end()))
        {
            shaped += 1;
            in_setting = true;
        } else {
            in_setting = false;
        }
    }
    sections > 0 && is_document(shaped, lines.len())
}

/// Whether `lines` (nonblank) read as a delimited table (CSV, TSV): at
/// least [`TABLE_ROWS_AT_LEAST`] lines, every one with the same number of
/// tabs (one or more), or of commas (two or more: a sentence may have one).
pub fn looks_like_table(lines: &[&str]) -> bool {
    if lines.len() < TABLE_ROWS_AT_LEAST {
        return false;
    }
    [('\t', 1), (',', 2)].into_iter().any(|(d, least)| {
        // A line led by a tab is indented, not a row with an empty first
        // cell (`ldd`'s `\tlibm.so.6 => …`).
        let count = |l: &str| l.trim_start_matches('\t').matches(d).count();
        let first = count(lines[0]);
        first >= least && lines.iter().take(200).all(|l| count(l) == first)
    })
}

/// One line of Go's checksum file (`go.sum`): `module version h1:<hash>`,
/// the version `vX…` or `vX…/go.mod` (the sum of its `go.mod` alone);
/// the module and the version as written.
pub fn go_sum_entry(line: &str) -> Option<(&str, &str)> {
    let mut fields = line.split_whitespace();
    let (Some(module), Some(version), Some(sum), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return None;
    };
    (version.starts_with('v') && sum.starts_with("h1:")).then_some((module, version))
}

/// Whether `lines` (nonblank) are a `go.sum`: two or more, every one a
/// [`go_sum_entry`].
pub fn looks_like_go_sum(lines: &[&str]) -> bool {
    lines.len() >= 2 && lines.iter().all(|l| go_sum_entry(l).is_some())
}

/// Whether `lines` (nonblank) are settings in the shell's `KEY=value`
/// form (`/etc/os-release`, a `.env` file, what `locale` prints): each a
/// comment or a name of letters, digits and `_` set to a value that is
/// empty, quoted or one word.
pub fn looks_like_env_file(lines: &[&str]) -> bool {
    let (mut comments, mut settings) = (0, 0);
    for l in lines {
        let t = l.trim();
        if t.starts_with('#') {
            comments += 1;
        } else if t.split_once('=').is_some_and(|(k, v)| is_env_setting(k, v)) {
            settings += 1;
        }
    }
    // Settings make up most of it: a script's comments are no settings.
    2 * settings >= lines.len() && is_document(comments + settings, lines.len())
}

/// `KEY` and `value` of a `KEY=value` setting (see [`looks_like_env_file`]).
fn is_env_setting(key: &str, value: &str) -> bool {
    let key = key.strip_prefix("export ").unwrap_or(key);
    let quoted = |q: char| value.len() >= 2 && value.starts_with(q) && value.ends_with(q);
    key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        // (Not a pin, `requests==2.31.0`.)
        && !value.starts_with('=')
        && (value.is_empty() || quoted('"') || quoted('\'') || !value.contains(char::is_whitespace))
}

/// Yarn 1 says what its lockfile is in a comment among its first this
/// many lines.
const YARN_LOCK_HEADER_LINES: usize = 5;

/// Whether `lines` are Yarn 1's `yarn.lock`: its header comment says so
/// (`# yarn lockfile v1`). Its blocks (`"a@^1.0.0", a@^1.2.0:` over
/// indented `version "1.2.3"`) are YAML's shape without YAML's colons.
pub fn looks_like_yarn_lock(lines: &[&str]) -> bool {
    lines
        .iter()
        .take(YARN_LOCK_HEADER_LINES)
        .any(|l| l.starts_with("# yarn lockfile v1"))
}

/// Fewest rows a delimited table is told by.
const TABLE_ROWS_AT_LEAST: usize = 8;

/// An INI setting's key: a bare word of letters, digits, `_`, `-` and `.`.
fn is_ini_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
}

/// Whether `lines` (nonblank) read as a YAML document: `key:` and `key:
/// value` lines and `- item` lines, comments and `---`, and at least one
/// key opening a mapping the next line nests under (structure, not a
/// program's `name: value` records). A block scalar's lines (`key: |`)
/// count as its value's.
pub fn looks_like_yaml(lines: &[&str]) -> bool {
    let mut shaped = 0;
    let mut nests = false;
    let mut scalar_indent: Option<usize> = None;
    for (i, l) in lines.iter().enumerate() {
        let indent = l.len() - l.trim_start().len();
        if let Some(at) = scalar_indent {
            if indent > at {
                shaped += 1;
                continue;
            }
            scalar_indent = None;
        }
        let t = l.trim();
        let item = t.strip_prefix("- ").unwrap_or(t);
        let Some((key, value)) = yaml_key_value(item) else {
            if t.starts_with('#') || t == "---" || t.starts_with("- ") || t == "-" {
                shaped += 1;
            }
            continue;
        };
        // A ranked table's numbered row (`1:    40006    5761336  [J
        // (java.base@17)`, a JVM's class histogram) is no mapping: its
        // value is columns.
        if key.bytes().all(|b| b.is_ascii_digit()) && value.contains("  ") {
            continue;
        }
        shaped += 1;
        if value.is_empty() {
            let deeper = lines.get(i + 1).is_some_and(|next| {
                let next_indent = next.len() - next.trim_start().len();
                next_indent > indent || next.trim_start().starts_with("- ")
            });
            nests |= deeper;
        } else if matches!(value, "|" | ">" | "|-" | ">-" | "|+" | ">+") {
            scalar_indent = Some(indent);
        }
    }
    nests && is_document(shaped, lines.len())
}

fn is_document(shaped: usize, lines: usize) -> bool {
    lines >= LINES_AT_LEAST && shaped as f32 >= lines as f32 * DOCUMENT_SHARE
}

/// `[name]`, `[[a.b]]`, `[tool."x y"]`.
fn is_table_header(t: &str) -> bool {
    let inner = t
        .strip_prefix("[[")
        .and_then(|r| r.strip_suffix("]]"))
        .or_else(|| t.strip_prefix('[').and_then(|r| r.strip_suffix(']')));
    inner.is_some_and(|k| !k.is_empty() && is_toml_key(k))
}

/// A bare, quoted or dotted key.
fn is_toml_key(key: &str) -> bool {
    !key.is_empty()
        && (key.starts_with('"') && key.ends_with('"')
            || key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'"')))
}

/// A string, a number or date, a boolean, an array or an inline table.
fn is_toml_value(value: &str) -> bool {
    let v = value.trim();
    v.starts_with(['"', '\'', '[', '{'])
        || v == "true"
        || v == "false"
        || v.trim_start_matches(['+', '-'])
            .starts_with(|c: char| c.is_ascii_digit())
}

/// How many arrays are still open after `t`, `open` being open before it.
fn nested_arrays_after(t: &str, open: usize) -> usize {
    let mut depth = open as isize;
    let mut in_string = false;
    for c in t.chars() {
        match c {
            '"' => in_string = !in_string,
            '[' if !in_string => depth += 1,
            ']' if !in_string => depth -= 1,
            _ => {}
        }
    }
    depth.max(0) as usize
}

/// A YAML `key: value` or `key:` (the key bare, or quoted), split.
fn yaml_key_value(t: &str) -> Option<(&str, &str)> {
    let (key, value) = if let Some(key) = t.strip_suffix(':') {
        (key, "")
    } else {
        let (key, value) = t.split_once(": ")?;
        (key, value.trim())
    };
    let quoted = key.len() >= 2
        && (key.starts_with('\'') && key.ends_with('\'')
            || key.starts_with('"') && key.ends_with('"'));
    let bare = !key.is_empty()
        && !key.contains(' ')
        && !key.starts_with(['-', '#', '[', '{', '"', '\''])
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-./@+~()".contains(&b));
    (quoted || bare).then_some((key, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ranked_tables_numbered_rows_are_no_yaml() {
        let histogram = [
            "22776:",
            " num     #instances         #bytes  class name (module)",
            "-------------------------------------------------------",
            "   1:         40006        5761336  [J (java.base@17.0.15)",
            "   2:         87336        3057576  [B (java.base@17.0.15)",
            "   3:         40000        1600000  shop.Catalog$Product",
            "   4:         12000         480000  shop.Catalog$CartLine",
            "Total        179342       10898912",
        ];
        assert!(!looks_like_yaml(&histogram));
        assert!(looks_like_yaml(&[
            "ports:",
            "  1: 80",
            "  2: 443",
            "name: web",
            "image: nginx"
        ]));
    }

    fn lines(text: &str) -> Vec<&str> {
        text.lines().filter(|l| !l.trim().is_empty()).collect()
    }

    #[test]
    fn a_lockfile_saved_as_text_is_a_document() {
        let uv = "version = 1\nrevision = 5\nrequires-python = \">=3.11\"\n\n[[package]]\nname = \"blinker\"\nversion = \"1.9.0\"\nwheels = [\n    { url = \"https://x/blinker.whl\", hash = \"sha256:ba\" },\n]\n";
        assert!(looks_like_toml(&lines(uv)));
        let pnpm = "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n\npackages:\n\n  accepts@1.3.8:\n    resolution: {integrity: sha512-PY}\n    engines: {node: '>= 0.6'}\n";
        assert!(looks_like_yaml(&lines(pnpm)));
    }

    #[test]
    fn code_and_records_are_not_documents() {
        let settings = "import os\nDEBUG = True\nBASE = os.path.dirname(__file__)\nNAME = \"x\"\nPORT = 8000\nHOSTS = []\n";
        assert!(!looks_like_toml(&lines(settings)));
        // A program's `name: value` records nest nothing.
        let records = "hostname: worker-1\nversion: v6.2.1\ninstance: travis-job\nstartup: 6.2s\nlanguage: scala\n";
        assert!(!looks_like_yaml(&lines(records)));
        assert!(!looks_like_ini(&lines(records)), "no section");
    }

    #[test]
    fn delimited_rows_are_a_table_and_prose_is_not() {
        let csv: String = (0..10)
            .map(|i| format!("example.com/m{i},v1.{i}.0,h1:abc{i}=\n"))
            .collect();
        assert!(looks_like_table(&lines(&csv)));
        let tsv = csv.replace(',', "\t");
        assert!(looks_like_table(&lines(&tsv)));
        let prose: String = (0..10).map(|i| format!("Step {i}, done.\n")).collect();
        assert!(!looks_like_table(&lines(&prose)), "one comma a line");
        // `ldd`: every line led by one tab, which indents it.
        let ldd: String = (0..10)
            .map(|i| {
                format!("\tlib{i}.so.6 => /lib/x86_64-linux-gnu/lib{i}.so.6 (0x00007f64{i})\n")
            })
            .collect();
        assert!(!looks_like_table(&lines(&ldd)), "indented by a tab");
    }

    #[test]
    fn a_go_sum_is_a_document() {
        let sum = "golang.org/x/text v0.3.0 h1:g61tztE5qeGQ89tm6NTjjM9VPIm088od1l6aSorWRWG=\ngolang.org/x/text v0.3.0/go.mod h1:NqM8EUOU14njkJ3fqMW+pc6Ldnwhi/IjpwHt7yyuwOQ=\n";
        assert!(looks_like_go_sum(&lines(sum)));
        assert_eq!(
            go_sum_entry("golang.org/x/text v0.3.0/go.mod h1:NqM8="),
            Some(("golang.org/x/text", "v0.3.0/go.mod"))
        );
        assert!(!looks_like_go_sum(&lines("a b c\nd e f\n")));
        let yarn = "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n\n\n\
                    \"@isaacs/cliui@^8.0.2\":\n  version \"8.0.2\"\n  resolved \"https://r/cliui.tgz\"\n";
        assert!(looks_like_yarn_lock(&lines(yarn)));
        let os_release = "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\n\
                          VERSION_CODENAME=bookworm\nID=debian\nHOME_URL=\"https://www.debian.org/\"\n";
        assert!(looks_like_env_file(&lines(os_release)));
        let locale =
            "LANG=C.UTF-8\nLANGUAGE=\nLC_CTYPE=\"C.UTF-8\"\nLC_TIME=\"C.UTF-8\"\nLC_ALL=\n";
        assert!(looks_like_env_file(&lines(locale)));
        let log = "building x=1\nCC=gcc make all\nok = 3\nresult=done in 3s\nlinking\n";
        assert!(!looks_like_env_file(&lines(log)));
        let pins = "click==8.1.7\nidna==3.7\nurllib3==2.2.2\nrequests==2.32.3\ncertifi==2024.7.4\n";
        assert!(!looks_like_env_file(&lines(pins)));
        let script = "# one\n# two\n# three\n# four\nX=1\n# five\n";
        assert!(!looks_like_env_file(&lines(script)));
        assert!(!looks_like_yarn_lock(&lines(
            "# notes on yarn\nyarn lockfile v1 is old\n"
        )));
    }

    #[test]
    fn an_ini_file_is_a_document() {
        let pylintrc = "[MASTER]\n# Add files or directories to the blacklist.\nignore=CVS\nload-plugins=\n\n[MESSAGES CONTROL]\ndisable=C0111,\n    W0142\n[REPORTS]\noutput-format=text\n";
        assert!(looks_like_ini(&lines(pylintrc)));
        // A log with a bracketed line is not one.
        let log = "[build]\nCompiling foo v0.1.0\nerror: cannot find value `x`\n  --> src/lib.rs:3:5\nwarning: unused import\nerror: aborting due to previous error\n";
        assert!(!looks_like_ini(&lines(log)));
    }
}
