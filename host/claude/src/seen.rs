//! What the agent already has in its context: a result it saw earlier in the
//! session, since the last compaction, need not be shown again in full.
//!
//! - A file Read again unchanged becomes one line saying so.
//! - A file Read again after a change shows only the changed lines (with a
//!   little context) at their real line numbers; every other line is as the
//!   agent read it before, and each unshown range says how to Read it.
//! - A command output identical to an earlier one becomes one line saying so.
//!
//! Subagents have their own context, so an earlier result counts only when
//! the same agent saw it; a compaction forgets everything before it.

use std::time::Instant;

use ghost_types::ContentClass;
use similar::{Algorithm, DiffTag};

use crate::policy::{DELTA_CONTEXT_LINES, DIFF_DEADLINE, MAX_DELTA_SHARE};

/// The earlier result a new one is shown against.
#[derive(Debug, Clone, Copy)]
pub struct Earlier<'a> {
    /// Its ghost id.
    pub id: &'a str,
    /// Its full text.
    pub text: &'a str,
}

/// A Read of `path` (whole file, from line 1) again: one line when the text
/// is the same, its changes when they are small enough, else `None`.
pub fn reread(path: &str, earlier: Earlier, now: &str) -> Option<String> {
    let lines = now.lines().count();
    if earlier.text == now {
        return Some(format!(
            "[ghost: {path} is unchanged since you read it earlier in this session (id {}): \
             the same {lines} lines. To see them again: Read offset=1 limit={lines}]",
            earlier.id
        ));
    }
    let delta = changes(earlier.text, now)?;
    let text = format!(
        "[ghost: {path} changed since you read it earlier in this session (id {}); \
         below, only the changed lines and {DELTA_CONTEXT_LINES} around each, at their \
         real line numbers; every line not shown is as you read it then]\n{delta}",
        earlier.id
    );
    (text.len() as f64 <= now.len() as f64 * MAX_DELTA_SHARE).then_some(text)
}

/// A command's output identical to an earlier one: one line saying so.
pub fn repeated_output(earlier_id: &str, earlier_command: &str, now: &str) -> String {
    let lines = now.lines().count();
    let command = first_line(earlier_command, 80);
    format!(
        "[ghost: the same {lines} lines as the output of `{command}` earlier in this session \
         (id {earlier_id}), unchanged]"
    )
}

/// The class a file's text is stored as when no compressor looks at it: by
/// its extension ([`ghost_types::class_of_path`]), code when the extension
/// says nothing (it is a file the agent reads to work on).
pub fn class_of_file(path: &str) -> ContentClass {
    ghost_types::class_of_path(path).unwrap_or(ContentClass::Code)
}

fn first_line(text: &str, max_chars: usize) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() > max_chars || text.lines().nth(1).is_some() {
        let cut: String = line.chars().take(max_chars).collect();
        format!("{cut}…")
    } else {
        line.to_string()
    }
}

/// The lines of `now` that differ from `before`, with context, numbered as
/// in the file (`40→line`); unshown runs folded with a Read to see them.
fn changes(before: &str, now: &str) -> Option<String> {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = now.lines().collect();
    let deadline = Instant::now() + DIFF_DEADLINE;
    let ops = similar::capture_diff_slices_deadline(Algorithm::Myers, &old, &new, Some(deadline));
    if Instant::now() > deadline {
        return None;
    }
    let mut shown = vec![false; new.len()];
    // Lines removed just before new line `i` (index `new.len()`: at the end).
    let mut removed = vec![0usize; new.len() + 1];
    for op in &ops {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        if tag == DiffTag::Equal {
            continue;
        }
        if tag == DiffTag::Delete {
            removed[new_range.start] += old_range.len();
        }
        let from = new_range.start.saturating_sub(DELTA_CONTEXT_LINES);
        let to = (new_range.end + DELTA_CONTEXT_LINES).min(new.len());
        shown[from..to].iter_mut().for_each(|s| *s = true);
    }
    let mut out = String::new();
    let mut i = 0;
    while i < new.len() {
        if removed[i] > 0 {
            out.push_str(&format!("… {} lines removed here\n", removed[i]));
        }
        if shown[i] {
            out.push_str(&format!("{}→{}\n", i + 1, new[i]));
            i += 1;
            continue;
        }
        let start = i;
        while i < new.len() && !shown[i] && (i == start || removed[i] == 0) {
            i += 1;
        }
        let (first, count) = (start + 1, i - start);
        out.push_str(&format!(
            "… lines {first}–{} as before (Read offset={first} limit={count})\n",
            i
        ));
    }
    if removed[new.len()] > 0 {
        out.push_str(&format!(
            "… {} lines removed at the end\n",
            removed[new.len()]
        ));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(n: usize) -> Vec<String> {
        (1..=n)
            .map(|i| format!("line number {i} of the file"))
            .collect()
    }

    #[test]
    fn an_unchanged_file_is_one_line() {
        let text = file(300).join("\n");
        let out = reread(
            "/r/a.rs",
            Earlier {
                id: "abc",
                text: &text,
            },
            &text,
        )
        .unwrap();
        assert!(out.contains("unchanged"), "{out}");
        assert!(out.contains("limit=300"), "{out}");
        assert_eq!(out.lines().count(), 1);
    }

    #[test]
    fn a_changed_file_shows_its_changes_at_their_real_numbers() {
        let before = file(300);
        let mut after = before.clone();
        after[99] = "the edited line".into();
        after.insert(200, "an inserted line".into());
        after.remove(280);
        let (before, after) = (before.join("\n"), after.join("\n"));
        let out = reread(
            "/r/a.rs",
            Earlier {
                id: "abc",
                text: &before,
            },
            &after,
        )
        .unwrap();
        assert!(out.contains("\n100→the edited line\n"), "{out}");
        assert!(out.contains("\n201→an inserted line\n"), "{out}");
        assert!(out.contains("\n98→line number 98 of the file\n"), "{out}");
        assert!(out.contains("… 1 lines removed here"), "{out}");
        assert!(
            out.contains("… lines 1–97 as before (Read offset=1 limit=97)"),
            "{out}"
        );
        assert!(!out.contains("line number 150 "), "{out}");
        assert!(out.len() < after.len() / 5);
    }

    #[test]
    fn a_file_mostly_rewritten_is_not_a_delta() {
        let before = file(100).join("\n");
        let after: String = (1..=100).map(|i| format!("new {i}\n")).collect();
        assert!(
            reread(
                "/r/a.rs",
                Earlier {
                    id: "abc",
                    text: &before
                },
                &after
            )
            .is_none()
        );
    }

    #[test]
    fn a_repeated_output_names_the_earlier_command() {
        let out = repeated_output("abc", "mix test\n--trace", "a\nb\n");
        assert_eq!(
            out,
            "[ghost: the same 2 lines as the output of `mix test…` earlier in this session (id abc), unchanged]"
        );
    }
}
