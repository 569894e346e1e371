//! What a runner prints under a failing test that names no error and
//! indents nothing: its message and its trace as places. PHPUnit prints
//! `1) Count_test::test_count_all`, the message, a blank line, then one
//! place per frame (`/build/tests/count_test.php:12`), its own frames
//! already left out; Pester 5 prints `[-] name`, `Expected: …`,
//! `Actual  : …`, then `at Verify-Equal, /src/Verify-Equal.ps1:16`, every
//! line followed by a blank one. Where the agent goes next is in those
//! places, and what went wrong in the message.
//!
//! The failing test's lines run from its announcement to the next failing
//! or passing test's, or to two blank lines in a row (a single blank line
//! parts the message from the trace, and a double-spaced log puts one
//! after every line). When they hold a trace, the frames any trace keeps
//! stay (see [`crate::trace`]; the others are left to the usual rules)
//! and the lines above it, its message, stay too, up to
//! [`MESSAGE_BODY_AT_MOST`] non-blank lines, as an indented body does.
//! Without a trace nothing changes: an indented
//! body is [`crate::fold`]'s to keep.

use crate::search::Search;

use std::collections::BTreeSet;

use rustc_hash::FxHashSet;

use crate::fold::{self, MESSAGE_BODY_AT_MOST};
use crate::markers::{self, is_library_path};
use crate::pytest_tb::Role;
use crate::trace;

/// Most lines after a failing test's announcement read for its trace (a
/// message may be a long diff).
const SPAN_AT_MOST: usize = 200;

/// What the failing tests' lines hold (see the module's doc).
#[derive(Debug, Clone, Default)]
pub struct FailureTraces {
    /// Every line's role: `Kept` for the frames of a trace that stay,
    /// `Whole` for the others when the log affords them, `Other`
    /// elsewhere (the other frames are left to the usual rules: in a
    /// failing step's last lines they stay too).
    pub roles: Vec<Role>,
    /// The message lines above each trace, to keep (an error among them
    /// stays an error: it is counted, and a repeat of one above folds).
    pub messages: Vec<usize>,
    /// The lines right after each trace's last frame, up to
    /// [`AFTER_TRACE_LINES`] of them but blank ones, and not past the
    /// next test's announcement: what a runner or a task says as it
    /// gives up (rake's `Tasks: TOP => db:migrate`) is near the error
    /// the trace belongs to.
    pub after: Vec<usize>,
}

/// Most lines read as said right after a trace (see
/// [`FailureTraces::after`]).
const AFTER_TRACE_LINES: usize = 3;

