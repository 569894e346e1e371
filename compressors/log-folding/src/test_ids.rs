//! A list of test ids, one a line, as a runner lists what it would run
//! (`pytest --collect-only -q`: `tests/test_x.py::TestC::test_y[case-1]`).
//! Every id is an answer the agent asked for, yet a parametrized test
//! lists hundreds of cases that differ only in their parameters, and the
//! template fold took the list for one shape printed many times (a file's
//! every test folded under another's line). Here each test function stays,
//! by its first case verbatim, with how many cases it has, in the order the
//! runner listed them; each file is named by its tests. A longer list is
//! written by class, each function named once ([`FUNCTIONS_LISTED`]), and
//! a longer one still counted by class ([`FUNCTIONS_NAMED`]) unless a
//! budget affords more; a budget too small for that counts by file.

use crate::search::Search;

/// A list has at least this many ids…
const MIN_IDS: usize = 20;

/// …making up at least this share of its non-blank lines.
const MIN_ID_SHARE: f64 = 0.5;

/// Test functions listed each by its first case at most; more are
/// listed by class, named…
const FUNCTIONS_LISTED: usize = 100;

/// …up to this many; more still are counted by class (unless a budget
/// affords their names).
const FUNCTIONS_NAMED: usize = 600;

/// One test function and its listed cases.
struct Function<'a> {
    /// Its id without parameters (`tests/a.py::TestC::test_y`).
    name: &'a str,
    /// Its first case as listed.
    first: &'a str,
    /// How many cases it listed.
    cases: usize,
}

