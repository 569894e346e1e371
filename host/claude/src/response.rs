//! Claude Code tool results: which text of a `tool_response` ghost
//! compresses, and the same response with only that text replaced, so the
//! replacement passes Claude Code's validation against the tool's own
//! output schema (shapes observed on Claude Code 2.1.329, in
//! `../shared/claude-code/README.md`).

use serde::Deserialize;
use serde_json::{Value, json};

use crate::policy;
use crate::tools::{self, Shape};

/// How the text was taken out of the response, hence how to put it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    /// Bash: `stdout` (+ `stderr`), both replaced by the new stdout.
    BashOutput,
    /// Read: `file.content`, from line `start_line`.
    ReadContent {
        /// The first line's number.
        start_line: usize,
    },
    /// Grep in content or count mode: `content`.
    GrepContent,
    /// WebFetch: `result`.
    WebFetchResult,
    /// An MCP tool: its text blocks (or its string).
    McpText,
    /// Glob, or Grep listing files: `filenames`, one per line in the text.
    FileList,
    /// TaskOutput (a background command's output): `task.output`.
    TaskOutput,
}

/// The text of a tool result that ghost may compress.
#[derive(Debug, Clone)]
pub struct Extracted {
    /// The full text (for a cut Bash output, the whole persisted file).
    pub text: String,
    /// Where it goes back.
    pub slot: Slot,
    /// The file it is, for Read.
    pub source_path: Option<String>,
    /// Search context: the command, the pattern, the URL.
    pub context: String,
    /// Claude Code persisted the output to a file and shows the model only a
    /// preview of it (a long Bash output).
    pub persisted: bool,
}

/// Why a result is left as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// Tools whose output is the agent's own words or a list the agent
    /// acts on (Write, Edit, …).
    NotCompressible(String),
    /// A Read with an explicit `offset`/`limit`: the agent asked for exactly
    /// these lines, probably to edit them.
    TargetedRead,
    /// The response does not have the shape ghost knows for its tool.
    UnknownShape(String),
}

/// `stdout`/`stderr`, and the file of a long output Claude Code persisted.
#[derive(Deserialize)]
struct BashView {
    stdout: String,
    #[serde(default)]
    stderr: String,
    #[serde(default, rename = "persistedOutputPath")]
    persisted_output_path: Option<String>,
}

/// What a command was.
#[derive(Default, Deserialize)]
struct CommandInput {
    #[serde(default)]
    command: String,
}

/// A Read's `offset` and `limit`: present (any value) for a targeted Read.
#[derive(Default, Deserialize)]
struct ReadInput {
    #[serde(default)]
    offset: Option<Value>,
    #[serde(default)]
    limit: Option<Value>,
}

/// A Read's answer: `type` and, for text, the file.
#[derive(Deserialize)]
struct ReadView {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    file: Value,
}

#[derive(Deserialize)]
struct ReadFile {
    #[serde(rename = "filePath")]
    file_path: Option<String>,
    content: String,
    #[serde(rename = "startLine")]
    start_line: Option<usize>,
}

/// Grep's and Glob's answer: the mode, the matched text, the file names
/// and the counts Claude Code renders its summary lines from.
#[derive(Deserialize)]
struct SearchView {
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    filenames: Option<Vec<Value>>,
    #[serde(default, rename = "numFiles")]
    num_files: Option<u64>,
    #[serde(default, rename = "numMatches")]
    num_matches: Option<u64>,
}

/// What a search was for.
#[derive(Default, Deserialize)]
struct SearchInput {
    #[serde(default)]
    pattern: String,
    #[serde(default)]
    path: String,
}

/// A background command's output.
#[derive(Deserialize)]
struct TaskOutputView {
    task: TaskView,
}

#[derive(Deserialize)]
struct TaskView {
    output: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    command: Option<String>,
}

/// A fetched page, as the model reads it.
#[derive(Deserialize)]
struct WebFetchView {
    result: String,
}

#[derive(Default, Deserialize)]
struct UrlInput {
    #[serde(default)]
    url: String,
}

/// `value` read as `T`, or the tool's shape is not what ghost knows.
fn view<'a, T: Deserialize<'a>>(tool: &str, value: &'a Value) -> Result<T, Skip> {
    T::deserialize(value).map_err(|_| Skip::UnknownShape(tool.to_string()))
}

/// The tool's input read as `T`; an input ghost cannot read only loses the
/// search context, never the result.
fn input<'a, T: Deserialize<'a> + Default>(value: &'a Value) -> T {
    T::deserialize(value).unwrap_or_default()
}