/// Reads the lines each failing test printed. `failure_lines` are the
/// lines announcing a failing test; `passing` says which lines are a
/// passing test's; `allowance` is what the log affords of whole traces.
pub fn find(
    contents: &[&str],
    failure_lines: &BTreeSet<usize>,
    folded_cases: &BTreeSet<usize>,
    passing: &[bool],
    allowance: &mut trace::Allowance,
) -> FailureTraces {
    let announced = |j: usize| failure_lines.contains(&j) || folded_cases.contains(&j);
    let mut ends: Vec<usize> = Vec::new();
    let mut found = FailureTraces {
        roles: vec![Role::Other; contents.len()],
        messages: Vec::new(),
        after: Vec::new(),
    };
    // The frames of the announced traces, whatever their roles: no
    // unannounced trace is read inside one.
    let mut in_trace: FxHashSet<usize> = FxHashSet::default();
    for &start in failure_lines {
        let end = span_end(contents, start, &announced, passing);
        // A trace holds a frame naming a place; it starts at the frames
        // right above that one (the runner's own, naming none). A failure
        // may print more than one run of frames: PHPUnit's trace comes
        // after its message, whose diff may hold a place of its own, and
        // a JVM's `Caused by:` starts another: each is a trace.
        let mut from = start + 1;
        let mut message_end = None;
        while let Some(mut first) =
            (from..end).find(|&j| frame_path(contents[j]).is_some_and(|p| p.is_some()))
        {
            while first > from && frame_path(contents[first - 1]).is_some() {
                first -= 1;
            }
            message_end.get_or_insert(first);
            // The trace: frames, blank lines between them allowed; a frame
            // naming no place of the project (`in <3cae…>:0`, a runtime's
            // wrapper) is the runtime's.
            let mut frames: Vec<(usize, bool)> = Vec::new();
            from = end;
            for (j, c) in contents.iter().enumerate().take(end).skip(first) {
                if c.trim_ascii().is_empty() {
                    continue;
                }
                let Some(path) = frame_path(c) else {
                    from = j;
                    break;
                };
                frames.push((j, path.is_none_or(is_library_path)));
            }
            mark_trace(contents, &frames, allowance, &mut found.roles);
            in_trace.extend(frames.iter().map(|&(j, _)| j));
            ends.extend(frames.last().map(|&(j, _)| j + 1));
        }
        let Some(message_end) = message_end else {
            continue;
        };
        found.messages.extend(
            (start + 1..message_end)
                .filter(|&j| !contents[j].trim_ascii().is_empty())
                .take(MESSAGE_BODY_AT_MOST),
        );
    }
    mark_unannounced_traces(contents, &in_trace, allowance, &mut found.roles, &mut ends);
    for end in ends {
        found.after.extend(
            (end..contents.len())
                .take_while(|&j| !announced(j) && !passing[j])
                .filter(|&j| !contents[j].trim_ascii().is_empty())
                .take(AFTER_TRACE_LINES),
        );
    }
    found
}

/// Fewest frames in a row that make a trace no failing test announced.
const UNANNOUNCED_TRACE_AT_LEAST: usize = 3;

/// Marks the traces no runner announced: [`UNANNOUNCED_TRACE_AT_LEAST`]
/// or more frames in a row, each `at …` (JavaScript's `error.stack`, the
/// JVM's and .NET's traces) or Ruby's (see [`ruby_frame_path`]), as a
/// project's own test script or a crash prints them.
fn mark_unannounced_traces(
    contents: &[&str],
    in_trace: &FxHashSet<usize>,
    allowance: &mut trace::Allowance,
    roles: &mut [Role],
    ends: &mut Vec<usize>,
) {
    let mut j = 0;
    while j < contents.len() {
        let mut frames: Vec<(usize, bool)> = Vec::new();
        while j < contents.len()
            && roles[j] == Role::Other
            && (contents[j].trim_ascii_start().starts_with("at ")
                || ruby_frame_path(contents[j].trim_ascii()).is_some())
            && !in_trace.contains(&j)
        {
            match frame_path(contents[j]) {
                Some(path) => frames.push((j, path.is_none_or(is_library_path))),
                None => break,
            }
            j += 1;
        }
        if frames.len() >= UNANNOUNCED_TRACE_AT_LEAST {
            mark_trace(contents, &frames, allowance, roles);
            ends.push(j);
        }
        j += 1;
    }
}

/// Marks the frames of a trace printed innermost first (each line and
/// whether it is library code) by the trace's rule.
fn mark_trace(
    contents: &[&str],
    frames: &[(usize, bool)],
    allowance: &mut trace::Allowance,
    roles: &mut [Role],
) {
    // The trace's rule reads outermost first.
    let library: Vec<bool> = frames.iter().rev().map(|f| f.1).collect();
    let bytes: Vec<usize> = frames
        .iter()
        .rev()
        .map(|&(j, _)| contents[j].len())
        .collect();
    let frame_roles = trace::frame_roles(&library, &bytes, allowance);
    for (&(j, _), role) in frames.iter().rev().zip(frame_roles) {
        roles[j] = role;
    }
}

