//! Errors and warnings that say again what one before them said, but for
//! their numbers: a server logging `Connection broken for id 188978561024,
//! my id = 1` four hundred times, each with a new timestamp, port or pid.
//! The first is printed (with how many there are in all); the others are
//! counted in the gaps. A few alike alerts (at most [`FEW_ALIKE_AT_MOST`])
//! each stay: their numbers tell them apart. A line whose words differ is
//! a new fact and stays, and so is any line that names a place in a file,
//! heads a block (a stack trace follows) or names a failing test.

use crate::search::Search;

use rustc_hash::{FxHashMap, FxHashSet};
use std::hash::Hasher;

/// An error or warning line's key, hashed: its text with every number that
/// is not part of a name (`188978561024`, `10.10.34.12:3888`,
/// `sshd[24200]`, `0x34ed9348`, a hex digest, bytes written as text: see
/// [`crate::line::is_encoded_bytes`]) written as `0`, while
/// `test_case_1` and `ssh2` keep their digits. Lines are compared by it
/// without the text being built (a log's worth of keys allocates nothing).
pub fn key_hash(content: &str) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    masked_pieces(content, |piece| hasher.write(piece.as_bytes()));
    // The hasher reads a stream: the pieces hash as the whole key would.
    hasher.finish()
}

/// Hands the key's text (see [`key_hash`]) to `emit` piece by piece.
fn masked_pieces(content: &str, mut emit: impl FnMut(&str)) {
    for (i, token) in crate::search::split_at_byte(content, b' ').enumerate() {
        if i > 0 {
            emit(" ");
        }
        if is_hex_number(token) || crate::line::is_encoded_bytes(token) {
            emit("0");
            continue;
        }
        let b = token.as_bytes();
        let mut k = 0;
        while k < b.len() {
            let start = k;
            if b[k].is_ascii_digit() {
                k += b[k..].iter().take_while(|c| c.is_ascii_digit()).count();
                // Letters and digits run together (`ssh2`, `case_12`) stay,
                // and so does a number quoted whole (gawk's `byhour["16"]`):
                // a value the message quotes is what it says.
                let in_name =
                    start > 0 && is_name_byte(b[start - 1]) || k < b.len() && is_name_byte(b[k]);
                let quoted = start > 0
                    && k < b.len()
                    && matches!(b[start - 1], b'"' | b'\'')
                    && b[k] == b[start - 1];
                emit(if in_name || quoted {
                    &token[start..k]
                } else {
                    "0"
                });
            } else {
                k += b[k..].iter().take_while(|c| !c.is_ascii_digit()).count();
                emit(&token[start..k]);
            }
        }
    }
}

/// Bytes that continue a name: a digit after one of these is part of it.
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

/// `0x34ed93485090001` or a hex digest (`9f86d081884c`): a number too.
fn is_hex_number(token: &str) -> bool {
    let t = token.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let digits = t.strip_prefix("0x").unwrap_or(t);
    let hex = !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_hexdigit());
    hex && (t.starts_with("0x")
        || t.len() >= 8
            && t.bytes().any(|c| c.is_ascii_digit())
            && t.bytes().any(|c| c.is_ascii_alphabetic()))
}

/// Which alerts repeat an earlier one but for their numbers.
#[derive(Debug, Default)]
pub struct Alike {
    /// The lines to fold: each repeats an earlier alert.
    pub repeats: Vec<bool>,
    /// The first alert of each key that repeats, and how many there are in
    /// all (itself included).
    pub counts: FxHashMap<usize, usize>,
    /// Lines after a repeated error that say which one it was (a new
    /// request after `code 404`): kept, as the error above them is.
    pub telling: Vec<usize>,
    /// Alerts said again in the same words at one place more than
    /// [`SAME_PLACE_KEPT`] times: a loop's, which fold even where a log
    /// reads as a short one.
    pub looped: Vec<bool>,
}

