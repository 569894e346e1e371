//! Folding for `do … end` languages (Elixir, Ruby, Lua): a function or a
//! test keeps its head (every line of it up to `do`, a Lua `function`'s
//! parameters) and its `end`, and folds its body. Modules, `describe`
//! blocks and everything else stay, so the file's outline reads as it is
//! written.

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
        if is_lua_function_head(t) {
            i = fold_lua_function(lines, i, &mut keep);
            continue;
        }
        if !FOLDED_HEADS.iter().any(|h| t.starts_with(h)) {
            i += 1;
            continue;
        }
        let indent = source::indent(code);
        if is_one_line_def(t) {
            i += 1;
            continue;
        }
        // The head ends at the line ending in `do` (Elixir); `, do:` is a
        // one-liner. Ruby's `def name(args)` is a head of its own.
        // (Elixir's guard on the next line, `when is_integer(x) do`, still
        // belongs to the head.)
        let guard_follows = lines
            .get(i + 1)
            .is_some_and(|l| l.code.trim_start().starts_with("when "));
        let ruby_head = t.starts_with("def ")
            && !t.trim_end().ends_with(" do")
            && !t.contains(", do:")
            && !guard_follows
            && paren_depth_at_end(t) == 0;
        let head_end = if ruby_head {
            Some(i)
        } else {
            (i..lines.len().min(i + MAX_HEAD_LINES)).find(|&j| {
                let c = lines[j].code.trim_end();
                c.ends_with(" do") || c.trim() == "do" || c.contains(", do:")
            })
        };
        let Some(head_end) = head_end else {
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
        fold_body(lines, head_end, end, &mut keep);
        i = end + 1;
    }
    keep
}

