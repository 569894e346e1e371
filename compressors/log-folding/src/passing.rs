//! A passing test's own line, in the shapes test runners print one per test
//! (`test a::b ... ok`, `PASSED`, `--- PASS:`, `✓ adds`, `ok 3 - adds`,
//! `[+] Adds`, `Passed Adds [3 ms]`, `Calc#test_adds = 0.00 s = .`), and a skipped test's (`SKIP title
//! [file.phpt]`). A passing run is read for its summary
//! and its failures, not for a list of what passed: these lines fold (with
//! their count) whatever words a test's name has, and a test named
//! `test_error_message` is not an error.

use crate::search::Search;
/// Whether `content` (timestamp removed) is one passing test's result line.
pub fn is_passing_test(content: &str) -> bool {
    let t = content.trim_ascii();
    if t.is_empty() || t.len() > 400 {
        return false;
    }
    cargo_or_unittest(t)
        || pytest(t)
        || go(t)
        || checkmark(t)
        || tap(t)
        || pester(t)
        || dotnet_or_nextest(t)
        || gradle(t)
        || outcome_first(t)
        || scalatest(t)
        || minitest(t)
        || tasty(t)
}

/// Haskell's tasty: `#1:        OK` or `parses a header:   OK (0.02s)` (a
/// failing one says `FAIL`).
fn tasty(t: &str) -> bool {
    let Some((name, verdict)) = t.rsplit_around(": ") else {
        return false;
    };
    let verdict = verdict.trim_ascii_start();
    let timed = verdict
        .strip_prefix("OK (")
        .and_then(|v| v.strip_suffix("s)"))
        .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit() || b == b'.'));
    !name.trim_ascii().is_empty() && (verdict == "OK" || timed)
}

