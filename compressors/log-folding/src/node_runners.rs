//! Node's test runners that print no TAP: mocha's spec reporter,
//! `node --test`'s spec reporter and AVA's default reporter. Each adds its
//! counts and names its failing tests with their first message line, and
//! only once its own summary shows
//! the log is its output (a `✖` or a numbered line alone proves nothing).

use crate::search::Search;

use crate::runners::next_message;
use crate::testrun::{TestReport, count};

/// Reads mocha's and `node --test`'s output out of `lines` into `r`.
pub fn read(lines: &[&str], r: &mut TestReport) {
    mocha(lines, r);
    node_test(lines, r);
    ava(lines, r);
}

/// AVA: a line per test (`✔ adds`, `✘ [fail]: parses dates`, `-
/// [skip]: later`), each failure's details, then its summary: `3 tests
/// failed`, `12 tests passed`, `1 test skipped`. Only a failed or passed
/// count makes the log AVA's; without a `passed` count, the passing tests
/// are its `✔` lines.
fn ava(lines: &[&str], r: &mut TestReport) {
    let (mut failed, mut passed, mut skipped) = (None, None, 0);
    for line in lines {
        let t = line.trim_ascii();
        // Cheap test first: this reads every line of every log.
        if !t.ends_with('d') && !t.ends_with('s') {
            continue;
        }
        let Some((n, what)) = t.split_around(" ") else {
            continue;
        };
        let Some(n) = count(n) else {
            continue;
        };
        match what {
            "tests failed" | "test failed" => failed = Some(n),
            "tests passed" | "test passed" => passed = Some(n),
            "tests skipped" | "test skipped" => skipped += n,
            _ => {}
        }
    }
    if failed.is_none() && passed.is_none() {
        return;
    }
    r.saw("AVA");
    let mut ticks = 0;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_ascii();
        if let Some(name) = t.strip_prefix("✘ [fail]: ") {
            r.add_failure(i, name, None);
        } else if t.starts_with("✔ ") {
            ticks += 1;
        }
    }
    r.failed += failed.unwrap_or(0);
    r.passed += passed.unwrap_or(ticks);
    r.skipped += skipped;
}

/// Most lines a mocha failure's title runs over (`1) outer`, `inner`, …,
/// `test name:`).
const MOCHA_TITLE_LINES_AT_MOST: usize = 6;

/// Most lines between a failure's title and its message.
const MESSAGE_WITHIN: usize = 4;

/// mocha: `  30 passing (7ms)`, `  2 failing`, `  1 pending`, then each
/// failure numbered, its title over one or more lines ending with `:`, its
/// message under it:
///
/// ```text
///   1) slug
///        trims spaces:
///
///       AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
/// ```
fn mocha(lines: &[&str], r: &mut TestReport) {
    // Where each run's failures start, and how many it counted.
    let mut sections: Vec<(usize, u64)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        // Cheap tests first: this reads every line of every log.
        let t = line.trim_ascii_end();
        if !t.ends_with(')') {
            continue;
        }
        let Some(passed) = mocha_passing(t.trim_ascii_start()) else {
            continue;
        };
        r.saw("mocha");
        r.passed += passed;
        // `N pending` and `N failing` follow the passing count.
        for (j, next) in lines.iter().enumerate().skip(i + 1).take(3) {
            let next = next.trim_ascii();
            if let Some(n) = next.strip_suffix(" failing").and_then(count) {
                r.failed += n;
                sections.push((j + 1, n));
            } else if let Some(n) = next.strip_suffix(" pending").and_then(count) {
                r.skipped += n;
            }
        }
    }
    // A log may hold several runs (a workspace's packages): each run's
    // failures lie between its count and the next run, as many as it counted.
    let ends = sections
        .iter()
        .skip(1)
        .map(|&(from, _)| from)
        .chain([lines.len()]);
    for (&(from, failing), end) in sections.iter().zip(ends) {
        mocha_failures(&lines[..end], from, failing, r);
    }
}

