//! Numbered excerpts of a stored original: all of it, a line range, or the
//! lines around a match. What `get` returns.

use serde::Serialize;

/// Which lines to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// Every line.
    All,
    /// Lines `start..=end`, 1-based; either end may be open.
    Range {
        /// First line (1 when `None`).
        start: Option<usize>,
        /// Last line (the last line when `None`).
        end: Option<usize>,
    },
    /// Every line containing `needle` (case-insensitive) with `context`
    /// lines either side; overlapping windows merge.
    Around {
        /// The text to look for.
        needle: String,
        /// Lines either side.
        context: usize,
    },
}

/// Lines either side of a match when the caller does not say.
pub const DEFAULT_CONTEXT_LINES: usize = 3;

/// A numbered excerpt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Excerpt {
    /// Lines in the whole original.
    pub total_lines: usize,
    /// First line shown (1-based; 0 when nothing is shown).
    pub start_line: usize,
    /// Last line shown.
    pub end_line: usize,
    /// Lines that matched, for `around`.
    pub matches: usize,
    /// The lines, each `number<TAB>text`, gaps between windows as `…`.
    pub text: String,
}

/// The lines of `original` that `selection` asks for.
pub fn excerpt(original: &str, selection: &Selection) -> Excerpt {
    let lines: Vec<&str> = original.lines().collect();
    let total = lines.len();
    let windows: Vec<(usize, usize)> = match selection {
        Selection::All => vec![(1, total)],
        Selection::Range { start, end } => {
            let start = start.unwrap_or(1).max(1);
            let end = end.unwrap_or(total).min(total);
            vec![(start, end)]
        }
        Selection::Around { needle, context } => around(&lines, needle, *context),
    };
    let windows: Vec<(usize, usize)> = windows.into_iter().filter(|(s, e)| s <= e).collect();
    let matches = match selection {
        Selection::Around { needle, .. } => count_matches(&lines, needle),
        _ => 0,
    };
    let width = total.to_string().len().max(4);
    let mut text = String::new();
    for (i, &(start, end)) in windows.iter().enumerate() {
        if i > 0 {
            text.push_str("…\n");
        }
        for (n, line) in lines.iter().enumerate().take(end).skip(start - 1) {
            text.push_str(&format!("{:>width$}\t{line}\n", n + 1));
        }
    }
    Excerpt {
        total_lines: total,
        start_line: windows.first().map_or(0, |w| w.0),
        end_line: windows.last().map_or(0, |w| w.1),
        matches,
        text,
    }
}

fn matching(line: &str, needle: &str) -> bool {
    line.to_lowercase().contains(needle)
}

fn count_matches(lines: &[&str], needle: &str) -> usize {
    let needle = needle.to_lowercase();
    if needle.is_empty() {
        return 0;
    }
    lines.iter().filter(|l| matching(l, &needle)).count()
}

fn around(lines: &[&str], needle: &str, context: usize) -> Vec<(usize, usize)> {
    let needle = needle.to_lowercase();
    if needle.is_empty() {
        return Vec::new();
    }
    let mut windows: Vec<(usize, usize)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !matching(line, &needle) {
            continue;
        }
        let start = (i + 1).saturating_sub(context).max(1);
        let end = (i + 1 + context).min(lines.len());
        match windows.last_mut() {
            Some(last) if start <= last.1 + 1 => last.1 = last.1.max(end),
            _ => windows.push((start, end)),
        }
    }
    windows
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "one\ntwo\nthree\nfour ERROR\nfive\nsix\nseven\neight\nnine error\nten\n";

    #[test]
    fn a_range_is_exactly_those_lines() {
        let e = excerpt(
            TEXT,
            &Selection::Range {
                start: Some(3),
                end: Some(5),
            },
        );
        assert_eq!(e.text, "   3\tthree\n   4\tfour ERROR\n   5\tfive\n");
        assert_eq!((e.start_line, e.end_line, e.total_lines), (3, 5, 10));
    }

    #[test]
    fn ranges_are_clamped() {
        let e = excerpt(
            TEXT,
            &Selection::Range {
                start: Some(9),
                end: Some(99),
            },
        );
        assert_eq!(e.text, "   9\tnine error\n  10\tten\n");
        let e = excerpt(
            TEXT,
            &Selection::Range {
                start: Some(20),
                end: None,
            },
        );
        assert_eq!((e.text.as_str(), e.start_line), ("", 0));
    }

    #[test]
    fn around_merges_windows_and_marks_gaps() {
        let e = excerpt(
            TEXT,
            &Selection::Around {
                needle: "error".into(),
                context: 1,
            },
        );
        assert_eq!(e.matches, 2);
        assert_eq!(
            e.text,
            "   3\tthree\n   4\tfour ERROR\n   5\tfive\n…\n   8\teight\n   9\tnine error\n  10\tten\n"
        );
        let e = excerpt(
            TEXT,
            &Selection::Around {
                needle: "error".into(),
                context: 3,
            },
        );
        assert_eq!((e.start_line, e.end_line), (1, 10));
        assert!(!e.text.contains('…'));
    }
}
