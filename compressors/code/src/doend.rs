//! Folding for `do … end` languages (Elixir, Ruby): a function or a test
//! keeps its head (every line of it up to `do`) and its `end`, and folds its
//! body. Modules, `describe` blocks and everything else stay, so the file's
//! outline reads as it is written.

use crate::source::{self, Line};

/// Heads whose body folds.
const FOLDED_HEADS: &[&str] = &[
    "def ",
    "defp ",
    "defmacro ",
    "defmacrop ",
    "defguard ",
    "defguardp ",
    "test ",
];

/// A head longer than this many lines is not a head.
const MAX_HEAD_LINES: usize = 12;

/// Whether each line is kept (`true`) or folded.
pub fn keep_mask(lines: &[Line<'_>]) -> Vec<bool> {
    let mut keep = vec![true; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let code = lines[i].code;
        let t = code.trim_start();
        if !FOLDED_HEADS.iter().any(|h| t.starts_with(h)) {
            i += 1;
            continue;
        }
        let indent = source::indent(code);
        // The head ends at the line ending in `do`; `, do:` is a one-liner.
        let Some(head_end) = (i..lines.len().min(i + MAX_HEAD_LINES)).find(|&j| {
            let c = lines[j].code.trim_end();
            c.ends_with(" do") || c.trim() == "do" || c.contains(", do:")
        }) else {
            i += 1;
            continue;
        };
        if lines[head_end].code.contains(", do:") {
            i = head_end + 1;
            continue;
        }
        // The body ends at the `end` at the head's own indentation.
        let Some(end) = (head_end + 1..lines.len()).find(|&k| {
            let c = lines[k].code;
            source::indent(c) == indent && c.trim() == "end"
        }) else {
            i = head_end + 1;
            continue;
        };
        if end > head_end + 2 {
            for k in &mut keep[head_end + 1..end] {
                *k = false;
            }
        }
        i = end + 1;
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(text: &str) -> Vec<bool> {
        let (lines, _) = source::lines(text);
        keep_mask(&lines)
    }

    #[test]
    fn function_bodies_fold_heads_and_ends_stay() {
        let text = "defmodule A do\n  def f(x) do\n    a = x + 1\n    b = a * 2\n    b\n  end\n\n  defp g(x), do: x\n\n  def h(\n        y\n      ) do\n    y\n    y\n  end\nend\n";
        assert_eq!(
            mask(text),
            vec![
                true, true, false, false, false, true, true, true, true, true, true, true, false,
                false, true, true
            ]
        );
    }

    #[test]
    fn short_bodies_and_unclosed_blocks_stay() {
        assert!(mask("def f do\n  x\nend\n").iter().all(|k| *k));
        assert!(mask("def f do\n  x\n  y\n").iter().all(|k| *k));
    }
}
