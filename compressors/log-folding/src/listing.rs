//! A list of paths, one a line: what `find`, `fd`, `git ls-files`, `ls -d
//! */*` or `rg --files` print; a long listing, each line led by a file
//! mode (`ls -l`, `find -ls`, `tar -tv`); files each beside a status, a
//! size or a digest (`git status --short`, `du -sh`, `sha256sum`);
//! packages each with its version (`cargo tree --prefix none`); and
//! settings, each a name of its own beside its value (`getconf -a`). Every line is an answer the agent
//! asked for, and the template fold would take them for one shape printed
//! many times (`find` over a library's 668 files folded to one line and a
//! count; `ls -la` of 1,117 entries lost 135). Each entry stays.

use crate::search::Search;
/// A listing has at least this many paths…
const MIN_PATHS: usize = 10;
/// …making up at least this share of its non-blank lines.
const MIN_PATH_SHARE: f64 = 0.9;

/// The lines to keep, or none when `contents` is not a list of paths.
pub fn kept(contents: &[&str]) -> Vec<usize> {
    // `ls -l`'s `total 1234` heads the entries; it is not one.
    let non_blank = contents
        .iter()
        .filter(|c| !c.trim_ascii().is_empty() && !c.starts_with("total "))
        .count();
    let is_entry =
        |c: &str| is_path_line(c) || is_mode_line(c) || is_labelled_path(c) || is_package_line(c);
    match entries(contents, non_blank, is_entry) {
        Some(paths) => paths,
        None => settings(contents, non_blank),
    }
}

/// The lines for which `is_entry` holds when they make a listing (at
/// least [`MIN_PATHS`], [`MIN_PATH_SHARE`] of the `non_blank` lines),
/// else `None`. A log is mostly other lines: the scan stops at the first
/// line too many that is no entry.
fn entries(
    contents: &[&str],
    non_blank: usize,
    is_entry: impl Fn(&str) -> bool,
) -> Option<Vec<usize>> {
    let needed = ((non_blank as f64 * MIN_PATH_SHARE).ceil() as usize).max(MIN_PATHS);
    let mut misses_left = non_blank.checked_sub(needed)?;
    let mut found = Vec::new();
    for (i, c) in contents.iter().enumerate() {
        if is_entry(c) {
            found.push(i);
        } else if !c.trim_ascii().is_empty() && !c.starts_with("total ") {
            misses_left = misses_left.checked_sub(1)?;
        }
    }
    (found.len() >= needed).then_some(found)
}

/// The lines of a list of settings, each a name of its own beside its
/// value (`getconf -a`'s `LINK_MAX   65000`, `/proc/vmstat`'s
/// `nr_free_pages 986899`), or none when `contents` is not one: at least
/// [`MIN_PATHS`] such lines, [`MIN_PATH_SHARE`] of the non-blank ones, and
/// as many names as lines, nearly (a program's `Compiling a`, `Compiling
/// b` repeat their first word: no settings).
fn settings(contents: &[&str], non_blank: usize) -> Vec<usize> {
    let Some(lines) = entries(contents, non_blank, |c| setting_name(c).is_some()) else {
        return Vec::new();
    };
    let names: rustc_hash::FxHashSet<&str> = lines
        .iter()
        .filter_map(|&i| setting_name(contents[i]))
        .collect();
    if (names.len() as f64) < lines.len() as f64 * MIN_PATH_SHARE {
        return Vec::new();
    }
    lines
}

/// The name of a setting's line: a name (letters, digits, `_`, `.`, `-`,
/// starting with a letter or `_`) alone or beside one value.
fn setting_name(content: &str) -> Option<&str> {
    let mut words = content.split_whitespace();
    let name = words.next()?;
    let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
    (is_name && words.nth(1).is_none()).then_some(name)
}

