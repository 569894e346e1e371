//! Search results: `grep -rn`, ripgrep, Claude Code's Grep in content mode.
//! A match is `path:line:text` (or `path:text` without line numbers), a
//! context line `path-line-text`, and `--` separates groups. Grouped by
//! file, each path is written once and its lines follow as `  line: text`
//! (context lines `  line- text`): no match is lost, the repeated paths are.

use crate::search::Search;

/// Agent tools whose output is search results: Claude Code's Grep (content
/// mode prints `path:line:text`). A shell's output is never regrouped, since
/// a linter's `path:line: message` has the same shape.
pub const SEARCH_TOOLS: &[&str] = &["Grep"];

/// Whether `tool` (an agent's tool name) prints search results.
pub fn is_search_tool(tool: &str) -> bool {
    SEARCH_TOOLS.contains(&tool)
}

/// Fewer lines than this are not worth grouping.
const MIN_LINES: usize = 4;
/// Share of non-blank lines that must be search results.
const MIN_SHARE: f64 = 0.9;

/// One line of search output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hit<'a> {
    path: &'a str,
    /// The line number, when the search printed one.
    line: Option<&'a str>,
    /// A context line (`-`) rather than a match (`:`).
    context: bool,
    text: &'a str,
}

/// Whether `path` looks like a file's path: no spaces, a `/` or an extension.
pub(crate) fn is_path(path: &str) -> bool {
    !path.is_empty()
        && path.len() < 512
        && !path.contains(char::is_whitespace)
        && (path.has("/")
            || path.rsplit_around(".").is_some_and(|(a, e)| {
                !a.is_empty() && e.chars().all(|c| c.is_ascii_alphanumeric()) && !e.is_empty()
            }))
}

/// `path:12:text`, `path:text`, or (after a line of `path`) `path-12-text`.
fn parse<'a>(line: &'a str, previous_path: Option<&str>) -> Option<Hit<'a>> {
    if let Some(path) = previous_path
        && let Some(rest) = line.strip_prefix(path).and_then(|r| r.strip_prefix('-'))
    {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with('-') {
            return Some(Hit {
                path: &line[..path.len()],
                line: Some(&rest[..digits]),
                context: true,
                text: &rest[digits + 1..],
            });
        }
    }
    let (path, rest) = line.split_around(":")?;
    if !is_path(path) {
        return None;
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (number, text) = match rest[digits..].strip_prefix(':') {
        Some(text) if digits > 0 => (Some(&rest[..digits]), text),
        _ => (None, rest),
    };
    Some(Hit {
        path,
        line: number,
        context: false,
        text,
    })
}

/// Every line parsed, `None` for blank lines and `--` separators; `None`
/// overall when `lines` are not search output (too few, too few parsed, or
/// one line per file, where grouping saves nothing).
fn hits<'a>(lines: &[&'a str]) -> Option<Vec<Option<Hit<'a>>>> {
    let mut out = Vec::with_capacity(lines.len());
    let mut previous: Option<&str> = None;
    let (mut parsed, mut other) = (0usize, 0usize);
    for line in lines {
        if line.trim_ascii().is_empty() || *line == "--" {
            out.push(None);
            continue;
        }
        // A compiler's or linter's diagnostic is read as it was printed,
        // never regrouped (mypy's `path:12: error: …`).
        let hit = parse(line, previous).filter(|_| !crate::markers::is_diagnostic(line));
        match hit {
            Some(hit) => {
                parsed += 1;
                previous = Some(hit.path);
                out.push(Some(hit));
            }
            None => {
                other += 1;
                out.push(None);
            }
        }
    }
    let files = {
        let mut paths: Vec<&str> = out.iter().flatten().map(|h| h.path).collect();
        paths.dedup();
        paths.len()
    };
    let enough = parsed >= MIN_LINES && parsed as f64 >= (parsed + other) as f64 * MIN_SHARE;
    (enough && files * 2 <= parsed).then_some(out)
}

/// Whether `text` is search output worth grouping by file.
pub fn looks_like(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().take(400).collect();
    hits(&lines).is_some()
}

/// Search output grouped by file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grouped {
    /// Each file's path, then its result lines indented.
    pub lines: Vec<String>,
    /// Files (a file the results come back to is counted again).
    pub files: usize,
    /// Result lines: matches and context lines.
    pub results: usize,
}

/// `lines` grouped by file, or `None` when they are not search output.
/// Lines that are not results (a trailing summary) are kept as they are.
pub fn group(lines: &[&str]) -> Option<Grouped> {
    let parsed = hits(lines)?;
    let mut out = Vec::with_capacity(lines.len());
    let (mut files, mut results) = (0, 0);
    let mut current: Option<&str> = None;
    for (line, hit) in lines.iter().zip(parsed) {
        let Some(hit) = hit else {
            if !line.trim_ascii().is_empty() && *line != "--" {
                current = None;
                out.push(line.to_string());
            }
            continue;
        };
        if current != Some(hit.path) {
            out.push(hit.path.to_string());
            current = Some(hit.path);
            files += 1;
        }
        results += 1;
        let mark = if hit.context { '-' } else { ':' };
        out.push(match hit.line {
            Some(n) => format!("  {n}{mark} {}", hit.text),
            None => format!("  {}", hit.text),
        });
    }
    Some(Grouped {
        lines: out,
        files,
        results,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_are_grouped_under_their_file() {
        let text = "src/a.rs:10:fn one() {}\nsrc/a.rs-11-    body\nsrc/a.rs:12:fn two() {}\n--\n\
                    src/b.rs:3:fn three() {}\nsrc/b.rs:9:fn four() {}\n";
        let lines: Vec<&str> = text.lines().collect();
        assert!(looks_like(text));
        let grouped = group(&lines).unwrap();
        assert_eq!((grouped.files, grouped.results), (2, 5));
        assert_eq!(
            grouped.lines,
            [
                "src/a.rs",
                "  10: fn one() {}",
                "  11-     body",
                "  12: fn two() {}",
                "src/b.rs",
                "  3: fn three() {}",
                "  9: fn four() {}",
            ]
        );
    }

    #[test]
    fn files_without_line_numbers_and_other_text() {
        let text = "lib/x.ex:  def a\nlib/x.ex:  def b\nlib/y.ex:  def c\nlib/y.ex:  def d\n";
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(group(&lines).unwrap().lines[1], "    def a");
        // A log with colons is not search output; nor is one hit per file.
        assert!(!looks_like(
            "Error: one\nWarning: two\nError: three\nInfo: four\n"
        ));
        assert!(!looks_like("a.rs:1:x\nb.rs:1:x\nc.rs:1:x\nd.rs:1:x\n"));
        assert!(!looks_like(
            "2026-01-01 12:00:01 started\n2026-01-01 12:00:02 ok\n"
        ));
    }
}
