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
/// A record inside a log is short: a word opening it, a name and a few
/// of its fields (`Updating serde v1.0.228 -> v1.0.229 (available:
/// v1.0.230)`), at most this many words after the first; a longer line
/// is a sentence.
const RECORD_WORDS_AT_MOST: usize = 6;
/// …and at most this many bytes, cargo's right-aligned indent included
/// (the longest seen, an update naming the version it could not reach,
/// is 90).
const RECORD_BYTES_AT_MOST: usize = 160;
/// Lines looked at to decide (the decision holds for the rest).
const LINES_JUDGED: usize = 4000;

/// The lines to keep (every record), or none when `contents` is not a
/// sorted listing; a line `claimed` says is another rule's (a passing
/// test's) is not a record.
pub fn kept(contents: &[&str], claimed: impl Fn(usize) -> bool) -> Vec<usize> {
    let non_blank = contents
        .iter()
        .filter(|c| !c.trim_ascii().is_empty())
        .count();
    let records: Vec<usize> = (0..contents.len())
        .filter(|&i| !contents[i].trim_ascii().is_empty() && !claimed(i))
        .collect();
    if records.len() < MIN_RECORDS || (records.len() as f64) < non_blank as f64 * MIN_RECORD_SHARE {
        return Vec::new();
    }
    let judged: Vec<&str> = records[..records.len().min(LINES_JUDGED)]
        .iter()
        .map(|&i| contents[i])
        .collect();
    // The key columns of each line (a ranking's names read all its words).
    let words: Vec<KeyWords> = judged.iter().map(|c| KeyWords::of(c)).collect();
    if led_by_one_word(&words) {
        return Vec::new();
    }
    let sorted_key =
        (0..KEY_COLUMNS).any(|k| is_sorted_key(&words, k) || is_ranked_by(&words, &judged, k));
    if sorted_key { records } else { Vec::new() }
}

/// Runs of package records inside a log, sorted by name: short lines,
/// each a word (what the tool did) then a package's name then its
/// version, in the order of the names (cargo's `Adding aho-corasick
/// v1.1.3`, `Updating anyhow v1.0.98 -> v1.0.99`, `Removing atomic
/// v0.6.1`, interleaved as the names fall). The log around them is in the
/// order things happened, so the whole text is no listing; but a run in
/// the order of names is one the tool sorted, each line a record it
/// reports, so each stays (a message repeated has its counter or clock,
/// not a name, in that place; see [`kept`]). Once a run of at least
/// [`MIN_RECORDS`] lines shows its words to open records, the shorter
/// runs of those words elsewhere in the log (cargo locking four packages
/// after another command) are records too, a single line included. A
/// line `claimed` is another rule's (a passing test's) and ends a run.
pub fn runs_kept(contents: &[&str], claimed: impl Fn(usize) -> bool) -> Vec<usize> {
    let lead: Vec<Option<&str>> = (0..contents.len())
        .map(|i| {
            if claimed(i) {
                None
            } else {
                record_lead(contents[i])
            }
        })
        .collect();
    // Every run of records: its start and end.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    while start < contents.len() {
        if lead[start].is_none() {
            start += 1;
            continue;
        }
        let mut end = start + 1;
        while end < contents.len() && lead[end].is_some() {
            end += 1;
        }
        runs.push((start, end));
        start = end;
    }
    let sorted = |start: usize, end: usize| {
        end - start == 1 || is_sorted_run(&contents[start..end.min(start + LINES_JUDGED)])
    };
    // Whether each long run is sorted: the words of those that are open
    // records.
    let long_sorted: Vec<bool> = runs
        .iter()
        .map(|&(start, end)| end - start >= MIN_RECORDS && sorted(start, end))
        .collect();
    let leads: FxHashSet<&str> = runs
        .iter()
        .zip(&long_sorted)
        .filter(|&(_, &long_sorted)| long_sorted)
        .flat_map(|(&(start, end), _)| lead[start..end].iter().flatten().copied())
        .collect();
    if leads.is_empty() {
        return Vec::new();
    }
    let opens_records = |start: usize, end: usize| {
        lead[start..end]
            .iter()
            .all(|word| word.is_some_and(|w| leads.contains(w)))
    };
    runs.iter()
        .zip(&long_sorted)
        .filter(|&(&(start, end), &long_sorted)| {
            long_sorted
                || (end - start < MIN_RECORDS && opens_records(start, end) && sorted(start, end))
        })
        .flat_map(|(&(start, end), _)| start..end)
        .collect()
}

