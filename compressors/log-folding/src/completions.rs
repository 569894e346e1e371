//! A step's completion line: a line that says again what an earlier line
//! said when the step began and adds only its measurements. The JVM's
//! unified GC log begins each collection with `GC(3) Pause Young (Normal)
//! (G1 Evacuation Pause)` and, fifteen lines of phases later, ends it with
//! `GC(3) Pause Young (Normal) (G1 Evacuation Pause) 23M->13M(64M)
//! 8.312ms`: the collection's outcome, the tool's own summary of it. Its
//! template recurs with every collection, so the template fold took it for
//! one shape printed many times and kept 4 of a log's 47 summaries. A
//! completion line is kept however often its shape recurs; its step's
//! detail still folds.
//!
//! The measurements are the words the line adds: each holds a digit (a
//! size, `6M->3M(64M)`), the last the time the step took (`8.312ms`), so
//! `Concurrent Mark Abort` after `Concurrent Mark` is not a completion, nor
//! is cmake's `-- Looking for x - found`, dpkg's `(Reading database ...
//! 5%` or TeX's pages `… [20] [21]`. The step's line is said once in the
//! log: one said again (tasty's `#1: OK` of every group) begins no one
//! step. Both lines are read after the printer's bracketed fields
//! (`[0.117s][info][gc,start ]`), which differ between the two.

use crate::search::Search;

use rustc_hash::{FxHashMap, FxHashSet};

/// A completion adds at most this many measurements.
const MAX_MEASUREMENTS: usize = 4;
/// A step's first line says at least this many words: one word said
/// again with a number is a counter, not a step.
const MIN_STEP_WORDS: usize = 2;

/// The completion lines of `contents` (lines without their timestamps), in
/// order; a line `claimed` says is another rule's (a passing test's) is
/// neither a step nor its completion.
pub fn kept(contents: &[&str], claimed: impl Fn(usize) -> bool) -> Vec<usize> {
    // The texts a step could have begun with, by what the lines that may
    // complete one say (most logs have none: nothing else is looked at),
    // and their lengths, a cheap test before a line is hashed.
    let steps: FxHashSet<&str> = contents
        .iter()
        .enumerate()
        .filter(|&(i, _)| !claimed(i))
        .filter_map(|(_, line)| begun_step(message(line)))
        .flatten()
        .collect();
    if steps.is_empty() {
        return Vec::new();
    }
    let lengths: FxHashSet<usize> = steps.iter().map(|s| s.len()).collect();
    // What each line that could begin a step said: a step begun and not
    // completed yet (`true`), or one said again or completed already
    // (`false`).
    let mut said_before: FxHashMap<&str, bool> = FxHashMap::default();
    let mut out = Vec::new();
    for (i, line) in contents.iter().enumerate() {
        if claimed(i) {
            continue;
        }
        let said = message(line);
        if let Some(step) = begun_step(said)
            .into_iter()
            .flatten()
            .find(|step| said_before.get(step) == Some(&true))
        {
            said_before.insert(step, false);
            out.push(i);
        }
        if lengths.contains(&said.len()) && steps.contains(said) {
            said_before
                .entry(said)
                .and_modify(|open| *open = false)
                .or_insert(true);
        }
    }
    out
}

/// What `line` says after the printer's leading bracketed fields (a time,
/// a level, tags) and the spaces around them.
fn message(line: &str) -> &str {
    let mut rest = line.trim_ascii_start();
    while let Some(inner) = rest.strip_prefix('[') {
        match inner.find_str("]") {
            Some(close) => rest = inner[close + 1..].trim_ascii_start(),
            None => break,
        }
    }
    rest.trim_ascii_end()
}

/// The texts the step `said` may complete could have begun with: `said`
/// without its last one, two, … [`MAX_MEASUREMENTS`] words, as long as
/// each word taken away holds a digit and at least [`MIN_STEP_WORDS`]
/// words are left; none when its last word is no duration.
fn begun_step(said: &str) -> Option<impl Iterator<Item = &str>> {
    if !said.rsplit(' ').next().is_some_and(is_duration) {
        return None;
    }
    let mut rest = said;
    Some(
        std::iter::from_fn(move || {
            let (head, word) = rest.rsplit_around(" ")?;
            if !word.bytes().any(|b| b.is_ascii_digit()) {
                return None;
            }
            rest = head.trim_ascii_end();
            Some(rest)
        })
        .take(MAX_MEASUREMENTS)
        .filter(|step| {
            step.split_ascii_whitespace()
                .nth(MIN_STEP_WORDS - 1)
                .is_some()
        }),
    )
}

/// Whether `word` is a time taken: a number and its unit (`8.312ms`,
/// `(0.02s)`, `3min,`).
fn is_duration(word: &str) -> bool {
    let w = word.trim_end_matches([',', ';', '.']);
    let w = w
        .strip_prefix('(')
        .and_then(|w| w.strip_suffix(')'))
        .unwrap_or(w);
    let number = w.trim_end_matches(|c: char| c.is_alphabetic());
    let unit = &w[number.len()..];
    matches!(unit, "ns" | "us" | "µs" | "ms" | "s" | "min" | "h")
        && number.bytes().next().is_some_and(|b| b.is_ascii_digit())
        && number.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collection_s_summary_completes_the_line_that_began_it() {
        let log = [
            "[0.071s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)",
            "[0.076s][info][gc,phases   ] GC(0)   Evacuate Collection Set: 4.0ms",
            "[0.076s][info][gc,heap     ] GC(0) Eden regions: 6->0(4)",
            "[0.076s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->3M(64M) 4.682ms",
            "[0.200s][info][gc,start    ] GC(8) Pause Remark",
            "[0.200s][info][gc          ] GC(8) Pause Remark 42M->42M(64M) 0.210ms",
        ];
        assert_eq!(kept(&log, |_| false), vec![3, 5]);
    }

    #[test]
    fn words_without_digits_or_a_single_word_are_no_completion() {
        let log = [
            "GC(8) Concurrent Mark",
            "GC(8) Concurrent Mark Abort",
            "-- Looking for pthread.h",
            "-- Looking for pthread.h - found",
            "Retrying",
            "Retrying 2",
            "(Reading database ... ",
            "(Reading database ... 5%",
            "(/usr/share/texmf/tex/latex/base/utf8.def) [20]",
            "(/usr/share/texmf/tex/latex/base/utf8.def) [20] [21]",
        ];
        assert!(kept(&log, |_| false).is_empty());
    }

    #[test]
    fn a_step_completes_once_and_claimed_lines_are_skipped() {
        let log = [
            "step one begins",
            "step one begins 3ms",
            "step one begins 4ms",
        ];
        assert_eq!(kept(&log, |_| false), vec![1]);
        assert!(kept(&log, |i| i == 0).is_empty());
    }

    #[test]
    fn a_line_said_again_begins_no_step() {
        let log = ["  #1:   OK", "  #1:   OK", "  #1:   OK (0.02s)"];
        assert!(kept(&log, |_| false).is_empty());
    }

    #[test]
    fn durations_are_numbers_with_a_unit_of_time() {
        for word in ["8.312ms", "(0.02s)", "3min,", "12us"] {
            assert!(is_duration(word), "{word}");
        }
        for word in ["5%", "[21]", "64M", "ms", "1.2.3x", "v1.2s"] {
            assert!(!is_duration(word), "{word}");
        }
    }
}
