//! ghost's built-in content classifier: labels a tool result `log`, `code`,
//! `structured`, `prose`, `error` or `prompt`.
//!
//! It looks at the hints first (the tool that produced the text, the file it
//! came from), then at the content (JSON shape, stack-trace markers, code
//! keywords at line starts, timestamps, sentence structure). A first version:
//! simple signals, fast, no model. It never sees anything but the request.

#[cfg(target_arch = "wasm32")]
mod component;
mod shape;

use ghost_log_folding::counted_calls;
use ghost_types::{ContentClass, document};

/// What the classifier knows about a text besides its content.
#[derive(Debug, Clone, Copy, Default)]
pub struct Hints<'a> {
    /// The agent tool that produced it.
    pub tool_name: Option<&'a str>,
    /// The file it came from.
    pub source_path: Option<&'a str>,
    /// The shell command that printed it.
    pub command: Option<&'a str>,
}

impl<'a> Hints<'a> {
    /// The file the text came from: the one given, else the one file the
    /// command printed (`cat -n src/lib.rs`, `sed -n '1,80p' a.py`).
    pub fn file(&self) -> Option<&'a str> {
        ghost_types::command::file_hint(self.source_path, self.command)
    }
}

/// Classifies `text`, returning the class and a confidence from 0 to 1.
///
/// Order: the user's prompt; the file's extension unless it is a weak one
/// (`.txt`, `.log`: there the content decides when it is clear); what the tool is
/// (a shell's output is a log unless it is really JSON, a stack trace or a
/// diff; a search is a log; a web page is prose); then the content alone.
pub fn classify(text: &str, hints: Hints<'_>) -> (ContentClass, f32) {
    let tool = hints.tool_name.unwrap_or("");
    if tool.eq_ignore_ascii_case("UserPromptSubmit") || tool.eq_ignore_ascii_case("prompt") {
        return (ContentClass::Prompt, 1.0);
    }
    let path_hint = hints.file().and_then(ghost_types::hint_of_path);
    if let Some(hint) = path_hint.filter(|h| !h.weak) {
        return (hint.class, 0.9);
    }
    let sample = head(text, 64 * 1024);
    // As a terminal shows it: colour codes say nothing of what a text is.
    let shown = ghost_terminal_text::strip_ansi(sample);
    let body = strip_read_numbers(&shown);
    let body = body.as_ref();
    match tool {
        "Bash" | "BashOutput" | "TaskOutput" => return shell_output(text, body),
        "Glob" | "LS" => return (ContentClass::Log, 0.85),
        search if ghost_log_folding::grep::is_search_tool(search) => {
            return (ContentClass::Log, 0.85);
        }
        "WebFetch" | "WebSearch" | "Task" => {
            return if parses_as_json(text) {
                (ContentClass::Structured, 0.8)
            } else {
                (ContentClass::Prose, 0.8)
            };
        }
        _ => {}
    }
    let (class, confidence) = by_content(text, body);
    // A weak path hint (`.txt`, `.log`) decides only what the content leaves open.
    match path_hint {
        Some(hint) if confidence < WEAK_HINT_CONFIDENCE => (hint.class, WEAK_HINT_CONFIDENCE),
        _ => (class, confidence),
    }
}

/// The content's verdict needs at least this confidence to overrule a weak
/// path hint; a weak hint alone is worth this much.
const WEAK_HINT_CONFIDENCE: f32 = 0.6;

/// The class of a shell command's output: a log unless it is really JSON,
/// a program dying with a trace, a diff or running text.
fn shell_output(text: &str, body: &str) -> (ContentClass, f32) {
    let output = ShellOutput::of(body);
    if parses_as_json(text) {
        (ContentClass::Structured, 0.9)
    } else if is_xml_document(body) {
        // A report or a manifest printed as XML (`node --test
        // --test-reporter=junit`, `mvn help:effective-pom`).
        (ContentClass::Structured, 0.85)
    } else if !ghost_log_folding::listing::kept(&output.lines).is_empty() {
        // A list of files, each alone or beside its status or size (`git
        // status --short`, `du -sh *`), however its columns are
        // delimited: a log.
        (ContentClass::Log, 0.85)
    } else if is_document(&output) {
        // `kubectl get -o yaml`, `cat Cargo.lock`.
        (ContentClass::Structured, 0.85)
    } else if crashed(body, &output) {
        (ContentClass::Error, 0.8)
    } else if reports_tests_or_diagnostics(&output) {
        // A test runner's report (its failure diffs included) or a
        // compiler's diagnostics, however long their sentences.
        (ContentClass::Log, 0.85)
    } else if looks_like_diff(body) {
        (ContentClass::Code, 0.8)
    } else if ghost_log_folding::grep::looks_like(body) {
        // grep/rg output: the log compressor groups it by file.
        (ContentClass::Log, 0.85)
    } else if (prose_share(&output.lines) > 0.25 || prints_a_markdown_document(&output, body))
        && !ends_at_a_failure_exit(&output)
    {
        (ContentClass::Prose, 0.6)
    } else {
        (ContentClass::Log, 0.8)
    }
}

/// Whether the output's last line is a failure exit (`make: *** [Makefile:807:
/// test_dynamic] Error 1`, `exited with 1`: see
/// [`ghost_log_folding::markers::is_failure_exit`]): a job's log, however
/// many of its lines are sentences (a Perl module's `Writing Makefile for
/// Shop::Cart`, `Looks like you failed 1 test of 3.`).
fn ends_at_a_failure_exit(output: &ShellOutput<'_>) -> bool {
    output
        .lines
        .last()
        .is_some_and(|l| ghost_log_folding::markers::is_failure_exit(l))
}

/// Whether the text is a TOML, YAML or INI document, a delimited table or a
/// `go.sum`
/// (see [`ghost_types::document`]).
fn is_document(output: &ShellOutput<'_>) -> bool {
    document::looks_like_toml(&output.lines)
        || document::looks_like_yaml(&output.lines)
        || document::looks_like_ini(&output.lines)
        || document::looks_like_table(&output.lines)
        || document::looks_like_go_sum(&output.lines)
        || document::looks_like_yarn_lock(&output.lines)
        || document::looks_like_env_file(&output.lines)
}

/// Whether the output is a crashed program's report, in any language's
/// shape (see the rules it is made of).
fn crashed(body: &str, output: &ShellOutput<'_>) -> bool {
    opens_with_exception(body)
        || ends_with_uncaught_exception(body)
        || mostly_a_trace(output)
        || dies_with_a_trace(output)
        || halted_by_an_error(output)
        || clojure_reports_an_error(output)
        || sanitizer_reports(output)
        || killed_by_a_signal(output)
        || interpreter_stopped(output)
}

