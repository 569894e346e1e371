//! Code frames under compiler and linter diagnostics, read by their
//! structure: rustc, clippy, ruff's full format, gcc and clang print the
//! offending source under a gutter (`  |`, `6 |     sum as u64`) after the
//! diagnostic's location (`--> src/lib.rs:6:5`, `lib.c:6:5: error: …`).
//!
//! The source is code the agent can read in the file at that location; the
//! labels under it are messages. So a frame's source lines and its bare
//! gutter, caret and suggestion lines fold, and a label line (carets or
//! dashes followed by words: `^^^ expected `u32`, found `u64``) stays, as do
//! the header, the location and the `= note`/`help:` lines around the frame.
//! A frame showing a change (`ruff format --check`'s `98  + new` and `    -
//! old`, the dashed rule between hunks) is source too, and folds. So does a
//! frame printed with no gutter (javac, javadoc, older gcc): the source line
//! right under the diagnostic and a line of carets under it.

use crate::search::Search;

use crate::pytest_tb::Role;

/// The role of every line of `contents` (timestamps removed) with respect
/// to code frames: `Folded` for a frame's source and bare gutter lines,
/// `Kept` for its label lines, `Other` elsewhere. `diagnostic` says which
/// lines are diagnostics ([`crate::markers::is_diagnostic`]), read once
/// for all.
pub fn roles(contents: &[&str], diagnostic: &[bool]) -> Vec<Role> {
    let mut roles = vec![Role::Other; contents.len()];
    // Whether the lines since the last diagnostic location are its frame
    // (and the notes between its frames).
    let mut in_diagnostic = false;
    for (i, line) in contents.iter().enumerate() {
        // A frame showing a change (ruff format's `98  + new`, `    - old`,
        // rustc's suggested edits) and the rule between its hunks: source,
        // as the file or the fix will show it.
        if in_diagnostic && (diff_gutter(line) || is_hunk_rule(line)) {
            roles[i] = Role::Folded;
            continue;
        }
        if let Some(rest) = gutter_rest(line) {
            if in_diagnostic {
                roles[i] = if is_label(rest) {
                    Role::Kept
                } else {
                    Role::Folded
                };
            }
            continue;
        }
        let t = line.trim_ascii();
        // A location opens a diagnostic's frames; its notes and help (which
        // may show a frame of their own) and their indented continuations
        // keep it open; a blank line or anything else ends it.
        in_diagnostic = diagnostic[i]
            || t.starts_with("= ")
            || t.starts_with("help:")
            || t.starts_with("note:")
            || in_diagnostic
                && (t == "..." || !t.is_empty() && line.starts_with(char::is_whitespace));
    }
    pointed_frames(contents, &mut roles);
    bare_frames(contents, diagnostic, &mut roles);
    roles
}

/// javac, javadoc and gcc before version 9 print a diagnostic's source
/// line right under it with no gutter, and under that a line of nothing
/// but a caret pointing at the column (`A.java:3: error: …`, `  int f() {
/// return "s"; }`, `                   ^`). Under an error or a warning the
/// source is the file's at the place the diagnostic names, and the caret
/// says only the column: both fold, the diagnostic stays. Under a note
/// (`previous declaration of 'f' was here`) the source is what the note
/// shows, and stays; so does a frame under a line that is only a place
/// (node's crash report prints `file.js:56`, the source, the caret, then
/// the message).
fn bare_frames(contents: &[&str], diagnostic: &[bool], roles: &mut [Role]) {
    let error_or_warning = |line: &str| {
        crate::markers::diagnostic_parts(line)
            .is_some_and(|d| matches!(d.level().as_str(), "error" | "warning"))
    };
    for i in 0..contents.len().saturating_sub(2) {
        let (source, caret) = (i + 1, i + 2);
        if diagnostic[i]
            && error_or_warning(contents[i])
            && !diagnostic[source]
            && !contents[source].trim_ascii().is_empty()
            && is_bare_caret(contents[caret])
            && roles[source] == Role::Other
            && roles[caret] == Role::Other
        {
            roles[source] = Role::Folded;
            roles[caret] = Role::Folded;
        }
    }
}

/// A line of nothing but a caret and its underline (`       ^`, `   ^~~~`).
fn is_bare_caret(line: &str) -> bool {
    let t = line.trim_ascii();
    t.starts_with('^') && t.chars().all(|c| matches!(c, '^' | '~'))
}

/// Frames outside a diagnostic: test runners and bundlers (jest, vitest,
/// babel) print the failing source under a gutter and point at one line
/// (`> 33 |` or a caret line under it). A run of at least
/// [`POINTED_FRAME_LINES`] gutter lines with numbered source and a pointer
/// is a frame. A frame is rare information when the log shows at most
/// [`FEW_POINTED_FRAMES`] of them (the failure's own message, as a person
/// reads it): it stays whole. Beyond that its source folds, and the line
/// pointed at and labels stay.
fn pointed_frames(contents: &[&str], roles: &mut [Role]) {
    let frames = find_pointed_frames(contents, roles);
    let few = frames.len() <= FEW_POINTED_FRAMES;
    for (run, pointed) in frames {
        for k in run {
            roles[k] = if few || pointed.contains(&k) {
                Role::Kept
            } else {
                Role::Folded
            };
        }
    }
}

