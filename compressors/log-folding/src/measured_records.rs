//! Lines that each name a thing and then give only its measurements:
//! `go test -bench`'s `BenchmarkAtoi/Pos/7bit-2  1877942  12.34 ns/op  0
//! B/op  0 allocs/op`, one line per benchmark. Each is a result the agent
//! ran the tool for, but they share one shape and differ in their numbers,
//! so the template fold would take them for a counter ticking (strconv's
//! run kept 28 of its 117 results). Progress repeats one message with new
//! numbers (`Downloading … 12 MB`); a record names something else on every
//! line. So a line is a measured record when its first word is a name (led by a
//! letter: not a number, a time or an address) and every word after it is a number or
//! the unit just after one, at least [`MIN_MEASURES`] numbers; the records
//! of a log are kept when there are at least [`MIN_RECORDS`] of them and
//! nearly all their names differ (the whole name, digits too: `7bit` and
//! `26bit` are two benchmarks).

use crate::sorted_records::is_number_like;
use rustc_hash::FxHashSet;

/// A log has at least this many measured records for them to count.
const MIN_RECORDS: usize = 3;
/// A record gives at least this many numbers after its name.
const MIN_MEASURES: usize = 2;
/// At least this share of the records' names differ from each other.
const MIN_DISTINCT_NAMES: f64 = 0.95;
/// A unit is at most this long (`allocs/op`, `MB/s`); a longer word is
/// part of a message.
const UNIT_LEN_AT_MOST: usize = 12;

/// The measured records of `contents`, or none when it has too few or
/// their names repeat; a line `claimed` says is another rule's (a passing
/// test's) is not a record.
pub fn kept(contents: &[&str], claimed: impl Fn(usize) -> bool) -> Vec<usize> {
    let records: Vec<usize> = (0..contents.len())
        .filter(|&i| !claimed(i) && is_measured_record(contents[i]))
        .collect();
    if records.len() < MIN_RECORDS {
        return Vec::new();
    }
    let names: FxHashSet<&str> = records
        .iter()
        .filter_map(|&i| contents[i].split_whitespace().next())
        .collect();
    if (names.len() as f64) < records.len() as f64 * MIN_DISTINCT_NAMES {
        return Vec::new();
    }
    records
}

/// Whether `line` is a name followed by measurements only: numbers, each
/// perhaps followed by its unit.
fn is_measured_record(line: &str) -> bool {
    // Cheap first: a record starts with its name, most log lines do not
    // hold two numbers.
    if line.starts_with(char::is_whitespace)
        || line.bytes().filter(|b| b.is_ascii_digit()).count() < MIN_MEASURES
    {
        return false;
    }
    let mut words = line.split_whitespace();
    let Some(name) = words.next() else {
        return false;
    };
    // A name starts with a letter; a line led by a time or a count
    // (`20171223-22:15:29:615|Step_LSC|…`) is an event in a sequence.
    if !name.starts_with(|c: char| c.is_alphabetic()) || is_number_like(name) {
        return false;
    }
    let mut numbers = 0;
    let mut after_number = false;
    for word in words {
        if is_measure(word) {
            numbers += 1;
            after_number = true;
        } else if after_number && is_unit(word) {
            after_number = false;
        } else {
            return false;
        }
    }
    numbers >= MIN_MEASURES
}

/// A number as a measurement prints it: digits with `.` or `,` between
/// them, perhaps a sign or a trailing `%`.
fn is_measure(word: &str) -> bool {
    let digits = word.trim_start_matches(['-', '+']).trim_end_matches('%');
    digits.starts_with(|c: char| c.is_ascii_digit())
        && digits.ends_with(|c: char| c.is_ascii_digit())
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
}

/// A unit after a number (`ns/op`, `B/op`, `MB/s`, `ms`): a short word of
/// letters (`µs` too), perhaps with `/` between them, no digit.
fn is_unit(word: &str) -> bool {
    word.chars().count() <= UNIT_LEN_AT_MOST
        && word.chars().any(|c| c.is_alphabetic())
        && word.chars().all(|c| c.is_alphabetic() || c == '/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn benchmark_results_are_records() {
        let log = [
            "goos: linux",
            "pkg: strconv",
            "BenchmarkAtoi/Pos/7bit-2     \t 5380591\t         4.341 ns/op\t       0 B/op\t       0 allocs/op",
            "BenchmarkAtoi/Pos/26bit-2    \t 1801286\t        13.33 ns/op\t       0 B/op\t       0 allocs/op",
            "BenchmarkAtoi/Neg/7bit-2     \t 2624446\t         9.040 ns/op\t       0 B/op\t       0 allocs/op",
            "PASS",
            "ok  \tstrconv\t4.107s",
        ];
        assert_eq!(kept(&log, |_| false), vec![2, 3, 4]);
    }

    #[test]
    fn progress_repeating_one_name_is_not() {
        let log = [
            "Downloaded 10 MB 3 s",
            "Downloaded 20 MB 6 s",
            "Downloaded 30 MB 9 s",
        ];
        assert!(kept(&log, |_| false).is_empty());
    }

    #[test]
    fn a_message_with_numbers_is_not_a_record() {
        assert!(!is_measured_record("Compiling serde v1.0.1 (registry 2)"));
        assert!(!is_measured_record("12:00:01 started 3 workers"));
        assert!(!is_measured_record("   indented 1 2"));
        assert!(!is_measured_record(
            "20171223-22:15:29:615|Step_LSC|onExtend:1514038530000 14 0 4"
        ));
        assert!(is_measured_record("Mem:  15984  2210  9001"));
    }
}
