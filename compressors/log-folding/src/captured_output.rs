//! What a failing test printed, as Rust's test harness shows it: under
//! `failures:`, one `---- name stdout ----` header per failing test, then
//! everything the test wrote and its panic message, up to the next header,
//! the list of failing tests (a second `failures:`) or `test result:`.
//! cargo-nextest before 0.9.8x printed it under `--- STDOUT:  name ---`
//! and `--- STDERR:  name ---` after the test's `FAIL [ 0.01s] name` line,
//! up to its next status line (later ones indent it under that line: it is
//! read as the error's block then).
//!
//! That output is the test's own account of why it failed (a reference
//! test prints every cell that differs before it panics, a table-driven
//! test every case that went wrong): its lines differ in exactly the
//! values a template masks, so they would fold as repeats of one shape.
//! They are read whole instead, up to a bound per test and in all (see
//! [`crate::fold::FoldOptions::failure_output_lines`]).

use crate::search::Search;

use std::ops::Range;

/// The name in a failing test's output header, `---- name stdout ----`.
pub fn header_name(content: &str) -> Option<&str> {
    content
        .trim_ascii()
        .strip_prefix("---- ")?
        .strip_suffix(" stdout ----")
        .filter(|name| !name.is_empty())
}

/// The name in cargo-nextest's header of a test's output, `--- STDOUT:
/// name ---` or `--- STDERR: name ---`.
fn nextest_header_name(t: &str) -> Option<&str> {
    let rest = t
        .strip_prefix("--- STDOUT:")
        .or_else(|| t.strip_prefix("--- STDERR:"))?;
    Some(rest.strip_suffix(" ---")?.trim_ascii()).filter(|name| !name.is_empty())
}

/// Whether a line is one of cargo-nextest's status lines: a word, then the
/// time in brackets (`PASS [   0.003s] k::a`, `FAIL [ 0.004s] k::b`,
/// `Summary [   0.013s] 2 tests run: …`), and what that word says: a
/// test's failure, or not.
fn nextest_status(t: &str) -> Option<Status> {
    let (word, rest) = t.split_around(" [")?;
    let time = rest.split_around("]")?.0.trim_ascii();
    let timed = time
        .strip_suffix('s')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.'));
    if !timed || word.is_empty() || !word.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    Some(match word {
        "PASS" | "SKIP" | "SLOW" | "Summary" => Status::NotFailing,
        _ => Status::Failing,
    })
}

/// What a cargo-nextest status line says of the test it names.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Status {
    /// `FAIL`, `TIMEOUT`, `SIGSEGV`, `LEAK`, …: the output below is why.
    Failing,
    /// `PASS` (`--success-output`), `SKIP`, `SLOW`, the summary.
    NotFailing,
}

/// Whether a line ends the failing tests' outputs: the list of their names
/// (`failures:`) or the run's summary (`test result: FAILED. …`).
fn ends_outputs(t: &str) -> bool {
    t == "failures:" || t.starts_with("test result: ")
}

/// What a line of libtest's report is to the tests' outputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Mark<'a> {
    /// A failing test's output starts below: its header, with its name.
    FailingHeader(&'a str),
    /// A failing test's output starts below, under cargo-nextest's header
    /// (its `FAIL` line above names the test).
    NextestHeader,
    /// The outputs end here: a passing test's header (`--show-output`), the
    /// `successes:` or `failures:` list, or the run's summary.
    End,
    /// Anything else.
    Other,
}

/// Reads libtest's report line by line, knowing whether it is among what
/// passing tests printed (`successes:`, under `--show-output`): a header
/// there, up to `failures:` or the run's summary, is a passing test's.
/// cargo-nextest's headers are a failing test's when its last status line
/// was a failure's.
#[derive(Debug, Default)]
pub(crate) struct Sections {
    among_successes: bool,
    nextest_failing: bool,
}

