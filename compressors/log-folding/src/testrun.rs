//! Test-runner output: pass/fail/skip counts and every failing test by name
//! with its assertion message, for cargo test, pytest, jest/vitest, go test,
//! mix test and maven surefire (more runners in the private `runners`,
//! `node_runners`, `minitest` and `test_unit` modules).

use crate::search::Search;
use std::collections::BTreeSet;

/// What the log says about a test run.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct TestReport {
    /// The runners recognised, e.g. `["cargo test"]`.
    pub runners: Vec<&'static str>,
    /// Tests that passed.
    pub passed: u64,
    /// Tests that failed (errors included).
    pub failed: u64,
    /// Tests skipped or ignored.
    pub skipped: u64,
    /// Each failing test: its name and the first line of its assertion message.
    pub failures: Vec<Failure>,
    /// The lines where the runner announced a failing test (`not ok 6 …`,
    /// `FAIL: test_x`, `[-] It works`): each is kept, whatever words it
    /// holds (`not ok 6 no errors` names no error).
    pub failure_lines: BTreeSet<usize>,
    /// The lines announcing a further failing case folded as a repeat of
    /// one kept (a data provider's case whose header is most data): not
    /// kept, but a failing test's lines end there all the same.
    pub folded_cases: BTreeSet<usize>,
}

/// One failing test.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The test's name as the runner prints it.
    pub name: String,
    /// The assertion or error message, when the log has one.
    pub message: Option<String>,
}

impl TestReport {
    /// Counts a runner's summary of `total` tests, `failed` and `skipped`
    /// of them: the rest passed.
    pub(crate) fn add_summary(&mut self, total: u64, failed: u64, skipped: u64) {
        self.failed += failed;
        self.skipped += skipped;
        self.passed += total.saturating_sub(failed + skipped);
    }

    /// Whether any runner was recognised.
    pub fn is_empty(&self) -> bool {
        self.runners.is_empty()
    }

    /// Notes that `runner`'s output was recognised.
    pub(crate) fn saw(&mut self, runner: &'static str) {
        if !self.runners.contains(&runner) {
            self.runners.push(runner);
        }
    }

    /// Adds a failing test (once; a later message fills a missing one).
    pub(crate) fn add_failure(&mut self, line: usize, name: &str, message: Option<String>) {
        let name = name.trim_ascii().to_string();
        if name.is_empty() {
            return;
        }
        self.failure_lines.insert(line);
        if let Some(f) = self.failures.iter_mut().find(|f| f.name == name) {
            if f.message.is_none() {
                f.message = message;
            }
            return;
        }
        self.failures.push(Failure { name, message });
    }
}

/// The first number in `s` before `word` (e.g. `3` in "3 passed").
pub(crate) fn count_before(s: &str, word: &str) -> Option<u64> {
    let i = s.find_str(word)?;
    s[..i]
        .split(|c: char| !c.is_ascii_digit())
        .rfind(|t| !t.is_empty())?
        .parse()
        .ok()
}

/// The number after `label` (e.g. `1` in "Failures: 1").
pub(crate) fn count_after(s: &str, label: &str) -> Option<u64> {
    let i = s.find_str(label)? + label.len();
    number(&s[i..])
}

/// The number `s` starts with, spaces before it ignored.
pub(crate) fn number(s: &str) -> Option<u64> {
    s.trim_ascii()
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// A count written alone, digits only: `12` of `12) test_x`, not `12a`.
pub(crate) fn count(s: &str) -> Option<u64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// Marks a runner puts before a failing test's name, as it puts `✓`
/// before a passing one's (jest `✕`, xcpretty `✗`, node --test `✖`,
/// vitest `×`).
const CROSS_MARKS: [&str; 5] = ["✕ ", "✗ ", "✘ ", "✖ ", "× "];

/// The lines announcing a failing test by a cross mark (`✗ adds, expected
/// 3, got 4`), in a log where check marks announce passing ones: a mark
/// alone proves nothing (`✖ 3 problems` is eslint's summary, so a mark
/// before a number is none).
fn cross_marked(lines: &[&str]) -> Vec<usize> {
    let crossed: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let t = lines[i].trim_ascii_start();
            // Every mark is outside ASCII: most lines end the test here.
            t.as_bytes().first().is_some_and(|b| !b.is_ascii())
                && CROSS_MARKS.iter().any(|m| {
                    t.strip_prefix(m).is_some_and(|name| {
                        name.starts_with(|c: char| !c.is_ascii_digit() && c != ' ')
                    })
                })
        })
        .collect();
    if crossed.is_empty() || !lines.iter().any(|l| crate::passing::is_passing_test(l)) {
        return Vec::new();
    }
    crossed
}

