//! TextRank over sentences: a graph whose edges weigh the words two sentences
//! share, ranked with PageRank. No model, no dictionary.

use std::hash::Hasher;

/// Words that say little about a sentence's topic.
const STOP_WORDS: &[&str] = &[
    "the", "a", "an", "and", "or", "of", "to", "in", "is", "it", "that", "this", "for", "on",
    "with", "as", "be", "are", "by", "at", "we", "you", "can", "from", "which", "will", "not",
    "if", "but", "its", "was", "has", "have", "all", "so", "their", "they", "then", "than",
    "there", "these",
];

/// How far apart two sentences may be and still get an edge, in sentences:
/// keeps the graph linear in size for long documents.
const WINDOW: usize = 30;

/// PageRank stops after this many rounds, or sooner once scores settle.
const MAX_ITERATIONS: usize = 30;
/// Total change in scores under which PageRank has settled.
const CONVERGED: f64 = 1e-4;

/// A PageRank score for each sentence, in order.
pub fn rank(sentences: &[&str]) -> Vec<f64> {
    let n = sentences.len();
    if n == 0 {
        return Vec::new();
    }
    let words: Vec<Vec<u64>> = sentences.iter().map(|s| content_words(s)).collect();
    // Each sentence's length as it weighs on its edges, computed once.
    let length_weight: Vec<f64> = words.iter().map(|w| (w.len() as f64).ln_1p()).collect();
    // Edge weights: shared words normalised by the sentences' lengths.
    let mut edges: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n.min(i + 1 + WINDOW) {
            let shared = shared_count(&words[i], &words[j]);
            if shared == 0 {
                continue;
            }
            let norm = (length_weight[i] + length_weight[j]).max(1.0);
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
    for _ in 0..MAX_ITERATIONS {
        let mut next = vec![(1.0 - damping) / n as f64; n];
        for (i, e) in edges.iter().enumerate() {
            if out_weight[i] == 0.0 {
                continue;
            }
            let share = damping * score[i];
            for &(j, w) in e {
                next[j] += share * w / out_weight[i];
            }
        }
        let change: f64 = next.iter().zip(&score).map(|(a, b)| (a - b).abs()).sum();
        score = next;
        if change < CONVERGED {
            break;
        }
    }
    score
}

/// The sentence's content words, lowercased and hashed, sorted, without repeats.
fn content_words(s: &str) -> Vec<u64> {
    let mut words: Vec<u64> = s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .filter(|w| {
            w.len() > STOP_WORD_BYTES_AT_MOST
                || !STOP_WORDS.iter().any(|s| s.eq_ignore_ascii_case(w))
        })
        .map(|w| {
            // Each lowercased char hashed as a number: ASCII ones without
            // Unicode's tables, the others as `char::to_lowercase` has them.
            let mut h = rustc_hash::FxHasher::default();
            for c in w.chars() {
                if c.is_ascii() {
                    h.write_u32(u32::from(c.to_ascii_lowercase()));
                } else {
                    c.to_lowercase().for_each(|l| h.write_u32(u32::from(l)));
                }
            }
            h.finish()
        })
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// The longest of [`STOP_WORDS`]: a longer word is none of them.
const STOP_WORD_BYTES_AT_MOST: usize = {
    let (mut most, mut k) = (0, 0);
    while k < STOP_WORDS.len() {
        if STOP_WORDS[k].len() > most {
            most = STOP_WORDS[k].len();
        }
        k += 1;
    }
    most
};

/// How many values two sorted, repeat-free lists share. A merge without
/// branches: which list steps on is computed, not guessed (the values are
/// hashes, so a branch on their order is mispredicted half the time).
fn shared_count(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        n += usize::from(x == y);
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    n
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
