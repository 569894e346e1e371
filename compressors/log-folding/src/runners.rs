//! More test runners for [`crate::testrun`]: TAP (node --test, prove),
//! Python's unittest and Django's runner, RSpec, PHPUnit, Pester, dotnet
//! test, NUnit's console, EUnit, cargo-nextest, doctest, Gradle and JUnit
//! 4's console runner. Each adds its counts and names its failing tests
//! with their first message line; the runner's own summary lines are kept
//! verbatim by [`crate::markers`] whatever this module reads.

use rustc_hash::FxHashMap;

use crate::search::Search;
use crate::testrun::{TestReport, count, count_after, count_before, number};

/// A TAP test point that passed: `ok`, its number, then a space or the
/// line's end (`ok 3 - name`, `ok 4`); Perl's `ok 1;` in a document's
/// example is a call, not a test point.
fn is_tap_ok(t: &str) -> bool {
    let Some(rest) = t.strip_prefix("ok ") else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && rest[digits..]
            .chars()
            .next()
            .is_none_or(char::is_whitespace)
}

/// The total of RSpec's summary, `33 examples, 3 failures[, 2 pending]`:
/// the count opens the line and failures are counted (its colours were
/// stripped before any runner reads it). A sentence's `For example, …` is
/// none.
fn rspec_total(t: &str) -> Option<u64> {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let after = &t[digits..];
    let summary = digits > 0
        && (after.starts_with(" examples, ") || after.starts_with(" example, "))
        && after.has(" failure");
    summary.then(|| t[..digits].parse().ok()).flatten()
}

/// The runner name of cargo-nextest's output.
pub(crate) const NEXTEST: &str = "cargo nextest";