/// Reads up to `failing` numbered failures of mocha's from line `from` on.
fn mocha_failures(lines: &[&str], from: usize, failing: u64, r: &mut TestReport) {
    let mut found = 0;
    let mut i = from;
    while i < lines.len() && found < failing {
        let Some(title) = mocha_failure_title(lines[i]) else {
            i += 1;
            continue;
        };
        let mut parts = vec![title];
        let mut end = i + 1;
        while !parts.last().is_some_and(|p| p.ends_with(':'))
            && end < lines.len()
            && parts.len() < MOCHA_TITLE_LINES_AT_MOST
            && !lines[end].trim_ascii().is_empty()
        {
            parts.push(lines[end].trim_ascii());
            end += 1;
        }
        if !parts.last().is_some_and(|p| p.ends_with(':')) {
            i += 1;
            continue;
        }
        let name = parts.join(" ");
        let name = name.strip_suffix(':').unwrap_or(&name);
        r.add_failure(i, name, next_message(&lines[end..], MESSAGE_WITHIN));
        r.failure_lines.extend(i + 1..end);
        found += 1;
        i = end;
    }
}

/// `30 passing (7ms)` → 30: mocha always gives the run's duration.
fn mocha_passing(t: &str) -> Option<u64> {
    let (n, rest) = t.split_around(" passing (")?;
    let duration = rest.strip_suffix(')')?;
    let unit_at = duration.find(|c: char| !c.is_ascii_digit() && c != '.')?;
    (unit_at > 0 && matches!(&duration[unit_at..], "ms" | "s" | "m" | "h"))
        .then(|| count(n))
        .flatten()
}

/// The title after a failure's number at mocha's indentation: `  1) slug`.
fn mocha_failure_title(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("  ")?;
    let (n, title) = rest.split_around(") ")?;
    (count(n).is_some() && !title.trim_ascii().is_empty()).then(|| title.trim_ascii())
}

/// `node --test` (spec reporter): `✖ name (1.008ms)` for a failing test
/// with its message under it (printed again under `✖ failing tests:`),
/// and a summary of `ℹ tests 51`, `ℹ pass 50`, `ℹ fail 1`, `ℹ cancelled 0`,
/// `ℹ skipped 0`, `ℹ todo 0`.
fn node_test(lines: &[&str], r: &mut TestReport) {
    let mut summary = false;
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        // Cheap tests first: this reads every line of every log.
        let t = line.trim_ascii_start();
        if !t.starts_with(['ℹ', '✖']) {
            continue;
        }
        let t = t.trim_ascii_end();
        if let Some(rest) = t.strip_prefix("ℹ ") {
            let Some((key, value)) = rest.split_around(" ") else {
                continue;
            };
            let Some(n) = count(value) else {
                continue;
            };
            match key {
                "tests" => summary = true,
                "pass" => passed += n,
                "fail" | "cancelled" => failed += n,
                "skipped" | "todo" => skipped += n,
                _ => {}
            }
        } else if let Some(name) = node_test_failure(t) {
            failures.push((i, name, next_message(&lines[i + 1..], MESSAGE_WITHIN)));
        }
    }
    if !summary {
        return;
    }
    r.saw("node --test");
    r.passed += passed;
    r.failed += failed;
    r.skipped += skipped;
    for (i, name, message) in failures {
        r.add_failure(i, name, message);
    }
}

