//! TextRank over sentences: a graph whose edges weigh the words two sentences
//! share, ranked with PageRank. No model, no dictionary.

use std::collections::{HashMap, HashSet};

/// Words that say little about a sentence's topic.
const STOP_WORDS: &[&str] = &[
    "the", "a", "an", "and", "or", "of", "to", "in", "is", "it", "that", "this", "for", "on",
    "with", "as", "be", "are", "by", "at", "we", "you", "can", "from", "which", "will", "not",
    "if", "but", "its", "was", "has", "have", "all", "so", "their", "they", "then", "than",
    "there", "these",
];

/// How far apart two sentences may be and still get an edge, in sentences:
/// keeps the graph linear in size for long documents.
const WINDOW: usize = 60;

/// A PageRank score for each sentence, in order.
pub fn rank(sentences: &[&str]) -> Vec<f64> {
    let n = sentences.len();
    if n == 0 {
        return Vec::new();
    }
    let words: Vec<HashSet<String>> = sentences.iter().map(|s| content_words(s)).collect();
    // Edge weights: shared words normalised by the sentences' lengths.
    let mut edges: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n.min(i + 1 + WINDOW) {
            let shared = words[i].intersection(&words[j]).count();
            if shared == 0 {
                continue;
            }
            let norm = ((words[i].len() as f64).ln_1p() + (words[j].len() as f64).ln_1p()).max(1.0);
            let w = shared as f64 / norm;
            edges[i].push((j, w));
            edges[j].push((i, w));
        }
    }
    let out_weight: Vec<f64> = edges
        .iter()
        .map(|e| e.iter().map(|(_, w)| w).sum())
        .collect();
    let damping = 0.85;
    let mut score = vec![1.0 / n as f64; n];
    for _ in 0..30 {
        let mut next = vec![(1.0 - damping) / n as f64; n];
        for (i, e) in edges.iter().enumerate() {
            if out_weight[i] == 0.0 {
                continue;
            }
            for &(j, w) in e {
                next[j] += damping * score[i] * w / out_weight[i];
            }
        }
        score = next;
    }
    score
}

fn content_words(s: &str) -> HashSet<String> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for w in s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
    {
        let w = w.to_lowercase();
        if !STOP_WORDS.contains(&w.as_str()) {
            *counts.entry(w).or_default() += 1;
        }
    }
    counts.into_keys().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn central_sentences_rank_higher() {
        let s = [
            "Bump allocation is a fast allocation strategy.",
            "The arena keeps a pointer into a chunk of memory for allocation.",
            "Allocation in the arena bumps the pointer forward in memory.",
            "Cats are nice.",
        ];
        let r = rank(&s);
        assert!(r[2] > r[3] && r[1] > r[3]);
    }
}
