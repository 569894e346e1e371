//! ghost's built-in error compressor.
//!
//! Keeps what a person fixing the error reads: the exception type and message,
//! every chain link (`Caused by:`, `During handling of the above exception`,
//! `The above exception was the direct cause`), the frames in the project's
//! own code, and the top and bottom frame of each trace (the top one below the
//! interpreter's start-up, `<frozen runpy>`). Library, framework and
//! runtime frames in between fold into `… N frames in <package>`; recursion
//! folds into `[… previous N frames repeated M more times]`. Handles Python,
//! Java/Kotlin, JavaScript/Node, Rust (panic + backtrace), Go (goroutine
//! dumps), Elixir, PHP, Ruby and native code (gdb, the sanitizers). Every
//! line that is not a frame is kept verbatim, but for the rows of a memory
//! dump (a sanitizer's shadow bytes) that repeat the row above them and the
//! rows of its legend that explain bytes it does not show.

pub mod frame;

#[cfg(target_arch = "wasm32")]
mod component;

use std::collections::HashSet;

use frame::Frame;

/// A compressed error report and notes about it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedError {
    /// The compressed text.
    pub text: String,
    /// Short notes, e.g. "212 frames → 9".
    pub notes: Vec<String>,
}

/// Longest repeating group of frames looked for (recursion through N functions).
const MAX_PERIOD: usize = 8;

// A trace longer than `LONG_TRACE` folds its middle frames, the project's
// own included: what a fix reads is where it started (the first frame),
// where it was raised (the last `INNERMOST_KEPT`) and the innermost frame
// of the project's own code. The log compressor folds the tracebacks inside
// a log by the same numbers.
use ghost_log_folding::trace::{INNERMOST_KEPT, LONG_TRACE};

/// Compresses `text`; `None` when there is nothing to fold (no frames or
/// every frame worth keeping, and no memory dump to fold).
pub fn compress(text: &str) -> Option<CompressedError> {
    fold(text, false)
}

/// Compresses `text` to fit `target_tokens` if given (by
/// [`ghost_types::estimated_tokens`]): when the usual folding is over it,
/// a long trace in any language folds its middle as a long Python trace
/// does (the project's frames beyond the few nearest the raise included),
/// and a memory dump keeps only its marked row. Every line that is not a
/// frame still stays, so a report may be over a very small budget.
pub fn compress_within(text: &str, target_tokens: Option<u32>) -> Option<CompressedError> {
    let out = fold(text, false);
    let Some(target) = target_tokens else {
        return out;
    };
    let over = |t: &str| ghost_types::estimated_tokens(t) > target as usize;
    if !out.as_ref().map_or(over(text), |o| over(&o.text)) {
        return out;
    }
    let mut tight = fold(text, true).or(out)?;
    tight
        .notes
        .push(format!("tightened for a budget of {target} tokens"));
    Some(tight)
}

/// Folds `text`'s traces and memory dumps, as tightly as a budget asks
/// when `tight`.
fn fold(text: &str, tight: bool) -> Option<CompressedError> {
    let clean = ghost_terminal_text::strip_ansi(text);
    let lines: Vec<&str> = clean.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let (mut frames_in, mut frames_out) = (0usize, 0usize);
    let mut rows_folded = 0usize;
    // The bytes a memory dump showed, and the rows of its legend folded
    // because they explain bytes it did not show.
    let mut dumped: HashSet<&str> = HashSet::new();
    let mut legend_folded = 0usize;
    let mut printed: HashSet<String> = HashSet::new();
    let mut i = 0;
    while i < lines.len() {
        // A trace: consecutive frames (with the lines that belong to each).
        let mut trace: Vec<(Frame, usize)> = Vec::new();
        while i < lines.len() {
            let Some(f) = frame::parse(&lines, i) else {
                break;
            };
            let next = i + 1 + f.extra_lines;
            trace.push((f, i));
            i = next;
        }
        if trace.is_empty() {
            let rows = dump_rows(&lines[i..]);
            if rows > 0 {
                rows_folded += fold_dump(&lines[i..i + rows], tight, &mut out);
                dumped.extend(
                    lines[i..i + rows]
                        .iter()
                        .filter_map(|row| dump_bytes(row))
                        .flat_map(byte_words),
                );
                i += rows;
                continue;
            }
            if !dumped.is_empty() && is_legend_header(lines[i]) {
                out.push(lines[i].trim_end().to_string());
                let rows = lines[i + 1..]
                    .iter()
                    .take_while(|l| legend_bytes(l).is_some())
                    .count();
                legend_folded += fold_legend(&lines[i + 1..i + 1 + rows], &dumped, tight, &mut out);
                i += 1 + rows;
                continue;
            }
            out.push(lines[i].trim_end().to_string());
            i += 1;
            continue;
        }
        frames_in += trace.len();
        frames_out += fold_trace(&lines, &trace, tight, &mut printed, &mut out);
    }
    if frames_out == frames_in && rows_folded == 0 && legend_folded == 0 {
        return None;
    }
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut parts = Vec::new();
    if frames_in > 0 {
        parts.push(format!(
            "{frames_in} frames → {frames_out}, {} folded",
            frames_in - frames_out
        ));
    }
    if rows_folded > 0 {
        parts.push(format!(
            "{rows_folded} memory row{} folded",
            plural(rows_folded)
        ));
    }
    if legend_folded > 0 {
        parts.push(format!(
            "{legend_folded} legend row{} folded",
            plural(legend_folded)
        ));
    }
    let summary = parts.join("; ");
    out.push(format!("[ghost error: {summary}]"));
    let mut text = out.join("\n");
    text.push('\n');
    Some(CompressedError {
        text,
        notes: vec![summary],
    })
}

