//! Lists a tool numbered itself: `1. 301 http://a.org → http://a.io`,
//! `2. …`, `48. http://b.org getaddrinfo: Name or service not known`. A
//! link checker's or a reviewer's issues, each numbered one after the
//! other, are that many findings, not a line repeated: the tool counted
//! them.

/// Whether each line is an item of a numbered list: it opens with its
/// number and `.` or `)` (`  12. text`, `3) text`), and the numbered line
/// before it at the same indent has the number before, or the one after
/// it the number after.
pub fn items(contents: &[&str]) -> Vec<bool> {
    let numbered: Vec<Option<(usize, u64)>> = contents.iter().map(|c| number_of(c)).collect();
    let mut items = vec![false; contents.len()];
    // The last numbered line seen at each indent.
    let mut last_at: Vec<(usize, u64, usize)> = Vec::new();
    for (i, n) in numbered.iter().enumerate() {
        let Some((indent, number)) = *n else { continue };
        if let Some(prev) = last_at.iter_mut().find(|(d, _, _)| *d == indent) {
            if prev.1 + 1 == number {
                items[prev.2] = true;
                items[i] = true;
            }
            *prev = (indent, number, i);
        } else {
            last_at.push((indent, number, i));
        }
    }
    items
}

/// The indent and number of a line opening with `N.` or `N)` and a space.
fn number_of(content: &str) -> Option<(usize, u64)> {
    let t = content.trim_ascii_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 6 {
        return None;
    }
    let rest = &t.as_bytes()[digits..];
    let opens =
        rest.len() > 2 && matches!(rest[0], b'.' | b')') && rest[1] == b' ' && rest[2] != b' ';
    opens.then(|| (content.len() - t.len(), t[..digits].parse().unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_numbers_at_one_indent_are_a_list() {
        let contents = [
            "Issues :-(",
            "  1. 301 http://a.org/ → http://a.io/",
            "  2. 301 http://b.org/ → http://b.io/",
            "  3. http://c.org/ getaddrinfo: Name or service not known",
            "",
            "  7. alone",
            "1) first",
            "2) second",
            "12.5 percent done",
        ];
        assert_eq!(
            items(&contents),
            vec![false, true, true, true, false, false, true, true, false]
        );
    }
}
