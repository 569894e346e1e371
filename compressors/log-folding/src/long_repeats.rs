//! Long lines that mostly say again what an earlier long line said: a
//! verbose build's command lines (`Running \`rustc --crate-name anstyle
//! … 90 flags …\``, `[12/40] cc -I… -c src/x.c`), each naming another
//! crate or file among the same flags. Templates (same length in words)
//! do not join them, since each has its own count of flags, so each would
//! pass for a rare line; compared as bags of masked words they are
//! near repeats. The line announcing each step (`Compiling anstyle
//! v1.0.14`) still names what the folded command built.

/// A line of fewer masked words than this is never read as a long repeat:
/// in a short line one word that differs is what it says.
const LONG_LINE_WORDS_AT_LEAST: usize = 20;

/// Share of words (Dice's coefficient of the two bags of masked words)
/// that a long line must share with an earlier long line to repeat it.
const SHARED_WORDS_AT_LEAST: f64 = 0.7;

/// The share for two command lines (see [`crate::line::is_command_line`]):
/// a build's next command differs from the one before in more than a
/// name, in the flags of what it builds (a crate's features and lints, a
/// file's defines), and is still the same step for another target, which
/// the line announcing the step names (`Compiling syn v2.0.1`).
const COMMANDS_SHARED_WORDS_AT_LEAST: f64 = 0.4;

/// Earlier long lines a long line is compared with (the latest ones):
/// bounds the work on a log of many long lines.
const COMPARED_AT_MOST: usize = 16;

/// For each line (given by its content and its mask, see
/// [`crate::line::mask`]), whether it is a long line mostly repeating one
/// of the long lines before it.
pub fn near_repeats(contents: &[&str], masks: &[String]) -> Vec<bool> {
    let mut repeats = vec![false; masks.len()];
    // The latest long lines' words, each sorted, and whether each is a
    // command line.
    let mut recent: std::collections::VecDeque<(Vec<&str>, bool)> = Default::default();
    for (i, mask) in masks.iter().enumerate() {
        // (A mask joins its words by one space: counted without splitting.)
        if mask.bytes().filter(|&b| b == b' ').count() + 1 < LONG_LINE_WORDS_AT_LEAST {
            continue;
        }
        let mut words: Vec<&str> = crate::search::split_at_byte(mask, b' ').collect();
        words.sort_unstable();
        let command = crate::line::is_command_line(contents[i]);
        repeats[i] = recent.iter().any(|(earlier, earlier_command)| {
            let at_least = if command && *earlier_command {
                COMMANDS_SHARED_WORDS_AT_LEAST
            } else {
                SHARED_WORDS_AT_LEAST
            };
            dice(&words, earlier) >= at_least
        });
        if recent.len() == COMPARED_AT_MOST {
            recent.pop_front();
        }
        recent.push_back((words, command));
    }
    repeats
}

/// Dice's coefficient of two bags of words, each sorted: twice the words
/// they share over the words of both.
fn dice(a: &[&str], b: &[&str]) -> f64 {
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (2 * shared) as f64 / (a.len() + b.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::mask;

    fn rustc(name: &str, flags: &str) -> String {
        format!(
            "     Running `/usr/bin/rustc --crate-name {name} --edition=2021 /src/{name}/src/lib.rs \
             --error-format=json --crate-type lib --emit=dep-info,metadata,link -C embed-bitcode=no \
             -C debuginfo=2 {flags} -C metadata=0414aaa79eb6a3c3 --out-dir /t/debug/deps \
             -L dependency=/t/debug/deps --cap-lints allow`"
        )
    }

    #[test]
    fn a_command_line_naming_another_crate_among_the_same_flags_repeats_the_first() {
        let lines = [
            rustc("anstyle", "--cfg 'feature=\"std\"'"),
            "   Compiling clap v4.6.9".to_string(),
            rustc(
                "clap",
                "--cfg 'feature=\"color\"' --cfg 'feature=\"derive\"' --cfg 'feature=\"help\"'",
            ),
        ];
        let masks: Vec<String> = lines.iter().map(|l| mask(l)).collect();
        let contents: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(near_repeats(&contents, &masks), [false, false, true]);
    }

    #[test]
    fn a_build_command_with_other_flags_still_repeats_the_one_before() {
        // The second crate's features and lints outnumber the flags the
        // two commands share: as words, it is under half a repeat.
        let lints: String = (0..24)
            .map(|k| format!(" '--warn=clippy::lint_{}'", words(k)))
            .collect();
        let lines = [
            rustc("anstyle", "--cfg 'feature=\"std\"'"),
            rustc("clap", &lints),
        ];
        let masks: Vec<String> = lines.iter().map(|l| mask(l)).collect();
        let contents: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(near_repeats(&contents, &masks), [false, true]);
        // As prose, lines sharing that little say different things.
        let prose: Vec<String> = lines.iter().map(|l| l.replace('-', "")).collect();
        let masks: Vec<String> = prose.iter().map(|l| mask(l)).collect();
        let contents: Vec<&str> = prose.iter().map(String::as_str).collect();
        assert_eq!(near_repeats(&contents, &masks), [false, false]);
    }

    /// A word of three letters for `k`, different for each `k` under 26.
    fn words(k: usize) -> String {
        (0..3)
            .map(|i| char::from(b'a' + ((k * 7 + i * 11) % 26) as u8))
            .collect()
    }

    #[test]
    fn long_lines_saying_different_things_are_not_repeats() {
        let lines = [
            "the quick brown fox jumps over the lazy dog while the cat sleeps on a warm mat in the sun",
            "a configuration file was found at the expected place but its version field names a release we never shipped",
        ];
        let masks: Vec<String> = lines.iter().map(|l| mask(l)).collect();
        assert_eq!(near_repeats(&lines, &masks), [false, false]);
    }
}
