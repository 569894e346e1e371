//! Choosing what to keep: every error and warning line verbatim with the block
//! around it, the first and last lines, a few lines of each new shape; and
//! folding the rest into runs (`[×N similar]`) and gaps (`[… N lines folded]`).

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::line::{self, Severity};
use crate::pytest_tb::{self, Role};
use crate::search::Search;
use crate::{
    alike, ci_sections, code_frame, enumerated, failure_traces, findings, help_text, instantiation,
    listing, markers, native_trace, passing, progress, python_traceback, syscall_trace, table,
    template, testrun, trace, tree, warnings_summary,
};

/// Lines kept before a failure exit (`make: *** … Error 2`): they say why.
const FAILURE_EXIT_CONTEXT: usize = 3;

/// A log whose lines are mostly indented below its shallowest ones is an
/// outline (`pip -vv`: `Collecting x` then its detail): its shallowest
/// lines are kept, up to this many.
const OUTLINE_HEADERS_AT_MOST: usize = 200;

/// Share of non-blank lines that must sit deeper than the shallowest for a
/// log to be an outline.
const OUTLINE_DEEP_SHARE: f64 = 0.7;

/// Knobs of the folding.
#[derive(Debug, Clone)]
pub struct FoldOptions {
    /// Lines kept at the start for context.
    pub head: usize,
    /// Lines kept at the end for context.
    pub tail: usize,
    /// Most ordinary lines of new shapes kept outside head, tail and errors.
    pub novel_budget: usize,
    /// Ordinary lines within this distance of an error block are preferred.
    pub near_error: usize,
    /// A log this short keeps one line of every shape (no budget).
    pub small_log_lines: usize,
    /// The lines this close before a failure exit are the failing step's
    /// last lines: kept as they are in a log longer than `small_log_lines`
    /// (a short log is read whole anyway): the failing step's output says
    /// why it failed, however long the log before it.
    pub failure_window: usize,
    /// A failing step's window reaches further up than `failure_window`
    /// lines while the lines it adds stay within this share of the log's
    /// bytes (all windows together), stopping at the exit before it: a
    /// long log's failing step may print more than its last lines say.
    pub failing_step_share: f64,
    /// Most lines of rare templates kept beyond `novel_budget`, per
    /// thousand lines of log (at least `novel_budget`).
    pub rare_per_thousand: usize,
    /// Count a diagnostic repeating one message at other places under the
    /// first, each place named (the last resort under a budget; see
    /// [`crate::repeats`]).
    pub group_repeated_diagnostics: bool,
    /// Most lines of a diff read whole (see [`crate::diff`]): a longer one
    /// shows its first ones, and the rest folds like any lines.
    pub diff_lines: usize,
    /// Most lines of all diffs together read whole (a formatting check's
    /// diff of every file of a project is bounded too): later diffs fold
    /// like any lines.
    pub diff_lines_in_all: usize,
    /// Most lines of what one failing test printed read whole (see
    /// [`crate::captured_output`]): a longer output shows its first ones,
    /// and the rest folds like any lines.
    pub failure_output_lines: usize,
    /// Most lines of what all failing tests printed together read whole.
    pub failure_output_lines_in_all: usize,
    /// Most lines between an exception and its stack read as its message
    /// (see [`keep_exception_messages`]).
    pub exception_message_lines: usize,
    /// Most nonblank lines of the indented block under an error kept
    /// because they are under it (stack frames, detail lines, the output
    /// cargo-nextest indents under a `FAIL` line): the rest of a longer
    /// block goes by the usual rules, its own errors and rare lines kept.
    /// A trace's frames and lines naming a place in a source file are
    /// kept and not counted.
    /// No bound but under a budget: unbudgeted, the block says why.
    pub error_block_lines: usize,
    /// Keep a trace whole where the log affords it (see
    /// [`crate::trace::Allowance`]); else its left-out frames go by the
    /// usual rules.
    pub whole_traces: bool,
    /// Most records of a list of named records (see
    /// [`keep_record_openers`]) whose openers all stay, their records
    /// folded or not: a longer list keeps the openers of records it prints.
    pub record_names: usize,
}

impl Default for FoldOptions {
    fn default() -> Self {
        Self {
            head: 5,
            tail: 8,
            novel_budget: 24,
            near_error: 3,
            small_log_lines: 100,
            failure_window: 60,
            failing_step_share: 0.02,
            rare_per_thousand: 10,
            group_repeated_diagnostics: false,
            diff_lines: 200,
            diff_lines_in_all: 2000,
            failure_output_lines: 1000,
            failure_output_lines_in_all: 2000,
            exception_message_lines: 120,
            error_block_lines: usize::MAX,
            whole_traces: true,
            record_names: 1000,
        }
    }
}

impl FoldOptions {
    /// Fewer ordinary lines: for a tight token budget.
    pub fn tighter(self) -> Self {
        Self {
            head: 3,
            tail: 5,
            novel_budget: 8,
            rare_per_thousand: 3,
            small_log_lines: 30,
            failure_window: 40,
            failing_step_share: 0.0,
            diff_lines: 60,
            diff_lines_in_all: 400,
            failure_output_lines: 60,
            failure_output_lines_in_all: 400,
            exception_message_lines: 40,
            error_block_lines: 60,
            whole_traces: false,
            record_names: 200,
            ..self
        }
    }

    /// Hardly any ordinary lines: only what is always kept, the first and
    /// last lines, the last lines of the step that failed, and markers
    /// saying what was folded.
    pub fn tightest(self) -> Self {
        Self {
            head: 2,
            tail: 3,
            novel_budget: 0,
            rare_per_thousand: 0,
            small_log_lines: 0,
            failure_window: 20,
            failing_step_share: 0.0,
            near_error: 0,
            diff_lines: 20,
            diff_lines_in_all: 60,
            failure_output_lines: 20,
            failure_output_lines_in_all: 60,
            exception_message_lines: 12,
            error_block_lines: 20,
            whole_traces: false,
            record_names: 0,
            ..self
        }
    }
}

/// Counts of what the folding did.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct FoldStats {
    /// Error lines printed.
    pub errors: usize,
    /// Warning lines printed.
    pub warnings: usize,
    /// Errors and warnings folded as repeats of one printed above but for
    /// their numbers (see [`crate::alike`]); not in `errors` or `warnings`.
    pub alike: usize,
    /// Lines folded away, into runs or gaps.
    pub folded: usize,
}

/// How one input line ends up in the output.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Fate {
    /// Not decided yet: an ordinary line.
    Undecided,
    /// Printed as it is.
    Keep,
    /// An ordinary line next to an error: printed unless a line of the same
    /// shape was printed already.
    Context,
    /// Printed as the first of a run of `n` similar lines.
    RunHead(usize),
    /// Part of a run printed by its head.
    InRun,
    /// An error or warning repeating one printed above but for its numbers:
    /// counted in a gap marker.
    Alike,
    /// Not printed; counted in a gap marker.
    Folded,
}

/// What the folding knows about a log's lines before it chooses: read once,
/// folded under any [`FoldOptions`] (a tighter budget refolds the same
/// analysis).
pub struct Analysis {
    /// A passing test's own line.
    passing: Vec<bool>,
    /// Traceback, code-frame, warnings-summary roles.
    roles: Vec<Role>,
    /// How severe each line is.
    severity: Vec<Severity>,
    /// Each line with numbers, hashes and paths masked.
    masks: Vec<String>,
    /// The templates mined from the masks.
    templates: template::Templates,
    /// Runner summaries to keep.
    summaries: FxHashSet<usize>,
    /// An outline's headers.
    headers: FxHashSet<usize>,
    /// A system call trace's bookkeeping (see [`syscall_trace`]).
    bookkeeping: Vec<bool>,
    /// A debug log's routine (see [`crate::levels::Levels`]).
    debug_routine: Vec<bool>,
    /// Section titles framed by rules, when there are few enough to keep.
    titles: Vec<usize>,
    /// Sections under a title underlined by a rule (see
    /// [`underlined_sections`]): the title, its rule and what follows.
    sections: Vec<std::ops::Range<usize>>,
    /// Compiler or linter diagnostics.
    diagnostic: Vec<bool>,
    /// Items the output lists, each kept: a linter's findings and their
    /// places (see [`findings`]), a tree's nodes (see [`tree`]), a text
    /// table's rows (see [`table`]), a list of paths (see [`listing`]).
    items: FxHashSet<usize>,
    /// Failure exits (`make: *** … Error 2`).
    failure_exit: Vec<bool>,
    /// The lines where a runner announced a failing test.
    failure_lines: BTreeSet<usize>,
    /// A failing test's message above its trace (see [`failure_traces`]).
    failure_messages: Vec<usize>,
    /// The lines right after each trace (see [`failure_traces`]).
    after_traces: Vec<usize>,
    /// Lines defining an option in a help text or manual page.
    options: Vec<bool>,
    /// Errors and warnings repeating an earlier one but for their numbers.
    alike: alike::Alike,
    /// The entries of a list of paths or a long listing (see [`listing`]).
    listing: Vec<usize>,
    /// Templates whose few lines each name something else (see
    /// [`few_distinct_items`]).
    few_items: FxHashSet<usize>,
    /// The diffs printed (see [`crate::diff`]).
    diffs: Vec<std::ops::Range<usize>>,
    /// What each failing test printed (see [`crate::captured_output`]).
    failure_outputs: Vec<std::ops::Range<usize>>,
    /// Lines inside a quiet CI section (see [`ci_sections`]).
    quiet: Vec<bool>,
    /// Items of a list the tool numbered (see [`enumerated`]).
    numbered: Vec<bool>,
}

impl Analysis {
    /// The entries when the log is a list of paths or a long listing (see
    /// [`listing::kept`]), else none.
    pub fn listing(&self) -> &[usize] {
        &self.listing
    }

