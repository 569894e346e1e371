//! Help texts and manual pages (`cmd --help`, `man cmd`), read by their
//! structure: lines defining options (`  -a, --all`, `--block-size=SIZE`),
//! each with its description indented under it or beside it, between
//! headings and paragraphs of prose.
//!
//! What a reader came for is the options: every defining line stays, with
//! the first line of its description (what the option does, often on the
//! option's own line); the rest of a description folds, but for errors and
//! warnings. Everything else (the usage, headings, prose, what a log prints
//! around a help text) is read by the usual rules. The fold markers count
//! what went, and the whole text stays in the store.

use crate::line::{self, Severity};
use crate::pytest_tb::Role;
use crate::search::Search;
use rustc_hash::FxHashMap;

/// A text is a help text when at least this many lines define an option.
pub const OPTION_LINES_AT_LEAST: usize = 5;

/// Lines defining an option, when there are at least
/// [`OPTION_LINES_AT_LEAST`] of them: their text starts with `-x` or
/// `--name` (a dash and a letter; `-- Configuring` and `--- PASS` do not).
/// python3's options stand at the margin (`-b     : issue warnings`), so a
/// diff's `-removed` line counts too: kept, never lost.
///
/// A help text defines each option once: an option named on more than
/// [`DEFINITIONS_OF_ONE_OPTION_AT_MOST`] lines is used there, not defined
/// (pip-compile's `--hash=sha256:…` under each requirement, hundreds of
/// them), and those lines are read by the usual rules.
pub fn option_definitions(contents: &[&str]) -> Vec<bool> {
    let names: Vec<Option<&str>> = contents.iter().map(|c| option_name(c)).collect();
    let mut lines_of: FxHashMap<&str, usize> = FxHashMap::default();
    for name in names.iter().flatten() {
        *lines_of.entry(name).or_default() += 1;
    }
    let options: Vec<bool> = names
        .iter()
        .map(|name| name.is_some_and(|n| lines_of[n] <= DEFINITIONS_OF_ONE_OPTION_AT_MOST))
        .collect();
    if options.iter().filter(|&&o| o).count() < OPTION_LINES_AT_LEAST {
        return vec![false; contents.len()];
    }
    options
}

/// Most lines one option is defined on (a short and a long form, a
/// mention in a second section).
const DEFINITIONS_OF_ONE_OPTION_AT_MOST: usize = 3;

/// The option a line defines (`--hash` of `  --hash=sha256:…`, `-a` of
/// `-a, --all`), if it starts with one.
fn option_name(content: &str) -> Option<&str> {
    let t = content.trim_ascii_start();
    let name = t.strip_prefix("--").or_else(|| t.strip_prefix('-'))?;
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let end = t
        .find(|c: char| c.is_whitespace() || matches!(c, '=' | ',' | '[' | '<'))
        .unwrap_or(t.len());
    Some(&t[..end])
}

/// The role of every line of a help text (`options` from
/// [`option_definitions`]): `Kept` for the first line of each option's
/// description (the lines right under the option, deeper than it),
/// `Folded` for the rest of the description but for errors and warnings,
/// `Other` for every other line (options, headings, prose, whatever else
/// the log holds around a help text it printed) and for every line of a
/// text that is not a help text (fewer options, or a diff: its `-` lines
/// look like options).
pub fn roles(contents: &[&str], options: &[bool]) -> Vec<Role> {
    let mut roles = vec![Role::Other; contents.len()];
    if !options.contains(&true) || contents.iter().any(|c| is_diff_header(c)) {
        return roles;
    }
    let indent = crate::line::indent;
    for option in (0..contents.len()).filter(|&i| options[i]) {
        let depth = indent(contents[option]);
        let description = (option + 1..contents.len())
            .take_while(|&j| {
                !options[j] && !contents[j].trim_ascii().is_empty() && indent(contents[j]) > depth
            })
            .collect::<Vec<_>>();
        let Some((&first, rest)) = description.split_first() else {
            continue;
        };
        // The summary of a description beside its option is on the
        // option's own line: then every line under it is continuation.
        let beside = contents[option].trim_ascii().has("  ");
        if !beside {
            roles[first] = Role::Kept;
        }
        let folded = if beside { &description[..] } else { rest };
        for &j in folded {
            if line::severity(contents[j]) == Severity::Normal {
                roles[j] = Role::Folded;
            }
        }
    }
    roles
}

