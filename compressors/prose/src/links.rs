//! Links keep their text and lose their web addresses: `[Make](https://…)`
//! reads `[Make]`, a badge `![build](https://…svg)` reads `![build]`. An
//! address is a long run of tokens the reader rarely needs and the original
//! (kept in ghost's store) still holds. A link to a file of the project
//! (`[INSTALL.md](INSTALL.md)`) keeps its target: the agent may open it.
//! Inline code is never touched.

/// `text` with the web and in-page targets of its links dropped, and how many were.
pub fn without_web_targets(text: &str) -> (String, usize) {
    if !text.contains("](") {
        return (text.to_string(), 0);
    }
    let mut out = String::with_capacity(text.len());
    let mut dropped = 0;
    let mut in_code = false;
    let mut i = 0;
    let b = text.as_bytes();
    while i < b.len() {
        if b[i] == b'`' {
            in_code = !in_code;
        } else if !in_code
            && b[i] == b']'
            && b.get(i + 1) == Some(&b'(')
            && let Some(len) = target_len(&text[i + 2..])
            && is_web_or_anchor(&text[i + 2..i + 2 + len])
        {
            out.push(']');
            dropped += 1;
            i += 2 + len + 1;
            continue;
        }
        let c = text[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    (out, dropped)
}

/// The length of a link target up to its closing parenthesis (nested
/// parentheses balanced), if it closes on this line.
fn target_len(rest: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (k, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(k),
            ')' => depth -= 1,
            ' ' if !rest[..k].starts_with('<') && !rest[k..].trim_start().starts_with('"') => {
                return None;
            }
            _ => {}
        }
    }
    None
}

fn is_web_or_anchor(target: &str) -> bool {
    let t = target.trim_start_matches('<');
    t.starts_with("http://") || t.starts_with("https://") || t.starts_with('#')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_targets_go_and_project_files_stay() {
        let (out, n) = without_web_targets(
            "* [Make](https://www.gnu.org/software/make/) and [INSTALL.md](INSTALL.md), see [above](#usage).",
        );
        assert_eq!(out, "* [Make] and [INSTALL.md](INSTALL.md), see [above].");
        assert_eq!(n, 2);
    }

    #[test]
    fn badges_nested_links_and_code_spans() {
        let (out, n) = without_web_targets(
            "[![ci](https://x.io/badge.svg)](https://x.io/ci) `a[0](https://keep.me)` [w](https://en.wikipedia.org/wiki/A_(b))",
        );
        assert_eq!(out, "[![ci]] `a[0](https://keep.me)` [w]");
        assert_eq!(n, 3);
    }
}