/// [`parse`] of a log given whole (for tests).
#[cfg(test)]
pub(crate) fn parse_log(log: &str) -> TestReport {
    parse(&log.lines().collect::<Vec<_>>())
}

/// Reads test-runner output out of `lines` (ANSI-free, timestamps removed).
pub fn parse(lines: &[&str]) -> TestReport {
    let mut r = TestReport::default();
    let mut go_counts = (0u64, 0u64, 0u64);
    let mut surefire_totals: Option<(u64, u64, u64, u64)> = None;
    let mut i = 0;
    // Failing tests' output headers, not passing ones' (`--show-output`).
    let mut sections = crate::captured_output::Sections::default();
    // What libtest's lines say, settled at the end (see `Libtest`).
    let mut libtest = Libtest::default();
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim_ascii();
        let mark = sections.read(t);
        // cargo test
        if let Some(rest) = t.strip_prefix("test result: ") {
            r.saw(LIBTEST);
            let counts = (
                count_before(rest, " passed").unwrap_or(0),
                count_before(rest, " failed").unwrap_or(0),
                count_before(rest, " ignored").unwrap_or(0),
            );
            libtest.add(counts);
        } else if t.starts_with("test ") && t.ends_with("... FAILED") {
            r.saw(LIBTEST);
            let name = &t[5..t.len() - "... FAILED".len()];
            libtest.failures.push(name.trim_ascii().to_string());
            r.add_failure(i, name, None);
        } else if let crate::captured_output::Mark::FailingHeader(name) = mark {
            // The panic message follows: "thread 'x' panicked at src/lib.rs:3:5:" then the message.
            let msg = lines[i + 1..]
                .iter()
                .take(6)
                .map(|l| l.trim_ascii())
                .find(|l| !l.is_empty() && !l.starts_with("thread '") && !l.starts_with("note:"));
            libtest.failures.push(name.trim_ascii().to_string());
            r.add_failure(i, name, msg.map(str::to_string));
        }
        // pytest
        else if let Some(rest) = t.strip_prefix("FAILED ").filter(|s| s.has("::")) {
            r.saw("pytest");
            let (name, msg) = rest.split_around(" - ").unwrap_or((rest, ""));
            r.add_failure(i, name, Some(msg.to_string()).filter(|m| !m.is_empty()));
        } else if t.starts_with('=')
            && t.ends_with('=')
            && (t.has(" passed") || t.has(" failed"))
            && t.has(" in ")
        {
            // pytest, or sympy's bin/test ("tests finished: 40 passed, 2
            // exceptions, in 0.18 seconds"): every outcome that is not a
            // pass or a skip is a failure.
            r.saw(if t.has("tests finished:") {
                "sympy"
            } else {
                "pytest"
            });
            r.passed += count_before(t, " passed").unwrap_or(0);
            r.failed += count_before(t, " failed").unwrap_or(0)
                + count_before(t, " error").unwrap_or(0)
                + count_before(t, " exception").unwrap_or(0);
            r.skipped += count_before(t, " skipped").unwrap_or(0);
        }
        // jest: its summary counts a total (`Tests:       1 failed, 5
        // passed, 6 total`); a line that only starts with the word (a
        // commit message's `Tests: cover the parser`) is no summary.
        else if let Some(rest) = t
            .strip_prefix("Tests:")
            .filter(|rest| !rest.has("Assertions:") && count_before(rest, " total").is_some())
        {
            r.saw("jest");
            r.passed += count_before(rest, " passed").unwrap_or(0);
            r.failed += count_before(rest, " failed").unwrap_or(0);
            r.skipped += count_before(rest, " skipped").unwrap_or(0)
                + count_before(rest, " todo").unwrap_or(0);
        } else if let Some(name) = t.strip_prefix("● ").filter(|n| n.has(" › ")) {
            r.saw("jest");
            let msg = lines[i + 1..]
                .iter()
                .take(8)
                .map(|l| l.trim_ascii())
                .find(|l| !l.is_empty());
            r.add_failure(i, name, msg.map(str::to_string));
        }
        // vitest
        else if let Some(rest) = t.strip_prefix("Tests ").filter(|s| s.has("(")) {
            r.saw("vitest");
            r.passed += count_before(rest, " passed").unwrap_or(0);
            r.failed += count_before(rest, " failed").unwrap_or(0);
            r.skipped += count_before(rest, " skipped").unwrap_or(0);
        } else if let Some(name) = t.strip_prefix("FAIL ").filter(|n| n.has(" > ")) {
            r.saw("vitest");
            let msg = lines[i + 1..]
                .iter()
                .take(6)
                .map(|l| l.trim_ascii())
                .find(|l| l.has("Error"));
            r.add_failure(i, name.trim_ascii(), msg.map(str::to_string));
        }
        // go test
        else if let Some(rest) = t.strip_prefix("--- FAIL: ") {
            r.saw("go test");
            go_counts.1 += 1;
            let name = rest.split(" (").next().unwrap_or(rest);
            let msg = lines[i + 1..]
                .iter()
                .take(4)
                .map(|l| l.trim_ascii())
                .find(|l| l.has(".go:"));
            r.add_failure(i, name, msg.map(str::to_string));
        } else if t.starts_with("--- PASS: ") {
            r.saw("go test");
            go_counts.0 += 1;
        } else if t.starts_with("--- SKIP: ") {
            r.saw("go test");
            go_counts.2 += 1;
        }
        // mix test: "3 tests, 1 failure" / "1 doctest, 10 tests, 2 failures, 1 skipped"
        else if t.has(" test")
            && (t.has(" tests, ") || t.has(" test, "))
            && (t.has(" failure"))
            && !t.has("Tests run")
            // Test::Unit's summary also counts tests and failures (see
            // `test_unit`); ExUnit's counts no assertions.
            && !t.has(" assertion")
        {
            r.saw("mix test");
            let total =
                count_before(t, " test").unwrap_or(0) + count_before(t, " doctest").unwrap_or(0);
            let failed = count_before(t, " failure").unwrap_or(0);
            let skipped = count_before(t, " skipped").unwrap_or(0)
                + count_before(t, " excluded").unwrap_or(0);
            r.add_summary(total, failed, skipped);
        } else if let Some(rest) = mix_failure_header(t) {
            r.saw("mix test");
            let msg = lines[i + 1..]
                .iter()
                .take(6)
                .map(|l| l.trim_ascii())
                .find(|l| l.has("failed") || l.has("Error") || l.starts_with("** ("));
            r.add_failure(i, rest, msg.map(str::to_string));
        }
        // maven surefire
        else if let Some(pos) = t.find_str("Tests run:") {
            let s = &t[pos..];
            // (JUnit 4's own runner prints no `Errors:`: `Tests run: 33,  Failures: 3`.)
            if let (Some(run), Some(f), e) = (
                count_after(s, "Tests run:"),
                count_after(s, "Failures:"),
                count_after(s, "Errors:"),
            ) {
                // NUnit 2's console prints `Inconclusive:` too, and its
                // skipped tests on the next line (see [`crate::runners`]).
                r.saw(if s.has("Inconclusive:") {
                    "NUnit"
                } else if e.is_some() {
                    "maven surefire"
                } else {
                    "junit"
                });
                let e = e.unwrap_or(0);
                let skipped = count_after(s, "Skipped:").unwrap_or(0);
                // Per-class lines have "- in Class"; the totals line does not. Keep the last totals.
                if !s.has(" - in ") && !s.has("Time elapsed") {
                    surefire_totals = Some((run, f, e, skipped));
                }
            }
        } else if t.has("<<< ") && (t.has("<<< FAILURE!") || t.has("<<< ERROR!")) {
            r.saw("maven surefire");
            let name = t.split("  Time elapsed").next().unwrap_or(t);
            let name = name
                .split(" <<<")
                .next()
                .unwrap_or(name)
                .trim_start_matches("[ERROR] ");
            let msg = lines
                .get(i + 1)
                .map(|l| l.trim_ascii())
                .filter(|l| !l.is_empty() && !l.starts_with("at "));
            if !name.starts_with("Tests run:") {
                r.add_failure(i, name, msg.map(str::to_string));
            }
        } else if let Some(rest) = t
            .strip_prefix("[ERROR]   ")
            .or_else(|| t.strip_prefix("[ERROR] ").filter(|s| s.starts_with("  ")))
        {
            // Surefire's summary: "[ERROR]   FooTest.bar:42 expected:<1> but was:<2>"
            let rest = rest.trim_ascii();
            if let Some((name, msg)) = rest.split_around(" ")
                && name.has(".")
                && name.has(":")
                && !name.has("/")
            {
                r.saw("maven surefire");
                r.add_failure(i, name, Some(msg.trim_ascii().to_string()));
            }
        }
        i += 1;
    }
    if let Some((run, f, e, s)) = surefire_totals {
        r.failed += f + e;
        r.skipped += s;
        r.passed += run.saturating_sub(f + e + s);
    }
    if go_counts != (0, 0, 0) {
        r.passed += go_counts.0;
        r.failed += go_counts.1;
        r.skipped += go_counts.2;
    }
    crate::runners::read(lines, &mut r);
    crate::node_runners::read(lines, &mut r);
    crate::minitest::read(lines, &mut r);
    crate::test_unit::read(lines, &mut r);
    libtest.settle(&mut r);
    r.failure_lines.extend(cross_marked(lines));
    r
}

