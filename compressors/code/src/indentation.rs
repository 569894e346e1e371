//! Folding for indentation languages (Python): a `def` keeps its signature
//! (all its lines) and its docstring's first line, and folds its body; a
//! `class` keeps its members; everything at the top level is kept.

use crate::source::{self, Line};

/// Whether each line is kept (`true`) or folded.
pub fn keep_mask(lines: &[Line<'_>]) -> Vec<bool> {
    let mut keep = vec![true; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let code = lines[i].code;
        let t = code.trim_start();
        if !(t.starts_with("def ") || t.starts_with("async def ")) {
            i += 1;
            continue;
        }
        let indent = source::indent(code);
        // The signature runs until the line that ends it with `:`.
        let mut depth = 0i32;
        let mut j = i;
        loop {
            let c = strip_comment(lines[j].code);
            depth += c.matches(['(', '[', '{']).count() as i32
                - c.matches([')', ']', '}']).count() as i32;
            if depth <= 0 || j + 1 >= lines.len() {
                break;
            }
            j += 1;
        }
        // A one-line function (`def f(): return 1`) has nothing to fold.
        if !strip_comment(lines[j].code).trim_end().ends_with(':') {
            i = j + 1;
            continue;
        }
        let mut k = j + 1;
        let mut in_triple: Option<&str> = None;
        // The docstring's first line stays; the rest of it folds with the body.
        if let Some(f) = (k..lines.len()).find(|&x| !lines[x].code.trim().is_empty()) {
            let ft = lines[f]
                .code
                .trim_start()
                .trim_start_matches(['r', 'b', 'u']);
            let quote = ["\"\"\"", "'''"].into_iter().find(|q| ft.starts_with(q));
            if let Some(q) = quote.filter(|_| source::indent(lines[f].code) > indent) {
                k = f + 1;
                if !ft[3..].contains(q) {
                    in_triple = Some(q);
                }
            }
        }
        // The body: every line more indented than the `def` (blank lines and
        // the inside of multi-line strings too).
        let mut end = k;
        while end < lines.len() {
            let c = lines[end].code;
            if in_triple.is_none() && !c.trim().is_empty() && source::indent(c) <= indent {
                break;
            }
            for q in ["\"\"\"", "'''"] {
                if c.matches(q).count() % 2 == 1 {
                    in_triple = match in_triple {
                        None => Some(q),
                        Some(open) if open == q => None,
                        other => other,
                    };
                }
            }
            end += 1;
        }
        // Trailing blank lines belong to what follows.
        while end > k && lines[end - 1].code.trim().is_empty() {
            end -= 1;
        }
        keep[k..end].iter_mut().for_each(|x| *x = false);
        i = end.max(j + 1);
    }
    keep
}

fn strip_comment(code: &str) -> &str {
    // Good enough for signatures: a `#` outside quotes starts a comment.
    let mut quote: Option<char> = None;
    for (i, c) in code.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') => return &code[..i],
            _ => {}
        }
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_def_bodies_keeps_signatures_and_docstrings() {
        let code = "import os\n\nclass A(Base):\n    \"\"\"An A.\"\"\"\n    x = 1\n\n    def run(self,\n            n: int) -> int:\n        \"\"\"Run it.\n\n        Long text.\n        \"\"\"\n        y = n + 1\n        return y\n\n    def f(self): return 1\n\ndef main():\n    print('hi')\n";
        let (lines, _) = source::lines(code);
        let mask = keep_mask(&lines);
        let kept: Vec<&str> = lines
            .iter()
            .zip(&mask)
            .filter(|(_, k)| **k)
            .map(|(l, _)| l.code)
            .collect();
        assert!(kept.contains(&"            n: int) -> int:"));
        assert!(kept.contains(&"        \"\"\"Run it."));
        assert!(!kept.contains(&"        return y"));
        assert!(kept.contains(&"    def f(self): return 1"));
        assert!(kept.contains(&"    x = 1"));
        assert!(kept.contains(&"def main():"));
        assert!(!kept.iter().any(|l| l.contains("print")));
    }
}
