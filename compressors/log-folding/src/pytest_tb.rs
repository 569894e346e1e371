//! pytest's long tracebacks (the default `--tb=long`), read by their
//! structure: a `FAILURES`/`ERRORS` section is cut into frames by the
//! `_ _ _ _` separators and the `____ test name ____` headers; each frame
//! lists its function's source (indented), marks the failing line with `>`,
//! gives the exception as `E   ` lines and ends with its location
//! (`path.py:171: ImportError`, `path.py:3222: in to_xarray`).
//!
//! The location, the `>` line and the `E` lines always stay. A frame in
//! library code (site-packages, the standard library, `<frozen …>`) folds
//! its source listing and its arguments: a docstring of pandas says nothing
//! about the failure. A frame of the project's own code keeps its arguments
//! and the few source lines around `>`. Source lines are code, not
//! messages: `raise ImportError(msg)` in a listing is not an error line.

use crate::search::Search;
use crate::trace;

/// Source lines kept before the `>` line in the project's own frames.
const OWN_LINES_BEFORE: usize = 4;
/// Source lines kept after the `>` line in the project's own frames.
const OWN_LINES_AFTER: usize = 2;

/// What a line of a pytest traceback is to the folding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Not inside a traceback frame's listing: folded by the usual rules.
    Other,
    /// Kept as it is: the `>` line and the source around it.
    Kept,
    /// Folded: a listing line or argument line that says nothing about the failure.
    Folded,
    /// A frame its trace's rule leaves out, kept because the log affords
    /// the whole trace (see [`crate::trace::Allowance`]); left to the usual
    /// rules under a token budget.
    Whole,
}

/// The role of every line of `contents` (timestamps removed).
pub fn roles(contents: &[&str], allowance: &mut trace::Allowance) -> Vec<Role> {
    let mut roles = vec![Role::Other; contents.len()];
    let mut i = 0;
    while i < contents.len() {
        if !is_section_start(contents[i]) {
            i += 1;
            continue;
        }
        let rule = contents[i].trim_ascii().as_bytes()[0];
        let end = (i + 1..contents.len())
            .find(|&j| is_rule_of(contents[j], rule))
            .unwrap_or(contents.len());
        let mut start = i + 1;
        for j in i + 1..=end {
            if j == end || is_frame_boundary(contents[j]) {
                read_frame(contents, start, j, &mut roles, allowance);
                read_short_frames(contents, start, j, &mut roles, allowance);
                start = j + 1;
            }
        }
        i = end;
    }
    roles
}

/// An `E   ` line: the exception and assertion message pytest prints
/// under a failing line (`E   assert 3 == 4`, `E   ValueError: 12`), which
/// always stays: its numbers are the facts.
pub fn is_exception_line(line: &str) -> bool {
    line.starts_with("E ")
}

/// `===== FAILURES =====`, `===== ERRORS =====`, and `>>>>> traceback
/// >>>>>` (`--pdb` prints the failure's traceback under it).
fn is_section_start(line: &str) -> bool {
    let t = line.trim_ascii();
    (is_rule_of(t, b'=') && (t.has(" FAILURES ") || t.has(" ERRORS ")))
        || (is_rule_of(t, b'>') && t.has(" traceback "))
}

/// A section rule drawn with `c`: `=====  … =====`, `>>>>> … >>>>>`.
fn is_rule_of(line: &str, c: u8) -> bool {
    let t = line.trim_ascii().as_bytes();
    let edge = [c; 3];
    t.len() > 10 && t.starts_with(&edge) && t.ends_with(&edge)
}

/// `_ _ _ _` between frames, `____ TestX.test_y ____` before a test.
fn is_frame_boundary(line: &str) -> bool {
    let t = line.trim_ascii();
    (t.starts_with("_ _ _") && t.chars().all(|c| c == '_' || c == ' '))
        || (t.starts_with("___") && t.ends_with("___"))
}

/// Marks the lines of the frame `contents[start..end]`: what it folds is
/// kept after all (`Whole`) while the log affords it, as a trace's frames.
fn read_frame(
    contents: &[&str],
    start: usize,
    end: usize,
    roles: &mut [Role],
    allowance: &mut trace::Allowance,
) {
    let frame = &contents[start..end];
    let Some(location) = frame.iter().rposition(|l| location_path(l).is_some()) else {
        return;
    };
    let Some(failing) = frame[..location].iter().rposition(|l| l.starts_with('>')) else {
        return;
    };
    let library = location_path(frame[location]).is_some_and(crate::markers::is_library_path);
    for (k, line) in frame[..location].iter().enumerate() {
        let role = if k == failing {
            Role::Kept
        } else if is_exception_line(line) || line.trim_ascii().is_empty() {
            Role::Other
        } else if library {
            Role::Folded
        } else if !line.starts_with(' ') {
            // The frame's arguments (`self = <…>`, `name = 'xarray'`).
            Role::Kept
        } else if k + OWN_LINES_BEFORE >= failing && k <= failing + OWN_LINES_AFTER {
            Role::Kept
        } else {
            Role::Folded
        };
        roles[start + k] = role;
    }
    let frame_roles = &mut roles[start..start + location];
    let folded: usize = frame
        .iter()
        .zip(frame_roles.iter())
        .filter(|(_, r)| **r == Role::Folded)
        .map(|(line, _)| line.len())
        .sum();
    if folded > 0 && allowance.affords(folded) {
        for role in frame_roles.iter_mut().filter(|r| **r == Role::Folded) {
            *role = Role::Whole;
        }
    }
}