/// A unified diff's `@@ -1,3 +1,4 @@` or `--- a/path`: not a help text.
fn is_diff_header(content: &str) -> bool {
    content.starts_with("@@ ") || content.starts_with("--- a/") || content.starts_with("+++ b/")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAN: &[&str] = &[
        "OPTIONS",
        "   Generic Program Information",
        "       --help Output a usage message and exit.",
        "",
        "       -V, --version",
        "              Output the version number of grep and exit.",
        "",
        "       -i, --ignore-case",
        "              Ignore case distinctions in patterns and input data, so",
        "              that characters that differ only in case match each other.",
        "       -v, --invert-match",
        "              Invert the sense of matching.",
        "       -w, --word-regexp",
        "              Select only those lines containing matches that form",
        "              whole words.",
        "",
        "REGULAR EXPRESSIONS",
        "       A regular expression is a pattern that describes a set of",
        "       strings.  Regular expressions are constructed analogously.",
    ];

    #[test]
    fn options_stay_with_their_first_line_of_description() {
        let options = option_definitions(MAN);
        use Role::*;
        assert_eq!(
            roles(MAN, &options),
            vec![
                Other, Other, Other, Other, Other, Kept, Other, Other, Kept, Folded, Other, Kept,
                Other, Kept, Folded, Other, Other, Other, Other
            ]
        );
    }

    #[test]
    fn a_description_beside_its_option_folds_its_continuation() {
        let help = [
            "Usage: sorald mine [-hV] --source=<source>",
            "  -h, --help                 Show this help message and exit.",
            "      --handled-rules        When this argument is used, Sorald only mines",
            "                               violations of the rules that can be fixed.",
            "      --source=<source>      The path to the file or folder to be analyzed",
            "  -V, --version              Print version information and exit.",
            "      --stats                Print statistics.",
            "Caused by: java.lang.IllegalStateException: no pom.xml",
            "    at sorald.Cli.main(Cli.java:12)",
        ];
        let options = option_definitions(&help);
        use Role::*;
        assert_eq!(
            roles(&help, &options),
            vec![
                Other, Other, Other, Folded, Other, Other, Other, Other, Other
            ]
        );
    }

    /// pip-compile's `--hash=sha256:…` under each requirement uses one
    /// option hundreds of times: no help text.
    #[test]
    fn an_option_used_on_many_lines_is_not_defined_there() {
        let pins: Vec<String> = (0..40)
            .map(|i| format!("    --hash=sha256:{i:064x} \\"))
            .collect();
        let lines: Vec<&str> = pins.iter().map(String::as_str).collect();
        assert!(option_definitions(&lines).iter().all(|o| !o));
        let options = option_definitions(MAN);
        assert!(options.contains(&true));
    }

    #[test]
    fn a_diff_or_a_text_with_few_options_is_no_help_text() {
        let diff = [
            "--- a/x.py",
            "+++ b/x.py",
            "@@ -1,6 +1,1 @@",
            "-a = 1",
            "-b = 2",
            "-c = 3",
            "-d = 4",
            "-e = 5",
            " context one",
            " context two",
        ];
        let options = option_definitions(&diff);
        assert!(roles(&diff, &options).iter().all(|r| *r == Role::Other));
        let few = &MAN[..8];
        let options = option_definitions(few);
        assert!(roles(few, &options).iter().all(|r| *r == Role::Other));
    }
}
