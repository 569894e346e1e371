//! Which sentences of a document's paragraphs stay.
//!
//! The first sentence of a section's first paragraph always stays: it says
//! what the section is about; so does a sentence ending in `:` right before a
//! code block, a list or a table: it says what they show. The others compete for a share of the
//! paragraphs' text: first sentences with something specific in them (inline
//! code, a path, a version, a flag: see [`crate::specific`]), then other
//! specific sentences, then other paragraphs' first sentences, then the
//! rest, each group in TextRank order.

use crate::specific::is_specific;
use crate::textrank;

/// One sentence of a paragraph.
#[derive(Debug, Clone, Copy)]
pub struct Sentence<'a> {
    /// The block (paragraph) it belongs to.
    pub block: usize,
    /// Whether it opens its paragraph.
    pub first: bool,
    /// Whether its paragraph is the first under a heading (or of the document).
    pub opens_section: bool,
    /// Whether it ends its paragraph with `:` right before a code block, a
    /// list or a table (it introduces them).
    pub introduces: bool,
    /// Its text.
    pub text: &'a str,
}

/// The sentences that always stay and the order the others compete in:
/// worked out once per document, used for every budget.
#[derive(Debug, Clone)]
pub struct Ranking {
    always: Vec<bool>,
    order: Vec<usize>,
}

impl Ranking {
    /// Ranks `sentences`.
    pub fn of(sentences: &[Sentence]) -> Ranking {
        let texts: Vec<&str> = sentences.iter().map(|s| s.text).collect();
        let scores = textrank::rank(&texts);
        let always: Vec<bool> = sentences
            .iter()
            .map(|s| s.first && s.opens_section || s.introduces)
            .collect();
        let priority: Vec<u8> = sentences
            .iter()
            .map(|s| match (is_specific(s.text), s.first) {
                (true, true) => 0,
                (true, false) => 1,
                (false, true) => 2,
                (false, false) => 3,
            })
            .collect();
        let mut order: Vec<usize> = (0..sentences.len()).filter(|&k| !always[k]).collect();
        order.sort_by(|&a, &b| {
            priority[a]
                .cmp(&priority[b])
                .then(scores[b].total_cmp(&scores[a]))
        });
        Ranking { always, order }
    }

    /// Which of `sentences` to keep, given the share of their bytes that may stay.
    pub fn keep(&self, sentences: &[Sentence], share: f64) -> Vec<bool> {
        let mut keep = self.always.clone();
        let total: usize = sentences.iter().map(|s| s.text.len()).sum();
        let budget = (total as f64 * share) as usize;
        let mut used: usize = sentences
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(s, _)| s.text.len())
            .sum();
        for &k in &self.order {
            let len = sentences[k].text.len();
            if used + len <= budget {
                keep[k] = true;
                used += len;
            }
        }
        keep
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(sentences: &[Sentence], share: f64) -> Vec<bool> {
        Ranking::of(sentences).keep(sentences, share)
    }

    fn sentence(block: usize, first: bool, opens_section: bool, text: &str) -> Sentence<'_> {
        Sentence {
            block,
            first,
            opens_section,
            introduces: text.ends_with(':'),
            text,
        }
    }

    #[test]
    fn section_openers_stay_and_specifics_come_next() {
        let s = [
            sentence(0, true, true, "This crate parses things quickly."),
            sentence(
                0,
                false,
                true,
                "It was written over many long winter evenings.",
            ),
            sentence(2, true, false, "Run `cargo add parser` to use it."),
            sentence(
                2,
                false,
                false,
                "Nobody knows why it is so pleasant to use.",
            ),
        ];
        let keep = choose(&s, 0.5);
        assert_eq!(keep, [true, false, true, false]);
        assert_eq!(choose(&s, 0.0), [true, false, false, false]);
        let captioned = [
            sentence(0, true, true, "This crate parses things quickly."),
            sentence(
                2,
                true,
                false,
                "It was written over many long winter evenings.",
            ),
            sentence(2, false, false, "This example reads a file:"),
        ];
        assert_eq!(choose(&captioned, 0.0), [true, false, true]);
    }
}