/// The last resort under a token budget: the listing by directory, each
/// directory written once with every name under it (`lib/pkg/ (3):
/// a.py, b.py, c.py`), in the order directories first appear; lines that
/// are not paths (`find: '/x': Permission denied`) stay first, as they
/// are. Every name is still there; only the repeated directories go.
pub fn by_directory(contents: &[&str], paths: &[usize]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut dirs: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut is_path = vec![false; contents.len()];
    for &i in paths.iter().filter(|&&i| is_path_line(contents[i])) {
        is_path[i] = true;
        let path = contents[i].trim_ascii();
        let (dir, name) = path.rsplit_around("/").unwrap_or(("", path));
        match dirs.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, names)) => names.push(name),
            None => dirs.push((dir, vec![name])),
        }
    }
    out.extend(
        contents
            .iter()
            .enumerate()
            .filter(|&(i, c)| !is_path[i] && !c.trim_ascii().is_empty())
            .map(|(_, c)| c.trim_ascii_end().to_string()),
    );
    for (dir, names) in dirs {
        if names.len() == 1 {
            out.push(format!("{dir}/{}", names[0]));
        } else {
            out.push(format!("{dir}/ ({}): {}", names.len(), names.join(", ")));
        }
    }
    out
}

/// A line led by a file mode and more columns: `drwxr-xr-x  2 root root
/// 4096 Jun 24 2025 xml`, `-rw-r--r--@ 1 me staff …`.
fn is_mode_line(content: &str) -> bool {
    let b = content.as_bytes();
    if b.len() < 12 || !b"-bcdlps".contains(&b[0]) {
        return false;
    }
    let permissions = b[1..10]
        .iter()
        .zip(b"rwxrwxrwx")
        .all(|(&c, &letter)| c == b'-' || c == letter || matches!(c, b's' | b'S' | b't' | b'T'));
    // (Ten ASCII mode bytes passed, so byte 10 starts a character.)
    let Some(rest) = content.get(10..).filter(|_| permissions) else {
        return false;
    };
    let rest = rest.strip_prefix(['+', '.', '@']).unwrap_or(rest);
    rest.starts_with(' ') && rest.split_whitespace().count() >= 3
}

/// A line that is a short label, then a file: its status (`git status
/// --short`'s ` M a.py`, `??`, `git diff --name-status`'s `R100  old
/// new`) or its size (`du -sh`'s `4.0K  ./x`, `wc -l`'s `  120 a.py`).
/// The label says what happened to the file or how big it is; the file
/// is the entry.
fn is_labelled_path(content: &str) -> bool {
    let mut words = content.split_whitespace().filter(|w| *w != "->").peekable();
    let mut labels = 0;
    while words.next_if(|w| is_label(w)).is_some() {
        labels += 1;
    }
    let mut files = 0;
    for word in words {
        if !names_a_file(word) {
            return false;
        }
        files += 1;
    }
    (1..=LABELS_AT_MOST).contains(&labels) && (1..=2).contains(&files)
}

/// Most labels before a file: `git ls-files -s`'s mode, object id and
/// stage.
const LABELS_AT_MOST: usize = 3;

/// A status code or a size (at most 6 characters of capitals, digits and
/// `?!.%`: `M`, `??`, `R100`, `UU`, `1.2M`, `4.0K`, `120`), or a digest
/// (`sha256sum`'s, a git object's id).
fn is_label(word: &str) -> bool {
    let status = word.len() <= 6
        && word
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b"?!.%".contains(&b));
    let digest = word.len() >= 7
        && word
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    status || digest
}

/// A line naming a package and its version, then perhaps notes in
/// brackets: `cargo tree --prefix none`'s `clap_builder v4.6.7`, `tool
/// v0.1.0 (/src/tool)`, `serde v1.0.219 (*)`; `brew list --versions`'s
/// `jq 1.7.1`.
fn is_package_line(content: &str) -> bool {
    let mut words = content.split_whitespace();
    let (Some(name), Some(version)) = (words.next(), words.next()) else {
        return false;
    };
    let is_name = name.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '@')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.@/".contains(&b));
    let digits = version.strip_prefix('v').unwrap_or(version);
    let is_version = digits.starts_with(|c: char| c.is_ascii_digit())
        && digits.has(".")
        && digits
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.+~".contains(&b));
    is_name && is_version && words.all(|w| w.starts_with(['(', '[']) || w.ends_with([')', ']']))
}

/// A word that names a file: a path (with a `/`) or a name with an
/// extension (`AnyDBM_File.pm`), not a place in it (`a.rs:12`) nor a URL.
fn names_a_file(word: &str) -> bool {
    let has_extension = word.rsplit_around(".").is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=6).contains(&ext.len())
            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            && ext.bytes().any(|b| b.is_ascii_alphabetic())
    });
    (word.has("/") || has_extension) && !word.has("://") && !word.has(":")
}

