//! A text table: a header line, a rule under it made of column segments
//! (`----------------- ----------`, `+++-=====-=====`), then one row per
//! record (`pip list`, `dpkg -l`, `docker ps` with `--format table`). Each
//! row is a record the agent asked for, named by its first columns; the
//! template fold would take the rows for one shape printed many times.
//! Every row stays, up to the first blank line.
//!
//! A table may have no rule (`ps aux`, `df -h`, `kubectl get`, `readelf
//! -Ws`): then its header is a line of column names (words without a
//! digit) and its rows are the lines under it whose words line up with
//! those names, each column's words starting where its name starts or
//! ending where it ends (numbers are aligned right).
//!
//! A table may divide its columns with `|` instead (`python -X importtime`,
//! psql's results, MySQL's boxes): then its header is a line of two `|` or
//! more between cells of words without a digit, and its rows are the
//! lines under it (past a rule) with their `|` at the very places the
//! header has them.
//!
//! A header of lower-case names heads a table only over columns of
//! numbers (cProfile's `ncalls  tottime  percall`). A long table ranked by
//! one of its columns of numbers, largest first, keeps its first
//! [`RANKED_ROWS_SHOWN`] rows, with a rule under its header or not (a JVM's
//! class histogram by bytes): the tool sorted the rest to the bottom.

use crate::search::Search;
use rustc_hash::FxHashSet;

/// Fewer rows than this are not worth treating as a table.
const MIN_ROWS: usize = 3;

/// The rows of every text table in `contents`.
pub fn rows(contents: &[&str]) -> FxHashSet<usize> {
    let mut keep = aligned_rows(contents);
    keep.extend(piped_rows(contents));
    for i in 1..contents.len() {
        // A title framed by rules above and below (Maven's ` T E S T S`
        // banner) is a section title, not a table's header.
        if !is_rule(uncommented(contents[i]))
            || !is_header(uncommented(contents[i - 1]))
            || (i >= 2 && is_rule(uncommented(contents[i - 2])))
        {
            continue;
        }
        // Past the comment marks left under a commented header (`#`).
        let first = (i + 1..contents.len())
            .find(|&j| contents[j].trim_ascii() != "#")
            .unwrap_or(contents.len());
        let end = (first..contents.len())
            .find(|&j| contents[j].trim_ascii().is_empty() || is_rule(contents[j]))
            .unwrap_or(contents.len());
        let rows = &contents[first..end];
        if rows.len() >= MIN_ROWS {
            let shown = if is_ranked(&word_spans(contents[i - 1]), rows) {
                RANKED_ROWS_SHOWN
            } else {
                rows.len()
            };
            keep.extend(first..first + shown);
        }
    }
    keep
}

/// A line without the `#` that comments it out: a tool writing its table's
/// header and rule as comments above plain rows (`perf report`'s `#
/// Overhead  Symbol` over `# ........  ......`).
fn uncommented(line: &str) -> &str {
    line.trim_ascii_start().strip_prefix('#').unwrap_or(line)
}

/// A table divided by `|` has at least this many of them a line.
const MIN_PIPES: usize = 2;

/// The rows of every table whose columns are divided by `|`: the lines
/// under a header of such columns (past a rule, if any) with their `|`
/// where the header has them.
fn piped_rows(contents: &[&str]) -> FxHashSet<usize> {
    let mut keep = FxHashSet::default();
    let mut i = 0;
    while i + 1 < contents.len() {
        let Some(pipes) = piped_header(contents[i]) else {
            i += 1;
            continue;
        };
        let first = if is_rule(contents[i + 1]) {
            i + 2
        } else {
            i + 1
        };
        let end = (first..contents.len())
            .find(|&j| pipe_places(contents[j]) != pipes)
            .unwrap_or(contents.len());
        if end.saturating_sub(first) >= MIN_ROWS {
            keep.extend(first..end);
            i = end;
        } else {
            i += 1;
        }
    }
    keep
}