/// Most pointed frames a log may show for them to stay whole.
const FEW_POINTED_FRAMES: usize = 2;

/// Each pointed frame's lines, with those that stay when frames fold (the
/// line pointed at, labels).
fn find_pointed_frames(
    contents: &[&str],
    roles: &[Role],
) -> Vec<(std::ops::Range<usize>, Vec<usize>)> {
    let mut frames = Vec::new();
    let pointer = |l: &str| l.trim_ascii_start().starts_with('>');
    fn gutter(l: &str) -> Option<&str> {
        let t = l.trim_ascii_start();
        gutter_rest(t.strip_prefix('>').unwrap_or(t))
    }
    let numbered = |l: &str| {
        let t = l
            .trim_ascii_start()
            .trim_start_matches('>')
            .trim_ascii_start();
        t.starts_with(|c: char| c.is_ascii_digit())
    };
    let mut i = 0;
    while i < contents.len() {
        let start = i;
        while i < contents.len() && roles[i] == Role::Other && gutter(contents[i]).is_some() {
            i += 1;
        }
        if i == start {
            i += 1;
            continue;
        }
        let run = start..i;
        let carets: Vec<usize> = run
            .clone()
            .filter(|&k| !numbered(contents[k]) && gutter(contents[k]).is_some_and(|r| r.has("^")))
            .collect();
        let has_pointer = run.clone().any(|k| pointer(contents[k]));
        if run.len() < POINTED_FRAME_LINES
            || !run.clone().any(|k| numbered(contents[k]))
            || !has_pointer && carets.is_empty()
        {
            continue;
        }
        let kept = run
            .clone()
            .filter(|&k| {
                pointer(contents[k])
                    || !has_pointer && carets.contains(&(k + 1)) && numbered(contents[k])
                    || is_label(gutter(contents[k]).unwrap_or(""))
            })
            .collect();
        frames.push((run, kept));
    }
    frames
}

/// A changed line in a frame: `98  + text` (added, numbered) or `    -
/// text` (removed) — a sign after the gutter's number or indentation,
/// then a space or nothing.
fn diff_gutter(line: &str) -> bool {
    let t = line.trim_ascii_start();
    let numbered = t.starts_with(|c: char| c.is_ascii_digit());
    if !numbered && t.len() == line.len() {
        return false;
    }
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
    if numbered && !t.starts_with(' ') {
        return false;
    }
    let t = t.trim_ascii_start();
    let rest = t.strip_prefix(['+', '-']);
    rest.is_some_and(|r| r.is_empty() || r.starts_with(' '))
}

/// The rule a frame draws between two hunks of a change (a line of dashes).
fn is_hunk_rule(line: &str) -> bool {
    let t = line.trim_ascii();
    t.len() >= 20 && t.bytes().all(|b| b == b'-')
}

/// Gutter lines a frame outside a diagnostic has at least.
const POINTED_FRAME_LINES: usize = 3;

/// What follows the gutter of a code-frame line (`  |`, `12 | code`,
/// `   :`), or `None` when the line is not one.
fn gutter_rest(line: &str) -> Option<&str> {
    let t = line.trim_ascii_start();
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
    let t = t.trim_ascii_start();
    let rest = t.strip_prefix('|')?;
    // A table row (`| a | b |`) is not a gutter: a gutter is followed by
    // nothing or by a space, and the line does not end with a bar.
    (rest.is_empty() || rest.starts_with(' ') && !rest.trim_ascii_end().ends_with('|'))
        .then_some(rest)
}