/// Reads the runners of this module out of `lines` into `r`.
pub fn read(lines: &[&str], r: &mut TestReport) {
    let mut tap = Tally::default();
    // How many further failing cases of each data provider's test were kept.
    let mut data_sets: FxHashMap<&str, usize> = FxHashMap::default();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_ascii();
        let next = |n: usize| next_message(&lines[i + 1..], n);
        if let Some(rest) = t.strip_prefix("not ok ") {
            // TAP: `not ok 3 - name # comment`
            r.saw("TAP");
            tap.point(line, Verdict::Failed);
            r.add_failure(i, tap_name(rest), next(8).filter(|m| !m.starts_with("---")));
        } else if is_tap_ok(t) {
            r.saw("TAP");
            let skipped = t.has("# SKIP") || t.has("# skip");
            tap.point(
                line,
                if skipped {
                    Verdict::Skipped
                } else {
                    Verdict::Passed
                },
            );
        } else if let Some(n) = t.strip_prefix("# pass ").and_then(number) {
            tap.summary_passed = Some(n);
        } else if let Some(n) = t.strip_prefix("# fail ").and_then(number) {
            tap.summary_failed = Some(n);
        } else if let Some(name) = t
            .strip_prefix("FAIL: ")
            .or_else(|| t.strip_prefix("ERROR: "))
            .filter(|n| n.ends_with(')') && n.has(" ("))
        {
            // unittest / Django: `FAIL: test_x (module.Class)`, the
            // assertion after the traceback.
            r.saw("unittest");
            let message = lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("======"))
                .map(|l| l.trim_ascii())
                .find(|l| is_exception_line(l))
                .map(str::to_string);
            r.add_failure(i, name, message);
        } else if let Some(n) = t.strip_prefix("Ran ").and_then(|s| s.strip_suffix_tests()) {
            r.saw("unittest");
            let verdict = lines[i + 1..]
                .iter()
                .map(|l| l.trim_ascii())
                .find(|l| !l.is_empty());
            let (failed, skipped) = verdict.map_or((0, 0), unittest_verdict);
            r.add_summary(n, failed, skipped);
        } else if let Some(name) = doctest_failure(t, lines.get(i + 1)) {
            // doctest: `File "m.py", line 20, in m.split`, `Failed example:`,
            // then `Expected:` and `Got:` (or `Exception raised:`), each
            // with its value indented under it. The headers are failure
            // lines, so the values under them stay (`[3, 3, 3]` differs
            // from `[3, 3, 4]` only in a number, which is the fact);
            // `Expected:` and `Got:` are marked by the branch below.
            r.saw("doctest");
            let block = (i + 1..lines.len()).take_while(|&j| {
                let l = lines[j].trim_ascii();
                !l.starts_with("****") && l != "Trying:"
            });
            let mut message = None;
            for j in block {
                let header = lines[j].trim_ascii_end();
                match header {
                    "Failed example:" => {
                        r.failure_lines.insert(j);
                        continue;
                    }
                    "Exception raised:" => {
                        r.failure_lines.insert(j);
                    }
                    "Got:" => {}
                    _ => continue,
                }
                let value: Vec<&str> = lines[j + 1..]
                    .iter()
                    .take_while(|m| m.starts_with([' ', '\t']))
                    .map(|m| m.trim_ascii())
                    .filter(|m| !m.is_empty())
                    .collect();
                // What it got, or the exception's own line (a traceback's last).
                let said = if header == "Got:" {
                    value.first()
                } else {
                    value.last()
                };
                message = said.map(|m| m.to_string());
            }
            r.add_failure(i, name, message);
        } else if line.trim_ascii_end() == "Got:" {
            // A doctest failure as pytest's `--doctest-modules` prints it
            // (no `Failed example:` block): `Expected:` and `Got:` head the
            // values that differ.
            let expected = (i.saturating_sub(DOCTEST_EXPECTED_WITHIN)..i)
                .rev()
                .find(|&j| lines[j].trim_ascii_end() == "Expected:");
            if let Some(j) = expected {
                r.failure_lines.extend([j, i]);
            }
        } else if let Some((passed, failed)) = doctest_totals(t) {
            // doctest -v: `5 passed and 1 failed.`
            r.saw("doctest");
            r.passed += passed;
            r.failed += failed;
        } else if let Some(rest) = t.strip_prefix("rspec ") {
            // RSpec's list of failures: `rspec ./spec/calc_spec.rb:4 # Calc adds`
            if let Some((place, name)) = rest.split_around(" # ") {
                r.saw("RSpec");
                r.add_failure(i, name, Some(place.to_string()));
            }
        } else if let Some(total) = rspec_total(t) {
            r.saw("RSpec");
            let failed = count_before(t, " failure").unwrap_or(0);
            let pending = count_before(t, " pending").unwrap_or(0);
            r.add_summary(total, failed, pending);
        } else if let Some(name) = phpunit_failure(t) {
            r.saw("PHPUnit");
            // A data provider's other failing cases of a test named already
            // are its repeats: what each prints under it folds as repeats
            // do. Its header stays, the case that failed (`with data set
            // #10 (16, 'x')`), for the first [`DATA_SETS_KEPT`] cases of
            // a test, unless the data makes it a long line (a case's data
            // printed whole, kilobytes of it): then it folds with the rest.
            let (test, data_set) = name.split_once(DATA_SET).unwrap_or((name, ""));
            let repeat = !data_set.is_empty()
                && r.failures.iter().any(|f| {
                    f.name
                        .split_once(DATA_SET)
                        .is_some_and(|(named, _)| named == test)
                });
            if !repeat {
                r.add_failure(i, name, next(4));
            } else if t.len() <= DATA_SET_HEADER_AT_MOST {
                let kept = data_sets.entry(test).or_default();
                if *kept < DATA_SETS_KEPT {
                    *kept += 1;
                    r.failure_lines.insert(i);
                } else {
                    r.folded_cases.insert(i);
                }
            } else {
                r.folded_cases.insert(i);
            }
        } else if t.starts_with("Tests: ") && t.has("Assertions: ") {
            r.saw("PHPUnit");
            let total = count_after(t, "Tests: ").unwrap_or(0);
            let failed =
                count_after(t, "Failures: ").unwrap_or(0) + count_after(t, "Errors: ").unwrap_or(0);
            let skipped = count_after(t, "Skipped: ").unwrap_or(0)
                + count_after(t, "Incomplete: ").unwrap_or(0);
            r.add_summary(total, failed, skipped);
        } else if let Some(rest) = t.strip_prefix("OK (").filter(|s| s.has(" assertion")) {
            r.saw("PHPUnit");
            r.passed += count_before(rest, " test").unwrap_or(0);
        } else if let Some(n) = junit4_passed(t) {
            // JUnit 4's console runner on a passing run: `OK (33 tests)`
            // (its failing run's `Tests run: 33,  Failures: 3` is testrun's).
            r.saw("junit");
            r.passed += n;
        } else if let Some(failing) = failures_heading(t) {
            // JUnit 4's console runner: `There were 3 failures:`, then each
            // `1) parsesHex(CalcTest)` with its exception under it
            // (PHPUnit's heading is the same; its names are `Class::test`).
            for (j, name) in (i + 1..lines.len())
                .filter_map(|j| junit4_failure(lines[j].trim_ascii()).map(|name| (j, name)))
                .take(failing)
            {
                r.saw("junit");
                r.add_failure(j, name, next_message(&lines[j + 1..], 3));
            }
        } else if let Some(name) = t.strip_suffix("...*failed*") {
            // EUnit: `cart_tests: large_cart_test...*failed*`, then the
            // places (`in function …`) and the reason (`**error:…`).
            r.saw("EUnit");
            let reason = lines[i + 1..]
                .iter()
                .take(40)
                .map(|l| l.trim_ascii())
                .find(|l| l.starts_with("**"))
                .map(str::to_string);
            r.add_failure(i, name, reason);
        } else if let Some(rest) = t.strip_prefix("Failed: ").filter(|s| s.has("Passed: ")) {
            // EUnit's summary: `Failed: 4.  Skipped: 0.  Passed: 30.`
            r.saw("EUnit");
            r.failed += number(rest).unwrap_or(0);
            r.skipped += count_after(rest, "Skipped: ").unwrap_or(0);
            r.passed += count_after(rest, "Passed: ").unwrap_or(0);
        } else if let Some(name) = nunit_failure(t) {
            // NUnit's console: `1) Test Failure : Ns.Class.Test` (2.x) or
            // `1) Failed : Ns.Class.Test` (3.x), the message under it.
            r.saw("NUnit");
            r.add_failure(i, name, next(3));
        } else if let Some(rest) = t.strip_prefix("Not run: ").filter(|s| s.has("Ignored: ")) {
            // NUnit 2's `Not run: 1, Invalid: 0, Ignored: 1, Skipped: 0`
            // under its `Tests run:` line, which counts only the tests run.
            r.saw("NUnit");
            r.skipped += number(rest).unwrap_or(0);
        } else if let Some(rest) = t.strip_prefix("Test Count: ").filter(|s| s.has("Passed: ")) {
            // NUnit 3: `Test Count: 35, Passed: 30, Failed: 4, Warnings:
            // 0, Inconclusive: 0, Skipped: 1`.
            r.saw("NUnit");
            r.passed += count_after(rest, "Passed: ").unwrap_or(0);
            r.failed += count_after(rest, "Failed: ").unwrap_or(0);
            r.skipped += count_after(rest, "Skipped: ").unwrap_or(0);
        } else if let Some(rest) = t.strip_prefix("[-] ") {
            // Pester: `[-] Describe.It 15ms (13ms|2ms)`, the message next.
            r.saw("Pester");
            r.add_failure(i, strip_timing(rest), next(3));
        } else if let Some(rest) = t.strip_prefix("Tests Passed: ") {
            r.saw("Pester");
            r.passed += number(rest).unwrap_or(0);
            r.failed += count_after(t, "Failed: ").unwrap_or(0);
            r.skipped += count_after(t, "Skipped: ").unwrap_or(0);
        } else if let Some(rest) = t.strip_prefix("Failed ").filter(|_| line.starts_with("  ")) {
            // dotnet test: `  Failed Ns.Class.Test [12 ms]`, then `Error Message:`.
            if let Some((name, _)) = rest.rsplit_around(" [") {
                r.saw("dotnet test");
                let message = lines[i + 1..]
                    .iter()
                    .take(4)
                    .map(|l| l.trim_ascii())
                    .skip_while(|l| *l != "Error Message:")
                    .nth(1)
                    .map(str::to_string);
                r.add_failure(i, name, message);
            }
        } else if (t.starts_with("Failed!") || t.starts_with("Passed!")) && t.has("Total:") {
            r.saw("dotnet test");
            r.failed += count_after(t, "Failed:").unwrap_or(0);
            r.passed += count_after(t, "Passed:").unwrap_or(0);
            r.skipped += count_after(t, "Skipped:").unwrap_or(0);
        } else if let Some(rest) = t.strip_prefix("FAIL [") {
            // cargo-nextest: `FAIL [   0.003s] crate::tests::name`
            if let Some((_, name)) = rest.split_around("] ") {
                r.saw(NEXTEST);
                r.add_failure(i, name, None);
            }
        } else if let Some(name) = gradle_failure(t) {
            // Gradle: `demo.CalcTest > adds FAILED`, the exception indented under it.
            r.saw("Gradle");
            r.add_failure(i, name, next(3));
        } else if let Some(total) = t
            .strip_suffix(" tests completed")
            .or_else(|| t.split_around(" tests completed, ").map(|(n, _)| n))
            .and_then(number)
        {
            // Gradle: `92 tests completed, 2 failed, 1 skipped`.
            r.saw("Gradle");
            let failed = count_before(t, " failed").unwrap_or(0);
            let skipped = count_before(t, " skipped").unwrap_or(0);
            r.add_summary(total, failed, skipped);
        } else if t.starts_with("Summary [") && t.has(" tests run: ") {
            r.saw(NEXTEST);
            r.passed += count_before(t, " passed").unwrap_or(0);
            r.failed += count_before(t, " failed").unwrap_or(0);
            r.skipped += count_before(t, " skipped").unwrap_or(0);
        }
    }
    if tap != Tally::default() {
        let (passed, failed, skipped) = tap.counts();
        r.passed += tap.summary_passed.unwrap_or(passed);
        r.failed += tap.summary_failed.unwrap_or(failed);
        r.skipped += skipped;
    }
}

