//! gcc's template instantiation chains, read as the stack traces they are:
//! `path: In instantiation of ‘f<…>’:` names the innermost function, then
//! each `path:line:col:   required from ‘g<…>’` line one call further out,
//! down to `m.cpp:8:12:   required from here` in the project's code.
//!
//! Which links stay is [`crate::trace::kept_frames`]'s rule, as for any
//! trace: the innermost (the instantiation the error is in) and the
//! project's own places; the standard library's links between fold.

use crate::markers::is_library_path;
use crate::pytest_tb::Role;
use crate::search::Search;
use crate::trace;

/// The role of every line of `contents` (timestamps removed): `Folded` for
/// the library links of an instantiation chain but its innermost (`Whole`
/// when the log affords them), `Other` elsewhere.
pub fn roles(contents: &[&str], allowance: &mut trace::Allowance) -> Vec<Role> {
    let mut roles = vec![Role::Other; contents.len()];
    let mut i = 0;
    while i < contents.len() {
        if !contents[i].has(": In instantiation of ") {
            i += 1;
            continue;
        }
        let links: Vec<usize> = (i + 1..contents.len())
            .take_while(|&j| required_from(contents[j]).is_some())
            .collect();
        // Outermost first, as traces are read: the innermost is the
        // `In instantiation of` line itself, always kept.
        let library: Vec<bool> = links
            .iter()
            .rev()
            .filter_map(|&j| required_from(contents[j]))
            .map(is_library_path)
            .chain([false])
            .collect();
        let bytes: Vec<usize> = links
            .iter()
            .rev()
            .map(|&j| contents[j].len())
            .chain([0])
            .collect();
        let frame_roles = trace::frame_roles(&library, &bytes, allowance);
        for (&j, role) in links.iter().rev().zip(frame_roles) {
            roles[j] = match role {
                Role::Kept => Role::Other,
                Role::Whole => Role::Whole,
                _ => Role::Folded,
            };
        }
        i += 1 + links.len();
    }
    roles
}

/// The path of a `path:line:col:   required from …` link.
fn required_from(content: &str) -> Option<&str> {
    let (place, _) = content.split_around(":   required from ")?;
    let mut parts = place.rsplitn(3, ':');
    let (col, line, path) = (parts.next()?, parts.next()?, parts.next()?);
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (numeric(col) && numeric(line)).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_links_fold_the_instantiation_and_the_projects_place_stay() {
        let log = [
            "/usr/include/c++/12/bits/predefined_ops.h: In instantiation of ‘constexpr bool _Iter_less_iter::operator()’:",
            "/usr/include/c++/12/bits/stl_algo.h:1809:14:   required from ‘void std::__insertion_sort()’",
            "/usr/include/c++/12/bits/stl_algo.h:1940:31:   required from ‘void std::__sort()’",
            "src/sort.h:12:5:   required from ‘void app::sort_all()’",
            "m.cpp:8:12:   required from here",
            "/usr/include/c++/12/bits/predefined_ops.h:45:23: error: no match for ‘operator<’",
        ];
        use Role::*;
        assert_eq!(
            roles(&log, &mut trace::Allowance::none()),
            vec![Other, Folded, Folded, Other, Other, Other]
        );
        assert_eq!(required_from(log[4]), Some("m.cpp"));
        assert_eq!(required_from("a: b:   required from here"), None);
    }
}