/// Whether the text after a gutter is a label: underline marks (`^`, `-`,
/// `~`, `_`, `|`) followed by words. Source code, bare marks and
/// suggestion marks (`+++`) are not.
fn is_label(rest: &str) -> bool {
    let t = rest.trim_ascii_start();
    let marks = t
        .char_indices()
        .find(|(_, c)| !matches!(c, '^' | '-' | '~' | '_' | '|' | ' '))
        .map_or(t.len(), |(i, _)| i);
    marks > 0
        && t[..marks].contains(['^', '-', '~'])
        && t[marks..].chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_with_no_gutter_folds_under_its_diagnostic() {
        let contents = [
            "demo/Ledger.java:24: warning: no @return",
            "    public long balance(String account) { return 0L; }",
            "                ^",
            "A.java:4: error: cannot find symbol",
            "  void g() { undefined(); }",
            "             ^",
            "  symbol:   method undefined()",
            "m.c:2:5: warning: unused variable 'x'",
            "   int x;",
            "       ^~",
            "vis.h:45:6: note: previous declaration of 'tick' was here",
            " void tick(Vis *, fd_set *);",
            "      ^",
            "  lib/a.js:0:0: node_modules/x/toToken.js:56",
            "    token.value = 1;",
            "                  ^",
            "A caret alone is no frame:",
            "    ^",
        ];
        let roles = roles(&contents);
        let folded: Vec<usize> = (0..contents.len())
            .filter(|&i| roles[i] == Role::Folded)
            .collect();
        assert_eq!(folded, [1, 2, 4, 5, 8, 9]);
    }

    /// The roles of `contents`, its diagnostics read here.
    fn roles(contents: &[&str]) -> Vec<Role> {
        let diagnostic: Vec<bool> = contents
            .iter()
            .map(|c| crate::markers::is_diagnostic(c))
            .collect();
        super::roles(contents, &diagnostic)
    }

    #[test]
    fn rustc_frames_fold_their_source_and_keep_their_labels() {
        let log = [
            "error[E0308]: mismatched types",
            " --> src/lib.rs:6:5",
            "  |",
            "3 | pub fn total(xs: &[u32]) -> u32 {",
            "  |                             --- expected `u32` because of return type",
            "...",
            "6 |     sum as u64",
            "  |     ^^^^^^^^^^ expected `u32`, found `u64`",
            "  |",
            "   = note: expected reference `&str`",
            "                   found enum `Option<&String>`",
            "help: you can convert a `u64` to a `u32`",
            "  |",
            "6 |     (sum as u64).try_into().unwrap()",
            "  |     +          +++++++++++++++++++++",
            "",
            "| a | b |",
        ];
        let r = roles(&log);
        use Role::*;
        assert_eq!(
            r,
            vec![
                Other, Other, Folded, Folded, Kept, Other, Folded, Kept, Folded, Other, Other,
                Other, Folded, Folded, Folded, Other, Other
            ]
        );
    }

    #[test]
    fn a_test_runners_frame_folds_but_the_line_it_points_at() {
        let jest = [
            "    Received: \"-a-b-\"",
            "",
            "      32 |   test('word 29', () => expect(slug('Word 29')).toBe('word-29'));",
            "    > 33 |   test('trims spaces', () => expect(slug(' a b ')).toBe('a-b'));",
            "         |                                                    ^",
            "      34 | });",
            "",
            "      at Object.toBe (slug.test.js:33:52)",
        ];
        use Role::*;
        // One or two frames are the failures' messages: whole.
        assert_eq!(
            roles(&jest),
            vec![Other, Other, Kept, Kept, Kept, Kept, Other, Other]
        );
        // Three or more: each keeps the line it points at.
        let three = [&jest[..], &jest[..], &jest[..]].concat();
        let frame = [Other, Other, Folded, Kept, Folded, Folded, Other, Other];
        assert_eq!(roles(&three), [frame, frame, frame].concat());
        // vitest: no `>`, the caret points at the line above it.
        let vitest = [
            "     34|   test('word 29', () => expect(slug('Word 29')).toBe('word-29'));",
            "     35|   test('trims spaces', () => expect(slug(' a b ')).toBe('a-b'));",
            "       |                                                    ^",
            "     36| });",
        ];
        let three = [&vitest[..], &[""], &vitest[..], &[""], &vitest[..]].concat();
        let frame = [Folded, Kept, Folded, Folded];
        assert_eq!(
            roles(&three),
            [&frame[..], &[Other], &frame[..], &[Other], &frame[..]].concat()
        );
    }

    #[test]
    fn a_frame_showing_a_change_folds_its_hunks() {
        let log = [
            "unformatted: File would be reformatted",
            "   --> json/__init__.py:98:1",
            "    |",
            "97  | \"\"\"",
            "    - __version__ = '2.0.9'",
            "98  +",
            "99  + __version__ = \"2.0.9\"",
            "100 | __all__ = [",
            "--------------------------------------------------------------------------------",
            "125 |",
            "    - def dump(obj, fp, *, skipkeys=False,",
            "126 + def dump(",
            "",
            "- a list item",
            "1 + 1 = 2",
        ];
        use Role::*;
        assert_eq!(
            roles(&log),
            vec![
                Other, Other, Folded, Folded, Folded, Folded, Folded, Folded, Folded, Folded,
                Folded, Folded, Other, Other, Other
            ]
        );
    }

    #[test]
    fn gcc_frames_fold_and_tables_elsewhere_stay() {
        let log = [
            "lib.c:6:12: warning: unused variable 'x' [-Wunused-variable]",
            "    6 |     int x = 3;",
            "      |         ^",
            "| name | version |",
        ];
        assert_eq!(
            roles(&log),
            vec![Role::Other, Role::Folded, Role::Folded, Role::Other]
        );
    }
}
