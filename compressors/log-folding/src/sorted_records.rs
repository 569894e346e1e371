//! A listing of records sorted by a key: `apt list --installed`, `nm`,
//! `pip freeze`, anything piped through `sort`. Every line is a record the
//! agent asked for, and the template fold would take them for one shape
//! printed many times (`apt list` lost 1,351 of its 1,402 names and
//! versions, `nm -D` 94 of its 102 symbols). A log is in the order things
//! happened; a listing is in the order of its key. So a text is a listing
//! when nearly all its lines have a column of distinct words (not numbers,
//! addresses or times, nor words differing only in their digits: a counter
//! or a clock is the order of events) that runs in sorted order, and its lines are not led by one word (`synced
//! user 00049 <user49@example.com>` is a message repeated, even though its
//! addresses sort). Each record then stays. So it does when the lines
//! are ranked by a falling number, each naming another thing (`git
//! shortlog -sn`, `sort -rn`).

use rustc_hash::{FxHashMap, FxHashSet};

/// A listing has at least this many records…
const MIN_RECORDS: usize = 10;
/// …making up at least this share of its non-blank lines.
const MIN_RECORD_SHARE: f64 = 0.9;
/// Columns searched for the key, from the left.
const KEY_COLUMNS: usize = 4;
/// At least this share of a key column's words differ from each other.
const MIN_DISTINCT_KEYS: f64 = 0.8;
/// At least this share of neighbouring keys are in order.
const MIN_SORTED_SHARE: f64 = 0.95;
/// At most this share of a key column's words may be numbers or times.
const MAX_NUMBER_SHARE: f64 = 0.1;
/// Lines led by one word in at least this share are one message repeated.
const LEADING_WORD_SHARE: f64 = 0.5;
/// Lines looked at to decide (the decision holds for the rest).
const LINES_JUDGED: usize = 4000;

/// The lines to keep (every record), or none when `contents` is not a
/// sorted listing; a line `claimed` says is another rule's (a passing
/// test's) is not a record.
pub fn kept(contents: &[&str], claimed: impl Fn(usize) -> bool) -> Vec<usize> {
    let non_blank = contents.iter().filter(|c| !c.trim().is_empty()).count();
    let records: Vec<usize> = (0..contents.len())
        .filter(|&i| !contents[i].trim().is_empty() && !claimed(i))
        .collect();
    if records.len() < MIN_RECORDS || (records.len() as f64) < non_blank as f64 * MIN_RECORD_SHARE {
        return Vec::new();
    }
    let judged: Vec<&str> = records[..records.len().min(LINES_JUDGED)]
        .iter()
        .map(|&i| contents[i])
        .collect();
    // The key columns of each line (a ranking's names read all its words).
    let words: Vec<Vec<&str>> = judged
        .iter()
        .map(|c| c.split_whitespace().take(KEY_COLUMNS).map(bare).collect())
        .collect();
    if led_by_one_word(&words) {
        return Vec::new();
    }
    let sorted_key =
        (0..KEY_COLUMNS).any(|k| is_sorted_key(&words, k) || is_ranked_by(&words, &judged, k));
    if sorted_key { records } else { Vec::new() }
}

/// A word without the punctuation that frames it (`12:`, `[1]`, `a,`).
fn bare(word: &str) -> &str {
    word.trim_matches(|c: char| matches!(c, ':' | ',' | ';' | '[' | ']' | '(' | ')'))
}

/// Whether most lines start with the same word (a number is no word: the
/// long tail of a ranking shares its count).
fn led_by_one_word(words: &[Vec<&str>]) -> bool {
    let mut counts: FxHashMap<&str, usize> = FxHashMap::default();
    for w in words
        .iter()
        .filter_map(|w| w.first())
        .filter(|w| !is_number_like(w))
    {
        *counts.entry(w).or_default() += 1;
    }
    counts
        .values()
        .any(|&n| n as f64 >= words.len() as f64 * LEADING_WORD_SHARE)
}

