//! Log levels. A program logging at DEBUG says its milestones a level up:
//! cargo's `CARGO_LOG=debug` prints sixty DEBUG lines of resolution and
//! bookkeeping and five INFO lines saying which unit is dirty and why. The
//! INFO lines share the DEBUG lines' long span prefix
//! (`main:exec:compile_ws:compile:compile{unit=Unit { … }}`), so they read
//! as the same long line said again and folded with them. The program
//! ranked them itself: in a log whose levelled lines mostly carry one level,
//! a line at a higher level is kept, as long as such lines are few (else
//! they are the log's own routine). Warnings and errors are the line
//! severity's to keep (a warning said again but for its numbers counted
//! under the first), whatever the level of the rest.

/// How much a program said a line matters, least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// `TRACE`.
    Trace,
    /// `DEBUG`.
    Debug,
    /// `INFO`.
    Info,
    /// `WARN`, `WARNING`.
    Warn,
    /// `ERROR`, `FATAL`, `CRITICAL`.
    Error,
}

/// A log is read by its levels when at least this many lines carry one…
const MIN_LEVELLED_LINES: usize = 20;
/// …and at least this share of them carry the same one.
const USUAL_LEVEL_SHARE: f64 = 0.5;
/// Lines above the usual level are kept while they are at most this share
/// of the levelled lines.
const RAISED_SHARE_AT_MOST: f64 = 0.1;
/// A level is looked for among a line's first words…
const LEVEL_WORDS: usize = 4;
/// …starting within its first bytes.
const LEVEL_WITHIN_BYTES: usize = 64;

/// What a log's levels say of its lines.
#[derive(Debug)]
pub struct Levels {
    /// The lines logged above the log's usual level, when the log reads by
    /// its levels and they are few.
    pub raised: Vec<usize>,
    /// Each line's being the log's debugging routine: logged at its usual
    /// level when that level is `DEBUG` or `TRACE` and a few lines are
    /// logged above it (a line with no level of its own, such as a value
    /// printed over several lines, goes with the levelled line above it).
    /// The program said these lines are for debugging and said its
    /// milestones a level up: they are not news however rare their words.
    pub debug_routine: Vec<bool>,
}

/// Reads `contents` by its levels (see [`Levels`]).
pub fn read(contents: &[&str]) -> Levels {
    let levels: Vec<Option<Level>> = contents.iter().map(|c| level_of(c)).collect();
    let mut counts = [0usize; 5];
    for level in levels.iter().flatten() {
        counts[*level as usize] += 1;
    }
    let levelled: usize = counts.iter().sum();
    let most = counts.iter().copied().max().unwrap_or(0);
    let usual = counts.iter().position(|&n| n == most).unwrap_or(0);
    let raised: usize = counts
        .get(usual + 1..Level::Warn as usize)
        .map_or(0, |above| above.iter().sum());
    if levelled < MIN_LEVELLED_LINES
        || (most as f64) < levelled as f64 * USUAL_LEVEL_SHARE
        || raised == 0
        || raised as f64 > levelled as f64 * RAISED_SHARE_AT_MOST
    {
        return Levels {
            raised: Vec::new(),
            debug_routine: vec![false; contents.len()],
        };
    }
    // Warnings and errors are the line severity's (repeats of one counted
    // under the first), not this rule's.
    let raised = (0..contents.len())
        .filter(|&i| levels[i].is_some_and(|l| l as usize > usual && l < Level::Warn))
        .collect();
    let mut debug_routine = vec![false; contents.len()];
    if usual <= Level::Debug as usize {
        let mut current = None;
        for (i, level) in levels.iter().enumerate() {
            current = level.or(current);
            debug_routine[i] = current.is_some_and(|l| l as usize == usual);
        }
    }
    Levels {
        raised,
        debug_routine,
    }
}

/// The level `content` was logged at: a level word among its first
/// [`LEVEL_WORDS`] words (`INFO`, `[DEBUG]`, `WARNING:root:…`,
/// `level=info`).
pub fn level_of(content: &str) -> Option<Level> {
    let b = content.as_bytes();
    let mut at = 0;
    for _ in 0..LEVEL_WORDS {
        while at < b.len() && b[at].is_ascii_whitespace() {
            at += 1;
        }
        if at >= b.len() || at > LEVEL_WITHIN_BYTES {
            return None;
        }
        let start = at;
        while at < b.len() && !b[at].is_ascii_whitespace() {
            at += 1;
        }
        // Most words cannot be a level: their first letter says so.
        let first = b[start..at]
            .iter()
            .find(|c| !matches!(c, b'[' | b'(' | b'<' | b'|'));
        if matches!(
            first,
            Some(b'T' | b'D' | b'I' | b'W' | b'E' | b'F' | b'C' | b'l')
        ) && let Some(level) = level_in(&content[start..at])
        {
            return Some(level);
        }
    }
    None
}

/// The level one `word` says (`INFO`, `[DEBUG]`, `WARNING:root:…`,
/// `level=info`), if any.
fn level_in(word: &str) -> Option<Level> {
    match word.strip_prefix("level=") {
        // logfmt writes its levels in lower case.
        Some(value) => level_named(&value.trim_matches('"').to_ascii_uppercase()),
        None => {
            let word =
                word.trim_matches(|c: char| matches!(c, '[' | ']' | '(' | ')' | '<' | '>' | '|'));
            level_named(word.split(':').next().unwrap_or(word))
        }
    }
}