/// Takes the compressible text out of a PostToolUse payload's response.
pub fn extract(tool: &str, tool_input: &Value, response: &Value) -> Result<Extracted, Skip> {
    let Some(shape) = tools::shape_of(tool) else {
        return Err(Skip::NotCompressible(tool.to_string()));
    };
    match shape {
        Shape::Bash => {
            let bash: BashView = view(tool, response)?;
            let persisted = bash.persisted_output_path.is_some();
            let mut stdout = bash.stdout;
            // Over 30,000 characters Claude Code cuts stdout and keeps the
            // whole output in a file: ghost stores the whole of it.
            if let Some(path) = bash.persisted_output_path.as_deref()
                && let Ok(meta) = std::fs::metadata(path)
                && meta.len() <= policy::MAX_PERSISTED_BYTES
                && let Ok(full) = std::fs::read_to_string(path)
            {
                stdout = full;
            }
            let text = if bash.stderr.is_empty() {
                stdout
            } else {
                format!("{}\n{}", stdout.trim_end_matches('\n'), bash.stderr)
            };
            Ok(Extracted {
                text,
                slot: Slot::BashOutput,
                source_path: None,
                persisted,
                context: input::<CommandInput>(tool_input).command,
            })
        }
        Shape::Read => {
            let asked: ReadInput = input(tool_input);
            if asked.offset.is_some() || asked.limit.is_some() {
                return Err(Skip::TargetedRead);
            }
            let read: ReadView = view(tool, response)?;
            if read.kind != "text" {
                return Err(Skip::NotCompressible("Read of a non-text file".into()));
            }
            let file: ReadFile = view(tool, &read.file)?;
            Ok(Extracted {
                text: file.content,
                slot: Slot::ReadContent {
                    start_line: file.start_line.unwrap_or(1),
                },
                source_path: file.file_path.clone(),
                persisted: false,
                context: file.file_path.unwrap_or_default(),
            })
        }
        Shape::Grep | Shape::Glob => {
            let found: SearchView = view(tool, response)?;
            let asked: SearchInput = input(tool_input);
            let context = format!("{} {}", asked.pattern, asked.path);
            match (shape, found.mode.as_deref()) {
                (Shape::Grep, Some("content" | "count")) => Ok(Extracted {
                    text: found
                        .content
                        .ok_or_else(|| Skip::UnknownShape(tool.to_string()))?,
                    slot: Slot::GrepContent,
                    source_path: None,
                    persisted: false,
                    context: format!("grep {context}"),
                }),
                _ => {
                    let names = found
                        .filenames
                        .ok_or_else(|| Skip::UnknownShape(tool.to_string()))?;
                    let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
                    Ok(Extracted {
                        text: names.join("\n"),
                        slot: Slot::FileList,
                        source_path: None,
                        persisted: false,
                        context,
                    })
                }
            }
        }
        Shape::TaskOutput => {
            let task = view::<TaskOutputView>(tool, response)?.task;
            Ok(Extracted {
                text: task.output,
                slot: Slot::TaskOutput,
                source_path: None,
                persisted: false,
                context: task.description.or(task.command).unwrap_or_default(),
            })
        }
        Shape::WebFetch => Ok(Extracted {
            text: view::<WebFetchView>(tool, response)?.result,
            slot: Slot::WebFetchResult,
            source_path: None,
            persisted: false,
            context: input::<UrlInput>(tool_input).url,
        }),
        // ghost's own tools (`mcp__ghost__get`, or `mcp__plugin_ghost_ghost__get`
        // when installed as a plugin) return originals the agent asked for.
        Shape::Mcp if is_ghost_tool(tool) => {
            Err(Skip::NotCompressible(format!("{tool}: ghost's own tool")))
        }
        Shape::Mcp => Ok(Extracted {
            text: content_text(response).ok_or_else(|| Skip::UnknownShape(tool.to_string()))?,
            slot: Slot::McpText,
            source_path: None,
            persisted: false,
            context: tool.to_string(),
        }),
    }
}