/// How many lines from the first are rows of a memory dump: an address,
/// a colon and bytes in hex (`  0x0c047fff7fb0: 00 00 fa fa …`), the row
/// holding the faulting address marked `=>` and its byte bracketed, as
/// AddressSanitizer prints the shadow memory around a bad access.
fn dump_rows(lines: &[&str]) -> usize {
    lines.iter().take_while(|l| dump_bytes(l).is_some()).count()
}

/// The bytes of a memory dump's row (see [`dump_rows`]), without its
/// address.
fn dump_bytes(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = t.strip_prefix("=>").unwrap_or(t);
    let (address, bytes) = t.strip_prefix("0x")?.split_once(": ")?;
    let is_byte = |w: &str| w.len() == 2 && w.bytes().all(|b| b.is_ascii_hexdigit());
    let words: Vec<&str> = byte_words(bytes).collect();
    (!address.is_empty()
        && address.bytes().all(|b| b.is_ascii_hexdigit())
        && words.len() >= 4
        && words.iter().all(|w| is_byte(w)))
    .then_some(bytes)
}

/// The bytes of a dump's row, one word each (`00`, and `fa` of `[fa]`).
fn byte_words(bytes: &str) -> impl Iterator<Item = &str> {
    bytes.split([' ', '[', ']']).filter(|w| !w.is_empty())
}

/// The line opening a memory dump's legend: `Shadow byte legend (one
/// shadow byte represents 8 application bytes):`.
fn is_legend_header(line: &str) -> bool {
    let t = line.trim_end();
    t.ends_with(':') && t.to_ascii_lowercase().contains("legend")
}

/// The bytes a legend's row explains: `01 02 03` of `  Partially
/// addressable: 01 02 03`, `fa` of `  Heap left redzone:       fa`.
fn legend_bytes(line: &str) -> Option<&str> {
    if !line.starts_with([' ', '\t']) {
        return None;
    }
    let (label, bytes) = line.split_once(':')?;
    let is_byte = |w: &str| w.len() == 2 && w.bytes().all(|b| b.is_ascii_hexdigit());
    let mut words = byte_words(bytes).peekable();
    (!label.trim().is_empty() && words.peek().is_some() && words.all(is_byte)).then_some(bytes)
}

/// Writes a legend's rows to `out`, those explaining none of the bytes the
/// dump above showed (every row, when `tight`) folded into a count, and
/// returns how many it folded.
fn fold_legend(rows: &[&str], shown: &HashSet<&str>, tight: bool, out: &mut Vec<String>) -> usize {
    let mut folded = 0;
    for row in rows {
        let explains_a_shown_byte =
            legend_bytes(row).is_some_and(|bytes| byte_words(bytes).any(|b| shown.contains(b)));
        if explains_a_shown_byte && !tight {
            out.push(row.trim_end().to_string());
        } else {
            folded += 1;
        }
    }
    let plural = if folded == 1 { "" } else { "s" };
    if folded > 0 && tight {
        out.push(format!("  [… {folded} legend row{plural}]"));
    } else if folded > 0 {
        out.push(format!(
            "  [… {folded} legend row{plural} of bytes the dump above does not show]"
        ));
    }
    folded
}

/// Writes a memory dump's rows to `out`, a row holding the same bytes as
/// the row above it (every row, when `tight`) folded into a count (a marked
/// row always printed), and returns how many rows it folded.
fn fold_dump(rows: &[&str], tight: bool, out: &mut Vec<String>) -> usize {
    let mut folded = 0;
    let mut run = 0;
    let what = if tight {
        "of the dump"
    } else {
        "of the same bytes"
    };
    let flush = |run: &mut usize, out: &mut Vec<String>| {
        match *run {
            0 => {}
            1 => out.push(format!("  [… 1 row {what}]")),
            n => out.push(format!("  [… {n} rows {what}]")),
        }
        *run = 0;
    };
    for (k, row) in rows.iter().enumerate() {
        let marked = row.trim_start().starts_with("=>");
        let same = !marked && (tight || k > 0 && dump_bytes(row) == dump_bytes(rows[k - 1]));
        if same {
            run += 1;
            folded += 1;
        } else {
            flush(&mut run, out);
            out.push(row.trim_end().to_string());
        }
    }
    flush(&mut run, out);
    folded
}

