//! Test reports written as XML (pytest's `--junitxml`, Maven surefire's and
//! Gradle's `TEST-*.xml`, jest-junit, mocha's xunit reporter, Node's junit
//! reporter, libtest's `--format junit`, NUnit's `TestResult.xml`): read as
//! the test results they are, not as markup to outline.
//!
//! A report is any XML holding test cases (`testcase`, `test-case`); the
//! documents may follow one another (libtest prints one per test binary,
//! `cat reports/*.xml` many). Each case's outcome is told by its children
//! (`<failure>`, `<error>`, `<skipped>`) or its own `result`, `outcome` or
//! `status` attribute (NUnit's `result="Failure"`, `executed="False"`).
//!
//! The rendering keeps what a person reads a report for:
//! - a header counting the outcomes;
//! - every failing or erroring test by its full name, with its message and
//!   its report (the traceback or assertion text), folded as a log is;
//! - every skipped test with its reason while they are few, else each
//!   reason with its count;
//! - the passing tests by name, grouped by class, while they are few (or
//!   fit the budget), else each class with its count;
//!
//! and drops what only a machine reads: timings, host names, properties,
//! the output a test captured (its line count is said).

use std::collections::BTreeMap;

use crate::fold::thousands;
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// Passing tests listed by name at most, unless a budget affords more.
pub const PASSING_NAMES_LISTED: usize = 100;

/// Skipped tests listed each with its reason at most; more are counted by
/// reason.
const SKIPPED_LISTED: usize = 20;

/// Classes passing tests are counted by at most: with more, they are
/// counted by module.
const PASSING_GROUPS_AT_MOST: usize = 12;

/// Classes (or reasons) shown with their counts at most; the rest are
/// counted together.
const GROUPS_SHOWN: usize = 40;

/// Lines outside the report's elements (a runner's own output around it)
/// kept at most; a text with more is a log with XML in it, not a report.
const OUTSIDE_LINES_AT_MOST: usize = 20;

/// What became of one test case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Ran and passed.
    Passed,
    /// An assertion failed.
    Failed,
    /// The test raised or crashed outside its assertions.
    Errored,
    /// Not run (skipped, ignored, disabled).
    Skipped,
}

/// One test case of a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// Its class, module or enclosing suite (`classname`, else the suite's
    /// name); may be empty.
    pub class: String,
    /// Its own name, as the report gives it.
    pub name: String,
    /// What became of it.
    pub outcome: Outcome,
    /// The failure's, error's or skip's message, when the report gives one.
    pub message: Option<String>,
    /// The failure's or error's report (traceback, assertion text).
    pub detail: String,
    /// Lines of output the test captured (`system-out`, `system-err`).
    pub captured_lines: usize,
    /// That output, kept while the case is read; shown for a failing
    /// test, whose evidence it often is (libtest puts a panic's message
    /// there).
    pub captured: String,
}

impl Case {
    /// Its name with its class, unless the name says its class already.
    pub fn full_name(&self) -> String {
        if self.class.is_empty() || self.name.contains(&self.class) {
            self.name.clone()
        } else {
            format!("{}::{}", self.class, self.name)
        }
    }
}

