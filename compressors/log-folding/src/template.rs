//! Line templates mined from the log itself (in the manner of Drain): lines
//! of the same length in words whose words mostly agree share a template,
//! the words where they differ becoming wildcards. `test a::b ... ok` and
//! `test c ... ok` share one; `test d ... FAILED` gets its own. A template
//! seen once or twice in a log is rare, and a rare line is information
//! whatever words it uses; a template seen a hundred times is folded.

use rustc_hash::FxHashMap;

/// Share of word positions that must agree for a line to join a template.
const SIMILARITY: f64 = 0.5;

/// Templates compared per group before a new one is opened (bounds the
/// work on logs with many shapes).
const MAX_COMPARED: usize = 48;

/// A template seen at most this many times is rare.
pub const RARE_AT_MOST: usize = 2;

/// The templates of a log's lines.
#[derive(Debug, Clone, Default)]
pub struct Templates {
    /// Each line's template id.
    pub of_line: Vec<usize>,
    /// How many lines each template has.
    pub size: Vec<usize>,
}

impl Templates {
    /// Whether line `i`'s template is rare in the log.
    pub fn is_rare(&self, i: usize) -> bool {
        self.size[self.of_line[i]] <= RARE_AT_MOST
    }
}

/// A template needs this many lines before its numbers are read as
/// categories (see [`split_categories`]).
const CATEGORY_TEMPLATE_AT_LEAST: usize = 10;

/// A number at one place of a template that takes at most this many values
/// across its lines is a category (a status code, an exit code), not an id.
const CATEGORY_VALUES_AT_MOST: usize = 3;

/// Splits templates by their categorical numbers: where every line of a
/// template has a plain number at the same place and the number takes only
/// a few values (`"GET /a HTTP/1.1" 200` and `… 404`, `exit 0` and `exit
/// 1`), each value is a template of its own. Masking made them alike; the
/// value says what happened. The value is added to those lines' masks too
/// (`… 0 -` becomes `… 0 - =404`), so a line of one category does not pass
/// for an earlier line of another.
pub fn split_categories(contents: &[&str], masks: &mut [String], templates: &mut Templates) {
    // Only templates with enough lines are read (most are small).
    let mut lines_of: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for (i, &t) in templates.of_line.iter().enumerate() {
        if templates.size[t] >= CATEGORY_TEMPLATE_AT_LEAST {
            lines_of.entry(t).or_default().push(i);
        }
    }
    let number = |w: &str| {
        let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
    };
    let mut big: Vec<Vec<usize>> = lines_of.into_values().collect();
    // In the log's order, so that ids are given the same way every time.
    big.sort_by_key(|lines| lines[0]);
    for lines in big {
        // A category is a number on every line, the first's too: most
        // templates have none there, and are out before their lines are
        // split.
        if !contents[lines[0]].split_whitespace().any(number) {
            continue;
        }
        let words: Vec<Vec<&str>> = lines
            .iter()
            .map(|&i| contents[i].split_whitespace().collect())
            .collect();
        let width = words[0].len();
        if words.iter().any(|w| w.len() != width) {
            continue;
        }
        let category = (0..width).find(|&p| {
            let mut values: Vec<&str> = Vec::new();
            for w in &words {
                if !number(w[p]) {
                    return false;
                }
                if !values.contains(&w[p]) {
                    values.push(w[p]);
                    if values.len() > CATEGORY_VALUES_AT_MOST {
                        return false;
                    }
                }
            }
            values.len() > 1
        });
        let Some(p) = category else {
            continue;
        };
        // The first value keeps the template's id; each other gets one.
        let first = words[0][p];
        let mut ids: Vec<(&str, usize)> = Vec::new();
        for (k, &i) in lines.iter().enumerate() {
            let value = words[k][p];
            masks[i].push_str(" =");
            masks[i].push_str(value);
            if value == first {
                continue;
            }
            let old = templates.of_line[i];
            let id = match ids.iter().find(|(v, _)| *v == value) {
                Some(&(_, id)) => id,
                None => {
                    templates.size.push(0);
                    ids.push((value, templates.size.len() - 1));
                    templates.size.len() - 1
                }
            };
            templates.size[old] -= 1;
            templates.size[id] += 1;
            templates.of_line[i] = id;
        }
    }
}

/// One template under construction: its words, `None` where lines differ.
struct Template<'a> {
    id: usize,
    words: Vec<Option<&'a str>>,
}

