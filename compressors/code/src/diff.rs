//! Unified diffs (`git diff`, `git show`, `git log -p`, `diff -u`, a
//! `.patch` file): what a diff says is its changed lines, the very words
//! that were written or removed. Every added and removed line stays, with
//! what says where (`diff --git`, `---`/`+++`, each hunk's `@@` header) and
//! everything outside the hunks (a commit's header and message). Of the
//! unchanged context, the lines next to a change stay to place it; longer
//! runs fold like a body, with the lines they span.
//!
//! A hunk is read by the counts its header gives (`@@ -12,7 +12,9 @@`), so
//! a context line that looks like a header (`--- a` in a diff of a diff)
//! is context all the same.

use crate::source::Line;

/// Unchanged lines kept on each side of a change.
const CONTEXT_KEPT: usize = 1;

/// Whether `lines` hold a unified diff: a `+++` line followed by a hunk's
/// header.
pub fn is_unified_diff(lines: &[Line<'_>]) -> bool {
    lines
        .windows(2)
        .any(|w| w[0].code.starts_with("+++ ") && hunk_counts(w[1].code).is_some())
}

/// Which lines stay (see the module's doc).
pub fn keep_mask(lines: &[Line<'_>]) -> Vec<bool> {
    let mut keep = vec![true; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let Some((mut old, mut new)) = hunk_counts(lines[i].code) else {
            i += 1;
            continue;
        };
        // The hunk's body: its lines until both counts are used up.
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && (old > 0 || new > 0) {
            match lines[end].code.as_bytes().first() {
                Some(b'-') => old = old.saturating_sub(1),
                Some(b'+') => new = new.saturating_sub(1),
                Some(b'\\') => {}
                // A context line (an empty one too, where a tool trimmed
                // its space).
                _ => {
                    old = old.saturating_sub(1);
                    new = new.saturating_sub(1);
                }
            }
            end += 1;
        }
        // `\ No newline at end of file` may follow the last line.
        while end < lines.len() && lines[end].code.starts_with('\\') {
            end += 1;
        }
        let first = |k: usize| lines[k].code.as_bytes().first().copied();
        let changed = |k: usize| matches!(first(k), Some(b'-' | b'+'));
        for (k, kept) in keep.iter_mut().enumerate().take(end).skip(start) {
            // `\ No newline at end of file` stays with the line it is of.
            if !changed(k) && first(k) != Some(b'\\') {
                *kept = (k.saturating_sub(CONTEXT_KEPT).max(start)
                    ..=(k + CONTEXT_KEPT).min(end - 1))
                    .any(changed);
            }
        }
        i = end.max(i + 1);
    }
    keep
}

/// The old and new line counts a hunk's header gives: `(7, 9)` of `@@
/// -12,7 +12,9 @@ fn total()`, `(1, 1)` of `@@ -3 +3 @@`.
fn hunk_counts(line: &str) -> Option<(usize, usize)> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, _) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    Some((count_of(old)?, count_of(new)?))
}

/// The count of a hunk's range, `7` of `12,7`, `1` of `3`.
fn count_of(range: &str) -> Option<usize> {
    let (start, count) = range.split_once(',').unwrap_or((range, "1"));
    start.parse::<usize>().ok()?;
    count.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source;

    #[test]
    fn changed_lines_stay_and_far_context_folds() {
        let mut diff = String::from(
            "commit 3f2a\nAuthor: dev <dev@example.com>\n\n    Name the splitter\n\ndiff --git a/t.rs b/t.rs\nindex 1..2 100644\n--- a/t.rs\n+++ b/t.rs\n@@ -1,9 +1,9 @@ fn total()\n",
        );
        for k in 0..4 {
            diff.push_str(&format!(" fn a{k}() {{ }}\n"));
        }
        diff.push_str("-fn split() {\n+fn split_into_chunks() {\n");
        for k in 0..4 {
            diff.push_str(&format!(" fn b{k}() {{ }}\n"));
        }
        diff.push_str("\\ No newline at end of file\n");
        let (lines, _) = source::lines(&diff);
        assert!(is_unified_diff(&lines));
        let keep = keep_mask(&lines);
        let kept: Vec<&str> = lines
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(l, _)| l.code)
            .collect();
        assert_eq!(
            kept,
            vec![
                "commit 3f2a",
                "Author: dev <dev@example.com>",
                "",
                "    Name the splitter",
                "",
                "diff --git a/t.rs b/t.rs",
                "index 1..2 100644",
                "--- a/t.rs",
                "+++ b/t.rs",
                "@@ -1,9 +1,9 @@ fn total()",
                " fn a3() { }",
                "-fn split() {",
                "+fn split_into_chunks() {",
                " fn b0() { }",
                "\\ No newline at end of file",
            ]
        );
    }

    #[test]
    fn a_hunk_is_read_by_its_counts() {
        // A diff of a patch: its context holds `--- a` and `@@` lines.
        let diff = "--- a/x.patch\n+++ b/x.patch\n@@ -1,4 +1,4 @@\n--- a/y\n-+++ b/y\n++++ b/z\n @@ -1 +1 @@\n-old\n";
        let (lines, _) = source::lines(diff);
        let keep = keep_mask(&lines);
        assert!(keep.iter().all(|k| *k), "{keep:?}");
        assert!(!is_unified_diff(
            &source::lines("fn main() {\n    let a = 1;\n}\n").0
        ));
        assert_eq!(hunk_counts("@@ -3 +3 @@"), Some((1, 1)));
        assert_eq!(hunk_counts("@@ -0,0 +1,12 @@"), Some((0, 12)));
    }
}