/// Marks the short frames of `contents[start..end]`: `path.py:225: in f`
/// with its source line indented under it, as pytest prints the frames
/// between the first and the last of a long traceback, and every frame of
/// a collection error. Consecutive short frames are a trace: which of them
/// stay, location and source together, is [`trace::kept_frames`]'s rule.
/// The innermost is the run's last only when the exception's `E` lines
/// follow it; else a longer frame below is.
fn read_short_frames(
    contents: &[&str],
    start: usize,
    end: usize,
    roles: &mut [Role],
    allowance: &mut trace::Allowance,
) {
    let mut k = start;
    while k < end {
        let mut run: Vec<(usize, usize)> = Vec::new();
        let mut library: Vec<bool> = Vec::new();
        let mut j = k;
        while let Some(path) = short_location(contents[j]) {
            let body_end = (j + 1..end)
                .find(|&m| {
                    !contents[m].starts_with(char::is_whitespace)
                        || contents[m].trim_ascii().is_empty()
                })
                .unwrap_or(end);
            if body_end == j + 1 {
                break;
            }
            run.push((j, body_end));
            library.push(crate::markers::is_library_path(path));
            j = body_end;
            if j == end {
                break;
            }
        }
        if run.is_empty() {
            k += 1;
            continue;
        }
        let raised_here = j < end && is_exception_line(contents[j]);
        let mut bytes: Vec<usize> = run
            .iter()
            .map(|&(first, after)| contents[first..after].iter().map(|c| c.len()).sum())
            .collect();
        if !raised_here {
            library.push(false);
            bytes.push(0);
        }
        let frame_roles = trace::frame_roles(&library, &bytes, allowance);
        for (&(first, after), role) in run.iter().zip(frame_roles) {
            let role = if role == Role::Other {
                Role::Folded
            } else {
                role
            };
            roles[first..after].iter_mut().for_each(|r| *r = role);
        }
        k = j;
    }
}

