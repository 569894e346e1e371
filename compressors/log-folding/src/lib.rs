//! ghost's built-in log compressor.
//!
//! Shrinks build, test and server logs while keeping what an agent acts on:
//! - every error, warning, failure and panic line verbatim, with the block
//!   around it (the line before, stack frames and detail lines after; a
//!   warning's first indented detail line when its shape is new, bison's
//!   counterexample); in a log over 100 lines one that says again what an
//!   earlier one said but for its numbers (a server's four hundredth
//!   `Connection broken for id …`) is counted under the first instead
//!   ([`alike`]), and so is one said again at one place more than ten
//!   times (a loop's: gawk's lint once per record), even before a failure
//!   exit;
//! - a line pointing at a line of the input (TeX's `l.14`, `… at lines
//!   14--32`, `line N`), its numbers being what it says, unless its shape
//!   is printed over 50 times; the paragraph under a section the tool
//!   titles as its summary;
//! - by structure, not keywords ([`markers`]): every runner summary (a line
//!   that counts outcomes), every compiler or linter diagnostic, never
//!   regrouped, and the lines before a failure exit; an outline's headers;
//! - the output of the step that failed: the lines leading to a failure
//!   exit (`exited with 1`, not `exited with 0`) are read as a short log of
//!   their own, however long the log before them, so each line there that
//!   names something new or points at a line (`47:6 ✖ …`, `at line 69`)
//!   stays, and in a log over 100 lines they are kept as they are (code
//!   frames and library frames included) but for passing tests and shapes
//!   repeated there; a diagnostic whose header ends at its level (GHC's `A.hs:9:1:
//!   Warning:`) keeps its message below it; an error right under a section
//!   framed by rules (PHP's `====DIFF====` … `====DONE====`) keeps that
//!   section's first lines; sbt's `[info]   at …` frames are continuations;
//! - a section the CI service folds in its view ([`ci_sections`]: Travis's
//!   `travis_fold`, GitHub's `##[group]` but a step's `Run …`, GitLab's
//!   `section_start`) with no failure in it shows only what is always kept
//!   there, not its unusual lines (the worker's sudo options);
//! - a finished progress bar ([`progress`]: `━━━━ 64.9/64.9 kB 377.3 MB/s`,
//!   `#####   8.3%`) folds, in a short log too;
//! - every diff a check printed ([`diff`]: an assertion's expected and
//!   actual lines, a formatter's or a generated file's change), up to 200
//!   lines of each and 2,000 in all: its lines differ in the very words a
//!   template masks;
//! - lines whose template ([`template`], mined from the log itself) is rare:
//!   an unusual line is information whatever its words;
//! - a step's completion line ([`completions`]: the line that began a step
//!   said again with its measurements and the time it took, as the JVM's
//!   GC log ends each collection: `GC(3) Pause Young (Normal) …
//!   23M->13M(64M) 8.312ms`), however often its shape recurs;
//! - a line naming a thing and giving only its measurements
//!   ([`measured_records`]: `go test -bench`'s `BenchmarkAtoi-2  5380591
//!   4.341 ns/op  0 B/op`), when a log has a few such lines, nearly each
//!   naming another thing;
//! - the map of named values a log ends with ([`closing_map`]: Scrapy's
//!   stats, `'item_scraped_count': 53,` one key a line), the tool's own
//!   account of the run;
//! - a line logged above the log's usual level ([`levels`]: cargo's few
//!   INFO lines saying what is dirty amid its `CARGO_LOG=debug` lines);
//! - section titles framed by rules (`=== FAILURES ===`); of a log with
//!   more than 100 of them (`tsc --traceResolution`), the first of each
//!   shape;
//! - the first and last lines for context, and a few lines of each new shape;
//! - runs of lines of one template (numbers, hashes, timestamps, paths
//!   masked, varying words as wildcards; a number with few values, such
//!   as a status, kept apart: [`template::split_categories`]) as one line
//!   plus `[×N similar]`,
//!   the rest as `[… N lines folded]`; tighter under a token budget
//!   ([`compress_within`]);
//! - for test runner output (cargo test, pytest, jest/vitest, go test, mix
//!   test, maven surefire, Gradle and the runners of [`testrun`]) the
//!   pass/fail/skip counts and every failing test by name with its
//!   assertion message; each passing test's own line folds ([`passing`]),
//!   as do a surefire run's classes that passed when it prints totals, so a
//!   passing run collapses to its summaries; pytest's
//!   long tracebacks fold library frames' listings ([`pytest_tb`]);
//! - compiler and linter code frames ([`code_frame`]): the source under a
//!   diagnostic's gutter folds, its labels (`^^^ expected u32`) stay, and a
//!   test runner's frame keeps the line it points at; a frame showing a
//!   change (a formatter's or a suggested edit's `+`/`-` lines) folds its
//!   hunks; a compiler's notes in library code no error is in (system
//!   headers) fold;
//! - a linter's findings in formats of their own ([`findings`]): a line
//!   naming a rule by its code and the place in its block, and lines led by
//!   mostly distinct places;
//! - a tree listing's nodes (`npm ls`, `cargo tree`, Maven's and Gradle's
//!   dependency trees: [`tree`]), but those the tool marks as shown already,
//!   and a text table's rows under its header and rule ([`table`]: `pip
//!   list`, `dpkg -l`) or lined up with its `|` (`python -X importtime`,
//!   psql's results), but a long table ranked by a column of numbers
//!   (cProfile sorted by time) keeps only its first rows, and sections
//!   whose rows the tool ranked by a number (radon's blocks of each file
//!   by complexity: [`ranked_sections`]) keep the largest rows; a tree's roots
//!   stay with its nodes (`cargo tree -d`'s duplicated packages); a list of paths, one a line (`find`, `git
//!   ls-files`: [`listing`]), keeps every path;
//! - a short run of lines that differ in words is printed whole, and a
//!   short log keeps every place in a source file and every project file
//!   it names, and every line whose words differ from those shown (apt's
//!   `Setting up tree`, `Setting up bats`) and each line of a template
//!   printed a few times though they differ only in numbers (one
//!   benchmark's time each); a long log keeps a template's few lines when
//!   each names another thing;
//! - the line where a runner announced a failing test, whatever its words,
//!   with the lines indented under it (its message); a trace printed as
//!   places under it (PHPUnit's `/build/tests/x_test.php:12`, Pester's `at
//!   f, /src/x.ps1:16`) keeps the frames any trace keeps and the message
//!   above them ([`failure_traces`]);
//! - a list the tool numbered itself (`1. …`, `2. …`: [`enumerated`]), item
//!   by item where the log reads as a short one (a link checker's issues
//!   above its failure exit);
//! - pytest's warnings summary keeps each distinct warning once, with its
//!   first place ([`warnings_summary`]); a Python traceback in a log folds
//!   its library frames but the innermost, and a long one its middle
//!   ([`python_traceback`], by [`trace`]'s rule, shared with the error
//!   compressor); so do pytest's short frames ([`pytest_tb`]) and g++'s
//!   template instantiation chains ([`instantiation`]);
//! - a test report written as XML (JUnit-style or NUnit's: [`xml_report`])
//!   read as test results: counts, every failing test with its message,
//!   report and captured output, passing tests by class;
//! - a list of test ids (`pytest --collect-only -q`: [`test_ids`]): each
//!   test function by its first case, with its count of cases;
//! - a help text's options, each with the first line of its description
//!   ([`help_text`]);
//! - search output (`path:line:text`) grouped by file, each path once, only
//!   when the tool that produced it is a search ([`compress_search_within`]):
//!   a linter's `path:line: message` lines look the same and are never
//!   regrouped;
//! - a one-line summary at the end (lines in → out, errors, warnings).
//!
//! The same code runs natively (for benchmarks, and inside other compressors
//! as their fallback) and as the `ghost-compressor-log` component. It never
//! drops an error line without counting it under one printed like it, and
//! never needs anything but the text it is given.