impl Sections {
    /// What the next line, `content`, is.
    pub(crate) fn read<'a>(&mut self, content: &'a str) -> Mark<'a> {
        let t = content.trim_ascii();
        // (Cheap test first: this reads every line of the log.)
        if t.starts_with(|c: char| c.is_ascii_uppercase())
            && let Some(status) = nextest_status(t)
        {
            self.nextest_failing = status == Status::Failing;
            return Mark::End;
        }
        if !t.starts_with(['-', 'f', 's', 't']) {
            return Mark::Other;
        }
        if nextest_header_name(t).is_some() {
            return if self.nextest_failing {
                Mark::NextestHeader
            } else {
                Mark::End
            };
        }
        if t == "successes:" {
            self.among_successes = true;
            return Mark::End;
        }
        if ends_outputs(t) {
            self.among_successes = false;
            return Mark::End;
        }
        match header_name(t) {
            Some(name) if !self.among_successes => Mark::FailingHeader(name),
            Some(_) => Mark::End,
            None => Mark::Other,
        }
    }
}

/// The lines each failing test printed, below its header (which the runner
/// rules keep), in order.
pub fn find(contents: &[&str]) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut open: Option<usize> = None;
    let mut sections = Sections::default();
    for (i, c) in contents.iter().enumerate() {
        let mark = sections.read(c);
        if mark != Mark::Other
            && let Some(first) = open.take()
        {
            found.push(first..i);
        }
        if let Mark::FailingHeader(_) | Mark::NextestHeader = mark {
            open = Some(i + 1);
        }
    }
    // A log cut off inside a test's output: the output runs to its end.
    if let Some(first) = open {
        found.push(first..contents.len());
    }
    found.retain(|r| !r.is_empty());
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fold::FoldOptions;

    fn lines(text: &str) -> Vec<&str> {
        text.lines().collect()
    }

    #[test]
    fn each_test_output_runs_from_its_header_to_the_next_one_or_the_list() {
        let log = lines(
            "running 2 tests\n\
             test a ... FAILED\n\
             test b ... FAILED\n\
             \n\
             failures:\n\
             \n\
             ---- a stdout ----\n\
             [0][1] 'x' => 'y'\n\
             thread 'a' panicked at src/lib.rs:3:5:\n\
             \n\
             ---- b stdout ----\n\
             case 7: got 3\n\
             \n\
             \n\
             failures:\n\
             \x20   a\n\
             \x20   b\n\
             \n\
             test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out",
        );
        assert_eq!(find(&log), vec![7..10, 11..14]);
        assert_eq!(header_name(log[6]), Some("a"));
    }

    /// What a reference test prints before it panics: a line per cell
    /// that differs, `[row][column] Cell { … } => Cell { … }`.
    fn differing_cells(cells: usize) -> String {
        (0..cells)
            .map(|c| {
                format!(
                    "[{}][{}] Cell {{ c: ' ', fg: Rgb(234, 234, 234) }} => Cell {{ c: '{}', fg: Rgb(0, 0, 0) }}\n",
                    c / 80,
                    c % 80,
                    (b'a' + (c % 26) as u8) as char
                )
            })
            .collect()
    }

    /// cargo-nextest before 0.9.8x: the output under `--- STDOUT:` and
    /// `--- STDERR:` after a `FAIL` line is the failing test's, up to the
    /// next status line; a passing test's (`--success-output`) is not.
    #[test]
    fn nextest_output_blocks_after_a_failure_are_read_whole() {
        let mut log = String::from(
            "    Starting 3 tests across 1 binary\n        PASS [   0.003s] grid::ok\n\n\
             --- STDOUT:              grid::ok ---\n\nrunning 1 test\nok printed this\n\n\
             \x20       FAIL [   0.004s] grid::scroll\n\n\
             --- STDOUT:              grid::scroll ---\n\nrunning 1 test\n",
        );
        log.push_str(&differing_cells(300));
        log.push_str(
            "test scroll ... FAILED\n\nfailures:\n\nfailures:\n    scroll\n\n\
             test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 2 filtered out; finished in 0.00s\n\n\n\
             --- STDERR:              grid::scroll ---\n\
             thread 'scroll' panicked at tests/ref.rs:33:5:\n300 cells differ\n\n\
             \x20       PASS [   0.002s] grid::small\n------------\n\
             \x20    Summary [   0.011s] 3 tests run: 2 passed, 1 failed, 0 skipped\n\
             \x20       FAIL [   0.004s] grid::scroll\nerror: test run failed\n",
        );
        let contents = lines(&log);
        let at = |text: &str| contents.iter().position(|l| *l == text).unwrap();
        let found = find(&contents);
        assert_eq!(
            found,
            vec![
                at("--- STDOUT:              grid::scroll ---") + 1..at("failures:"),
                at("--- STDERR:              grid::scroll ---") + 1
                    ..at("        PASS [   0.002s] grid::small"),
            ]
        );
        let whole = crate::compress(&log).text;
        let cell = |c: usize| format!("[{}][{}] Cell", c / 80, c % 80);
        assert!((0..300).all(|c| whole.contains(&cell(c))), "{whole}");
        assert!(
            whole.starts_with("[tests (cargo nextest): 1 failed, 2 passed, 0 skipped]"),
            "{whole}"
        );
        let report = crate::testrun::parse(&contents);
        let failing: Vec<&str> = report.failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(failing, ["grid::scroll"]);
    }

    /// A run whose one failing test printed `cells` lines of differing
    /// cells before it panicked, after enough passing tests to be long.
    fn reference_test_run(cells: usize) -> String {
        let mut log = String::from("running 201 tests\n");
        for t in 0..200 {
            log.push_str(&format!("test grid::case_{t} ... ok\n"));
        }
        log.push_str("test ref::scroll ... FAILED\n\nfailures:\n\n---- ref::scroll stdout ----\n");
        log.push_str(&differing_cells(cells));
        log.push_str(
            "thread 'ref::scroll' panicked at 'grid doesn't match', tests/ref.rs:126:9\n\n",
        );
        log.push_str("failures:\n    ref::scroll\n\n");
        log.push_str(
            "test result: FAILED. 200 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n",
        );
        log
    }

    #[test]
    fn what_a_failing_test_printed_is_read_whole_and_bounded_under_a_budget() {
        let log = reference_test_run(300);
        let cell = |c: usize| format!("[{}][{}] Cell", c / 80, c % 80);
        let whole = crate::compress(&log).text;
        assert!((0..300).all(|c| whole.contains(&cell(c))), "{whole}");
        assert!(!whole.has("case_150 ... ok"), "passing tests fold: {whole}");
        let tight = crate::compress_with(&log, &FoldOptions::default().tighter()).text;
        let shown = (0..300).filter(|&c| tight.contains(&cell(c))).count();
        assert_eq!(shown, FoldOptions::default().tighter().failure_output_lines);
        assert!(tight.has("panicked at 'grid doesn't match'"), "{tight}");
        assert!(tight.has("test result: FAILED. 200 passed"), "{tight}");
    }

    #[test]
    fn what_passing_tests_printed_is_not_a_failure_output() {
        // `cargo test -- --show-output`: passing tests' outputs first.
        let log = lines(
            "successes:\n\n---- ok_one stdout ----\nprinted 1\n\nsuccesses:\n    ok_one\n\n\
             failures:\n\n---- bad stdout ----\ncell 3 differs\n\nfailures:\n    bad\n\n\
             test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
        );
        assert_eq!(find(&log), vec![11..13]);
        let report = crate::testrun::parse(&log);
        let failing: Vec<&str> = report.failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(failing, vec!["bad"]);
    }

    #[test]
    fn a_log_cut_inside_an_output_keeps_it_to_the_end() {
        let log = lines("---- t stdout ----\nline 1\nline 2");
        assert_eq!(find(&log), vec![1..3]);
    }

    #[test]
    fn other_rules_and_headers_are_not_outputs() {
        let log = lines("---- \n---- stdout ----\n---- section ----\ntext\nfailures:");
        assert!(find(&log).is_empty());
    }
}
