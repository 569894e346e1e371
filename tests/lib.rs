//! Shared helpers for ghost's end-to-end tests: where the hostile components,
//! the `ghost` binary and the shared corpus are, and how a corpus case says
//! which lines must survive compression.

use std::path::{Path, PathBuf};

/// The compiled hostile guest `name` (e.g. `guest-spin`), built by `build.rs`.
pub fn hostile_component(name: &str) -> Vec<u8> {
    let path =
        Path::new(env!("GHOST_HOSTILE_DIR")).join(format!("{}.wasm", name.replace('-', "_")));
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// `../shared/corpus/cases` beside the workspace. Panics with a clear message
/// when it is missing: these tests must never pass by testing nothing.
pub fn corpus_cases() -> PathBuf {
    let dir = workspace().join("../shared/corpus/cases");
    assert!(
        dir.is_dir(),
        "the shared corpus is missing at {}; it must sit beside the repository",
        dir.display()
    );
    dir
}

/// One corpus case.
#[derive(Debug)]
pub struct Case {
    /// Its folder name.
    pub id: String,
    /// Its class (`log`, `code`, …).
    pub class: String,
    /// The input text (lossily decoded).
    pub input: String,
    /// Lines a faithful compression must keep.
    pub must_keep: Vec<String>,
}

/// Every case of `class` in the corpus, sorted by id.
pub fn cases_of_class(class: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(corpus_cases()).unwrap() {
        let dir = entry.unwrap().path();
        let meta: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap();
        if meta["class"] != class {
            continue;
        }
        let input =
            String::from_utf8_lossy(&std::fs::read(dir.join("input.txt")).unwrap()).into_owned();
        let must_keep = meta["must_keep"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        cases.push(Case {
            id: dir.file_name().unwrap().to_string_lossy().into_owned(),
            class: class.to_string(),
            input,
            must_keep,
        });
    }
    cases.sort_by(|a, b| a.id.cmp(&b.id));
    cases
}

/// The must-keep lines of `case` that `output` lost. A line is kept when some
/// output line, with ANSI codes stripped and surrounding whitespace trimmed,
/// equals it.
pub fn missing_lines<'a>(must_keep: &'a [String], output: &str) -> Vec<&'a str> {
    let lines: std::collections::HashSet<String> = output
        .lines()
        .map(|l| strip_ansi(l).trim().to_string())
        .collect();
    must_keep
        .iter()
        .map(|k| k.trim())
        .filter(|k| !lines.contains(*k))
        .collect()
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.next() == Some('[') {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}