/// What a TAP test point says of its test.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Verdict {
    Passed,
    Failed,
    Skipped,
}

/// TAP's counts: from its `ok`/`not ok` lines, or its own `# pass`/`# fail`.
#[derive(Debug, Default, PartialEq)]
struct Tally {
    /// Every test point's indentation (a subtest's points are indented
    /// under the point that sums it up) and verdict.
    points: Vec<(usize, Verdict)>,
    summary_passed: Option<u64>,
    summary_failed: Option<u64>,
}

impl Tally {
    /// Counts a test point printed on `line`.
    fn point(&mut self, line: &str, verdict: Verdict) {
        let indent = line.len() - line.trim_ascii_start().len();
        self.points.push((indent, verdict));
    }

    /// Passed, failed and skipped tests, counted at one level of nesting:
    /// the outermost that holds more than one point (node-tap's one point
    /// per file sums up the file's tests, and each test's points are its
    /// assertions), or the outermost when every level holds one.
    fn counts(&self) -> (u64, u64, u64) {
        let mut levels: Vec<usize> = self.points.iter().map(|(indent, _)| *indent).collect();
        levels.sort_unstable();
        levels.dedup();
        let at = |level: usize| {
            self.points
                .iter()
                .filter(move |(indent, _)| *indent == level)
        };
        let level = levels
            .iter()
            .copied()
            .find(|&level| at(level).count() > 1)
            .or_else(|| levels.first().copied())
            .unwrap_or(0);
        let count = |verdict: Verdict| at(level).filter(|(_, v)| *v == verdict).count() as u64;
        (
            count(Verdict::Passed),
            count(Verdict::Failed),
            count(Verdict::Skipped),
        )
    }
}

