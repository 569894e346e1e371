//! Configuration files kept in their own syntax: every line that holds a
//! section, a key, a value or an element stays as written (a Read's `N→`
//! prefix too), so the exact string an agent edits or searches for is still
//! there. Only what reads as prose folds, each fold naming the lines it
//! hides (`… lines 14–40`) so they can be read again:
//! - a run of comment lines (`#`, `;`, `//`, an XML `<!-- … -->`) past its
//!   first line;
//! - a long text block past its first line: a YAML block scalar (`key: |`,
//!   `key: >-`) or a TOML multi-line string (`"""`, `'''`), whose closing
//!   line stays.
//!
//! An outline (see [`crate::render`]) rewrites a file in another syntax; it
//! is used only where it is much smaller than this (see
//! [`crate::compress_within`]).

/// A fold must hide at least this many lines: a shorter one costs about
/// what it saves.
const MIN_FOLDED_LINES: usize = 2;

/// One line: as given, without a Read prefix, and its number.
struct Line<'a> {
    raw: &'a str,
    code: &'a str,
    number: usize,
}

/// `text` with its comment runs and long text blocks folded, every other
/// line kept as it is.
pub fn fold(text: &str) -> String {
    let lines = numbered_lines(text);
    let mut out = String::with_capacity(text.len() / 2);
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        let (kept, end) = if let Some(end) = comment_run(&lines, i) {
            (1, end)
        } else if let Some(end) = block_scalar(&lines, i) {
            (2, end)
        } else if let Some(end) = multiline_string(&lines, i) {
            // The closing line stays: fold only what lies between.
            (2, end.saturating_sub(1).max(i + 1))
        } else {
            push(&mut out, line.raw);
            i += 1;
            continue;
        };
        let kept_end = (i + kept).min(end);
        for l in &lines[i..kept_end] {
            push(&mut out, l.raw);
        }
        if end - kept_end >= MIN_FOLDED_LINES {
            let first = &lines[kept_end];
            let indent = &first.code[..first.code.len() - first.code.trim_start().len()];
            let marker = format!("{indent}… lines {}–{}", first.number, lines[end - 1].number);
            push(&mut out, &marker);
        } else {
            for l in &lines[kept_end..end] {
                push(&mut out, l.raw);
            }
        }
        i = end;
    }
    out
}

fn push(out: &mut String, line: &str) {
    out.push_str(line);
    out.push('\n');
}

/// The lines of `text`, with Read's `N→` prefixes read when every
/// non-blank line has one.
fn numbered_lines(text: &str) -> Vec<Line<'_>> {
    let raw: Vec<&str> = text.lines().collect();
    let numbered = raw
        .iter()
        .filter(|l| !l.trim().is_empty())
        .all(|l| read_prefix(l).is_some());
    raw.iter()
        .enumerate()
        .map(|(i, l)| match read_prefix(l).filter(|_| numbered) {
            Some((number, code)) => Line {
                raw: l,
                code,
                number,
            },
            None => Line {
                raw: l,
                code: l,
                number: i + 1,
            },
        })
        .collect()
}

/// `"    12→key = 1"` → `(12, "key = 1")` (see [`crate::jsonl`]'s split).
fn read_prefix(line: &str) -> Option<(usize, &str)> {
    let (prefix, rest) = crate::jsonl::split_line_number(line);
    let number = prefix.trim_start().trim_end_matches('→').parse().ok()?;
    Some((number, rest))
}

fn indent(code: &str) -> usize {
    code.len() - code.trim_start().len()
}

fn is_comment(code: &str) -> bool {
    let t = code.trim_start();
    t.starts_with('#') || t.starts_with(';') || t.starts_with("//")
}

