//! Shared helpers for ghost's end-to-end tests: where the hostile components,
//! the `ghost` binary and the shared corpus are, and how a corpus case says
//! which lines must survive compression.

pub mod fuzz;

use std::path::{Path, PathBuf};

/// The compiled hostile guest `name` (e.g. `guest-spin`), built by `build.rs`.
pub fn hostile_component(name: &str) -> Vec<u8> {
    let path =
        Path::new(env!("GHOST_HOSTILE_DIR")).join(format!("{}.wasm", name.replace('-', "_")));
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Where the compiled test guest `name` is (e.g. `guest-short-lines`).
pub fn guest_path(name: &str) -> PathBuf {
    Path::new(env!("GHOST_HOSTILE_DIR")).join(format!("{}.wasm", name.replace('-', "_")))
}

/// The wall-clock deadline a quality test gives each plugin call, per MiB
/// of input: what these tests measure is what the compressors keep, not
/// how fast they are (the benchmarks and the sandbox tests do that), and a
/// call past the default deadline on a loaded machine passes its input
/// through whole.
pub const QUALITY_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

/// A pipeline of the built-ins for tests of what the compressors keep (see
/// [`QUALITY_DEADLINE`]).
pub fn quality_pipeline() -> ghost_core::pipeline::Pipeline {
    let limits = ghost_runtime::PluginLimits {
        deadline: QUALITY_DEADLINE,
        ..Default::default()
    };
    ghost_core::pipeline::Pipeline::new_with(None, limits).expect("the built-in components load")
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

/// `../shared/corpus/swe`: real observations of agents fixing SWE-bench
/// issues, laid out like the cases.
pub fn corpus_swe() -> PathBuf {
    corpus_cases().join("../swe")
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
    /// The agent tool that produced it.
    pub tool: Option<String>,
    /// The command (or, for Read, the file) it came from.
    pub command: Option<String>,
}

/// Every case of `class` in the corpus, sorted by id.
pub fn cases_of_class(class: &str) -> Vec<Case> {
    cases_of_class_in(&corpus_cases(), class)
}

/// Every case of `class` in the corpus folder `corpus`, sorted by id.
pub fn cases_of_class_in(corpus: &Path, class: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(corpus).unwrap() {
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
            tool: meta["tool"].as_str().map(str::to_string),
            command: meta["command"].as_str().map(str::to_string),
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
        .map(|l| ghost_terminal_text::strip_ansi(l).trim().to_string())
        .collect();
    must_keep
        .iter()
        .map(|k| k.trim())
        .filter(|k| !lines.contains(*k))
        .collect()
}

/// One labelled text for measuring the classifier.
#[derive(Debug, Clone)]
pub struct Labelled {
    /// Where it came from (`case:<id>` or `transcript:<file>:<tool>`).
    pub origin: String,
    /// The text.
    pub text: String,
    /// The tool that produced it.
    pub tool: Option<String>,
    /// The file it was read from, for Read.
    pub path: Option<String>,
    /// The shell command that printed it, for Bash.
    pub command: Option<String>,
    /// The class it is labelled with.
    pub label: String,
}

/// The classifier's labelled set, built from `../shared/corpus/` by the rules
/// in `tests/LABELS.md`: every corpus case with its `meta.json` class, and
/// every tool result of at least 500 bytes in the Claude Code transcripts
/// whose tool (and, for Read, file extension; for Bash, command) has a label.
pub fn labelled_set() -> Vec<Labelled> {
    let mut set = Vec::new();
    for corpus in [corpus_cases(), corpus_swe()] {
        for class in ["log", "code", "structured", "prose", "error"] {
            for case in cases_of_class_in(&corpus, class) {
                let on = |tool: &str| case.tool.as_deref() == Some(tool);
                set.push(Labelled {
                    origin: format!("case:{}", case.id),
                    path: case.command.clone().filter(|_| on("Read")),
                    command: case.command.clone().filter(|_| on("Bash")),
                    text: case.input,
                    tool: case.tool,
                    label: class.into(),
                });
            }
        }
    }
    let transcripts = corpus_cases().join("../transcripts/claude-code");
    let mut files: Vec<_> = std::fs::read_dir(&transcripts)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let mut uses: std::collections::HashMap<String, (String, serde_json::Value)> =
            Default::default();
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            let Ok(entry) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let Some(blocks) = entry["message"]["content"].as_array() else {
                continue;
            };
            for b in blocks {
                match b["type"].as_str() {
                    Some("tool_use") => {
                        uses.insert(
                            b["id"].as_str().unwrap_or_default().into(),
                            (
                                b["name"].as_str().unwrap_or_default().into(),
                                b["input"].clone(),
                            ),
                        );
                    }
                    Some("tool_result") => {
                        let Some((tool, input)) =
                            uses.get(b["tool_use_id"].as_str().unwrap_or_default())
                        else {
                            continue;
                        };
                        let text = match &b["content"] {
                            serde_json::Value::String(s) => s.clone(),
                            serde_json::Value::Array(parts) => parts
                                .iter()
                                .filter_map(|p| p["text"].as_str())
                                .collect::<Vec<_>>()
                                .join("\n"),
                            _ => continue,
                        };
                        if text.len() < 500 {
                            continue;
                        }
                        let path = input["file_path"].as_str().map(str::to_string);
                        let Some(label) = transcript_label(tool, input, path.as_deref()) else {
                            continue;
                        };
                        set.push(Labelled {
                            origin: format!(
                                "transcript:{name}:{tool}:{}",
                                path.as_deref().unwrap_or(command_of(input))
                            ),
                            text,
                            tool: Some(tool.clone()),
                            path,
                            command: input["command"].as_str().map(str::to_string),
                            label: label.into(),
                        });
                    }
                    _ => {}
                }
            }
        }
    }
    set
}

fn command_of(input: &serde_json::Value) -> &str {
    let c = input["command"].as_str().unwrap_or("");
    &c[..c.floor_char_boundary(60)]
}

/// The label of a transcript tool result, by the rules in `tests/LABELS.md`.
fn transcript_label(
    tool: &str,
    input: &serde_json::Value,
    path: Option<&str>,
) -> Option<&'static str> {
    let command = input["command"].as_str().unwrap_or("").trim();
    match tool {
        "Read" => {
            let ext = path?.rsplit_once('.')?.1;
            Some(match ext {
                "ex" | "exs" | "heex" | "js" | "ts" | "sh" | "css" | "rs" | "py" | "go" => "code",
                "json" | "jsonl" | "toml" | "yaml" | "yml" => "structured",
                "md" | "txt" => "prose",
                "output" | "log" => "log",
                _ => return None,
            })
        }
        "Grep" | "Glob" => Some("log"),
        "WebFetch" | "WebSearch" | "Task" => Some("prose"),
        "Bash" if command.starts_with("bd show") => Some("prose"),
        "Bash" if command.starts_with("git diff") && !command.contains("--stat") => Some("code"),
        "Bash" => Some("log"),
        _ => None,
    }
}