/// Whether a short output (at most [`TRACE_PREAMBLE_LINES`] lines) is an
/// interpreter refusing or stopping a script, by the interpreter's own
/// words: one of PHP's two fatal levels (`PHP Parse error:  syntax error,
/// unexpected token "foreach" in cart.php on line 5`, `Fatal error:
/// Uncaught …`), ending at the place, or Perl's verdict on a script that
/// does not compile, its last line (`s.pl had compilation errors.`,
/// `Execution of p2.pl aborted due to compilation errors.`). (PHP's
/// warnings and notices, Perl's warnings, let the script go on: a log.)
fn interpreter_stopped(output: &ShellOutput<'_>) -> bool {
    let lines = &output.lines;
    if lines.len() > TRACE_PREAMBLE_LINES + 1 {
        return false;
    }
    let php_fatal = lines.iter().any(|l| {
        let l = l.trim();
        let report = l.strip_prefix("PHP ").unwrap_or(l);
        (report.starts_with("Parse error: ") || report.starts_with("Fatal error: "))
            && report
                .rsplit_once(" on line ")
                .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    let perl_verdict = lines.last().is_some_and(|l| {
        let l = l.trim();
        l.ends_with(" had compilation errors.")
            || l.starts_with("Execution of ") && l.ends_with(" aborted due to compilation errors.")
    });
    php_fatal || perl_verdict
}

/// Whether a sanitizer reports on the program within the first
/// [`TRACE_PREAMBLE_LINES`] of its output (what the program printed before
/// it went wrong comes first): see [`is_sanitizer_header`].
fn sanitizer_reports(output: &ShellOutput<'_>) -> bool {
    output
        .lines
        .iter()
        .take(TRACE_PREAMBLE_LINES + 1)
        .any(|l| is_sanitizer_header(l.trim()))
}

/// Whether a short output (at most [`TRACE_PREAMBLE_LINES`] lines before
/// it) ends with the shell's word that the program died of a signal:
/// `Aborted` under glibc's `free(): double free detected in tcache 2`,
/// `bash: line 1: 4711 Segmentation fault (core dumped)  ./run`.
fn killed_by_a_signal(output: &ShellOutput<'_>) -> bool {
    output.lines.len() <= TRACE_PREAMBLE_LINES + 1
        && output.lines.last().is_some_and(|l| is_signal_report(l))
}

/// How a shell names the signals that kill a program (`strsignal`'s words).
const FATAL_SIGNALS: &[&str] = &[
    "Aborted",
    "Segmentation fault",
    "Bus error",
    "Floating point exception",
    "Illegal instruction",
    "Killed",
];

/// A shell's report of a program killed by a signal: the signal's name
/// alone, or after the script's place and the process id (`bash: line 1:
/// 4711 Aborted`), then `(core dumped)` and the command, if any.
fn is_signal_report(line: &str) -> bool {
    let t = line.trim();
    FATAL_SIGNALS.iter().any(|name| {
        t.match_indices(name).any(|(at, _)| {
            let before = t[..at].trim_end();
            let after = &t[at + name.len()..];
            let after = after.strip_prefix(" (core dumped)").unwrap_or(after);
            let after_a_pid = before.is_empty()
                || before.rsplit_once(": ").is_some_and(|(_, pid)| {
                    !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
                })
                || before.bytes().all(|b| b.is_ascii_digit());
            after_a_pid && (after.is_empty() || after.starts_with("  "))
        })
    })
}

/// Whether the output ends with R's word that the script stopped on an
/// error (`Execution halted`), the error (`Error in f(x) : …` or `Error:
/// …`) within the [`HALTED_AFTER_LINES`] before it. Warnings R prints
/// after the error (`In addition: Warning message:`) are part of it.
fn halted_by_an_error(output: &ShellOutput<'_>) -> bool {
    let lines = &output.lines;
    lines.last().is_some_and(|l| l.trim() == "Execution halted")
        && lines
            .iter()
            .rev()
            .take(HALTED_AFTER_LINES + 1)
            .any(|l| l.starts_with("Error in ") || l.starts_with("Error: "))
}

/// Most nonblank lines between an R error's first line and R's
/// `Execution halted` (its message, its calls, its warnings).
const HALTED_AFTER_LINES: usize = 12;

/// Whether the output ends with clojure.main's word that the program died
/// of an exception: `Execution error (ExceptionInfo) at shop.cart/price
/// (cart.clj:13).` or `Syntax error (…) compiling at (…)`, the class in
/// parentheses, then its message and, unless the report went to stderr
/// (`--report stderr`, whose data map comes first), where the full report
/// went (`Full report at:`, a path), within the [`HALTED_AFTER_LINES`]
/// before the end.
fn clojure_reports_an_error(output: &ShellOutput<'_>) -> bool {
    output
        .lines
        .iter()
        .rev()
        .take(HALTED_AFTER_LINES + 1)
        .any(|l| {
            let Some((phase, rest)) = l.split_once(" error (") else {
                return false;
            };
            matches!(phase, "Execution" | "Syntax" | "Unexpected")
                && rest.split_once(") ").is_some_and(|(class, at)| {
                    !class.is_empty()
                        && !class.contains(' ')
                        && (at.starts_with("at ")
                            || at.starts_with("compiling at ")
                            || at.starts_with("reading source at "))
                })
        })
}

/// The class from the content alone: asked what a shell's output is asked
/// (a crash, a document, a test run or diagnostics, a diff, search
/// results), then read by the shape of its lines ([`shape`]).
fn by_content(text: &str, body: &str) -> (ContentClass, f32) {
    let output = ShellOutput::of(body);
    // A crash, not a job's log that met a trace: frames in a test run's
    // report are its failures', and a build that logged a trace and went
    // on is a log (see [`crashed`]).
    if crashed(body, &output) {
        return (ContentClass::Error, 0.8);
    }
    if parses_as_json(text) || looks_structured(body) {
        return (ContentClass::Structured, 0.85);
    }
    // A list of files (see [`shell_output`]) before a delimited table.
    if !ghost_log_folding::listing::kept(&output.lines).is_empty() {
        return (ContentClass::Log, 0.85);
    }
    if is_document(&output) {
        return (ContentClass::Structured, 0.85);
    }
    if reports_tests_or_diagnostics(&output) {
        return (ContentClass::Log, 0.85);
    }
    if looks_like_diff(body) {
        return (ContentClass::Code, 0.8);
    }
    if ghost_log_folding::grep::looks_like(body) {
        return (ContentClass::Log, 0.8);
    }
    shape::judge(body)
}

/// Share of nonblank lines that must be compiler or linter diagnostics
/// (`path:line:col: message`) for a command's output to be their report.
const DIAGNOSTIC_SHARE: f32 = 0.3;

/// A command's output as the classifier reads it: its lines taken once,
/// and what several rules ask of them (whether a test runner reports on
/// it, how many lines are diagnostics) worked out once, when first asked.
struct ShellOutput<'a> {
    /// The nonblank lines judged (see [`document::nonblank_lines`]).
    lines: Vec<&'a str>,
    test_run: std::cell::OnceCell<bool>,
    diagnostics: std::cell::OnceCell<usize>,
}

impl<'a> ShellOutput<'a> {
    fn of(body: &'a str) -> Self {
        Self {
            lines: document::nonblank_lines(body),
            test_run: std::cell::OnceCell::new(),
            diagnostics: std::cell::OnceCell::new(),
        }
    }

    /// Whether a runner adapter reads counts or failures out of it.
    fn is_test_run(&self) -> bool {
        *self
            .test_run
            .get_or_init(|| !ghost_log_folding::testrun::parse(&self.lines).is_empty())
    }

    /// How many of its lines are compiler or linter diagnostics.
    fn diagnostics(&self) -> usize {
        *self.diagnostics.get_or_init(|| {
            self.lines
                .iter()
                .filter(|l| ghost_log_folding::markers::is_diagnostic(l))
                .count()
        })
    }
}

/// Whether a command's output is a test runner's report (a runner adapter
/// reads counts or failures out of it) or mostly diagnostics.
fn reports_tests_or_diagnostics(output: &ShellOutput<'_>) -> bool {
    !output.lines.is_empty()
        && (output.diagnostics() as f32 >= output.lines.len() as f32 * DIAGNOSTIC_SHARE
            || output.is_test_run())
}

/// The classifier judges a text's lines by its first this many nonblank
/// ones, as a document's shape is judged.
pub(crate) use document::LINES_JUDGED;

/// A line of running text: long, many words, ending like a sentence, and
/// not a log record led by its level (`WARNING -  Doc file 'index.md'
/// contains a link …`).
pub(crate) fn is_sentence_line(l: &str) -> bool {
    l.len() > 60
        && l.split_whitespace().count() > 10
        && l.trim_end().ends_with(['.', '?', '!', ':', ','])
        && !starts_with_level(l)
}

/// The levels a log record can open with, as logging libraries print them.
const LEVELS: &[&str] = &[
    "TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "CRITICAL", "FATAL",
];

/// Whether a line opens with a level in capitals, alone or bracketed, and
/// then a separator (`INFO    -  Building`, `[ERROR] Failed`, `WARNING:root:`).
pub(crate) fn starts_with_level(l: &str) -> bool {
    let t = l.strip_prefix('[').unwrap_or(l);
    let word = t
        .split(|c: char| !c.is_ascii_uppercase())
        .next()
        .unwrap_or("");
    LEVELS.contains(&word)
        && t[word.len()..].starts_with(|c: char| c.is_whitespace() || matches!(c, ':' | ']' | '-'))
}

/// How much of `body` reads as prose: sentence lines, with Markdown headings
/// counting double.
/// Whether a command printed a Markdown document (`rustc --explain
/// E0502`): code fences (```, opened and closed) around the code it
/// quotes, and text that reads as prose by its shape ([`shape::judge`]:
/// wrapped paragraphs, headings, links).
fn prints_a_markdown_document(output: &ShellOutput<'_>, body: &str) -> bool {
    let fences = output
        .lines
        .iter()
        .filter(|l| l.trim_start().starts_with("```"))
        .count();
    fences >= 2 && fences % 2 == 0 && shape::judge(body).0 == ContentClass::Prose
}

fn prose_share(lines: &[&str]) -> f32 {
    if lines.is_empty() {
        return 0.0;
    }
    let sentences = lines.iter().filter(|l| is_sentence_line(l)).count() as f32;
    (sentences + 2.0 * markdown_headings(lines) as f32) / lines.len() as f32
}

/// Lines that read as Markdown headings (`# `, `## `). When most of them
/// open with the same word they are a tool's markers, not a document's
/// headings (TAP's `# Subtest: …`, a script's `# step`): none count. Nor
/// does one right above a compiler diagnostic (see
/// [`shape::names_the_diagnostics_below`]).
fn markdown_headings(lines: &[&str]) -> usize {
    let headings: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| {
            (l.starts_with("## ") || l.starts_with("# "))
                && !shape::names_the_diagnostics_below(lines.get(i + 1).copied())
        })
        .map(|(_, l)| *l)
        .collect();
    fn first_word(h: &str) -> &str {
        h.trim_start_matches('#')
            .split_whitespace()
            .next()
            .unwrap_or("")
    }
    let most_common = headings
        .iter()
        .map(|h| {
            headings
                .iter()
                .filter(|o| first_word(o) == first_word(h))
                .count()
        })
        .max()
        .unwrap_or(0);
    if headings.len() >= 4 && most_common * 2 > headings.len() {
        return 0;
    }
    headings.len()
}

/// Whether the text's first line is an exception header (a shell's output is
/// an error report only then; a log with a trace inside stays a log).
fn opens_with_exception(sample: &str) -> bool {
    let Some(first) = sample.lines().find(|l| !l.trim().is_empty()) else {
        return false;
    };
    let first = first.trim_start_matches("Exit code 1").trim();
    first.starts_with("Traceback (most recent call last)")
        || first.starts_with("thread '") && first.contains("panicked at")
        || first.starts_with("Exception in thread")
        || first.starts_with("goroutine ") && first.ends_with(':')
        || first.starts_with("panic: ")
        || first.starts_with("** (")
        || first.starts_with("Uncaught ")
        || is_exception_line(first) && !introduces_a_report(first, sample)
}

/// Nonblank lines under an exception line searched for a trace (see
/// [`introduces_a_report`]).
const REPORT_TRACE_LINES: usize = 40;

/// Whether an exception line opening the output introduces the tool's own
/// report rather than a crash: its message ends with a colon and no trace
/// follows (Django's `SystemCheckError: System check identified some
/// issues:` over its check messages, each naming the model it is about).
/// The report is the point: its lines are a log's records.
fn introduces_a_report(first: &str, sample: &str) -> bool {
    first.ends_with(':')
        && !sample
            .lines()
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .take(REPORT_TRACE_LINES)
            .any(|l| is_trace_line(l.trim_start()))
}