/// Whether column `k` holds distinct words, not numbers, in sorted order
/// (by bytes or ignoring case) on nearly every line.
fn is_sorted_key(words: &[Vec<&str>], k: usize) -> bool {
    let column: Vec<&str> = words.iter().filter_map(|w| w.get(k).copied()).collect();
    if (column.len() as f64) < words.len() as f64 * MIN_RECORD_SHARE || column.len() < 2 {
        return false;
    }
    let numbers = column.iter().filter(|w| is_number_like(w)).count();
    if numbers as f64 > column.len() as f64 * MAX_NUMBER_SHARE {
        return false;
    }
    // Keys differ in their letters: words that differ only in their
    // digits (`Get:11`, `Get:12`) are a counter's, the order of events.
    let distinct: FxHashSet<String> = column
        .iter()
        .map(|w| w.replace(|c: char| c.is_ascii_digit(), ""))
        .collect();
    if (distinct.len() as f64) < column.len() as f64 * MIN_DISTINCT_KEYS {
        return false;
    }
    // Sorted by bytes (`LC_ALL=C`: `ZLIB_1.2.0` before `adler32`) or
    // ignoring case (most locales).
    let by_bytes = column.windows(2).filter(|p| p[0] <= p[1]).count();
    let by_letters = column
        .windows(2)
        .filter(|p| {
            let lower = |w: &str| w.to_ascii_lowercase();
            lower(p[0]) <= lower(p[1])
        })
        .count();
    by_bytes.max(by_letters) as f64 >= (column.len() - 1) as f64 * MIN_SORTED_SHARE
}

/// Whether the lines are ranked by a number in column `k`, largest first
/// (`git shortlog -sn`'s commits, `uniq -c | sort -rn`'s counts), the only
/// number among their first words, each naming another thing with the rest
/// of its words.
/// A counter or a clock rises with the events it counts, so falling
/// numbers are a ranking, not the order things happened in. `words` are
/// the key columns of `lines`.
fn is_ranked_by(words: &[Vec<&str>], lines: &[&str], k: usize) -> bool {
    let numbers: Vec<f64> = words
        .iter()
        .filter_map(|w| w.get(k)?.parse::<f64>().ok())
        .collect();
    if (numbers.len() as f64) < words.len() as f64 * MIN_RECORD_SHARE || numbers.len() < 2 {
        return false;
    }
    let falling = numbers.windows(2).filter(|p| p[0] >= p[1]).count();
    if numbers.first() <= numbers.last()
        || (falling as f64) < (numbers.len() - 1) as f64 * MIN_SORTED_SHARE
    {
        return false;
    }
    // One count a line: a row of several measures is a table's (cProfile's,
    // whose ranked rows [`crate::table`] shows the first of).
    let one_number = words
        .iter()
        .filter(|w| {
            w.iter()
                .take(KEY_COLUMNS)
                .filter(|x| is_number_like(x))
                .count()
                == 1
        })
        .count();
    if (one_number as f64) < words.len() as f64 * MIN_RECORD_SHARE {
        return false;
    }
    // What each line names: its other words, digits aside.
    let names: FxHashSet<String> = lines
        .iter()
        .map(|line| {
            line.split_whitespace()
                .map(bare)
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, word)| word.replace(|c: char| c.is_ascii_digit(), ""))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    names.len() as f64 >= words.len() as f64 * MIN_DISTINCT_KEYS
}

