//! Splitting a corpus into a tuning half and an evaluation half by source.
//!
//! A source (the package, repository or log a case came from: see
//! [`source_of`]) falls in one half by a stable hash of its name, so every
//! case of a source is on the same side. The first rule alone, the hash's
//! lowest bit, can leave a corpus lopsided: FNV-1a's lowest bit is the
//! parity of the odd bytes in the name (its prime is odd), and LogChunks'
//! 80 repositories fell 24 | 56, 31% of the cases to tune on. So when the
//! tuning half holds less than [`MIN_TUNING_PERCENT`] of a corpus's cases,
//! evaluation sources move into it, in the order of the hash's high bits,
//! until it holds that share. Nothing moves the other way: a source
//! compressors were tuned on would not be held out any more.
//!
//! Which sources move depends on the corpus as a whole: a lopsided corpus
//! that gains tuning cases needs fewer moved, and the last ones moved
//! would go back to evaluation though they were tuned on. The report names
//! the moved sources (`moved_to_tuning`); when a corpus grows, compare them
//! with the last report's before reading its evaluation half.

use std::collections::BTreeMap;

use serde::Serialize;

/// The least share of a corpus's cases its tuning half holds, in percent.
pub const MIN_TUNING_PERCENT: usize = 40;

/// The two halves of a corpus, split by source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Half {
    /// Where compressors may be tuned.
    Tuning,
    /// Held out: only measured.
    Evaluation,
}

impl Half {
    /// The half the first rule gives `source`: FNV-1a of its name, even or
    /// odd. [`Split::of`] moves a few evaluation sources of a lopsided
    /// corpus to tuning on top of it.
    pub fn of(source: &str) -> Half {
        if fnv1a(source).is_multiple_of(2) {
            Half::Tuning
        } else {
            Half::Evaluation
        }
    }
}

/// A case's source: its id without trailing numbers (`swe-django-11292-39`
/// → `swe-django`, `cidiff-guava_2087` → `cidiff-guava`).
pub fn source_of(id: &str) -> &str {
    let mut s = id;
    while let Some(at) = s.rfind(['-', '_']) {
        let tail = &s[at + 1..];
        if tail.is_empty() || !tail.bytes().all(|b| b.is_ascii_digit()) {
            break;
        }
        s = &s[..at];
    }
    s
}

/// The half of every source of one corpus.
#[derive(Debug, Clone, Default)]
pub struct Split {
    halves: BTreeMap<String, Half>,
    moved: Vec<String>,
}

impl Split {
    /// Splits the corpus whose cases have these ids.
    pub fn of<'a>(ids: impl IntoIterator<Item = &'a str>) -> Split {
        let mut cases: BTreeMap<&str, usize> = BTreeMap::new();
        for id in ids {
            *cases.entry(source_of(id)).or_default() += 1;
        }
        let total: usize = cases.values().sum();
        let mut halves: BTreeMap<String, Half> = cases
            .keys()
            .map(|source| (source.to_string(), Half::of(source)))
            .collect();
        let mut tuning: usize = cases
            .iter()
            .filter(|(source, _)| halves[**source] == Half::Tuning)
            .map(|(_, n)| n)
            .sum();
        let mut candidates: Vec<(&str, usize)> = cases
            .iter()
            .filter(|(source, _)| halves[**source] == Half::Evaluation)
            .map(|(source, n)| (*source, *n))
            .collect();
        candidates.sort_by_key(|(source, _)| (std::cmp::Reverse(fnv1a(source) >> 32), *source));
        let mut moved = Vec::new();
        for (source, n) in candidates {
            if tuning * 100 >= total * MIN_TUNING_PERCENT {
                break;
            }
            halves.insert(source.to_string(), Half::Tuning);
            moved.push(source.to_string());
            tuning += n;
        }
        Split { halves, moved }
    }

    /// The half of the source of case `id` (the first rule's for a source
    /// the corpus did not have).
    pub fn half(&self, id: &str) -> Half {
        let source = source_of(id);
        self.halves
            .get(source)
            .copied()
            .unwrap_or_else(|| Half::of(source))
    }

    /// The evaluation sources the first rule gave that moved to tuning.
    pub fn moved(&self) -> &[String] {
        &self.moved
    }
}

/// FNV-1a, 64 bits, of `text`.
fn fnv1a(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_ids_without_trailing_numbers() {
        assert_eq!(source_of("swe-django-11292-39"), "swe-django");
        assert_eq!(source_of("cidiff-guava_2087"), "cidiff-guava");
        assert_eq!(source_of("cidiff-google_auto_12"), "cidiff-google_auto");
        assert_eq!(source_of("code-py-textwrap"), "code-py-textwrap");
        // Every case of a source falls in the same half.
        assert_eq!(
            Half::of(source_of("swe-django-1-2")),
            Half::of(source_of("swe-django-3-4"))
        );
    }

    fn ids(sources: &[&str], per_source: usize) -> Vec<String> {
        sources
            .iter()
            .flat_map(|s| (0..per_source).map(move |i| format!("{s}-{i}")))
            .collect()
    }

    /// The first `n` names `repo0`, `repo1`, … the first rule puts in `half`.
    fn names_in(half: Half, n: usize) -> Vec<String> {
        (0..)
            .map(|i| format!("repo{i}"))
            .filter(|s| Half::of(s) == half)
            .take(n)
            .collect()
    }

    #[test]
    fn a_balanced_corpus_keeps_the_first_rule() {
        let mut names = names_in(Half::Tuning, 5);
        names.extend(names_in(Half::Evaluation, 5));
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let ids = ids(&names, 3);
        let split = Split::of(ids.iter().map(String::as_str));
        assert!(split.moved().is_empty());
        for s in &names {
            assert_eq!(split.half(&format!("{s}-7")), Half::of(s));
        }
    }

    #[test]
    fn a_lopsided_corpus_moves_evaluation_sources_only_until_the_share_holds() {
        // Nine sources the first rule puts in evaluation, one in tuning.
        let evaluation = names_in(Half::Evaluation, 9);
        let tuned = names_in(Half::Tuning, 1).remove(0);
        let mut names: Vec<&str> = evaluation.iter().map(String::as_str).collect();
        names.push(&tuned);
        let ids = ids(&names, 2);
        let split = Split::of(ids.iter().map(String::as_str));
        // 2 of 20 cases in tuning: three sources (6 cases) move → 8 of 20.
        assert_eq!(split.moved().len(), 3);
        assert_eq!(split.half(&format!("{tuned}-0")), Half::Tuning);
        let tuning = names
            .iter()
            .filter(|s| split.half(s) == Half::Tuning)
            .count();
        assert_eq!(tuning, 4);
        for moved in split.moved() {
            assert!(evaluation.contains(moved));
        }
        // The same corpus splits the same way.
        let again = Split::of(ids.iter().map(String::as_str));
        assert_eq!(again.moved(), split.moved());
    }
}
