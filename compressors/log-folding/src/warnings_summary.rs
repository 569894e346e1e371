//! pytest's `warnings summary`, read by its structure: entries separated by
//! blank lines, each naming the places (`xarray/core/npcompat.py:135`,
//! `tests/test_x.py: 100 warnings`), then the warning itself, indented
//! (`  /path/npcompat.py:135: DeprecationWarning: distutils Version classes
//! are deprecated.`), then the source line that raised it.
//!
//! The same warning raised from many places is one fact repeated: the first
//! entry of each distinct warning (its category and message) stays with its
//! first place, its other places and later entries with the same warning
//! fold, and the fold marker counts their lines.

use crate::search::Search;
use rustc_hash::FxHashSet;

use crate::pytest_tb::Role;

/// The role of every line of `contents` (timestamps removed): `Kept` for
/// the first entry of each warning (its first place, the warning, its
/// source line), `Folded` for its other places and for an entry whose
/// warning an earlier entry already showed, `Other` elsewhere.
pub fn roles(contents: &[&str]) -> Vec<Role> {
    let mut roles = vec![Role::Other; contents.len()];
    let Some(start) = contents.iter().position(|l| is_section_start(l)) else {
        return roles;
    };
    let end = (start + 1..contents.len())
        .find(|&j| is_section_end(contents[j]))
        .unwrap_or(contents.len());
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    let mut entry = start + 1;
    for j in start + 1..=end {
        if j < end && !contents[j].trim_ascii().is_empty() {
            continue;
        }
        let lines = entry..j;
        if let Some(warning) = lines.clone().find_map(|k| warning_of(contents[k])) {
            let role = if seen.insert(warning) {
                Role::Kept
            } else {
                Role::Folded
            };
            roles[lines.clone()].iter_mut().for_each(|r| *r = role);
            // The places after the first: the warning's extent, counted in
            // the fold marker.
            lines
                .take_while(|&k| !contents[k].starts_with(' '))
                .skip(1)
                .for_each(|k| roles[k] = Role::Folded);
        }
        entry = j + 1;
    }
    roles
}

/// `====== warnings summary ======`.
fn is_section_start(line: &str) -> bool {
    let t = line.trim_ascii();
    t.starts_with("===") && t.ends_with("===") && t.has(" warnings summary ")
}

/// `-- Docs: https://docs.pytest.org/…` or the next `=====` rule.
fn is_section_end(line: &str) -> bool {
    let t = line.trim_ascii();
    t.starts_with("-- Docs:") || t.len() > 10 && t.starts_with("===") && t.ends_with("===")
}

/// The warning an indented line raises, from its category on
/// (`DeprecationWarning: distutils Version classes are deprecated.`), or
/// `None` when the line raises none.
fn warning_of(line: &str) -> Option<&str> {
    if !line.starts_with(' ') {
        return None;
    }
    let at = line.find_str("Warning: ")?;
    let category_start = line[..at]
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |i| i + 1);
    (category_start < at).then(|| line[category_start..].trim_ascii_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_warning_from_another_place_folds() {
        let log = [
            "=============== warnings summary ===============",
            "xarray/core/dask_array_ops.py:11",
            "  /testbed/xarray/core/dask_array_ops.py:11: DeprecationWarning: distutils Version classes are deprecated.",
            "    if LooseVersion(dask.__version__) <= LooseVersion('0.18.2'):",
            "",
            "xarray/core/npcompat.py:135",
            "  /testbed/xarray/core/npcompat.py:135: DeprecationWarning: distutils Version classes are deprecated.",
            "    if LooseVersion(np.__version__) >= LooseVersion('1.13'):",
            "",
            "xarray/tests/test_variable.py: 12 warnings",
            "xarray/tests/test_dataset.py::test_quantile[0.25]",
            "  /testbed/xarray/core/variable.py:1596: DeprecationWarning: the `interpolation=` argument was renamed.",
            "    qs = np.nanpercentile(self.data, q * 100., axis=axis,",
            "",
            "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html",
            "======== 242 passed, 239 warnings in 7.34s ========",
        ];
        use Role::*;
        assert_eq!(
            roles(&log),
            vec![
                Other, Kept, Kept, Kept, Other, Folded, Folded, Folded, Other, Kept, Folded, Kept,
                Kept, Other, Other, Other
            ]
        );
    }
}