/// The end (exclusive) of the comment run starting at `i`, when one does:
/// comment lines in a row, or an XML comment from `<!--` to `-->`.
fn comment_run(lines: &[Line<'_>], i: usize) -> Option<usize> {
    let t = lines[i].code.trim_start();
    if t.starts_with("<!--") {
        let end = (i..lines.len()).find(|&j| lines[j].code.contains("-->"))?;
        return (end > i).then_some(end + 1);
    }
    if !is_comment(t) {
        return None;
    }
    let end = (i..lines.len())
        .find(|&j| !is_comment(lines[j].code))
        .unwrap_or(lines.len());
    Some(end)
}

/// The end (exclusive) of the YAML block scalar opened at `i` (`key: |`,
/// `- run: >-`): the lines indented deeper than its key, trailing blank
/// lines left out.
fn block_scalar(lines: &[Line<'_>], i: usize) -> Option<usize> {
    let code = lines[i].code.trim_end();
    let (head, style) = code.rsplit_once(':')?;
    let style = style.trim();
    if head.trim().is_empty()
        || !(style.starts_with('|') || style.starts_with('>'))
        || !style[1..]
            .chars()
            .all(|c| matches!(c, '-' | '+' | '0'..='9'))
    {
        return None;
    }
    let base = indent(code);
    let mut end = i + 1;
    let mut last = i;
    while end < lines.len() {
        let c = lines[end].code;
        if c.trim().is_empty() {
            end += 1;
            continue;
        }
        if indent(c) <= base {
            break;
        }
        last = end;
        end += 1;
    }
    (last > i).then_some(last + 1)
}

/// The end (exclusive) of the TOML multi-line string opened at `i`
/// (`description = """`), its closing line included.
fn multiline_string(lines: &[Line<'_>], i: usize) -> Option<usize> {
    let code = lines[i].code;
    let quote = ["\"\"\"", "'''"]
        .into_iter()
        .find(|q| code.contains('=') && code.matches(q).count() == 1)?;
    let close = (i + 1..lines.len()).find(|&j| lines[j].code.contains(quote))?;
    Some(close + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_runs_fold_past_their_first_line_and_settings_stay() {
        let text = "[MASTER]\n# Add files or directories\n# to the blacklist. They should\n# be base names.\nignore=CVS\n; one\n; two\njobs=1\n";
        let out = fold(text);
        assert_eq!(
            out,
            "[MASTER]\n# Add files or directories\n… lines 3–4\nignore=CVS\n; one\n; two\njobs=1\n"
        );
    }

    #[test]
    fn a_yaml_block_scalar_keeps_its_key_and_first_line() {
        let text = "flag:\n  arg_name: cluster\n  help_text: |\n    Name of the cluster.\n    Value must be\n    a relative name.\n\nnext:\n  arg_name: x\n";
        let out = fold(text);
        assert_eq!(
            out,
            "flag:\n  arg_name: cluster\n  help_text: |\n    Name of the cluster.\n    … lines 5–6\n\nnext:\n  arg_name: x\n"
        );
    }

    #[test]
    fn a_toml_string_keeps_its_closing_line_and_read_numbers_stay() {
        let text = "     1→[package]\n     2→description = \"\"\"\n     3→An event-driven,\n     4→non-blocking platform\n     5→for writing\n     6→\"\"\"\n     7→version = \"1.0\"\n";
        let out = fold(text);
        assert_eq!(
            out,
            "     1→[package]\n     2→description = \"\"\"\n     3→An event-driven,\n… lines 4–5\n     6→\"\"\"\n     7→version = \"1.0\"\n"
        );
    }

    #[test]
    fn an_xml_comment_folds_and_elements_stay() {
        let text = "<?xml version=\"1.0\"?>\n<!--\nLicensed to the ASF\nunder one or more\nagreements.\n-->\n<project>\n  <artifactId>maven</artifactId>\n</project>\n";
        let out = fold(text);
        assert_eq!(
            out,
            "<?xml version=\"1.0\"?>\n<!--\n… lines 3–6\n<project>\n  <artifactId>maven</artifactId>\n</project>\n"
        );
    }
}
