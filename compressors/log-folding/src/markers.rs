//! Lines a log is read for, recognised by their structure rather than by a
//! list of tools: a runner's own summary (it counts outcomes), a failure
//! exit, and a compiler's or linter's diagnostic (`file:line: message`).
//! Every one of them is kept verbatim.

use crate::grep::is_path;
use crate::search::Search;

/// Words that name an outcome a runner counts.
const OUTCOMES: &[&str] = &[
    "passed",
    "passing",
    "pass",
    "failed",
    "failing",
    "fail",
    "failures",
    "failure",
    "errors",
    "error",
    "errored",
    "skipped",
    "skip",
    "ignored",
    "pending",
    "todo",
    "tests",
    "test",
    "examples",
    "example",
    "assertions",
    "warnings",
    "warning",
    "xfailed",
    "xpassed",
    "deselected",
    "succeeded",
    "successful",
    "incomplete",
    "risky",
    "broken",
    "suites",
    "specs",
    "checks",
    "total",
    "problems",
];

/// A runner's or tool's summary: it counts outcomes (`3 passed, 1 failed`,
/// `Tests run: 5, Failures: 1`, `test result: ok.`, `Ran 16 tests`,
/// `Found 2 errors`, `# fail 1`, `OK`, `FAILED (failures=2)`).
pub fn is_summary(content: &str) -> bool {
    // Frames and bullets around it (`==== … ====`, `# `, `ℹ `, `✔ `) are not
    // part of it.
    fn framed(content: &str) -> &str {
        content
            .trim_ascii()
            .trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '(' && c != ')')
    }
    // Every summary but a bare verdict has a count: most lines are out here
    // (before the frame is trimmed: the count is inside it).
    if !content.bytes().any(|b| b.is_ascii_digit()) {
        return content.has("OK") && framed(content) == "OK";
    }
    let t = framed(content);
    if t.is_empty() || t.len() > 240 {
        return false;
    }
    if t == "OK"
        || t.starts_with("OK (")
        || t.starts_with("FAILED (")
        || t.starts_with("test result:")
    {
        return true;
    }
    // One count in a short line, or several: a sentence that mentions
    // "3 tests" is not a summary.
    match counted_outcomes(t) {
        0 => is_tally(t),
        1 => t.split_whitespace().count() <= SUMMARY_WORDS_AT_MOST,
        _ => true,
    }
}

/// Whether `text` has `summary` in it, in any case: looked for by its
/// last letter, the rarest.
fn names_summary(text: &[u8]) -> bool {
    const SUMMARY: &[u8] = b"summary";
    memchr::memchr2_iter(b'y', b'Y', text).any(|end| {
        end + 1 >= SUMMARY.len()
            && text[end + 1 - SUMMARY.len()..=end].eq_ignore_ascii_case(SUMMARY)
    })
}

/// Most lines of a tool's summary section kept (see [`summary_sections`]).
pub const SUMMARY_SECTION_LINES_AT_MOST: usize = 20;

/// A summary section's title is at most this long (four short words).
const SUMMARY_TITLE_BYTES_AT_MOST: usize = 60;

/// The lines of the sections a tool titles as its summary (flawfinder's
/// `ANALYSIS SUMMARY:` over `Hits = 19`, `Lines analyzed = 44 …`): the
/// paragraph under a short title naming a summary, up to the next blank
/// line (blank lines right under the title skipped), at most
/// [`SUMMARY_SECTION_LINES_AT_MOST`] lines. The tool says there what it
/// found, in counts of its own words.
pub fn summary_sections(contents: &[&str]) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, line) in contents.iter().enumerate() {
        let title = line
            .trim_ascii()
            .trim_matches(|c: char| matches!(c, '=' | '-' | '#' | '*' | ':' | ' '));
        // A title of four words at most: most lines are longer; and most
        // shorter ones have no `summary` in them, in any case.
        if title.len() > SUMMARY_TITLE_BYTES_AT_MOST || !names_summary(title.as_bytes()) {
            continue;
        }
        let is_title = title.split_whitespace().count() <= 4
            && title
                .split_whitespace()
                .any(|w| w.eq_ignore_ascii_case("summary"))
            && title
                .split_whitespace()
                .all(|w| w.chars().all(char::is_alphabetic));
        if !is_title {
            continue;
        }
        let start = (i + 1..contents.len())
            .find(|&k| !contents[k].trim_ascii().is_empty())
            .unwrap_or(contents.len());
        out.extend(
            (start..contents.len())
                .take_while(|&k| !contents[k].trim_ascii().is_empty())
                .take(SUMMARY_SECTION_LINES_AT_MOST),
        );
    }
    out
}