/// The runner name of libtest's own output (`cargo test`).
const LIBTEST: &str = "cargo test";

/// What libtest's lines say of a run, settled once the whole log is read:
/// cargo-nextest runs each test as a libtest binary of its own and prints
/// that binary's output under the test's `FAIL` line, so there its `test
/// result:` lines would count each test again and its failing tests come
/// back by their short names. nextest's own lines count the run then.
#[derive(Default)]
struct Libtest {
    /// Passed, failed and ignored, as its `test result:` lines said.
    counts: (u64, u64, u64),
    /// The failing tests it named (added to the report as they were read,
    /// in the log's order).
    failures: Vec<String>,
}

impl Libtest {
    fn add(&mut self, (passed, failed, ignored): (u64, u64, u64)) {
        self.counts.0 += passed;
        self.counts.1 += failed;
        self.counts.2 += ignored;
    }

    /// Adds its counts to `r`; or, where cargo-nextest ran the tests,
    /// takes its failing tests' names back out (their lines stay marked as
    /// failures: they are where the test failed).
    fn settle(self, r: &mut TestReport) {
        if r.runners.contains(&crate::runners::NEXTEST) {
            r.failures.retain(|f| !self.failures.contains(&f.name));
            r.runners.retain(|&runner| runner != LIBTEST);
        } else {
            r.passed += self.counts.0;
            r.failed += self.counts.1;
            r.skipped += self.counts.2;
        }
    }
}