/// The test cases of `text`, and the lines outside its elements, when it
/// is XML holding at least one test case; `None` otherwise (not XML, not
/// well-formed, no test case).
pub fn parse(text: &str) -> Option<(Vec<Case>, Vec<String>)> {
    // Cheap refusal first: most texts are not reports.
    let bytes = text.as_bytes();
    let holds_a_case = memchr::memmem::find_iter(bytes, b"<test")
        .any(|at| bytes[at + 5..].starts_with(b"case") || bytes[at + 5..].starts_with(b"-case"));
    if !holds_a_case {
        return None;
    }
    let mut reader = Reader::from_str(text);
    let mut reading = Reading::default();
    loop {
        match reader.read_event().ok()? {
            Event::Start(e) => reading.start(&e),
            Event::Empty(e) => {
                let kind = kind_of(&e);
                reading.opened(&e, &kind);
                reading.closed(&kind);
            }
            Event::End(_) => reading.end()?,
            Event::Text(t) => reading.text(&t.xml10_content()),
            Event::CData(t) => reading.text(&t.xml10_content()),
            Event::GeneralRef(r) => {
                let name = r.xml10_content();
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => quick_xml::escape::resolve_predefined_entity(&name)
                        .map(str::to_string)
                        .unwrap_or_else(|| format!("&{name};")),
                };
                reading.text(&resolved);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    reading.finished()
}

/// What a report's reading knows so far.
#[derive(Default)]
struct Reading {
    /// The kinds of the elements open, outermost first.
    open: Vec<String>,
    /// The names of the suites open, outermost first.
    suites: Vec<String>,
    /// The cases read.
    cases: Vec<Case>,
    /// The case being read.
    current: Option<Case>,
    /// Text outside every element.
    outside: Vec<String>,
    /// How deep inside a `<failure>` or `<error>` the reading is: its text
    /// is the failure's report.
    in_detail: usize,
    /// How deep inside a `<system-out>` or `<system-err>`: the output the
    /// test captured.
    in_captured: usize,
}

impl Reading {
    /// An element opens, with children to come.
    fn start(&mut self, e: &BytesStart<'_>) {
        let kind = kind_of(e);
        self.opened(e, &kind);
        if self.current.is_some() {
            match kind.as_str() {
                "failure" | "error" => self.in_detail += 1,
                "systemout" | "systemerr" | "output" => self.in_captured += 1,
                _ if self.in_detail > 0 => self.in_detail += 1,
                _ if self.in_captured > 0 => self.in_captured += 1,
                _ => {}
            }
        }
        self.open.push(kind);
    }

    /// The element open last closes; `None` when none is open (not
    /// well-formed).
    fn end(&mut self) -> Option<()> {
        let kind = self.open.pop()?;
        if self.in_detail > 0 {
            self.in_detail -= 1;
        } else {
            self.in_captured = self.in_captured.saturating_sub(1);
        }
        self.closed(&kind);
        Some(())
    }

    /// What an element opening means for the report.
    fn opened(&mut self, e: &BytesStart<'_>, kind: &str) {
        match kind {
            "testsuite" | "testsuites" | "testfixture" => {
                self.suites.push(attribute(e, "name").unwrap_or_default());
            }
            "testcase" => {
                if let Some(unfinished) = self.current.take() {
                    self.cases.push(unfinished);
                }
                let class = attribute(e, "classname")
                    .or_else(|| attribute(e, "class"))
                    .or_else(|| self.suites.iter().rev().find(|s| !s.is_empty()).cloned())
                    .unwrap_or_default();
                let name = attribute(e, "name")
                    .or_else(|| attribute(e, "fullname"))
                    .unwrap_or_default();
                self.current = Some(Case {
                    class,
                    name,
                    outcome: outcome_of_attributes(e),
                    message: None,
                    detail: String::new(),
                    captured_lines: 0,
                    captured: String::new(),
                });
            }
            "failure" | "error" | "skipped" | "ignored" | "disabled" => {
                if let Some(case) = self.current.as_mut() {
                    case.outcome = match kind {
                        "failure" => Outcome::Failed,
                        "error" => Outcome::Errored,
                        _ => Outcome::Skipped,
                    };
                    if case.message.is_none() {
                        case.message =
                            attribute(e, "message").filter(|m| !m.trim_ascii().is_empty());
                    }
                }
            }
            _ => {}
        }
    }

    /// What an element closing means for the report.
    fn closed(&mut self, kind: &str) {
        match kind {
            "testsuite" | "testsuites" | "testfixture" => {
                self.suites.pop();
            }
            "testcase" => {
                if let Some(case) = self.current.take() {
                    self.cases.push(case);
                }
            }
            _ => {}
        }
    }

    /// Text read here goes to the failing case's report, its captured
    /// output, or the lines outside the report.
    fn text(&mut self, said: &str) {
        match self.current.as_mut() {
            Some(case) if self.in_detail > 0 => {
                // NUnit puts the message in a `<message>` child.
                if self.open.last().is_some_and(|k| k == "message") && case.message.is_none() {
                    let first = said.lines().map(str::trim).find(|l| !l.is_empty());
                    case.message = first.map(str::to_string);
                }
                case.detail.push_str(said);
            }
            Some(case) if self.in_captured > 0 => {
                case.captured_lines += said.lines().filter(|l| !l.trim_ascii().is_empty()).count();
                case.captured.push_str(said);
            }
            _ if self.open.is_empty() => self.outside.push(said.to_string()),
            _ => {}
        }
    }

    /// The cases and the lines outside the report, when every element
    /// closed and at least one case was read.
    fn finished(self) -> Option<(Vec<Case>, Vec<String>)> {
        if !self.open.is_empty() || self.cases.is_empty() {
            return None;
        }
        let outside: Vec<String> = self
            .outside
            .join("")
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim_ascii().is_empty())
            .map(str::to_string)
            .collect();
        Some((self.cases, outside))
    }
}

/// An element's kind: its local name, lower-cased, without `-` or `_`
/// (`test-case`, `TestCase` and `testcase` are one kind).
fn kind_of(e: &BytesStart<'_>) -> String {
    e.local_name()
        .as_ref()
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The value of attribute `key` (case-insensitive), entities resolved.
fn attribute(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        let name = a.key.local_name().as_ref().to_ascii_lowercase();
        (name == key).then(|| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| a.value.to_string())
        })
    })
}

