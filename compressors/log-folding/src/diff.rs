//! Diffs a log prints: what a check compared. A failing assertion shows the
//! expected and actual values as a diff (PHP's run-tests `008+ int(2049)` /
//! `008- bool(true)`, PHPUnit's and testify's `--- Expected` / `+++ Actual`,
//! RSpec's `Diff:`, unittest's `- a` / `+ b`), and a formatting or
//! generated-file check shows the change it wants the same way. Its lines
//! differ by definition, in exactly the words a template masks (`+ int(2000)`
//! against `- int(2049)`), so they are no repeats of each other: a diff is
//! read whole, up to a bound.

use std::ops::Range;

/// Which side of a diff a line is on, if it reads as a diff line: a `+` or
/// `-` at its start (after indentation, or after PHP's expected-line number
/// `008+`), not followed by another sign or an arrow (`---` rules, `--flag`,
/// `+-- pkg` trees, `-> step`), nor a number (`-1`, `+0.5` are values);
/// and not a line of several such words (vim's `+acl  +farsi  -mouse`
/// feature table).
pub fn side(content: &str) -> Option<char> {
    let t = content.trim_start();
    let after_number = t.trim_start_matches(|c: char| c.is_ascii_digit());
    let sign = if after_number.len() < t.len() {
        // `008+ text`: PHP numbers each expected or actual line.
        match after_number.as_bytes() {
            [s @ (b'+' | b'-'), b' ', ..] | [s @ (b'+' | b'-')]
                if t.len() - after_number.len() >= 3 =>
            {
                *s as char
            }
            _ => return None,
        }
    } else {
        let mut chars = t.chars();
        let sign = chars.next().filter(|c| matches!(c, '+' | '-'))?;
        match chars.next() {
            Some(c) if matches!(c, '+' | '-' | '>' | '=' | '|') || c.is_ascii_digit() => {
                return None;
            }
            _ => sign,
        }
    };
    let signed_words = t
        .split_whitespace()
        .filter(|w| {
            let mut c = w.chars();
            matches!(c.next(), Some('+' | '-')) && c.next().is_some_and(char::is_alphabetic)
        })
        .count();
    (signed_words <= 2).then_some(sign)
}

/// A line a diff carries between its changed lines: blank, a hunk header
/// (`@@ -1,3 +1,3 @@`), unittest's `?   ^` hint, or context (a line
/// indented deeper than the changed lines: a space where their sign is).
fn is_between(content: &str, indent: usize) -> bool {
    let t = content.trim_start();
    let depth = content.len() - t.len();
    t.is_empty() || t.starts_with("@@") || (t.starts_with('?') && depth == indent) || depth > indent
}

/// Most lines between two changed lines of one diff (context lines).
const BETWEEN_AT_MOST: usize = 3;

/// The diffs in `contents`: each a range from its first changed line to
/// its last, with changed lines on both sides (`+` and `-`): a run of `+`
/// lines alone is a shell's trace (`+ make`), of `-` lines alone a list.
pub fn find(contents: &[&str]) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < contents.len() {
        let Some(first) = side(contents[i]) else {
            i += 1;
            continue;
        };
        let indent = contents[i].len() - contents[i].trim_start().len();
        let (mut plus, mut minus) = (first == '+', first == '-');
        let mut last = i;
        let mut j = i + 1;
        while j < contents.len() && j - last <= BETWEEN_AT_MOST + 1 {
            let c = contents[j];
            match side(c) {
                Some(s) if c.len() - c.trim_start().len() == indent => {
                    plus |= s == '+';
                    minus |= s == '-';
                    last = j;
                }
                _ if is_between(c, indent) => {}
                _ => break,
            }
            j += 1;
        }
        if plus && minus {
            found.push(i..last + 1);
        }
        i = last + 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_on_a_side_when_a_sign_starts_it() {
        assert_eq!(side("+    int(2000)"), Some('+'));
        assert_eq!(side("-foo"), Some('-'));
        assert_eq!(side("       -expected"), Some('-'));
        assert_eq!(side("008+   [\"uid\"]=>"), Some('+'));
        assert_eq!(side("041- )"), Some('-'));
        assert_eq!(side("+"), Some('+'));
        for not_diff in [
            "--- a/x",
            "+++ b/x",
            "--release",
            "-> Installing",
            "+-- lodash@4",
            "-1",
            "+0.5",
            "2019 - a year",
            "12345",
            "=====",
            "+acl             +farsi           +mouse_netterm   +syntax",
        ] {
            assert_eq!(side(not_diff), None, "{not_diff}");
        }
    }

    #[test]
    fn a_diff_has_changed_lines_on_both_sides() {
        let log = [
            "+ make",
            "+ make install",
            "ok",
            "--- Expected",
            "+++ Actual",
            "@@ -1,3 +1,3 @@",
            " Array (",
            "-    0 => 'a'",
            "+    0 => 'b'",
            " )",
            "",
            "FAILURES!",
            "- item one",
            "- item two",
        ];
        assert_eq!(find(&log), vec![7..9]);
    }

    #[test]
    fn a_diff_runs_across_its_context_lines() {
        let log = ["-a", " same", " same", "+b", "?  ^", "-c", "end of the run"];
        assert_eq!(find(&log), vec![0..6]);
    }

    #[test]
    fn php_numbered_lines_make_a_diff() {
        let log = [
            "========DIFF========",
            "005- bool(true)",
            "",
            "008+  Dumping stat array 1...",
            "",
            "009+ array(26) {",
            "========DONE========",
        ];
        assert_eq!(find(&log), vec![1..6]);
    }
}