pub mod alike;
pub mod captured_output;
pub mod ci_sections;
pub mod closing_map;
pub mod code_frame;
pub mod column_block;
pub mod completions;
pub mod counted_calls;
pub mod diff;
pub mod enumerated;
pub mod failure_traces;
pub mod findings;
pub mod fold;
pub mod grep;
pub mod help_text;
pub mod instantiation;
pub mod levels;
pub mod line;
pub mod listing;
pub mod long_repeats;
pub mod markers;
pub mod measured_records;
mod minitest;
pub mod native_trace;
mod node_runners;
pub mod passing;
pub mod probes;
pub mod progress;
pub mod pytest_tb;
pub mod python_traceback;
pub mod ranked_sections;
pub mod repeats;
mod runners;
mod search;
pub mod sorted_records;
pub mod syscall_trace;
pub mod table;
pub mod template;
pub mod test_ids;
mod test_unit;
pub mod testrun;
pub mod trace;
pub mod tree;
pub mod warnings_summary;
pub mod xml_report;

pub use fold::FoldOptions;

/// Search output (see [`grep`]) up to this many lines once grouped is shown
/// whole; longer, its grouped lines are folded like any log.
pub const SEARCH_LINES_KEPT_WHOLE: usize = 400;

/// A compressed log and notes about it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedLog {
    /// The compressed text.
    pub text: String,
    /// Short notes, e.g. "2,931 lines → 41, 3 errors kept".
    pub notes: Vec<String>,
}