/// Folds the lines between a head ending at `head_end` and its `end`, but
/// for the heads of items declared in it, as a nested item keeps its head
/// in a brace language. A body of one line stays.
fn fold_body(lines: &[Line<'_>], head_end: usize, end: usize, keep: &mut [bool]) {
    if end > head_end + 2 {
        for k in head_end + 1..end {
            keep[k] = declares_an_item(lines[k].code.trim_start());
        }
    }
}

/// A Lua function's first line: `function M.name(`, `local function
/// name(`, or a function assigned, `M.name = function(`, whose body goes on
/// below (not `function(x) return x end` on one line).
fn is_lua_function_head(t: &str) -> bool {
    let declared = t.starts_with("function ") || t.starts_with("local function ");
    let assigned = t.split_once(" = function").is_some_and(|(name, rest)| {
        rest.starts_with(['(', ' '])
            && !name.is_empty()
            && name.trim_start_matches("local ").bytes().all(|c| {
                c.is_ascii_alphanumeric()
                    || matches!(c, b'_' | b'.' | b':' | b'[' | b']' | b'"' | b'\'')
            })
    });
    (declared || assigned) && !ends_its_block(t)
}

/// Whether a line closes the block it opened: `… end`, `… end)`.
fn ends_its_block(t: &str) -> bool {
    let t = t.trim_end().trim_end_matches([')', ',', ';']);
    t == "end" || t.ends_with(" end")
}

/// Folds the body of the Lua function whose head starts at line `i`: the
/// head runs to where its parameters' parentheses close, the body to the
/// `end` at the head's indentation (`end`, `end)`, `end,`). Returns the
/// line to read next.
fn fold_lua_function(lines: &[Line<'_>], i: usize, keep: &mut [bool]) -> usize {
    let mut depth = 0;
    let head_end = (i..lines.len().min(i + MAX_HEAD_LINES)).find(|&j| {
        depth += paren_depth_at_end(lines[j].code);
        depth <= 0
    });
    let Some(head_end) = head_end else {
        return i + 1;
    };
    let indent = source::indent(lines[i].code);
    let end = (head_end + 1..lines.len()).find(|&k| {
        let c = lines[k].code;
        source::indent(c) == indent
            && ends_its_block(c.trim_start())
            && c.trim_start().starts_with("end")
    });
    match end {
        Some(end) => {
            fold_body(lines, head_end, end, keep);
            end + 1
        }
        None => head_end + 1,
    }
}

/// A line declaring a method, function, class or module.
fn declares_an_item(t: &str) -> bool {
    ["def ", "defp ", "class ", "module ", "defmodule "]
        .iter()
        .any(|k| t.starts_with(k))
        || is_lua_function_head(t)
}

/// Whether each line of a Vim script is kept: a function's body folds
/// between its head (`function! s:Name(…)`, `fun`, Vim9's `def` and
/// `export def`) and its `endfunction`/`enddef` at the head's indentation.
pub fn vim_keep_mask(lines: &[Line<'_>]) -> Vec<bool> {
    let mut keep = vec![true; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let code = lines[i].code;
        if !is_vim_function_head(code.trim_start()) {
            i += 1;
            continue;
        }
        let indent = source::indent(code);
        let end = (i + 1..lines.len()).find(|&k| {
            let c = lines[k].code;
            let t = c.trim_start();
            source::indent(c) == indent && is_vim_function_end(t)
        });
        match end {
            Some(end) => {
                fold_body(lines, i, end, &mut keep);
                i = end + 1;
            }
            None => i += 1,
        }
    }
    keep
}

/// A Vim function's end: `endfunction` or an abbreviation of it down to
/// `endf` (not `endfor`), or Vim9's `enddef`.
pub(crate) fn is_vim_function_end(t: &str) -> bool {
    let word = t.split_whitespace().next().unwrap_or("");
    word == "enddef" || word.len() >= 4 && "endfunction".starts_with(word)
}

/// A Vim function's head: `fu`, `fun`, … `function`, with or without `!`,
/// or Vim9's `def`, `export def`, then its name.
fn is_vim_function_head(t: &str) -> bool {
    let t = t.strip_prefix("export ").map_or(t, str::trim_start);
    if let Some(rest) = t.strip_prefix("def ") {
        return !rest.trim().is_empty();
    }
    let Some(rest) = t.strip_prefix("fu") else {
        return false;
    };
    // The abbreviations of `function`: `fu`, `fun`, `func`, … in order.
    let spelled = rest
        .bytes()
        .zip(b"nction".iter())
        .take_while(|(a, b)| a == *b)
        .count();
    let rest = rest[spelled..]
        .strip_prefix('!')
        .unwrap_or(&rest[spelled..]);
    rest.starts_with([' ', '\t']) && !rest.trim().is_empty()
}

/// How many parentheses are still open at the end of `t`.
fn paren_depth_at_end(t: &str) -> i32 {
    t.chars().fold(0, |d, c| match c {
        '(' => d + 1,
        ')' => d - 1,
        _ => d,
    })
}

/// A Ruby method that ends on its own line: `def x; 1; end`, or an endless
/// `def x(a) = a + 1` (an `=` outside the parameters' parentheses).
fn is_one_line_def(t: &str) -> bool {
    if t.contains("; end") || t.trim_end().ends_with(" end") {
        return true;
    }
    let mut depth = 0;
    let b = t.as_bytes();
    for (k, &c) in b.iter().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'=' if depth == 0 && k > 0 && b[k - 1] == b' ' && b.get(k + 1) == Some(&b' ') => {
                return true;
            }
            _ => {}
        }
    }
    false
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
    fn ruby_methods_fold_their_bodies() {
        let text = "class Set\n  def add(o, at = 0)\n    @hash[o] = true\n    self\n  end\n\n  def size = @hash.size\n  def empty?; @hash.empty?; end\n\n  def each(&block)\n    block or return enum_for(__method__)\n    @hash.each_key(&block)\n    self\n  end\nend\n";
        assert_eq!(
            mask(text),
            vec![
                true, true, false, false, true, true, true, true, true, true, false, false, false,
                true, true
            ]
        );
    }

    #[test]
    fn an_elixir_guard_on_the_next_line_stays_with_its_head() {
        let text = "  def f(x)\n      when is_integer(x) do\n    a = x + 1\n    a * 2\n  end\n";
        assert_eq!(mask(text), vec![true, true, false, false, true]);
    }

    #[test]
    fn lua_functions_fold_their_bodies() {
        let text = "local M = {}\n\nfunction M.size(t)\n  local n = 0\n  for _ in pairs(t) do\n    n = n + 1\n  end\n  return n\nend\n\nlocal function keys(t,\n    sorted)\n  local out = {}\n  for k in pairs(t) do out[#out + 1] = k end\n  return out\nend\n\nM.map = function(f, t)\n  local function apply(v)\n    return f(v)\n  end\n  return apply(t)\nend\n\nM.id = function(x) return x end\nreturn M\n";
        assert_eq!(
            mask(text),
            vec![
                true, true, true, false, false, false, false, false, true, true, true, true, false,
                false, false, true, true, true, true, false, false, false, true, true, true, true
            ]
        );
    }

    #[test]
    fn vim_functions_fold_their_bodies() {
        let text = "\" tar.vim\nlet s:x = {}\nfun! tar#Browse(tarfile)\n  \" a comment with a \" quote {\n  let a = 1\n  return a\nendfun\n\nexport def FTasm()\n  var b = 2\n  echo b\n  echo b\nenddef\nfunction s:Short()\n  return 1\nendfunction\n";
        let (lines, _) = source::lines(text);
        assert_eq!(
            vim_keep_mask(&lines),
            vec![
                true, true, true, false, false, false, true, true, true, false, false, false, true,
                true, true, true
            ]
        );
        assert!(!is_vim_function_head("funny(1)"));
        assert!(is_vim_function_end("endfunc"));
        assert!(!is_vim_function_end("endfor"));
        assert!(!is_vim_function_end("end"));
        assert!(!is_vim_function_head("default = 1"));
    }

    #[test]
    fn short_bodies_and_unclosed_blocks_stay() {
        assert!(mask("def f do\n  x\nend\n").iter().all(|k| *k));
        assert!(mask("def f do\n  x\n  y\n").iter().all(|k| *k));
    }
}
