//! A system call trace (`strace`): one call a line, `name(args) = result`,
//! hundreds of them before the program does what it was traced for. What
//! a reader looks for is what the program touched and what went wrong:
//! the calls naming a file (`openat(AT_FDCWD, "/etc/app.json", …)`), the
//! calls that failed (`= -1 ENOENT …`), what it wrote to its standard
//! output and error, the programs it ran, its signals and how it exited.
//! The rest (memory mapped, descriptors closed, signal handlers set, locks
//! taken) is the run's bookkeeping: each line of it folds, counted in the
//! gaps, however rare its arguments make it look or near the exit it is.
//! Lines that are not calls (what the program printed, strace's own
//! notes) go by the usual rules.

use crate::search::Search;

/// A log is a trace when at least this many of its lines are calls…
const CALLS_AT_LEAST: usize = 20;
/// …making up at least this share of its non-blank lines.
const CALL_SHARE_AT_LEAST: f64 = 0.5;

/// Calls whose line says what the program did whatever their arguments:
/// running a program, ending, signalling.
const SAID_CALLS: &[&str] = &["execve", "execveat", "exit", "exit_group", "kill", "tgkill"];

/// Calls that write what their first argument names: to descriptor 1 or
/// 2, what the program printed.
const WRITE_CALLS: &[&str] = &["write", "writev", "pwrite64", "sendto", "sendmsg"];

/// For each line of `contents`, whether it is a trace's bookkeeping (see
/// the module's doc); all false when `contents` is not a trace.
pub fn bookkeeping(contents: &[&str]) -> Vec<bool> {
    let calls: Vec<Option<Call<'_>>> = contents.iter().map(|c| Call::parse(c)).collect();
    let n_calls = calls.iter().flatten().count();
    let non_blank = contents
        .iter()
        .filter(|c| !c.trim_ascii().is_empty())
        .count();
    if n_calls < CALLS_AT_LEAST || (n_calls as f64) < non_blank as f64 * CALL_SHARE_AT_LEAST {
        return vec![false; contents.len()];
    }
    calls
        .iter()
        .map(|call| call.as_ref().is_some_and(Call::is_bookkeeping))
        .collect()
}

/// One traced call.
struct Call<'a> {
    /// The call's name (`openat`).
    name: &'a str,
    /// What follows the `(`: the arguments and the result.
    rest: &'a str,
}

