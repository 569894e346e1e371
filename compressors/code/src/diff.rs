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
//!
//! A file whose hunks add and remove what an earlier file's did, line for
//! line (a rename done across many files), is a repeat: its name and each
//! hunk's header stay, and its hunks' lines fold under a marker naming the
//! file that showed those changes (see [`repeats`]).

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
    for (header, end) in hunks(lines) {
        let start = header + 1;
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
    }
    keep
}

/// Each hunk of `lines`: its header's index and the end of its body (its
/// lines until both counts the header gives are used up, and a `\ No
/// newline at end of file` after them).
fn hunks(lines: &[Line<'_>]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((mut old, mut new)) = hunk_counts(lines[i].code) else {
            i += 1;
            continue;
        };
        let mut end = i + 1;
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
        while end < lines.len() && lines[end].code.starts_with('\\') {
            end += 1;
        }
        found.push((i, end));
        i = end.max(i + 1);
    }
    found
}

/// For each line of a file's hunks that repeat an earlier file's (the
/// same added and removed lines, in the same order; the headers and the
/// context aside: a change may sit elsewhere in each file, among other
/// lines), the name of the file that showed them first; `None` for every
/// other line. A file is what follows a `+++ ` line, up to the next one.
pub fn repeats<'a>(lines: &[Line<'a>]) -> Vec<Option<&'a str>> {
    let mut of_line = vec![None; lines.len()];
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].code.starts_with("+++ "))
        .collect();
    let mut hunks = hunks(lines).into_iter().peekable();
    // Each file's added and removed lines, with the file that showed them
    // first.
    let mut first_of: Vec<(Vec<&str>, &str)> = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        // Hunks before a file's name belong to none.
        while hunks.next_if(|&(h, _)| h < start).is_some() {}
        let mut own = Vec::new();
        while let Some(h) = hunks.next_if(|&(h, _)| h < end) {
            own.push(h);
        }
        let changed: Vec<&str> = own
            .iter()
            .flat_map(|&(h, end)| lines[h + 1..end].iter().map(|l| l.code))
            .filter(|code| code.starts_with(['-', '+']))
            .collect();
        if changed.is_empty() {
            continue;
        }
        match first_of.iter().find(|(c, _)| *c == changed) {
            Some(&(_, first)) => {
                for &(h, end) in &own {
                    of_line[h + 1..end].fill(Some(first));
                }
            }
            None => {
                let path = &lines[start].code["+++ ".len()..];
                let name = path.split('\t').next().unwrap_or(path);
                first_of.push((changed, name.strip_prefix("b/").unwrap_or(name)));
            }
        }
    }
    of_line
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
    fn a_change_repeated_in_another_file_is_named_not_shown_again() {
        let file = |name: &str, at: usize| {
            format!(
                "diff --git a/{name} b/{name}\nindex 1..2 100644\n--- a/{name}\n+++ b/{name}\n\
                 @@ -{at},3 +{at},3 @@\n def f_{at}(key):\n-    rec = fetch_record(key)\n+    rec = load_record(key)\n     return rec\n"
            )
        };
        let diff =
            file("mod0.py", 1) + &file("mod1.py", 7) + &file("store.py", 1).replace("key", "k");
        let (lines, _) = source::lines(&diff);
        let repeats = repeats(&lines);
        let repeated: Vec<(&str, &str)> = lines
            .iter()
            .zip(&repeats)
            .filter_map(|(l, r)| Some((l.code, (*r)?)))
            .collect();
        assert_eq!(
            repeated,
            vec![
                (" def f_7(key):", "mod0.py"),
                ("-    rec = fetch_record(key)", "mod0.py"),
                ("+    rec = load_record(key)", "mod0.py"),
                ("     return rec", "mod0.py"),
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