/// The places of a `|`-divided header's dividers: at least [`MIN_PIPES`],
/// every cell between them holding a word and no digit (`import time: self
/// [us] | cumulative | imported package`, ` id | name | total`).
fn piped_header(line: &str) -> Option<Vec<usize>> {
    // Cheap first: most lines have fewer than two `|` (counted without
    // allocating).
    if line.bytes().filter(|&b| b == b'|').take(MIN_PIPES).count() < MIN_PIPES {
        return None;
    }
    let pipes = pipe_places(line);
    let cells_are_names = || {
        line.trim_ascii()
            .trim_matches('|')
            .split('|')
            .all(|cell| cell.bytes().any(|b| b.is_ascii_alphabetic()))
    };
    (pipes.len() >= MIN_PIPES
        && !line.bytes().any(|b| b.is_ascii_digit())
        && !line.has("||")
        && cells_are_names())
    .then_some(pipes)
}

/// The byte offsets of the `|` in `line`.
fn pipe_places(line: &str) -> Vec<usize> {
    line.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'|')
        .map(|(i, _)| i)
        .collect()
}

/// A header without a rule names at least this many columns.
const MIN_COLUMNS: usize = 3;

/// A row lines up with at least this share of its header's columns.
const MIN_ALIGNED_SHARE: f64 = 0.8;

/// The rows of every table whose header has no rule under it: the lines
/// right after a header of column names that line up with it.
fn aligned_rows(contents: &[&str]) -> FxHashSet<usize> {
    let mut keep = FxHashSet::default();
    let mut i = 0;
    while i + 1 < contents.len() {
        let Some(Header {
            columns,
            capitalised,
        }) = column_names(contents[i])
        else {
            i += 1;
            continue;
        };
        let end = (i + 1..contents.len())
            .find(|&j| !lines_up(&columns, contents[j]))
            .unwrap_or(contents.len());
        let rows = &contents[i + 1..end];
        if rows.len() >= MIN_ROWS
            && !names_data(contents[i], &columns, rows)
            && (capitalised || mostly_numbers(&columns, rows))
        {
            let shown = if is_ranked(&columns, rows) {
                RANKED_ROWS_SHOWN
            } else {
                rows.len()
            };
            keep.extend(i + 1..i + 1 + shown);
            i = end;
        } else {
            i += 1;
        }
    }
    keep
}

/// A table ranked by one of its columns keeps this many rows, the first:
/// the rest are the least of what it measures and fold like any lines.
pub const RANKED_ROWS_SHOWN: usize = 30;

/// A share of a column's cells that must be numbers for it to count as
/// one of numbers.
const NUMBER_CELLS_SHARE: f64 = 0.9;

/// A share of neighbouring rows that must be in order for a column of
/// numbers to rank the table.
const RANKED_SHARE: f64 = 0.95;

/// Whether most columns hold a number in nearly every row: a header of
/// lower-case names (cProfile's `ncalls  tottime  percall`) heads a table
/// only over columns of numbers.
fn mostly_numbers(columns: &[(usize, usize)], rows: &[&str]) -> bool {
    let numeric = columns
        .iter()
        .filter(|&&column| numbers_in(column, rows).is_some())
        .count();
    numeric * 2 >= columns.len()
}

/// Whether a table has more rows than [`RANKED_ROWS_SHOWN`], ranked by one
/// of its columns of numbers, largest first (cProfile sorted by time, `ps`
/// by `%CPU`).
fn is_ranked(columns: &[(usize, usize)], rows: &[&str]) -> bool {
    if rows.len() <= RANKED_ROWS_SHOWN {
        return false;
    }
    columns
        .iter()
        .any(|&column| numbers_in(column, rows).is_some_and(|values| is_falling(&values)))
}

/// The lines of records ranked by the share that opens them, largest
/// first, the first [`RANKED_ROWS_SHOWN`] of them (`perf report`: each
/// symbol's line, `17.41%  0.00%  python3 … [k] sym`, then its call graph
/// indented under it; more records than a table holds, their indent
/// varying with their numbers' width). The tool ranked them; the rest of
/// each record folds as any lines do.
pub fn share_led_records(contents: &[&str]) -> Vec<usize> {
    let led: Vec<(usize, f64)> = contents
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let share = c.split_whitespace().next().filter(|w| w.ends_with('%'))?;
            Some((i, number(share)?))
        })
        .collect();
    let values: Vec<f64> = led.iter().map(|&(_, share)| share).collect();
    if led.len() <= RANKED_ROWS_SHOWN || !is_falling(&values) {
        return Vec::new();
    }
    led.iter()
        .take(RANKED_ROWS_SHOWN)
        .map(|&(i, _)| i)
        .collect()
}