/// `✖ parses dates (1.008353ms)` → `parses dates`.
fn node_test_failure(t: &str) -> Option<&str> {
    let rest = t.strip_prefix("✖ ")?;
    let (name, duration) = rest.strip_suffix("ms)")?.rsplit_around(" (")?;
    (!duration.is_empty() && duration.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        .then_some(name)
        .filter(|n| !n.trim_ascii().is_empty())
}

#[cfg(test)]
mod tests {
    use crate::testrun::parse_log as report;

    #[test]
    fn mocha_counts_and_names_each_failure_with_its_message() {
        let r = report(
            "\n  slug\n    ✔ word 0\n    1) trims spaces\n\n\n  30 passing (7ms)\n  2 failing\n  1 pending\n\n  1) slug\n       trims spaces:\n\n      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n      at Context.<anonymous> (test/slug.spec.js:34:35)\n\n  2) keeps numbers:\n     Error: boom\n",
        );
        assert_eq!(r.runners, ["mocha"]);
        assert_eq!((r.passed, r.failed, r.skipped), (30, 2, 1));
        assert_eq!(r.failures[0].name, "slug trims spaces");
        assert_eq!(
            r.failures[0].message.as_deref(),
            Some("AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:")
        );
        assert_eq!(r.failures[1].name, "keeps numbers");
        assert_eq!(r.failures[1].message.as_deref(), Some("Error: boom"));
        assert!(r.failure_lines.contains(&10) && r.failure_lines.contains(&11));
    }

    #[test]
    fn each_mocha_run_reads_only_the_failures_it_counted() {
        let r = report(
            "  3 passing (2ms)\n  1 failing\n\n  1) a\n       breaks:\n     Error: one\n\n  2) not a failure:\n     listed later\n  4 passing (1s)\n  1 failing\n\n  1) b\n       breaks too:\n     Error: two\n",
        );
        assert_eq!((r.passed, r.failed), (7, 2));
        let names: Vec<&str> = r.failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a breaks", "b breaks too"]);
        assert_eq!(r.failures[1].message.as_deref(), Some("Error: two"));
    }

    #[test]
    fn a_numbered_list_without_mochas_summary_is_no_mocha_run() {
        let r = report("Steps:\n  1) build it:\n     make\n  2 failing\n");
        assert!(r.is_empty());
        assert_eq!(report("  3 passing (soon)\n").runners, Vec::<&str>::new());
    }

    #[test]
    fn node_test_counts_from_its_summary_and_names_failures_once() {
        let r = report(
            "✔ adds (0.5ms)\n✖ parses dates (1.008353ms)\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\nℹ tests 51\nℹ suites 0\nℹ pass 49\nℹ fail 1\nℹ cancelled 0\nℹ skipped 1\nℹ todo 0\nℹ duration_ms 112.820563\n\n✖ failing tests:\n\ntest at t.test.mjs:53:1\n✖ parses dates (1.008353ms)\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n",
        );
        assert_eq!(r.runners, ["node --test"]);
        assert_eq!((r.passed, r.failed, r.skipped), (49, 1, 1));
        assert_eq!(r.failures.len(), 1);
        assert_eq!(r.failures[0].name, "parses dates");
        assert_eq!(
            r.failures[0].message.as_deref(),
            Some("AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:")
        );
    }

    #[test]
    fn a_cross_without_node_tests_summary_is_no_test() {
        let r = report("✖ 3 problems (3 errors, 0 warnings)\n✖ lint (12ms)\n");
        assert!(r.is_empty());
        assert!(r.failures.is_empty());
    }

    /// AVA 6's default reporter (real, trimmed): a line per test, each
    /// failure's details, and only the failed count in its summary.
    #[test]
    fn ava_counts_its_ticks_and_names_its_failures() {
        let r = crate::testrun::parse_log(
            "\n  ✔ cents of a whole amount\n  ✘ [fail]: cents of a fraction\n  ✘ [fail]: cents of garbage throws\n  ✔ cents of 1.10\n  ✔ cents of 2.20\n  ─\n\n  cents of a fraction\n\n  test/money.test.js:6\n\n   6: test('cents of a fraction', (t) => { t.is(cents('0.29'), 28); });\n\n  Difference (- actual, + expected):\n\n  - 29\n  + 28\n\n  ─\n\n  2 tests failed\n",
        );
        assert_eq!((r.passed, r.failed, r.skipped), (3, 2, 0));
        let names: Vec<&str> = r.failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["cents of a fraction", "cents of garbage throws"]);
        // Without AVA's summary a tick proves nothing.
        let ticks = crate::testrun::parse_log("  ✔ built\n  ✔ linted\n  3 files changed\n");
        assert_eq!((ticks.passed, ticks.failed), (0, 0));
    }
}