/// The path of a short frame's location line, `path.py:225: in f`.
fn short_location(line: &str) -> Option<&str> {
    let path = location_path(line)?;
    let rest = &line[path.len() + 1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    rest[digits..].starts_with(": in ").then_some(path)
}

/// The path of a frame's location line (`path.py:171: ImportError`,
/// `path.py:3222: in to_xarray`, `path.py:3670:`).
fn location_path(line: &str) -> Option<&str> {
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let line = line.trim_ascii_end();
    let mut search = 0;
    while let Some(colon) = line[search..].find_str(":").map(|c| c + search) {
        let rest = &line[colon + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0
            && rest[digits..].starts_with(':')
            && (rest.len() == digits + 1 || rest[digits + 1..].starts_with(' '))
        {
            let path = &line[..colon];
            let frozen = path.starts_with('<') && path.ends_with('>');
            return (frozen || !path.has(" ")).then_some(path);
        }
        search = colon + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str =
        "=================================== FAILURES ===================================
__________________ TestDataArray.test_from_series_multiindex ___________________

self = <xarray.tests.test_dataarray.TestDataArray object at 0x7aa9835defb0>

    def test_from_series_multiindex(self):
        # GH:3951
        df = pd.DataFrame({\"B\": [1, 2, 3], \"A\": [4, 5, 6]})
        df = df.rename_axis(\"num\").rename_axis(\"alpha\", axis=1)
        x = 1
        y = 2
>       actual = df.stack(\"alpha\").to_xarray()

/testbed/xarray/tests/test_dataarray.py:3670: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

name = 'xarray', extra = '', errors = 'raise', min_version = None

    def import_optional_dependency(name):
        \"\"\"
        Import an optional dependency.
        \"\"\"
        try:
            module = importlib.import_module(name)
        except ImportError:
>           raise ImportError(msg)
E           ImportError: Missing optional dependency 'xarray'.

/opt/conda/lib/python3.10/site-packages/pandas/compat/_optional.py:171: ImportError
=============================== warnings summary ===============================
xarray/__init__.py:1
";

    #[test]
    fn library_listings_fold_own_frames_keep_the_lines_near_the_failure() {
        let lines: Vec<&str> = LOG.lines().collect();
        let roles = roles(&lines, &mut trace::Allowance::none());
        let role = |needle: &str| roles[lines.iter().position(|l| l.contains(needle)).unwrap()];
        assert_eq!(role("def test_from_series_multiindex"), Role::Folded);
        assert_eq!(role("x = 1"), Role::Kept);
        assert_eq!(role(">       actual"), Role::Kept);
        assert_eq!(role("self = <xarray"), Role::Kept);
        assert_eq!(role("name = 'xarray'"), Role::Folded);
        assert_eq!(role("Import an optional dependency."), Role::Folded);
        assert_eq!(role("except ImportError:"), Role::Folded);
        assert_eq!(role(">           raise ImportError"), Role::Kept);
        assert_eq!(role("E           ImportError"), Role::Other);
        assert_eq!(role("_optional.py:171: ImportError"), Role::Other);
        assert_eq!(role("xarray/__init__.py:1"), Role::Other);
    }

    #[test]
    fn short_frames_fold_library_ones_and_keep_the_raising_one_whole() {
        let log = [
            "==================================== ERRORS ====================================",
            "______________________ ERROR collecting test_reproduce.py ______________________",
            "/opt/conda/lib/python3.9/site-packages/pluggy/hooks.py:286: in __call__",
            "    return self._hookexec(self, self.get_hookimpls(), kwargs)",
            "src/_pytest/python.py:225: in pytest_pycollect_makeitem",
            "    res = list(collector._genfunctions(name, obj))",
            "/opt/conda/lib/python3.9/site-packages/pluggy/manager.py:93: in _hookexec",
            "    return self._inner_hookexec(hook, methods, kwargs)",
            "src/_pytest/compat.py:71: in num_mock_patch_args",
            "    [p for p in patchings if not p.attribute_name and p.new in sentinels]",
            "E   ValueError: The truth value of an array is ambiguous.",
            "=========================== short test summary info ============================",
        ];
        use Role::*;
        assert_eq!(
            roles(&log, &mut trace::Allowance::none()),
            vec![
                Other, Other, Folded, Folded, Kept, Kept, Folded, Folded, Kept, Kept, Other, Other
            ]
        );
    }

    #[test]
    fn short_frames_before_a_long_one_are_not_its_innermost() {
        let log = [
            "=================================== FAILURES ===================================",
            "___________________________________ test_x ___________________________________",
            "src/app/a.py:3: in f",
            "    g()",
            "/opt/conda/lib/python3.9/site-packages/lib/b.py:5: in g",
            "    h()",
            "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            "    def h():",
            ">       raise ValueError(1)",
            "E       ValueError: 1",
            "",
            "src/app/c.py:9: ValueError",
        ];
        let roles = roles(&log, &mut trace::Allowance::none());
        // The library frame folds though it is the last short one: the long
        // frame below it is where the exception was raised.
        assert_eq!(
            &roles[2..6],
            &[Role::Kept, Role::Kept, Role::Folded, Role::Folded]
        );
        assert_eq!(roles[8], Role::Kept);
    }

    #[test]
    fn pdbs_traceback_section_is_read_like_failures() {
        let log = [
            ">>>>>>>>>>>>>>>>>>>>>>>>>>>>>> traceback >>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>",
            "/opt/conda/lib/python3.9/site-packages/pluggy/hooks.py:286: in __call__",
            "    return self._hookexec(self, self.get_hookimpls(), kwargs)",
            "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            "    def teardown(self):",
            ">       print(self._store.keys())",
            "E       AttributeError: 'Store' object has no attribute 'keys'",
            "",
            "src/_pytest/unittest.py:124: AttributeError",
            ">>>>>>>>>>>>>>>>>>>>>>>>>>>>>> entering PDB >>>>>>>>>>>>>>>>>>>>>>>>>>>>>>",
            "> /testbed/src/_pytest/unittest.py(124)teardown()",
        ];
        use Role::*;
        assert_eq!(
            roles(&log, &mut trace::Allowance::none()),
            vec![
                Other, Folded, Folded, Other, Kept, Kept, Other, Other, Other, Other, Other
            ]
        );
    }

    #[test]
    fn locations() {
        assert_eq!(location_path("/a/b.py:171: ImportError"), Some("/a/b.py"));
        assert_eq!(location_path("/a/b.py:3670: "), Some("/a/b.py"));
        assert_eq!(location_path("a/b.py:3222: in to_xarray"), Some("a/b.py"));
        assert_eq!(
            location_path("<frozen importlib._bootstrap>:1050: in _gcd_import"),
            Some("<frozen importlib._bootstrap>")
        );
        assert_eq!(location_path("Ran 3 tests: in 0.1s"), None);
        assert_eq!(location_path("    x = a:1:"), None);
        assert_eq!(location_path("E   assert 1 == 2"), None);
    }
}
