//! The last resort under a token budget: diagnostics that repeat one rule
//! and message at other places (`E501 line too long (92 > 79 characters)`
//! forty times) are counted under the first, each place still named, so
//! the agent can go to every one. Used only when the folded log is still
//! over the budget; without a budget every diagnostic stays verbatim.

use rustc_hash::FxHashMap;

use crate::markers;

/// `lines` (of a folded log) with repeated diagnostics grouped under the
/// first of each message: `[… 12 more at a.py:3:1, 9:4, b.py:2:8]`. The
/// places keep their order; a path is written once for a run of places in
/// it.
pub fn group(lines: &[String]) -> Vec<String> {
    let mut first_of: FxHashMap<String, usize> = FxHashMap::default();
    let mut more: FxHashMap<usize, Vec<(&str, &str)>> = FxHashMap::default();
    let mut dropped = vec![false; lines.len()];
    for (i, l) in lines.iter().enumerate() {
        let Some(parts) = markers::diagnostic_parts(l) else {
            continue;
        };
        let key = message_key(parts.message);
        match first_of.get(&key) {
            Some(&first) => {
                more.entry(first)
                    .or_default()
                    .push((parts.path, parts.place));
                dropped[i] = true;
            }
            None => {
                first_of.insert(key, i);
            }
        }
    }
    let mut out = Vec::with_capacity(lines.len());
    for (i, l) in lines.iter().enumerate() {
        if dropped[i] {
            continue;
        }
        out.push(l.clone());
        if let Some(places) = more.get(&i) {
            out.push(format!(
                "[… {} more at {}]",
                places.len(),
                places_list(places)
            ));
        }
    }
    out
}

/// A message with its bare numbers masked (`line too long (92 > 79
/// characters)` → `line too long (0 > 0 characters)`); a word with digits
/// in it is an identifier (`mod10`, `x2`) and stays.
fn message_key(message: &str) -> String {
    message
        .split_whitespace()
        .map(|w| {
            if w.chars().any(|c| c.is_ascii_digit()) && !w.chars().any(char::is_alphabetic) {
                "0"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `a.py:3:1, 9:4, b.py:2:8`: each path once per run of places in it.
fn places_list(places: &[(&str, &str)]) -> String {
    let mut out = String::new();
    let mut last_path = "";
    for (k, (path, place)) in places.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        if *path != last_path {
            out.push_str(path);
            out.push(':');
            last_path = path;
        }
        out.push_str(place);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_of_one_message_are_counted_with_every_place() {
        let lines: Vec<String> = [
            "a.py:3:80: E501 line too long (92 > 79 characters)",
            "a.py:9:80: E501 line too long (85 > 79 characters)",
            "a.py:10:1: F401 `os` imported but unused",
            "b.py:2:80: E501 line too long (101 > 79 characters)",
            "Found 4 errors.",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            group(&lines),
            [
                "a.py:3:80: E501 line too long (92 > 79 characters)",
                "[… 2 more at a.py:9:80, b.py:2:80]",
                "a.py:10:1: F401 `os` imported but unused",
                "Found 4 errors.",
            ]
        );
    }
}
