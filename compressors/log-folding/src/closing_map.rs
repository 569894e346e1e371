//! A log that ends with a map of named values: the tool's own account of
//! the run, as counters it kept. Scrapy closes a crawl with `Dumping
//! Scrapy stats:` over `{'downloader/request_count': 66, …,
//! 'finish_reason': 'finished', 'item_scraped_count': 53, …,
//! 'log_count/ERROR': 7, …}`, one key a line; `/usr/bin/time -v` with
//! `Maximum resident set size (kbytes): 1234` and its kin. Each line names
//! another thing, but the lines share one shape, so the template fold took
//! them for one record repeated (the crawl kept 3 of its 40). A summary at
//! the end says what happened, in the tool's own words: so the map is kept
//! whole when it is the log's last block (at most
//! [`LINES_AFTER_AT_MOST`] nonblank lines after it), has at least
//! [`MIN_ENTRIES`] entries, each key once, and at most
//! [`ENTRIES_AT_MOST`]. A map in the middle of a log (a configuration
//! printed at start-up, an environment dump) goes by the usual rules.

use crate::search::Search;

use rustc_hash::FxHashSet;

/// A map has at least this many entries to count.
const MIN_ENTRIES: usize = 5;
/// A longer map is a dump, not a summary.
const ENTRIES_AT_MOST: usize = 80;
/// Nonblank lines the log may print after the map (`Spider closed
/// (finished)`) for the map to be its last block.
const LINES_AFTER_AT_MOST: usize = 3;
/// A key is at most this long: a longer text before a colon is a message.
const KEY_LEN_AT_MOST: usize = 60;

/// The lines of the map closing `contents`, or none.
pub fn kept(contents: &[&str]) -> Vec<usize> {
    let mut end = contents.len();
    let mut after = 0;
    // The map's last line: the last entry, past at most a few lines.
    loop {
        let Some(i) = end.checked_sub(1) else {
            return Vec::new();
        };
        if key_of(contents[i]).is_some() {
            break;
        }
        if !contents[i].trim_ascii().is_empty() {
            after += 1;
            if after > LINES_AFTER_AT_MOST {
                return Vec::new();
            }
        }
        end = i;
    }
    let mut start = end;
    let mut keys = FxHashSet::default();
    while let Some(i) = start.checked_sub(1) {
        let Some(key) = key_of(contents[i]) else {
            break;
        };
        if !keys.insert(key) || keys.len() > ENTRIES_AT_MOST {
            return Vec::new();
        }
        start = i;
    }
    if keys.len() < MIN_ENTRIES {
        return Vec::new();
    }
    (start..end).collect()
}

/// The key of a map's entry line: a quoted key (`'item_scraped_count':
/// 53,`, pprint's `{` or a one-space indent before it) or a bare one of
/// words (`Maximum resident set size (kbytes): 1234`, `retries = 3`), then
/// a value. A bare key starts with a letter: a line led by a time or a
/// count is an event.
fn key_of(line: &str) -> Option<&str> {
    let t = line.trim_ascii_start().trim_start_matches(['{', '[']);
    let (key, value) = if let Some(quote) = t.chars().next().filter(|c| matches!(c, '\'' | '"')) {
        let rest = &t[1..];
        let close = rest.find(quote)?;
        let after = rest[close + 1..].trim_ascii_start();
        let value = after
            .strip_prefix(':')
            .or_else(|| after.strip_prefix('='))?;
        (&rest[..close], value)
    } else {
        let at = t.find_str(": ").or_else(|| t.find_str(" = "))?;
        let key = &t[..at];
        let bare = key.starts_with(|c: char| c.is_alphabetic())
            && key.chars().all(|c| {
                c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.' | '/' | '(' | ')')
            });
        if !bare {
            return None;
        }
        (key, &t[at + 2..])
    };
    let value = value.trim_ascii();
    (!key.is_empty() && key.len() <= KEY_LEN_AT_MOST && !value.is_empty()).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crawls_closing_stats_are_kept() {
        let log = [
            "2026-12-03 09:33:18 [scrapy.core.engine] INFO: Closing spider (finished)",
            "2026-12-03 09:33:18 [scrapy.statscollectors] INFO: Dumping Scrapy stats:",
            "{'downloader/request_bytes': 17556,",
            " 'downloader/request_count': 66,",
            " 'finish_reason': 'finished',",
            " 'item_scraped_count': 53,",
            " 'log_count/ERROR': 7,",
            " 'start_time': datetime.datetime(2026, 12, 3, 9, 33, 17)}",
            "2026-12-03 09:33:18 [scrapy.core.engine] INFO: Spider closed (finished)",
        ];
        assert_eq!(kept(&log), (2..8).collect::<Vec<_>>());
    }

    #[test]
    fn a_map_in_the_middle_or_a_repeated_key_is_not() {
        let mut log = vec![
            "HOME: /root",
            "PATH: /usr/bin",
            "LANG: C",
            "TERM: xterm",
            "USER: root",
        ];
        let later = [
            "building",
            "compiling a",
            "compiling b",
            "compiling c",
            "done",
        ];
        let whole: Vec<&str> = log.iter().chain(later.iter()).copied().collect();
        assert!(kept(&whole).is_empty());
        assert_eq!(kept(&log), (0..5).collect::<Vec<_>>());
        log.push("PATH: /bin");
        assert!(kept(&log).is_empty());
    }

    #[test]
    fn events_and_messages_are_no_entries() {
        assert_eq!(key_of("12:00:01 INFO: started"), None);
        assert_eq!(key_of("src/lib.rs:3:1: error: expected `;`"), None);
        assert_eq!(
            key_of("\tMaximum resident set size (kbytes): 9876"),
            Some("Maximum resident set size (kbytes)")
        );
        assert_eq!(key_of(" 'log_count/ERROR': 7,"), Some("log_count/ERROR"));
    }
}