/// The word leading a package record (`Adding` in `Adding serde v1.0.229
/// to dependencies`): a line of a few words, led by a word (not a number,
/// not a tree's branches), naming a version after its second word. A
/// longer line is a sentence.
fn record_lead(line: &str) -> Option<&str> {
    if line.len() > RECORD_BYTES_AT_MOST {
        return None;
    }
    let mut words = line.split_whitespace();
    let first = words.next().map(bare)?;
    if !first.contains(|c: char| c.is_alphabetic()) || is_number_like(first) {
        return None;
    }
    let mut versioned = false;
    for (k, word) in words.enumerate() {
        if k >= RECORD_WORDS_AT_MOST {
            return None;
        }
        versioned |= k >= 1 && is_version(word);
    }
    versioned.then_some(first)
}

/// A line's first [`KEY_COLUMNS`] words, [`bare`], kept in place (a log's
/// thousands of lines need no list each).
struct KeyWords<'a> {
    words: [&'a str; KEY_COLUMNS],
    len: usize,
}

impl<'a> KeyWords<'a> {
    fn of(line: &'a str) -> Self {
        let mut key = KeyWords {
            words: [""; KEY_COLUMNS],
            len: 0,
        };
        for word in line.split_whitespace().take(KEY_COLUMNS) {
            key.words[key.len] = bare(word);
            key.len += 1;
        }
        key
    }
}