/// The first line of a sanitizer's report on the process it stopped:
/// `==5183==ERROR: AddressSanitizer: heap-buffer-overflow on address …`,
/// `==7==ERROR: LeakSanitizer: detected memory leaks`, or ThreadSanitizer's
/// `WARNING: ThreadSanitizer: data race (pid=7)`, behind the `==pid==` tag.
fn is_sanitizer_header(line: &str) -> bool {
    if is_ubsan_report(line) {
        return true;
    }
    let untagged = line
        .strip_prefix("==")
        .and_then(|rest| rest.split_once("=="))
        .filter(|(pid, _)| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        .map_or(line, |(_, rest)| rest);
    let Some(report) = untagged
        .strip_prefix("ERROR: ")
        .or_else(|| untagged.strip_prefix("WARNING: "))
    else {
        return false;
    };
    report
        .split_once(": ")
        .is_some_and(|(tool, _)| tool.ends_with("Sanitizer") && !tool.contains(' '))
}

/// UndefinedBehaviorSanitizer's report, one line for each check that
/// failed, at the place in the program's source: `ub.c:4:29: runtime
/// error: signed integer overflow: …`.
fn is_ubsan_report(line: &str) -> bool {
    line.split_once(": runtime error: ")
        .is_some_and(|(place, _)| is_location(place) && place.matches(':').count() >= 2)
}

/// Whether the output ends the way a crashed program's does: its last line
/// is an exception line (`ValueError: …`, `java.lang.X: …`) and a stack
/// trace leads to it. The program died of it, so the report is the point,
/// whatever it printed before.
fn ends_with_uncaught_exception(body: &str) -> bool {
    let mut lines = body.lines().rev().filter(|l| !l.trim().is_empty());
    let Some(last) = lines.next() else {
        return false;
    };
    if !(is_exception_line(last.trim()) || is_raised_name_line(last)) {
        return false;
    }
    // Right before it, the innermost frame's source line (indented).
    if !lines.next().is_some_and(|l| l.starts_with([' ', '\t'])) {
        return false;
    }
    lines.take(40).any(|l| is_trace_line(l.trim_start()))
}

/// Nonblank lines a crashed program may print before its trace (warnings,
/// a line of progress) and still be an error report rather than a log.
const TRACE_PREAMBLE_LINES: usize = 10;

/// Whether the output is a crash report with a little around it: its trace
/// starts within [`TRACE_PREAMBLE_LINES`], trace lines (frames, their source
/// lines, `Traceback` headers, chain links, the exception) are most of it, and no test
/// runner reports on it (a test run's tracebacks belong to its log).
fn mostly_a_trace(output: &ShellOutput<'_>) -> bool {
    let lines = &output.lines;
    let Some(first) = lines.iter().position(|l| is_trace_line(l.trim_start())) else {
        return false;
    };
    if first > TRACE_PREAMBLE_LINES {
        return false;
    }
    let mut in_frame = false;
    let mut trace_lines = 0;
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        // A JVM or JavaScript trace opens with its exception, then frames.
        let opens_frames = lines
            .get(i + 1)
            .is_some_and(|next| next.trim_start().starts_with("at "));
        if is_trace_line(t) || opens_frames && is_exception_line(t) {
            trace_lines += 1;
            in_frame = t.starts_with("File \"");
        } else if in_frame && l.starts_with([' ', '\t']) {
            // A Python frame's source line and its `^^^` marker.
            trace_lines += 1;
        } else {
            // The exception the trace ends with is part of it.
            if in_frame && (is_exception_line(t) || is_raised_name_line(t)) {
                trace_lines += 1;
            }
            in_frame = false;
        }
    }
    trace_lines * 5 >= lines.len() * 3 && !output.is_test_run()
}

/// Nonblank lines a crashed program may print after its trace (`exit
/// status 2`, the runtime's version) and still have died of it.
const AFTER_TRACE_LINES: usize = 3;

/// Whether the output is a program dying with a stack trace, in any
/// language's shape: a little output, then a trace that ends the output
/// (within [`AFTER_TRACE_LINES`]) and makes up at least half of it from
/// the line before its first frame. A frame is any line a trace is made of
/// (see [`is_frame`]), so Go's, Perl's, Ruby's and PHP's traces count like
/// Python's and Java's. A test run's or a compiler's report is not a crash,
/// nor is a trace followed by a runner's counts (`Tests run: 33, Failures: 3`).
fn dies_with_a_trace(output: &ShellOutput<'_>) -> bool {
    let lines = &output.lines;
    let frames: Vec<usize> = (0..lines.len()).filter(|&i| is_frame(lines, i)).collect();
    let (Some(&first), Some(&last)) = (frames.first(), frames.last()) else {
        return false;
    };
    let region = first.saturating_sub(1)..lines.len();
    // Node prints the error's own properties after its last frame, as an
    // object (`at next (<anonymous>) {`, `  code: 'DUPLICATE_KEY',`, `}`):
    // they belong to the trace.
    let end = if lines[last].trim_end().ends_with(" {") {
        (last + 1..lines.len().min(last + ERROR_PROPERTIES_AT_MOST))
            .find(|&k| lines[k].trim_end() == "}")
            .unwrap_or(last)
    } else {
        last
    };
    frames.len() >= 2
        && first <= TRACE_PREAMBLE_LINES + 1
        && lines.len() - 1 - end <= AFTER_TRACE_LINES
        && frames.len() * 2 >= region.len()
        && output.diagnostics() < frames.len()
        && !lines[last..]
            .iter()
            .any(|l| ghost_log_folding::markers::is_summary(l))
        && !output.is_test_run()
}

/// Most lines of an error's properties printed after its trace.
const ERROR_PROPERTIES_AT_MOST: usize = 30;

/// Whether `lines[i]` is part of a stack frame: a trace line, an indented
/// line holding a source location (`\t/app/main.go:12 +0x4f`, `\tmain::f()
/// called at conf.pl line 5`, `from app.rb:6:in 'map'`), or a call
/// (`main.run(…)`) whose location is on the indented line under it (Go).
fn is_frame(lines: &[&str], i: usize) -> bool {
    let indented_location =
        |l: &str| l.starts_with([' ', '\t']) && ghost_log_folding::markers::has_source_location(l);
    let l = lines[i];
    is_trace_line(l.trim_start())
        || indented_location(l)
        || !l.starts_with([' ', '\t'])
            && l.contains('(')
            && lines.get(i + 1).is_some_and(|next| indented_location(next))
        || is_counted_call(lines, i)
        || is_counted_calls_file(lines, i)
}

/// Whether `lines[i]` is a call numbered in a backtrace's count (see
/// [`ghost_log_folding::counted_calls`]), its number one off a
/// neighbouring call's (at most [`COUNTED_CALL_GAP`] lines away). A
/// numbered list of calls counts too, but only a trace ending the output
/// makes a crash (see [`dies_with_a_trace`]).
fn is_counted_call(lines: &[&str], i: usize) -> bool {
    let Some(n) = counted_calls::number(lines[i]) else {
        return false;
    };
    let near = i.saturating_sub(COUNTED_CALL_GAP)..(i + COUNTED_CALL_GAP + 1).min(lines.len());
    near.filter(|&k| k != i)
        .filter_map(|k| counted_calls::number(lines[k]))
        .any(|m| m.abs_diff(n) == 1)
}

/// The most lines between two counted calls: Guile names the file of the
/// calls under it on a line of its own (`In ice-9/boot-9.scm:`).
const COUNTED_CALL_GAP: usize = 2;

/// Whether `lines[i]` names the file of the counted calls under it, as
/// Guile's backtrace does (`In /src/prices.scm:`, `In unknown file:`).
fn is_counted_calls_file(lines: &[&str], i: usize) -> bool {
    i + 1 < lines.len()
        && counted_calls::file_above(lines[i], lines[i + 1]).is_some()
        && is_counted_call(lines, i + 1)
}

/// A frame or the header or chain link of a stack trace. (Node opens an
/// error's properties after its last frame: `at node:internal/…:28:49 {`.)
fn is_trace_line(t: &str) -> bool {
    let t = t.strip_suffix(" {").unwrap_or(t);
    t.starts_with("Traceback (most recent call last)")
        || t.starts_with("File \"") && t.contains(", line ")
        || t.starts_with("at ") && (t.contains('(') || is_location(&t[3..]))
        || t.starts_with("Caused by: ")
        || t.starts_with("The above exception was the direct cause")
        || t.starts_with("During handling of the above exception")
        || t == "Stack trace:"
        || is_numbered_frame(t)
        || is_tcl_error_info(t)
}

/// A line of Tcl's errorInfo, the trace a script dying of an error
/// prints: `while executing`, `invoked from within`, and where each
/// command ran, `(procedure "load_config" line 2)`, `(file "t.tcl" line
/// 12)`, `("foreach" body line 3)`. (The commands themselves, quoted, are
/// its source lines.)
fn is_tcl_error_info(t: &str) -> bool {
    t == "while executing"
        || t == "invoked from within"
        || t.strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .and_then(|r| r.rsplit_once(" line "))
            .is_some_and(|(place, n)| {
                place.contains('"') && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
            })
}