/// A case's outcome as its own attributes tell it (NUnit's `result`,
/// TRX-like `outcome`, `status`, `executed="False"`); passed when they say
/// nothing.
fn outcome_of_attributes(e: &BytesStart<'_>) -> Outcome {
    if attribute(e, "executed").is_some_and(|v| v.eq_ignore_ascii_case("false")) {
        return Outcome::Skipped;
    }
    let said = ["result", "outcome", "status"]
        .iter()
        .find_map(|k| attribute(e, k))
        .unwrap_or_default()
        .to_ascii_lowercase();
    if said.starts_with("fail") {
        Outcome::Failed
    } else if said.starts_with("error") {
        Outcome::Errored
    } else if [
        "skip",
        "ignor",
        "notrun",
        "not run",
        "inconclusive",
        "disabled",
    ]
    .iter()
    .any(|s| said.starts_with(s))
    {
        Outcome::Skipped
    } else {
        Outcome::Passed
    }
}

/// `text` rendered as its test results (see the module's doc), when it is
/// a test report and the rendering is smaller; `target_tokens` lets more
/// passing tests be named when it affords them.
pub fn render(text: &str, target_tokens: Option<u32>) -> Option<String> {
    let (cases, outside) = parse(text)?;
    if outside.len() > OUTSIDE_LINES_AT_MOST {
        return None;
    }
    let mut out: Vec<String> = outside;
    out.push(header(&cases));
    let failed: Vec<&Case> = cases
        .iter()
        .filter(|c| matches!(c.outcome, Outcome::Failed | Outcome::Errored))
        .collect();
    failing(&failed, &mut out);
    skipped(&cases, &mut out);
    let fixed = out.join("\n");
    let passing: Vec<&Case> = cases
        .iter()
        .filter(|c| c.outcome == Outcome::Passed)
        .collect();
    let by_name = passing_by_name(&passing);
    let afforded = target_tokens.is_some_and(|t| {
        ghost_types::estimated_tokens(&fixed) + ghost_types::estimated_tokens(&by_name.join("\n"))
            <= t as usize
    });
    if passing.len() <= PASSING_NAMES_LISTED || afforded {
        out.extend(by_name);
    } else {
        out.extend(passing_by_class(&passing));
    }
    let mut rendered = out.join("\n");
    rendered.push('\n');
    (rendered.len() < text.len()).then_some(rendered)
}

/// The header: how many tests, and how many of each outcome.
fn header(cases: &[Case]) -> String {
    let count = |o: Outcome| cases.iter().filter(|c| c.outcome == o).count();
    let mut parts = vec![format!("{} failed", thousands(count(Outcome::Failed)))];
    let errored = count(Outcome::Errored);
    if errored > 0 {
        parts.push(format!("{} errors", thousands(errored)));
    }
    parts.push(format!("{} passed", thousands(count(Outcome::Passed))));
    parts.push(format!("{} skipped", thousands(count(Outcome::Skipped))));
    format!(
        "[test report (XML): {} tests: {}; timings, properties and passing tests' output left out]",
        thousands(cases.len()),
        parts.join(", ")
    )
}