/// Whether numbers fall, nearly each at most the one before, the first
/// above the middle one (a column of one value ranks nothing; a last row
/// may be the total).
fn is_falling(values: &[f64]) -> bool {
    let falling = values.windows(2).filter(|w| w[0] >= w[1]).count();
    values.len() >= 2
        && values[0] > values[values.len() / 2]
        && falling as f64 >= (values.len() - 1) as f64 * RANKED_SHARE
}

/// Words of a row read for the number a block of rows is ranked by (see
/// [`is_ranked_by_a_word`]).
const RANKING_WORDS: usize = 4;

/// Whether `rows` (more than [`RANKED_ROWS_SHOWN`]: a block of records
/// with no header to name its columns) are ranked by the number that
/// nearly every one has as its k-th word, one of its first
/// [`RANKING_WORDS`], largest first (a JVM's class histogram by bytes).
pub(crate) fn is_ranked_by_a_word(rows: &[&str]) -> bool {
    if rows.len() <= RANKED_ROWS_SHOWN {
        return false;
    }
    (0..RANKING_WORDS).any(|k| {
        let values: Vec<f64> = rows
            .iter()
            .filter_map(|row| number(row.split_whitespace().nth(k)?))
            .collect();
        values.len() as f64 >= rows.len() as f64 * NUMBER_CELLS_SHARE && is_falling(&values)
    })
}

/// The numbers under `column`, row by row, when nearly every row has one
/// there (see [`NUMBER_CELLS_SHARE`]); a row without one is skipped.
fn numbers_in(column: (usize, usize), rows: &[&str]) -> Option<Vec<f64>> {
    let values: Vec<f64> = rows
        .iter()
        .filter_map(|row| number(cell(column, row)?))
        .collect();
    (values.len() as f64 >= rows.len() as f64 * NUMBER_CELLS_SHARE).then_some(values)
}

/// The word of `row` under `column` (see [`is_under`]); a count of calls
/// written `19/1` reads as its first number.
fn cell(column: (usize, usize), row: &str) -> Option<&str> {
    word_spans(row)
        .into_iter()
        .find(|&word| is_under(column, word))
        .map(|(ws, we)| row[ws..we].split('/').next().unwrap_or(""))
}

/// The number a cell holds, a share (`16.05%`) read as its number.
pub(crate) fn number(cell: &str) -> Option<f64> {
    cell.strip_suffix('%').unwrap_or(cell).parse().ok()
}

/// Whether a word (its byte span) stands under a column's name: starting
/// where the name starts or ending where it ends, up to
/// [`OVERFLOW_AT_MOST`] further right or a byte to the left (node's
/// `--prof-process` pads its names a byte past its cells).
fn is_under((s, e): (usize, usize), (ws, we): (usize, usize)) -> bool {
    (s.saturating_sub(1)..=s + OVERFLOW_AT_MOST).contains(&ws)
        || (e.saturating_sub(1)..=e + OVERFLOW_AT_MOST).contains(&we)
}

/// Whether a would-be header is itself one of the rows: a word of it
/// stands at its place in most of them (a log's `Info  CBS  Loaded
/// Servicing Stack` over `Info  CBS  Expecting attribute name …`). A
/// column's name is not its data.
fn names_data(header: &str, columns: &[(usize, usize)], rows: &[&str]) -> bool {
    columns.iter().any(|&(s, e)| {
        let name = &header[s..e];
        let repeated = rows
            .iter()
            .filter(|r| r.get(s..e) == Some(name) && r[e..].starts_with([' ', '\t']))
            .count();
        repeated * 2 >= rows.len()
    })
}

