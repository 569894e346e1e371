//! Diffs a log prints: what a check compared. A failing assertion shows the
//! expected and actual values as a diff (PHP's run-tests `008+ int(2049)` /
//! `008- bool(true)`, PHPUnit's and testify's `--- Expected` / `+++ Actual`,
//! RSpec's `Diff:`, unittest's `- a` / `+ b`), and a formatting or
//! generated-file check shows the change it wants the same way. Its lines
//! differ by definition, in exactly the words a template masks (`+ int(2000)`
//! against `- int(2049)`), so they are no repeats of each other: a diff is
//! read whole, up to a bound.

use crate::search::Search;

use std::ops::Range;

/// Which side of a diff a line is on, if it reads as a diff line: a `+` or
/// `-` at its start (after indentation, or after PHP's expected-line number
/// `008+`), not followed by another sign or an arrow (`---` rules, `--flag`,
/// `+-- pkg` trees, `-> step`), nor a number (`-1`, `+0.5` are values);
/// and not a line of several such words (vim's `+acl  +farsi  -mouse`
/// feature table).
pub fn side(content: &str) -> Option<char> {
    let t = content.trim_ascii_start();
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
    let t = content.trim_ascii_start();
    let depth = content.len() - t.len();
    t.is_empty() || t.starts_with("@@") || (t.starts_with('?') && depth == indent) || depth > indent
}

/// Most lines between two changed lines of one diff (context lines).
const BETWEEN_AT_MOST: usize = 3;

/// The diffs in `contents`, in order: every hunk of a unified diff (see
/// [`hunks`]), and elsewhere each run from a first changed line to a last
/// with changed lines on both sides (`+` and `-`): a run of `+` lines
/// alone is a shell's trace (`+ make`), of `-` lines alone a list.
pub fn find(contents: &[&str]) -> Vec<Range<usize>> {
    let hunks = hunks(contents);
    let mut found = Vec::new();
    let mut start = 0;
    for hunk in hunks {
        found.extend(signed_runs(contents, start..hunk.start));
        start = hunk.end;
        found.push(hunk);
    }
    found.extend(signed_runs(contents, start..contents.len()));
    found
}

/// The hunks of unified diffs (`git diff`, `diff -u`, a formatting check's
/// `--diff`): each from its file's header (`diff --git`, `index`, `---`,
/// `+++` lines right above) to the last line its `@@ -a,b +c,d @@` header
/// counts. The header says how many lines the hunk holds, so a hunk that
/// only adds lines is a diff as surely as one that changes them.
pub fn hunks(contents: &[&str]) -> Vec<Range<usize>> {
    let mut found: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    while i < contents.len() {
        if let Some(end) = uncounted_hunk_end(contents, i) {
            let floor = found.last().map_or(0, |r| r.end);
            let start = (floor..i)
                .rev()
                .take_while(|&k| is_file_header(contents[k].trim_ascii_start()))
                .last()
                .unwrap_or(i);
            found.push(start..end);
            i = end;
            continue;
        }
        let Some((indent, mut old, mut new)) = hunk_header(contents[i]) else {
            i += 1;
            continue;
        };
        let floor = found.last().map_or(0, |r| r.end);
        let mut start = i;
        while start > floor && is_file_header(contents[start - 1].trim_ascii_start()) {
            start -= 1;
        }
        let mut end = i + 1;
        while end < contents.len() && (old > 0 || new > 0) {
            let Some(body) = contents[end].strip_prefix(indent) else {
                if contents[end].trim_ascii().is_empty() && old > 0 && new > 0 {
                    // A context line whose trailing space was trimmed.
                    (old, new) = (old - 1, new - 1);
                    end += 1;
                    continue;
                }
                break;
            };
            match body.as_bytes().first() {
                Some(b'+') if new > 0 => new -= 1,
                Some(b'-') if old > 0 => old -= 1,
                Some(b'\\') => {}
                Some(b' ') | None if old > 0 && new > 0 => (old, new) = (old - 1, new - 1),
                _ => break,
            }
            end += 1;
        }
        found.push(start..end);
        i = end;
    }
    found
}

/// Where the hunk ends that a bare `@@ @@` header at `i` opens under its
/// `+++` line, as PHPUnit prints an assertion's diff (`--- Expected`,
/// `+++ Actual`, `@@ @@`): it counts nothing, so the hunk runs while its
/// lines are a diff's (a sign or a space first, at the header's
/// indentation, or the next hunk's `@@ @@`), blank lines among them
/// included, up to the first line that is not (the trace under it, after
/// a blank line).
fn uncounted_hunk_end(contents: &[&str], i: usize) -> Option<usize> {
    let t = contents[i].trim_ascii_start();
    if !t.starts_with("@@ @@") || t.trim_ascii_end() != "@@ @@" {
        return None;
    }
    let indent = &contents[i][..contents[i].len() - t.len()];
    if i == 0 || !contents[i - 1].trim_ascii_start().starts_with("+++ ") {
        return None;
    }
    // (The next hunk's `@@ @@` too: PHPUnit parts a diff's hunks so.)
    let is_diff_line = |c: &str| {
        c.strip_prefix(indent).is_some_and(|body| {
            body.starts_with(['+', '-', ' ']) && !body.trim_ascii().is_empty()
                || body.trim_ascii_end() == "@@ @@"
        })
    };
    let mut end = i + 1;
    while end < contents.len() {
        if is_diff_line(contents[end]) {
            end += 1;
        } else if contents[end].trim_ascii().is_empty()
            && contents.get(end + 1).is_some_and(|c| is_diff_line(c))
        {
            end += 2;
        } else {
            break;
        }
    }
    Some(end)
}