/// PHP's frames: `#1 /app/order.php(6): array_map()`, `#0 [internal
/// function]: price()`, `#3 {main}`.
fn is_numbered_frame(t: &str) -> bool {
    let Some(rest) = t.strip_prefix('#') else {
        // V8's, as node prints them dying (` 1: 0xb78db3
        // node::OOMErrorHandler(…) [node]`): read as the log compressor
        // reads native frames.
        return t.starts_with(|c: char| c.is_ascii_digit())
            && ghost_log_folding::native_trace::parse(t).is_some();
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let Some(frame) = rest[digits..].strip_prefix(' ').filter(|_| digits > 0) else {
        return false;
    };
    is_native_frame(frame.trim_start())
        || frame == "{main}"
        || frame.starts_with("[internal function]: ")
        || frame.split_once("): ").is_some_and(|(place, _)| {
            place.rsplit_once('(').is_some_and(|(path, line)| {
                !path.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
            })
        })
}

/// A native frame after its number, as gdb and the sanitizers print it:
/// an address and the function it is in (`0x55ffca782223 in sum
/// /tmp/heap.c:6`, or only its module: `0x7f3b29e29d90
/// (/lib/libc.so.6+0x29d90)`); gdb's frame stopped at a line's start (`main
/// () at seg.c:14`); ThreadSanitizer's, its module and offset last (`count
/// /tmp/race.c:8 (race+0x11d9)`).
fn is_native_frame(frame: &str) -> bool {
    if let Some(address) = frame.strip_prefix("0x") {
        let hex = address.bytes().take_while(u8::is_ascii_hexdigit).count();
        let after = &address[hex..];
        return hex > 0 && (after.starts_with(" in ") || after.starts_with(" ("));
    }
    let at_a_line = frame
        .rsplit_once(") at ")
        .is_some_and(|(_, place)| is_location(place));
    let in_a_module = frame
        .strip_suffix(')')
        .and_then(|f| f.rsplit_once(" ("))
        .and_then(|(_, module)| module.rsplit_once("+0x"))
        .is_some_and(|(_, offset)| {
            !offset.is_empty() && offset.bytes().all(|b| b.is_ascii_hexdigit())
        });
    at_a_line || in_a_module
}

/// A frame's bare location, `node:internal/main/run_main_module:28:49` or
/// `file.js:3:1`: no spaces, ending in `:line` or `:line:column`.
fn is_location(t: &str) -> bool {
    !t.contains(' ')
        && t.rsplit(':')
            .next()
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `package.module.SomeName: message` at the start of a line: what Python
/// prints last for an exception of any name (not all end in `Error`).
fn is_raised_name_line(line: &str) -> bool {
    let Some((name, _)) = line.split_once(": ") else {
        return false;
    };
    let last = name.rsplit('.').next().unwrap_or(name);
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_')
        && last.starts_with(|c: char| c.is_ascii_uppercase())
}

/// A numbered listing without its numbers: Claude Code's Read output
/// (`    12→`), `cat -n` or `nl -ba` (`   224\t`), when every one of its
/// first lines has one.
fn strip_read_numbers(text: &str) -> std::borrow::Cow<'_, str> {
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .peekable();
    if lines.peek().is_none() || !lines.all(|l| after_line_number(l).is_some()) {
        return std::borrow::Cow::Borrowed(text);
    }
    let stripped: Vec<&str> = text
        .lines()
        .map(|l| after_line_number(l).unwrap_or(l))
        .collect();
    std::borrow::Cow::Owned(stripped.join("\n"))
}

/// What follows a listing's line number (`    12→`, `   224\t`), if the
/// line has one.
fn after_line_number(l: &str) -> Option<&str> {
    let t = l.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &t[digits..];
    (digits > 0)
        .then(|| rest.strip_prefix('→').or_else(|| rest.strip_prefix('\t')))
        .flatten()
}

fn parses_as_json(text: &str) -> bool {
    let t = text.trim();
    // One document, or several one after the other (`jq`, pretty records).
    (t.starts_with('{') || t.starts_with('['))
        && serde_json::Deserializer::from_str(t)
            .into_iter::<serde_json::Value>()
            .all(|v| v.is_ok())
        || t.lines()
            .take(50)
            .filter(|l| !l.trim().is_empty())
            .all(|l| {
                let l = l.trim();
                l.starts_with('{') && serde_json::from_str::<serde_json::Value>(l).is_ok()
            })
            && t.starts_with('{')
        || json_under_comment_lines(t)
        || json_between_notices(t)
}

/// Most lines of a notice a tool prints above or below its JSON.
const NOTICE_LINES_AT_MOST: usize = 3;

/// JSON documents between short notices the tool printed around them
/// (biome's "The `json` reporter is experimental…" above its report, its
/// "× Some errors were emitted" below): at most [`NOTICE_LINES_AT_MOST`]
/// lines above the first line opening a value and as many after the last
/// value, a quarter of the text at most together.
fn json_between_notices(t: &str) -> bool {
    let mut at = 0;
    let mut above = 0;
    for line in t.split_inclusive('\n') {
        if line.starts_with(['{', '[']) {
            break;
        }
        if !line.trim().is_empty() {
            above += 1;
            if above > NOTICE_LINES_AT_MOST {
                return false;
            }
        }
        at += line.len();
    }
    let rest = &t[at..];
    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<serde_json::Value>();
    let mut parsed = 0;
    while let Some(Ok(_)) = values.next() {
        parsed += 1;
    }
    let trailer = rest[values.byte_offset()..].trim();
    let below = trailer.lines().filter(|l| !l.trim().is_empty()).count();
    parsed > 0
        && above + below > 0
        && below <= NOTICE_LINES_AT_MOST
        && (at + trailer.len()) * 4 <= t.len()
}

/// JSON documents under comment lines, as `go vet -json` prints them
/// (`# example.com/calc`, then the package's findings): without the lines
/// starting with `#`, the text is JSON.
fn json_under_comment_lines(t: &str) -> bool {
    if !t.starts_with('#') {
        return false;
    }
    // (A Markdown document starts with `#` too: its first other line
    // says so before anything is copied.)
    let first = t
        .lines()
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    if !first.is_some_and(|l| l.starts_with('{') || l.starts_with('[')) {
        return false;
    }
    let body: Vec<&str> = t
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    let body = body.join("\n");
    let b = body.trim();
    (b.starts_with('{') || b.starts_with('['))
        && serde_json::Deserializer::from_str(b)
            .into_iter::<serde_json::Value>()
            .all(|v| v.is_ok())
}

/// A unified diff: `diff --git`, or `--- a/…` followed by `+++ b/…` and hunks.
fn looks_like_diff(text: &str) -> bool {
    let mut minus = false;
    let mut plus = false;
    for l in text.lines().take(LINES_JUDGED) {
        if l.starts_with("diff --git ") {
            return true;
        }
        minus |= l.starts_with("--- ");
        plus |= minus && l.starts_with("+++ ");
        if plus && l.starts_with("@@ ") {
            return true;
        }
    }
    false
}

fn head(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `ValueError: …`, `java.lang.IllegalStateException: …`, `TypeError: …`.
fn is_exception_line(line: &str) -> bool {
    let Some((name, _)) = line.split_once(": ") else {
        return false;
    };
    let last = name.rsplit('.').next().unwrap_or(name);
    !name.contains(' ')
        && last.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && (last.ends_with("Error") || last.ends_with("Exception"))
}

/// Whether `body` is XML by its frame: it opens with an XML declaration,
/// or with an element (not HTML's) that its last line closes.
fn is_xml_document(body: &str) -> bool {
    let t = body.trim();
    if t.starts_with("<?xml") {
        return true;
    }
    let Some(rest) = t.strip_prefix('<') else {
        return false;
    };
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
        .collect();
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && !name.eq_ignore_ascii_case("html")
        && t.ends_with(&format!("</{name}>"))
}

fn looks_structured(sample: &str) -> bool {
    let t = sample.trim();
    // One value from the first bracket to the last: its first line leaves
    // a bracket open (or is all of it). A program's printed list (`[('u11',
    // 2412)]`) over a report that happens to end in `]` is no document.
    let first = t.lines().next().unwrap_or("");
    let opens = |c: char| first.chars().filter(|&x| x == c).count();
    let spans = first.len() == t.len() || opens('[') + opens('{') > opens(']') + opens('}');
    spans
        && ((t.starts_with('{') && t.ends_with('}'))
            || (t.starts_with('[') && t.ends_with(']') && t.contains('"')))
        || is_xml_document(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through_bash(text: &str) -> ContentClass {
        let hints = Hints {
            tool_name: Some("Bash"),
            ..Hints::default()
        };
        classify(text, hints).0
    }

    #[test]
    fn an_installer_narrating_its_steps_is_a_log_not_prose() {
        let advice = "To activate this project's virtualenv, run pipenv shell.\n\
                      Alternatively, run a command inside the virtualenv with pipenv run.\n";
        let text = format!(
            "{advice}Installing click==8.1.7...\n✔ Installation Succeeded\n{advice}\
             Installing dependencies from Pipfile.lock (51d3e4)...\nAll dependencies are now up-to-date!\n\
             Building requirements...\nResolving dependencies...\n✔ Success!\n{advice}\
             Creating a virtualenv for this project\nUsing default python from /usr/bin/python3 to create virtualenv...\n"
        );
        let saved = Hints {
            source_path: Some("out.txt"),
            ..Hints::default()
        };
        assert_eq!(classify(&text, saved).0, ContentClass::Log);
    }

    #[test]
    fn a_report_under_a_printed_list_is_no_document() {
        // kernprof -l -v: the script's own output, a Python list, then the
        // profile, whose last source line ends in `]`.
        let report = "[('u11', 2412), ('u24', 2412)]\nWrote profile results to 'ledger.py.lprof'\n\
                      Timer unit: 1e-06 s\n\nTotal time: 0.0119777 s\nFile: ledger.py\nFunction: totals at line 12\n\n\
                      Line #      Hits         Time  Per Hit   % Time  Line Contents\n\
                      ==============================================================\n\
                      \x20   21         1          2.0      2.0      0.0      return sorted(by_user.items(), key=lambda kv: -kv[1])[:8]\n";
        assert!(!looks_structured(report));
        assert!(looks_structured("[\n  {\"name\": \"a\"}\n]"));
        assert!(looks_structured("[{\"name\": \"a\"},\n {\"name\": \"b\"}]"));
        let saved = Hints {
            source_path: Some("saved/profile.txt"),
            ..Hints::default()
        };
        assert_eq!(classify(report, saved).0, ContentClass::Log);
    }

    #[test]
    fn a_thread_dump_saved_as_text_is_a_log() {
        // Its frames are a program's output, whatever its underlined titles.
        let mut dump =
            String::from("Full thread dump OpenJDK 64-Bit Server VM (17.0.15 mixed mode):\n\n");
        for k in 0..12 {
            dump.push_str(&format!(
                "\"worker-{k}\" #{k} prio=5 os_prio=0 tid=0x7f24 nid=0x5b0{k} waiting on condition\n\
                 \x20  java.lang.Thread.State: TIMED_WAITING (sleeping)\n\
                 \tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n\
                 \tat shop.Ledger.pause(Ledger.java:11)\n\n"
            ));
        }
        dump.push_str("Found one Java-level deadlock:\n=============================\n\"worker-1\":\n\
                       \x20 waiting to lock monitor 0x1 (object 0x2, a java.lang.Object),\n\nFound 1 deadlock.\n");
        let saved = Hints {
            source_path: Some("saved/dump.txt"),
            ..Hints::default()
        };
        assert_eq!(classify(&dump, saved).0, ContentClass::Log);
    }

    #[test]
    fn xml_a_shell_prints_is_structured_but_html_and_bracketed_words() {
        let mocha = "<testsuite name=\"Mocha Tests\" tests=\"2\">\n<testcase classname=\"c\" name=\"a\"/>\n</testsuite>\n";
        assert_eq!(through_bash(mocha), ContentClass::Structured);
        let node = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<testsuites>\n</testsuites>\n";
        assert_eq!(through_bash(node), ContentClass::Structured);
        let frozen = "<frozen importlib._bootstrap>:228: RuntimeWarning: numpy.ndarray size changed\n1 passed in 0.1s\n";
        assert_ne!(through_bash(frozen), ContentClass::Structured);
        let page = "<html>\n<body><p>Hello, this is a page.</p></body>\n</html>";
        assert_ne!(through_bash(page), ContentClass::Structured);
        // Saved to a `.txt`, the content decides.
        let saved = Hints {
            source_path: Some("report.txt"),
            ..Hints::default()
        };
        assert_eq!(classify(mocha, saved).0, ContentClass::Structured);
    }

    #[test]
    fn a_program_dying_with_a_trace_is_an_error_in_any_language() {
        // Go: a call, then its location indented under it.
        let go = "job 1\npanic: runtime error: invalid memory address or nil pointer dereference\n\
                  [signal SIGSEGV: segmentation violation code=0x1 addr=0x8 pc=0x4812cf]\n\n\
                  goroutine 1 [running]:\nmain.run({0x405418?}, 0xc000070f70?)\n\
                  \t/w/main.go:12 +0x4f\nmain.main()\n\t/w/main.go:20 +0x7b\nexit status 2\n";
        assert_eq!(through_bash(go), ContentClass::Error);
        // Perl's confess: `called at FILE line N`.
        let perl = "reading\nbad line: b at conf.pl line 4.\n\
                    \tmain::parse(\"b\") called at conf.pl line 5\n\
                    \tmain::load(\"a=1\", \"b\") called at conf.pl line 7\n";
        assert_eq!(through_bash(perl), ContentClass::Error);
        // A trace followed by a runner's counts is a test run.
        let junit = "JUnit version 4.13.2\n.E.\nTime: 0.004\nThere was 1 failure:\n1) divides(CalcTest)\n\
                     java.lang.AssertionError: expected:<3> but was:<4>\n\
                     \tat org.junit.Assert.fail(Assert.java:89)\n\tat CalcTest.divides(CalcTest.java:34)\n\n\
                     FAILURES!!!\nTests run: 3,  Failures: 1\n";
        assert_eq!(through_bash(junit), ContentClass::Log);
    }

    #[test]
    fn diagnostics_and_test_reports_are_logs_however_they_read() {
        // Long sentences ending in a period, and a `# package` line: still a compiler's report.
        let tsc = "ts/user.ts(2,91): error TS2322: Type 'User | undefined' is not assignable to type 'User' at all here.\n\
                   ts/user.ts(3,48): error TS18048: The value 'u' is possibly 'undefined' and that is not allowed here.\n";
        assert_eq!(through_bash(tsc), ContentClass::Log);
        let go_vet = "# example.com/calc\n./calc.go:7:34: fmt.Sprintf format %s has arg n of wrong type int\n";
        assert_eq!(through_bash(go_vet), ContentClass::Log);
        // `go build -x`: the commands it ran, a heredoc's `#` comments, then
        // the package's `#` line over its errors.
        let go_build_x = "WORK=/tmp/go-build1\nmkdir -p $WORK/b001/\ncat >$WORK/b001/importcfg << 'EOF' # internal\n\
                          # import config\npackagefile strconv=/usr/lib/go/pkg/linux_amd64/strconv.a\n\
                          packagefile strings=/usr/lib/go/pkg/linux_amd64/strings.a\nEOF\ncd /src/calc\n\
                          /usr/lib/go/pkg/tool/linux_amd64/compile -o $WORK/b001/_pkg_.a -p example.com/calc -pack ./calc.go\n\
                          # example.com/calc\n./calc.go:15:9: undefined: totl\n./calc.go:19:38: undefined: count\n";
        assert_eq!(through_bash(go_build_x), ContentClass::Log);
        let saved = Hints {
            source_path: Some("build.txt"),
            ..Hints::default()
        };
        assert_eq!(classify(go_build_x, saved).0, ContentClass::Log);
        // Django's system checks: the exception line introduces the
        // checks' report (no trace under it), each message about a model.
        let django = "SystemCheckError: System check identified some issues:\n\nERRORS:\n\
                      shop.Order.buyer: (fields.E304) Reverse accessor 'Customer.order_set' for 'shop.Order.buyer' clashes with reverse accessor for 'shop.Order.seller'.\n\
                      \tHINT: Add or change a related_name argument to the definition for 'shop.Order.buyer' or 'shop.Order.seller'.\n\
                      shop.Order.total: (fields.E132) DecimalFields must define a 'max_digits' attribute.\n\n\
                      WARNINGS:\nshop.Banner: (models.W042) Auto-created primary key used when not defining a primary key type, by default 'django.db.models.AutoField'.\n\
                      \tHINT: Configure the DEFAULT_AUTO_FIELD setting or the AppConfig.default_auto_field attribute to point to a subclass of AutoField.\n\n\
                      System check identified 3 issues (0 silenced).\n";
        assert_eq!(through_bash(django), ContentClass::Log);
        assert_eq!(classify(django, saved).0, ContentClass::Log);
        // A crawler's log whose tracebacks quote the spider's source: the
        // interpreter's frames say it is output, not Python.
        let mut crawl = String::from(
            "2026-12-03 09:33:16 [scrapy.utils.log] INFO: Scrapy 2.19.0 started (bot: scrapybot)\n\
             2026-12-03 09:33:16 [scrapy.utils.log] INFO: Versions:\n\
             {'lxml': '6.1.3',\n 'libxml2': '2.14.6',\n 'cssselect': '1.6.0',\n 'parsel': '1.12.1',\n\
             \x20'w3lib': '2.5.0',\n 'Twisted': '26.10.0',\n 'Python': '3.11.7',\n 'pyOpenSSL': '26.4.0',\n\
             \x20'cryptography': '50.0.2'}\n\
             2026-12-03 09:33:16 [scrapy.crawler] DEBUG: Using AsyncCrawlerProcess\n",
        );
        for page in 0..4 {
            crawl.push_str(&format!(
                "2026-12-03 09:33:17 [scrapy.core.scraper] ERROR: Spider error processing <GET http://127.0.0.1/p/{page}.html>\n\
                 Traceback (most recent call last):\n  File \"/srv/spider.py\", line 20, in parse_product\n\
                 \x20   price = float(prices['price'])\n  File \"/srv/spider.py\", line 12, in prices\n\
                 \x20   return {{k: v for k, v in pairs if v}}\n\
                 \x20   for k, v in pairs:\n\
                 \x20   if value is None:\n\
                 \x20   return None\nKeyError: 'price'\n"
            ));
        }
        crawl.push_str("2026-12-03 09:33:18 [scrapy.core.engine] INFO: Spider closed (finished)\n");
        assert_eq!(classify(&crawl, saved).0, ContentClass::Log);
        // Notices around a JSON report (biome's reporter is experimental,
        // errors were emitted) leave it data; a text that merely ends with
        // JSON is not.
        let diagnostic =
            "{\"category\":\"lint/style/useTemplate\",\"location\":{\"path\":\"cart.js\"}}";
        let noticed = format!(
            "The `json` reporter is experimental and may change.\n{{\"summary\":{{\"errors\":3}},\"diagnostics\":[{}]}}\n\n  × Some errors were emitted while running checks.\n",
            [diagnostic; 4].join(",")
        );
        assert_eq!(
            classify(&noticed, Hints::default()).0,
            ContentClass::Structured
        );
        let said = "Running the check.\nIt went well.\nThe report follows.\nAll of it, below.\n{\"ok\": true}\n";
        assert!(!parses_as_json(said));
        // `go vet -json`: JSON under each package's `#` line is data.
        let go_vet_json = "# example.com/calc\n{\n\t\"example.com/calc\": {\n\t\t\"printf\": [\n\t\t\t{\n\t\t\t\t\"posn\": \"/w/report.go:7:2\",\n\t\t\t\t\"message\": \"fmt.Printf format %s has arg n of wrong type int\"\n\t\t\t}\n\t\t]\n\t}\n}\n";
        assert_eq!(through_bash(go_vet_json), ContentClass::Structured);
        assert_eq!(
            classify(go_vet_json, Hints::default()).0,
            ContentClass::Structured
        );
        // A test runner's failure diff is part of its report, not a patch.
        let phpunit = "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\n..F  3 / 3 (100%)\n\n\
                       There was 1 failure:\n\n1) MoneyTest::testFormatsCents\n\
                       Failed asserting that two strings are identical.\n--- Expected\n+++ Actual\n@@ @@\n-'1.05'\n+'1.5'\n\n\
                       FAILURES!\nTests: 3, Assertions: 3, Failures: 1.\n";
        assert_eq!(through_bash(phpunit), ContentClass::Log);
    }

    #[test]
    fn classifies_by_hint_and_content() {
        let none = Hints::default();
        assert_eq!(
            classify(
                "x",
                Hints {
                    source_path: Some("src/lib.rs"),
                    ..none
                }
            )
            .0,
            ContentClass::Code
        );
        assert_eq!(
            classify("{\"a\": [1, 2]}", none).0,
            ContentClass::Structured
        );
        assert_eq!(
            classify(
                "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'x'",
                none
            )
            .0,
            ContentClass::Error
        );
        assert_eq!(
            classify(
                "2024-01-01 12:00:00 INFO start\n2024-01-01 12:00:01 INFO ok\n",
                none
            )
            .0,
            ContentClass::Log
        );
        assert_eq!(
            classify("fn main() {\n    let x = 1;\n}\nfn other() {}\n", none).0,
            ContentClass::Code
        );
        // grep -rn through Bash, whatever the matched lines say.
        let search = "docs/a.md:3:This sentence explains at length what the function does.\n\
                      docs/a.md:9:Another sentence that reads like prose to a classifier.\n\
                      docs/b.md:1:A third sentence, also long enough to look like prose.\n\
                      docs/b.md:7:And a fourth one, which ends the way sentences end.\n";
        let bash = Hints {
            tool_name: Some("Bash"),
            ..none
        };
        assert_eq!(classify(search, bash).0, ContentClass::Log);
        // A weak path hint (`.txt`, `.log`) loses to clear content and
        // decides only what the content leaves open.
        let txt = Hints {
            source_path: Some("saved/input.txt"),
            ..none
        };
        assert_eq!(classify("{\"a\": [1, 2]}", txt).0, ContentClass::Structured);
        assert_eq!(
            classify("fn main() {\n    let x = 1;\n}\nfn other() {}\n", txt).0,
            ContentClass::Code
        );
        // A build's lines are a log whatever the file is called; a list
        // under one line of words is left open, for the hint to decide.
        let build = "Reading package lists...\nBuilding dependency tree...\n\
                     E: Unable to locate package ghost-no-such-package\n";
        assert_eq!(classify(build, txt).0, ContentClass::Log);
        let open = "see you all tomorrow at the usual place\nmilk 2\neggs 12\nbread 1\n";
        assert_eq!(classify(open, txt).0, ContentClass::Prose);
        let saved_log = Hints {
            source_path: Some("saved/run.log"),
            ..none
        };
        assert_eq!(classify(open, saved_log).0, ContentClass::Log);
        assert_eq!(
            classify(
                "2024-01-01 12:00:00 INFO start\n2024-01-01 12:00:01 INFO ok\n",
                Hints {
                    source_path: Some("notes.md"),
                    ..none
                }
            )
            .0,
            ContentClass::Prose
        );
        assert_eq!(
            classify(
                "please fix it",
                Hints {
                    tool_name: Some("prompt"),
                    ..none
                }
            )
            .0,
            ContentClass::Prompt
        );
    }

    /// The command a shell ran names the file it printed, and that file's
    /// extension decides like a Read's path does.
    /// Saved to a `.txt` file: pip-compile's pins, each with its hashes and
    /// its `    # via` comment (indented: no Markdown heading), are a log as
    /// its output is; a `go.sum` is a document.
    #[test]
    fn pinned_requirements_and_a_go_sum_are_told_by_their_content() {
        let saved = Hints {
            source_path: Some("saved/input.txt"),
            ..Hints::default()
        };
        let pins: String = ["blinker", "certifi", "click", "flask", "idna", "jinja2"]
            .iter()
            .enumerate()
            .map(|(i, name)| {
                format!(
                    "{name}==1.{i}.0 \\\n    --hash=sha256:{i:064x} \\\n    --hash=sha256:{:064x}\n    # via flask\n",
                    i + 100
                )
            })
            .collect();
        assert_eq!(classify(&pins, saved).0, ContentClass::Log);
        let sum = "golang.org/x/text v0.3.0 h1:g61tztE5qeGQ89tm6NTjjM9VPIm088od1l6aSorWRWG=\n\
                   golang.org/x/text v0.3.0/go.mod h1:NqM8EUOU14njkJ3fqMW+pc6Ldnwhi/IjpwHt7yyuwOQ=\n\
                   golang.org/x/sys v0.1.0/go.mod h1:oPkhp1MJrh7nUepCBck5+mAzfO9JrbApNNgaTdGDITg=\n";
        assert_eq!(classify(sum, saved).0, ContentClass::Structured);
        let read = Hints {
            tool_name: Some("Read"),
            source_path: Some("/src/app/go.sum"),
            ..Hints::default()
        };
        assert_eq!(classify(sum, read).0, ContentClass::Structured);
    }

    #[test]
    fn a_crash_after_a_few_lines_is_an_error_and_a_test_run_stays_a_log() {
        let bash = Hints {
            tool_name: Some("Bash"),
            ..Hints::default()
        };
        let trace = "Traceback (most recent call last):\n  File \"/app/run.py\", line 9, in <module>\n    main()\n  File \"/app/run.py\", line 5, in main\n    load()\n  File \"/app/db.py\", line 40, in load\n    cursor.execute(sql)\nsqlite3.OperationalError: no such table: item\n";
        let crash = format!(
            "/app/run.py:2: DeprecationWarning: old API\n  import imp\nMigrating...\n{trace}Done: 0 rows\nExiting.\n"
        );
        assert_eq!(classify(&crash, bash).0, ContentClass::Error);
        let test_run = format!(
            "test_load (t.T) ... ERROR\n\n{trace}\n----\nRan 1 test in 0.003s\n\nFAILED (errors=1)\n"
        );
        assert_eq!(classify(&test_run, bash).0, ContentClass::Log);
        let build: String = (0..30)
            .map(|i| format!("[step {i}] fetching module {i}\n"))
            .collect();
        assert_eq!(
            classify(&format!("{build}{trace}Finished: FAILURE\n"), bash).0,
            ContentClass::Log
        );
    }

    #[test]
    fn a_job_that_logged_a_trace_and_went_on_is_a_log_without_hints() {
        let preamble: String = (0..12)
            .map(|i| format!(" > git config step-{i} # timeout=10\n"))
            .collect();
        let frames: String = (0..30)
            .map(|i| format!("\tat hudson.remoting.Step{i}.run(Step{i}.java:{i})\n"))
            .collect();
        let jenkins = format!(
            "Started by timer\nBuilding remotely on builder02\n{preamble}ERROR: Error cloning remote repo 'origin'\n\
             hudson.plugins.git.GitException: Command returned status code 128:\n{frames}\
             ERROR: Error cloning remote repo 'origin'\nFinished: FAILURE\n"
        );
        assert_eq!(classify(&jenkins, Hints::default()).0, ContentClass::Log);
    }

    #[test]
    fn a_node_crash_with_the_errors_properties_after_its_trace_is_an_error() {
        let node = "/app/node_modules/yaml/dist/public-api.js:74\n            throw doc.errors[0];\n            ^\n\nYAMLParseError: Map keys must be unique at line 3, column 1:\n\nport: 1\nport: 2\n^\n\n    at Composer.onError (/app/node_modules/yaml/dist/compose/composer.js:69:34)\n    at Object.resolveBlockMap (/app/node_modules/yaml/dist/compose/resolve-block-map.js:64:13)\n    at Composer.next (/app/node_modules/yaml/dist/compose/composer.js:149:40)\n    at next (<anonymous>)\n    at Composer.compose (/app/node_modules/yaml/dist/compose/composer.js:131:25)\n    at compose.next (<anonymous>) {\n  code: 'DUPLICATE_KEY',\n  pos: [ 19, 20 ],\n  linePos: [ { line: 3, col: 1 }, { line: 3, col: 2 } ]\n}\n\nNode.js v20.20.2\n";
        assert_eq!(through_bash(node), ContentClass::Error);
    }

    /// Node 20's own output for an error thrown with a `cause`: the cause's
    /// trace and properties are printed inside the error's, after its last
    /// frame (a location without a function, opening them with `{`).
    #[test]
    fn a_node_crash_with_a_cause_is_an_error() {
        let node = "/app/fetch.js:7\n    throw new Error(`cannot load config ${path}`, { cause: err });\n    ^\n\n\
Error: cannot load config /etc/shop/config.json\n    at readConfig (/app/fetch.js:7:11)\n    at start (/app/fetch.js:12:13)\n\
    ... 6 lines matching cause stack trace ...\n    at node:internal/main/run_main_module:28:49 {\n\
  [cause]: Error: ENOENT: no such file or directory, open '/etc/shop/config.json'\n\
      at Object.readFileSync (node:fs:448:20)\n      at readConfig (/app/fetch.js:5:26)\n\
      at start (/app/fetch.js:12:13)\n      at Object.<anonymous> (/app/fetch.js:16:1)\n\
      at Module._compile (node:internal/modules/cjs/loader:1521:14)\n\
      at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)\n\
      at Module.load (node:internal/modules/cjs/loader:1266:32)\n\
      at Module._load (node:internal/modules/cjs/loader:1091:12)\n\
      at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)\n\
      at node:internal/main/run_main_module:28:49 {\n    errno: -2,\n    code: 'ENOENT',\n\
    syscall: 'open',\n    path: '/etc/shop/config.json'\n  }\n}\n\nNode.js v20.20.2\n";
        assert_eq!(through_bash(node), ContentClass::Error);
    }

    /// AddressSanitizer's report (gcc 12's, real): a rule, its header, the
    /// faulting access's trace and the allocation's, then the shadow memory
    /// around the address and a legend longer than both traces.
    #[test]
    fn a_sanitizer_report_is_an_error() {
        let frames = [
            "    #0 0x55ffca782223 in sum /tmp/t/heap.c:6",
            "    #1 0x55ffca7822c4 in main /tmp/t/heap.c:13",
            "    #2 0x7f3b29e45249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58\n",
        ]
        .join("\n");
        let shadow: String = (0..11)
            .map(|i| {
                format!("  0x0c047fff7f{i:x}0: fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa\n")
            })
            .collect();
        let legend: String = [
            "Addressable",
            "Heap left redzone",
            "Freed heap region",
            "Stack left redzone",
        ]
        .iter()
        .cycle()
        .take(18)
        .map(|name| format!("  {name}: fa\n"))
        .collect();
        let asan = format!(
            "=================================================================\n\
==5183==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000020 at pc 0x55ffca782224 bp 0x7ffe242b14a0 sp 0x7ffe242b1498\n\
READ of size 4 at 0x602000000020 thread T0\n{frames}\n\
0x602000000020 is located 0 bytes to the right of 16-byte region [0x602000000010,0x602000000020)\n\
allocated by thread T0 here:\n{frames}\n\
SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/t/heap.c:6 in sum\n\
Shadow bytes around the buggy address:\n{shadow}\
Shadow byte legend (one shadow byte represents 8 application bytes):\n{legend}==5183==ABORTING\n"
        );
        assert_eq!(through_bash(&asan), ContentClass::Error);
        assert!(is_sanitizer_header(
            "WARNING: ThreadSanitizer: data race (pid=7)"
        ));
        assert!(!is_sanitizer_header(
            "ERROR: Could not find a version: none"
        ));
        assert!(!is_sanitizer_header("==12==ERROR: something failed: badly"));
    }

    /// Rscript stopping on an error (real output, `r-error` in the local
    /// corpus): the error, its calls, a warning R adds, then `Execution
    /// halted`.
    #[test]
    fn an_r_script_halted_by_an_error_is_an_error() {
        let r = "preparing\nError in `$<-.data.frame`(`*tmp*`, z, value = numeric(0)) : \n  replacement has 0 rows, data has 2\nCalls: print -> prep -> $<- -> $<-.data.frame\nIn addition: Warning message:\nIn mean.default(d[[col]]) :\n  argument is not numeric or logical: returning NA\nExecution halted\n";
        assert_eq!(through_bash(r), ContentClass::Error);
        // A log that mentions an error long before R halts stays a log.
        let steps: String = (0..20).map(|i| format!("step {i} done\n")).collect();
        let log = format!("fetching data\nError: retrying download\n{steps}Execution halted\n");
        assert_eq!(through_bash(&log), ContentClass::Log);
    }

    /// clojure.main's report of a program dying of an exception (Clojure
    /// 1.11, real shapes): with the full report written to a file, and
    /// with it on stderr, its data map and trace first.
    #[test]
    fn a_clojure_program_dying_of_an_exception_is_an_error() {
        let short = "60\nExecution error (ExceptionInfo) at shop.cart/price (cart.clj:13).\nunknown sku\n\nFull report at:\n/tmp/clojure-8734.edn\n";
        assert_eq!(through_bash(short), ContentClass::Error);
        let report = "{:clojure.main/message\n \"Execution error (ExceptionInfo) at shop.cart/price (cart.clj:13).\\nunknown sku\\n\",\n :clojure.main/trace\n {:trace\n  [[shop.cart$price invokeStatic \"cart.clj\" 13]\n   [clojure.main main \"main.java\" 40]],\n  :cause \"unknown sku\"}}\n\nExecution error (ExceptionInfo) at shop.cart/price (cart.clj:13).\nunknown sku\n";
        assert_eq!(through_bash(report), ContentClass::Error);
        // A log naming such an error long before its end stays a log.
        let steps: String = (0..20).map(|i| format!("step {i} done\n")).collect();
        let log = format!("Execution error (ExceptionInfo) at a/b (a.clj:1).\n{steps}");
        assert_eq!(through_bash(&log), ContentClass::Log);
    }

    /// gdb's backtrace of a C++ program aborted by an uncaught exception
    /// (gdb 13, real): the C library's and libstdc++'s frames, then the
    /// program's, and the exception's lines after them.
    #[test]
    fn a_native_backtrace_is_an_error() {
        let gdb = "[Thread debugging using libthread_db enabled]\n8\n\nProgram received signal SIGABRT, Aborted.\n\
__pthread_kill_implementation (threadid=<optimized out>, signo=signo@entry=6, no_tid=no_tid@entry=0) at ./nptl/pthread_kill.c:44\n\
#0  __pthread_kill_implementation (threadid=<optimized out>, signo=signo@entry=6, no_tid=no_tid@entry=0) at ./nptl/pthread_kill.c:44\n\
#1  0x00007ffff7aa8f4f in __pthread_kill_internal (signo=6, threadid=<optimized out>) at ./nptl/pthread_kill.c:78\n\
#2  0x00007ffff7a59fb2 in __GI_raise (sig=sig@entry=6) at ../sysdeps/posix/raise.c:26\n\
#3  0x00007ffff7a44472 in __GI_abort () at ./stdlib/abort.c:79\n\
#4  0x00007ffff7c9d919 in ?? () from /lib/x86_64-linux-gnu/libstdc++.so.6\n\
#5  0x00007ffff7ca8e85 in std::terminate() () from /lib/x86_64-linux-gnu/libstdc++.so.6\n\
#6  0x000055555555520c in pick (shelf=std::vector of length 3, capacity 3 = {...}, slot=7) at stock.cpp:4\n\
#7  0x00005555555552c1 in main () at stock.cpp:9\n\
terminate called after throwing an instance of 'std::out_of_range'\n\
  what():  vector::_M_range_check: __n (which is 7) >= this->size() (which is 3)\n\
44\t./nptl/pthread_kill.c: No such file or directory.\n";
        assert_eq!(through_bash(gdb), ContentClass::Error);
        for frame in [
            "#0  main () at seg.c:14",
            "#4 0x55ffca7820f0 in _start (/tmp/heap+0x10f0)",
            "#3 0x7f3b29e29d90 (/lib/x86_64-linux-gnu/libc.so.6+0x29d90)",
            "#0 count /tmp/race.c:8 (race+0x11d9)",
        ] {
            assert!(is_numbered_frame(frame), "{frame}");
        }
        assert!(!is_numbered_frame("#2 see the notes (below) at the end"));
    }

    /// ThreadSanitizer's report after what the program printed (gcc 12,
    /// real): the header is not the output's first line.
    #[test]
    fn a_sanitizer_report_after_the_programs_output_is_an_error() {
        let tsan = "200000\n==================\nWARNING: ThreadSanitizer: data race (pid=17446)\n\
  Read of size 8 at 0x555555558058 by thread T2:\n    #0 count /tmp/race.c:8 (race+0x11d9)\n\n\
  Previous write of size 8 at 0x555555558058 by thread T1:\n    #0 count /tmp/race.c:8 (race+0x11f3)\n\n\
  Location is global 'hits' of size 8 at 0x555555558058 (race+0x4058)\n\n\
  Thread T2 (tid=17449, running) created by main thread at:\n\
    #0 pthread_create ../../../../src/libsanitizer/tsan/tsan_interceptors_posix.cpp:1001 (libtsan.so.2+0x5e686)\n\
    #1 main /tmp/race.c:15 (race+0x1269)\n\n\
SUMMARY: ThreadSanitizer: data race /tmp/race.c:8 in count\n==================\nThreadSanitizer: reported 1 warnings\n";
        assert_eq!(through_bash(tsan), ContentClass::Error);
    }

    /// A short output the shell ends with the signal that killed the
    /// program (glibc's and the C++ runtime's last words, real) is a
    /// crash; a long log that ends so stays a log.
    #[test]
    fn a_program_killed_by_a_signal_is_an_error() {
        for crash in [
            "*** stack smashing detected ***: terminated\nAborted\n",
            "8\nterminate called after throwing an instance of 'std::out_of_range'\n  what():  vector::_M_range_check: __n (which is 7) >= this->size() (which is 3)\nAborted\n",
            "reading\nbash: line 1: 17326 Segmentation fault (core dumped)  python3 peek.py\n",
        ] {
            assert_eq!(through_bash(crash), ContentClass::Error, "{crash}");
        }
        let steps: String = (0..20)
            .map(|i| format!("[{i}/20] Compiling unit{i}.c\n"))
            .collect();
        assert_eq!(
            through_bash(&format!("{steps}Segmentation fault (core dumped)\n")),
            ContentClass::Log
        );
        assert!(!is_signal_report(
            "Program received signal SIGSEGV, Segmentation fault."
        ));
        assert!(!is_signal_report("Killed 3 stale workers"));
    }

    #[test]
    fn node_dying_out_of_heap_with_v8s_native_frames_is_an_error() {
        let frames: String = (1..=9)
            .map(|k| {
                format!(
                    "{k:2}: 0x{:x} v8::internal::Heap::Step{k}(int) [node]\n",
                    0xb78db3 + k
                )
            })
            .collect();
        let oom = format!(
            "\n<--- Last few GCs --->\n\n[1:0x803bca0]  51 ms: Mark-Compact 11.6 (26.7) -> 9.7 (27.1) MB\n\n\
             <--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n\
             ----- Native stack trace -----\n\n{frames}10: 0x195e476  [node]\n"
        );
        assert_eq!(through_bash(&oom), ContentClass::Error);
        assert!(!is_numbered_frame("1: 0xff is the mask"));
        assert!(!is_numbered_frame("12: done"));
    }

    #[test]
    fn ubsan_reports_and_php_stopping_are_errors() {
        let ubsan = "ub.c:3:53: runtime error: division by zero\n\
                     ub.c:4:43: runtime error: shift exponent -3 is negative\n\
                     starting with 1 arguments\nratio inf\nwidened 536870912\ndone\n";
        assert_eq!(through_bash(ubsan), ContentClass::Error);
        let php = "Errors parsing cart.php\nPHP Parse error:  syntax error, unexpected token \"foreach\" in cart.php on line 5\n";
        assert_eq!(through_bash(php), ContentClass::Error);
        let warned =
            "PHP Warning:  Undefined variable $x in /app/a.php on line 3\nrendered 3 pages\n";
        assert_eq!(through_bash(warned), ContentClass::Log);
        assert!(!is_ubsan_report("note: runtime error: see above"));
    }

    #[test]
    fn a_lisp_or_scheme_program_dying_with_its_counted_backtrace_is_an_error() {
        let sbcl = "Unhandled SIMPLE-ERROR in thread #<SB-THREAD:THREAD \"main thread\" RUNNING\n\
                    {1001348003}>:\n  bad row: \"x\"\n\nBacktrace for: #<SB-THREAD:THREAD \"main thread\">\n\
                    0: (SB-DEBUG::DEBUGGER-DISABLED-HOOK #<SIMPLE-ERROR> :QUIT T)\n\
                    1: (INVOKE-DEBUGGER #<SIMPLE-ERROR>)\n2: (ERROR \"bad row: ~s\" \"x\")\n\
                    3: (READ-ROW \"x\")\n4: (LOAD-ROWS (\"1\" \"x\"))\n5: (SB-IMPL::%START-LISP)\n\n\
                    unhandled condition in --disable-debugger mode, quitting\n";
        assert_eq!(through_bash(sbcl), ContentClass::Error);
        let guile = "Backtrace:\nIn ice-9/boot-9.scm:\n  1752:10  4 (with-exception-handler _ _)\n\
                     In unknown file:\n           3 (apply-smob/0 #<thunk 7f66>)\nIn /src/rows.scm:\n\
                     \x20     7:9  2 (_)\n     4:45  1 (row-total #(1 2) _)\n     1:27  0 (cell-at #(1 2) 9)\n\n\
                     /src/rows.scm:1:27: In procedure cell-at:\nIn procedure vector-ref: Argument 2 out of range: 9\n";
        assert_eq!(through_bash(guile), ContentClass::Error);
        // Numbered calls a job printed and went on from are its log.
        let listed = "step 1: (compile core)\nstep 2: (compile cli)\n1: (compile core) ok\n\
                      2: (compile cli) ok\n3: (link) ok\nbuilt 3 targets\nuploading\nuploaded\ndone\n";
        assert_ne!(through_bash(listed), ContentClass::Error);
    }

    #[test]
    fn a_tcl_script_dying_with_its_error_info_is_an_error() {
        let tcl = "pricing the cart\ninvalid command name \"price_of\"\n    while executing\n\"price_of $i\"\n    \
                   (procedure \"total\" line 4)\n    invoked from within\n\"total {apple pear}\"\n    invoked from within\n\
                   \"puts [total {apple pear}]\"\n    (file \"m.tcl\" line 9)\n";
        assert_eq!(through_bash(tcl), ContentClass::Error);
        assert!(!is_tcl_error_info("(see line 4)"));
    }

    #[test]
    fn perl_refusing_a_script_is_an_error_and_its_warnings_a_log() {
        let perl = "Global symbol \"$unitt\" requires explicit package name at p2.pl line 5.\n\
                    Execution of p2.pl aborted due to compilation errors.\n";
        assert_eq!(through_bash(perl), ContentClass::Error);
        let check =
            "syntax error at s.pl line 5, near \"$p\n    print\"\ns.pl had compilation errors.\n";
        assert_eq!(through_bash(check), ContentClass::Error);
        let warned = "Use of uninitialized value $x in addition (+) at w.pl line 3.\n\
                      Use of uninitialized value $x in addition (+) at w.pl line 3.\n\
                      total 4\ntotal 8\nsummed 2 carts had compilation errors: 0\n";
        assert_ne!(through_bash(warned), ContentClass::Error);
    }

    #[test]
    fn a_job_ending_at_a_failure_exit_is_a_log_however_many_sentences() {
        let make_test = concat!(
            "Generating a Unix-style Makefile\n",
            "Writing Makefile for Shop::Ledger\n",
            "Writing MYMETA.yml and MYMETA.json\n",
            "cp lib/Shop/Ledger.pm blib/lib/Shop/Ledger.pm\n",
            "PERL_DL_NONLAZY=1 \"/usr/bin/perl\" \"-MExtUtils::Command::MM\" \"-MTest::Harness\" \"-e\" \"undef *Test::Harness::Switches; test_harness(0, 'blib/lib', 'blib/arch')\" t/*.t\n",
            "t/balance.t .. ok\n",
            "t/fee.t ...... \n",
            "Dubious, test returned 1 (wstat 256, 0x100)\n",
            "Failed 1/2 subtests \n",
            "\n",
            "Test Summary Report\n",
            "-------------------\n",
            "t/fee.t    (Wstat: 256 (exited 1) Tests: 2 Failed: 1)\n",
            "  Failed test:  2\n",
            "  Non-zero exit status: 1\n",
            "Files=2, Tests=4,  0 wallclock secs ( 0.02 usr  0.00 sys +  0.11 cusr  0.02 csys =  0.15 CPU)\n",
            "Result: FAIL\n",
            "\n",
            "#   Failed test 'fee rounds up'\n",
            "#   at t/fee.t line 6.\n",
            "#          got: '0'\n",
            "#     expected: '1'\n",
            "# Looks like you failed 1 test of 2.\n",
            "Failed 1/2 test programs. 1/4 subtests failed.\n",
            "make: *** [Makefile:807: test_dynamic] Error 1\n",
        );
        assert_eq!(through_bash(make_test), ContentClass::Log);
    }

    #[test]
    fn a_document_printed_by_a_command_is_judged_by_its_text_not_its_code() {
        let explain = "A variable already borrowed with a certain mutability (either mutable or\n\
                       immutable) was borrowed again with a different mutability.\n\n\
                       Erroneous code example:\n\n```\nfn bar(x: &mut i32) {}\nfn foo(a: &mut i32) {\n\
                       \x20   let y = &a; // a is borrowed as immutable.\n    bar(a);\n    println!(\"{}\", y);\n}\n```\n\n\
                       To fix this error, ensure that you don't have any other references to the\n\
                       variable before trying to access it with a different mutability:\n\n\
                       ```\nfn bar(x: &mut i32) {}\nfn foo(a: &mut i32) {\n    bar(a);\n    let y = &a; // ok!\n\
                       \x20   println!(\"{}\", y);\n}\n```\n\n\
                       For more information on Rust's ownership system, take a look at the\n\
                       References & Borrowing section of the Book.\n";
        assert_eq!(through_bash(explain), ContentClass::Prose);
    }

    #[test]
    fn a_list_of_files_beside_their_sizes_is_a_log_though_tab_delimited() {
        let du: String = (0..30)
            .map(|k| format!("{k}.{k}M\t/usr/lib/pkg{k}\n"))
            .collect();
        assert_eq!(through_bash(&du), ContentClass::Log);
        let status: String = (0..30).map(|k| format!("M\tlib/mod_{k}.pm\n")).collect();
        assert_eq!(through_bash(&status), ContentClass::Log);
    }

    #[test]
    fn a_php_crash_is_an_error() {
        let php = "summing\nPHP Fatal error:  Uncaught InvalidArgumentException: order has no qty in /app/order.php:3\nStack trace:\n#0 [internal function]: price()\n#1 /app/order.php(6): array_map()\n#2 /app/order.php(8): total()\n#3 {main}\n  thrown in /app/order.php on line 3\n";
        assert_eq!(through_bash(php), ContentClass::Error);
        assert!(!is_numbered_frame("#1 install the tools (see below): done"));
        assert!(!is_numbered_frame("# Heading"));
    }

    #[test]
    fn records_led_by_their_level_are_a_log_however_long_their_sentences() {
        let mkdocs = "INFO    -  Cleaning site directory\nINFO    -  Building documentation to directory: /tmp/mk/site\n\
WARNING -  A reference to 'api.md' is included in the 'nav' configuration, which is not found in the documentation files.\n\
WARNING -  Doc file 'index.md' contains a link 'install.md', but the target is not found among documentation files.\n\
WARNING -  Doc file 'usage.md' contains a link 'img/flow.png', but the target is not found among documentation files.\n\
Aborted with 3 warnings in strict mode!\n";
        assert_eq!(through_bash(mkdocs), ContentClass::Log);
        assert_eq!(
            classify(mkdocs, Hints::default()).0,
            ContentClass::Log,
            "without a hint too"
        );
        assert!(starts_with_level("[ERROR] Failed to execute goal"));
        assert!(starts_with_level("WARNING:root:disk almost full"));
        assert!(!starts_with_level("INFORMATION about the release follows."));
        assert!(!starts_with_level("Errors are reported below."));
    }

    #[test]
    fn a_command_that_prints_one_file_hints_like_its_path() {
        let text = "     1\timport os\n     2\t\n     3\tx = os.getcwd()\n     4\tprint(x)\n";
        let bash = |command| Hints {
            tool_name: Some("Bash"),
            command,
            ..Hints::default()
        };
        assert_eq!(
            classify(text, bash(Some("nl -ba tools/run.py | sed -n '1,4p'"))).0,
            ContentClass::Code
        );
        assert_eq!(
            classify(text, bash(Some("python tools/run.py"))).0,
            ContentClass::Log
        );
        assert_eq!(classify(text, bash(None)).0, ContentClass::Log);
    }

    #[test]
    fn pod_and_restructuredtext_saved_as_text_are_documents() {
        let txt = Hints {
            source_path: Some("saved.txt"),
            ..Hints::default()
        };
        let pod = "=head1 NAME\n\nLocale::Maketext - framework for localization\n\n=head1 SYNOPSIS\n\n  package MyProgram;\n  use strict;\n  use MyProgram::L10N;\n  my $lh = MyProgram::L10N->get_handle() || die \"What language?\";\n\n=head1 DESCRIPTION\n\nIt is a common feature of applications that they work in several languages.\n\n=head2 Methods\n\n=over\n\n=item new\n\n=back\n";
        assert_eq!(classify(pod, txt).0, ContentClass::Prose);
        let rst = "S3 Configuration\n~~~~~~~~~~~~~~~~\n\n.. contents::\n\n  aws configure set default.s3.max_concurrent_requests 20\n  aws configure set default.s3.max_queue_size 10000\n  aws configure set default.s3.multipart_threshold 64MB\n\nmax_concurrent_requests\n^^^^^^^^^^^^^^^^^^^^^^^\n\n  [profile development]\n  s3 =\n    max_concurrent_requests = 20\n";
        assert_eq!(classify(rst, txt).0, ContentClass::Prose);
    }
}
