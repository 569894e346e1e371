//! A linter's findings in a report of its own shape: a line naming a rule
//! by its code (`>> Issue: [B101:assert_used] …`, shellcheck's
//! `^-- SC2086 (info): …`, `… [SC2006]`), and the place it was found at
//! (`Location: http/client.py:179:8`, `In /usr/bin/bzexe line 39:`) in the
//! same block. The finding lines differ only by where they are, so the
//! template fold would take them for noise; each finding and its place stay.

use std::collections::HashSet;

use crate::markers;

/// How far before and after a finding its place may be printed.
const PLACE_BEFORE: usize = 3;
const PLACE_AFTER: usize = 5;

/// The lines to keep: every finding and the place in its block.
pub fn kept(contents: &[&str]) -> HashSet<usize> {
    let mut keep = HashSet::new();
    for (i, line) in contents.iter().enumerate() {
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

/// A blank line or a rule (`-----`) closes a finding's block.
fn ends_block(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.len() >= 3 && t.bytes().all(|b| matches!(b, b'-' | b'=' | b'*'))
}

/// A line naming a rule by its code: the code bracketed (`[B101:assert_used]`,
/// `[SC2006]`, `(E501)`) or followed by a level in parentheses
/// (`SC2086 (info)`).
pub fn is_finding(line: &str) -> bool {
    // Cheap test first: most lines of a log have no bracket or no digit.
    if !line.bytes().any(|b| b == b'[' || b == b'(') || !line.bytes().any(|b| b.is_ascii_digit()) {
        return false;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().enumerate().any(|(k, w)| {
        let bracketed =
            (w.starts_with('[') && w.ends_with(']')) || (w.starts_with('(') && w.ends_with(')'));
        let inner = w.trim_matches(|c| matches!(c, '[' | ']' | '(' | ')'));
        let inner = inner.trim_end_matches(':');
        let code = inner.split(':').next().unwrap_or("");
        let level_after = words.get(k + 1).is_some_and(|n| {
            n.starts_with('(')
                && markers::is_level_word(n.trim_matches(|c| matches!(c, '(' | ')' | ':')))
        });
        markers::is_rule_code(code) && (bracketed || level_after)
    })
}

/// A file and a line in it: `path:12[:5]`, `path(12)`, `path line 12`,
/// the path with a `/` or an extension.
fn names_a_place(line: &str) -> bool {
    if markers::has_source_location(line) {
        return true;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().enumerate().any(|(k, w)| {
        let (path, number) = match w.split_once(':') {
            Some((p, n)) => (p, n),
            None if words.get(k + 1) == Some(&"line") => {
                (*w, words.get(k + 2).copied().unwrap_or(""))
            }
            None => return false,
        };
        path.contains('/') && number.starts_with(|c: char| c.is_ascii_digit())
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
        assert_eq!(kept(&log), HashSet::from([0, 2]));
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
    }
}