/// Writes one trace to `out` and returns how many frames it printed. A
/// frame an earlier trace of the text printed word for word (a chained
/// exception's shared calls) folds into a count, but for the innermost:
/// where this exception was raised is news.
fn fold_trace(
    lines: &[&str],
    trace: &[(Frame, usize)],
    tight: bool,
    printed_before: &mut HashSet<String>,
    out: &mut Vec<String>,
) -> usize {
    let keys: Vec<&str> = trace.iter().map(|(f, _)| f.key.as_str()).collect();
    let last = trace.len() - 1;
    // Python lists the innermost call last: there the middle of a long
    // trace folds, the project's own frames included; under a budget, any
    // long trace's middle does.
    let innermost_last = trace[0].0.innermost_last;
    let long = trace.len() > LONG_TRACE && (innermost_last || tight);
    // Where the program started: the outermost frame that is not the
    // interpreter's own start-up (`<frozen runpy>` running `python -m`).
    let entry = trace
        .iter()
        .position(|(f, _)| !f.file.as_deref().is_some_and(|p| p.starts_with("<frozen")))
        .unwrap_or(0);
    // A trace with no frame of the project's own (a module of the standard
    // library run as a program: `python -m http.server`) reads the file it
    // started in as the program's own.
    let entry_file = trace[entry].0.file.as_deref();
    let no_own = trace.iter().all(|(f, _)| f.library);
    let own =
        |f: &Frame| !f.library || no_own && f.file.is_some() && f.file.as_deref() == entry_file;
    let innermost_own = trace.iter().rposition(|(f, _)| own(f));
    // Where the program's own code starts: its outermost frame of its own.
    // The frames around that one are the runtime or runner starting the
    // program (libc's `_start`, node's `run_main_module`, surefire's
    // booter, pytest's entry point) and fold; with no frame of its own,
    // the outermost frame stays instead.
    let outermost = if innermost_last { entry } else { last };
    let program_start = match (no_own, innermost_last) {
        (true, _) => outermost,
        (false, true) => trace.iter().position(|(f, _)| own(f)).unwrap_or(outermost),
        // Listed innermost first, its last own frame is the outermost.
        (false, false) => innermost_own.unwrap_or(outermost),
    };
    let raise = if innermost_last { last } else { entry };
    // The project's frame nearest where it was raised, and whether a
    // frame is among the few nearest that.
    let nearest_own = if innermost_last {
        innermost_own
    } else {
        trace.iter().position(|(f, _)| own(f))
    };
    let near_the_raise = |k: usize| {
        if innermost_last {
            k + INNERMOST_KEPT > last
        } else {
            k < INNERMOST_KEPT
        }
    };
    let mut printed = 0;
    let mut folded: Vec<&str> = Vec::new();
    let flush = |folded: &mut Vec<&str>, out: &mut Vec<String>| {
        if folded.is_empty() {
            return;
        }
        let mut packages: Vec<&str> = Vec::new();
        for p in folded.iter() {
            if !packages.contains(p) {
                packages.push(p);
            }
        }
        let shown = if packages.len() > 3 {
            format!(
                "{} and {} more",
                packages[..3].join(", "),
                packages.len() - 3
            )
        } else {
            packages.join(", ")
        };
        let n = folded.len();
        out.push(format!(
            "    … {n} frame{} in {shown}",
            if n == 1 { "" } else { "s" }
        ));
        folded.clear();
    };
    let mut repeats = 0;
    let mut k = 0;
    while k < trace.len() {
        if let Some((period, cycles)) = repetition(&keys, k) {
            // Print one round of the cycle, then say how often it repeats.
            flush_repeats(&mut repeats, out);
            for (f, start) in &trace[k..k + period] {
                flush(&mut folded, out);
                print_frame(lines, f, *start, out);
                printed += 1;
            }
            flush(&mut folded, out);
            out.push(format!(
                "    [… previous {period} frame{} repeated {cycles} more times]",
                if period == 1 { "" } else { "s" }
            ));
            k += period * (cycles + 1);
            continue;
        }
        let (f, start) = &trace[k];
        let kept = k == raise
            || k == program_start
            || unbalanced(lines[*start])
            || long && (near_the_raise(k) || Some(k) == nearest_own)
            || own(f) && !long;
        if kept {
            flush(&mut folded, out);
            let text = lines[*start..=*start + f.extra_lines].join("\n");
            if k != raise && printed_before.contains(&text) {
                repeats += 1;
            } else {
                flush_repeats(&mut repeats, out);
                print_frame(lines, f, *start, out);
                printed_before.insert(text);
                printed += 1;
            }
        } else if !own(f) {
            flush_repeats(&mut repeats, out);
            folded.push(&f.package);
        } else {
            // The project's own frame: named by its folder.
            flush_repeats(&mut repeats, out);
            folded.push(
                f.package
                    .rsplit_once('/')
                    .map_or(f.package.as_str(), |(dir, _)| dir),
            );
        }
        k += 1;
    }
    flush(&mut folded, out);
    flush_repeats(&mut repeats, out);
    printed
}

/// Whether a frame's line opens or closes more brackets than it closes or
/// opens: node's `at node:internal/main/run_main_module:28:49 {` opens the
/// error's properties, Clojure's last frame of its report as data closes
/// the vector (`[clojure.main main "main.java" 40]],`). Folding it would
/// leave the text's brackets unpaired.
fn unbalanced(line: &str) -> bool {
    let mut depth = 0i32;
    for c in line.chars() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            _ => {}
        }
    }
    depth != 0
}