/// The failing tests, each by name with its message, its report and the
/// output it captured, written out and then folded together as one log
/// (when that is smaller): what one test's trace repeats of another's
/// folds, and each failing test's line and error lines stay, as in any
/// log; traces are then cut to the frames that matter.
fn failing(cases: &[&Case], out: &mut Vec<String>) {
    let mut raw: Vec<String> = Vec::new();
    for case in cases {
        let label = if case.outcome == Outcome::Errored {
            "ERROR"
        } else {
            "FAILED"
        };
        match &case.message {
            Some(m) => raw.push(format!("{label} {} — {}", case.full_name(), first_line(m))),
            None => raw.push(format!("{label} {}", case.full_name())),
        }
        let indented = |text: &str, raw: &mut Vec<String>| {
            for line in text.trim_matches('\n').lines() {
                raw.push(format!("    {line}"));
            }
        };
        if !case.detail.trim_ascii().is_empty() {
            indented(&case.detail, &mut raw);
        }
        if !case.captured.trim_ascii().is_empty() {
            raw.push(format!(
                "    [its captured output, {} lines:]",
                thousands(case.captured_lines)
            ));
            indented(&case.captured, &mut raw);
        }
    }
    let text = raw.join("\n");
    let folded = crate::fold_as_lines(&text).text;
    // The fold's own header and summary go: this report's header counts
    // its tests, and its failing tests' lines are the report's.
    let lines = if folded.len() < text.len() {
        folded
            .lines()
            .filter(|l| {
                !["[ghost log:", "[tests (", "[failed: "]
                    .iter()
                    .any(|p| l.starts_with(p))
            })
            .map(str::to_string)
            .collect()
    } else {
        raw
    };
    out.extend(frames_folded(lines));
}

/// `lines` with each trace printed as `at …` frames (JavaScript's, Java's,
/// .NET's: the innermost first) cut to the frames any trace keeps (see
/// [`crate::trace::kept_frames`]: the innermost, the project's own), the
/// others counted where they were.
fn frames_folded(lines: Vec<String>) -> Vec<String> {
    let is_frame = |l: &str| frame_in_library(l).is_some();
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        if !is_frame(&lines[i]) {
            out.push(lines[i].clone());
            i += 1;
            continue;
        }
        let end = (i..lines.len())
            .find(|&k| !is_frame(&lines[k]))
            .unwrap_or(lines.len());
        let frames = &lines[i..end];
        // Outermost first, as `kept_frames` reads a trace.
        let library: Vec<bool> = frames
            .iter()
            .rev()
            .map(|f| frame_in_library(f).unwrap_or(false))
            .collect();
        let mut kept = crate::trace::kept_frames(&library);
        kept.reverse();
        // A single frame costs what its marker would.
        let lone = |k: usize| (k == 0 || kept[k - 1]) && kept.get(k + 1).copied().unwrap_or(true);
        let kept: Vec<bool> = (0..kept.len()).map(|k| kept[k] || lone(k)).collect();
        let mut folded = 0;
        for (frame, kept) in frames.iter().zip(kept) {
            if kept {
                if folded > 0 {
                    out.push(frames_marker(frame, folded));
                    folded = 0;
                }
                out.push(frame.clone());
            } else {
                folded += 1;
            }
        }
        if folded > 0 {
            out.push(frames_marker(&frames[frames.len() - 1], folded));
        }
        i = end;
    }
    out
}

/// Whether a line is an `at …` frame, and if so whether it runs library
/// code (by its place, as [`crate::failure_traces`] reads frames; a frame
/// naming no folder is the runtime's).
fn frame_in_library(line: &str) -> Option<bool> {
    if !line.trim_ascii_start().starts_with("at ") {
        return None;
    }
    let path = crate::failure_traces::frame_path(line)?;
    Some(path.is_none_or(crate::markers::is_library_path))
}

/// The line saying `n` frames were folded, indented as `frame` is.
fn frames_marker(frame: &str, n: usize) -> String {
    let indent = &frame[..frame.len() - frame.trim_ascii_start().len()];
    format!("{indent}[… {n} frames folded]")
}