/// A number, an address, a version or a time (`12`, `0000000000012540`,
/// `1.2.3`, `2024-01-02T10:00:01Z`): digits, hex letters and the marks
/// between them, at least one digit.
pub(crate) fn is_number_like(word: &str) -> bool {
    word.bytes().any(|b| b.is_ascii_digit())
        && word
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || b".:-/+%#_TZ".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_sorted_by_name_keeps_every_record() {
        let apt: Vec<String> = std::iter::once("Listing...".to_string())
            .chain(
                [
                    "adduser",
                    "base-files",
                    "curl",
                    "gcc-12",
                    "git",
                    "libc6",
                    "libssl3",
                    "make",
                    "nodejs",
                    "perl",
                    "python3",
                    "zlib1g",
                ]
                .iter()
                .map(|n| format!("{n}/stable,now 1.0-1 amd64 [installed]")),
            )
            .collect();
        let lines: Vec<&str> = apt.iter().map(String::as_str).collect();
        assert_eq!(kept(&lines, |_| false), (0..13).collect::<Vec<_>>());
        // `nm`: led by addresses, sorted by the symbol's name.
        let nm: Vec<String> = [
            "adler32",
            "compress",
            "crc32",
            "deflate",
            "deflateEnd",
            "gzclose",
            "gzopen",
            "inflate",
            "inflateEnd",
            "uncompress",
            "zError",
        ]
        .iter()
        .enumerate()
        .map(|(i, n)| format!("00000000000{:05x} T {n}", 0x9000 - i * 0x40))
        .collect();
        let lines: Vec<&str> = nm.iter().map(String::as_str).collect();
        assert_eq!(kept(&lines, |_| false).len(), 11);
    }

    #[test]
    fn a_listing_ranked_by_a_falling_number_keeps_every_record() {
        // Most of the tail shares one count.
        let authors: Vec<String> = (0..40)
            .map(|i| {
                format!(
                    "{:>6}\tAuthor {}",
                    400 / (i + 1usize).pow(3) + 1,
                    words(39 - i)
                )
            })
            .collect();
        let lines: Vec<&str> = authors.iter().map(String::as_str).collect();
        assert_eq!(kept(&lines, |_| false).len(), 40);
        // Rising, the numbers count events: no listing.
        let rising: Vec<String> = (0..40)
            .map(|i| format!("{:>6}\tAuthor {}", i * 3, words(39 - i)))
            .collect();
        let lines: Vec<&str> = rising.iter().map(String::as_str).collect();
        assert!(kept(&lines, |_| false).is_empty());
    }

    /// A name of its own for each `i` below 676.
    fn words(i: usize) -> String {
        [i % 26, i / 26]
            .iter()
            .map(|&k| char::from(b'a' + k as u8))
            .collect()
    }

    #[test]
    fn events_in_the_order_they_happened_are_not_a_listing() {
        // A counter and a clock sort, but they are the order of events.
        let jobs: Vec<String> = (0..50)
            .map(|i| format!("job {i:05} [orders] sku=A{} ok", (i * 7919) % 1000))
            .collect();
        let lines: Vec<&str> = jobs.iter().map(String::as_str).collect();
        assert!(kept(&lines, |_| false).is_empty());
        let timed: Vec<String> = (0..50)
            .map(|i| format!("10:00:{i:02} worker-{} picked task {}", i % 3, 100 - i))
            .collect();
        let lines: Vec<&str> = timed.iter().map(String::as_str).collect();
        assert!(kept(&lines, |_| false).is_empty());
        // One message repeated, its addresses sorted all the same.
        let synced: Vec<String> = (0..50)
            .map(|i| format!("synced user {i:05} <user{i:02}@example.com> in 3ms"))
            .collect();
        let lines: Vec<&str> = synced.iter().map(String::as_str).collect();
        assert!(kept(&lines, |_| false).is_empty());
        // apt-get's numbered downloads: a counter inside a word.
        let gets: Vec<String> = (0..120)
            .map(|i| {
                format!(
                    "Get:{i} http://deb.debian.org/debian bookworm/main amd64 lib{} [{i} kB]",
                    i % 7
                )
            })
            .collect();
        let lines: Vec<&str> = gets.iter().map(String::as_str).collect();
        assert!(kept(&lines, |_| false).is_empty());
    }
}