/// Compresses `text` with the default options.
pub fn compress(text: &str) -> CompressedLog {
    compress_with(text, &FoldOptions::default())
}

/// Compresses `text` to fit `target_tokens` when it can: with the default
/// options first, then, while the result is larger than the budget (by
/// [`ghost_types::estimated_tokens`]), with fewer ordinary lines of context; then, if it
/// is still over, a diagnostic repeating one message at other places is
/// counted under the first with every place named ([`repeats`]). What is
/// always kept stays whatever the budget (errors, warnings, failing tests,
/// every distinct diagnostic, summaries, failure exits); the gap markers
/// say what was folded, and a note says the budget was applied. The log is
/// read once ([`fold::Analysis`]) and only refolded per level, so a budget
/// costs little more time than none.
pub fn compress_within(text: &str, target_tokens: Option<u32>) -> CompressedLog {
    within(text, false, target_tokens)
}

/// [`compress_within`] for the output of a search tool (see
/// [`grep::is_search_tool`]): `path:line:text` results are grouped by file,
/// each path written once ([`grep`]), then folded like any log when long.
pub fn compress_search_within(text: &str, target_tokens: Option<u32>) -> CompressedLog {
    within(text, true, target_tokens)
}

/// Folds `text` (grouped by file first when it is `search` output) to fit
/// `target_tokens`, tightening step by step.
fn within(text: &str, search: bool, target_tokens: Option<u32>) -> CompressedLog {
    if let Some(report) = test_report(text, target_tokens) {
        return report;
    }
    prepared(text, search, |fold_with, by_directory| {
        let mut opts = FoldOptions::default();
        let mut out = fold_with(&opts);
        let Some(target) = target_tokens else {
            return out;
        };
        let fits = |c: &CompressedLog| ghost_types::estimated_tokens(&c.text) <= target as usize;
        for tighter in [FoldOptions::tighter, FoldOptions::tightest] {
            if fits(&out) {
                break;
            }
            opts = tighter(opts);
            out = fold_with(&opts);
            out.notes
                .push(format!("folded tighter for a budget of {target} tokens"));
        }
        if !fits(&out) {
            // Still over: repeats of one diagnostic are counted under the first.
            opts.group_repeated_diagnostics = true;
            out = fold_with(&opts);
            out.notes.push(format!(
                "repeated diagnostics counted under the first for a budget of {target} tokens"
            ));
        }
        if !fits(&out) {
            // Still over: a list of paths is written by directory.
            if let Some(mut listed) = by_directory().filter(|l| l.text.len() < out.text.len()) {
                listed.notes.push(format!(
                    "paths written by directory for a budget of {target} tokens"
                ));
                out = listed;
            }
        }
        out
    })
}

/// Compresses `text` with `opts`.
pub fn compress_with(text: &str, opts: &FoldOptions) -> CompressedLog {
    if let Some(report) = test_report(text, None) {
        return report;
    }
    prepared(text, false, |fold_with, _| fold_with(opts))
}

/// `text` folded as lines with the default options, never read as a test
/// report (the failing tests of one are folded so: see [`xml_report`]).
pub(crate) fn fold_as_lines(text: &str) -> CompressedLog {
    prepared(text, false, |fold_with, _| {
        fold_with(&FoldOptions::default())
    })
}