trait StripTests {
    fn strip_suffix_tests(&self) -> Option<u64>;
}

impl StripTests for str {
    /// `16 tests in 0.164s` → 16.
    fn strip_suffix_tests(&self) -> Option<u64> {
        let (n, rest) = self.split_around(" ")?;
        (rest.starts_with("test ")
            || rest.starts_with("tests ")
            || rest.starts_with("test") && rest.len() <= 5)
            .then(|| n.parse().ok())
            .flatten()
    }
}

/// `FAILED (failures=2, errors=1, skipped=3)` / `OK (skipped=1)`.
fn unittest_verdict(line: &str) -> (u64, u64) {
    let count = |key: &str| count_after(line, key).unwrap_or(0);
    (count("failures=") + count("errors="), count("skipped="))
}

/// `3 - adds two # time=1ms` → `adds two`.
fn tap_name(rest: &str) -> &str {
    let rest = rest
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_ascii_start();
    let rest = rest.strip_prefix("- ").unwrap_or(rest);
    rest.split(" # ").next().unwrap_or(rest).trim_ascii()
}

/// How many lines above `Got:` its `Expected:` may be (the expected value
/// between them).
const DOCTEST_EXPECTED_WITHIN: usize = 30;

/// doctest's failing example: `File "m.py", line 20, in m.split` followed
/// by `Failed example:`; its name is what follows `, in `.
fn doctest_failure<'a>(t: &'a str, next: Option<&&str>) -> Option<&'a str> {
    if !t.starts_with("File \"") || next.is_none_or(|n| n.trim_ascii() != "Failed example:") {
        return None;
    }
    t.split_around("\", line ")?
        .1
        .split_around(", in ")
        .map(|(_, name)| name)
}

/// doctest's verbose totals: `5 passed and 1 failed.`
fn doctest_totals(t: &str) -> Option<(u64, u64)> {
    let (passed, failed) = t.strip_suffix(" failed.")?.split_around(" passed and ")?;
    Some((number(passed)?, number(failed)?))
}

/// Gradle's failing test: `demo.CalcTest > adds FAILED` (Gradle 4),
/// `CalcTest > adds() FAILED` (later).
fn gradle_failure(t: &str) -> Option<&str> {
    t.strip_suffix(" FAILED")
        .filter(|name| name.has(" > ") && !name.starts_with(['>', ':']))
}

/// What PHPUnit puts between a test's name and its data provider's case.
const DATA_SET: &str = " with data set ";

/// Longest header of a data provider's further failing case kept (see
/// [`read`]'s PHPUnit arm): longer, its data is most of it.
const DATA_SET_HEADER_AT_MOST: usize = 300;