/// A line that is only a list of counts, each clause a number and what it
/// counts: `3 files changed, 153 insertions(+), 12 deletions(-)` (git's
/// diffstat), `2 directories, 15 files` (`tree`). Whatever the nouns, a
/// tool closing with its tally says what it did.
fn is_tally(t: &str) -> bool {
    // Two clauses at least.
    t.has(",")
        && t.split(',').map(str::trim).all(|clause| {
            let clause = clause.strip_prefix("and ").unwrap_or(clause);
            let mut words = clause.split_whitespace();
            let count = words.next().unwrap_or("");
            let noun = words.next().unwrap_or("");
            !count.is_empty()
                && count.bytes().all(|b| b.is_ascii_digit())
                && noun.starts_with(|c: char| c.is_alphabetic())
        })
}

/// A line with a single count is a summary only this short (in words).
const SUMMARY_WORDS_AT_MOST: usize = 10;

/// How many `N outcome` or `Outcome: N` pairs `t` has.
fn counted_outcomes(t: &str) -> usize {
    // Every pair has a count: most lines have none, and are out before
    // they are split into words.
    if !has_count_word(t) {
        return 0;
    }
    let words: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|' | '(' | ')' | '[' | ']'))
        .filter(|w| !w.is_empty())
        .collect();
    let is_outcome = |w: &str| {
        let w = w.trim_end_matches([':', '.', '=']);
        let w = w.split('=').next().unwrap_or("");
        (4..=11).contains(&w.len())
            && w.as_bytes()[0].is_ascii_alphabetic()
            && OUTCOMES.iter().any(|o| o.eq_ignore_ascii_case(w))
    };
    let is_count = |w: &str| {
        let w = w.trim_end_matches(['.', ',']);
        !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
    };
    // TAP's `# pass 12`.
    // (A count is looked for before an outcome word: most words are no
    // count, and comparing a word with every outcome is the dear part.)
    if let [outcome, count] = words.as_slice()
        && is_count(count)
        && is_outcome(outcome)
    {
        return 1;
    }
    let mut pairs = 0;
    for (i, w) in words.iter().enumerate() {
        // `3 passed`
        if is_count(w) && words.get(i + 1).is_some_and(|n| is_outcome(n)) {
            pairs += 1;
        }
        // `Failures: 1`, `failures=2`
        if (w.ends_with(':') && words.get(i + 1).is_some_and(|n| is_count(n))
            || w.split_around("=").is_some_and(|(_, n)| is_count(n)))
            && is_outcome(w)
        {
            pairs += 1;
        }
    }
    pairs
}

/// Whether `t` may hold a word [`counted_outcomes`] reads as a count:
/// digits from a word's start (or from an `=` in it) to its end, but for
/// trailing dots. Any byte past ASCII may be a boundary (Unicode
/// spaces split words too), so no count is missed; a few lines pass that
/// have none.
fn has_count_word(t: &str) -> bool {
    let bytes = t.as_bytes();
    // The bytes `char::is_whitespace` and the word splitter's marks are.
    let boundary = |b: u8| {
        b.is_ascii_whitespace()
            || b == 0x0B
            || b >= 0x80
            || matches!(b, b',' | b';' | b'|' | b'(' | b')' | b'[' | b']')
    };
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let starts_word = i == 0 || boundary(bytes[i - 1]) || bytes[i - 1] == b'=';
        let mut end = i;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        let digits_end = end;
        // Trailing dots are trimmed from a count (a comma ends its word).
        while end < bytes.len() && bytes[end] == b'.' {
            end += 1;
        }
        if starts_word && (end == bytes.len() || boundary(bytes[end])) {
            return true;
        }
        i = digits_end;
    }
    false
}