/// `text` as the tests it reports or lists, when it is a test report
/// written as XML (see [`xml_report`]) or a list of test ids (see
/// [`test_ids`]).
fn test_report(text: &str, target_tokens: Option<u32>) -> Option<CompressedLog> {
    if let Some(text) = xml_report::render(text, target_tokens) {
        return Some(CompressedLog {
            text,
            notes: vec!["test report (XML): read as test results".to_string()],
        });
    }
    if !test_ids::may_list(text) {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let text = test_ids::render(&lines, target_tokens)?;
    Some(CompressedLog {
        text,
        notes: vec!["test ids: each function once, its cases counted".to_string()],
    })
}

/// Reads `text` once (terminal redraws, search grouping when it is `search`
/// output, test reports, the fold analysis) and hands `choose` a function
/// that folds it under given options; search output short enough to keep
/// whole is returned as it is.
fn prepared(
    text: &str,
    search: bool,
    choose: impl FnOnce(
        &dyn Fn(&FoldOptions) -> CompressedLog,
        &dyn Fn() -> Option<CompressedLog>,
    ) -> CompressedLog,
) -> CompressedLog {
    let clean = ghost_terminal_text::strip_ansi(text);
    let mut lines: Vec<&str> = search::split_at_byte(&clean, b'\n')
        .map(ghost_terminal_text::last_redraw)
        .collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    // Search output: grouped by file, which loses nothing; whole when short.
    let grouped = if search { grep::group(&lines) } else { None };
    if let Some(grouped) = &grouped {
        if grouped.lines.len() <= SEARCH_LINES_KEPT_WHOLE {
            let summary = format!(
                "{} result lines in {} files, grouped by file",
                grouped.results, grouped.files
            );
            let mut text = grouped.lines.join("\n");
            text.push_str(&format!("\n[ghost search: {summary}]\n"));
            return CompressedLog {
                text,
                notes: vec![summary],
            };
        }
        lines = grouped.lines.iter().map(String::as_str).collect();
    }
    let contents: Vec<&str> = lines.iter().map(|l| line::content(l)).collect();
    let report = testrun::parse(&contents);
    let analysis = fold::Analysis::of(&contents, &report);
    let paths = analysis.listing();
    choose(
        &|opts: &FoldOptions| render(&lines, &contents, &analysis, &report, opts),
        &|| (!paths.is_empty()).then(|| listed_by_directory(&contents, paths)),
    )
}

/// A list of paths (the lines `paths`) written by directory, every name
/// kept (see [`listing::by_directory`]).
fn listed_by_directory(contents: &[&str], paths: &[usize]) -> CompressedLog {
    let mut body = listing::by_directory(contents, paths);
    let summary = format!(
        "{} paths in {} lines, by directory",
        fold::thousands(paths.len()),
        fold::thousands(body.len())
    );
    body.push(format!("[ghost log: {summary}]"));
    let mut text = body.join("\n");
    text.push('\n');
    CompressedLog {
        text,
        notes: vec![summary],
    }
}

/// Folds the analysed log under `opts` and writes it out: the test header,
/// the folded body, the one-line summary.
fn render(
    lines: &[&str],
    contents: &[&str],
    analysis: &fold::Analysis,
    report: &testrun::TestReport,
    opts: &FoldOptions,
) -> CompressedLog {
    let mut body = Vec::new();
    let stats = fold::fold_analysed(lines, contents, analysis, opts, &mut body);
    let mut out = Vec::new();
    if !report.is_empty() {
        out.push(format!(
            "[tests ({}): {} failed, {} passed, {} skipped]",
            report.runners.join(", "),
            report.failed,
            report.passed,
            report.skipped
        ));
        // A failing test the folded log shows by name (and message) already
        // is not named again.
        // (Searched in one joined text: one search per name, not one per line.)
        let folded = body.join("\n");
        let shown = |s: &str| folded.contains(s);
        for f in &report.failures {
            if shown(&f.name) && f.message.as_deref().is_none_or(shown) {
                continue;
            }
            match &f.message {
                Some(m) => out.push(format!("[failed: {} — {}]", f.name, m)),
                None => out.push(format!("[failed: {}]", f.name)),
            }
        }
    }
    if opts.group_repeated_diagnostics {
        body = repeats::group(&body);
    }
    out.append(&mut body);
    let mut summary = format!(
        "{} lines → {}, {} errors, {} warnings kept",
        fold::thousands(lines.len()),
        fold::thousands(out.len() + 1),
        fold::thousands(stats.errors),
        fold::thousands(stats.warnings)
    );
    if stats.alike > 0 {
        summary.push_str(&format!(
            ", {} more counted as repeats",
            fold::thousands(stats.alike)
        ));
    }
    out.push(format!("[ghost log: {summary}]"));
    let mut notes = vec![summary];
    if !report.failures.is_empty() {
        notes.push(format!("{} failing tests named", report.failures.len()));
    }
    let mut text = out.join("\n");
    text.push('\n');
    CompressedLog { text, notes }
}