/// The spans (start, end) of a header's column names: at least
/// [`MIN_COLUMNS`] words, none with a digit, padded apart (see [`padded`]);
/// whether most of them are capitalised as names are (`PID`, `Size`,
/// `%CPU`) is for the caller to weigh (`vim --version`'s `+acl  +farsi
/// +mouse` is a listing of its own, not a header, and cProfile's `ncalls
/// tottime` heads columns of numbers).
fn column_names(line: &str) -> Option<Header> {
    // Cheap first: most lines have a digit or no padding.
    if line.bytes().any(|b| b.is_ascii_digit()) || !line.trim_ascii().has("  ") {
        return None;
    }
    let spans = word_spans(line);
    let capitalised = spans
        .iter()
        .filter(|&&(s, e)| {
            line[s..e]
                .trim_start_matches(|c: char| !c.is_ascii_alphanumeric())
                .starts_with(|c: char| c.is_ascii_uppercase())
        })
        .count();
    (spans.len() >= MIN_COLUMNS
        && padded(&spans)
        && spans
            .iter()
            .all(|&(s, e)| line[s..e].bytes().any(|b| b.is_ascii_alphabetic())))
    .then_some(Header {
        capitalised: capitalised * 2 >= spans.len(),
        columns: spans,
    })
}

/// A would-be header's column names, and whether most are capitalised.
struct Header {
    columns: Vec<(usize, usize)>,
    capitalised: bool,
}

/// A cell wider than its column pushes the rest of its row right by this
/// many bytes at most (`readelf -S`'s `.note.gnu.property`).
const OVERFLOW_AT_MOST: usize = 2;

/// Whether `row` has, for most of `columns`, a word starting where the
/// column's name starts or ending where it ends (or up to
/// [`OVERFLOW_AT_MOST`] further right). Columns past the row's end are its
/// empty last cells, not counted.
fn lines_up(columns: &[(usize, usize)], row: &str) -> bool {
    let words = word_spans(row);
    let Some(&(_, row_end)) = words.last() else {
        return false;
    };
    if !padded(&words) {
        return false;
    }
    // A column the row leaves blank under its name is an empty cell, not
    // a word out of line (node's `Shared libraries` has no `nonlib`).
    let blank_under = |&(s, e): &(usize, usize)| {
        row.as_bytes()
            .get(s.saturating_sub(1)..(e + 1).min(row.len()))
            .is_some_and(|cell| cell.iter().all(|b| b.is_ascii_whitespace()))
    };
    let reached: Vec<&(usize, usize)> = columns
        .iter()
        .filter(|&&(s, _)| s < row_end)
        .filter(|column| !blank_under(column))
        .collect();
    let aligned = reached
        .iter()
        .filter(|&&&column| words.iter().any(|&word| is_under(column, word)))
        .count();
    reached.len() >= MIN_COLUMNS && aligned as f64 >= reached.len() as f64 * MIN_ALIGNED_SHARE
}

/// Whether two of the words are two spaces or more apart: a table pads its
/// columns, a sentence does not (`Send mail if the user is not in sudoers`
/// under `Build system information` lines up by chance).
fn padded(words: &[(usize, usize)]) -> bool {
    words.windows(2).any(|w| w[1].0 - w[0].1 >= 2)
}

/// The byte spans of the words of `line`.
pub(crate) fn word_spans(line: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, b) in line.bytes().enumerate() {
        match (b.is_ascii_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, line.len()));
    }
    spans
}

/// A table's header: column names aligned with runs of two spaces or more
/// (`Package           Version`), at least two of them.
fn is_header(line: &str) -> bool {
    line.trim_ascii()
        .split("  ")
        .filter(|column| !column.trim_ascii().is_empty())
        .count()
        >= 2
}