    /// Reads `contents` (lines without their timestamps); `report` is what
    /// a runner reported of them: the line announcing a failing test is
    /// kept, and a line naming one never folds as a repeat.
    pub fn of(contents: &[&str], report: &crate::testrun::TestReport) -> Self {
        let n = contents.len();
        let failing: Vec<&str> = report.failures.iter().map(|f| f.name.as_str()).collect();
        let mut failure_lines = report.failure_lines.clone();
        // A passing test's own line is never an error (whatever its name says)
        // and folds with its count: a passing run is read for its summaries.
        // What a line's words alone decide is read once for each distinct
        // line: a log repeats a third of its lines word for word.
        let first = first_copies(contents);
        let mut passing: Vec<bool> = read_once(contents, &first, passing::is_passing_test);
        let surefire = passing::surefire_classes(contents);
        for &i in &surefire.passed {
            passing[i] = true;
        }
        failure_lines.extend(surefire.failed_announcements);
        // A traceback's source listing is code, not messages (see [`pytest_tb`]);
        // so is a diagnostic's code frame (see [`code_frame`]).
        // A warning repeated from other places folds (see [`warnings_summary`]),
        // as do a Python traceback's library frames (see [`python_traceback`]).
        // So is a compiler's note in a library header (see [`notes_elsewhere`]).
        // A help text's descriptions fold but for their first lines (see
        // [`help_text`]); a template instantiation chain's library links
        // fold as a trace's library frames (see [`instantiation`]). A
        // finished progress bar folds (see [`progress`]).
        let diagnostic: Vec<bool> = read_once(contents, &first, markers::is_diagnostic);
        let elsewhere = notes_elsewhere(contents);
        let options = help_text::option_definitions(contents);
        // Traces kept whole while the log affords them, in this order (see
        // [`trace::Allowance`]).
        let mut allowance = trace::Allowance::of(contents);
        let failure_traces = failure_traces::find(
            contents,
            &failure_lines,
            &report.folded_cases,
            &passing,
            &mut allowance,
        );
        let failure_messages = failure_traces.messages;
        let after_traces = failure_traces.after;
        let tracebacks = pytest_tb::roles(contents, &mut allowance);
        let python = python_traceback::roles(contents, &mut allowance);
        let chains = instantiation::roles(contents, &mut allowance);
        let native = native_trace::roles(contents, &mut allowance);
        // A system call trace's bookkeeping (see [`syscall_trace`]).
        let bookkeeping = syscall_trace::bookkeeping(contents);
        let roles: Vec<Role> = tracebacks
            .into_iter()
            .zip(code_frame::roles(contents, &diagnostic))
            .zip(warnings_summary::roles(contents))
            .zip(python)
            .zip(help_text::roles(contents, &options))
            .zip(chains)
            .zip(failure_traces.roles)
            .zip(native)
            .enumerate()
            .map(
                |(i, (((((((tb, frame), warning), traceback), help), chain), failure), native))| {
                    let note_or_bar = if elsewhere.contains(&i)
                        || progress::is_bar(contents[i])
                        || bookkeeping[i]
                    {
                        Role::Folded
                    } else {
                        Role::Other
                    };
                    [
                        tb,
                        frame,
                        warning,
                        traceback,
                        help,
                        chain,
                        failure,
                        native,
                        note_or_bar,
                    ]
                    .into_iter()
                    .find(|r| *r != Role::Other)
                    .unwrap_or(Role::Other)
                },
            )
            .collect();
        let mut read_severity: Vec<Option<Severity>> = vec![None; n];
        let severity: Vec<Severity> = (0..n)
            .map(|i| {
                if passing[i] || roles[i] != Role::Other {
                    Severity::Normal
                } else {
                    *read_severity[first[i]].get_or_insert_with(|| line::severity(contents[i]))
                }
            })
            .collect();
        let mut masks: Vec<String> = read_once(contents, &first, line::mask);
        // What a log is read for, by its structure: a runner's summary, a
        // diagnostic, a failure exit with the lines that led to it, the
        // headers of an outline.
        let mut templates = template::mine(&masks);
        template::split_categories(contents, &mut masks, &mut templates);
        let mut summaries = kept_summaries(contents, &first, &severity, &templates);
        summaries.retain(|&i| !passing[i]);
        let few_items = few_distinct_items(&masks, &templates);
        let is_title = read_once(contents, &first, markers::is_section_title);
        let titles: Vec<usize> = (0..n).filter(|&i| is_title[i]).collect();
        let titles = if titles.len() <= MAX_SECTION_TITLES {
            titles
        } else {
            first_of_each_shape(titles, &templates.of_line)
        };
        let sections = underlined_sections(contents);
        let headers = outline_headers(contents);
        let diffs = crate::diff::find(contents);
        let failure_outputs = crate::captured_output::find(contents);
        let listing = listing::kept(contents);
        // A line another rule reads (a passing test's, pytest's report's)
        // is no record of a listing.
        let claimed = |i: usize| passing[i] || roles[i] != Role::Other;
        // How the program ranked its lines (see [`crate::levels`]).
        let levels = crate::levels::read(contents);
        let items: FxHashSet<usize> = findings::kept(contents)
            .into_iter()
            .chain(tree::kept(contents))
            .chain(table::rows(contents))
            .chain(table::share_led_records(contents))
            .chain(crate::ranked_sections::kept(contents))
            .chain(crate::sorted_records::kept(contents, claimed))
            .chain(crate::sorted_records::runs_kept(contents, claimed))
            .chain(crate::column_block::kept(contents, claimed))
            .chain(levels.raised.iter().copied())
            .chain(crate::measured_records::kept(contents, claimed))
            .chain(crate::completions::kept(contents, claimed))
            .chain(crate::closing_map::kept(contents))
            .chain(listing.iter().copied())
            .collect();
        let failure_exit: Vec<bool> = read_once(contents, &first, markers::is_failure_exit);
        let quiet = ci_sections::quiet(contents, |i| failure_exit[i] || failure_lines.contains(&i));
        // An alert kept for what it is, one heading a block (a stack trace
        // follows) or naming a failing test is never a mere repeat (nor one
        // naming a place: see [`alike::find`]).
        let protected = |i: usize| {
            summaries.contains(&i)
                || diagnostic[i]
                || items.contains(&i)
                || headers.contains(&i)
                || titles.binary_search(&i).is_ok()
                || failure_exit[i]
                || failure_lines.contains(&i)
                || options[i]
                || roles[i] == Role::Kept
                || pytest_tb::is_exception_line(contents[i])
                || contents
                    .get(i + 1)
                    .is_some_and(|c| line::is_continuation(c) || native_trace::parse(c).is_some())
                || failing.iter().any(|f| contents[i].has(f))
        };
        let mut alike = alike::find(contents, |i| severity[i] != Severity::Normal, protected);
        crate::probes::fold(
            contents,
            &templates.of_line,
            |i| severity[i] == Severity::Error,
            protected,
            &mut alike,
        );
        Self {
            headers,
            bookkeeping,
            debug_routine: levels.debug_routine,
            titles,
            sections,
            diagnostic,
            items,
            failure_exit,
            failure_lines,
            failure_messages,
            after_traces,
            options,
            alike,
            listing,
            few_items,
            diffs,
            failure_outputs,
            quiet,
            numbered: enumerated::items(contents),
            passing,
            roles,
            severity,
            masks,
            templates,
            summaries,
        }
    }
}

/// Folds `lines` (ANSI-free, as a terminal showed them) and writes the kept
/// lines and markers to `out`, one per line.
pub fn fold(
    lines: &[&str],
    contents: &[&str],
    opts: &FoldOptions,
    out: &mut Vec<String>,
) -> FoldStats {
    let report = crate::testrun::parse(contents);
    fold_analysed(lines, contents, &Analysis::of(contents, &report), opts, out)
}

