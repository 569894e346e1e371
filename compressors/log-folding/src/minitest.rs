//! Ruby's minitest (and Rails' test runner, which prints through it): its
//! counts and every failing test by name with its first message line, read
//! only once its summary shows the log is its output (`Failure:` alone
//! proves nothing).
//!
//! ```text
//!   2) Failure:
//! InventoryTest#test_names [inventory_test.rb:17]:
//! Expected: ["a", "b", "c"]
//!   Actual: ["a", "b"]
//!
//!   3) Error:
//! InventoryTest#test_negative:
//! ArgumentError: negative count for x
//!
//! 35 runs, 32 assertions, 2 failures, 2 errors, 1 skips
//! ```
//!
//! Rails prints `Failure:` and `Error:` without the number. A skipped
//! test's block (`Skipped:`, under `--verbose`) is no failure.

use crate::runners::next_message;
use crate::search::Search;
use crate::testrun::{TestReport, count, count_before};

/// Most lines between a failing test's name and its message.
const MESSAGE_WITHIN: usize = 3;

/// Reads minitest's output out of `lines` into `r`.
pub fn read(lines: &[&str], r: &mut TestReport) {
    let mut summaries = 0;
    let mut failures: Vec<(usize, &str, Option<String>)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        // Cheap tests first: this reads every line of every log.
        let t = line.trim_ascii_end();
        if t.ends_with(" skips") {
            if let Some((runs, failed, skipped)) = summary(t) {
                summaries += 1;
                r.add_summary(runs, failed, skipped);
            }
        } else if (t.ends_with("Failure:") || t.ends_with("Error:"))
            && let Some(name) = failure_header(t, lines.get(i + 1))
        {
            let message = next_message(&lines[(i + 2).min(lines.len())..], MESSAGE_WITHIN);
            failures.push((i, name, message));
        }
    }
    if summaries == 0 {
        return;
    }
    r.saw("minitest");
    for (header, name, message) in failures {
        r.add_failure(header + 1, name, message);
        r.failure_lines.insert(header);
    }
}

/// `35 runs, 32 assertions, 2 failures, 2 errors, 1 skips` → (runs,
/// failures and errors, skips).
fn summary(t: &str) -> Option<(u64, u64, u64)> {
    if !t.has(" runs, ") && !t.has(" run, ") || !t.has(" assertion") {
        return None;
    }
    let runs = count_before(t, " run")?;
    let failed = count_before(t, " failure")? + count_before(t, " error")?;
    let skipped = count_before(t, " skip")?;
    Some((runs, failed, skipped))
}

/// The failing test a `  1) Failure:` or `Error:` line announces: its name
/// on the next line (`Class#test_name [file.rb:12]:` or `Class#test_name:`).
fn failure_header<'a>(t: &str, next: Option<&&'a str>) -> Option<&'a str> {
    let label = t.trim_ascii_start();
    let label = match label.split_around(") ") {
        Some((n, rest)) if count(n).is_some() => rest,
        _ => label,
    };
    if label != "Failure:" && label != "Error:" {
        return None;
    }
    let name = next?.trim_ascii_end().strip_suffix(':')?;
    let name = name.split_around(" [").map_or(name, |(name, _)| name);
    let (class, test) = name.split_around("#")?;
    let plain = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
    (plain(class) && plain(test)).then_some(name)
}

#[cfg(test)]
mod tests {
    use crate::testrun::parse_log as report;

    /// minitest 5.15's own output (Ruby 3.1), a run with every outcome.
    const RUN: &str = "Run options: --seed 23660

# Running:

............E.F.EF........S........

Finished in 0.002414s, 14497.5201 runs/s, 13254.8755 assertions/s.

  1) Error:
InventoryTest#test_missing:
NoMethodError: undefined method `lookup' for #<Inventory:0x00007f79572c0f38 @items={}>

  def test_missing; assert_nil @inv.lookup(\"nope\"); end
                                   ^^^^^^^
    inventory_test.rb:19:in `test_missing'

  2) Failure:
InventoryTest#test_names [inventory_test.rb:17]:
Expected: [\"a\", \"b\", \"c\"]
  Actual: [\"a\", \"b\"]

  3) Error:
InventoryTest#test_negative:
ArgumentError: negative count for x
    inventory_test.rb:5:in `add'
    inventory_test.rb:18:in `test_negative'

  4) Failure:
InventoryTest#test_total [inventory_test.rb:16]:
Expected: 6
  Actual: 5

35 runs, 32 assertions, 2 failures, 2 errors, 1 skips

You have skipped tests. Run with --verbose for details.
";

    #[test]
    fn counts_and_names_every_failing_test_with_its_message() {
        let r = report(RUN);
        assert_eq!(r.runners, vec!["minitest"]);
        assert_eq!((r.passed, r.failed, r.skipped), (30, 4, 1));
        let failures: Vec<(&str, Option<&str>)> = r
            .failures
            .iter()
            .map(|f| (f.name.as_str(), f.message.as_deref()))
            .collect();
        assert_eq!(
            failures,
            vec![
                (
                    "InventoryTest#test_missing",
                    Some(
                        "NoMethodError: undefined method `lookup' for #<Inventory:0x00007f79572c0f38 @items={}>"
                    )
                ),
                (
                    "InventoryTest#test_names",
                    Some("Expected: [\"a\", \"b\", \"c\"]")
                ),
                (
                    "InventoryTest#test_negative",
                    Some("ArgumentError: negative count for x")
                ),
                ("InventoryTest#test_total", Some("Expected: 6")),
            ]
        );
        // Each header and the test's name under it.
        assert_eq!(
            r.failure_lines.iter().copied().collect::<Vec<_>>(),
            vec![8, 9, 16, 17, 21, 22, 27, 28]
        );
    }

    #[test]
    fn rails_headers_have_no_number_and_skips_are_no_failures() {
        let r = report(
            "Failure:\nCartTest#test_count [test/models/cart_test.rb:87]:\nExpected: 2\n  Actual: 3\n\nbin/rails test test/models/cart_test.rb:85\n\n  1) Skipped:\nCartTest#test_later [test/models/cart_test.rb:90]:\nwaiting\n\n12 runs, 11 assertions, 1 failures, 0 errors, 1 skips\n",
        );
        assert_eq!((r.passed, r.failed, r.skipped), (10, 1, 1));
        assert_eq!(r.failures.len(), 1);
        assert_eq!(r.failures[0].name, "CartTest#test_count");
    }

    #[test]
    fn a_failure_header_without_minitest_summary_is_not_read() {
        // ExUnit numbers its failures too, and a script may print `Error:`.
        let r = report("  1) Failure:\nA#b [x.rb:1]:\nboom\n\nError:\nnothing#here:\n");
        assert!(r.runners.is_empty());
        assert!(r.failures.is_empty());
    }
}
