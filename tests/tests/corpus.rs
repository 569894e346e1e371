//! The built-in log compressor, run through the real runtime, on the real
//! logs in `../shared/corpus/`: every line the corpus marks as the failure
//! survives, and CI failure logs shrink to at most 0.15 of their tokens.

use ghost_tests::{cases_of_class, missing_lines};
use ghost_types::{CompressRequest, ContentClass};

#[test]
fn every_failure_line_survives_and_ci_logs_shrink() {
    let pipeline = ghost_tests::quality_pipeline();
    let cases = cases_of_class("log");
    assert!(
        cases.len() >= 50,
        "expected the Loghub and cidiff logs, found {}",
        cases.len()
    );
    let (mut ci_in, mut ci_out) = (0usize, 0usize);
    let mut failures = Vec::new();
    for case in &cases {
        let request = CompressRequest::new(case.input.clone(), ContentClass::Log);
        let result = pipeline.compress(&request);
        let out = &result.outcome.text;
        let missing = missing_lines(&case.must_keep, out);
        if !missing.is_empty() {
            failures.push(format!(
                "{}: lost {} of {} must-keep lines, e.g. {:?}",
                case.id,
                missing.len(),
                case.must_keep.len(),
                missing[0]
            ));
        }
        let (tokens_in, tokens_out) = (
            ghost_core::tokens::count(&case.input),
            ghost_core::tokens::count(out),
        );
        eprintln!(
            "{:40} {tokens_in:>8} → {tokens_out:>7} tokens  {:.3}  kept {}/{}",
            case.id,
            tokens_out as f64 / tokens_in as f64,
            case.must_keep.len() - missing.len(),
            case.must_keep.len()
        );
        if case.id.starts_with("cidiff-") {
            ci_in += tokens_in;
            ci_out += tokens_out;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let ratio = ci_out as f64 / ci_in as f64;
    eprintln!("CI failure logs: {ci_in} → {ci_out} tokens (o200k_base), ratio {ratio:.3}");
    assert!(
        ratio <= 0.15,
        "CI failure logs compress to {ratio:.3} of their tokens; the bar is 0.15"
    );
}

#[test]
fn test_runner_summaries_name_every_failing_test() {
    let pipeline = ghost_tests::quality_pipeline();
    let mut cargo_log = String::from("   Compiling demo v0.1.0\n");
    for i in 0..200 {
        cargo_log.push_str(&format!("test tests::case_{i} ... ok\n"));
    }
    cargo_log
        .push_str("test tests::adds ... FAILED\n\nfailures:\n\n---- tests::adds stdout ----\n");
    cargo_log.push_str("thread 'tests::adds' panicked at src/lib.rs:9:5:\nassertion `left == right` failed\n  left: 3\n right: 4\n\n");
    cargo_log.push_str(
        "test result: FAILED. 200 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n",
    );
    let out = pipeline
        .compress(&CompressRequest::new(cargo_log, ContentClass::Log))
        .outcome;
    assert!(out.applied, "{:?}", out.fallback_reason);
    assert!(
        out.text
            .contains("[tests (cargo test): 1 failed, 200 passed, 0 skipped]"),
        "{}",
        out.text
    );
    // The failing test and its message are in the kept log, so the header
    // does not repeat them.
    for kept in [
        "\ntest tests::adds ... FAILED\n",
        "\nassertion `left == right` failed\n",
    ] {
        assert!(out.text.contains(kept), "{kept}: {}", out.text);
    }
    assert!(!out.text.contains("[failed: tests::adds"), "{}", out.text);
    assert!(
        out.text.contains("\n[… 200 passing test lines folded]\n"),
        "passing tests fold with their count: {}",
        out.text
    );
    assert!(!out.text.contains("case_1 "), "{}", out.text);
    assert!(
        out.text.trim_end().ends_with("warnings kept]"),
        "ends with the summary line: {}",
        out.text
    );
}

#[test]
fn ansi_codes_are_stripped() {
    let pipeline = ghost_tests::quality_pipeline();
    let mut log = String::new();
    for i in 0..300 {
        log.push_str(&format!(
            "\u{1b}[32m  Downloaded\u{1b}[0m crate-{i} v1.0.{i}\n"
        ));
    }
    log.push_str("\u{1b}[1;31merror[E0308]\u{1b}[0m: mismatched types\n");
    let out = pipeline
        .compress(&CompressRequest::new(log, ContentClass::Log))
        .outcome;
    assert!(out.applied);
    assert!(!out.text.contains('\u{1b}'), "{}", out.text);
    assert!(
        out.text.contains("error[E0308]: mismatched types"),
        "{}",
        out.text
    );
}

#[test]
fn prompts_are_never_compressed() {
    let pipeline = ghost_tests::quality_pipeline();
    let prompt = "please keep every word of this\n".repeat(200);
    let out = pipeline
        .compress(&CompressRequest::new(prompt.clone(), ContentClass::Prompt))
        .outcome;
    assert!(!out.applied);
    assert_eq!(out.text, prompt);
}

/// Compresses every corpus case of `class` at least `min_bytes` long through
/// the real runtime, asserts every must-keep string survived, and returns the
/// token-weighted ratio out / in.
fn class_ratio(class: &str, min_bytes: usize) -> f64 {
    let pipeline = ghost_tests::quality_pipeline();
    let cases: Vec<_> = cases_of_class(class)
        .into_iter()
        .filter(|c| c.input.len() >= min_bytes)
        .collect();
    assert!(
        !cases.is_empty(),
        "the corpus has {class} cases over {min_bytes} bytes"
    );
    let content_class: ContentClass = class.parse().unwrap();
    let (mut tokens_in, mut tokens_out) = (0usize, 0usize);
    for case in &cases {
        let request = CompressRequest::new(case.input.clone(), content_class);
        let out = pipeline.compress(&request).outcome.text;
        let lost = ghost_bench::corpus::lost(&case.must_keep, &out);
        assert!(lost.is_empty(), "{}: lost {lost:?}", case.id);
        tokens_in += ghost_core::tokens::count(&case.input);
        tokens_out += ghost_core::tokens::count(&out);
    }
    let ratio = tokens_out as f64 / tokens_in as f64;
    eprintln!("{class} (≥ {min_bytes} bytes): {tokens_in} → {tokens_out} tokens, ratio {ratio:.3}");
    ratio
}

#[test]
fn error_reports_keep_types_messages_and_chain_links() {
    let ratio = class_ratio("error", 0);
    assert!(
        ratio <= 0.70,
        "error reports compress to {ratio:.3}; the target is 0.70"
    );
}

#[test]
fn structured_data_keeps_top_level_keys() {
    let ratio = class_ratio("structured", 4096);
    assert!(
        ratio <= 0.25,
        "structured data over 4 KB compresses to {ratio:.3}; the target is 0.25"
    );
}

#[test]
fn prose_keeps_every_heading() {
    let ratio = class_ratio("prose", 0);
    assert!(
        ratio <= 0.60,
        "prose compresses to {ratio:.3}; the target is 0.60"
    );
}

#[test]
fn code_keeps_every_top_level_name() {
    let ratio = class_ratio("code", 0);
    assert!(
        ratio <= 0.35,
        "code compresses to {ratio:.3}; the target is 0.35"
    );
}

#[test]
fn the_whole_corpus_scores_within_target() {
    let pipeline = ghost_tests::quality_pipeline();
    let report = ghost_bench::corpus::score(&pipeline, &ghost_tests::corpus_cases()).unwrap();
    let overall = &report.overall;
    assert_eq!(
        overall.kept, overall.must_keep,
        "every must-keep string survives"
    );
    assert!(
        overall.token_ratio() <= 0.25,
        "overall {:.3}; the target is 0.25",
        overall.token_ratio()
    );
}

/// Local cases known to lose must-keeps, in every mode, and why: the
/// misses no principle found so far covers, written down rather than
/// hidden. A case that stops losing must leave this list (the test says
/// so), and any other case that loses fails it.
///
/// - `massif-ms-print` (held out, round 90) and `ms-print-heap` (its
///   tuning twin, round 91): ms_print prints one allocation tree per
///   detailed snapshot, the trees alike but for their sizes; the peak's
///   tree (the rule's facts) folds under the first one shown.
/// - `node-prof-regex` (held out, round 100): `node --prof-process` of a
///   script; 8/15 before its tables were read, 14/15 after, the miss
///   unread (the case stays held out).
/// - `scrapy-crawl-log` (tuning, round 111): Scrapy's crawl of 66 pages;
///   its rule asks for each `Ignoring response <404 …/p/117.html>` line,
///   five lines of one template differing only in the page's number, an
///   id the template fold masks, so they fold to one and a count (13/17;
///   the closing stats, lost before, now stay). Tried: keeping every line
///   of a template of up to 8 lines that differ in their names (not only
///   in numbers); it cost LogChunks 2.5% more tokens and kept none of
///   these, which differ in a number only.
/// - `scrapy-items-dropped` (held out, round 111): its twin, 12/17 (13/17
///   once a few alike alerts each stay), the miss unread.
const KNOWN_MISSES: &[&str] = &[
    "massif-ms-print",
    "ms-print-heap",
    "node-prof-regex",
    "scrapy-crawl-log",
    "scrapy-items-dropped",
];

/// Every case of `report` that lost must-keeps but the known misses (its
/// id, the class the classifier gave it and the lines), and the known
/// misses that lost nothing.
fn unexpected_losses(
    report: &ghost_bench::corpus::CorpusReport,
) -> (Vec<String>, Vec<&'static str>) {
    let lost: Vec<String> = report
        .cases
        .iter()
        .filter(|c| !c.lost.is_empty() && !KNOWN_MISSES.contains(&c.id.as_str()))
        .map(|c| format!("{} (classified {}): {:?}", c.id, c.classified_as, c.lost))
        .collect();
    let fixed = KNOWN_MISSES
        .iter()
        .copied()
        .filter(|id| {
            report
                .cases
                .iter()
                .any(|c| c.id == *id && c.lost.is_empty())
        })
        .collect();
    (lost, fixed)
}

/// Fails when a case but the known misses lost must-keeps, or a known
/// miss kept them all (then it leaves [`KNOWN_MISSES`]).
fn assert_only_known_misses(report: &ghost_bench::corpus::CorpusReport, mode: &str) {
    let (lost, fixed) = unexpected_losses(report);
    assert!(
        lost.is_empty(),
        "{mode}, cases lost must-keep lines:\n{}",
        lost.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "{mode}: {fixed:?} keep every must-keep now; take them off KNOWN_MISSES"
    );
}

/// Real output of tools this corpus never saw (ruff, mypy, pytest,
/// unittest, gcc, javac, node's test runner, cargo test, pip, npm, linters
/// in formats of their own, READMEs), built on this machine by
/// `host/bench/corpus/make-local.py`: every case keeps every must-keep
/// line (but the [`KNOWN_MISSES`]), with the hints a hook has and without any (piped, or saved to a
/// `.txt` file), prose (65 documents: Markdown, reStructuredText, POD, Org) is within its target, and
/// the classifier, given the command, is right; saved to `.txt` files, the
/// content alone decides as well.
#[test]
fn locally_built_tool_outputs_keep_their_failures_and_diagnostics() {
    let pipeline = ghost_tests::quality_pipeline();
    let dir = ghost_tests::workspace().join("host/bench/corpus/local");
    let report = ghost_bench::corpus::score(&pipeline, &dir).unwrap();
    let log = &report.by_class["log"];
    assert!(log.cases >= 10, "{} log cases", log.cases);
    assert_only_known_misses(&report, "with the hints");
    let prose = report.by_class["prose"].token_ratio();
    assert!(prose <= 0.60, "local prose {prose:.3}; the target is 0.60");
    let right = report.overall.classified_right as f64 / report.overall.cases as f64;
    assert!(right >= 0.95, "classifier {right:.3} on the local outputs");
    // The whole path a hook takes: compressed as the classifier decided.
    let options = ghost_bench::corpus::ScoreOptions {
        classified: true,
        ..Default::default()
    };
    let whole = ghost_bench::corpus::score_with(&pipeline, &dir, &options).unwrap();
    assert_only_known_misses(&whole, "classified");
    // Piped or saved with no tool and no path, each under its own class
    // (`ghost compress --class C < output`): every must-keep stays.
    let options = ghost_bench::corpus::ScoreOptions {
        as_saved_file: true,
        ..Default::default()
    };
    let unhinted = ghost_bench::corpus::score_with(&pipeline, &dir, &options).unwrap();
    assert_only_known_misses(&unhinted, "with no tool or path");
    // The same outputs saved to `.txt` files (`ghost compress saved.txt`):
    // the content decides the class, and the compressors keep what matters.
    let options = ghost_bench::corpus::ScoreOptions {
        classified: true,
        as_saved_file: true,
        ..Default::default()
    };
    let saved = ghost_bench::corpus::score_with(&pipeline, &dir, &options).unwrap();
    let right = saved.overall.classified_right as f64 / saved.overall.cases as f64;
    assert!(right >= 0.95, "classifier {right:.3} on saved files");
    let kept = saved.overall.kept as f64 / saved.overall.must_keep as f64;
    assert!(
        kept >= 0.99,
        "saved files keep {kept:.4} of their must-keeps"
    );
}

#[test]
fn read_output_keeps_its_line_numbers_and_says_what_to_read() {
    let pipeline = ghost_tests::quality_pipeline();
    let case = cases_of_class("code")
        .into_iter()
        .find(|c| c.id == "code-rs-crossbeam-deque-0-8-8-deque")
        .unwrap();
    // Claude Code's Read output: every line prefixed with its number and →.
    let numbered: String = case
        .input
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{:>6}→{l}\n", i + 1))
        .collect();
    let mut request = CompressRequest::new(numbered.clone(), ContentClass::Code);
    request.source_path = Some("src/deque.rs".into());
    let out = pipeline.compress(&request).outcome;
    assert!(out.applied, "{:?}", out.fallback_reason);
    let kept: std::collections::HashSet<&str> = numbered.lines().collect();
    let is_numbered = |l: &str| {
        let t = l.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && t[digits..].starts_with('→')
    };
    for line in out.text.lines().filter(|l| is_numbered(l)) {
        assert!(
            kept.contains(line),
            "a kept line is verbatim, number and all: {line:?}"
        );
    }
    let marker = out
        .text
        .lines()
        .find(|l| l.contains("folded (Read offset="))
        .expect("a fold marker");
    // "… lines 41–52 folded (Read offset=41 limit=12)": the range is real.
    let offset: usize = marker
        .split("offset=")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        !out.text.contains(&format!("{offset:>6}→")),
        "line {offset} is folded, not shown"
    );
    let lost = ghost_bench::corpus::lost(&case.must_keep, &out.text);
    assert!(lost.is_empty(), "lost {lost:?}");
}
