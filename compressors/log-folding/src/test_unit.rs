//! Ruby's Test::Unit (the `test-unit` gem bundled with Ruby): its counts
//! and every failing test by name with its message, read only once its
//! summary shows the log is its output.
//!
//! ```text
//! Error: test_coupon(TestCart):
//!   NoMethodError: undefined method `apply_coupon' for #<Cart …>
//! test_cart.rb:20:in `test_coupon'
//! ===============================================================================
//! Failure: test_total(TestCart)
//! test_cart.rb:12:in `test_total'
//!      11:   def test_total
//!   => 12:     assert_equal(7, Cart.new.add('a', 3).add('b', 5).total)
//! <7> expected but was
//! <8>
//! ===============================================================================
//! 4 tests, 3 assertions, 2 failures, 1 errors, 0 pendings, 0 omissions, 0 notifications
//! ```
//!
//! Its summary looks like ExUnit's (`4 tests, 2 failures`) but counts
//! assertions, errors, pendings and omissions too.

use crate::search::Search;
use crate::testrun::{TestReport, count_before};

/// Most lines between a failing test's header and its message (the
/// location and the code around it come first).
const MESSAGE_WITHIN: usize = 16;

/// Reads Test::Unit's output out of `lines` into `r`.
pub fn read(lines: &[&str], r: &mut TestReport) {
    let mut summaries = 0;
    let mut failures: Vec<(usize, &str)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        // Cheap tests first: this reads every line of every log.
        let t = line.trim_ascii_end();
        if t.ends_with(" notifications") || t.ends_with(" notification") {
            if let Some((tests, failed, skipped)) = summary(t) {
                summaries += 1;
                r.add_summary(tests, failed, skipped);
            }
        } else if (t.starts_with("Failure: ") || t.starts_with("Error: "))
            && let Some(name) = failure_name(t)
        {
            failures.push((i, name));
        }
    }
    if summaries == 0 {
        return;
    }
    r.saw("Test::Unit");
    for (header, name) in failures {
        r.add_failure(header, name, message(&lines[header + 1..]));
    }
}

/// `4 tests, 3 assertions, 2 failures, 1 errors, 0 pendings, 0 omissions,
/// 0 notifications` → (tests, failures and errors, pendings and omissions).
fn summary(t: &str) -> Option<(u64, u64, u64)> {
    if !t.has(" assertion") || !t.has(" pending") || !t.has(" omission") {
        return None;
    }
    let tests = count_before(t, " test")?;
    let failed = count_before(t, " failure")? + count_before(t, " error")?;
    let skipped = count_before(t, " pending")? + count_before(t, " omission")?;
    Some((tests, failed, skipped))
}

/// The test a `Failure: test_x(Class)` or `Error: test_x(Class):` line
/// names (a `test "does x"` block's name has spaces: `test: does x(Class)`).
fn failure_name(t: &str) -> Option<&str> {
    let (_, name) = t.split_around(": ")?;
    let name = name.strip_suffix(':').unwrap_or(name);
    let (test, class) = name.strip_suffix(')')?.split_around("(")?;
    let plain = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
    (!test.trim_ascii().is_empty() && plain(class)).then_some(name)
}

/// A failing test's message: the first line of its block that is neither
/// where it failed (`test_x.rb:12:in …`) nor the code printed around it
/// (`  => 12: …`, `     11: …`).
fn message(block: &[&str]) -> Option<String> {
    block
        .iter()
        .take(MESSAGE_WITHIN)
        .map(|l| l.trim_ascii())
        .take_while(|l| !l.starts_with("====="))
        .find(|l| !l.is_empty() && !is_location(l) && !is_code_line(l))
        .map(str::to_string)
}

/// `test_cart.rb:12:in `test_total'`.
fn is_location(l: &str) -> bool {
    l.has(".rb:") && l.has(":in ")
}

/// `=> 12:     assert_equal(…)` or `11:   def test_total`.
fn is_code_line(l: &str) -> bool {
    let l = l.strip_prefix("=>").unwrap_or(l).trim_ascii_start();
    l.split_around(":")
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use crate::testrun::parse_log as report;

    /// test-unit 3.5.3's own output (Ruby 3.1): an error and two failures.
    const RUN: &str = "Loaded suite test_cart
Started
E
===============================================================================
Error: test_coupon(TestCart):
  NoMethodError: undefined method `apply_coupon' for #<Cart:0x00007f72ac725b70 @items=[]>
  
      Cart.new.apply_coupon('TEN')
              ^^^^^^^^^^^^^
test_cart.rb:20:in `test_coupon'
     17:   end
     18: 
     19:   def test_coupon
  => 20:     Cart.new.apply_coupon('TEN')
     21:   end
===============================================================================
.F
===============================================================================
Failure: test_names(TestCart)
test_cart.rb:16:in `test_names'
     15:   def test_names
  => 16:     assert_equal(%w[apple pear], Cart.new.add('pear', 1).add('fig', 2).names)
     17:   end
<[\"apple\", \"pear\"]> expected but was
<[\"fig\", \"pear\"]>
===============================================================================
F
===============================================================================
Failure: test: totals add up(TestCart)
test_cart.rb:12:in `block in <class:TestCart>'
  => 12:     assert_equal(7, Cart.new.add('a', 3).add('b', 5).total)
<7> expected but was
<8>
===============================================================================

Finished in 0.016022191 seconds.
-------------------------------------------------------------------------------
4 tests, 3 assertions, 2 failures, 1 errors, 0 pendings, 0 omissions, 0 notifications
25% passed
";

    #[test]
    fn counts_and_names_every_failing_test_with_its_message() {
        let r = report(RUN);
        assert_eq!(r.runners, vec!["Test::Unit"]);
        assert_eq!((r.passed, r.failed, r.skipped), (1, 3, 0));
        let failures: Vec<(&str, Option<&str>)> = r
            .failures
            .iter()
            .map(|f| (f.name.as_str(), f.message.as_deref()))
            .collect();
        assert_eq!(
            failures,
            vec![
                (
                    "test_coupon(TestCart)",
                    Some(
                        "NoMethodError: undefined method `apply_coupon' for #<Cart:0x00007f72ac725b70 @items=[]>"
                    )
                ),
                (
                    "test_names(TestCart)",
                    Some("<[\"apple\", \"pear\"]> expected but was")
                ),
                (
                    "test: totals add up(TestCart)",
                    Some("<7> expected but was")
                ),
            ]
        );
    }

    #[test]
    fn its_summary_is_not_read_as_exunits() {
        // ExUnit's summary has tests and failures too, but no assertions.
        let r = report(
            "4 tests, 3 assertions, 2 failures, 1 errors, 0 pendings, 1 omissions, 0 notifications\n",
        );
        assert_eq!(r.runners, vec!["Test::Unit"]);
        assert_eq!((r.passed, r.failed, r.skipped), (0, 3, 1));
        let r = report("Finished in 0.04 seconds (0.00s async, 0.04s sync)\n5 tests, 2 failures\n");
        assert_eq!(r.runners, vec!["mix test"]);
        assert_eq!((r.passed, r.failed, r.skipped), (3, 2, 0));
    }

    #[test]
    fn failure_headers_without_its_summary_are_not_read() {
        let r = report("Failure: test_x(A)\nboom\nError: connect(db):\nrefused\n");
        assert!(r.runners.is_empty());
        assert!(r.failures.is_empty());
    }
}
