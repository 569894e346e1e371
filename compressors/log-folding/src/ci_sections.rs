//! The sections a CI service folds in its own log view: Travis's
//! `travis_fold:start:NAME` … `travis_fold:end:NAME`, GitHub Actions'
//! `##[group]` … `##[endgroup]` (but a step's `##[group]Run …`, which
//! holds the step's script), GitLab's `section_start:T:NAME` …
//! `section_end:T:NAME`. The service shows them collapsed: its worker and
//! system information, the checkout, the cache, the runner's set-up. One
//! with no failure exit and no failing test in it is read for what the
//! always-kept rules keep there (errors, warnings, summaries, diagnostics),
//! not for its unusual lines: `Send mail if the user is not in sudoers`,
//! vim's feature table.

use crate::search::Search;

use std::ops::Range;

/// Fewest lines inside a section for it to count: a two-line group is its
/// own summary.
const SECTION_AT_LEAST: usize = 5;

/// Which marker `content` is, if it is one: a section's start or end, with
/// the section's name (empty for GitHub's groups, which do not nest).
fn marker(content: &str) -> Option<(bool, &str)> {
    let t = content.trim_ascii();
    if let Some(title) = t.strip_prefix("##[group]") {
        // A step's group (`Run go mod tidy`) holds what the step runs, its
        // script and settings: the step's own words, never quiet.
        return Some((true, "")).filter(|_| !title.starts_with("Run "));
    }
    if t.starts_with("##[endgroup]") {
        return Some((false, ""));
    }
    if let Some(name) = t.strip_prefix("travis_fold:start:") {
        return Some((true, name));
    }
    if let Some(name) = t.strip_prefix("travis_fold:end:") {
        return Some((false, name));
    }
    for (prefix, start) in [("section_start:", true), ("section_end:", false)] {
        if let Some(rest) = t.strip_prefix(prefix) {
            let name = rest.split_around(":").map_or(rest, |(_, name)| name);
            return Some((start, name));
        }
    }
    None
}

/// The lines inside each closed section of `contents` (between its start
/// and its end marker) of at least [`SECTION_AT_LEAST`] lines.
pub fn sections(contents: &[&str]) -> Vec<Range<usize>> {
    let mut open: Vec<(usize, &str)> = Vec::new();
    let mut found = Vec::new();
    for (i, c) in contents.iter().enumerate() {
        match marker(c) {
            Some((true, name)) => open.push((i, name)),
            Some((false, name)) => {
                let Some(at) = open.iter().rposition(|(_, n)| *n == name) else {
                    continue;
                };
                let (start, _) = open[at];
                open.truncate(at);
                if i - start > SECTION_AT_LEAST {
                    found.push(start + 1..i);
                }
            }
            None => {}
        }
    }
    found
}

/// Which lines are inside a quiet section: one none of whose lines is
/// `loud` (a failure exit, a failing test's line). An error in a section
/// does not make it loud: the error is kept by its own rule, and a word
/// like `error` in a description (sudo's `useful error messages`) is none.
pub fn quiet(contents: &[&str], loud: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut quiet = vec![false; contents.len()];
    for range in sections(contents) {
        if !range.clone().any(&loud) {
            quiet[range].iter_mut().for_each(|q| *q = true);
        }
    }
    quiet
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_of_each_service() {
        let log = [
            "travis_fold:start:system_info",
            "Build system information",
            "a",
            "b",
            "c",
            "d",
            "travis_fold:end:system_info",
            "##[group]Operating System",
            "Ubuntu",
            "20.04.4",
            "LTS",
            "kernel 5.13",
            "x86_64",
            "##[endgroup]",
            "section_start:1560896352:build_script",
            "short",
            "section_end:1560896353:build_script",
            // A step's group holds its script: never a quiet section.
            "##[group]Run go test ./...",
            "go test ./...",
            "shell: /usr/bin/bash -e {0}",
            "env:",
            "  GOROOT: /opt/go",
            "  GOFLAGS: -mod=mod",
            "##[endgroup]",
        ];
        assert_eq!(sections(&log), vec![1..6, 8..13]);
    }

    #[test]
    fn a_section_with_a_loud_line_is_not_quiet() {
        let log = [
            "travis_fold:start:install",
            "npm install",
            "a",
            "The command \"npm install\" failed and exited with 1 during .",
            "b",
            "c",
            "travis_fold:end:install",
            "travis_fold:start:cache",
            "a",
            "b",
            "c",
            "d",
            "e",
            "travis_fold:end:cache",
        ];
        let quiet = quiet(&log, |i| log[i].contains("exited with 1"));
        assert!(quiet[1..6].iter().all(|q| !q));
        assert!(quiet[8..13].iter().all(|q| *q));
        assert!(!quiet[7] && !quiet[13]);
    }
}