/// [`fold`] with the analysis of `contents` already made.
pub fn fold_analysed(
    lines: &[&str],
    contents: &[&str],
    analysis: &Analysis,
    opts: &FoldOptions,
    out: &mut Vec<String>,
) -> FoldStats {
    let n = lines.len();
    let Analysis {
        passing,
        roles,
        severity,
        masks,
        templates,
        summaries,
        headers,
        bookkeeping,
        debug_routine,
        titles,
        sections,
        diagnostic,
        items,
        failure_exit,
        failure_lines,
        failure_messages,
        after_traces,
        options,
        alike,
        listing: _,
        few_items,
        diffs,
        failure_outputs,
        quiet,
        numbered,
    } = analysis;
    let mut fate = vec![Fate::Undecided; n];
    let mut stats = FoldStats::default();
    let mut near_error = vec![false; n];
    // Where the log reads as a short one: all of it when it is short, else
    // the lines leading to each failure exit.
    let short_here = read_as_short(contents, failure_exit, opts);

    // A help text's options (see [`help_text::option_definitions`]).
    let help_text_here = options.iter().any(|&x| x);
    // Lines up to here already belong to an error block: a block is scanned once.
    let mut covered = 0usize;
    // Each error's line and its block.
    let mut error_blocks: Vec<std::ops::Range<usize>> = Vec::new();
    // The shapes of the warnings' details kept so far.
    let mut details: FxHashSet<&str> = FxHashSet::default();
    for i in 0..n {
        match severity[i] {
            Severity::Error => stats.errors += 1,
            Severity::Warning => stats.warnings += 1,
            Severity::Normal => continue,
        }
        fate[i] = Fate::Keep;
        if severity[i] != Severity::Error {
            // A warning at the margin printed as a block, its detail
            // indented under it, says what it warns of in the block's first
            // line (bison's `  Example: …` counterexample under `calc.y:
            // warning: shift/reduce conflict on token '+'`, javac's
            // `required:`): that line stays when it says something new,
            // its numbers aside (under a warning said again word for word,
            // the detail is what differs; a detail said again under each
            // of a thousand warnings is not). A code frame under the
            // warning folds as frames do.
            let j = i + 1;
            if j < n
                && !contents[i].starts_with([' ', '\t'])
                && contents[j].starts_with([' ', '\t'])
                && line::is_continuation(contents[j])
                && roles[j] == Role::Other
                && !passing[j]
                && severity[j] == Severity::Normal
                && fate[j] == Fate::Undecided
                && details.insert(masks[j].as_str())
            {
                fate[j] = Fate::Keep;
            }
            continue;
        }
        // The line before an error often says what was running.
        // (Unless it ends a run of similar lines: the run's first line stands for it;
        // or it is a passing test's, which says nothing of the error.)
        let ends_run = i > 1 && masks[i - 1] == masks[i - 2];
        if i > 0
            && !contents[i - 1].trim_ascii().is_empty()
            && !passing[i - 1]
            && fate[i - 1] == Fate::Undecided
            && !ends_run
        {
            fate[i - 1] = Fate::Context;
        }
        // The block after it: the next line, then continuations (stack
        // frames, detail lines), blank lines inside the block included.
        let mut j = i + 1;
        if j < n && !contents[j].trim_ascii().is_empty() && !line::is_continuation(contents[j]) {
            if fate[j] == Fate::Undecided && severity[j] == Severity::Normal {
                fate[j] = Fate::Context;
            }
            j += 1;
        }
        j = j.max(covered);
        let mut block_lines = 0;
        // An indented error's sibling, a line of its shape at its indent,
        // is the next record of a list, not detail under it (the rows after
        // a JVM histogram's `java.lang.OutOfMemoryError`).
        let sibling = |k: usize| {
            templates.of_line[k] == templates.of_line[i]
                && line::indent(contents[k]) == line::indent(contents[i])
        };
        // Nor, in a help text (see [`help_text`]), is an indented line
        // shallower than an indented error: the next option or paragraph
        // after a description that says `error` (`-s, --no-messages`:
        // `Suppress error messages about nonexistent or unreadable
        // files.`), not detail under it. (In a manual, most lines are
        // indented: the block would run to the next heading.)
        let error_indent = line::indent(contents[i]);
        let in_help_text = help_text_here && error_indent > 0;
        let shallower = |k: usize| {
            let d = line::indent(contents[k]);
            in_help_text && d > 0 && d < error_indent
        };
        let under = |k: usize| line::is_continuation(contents[k]) && !sibling(k) && !shallower(k);
        while j < n {
            let c = contents[j];
            let blank_inside = c.trim_ascii().is_empty() && j + 1 < n && under(j + 1);
            // A passing test's line ends the block: under jest's `FAIL
            // file` header the passing tests are indented too.
            if !(under(j) || blank_inside) || passing[j] {
                break;
            }
            // A trace's frames (read by a trace's own rules) and the lines
            // naming a place in a source file are where to look: unbounded.
            let frame = roles[j] != Role::Other || markers::has_source_location(c);
            if frame || block_lines < opts.error_block_lines {
                fate[j] = Fate::Keep;
                block_lines += usize::from(!blank_inside && !frame);
            }
            j += 1;
        }
        covered = j;
        error_blocks.push(i..j);
        let lo = i.saturating_sub(opts.near_error + 1);
        let hi = (j + opts.near_error).min(n);
        near_error[lo..hi].iter_mut().for_each(|x| *x = true);
    }
    // What follows a trace is as near its error as the trace's first
    // frame: rare lines there come first from the budget.
    for &j in after_traces {
        near_error[j] = true;
    }
    for i in 0..n {
        // (A line after an error was marked as its context, which folds
        // when its shape was printed: a diagnostic or summary never folds.)
        // In a short log every place in a source file and every file of the
        // project named is kept: where the agent goes next (a trace's
        // frames, a leak's allocation site, the files a formatter would change).
        // Not a build's command line, though it names the file it compiles
        // (`cc -Wall -O2 … -c -o src/a.o src/a.c`): the next one names the
        // next file among the same options.
        let place = || {
            short_here[i]
                && (markers::names_a_project_file(contents[i])
                    || markers::names_a_line(contents[i]))
                && !line::is_command_line(contents[i])
        };
        if matches!(fate[i], Fate::Undecided | Fate::Context)
            && (summaries.contains(&i)
                || failure_lines.contains(&i)
                || diagnostic[i]
                || items.contains(&i)
                || headers.contains(&i)
                || titles.binary_search(&i).is_ok()
                || options[i]
                || markers::declares_sql_object(contents[i])
                || place())
        {
            fate[i] = Fate::Keep;
        }
        if failure_exit[i] {
            fate[i] = Fate::Keep;
            for j in i.saturating_sub(FAILURE_EXIT_CONTEXT)..i {
                if fate[j] == Fate::Undecided && !contents[j].trim_ascii().is_empty() {
                    fate[j] = Fate::Context;
                }
            }
        }
    }

    for i in 0..n {
        if passing[i] && fate[i] == Fate::Undecided {
            fate[i] = Fate::Folded;
        }
        match roles[i] {
            Role::Kept => fate[i] = Fate::Keep,
            Role::Whole if opts.whole_traces => fate[i] = Fate::Keep,
            Role::Folded => fate[i] = Fate::Folded,
            Role::Whole | Role::Other => {}
        }
        // A short log keeps every error and warning as it is (see
        // `small_log_lines`): repeats fold only in longer ones, and there
        // also in the lines leading to a failure exit when a loop printed
        // them (see [`alike::Alike::looped`]).
        if alike.telling.binary_search(&i).is_ok() && fate[i] == Fate::Context {
            fate[i] = Fate::Keep;
        }
        let looped = alike.looped[i] && n > opts.small_log_lines;
        if alike.repeats[i] && fate[i] == Fate::Keep && (!short_here[i] || looped) {
            fate[i] = Fate::Alike;
            stats.alike += 1;
            match severity[i] {
                Severity::Error => stats.errors -= 1,
                Severity::Warning => stats.warnings -= 1,
                Severity::Normal => {}
            }
        }
    }

    keep_message_bodies(contents, diagnostic, &mut fate);
    keep_failure_bodies(contents, failure_lines, &mut fate);
    for &i in failure_messages {
        if matches!(fate[i], Fate::Undecided | Fate::Context) {
            fate[i] = Fate::Keep;
        }
    }
    keep_framed_details(contents, severity, &mut fate);
    keep_exception_messages(contents, severity, opts, &mut fate);
    keep_frame_functions(contents, &mut fate);
    keep_failing_step_tails(
        contents,
        failure_exit,
        passing,
        bookkeeping,
        templates,
        opts,
        &mut fate,
    );
    keep_failing_commands(contents, severity, failure_lines, failure_exit, &mut fate);
    // Every diff's lines (see [`crate::diff`]): what a failing check
    // compared, its assertion message (PHP's run-tests, PHPUnit, RSpec,
    // unittest), line by line, where each line differs from the next in
    // the very words a template masks. So is what each failing test
    // printed (see [`crate::captured_output`]).
    keep_blocks(
        contents,
        diffs,
        opts.diff_lines,
        opts.diff_lines_in_all,
        &mut fate,
    );
    keep_blocks(
        contents,
        sections,
        SECTION_LINES_AT_MOST,
        SECTION_LINES_IN_ALL,
        &mut fate,
    );
    keep_blocks(
        contents,
        failure_outputs,
        opts.failure_output_lines,
        opts.failure_output_lines_in_all,
        &mut fate,
    );

    // The first and last lines are shown, as runs: a run that starts in the
    // head or ends in the tail is printed (once, with its count).
    let in_head_or_tail = |i: usize| i < opts.head || i + opts.tail >= n;

    // Ordinary lines: runs of similar lines, then a budget of new shapes.
    let mut candidates = Vec::new();
    let mut i = 0;
    while i < n {
        if fate[i] != Fate::Undecided {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < n
            && fate[j] == Fate::Undecided
            && templates.of_line[j] == templates.of_line[i]
            && !contents[i].trim_ascii().is_empty()
        {
            j += 1;
        }
        candidates.push((i, j - i));
        i = j;
    }
    // Shapes already shown: templates, and where the log reads as a short
    // one (`short_here`) lines that differ from those shown in their words
    // (`Setting up tree`, `Setting up bats`): they name something new and
    // folding one would save next to nothing. (Unless the line mostly
    // repeats the one shown, as a long command line does with another
    // crate's name in it.)
    let mut shown = Shown::default();
    for (i, f) in fate.iter().enumerate() {
        if matches!(*f, Fate::Keep | Fate::Context) {
            shown.add(i, templates, masks);
        }
    }
    // A long line mostly saying again what one before it said (a build's
    // next command line) is no new shape, however rare its length in words
    // makes it (see [`crate::long_repeats`]). In the head or tail, which
    // show how the log began and ended, only a command line folds so: the
    // next of a verbose build's echoed commands, each of them hundreds of
    // words.
    let long_repeat = crate::long_repeats::near_repeats(contents, masks);
    let folds_as_long_repeat = |i: usize| long_repeat[i] && !near_error[i];
    let mut chosen: FxHashSet<usize> = FxHashSet::default();
    for &(start, len) in &candidates {
        if (in_head_or_tail(start) || in_head_or_tail(start + len - 1))
            && !(folds_as_long_repeat(start) && line::is_command_line(contents[start]))
        {
            shown.add(start, templates, masks);
            chosen.insert(start);
        }
    }
    // New shapes: rare ones first (a rare line is information whatever its
    // words), then those near an error, then phase headers.
    let mut rare: Vec<usize> = Vec::new();
    let mut placed: Vec<usize> = Vec::new();
    let mut few: Vec<usize> = Vec::new();
    let mut measures: Vec<usize> = Vec::new();
    let mut failing_step: Vec<usize> = Vec::new();
    let mut scored: Vec<(u8, usize, usize)> = Vec::new();
    for &(start, len) in &candidates {
        // A quiet CI section shows what is always kept there, not its
        // unusual lines (see [`ci_sections`]).
        // Nor does a debug log's routine, beyond where the log reads as a
        // short one: the program ranked those lines below its milestones.
        let routine = debug_routine[start] && !short_here[start];
        if chosen.contains(&start)
            || contents[start].trim_ascii().is_empty()
            || quiet[start]
            || routine
        {
            continue;
        }
        if folds_as_long_repeat(start) {
            continue;
        }
        // What leads to a failure exit, or all of a short log, is read as
        // a short log: its rare lines, the lines of its few measures, those
        // new in their words and the items of a numbered list, from no
        // budget.
        if short_here[start] {
            if templates.is_rare(start)
                || templates.size[templates.of_line[start]] <= FEW_MEASURES_AT_MOST
                || few_items.contains(&templates.of_line[start])
                || numbered[start]
                || shown.is_new(start, templates, masks, contents, true)
            {
                shown.add(start, templates, masks);
                failing_step.push(start);
            }
            continue;
        }
        // A line pointing at a line of the input (TeX's `Overfull \hbox …
        // at lines 14--32` and `l.14 \end{document}`, `… at line 69`) is
        // where to look: its numbers are what it says, so each is kept
        // from no budget, as a block's lines naming a place are (a line
        // said again word for word folds when printed). Not a shape
        // printed more often than a few places are: a counter of lines
        // read.
        if templates.size[templates.of_line[start]] <= PLACES_OF_ONE_SHAPE_AT_MOST
            && markers::names_a_line(contents[start])
            && !line::is_command_line(contents[start])
        {
            shown.add(start, templates, masks);
            placed.push(start);
            continue;
        }
        // Every line of a rare shape is kept, not only the first: two
        // failures' `1) suite` and `2) suite` are two facts.
        if templates.is_rare(start) {
            shown.add(start, templates, masks);
            rare.push(start);
            continue;
        }
        // A few distinct items: each kept too, from a budget of their own.
        if few_items.contains(&templates.of_line[start]) {
            shown.add(start, templates, masks);
            few.push(start);
            continue;
        }
        // A few measures in a log not much longer than a short one: each
        // kept too, from a budget of their own, after the distinct items.
        if n <= MEASURED_LOG_LINES_AT_MOST
            && templates.size[templates.of_line[start]] <= FEW_MEASURES_AT_MOST
        {
            shown.add(start, templates, masks);
            measures.push(start);
            continue;
        }
        if !shown.is_new(start, templates, masks, contents, false) {
            continue;
        }
        shown.add(start, templates, masks);
        let score = if near_error[start] {
            3
        } else if is_header_like(contents[start]) {
            2
        } else {
            1
        };
        scored.push((score, start, len));
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let budget = opts.novel_budget;
    let rare_budget = (n * opts.rare_per_thousand / 1000).max(opts.novel_budget);
    // Rare lines near an error first, then those within
    // [`RARE_NEARBY_LINES`] of one, nearest first (the rest of a message
    // an error opened: PureScript's `while checking that …` paragraph
    // under `Could not match type`), then in order.
    let distance = distances_from(n, &error_blocks);
    rare.sort_by_key(|&i| (!near_error[i], distance[i].min(RARE_NEARBY_LINES), i));
    chosen.extend(placed);
    chosen.extend(rare.iter().take(rare_budget));
    chosen.extend(few.iter().take(rare_budget));
    chosen.extend(measures.iter().take(rare_budget));
    chosen.extend(failing_step);
    chosen.extend(scored.iter().take(budget).map(|&(_, s, _)| s));
    for &(start, len) in &candidates {
        let varied = || {
            (len < VARIED_RUN_FOLDS_FROM || short_here[start])
                && (!same_masks(&masks[start..start + len])
                    || short_here[start] && differ_in_names(&contents[start..start + len]))
        };
        let listed = || short_here[start] && numbered[start..start + len].iter().all(|&x| x);
        if chosen.contains(&start) && (varied() || listed()) {
            // A short run whose lines differ in words (`definitely lost:`,
            // `indirectly lost:`) says different things: all of it shows.
            // So does a list the tool numbered where the log reads as a
            // short one (a link checker's issues above its failure exit).
            fate[start..start + len]
                .iter_mut()
                .for_each(|f| *f = Fate::Keep);
        } else if chosen.contains(&start) {
            fate[start] = Fate::RunHead(len);
            fate[start + 1..start + len]
                .iter_mut()
                .for_each(|f| *f = Fate::InRun);
            stats.folded += len - 1;
        } else {
            fate[start..start + len]
                .iter_mut()
                .for_each(|f| *f = Fate::Folded);
            stats.folded += len;
        }
    }
    // A numbered item just above a failure exit (its context) is an item
    // all the same, not a shape printed already.
    for i in 0..n {
        if fate[i] == Fate::Context && numbered[i] && short_here[i] {
            fate[i] = Fate::Keep;
        }
    }

    keep_record_openers(
        contents,
        &templates.of_line,
        passing,
        opts,
        &mut fate,
        &mut stats,
    );

    // Write out. Every kept line is printed verbatim once: an identical line
    // later on (a stack trace repeated for every failing test) is folded, and
    // identical repeats right after it are counted as `[×N similar]`. A context
    // line is folded when a line of its shape was printed already.
    let mut printed: FxHashSet<&str> = FxHashSet::default();
    let mut printed_masks: FxHashSet<&str> = FxHashSet::default();
    let mut gap = Gap::default();
    // A header seen before that heads a new diagnostic (its location follows,
    // not printed yet) is that diagnostic's header: it is printed again.
    let heads_new_diagnostic = |k: usize, printed: &FxHashSet<&str>| {
        k + 1 < n && diagnostic[k + 1] && !printed.contains(lines[k + 1])
    };
    let mut k = 0;
    while k < n {
        match fate[k] {
            Fate::Folded => gap.add_folded(k, passing[k], lines[k].trim_ascii().is_empty()),
            Fate::Alike => gap.add_alike(k),
            Fate::InRun => {}
            Fate::Keep if printed.contains(lines[k]) && !heads_new_diagnostic(k, &printed) => {
                gap.add(k, false, true);
                stats.folded += 1;
            }
            Fate::Context if printed_masks.contains(masks[k].as_str()) => {
                gap.add(k, false, printed.contains(lines[k]));
                stats.folded += 1;
            }
            Fate::Keep | Fate::Context | Fate::RunHead(_) | Fate::Undecided => {
                gap.flush(lines, out);
                printed.insert(lines[k]);
                printed_masks.insert(&masks[k]);
                if let Fate::RunHead(len @ 2..) = fate[k] {
                    out.push(format!("{}  [×{len} similar]", lines[k].trim_ascii_end()));
                } else {
                    // A kept line stays verbatim; identical repeats right after it
                    // are counted on a line of their own.
                    out.push(lines[k].trim_ascii_end().to_string());
                    let start = k;
                    let mut repeats = 0;
                    while k + 1 < n
                        && matches!(fate[k + 1], Fate::Keep | Fate::Context)
                        && lines[k + 1] == lines[k]
                    {
                        repeats += 1;
                        k += 1;
                    }
                    if repeats > 0 {
                        stats.folded += repeats;
                        out.push(format!("[×{} similar]", repeats + 1));
                    }
                    // The first of errors or warnings repeated further on
                    // (folded there): how many there are, on a line of its own.
                    if let Some(count) = alike
                        .counts
                        .get(&start)
                        .filter(|_| n > opts.small_log_lines)
                    {
                        out.push(format!("[×{} like this in the log]", thousands(*count)));
                    }
                }
            }
        }
        k += 1;
    }
    gap.flush(lines, out);
    stats
}

/// Most lines kept of a section under an underlined title, the title and
/// its rule included (see [`underlined_sections`]).
const SECTION_LINES_AT_MOST: usize = 14;

/// Most lines kept of all underlined sections together.
const SECTION_LINES_IN_ALL: usize = 60;

/// Most underlined titles a log may hold for their sections to be kept:
/// more, and the titles are the log's structure, not its findings.
const UNDERLINED_TITLES_AT_MOST: usize = 6;

/// Sections a tool opens with a title underlined by a rule of about its
/// length, as a report's heading (the JVM's `Found one Java-level
/// deadlock:` over `=============================`, then the threads, what
/// each waits to lock and who holds it): each from its title up to the
/// next such title or the end of its last paragraph before two blank
/// lines, to keep (up to [`SECTION_LINES_AT_MOST`] lines). None when the
/// log has more than [`UNDERLINED_TITLES_AT_MOST`] of them. A rule much
/// longer than the line above it (unittest's `----` under `FAIL: test_x`)
/// frames, it does not underline.
fn underlined_sections(contents: &[&str]) -> Vec<std::ops::Range<usize>> {
    let underlined = |i: usize| {
        let title = contents[i].trim_ascii();
        let Some(rule) = contents.get(i + 1).map(|r| r.trim_ascii()) else {
            return false;
        };
        is_rule(rule)
            && rule.starts_with(['=', '-'])
            && rule.len().abs_diff(title.len()) <= 3
            && title.bytes().any(|b| b.is_ascii_alphabetic())
            && !is_rule(title)
    };
    let titles: Vec<usize> = (0..contents.len().saturating_sub(1))
        .filter(|&i| {
            // (Every line is asked: the rule's first byte first.)
            contents[i + 1].trim_ascii_start().starts_with(['=', '-']) && underlined(i)
        })
        .collect();
    if titles.len() > UNDERLINED_TITLES_AT_MOST {
        return Vec::new();
    }
    titles
        .iter()
        .enumerate()
        .map(|(k, &start)| {
            let next = titles.get(k + 1).copied().unwrap_or(contents.len());
            let mut end = start + 2;
            while end < next
                && !(contents[end].trim_ascii().is_empty()
                    && contents
                        .get(end + 1)
                        .is_none_or(|c| c.trim_ascii().is_empty()))
            {
                end += 1;
            }
            start..end
        })
        .collect()
}

/// How far a rare line may be from an error's block to come before the
/// rest from the budget (see [`fold_analysed`]).
const RARE_NEARBY_LINES: usize = 12;

/// Each line's distance in lines from the nearest of `blocks` (0 inside
/// one; `usize::MAX` with none).
fn distances_from(n: usize, blocks: &[std::ops::Range<usize>]) -> Vec<usize> {
    let mut distance = vec![usize::MAX; n];
    for block in blocks {
        distance[block.start.min(n)..block.end.min(n)]
            .iter_mut()
            .for_each(|d| *d = 0);
    }
    for i in 1..n {
        distance[i] = distance[i].min(distance[i - 1].saturating_add(1));
    }
    for i in (0..n.saturating_sub(1)).rev() {
        distance[i] = distance[i].min(distance[i + 1].saturating_add(1));
    }
    distance
}

/// The first record of a list of records opens one of this many first
/// paragraphs.
const RECORDS_START_PARAGRAPHS: usize = 4;

/// Tenths of a log's lines its records must span to make it a list (what
/// comes before the first record, a preamble, is at most the rest).
const RECORDS_SHARE_TENTHS: usize = 8;

/// Fewest records a log must hold for their openers to be read as such.
const MIN_RECORDS: usize = 3;

/// A log that is a list of records (`git log`'s commits, `pip show`'s
/// packages, gdb's threads, `terraform plan`'s resources) opens each with
/// a line of one shape (`commit 3f2a…`, `# aws_s3_bucket.logs will be
/// created`), printed only where a paragraph starts: that line names its
/// record, up to the next one (the last, as far as the longest record
/// reaches), and the records make up the log, but for a preamble and an
/// epilogue. The names are the list's index: each opener is kept, the
/// records' alike bodies fold under them (up to
/// [`FoldOptions::record_names`] records; beyond it an opener stays where
/// a line of its record is printed, as a commit's message without its
/// hash would be a fact without its name), and so is each record's title,
/// the first line indented under its opener (a commit's subject). A
/// passing test's line opens no
/// record: it folds; nor do openers that all say the same. Blocks alike
/// inside a longer log (pytest's locals of each frame) are no list of
/// records.
fn keep_record_openers(
    contents: &[&str],
    of_line: &[usize],
    passing: &[bool],
    opts: &FoldOptions,
    fate: &mut [Fate],
    stats: &mut FoldStats,
) {
    let opens_paragraph = |i: usize| i == 0 || contents[i - 1].trim_ascii().is_empty();
    // A record named by a quoted name with its fields after it (a thread
    // dump's `"main" #1 prio=5 …`, `"VM Thread" os_prio=0 …`) opens with
    // that name, whatever the fields: all such openers are of one shape.
    // (A name alone with a colon, `"picker":`, is a label.)
    let quoted_name = |c: &str| {
        c.strip_prefix('"')
            .and_then(|rest| rest.split_once('"'))
            .is_some_and(|(name, fields)| !name.is_empty() && fields.starts_with(' '))
    };
    let keys: Vec<usize> = of_line
        .iter()
        .zip(contents)
        .map(|(&t, c)| if quoted_name(c) { usize::MAX } else { t })
        .collect();
    let of_line = &keys;
    // The first record opens one of the log's first paragraphs (after a
    // preamble of up to three paragraphs: a thread dump's pid, its heading and
    // its thread list): only their openers' shapes can open
    // records.
    let mut openers_of: Vec<(usize, Option<Vec<usize>>)> = Vec::new();
    for i in (0..contents.len())
        .filter(|&i| opens_paragraph(i) && !contents[i].trim_ascii().is_empty())
        .take(RECORDS_START_PARAGRAPHS)
    {
        if !openers_of.iter().any(|(t, _)| *t == of_line[i]) {
            openers_of.push((of_line[i], Some(Vec::new())));
        }
    }
    if openers_of.is_empty() {
        return;
    }
    // Each candidate shape's lines while every one of them opens a
    // paragraph.
    for (i, &t) in of_line.iter().enumerate() {
        let Some((_, entry)) = openers_of.iter_mut().find(|(c, _)| *c == t) else {
            continue;
        };
        let Some(openers) = entry else {
            continue;
        };
        if contents[i].trim_ascii().is_empty() {
            continue;
        }
        if passing[i] || !opens_paragraph(i) {
            *entry = None;
        } else {
            openers.push(i);
        }
    }
    let lists = openers_of
        .into_iter()
        .filter_map(|(_, openers)| openers)
        .filter(|openers| openers.len() >= MIN_RECORDS);
    for openers in lists {
        let longest = openers.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let reach = (openers[openers.len() - 1] + longest).min(contents.len()) - openers[0];
        // Openers that say the same (`unformatted: File would be
        // reformatted` above each file's place) name no record.
        let named = openers
            .iter()
            .map(|&i| contents[i])
            .collect::<FxHashSet<_>>()
            .len()
            == openers.len();
        if !named || reach * 10 < contents.len() * RECORDS_SHARE_TENTHS {
            continue;
        }
        let index = openers.len() <= opts.record_names;
        for (k, &i) in openers.iter().enumerate() {
            let end = openers
                .get(k + 1)
                .copied()
                .unwrap_or((i + longest).min(contents.len()));
            let printed = fate[i + 1..end]
                .iter()
                .any(|f| matches!(f, Fate::Keep | Fate::RunHead(_)));
            let mut kept = vec![i];
            // A record's title: the first line indented under its opener
            // (a commit's subject under `commit …`, `Author:`, `Date:`).
            if index && let Some(title) = (i + 1..end).find(|&j| is_indented_text(contents[j])) {
                kept.push(title);
            }
            for i in kept {
                if (index || printed)
                    && matches!(fate[i], Fate::Folded | Fate::InRun | Fate::Context)
                {
                    if matches!(fate[i], Fate::Folded | Fate::InRun) {
                        stats.folded = stats.folded.saturating_sub(1);
                    }
                    fate[i] = Fate::Keep;
                }
            }
        }
    }
}

/// Whether `content` is text indented from the margin (not blank).
fn is_indented_text(content: &str) -> bool {
    content.starts_with([' ', '\t']) && !content.trim_ascii().is_empty()
}

/// An exception prints its name and message, then its stack (`    at
/// eq (helpers.js:1:1)`, Java's `\tat a.B.c(B.java:12)`): the lines
/// between an error and the first frame below it are its message, however
/// they are indented (an assertion's expected and actual values, a JSON
/// dump, a diff). They are kept when the frame comes within
/// `exception_message_lines` lines of the error and no other error comes
/// first (then the lines belong to that one). An error folded as a repeat
/// of one above keeps none.
fn keep_exception_messages(
    contents: &[&str],
    severity: &[Severity],
    opts: &FoldOptions,
    fate: &mut [Fate],
) {
    let reach = opts.exception_message_lines;
    let frames: Vec<usize> = (0..contents.len())
        .filter(|&j| is_stack_frame(contents[j]))
        .collect();
    if frames.is_empty() || reach == 0 {
        return;
    }
    for i in 0..contents.len() {
        // An error folded as a repeat of one above takes its message along.
        if severity[i] != Severity::Error || fate[i] != Fate::Keep {
            continue;
        }
        let next = frames.partition_point(|&j| j <= i);
        let Some(&frame) = frames.get(next).filter(|&&j| j - i <= reach) else {
            continue;
        };
        if (i + 1..frame).any(|j| severity[j] == Severity::Error) {
            continue;
        }
        for f in &mut fate[i + 1..frame] {
            if matches!(*f, Fate::Undecided | Fate::Context) {
                *f = Fate::Keep;
            }
        }
    }
}

/// A stack frame as JavaScript, Java, C# and Scala print them: `at name
/// (file.js:1:2)`, `at node:internal/main/run_main_module:28:49`, `at
/// a.B.c(B.java:12)`, `at A.B() in B.cs:line 12`, and as Mono does, its
/// IL offset before the place: `at A.B (int x) [0x0001e] in <3cae…>:0`.
pub fn is_stack_frame(content: &str) -> bool {
    // (Bytes, not `trim_start`: this reads every line of the log.)
    let indent = content.bytes().take_while(|b| matches!(b, b' ' | b'\t'));
    let Some(rest) = content[indent.count()..].strip_prefix("at ") else {
        return false;
    };
    let rest = rest.trim_ascii_end();
    let mut parts = rest.rsplit(':');
    let digits = |s: Option<&str>| s.is_some_and(|s| testrun::count(s).is_some());
    let line_and_column = digits(parts.next()) && digits(parts.next());
    (rest.ends_with(')') && rest.has("("))
        || line_and_column
        || markers::has_source_location(rest)
        || rest.has(":line ")
        || rest.has(" [0x") && rest.has("] in ")
}

/// Most lines of a diagnostic's message printed below its header.
pub(crate) const MESSAGE_BODY_AT_MOST: usize = 12;

/// A diagnostic whose header ends at its level (GHC's `src/A.hs:94:10:
/// Warning:`) says its message on the indented lines below: they are kept
/// with it.
fn keep_message_bodies(contents: &[&str], diagnostic: &[bool], fate: &mut [Fate]) {
    for i in 0..contents.len() {
        if !diagnostic[i] || fate[i] != Fate::Keep {
            continue;
        }
        let ends_at_level = markers::diagnostic_parts(contents[i]).is_some_and(|d| {
            let message = d.message.trim_ascii_end();
            message.ends_with(':') && markers::is_level_word(message.trim_end_matches(':'))
        });
        if !ends_at_level {
            continue;
        }
        for j in (i + 1..contents.len()).take(MESSAGE_BODY_AT_MOST) {
            if !contents[j].starts_with([' ', '\t']) || contents[j].trim_ascii().is_empty() {
                break;
            }
            if matches!(fate[j], Fate::Undecided | Fate::Context) {
                fate[j] = Fate::Keep;
            }
        }
    }
}

/// A runner's failing test says why on the lines indented under it (TAP's
/// YAML block with `operator`, `expected`, `actual`, `at`; Go's
/// `x_test.go:12: got 3`; Pester's `Expected 8080, but got 80.`): they
/// are kept with it, up to [`MESSAGE_BODY_AT_MOST`], but for lines another
/// rule folded (a code frame, a library frame).
fn keep_failure_bodies(contents: &[&str], failure_lines: &BTreeSet<usize>, fate: &mut [Fate]) {
    let indent = line::indent;
    for &i in failure_lines {
        let depth = indent(contents[i]);
        for j in (i + 1..contents.len()).take(MESSAGE_BODY_AT_MOST) {
            if contents[j].trim_ascii().is_empty() || indent(contents[j]) <= depth {
                break;
            }
            if matches!(fate[j], Fate::Undecided | Fate::Context) {
                fate[j] = Fate::Keep;
            }
        }
    }
}

/// A Go frame is two lines, the call (`pkg.Func(0xc0002ffba0)`) and, indented
/// below it, its place (`\t/src/helper_test.go:53 +0x126`): a place kept
/// keeps the call it is the place of, the name the agent looks for.
fn keep_frame_functions(contents: &[&str], fate: &mut [Fate]) {
    for j in 1..contents.len() {
        let place = contents[j];
        let call = contents[j - 1].trim_ascii_end();
        if fate[j] == Fate::Keep
            && place.starts_with('\t')
            && markers::has_source_location(place)
            && !call.starts_with([' ', '\t'])
            && call.ends_with(')')
            && call.has("(")
            && matches!(fate[j - 1], Fate::Undecided | Fate::Context | Fate::Folded)
        {
            fate[j - 1] = Fate::Keep;
        }
    }
}

/// The last lines a failing step printed, the `failure_window` lines
/// before each failure exit of a log longer than `small_log_lines`, are
/// kept as they are: whatever their words, this is where a failure says
/// why (a compiler's code frames, a test's traceback, the lines a failed
/// check printed), and they are few next to the log. Still folded there:
/// passing tests' lines (a run reads for its failures), lines of a shape
/// repeated [`VARIED_RUN_FOLDS_FROM`] times or more in the window
/// (downloads, progress, passing packages, the same library frame under
/// every failure: their first line and a count), blank lines, repeats of
/// a line printed above, and a system call trace's bookkeeping (see
/// [`syscall_trace`]).
fn keep_failing_step_tails(
    contents: &[&str],
    failure_exit: &[bool],
    passing: &[bool],
    bookkeeping: &[bool],
    templates: &template::Templates,
    opts: &FoldOptions,
    fate: &mut [Fate],
) {
    if contents.len() <= opts.small_log_lines {
        return;
    }
    for step in failing_steps(contents, failure_exit, opts) {
        // The last lines and the lines above them each fold their own
        // repeated shapes: a longer reach does not make the last lines'
        // shapes "repeated".
        for window in [step.earlier, step.last] {
            let mut shape_count: FxHashMap<usize, usize> = FxHashMap::default();
            for i in window.clone() {
                *shape_count.entry(templates.of_line[i]).or_default() += 1;
            }
            for i in window {
                let repeated = shape_count[&templates.of_line[i]] >= VARIED_RUN_FOLDS_FROM;
                let bar = || progress::is_bar(contents[i]);
                if !contents[i].trim_ascii().is_empty()
                    && !passing[i]
                    && !repeated
                    && !bar()
                    && !bookkeeping[i]
                {
                    fate[i] = Fate::Keep;
                }
            }
        }
    }
}

/// The command each failure printed under: the nearest shell echo above
/// a failure (`+ venv/bin/pytest -v tests` under `bash -x`, `$ make test`
/// on Travis or GitLab) names the step that failed, and a person reading
/// the log runs it again. Nothing else of the step's header is kept.
fn keep_failing_commands(
    contents: &[&str],
    severity: &[Severity],
    failure_lines: &BTreeSet<usize>,
    failure_exit: &[bool],
    fate: &mut [Fate],
) {
    let echoes: Vec<usize> = (0..contents.len())
        .filter(|&i| is_command_echo(contents[i]))
        .collect();
    if echoes.is_empty() {
        return;
    }
    let failures = (0..contents.len())
        .filter(|&i| severity[i] == Severity::Error || failure_exit[i])
        .chain(failure_lines.iter().copied());
    for failure in failures {
        let before = echoes.partition_point(|&e| e < failure);
        if let Some(&echo) = before.checked_sub(1).map(|k| &echoes[k])
            && matches!(fate[echo], Fate::Undecided | Fate::Context)
        {
            fate[echo] = Fate::Keep;
        }
    }
}

/// A shell's echo of the command it runs: `+ cmd` (`bash -x`, `++` in a
/// command substitution) or `$ cmd` (Travis, GitLab), the command (a name or a path,
/// not a number: `$ 5.00 charged`) starting right after one space.
fn is_command_echo(content: &str) -> bool {
    let b = content.as_bytes();
    let marks = b.iter().take_while(|&&c| c == b'+').count();
    let rest = match b.first() {
        Some(b'$') => &b[1..],
        // (Not `+++ b/src/lib.rs`, a diff's header.)
        Some(b'+') if marks <= 2 => &b[marks..],
        _ => return false,
    };
    rest.len() > 1
        && rest[0] == b' '
        && (rest[1].is_ascii_alphabetic() || matches!(rest[1], b'.' | b'/' | b'_' | b'~'))
}

/// Keeps the first `each` non-blank lines of every block, `in_all` lines
/// at most over all of them, but for lines another rule already decided.
fn keep_blocks(
    contents: &[&str],
    blocks: &[std::ops::Range<usize>],
    each: usize,
    in_all: usize,
    fate: &mut [Fate],
) {
    let mut left = in_all;
    for range in blocks {
        let shown: Vec<usize> = range
            .clone()
            .filter(|&i| !contents[i].trim_ascii().is_empty())
            .take(each.min(left))
            .collect();
        left -= shown.len();
        for i in shown {
            if matches!(fate[i], Fate::Undecided | Fate::Context) {
                fate[i] = Fate::Keep;
            }
        }
    }
}

/// Most lines of a framed section printed before the error it explains:
/// its first lines (a longer diff folds the rest).
const FRAMED_DETAIL_AT_MOST: usize = 40;

/// How far above its error a framed section may open.
const FRAMED_SECTION_SEARCH: usize = 2000;

/// An error right under a section framed by rules (PHP's run-tests prints
/// `========DIFF========`, the expected/actual lines, `========DONE========`,
/// then `FAIL name [file]`) keeps that section: it is the error's detail,
/// printed before it.
fn keep_framed_details(contents: &[&str], severity: &[Severity], fate: &mut [Fate]) {
    for i in 1..contents.len() {
        if severity[i] != Severity::Error || !is_rule_framed(contents[i - 1]) {
            continue;
        }
        let Some(open) = (i.saturating_sub(FRAMED_SECTION_SEARCH)..i - 1)
            .rev()
            .find(|&j| is_rule_framed(contents[j]))
        else {
            continue;
        };
        let detail = (open..i - 1)
            .filter(|&j| !contents[j].trim_ascii().is_empty())
            .take(FRAMED_DETAIL_AT_MOST + 1)
            .chain([i - 1]);
        for j in detail {
            let f = &mut fate[j];
            if matches!(*f, Fate::Undecided | Fate::Context | Fate::Folded) {
                *f = Fate::Keep;
            }
        }
    }
}

/// A word framed by rules, without spaces: `========DIFF========`. (A
/// title with spaces, `=== short test summary info ===`, opens what
/// follows it rather than closing what is above.)
fn is_rule_framed(content: &str) -> bool {
    let t = content.trim_ascii();
    let Some(first) = t.chars().next() else {
        return false;
    };
    let open = t.chars().take_while(|&c| c == first).count();
    let close = t.chars().rev().take_while(|&c| c == first).count();
    matches!(first, '=' | '-' | '*' | '#')
        && open >= 3
        && close >= 3
        && t.len() > open + close
        && t[open..t.len() - close].chars().all(char::is_alphanumeric)
}

/// Which lines read as a short log: every line of a log of at most
/// `small_log_lines`, else the `failure_window` lines before each failure
/// exit (the output of the step that failed).
fn read_as_short(contents: &[&str], failure_exit: &[bool], opts: &FoldOptions) -> Vec<bool> {
    let n = failure_exit.len();
    if n <= opts.small_log_lines {
        return vec![true; n];
    }
    let mut short = vec![false; n];
    for step in failing_steps(contents, failure_exit, opts) {
        short[step.earlier.start..step.last.end]
            .iter_mut()
            .for_each(|s| *s = true);
    }
    short
}

/// What a failing step printed before its failure exit (see
/// [`failing_steps`]).
struct FailingStep {
    /// Its last `failure_window` lines.
    last: std::ops::Range<usize>,
    /// The lines above those that its share of the log's bytes reaches.
    earlier: std::ops::Range<usize>,
}

/// The lines before each failure exit that its step printed: the
/// `failure_window` lines before it, then, the last exit first, further up
/// while the added lines fit in `failing_step_share` of the log's bytes,
/// never past the exit before it.
fn failing_steps(contents: &[&str], failure_exit: &[bool], opts: &FoldOptions) -> Vec<FailingStep> {
    let exits: Vec<usize> = (0..failure_exit.len())
        .filter(|&i| failure_exit[i])
        .collect();
    let log_bytes: usize = contents.iter().map(|c| c.len() + 1).sum();
    let mut left = (log_bytes as f64 * opts.failing_step_share) as usize;
    let mut steps = Vec::with_capacity(exits.len());
    for (k, &exit) in exits.iter().enumerate().rev() {
        let last = exit.saturating_sub(opts.failure_window)..exit;
        let floor = if k > 0 { exits[k - 1] + 1 } else { 0 };
        let mut start = last.start;
        while start > floor && contents[start - 1].len() < left {
            start -= 1;
            left -= contents[start].len() + 1;
        }
        steps.push(FailingStep {
            earlier: start..last.start,
            last,
        });
    }
    steps
}

/// Share of word positions a line must share with the shown line of its
/// template to pass, in a short log, for a repeat of it though its words
/// differ.
const NEAR_REPEAT: f64 = 0.75;

/// The shapes of ordinary lines already shown: the first line shown of
/// each template, and the masks of all.
#[derive(Debug, Default)]
struct Shown<'a> {
    /// The first line shown of each template.
    first: FxHashMap<usize, usize>,
    /// Masks of the lines shown.
    masks: FxHashSet<&'a str>,
}

impl<'a> Shown<'a> {
    /// Records line `i` as shown.
    fn add(&mut self, i: usize, templates: &template::Templates, masks: &'a [String]) {
        let t = templates.of_line[i];
        self.first.entry(t).or_insert(i);
        self.masks.insert(masks[i].as_str());
    }

    /// Whether line `i` says something no shown line said: a new template,
    /// or in a short log (`small`) a new mask that does not mostly repeat
    /// the first shown line of its template.
    fn is_new(
        &self,
        i: usize,
        templates: &template::Templates,
        masks: &[String],
        contents: &[&str],
        small: bool,
    ) -> bool {
        let t = templates.of_line[i];
        let Some(&first) = self.first.get(&t) else {
            return true;
        };
        small
            && !self.masks.contains(masks[i].as_str())
            && (contents[i].split_whitespace().count() < NEAR_REPEAT_WORDS_AT_LEAST
                || word_agreement(contents[i], contents[first]) < NEAR_REPEAT)
    }
}

/// Lines of one shape naming a line of the input (see [`fold_analysed`]'s
/// new shapes) are each kept up to this many; a shape printed more often
/// counts lines read (`processed line 4000`), and its lines fold.
const PLACES_OF_ONE_SHAPE_AT_MOST: usize = 50;

/// A line of fewer words than this is never a near repeat: one word in
/// four that differs (`Collecting idna (from requests)`, `Collecting mdurl
/// (from rich)`) is what the line says. A long line (a compiler's command
/// line with another crate's name in it) mostly repeats the shown one.
const NEAR_REPEAT_WORDS_AT_LEAST: usize = 8;

/// Share of word positions at which two lines have the same word.
fn word_agreement(a: &str, b: &str) -> f64 {
    let (mut same, mut all) = (0usize, 0usize);
    let mut bw = b.split_whitespace();
    for wa in a.split_whitespace() {
        all += 1;
        same += usize::from(bw.next() == Some(wa));
    }
    all += bw.count();
    if all == 0 {
        1.0
    } else {
        same as f64 / all as f64
    }
}

/// A run of similar lines whose words differ is printed whole when it is
/// shorter than this, or where the log reads as a short one (pytest's ten
/// slowest durations, each naming another test); from this length on it
/// folds to its first line and a count. (Lines differing only in numbers
/// always fold.)
const VARIED_RUN_FOLDS_FROM: usize = 6;

/// Whether every line of a run has the same mask (differs only in numbers,
/// hashes, paths).
fn same_masks(masks: &[String]) -> bool {
    masks.iter().all(|m| *m == masks[0])
}

/// Whether lines alike in their masks differ in more than numbers: a
/// path's or a branch's name (`feature/cart`, `fix/rounding`) masks as a
/// path does, but names another thing (compared as [`crate::alike`]
/// compares alerts: numbers out of names masked, names kept). Not a
/// build's command lines: each names the next file it compiles among the
/// same options (see [`line::is_command_line`]).
fn differ_in_names(lines: &[&str]) -> bool {
    if line::is_command_line(lines[0]) {
        return false;
    }
    let first = crate::alike::key_hash(lines[0]);
    lines[1..]
        .iter()
        .any(|l| crate::alike::key_hash(l) != first)
}

/// A lone folded line is printed instead of its marker unless the marker
/// is this many times shorter: a fold that does not clearly save room
/// only hides the line (as a compressed result not clearly smaller is not
/// used).
const CLEARLY_SHORTER: usize = 2;

/// Folded blank and rule lines (see [`Gap::cheaper_than_its_marker`])
/// are printed as they are up to this many.
const CHEAPER_THAN_A_MARKER_AT_MOST: usize = 3;

/// Whether `line` is a rule: one ASCII punctuation character, three times
/// or more (`=====`, `-------`, `*****`).
fn is_rule(line: &str) -> bool {
    let t = line.trim_ascii().as_bytes();
    t.len() >= 3 && t[0].is_ascii_punctuation() && t.iter().all(|&b| b == t[0])
}

/// Consecutive folded lines, written as one marker.
#[derive(Debug, Default)]
struct Gap {
    /// Lines in the gap.
    lines: usize,
    /// How many of them are passing tests' lines.
    passing: usize,
    /// How many of them are blank.
    blank: usize,
    /// How many repeat, word for word, a line printed above.
    repeated: usize,
    /// How many are errors or warnings repeating one printed above but for
    /// their numbers.
    alike: usize,
    /// The first one's index.
    first: usize,
    /// The last one's index.
    last: usize,
}

impl Gap {
    fn add(&mut self, index: usize, passing: bool, repeated: bool) {
        if self.lines == 0 {
            self.first = index;
        }
        self.last = index;
        self.lines += 1;
        self.passing += usize::from(passing);
        self.repeated += usize::from(repeated);
    }

    /// Adds a folded line: a passing test's, a blank one, or another.
    fn add_folded(&mut self, index: usize, passing: bool, blank: bool) {
        self.add(index, passing, false);
        self.blank += usize::from(blank);
    }

    /// Adds an error or warning repeating one printed above but for its
    /// numbers.
    fn add_alike(&mut self, index: usize) {
        self.add(index, false, false);
        self.alike += 1;
    }

    /// Writes the marker (or the one line itself, when the marker would not
    /// be clearly shorter) and empties the gap.
    fn flush(&mut self, lines: &[&str], out: &mut Vec<String>) {
        if let Some(marker) = self.marker() {
            let line = lines[self.first].trim_ascii_end();
            if self.lines == 1 && line.len() < CLEARLY_SHORTER * marker.len() {
                out.push(line.to_string());
            } else if let Some(cheap) = self.cheaper_than_its_marker(lines) {
                out.extend(cheap.iter().map(|l| l.trim_ascii_end().to_string()));
            } else {
                out.push(marker);
            }
        }
        *self = Gap::default();
    }

    /// The gap's lines, when they are few and each is blank or a rule
    /// (`=====`, `-----`): a tokenizer reads a run of one character as a
    /// token or two, so they cost less than the marker that would stand for
    /// them, however many bytes they have.
    fn cheaper_than_its_marker<'a>(&self, lines: &'a [&'a str]) -> Option<&'a [&'a str]> {
        let contiguous = self.last + 1 - self.first == self.lines;
        let gap = &lines[self.first..=self.last];
        (contiguous
            && self.lines <= CHEAPER_THAN_A_MARKER_AT_MOST
            && gap.iter().all(|l| l.trim_ascii().is_empty() || is_rule(l)))
        .then_some(gap)
    }

    /// The line that says what the gap folded.
    fn marker(&self) -> Option<String> {
        Some(match self.lines {
            0 => return None,
            // Passing tests' lines with the blank lines between them
            // (Gradle's, jest's): counted as what they are.
            n if self.passing > 0 && self.passing + self.blank == n => format!(
                "[… {} passing test line{} folded]",
                thousands(self.passing),
                if self.passing == 1 { "" } else { "s" }
            ),
            // The reader knows these lines: they are printed above as they are
            // (a second failing test with the first one's message).
            n if self.repeated == n => format!(
                "[… {} line{} repeated from above]",
                thousands(n),
                if n == 1 { "" } else { "s" }
            ),
            n if self.alike == n => format!("[… {} like those above]", alerts(n)),
            n if self.alike > 0 => format!(
                "[… {} lines folded, {} like those above]",
                thousands(n),
                alerts(self.alike)
            ),
            n => gap_marker(n),
        })
    }
}

/// Where a log reads as a short one, a template of at most this many lines
/// keeps each of them, though they differ only in their numbers: there the
/// numbers are what each line says (one benchmark's time, one epoch's
/// loss, one run's count of outliers), not a counter ticking.
const FEW_MEASURES_AT_MOST: usize = 8;

/// A log of up to this many lines keeps a few measures (see
/// [`FEW_MEASURES_AT_MOST`]) though it is not read as a short one: a
/// benchmark run that first builds its crates prints its results among a
/// hundred lines or so. A longer log's few measures go by the usual
/// rules (kept in CI logs of thousands of lines they cost 5% more tokens
/// for a quarter of a point more of their failure lines).
const MEASURED_LOG_LINES_AT_MOST: usize = 400;

/// A template of at most this many lines, each differing from the others
/// in its words, lists a few distinct things: each line is kept, as a rare
/// one is.
const FEW_ITEMS_AT_MOST: usize = 4;

/// Templates of more than [`template::RARE_AT_MOST`] lines and at most
/// [`FEW_ITEMS_AT_MOST`] whose lines' masks all differ (`Created wheel for
/// setuptools: …`, `… for wheel: …`, `… for packaging: …`): a few items,
/// each its own fact, rather than one message repeated.
fn few_distinct_items(masks: &[String], templates: &template::Templates) -> FxHashSet<usize> {
    let mut lines_of: FxHashMap<usize, Vec<&str>> = FxHashMap::default();
    for (i, &t) in templates.of_line.iter().enumerate() {
        let size = templates.size[t];
        if size > template::RARE_AT_MOST && size <= FEW_ITEMS_AT_MOST {
            lines_of.entry(t).or_default().push(masks[i].as_str());
        }
    }
    lines_of
        .into_iter()
        .filter(|(_, ms)| {
            ms.iter()
                .enumerate()
                .all(|(k, m)| !ms[..k].contains(m) && !m.trim_ascii().is_empty())
        })
        .map(|(t, _)| t)
        .collect()
}

/// Passing summaries kept in full up to this many; beyond, they are per
/// unit (surefire's `Tests run: … - in Class` for every class) and only
/// the rare ones and the last of each shape stay.
const PASSING_SUMMARIES_AT_MOST: usize = 30;

/// For each line, the index of the first line with the same content (its
/// own when it is the first).
fn first_copies(contents: &[&str]) -> Vec<usize> {
    let mut first_of: FxHashMap<&str, usize> = FxHashMap::default();
    contents
        .iter()
        .enumerate()
        .map(|(i, c)| *first_of.entry(c).or_insert(i))
        .collect()
}

/// `read` of every line, from `first_copies`: a line's copies take its
/// first copy's reading.
fn read_once<T: Clone>(contents: &[&str], first: &[usize], read: impl Fn(&str) -> T) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(contents.len());
    for (i, c) in contents.iter().enumerate() {
        let value = if first[i] == i {
            read(c)
        } else {
            out[first[i]].clone()
        };
        out.push(value);
    }
    out
}

/// The summary lines to keep: every one that reports a failure, the
/// passing ones (see [`PASSING_SUMMARIES_AT_MOST`]) and the lines of a
/// section the tool titles as its summary ([`markers::summary_sections`]).
fn kept_summaries(
    contents: &[&str],
    first: &[usize],
    severity: &[Severity],
    templates: &template::Templates,
) -> FxHashSet<usize> {
    let is_summary = read_once(contents, first, markers::is_summary);
    let all: Vec<usize> = (0..contents.len()).filter(|&i| is_summary[i]).collect();
    let passing = all
        .iter()
        .filter(|&&i| severity[i] == Severity::Normal)
        .count();
    let sections = markers::summary_sections(contents);
    if passing <= PASSING_SUMMARIES_AT_MOST {
        return all.into_iter().chain(sections).collect();
    }
    let mut last_of_template = FxHashMap::default();
    for &i in &all {
        last_of_template.insert(templates.of_line[i], i);
    }
    all.into_iter()
        .filter(|&i| {
            severity[i] != Severity::Normal
                || templates.is_rare(i)
                || last_of_template.get(&templates.of_line[i]) == Some(&i)
        })
        .chain(sections)
        .collect()
}

/// Notes (`path:line:col: note: …`) in library code (see
/// [`markers::is_library_path`]) where no error or warning of the log is: a
/// compiler's candidate lists and instantiation chains in system headers,
/// which explain an error reported elsewhere. They fold (the gap says how
/// many lines); notes in the project's files stay (a linter's `note` level
/// is a finding of its own).
fn notes_elsewhere(contents: &[&str]) -> FxHashSet<usize> {
    let diagnostics: Vec<(usize, &str, String)> = contents
        .iter()
        .enumerate()
        .filter_map(|(i, c)| markers::diagnostic_parts(c).map(|d| (i, d.path, d.level())))
        .collect();
    let reported: FxHashSet<&str> = diagnostics
        .iter()
        .filter(|(_, _, level)| level != "note")
        .map(|&(_, path, _)| path)
        .collect();
    if reported.is_empty() {
        return FxHashSet::default();
    }
    diagnostics
        .into_iter()
        .filter(|(_, path, level)| {
            level == "note" && !reported.contains(path) && markers::is_library_path(path)
        })
        .map(|(i, _, _)| i)
        .collect()
}

/// The shallowest lines of an outline (see [`OUTLINE_DEEP_SHARE`]), or
/// none. Lines of encoded data (a PEM block under a certificate printed as
/// text) are no part of it: they head nothing.
fn outline_headers(contents: &[&str]) -> FxHashSet<usize> {
    let indent = line::indent;
    let non_blank: Vec<(usize, usize)> = contents
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.trim_ascii().is_empty() && !line::is_encoded_line(c))
        .map(|(i, c)| (i, indent(c)))
        .collect();
    let Some(min) = non_blank.iter().map(|&(_, d)| d).min() else {
        return FxHashSet::default();
    };
    let headers: FxHashSet<usize> = non_blank
        .iter()
        .filter(|&&(_, d)| d == min)
        .map(|&(i, _)| i)
        .collect();
    let deep = non_blank.len() - headers.len();
    if non_blank.len() < 20
        || (deep as f64) < non_blank.len() as f64 * OUTLINE_DEEP_SHARE
        || headers.len() > OUTLINE_HEADERS_AT_MOST
    {
        return FxHashSet::default();
    }
    headers
}

