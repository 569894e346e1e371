//! A source file as the code compressor sees it: its lines, the `N→` line
//! numbers Claude Code's Read put in front of them (kept so the agent can ask
//! for an exact range), and each line's code without that prefix.

/// One line of a source file.
#[derive(Debug, Clone)]
pub struct Line<'a> {
    /// The line as given, prefix included: what is printed when it is kept.
    pub raw: &'a str,
    /// The code, without a `N→` prefix.
    pub code: &'a str,
    /// Its line number: from the prefix when there is one, else its position.
    pub number: usize,
}

/// The lines of `text`, and whether they carried Read's `N→` prefixes.
pub fn lines(text: &str) -> (Vec<Line<'_>>, bool) {
    let raw: Vec<&str> = text.lines().collect();
    let numbered = !raw.is_empty()
        && raw
            .iter()
            .filter(|l| !l.trim().is_empty())
            .all(|l| read_prefix(l).is_some());
    let lines = raw
        .iter()
        .enumerate()
        .map(|(i, l)| match read_prefix(l).filter(|_| numbered) {
            Some((number, code)) => Line {
                raw: l,
                code,
                number,
            },
            None => Line {
                raw: l,
                code: l,
                number: i + 1,
            },
        })
        .collect();
    (lines, numbered)
}

/// `"    12→fn main() {"` (Claude Code's Read) or `"    12\tfn main() {"`
/// (`nl -ba`, `cat -n`) → `(12, "fn main() {")`.
fn read_prefix(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = t[digits..]
        .strip_prefix('→')
        .or_else(|| t[digits..].strip_prefix('\t'))?;
    Some((t[..digits].parse().ok()?, rest))
}

/// The indentation of `code` in columns (a tab counts 4).
pub fn indent(code: &str) -> usize {
    code.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_prefixes_are_parsed() {
        let (ls, numbered) = lines("    40→fn a() {\n    41→}\n");
        assert!(numbered);
        assert_eq!((ls[0].number, ls[0].code), (40, "fn a() {"));
        let (ls, numbered) = lines("   224\tclass A:\n   225\t\n   226\t    x = 1\n");
        assert!(numbered);
        assert_eq!((ls[2].number, ls[2].code), (226, "    x = 1"));
        let (ls, numbered) = lines("fn a() {}\n");
        assert!(!numbered);
        assert_eq!(ls[0].number, 1);
    }
}
