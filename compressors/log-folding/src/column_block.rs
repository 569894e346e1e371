//! A block of records in padded columns with no header (`getent
//! services`, `git branch -vv`, `du -sh *` with aligned sizes): each line
//! a record whose cells are padded to the same column starts. A program
//! pads cells so that a reader can scan the columns; a log's messages are
//! free text that runs on. So a block of lines (between blank lines) is
//! such a table when nearly every line is padded, its lines are led by
//! words of their own (not progress repeating a few messages), some
//! column starts are
//! shared by most lines with padding of varying width before them (cells
//! of varying length), no word runs across a shared column start, and at
//! most a few words follow the last one (a short last cell, not a
//! message). Each record stays; in a block ranked by a number, largest
//! first, the first [`crate::table::RANKED_ROWS_SHOWN`] do, as in a table.

use crate::search::Search;

/// A block has at least this many lines.
const MIN_ROWS: usize = 5;
/// At least this share of a block's lines are padded, line up and end in
/// a short last cell.
const MIN_ROW_SHARE: f64 = 0.9;
/// A column start is shared by at least this share of the block's lines.
const SHARED_COLUMN_SHARE: f64 = 0.8;
/// Words a line may have after the last shared column: its last cell.
const LAST_CELL_WORDS_AT_MOST: usize = 3;

/// The lines of every padded-column block in `contents`; lines `claimed`
/// says are another rule's (a passing test's) break a block.
pub fn kept(contents: &[&str], claimed: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut keep = Vec::new();
    let mut i = 0;
    while i < contents.len() {
        if contents[i].trim_ascii().is_empty() || claimed(i) {
            i += 1;
            continue;
        }
        let end = (i..contents.len())
            .find(|&j| contents[j].trim_ascii().is_empty() || claimed(j))
            .unwrap_or(contents.len());
        let block = &contents[i..end];
        if block.len() >= MIN_ROWS && is_column_block(block) {
            // Ranked, its least records fold as any lines do.
            let shown = if crate::table::is_ranked_by_a_word(block) {
                crate::table::RANKED_ROWS_SHOWN
            } else {
                block.len()
            };
            keep.extend(i..i + shown);
        }
        i = end;
    }
    keep
}

/// Whether `lines` (non-blank) are records in padded columns.
fn is_column_block(lines: &[&str]) -> bool {
    let least = (lines.len() as f64 * MIN_ROW_SHARE).ceil() as usize;
    // Cheap first: most log lines are not padded at all.
    if lines.iter().filter(|l| is_padded(l)).count() < least {
        return false;
    }
    let words: Vec<Vec<(usize, usize)>> =
        lines.iter().map(|l| crate::table::word_spans(l)).collect();
    if led_by_few_keys(lines, &words) {
        return false;
    }
    let mut starts: rustc_hash::FxHashMap<usize, usize> = rustc_hash::FxHashMap::default();
    for w in &words {
        for &(s, _) in w.iter().skip(1) {
            *starts.entry(s).or_default() += 1;
        }
    }
    let shared: Vec<usize> = starts
        .into_iter()
        .filter(|&(_, n)| n as f64 >= lines.len() as f64 * SHARED_COLUMN_SHARE)
        .map(|(s, _)| s)
        .collect();
    let Some(&last) = shared.iter().max() else {
        return false;
    };
    if !shared.iter().any(|&p| padded_to(&words, p)) {
        return false;
    }
    let lined_up = words
        .iter()
        .filter(|w| {
            let crosses = shared
                .iter()
                .any(|&p| w.iter().any(|&(s, e)| s < p && p < e));
            let after = w.iter().filter(|&&(s, _)| s > last).count();
            !crosses && after <= LAST_CELL_WORDS_AT_MOST
        })
        .count();
    lined_up >= least
}

/// Whether the words starting at column `p` are padded to it: mostly two
/// spaces or more before them, and those paddings not all the same width
/// (cells of varying length before it, not an indent or a fixed-width
/// field: a diff's `-    let` is four spaces on every line).
fn padded_to(words: &[Vec<(usize, usize)>], p: usize) -> bool {
    let gaps: Vec<usize> = words
        .iter()
        .filter_map(|w| {
            let k = w.iter().position(|&(s, _)| s == p)?;
            (k > 0).then(|| p - w[k - 1].1)
        })
        .collect();
    let wide: Vec<usize> = gaps.iter().copied().filter(|&g| g >= 2).collect();
    let varies = wide.iter().any(|&g| g != wide[0]);
    wide.len() * 2 >= gaps.len() && varies
}

/// Whether the lines are led by a few words or by numbers, not each by a
/// key of its own: a few messages printed over and over (`remote:
/// Compressing objects:  10% (9/84)`, `Receiving objects:  12% …`) or
/// led by a count (`35% [10 r-base-core 3,736 kB/22.4 MB]`), their numbers
/// padded, are progress, not records.
fn led_by_few_keys(lines: &[&str], words: &[Vec<(usize, usize)>]) -> bool {
    let leading: rustc_hash::FxHashSet<&str> = lines
        .iter()
        .zip(words)
        .filter_map(|(line, w)| w.first().map(|&(s, e)| &line[s..e]))
        .filter(|w| !crate::sorted_records::is_number_like(w))
        .collect();
    (leading.len() as f64) < lines.len() as f64 * DISTINCT_KEYS_SHARE
}

/// At least this share of a table's lines start with a word of their own.
const DISTINCT_KEYS_SHARE: f64 = 0.5;

/// Whether two words of `line` are two spaces or more apart.
fn is_padded(line: &str) -> bool {
    line.trim_ascii().has("  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_in_padded_columns_stay() {
        let services = [
            "tcpmux                1/tcp",
            "echo                  7/tcp",
            "discard               9/tcp           sink null",
            "systat                11/tcp          users",
            "daytime               13/tcp",
            "netstat               15/tcp",
        ];
        assert_eq!(kept(&services, |_| false), (0..6).collect::<Vec<_>>());
    }

    #[test]
    fn a_log_with_a_fixed_prefix_is_not_a_table() {
        // The level is padded, but the messages run on.
        let log = [
            "2024-05-01 10:00:01 INFO  [main] Starting the server on port 8080",
            "2024-05-01 10:00:02 WARN  [main] The cache directory does not exist yet",
            "2024-05-01 10:00:02 ERROR [pool-1] Could not connect to the database",
            "2024-05-01 10:00:03 INFO  [main] Retrying in five seconds as configured",
            "2024-05-01 10:00:08 INFO  [main] Connected to the database after a retry",
        ];
        assert!(kept(&log, |_| false).is_empty());
        // Sentences are not padded.
        let prose = [
            "Send mail if the user is not in sudoers",
            "Use a separate timestamp for each user",
            "Lecture user the first time they run sudo",
            "Root may run sudo without a password",
            "Require fully-qualified hostnames in the file",
        ];
        assert!(kept(&prose, |_| false).is_empty());
        // Progress: one message, its numbers padded.
        let progress: Vec<String> = (1..=12)
            .map(|i| format!("remote: Compressing objects: {:>3}% ({i}/84)", i * 100 / 84))
            .collect();
        let lines: Vec<&str> = progress.iter().map(String::as_str).collect();
        assert!(kept(&lines, |_| false).is_empty());
    }
}
