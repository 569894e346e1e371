//! Python's own tracebacks inside a log (unittest, Django's test runner, a
//! script that crashed mid-build), read by their structure: `Traceback (most
//! recent call last):`, then frames (`  File "path", line N, in f` and the
//! source line under it, indented deeper), then the exception.
//!
//! A frame in library code (installed packages, the standard library,
//! `<frozen …>`) says how the call got there, not what failed: its location
//! and source fold, unless it is the innermost frame, where the exception
//! was raised. The project's own frames and the exception stay.

use crate::markers::is_library_path;
use crate::pytest_tb::Role;

/// The role of every line of `contents` (timestamps removed): `Folded` for
/// the library frames of a traceback but its innermost, `Other` elsewhere.
pub fn roles(contents: &[&str]) -> Vec<Role> {
    let mut roles = vec![Role::Other; contents.len()];
    let mut i = 0;
    while i < contents.len() {
        if contents[i].trim() != "Traceback (most recent call last):" {
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
            let indent = indent_of(contents[j]);
            let mut end = j + 1;
            while end < contents.len()
                && frame_path(contents[end]).is_none()
                && indent_of(contents[end]) > indent
                && !contents[end].trim().is_empty()
            {
                end += 1;
            }
            frames.push((j, end, is_library_path(path)));
            j = end;
        }
        if let Some((_, frames_but_innermost)) = frames.split_last() {
            for &(start, end, library) in frames_but_innermost {
                if library {
                    roles[start..end].iter_mut().for_each(|r| *r = Role::Folded);
                }
            }
        }
        i = j.max(i + 1);
    }
    roles
}

/// The path of a frame's `File "path", line N, in f` line.
fn frame_path(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("File \"")?;
    let (path, after) = rest.split_once('"')?;
    after.starts_with(", line ").then_some(path)
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
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
            roles(&log),
            vec![
                Other, Other, Folded, Folded, Other, Other, Folded, Folded, Other, Other, Other
            ]
        );
    }
}