/// A title framed by rules: `____ path.py:test_Mul ____`, `=== FAILURES
/// ===`, `--- Captured stdout ---`. It names the section under it (in a
/// test run, the failing test), so it is kept even when other titles share
/// its shape.
pub fn is_section_title(content: &str) -> bool {
    let t = content.trim_ascii();
    let Some(first) = t.chars().next() else {
        return false;
    };
    let rule = |s: &str| s.len() >= 3 && s.chars().all(|c| c == first);
    matches!(first, '_' | '=' | '-' | '*' | '#')
        && t.split_around(" ").is_some_and(|(open, rest)| {
            rest.rsplit_around(" ").is_some_and(|(middle, close)| {
                rule(open) && rule(close) && middle.chars().any(char::is_alphanumeric)
            })
        })
}

/// A line that says a command, build or job failed and how: `exit status
/// 2`, `exited with code 1`, `make: *** [all] Error 2`, `Process completed
/// with exit code 1`, `error: could not compile`, `FAILED`, `BUILD FAILURE`;
/// or a CI's verdict on a step that gave no exit code: a retry wrapper
/// giving up (`The command "git clone …" failed 3 times.`) or a step
/// stopped for stalling or running out of time (`No output has been
/// received in the last 10m0s`, `exceeded the maximum time limit`).
/// The lines before it usually say why.
pub fn is_failure_exit(content: &str) -> bool {
    let t = content.trim_ascii();
    // `exit` in any case: most lines have no `xit` at all.
    let exits = (t.has("xit") || t.has("XIT")) && exits_nonzero(t);
    exits
        || t.has("failed") && (gave_up_retrying(t) || ran_out_of_time(t))
        || is_stopped_step(t)
        || t.starts_with("make: ***") && t.has("Error")
        || t.starts_with("make[") && t.has("***") && t.has("Error")
        || t.starts_with("error: could not compile")
        || t == "FAILED"
        || t == "FAIL"
        || t.has("BUILD FAILED")
        || t.has("BUILD FAILURE")
        || t.starts_with("npm ERR! code ")
        || t.starts_with("npm error code ")
}

/// Whether `t` says a command failed every time it was tried: travis_retry's
/// `The command "…" failed 3 times.`, a retrying tool's `failed after 5
/// attempts`. A single `failed` says nothing of the kind.
fn gave_up_retrying(t: &str) -> bool {
    t.match_indices("failed ").any(|(at, word)| {
        let rest = &t[at + word.len()..];
        let rest = rest.strip_prefix("after ").unwrap_or(rest);
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let unit = rest[digits..].trim_ascii_start();
        digits > 0
            && ["times", "attempts", "retries", "tries"]
                .iter()
                .any(|u| unit.starts_with(u))
    })
}

/// A CI's word that it stopped a step that was still running: it printed
/// nothing for too long (Travis: `No output has been received in the last
/// 10m0s, …`) or ran past its time limit (Travis: `The job exceeded the
/// maximum time limit for jobs, and has been terminated.`; GitHub Actions:
/// `… has exceeded the maximum execution time of 360 minutes.`; GitLab's
/// is a `failed` line, see [`ran_out_of_time`]). What the step printed
/// last is what it was stuck on.
fn is_stopped_step(t: &str) -> bool {
    // `xceeded`: a needle led by a rare letter is quick to look for.
    t.starts_with("No output has been received in the last")
        || t.has("xceeded the maximum ") && (t.has(" time limit") || t.has(" execution time"))
}

/// GitLab stopping a job at its time limit: `ERROR: Job failed: execution
/// took longer than 1h0m0s seconds`.
fn ran_out_of_time(t: &str) -> bool {
    t.has("execution took longer than")
}