/// "  1) test adds numbers (MathTest)" → "test adds numbers (MathTest)".
fn mix_failure_header(t: &str) -> Option<&str> {
    if !t.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let (num, rest) = t.split_around(") ")?;
    count(num)?;
    (rest.starts_with("test ") || rest.starts_with("doctest "))
        .then_some(rest)
        .filter(|r| r.ends_with(')'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<&str> {
        s.lines().collect()
    }

    #[test]
    fn cargo_test() {
        let log = "running 3 tests\ntest a::ok ... ok\ntest a::bad ... FAILED\ntest a::skip ... ignored\n\nfailures:\n\n---- a::bad stdout ----\nthread 'a::bad' panicked at src/lib.rs:9:5:\nassertion `left == right` failed\n  left: 1\n right: 2\n\ntest result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out";
        let r = parse(&lines(log));
        assert_eq!((r.passed, r.failed, r.skipped), (1, 1, 1));
        assert_eq!(r.failures[0].name, "a::bad");
        assert_eq!(
            r.failures[0].message.as_deref(),
            Some("assertion `left == right` failed")
        );
    }

    #[test]
    fn a_cross_marked_test_is_a_failing_one_where_check_marks_pass_others() {
        let lines = [
            "MKMapViewSpec",
            "    ✓ accepts scroll changes (0.012 seconds)",
            "    ✗ accepts pitch changes, expected to eventually be nil, got <MKMapView>",
            "✖ 3 problems (3 errors, 0 warnings)",
        ];
        assert_eq!(parse(&lines).failure_lines, BTreeSet::from([2]));
        // No check mark passed a test: the cross proves nothing.
        assert!(parse(&lines[2..]).failure_lines.is_empty());
    }

    #[test]
    fn pytest() {
        let log = "FAILED tests/test_x.py::test_y - AssertionError: assert 1 == 2\n==== 1 failed, 4 passed, 2 skipped in 0.12s ====";
        let r = parse(&lines(log));
        assert_eq!((r.passed, r.failed, r.skipped), (4, 1, 2));
        assert_eq!(
            r.failures[0].message.as_deref(),
            Some("AssertionError: assert 1 == 2")
        );
    }

    #[test]
    fn jest_vitest_go_mix_surefire() {
        let jest = parse(&lines(
            "● Sum › adds\n\n    expect(received).toBe(expected)\nTests:       1 failed, 5 passed, 6 total",
        ));
        assert_eq!((jest.passed, jest.failed), (5, 1));
        assert_eq!(jest.failures[0].name, "Sum › adds");
        // `git log`: a commit message is no summary.
        let log = parse(&lines(
            "commit 3f2a\nAuthor: dev <dev@example.com>\n\n    Tests: an EUnit failure's places stay",
        ));
        assert!(log.runners.is_empty(), "{:?}", log.runners);
        let vitest = parse(&lines(
            " FAIL  src/a.test.ts > sum > adds\nAssertionError: expected 3 to be 4\n      Tests  1 failed | 3 passed (4)",
        ));
        assert_eq!((vitest.passed, vitest.failed), (3, 1));
        let go = parse(&lines(
            "--- FAIL: TestAdd (0.00s)\n    add_test.go:9: got 3, want 4\n--- PASS: TestSub (0.00s)\nFAIL",
        ));
        assert_eq!((go.passed, go.failed), (1, 1));
        assert_eq!(
            go.failures[0].message.as_deref(),
            Some("add_test.go:9: got 3, want 4")
        );
        let mix = parse(&lines(
            "  1) test adds (MathTest)\n     test/math_test.exs:5\n     Assertion with == failed\nFinished in 0.03 seconds\n4 tests, 1 failure",
        ));
        assert_eq!((mix.passed, mix.failed), (3, 1));
        assert_eq!(
            mix.failures[0].message.as_deref(),
            Some("Assertion with == failed")
        );
        let sf = parse(&lines(
            "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in a.FooTest\n[ERROR] testBar(a.FooTest)  Time elapsed: 0.01 s  <<< FAILURE!\njava.lang.AssertionError: expected:<1> but was:<2>\n[ERROR] Failures: \n[ERROR]   FooTest.testBar:42 expected:<1> but was:<2>\n[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 1",
        ));
        assert_eq!((sf.passed, sf.failed, sf.skipped), (1, 1, 1));
        assert_eq!(sf.failures[0].name, "testBar(a.FooTest)");
        assert!(sf.failures.iter().any(|f| f.name == "FooTest.testBar:42"));
        // JUnit 4's own runner prints no `Errors:` count.
        let junit = parse(&lines("FAILURES!!!\nTests run: 33,  Failures: 3"));
        assert_eq!((junit.passed, junit.failed), (30, 3));
    }
}