/// Finds the alerts (`alert(i)`) that repeat an earlier one but for their
/// numbers. Lines for which `protected(i)` holds, and lines naming a place
/// in a file, are never folded (nor counted). Consecutive alerts are read
/// as episodes, each running until its first line's text comes round
/// again: an episode that says anything new stays whole (Maven's closing
/// `[ERROR]` block repeats its advice but names the goal that failed),
/// while one that only repeats folds.
pub fn find(
    contents: &[&str],
    alert: impl Fn(usize) -> bool,
    protected: impl Fn(usize) -> bool,
) -> Alike {
    let n = contents.len();
    let mut ids: FxHashMap<u64, usize> = FxHashMap::default();
    // Each alert's key, interned; the first alert of each key.
    let mut key_of: Vec<usize> = vec![usize::MAX; n];
    let mut first_of: Vec<usize> = Vec::new();
    // Alerts kept though alike an earlier one: their key has only a few.
    let mut few_again = vec![false; n];
    let mut new = vec![false; n];
    let mut seen_context: FxHashSet<u64> = FxHashSet::default();
    // How often each alert's key was seen at each place.
    let mut places: FxHashMap<(usize, u64), usize> = FxHashMap::default();
    let mut looped = vec![false; n];
    let mut telling: Vec<usize> = Vec::new();
    // Each alert's key, interned in the order keys first appear, and how
    // many alerts each key has: a few are facts of their own (which order
    // had no address), more are a loop's.
    let mut total: Vec<usize> = Vec::new();
    for (i, content) in contents.iter().enumerate() {
        if alert(i) {
            let next = ids.len();
            let id = *ids.entry(key_hash(content)).or_insert(next);
            key_of[i] = id;
            if id == total.len() {
                total.push(0);
            }
            total[id] += 1;
        }
    }
    for (i, content) in contents.iter().enumerate() {
        let id = key_of[i];
        if id == usize::MAX {
            continue;
        }
        if id == first_of.len() {
            first_of.push(i);
            new[i] = true;
        } else if total[id] <= FEW_ALIKE_AT_MOST {
            new[i] = true;
            few_again[i] = true;
        }
        // A place is a fact of its own, but a place said again in the same
        // words this often is a loop's (gawk's lint warning once per
        // record read, each with the record's number): the first ones
        // stay and the rest are counted.
        let mut place_seen = || {
            let seen = places.entry((id, place_hash(content))).or_insert(0);
            *seen += 1;
            *seen <= SAME_PLACE_KEPT
        };
        if protected(i) {
            new[i] = true;
        } else if names_a_place(content) {
            if place_seen() {
                new[i] = true;
            } else {
                looped[i] = true;
            }
        }
        // The line after an error says which one it was (http.server's
        // `code 404` then the request): a new one makes the error new.
        let context = contents.get(i + 1).filter(|c| {
            !c.trim_ascii().is_empty() && !crate::line::is_continuation(c) && !alert(i + 1)
        });
        if let Some(c) = context
            && seen_context.insert(key_hash(c))
            && (!new[i] || few_again[i])
        {
            new[i] = true;
            telling.push(i + 1);
        }
    }
    let mut alike = Alike {
        repeats: vec![false; n],
        counts: FxHashMap::default(),
        telling,
        looped: Vec::new(),
    };
    let mut fold_if_old = |episode: std::ops::Range<usize>| {
        if new[episode.clone()].iter().any(|&x| x) {
            return;
        }
        for k in episode {
            alike.repeats[k] = true;
            *alike.counts.entry(first_of[key_of[k]]).or_insert(1) += 1;
        }
    };
    let mut i = 0;
    while i < n {
        if !alert(i) {
            i += 1;
            continue;
        }
        let mut start = i;
        i += 1;
        while i < n && alert(i) {
            if key_of[i] == key_of[start] {
                fold_if_old(start..i);
                start = i;
            }
            i += 1;
        }
        fold_if_old(start..i);
    }
    // A loop's alerts fold one by one, whatever episode they are in (a
    // loop printing several at each pass makes one long episode).
    for k in 0..n {
        if looped[k] && !alike.repeats[k] {
            alike.repeats[k] = true;
            *alike.counts.entry(first_of[key_of[k]]).or_insert(1) += 1;
        }
    }
    alike.looped = looped;
    alike
}

/// A key with at most this many alerts in the log keeps each of them: a
/// few alike alerts tell things apart by their numbers (which order, which
/// page); a key said more often is a loop's, counted under its first.
pub const FEW_ALIKE_AT_MOST: usize = 5;

/// An alert repeating its words at one place (see [`names_a_place`]) is
/// kept this many times; later ones are counted under the first.
pub const SAME_PLACE_KEPT: usize = 10;

/// A hash of the places `content` names, numbers and all: `report.awk:7`
/// and `report.awk:8` are two places.
fn place_hash(content: &str) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    for token in content.split_whitespace().filter(|t| names_a_place(t)) {
        hasher.write(token.as_bytes());
    }
    hasher.finish()
}