/// Whether `t` reports an exit (`exit status 2`, `exit code 1`, `exited
/// with 1`, `exited with code 1`) other than a success (`exited with 0`).
fn exits_nonzero(t: &str) -> bool {
    let lower = t.to_ascii_lowercase();
    ["exit status ", "exit code ", "exited with "]
        .iter()
        .flat_map(|phrase| lower.match_indices(phrase).map(|(at, p)| at + p.len()))
        .any(|after| {
            let rest = &lower[after..];
            let rest = rest.strip_prefix("code ").unwrap_or(rest);
            let digits = &rest[..rest.bytes().take_while(u8::is_ascii_digit).count()];
            digits.is_empty() || !digits.trim_start_matches('0').is_empty()
        })
}

/// Whether `l` names a place in a source file: `name.ext:12`,
/// `name.ext(12)` or `name.ext line 12`.
pub fn has_source_location(l: &str) -> bool {
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count() > 0;
    l.match_indices('.').any(|(at, _)| {
        let named = l[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-');
        let rest = &l[at + 1..];
        let ext = rest.bytes().take_while(u8::is_ascii_alphanumeric).count();
        let after = &rest[ext..];
        named
            && (1..=5).contains(&ext)
            && (after.strip_prefix(':').is_some_and(digits)
                || after.strip_prefix('(').is_some_and(digits)
                || after.strip_prefix(" line ").is_some_and(digits))
    })
}

/// Code that is not the project's: installed packages, the standard library
/// and its headers, an interpreter's frozen modules, a runtime's built-in
/// ones (node's `node:internal/timers`), vendored dependencies.
pub fn is_library_path(path: &str) -> bool {
    const INSIDE: &[&str] = &[
        "site-packages/",
        "dist-packages/",
        "/lib/python",
        "node_modules/",
        "/.cargo/registry/",
        "/.rustup/",
        "/go/pkg/mod/",
        "/gems/",
        "/lib/ruby/",
        "/vendor/",
    ];
    const UNDER: &[&str] = &[
        "<",
        "node:",
        "/usr/include/",
        "/usr/lib/",
        "/usr/local/include/",
        "/usr/local/lib/",
        "/rustc/",
    ];
    INSIDE.iter().any(|p| path.has(p)) || UNDER.iter().any(|p| path.starts_with(p))
}

/// Whether a line of a short log names a file of the project: a place in a
/// source file, or a path with an extension outside library code
/// (`would reformat src/app.py`).
pub fn names_a_project_file(l: &str) -> bool {
    has_source_location(l)
        || l.split_whitespace().any(|w| {
            let w = w.trim_matches(|c: char| {
                matches!(
                    c,
                    '\'' | '"' | '`' | ',' | ';' | ':' | '(' | ')' | '[' | ']'
                )
            });
            w.has("/")
                && !w.has("://")
                && is_path(w)
                && w.rsplit('/').next().is_some_and(|name| {
                    name.rsplit_around(".").is_some_and(|(stem, ext)| {
                        !stem.is_empty()
                            && (1..=5).contains(&ext.len())
                            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                    })
                })
                && !is_library_path(w)
        })
}

/// Whether a line declares a database object as SQL does (`CREATE TABLE
/// public.orders (`, `CREATE UNIQUE INDEX …`, `CREATE OR REPLACE VIEW …`):
/// a definition's head, what a schema dump or a migration's log is read
/// for, as a signature is in code.
pub fn declares_sql_object(l: &str) -> bool {
    let Some(rest) = l.strip_prefix("CREATE ") else {
        return false;
    };
    let mut words = rest.split_whitespace();
    let kinds = [
        "TABLE",
        "VIEW",
        "INDEX",
        "FUNCTION",
        "PROCEDURE",
        "TYPE",
        "SEQUENCE",
        "TRIGGER",
        "SCHEMA",
        "EXTENSION",
        "MATERIALIZED",
    ];
    // Up to three qualifiers first (`OR REPLACE`, `UNIQUE`, `TEMP`).
    words.by_ref().take(4).any(|w| kinds.contains(&w))
}

/// Whether `l` points at a line without naming a file: it leads with
/// `line:col` (stylelint's and eslint's findings under their file's name)
/// or says `line 69` (perlcritic's `… at line 69, column 28.`) or `lines
/// 14--32` (TeX's `Overfull \hbox … in paragraph at lines 14--32`). Such a
/// line's numbers are what it says, not noise.
pub fn names_a_line(l: &str) -> bool {
    let lead = l.split_whitespace().next().unwrap_or("");
    is_line_and_column(lead.trim_end_matches(':'))
        || is_tex_line(lead)
        || l.match_indices("line").any(|(at, _)| {
            let before_is_word = l[..at]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
            let after = &l[at + 4..];
            let number = after.strip_prefix("s ").or_else(|| after.strip_prefix(' '));
            !before_is_word && number.is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        })
}

/// `l.14`: TeX's line of the input, leading the context of an error.
fn is_tex_line(word: &str) -> bool {
    word.strip_prefix("l.")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `12:5`: a line and a column, as a finding under its file's name leads
/// with them.
fn is_line_and_column(word: &str) -> bool {
    word.split_around(":").is_some_and(|(line, col)| {
        [line, col]
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// A diagnostic's header, as compilers and linters print it:
/// `path:line[:col]: message` (gcc, clang, go vet, mypy, ruff, eslint's
/// unix format), `path(line,col): error CODE: message` (tsc, MSBuild),
/// `  --> path:line:col` (rustc, clippy) and `  line:col  level  message`
/// under a file's path (eslint's stylish format).
pub fn is_diagnostic(content: &str) -> bool {
    let t = content.trim_ascii_start();
    if let Some(rest) = t.strip_prefix("--> ") {
        return rest
            .split_around(":")
            .is_some_and(|(path, place)| is_path(path) && location_then(place, |_| true));
    }
    // A path has no spaces (see [`is_path`]): the `(` or `:` after it is in
    // the line's first word, and only that word is searched for them.
    let first_word = &t[..t.find(char::is_whitespace).unwrap_or(t.len())];
    if let Some(open) = first_word.find_str("(")
        && is_path(&t[..open])
        && let Some((place, message)) = t[open + 1..].split_around("):")
        && place
            .split(',')
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    {
        return !message.trim_ascii().is_empty();
    }
    if content.starts_with(' ') && stylish(t) {
        return true;
    }
    if !content.starts_with(' ') && level_at_a_named_line(t) {
        return true;
    }
    if !content.starts_with(' ') && subject_then_namespaced_code(t) {
        return true;
    }
    // ruff's full format: `F401 [*] `os` imported but unused`, then the frame.
    if !content.starts_with(' ')
        && t.split_around(" ")
            .is_some_and(|(code, rest)| is_rule_code(code) && !rest.trim_ascii().is_empty())
    {
        return true;
    }
    match first_word
        .find_str(":")
        .map(|colon| (&t[..colon], &t[colon + 1..]))
    {
        // markdownlint's `README.md:3:1 error MD022/…`, pyright's
        // `path:3:8 - error: …`: the place, a space, then a level or a code.
        Some((path, rest)) if is_path(path) => {
            leads_with_level_after_space(rest)
                || location_then(rest, |message| {
                    // A message, not a search hit's source text: a column (searches
                    // rarely print one), or a level word or rule code leading it.
                    if has_column(rest) {
                        return !message.trim_ascii().is_empty();
                    }
                    let m = message.trim_ascii_start();
                    let first = m.split_whitespace().next().unwrap_or("");
                    let first = first.trim_end_matches(':');
                    is_level_word(first) || is_rule_code(first)
                })
        }
        _ => false,
    }
}

/// A check's message about a named thing rather than a place in a file:
/// the subject, then the check's rule code in parentheses, namespaced,
/// leading the message (Django's system checks: `shop.Order.buyer:
/// (fields.E304) Reverse accessor … clashes …`, `?: (security.W004) You
/// have not set …`, `<class 'blog.admin.PostAdmin'>: (admin.E108) …`).
fn subject_then_namespaced_code(t: &str) -> bool {
    let Some((subject, rest)) = t.split_around(": (") else {
        return false;
    };
    let Some((code, message)) = rest.split_around(") ") else {
        return false;
    };
    let Some((namespace, rule)) = code.split_around(".") else {
        return false;
    };
    !subject.trim_ascii().is_empty()
        && !namespace.is_empty()
        && namespace
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'_')
        && is_rule_code(rule)
        && !message.trim_ascii().is_empty()
}

/// A diagnostic that says its place in words: a level word leading, then,
/// before the message's `: `, a file and `line N` (chktex's `Warning 2 in
/// notes.tex line 4: Non-breaking space …`).
fn level_at_a_named_line(t: &str) -> bool {
    // The level word first: it turns most lines away before any search.
    if !t.split_whitespace().next().is_some_and(is_level_word) {
        return false;
    }
    let Some((head, message)) = t.split_around(": ") else {
        return false;
    };
    head.split_whitespace()
        .skip(1)
        .any(|w| is_path(w.trim_matches(['"', '\'', ',', '`'])))
        && names_a_line(head)
        && !message.trim_ascii().is_empty()
}

/// A diagnostic in the `path:line[:col]: message` form, cut in three.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiagnosticParts<'a> {
    /// `src/app.py`.
    pub path: &'a str,
    /// `12:5` or `12`.
    pub place: &'a str,
    /// `error: name 'x' is not defined`, without the leading space.
    pub message: &'a str,
}

impl DiagnosticParts<'_> {
    /// The message's level word (`error`, `warning`, `note`), lowercased.
    pub fn level(&self) -> String {
        let first = self.message.split_whitespace().next().unwrap_or("");
        first.trim_end_matches(':').to_ascii_lowercase()
    }
}

/// The parts of a `path:line[:col]: message` line, or `None` when it is
/// not one.
pub fn diagnostic_parts(content: &str) -> Option<DiagnosticParts<'_>> {
    let t = content.trim_ascii_start();
    let (path, rest) = t.split_around(":")?;
    if !is_path(path) {
        return None;
    }
    let place = place_len(rest);
    let message = rest[place..].strip_prefix(':').filter(|_| place > 0)?;
    Some(DiagnosticParts {
        path,
        place: &rest[..place],
        message: message.trim_ascii_start(),
    })
}

/// The length of the `12:5` or `12` that `rest` (after a path and its
/// colon) starts with; 0 when it starts with no line number.
fn place_len(rest: &str) -> usize {
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let line = digits(rest);
    if line == 0 {
        return 0;
    }
    match rest[line..].strip_prefix(':').map(digits) {
        Some(col) if col > 0 => line + 1 + col,
        _ => line,
    }
}

/// `12:5: rest` or `12: rest` (after a path and its colon), with `check`
/// applied to the rest.
fn location_then(rest: &str, check: impl Fn(&str) -> bool) -> bool {
    let place = place_len(rest);
    if place == 0 {
        return false;
    }
    let rest = &rest[place..];
    match rest.strip_prefix(':') {
        Some(message) => check(message),
        // rustc's `--> src/a.rs:3:5` ends there.
        None => rest.trim_ascii().is_empty() && check(""),
    }
}

/// Whether `rest` (after `path:`) is `line[:col]`, a space (and a `- `),
/// then a level word or a rule code.
fn leads_with_level_after_space(rest: &str) -> bool {
    let place = place_len(rest);
    if place == 0 || !rest[place..].starts_with(' ') {
        return false;
    }
    let message = rest[place..].trim_ascii_start();
    let message = message.strip_prefix("- ").unwrap_or(message);
    let first = message.split_whitespace().next().unwrap_or("");
    let first = first.trim_end_matches(':');
    is_level_word(first) || is_rule_code(first.split('/').next().unwrap_or(""))
}

/// `error`, `warning`, `note`…: a diagnostic's level (any case).
pub fn is_level_word(word: &str) -> bool {
    const LEVELS: &[&str] = &[
        "error", "warning", "note", "info", "hint", "fatal", "help", "style",
    ];
    LEVELS.iter().any(|level| word.eq_ignore_ascii_case(level))
}

/// Whether `rest` (after `path:`) is `line:col:`.
fn has_column(rest: &str) -> bool {
    let mut parts = rest.splitn(3, ':');
    let (Some(line), Some(col), Some(_)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    [line, col]
        .iter()
        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `F401`, `E501`, `TS2322`, `SC2086`, `W0611`, `no-unused-vars` is not
/// one: letters then digits.
pub fn is_rule_code(word: &str) -> bool {
    let letters = word.bytes().take_while(u8::is_ascii_uppercase).count();
    let digits = word[letters..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    (1..=4).contains(&letters) && digits >= 2 && letters + digits == word.len()
}

/// eslint's stylish line: `12:5  error  'x' is defined but never used  no-unused-vars`.
fn stylish(t: &str) -> bool {
    let mut words = t.split_whitespace();
    let (Some(place), Some(level)) = (words.next(), words.next()) else {
        return false;
    };
    is_line_and_column(place) && matches!(level, "error" | "warning")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sql_declarations_are_definitions_heads() {
        for l in [
            "CREATE TABLE public.orders (",
            "CREATE UNIQUE INDEX orders_sku ON public.orders USING btree (sku);",
            "CREATE OR REPLACE VIEW public.order_totals AS",
            "CREATE MATERIALIZED VIEW daily AS",
        ] {
            assert!(declares_sql_object(l), "{l}");
        }
        for l in [
            "Creating table orders",
            "CREATE privilege granted",
            "  CREATE TABLE inside a string",
        ] {
            assert!(!declares_sql_object(l), "{l}");
        }
    }

    #[test]
    fn summaries_count_outcomes() {
        for line in [
            "test result: ok. 312 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s",
            "==== 1 failed, 4 passed, 2 skipped in 0.12s ====",
            "Ran 16 tests in 0.164s",
            "FAILED (failures=5, errors=1)",
            "OK",
            "Tests run: 5, Failures: 1, Errors: 0, Skipped: 0",
            "Tests:       1 failed, 5 passed, 6 total",
            "Found 3 errors in 2 files (checked 5 source files)",
            "# fail 1",
            "ℹ tests 51",
            "Tests Passed: 12, Failed: 1, Skipped: 0",
            "12 examples, 1 failure",
            "✖ 4 problems (3 errors, 1 warning)",
            " 3 files changed, 153 insertions(+), 12 deletions(-)",
            "2 directories, 15 files",
        ] {
            assert!(is_summary(line), "{line}");
        }
        for line in [
            "Compiling serde v1.0.200",
            "Downloaded 12 files, 3 MB",
            "added 120 packages, and audited 121 packages in 3s",
            "test a::b ... ok",
            "the 3 tests below check parsing of every kind of input that the module reads from files on disk",
        ] {
            assert!(!is_summary(line), "{line}");
        }
    }

    #[test]
    fn a_section_titled_as_the_tools_summary_is_its_summary() {
        let report = [
            "parse.c:43:12:  [4] (shell) execlp:",
            "  This causes a new program to execute",
            "",
            "ANALYSIS SUMMARY:",
            "",
            "Hits = 19",
            "Lines analyzed = 44 in approximately 0.01 seconds (6823 lines/second)",
            "",
            "Not every hit is necessarily a security vulnerability.",
        ];
        assert_eq!(summary_sections(&report), vec![5, 6]);
        // A sentence mentioning a summary titles nothing.
        assert!(summary_sections(&["The summary below lists 3 files.", "a.c"]).is_empty());
    }

    #[test]
    fn diagnostics_by_their_shape() {
        for line in [
            "src/app.py:12: error: Incompatible return value type (got \"int\", expected \"str\")  [return-value]",
            "pkg/a.py:1:8: F401 [*] `os` imported but unused",
            "main.c:3:5: warning: implicit declaration of function 'foo' [-Wimplicit-function-declaration]",
            "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
            "  --> src/lib.rs:9:5",
            "  12:5  error  'x' is assigned a value but never used  no-unused-vars",
            "./cmd/main.go:14:2: fmt.Printf format %d has arg x of wrong type string",
            "F401 [*] `sys` imported but unused",
            "Warning 2 in notes.tex line 4: Non-breaking space (`~') should have been used.",
            "shop.Order.buyer: (fields.E304) Reverse accessor 'Customer.order_set' clashes.",
            "?: (security.W009) Your SECRET_KEY has less than 50 characters.",
        ] {
            assert!(is_diagnostic(line), "{line}");
        }
        for line in [
            "src/a.rs:10:fn one() {}",
            "docs/a.md:3:This sentence explains at length.",
            // A level and a place in words, but no file: no diagnostic.
            "Warning in line 4: the old syntax is deprecated",
            "Error 3 in notes.tex: no place named",
            "Downloading https://example.com/a.tar.gz",
            // Parentheses after a colon, but no namespaced rule code.
            "note: (see below) the value is moved here",
            "step 3: (main.Run) took 2s",
        ] {
            assert!(!is_diagnostic(line), "{line}");
        }
    }

    #[test]
    fn failure_exits() {
        assert!(is_failure_exit("make: *** [Makefile:12: all] Error 2"));
        assert!(is_failure_exit(
            "##[error]Process completed with exit code 1."
        ));
        assert!(is_failure_exit("exit status 2"));
        assert!(is_failure_exit(
            "error: could not compile `ghost` (lib) due to 2 previous errors"
        ));
        assert!(!is_failure_exit("Compiling ghost v0.1.0"));
        assert!(is_failure_exit("The command \"npm test\" exited with 1."));
        assert!(is_failure_exit("Child process exited with code 137"));
        // A success is no failure.
        assert!(!is_failure_exit("The command \"npm ci\" exited with 0."));
        assert!(!is_failure_exit("Process completed with exit code 0."));
        // A CI's verdict on a step without an exit code.
        assert!(is_failure_exit(
            "The command \"eval git clone --depth=50 https://github.com/a/b.git a/b \" failed 3 times."
        ));
        assert!(is_failure_exit("ERROR: command failed after 5 attempts"));
        assert!(is_failure_exit(
            "No output has been received in the last 10m0s, this potentially indicates a stalled build or something wrong with the build itself."
        ));
        assert!(is_failure_exit(
            "The job exceeded the maximum time limit for jobs, and has been terminated."
        ));
        assert!(is_failure_exit(
            "##[error]The job running on runner GitHub Actions 2 has exceeded the maximum execution time of 360 minutes."
        ));
        assert!(is_failure_exit(
            "ERROR: Job failed: execution took longer than 1h0m0s seconds"
        ));
        // A retry that is still going, and a count of failures, are not.
        assert!(!is_failure_exit(
            "The command \"npm ci\" failed. Retrying, 2 of 3."
        ));
        assert!(!is_failure_exit("3 tests failed 2 skipped"));
        assert!(!is_failure_exit("Tests failed: 4"));
    }

    #[test]
    fn lines_pointing_at_a_line_without_a_file() {
        assert!(names_a_line("  47:6   ✖  Expected indentation of 2 spaces"));
        assert!(names_a_line(
            "Use of -t at line 69, column 28.  See page 218 of PBP.  (Severity: 5)"
        ));
        assert!(names_a_line(
            "Overfull \\hbox (87.9pt too wide) in paragraph at lines 11--16"
        ));
        assert!(!names_a_line("Downloading 34% of 12 MB"));
        assert!(!names_a_line("the pipelines 3 and 4 ran"));
        assert!(names_a_line("l.14 \\end{document}"));
        assert!(!names_a_line("l.x is a label"));
        assert!(!names_a_line("12:34:56 INFO started"));
        assert!(!names_a_line("the deadline 5 passed"));
    }
}