/// Mines the templates of `masks` (lines with numbers, hashes and paths
/// already masked, see [`crate::line::mask`]).
pub fn mine(masks: &[String]) -> Templates {
    let mut groups: FxHashMap<(usize, &str), Vec<Template<'_>>> = FxHashMap::default();
    let mut out = Templates {
        of_line: Vec::with_capacity(masks.len()),
        size: Vec::new(),
    };
    // One buffer for every line's words: most lines join a template and
    // need no words of their own.
    let mut words: Vec<&str> = Vec::new();
    // Which of the line's words count (see [`similarity`]), read once for
    // every template it is compared with.
    let mut counts: Vec<bool> = Vec::new();
    for mask in masks {
        words.clear();
        words.extend(crate::search::split_at_byte(mask, b' '));
        counts.clear();
        counts.extend(words.iter().map(|w| is_word(w)));
        let line = Words {
            words: &words,
            counts: &counts,
            counted: counts.iter().filter(|&&c| c).count(),
        };
        let key = (words.len(), words[0]);
        let group = groups.entry(key).or_default();
        let found = group
            .iter_mut()
            .rev()
            .take(MAX_COMPARED)
            .find(|t| similarity(&t.words, &line) >= SIMILARITY);
        let id = match found {
            Some(t) => {
                for (slot, w) in t.words.iter_mut().zip(&words) {
                    if slot.is_some_and(|s| s != *w) {
                        *slot = None;
                    }
                }
                t.id
            }
            None => {
                let id = out.size.len();
                out.size.push(0);
                group.push(Template {
                    id,
                    words: words.iter().map(|w| Some(*w)).collect(),
                });
                id
            }
        };
        out.size[id] += 1;
        out.of_line.push(id);
    }
    out
}

/// Share of `words`' real words (with a letter or digit: `|` and `...` are
/// layout, not content) that `template` has at the same place. A wildcard
/// counts as no match: a line must agree with a template's constant words,
/// not merely fit its holes (`test x ... FAILED` does not join
/// `test * ... ok`). A line of one word, or of layout only, matches only
/// itself.
fn similarity(template: &[Option<&str>], line: &Words) -> f64 {
    let same_word = |t: &str, w: &str| crate::search::same_bytes(t.as_bytes(), w.as_bytes());
    if line.counted <= 1 {
        let identical = template
            .iter()
            .zip(line.words)
            .all(|(t, w)| t.is_some_and(|t| same_word(t, w)));
        return f64::from(u8::from(identical));
    }
    let same = template
        .iter()
        .zip(line.words)
        .zip(line.counts)
        .filter(|&((t, w), &counts)| counts && t.is_some_and(|t| same_word(t, w)))
        .count();
    same as f64 / line.counted as f64
}

/// A line's words as [`similarity`] reads them.
struct Words<'a, 'w> {
    /// The words, split at single spaces.
    words: &'a [&'w str],
    /// Whether each counts: has a letter or digit.
    counts: &'a [bool],
    /// How many count.
    counted: usize,
}

/// Whether `word` is content (a letter or digit), not layout (`|`, `...`).
fn is_word(word: &str) -> bool {
    word.bytes().any(|b| b.is_ascii_alphanumeric() || b >= 0x80)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::mask;

    fn templates(lines: &[&str]) -> Templates {
        let masks: Vec<String> = lines.iter().map(|l| mask(l)).collect();
        mine(&masks)
    }

    #[test]
    fn passing_tests_share_a_template_and_a_failure_stands_out() {
        let name = |i: usize| -> String {
            (0..4)
                .map(|k| char::from(b'a' + ((i * 7 + k * 3 + i / 26) % 26) as u8))
                .collect()
        };
        let mut lines: Vec<String> = (0..50)
            .map(|i| format!("test {}::{} ... ok", name(i), name(i + 1)))
            .collect();
        lines.push("test module::broken ... FAILED".into());
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let t = templates(&refs);
        assert_eq!(t.size[t.of_line[0]], 50);
        assert!(!t.is_rare(0));
        assert!(t.is_rare(50));
    }

    #[test]
    fn different_messages_of_the_same_length_stay_apart() {
        let t = templates(&[
            "flag provided but not defined: -trace2_event_file",
            "usage of the tool follows below: -h for help",
            "Downloading crate serde from the registry now",
        ]);
        assert_eq!(t.size.len(), 3);
    }

    #[test]
    fn a_number_with_few_values_is_a_category() {
        let lines: Vec<String> = (0..30)
            .map(|i| {
                let status = if i % 3 == 0 { 404 } else { 200 };
                format!(
                    "127.0.0.1 - - \"GET /api/orders/{} HTTP/1.1\" {status} {}",
                    1000 + i,
                    50 + i
                )
            })
            .collect();
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let mut masks: Vec<String> = refs.iter().map(|l| mask(l)).collect();
        let mut t = mine(&masks);
        assert_eq!(t.of_line[0], t.of_line[1]);
        assert_eq!(masks[0], masks[1]);
        split_categories(&refs, &mut masks, &mut t);
        assert_ne!(masks[0], masks[1]);
        assert_ne!(t.of_line[0], t.of_line[1]);
        assert_eq!(t.of_line[0], t.of_line[3]);
        assert_eq!(t.of_line[1], t.of_line[2]);
        assert_eq!(t.size[t.of_line[0]], 10);
    }

    #[test]
    fn layout_is_not_similarity() {
        let t = templates(&["| Old | none |", "| New | some |", "| :---: | :---: |"]);
        assert_eq!(t.size.len(), 3);
    }
}