/// Whether `content` names a place in a file (`src/a.rs:12`,
/// `/builds/Arrays.java:[691,36]`, `Foo.java:33`, `lib/x.py`): a place is a
/// fact of its own, whatever the rest of the line repeats.
pub fn names_a_place(content: &str) -> bool {
    content
        .split_whitespace()
        .filter_map(file_token)
        .any(|file| file.line_number || file.in_a_folder)
}

/// Whether `content` names a line of a file (`src/a.rs:12`,
/// `/builds/Arrays.java:[691,36]`, `Foo.java:33`, not `lib/x.py` alone):
/// where a diagnostic points.
pub fn names_a_line_of_a_file(content: &str) -> bool {
    content
        .split_whitespace()
        .filter_map(file_token)
        .any(|file| file.line_number)
}

/// What a token naming a file says of it.
struct FileToken {
    /// A line number follows the name (`a.rs:12`, `A.java:[691,36]`).
    line_number: bool,
    /// The name has a folder (`lib/x.py`).
    in_a_folder: bool,
}

/// The file `token` names, if it names one (a name with an extension of one
/// to five letters and digits, quotes and brackets around it aside).
fn file_token(token: &str) -> Option<FileToken> {
    let token = token.trim_matches(|c: char| matches!(c, '\'' | '"' | '`' | '(' | ')' | ','));
    let (head, rest) = token
        .find([':', '(', '['])
        .map_or((token, ""), |at| token.split_at(at));
    let name = head.rsplit(['/', '\\']).next().unwrap_or(head);
    let has_extension = name.rsplit_around(".").is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=5).contains(&ext.len())
            && ext.starts_with(|c: char| c.is_ascii_alphabetic())
            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
    });
    has_extension.then(|| FileToken {
        line_number: rest
            .trim_start_matches([':', '(', '['])
            .starts_with(|c: char| c.is_ascii_digit()),
        in_a_folder: head.contains(['/', '\\']),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key [`key_hash`] hashes, as text.
    fn key(content: &str) -> String {
        let mut out = String::new();
        masked_pieces(content, |piece| out.push_str(piece));
        out
    }

    #[test]
    fn numbers_are_masked_names_are_not() {
        assert_eq!(
            key(
                "WARN [SendWorker:188978561024:QuorumCnxManager$SendWorker@679] - Connection broken for id 188978561024, my id = 1"
            ),
            "WARN [SendWorker:0:QuorumCnxManager$SendWorker@0] - Connection broken for id 0, my id = 0"
        );
        assert_eq!(
            key("sshd[24200]: Failed password from 187.141.143.180 port 35620 ssh2"),
            "sshd[0]: Failed password from 0.0.0.0 port 0 ssh2"
        );
        assert_eq!(key("FAIL: test_case_12 (m.T)"), "FAIL: test_case_12 (m.T)");
        assert_eq!(
            key("session 0x34ed93485090001 expired"),
            "session 0 expired"
        );
        assert_eq!(key("error in deadbeef"), "error in deadbeef");
        // A quoted number is a value the message is about.
        assert_eq!(
            key("FNR=12) warning: uninitialized element `byhour[\"16\"]'"),
            "FNR=0) warning: uninitialized element `byhour[\"16\"]'"
        );
        assert_eq!(key_hash("id 17 broken"), key_hash("id 18 broken"));
        assert_ne!(key_hash("id 17 broken"), key_hash("id 17 broke n"));
    }

    #[test]
    fn a_loops_alerts_at_one_place_fold_past_the_first_few() {
        // gawk's lint: the same warnings at the same lines of the script,
        // once per record read, interleaved (one long episode).
        let lines: Vec<String> = (2..40)
            .flat_map(|k| {
                [
                    format!("gawk: t.awk:8: (FILENAME=a.csv FNR={k}) warning: substr: start index 0 is invalid"),
                    format!("gawk: t.awk:11: (FILENAME=a.csv FNR={k}) warning: reference to uninitialized element `h[\"{}\"]'", k % 24),
                ]
            })
            .collect();
        let log: Vec<&str> = lines.iter().map(String::as_str).collect();
        let alike = find(&log, |_| true, |_| false);
        let kept = |place: &str| {
            (0..log.len())
                .filter(|&i| log[i].contains(place) && !alike.repeats[i])
                .count()
        };
        // At line 8: the first few, then a count under the first.
        assert_eq!(kept("t.awk:8:"), SAME_PLACE_KEPT);
        assert_eq!(alike.counts.get(&0), Some(&(1 + 38 - SAME_PLACE_KEPT)));
        // At line 11 each element is another value: every one stays.
        assert!(kept("t.awk:11:") >= 24);
        assert!(alike.looped.iter().filter(|&&l| l).count() > 20);
    }

    #[test]
    fn repeats_fold_under_the_first_with_a_count() {
        let mut lines: Vec<String> = Vec::new();
        for id in 17..25 {
            lines.push(format!("WARN id {id} broken"));
            lines.push("INFO fine".to_string());
        }
        lines.push("WARN user alice broken".to_string());
        let log: Vec<&str> = lines.iter().map(String::as_str).collect();
        let alike = find(&log, |i| log[i].starts_with("WARN"), |_| false);
        let folded: Vec<usize> = (0..log.len()).filter(|&i| alike.repeats[i]).collect();
        assert_eq!(folded, vec![2, 4, 6, 8, 10, 12, 14]);
        assert_eq!(alike.counts.get(&0), Some(&8));
        let protected = find(&log, |i| log[i].starts_with("WARN"), |i| i == 2);
        assert!(!protected.repeats[2]);
    }

    #[test]
    fn a_few_alike_alerts_each_stay() {
        // java.util.logging's warnings about three orders: the numbers
        // are which orders.
        let log = [
            "WARNING: order 11 has no shipping address; using the billing one",
            "INFO: order 11 priced at 77 cents",
            "WARNING: order 22 has no shipping address; using the billing one",
            "INFO: order 22 priced at 54 cents",
            "WARNING: order 33 has no shipping address; using the billing one",
        ];
        let alike = find(&log, |i| log[i].starts_with("WARNING"), |_| false);
        assert_eq!(alike.repeats, vec![false; 5]);
        assert!(alike.counts.is_empty());
    }

    #[test]
    fn the_line_after_a_repeat_can_make_it_new() {
        let mut lines: Vec<String> = Vec::new();
        for id in 1001..1007 {
            lines.push("code 404, message File not found".to_string());
            lines.push(format!("\"GET /api/orders/{id} HTTP/1.1\" 404 -"));
        }
        lines.push("code 404, message File not found".to_string());
        lines.push("\"GET /static/app.3.js HTTP/1.1\" 404 -".to_string());
        let log: Vec<&str> = lines.iter().map(String::as_str).collect();
        let alike = find(&log, |i| log[i].starts_with("code"), |_| false);
        let folded: Vec<usize> = (0..log.len()).filter(|&i| alike.repeats[i]).collect();
        assert_eq!(folded, vec![2, 4, 6, 8, 10]);
        assert_eq!(alike.telling, vec![13]);
    }

    #[test]
    fn a_block_saying_something_new_stays_whole_and_places_are_facts() {
        let log = [
            "[ERROR] Failed to execute goal on project core",
            "[ERROR] -> [Help 1]",
            "INFO building",
            "[ERROR] Failed to execute goal on project functional",
            "[ERROR] -> [Help 1]",
            "INFO again",
            "[ERROR] -> [Help 1]",
            "[ERROR] /b/Arrays.java:[691,36] array required",
            "[ERROR] /b/Arrays.java:[746,35] array required",
        ];
        let alike = find(&log, |i| log[i].starts_with("[ERROR]"), |_| false);
        assert_eq!(alike.repeats, vec![false; 9]);
        let cycle: Vec<String> = (30..36)
            .flat_map(|s| {
                [
                    "WARN Address change detected. Old: 10.1.1.1:9000".to_string(),
                    format!("WARN Failed to renew lease for {s} seconds"),
                ]
            })
            .collect();
        let cycle: Vec<&str> = cycle.iter().map(String::as_str).collect();
        let alike = find(&cycle, |_| true, |_| false);
        let mut repeats = vec![true; 12];
        repeats[0] = false;
        repeats[1] = false;
        assert_eq!(alike.repeats, repeats);
        assert_eq!(alike.counts.get(&1), Some(&6));
        assert!(names_a_place("at Foo.java:33"));
        assert!(names_a_place("error in src/lib.rs"));
        assert!(!names_a_place(
            "from 10.10.34.12:3888 and java.io.IOException: x"
        ));
    }
}