/// Writes the count of frames printed by an earlier trace, if any.
fn flush_repeats(repeats: &mut usize, out: &mut Vec<String>) {
    match *repeats {
        0 => {}
        1 => out.push("    [… 1 frame as printed above]".to_string()),
        n => out.push(format!("    [… {n} frames as printed above]")),
    }
    *repeats = 0;
}

fn print_frame(lines: &[&str], f: &Frame, start: usize, out: &mut Vec<String>) {
    for line in &lines[start..=start + f.extra_lines] {
        out.push(line.trim_end().to_string());
    }
}

/// A group of `period` frames starting at `k` that repeats right after itself
/// at least twice more: `(period, further repeats)`.
fn repetition(keys: &[&str], k: usize) -> Option<(usize, usize)> {
    (1..=MAX_PERIOD).find_map(|p| {
        let mut repeats = 0;
        while k + p * (repeats + 2) <= keys.len()
            && keys[k..k + p] == keys[k + p * (repeats + 1)..k + p * (repeats + 2)]
        {
            repeats += 1;
        }
        (repeats >= 2).then_some((p, repeats))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AddressSanitizer's report on a heap overflow (gcc 12, real): the C
    /// runtime's frames fold (its `_start` outside `main` too), the
    /// program's stay, and of the shadow memory
    /// the rows repeating the row above fold but for the marked one.
    #[test]
    fn a_sanitizer_report_folds_the_runtime_and_repeated_shadow_rows() {
        let zeros = "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00";
        let redzone = "fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa";
        let mut lines = vec![
            "=================================================================".to_string(),
            "==5183==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000020 at pc 0x55ffca782224 bp 0x7ffe242b14a0 sp 0x7ffe242b1498".to_string(),
            "READ of size 4 at 0x602000000020 thread T0".to_string(),
            "    #0 0x55ffca782223 in sum /tmp/t/heap.c:6".to_string(),
            "    #1 0x55ffca7822c4 in main /tmp/t/heap.c:13".to_string(),
            "    #2 0x7f3b29e45249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58".to_string(),
            "    #3 0x7f3b29e45304 in __libc_start_main_impl ../csu/libc-start.c:360".to_string(),
            "    #4 0x55ffca7820f0 in _start (/tmp/t/heap+0x10f0)".to_string(),
            String::new(),
            "SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/t/heap.c:6 in sum".to_string(),
            "Shadow bytes around the buggy address:".to_string(),
            format!("  0x0c047fff7fe0: {zeros}"),
            format!("  0x0c047fff7ff0: {zeros}"),
            "=>0x0c047fff8000: fa fa 00 00[fa]fa fa fa fa fa fa fa fa fa fa fa".to_string(),
        ];
        for row in ["8010", "8020", "8030"] {
            lines.push(format!("  0x0c047fff{row}: {redzone}"));
        }
        lines.extend(
            [
                "Shadow byte legend (one shadow byte represents 8 application bytes):",
                "  Addressable:           00",
                "  Partially addressable: 01 02 03 04 05 06 07 ",
                "  Heap left redzone:       fa",
                "  Freed heap region:       fd",
                "  Stack left redzone:      f1",
                "==5183==ABORTING",
            ]
            .map(String::from),
        );
        let report = lines.join("\n");
        let out = compress(&report).expect("folds").text;
        for kept in [
            "==5183==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000020",
            "READ of size 4 at 0x602000000020 thread T0",
            "    #0 0x55ffca782223 in sum /tmp/t/heap.c:6",
            "    #1 0x55ffca7822c4 in main /tmp/t/heap.c:13",
            "    … 3 frames in libc_start_call_main.h, libc-start.c, heap",
            "SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/t/heap.c:6 in sum",
            "  0x0c047fff7fe0: 00 00",
            "  [… 1 row of the same bytes]",
            "=>0x0c047fff8000: fa fa 00 00[fa]fa",
            "  0x0c047fff8010: fa fa",
            "  [… 2 rows of the same bytes]",
            "  Heap left redzone:       fa",
            "==5183==ABORTING",
        ] {
            assert!(out.contains(kept), "lost {kept:?} in\n{out}");
        }
        assert!(!out.contains("__libc_start_main_impl"), "{out}");
        assert!(!out.contains("_start (/tmp/t/heap"), "{out}");
        assert!(
            out.contains("; 3 memory rows folded; 3 legend rows folded]"),
            "{out}"
        );
        // The legend explains the dump's bytes (00 and fa) and no others.
        assert!(out.contains("  Addressable:           00"), "{out}");
        assert!(
            out.contains("  [… 3 legend rows of bytes the dump above does not show]"),
            "{out}"
        );
        assert!(!out.contains("Freed heap region"), "{out}");
    }

    /// A Java trace through the project's code and a framework: under a
    /// budget it keeps the few frames nearest where it was raised, where
    /// the program started and every exception line.
    #[test]
    fn a_budget_keeps_where_it_was_raised_and_started() {
        let mut t = String::from(
            "Exception in thread \"main\" java.lang.IllegalStateException: ledger closed\n",
        );
        t.push_str("\tat java.util.Objects.requireNonNull(Objects.java:233)\n");
        for (class, line) in [
            ("Ledger.add", 42),
            ("Ledger.post", 60),
            ("Billing.charge", 17),
            ("Billing.run", 9),
        ] {
            t.push_str(&format!(
                "\tat com.acme.{class}({}.java:{line})\n",
                class.split('.').next().unwrap()
            ));
        }
        for i in 0..6 {
            t.push_str(&format!(
                "\tat org.springframework.Step{i}.run(Step{i}.java:{i})\n"
            ));
        }
        t.push_str("\tat com.acme.Main.main(Main.java:7)\nCaused by: java.io.IOException: disk full\n\tat java.io.FileOutputStream.write(FileOutputStream.java:1)\n\t... 11 more\n");
        let usual = compress_within(&t, None).unwrap();
        assert!(
            usual.text.contains("com.acme.Billing.charge"),
            "{}",
            usual.text
        );
        let tight = compress_within(&t, Some(40)).unwrap();
        for kept in [
            "java.lang.IllegalStateException: ledger closed",
            "\tat java.util.Objects.requireNonNull(Objects.java:233)",
            "\tat com.acme.Ledger.add(Ledger.java:42)",
            "\tat com.acme.Main.main(Main.java:7)",
            "Caused by: java.io.IOException: disk full",
            "\t... 11 more",
        ] {
            assert!(
                tight.text.contains(kept),
                "lost {kept:?} in\n{}",
                tight.text
            );
        }
        assert!(!tight.text.contains("Billing.charge"), "{}", tight.text);
        assert!(tight.text.len() < usual.text.len());
        assert!(tight.notes.iter().any(|n| n.contains("budget of 40")));
        // A budget the usual folding meets changes nothing.
        assert_eq!(compress_within(&t, Some(10_000)), Some(usual));
    }

    #[test]
    fn java_library_frames_fold_and_chain_links_stay() {
        let mut t =
            String::from("Exception in thread \"main\" java.lang.IllegalStateException: boom\n");
        t.push_str("\tat com.acme.Billing.charge(Billing.java:42)\n");
        for i in 0..20 {
            t.push_str(&format!(
                "\tat org.apache.maven.Lifecycle.step{i}(Lifecycle.java:{i})\n"
            ));
        }
        t.push_str("\tat com.acme.Main.main(Main.java:7)\nCaused by: java.io.IOException: disk full\n\tat java.io.FileOutputStream.write(FileOutputStream.java:1)\n\t... 22 more\n");
        let out = compress(&t).unwrap().text;
        assert!(out.contains("java.lang.IllegalStateException: boom"));
        assert!(out.contains("Caused by: java.io.IOException: disk full"));
        assert!(out.contains("com.acme.Billing.charge"));
        assert!(out.contains("com.acme.Main.main"));
        assert!(out.contains("    … 20 frames in org.apache"), "{out}");
        assert!(out.contains("\t... 22 more"));
    }

    #[test]
    fn python_recursion_folds() {
        let mut t = String::from(
            "Traceback (most recent call last):\n  File \"<string>\", line 5, in <module>\n",
        );
        for _ in 0..300 {
            t.push_str("  File \"/usr/lib/python3.11/copy.py\", line 153, in deepcopy\n    y = copier(memo)\n        ^^^^^^^^^^^^\n  File \"<string>\", line 4, in __deepcopy__\n");
        }
        t.push_str("RecursionError: maximum recursion depth exceeded\n");
        let out = compress(&t).unwrap().text;
        assert!(
            out.contains("[… previous 2 frames repeated 299 more times]"),
            "{out}"
        );
        assert!(out.contains("RecursionError: maximum recursion depth exceeded"));
        assert!(out.len() < t.len() / 20);
    }

    #[test]
    fn go_recursion_folds_though_each_frame_has_its_own_pointers() {
        let mut t = String::from(
            "runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow\n\ngoroutine 1 [running]:\n",
        );
        t.push_str("main.depth(0x1555526?)\n\t/tmp/deep/main.go:5 +0x33 fp=0xc0200e0018 sp=0xc0200e0000 pc=0x480ff3\n");
        for k in 1..100 {
            t.push_str(&format!(
                "main.depth(0x0?)\n\t/tmp/deep/main.go:5 +0x1c fp=0xc0200e{:04x} sp=0xc0200e{:04x} pc=0x480fdc\n",
                k * 24 + 24,
                k * 24
            ));
        }
        t.push_str("...additional frames elided...\nexit status 2\n");
        let out = compress(&t).unwrap().text;
        assert!(
            out.contains("[… previous 1 frame repeated 98 more times]"),
            "{out}"
        );
        // The call that overflowed is another place in the function.
        assert!(out.contains("main.go:5 +0x33"), "{out}");
        assert!(out.contains("main.depth(0x0?)"));
        assert!(out.contains("fatal error: stack overflow"));
        assert!(out.contains("exit status 2"));
    }

    #[test]
    fn a_module_run_with_python_m_starts_below_the_interpreters_frames() {
        let t = "Traceback (most recent call last):\n  File \"<frozen runpy>\", line 198, in _run_module_as_main\n  File \"<frozen runpy>\", line 88, in _run_code\n  File \"/usr/lib/python3.11/http/server.py\", line 1313, in <module>\n    test(\n  File \"/usr/lib/python3.11/http/server.py\", line 1260, in test\n    with ServerClass(addr, HandlerClass) as httpd:\n  File \"/usr/lib/python3.11/socketserver.py\", line 456, in __init__\n    self.server_bind()\n  File \"/usr/lib/python3.11/socketserver.py\", line 472, in server_bind\n    self.socket.bind(self.server_address)\nOSError: [Errno 98] Address already in use\n";
        let out = compress(t).unwrap().text;
        assert!(
            out.contains("http/server.py\", line 1313, in <module>"),
            "{out}"
        );
        assert!(
            out.contains("http/server.py\", line 1260, in test"),
            "{out}"
        );
        assert!(!out.contains("line 198, in _run_module_as_main"), "{out}");
        assert!(!out.contains("line 456, in __init__"), "{out}");
        assert!(out.contains("line 472, in server_bind"), "{out}");
        assert!(out.contains("OSError: [Errno 98] Address already in use"));
    }

    #[test]
    fn php_vendor_frames_fold() {
        let mut t = String::from(
            "PHP Fatal error:  Uncaught RuntimeException: no order in /app/src/Order.php:3\nStack trace:\n#0 /app/src/Order.php(9): load()\n",
        );
        for i in 1..12 {
            t.push_str(&format!(
                "#{i} /app/vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php({}): handle()\n",
                100 + i
            ));
        }
        t.push_str("#12 /app/public/index.php(17): run()\n#13 {main}\n  thrown in /app/src/Order.php on line 3\n");
        let out = compress(&t).unwrap().text;
        assert!(out.contains("#0 /app/src/Order.php(9): load()"), "{out}");
        assert!(
            out.contains("#12 /app/public/index.php(17): run()"),
            "{out}"
        );
        assert!(out.contains("frames in laravel/framework"), "{out}");
        assert!(out.contains("  thrown in /app/src/Order.php on line 3"));
    }

    #[test]
    fn a_frame_an_earlier_trace_printed_folds_but_the_innermost() {
        let t = "Traceback (most recent call last):\n  File \"/app/run.py\", line 9, in <module>\n    main()\n  File \"/app/run.py\", line 5, in main\n    load()\n  File \"/app/db.py\", line 3, in load\n    raise KeyError('a')\nKeyError: 'a'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"/app/run.py\", line 9, in <module>\n    main()\n  File \"/app/run.py\", line 5, in main\n    load()\n  File \"/app/run.py\", line 7, in fallback\n    raise ValueError('b')\nValueError: b\n";
        let out = compress(t).unwrap().text;
        assert_eq!(out.matches("line 9, in <module>").count(), 1, "{out}");
        assert_eq!(out.matches("line 5, in main").count(), 1, "{out}");
        assert!(out.contains("    [… 2 frames as printed above]"), "{out}");
        assert!(out.contains("line 7, in fallback"), "{out}");
        assert!(out.contains("KeyError: 'a'") && out.contains("ValueError: b"));
        assert!(out.contains("During handling of the above exception"));
        // The innermost frame stays though printed before: where this
        // exception was raised.
        let again = t.replace(
            "line 7, in fallback\n    raise ValueError('b')",
            "line 3, in load\n    raise KeyError('a')",
        );
        let out = compress(&again).unwrap().text;
        assert_eq!(out.matches("line 3, in load").count(), 2, "{out}");
    }

    /// Node's trace (v20, real shape): the loader's frames outside the
    /// program's outermost own frame start it and fold; the one that
    /// opens the error's properties (` {`) stays, so the closing `}`
    /// below it still closes something.
    #[test]
    fn the_runtime_starting_a_program_folds_but_a_frame_opening_a_block() {
        let mut t = String::from(
            "TypeError: total is not a function\n    at sum (/app/cart.js:4:10)\n    at Object.<anonymous> (/app/cart.js:9:1)\n",
        );
        for (f, place) in [
            (
                "Module._compile",
                "node:internal/modules/cjs/loader:1256:14",
            ),
            ("Module.load", "node:internal/modules/cjs/loader:1119:32"),
            ("Module._load", "node:internal/modules/cjs/loader:960:12"),
        ] {
            t.push_str(&format!("    at {f} ({place})\n"));
        }
        let plain =
            format!("{t}    at node:internal/main/run_main_module:23:47\n\nNode.js v20.20.2\n");
        let out = compress(&plain).unwrap().text;
        assert!(out.contains("    at sum (/app/cart.js:4:10)"), "{out}");
        assert!(
            out.contains("    at Object.<anonymous> (/app/cart.js:9:1)"),
            "{out}"
        );
        assert!(out.contains("    … 4 frames in node\n"), "{out}");
        assert!(!out.contains("run_main_module"), "{out}");
        let with_properties =
            format!("{t}    at node:internal/main/run_main_module:23:47 {{\n  code: 'ERR_X'\n}}\n");
        let out = compress(&with_properties).unwrap().text;
        assert!(out.contains("    … 3 frames in node\n"), "{out}");
        assert!(
            out.contains("    at node:internal/main/run_main_module:23:47 {\n  code: 'ERR_X'\n}"),
            "{out}"
        );
    }

    /// Clojure's report as data (`clojure --report stderr`, 1.11, real
    /// shape): the runtime's frames of its `:trace` fold, the program's
    /// stay, and so does the last one, which closes the vector.
    #[test]
    fn clojures_report_as_data_folds_the_runtimes_frames() {
        let mut t = String::from(
            "{:clojure.main/message\n \"Execution error (ExceptionInfo) at shop.cart/price (cart.clj:13).\\nunknown sku\\n\",\n :clojure.main/trace\n {:trace\n  [[shop.cart$price invokeStatic \"cart.clj\" 13]\n   [shop.cart$price invoke \"cart.clj\" 11]\n",
        );
        for (class, line) in [
            ("clojure.core$map$fn__5935", 2770),
            ("clojure.lang.LazySeq", 42),
            ("clojure.lang.RT", 535),
            ("clojure.core$reduce", 6882),
        ] {
            t.push_str(&format!("   [{class} invoke \"core.clj\" {line}]\n"));
        }
        t.push_str("   [shop.main$_main invoke \"main.clj\" 4]\n   [clojure.lang.Compiler eval \"Compiler.java\" 7194]\n   [clojure.main main \"main.java\" 40]],\n  :cause \"unknown sku\"}}\n\nExecution error (ExceptionInfo) at shop.cart/price (cart.clj:13).\nunknown sku\n");
        let out = compress(&t).unwrap().text;
        for kept in [
            "  [[shop.cart$price invokeStatic \"cart.clj\" 13]",
            "   [shop.cart$price invoke \"cart.clj\" 11]",
            "   [shop.main$_main invoke \"main.clj\" 4]",
            "   [clojure.main main \"main.java\" 40]],",
            "    … 4 frames in clojure.core, clojure.lang",
            "unknown sku",
        ] {
            assert!(out.contains(kept), "lost {kept:?} in\n{out}");
        }
        assert!(!out.contains("Compiler.java"), "{out}");
    }

    #[test]
    fn node_dying_out_of_heap_keeps_the_fatal_error_and_folds_v8s_frames() {
        let frames: String = [
            "node::OOMErrorHandler(char const*, v8::OOMDetails const&)",
            "v8::Utils::ReportOOMFailure(v8::internal::Isolate*, char const*, v8::OOMDetails const&)",
            "v8::internal::V8::FatalProcessOutOfMemory(v8::internal::Isolate*, char const*, v8::OOMDetails const&)",
            "",
            "v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace, v8::internal::GarbageCollectionReason, v8::GCCallbackFlags)",
            "v8::internal::HeapAllocator::AllocateRawWithLightRetrySlowPath(int, v8::internal::AllocationType, v8::internal::AllocationOrigin, v8::internal::AllocationAlignment)",
            "v8::internal::HeapAllocator::AllocateRawWithRetryOrFailSlowPath(int, v8::internal::AllocationType, v8::internal::AllocationOrigin, v8::internal::AllocationAlignment)",
            "v8::internal::Factory::NewFillerObject(int, v8::internal::AllocationAlignment, v8::internal::AllocationType, v8::internal::AllocationOrigin)",
            "v8::internal::Runtime_AllocateInYoungGeneration(int, unsigned long*, v8::internal::Isolate*)",
            "",
        ]
        .iter()
        .enumerate()
        .map(|(k, f)| format!("{:2}: 0x{:x} {f} [node]\n", k + 1, 0xb78db3 + 977 * k))
        .collect();
        let text = &format!(
            "\n<--- Last few GCs --->\n\n[16695:0xf45cca0]       87 ms: Mark-Compact 19.9 (28.8) -> 16.9 (34.5) MB\n\n\n\
             <--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n\
             ----- Native stack trace -----\n\n{frames}"
        );
        let out = compress(text).unwrap().text;
        assert!(
            out.contains("FATAL ERROR: Reached heap limit Allocation failed"),
            "{out}"
        );
        assert!(out.len() * 2 < text.len(), "{out}");
        assert!(out.contains(" 1: 0xb78db3 node::OOMErrorHandler"), "{out}");
    }

    #[test]
    fn sbcls_qualified_frames_fold_and_the_scripts_own_stay() {
        let mut trace = String::from(
            "Unhandled SIMPLE-ERROR in thread #<SB-THREAD:THREAD \"main thread\" RUNNING\n\
             \x20                                   {1001348003}>:\n  not an amount: \"n/a\"\n\n\
             Backtrace for: #<SB-THREAD:THREAD \"main thread\" RUNNING {1001348003}>\n\
             0: (SB-DEBUG::DEBUGGER-DISABLED-HOOK #<SIMPLE-ERROR \"not an amount: ~s\" {1001565EE3}> :QUIT T)\n\
             1: (SB-DEBUG::RUN-HOOK *INVOKE-DEBUGGER-HOOK* #<SIMPLE-ERROR {1001565EE3}>)\n\
             2: (INVOKE-DEBUGGER #<SIMPLE-ERROR \"not an amount: ~s\" {1001565EE3}>)\n\
             3: (ERROR \"not an amount: ~s\" \"n/a\")\n4: (PARSE-AMOUNT \"n/a\")\n\
             5: (PARSE-LINE \"fuel,n/a\")\n6: (LEDGER-TOTAL (\"rent,900\" \"fuel,n/a\"))\n",
        );
        for (k, frame) in [
            "(SB-INT:SIMPLE-EVAL-IN-LEXENV (LEDGER-TOTAL (QUOTE (\"rent,900\"))) #<NULL-LEXENV>)",
            "((LABELS SB-FASL::EVAL-FORM :IN SB-INT:LOAD-AS-SOURCE) (FORMAT T \"total: ~a~%\") 5)",
            "(SB-C::%DO-FORMS-FROM-INFO #<FUNCTION (LAMBDA (SB-KERNEL:FORM)) {1001337ADB}>)",
            "(SB-INT:LOAD-AS-SOURCE #<SB-SYS:FD-STREAM for \"file /tmp/ledger.lisp\" {1001336F43}>)",
            "((FLET SB-IMPL::LOAD-SCRIPT :IN SB-IMPL::PROCESS-SCRIPT) #<SB-SYS:FD-STREAM {1001336F43}>)",
            "((FLET SB-UNIX::BODY :IN SB-IMPL::PROCESS-SCRIPT))",
            "(SB-IMPL::PROCESS-SCRIPT \"ledger.lisp\")",
            "(SB-IMPL::TOPLEVEL-INIT)",
            "(SB-IMPL::%START-LISP)",
        ]
        .iter()
        .enumerate()
        {
            trace.push_str(&format!("{}: {frame}\n", k + 7));
        }
        trace.push_str("\nunhandled condition in --disable-debugger mode, quitting\n");
        let out = compress(&trace).expect("folded").text;
        for kept in [
            "not an amount: \"n/a\"",
            "4: (PARSE-AMOUNT \"n/a\")",
            "6: (LEDGER-TOTAL (\"rent,900\" \"fuel,n/a\"))",
            "unhandled condition in --disable-debugger mode, quitting",
        ] {
            assert!(out.contains(kept), "{kept}: {out}");
        }
        assert!(!out.contains("SB-FASL::EVAL-FORM"), "{out}");
        assert!(out.len() < trace.len() * 3 / 4, "{out}");
        assert_eq!(
            frame::parse(&["12: (SB-IMPL::%START-LISP)"], 0).map(|f| f.library),
            Some(true)
        );
        assert_eq!(
            frame::parse(&["3: (READ-ROW \"x\")"], 0).map(|f| f.library),
            Some(false)
        );
        assert!(frame::parse(&["3: nothing called"], 0).is_none());
    }

    #[test]
    fn guiles_own_modules_fold_and_the_scripts_calls_stay() {
        let trace = ";;; compiling /src/prices.scm\nBacktrace:\nIn ice-9/boot-9.scm:\n\
                     \x20 1752:10 11 (with-exception-handler _ _ #:unwind? _ # _)\nIn unknown file:\n\
                     \x20         10 (apply-smob/0 #<thunk 7fc4425112e0>)\nIn ice-9/boot-9.scm:\n\
                     \x20   724:2  9 (call-with-prompt _ _ #<procedure default-prompt-handle…>)\n\
                     In ice-9/eval.scm:\n    619:8  8 (_ #(#(#<directory (guile-user) 7fc442516c80>)))\n\
                     In ice-9/boot-9.scm:\n   2836:4  7 (save-module-excursion _)\n  4388:12  6 (_)\n\
                     In /src/prices.scm:\n      5:9  5 (_)\n     4:11  4 (total-of _)\n\
                     In ice-9/boot-9.scm:\n   222:29  3 (map1 ((((price . 3))) (42)))\n   222:17  2 (map1 ((42)))\n\
                     In /src/prices.scm:\n     1:29  1 (price-of _)\nIn unknown file:\n           0 (assq price 42)\n\n\
                     ERROR: In procedure assq:\n\
                     In procedure assq: Wrong type argument in position 2 (expecting association list): 42\n";
        let out = compress(trace).expect("folded").text;
        for kept in [
            "ERROR: In procedure assq:",
            "In procedure assq: Wrong type argument in position 2 (expecting association list): 42",
            "In /src/prices.scm:",
            "     4:11  4 (total-of _)",
            "     1:29  1 (price-of _)",
            "           0 (assq price 42)",
        ] {
            assert!(out.contains(kept), "{kept}: {out}");
        }
        assert!(!out.contains("save-module-excursion"), "{out}");
        assert!(!out.contains("call-with-prompt"), "{out}");
    }

    #[test]
    fn nothing_to_fold_is_none() {
        assert!(compress("KeyError: 'b'\n").is_none());
    }

    #[test]
    fn a_long_python_trace_folds_its_middle_even_in_the_project() {
        let mut t = String::from(
            "Traceback (most recent call last):\n  File \"repro.py\", line 3, in <module>\n    main()\n",
        );
        for i in 0..12 {
            t.push_str(&format!(
                "  File \"/app/pkg/layer{i}.py\", line {i}, in step{i}\n    return step{}()\n",
                i + 1
            ));
        }
        t.push_str("ValueError: bad input\n");
        let out = compress(&t).unwrap().text;
        assert!(out.contains("File \"repro.py\", line 3"), "{out}");
        assert!(out.contains("layer11.py\", line 11"), "{out}");
        assert!(out.contains("layer9.py\", line 9"), "{out}");
        assert!(out.contains("    … 9 frames in /app/pkg"), "{out}");
        assert!(out.contains("ValueError: bad input"));
    }
}