/// Most further failing cases of one data provider's test whose headers
/// are kept (a broken fixture fails every case: the rest fold, counted).
const DATA_SETS_KEPT: usize = 10;

/// `1) CalcTest::testAdd` → `CalcTest::testAdd`; a data provider's case,
/// `2) CalcTest::testAdd with data set #3 (1, 2, 4)`, whole.
fn phpunit_failure(t: &str) -> Option<&str> {
    let (n, rest) = t.split_around(") ")?;
    let test = rest.split(DATA_SET).next().unwrap_or(rest);
    (count(n).is_some() && test.has("::") && !test.has(" ")).then_some(rest)
}

/// `OK (33 tests)` → 33: JUnit 4's verdict on a passing run (PHPUnit's
/// counts assertions too, unittest's counts only skips).
fn junit4_passed(t: &str) -> Option<u64> {
    let inner = t.strip_prefix("OK (")?.strip_suffix(')')?;
    let n = inner
        .strip_suffix(" tests")
        .or_else(|| inner.strip_suffix(" test"))?;
    count(n)
}

/// `There was 1 failure:` / `There were 3 failures:` → how many follow.
fn failures_heading(t: &str) -> Option<usize> {
    let rest = t
        .strip_prefix("There was ")
        .or_else(|| t.strip_prefix("There were "))?;
    let n = rest
        .strip_suffix(" failures:")
        .or_else(|| rest.strip_suffix(" failure:"))?;
    n.parse().ok()
}

/// JUnit 4's failing test: `1) parsesHex(CalcTest)` → `parsesHex(CalcTest)`.
fn junit4_failure(t: &str) -> Option<&str> {
    let (n, name) = t.split_around(") ")?;
    let (method, class) = name.strip_suffix(')')?.split_around("(")?;
    let plain = |s: &str| !s.is_empty() && !s.contains([' ', '(', ')']);
    (count(n).is_some() && plain(method) && plain(class)).then_some(name)
}

/// The test named by NUnit's console as failing: `Ns.Class.Test` of `1)
/// Test Failure : Ns.Class.Test` and `2) Test Error : …` (NUnit 2), of
/// `1) Failed : …` and `2) Error : …` (NUnit 3).
fn nunit_failure(t: &str) -> Option<&str> {
    // (Every line of a log is asked: a number first, before any search.)
    if !t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (n, rest) = t.split_around(") ")?;
    let (verdict, name) = rest.split_around(" : ")?;
    let verdict = verdict.strip_prefix("Test ").unwrap_or(verdict);
    (count(n).is_some()
        && matches!(verdict, "Failure" | "Error" | "Failed")
        && !name.is_empty()
        && !name.has(" "))
    .then_some(name)
}

/// `Describe.It 15ms (13ms|2ms)` → `Describe.It`.
fn strip_timing(rest: &str) -> &str {
    match rest.rsplit_around(" ") {
        Some((head, tail)) if tail.starts_with('(') && tail.ends_with(')') => {
            head.rsplit_around(" ").map_or(head, |(name, t)| {
                if t.ends_with("ms") || t.ends_with('s') {
                    name
                } else {
                    head
                }
            })
        }
        _ => rest,
    }
}

/// `ValueError: …`, `AssertionError: …`, `django.db.utils.Error: …`.
fn is_exception_line(l: &str) -> bool {
    let Some((name, _)) = l.split_around(": ") else {
        return false;
    };
    let last = name.rsplit('.').next().unwrap_or(name);
    !name.has(" ") && (last.ends_with("Error") || last.ends_with("Exception") || last == "Failure")
}