impl<'a> std::ops::Deref for KeyWords<'a> {
    type Target = [&'a str];

    fn deref(&self) -> &[&'a str] {
        &self.words[..self.len]
    }
}

/// Whether records are sorted by the name after their leading word: the
/// word after the verb is what it acts on. A key further on follows a
/// phrase (`Cloning into '…'`), a message's, not a record's.
fn is_sorted_run(lines: &[&str]) -> bool {
    let words: Vec<KeyWords> = lines.iter().map(|c| KeyWords::of(c)).collect();
    is_sorted_key(&words, 1)
}

/// A version: numbers joined by dots, behind a `v`, `==` or `@`
/// (`v1.0.229`, `==0.3.4:`), or with two dots at least (`(1.2.3)`); a
/// number with one dot and no mark is a measure (`in 0.98 seconds`).
fn is_version(word: &str) -> bool {
    let word = bare(word);
    let number = word.trim_start_matches(['v', '=', '@']);
    let marked = number.len() < word.len();
    number.starts_with(|c: char| c.is_ascii_digit())
        && is_number_like(number)
        && number.matches('.').count() >= if marked { 1 } else { 2 }
}

/// A word without the punctuation that frames it (`12:`, `[1]`, `a,`).
fn bare(word: &str) -> &str {
    word.trim_matches(|c: char| matches!(c, ':' | ',' | ';' | '[' | ']' | '(' | ')'))
}

/// Whether most lines start with the same word (a number is no word: the
/// long tail of a ranking shares its count).
fn led_by_one_word(words: &[KeyWords]) -> bool {
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
fn is_sorted_key(words: &[KeyWords], k: usize) -> bool {
    let column: Vec<&str> = words.iter().filter_map(|w| w.get(k).copied()).collect();
    if (column.len() as f64) < words.len() as f64 * MIN_RECORD_SHARE || column.len() < 2 {
        return false;
    }
    let numbers = column.iter().filter(|w| is_number_like(w)).count();
    if numbers as f64 > column.len() as f64 * MAX_NUMBER_SHARE {
        return false;
    }
    // Sorted by bytes (`LC_ALL=C`: `ZLIB_1.2.0` before `adler32`) or
    // ignoring case (most locales). (Read before the keys' distinctness:
    // a log's lines are seldom in order, and this test allocates nothing.)
    let by_bytes = mostly_in_order(&column, |a, b| a <= b);
    if !by_bytes && !mostly_in_order(&column, |a, b| ignoring_case(a).le(ignoring_case(b))) {
        return false;
    }
    // Keys differ in their letters: words that differ only in their
    // digits (`Get:11`, `Get:12`) are a counter's, the order of events.
    let distinct: FxHashSet<String> = column
        .iter()
        .map(|w| w.replace(|c: char| c.is_ascii_digit(), ""))
        .collect();
    distinct.len() as f64 >= column.len() as f64 * MIN_DISTINCT_KEYS
}

/// Whether at least [`MIN_SORTED_SHARE`] of the neighbouring pairs of
/// `items` are `in_order`; it stops reading at the pair out of order that
/// settles it (a log's lines are seldom in any order).
fn mostly_in_order<T: Copy>(items: &[T], in_order: impl Fn(T, T) -> bool) -> bool {
    let pairs = items.len().saturating_sub(1);
    let mut out_of_order = 0;
    for p in items.windows(2) {
        if !in_order(p[0], p[1]) {
            out_of_order += 1;
            if ((pairs - out_of_order) as f64) < pairs as f64 * MIN_SORTED_SHARE {
                return false;
            }
        }
    }
    true
}

/// `word`'s bytes with ASCII letters lowercased, to compare words as most
/// locales sort them (the order of `str::to_ascii_lowercase`'s results).
fn ignoring_case(word: &str) -> impl Iterator<Item = u8> + '_ {
    word.bytes().map(|b| b.to_ascii_lowercase())
}

/// Whether the lines are ranked by a number in column `k`, largest first
/// (`git shortlog -sn`'s commits, `uniq -c | sort -rn`'s counts), the only
/// number among their first words, each naming another thing with the rest
/// of its words.
/// A counter or a clock rises with the events it counts, so falling
/// numbers are a ranking, not the order things happened in. `words` are
/// the key columns of `lines`.
fn is_ranked_by(words: &[KeyWords], lines: &[&str], k: usize) -> bool {
    let numbers: Vec<f64> = words
        .iter()
        .filter_map(|w| w.get(k)?.parse::<f64>().ok())
        .collect();
    if (numbers.len() as f64) < words.len() as f64 * MIN_RECORD_SHARE || numbers.len() < 2 {
        return false;
    }
    if numbers.first() <= numbers.last() || !mostly_in_order(&numbers, |a, b| a >= b) {
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

    /// Twelve crate names in order.
    const CRATES: [&str; 12] = [
        "aho-corasick",
        "anyhow",
        "bytes",
        "cfg-if",
        "itoa",
        "libc",
        "memchr",
        "mio",
        "serde",
        "socket2",
        "tokio",
        "zmij",
    ];

    #[test]
    fn a_sorted_run_of_package_records_inside_a_log_keeps_every_record() {
        // cargo right-aligns its status words; the packages it locks come
        // in the order of their names, each with its version.
        let mut log = vec![
            "    Updating crates.io index".to_string(),
            "      Adding tokio v1.54.1 to dependencies".to_string(),
            "     Locking 12 packages to latest compatible versions".to_string(),
        ];
        log.extend(
            CRATES
                .iter()
                .enumerate()
                .map(|(i, c)| format!("      Adding {c} v1.{i}.3")),
        );
        log.push("    Updating crates.io index".to_string());
        log.push("     Locking 2 packages to latest compatible versions".to_string());
        log.push("      Adding rustls v0.23.46".to_string());
        log.push("      Adding zeroize v1.9.2".to_string());
        let lines: Vec<&str> = log.iter().map(String::as_str).collect();
        let kept = runs_kept(&lines, |_| false);
        // The run of twelve, the two after it and the lone `Adding` line:
        // once a word opens records, its shorter runs are records too.
        let want: Vec<usize> = std::iter::once(1).chain(3..15).chain([17, 18]).collect();
        assert_eq!(kept, want);
        // A line another rule claims (a passing test's) ends a run.
        assert!(runs_kept(&lines, |i| i % 2 == 0).is_empty());
    }

    #[test]
    fn a_lock_update_interleaving_its_words_in_the_order_of_names_keeps_every_record() {
        // `cargo update`: what happened to each package, in one order of
        // names whatever the word.
        let mut log = vec![
            "    Updating crates.io index".to_string(),
            "     Locking 12 packages to latest compatible versions".to_string(),
        ];
        log.extend(CRATES.iter().enumerate().map(|(i, c)| match i % 4 {
            0 => format!("      Adding {c} v0.{i}.1"),
            1 => format!("    Removing {c} v1.{i}.0"),
            _ => format!("    Updating {c} v1.{i}.0 -> v1.{i}.4 (available: v2.0.0)"),
        }));
        log.push("note: pass `--verbose` to see 3 unchanged dependencies".to_string());
        let lines: Vec<&str> = log.iter().map(String::as_str).collect();
        assert_eq!(runs_kept(&lines, |_| false), (2..14).collect::<Vec<_>>());
    }

    #[test]
    fn sorted_runs_of_steps_and_messages_are_not_records() {
        let run = |f: &dyn Fn(&str, usize) -> String| -> Vec<String> {
            CRATES.iter().enumerate().map(|(i, c)| f(c, i)).collect()
        };
        let cases = [
            // A build's steps over files in the order of their names: no
            // versions.
            run(&|c, _| format!("    CC builtin/{c}.o")),
            // The name follows a phrase: a message's.
            run(&|c, i| format!("Cloning into 'vendor/{c}' at v1.{i}.0...")),
            // Times, not versions.
            run(&|c, i| format!("Executed Test_{c}() in 0.0{i}5 seconds")),
            // A tree's branches, led by no word.
            run(&|c, i| format!("├── {c} v0.{i}.1")),
            // Out of order.
            run(&|_, i| format!("   Compiling {} v1.{i}.0", CRATES[(i * 5) % 12])),
        ];
        for lines in &cases {
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            assert!(runs_kept(&lines, |_| false).is_empty(), "{lines:?}");
        }
    }
}