impl<'a> Call<'a> {
    /// The call `line` traces (`openat(AT_FDCWD, "/x", O_RDONLY) = 3`,
    /// `[pid 42] futex(0x7f…, FUTEX_WAKE, 1) = 0`, a call `<unfinished
    /// ...>` or `<... futex resumed>`), if it traces one.
    fn parse(line: &'a str) -> Option<Call<'a>> {
        let mut t = line.trim_ascii_end();
        if let Some(rest) = t.strip_prefix("[pid ") {
            let close = rest.find_str("] ")?;
            rest[..close].trim_ascii().parse::<u32>().ok()?;
            t = &rest[close + 2..];
        }
        if let Some(resumed) = t.strip_prefix("<... ") {
            let (name, rest) = resumed.split_around(" resumed>")?;
            return is_name(name).then_some(Call { name, rest });
        }
        let open = t.find_str("(")?;
        let name = &t[..open];
        let rest = &t[open + 1..];
        let finished = rest.has(") = ") || rest.has(")= ") || has_aligned_result(rest);
        (is_name(name) && (finished || rest.ends_with("<unfinished ...>")))
            .then_some(Call { name, rest })
    }

    /// Whether the call is bookkeeping: it names no file, did not fail,
    /// wrote nothing the program printed and ran or ended nothing.
    fn is_bookkeeping(&self) -> bool {
        let result = self
            .rest
            .rsplit_around(" = ")
            .map_or("", |(_, r)| r.trim_ascii());
        let failed = result.starts_with("-1 ") || result == "?";
        let printed = WRITE_CALLS.contains(&self.name)
            && (self.rest.starts_with("1,") || self.rest.starts_with("2,"));
        !failed && !printed && !SAID_CALLS.contains(&self.name) && !names_a_file(self.rest)
    }
}

/// strace aligns results at a column: `close(3)                = 0`.
fn has_aligned_result(rest: &str) -> bool {
    rest.split_around(")")
        .is_some_and(|(_, after)| after.trim_ascii_start().starts_with("= "))
}

/// A system call's name: small letters, digits and `_`, a letter first.
fn is_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Whether the arguments quote a path (`"/etc/app.json"`, `"./x"`,
/// `"config.toml"` with a folder or an extension): a file the program
/// touched. Bytes read or written (`"\177ELF\2\1"`, `"hello\n"`) are no
/// path.
fn names_a_file(args: &str) -> bool {
    args.split('"').skip(1).step_by(2).any(|quoted| {
        !quoted.contains('\\')
            && !quoted.has(" ")
            && (quoted.starts_with('/')
                || quoted.starts_with("./")
                || quoted.starts_with("../")
                || quoted.has("/")
                || quoted.rsplit_around(".").is_some_and(|(stem, ext)| {
                    !stem.is_empty()
                        && (1..=5).contains(&ext.len())
                        && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(lines: &[&str]) -> Vec<bool> {
        let mut log: Vec<&str> = lines.to_vec();
        // Enough calls to read the text as a trace.
        log.extend(std::iter::repeat_n(
            "mprotect(0x7fd686e09000, 45056, PROT_READ) = 0",
            CALLS_AT_LEAST,
        ));
        bookkeeping(&log)[..lines.len()].to_vec()
    }

    #[test]
    fn bookkeeping_folds_what_the_program_touched_stays() {
        let lines = [
            "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7fd686efc000",
            "close(3)                                = 0",
            "[pid 29941] futex(0x5670710, FUTEX_WAKE_PRIVATE, 2147483647) = 0",
            "read(3, \"\\177ELF\\2\\1\\1\\0\\0\\0\"..., 832) = 832",
            "openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3",
            "openat(AT_FDCWD, \"/etc/ghost-missing/settings.json\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)",
            "ioctl(2, TCGETS, 0x7fff7776c120)        = -1 ENOTTY (Inappropriate ioctl for device)",
            "write(2, \"\\nNode.js v20.20.2\\n\", 18) = 18",
            "write(12, \"\\1\\0\\0\\0\\0\\0\\0\\0\", 8)        = 8",
            "exit_group(1)                           = ?",
            "+++ exited with 1 +++",
            "Error: ENOENT: no such file or directory, open '/etc/ghost-missing/settings.json'",
        ];
        assert_eq!(
            trace(&lines),
            [
                true, true, true, true, false, false, false, false, true, false, false, false
            ]
        );
    }

    #[test]
    fn a_log_of_few_calls_is_no_trace() {
        let log = [
            "Compiling app v0.1.0",
            "close(3) = 0",
            "error: could not compile `app`",
        ];
        assert_eq!(bookkeeping(&log), [false, false, false]);
    }

    /// Folded as a whole: the bookkeeping folds even in the lines before
    /// the failure exit (which are otherwise kept as the failing step's
    /// last words); the missing file, the error written to stderr and the
    /// exit stay.
    #[test]
    fn a_trace_keeps_what_went_wrong_and_folds_its_bookkeeping() {
        let mut log: Vec<String> = vec![
            "execve(\"/usr/bin/python3\", [\"python3\", \"app.py\"], 0x7ffd /* 38 vars */) = 0"
                .into(),
        ];
        for k in 0..150u32 {
            log.push(format!(
                "mmap(0x7fd6{k:08x}, {}, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7fd6{k:08x}",
                4096 * (k % 7 + 1)
            ));
            if k % 10 == 0 {
                log.push(format!("rt_sigaction(SIG{k}, {{sa_handler=0x{k:x}, sa_mask=[], sa_flags=SA_RESTORER}}, NULL, 8) = 0"));
            }
        }
        log.push("openat(AT_FDCWD, \"/etc/app/settings.json\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)".into());
        log.push("write(2, \"FileNotFoundError: settings.json\\n\", 33) = 33".into());
        for k in 0..20u32 {
            log.push(format!(
                "munmap(0x7fd6{k:08x}, {})                  = 0",
                8192 + k
            ));
        }
        log.push("exit_group(1)                           = ?".into());
        log.push("+++ exited with 1 +++".into());
        let out = crate::fold::folded(&log);
        for kept in [
            "execve(",
            "settings.json\", O_RDONLY",
            "write(2, ",
            "exit_group(1)",
            "+++ exited with 1 +++",
        ] {
            assert!(
                out.iter().any(|l| l.contains(kept)),
                "{kept} lost: {out:#?}"
            );
        }
        let bookkeeping = out
            .iter()
            .filter(|l| {
                l.starts_with("mmap(") || l.starts_with("munmap(") || l.starts_with("rt_sigaction(")
            })
            .count();
        assert!(bookkeeping <= 2, "{out:#?}");
    }
}
