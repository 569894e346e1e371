//! A text table: a header line, a rule under it made of column segments
//! (`----------------- ----------`, `+++-=====-=====`), then one row per
//! record (`pip list`, `dpkg -l`, `docker ps` with `--format table`). Each
//! row is a record the agent asked for, named by its first columns; the
//! template fold would take the rows for one shape printed many times.
//! Every row stays, up to the first blank line.

use crate::search::Search;
use rustc_hash::FxHashSet;

/// Fewer rows than this are not worth treating as a table.
const MIN_ROWS: usize = 3;

/// The rows of every text table in `contents`.
pub fn rows(contents: &[&str]) -> FxHashSet<usize> {
    let mut keep = FxHashSet::default();
    for i in 1..contents.len() {
        // A title framed by rules above and below (Maven's ` T E S T S`
        // banner) is a section title, not a table's header.
        if !is_rule(contents[i])
            || !is_header(contents[i - 1])
            || (i >= 2 && is_rule(contents[i - 2]))
        {
            continue;
        }
        let end = (i + 1..contents.len())
            .find(|&j| contents[j].trim().is_empty() || is_rule(contents[j]))
            .unwrap_or(contents.len());
        if end - (i + 1) >= MIN_ROWS {
            keep.extend(i + 1..end);
        }
    }
    keep
}

/// A table's header: column names aligned with runs of two spaces or more
/// (`Package           Version`), at least two of them.
fn is_header(line: &str) -> bool {
    line.trim()
        .split("  ")
        .filter(|column| !column.trim().is_empty())
        .count()
        >= 2
}

/// A rule under a table's header: runs of `-` or `=` (at least three in one
/// run), separated by spaces, `+` or `|`, and nothing else.
fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t.bytes()
        .all(|b| matches!(b, b'-' | b'=' | b' ' | b'+' | b'|'))
        && (t.has("---") || t.has("==="))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pip_and_dpkg_tables_keep_every_row() {
        let pip = [
            "Package           Version",
            "----------------- ----------",
            "ast_serialize     0.13.1",
            "black             24.10.0",
            "mypy              1.13.0",
            "",
            "[notice] A new release of pip is available",
        ];
        assert_eq!(rows(&pip), FxHashSet::from_iter([2, 3, 4]));
        let dpkg = [
            "||/ Name           Version      Architecture  Description",
            "+++-==============-============-============-===========",
            "ii  libacl1:amd64  2.3.1-3      amd64        access control list",
            "ii  libaio1:amd64  0.3.113-4    amd64        Linux kernel AIO",
            "ii  libapt-pkg6.0  2.6.1        amd64        package management",
        ];
        assert_eq!(rows(&dpkg), FxHashSet::from_iter([2, 3, 4]));
    }

    #[test]
    fn a_lone_rule_or_a_short_block_is_not_a_table() {
        let log = [
            "Summary", "-------", "ok", "", "done", "=====", "a", "b", "c",
        ];
        // `Summary` is one word: not a header; `done` too.
        assert!(rows(&log).is_empty());
        let banner = [
            "-------",
            " T E S T S",
            "-------",
            "Running a",
            "Running b",
            "Running c",
        ];
        assert!(rows(&banner).is_empty());
        let stats = ["> NO_COVERAGE 0", "-------", "> 'A'", "> 'B'", "> 'C'"];
        assert!(rows(&stats).is_empty());
    }
}
