//! Turning what a person or an agent typed into a safe FTS5 query.
//!
//! User text never reaches FTS5's query parser as syntax: it is split into
//! words the way the `unicode61` tokenizer splits them, and every term goes
//! out double-quoted, so `auth.rs`, `"unterminated`, `foo AND (`, `-x` or
//! `NEAR` are all just words. `_` is part of a word (`user_id` is one, as in
//! the index). Words joined by punctuation without spaces (`auth.rs`,
//! `foo::bar`) stay together as one phrase; a span the
//! user put in double quotes is one phrase too. Stop words are dropped unless
//! nothing else is left. Terms are OR-ed: BM25 does the ranking.

/// A parsed recall query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextQuery {
    /// The phrases, each a list of lowercase words.
    pub phrases: Vec<Vec<String>>,
}

impl TextQuery {
    /// Parses `text`, dropping stop words unless nothing else is left.
    pub fn parse(text: &str) -> Self {
        Self::parse_with(text, true)
    }

    /// Parses `text` keeping every word (the plain baseline).
    pub fn parse_keeping_stop_words(text: &str) -> Self {
        Self::parse_with(text, false)
    }

    fn parse_with(text: &str, drop_stop_words: bool) -> Self {
        let mut phrases = Vec::new();
        // Odd-numbered pieces were inside double quotes.
        for (i, piece) in text.split('"').enumerate() {
            if i % 2 == 1 {
                let words = words(piece);
                if !words.is_empty() {
                    phrases.push(words);
                }
                continue;
            }
            for chunk in piece.split_whitespace() {
                let words = words(strip_possessive(chunk));
                if !words.is_empty() {
                    phrases.push(words);
                }
            }
        }
        let meaningful: Vec<Vec<String>> = phrases
            .iter()
            .filter(|p| p.len() > 1 || !is_stop_word(&p[0]))
            .cloned()
            .collect();
        let mut phrases = if meaningful.is_empty() || !drop_stop_words {
            phrases
        } else {
            meaningful
        };
        let mut seen = std::collections::HashSet::new();
        phrases.retain(|p| seen.insert(p.clone()));
        Self { phrases }
    }

    /// Whether there is nothing to search for.
    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }

    /// The FTS5 MATCH expression: every phrase quoted, OR-ed.
    pub fn to_fts(&self) -> String {
        self.phrases
            .iter()
            .map(|p| phrase_fts(p))
            .collect::<Vec<_>>()
            .join(" OR ")
    }

    /// Each phrase's own MATCH expression.
    pub fn phrase_fts(&self) -> Vec<String> {
        self.phrases.iter().map(|p| phrase_fts(p)).collect()
    }

    /// Every word of the query, for matching entity tags.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.phrases.iter().flatten().map(String::as_str)
    }
}

/// One phrase, quoted. Its words are letters, digits and `_` only, so no quote
/// or operator can appear inside.
fn phrase_fts(words: &[String]) -> String {
    format!("\"{}\"", words.join(" "))
}

/// `Caroline's` → `Caroline`: a possessive is the name, not a phrase.
fn strip_possessive(chunk: &str) -> &str {
    let trimmed = chunk.trim_end_matches(|c: char| !c.is_alphanumeric());
    ["'s", "’s", "'S"]
        .iter()
        .find_map(|p| trimmed.strip_suffix(p))
        .unwrap_or(chunk)
}

/// The lowercase words of `text`, split where the index's tokenizer splits:
/// at anything that is not a letter, a digit or `_`.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether `word` (lowercase) carries no meaning for retrieval.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// English function words, sorted for binary search.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "before", "being", "both", "but", "by", "can", "could", "did", "do", "does", "doing",
    "down", "during", "each", "few", "for", "from", "had", "has", "have", "having", "he", "her",
    "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "may",
    "me", "might", "more", "most", "must", "my", "no", "nor", "not", "of", "on", "only", "or",
    "other", "our", "ours", "out", "over", "own", "s", "same", "shall", "she", "should", "so",
    "some", "such", "t", "than", "that", "the", "their", "theirs", "them", "then", "there",
    "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "us", "very",
    "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
    "with", "would", "you", "your", "yours",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn punctuation_and_syntax_become_quoted_words() {
        let q = TextQuery::parse(r#"Why does auth.rs fail with "connection refused" AND (NEAR -x"#);
        assert_eq!(
            q.to_fts(),
            r#""auth rs" OR "fail" OR "connection refused" OR "near" OR "x""#
        );
    }

    #[test]
    fn only_stop_words_are_kept_when_nothing_else_is_left() {
        assert_eq!(
            TextQuery::parse("what is it").to_fts(),
            r#""what" OR "is" OR "it""#
        );
        assert!(TextQuery::parse(" \"\" ... ").is_empty());
    }

    #[test]
    fn snake_case_is_one_word() {
        assert_eq!(
            TextQuery::parse("create_project_with_session foo::bar_baz").to_fts(),
            r#""create_project_with_session" OR "foo bar_baz""#
        );
    }

    #[test]
    fn possessives_are_the_name() {
        assert_eq!(
            TextQuery::parse("What is Caroline's job? Melanie’s kids").to_fts(),
            r#""caroline" OR "job" OR "melanie" OR "kids""#
        );
    }

    #[test]
    fn repeated_terms_are_asked_once() {
        assert_eq!(TextQuery::parse("error Error ERROR").to_fts(), r#""error""#);
    }
}