/// `n` errors or warnings, counted as a gap's marker counts them (`1
/// error/warning`, `9 errors/warnings`).
fn alerts(n: usize) -> String {
    if n == 1 {
        "1 error/warning".to_string()
    } else {
        format!("{} errors/warnings", thousands(n))
    }
}

/// The line that stands for `n` folded lines.
fn gap_marker(n: usize) -> String {
    if n == 1 {
        "[… 1 line folded]".to_string()
    } else {
        format!("[… {} lines folded]", thousands(n))
    }
}

/// A log with more section titles than this is a listing of them (every
/// passing test's banner, `tsc --traceResolution`'s 908 `======== Resolving
/// module …` and `Module name … was resolved …`): the first title of
/// each shape stays ([`first_of_each_shape`]), the others fold like any
/// other line.
const MAX_SECTION_TITLES: usize = 100;

/// The first of `lines` (in order) of each template `of_line` gives.
fn first_of_each_shape(lines: Vec<usize>, of_line: &[usize]) -> Vec<usize> {
    let mut seen = FxHashSet::default();
    lines
        .into_iter()
        .filter(|&i| seen.insert(of_line[i]))
        .collect()
}

/// Lines that announce a phase: `[INFO] --- plugin ---`, `=== RUN`, `## Step`.
fn is_header_like(content: &str) -> bool {
    let t = content.trim_start_matches("[INFO] ").trim_ascii();
    t.starts_with("---")
        || t.starts_with("===")
        || t.starts_with("##")
        || t.starts_with("> ")
        || t.starts_with("Step ")
        || t.starts_with("Run ")
        || t.starts_with("BUILD ")
        || t.starts_with("Building ")
        || t.starts_with("Reactor Summary")
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Folds `log` with the default options and returns what is printed: how
/// the tests of the rules read a log whole.
#[cfg(test)]
pub(crate) fn folded(log: &[String]) -> Vec<String> {
    let contents: Vec<&str> = log.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    fold(&contents, &contents, &FoldOptions::default(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_repeated_word_for_word_is_read_once() {
        let contents = ["a 1", "b", "a 1", "a 2", "b"];
        let first = first_copies(&contents);
        assert_eq!(first, [0, 1, 0, 3, 1]);
        let reads = std::cell::Cell::new(0);
        let lengths = read_once(&contents, &first, |c| {
            reads.set(reads.get() + 1);
            c.len()
        });
        assert_eq!(lengths, [3, 1, 3, 3, 1]);
        assert_eq!(reads.get(), 3, "one read per distinct line");
    }

    /// A real JVM thread dump (`jcmd PID Thread.print` of a deadlock,
    /// round 97 of the local corpus): a preamble of three paragraphs,
    /// threads each opened by its quoted name, the deadlock report.
    const THREAD_DUMP: &str =
        include_str!("../../../host/bench/corpus/local/jcmd-thread-print/input.txt");

    #[test]
    fn a_thread_dump_keeps_every_thread_and_its_deadlock_report() {
        let contents: Vec<&str> = THREAD_DUMP.lines().collect();
        let mut out = Vec::new();
        fold(&contents, &contents, &FoldOptions::default(), &mut out);
        let printed = |line: &str| out.iter().any(|l| l == line.trim_ascii_end());
        let headers: Vec<&str> = contents
            .iter()
            .copied()
            .filter(|l| l.starts_with('"') && l.has("\" "))
            .collect();
        assert!(headers.len() > 20);
        for line in headers {
            assert!(printed(line), "{line}");
        }
        for line in [
            "Found one Java-level deadlock:",
            "  which is held by \"packer\"",
            "Found 1 deadlock.",
        ] {
            assert!(printed(line), "{line}");
        }
    }

    #[test]
    fn an_underlined_title_opens_a_section_a_long_rule_does_not() {
        let log = [
            "Found one Java-level deadlock:",
            "=============================",
            "\"posting\":",
            "  which is held by \"audit\"",
            "",
            "\"audit\":",
            "",
            "",
            "FAIL: test_x (mod.T)",
            "----------------------------------------------------------------------",
            "Traceback (most recent call last):",
        ];
        assert_eq!(underlined_sections(&log), vec![0..6]);
    }

    #[test]
    fn distances_count_lines_to_the_nearest_block() {
        assert_eq!(
            distances_from(8, &[2..4, 7..8]),
            vec![2, 1, 0, 0, 1, 2, 1, 0]
        );
        assert!(distances_from(2, &[]).iter().all(|&d| d == usize::MAX));
    }

    #[test]
    fn a_rare_line_nearer_an_error_comes_first_from_the_budget() {
        // 60 lines each of its own shape, 300 alike, then an error whose
        // message goes on below it, past the lines near it: with more
        // rare lines than the budget holds, the message's end still shows.
        let word = |k: usize| -> String {
            [k % 26, k / 26 % 26, k / 676 % 26]
                .map(|d| char::from(b'a' + d as u8))
                .iter()
                .collect()
        };
        let mut lines: Vec<String> = (1..61)
            .map(|k| {
                let words: Vec<String> = (0..k % 9 + 1).map(|j| word(k * 37 + j)).collect();
                format!("fetch {}{}", words.join(" "), " ok".repeat(k / 9 + 1))
            })
            .collect();
        lines.extend((0..300).map(|k| format!("step {k} done")));
        lines.push("error: could not match type String".into());
        lines.push(String::new());
        for w in [
            "while", "checking", "that", "type", "String", "and", "then", "some",
        ] {
            lines.push(format!("{w} is filler here"));
        }
        lines.push("  is at least as general as type Effect t0".into());
        lines.extend((0..40).map(|k| format!("step {k} done")));
        let text = lines.join("\n");
        let contents: Vec<&str> = text.lines().collect();
        let mut out = Vec::new();
        fold(&contents, &contents, &FoldOptions::default(), &mut out);
        assert!(
            out.iter()
                .any(|l| l == "  is at least as general as type Effect t0"),
            "{out:#?}"
        );
    }

    /// A plan of 30 resources after a two-paragraph preamble: each
    /// resource's bodies are alike and fold, its name stays; under the
    /// tightest budget the names of records folded whole fold too.
    fn plan_of_resources() -> String {
        let mut plan = String::from(
            "Terraform used the selected providers to generate the following\n  + create\n\n\
             Terraform will perform the following actions:\n\n",
        );
        for i in 0..30 {
            plan.push_str(&format!(
                "  # terraform_data.dns[\"svc{i}\"] will be created\n  + resource \"terraform_data\" \"dns\" {{\n      \
                 + id     = (known after apply)\n      + input  = \"svc{i}.local\"\n    }}\n\n"
            ));
        }
        plan.push_str("Plan: 30 to add, 0 to change, 0 to destroy.\n");
        plan
    }

    #[test]
    fn a_list_of_named_records_keeps_every_name_after_a_preamble() {
        let plan = plan_of_resources();
        let lines: Vec<&str> = plan.lines().collect();
        let fold_with = |opts: &FoldOptions| {
            let mut out = Vec::new();
            fold(&lines, &lines, opts, &mut out);
            out
        };
        let out = fold_with(&FoldOptions::default());
        for i in 0..30 {
            let name = format!("  # terraform_data.dns[\"svc{i}\"] will be created");
            assert!(out.contains(&name), "{name} lost: {out:#?}");
        }
        assert!(out.len() < lines.len() / 2, "{out:#?}");
        let tightest = fold_with(&FoldOptions::default().tightest());
        let names = tightest.iter().filter(|l| l.has("will be created")).count();
        assert!(names < 30, "{tightest:#?}");
    }

    #[test]
    fn stack_frames_of_each_runtime_read_as_frames() {
        for frame in [
            "    at eq (/src/test/support/helpers.js:1:1)",
            "    at node:internal/main/run_main_module:28:49",
            "\tat org.junit.Assert.assertEquals(Assert.java:117)",
            "   at Calc.Tests.AddTest() in /src/Calc.Tests/AddTest.cs:line 12",
            "   at System.Number.ThrowOverflowException()",
            "  at System.Int32.Parse (System.String s) [0x00019] in <12b418a7818c4ca0893feeaaf67f1e7f>:0 ",
        ] {
            assert!(is_stack_frame(frame), "{frame:?}");
        }
        for line in [
            "  at least 3 items expected",
            "attempt 2 of 3",
            "  \"at\": 3",
        ] {
            assert!(!is_stack_frame(line), "{line:?}");
        }
    }

    #[test]
    fn a_few_blank_and_rule_lines_print_instead_of_their_marker() {
        let lines = ["x", "=====", "", "-------", "text", "*****", "", "", ""];
        let gap = |first: usize, last: usize| Gap {
            lines: last + 1 - first,
            first,
            last,
            ..Gap::default()
        };
        let printed = |mut g: Gap| {
            let mut out = Vec::new();
            g.flush(&lines, &mut out);
            out
        };
        assert_eq!(printed(gap(1, 3)), vec!["=====", "", "-------"]);
        // A line of text among them, or more of them than a marker costs:
        // the marker.
        assert_eq!(printed(gap(3, 5)), vec!["[… 3 lines folded]"]);
        assert_eq!(printed(gap(5, 8)), vec!["[… 4 lines folded]"]);
        assert!(!is_rule("=="));
        assert!(!is_rule("=-="));
        assert!(!is_rule("aaaa"));
    }

    /// A gap's marker counts the errors and warnings in it that repeat
    /// those printed above, one in the singular.
    #[test]
    fn a_gaps_marker_counts_its_repeated_alerts() {
        let lines = ["x"; 6];
        let marker = |n: usize, alike: usize| {
            let mut gap = Gap {
                lines: n,
                first: 0,
                last: n - 1,
                alike,
                ..Gap::default()
            };
            let mut out = Vec::new();
            gap.flush(&lines, &mut out);
            out
        };
        assert_eq!(
            marker(4, 1),
            vec!["[… 4 lines folded, 1 error/warning like those above]"]
        );
        assert_eq!(marker(3, 3), vec!["[… 3 errors/warnings like those above]"]);
    }

    #[test]
    fn a_short_builds_command_lines_fold_though_each_names_a_source_file() {
        let mut log: Vec<String> = (0..12)
            .map(|k| {
                format!(
                    "cc -Wall -Wshadow -O0 -g3 -fno-omit-frame-pointer -std=gnu11 -DDEBUG=1 -Ilib -c -o lib/sum{k}.o lib/sum{k}.c"
                )
            })
            .collect();
        log.push(
            "lib/sum7.c:4:12: warning: declaration of 'a2' shadows a previous local [-Wshadow]"
                .into(),
        );
        let text = log.join("\n");
        let out = crate::compress_within(&text, None).text;
        assert!(out.has("[×12 similar]"), "{out}");
        assert!(out.has("lib/sum7.c:4:12: warning:"), "{out}");
        assert!(!out.has("lib/sum5.c"), "{out}");
    }

    #[test]
    fn a_short_list_of_names_that_mask_alike_keeps_every_name() {
        let branches = "  bugfix/overdraft       cd28bd8 Begin bugfix/overdraft\n\
                        \x20 chore/deps             20c0894 Begin chore/deps\n\
                        \x20 experiment/sqlite      99cd9d6 Begin experiment/sqlite\n\
                        \x20 feature/export-csv     f62fc70 Begin feature/export-csv\n\
                        \x20 feature/multi-currency 41ccb4c Begin feature/multi-currency\n\
                        \x20 hotfix/2.0.1           1f85cee Begin hotfix/2.0.1\n\
                        \x20 refactor/accounts      209b0a3 Begin refactor/accounts\n\
                        * trunk                  2110b6e Open the ledger\n";
        let out = crate::compress_within(branches, None).text;
        for name in [
            "experiment/sqlite",
            "feature/export-csv",
            "feature/multi-currency",
        ] {
            assert!(out.contains(name), "{out}");
        }
        // Lines differing only in numbers still fold.
        let downloads: String = (1..=150)
            .map(|k| format!("Downloaded {k}0 kB in {k}.{k}s\n"))
            .collect();
        let out = crate::compress_within(&downloads, None).text;
        assert!(out.has("similar"), "{out}");
    }

    #[test]
    fn shell_echoes_of_commands_read_as_such() {
        for echo in [
            "+ venv/bin/pytest -v tests",
            "++ git rev-parse HEAD",
            "$ make test",
            "+ ./configure",
        ] {
            assert!(is_command_echo(echo), "{echo:?}");
        }
        for line in [
            "+    int(2000)",
            "$ 5.00 charged",
            "+++ b/src/lib.rs",
            "+",
            "$",
            "1 + 2",
            "+-----+",
        ] {
            assert!(!is_command_echo(line), "{line:?}");
        }
    }

    /// A class histogram as `jmap -histo` prints it: a header, a rule, 200
    /// rows ranked by bytes (row 150 names an error class), a total.
    fn class_histogram() -> String {
        let mut text = String::from(
            " num     #instances         #bytes  class name (module)\n\
             -------------------------------------------------------\n",
        );
        for k in 1..=200 {
            let class = if k == 150 {
                "java.lang.OutOfMemoryError".to_string()
            } else {
                format!("shop.Catalog$Item{}", k * 7919 % 1000)
            };
            text.push_str(&format!(
                "{:>4}: {:>13} {:>14}  {class} (java.base@17.0.15)\n",
                k,
                1000 - k,
                (201 - k) * 48
            ));
        }
        text.push_str("Total         99999        9999999\n");
        text
    }

    #[test]
    fn a_ranked_table_keeps_its_first_rows_and_an_error_row_not_its_siblings() {
        let text = class_histogram();
        let contents: Vec<&str> = text.lines().collect();
        let mut out = Vec::new();
        fold(&contents, &contents, &FoldOptions::default(), &mut out);
        // The largest rows, the error's row and the total stay…
        for kept in [contents[2], contents[31], contents[151], contents[202]] {
            assert!(out.iter().any(|l| l == kept), "{kept:?} in {out:#?}");
        }
        // …the rows under the error are the next records, not its detail.
        let after_error = contents[153..195]
            .iter()
            .filter(|row| out.iter().any(|l| l == *row))
            .count();
        assert!(after_error < 10, "{after_error} rows kept: {out:#?}");
        assert!(out.len() < 80, "{out:#?}");
    }

    #[test]
    fn a_failing_step_reaches_up_within_its_share_of_the_log_last_exit_first() {
        // 1,000 lines of 10 bytes (11 with the newline): 2% is 220 bytes.
        let line = "0123456789";
        let contents = vec![line; 1000];
        let mut exits = vec![false; 1000];
        exits[500] = true;
        exits[999] = true;
        let opts = FoldOptions::default();
        let steps = failing_steps(&contents, &exits, &opts);
        // The last exit first: its 60 lines, then 20 more lines above them.
        assert_eq!(steps[0].last, 939..999);
        assert_eq!(steps[0].earlier, 919..939);
        // The share is spent: the earlier exit keeps its 60 lines only.
        assert_eq!(steps[1].last, 440..500);
        assert!(steps[1].earlier.is_empty());
        // Never past the exit before it, which gets what is left.
        exits[500] = false;
        exits[930] = true;
        let steps = failing_steps(&contents, &exits, &opts);
        assert_eq!(steps[0].earlier, 931..939);
        assert_eq!(steps[1].last, 870..930);
        assert_eq!(steps[1].earlier, 858..870);
        // Under a budget the window is its lines alone.
        let steps = failing_steps(&contents, &exits, &opts.tighter());
        assert!(steps.iter().all(|s| s.earlier.is_empty()));
    }

    /// A certificate printed as text is an outline, its fields indented
    /// under `Certificate:`; the PEM block after it is data at the same
    /// depth, which heads nothing: its lines fold as one run.
    #[test]
    fn a_pem_block_is_no_header_of_an_outline() {
        let mut log = vec!["Certificate:", "    Data:", "        Version: 3 (0x2)"];
        let fields: Vec<String> = (0..20)
            .map(|k| format!("        Field {k}: value {}", k * 7))
            .collect();
        log.extend(fields.iter().map(String::as_str));
        let pem = [
            "-----BEGIN CERTIFICATE-----",
            "MIIDWTCCAkGgAwIBAgIUK+K707qmKPq0eYIRLyZkMXNmXLMwDQYJKoZIhvcNAQEL",
            "BQAwPDETMBEGA1UEAwwKZ2hvc3QudGVzdDEYMBYGA1UECgwPR2hvc3QgUm91bmQg",
            "MTI3MQswCQYDVQQGEwJGUjAeFw0yNjEyMDcxNTQyMzVaFw0yNzAxMDYxNTQyMzVa",
            "MDwxEzARBgNVBAMMCmdob3N0LnRlc3QxGDAWBgNVBAoMD0dob3N0IFJvdW5kIDEy",
            "NzELMAkGA1UEBhMCRlIwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQDH",
            "AwQ4OHSmaAHpakfsdckCNV0mUYNpqvBjg6KsyL1L8B5C/l4ZTYVyIXOJxXcn55Fs",
            "-----END CERTIFICATE-----",
        ];
        log.extend(pem);
        let headers = outline_headers(&log);
        assert!(headers.contains(&0) && headers.contains(&(log.len() - 1)));
        assert!((log.len() - 7..log.len() - 1).all(|i| !headers.contains(&i)));
    }

    /// In a manual, a description saying `error` is kept as an error, but
    /// the lines after it that sit shallower (the next subsection, its
    /// options and their prose) are not detail under it: they go by the
    /// usual rules, and prose there folds.
    #[test]
    fn an_error_word_in_a_manual_holds_no_block_of_the_next_section() {
        let mut log = vec!["GREP(1)", "", "OPTIONS"];
        let options: Vec<String> = (0..26u8)
            .flat_map(|k| {
                let letter = char::from(b'a' + k);
                [
                    format!("       -{letter}, --option-{letter}"),
                    format!("              Option {k}: what it changes."),
                    String::new(),
                ]
            })
            .collect();
        log.extend(options.iter().map(String::as_str));
        log.extend([
            "       -q, --quiet",
            "              Print nothing.  Exit at once with zero status if a line matches, even if an",
            "              error was detected.",
            "",
            "   Output Control",
            "       -Z, --null",
            "              Print a zero byte after each file name.",
            // An option named at the start of a line: the description
            // above ends here, and what follows is read as prose.
            "              -lZ prints a zero byte after each file name instead of the",
            "              usual newline, which makes the output unambiguous for file",
            "              names holding newlines, for tools that read such lists, and",
            "              for scripts that split the output on zero bytes alone, as",
            "              shells split on newlines badly when a name has one.",
            "",
        ]);
        log.extend(options[..30].iter().map(String::as_str));
        let mut out = Vec::new();
        // No budget for rare lines: what stays is what the rules keep.
        let opts = FoldOptions {
            novel_budget: 0,
            rare_per_thousand: 0,
            ..FoldOptions::default()
        };
        fold(&log, &log, &opts, &mut out);
        assert!(out.iter().any(|l| l.has("error was detected")));
        assert!(out.iter().any(|l| l.has("-Z, --null")));
        assert!(!out.iter().any(|l| l.has("shells split")), "{out:#?}");
    }
}
