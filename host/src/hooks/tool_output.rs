//! Claude Code tool results: which text of a `tool_response` ghost
//! compresses, and the same response with only that text replaced, so the
//! replacement passes Claude Code's validation against the tool's own
//! output schema (shapes observed on Claude Code 2.1.329, in
//! `../shared/claude-code/README.md`).

use serde_json::{Value, json};

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

/// Bash outputs larger than this on disk are not read back (the persisted
/// output is kept by Claude Code anyway).
pub const MAX_PERSISTED_BYTES: u64 = 64 << 20;

/// Takes the compressible text out of a PostToolUse payload's response.
pub fn extract(tool: &str, input: &Value, response: &Value) -> Result<Extracted, Skip> {
    let unknown = || Skip::UnknownShape(tool.to_string());
    match tool {
        "Bash" => {
            let mut stdout = response["stdout"].as_str().ok_or_else(unknown)?.to_string();
            // Over 30,000 characters Claude Code cuts stdout and keeps the
            // whole output in a file: ghost stores the whole of it.
            if let Some(path) = response["persistedOutputPath"].as_str()
                && let Ok(meta) = std::fs::metadata(path)
                && meta.len() <= MAX_PERSISTED_BYTES
                && let Ok(full) = std::fs::read_to_string(path)
            {
                stdout = full;
            }
            let stderr = response["stderr"].as_str().unwrap_or_default();
            let text = if stderr.is_empty() {
                stdout
            } else {
                format!("{}\n{stderr}", stdout.trim_end_matches('\n'))
            };
            Ok(Extracted {
                text,
                slot: Slot::BashOutput,
                source_path: None,
                context: input["command"].as_str().unwrap_or_default().to_string(),
            })
        }
        "Read" => {
            if input.get("offset").is_some_and(|v| !v.is_null())
                || input.get("limit").is_some_and(|v| !v.is_null())
            {
                return Err(Skip::TargetedRead);
            }
            if response["type"].as_str() != Some("text") {
                return Err(Skip::NotCompressible("Read of a non-text file".into()));
            }
            let file = &response["file"];
            let content = file["content"].as_str().ok_or_else(unknown)?;
            let start_line = file["startLine"].as_u64().unwrap_or(1) as usize;
            let path = file["filePath"].as_str().map(str::to_string);
            Ok(Extracted {
                text: content.to_string(),
                slot: Slot::ReadContent { start_line },
                source_path: path.clone(),
                context: path.unwrap_or_default(),
            })
        }
        "Grep" => match response["mode"].as_str() {
            Some("content") | Some("count") => Ok(Extracted {
                text: response["content"]
                    .as_str()
                    .ok_or_else(unknown)?
                    .to_string(),
                slot: Slot::GrepContent,
                source_path: None,
                context: format!(
                    "grep {} {}",
                    input["pattern"].as_str().unwrap_or_default(),
                    input["path"].as_str().unwrap_or_default()
                ),
            }),
            _ => file_list(response, input).ok_or_else(unknown),
        },
        "Glob" => file_list(response, input).ok_or_else(unknown),
        "TaskOutput" => {
            let task = &response["task"];
            Ok(Extracted {
                text: task["output"].as_str().ok_or_else(unknown)?.to_string(),
                slot: Slot::TaskOutput,
                source_path: None,
                context: task["description"]
                    .as_str()
                    .or(task["command"].as_str())
                    .unwrap_or_default()
                    .to_string(),
            })
        }
        "WebFetch" => Ok(Extracted {
            text: response["result"].as_str().ok_or_else(unknown)?.to_string(),
            slot: Slot::WebFetchResult,
            source_path: None,
            context: input["url"].as_str().unwrap_or_default().to_string(),
        }),
        // ghost's own tools (`mcp__ghost__get`, or `mcp__plugin_ghost_ghost__get`
        // when installed as a plugin) return originals the agent asked for.
        t if t.starts_with("mcp__") && is_ghost_tool(t) => {
            Err(Skip::NotCompressible(format!("{t}: ghost's own tool")))
        }
        t if t.starts_with("mcp__") => {
            let text = content_text(response).ok_or_else(unknown)?;
            Ok(Extracted {
                text,
                slot: Slot::McpText,
                source_path: None,
                context: t.to_string(),
            })
        }
        other => Err(Skip::NotCompressible(other.to_string())),
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
                .filter(|b| b.get("type").is_none_or(|t| t == "text"))
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}

fn file_list(response: &Value, input: &Value) -> Option<Extracted> {
    let names: Vec<&str> = response["filenames"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    Some(Extracted {
        text: names.join("\n"),
        slot: Slot::FileList,
        source_path: None,
        context: format!(
            "{} {}",
            input["pattern"].as_str().unwrap_or_default(),
            input["path"].as_str().unwrap_or_default()
        ),
    })
}

/// Whether the MCP tool `name` is one of ghost's own.
pub fn is_ghost_tool(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("mcp__") else {
        return false;
    };
    let server = rest.split("__").next().unwrap_or_default();
    server == "ghost" || server.ends_with("_ghost")
}

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
                    kept.extend(blocks.iter().filter(|b| b["type"] != "text").cloned());
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
