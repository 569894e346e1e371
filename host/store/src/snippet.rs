//! The line of an entry that best matches a query: what a recall hit shows,
//! with its line number so `get(id, start_line…)` can go straight there.
//!
//! Computed in Rust rather than with FTS5's `snippet()`, which re-tokenizes
//! every column of the entry: on a 1 MB log that is the whole latency budget.
//! Here each query word is searched as a lowercase prefix of its stem
//! (`failing` → `fail`), so porter-stemmed matches are found too.

/// Longest snippet, in characters.
pub const MAX_SNIPPET_CHARS: usize = 200;

/// Matches of one word looked at, at most (bounds the work on huge texts).
const MAX_MATCHES_PER_WORD: usize = 2_000;

/// The best-matching line of `text` for `words`: its 1-based number and its
/// text, shortened around the first match. `None` when no word occurs.
pub fn best_line(text: &str, words: &[&str]) -> Option<(usize, String)> {
    let lower = text.to_lowercase();
    // to_lowercase can change byte lengths (rare outside ASCII); line
    // numbers are then counted on the lowercase copy, which has the same
    // line breaks.
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(lower.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut hits_per_line: std::collections::HashMap<usize, (usize, usize)> = Default::default();
    for needle in words
        .iter()
        .map(|w| stem_prefix(w))
        .filter(|n| !n.is_empty())
    {
        let mut seen_lines = std::collections::HashSet::new();
        for (pos, _) in lower.match_indices(needle).take(MAX_MATCHES_PER_WORD) {
            let line = line_starts.partition_point(|&s| s <= pos) - 1;
            if seen_lines.insert(line) {
                let e = hits_per_line
                    .entry(line)
                    .or_insert((0, pos - line_starts[line]));
                e.0 += 1;
            }
        }
    }
    let (&line, &(_, col)) = hits_per_line
        .iter()
        .max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.0.cmp(a.0)))?;
    let original_line = text.lines().nth(line).unwrap_or_default();
    Some((line + 1, shorten(original_line, col)))
}

/// The search prefix of a query word: the word minus a likely suffix.
fn stem_prefix(word: &str) -> &str {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    if chars.len() <= 4 {
        return word;
    }
    let keep = (chars.len() - 3).max(4);
    &word[..chars.get(keep).map_or(word.len(), |c| c.0)]
}

/// `line` cut to [`MAX_SNIPPET_CHARS`] around byte column `col`.
fn shorten(line: &str, col: usize) -> String {
    let line = line.trim_end();
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    if chars.len() <= MAX_SNIPPET_CHARS {
        return line.trim_start().to_string();
    }
    let at = chars.partition_point(|&(i, _)| i < col);
    let start = at.saturating_sub(MAX_SNIPPET_CHARS / 3);
    let end = (start + MAX_SNIPPET_CHARS).min(chars.len());
    let from = chars[start].0;
    let to = chars.get(end).map_or(line.len(), |c| c.0);
    format!(
        "{}{}{}",
        if start > 0 { "…" } else { "" },
        &line[from..to],
        if end < chars.len() { "…" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_with_most_words_wins_and_stems_match() {
        let text = "setup\nconnection pool ready\nERROR: connection refused by db\nretrying";
        assert_eq!(
            best_line(text, &["connection", "refused"]),
            Some((3, "ERROR: connection refused by db".to_string()))
        );
        assert_eq!(best_line("tests failed", &["failing"]).unwrap().0, 1);
        assert_eq!(best_line("nothing here", &["absent"]), None);
    }

    #[test]
    fn long_lines_are_cut_around_the_match() {
        let line = format!("{}needle{}", "a".repeat(500), "b".repeat(500));
        let (_, s) = best_line(&line, &["needle"]).unwrap();
        assert!(s.contains("needle") && s.starts_with('…') && s.ends_with('…'));
        assert!(s.chars().count() <= MAX_SNIPPET_CHARS + 2);
    }
}