/// The first non-empty line of `rest`, within `n` lines.
pub(crate) fn next_message(rest: &[&str], n: usize) -> Option<String> {
    rest.iter()
        .take(n)
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use crate::testrun::parse_log as report;

    /// A document's words are no runner's: Perl's `ok 1;` in a POD's
    /// example, reStructuredText's `For example, ``1048576``.`
    #[test]
    fn examples_in_a_document_are_no_test_run() {
        let r = report(
            "=head2 Testing\n\n  use Test::More tests => 1;\n  ok 1;\n\n* The file size in bytes.  For example, ``1048576``.\nFor example, 3 examples, see below.\n",
        );
        assert!(r.runners.is_empty(), "{:?}", r.runners);
        let r = report("13105 examples, 1 failure, 3 pending\n");
        assert_eq!((r.passed, r.failed, r.skipped), (13101, 1, 3));
    }

    #[test]
    fn tap() {
        let r = report(
            "TAP version 13\nok 1 - adds\nnot ok 2 - parses dates\n  ---\n  error: 'Expected values to be strictly equal'\n  ...\nok 3 - skipped one # SKIP\n1..3\n# tests 3\n# pass 1\n# fail 1\n",
        );
        assert_eq!((r.passed, r.failed, r.skipped), (1, 1, 1));
        assert_eq!(r.failures[0].name, "parses dates");
    }

    /// node-tap 21 (real, trimmed): one point per file sums up its tests,
    /// each test's own points are its assertions; the run had 4 tests and
    /// 2 failing (`# { total: 4, pass: 2, fail: 2 }`), not 5 and 4.
    #[test]
    fn nested_tap_counts_its_tests_not_its_assertions() {
        let r = report(
            "TAP version 14\n1..1\n# Subtest: tap/ports.test.mjs\n    # Subtest: reads a port\n        ok 1 - should be equal\n        1..1\n    ok 1 - reads a port # time=3.297ms\n\
    # Subtest: reads a port after an IPv6 host\n        not ok 1 - should be equal\n          ---\n          compare: ===\n          ...\n        1..1\n    not ok 2 - reads a port after an IPv6 host # time=13.841ms\n\
    # Subtest: reads no port\n        not ok 1 - a missing port is 0\n        1..1\n    not ok 3 - reads no port # time=3.422ms\n\
    # Subtest: reads ports of a list\n        ok 1 - should be equivalent\n        1..1\n    ok 4 - reads ports of a list # time=1.026ms\n    1..4\n\
not ok 1 - tap/ports.test.mjs # time=32.918ms\n\n# { total: 4, pass: 2, fail: 2 }\n",
        );
        assert_eq!((r.passed, r.failed, r.skipped), (2, 2, 0));
        let names: Vec<&str> = r.failures.iter().map(|f| f.name.as_str()).collect();
        assert!(
            names.contains(&"reads a port after an IPv6 host"),
            "{names:?}"
        );
        assert!(names.contains(&"reads no port"), "{names:?}");
    }

    #[test]
    fn unittest() {
        let r = report(
            "..F\n======================================================================\nFAIL: test_bad (test_u.T.test_bad)\n----------------------------------------------------------------------\nTraceback (most recent call last):\n  File \"/tmp/test_u.py\", line 5, in test_bad\n    self.assertIn('x', 'abc')\nAssertionError: 'x' not found in 'abc'\n\n----------------------------------------------------------------------\nRan 41 tests in 0.002s\n\nFAILED (failures=1, skipped=2)\n",
        );
        assert_eq!((r.passed, r.failed, r.skipped), (38, 1, 2));
        assert_eq!(r.failures[0].name, "test_bad (test_u.T.test_bad)");
        assert_eq!(
            r.failures[0].message.as_deref(),
            Some("AssertionError: 'x' not found in 'abc'")
        );
    }

    /// EUnit (Erlang/OTP 25): the counts, and every failing test with the
    /// first line of its reason, below the places it failed at.
    #[test]
    fn eunit() {
        let r = report(
            "======================== EUnit ========================\nmodule 'cart_tests'\n  cart_tests: adds_0_test...ok\n  cart_tests: large_cart_test...*failed*\nin function cart_tests:large_cart_test/0 (cart_tests.erl, line 95)\n**error:{assertEqual,[{module,cart_tests},\n              {expected,120},\n              {value,115}]}\n  output:<<\"\">>\n\n  [done in 0.118 s]\n=======================================================\n  Failed: 1.  Skipped: 0.  Passed: 30.\n",
        );
        assert_eq!(r.runners, vec!["EUnit"]);
        assert_eq!((r.passed, r.failed, r.skipped), (30, 1, 0));
        assert_eq!(r.failures[0].name, "cart_tests: large_cart_test");
        assert_eq!(
            r.failures[0].message.as_deref(),
            Some("**error:{assertEqual,[{module,cart_tests},")
        );
    }

    /// NUnit's console, 2.x (Mono's, as Debian ships it) and 3.x: the
    /// counts and every failing test with its message.
    #[test]
    fn nunit_consoles() {
        let two = report(
            "Tests run: 34, Errors: 1, Failures: 3, Inconclusive: 0, Time: 0.08 seconds\n  Not run: 1, Invalid: 0, Ignored: 1, Skipped: 0\n\nErrors and Failures:\n1) Test Failure : Shop.Tests.CartTests.Totals\n     no discount under 200\n  Expected: 120m\n  But was:  115m\n\n2) Test Error : Shop.Tests.CartTests.Parses\n   System.FormatException : Input string was not in a correct format.\n\nTests Not Run:\n1) Ignored : Shop.Tests.CartTests.Later\n",
        );
        assert_eq!(two.runners, vec!["NUnit"]);
        assert_eq!((two.passed, two.failed, two.skipped), (30, 4, 1));
        let names: Vec<&str> = two.failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            ["Shop.Tests.CartTests.Totals", "Shop.Tests.CartTests.Parses"]
        );
        assert_eq!(
            two.failures[1].message.as_deref(),
            Some("System.FormatException : Input string was not in a correct format.")
        );
        let three = report(
            "Errors, Failures and Warnings\n\n1) Failed : Shop.Tests.CartTests.Totals\n  Expected: 120m\n  But was:  115m\n\nTest Run Summary\n  Overall result: Failed\n  Test Count: 35, Passed: 33, Failed: 1, Warnings: 0, Inconclusive: 0, Skipped: 1\n",
        );
        assert_eq!((three.passed, three.failed, three.skipped), (33, 1, 1));
        assert_eq!(three.failures[0].name, "Shop.Tests.CartTests.Totals");
    }

    #[test]
    fn rspec_phpunit_pester_dotnet_nextest_doctest_junit4_gradle() {
        let rspec = report(
            "Failures:\n\n  1) Calc adds\n     Failure/Error: expect(add(1, 1)).to eq(3)\n\n3 examples, 1 failure, 1 pending\n\nFailed examples:\n\nrspec ./spec/calc_spec.rb:4 # Calc adds\n",
        );
        assert_eq!((rspec.passed, rspec.failed, rspec.skipped), (1, 1, 1));
        assert_eq!(rspec.failures[0].name, "Calc adds");
        let php = report(
            "There was 1 failure:\n\n1) CalcTest::testAdd\nFailed asserting that 2 matches expected 3.\n\n/app/tests/CalcTest.php:9\n\nFAILURES!\nTests: 3, Assertions: 3, Failures: 1.\n",
        );
        assert_eq!((php.passed, php.failed), (2, 1));
        assert_eq!(
            php.failures[0].message.as_deref(),
            Some("Failed asserting that 2 matches expected 3.")
        );
        let data_set = report(
            "There were 2 failures:\n\n1) CalcTest::testAdd with data set #0 (1, 1, 3)\nFailed asserting that 2 matches expected 3.\n\n2) CalcTest::testAdd with data set \"big\" (9, 9, 17)\nFailed asserting that 18 matches expected 17.\n\nFAILURES!\nTests: 3, Assertions: 3, Failures: 2.\n",
        );
        assert_eq!(
            data_set.failures[0].name,
            "CalcTest::testAdd with data set #0 (1, 1, 3)"
        );
        // The same test's other case is a repeat of it, its header a
        // failing case's all the same; not one whose data makes it long.
        assert_eq!(data_set.failures.len(), 1);
        assert_eq!(data_set.failure_lines.len(), 2);
        let long_data = format!(
            "There were 2 failures:\n\n1) T::testA with data set #0 (1)\nFailed.\n\n2) T::testA with data set #1 ('{}')\nFailed.\n\nFAILURES!\nTests: 3, Assertions: 3, Failures: 2.\n",
            "x".repeat(400)
        );
        assert_eq!(report(&long_data).failure_lines.len(), 1);
        let pester = report(
            "[+] Get-Config.reads 3ms (2ms|1ms)\n[-] Get-Config.returns the default port 15ms (13ms|2ms)\n Expected 8080, but got 80.\nTests Passed: 1, Failed: 1, Skipped: 0, Inconclusive: 0, NotRun: 0\n",
        );
        assert_eq!((pester.passed, pester.failed), (1, 1));
        assert_eq!(
            pester.failures[0].name,
            "Get-Config.returns the default port"
        );
        assert_eq!(
            pester.failures[0].message.as_deref(),
            Some("Expected 8080, but got 80.")
        );
        let dotnet = report(
            "  Failed Calc.Tests.AddsNumbers [12 ms]\n  Error Message:\n   Assert.Equal() Failure: Values differ\n\nFailed!  - Failed:     1, Passed:    10, Skipped:     0, Total:    11, Duration: 1 s\n",
        );
        assert_eq!((dotnet.passed, dotnet.failed), (10, 1));
        assert_eq!(
            dotnet.failures[0].message.as_deref(),
            Some("Assert.Equal() Failure: Values differ")
        );
        let nextest = report(
            "        PASS [   0.003s] k::a\n        FAIL [   0.004s] k::b\n     Summary [   0.013s] 2 tests run: 1 passed, 1 failed, 0 skipped\n",
        );
        assert_eq!((nextest.passed, nextest.failed), (1, 1));
        assert_eq!(nextest.failures[0].name, "k::b");
        // nextest prints each failing test's libtest output under its
        // `FAIL` line (indented since 0.9.8x, under `--- STDOUT:` before):
        // that output's `test result:` counts one test again.
        for (open, indent) in [("  stdout ───\n", "    "), ("--- STDOUT:   k::b ---\n", "")] {
            let log = format!(
                "        PASS [   0.003s] k::a\n        FAIL [   0.004s] k::b\n{open}\n{indent}running 1 test\n{indent}test b ... FAILED\n\n{indent}failures:\n{indent}    b\n\n{indent}test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 1 filtered out; finished in 0.00s\n\n     Summary [   0.013s] 2 tests run: 1 passed, 1 failed, 0 skipped\n        FAIL [   0.004s] k::b\n"
            );
            let nested = report(&log);
            assert_eq!((nested.passed, nested.failed, nested.skipped), (1, 1, 0));
            let names: Vec<&str> = nested.failures.iter().map(|f| f.name.as_str()).collect();
            assert_eq!(names, ["k::b"]);
            assert_eq!(nested.runners, [super::NEXTEST]);
        }
        // doctest -v (Python 3.11's own output).
        let doctest = report(
            "Trying:\n    split(10, 3)\nExpecting:\n    [3, 3, 4]\n**********************************************************************\nFile \"/tmp/money.py\", line 20, in money.split\nFailed example:\n    split(10, 3)\nExpected:\n    [3, 3, 4]\nGot:\n    [3, 3, 3]\nTrying:\n    split(9, 3)\n5 passed and 1 failed.\n***Test Failed*** 1 failures.\n",
        );
        assert_eq!((doctest.passed, doctest.failed), (5, 1));
        assert_eq!(doctest.failures[0].name, "money.split");
        assert_eq!(doctest.failures[0].message.as_deref(), Some("[3, 3, 3]"));
        assert_eq!(
            doctest.failure_lines.iter().copied().collect::<Vec<_>>(),
            vec![5, 6, 8, 10]
        );
        // pytest --doctest-modules: the values under `Expected:` and `Got:`.
        let pytest_doctest = report(
            "057     >>> split(10, 3)\nExpected:\n    [3, 3, 4]\nGot:\n    [3, 3, 3]\n\n/tmp/money.py:57: DocTestFailure\n",
        );
        assert_eq!(
            pytest_doctest
                .failure_lines
                .iter()
                .copied()
                .collect::<Vec<_>>(),
            vec![1, 3]
        );
        // JUnit 4.13's console runner, failing and passing.
        let junit4 = report(
            "JUnit version 4.13.2\n.E..E\nTime: 0.005\nThere were 2 failures:\n1) parsesHex(CalcTest)\njava.lang.NumberFormatException: For input string: \"ff\"\n\tat CalcTest.parsesHex(CalcTest.java:35)\n2) joins(demo.CalcTest)\norg.junit.ComparisonFailure: expected:<a[,]b> but was:<a[;]b>\n\nFAILURES!!!\nTests run: 3,  Failures: 2\n",
        );
        assert_eq!((junit4.passed, junit4.failed), (1, 2));
        let names: Vec<(&str, Option<&str>)> = junit4
            .failures
            .iter()
            .map(|f| (f.name.as_str(), f.message.as_deref()))
            .collect();
        assert_eq!(
            names,
            vec![
                (
                    "parsesHex(CalcTest)",
                    Some("java.lang.NumberFormatException: For input string: \"ff\"")
                ),
                (
                    "joins(demo.CalcTest)",
                    Some("org.junit.ComparisonFailure: expected:<a[,]b> but was:<a[;]b>")
                ),
            ]
        );
        let passing = report("JUnit version 4.13.2\n...\nTime: 0.003\n\nOK (3 tests)\n\n");
        assert_eq!(
            (passing.runners.clone(), passing.passed),
            (vec!["junit"], 3)
        );
        // PHPUnit's failures under the same heading are PHPUnit's.
        assert!(!php.runners.contains(&"junit"));
        // Gradle 4.4's own output (events and full exceptions on).
        let gradle = report(
            "demo.Calc4Test > adds5 PASSED\n\ndemo.Calc4Test > dividesByZero FAILED\n    java.lang.ArithmeticException: / by zero\n        at demo.Calc.div(Calc.java:5)\n\n92 tests completed, 2 failed, 1 skipped\n:test FAILED\n",
        );
        assert_eq!((gradle.passed, gradle.failed, gradle.skipped), (89, 2, 1));
        assert_eq!(gradle.failures[0].name, "demo.Calc4Test > dividesByZero");
        assert_eq!(
            gradle.failures[0].message.as_deref(),
            Some("java.lang.ArithmeticException: / by zero")
        );
    }
}