/// Where the failing test announced at `start` stops printing.
fn span_end(
    contents: &[&str],
    start: usize,
    announced: &impl Fn(usize) -> bool,
    passing: &[bool],
) -> usize {
    let limit = (start + 1 + SPAN_AT_MOST).min(contents.len());
    let mut blank_run = 0;
    for j in start + 1..limit {
        if announced(j) || passing[j] {
            return j;
        }
        if contents[j].trim_ascii().is_empty() {
            blank_run += 1;
            if blank_run == 2 {
                return j - 1;
            }
        } else {
            blank_run = 0;
        }
    }
    limit
}

/// Whether a line is a frame, and the path of the place it names if any:
/// Erlang's `in call from m:f/1 (m.erl, line 5)`, a place alone
/// (PHPUnit's `/build/tests/count_test.php:12`), a
/// function and its place (Pester's `at Verify-Equal,
/// /src/Verify-Equal.ps1:16`), or a stack frame as .NET, Mono and
/// JavaScript print them (`at A.B () [0x00031] in /src/B.cs:16`, `at
/// A.B() in /src/B.cs:line 16`, `at f (/app/x.js:1:2)`), naming its
/// function, whose place counts only with a folder in it (`in
/// <3cae…>:0` names none, nor does the JVM's `B.java:12`).
pub(crate) fn frame_path(content: &str) -> Option<Option<&str>> {
    let t = content.trim_ascii();
    // Erlang: `in function cart:total/1 (cart.erl, line 5)` and `in call
    // from …`, a runtime's function without a place (`in function
    // erlang:list_to_integer/1`).
    if let Some(call) = t
        .strip_prefix("in function ")
        .or_else(|| t.strip_prefix("in call from "))
    {
        let place = call
            .strip_suffix(')')
            .and_then(|c| c.rsplit_around(" ("))
            .and_then(|(_, place)| place.split_around(", line "))
            .filter(|(_, line)| !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()));
        return Some(place.map(|(path, _)| path));
    }
    if let Some(path) = ruby_frame_path(t) {
        return Some(Some(path));
    }
    let pester_place = t
        .strip_prefix("at ")
        .and_then(|rest| rest.rsplit_around(", "))
        .and_then(|(_, place)| place_path(place));
    if let Some(path) = pester_place.or_else(|| place_path(t)) {
        return Some(Some(path));
    }
    // Rust prints a frame's place under its name (`   3: app::main`, then
    // `at /src/main.rs:4:5`): that line alone is no frame.
    let named = t
        .strip_prefix("at ")
        .is_some_and(|rest| !rest.starts_with(['/', '.']));
    if !named || !fold::is_stack_frame(content) {
        return None;
    }
    let place = match t.rsplit_around(" in ") {
        Some((_, place)) => place.trim_ascii(),
        None => t
            .strip_suffix(')')
            .and_then(|s| s.rsplit_around("(").map(|(_, p)| p))
            .unwrap_or_else(|| t.rsplit(' ').next().unwrap_or(t)),
    };
    let place = place
        .rsplit_around(":line ")
        .map_or(place, |(path, _)| path);
    let path = trace::without_line_and_column(place);
    Some(path.has("/").then_some(path))
}

/// The path of a Ruby frame's place: `/app/lib/cart.rb:12:in `total'`
/// (`'Cart#total'` from Ruby 3.4), led by `from ` in an uncaught
/// exception's trace and by `# ` in RSpec's; a script without an
/// extension counts too (`bin/rails:4:in `<main>'`).
pub(crate) fn ruby_frame_path(t: &str) -> Option<&str> {
    // (Every line of a log is asked: a frame ends with the function's
    // closing quote, looked at before any search. The exception's own
    // line, `app.rb:2:in 'f': message (Error)`, is no frame.)
    if !t.ends_with('\'') {
        return None;
    }
    let t = t
        .strip_prefix("from ")
        .or_else(|| t.strip_prefix("# "))
        .unwrap_or(t);
    let (place, function) = t.split_around(":in ")?;
    let (path, line) = place.rsplit_around(":")?;
    let is_frame = function.starts_with(['`', '\''])
        && !path.is_empty()
        && !path.has(" ")
        && !line.is_empty()
        && line.bytes().all(|b| b.is_ascii_digit());
    is_frame.then_some(path)
}

