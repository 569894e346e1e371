//! A linter's findings in a report of its own shape: a line naming a rule
//! by its code (`>> Issue: [B101:assert_used] …`, shellcheck's
//! `^-- SC2086 (info): …`, `… [SC2006]`), and the place it was found at
//! (`Location: http/client.py:179:8`, `In /usr/bin/bzexe line 39:`) in the
//! same block. The finding lines differ only by where they are, so the
//! template fold would take them for noise; each finding and its place stay.
//!
//! So do lines led by a place (`urllib/parse.py:12: unused variable`,
//! `parse.js: line 235, col 5, …`, `Error.pm: Code before strictures … at
//! line 3`) when the places are mostly distinct: a report of findings, one
//! per place. A server's log that prints its source location on every line
//! names the same few places again and again, and folds as usual.

use crate::search::Search;
use rustc_hash::FxHashSet;

use crate::markers;

/// How far before and after a finding its place may be printed.
const PLACE_BEFORE: usize = 3;
const PLACE_AFTER: usize = 5;

/// Place-led lines are a report of findings when at least this share of
/// them name a place no other line names.
const DISTINCT_PLACES_SHARE: f64 = 0.5;

/// The lines to keep: every finding and the place in its block, and every
/// place-led line of a report (see the module's documentation).
pub fn kept(contents: &[&str]) -> FxHashSet<usize> {
    let mut keep = place_led_report(contents);
    for (i, line) in contents.iter().enumerate() {
        // pydocstyle's `    D103: Missing docstring` under its place line.
        let under_a_place = i > 0
            && opens_with_code(line)
            && (names_a_place(contents[i - 1]) || place_leading(contents[i - 1]).is_some());
        if under_a_place {
            keep.insert(i);
            continue;
        }
        if !is_finding(line) {
            continue;
        }
        keep.insert(i);
        let block_start = (i.saturating_sub(PLACE_BEFORE)..i)
            .rev()
            .find(|&j| ends_block(contents[j]))
            .map_or(i.saturating_sub(PLACE_BEFORE), |j| j + 1);
        let block_end = (i + 1..(i + 1 + PLACE_AFTER).min(contents.len()))
            .find(|&j| ends_block(contents[j]))
            .unwrap_or((i + 1 + PLACE_AFTER).min(contents.len()));
        keep.extend((block_start..block_end).filter(|&j| j != i && names_a_place(contents[j])));
    }
    keep
}

/// The place-led lines of `contents` when their places are mostly
/// distinct; none otherwise.
fn place_led_report(contents: &[&str]) -> FxHashSet<usize> {
    let led: Vec<(usize, (&str, &str))> = contents
        .iter()
        .enumerate()
        .filter_map(|(i, c)| place_leading(c).map(|p| (i, p)))
        .collect();
    if led.len() < 2 {
        return FxHashSet::default();
    }
    let mut seen: rustc_hash::FxHashMap<(&str, &str), usize> = Default::default();
    for (_, place) in &led {
        *seen.entry(*place).or_default() += 1;
    }
    let unique = seen.values().filter(|&&n| n == 1).count();
    if (unique as f64) < led.len() as f64 * DISTINCT_PLACES_SHARE {
        return FxHashSet::default();
    }
    led.into_iter().map(|(i, _)| i).collect()
}

/// The file and line number a line opens with: `path:12…`, `path: line 12…`,
/// `path: message … at line 12…`.
fn place_leading(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_ascii_start();
    // The path ends at the first colon, before any space: most lines fail here.
    let colon = t.bytes().position(|b| matches!(b, b':' | b' ' | b'\t'))?;
    if t.as_bytes()[colon] != b':' {
        return None;
    }
    let (path, rest) = (&t[..colon], &t[colon + 1..]);
    // A place in library code is a trace's frame, not a finding of the project's.
    if !crate::grep::is_path(path) || markers::is_library_path(path) {
        return None;
    }
    let digits = |s: &'_ str| s.bytes().take_while(u8::is_ascii_digit).count();
    let n = digits(rest);
    if n > 0 {
        let after = &rest[n..];
        // `path:12: in transform_to` is a traceback's frame (pytest's), not a finding.
        let frame = after.starts_with(": in ");
        return ((after.is_empty() || after.starts_with([':', ' '])) && !frame)
            .then_some((path, &rest[..n]));
    }
    let at = rest.find_str("line ")?;
    let number = &rest[at + 5..];
    let n = digits(number);
    (n > 0).then_some((path, &number[..n]))
}

/// `D103: message`: a rule code and a colon open the line.
fn opens_with_code(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .and_then(|w| w.strip_suffix(':'))
        .is_some_and(markers::is_rule_code)
}

/// A blank line or a rule (`-----`) closes a finding's block.
fn ends_block(line: &str) -> bool {
    let t = line.trim_ascii();
    t.is_empty() || t.len() >= 3 && t.bytes().all(|b| matches!(b, b'-' | b'=' | b'*'))
}