/// A hunk header's indentation and the old and new lines it counts:
/// `@@ -100,6 +100,7 @@ heading` → 6 and 7 (a count left out is 1).
fn hunk_header(content: &str) -> Option<(&str, usize, usize)> {
    let t = content.trim_ascii_start();
    let indent = &content[..content.len() - t.len()];
    let rest = t.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_around(" +")?;
    let (new, _) = rest.split_around(" @@")?;
    Some((indent, hunk_count(old)?, hunk_count(new)?))
}

/// The count of `start[,count]` in a hunk header.
fn hunk_count(range: &str) -> Option<usize> {
    let (start, count) = range.split_around(",").unwrap_or((range, "1"));
    start.parse::<usize>().ok()?;
    count.parse().ok()
}

/// A line of a unified diff's file header.
fn is_file_header(t: &str) -> bool {
    const STARTS: &[&str] = &[
        "diff -",
        "index ",
        "--- ",
        "+++ ",
        "new file mode",
        "deleted file mode",
        "old mode",
        "new mode",
        "similarity index",
        "rename from",
        "rename to",
    ];
    STARTS.iter().any(|p| t.starts_with(p))
}

/// The runs of changed lines on both sides within `within` (see [`find`]).
fn signed_runs(contents: &[&str], within: Range<usize>) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut i = within.start;
    let contents = &contents[..within.end];
    while i < contents.len() {
        let Some(first) = side(contents[i]) else {
            i += 1;
            continue;
        };
        let indent = contents[i].len() - contents[i].trim_ascii_start().len();
        let (mut plus, mut minus) = (first == '+', first == '-');
        let mut last = i;
        let mut j = i + 1;
        while j < contents.len() && j - last <= BETWEEN_AT_MOST + 1 {
            let c = contents[j];
            match side(c) {
                Some(s) if c.len() - c.trim_ascii_start().len() == indent => {
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
        // PHPUnit's diff is unified: its hunk, headers and context too.
        assert_eq!(find(&log), vec![3..10]);
        let without_header: Vec<&str> = log
            .iter()
            .copied()
            .filter(|l| !l.starts_with("@@"))
            .collect();
        assert_eq!(find(&without_header), vec![6..8]);
    }

    #[test]
    fn a_diff_runs_across_its_context_lines() {
        let log = ["-a", " same", " same", "+b", "?  ^", "-c", "end of the run"];
        assert_eq!(find(&log), vec![0..6]);
    }

    #[test]
    fn a_unified_diff_is_read_by_its_hunk_headers() {
        let log = [
            "PLEASE APPLY CHANGES BELOW:",
            "diff --git a/EXPERIMENTAL.org b/EXPERIMENTAL.org",
            "index 82a3659..45640f1 100644",
            "--- a/EXPERIMENTAL.org",
            "+++ b/EXPERIMENTAL.org",
            "@@ -100,4 +100,5 @@ need to install the following packages:",
            " Install MSYS2 x86_64 from here.",
            "",
            " Run msys2_shell.bat and in the msys2 prompt run:",
            "+",
            " #+BEGIN_SRC shell",
            "diff --git a/doc/FAQ.org b/doc/FAQ.org",
            "--- a/doc/FAQ.org",
            "+++ b/doc/FAQ.org",
            "@@ -3 +3,2 @@",
            " Examples:",
            "+",
            "@@ -9,2 +10,2 @@ later",
            "-old",
            "+new",
            "The command \"make test\" exited with 1.",
        ];
        // Only additions, yet each hunk is a diff; a file's header goes
        // with its first hunk; the hunk ends where its counts do.
        assert_eq!(hunks(&log), vec![1..11, 11..17, 17..20]);
        assert_eq!(find(&log), vec![1..11, 11..17, 17..20]);
    }

    #[test]
    fn phpunits_uncounted_hunks_run_to_the_trace() {
        let log = [
            "1) CasterTest::testHtmlDump",
            "Failed asserting that format description matches text.",
            "--- Expected",
            "+++ Actual",
            "@@ @@",
            " <bar>{",
            "-  #line: 30",
            "+  #line: 28",
            "     &hellip;15",
            "   }",
            " }",
            " </bar>",
            "+",
            "@@ @@",
            " [",
            "",
            "-  a",
            "+  b",
            " ]",
            "",
            "/build/tests/CasterTest.php:124",
        ];
        // From the diff's header through both hunks, a blank line inside
        // included, to the blank line above the trace; a bare `@@ @@`
        // not under a `+++` line opens nothing.
        assert_eq!(hunks(&log), vec![2..19]);
        assert!(hunks(&["@@ @@", "+a", "-b"]).is_empty());
    }

    #[test]
    fn a_hunk_header_that_lies_ends_its_hunk_at_the_first_misfit() {
        let log = ["@@ -1,5 +1,5 @@", " a", "-b", "+c", "ok then", "-x", "+y"];
        assert_eq!(find(&log), vec![0..4, 5..7]);
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