/// The names loggers print their levels by, with the level each names.
const NAMES: &[(&str, Level)] = &[
    ("TRACE", Level::Trace),
    ("DEBUG", Level::Debug),
    ("INFO", Level::Info),
    ("WARN", Level::Warn),
    ("WARNING", Level::Warn),
    ("ERROR", Level::Error),
    ("FATAL", Level::Error),
    ("CRITICAL", Level::Error),
];

/// The level an upper-case `name` names.
fn level_named(name: &str) -> Option<Level> {
    NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, level)| level)
}

/// The level `name` names in any case (`info`, `Warning`, `ERROR`).
pub fn level_named_in_any_case(name: &str) -> Option<Level> {
    NAMES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, level)| level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_read_in_the_shapes_loggers_print_them() {
        for (line, level) in [
            (
                "   0.012289147s  INFO main:exec: cargo::core::compiler::fingerprint: dirty",
                Level::Info,
            ),
            (
                "[2024-01-01T00:00:00Z DEBUG app::db] pool ready",
                Level::Debug,
            ),
            ("WARNING:root:disk almost full", Level::Warn),
            (
                "time=2024-01-01T00:00:00Z level=debug msg=\"tick\"",
                Level::Debug,
            ),
            ("2024-01-01 12:00:00,123 ERROR [main] boom", Level::Error),
        ] {
            assert_eq!(level_of(line), Some(level), "{line}");
        }
        assert_eq!(level_of("the info desk opens at nine"), None);
    }

    #[test]
    fn a_few_lines_above_the_usual_level_are_kept() {
        let mut log: Vec<String> = (0..60)
            .map(|i| format!("0.{i:03}s DEBUG resolve: step {i}"))
            .collect();
        log.insert(
            30,
            "0.030s  INFO fingerprint: dirty: main.rs changed".to_string(),
        );
        log.insert(
            31,
            "0.031s  INFO fingerprint: dirty: dep-info stale".to_string(),
        );
        let contents: Vec<&str> = log.iter().map(String::as_str).collect();
        assert_eq!(read(&contents).raised, vec![30, 31]);
        // Half the lines at INFO are the log's routine, not its milestones.
        let routine: Vec<String> = (0..60)
            .map(|i| {
                format!(
                    "0.{i:03}s {} step {i}",
                    if i % 2 == 0 { "DEBUG" } else { "INFO" }
                )
            })
            .collect();
        let contents: Vec<&str> = routine.iter().map(String::as_str).collect();
        assert!(read(&contents).raised.is_empty());
        // Warnings above INFO are the severity's: a log of warnings asks nothing here.
        let warned: Vec<String> = (0..60)
            .map(|i| {
                format!(
                    "{} step {i}",
                    if i % 20 == 0 {
                        "WARN"
                    } else if i < 50 {
                        "INFO"
                    } else {
                        "ERROR"
                    }
                )
            })
            .collect();
        let contents: Vec<&str> = warned.iter().map(String::as_str).collect();
        assert!(read(&contents).raised.is_empty());
        let errors: Vec<String> = (0..60).map(|i| format!("ERROR step {i}")).collect();
        let contents: Vec<&str> = errors.iter().map(String::as_str).collect();
        assert!(read(&contents).raised.is_empty());
    }

    /// A debug log with a few milestones a level up: its DEBUG lines (and
    /// a value printed over lines under one) are the routine, its INFO
    /// lines are not. A log mostly at INFO has no debugging routine.
    #[test]
    fn a_debug_logs_routine_is_its_debug_lines() {
        let mut log: Vec<String> = (0..60)
            .map(|i| format!("0.{i:03}s DEBUG resolve: step {i}"))
            .collect();
        log.insert(10, "    features={ \"std\" }".to_string());
        log.push("0.100s  INFO fingerprint: dirty: the source changed".to_string());
        log.push("    Finished `dev` profile".to_string());
        let contents: Vec<&str> = log.iter().map(String::as_str).collect();
        let routine = read(&contents).debug_routine;
        assert!(routine[..61].iter().all(|&x| x));
        assert!(!routine[61] && !routine[62]);
        let info: Vec<String> = (0..60)
            .map(|i| format!("2024-01-01 12:00:{i:02} INFO served request {i}"))
            .chain(["2024-01-01 12:01:00 WARN slow request".to_string()])
            .collect();
        let contents: Vec<&str> = info.iter().map(String::as_str).collect();
        assert!(!read(&contents).debug_routine.contains(&true));
    }

    /// Folded as a whole: a debug log's lines, each of its own shape, do
    /// not draw on the budget of rare lines; its milestones stay.
    #[test]
    fn a_debug_logs_rare_lines_fold_its_milestones_stay() {
        let words = [
            "resolve", "fetch", "lock", "unlock", "hash", "stat", "open", "read",
        ];
        let mut log: Vec<String> = (0..150)
            .map(|i| {
                let (a, b) = (words[i % 8], words[(i / 8) % 8]);
                format!(
                    "0.{i:03}s DEBUG {a}: {b} {} of {}",
                    "x".repeat(i % 13 + 1),
                    "y".repeat(i / 13 + 1)
                )
            })
            .collect();
        log.insert(
            70,
            "0.500s  INFO fingerprint: dirty: the source changed".to_string(),
        );
        let out = crate::fold::folded(&log);
        assert!(out.iter().any(|l| l.contains("INFO fingerprint")));
        let debug = out.iter().filter(|l| l.contains(" DEBUG ")).count();
        assert!(debug <= 15, "{debug} debug lines: {out:#?}");
    }
}