/// minitest's verbose line for a test that passed or was skipped:
/// `InventoryTest#test_total = 0.00 s = .` (`= S` skipped; `= F` and `= E`
/// are failures).
fn minitest(t: &str) -> bool {
    let Some(rest) = t.strip_suffix(" = .").or_else(|| t.strip_suffix(" = S")) else {
        return false;
    };
    let Some((name, seconds)) = rest.rsplit_around(" = ") else {
        return false;
    };
    let duration = seconds.strip_suffix(" s").unwrap_or("");
    name.split_around("#")
        .is_some_and(|(class, test)| !class.is_empty() && !test.is_empty() && !name.has(" "))
        && !duration.is_empty()
        && duration.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// ScalaTest under sbt: `[info] - rejects an invalid trailer` (a failing
/// one ends `*** FAILED ***`).
fn scalatest(t: &str) -> bool {
    t.strip_prefix("[info] ")
        .and_then(|rest| rest.trim_ascii_start().strip_prefix("- "))
        .is_some_and(|name| !name.trim_ascii().is_empty() && !name.has("*** FAILED"))
}

/// A test's line that starts with its outcome in capitals, not a failure:
/// PHP's run-tests (`SKIP Bug #39780 (… data error …) [ext/gd/tests/x.phpt]
/// reason: …`, `XFAIL …`), jest's `PASS src/a.test.js (3 s)`, automake's
/// `PASS: t/basic`. The test's title may hold any word.
fn outcome_first(t: &str) -> bool {
    let Some((outcome, name)) = t.split_around(" ") else {
        return false;
    };
    matches!(
        outcome.trim_end_matches(':'),
        "PASS" | "SKIP" | "XFAIL" | "SKIPPED"
    ) && !name.trim_ascii().is_empty()
}

/// `test a::b ... ok` (cargo, libtest) and `test_x (m.C.test_x) ... ok`
/// (unittest, Django).
fn cargo_or_unittest(t: &str) -> bool {
    t.ends_with(" ... ok") && !t.starts_with("...")
}

/// `tests/a.py::test_b PASSED  [ 10%]`.
fn pytest(t: &str) -> bool {
    let Some((name, rest)) = t.split_around(" PASSED") else {
        return false;
    };
    name.has("::")
        && !name.has(" ")
        && rest
            .trim_ascii()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .trim_ascii()
            .trim_end_matches('%')
            .trim_ascii()
            .bytes()
            .all(|b| b.is_ascii_digit())
}

/// `--- PASS: TestAdd (0.00s)` and the `=== RUN`/`PAUSE`/`CONT` lines that
/// announce each test.
fn go(t: &str) -> bool {
    [
        "--- PASS: ",
        "=== RUN ",
        "=== PAUSE ",
        "=== CONT ",
        "=== NAME ",
    ]
    .iter()
    .any(|p| t.starts_with(p))
}

/// `✓ adds (3 ms)`, `✔ adds`, `√ adds` (jest, vitest, mocha, node --test,
/// PHPUnit --testdox): a check mark, then the name.
fn checkmark(t: &str) -> bool {
    ["✓ ", "✔ ", "√ "].iter().any(|p| t.starts_with(p))
}

/// TAP: `ok 3 - adds` (not `not ok`, not a `# SKIP` or `# TODO`).
fn tap(t: &str) -> bool {
    let Some(rest) = t.strip_prefix("ok ") else {
        return false;
    };
    let upper = rest.to_ascii_uppercase();
    rest.starts_with(|c: char| c.is_ascii_digit()) && !upper.has("# SKIP") && !upper.has("# TODO")
}

/// Pester: `[+] Adds numbers 12ms (10ms|2ms)`.
fn pester(t: &str) -> bool {
    t.starts_with("[+] ")
}

/// `dotnet test -v n`: `Passed Adds [3 ms]`; cargo-nextest:
/// `PASS [   0.003s] crate tests::adds`.
fn dotnet_or_nextest(t: &str) -> bool {
    if let Some(rest) = t.strip_prefix("Passed ") {
        return rest.trim_ascii_end().ends_with(']') && rest.has(" [");
    }
    t.strip_prefix("PASS [").is_some_and(|rest| rest.has("s] "))
}

/// Gradle: `demo.CalcTest > adds PASSED`.
fn gradle(t: &str) -> bool {
    t.strip_suffix(" PASSED")
        .is_some_and(|name| name.has(" > ") && !name.starts_with(['>', ':']))
}

/// What a Maven surefire run says of each test class, by line.
#[derive(Debug, Default, PartialEq)]
pub struct SurefireClasses {
    /// The lines of classes that passed: passing tests' lines.
    pub passed: Vec<usize>,
    /// The announcements (`Running demo.PriceTest`) of classes that failed:
    /// where the run announced a failing test.
    pub failed_announcements: Vec<usize>,
}

/// Reads surefire's classes when the run prints its totals (`Tests run:
/// 120, Failures: 0, …` without ` - in `). A class that passed has its
/// announcement (`Running demo.CartTest`) and its own count (`Tests run:
/// 10, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.04 s - in
/// demo.CartTest`) read as passing tests' lines: the totals say the same.
/// A class that failed keeps both.
pub fn surefire_classes(contents: &[&str]) -> SurefireClasses {
    let mut classes = SurefireClasses::default();
    let has_totals = contents.iter().any(|c| {
        let t = maven_body(c);
        t.starts_with("Tests run:") && !t.has(" - in ")
    });
    if !has_totals {
        return classes;
    }
    for (i, c) in contents.iter().enumerate() {
        let Some((counts, class)) = maven_body(c)
            .strip_prefix("Tests run:")
            .and_then(|rest| rest.rsplit_around(" - in "))
        else {
            continue;
        };
        let passed = counts.has("Failures: 0,") && counts.has("Errors: 0,");
        let announced = format!("Running {}", class.trim_ascii());
        let announcement = (0..i)
            .rev()
            .find(|&j| !contents[j].trim_ascii().is_empty())
            .filter(|&j| maven_body(contents[j]) == announced);
        if passed {
            classes.passed.push(i);
            classes.passed.extend(announcement);
        } else {
            classes.failed_announcements.extend(announcement);
        }
    }
    classes
}

/// A Maven line without its level (`[INFO] `, `[ERROR] `, `[WARNING] `).
fn maven_body(line: &str) -> &str {
    let t = line.trim_ascii();
    t.strip_prefix('[')
        .and_then(|rest| rest.split_around("] "))
        .filter(|(level, _)| !level.is_empty() && level.bytes().all(|b| b.is_ascii_uppercase()))
        .map_or(t, |(_, body)| body.trim_ascii_start())
}

#[cfg(test)]
mod tests {
    use super::{SurefireClasses, is_passing_test, surefire_classes};

    #[test]
    fn a_passed_or_skipped_tests_line_is_not_a_failure_whatever_its_title() {
        for line in [
            "SKIP Bug #39780 (PNG image with CRC/data error raises a fatal error) [ext/gd/tests/bug39780_extern.phpt] reason: requires extern GD",
            "XFAIL Test open_basedir configuration [tests/security/open_basedir_linkinfo.phpt]   XFAIL REASON: BUG: open_basedir cannot delete symlink",
            "PASS src/utils/handled-error.test.js",
            "PASS: t/error-paths",
            "[info] - client rejects illegal trailer with an exception",
            "      #1:                                     OK (0.02s)",
            "    parses an error header:                   OK",
        ] {
            assert!(is_passing_test(line), "{line}");
        }
        for line in [
            "      #2:                                     FAIL (0.03s)",
            "Status: OK then error",
            "FAIL Bug #39780 (fatal error) [ext/gd/tests/bug39780.phpt]",
            "PASS",
            "SKIPPING the error check",
            "[info] - stream via ResponseProxy class *** FAILED ***",
        ] {
            assert!(!is_passing_test(line), "{line}");
        }
    }

    #[test]
    fn each_runners_passing_line() {
        for line in [
            "test markers::tests::failure_exits ... ok",
            "test_parse (tests.test_http.ParseTest.test_parse) ... ok",
            "tests/test_x.py::test_error_message PASSED                      [ 10%]",
            "--- PASS: TestAdd (0.00s)",
            "=== RUN   TestAdd",
            "  ✓ adds numbers (3 ms)",
            "✔ parses an empty file (0.52ms)",
            "ok 3 - adds numbers",
            "  [+] Adds numbers 12ms (10ms|2ms)",
            "  Passed Adds_numbers [3 ms]",
            "        PASS [   0.003s] ghost-types tests::round_trip",
            "demo.CalcTest > adds PASSED",
            "InventoryTest#test_add_item_1 = 0.00 s = .",
            "InventoryTest#test_later = 0.00 s = S",
        ] {
            assert!(is_passing_test(line), "{line}");
        }
    }

    #[test]
    fn failures_skips_and_summaries_are_not_passing_lines() {
        for line in [
            "test a::b ... FAILED",
            "test a::b ... ignored",
            "InventoryTest#test_names = 0.00 s = F",
            "InventoryTest#test_missing = 0.00 s = E",
            "a = b = .",
            "tests/test_x.py::test_y FAILED                                 [ 20%]",
            "--- FAIL: TestAdd (0.00s)",
            "✕ adds numbers (3 ms)",
            "not ok 4 - subtracts",
            "ok 5 - later # SKIP no network",
            "[-] Subtracts 3ms",
            "Failed Subtracts [3 ms]",
            "test result: ok. 14 passed; 0 failed; 0 ignored",
            "ok      example.com/pkg     0.003s",
            "demo.CalcTest > adds FAILED",
            "PASSED",
        ] {
            assert!(!is_passing_test(line), "{line}");
        }
    }

    #[test]
    fn surefire_classes_that_passed_are_passing_lines_when_the_run_has_totals() {
        let run = [
            "[INFO] Running demo.CartTest",
            "[INFO] Tests run: 10, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.04 s - in demo.CartTest",
            "[INFO] Running demo.PriceTest",
            "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.01 s <<< FAILURE! - in demo.PriceTest",
            "[INFO] Results:",
            "[ERROR] Tests run: 13, Failures: 1, Errors: 0, Skipped: 0",
        ];
        assert_eq!(
            surefire_classes(&run),
            SurefireClasses {
                passed: vec![1, 0],
                failed_announcements: vec![2],
            }
        );
        // Without totals, a class's count is all the run says.
        assert_eq!(surefire_classes(&run[..4]), SurefireClasses::default());
    }
}
