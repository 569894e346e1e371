//! What a shell command says about its output: the file it prints, when it
//! is a viewer of one file (`cat src/a.py`, `sed -n '10,80p' a.py`,
//! `nl -ba a.py | sed -n '1,90p'`, `cd repo && head -n 50 a.py`). The
//! file's extension is then as good a hint as a Read's path.

/// Programs that print (part of) a file as it is.
const VIEWERS: &[&str] = &[
    "cat", "nl", "head", "tail", "sed", "bat", "batcat", "less", "more",
];

/// Whether `program`'s option `opt` takes the next word as its value.
fn takes_value(program: &str, opt: &str) -> bool {
    match program {
        "head" | "tail" => matches!(opt, "-n" | "-c"),
        "sed" => matches!(opt, "-e" | "-f"),
        "nl" => matches!(opt, "-b" | "-s" | "-v" | "-w" | "-i" | "-n" | "-l" | "-d"),
        "bat" | "batcat" => matches!(opt, "-r" | "-l" | "-H" | "--line-range" | "--language"),
        _ => false,
    }
}

/// The file a text came from: `source_path` when given, else the one file
/// `command` printed (see [`file_shown`]).
pub fn file_hint<'a>(source_path: Option<&'a str>, command: Option<&'a str>) -> Option<&'a str> {
    source_path.or_else(|| command.and_then(file_shown))
}

/// The one file `command` prints, when it is a viewer of exactly one file
/// (piped only through other viewers). `None` for anything else: a search,
/// a run, several files, a file edited in place.
pub fn file_shown(command: &str) -> Option<&str> {
    // The last command of a chain is the one whose output ends the text.
    let last = command
        .rsplit(['\n', ';'])
        .flat_map(|c| c.rsplit("&&"))
        .map(str::trim)
        .find(|c| !c.is_empty())?;
    let mut stages = last.split('|').map(str::trim);
    let file = file_of_stage(stages.next()?)?;
    // Later stages may only cut or number what the first printed.
    for stage in stages {
        let (program, args) = words(stage);
        if !VIEWERS.contains(&program) || !args.iter().all(|a| is_option_or_script(program, a)) {
            return None;
        }
    }
    file
}

/// The file a single viewer stage reads (`Some(None)`: a viewer of its
/// standard input; `None`: not a viewer of one file).
fn file_of_stage(stage: &str) -> Option<Option<&str>> {
    let (program, args) = words(stage);
    if !VIEWERS.contains(&program) {
        return None;
    }
    if program == "sed" && args.iter().any(|a| a.starts_with("-i")) {
        return None;
    }
    let mut files = Vec::new();
    let mut skip_value = false;
    let mut script_seen = false;
    for arg in args {
        if skip_value {
            skip_value = false;
            continue;
        }
        if arg.contains('>') || arg.contains('<') {
            continue;
        }
        if arg.starts_with('-') && arg.len() > 1 {
            skip_value = takes_value(program, arg);
            // `sed -e SCRIPT`: the script came as the option's value.
            script_seen |= program == "sed" && matches!(arg, "-e" | "-f");
            continue;
        }
        if program == "sed" && !script_seen {
            script_seen = true;
            continue;
        }
        files.push(arg);
    }
    match files.as_slice() {
        [one] => Some(Some(one)),
        _ => None,
    }
}

fn is_option_or_script(program: &str, arg: &str) -> bool {
    arg.starts_with('-') || program == "sed" || arg.bytes().all(|b| b.is_ascii_digit())
}

/// The program's name (without its folder) and its arguments, quotes
/// removed from around each word.
fn words(stage: &str) -> (&str, Vec<&str>) {
    let mut it = stage
        .split_whitespace()
        .map(|w| w.trim_matches(|c| c == '\'' || c == '"'));
    let program = it.next().unwrap_or("");
    let program = program.rsplit('/').next().unwrap_or(program);
    (program, it.collect())
}

#[cfg(test)]
mod tests {
    use super::file_shown;

    #[test]
    fn viewers_of_one_file_name_it() {
        assert_eq!(
            file_shown("cat astropy/utils/diff.py"),
            Some("astropy/utils/diff.py")
        );
        assert_eq!(
            file_shown("nl -ba lib/matplotlib/dates.py | sed -n '642,842p'"),
            Some("lib/matplotlib/dates.py")
        );
        assert_eq!(
            file_shown("sed -n '321,440p' sphinx/domains/std.py"),
            Some("sphinx/domains/std.py")
        );
        assert_eq!(
            file_shown("cd /testbed && head -n 40 src/a.rs"),
            Some("src/a.rs")
        );
        assert_eq!(file_shown("cat -n x.go 2>&1"), Some("x.go"));
    }

    #[test]
    fn anything_else_names_nothing() {
        assert_eq!(file_shown("python reproduce_issue.py"), None);
        assert_eq!(file_shown("cat a.py b.py"), None);
        assert_eq!(file_shown("cat a.py | grep def"), None);
        assert_eq!(file_shown("sed -i 's/a/b/' a.py"), None);
        assert_eq!(file_shown("cat a.py && python a.py"), None);
        assert_eq!(file_shown(""), None);
    }
}