/// The skipped tests: each with its reason while few, else each reason
/// with its count.
fn skipped(cases: &[Case], out: &mut Vec<String>) {
    let skipped: Vec<&Case> = cases
        .iter()
        .filter(|c| c.outcome == Outcome::Skipped)
        .collect();
    if skipped.is_empty() {
        return;
    }
    if skipped.len() <= SKIPPED_LISTED {
        for case in skipped {
            match &case.message {
                Some(m) => out.push(format!("SKIPPED {} — {}", case.full_name(), first_line(m))),
                None => out.push(format!("SKIPPED {}", case.full_name())),
            }
        }
        return;
    }
    let mut by_reason: BTreeMap<String, usize> = BTreeMap::new();
    for case in &skipped {
        let reason = case.message.as_deref().map(first_line).unwrap_or_default();
        *by_reason.entry(reason.to_string()).or_default() += 1;
    }
    out.push(format!(
        "SKIPPED {} tests, by reason:",
        thousands(skipped.len())
    ));
    grouped(by_reason, out);
}

/// The passing tests by name, one line per class.
fn passing_by_name(passing: &[&Case]) -> Vec<String> {
    let by_class = crate::test_ids::groups_in_order(passing.iter().copied(), |c| c.class.as_str());
    let mut out = vec![format!("passed ({}):", thousands(passing.len()))];
    for (class, cases) in by_class {
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        let class = if class.is_empty() {
            "(no class)"
        } else {
            class
        };
        out.push(format!("  {class}: {}", names.join(", ")));
    }
    out
}

/// The passing tests counted by class, their names left out.
fn passing_by_class(passing: &[&Case]) -> Vec<String> {
    let mut by_class: BTreeMap<String, usize> = BTreeMap::new();
    for case in passing {
        *by_class.entry(case.class.clone()).or_default() += 1;
    }
    // Too many classes to read: counted by module instead (`a.b.C` → `a.b`),
    // as coarse as it takes.
    let mut level = "class";
    while by_class.len() > PASSING_GROUPS_AT_MOST {
        let coarser: BTreeMap<String, usize> =
            by_class
                .iter()
                .fold(BTreeMap::new(), |mut acc, (class, n)| {
                    let parent = class.rfind(['.', ':', '/']).map_or(class.as_str(), |at| {
                        class[..at].trim_end_matches([':', '.', '/'])
                    });
                    *acc.entry(parent.to_string()).or_default() += n;
                    acc
                });
        if coarser.len() == by_class.len() {
            break;
        }
        by_class = coarser;
        level = "module";
    }
    let mut out = vec![format!(
        "passed ({}), counted by {level}, names left out:",
        thousands(passing.len())
    )];
    grouped(by_class, &mut out);
    out
}

/// Groups with their counts, the largest first, at most [`GROUPS_SHOWN`].
fn grouped(groups: BTreeMap<String, usize>, out: &mut Vec<String>) {
    let mut groups: Vec<(String, usize)> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let rest: usize = groups.iter().skip(GROUPS_SHOWN).map(|(_, n)| n).sum();
    for (group, n) in groups.iter().take(GROUPS_SHOWN) {
        let group = if group.is_empty() {
            "(none given)"
        } else {
            group
        };
        out.push(format!("  {group}: {}", thousands(*n)));
    }
    if rest > 0 {
        out.push(format!(
            "  [{} more in {} groups]",
            thousands(rest),
            groups.len() - GROUPS_SHOWN
        ));
    }
}

fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PYTEST: &str = r#"<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="0" failures="1" skipped="1" tests="4" time="0.1" hostname="vm"><testcase classname="tests.test_cart" name="test_adds" time="0.001" /><testcase classname="tests.test_cart" name="test_label" time="0.002"><failure message="AssertionError: assert '1 items' == '2 items'">def test_label():
&gt;       assert Cart().add("a", 1).label() == "2 items"
E       AssertionError: assert '1 items' == '2 items'