/// The text of a content value as the model reads it: a string, or the text
/// blocks of a content-block list joined by newlines (MCP results, the
/// `content` of a transcript's `tool_result`). `None` for anything else.
pub fn content_text(content: &Value) -> Option<String> {
    match content {
        Value::String(s) => Some(s.clone()),
        Value::Array(blocks) => Some(
            blocks
                .iter()
                .filter_map(|b| Block::deserialize(b).ok())
                .filter(|b| b.kind.as_deref().is_none_or(|k| k == "text"))
                .filter_map(|b| b.text)
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}

/// One block of an MCP result (or of a transcript's `tool_result` content).
#[derive(Deserialize)]
struct Block {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    text: Option<String>,
}

impl Block {
    /// Whether `block` is anything but a text block (an image, a resource).
    fn is_not_text(block: &Value) -> bool {
        Block::deserialize(block).map_or(true, |b| b.kind.as_deref() != Some("text"))
    }
}

/// Whether the MCP tool `name` is one of ghost's own.
pub fn is_ghost_tool(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("mcp__") else {
        return false;
    };
    let server = rest.split("__").next().unwrap_or_default();
    server == "ghost" || server.ends_with("_ghost")
}

/// The first line of a Read replacement whose lines are not the file's own:
/// Claude Code numbers whatever it is given from `startLine`, so a digest
/// (a JSON outline, folded log lines) must say it is not the file.
pub const NOT_THE_FILES_LINES: &str = "[ghost: a digest of this file, not its lines; the line numbers shown are not the file's: Read with offset/limit for exact text]\n";

/// For Read: the content with its real line numbers (`N→line`, unpadded:
/// padding would cost a token a line), which the code compressor keeps on
/// every line it shows.
pub fn numbered(content: &str, start_line: usize) -> String {
    content
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{}→{l}\n", start_line + i))
        .collect()
}

/// Whether every line of a Read replacement is a line of the file with its
/// real number (`N→…`) or one of ghost's own lines (`[…`, `… lines a–b`).
pub fn line_addressable(text: &str) -> bool {
    text.lines().all(|l| {
        let digits = l.bytes().take_while(u8::is_ascii_digit).count();
        let marker = l.trim_start();
        marker.is_empty()
            || marker.starts_with('[')
            || marker.starts_with('…')
            || (digits > 0 && l[digits..].starts_with('→'))
    })
}

/// What the model reads of `tool`'s response `shown` (the received one or
/// ghost's replacement), as Claude Code renders it (observed on 2.1.329):
/// Bash's stdout then stderr, a Read's lines numbered `N<TAB>` from
/// `startLine`, Grep's content, WebFetch's result, MCP text blocks. A
/// background task's output is rendered inside a frame the response does not
/// hold: `received_as_seen` is what the model saw of `received`, and the
/// frame is kept around the new output.
pub fn model_text(tool: &str, received: &Value, received_as_seen: &str, shown: &Value) -> String {
    match tools::shape_of(tool) {
        Some(Shape::Bash) => match BashView::deserialize(shown) {
            Ok(b) if b.stderr.is_empty() => b.stdout,
            Ok(b) => format!("{}\n{}", b.stdout, b.stderr),
            Err(_) => String::new(),
        },
        Some(Shape::Read) => {
            let file = ReadView::deserialize(shown)
                .ok()
                .and_then(|r| ReadFile::deserialize(&r.file).ok());
            file.map(|f| {
                let start = f.start_line.unwrap_or(1);
                f.content
                    .lines()
                    .enumerate()
                    .map(|(i, l)| format!("{}\t{l}\n", start + i))
                    .collect()
            })
            .unwrap_or_default()
        }
        Some(shape @ (Shape::Grep | Shape::Glob)) => {
            let Ok(found) = SearchView::deserialize(shown) else {
                return String::new();
            };
            let names = || -> Vec<&str> {
                found
                    .filenames
                    .iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect()
            };
            let files = found.num_files.unwrap_or(0);
            match (shape, found.mode.as_deref()) {
                (Shape::Grep, Some("content")) => found.content.clone().unwrap_or_default(),
                (Shape::Grep, Some("count")) => format!(
                    "{}\n\nFound {} total occurrences across {files} files.",
                    found.content.as_deref().unwrap_or_default(),
                    found.num_matches.unwrap_or(0)
                ),
                _ if names().is_empty() => "No files found".to_string(),
                (Shape::Grep, _) => format!("Found {files} files\n{}", names().join("\n")),
                _ => names().join("\n"),
            }
        }
        Some(Shape::WebFetch) => WebFetchView::deserialize(shown)
            .map(|w| w.result)
            .unwrap_or_default(),
        Some(Shape::TaskOutput) => {
            let output = |v: &Value| TaskOutputView::deserialize(v).ok().map(|t| t.task.output);
            match (output(received), output(shown)) {
                (Some(old), Some(new)) if received_as_seen.contains(&old) => {
                    received_as_seen.replacen(&old, &new, 1)
                }
                (_, Some(new)) => new,
                _ => received_as_seen.to_string(),
            }
        }
        _ => content_text(shown).unwrap_or_default(),
    }
}

/// `response` with the text in `slot` replaced by `text`.
pub fn replace(slot: &Slot, response: &Value, text: &str) -> Value {
    let mut out = response.clone();
    let lines = text.lines().count();
    match slot {
        Slot::BashOutput => {
            if let Some(o) = out.as_object_mut() {
                o.remove("persistedOutputPath");
                o.remove("persistedOutputSize");
                o.insert("stdout".into(), json!(text));
                o.insert("stderr".into(), json!(""));
            }
        }
        Slot::ReadContent { .. } => {
            if let Some(file) = out.get_mut("file").and_then(Value::as_object_mut) {
                file.insert("content".into(), json!(text));
                file.insert("numLines".into(), json!(lines));
            }
        }
        Slot::GrepContent => {
            if let Some(o) = out.as_object_mut() {
                o.insert("content".into(), json!(text));
                if o.contains_key("numLines") {
                    o.insert("numLines".into(), json!(lines));
                }
            }
        }
        Slot::TaskOutput => {
            if let Some(task) = out.get_mut("task").and_then(Value::as_object_mut) {
                task.insert("output".into(), json!(text));
            }
        }
        Slot::WebFetchResult => {
            if let Some(o) = out.as_object_mut() {
                o.insert("result".into(), json!(text));
            }
        }
        Slot::FileList => {
            if let Some(o) = out.as_object_mut() {
                let lines: Vec<Value> = text.lines().map(|l| json!(l)).collect();
                o.insert("filenames".into(), Value::Array(lines));
            }
        }
        Slot::McpText => {
            out = match response {
                Value::Array(blocks) => {
                    // The text blocks become one; anything else (images,
                    // resources) stays as it was.
                    let mut kept: Vec<Value> = vec![json!({"type": "text", "text": text})];
                    kept.extend(blocks.iter().filter(|b| Block::is_not_text(b)).cloned());
                    Value::Array(kept)
                }
                _ => json!(text),
            };
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_targeted_read_is_never_touched() {
        let input = json!({"file_path": "/a.rs", "offset": 5, "limit": 3});
        let response = json!({"type": "text", "file": {"filePath": "/a.rs", "content": "x", "numLines": 1, "startLine": 5, "totalLines": 9}});
        assert_eq!(
            extract("Read", &input, &response).unwrap_err(),
            Skip::TargetedRead
        );
    }

    #[test]
    fn bash_replacement_drops_the_persisted_output_fields() {
        let response = json!({"stdout": "a", "stderr": "b", "interrupted": false, "isImage": false,
            "noOutputExpected": false, "persistedOutputPath": "/nope", "persistedOutputSize": 9});
        let e = extract("Bash", &json!({"command": "make"}), &response).unwrap();
        assert_eq!(e.text, "a\nb");
        let r = replace(&e.slot, &response, "short");
        assert_eq!(
            r,
            json!({"stdout": "short", "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false})
        );
    }

    #[test]
    fn mcp_blocks_keep_their_non_text_blocks() {
        let response = json!([{"type": "text", "text": "a"}, {"type": "image", "data": "x", "mimeType": "image/png"}, {"type": "text", "text": "b"}]);
        let e = extract("mcp__s__t", &json!({}), &response).unwrap();
        assert_eq!(e.text, "a\nb");
        let r = replace(&e.slot, &response, "ab");
        assert_eq!(r[0], json!({"type": "text", "text": "ab"}));
        assert_eq!(r[1]["type"], "image");
        assert_eq!(replace(&Slot::McpText, &json!("long"), "s"), json!("s"));
    }

    #[test]
    fn ghost_own_tools_are_never_compressed() {
        for name in ["mcp__ghost__get", "mcp__plugin_ghost_ghost__recall"] {
            assert!(is_ghost_tool(name), "{name}");
            assert!(matches!(
                extract(name, &json!({}), &json!([{"type": "text", "text": "x"}])),
                Err(Skip::NotCompressible(_))
            ));
        }
        assert!(!is_ghost_tool("mcp__echo__echo"));
        assert!(!is_ghost_tool("mcp__ghostwriter__draft"));
    }

    #[test]
    fn task_output_replaces_only_the_output() {
        let response = json!({"retrieval_status": "success", "task": {"task_id": "b1",
            "task_type": "local_bash", "status": "completed", "description": "Run tests",
            "output": "long", "exitCode": 0}});
        let e = extract("TaskOutput", &json!({"task_id": "b1"}), &response).unwrap();
        assert_eq!((e.text.as_str(), e.context.as_str()), ("long", "Run tests"));
        let r = replace(&e.slot, &response, "short");
        assert_eq!(r["task"]["output"], "short");
        assert_eq!(r["task"]["exitCode"], 0);
        assert_eq!(r["retrieval_status"], "success");
    }

    #[test]
    fn read_lines_carry_their_real_numbers() {
        assert_eq!(numbered("a\nb", 40), "40→a\n41→b\n");
    }
}