/// A line that is one path and nothing else: a word with a `/` in it and
/// no `:` after a name (`src/a.rs:12: …` is a finding, not an entry).
fn is_path_line(content: &str) -> bool {
    let t = content.trim_ascii();
    !t.is_empty()
        && !t.contains(char::is_whitespace)
        && t.has("/")
        && !t.has("://")
        && !t.trim_end_matches(':').has(":")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_paths_keeps_every_path() {
        let mut lines: Vec<String> = (0..30).map(|i| format!("./lib/pkg/mod_{i}.py")).collect();
        lines.push("./lib/pkg".into());
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(kept(&refs).len(), 31);
        let findings: Vec<String> = (0..30).map(|i| format!("src/a.rs:{i}: unused")).collect();
        let refs: Vec<&str> = findings.iter().map(String::as_str).collect();
        assert!(kept(&refs).is_empty());
        let log = ["Compiling a", "Compiling b", "src/x.rs"];
        assert!(kept(&log).is_empty());
        let mut long: Vec<String> = vec!["total 120".into()];
        long.extend(
            (0..12).map(|i| format!("-rw-r--r--  1 root root  {i}00 Apr 28  2025 mod_{i}.py")),
        );
        long.push("drwxr-xr-x  3 root root  4096 Jun 24  2025 xml".into());
        let refs: Vec<&str> = long.iter().map(String::as_str).collect();
        assert_eq!(kept(&refs).len(), 13);
        assert!(!is_mode_line("-rw-r--r-- is"));
        let status: Vec<String> = (0..14)
            .map(|i| format!(" M lib/mod_{i}.py"))
            .chain([
                "?? new/a.py".into(),
                "R  old.py -> lib/new.py".into(),
                "D  gone.pm".into(),
            ])
            .collect();
        let refs: Vec<&str> = status.iter().map(String::as_str).collect();
        assert_eq!(kept(&refs).len(), 17);
        let sizes = [
            "4.0K\t/usr/share/a",
            "1.2M\t/usr/share/b",
            "  120 a.py",
            "R100\tx.pm\ty.pm",
        ];
        assert!(sizes.iter().all(|l| is_labelled_path(l)), "{sizes:?}");
        for line in [
            "Compiling a.rs",
            "OK 3 tests",
            "M",
            "ERROR src/a.rs:12",
            "200 https://x.io/a.js",
        ] {
            assert!(!is_labelled_path(line), "{line}");
        }
        for line in [
            "100644 196d3788575993eb403588b01ac6b0a3fbba13da 0\tconcurrent/__init__.py",
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  ./json/tool.py",
        ] {
            assert!(is_labelled_path(line), "{line}");
        }
        for line in [
            "tool v0.1.0 (/tmp/tool)",
            "clap_builder v4.6.7",
            "serde v1.0.219 (*)",
            "jq 1.7.1",
        ] {
            assert!(is_package_line(line), "{line}");
        }
        for line in [
            "Compiling clap v4.6.9",
            "took 1.5 seconds",
            "version 2.0 is out",
            "a 1.0 b",
        ] {
            assert!(!is_package_line(line), "{line}");
        }
        let getconf: Vec<String> = (0..20)
            .map(|k| format!("_POSIX_LIMIT_{k}                   {k}000"))
            .chain(["POSIX2_SYMLINKS".into()])
            .collect();
        let refs: Vec<&str> = getconf.iter().map(String::as_str).collect();
        assert_eq!(kept(&refs).len(), 21);
        let compiling: Vec<String> = (0..20).map(|k| format!("Compiling crate{k}")).collect();
        let refs: Vec<&str> = compiling.iter().map(String::as_str).collect();
        assert!(kept(&refs).is_empty());
        assert!(!is_mode_line("line 34 oé日本🦀f notes"));
        let found = [
            "find: '/root/x': Permission denied",
            "./a/b.py",
            "./a/c.py",
            "./d/e.py",
        ];
        assert_eq!(
            by_directory(&found, &[1, 2, 3]),
            vec![
                "find: '/root/x': Permission denied",
                "./a/ (2): b.py, c.py",
                "./d/e.py"
            ]
        );
    }
}