/// The id a line lists, when it is one: a file's path, `::`, then names
/// (`tests/test_x.py::test_y`, `spec/a_spec.rb::…`).
fn test_id(line: &str) -> Option<&str> {
    let id = line.trim_ascii_end();
    // The whole line is the id: a space may only be a parameter's
    // (`t[a b]`), not a verdict's after it (`t[1] PASSED [ 0%]`).
    let spaced_inside_parameters = |id: &str| {
        id.find_str(" ").is_none_or(|space| {
            id.find_str("[").is_some_and(|open| open < space) && id.ends_with(']') && !id.has("] ")
        })
    };
    if id.is_empty() || id.starts_with(char::is_whitespace) || !spaced_inside_parameters(id) {
        return None;
    }
    let (file, rest) = id.split_around("::")?;
    let named_file = !file.has(" ")
        && file
            .rsplit('/')
            .next()
            .and_then(|name| name.rsplit_around("."))
            .is_some_and(|(stem, ext)| {
                !stem.is_empty()
                    && (1..=5).contains(&ext.len())
                    && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            });
    (named_file && rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')).then_some(id)
}

/// Whether `text` may be a list of test ids: it holds `::` at least as
/// often as a list has ids (a cheap look before its lines are read).
pub fn may_list(text: &str) -> bool {
    memchr::memmem::find_iter(text.as_bytes(), b"::")
        .take(MIN_IDS)
        .count()
        >= MIN_IDS
}

/// `items` grouped by `key`, the groups in the order their keys first
/// appear, each group's items in order (a map finds a key's group: a
/// listing of 50,000 ids takes one pass).
pub(crate) fn groups_in_order<'a, T>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> &'a str,
) -> Vec<(&'a str, Vec<T>)> {
    let mut index: rustc_hash::FxHashMap<&'a str, usize> = rustc_hash::FxHashMap::default();
    let mut groups: Vec<(&'a str, Vec<T>)> = Vec::new();
    for item in items {
        let k = key(&item);
        match index.get(k) {
            Some(&at) => groups[at].1.push(item),
            None => {
                index.insert(k, groups.len());
                groups.push((k, vec![item]));
            }
        }
    }
    groups
}

/// An id without its parameters: `a.py::test_y` of `a.py::test_y[1-2]`.
fn without_parameters(id: &str) -> &str {
    id.find_str("[").map_or(id, |at| &id[..at])
}

/// `contents` with its test ids grouped by function (see the module's
/// doc), the other lines folded as a log after them; `None` unless the
/// text is such a list and the grouping is smaller. `target_tokens`: past
/// it, each file's functions are counted.
pub fn render(contents: &[&str], target_tokens: Option<u32>) -> Option<String> {
    let ids: Vec<Option<&str>> = contents.iter().map(|l| test_id(l)).collect();
    let listed = ids.iter().flatten().count();
    let non_blank = contents
        .iter()
        .filter(|l| !l.trim_ascii().is_empty())
        .count();
    if listed < MIN_IDS || (listed as f64) < non_blank as f64 * MIN_ID_SHARE {
        return None;
    }
    let functions: Vec<Function<'_>> =
        groups_in_order(ids.iter().flatten().copied(), |id| without_parameters(id))
            .into_iter()
            .map(|(name, cases)| Function {
                name,
                first: cases[0],
                cases: cases.len(),
            })
            .collect();
    let by_function: Vec<String> = functions
        .iter()
        .map(|f| match f.cases {
            1 => f.first.to_string(),
            n => format!("{}  [{n} cases]", f.first),
        })
        .collect();
    let fits = |lines: &[String]| {
        target_tokens
            .is_some_and(|t| ghost_types::estimated_tokens(&lines.join("\n")) <= t as usize)
    };
    let mut out = if functions.len() <= FUNCTIONS_LISTED || fits(&by_function) {
        by_function
    } else {
        let by_class = by_class(&functions);
        if functions.len() <= FUNCTIONS_NAMED || fits(&by_class) {
            by_class
        } else {
            by_class_counted(&functions)
        }
    };
    if target_tokens.is_some_and(|t| ghost_types::estimated_tokens(&out.join("\n")) > t as usize) {
        out = by_file(&functions);
    }
    let rest: Vec<&str> = contents
        .iter()
        .zip(&ids)
        .filter(|(_, id)| id.is_none())
        .map(|(l, _)| *l)
        .collect();
    let rest = rest.join("\n");
    if !rest.trim_ascii().is_empty() {
        let folded = crate::fold_as_lines(&rest).text;
        let shown = if folded.len() < rest.len() {
            folded
        } else {
            rest
        };
        out.extend(
            shown
                .lines()
                .filter(|l| !l.starts_with("[ghost log:"))
                .map(str::to_string),
        );
    }
    out.push(format!(
        "[ghost log: {} test ids listed: each function by its first case, with its count of cases]",
        crate::fold::thousands(listed)
    ));
    let mut text = out.join("\n");
    text.push('\n');
    let original: usize = contents.iter().map(|l| l.len() + 1).sum();
    (text.len() < original).then_some(text)
}

/// Each class (or file) with its functions' names, a parametrized one
/// with its count of cases (`tests/a.py::TestC: test_x, test_y [3
/// cases]`).
fn by_class(functions: &[Function<'_>]) -> Vec<String> {
    groups_in_order(functions, |f| class_of(f.name))
        .into_iter()
        .map(|(class, functions)| {
            let names: Vec<String> = functions
                .iter()
                .map(|f| {
                    let name = f.name.rsplit_around("::").map_or(f.name, |(_, name)| name);
                    match f.cases {
                        1 => name.to_string(),
                        n => format!("{name} [{n} cases]"),
                    }
                })
                .collect();
            format!("{class}: {}", names.join(", "))
        })
        .collect()
}

/// Each class (or file) with its count of test functions and cases.
fn by_class_counted(functions: &[Function<'_>]) -> Vec<String> {
    groups_in_order(functions, |f| class_of(f.name))
        .into_iter()
        .map(|(class, functions)| {
            let (n, cases) = (
                functions.len(),
                functions.iter().map(|f| f.cases).sum::<usize>(),
            );
            match n == cases {
                true => format!("{class}: {n} tests"),
                false => format!("{class}: {n} tests, {cases} cases"),
            }
        })
        .collect()
}

/// Each file with its count of functions and cases.
fn by_file(functions: &[Function<'_>]) -> Vec<String> {
    groups_in_order(functions, |f| {
        f.name.split_around("::").map_or(f.name, |(file, _)| file)
    })
    .into_iter()
    .map(|(file, functions)| {
        let cases: usize = functions.iter().map(|f| f.cases).sum();
        format!("{file}: {} test functions, {cases} cases", functions.len())
    })
    .collect()
}

/// A test function's class (or file): its id up to the last `::`.
fn class_of(name: &str) -> &str {
    name.rsplit_around("::").map_or("", |(class, _)| class)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing() -> String {
        let mut text = String::new();
        for k in 0..30 {
            text.push_str(&format!(
                "tests/test_markers.py::TestMarker::test_parses_valid[extra == '{k}']\n"
            ));
        }
        text.push_str("tests/test_structures.py::test_infinity_repr\n");
        for k in 0..5 {
            text.push_str(&format!("tests/test_utils.py::test_canonicalize[{k}-a]\n"));
        }
        text.push_str("\n36 tests collected in 0.31s\n");
        text
    }

    #[test]
    fn every_test_function_stays_with_its_count_of_cases() {
        let text = listing();
        let lines: Vec<&str> = text.lines().collect();
        let out = render(&lines, None).unwrap();
        assert!(
            out.contains(
                "tests/test_markers.py::TestMarker::test_parses_valid[extra == '0']  [30 cases]"
            ),
            "{out}"
        );
        assert!(out.has("tests/test_structures.py::test_infinity_repr\n"));
        assert!(out.has("tests/test_utils.py::test_canonicalize[0-a]  [5 cases"));
        assert!(out.has("36 tests collected in 0.31s"));
        let tight = render(&lines, Some(10)).unwrap();
        assert!(
            tight.has("tests/test_markers.py: 1 test functions, 30 cases"),
            "{tight}"
        );
    }

    #[test]
    fn a_long_list_is_written_by_class() {
        let mut text = String::new();
        for class in 0..20 {
            for test in 0..10 {
                text.push_str(&format!("tests/test_m.py::C{class}::test_{test}\n"));
            }
        }
        let lines: Vec<&str> = text.lines().collect();
        let out = render(&lines, None).unwrap();
        assert!(
            out.has("tests/test_m.py::C3: test_0, test_1, test_2"),
            "{out}"
        );
        for class in 0..70 {
            for test in 0..10 {
                text.push_str(&format!("tests/test_n.py::C{class}::test_{test}\n"));
            }
        }
        let lines: Vec<&str> = text.lines().collect();
        let out = render(&lines, None).unwrap();
        assert!(out.has("tests/test_n.py::C3: 10 tests\n"), "{out}");
    }

    #[test]
    fn other_texts_are_not_test_lists() {
        let grep = (0..30)
            .map(|k| format!("src/a.rs:{k}: let x = {k};"))
            .collect::<Vec<_>>()
            .join("\n");
        let lines: Vec<&str> = grep.lines().collect();
        assert!(render(&lines, None).is_none());
        assert_eq!(test_id("  tests/a.py::t"), None);
        assert_eq!(test_id("FAILED tests/a.py::t - assert 1"), None);
        assert_eq!(test_id("FAILED tests/a.py::t[1] - assert 1"), None);
        assert_eq!(test_id("tests/a.py::t[1] PASSED [ 0%]"), None);
        assert_eq!(test_id("tests/a.py::t[a b]"), Some("tests/a.py::t[a b]"));
    }
}
