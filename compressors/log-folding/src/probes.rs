//! A program tracing its own search says where it looked and found
//! nothing, once for each place: `tsc --traceResolution`'s `File
//! '/app/node_modules/x.ts' does not exist.` a thousand times, `mypy
//! -v`'s `Metadata not found for typing`, a loader's `… = -1 ENOENT`. Each
//! line names another place, so none repeats another but for its numbers
//! (see [`crate::alike`]), yet together they are one line of the trace
//! said again: rarity, not the error word, says a line is news, and a
//! shape said this often is the program's routine. The first few of such
//! a shape stay, with how many there are in all; the rest are counted
//! under them. What the search concluded (`Module name 'x' was not
//! resolved`, the checker's diagnostics) is another shape, and stays.
//!
//! Only where the shape is the log's routine: a diagnostic naming a line
//! of a file, its detail lines under it (javac's `symbol:` and
//! `location:`), a failing test, a line a rule keeps for what it is
//! (`protected`) or a line heading a block is never counted so, and a
//! shape of fewer than [`PROBES_AT_LEAST`] alerts (or than
//! [`PROBE_SHARE_AT_LEAST`] of the log's lines) keeps each.

use crate::alike::Alike;
use rustc_hash::FxHashMap;

/// A shape of alerts is a search's routine from this many lines on…
pub const PROBES_AT_LEAST: usize = 50;

/// …and when they are at least this share of the log's lines.
pub const PROBE_SHARE_AT_LEAST: f64 = 0.05;

/// The first alerts of a routine shape kept as they are.
pub const PROBES_KEPT: usize = 3;

/// Marks in `alike` the alerts of a search's routine shapes (see the
/// module's doc) past the first [`PROBES_KEPT`] of each as repeats,
/// counted under the first. `template_of` gives each line's template,
/// `alert` the error lines, `protected` the lines never counted so.
pub fn fold(
    contents: &[&str],
    template_of: &[usize],
    alert: impl Fn(usize) -> bool,
    protected: impl Fn(usize) -> bool,
    alike: &mut Alike,
) {
    let countable = |i: usize| {
        alert(i)
            && !protected(i)
            && !alike.repeats[i]
            && !crate::markers::names_a_line(contents[i])
            && !crate::markers::has_source_location(contents[i])
            && !crate::alike::names_a_line_of_a_file(contents[i])
            && !crate::line::is_continuation(contents[i])
    };
    let mut lines_of: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for i in (0..contents.len()).filter(|&i| countable(i)) {
        lines_of.entry(template_of[i]).or_default().push(i);
    }
    let least = PROBES_AT_LEAST.max((contents.len() as f64 * PROBE_SHARE_AT_LEAST).ceil() as usize);
    for lines in lines_of.values().filter(|lines| lines.len() >= least) {
        for &i in &lines[PROBES_KEPT..] {
            alike.repeats[i] = true;
        }
        let count = alike.counts.entry(lines[0]).or_insert(0);
        *count = (*count).max(lines.len());
    }
}

#[cfg(test)]
mod tests {
    use crate::fold::folded;

    /// A resolver's trace: for each of 40 modules a few steps, and a file
    /// that does not exist at each place it looks (120 in all), then its
    /// verdict. The first three of those stay with their count; the
    /// verdicts stay.
    fn trace() -> Vec<String> {
        let mut log = Vec::new();
        for m in 0..40 {
            log.push(format!(
                "======== Resolving module 'mod{m}' from '/app/src/index.ts'. ========"
            ));
            log.push("Loading module as file / folder, target file types: TypeScript.".to_string());
            for ext in ["ts", "tsx", "d.ts"] {
                log.push(format!(
                    "File '/app/node_modules/mod{m}/index.{ext}' does not exist."
                ));
            }
            log.push(format!(
                "======== Module name 'mod{m}' was not resolved. ========"
            ));
        }
        log
    }

    #[test]
    fn a_search_trace_keeps_its_first_misses_and_every_verdict() {
        let out = folded(&trace());
        let misses = out
            .iter()
            .filter(|l| l.ends_with("does not exist."))
            .count();
        assert_eq!(misses, super::PROBES_KEPT, "{out:#?}");
        assert!(out.iter().any(|l| l.contains("×120")), "{out:#?}");
        for m in 0..40 {
            let verdict = format!("======== Module name 'mod{m}' was not resolved. ========");
            assert!(out.contains(&verdict), "{verdict} lost: {out:#?}");
        }
    }

    /// The same message at 120 lines of a source file is 120 diagnostics
    /// (javac through Maven: `[ERROR] /src/A.java:[87,31] unmappable
    /// character`), each where to look: every one stays. So does the
    /// detail under each of 120 diagnostics (`symbol:`).
    #[test]
    fn diagnostics_and_their_details_are_never_a_search_routine() {
        let mut log = Vec::new();
        for k in 0..120 {
            log.push(format!(
                "[ERROR] /src/main/java/a/Entities.java:[{},31] unmappable character for encoding UTF-8",
                k + 10
            ));
        }
        let out = folded(&log);
        assert_eq!(out.iter().filter(|l| l.contains("unmappable")).count(), 120);
        let mut log = Vec::new();
        for k in 0..120 {
            log.push(format!("[ERROR] /src/a/T{k}.java:[3,5] cannot find symbol"));
            log.push(format!("[ERROR]   symbol:   class Missing{k}"));
        }
        let out = folded(&log);
        assert_eq!(out.iter().filter(|l| l.contains("symbol:")).count(), 120);
    }

    /// A shape said fewer than [`super::PROBES_AT_LEAST`] times keeps
    /// each line: a few failures, each naming its own thing.
    #[test]
    fn a_few_failures_alike_each_stay() {
        let mut log: Vec<String> = (0..400)
            .map(|k| format!("step {k} done in {k} ms"))
            .collect();
        for k in 0..30u8 {
            let name = format!("{}{}", char::from(b'a' + k / 26), char::from(b'a' + k % 26));
            log.insert(
                10 * usize::from(k) + 5,
                format!("ERROR could not fetch package {name}"),
            );
        }
        let out = folded(&log);
        assert_eq!(
            out.iter().filter(|l| l.contains("could not fetch")).count(),
            30
        );
    }
}
