//! Python's own tracebacks inside a log (unittest, Django's test runner, a
//! script that crashed mid-build), read by their structure: `Traceback (most
//! recent call last):`, then frames (`  File "path", line N, in f` and the
//! source line under it, indented deeper), then the exception.
//!
//! A frame in library code (installed packages, the standard library,
//! `<frozen …>`) says how the call got there, not what failed: its location
//! and source fold, unless it is the innermost frame, where the exception
//! was raised. The project's own frames stay, but for the middle of a long
//! traceback (see [`crate::trace`]); the exception always does.

use crate::markers::is_library_path;
use crate::pytest_tb::Role;
use crate::trace;

/// The role of every line of `contents` (timestamps removed): `Folded` for
/// the frames of a traceback [`trace::kept_frames`] leaves out (`Whole`
/// when the log affords them), `Other` elsewhere.
pub fn roles(contents: &[&str], allowance: &mut trace::Allowance) -> Vec<Role> {
    let mut roles = vec![Role::Other; contents.len()];
    let mut i = 0;
    while i < contents.len() {
        if contents[i].trim_ascii() != "Traceback (most recent call last):" {
            i += 1;
            continue;
        }
        // The frames: `File` lines and what is indented under them.
        let mut frames: Vec<(usize, usize, bool)> = Vec::new();
        let mut j = i + 1;
        while j < contents.len() {
            let Some(path) = frame_path(contents[j]) else {
                break;
            };
            let indent = crate::line::indent(contents[j]);
            let mut end = j + 1;
            while end < contents.len()
                && frame_path(contents[end]).is_none()
                && crate::line::indent(contents[end]) > indent
                && !contents[end].trim_ascii().is_empty()
            {
                end += 1;
            }
            frames.push((j, end, is_library_path(path)));
            j = end;
        }
        let library: Vec<bool> = frames.iter().map(|f| f.2).collect();
        let bytes: Vec<usize> = frames
            .iter()
            .map(|&(start, end, _)| contents[start..end].iter().map(|c| c.len()).sum())
            .collect();
        let frame_roles = trace::frame_roles(&library, &bytes, allowance);
        for (&(start, end, _), role) in frames.iter().zip(frame_roles) {
            let role = match role {
                Role::Kept => continue,
                Role::Whole => Role::Whole,
                _ => Role::Folded,
            };
            roles[start..end].iter_mut().for_each(|r| *r = role);
        }
        i = j.max(i + 1);
    }
    roles
}

/// The path of a frame's `File "path", line N, in f` line, or `None` when
/// the line is no frame of a Python traceback.
pub fn frame_path(line: &str) -> Option<&str> {
    let rest = line.trim_ascii_start().strip_prefix("File \"")?;
    let (path, after) = rest.split_once('"')?;
    after.starts_with(", line ").then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_frames_fold_but_the_innermost() {
        let log = [
            "FAIL: test_get_language_from_path_real (i18n.tests.MiscTests)",
            "Traceback (most recent call last):",
            "  File \"/opt/conda/lib/python3.9/unittest/case.py\", line 59, in testPartExecutor",
            "    yield",
            "  File \"/testbed/tests/i18n/tests.py\", line 1611, in test_get_language_from_path_real",
            "    self.assertIsNone(g('/de-simple-page/'))",
            "  File \"/opt/conda/lib/python3.9/unittest/case.py\", line 1247, in assertIsNone",
            "    self.fail(self._formatMessage(msg, standardMsg))",
            "  File \"/opt/conda/lib/python3.9/unittest/case.py\", line 676, in fail",
            "    raise self.failureException(msg)",
            "AssertionError: 'de' is not None",
        ];
        use Role::*;
        assert_eq!(
            roles(&log, &mut trace::Allowance::none()),
            vec![
                Other, Other, Folded, Folded, Other, Other, Folded, Folded, Other, Other, Other
            ]
        );
    }

    #[test]
    fn a_long_traceback_folds_its_middle_own_frames_too() {
        let mut log = vec!["Traceback (most recent call last):".to_string()];
        for n in 0..12 {
            log.push(format!(
                "  File \"/testbed/app/m{n}.py\", line {n}, in f{n}"
            ));
            log.push(format!("    g{n}()"));
        }
        log.push("ValueError: bad".to_string());
        let lines: Vec<&str> = log.iter().map(String::as_str).collect();
        let roles = roles(&lines, &mut trace::Allowance::none());
        let kept = |n: usize| roles[1 + 2 * n] == Role::Other && roles[2 + 2 * n] == Role::Other;
        // Where the project's code was entered and the last three frames.
        let shown: Vec<usize> = (0..12).filter(|&n| kept(n)).collect();
        assert_eq!(shown, vec![0, 9, 10, 11]);
        assert_eq!(roles[0], Role::Other);
        assert_eq!(roles[25], Role::Other);
    }
}