/// The path of a place with a line number (`/build/tests/count_test.php:12`).
fn place_path(place: &str) -> Option<&str> {
    let path = place.rsplit_around(":")?.0;
    let line = &place[path.len() + 1..];
    let is_place = !place.has(" ")
        && !line.is_empty()
        && line.bytes().all(|b| b.is_ascii_digit())
        && markers::has_source_location(place);
    is_place.then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find_in(text: &str, failing: &[usize]) -> FailureTraces {
        let contents: Vec<&str> = text.lines().collect();
        let passing = vec![false; contents.len()];
        find(
            &contents,
            &failing.iter().copied().collect(),
            &BTreeSet::new(),
            &passing,
            &mut trace::Allowance::none(),
        )
    }

    #[test]
    fn a_trace_no_runner_announced_is_read_as_a_trace() {
        // A project's own test script prints `error.stack`: the frames
        // any trace keeps stay; a line or two of `at` is no trace.
        let mut lines = vec!["AssertionError: expected 1 to be 2".to_string()];
        for k in 0..10 {
            lines.push(format!("    at step{k} (/app/src/m{k}.js:{k}:3)"));
        }
        lines.push("    at Module._compile (node:internal/modules/cjs/loader:1256:14)".into());
        lines.push("at least one test failed".into());
        let text = lines.join("\n");
        let r = find_in(&text, &[]).roles;
        let kept: Vec<usize> = (0..r.len()).filter(|&j| r[j] == Role::Kept).collect();
        // Innermost first: the raising frame and the two under it, then
        // where the project's code was entered (the outermost own frame).
        assert_eq!(kept, vec![1, 2, 3, 10]);
        assert_eq!(r[12], Role::Other);
        assert!(
            find_in("  at a (/app/a.js:1:1)\n  at b (/app/b.js:1:1)", &[])
                .roles
                .iter()
                .all(|r| *r == Role::Other)
        );
    }

    #[test]
    fn phpunits_places_under_a_failing_test_are_its_trace() {
        let text = [
            "1) Count_test::test_count_all",
            "RuntimeException: Undefined property",
            "",
            "/build/tests/mocks/db.php:136",
            "/build/tests/count_test.php:12",
            "/build/vendor/phpunit/phpunit/src/TextUI/Command.php:149",
            "/build/tests/ci_testcase.php:351",
            "",
            "2) Delete_test::test_delete",
        ]
        .join("\n");
        let found = find_in(&text, &[0, 8]);
        assert_eq!(found.messages, vec![1]);
        let r = found.roles;
        assert_eq!(&r[3..5], &[Role::Kept, Role::Kept], "own frames");
        assert_eq!(r[5], Role::Other, "a vendored library's frame");
        assert_eq!(r[6], Role::Kept, "own, the outermost");
        assert_eq!(r[8], Role::Other);
    }

    #[test]
    fn every_run_of_frames_under_a_failure_is_a_trace() {
        // A place inside PHPUnit's diff is no trace's end: the trace
        // printed under the diff is read too.
        let text = [
            "1) CasterTest::testNoSrcContext",
            "Failed asserting that format description matches text.",
            "--- Expected",
            "+++ Actual",
            "@@ @@",
            "     ./src/Tests/CasterTest.php:28",
            "+    ./vendor/phpunit/src/TestCase.php:909",
            "",
            "/build/src/Test/VarDumperTestTrait.php:41",
            "/build/src/Tests/CasterTest.php:124",
            "",
            "2) CasterTest::testSeek",
        ]
        .join("\n");
        let found = find_in(&text, &[0, 11]);
        assert_eq!(found.messages, vec![1, 2, 3, 4]);
        assert_eq!(found.roles[5], Role::Kept);
        assert_eq!(&found.roles[8..10], &[Role::Kept, Role::Kept]);
        assert_eq!(found.after, vec![6, 8, 9]);
    }

    #[test]
    fn a_double_spaced_failure_keeps_its_expectation_and_frames() {
        let text = [
            "[-] runs all files -> Expected and actual values differ!",
            "",
            "Expected: '/tmp/dir/file1.Tests.ps1'",
            "",
            "Actual  : 'file1.Tests.ps1'",
            "",
            "at Verify-Equal, /src/Axiom/Verify-Equal.ps1:16",
            "",
            "at <ScriptBlock>, /src/Pester.RSpec.ts.ps1:184",
            "",
            "",
            "Starting test discovery in 2 files.",
            "at <ScriptBlock>, /src/other.ps1:3",
        ]
        .join("\n");
        let found = find_in(&text, &[0]);
        assert_eq!(found.messages, vec![2, 4]);
        let r = found.roles;
        for k in [6, 8] {
            assert_eq!(r[k], Role::Kept, "line {k}");
        }
        assert_eq!(r[11], Role::Other, "after two blank lines");
        assert_eq!(r[12], Role::Other);
    }

    #[test]
    fn rubys_frames_are_a_trace_and_what_follows_is_its_end() {
        // minitest's error under a failing test: the project's frames and
        // the innermost stay, the gems' are left to the usual rules, once
        // (no unannounced trace is read again inside it); rake's last
        // words follow the trace.
        let mut lines = vec![
            "Error:".to_string(),
            "DbsTest#test_migrate:".to_string(),
            "NameError: undefined local variable or method `type_metadata'".to_string(),
            "/app/lib/type_metadata.rb:22:in `deduplicated'".to_string(),
        ];
        for k in 0..4 {
            lines.push(format!(
                "/home/ci/.rvm/gems/ruby-2.5.3/gems/minitest-5.11.3/lib/minitest/test.rb:{k}:in `run'"
            ));
        }
        lines.push("test/dbs_test.rb:164:in `block in <class:DbsTest>'".into());
        lines.push("Tasks: TOP => db:migrate".into());
        let text = lines.join("\n");
        let found = find_in(&text, &[1]);
        let r = &found.roles;
        assert_eq!(found.messages, vec![2]);
        assert_eq!(r[3], Role::Kept, "the innermost");
        assert!(r[4..8].iter().all(|r| *r == Role::Other), "{r:?}");
        assert_eq!(r[8], Role::Kept, "own, the outermost");
        assert_eq!(r[9], Role::Other);
        assert_eq!(found.after, vec![9]);
    }

    #[test]
    fn an_uncaught_ruby_exceptions_trace_needs_no_runner() {
        let text = [
            "/app/lib/cart.rb:12:in 'Cart#total': undefined method 'price' (NoMethodError)",
            "\tfrom /app/lib/cart.rb:30:in 'Cart#checkout'",
            "\tfrom /usr/lib/ruby/3.4.0/forwardable.rb:240:in 'checkout'",
            "\tfrom bin/shop:4:in '<main>'",
            "done",
        ]
        .join("\n");
        let found = find_in(&text, &[]);
        assert_eq!(&found.roles[1..4], &[Role::Kept, Role::Other, Role::Kept]);
        assert_eq!(found.after, vec![4]);
        assert_eq!(ruby_frame_path("bin/shop:4:in '<main>'"), Some("bin/shop"));
        assert_eq!(
            ruby_frame_path("# ./spec/a_spec.rb:9:in `block (2 levels)'"),
            Some("./spec/a_spec.rb")
        );
        assert_eq!(ruby_frame_path("note: see a.rb:3:in here"), None);
    }

    #[test]
    fn a_failure_without_a_trace_is_left_to_the_usual_rules() {
        let text = ["not ok 1 adds", "  ---", "  expected: 3", "  ..."].join("\n");
        let found = find_in(&text, &[0]);
        assert!(found.roles.iter().all(|r| *r == Role::Other));
        assert!(found.messages.is_empty());
    }
}
