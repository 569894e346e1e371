//! Progress bars: a run of one bar character (`━━━━`, `████`, `#####`,
//! `[=====>   ]`) with nothing else on the line but numbers and short units
//! (`64.9/64.9 kB 377.3 MB/s eta 0:00:00`, `45%`), or a line that starts
//! with a bar in its frame with room left, whatever words follow (mocha's
//! `[▬▬▬․․․․․] 1300 passing`). Once the step is over,
//! a bar says nothing its step's own lines do not (pip's `Downloading
//! x.whl (64 kB)` above it names the file): it folds, in a short log too,
//! where each bar would otherwise read as a new line.

use crate::search::Search;

/// Whether `c` is a character a bar is drawn with.
fn is_bar_char(c: char) -> bool {
    matches!(
        c,
        '━' | '█' | '▇' | '▆' | '▉' | '■' | '▓' | '▒' | '░' | '▬' | '#' | '='
    )
}

/// Whether `c` is the empty part of a bar's frame, what is left to fill.
fn is_track_char(c: char) -> bool {
    matches!(c, ' ' | '․' | '·' | '.' | '-')
}

/// Fewest characters inside a frame drawn as a bar.
const FRAME_AT_LEAST: usize = 10;

/// Whether `t` starts with a bar in its frame with room left, `[▬▬▬․․․․․․]`
/// or `[=====>     ]`: progress drawn, whatever words follow it (mocha's
/// `1300 passing`). A full frame is not (GoogleTest's `[==========] 3
/// tests from 1 test suite ran.` is its summary).
fn starts_with_an_unfinished_bar(t: &str) -> bool {
    let Some((inner, _)) = t.strip_prefix('[').and_then(|rest| rest.split_around("]")) else {
        return false;
    };
    let unfilled = inner.trim_start_matches(is_bar_char);
    let track = unfilled.trim_start_matches('>');
    unfilled.len() < inner.len()
        && !track.is_empty()
        && track.chars().all(is_track_char)
        && inner.chars().count() >= FRAME_AT_LEAST
}

/// Fewest bar characters in a row that make a bar.
const BAR_AT_LEAST: usize = 5;

/// Longest word without a digit a bar line may carry: a unit (`kB`,
/// `MB/s`, `it/s`) or `eta`, not a name.
const UNIT_AT_MOST: usize = 4;

/// Whether `content` is a progress bar and nothing else: a bar, a
/// quantity (a bar measures something: a rule of `=====` does not), and
/// units.
pub fn is_bar(content: &str) -> bool {
    let t = content.trim_ascii();
    // A bar line starts with its bar, a quantity (`100%|███`, `45% [==>`)
    // or the bar's frame: most lines are told at their first character.
    let starts_as_a_bar = t
        .chars()
        .next()
        .is_some_and(|c| is_bar_char(c) || c.is_ascii_digit() || matches!(c, '[' | '|'));
    let drawn = starts_as_a_bar
        && (starts_with_an_unfinished_bar(t) || has_bar_run(t) && only_quantities(t));
    drawn && t.bytes().any(|b| b.is_ascii_digit())
}

/// Whether every word of `t` but its bar is a number or a short unit.
fn only_quantities(t: &str) -> bool {
    t.split_whitespace().all(|word| {
        let w = word.trim_matches(|c: char| {
            is_bar_char(c) || matches!(c, '[' | ']' | '|' | '>' | ' ' | '-' | '(' | ')')
        });
        w.is_empty() || w.chars().count() <= UNIT_AT_MOST || w.bytes().any(|b| b.is_ascii_digit())
    })
}

/// Whether `t` has [`BAR_AT_LEAST`] of one bar character in a row.
fn has_bar_run(t: &str) -> bool {
    let mut run = 0;
    let mut prev = '\0';
    for c in t.chars() {
        if c != prev {
            prev = c;
            run = 1;
        } else if is_bar_char(c) {
            run += 1;
            if run >= BAR_AT_LEAST {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::is_bar;

    #[test]
    fn bars_of_any_drawing() {
        for bar in [
            "     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 64.9/64.9 kB 377.3 MB/s eta 0:00:00",
            "######                                                      8.3%",
            "[==========>          ] 12.5MB/50MB",
            "100%|██████████| 120/120 [00:03<00:00, 39.2it/s]",
            "|████████████████████████████████| 64 kB 377 MB/s",
            "   ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 1.3/1.3 MB 557.2 MB/s et",
            "  [▬▬▬▬․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․] 5394 passing",
            "  [▬▬▬▬▬▬▬▬▬▬▬▬․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․․] 1 failing",
            "[=====>          ] 45% downloading",
        ] {
            assert!(is_bar(bar), "{bar}");
        }
    }

    #[test]
    fn a_line_that_names_something_is_no_bar() {
        for line in [
            "    Building [=====================>   ] 120/200: serde_json",
            "########## Test results ##########",
            "===== 3 failed, 20 passed in 1.2s =====",
            "## Section",
            "=====",
            "a3ed95caeb02: Downloading [=====>     ] 12.5MB/50MB",
            "[==========] 3 tests from 1 test suite ran. (0 ms total)",
            "[----------] 2 tests from FooTest",
            "[ RUN      ] FooTest.Bar",
            "[==] 2 tests",
        ] {
            assert!(!is_bar(line), "{line}");
        }
    }
}