/// A rule under a table's header: runs of `-` or `=` (at least three in one
/// run), separated by spaces, `+` or `|`, and nothing else; or runs of dots,
/// one a column, at least two (`perf report`'s `........  ......`: a lone
/// run of dots is an ellipsis).
fn is_rule(line: &str) -> bool {
    let t = line.trim_ascii();
    let dotted = || {
        t.bytes().all(|b| matches!(b, b'.' | b' '))
            && t.split_whitespace().filter(|run| run.len() >= 3).count() >= 2
    };
    (t.bytes()
        .all(|b| matches!(b, b'-' | b'=' | b' ' | b'+' | b'|'))
        && (t.has("---") || t.has("===")))
        || dotted()
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
    fn a_header_without_a_rule_heads_the_rows_lined_up_under_it() {
        let readelf = [
            "Symbol table '.dynsym' contains 125 entries:",
            "   Num:    Value          Size Type    Bind   Vis      Ndx Name",
            "     0: 0000000000000000     0 NOTYPE  LOCAL  DEFAULT  UND ",
            "     1: 0000000000000000     0 FUNC    GLOBAL DEFAULT  UND free@GLIBC_2.2.5 (2)",
            "    57: 0000000000003650   145 FUNC    GLOBAL DEFAULT   14 adler32@@ZLIB_1.2.0.2",
            "   112: 000000000000a4e0  1290 FUNC    GLOBAL DEFAULT   14 inflate",
            "",
            "Done.",
        ];
        assert_eq!(rows(&readelf), FxHashSet::from_iter([2, 3, 4, 5]));
        let df = [
            "Filesystem      Size  Used Avail Use% Mounted on",
            "overlay          99G   41G   54G  44% /",
            "tmpfs            64M     0   64M   0% /dev",
            "/dev/vda1        99G   41G   54G  44% /etc/hosts",
        ];
        assert_eq!(rows(&df), FxHashSet::from_iter([1, 2, 3]));
        // Sentences do not pad their words.
        let sentences = [
            "Build system information",
            "Send mail if the user is not in sudoers",
            "Use a separate timestamp for each user",
            "Lecture user the first time they run sudo",
        ];
        assert!(rows(&sentences).is_empty());
        // A log line without a digit is no header of the lines like it.
        let cbs = [
            "Info                  CBS    Loaded Servicing Stack",
            "Info                  CBS    Expecting attribute name [HRESULT = 0x800f080d]",
            "Info                  CBS    Failed to get next element [HRESULT = 0x800f080d]",
            "Info                  CBS    Session: 30546173_4275933214 initialized",
        ];
        assert!(rows(&cbs).is_empty());
        // A log's lines do not line up under a sentence.
        let log = [
            "Running the unit tests now",
            "test a::b ... ok",
            "test c ... ok",
            "test d::e::f ... ok",
        ];
        assert!(rows(&log).is_empty());
    }

    #[test]
    fn a_ruled_table_ranked_by_a_column_keeps_its_first_rows_whatever_its_total() {
        let mut lines = vec![
            " num     #instances         #bytes  class name".to_string(),
            "----------------------------------------------".to_string(),
        ];
        lines.extend(
            (1..=50).map(|k| format!("{k:>4}: {:>13} {:>14}  a.B{k}", 60 - k, (60 - k) * 16)),
        );
        lines.push("Total          1000          16000".to_string());
        let contents: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(
            rows(&contents),
            FxHashSet::from_iter(2..2 + RANKED_ROWS_SHOWN)
        );
        // Sorted by name, not ranked: every row stays.
        let by_name: Vec<&str> = contents[..2]
            .iter()
            .chain(contents[2..52].iter().rev())
            .copied()
            .collect();
        assert_eq!(rows(&by_name).len(), 50);
        // A block without a header ranks by the k-th word of its rows.
        assert!(is_ranked_by_a_word(&contents[2..]));
        assert!(!is_ranked_by_a_word(&by_name[2..]));
        let one_value: Vec<String> = (0..40).map(|k| format!("x{k} 7 y")).collect();
        let one_value: Vec<&str> = one_value.iter().map(String::as_str).collect();
        assert!(!is_ranked_by_a_word(&one_value));
    }

    #[test]
    fn a_commented_header_and_a_dotted_rule_head_a_table_of_shares() {
        // `perf report --stdio`: the header and its rule are comments, the
        // rows are ranked by their share.
        let mut lines = vec![
            "# Samples: 1K of event 'cpu-clock:ppp'".to_string(),
            "#".to_string(),
            "# Overhead  Symbol".to_string(),
            "# ........  ..............".to_string(),
            "#".to_string(),
        ];
        lines.extend((1..=60).map(|k| format!("    {:>5.2}%  [.] symbol_{k}", 70.0 / k as f64)));
        lines.push(String::new());
        lines.push("# (Tip: use --stdio)".to_string());
        let contents: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(
            rows(&contents),
            FxHashSet::from_iter(5..5 + RANKED_ROWS_SHOWN)
        );
        // A lone run of dots is an ellipsis, not a rule.
        assert!(!is_rule("..."));
        assert!(is_rule("........  ......"));
    }

    #[test]
    fn records_ranked_by_the_share_opening_them_keep_their_first_lines() {
        // `perf report --stdio` with call graphs: an entry, its tree, a
        // blank line; the entries' indent varies with their numbers.
        let mut lines = Vec::new();
        for k in 1..=50 {
            let share = 90.0 / k as f64;
            lines.push(format!("{share:>10.2}%     0.00%  python3  [k] sym_{k}"));
            lines.push("            |".to_string());
            lines.push(format!("            ---sym_{k}"));
            lines.push(format!("               --{:.2}%--callee_{k}", share / 2.0));
            lines.push(String::new());
        }
        let contents: Vec<&str> = lines.iter().map(String::as_str).collect();
        let entries: Vec<usize> = (0..RANKED_ROWS_SHOWN).map(|k| k * 5).collect();
        assert_eq!(share_led_records(&contents), entries);
        // Shares rising (a progress bar's) rank nothing.
        let progress: Vec<String> = (1..=40).map(|k| format!("{}% done", k * 2)).collect();
        let progress: Vec<&str> = progress.iter().map(String::as_str).collect();
        assert!(share_led_records(&progress).is_empty());
    }

    #[test]
    fn cells_a_byte_left_of_their_names_and_empty_cells_line_up() {
        // `node --prof-process`: counts end a byte short of `ticks`, names
        // start a byte left of `name`, a row may leave `nonlib` empty.
        let summary = [
            " [Summary]:",
            "   ticks  total  nonlib   name",
            "     30    6.8%    7.6%  JavaScript",
            "      3    7.5%    8.3%  C++",
            "     95   21.7%   23.9%  GC",
            "     41    9.4%          Shared libraries",
            "",
        ];
        assert_eq!(rows(&summary), FxHashSet::from_iter(2..6));
        // A line of words is still no row of it.
        let prose = [
            "   ticks  total  nonlib   name",
            "the tool counts ticks in every function it samples while it runs",
            "and prints them by library and by language at the very end",
            "of its report",
        ];
        assert!(rows(&prose).is_empty());
    }

    #[test]
    fn a_table_divided_by_pipes_keeps_every_row_lined_up_under_its_header() {
        let importtime = [
            "import time: self [us] | cumulative | imported package",
            "import time:       134 |        134 |   _io",
            "import time:        26 |         26 |   marshal",
            "import time:       316 |        786 | _frozen_importlib_external",
            "import time:      1466 |      33144 | site",
            "Traceback (most recent call last):",
        ];
        assert_eq!(rows(&importtime), FxHashSet::from_iter([1, 2, 3, 4]));
        let psql = [
            " region | count |   sum",
            "--------+-------+--------",
            " north  | 10172 | 4962334",
            " east   | 10173 | 4961117",
            " south  | 10171 | 4960860",
            "",
            "(3 rows)",
        ];
        assert_eq!(rows(&psql), FxHashSet::from_iter([2, 3, 4]));
        // Lines whose `|` fall elsewhere are not its rows; a shell
        // pipeline is no header.
        let pipeline = [
            "+ cat a.log | grep error | sort",
            "a | b | c",
            "aa | bb | cc",
            "aaa | bbb | ccc",
        ];
        assert!(rows(&pipeline).is_empty());
    }

    #[test]
    fn a_lower_case_header_heads_numbers_and_a_ranked_table_keeps_its_first_rows() {
        let mut profile = vec![
            "   Ordered by: internal time".to_string(),
            "".to_string(),
            "   ncalls  tottime  percall  cumtime  percall filename:lineno(function)".to_string(),
        ];
        for i in 0..40 {
            profile.push(format!(
                "{:>9}    0.{:03}    0.000    0.{:03}    0.000 work.py:{i}(step_{i})",
                if i % 7 == 0 {
                    format!("{}/1", i + 3)
                } else {
                    (i * 11 + 1).to_string()
                },
                40 - i,
                80 - i
            ));
        }
        let lines: Vec<&str> = profile.iter().map(String::as_str).collect();
        assert_eq!(
            rows(&lines),
            FxHashSet::from_iter(3..3 + RANKED_ROWS_SHOWN),
            "{profile:#?}"
        );
        // Not ranked: every row stays.
        let unranked: Vec<&str> = lines[..3]
            .iter()
            .chain(lines[3..].iter().rev())
            .copied()
            .collect();
        assert_eq!(rows(&unranked).len(), 40);
        // Lower-case names over words are no header.
        let words = [
            "alpha  beta  gamma",
            "one    two   three",
            "four   five  six",
            "seven  eight nine",
        ];
        assert!(rows(&words).is_empty());
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