tests/test_cart.py:9: AssertionError</failure><system-out>printed
twice</system-out></testcase><testcase classname="tests.test_cart" name="test_skip" time="0"><skipped type="pytest.skip" message="needs network">tests/test_cart.py:12: needs network</skipped></testcase><testcase classname="tests.test_price" name="test_zero" time="0.001" /></testsuite></testsuites>"#;

    #[test]
    fn a_pytest_report_keeps_its_failure_and_names_its_tests() {
        let (cases, outside) = parse(PYTEST).unwrap();
        assert!(outside.is_empty());
        assert_eq!(cases.len(), 4);
        assert_eq!(cases[1].outcome, Outcome::Failed);
        assert_eq!(cases[1].captured_lines, 2);
        assert_eq!(cases[2].outcome, Outcome::Skipped);
        let out = render(PYTEST, None).unwrap();
        assert!(
            out.contains("4 tests: 1 failed, 2 passed, 1 skipped"),
            "{out}"
        );
        assert!(
            out.contains(
                "FAILED tests.test_cart::test_label — AssertionError: assert '1 items' == '2 items'"
            ),
            "{out}"
        );
        assert!(
            out.contains(r#">       assert Cart().add("a", 1).label() == "2 items""#),
            "{out}"
        );
        assert!(out.contains("SKIPPED tests.test_cart::test_skip — needs network"));
        assert!(out.contains("tests.test_cart: test_adds"));
        assert!(out.contains("tests.test_price: test_zero"));
        assert!(!out.contains("hostname"));
    }

    #[test]
    fn many_passing_tests_are_counted_by_class_unless_the_budget_affords_names() {
        let cases: String = (0..300)
            .map(|i| {
                format!(
                    "<testcase classname=\"pkg.C{}\" name=\"test_{i}\" time=\"0.01\"/>\n",
                    i % 3
                )
            })
            .collect();
        let xml = format!("<testsuite name=\"s\" tests=\"300\">\n{cases}</testsuite>\n");
        let out = render(&xml, None).unwrap();
        assert!(out.contains("passed (300), counted by class"), "{out}");
        assert!(out.contains("  pkg.C0: 100"));
        assert!(!out.contains("test_7,"));
        let roomy = render(&xml, Some(100_000)).unwrap();
        assert!(roomy.contains("test_7,"), "{roomy}");
    }

    #[test]
    fn passing_tests_in_many_classes_are_counted_by_module() {
        let cases: String = (0..300)
            .map(|i| {
                format!(
                    "<testcase classname=\"tests.test_m{}.C{}\" name=\"test_{i}\"/>\n",
                    i % 2,
                    i % 30
                )
            })
            .collect();
        let xml = format!("<testsuite name=\"s\">\n{cases}</testsuite>\n");
        let out = render(&xml, None).unwrap();
        assert!(out.contains("passed (300), counted by module"), "{out}");
        assert!(out.contains("  tests.test_m0: 150\n"), "{out}");
    }

    #[test]
    fn nunit_results_and_concatenated_documents_are_read() {
        let nunit = "<?xml version=\"1.0\"?>\n<test-results name=\"Shop.Tests.dll\" total=\"2\">\n<test-suite name=\"CartTests\"><results>\n<test-case name=\"Shop.CartTests.Adds\" executed=\"True\" result=\"Success\" success=\"True\" />\n<test-case name=\"Shop.CartTests.Labels\" executed=\"True\" result=\"Failure\" success=\"False\"><failure><message><![CDATA[  Expected string length 7 but was 7. Strings differ at index 0.\n  Expected: \"2 items\"\n]]></message><stack-trace><![CDATA[at Shop.CartTests.Labels () in /src/CartTests.cs:21\n]]></stack-trace></failure></test-case>\n</results></test-suite>\n</test-results>\n";
        let both = format!("{nunit}{nunit}");
        let (cases, _) = parse(&both).unwrap();
        assert_eq!(cases.len(), 4);
        assert_eq!(cases[1].outcome, Outcome::Failed);
        assert_eq!(
            cases[1].message.as_deref(),
            Some("Expected string length 7 but was 7. Strings differ at index 0.")
        );
        let out = render(&both, None).unwrap();
        assert!(
            out.contains("FAILED Shop.CartTests.Labels — Expected string length 7"),
            "{out}"
        );
        assert!(out.contains("/src/CartTests.cs:21"), "{out}");
    }

    #[test]
    fn markup_without_test_cases_and_broken_xml_are_not_reports() {
        assert!(parse("<project><dependency/></project>").is_none());
        assert!(parse("<testsuite><testcase name=\"a\"></testsuite>").is_none());
        assert!(parse("plain text mentioning <testcase in passing").is_none());
    }
}
