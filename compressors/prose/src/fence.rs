//! A long code fence in a document keeps its outline: the lines at the
//! fence's least indentation (imports, attributes, declarations, commands,
//! top-level keys) stay and the indented bodies under them show their first
//! lines and fold the rest with a count, so an example's shape and every name it declares survive.

/// Fences with at most this many lines between their markers are kept whole.
pub const SHORT: usize = 6;

/// A fence as it is shown: its lines and how many were folded.
#[derive(Debug, Clone, PartialEq)]
pub struct Outline {
    /// The lines shown, fence markers included.
    pub lines: Vec<String>,
    /// Lines of code folded away.
    pub folded: usize,
}

/// The outline of a fence (`lines` holds its markers too), each folded body
/// showing its first `body_head` lines (how the example begins).
pub fn outline(lines: &[&str], body_head: usize) -> Outline {
    let closed = lines.len() > 1 && is_marker(lines[lines.len() - 1]);
    let body_end = if closed { lines.len() - 1 } else { lines.len() };
    let body = &lines[1.min(body_end)..body_end];
    if body.len() <= SHORT {
        return Outline {
            lines: lines.iter().map(|l| l.to_string()).collect(),
            folded: 0,
        };
    }
    let margin = body
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| indent(l))
        .min()
        .unwrap_or(0);
    let mut shown = vec![lines[0].to_string()];
    let mut folded = 0;
    let mut run: Vec<&str> = Vec::new();
    let flush = |run: &mut Vec<&str>, shown: &mut Vec<String>, folded: &mut usize| {
        let code: Vec<&str> = run
            .iter()
            .copied()
            .filter(|l| !l.trim().is_empty())
            .collect();
        // A short body shows whole; a longer one shows how it begins.
        let (head, rest) = if code.len() <= body_head + 1 {
            (code.len(), 0)
        } else {
            (body_head, code.len() - body_head)
        };
        shown.extend(code[..head].iter().map(|l| l.to_string()));
        if rest > 0 {
            let last = code[head.saturating_sub(1)];
            shown.push(format!(
                "{}… {rest} {}{}",
                &last[..indent(last)],
                if head > 0 { "more " } else { "" },
                if rest == 1 { "line" } else { "lines" }
            ));
            *folded += rest;
        }
        run.clear();
    };
    for (k, line) in body.iter().enumerate() {
        let blank = line.trim().is_empty();
        let deeper = !blank && indent(line) > margin;
        // A blank line inside a folded body folds with it.
        let inside = blank
            && !run.is_empty()
            && body[k + 1..]
                .iter()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| indent(l) > margin);
        if deeper || inside {
            run.push(line);
        } else {
            flush(&mut run, &mut shown, &mut folded);
            shown.push(line.to_string());
        }
    }
    flush(&mut run, &mut shown, &mut folded);
    if closed {
        shown.push(lines[lines.len() - 1].to_string());
    }
    Outline {
        lines: shown,
        folded,
    }
}

/// A fence's opening or closing marker.
pub fn is_marker(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_fences_stay_whole() {
        let fence = ["```sh", "cargo build", "cargo test", "```"];
        assert_eq!(outline(&fence, 2).lines, fence);
    }

    #[test]
    fn long_fences_keep_declarations_and_fold_bodies() {
        let fence = [
            "```rust",
            "use darling::FromMeta;",
            "",
            "#[derive(Default, FromMeta)]",
            "pub struct Lorem {",
            "    ipsum: bool,",
            "",
            "    dolor: Option<String>,",
            "}",
            "",
            "fn main() {",
            "    let l = Lorem::default();",
            "    l.use_it();",
            "    l.drop_it();",
            "    l.forget_it();",
            "}",
            "```",
        ];
        let out = outline(&fence, 2);
        assert_eq!(out.folded, 2);
        assert!(
            outline(&fence, 0)
                .lines
                .contains(&"    … 4 lines".to_string())
        );
        assert_eq!(
            out.lines,
            [
                "```rust",
                "use darling::FromMeta;",
                "",
                "#[derive(Default, FromMeta)]",
                "pub struct Lorem {",
                "    ipsum: bool,",
                "    dolor: Option<String>,",
                "}",
                "",
                "fn main() {",
                "    let l = Lorem::default();",
                "    l.use_it();",
                "    … 2 more lines",
                "}",
                "```",
            ]
        );
    }
}