/// A line naming a rule by its code: the code bracketed (`[B101:assert_used]`,
/// `[SC2006]`, `(E501)`), followed by a level in parentheses
/// (`SC2086 (info)`) or in a column of its own (`| CP01 |`).
pub fn is_finding(line: &str) -> bool {
    // Cheap tests first: a code needs a bracket, a parenthesis or a bar
    // around or after it (looked for with `memchr`: most lines have none),
    // and is a capital then digits (`B101`), read in one pass.
    if memchr::memchr3(b'[', b'(', b'|', line.as_bytes()).is_none() {
        return false;
    }
    let (mut delimiter, mut code_like, mut capital) = (false, false, false);
    for b in line.bytes() {
        delimiter |= matches!(b, b'[' | b'(' | b'|');
        code_like |= capital && b.is_ascii_digit();
        capital = b.is_ascii_uppercase();
    }
    if !(delimiter && code_like) {
        return false;
    }
    let mut words = line.split_whitespace().peekable();
    let mut previous = "";
    while let Some(w) = words.next() {
        let next = words.peek().copied().unwrap_or("");
        let bracketed =
            (w.starts_with('[') && w.ends_with(']')) || (w.starts_with('(') && w.ends_with(')'));
        let inner = w.trim_matches(|c| matches!(c, '[' | ']' | '(' | ')'));
        let code = inner.trim_end_matches(':').split(':').next().unwrap_or("");
        let level_after = next.starts_with('(')
            && markers::is_level_word(next.trim_matches(|c| matches!(c, '(' | ')' | ':')));
        // A column of a table of findings: sqlfluff's `L: 2 | P: 1 | CP01 | …`.
        let in_column = previous == "|" && next == "|";
        if (bracketed || level_after || in_column) && markers::is_rule_code(code) {
            return true;
        }
        previous = w;
    }
    false
}

/// A file and a line in it: `path:12[:5]`, `path(12)`, `path line 12`,
/// the path with a `/` or an extension.
fn names_a_place(line: &str) -> bool {
    if markers::has_source_location(line) {
        return true;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().enumerate().any(|(k, w)| {
        let (path, number) = match w.split_around(":") {
            Some((p, n)) => (p, n),
            None if words.get(k + 1) == Some(&"line") => {
                (*w, words.get(k + 2).copied().unwrap_or(""))
            }
            None => return false,
        };
        path.has("/") && number.starts_with(|c: char| c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandit_issues_keep_their_locations() {
        let log = [
            ">> Issue: [B101:assert_used] Use of assert detected.",
            "   Severity: Low   Confidence: High",
            "   More Info: https://bandit.readthedocs.io/b101.html",
            "   Location: http/client.py:179:8",
            "178\t    if percent:",
            "",
            "--------------------------------------------------",
        ];
        let kept = kept(&log);
        assert!(kept.contains(&0) && kept.contains(&3));
        assert_eq!(kept.len(), 2);
    }

    #[test]
    fn shellcheck_findings_keep_their_line_headers() {
        let log = [
            "In /usr/bin/bzexe line 39:",
            "  cp \"$i\" $tmp",
            "            ^--^ SC2086 (info): Double quote to prevent globbing.",
            "",
            "Did you mean:",
        ];
        assert_eq!(kept(&log), FxHashSet::from_iter([0, 2]));
    }

    #[test]
    fn a_report_of_distinct_places_is_kept_and_a_chatty_server_is_not() {
        let report = [
            "picomatch/lib/parse.js: line 235, col 5, Misleading line break before '?'.",
            "picomatch/lib/parse.js: line 294, col 7, Misleading line break before '?'.",
            "/usr/share/perl5/Error.pm: Code before strictures are enabled at line 3, column 1.",
            "urllib/parse.py:12: unused variable 'x' (60% confidence)",
        ];
        assert_eq!(kept(&report).len(), 4);
        let server: Vec<String> = (0..20)
            .map(|i| format!("main.go:45: request {i} served"))
            .collect();
        let server: Vec<&str> = server.iter().map(String::as_str).collect();
        assert!(kept(&server).is_empty());
        let pydocstyle = [
            "urllib/parse.py:12 in public function `f`:",
            "        D103: Missing docstring in public function",
            "urllib/parse.py:40 in public class `C`:",
            "        D101: Missing docstring in public class",
        ];
        assert_eq!(kept(&pydocstyle).len(), 4);
    }

    #[test]
    fn codes_in_prose_are_not_findings() {
        for line in [
            "checksum SHA256 matches",
            "Compiling serde v1.0.1",
            "ISO8601 dates are parsed",
        ] {
            assert!(!is_finding(line), "{line}");
        }
        assert!(is_finding("x.sh:3:5: note: Use $(...) notation. [SC2006]"));
        assert!(is_finding(
            "L:   2 | P:   1 | CP01 | Keywords must be lower case."
        ));
    }
}
