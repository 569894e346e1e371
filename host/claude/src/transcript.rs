//! Claude Code's session transcript (`transcript_path` in every hook
//! payload): one JSON object per line, each a user or assistant message, a
//! system event (`compact_boundary` when the session was compacted), or
//! bookkeeping.
//!
//! Two readings of it:
//! - [`tail_usage`]: the context size from the last assistant reply's usage
//!   (input + cache reads + cache writes), reading only the file's tail,
//!   cheap enough for every hook;
//! - [`read`]: the main agent's items since the start, in order (each
//!   reply's usage too), for the checkpoint and the context inspection.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

/// Bytes read from the end of a transcript for the latest usage.
pub const TAIL_BYTES: u64 = 256 * 1024;

/// The context window of Claude models, unless the model says it has the
/// long one.
pub const STANDARD_WINDOW: i64 = 200_000;

/// The long context window (`…[1m]` models).
pub const LONG_WINDOW: i64 = 1_000_000;

/// The context size the last assistant reply reported.
#[derive(Debug, Clone, PartialEq)]
pub struct TailUsage {
    /// Tokens in the context: input + cache reads + cache writes.
    pub used_tokens: i64,
    /// The model's window.
    pub window_tokens: i64,
    /// The model that replied.
    pub model: Option<String>,
    /// When it replied (ms since the epoch), when the line says.
    pub at_ms: Option<i64>,
}

/// The window of `model`, given that it already holds `used` tokens.
pub fn window_of(model: Option<&str>, used: i64) -> i64 {
    if model.is_some_and(|m| m.contains("[1m]")) || used > STANDARD_WINDOW {
        LONG_WINDOW
    } else {
        STANDARD_WINDOW
    }
}

/// The last main-agent reply's usage in the transcript at `path`; `None`
/// when the file cannot be read, holds no reply, or was compacted after its
/// last reply (the figure then describes a context that is gone).
pub fn tail_usage(path: &Path) -> Option<TailUsage> {
    let mut file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let start = len.saturating_sub(TAIL_BYTES);
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::with_capacity((len - start) as usize);
    file.read_to_end(&mut bytes).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    // The first line may be cut: it is the last one looked at, and a line
    // that does not parse is skipped.
    for line in text.lines().rev() {
        if line.contains("\"compact_boundary\"") {
            return None;
        }
        if !(line.contains("\"assistant\"") && line.contains("\"usage\"")) {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v["type"] != "assistant" || v["isSidechain"] == Value::Bool(true) {
            continue;
        }
        let used = context_tokens(&v["message"]["usage"]);
        if used == 0 {
            continue;
        }
        let model = v["message"]["model"].as_str().map(str::to_string);
        return Some(TailUsage {
            used_tokens: used,
            window_tokens: window_of(model.as_deref(), used),
            model,
            at_ms: v["timestamp"].as_str().and_then(timestamp_ms),
        });
    }
    None
}

/// The context a reply's `usage` reports: input + cache reads + cache writes.
fn context_tokens(usage: &Value) -> i64 {
    [
        "input_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
    ]
    .iter()
    .map(|k| usage[k].as_i64().unwrap_or(0))
    .sum()
}

/// An RFC 3339 timestamp in milliseconds since the epoch.
pub fn timestamp_ms(text: &str) -> Option<i64> {
    chrono::DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.timestamp_millis())
}

/// One thing in the main agent's conversation.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// What the user typed.
    UserPrompt {
        /// Its text.
        text: String,
    },
    /// The assistant's visible text.
    AssistantText {
        /// Its text.
        text: String,
    },
    /// The assistant's thinking (its size only).
    Thinking {
        /// Its length in characters.
        chars: usize,
    },
    /// A tool call.
    ToolUse {
        /// Its id.
        id: String,
        /// The tool.
        name: String,
        /// Its input.
        input: Value,
    },
    /// A tool's result as the model saw it.
    ToolResult {
        /// The call's id.
        id: String,
        /// The text the model saw.
        text: String,
        /// Whether the call failed.
        is_error: bool,
        /// Claude Code's structured result (`toolUseResult`), when kept.
        structured: Value,
    },
    /// The context a main-agent reply reported (its usage), before the
    /// reply's own items.
    Usage {
        /// Input + cache reads + cache writes.
        tokens: i64,
    },
    /// The session was compacted here.
    Compaction,
}

/// A transcript read whole: its items, in order, each with its 1-based line.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    /// The items and their lines.
    pub items: Vec<(usize, Item)>,
    /// The session's working directory, from its lines.
    pub cwd: Option<String>,
    /// The file's size in bytes.
    pub bytes: u64,
}

impl Transcript {
    /// The items after the last compaction (all of them when none).
    pub fn since_compaction(&self) -> &[(usize, Item)] {
        let start = self
            .items
            .iter()
            .rposition(|(_, i)| matches!(i, Item::Compaction))
            .map_or(0, |p| p + 1);
        &self.items[start..]
    }
}

/// Reads the transcript at `path`: the main agent's prompts, replies, tool
/// calls and results, and compactions. Lines that are not JSON, subagents'
/// lines and bookkeeping are skipped.
pub fn read(path: &Path) -> Result<Transcript> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the transcript {}", path.display()))?;
    let mut t = Transcript {
        bytes: text.len() as u64,
        ..Transcript::default()
    };
    for (i, line) in text.lines().enumerate() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v["isSidechain"] == Value::Bool(true) {
            continue;
        }
        if t.cwd.is_none() {
            t.cwd = v["cwd"].as_str().map(str::to_string);
        }
        let n = i + 1;
        match v["type"].as_str() {
            Some("system") if v["subtype"] == "compact_boundary" => {
                t.items.push((n, Item::Compaction));
            }
            Some("user") => user_items(&v, n, &mut t.items),
            Some("assistant") => {
                let tokens = context_tokens(&v["message"]["usage"]);
                if tokens > 0 {
                    t.items.push((n, Item::Usage { tokens }));
                }
                for b in v["message"]["content"].as_array().into_iter().flatten() {
                    let item = match b["type"].as_str() {
                        Some("text") => Item::AssistantText {
                            text: b["text"].as_str().unwrap_or_default().to_string(),
                        },
                        Some("thinking") => Item::Thinking {
                            chars: b["thinking"].as_str().map_or(0, |s| s.chars().count()),
                        },
                        Some("tool_use") => Item::ToolUse {
                            id: b["id"].as_str().unwrap_or_default().to_string(),
                            name: b["name"].as_str().unwrap_or_default().to_string(),
                            input: b["input"].clone(),
                        },
                        _ => continue,
                    };
                    t.items.push((n, item));
                }
            }
            _ => {}
        }
    }
    Ok(t)
}

/// A user line's items: a typed prompt, or tool results.
fn user_items(v: &Value, n: usize, items: &mut Vec<(usize, Item)>) {
    // Meta lines (command output, caveats) and compaction summaries are not
    // the user's words.
    if v["isMeta"] == Value::Bool(true) || v["isCompactSummary"] == Value::Bool(true) {
        return;
    }
    let content = &v["message"]["content"];
    if let Some(text) = content.as_str() {
        if is_typed(text) {
            items.push((
                n,
                Item::UserPrompt {
                    text: text.to_string(),
                },
            ));
        }
        return;
    }
    for b in content.as_array().into_iter().flatten() {
        match b["type"].as_str() {
            Some("text") => {
                let text = b["text"].as_str().unwrap_or_default();
                if is_typed(text) {
                    items.push((
                        n,
                        Item::UserPrompt {
                            text: text.to_string(),
                        },
                    ));
                }
            }
            Some("tool_result") => items.push((
                n,
                Item::ToolResult {
                    id: b["tool_use_id"].as_str().unwrap_or_default().to_string(),
                    text: block_text(&b["content"]),
                    is_error: b["is_error"] == Value::Bool(true),
                    structured: v["toolUseResult"].clone(),
                },
            )),
            _ => {}
        }
    }
}

/// Whether a user text is something the user typed (not a slash command's
/// echo, its output, a hook's reminder or a background task's notice).
fn is_typed(text: &str) -> bool {
    let t = text.trim_start();
    !t.is_empty()
        && !t.starts_with("<command-")
        && !t.starts_with("<local-command-")
        && !t.starts_with("<system-reminder>")
        && !t.starts_with("<task-notification>")
        && !t.starts_with("Caveat:")
}

/// The text of a tool result's content: a string or text blocks.
pub fn block_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(v: Value) -> String {
        format!("{v}\n")
    }

    fn assistant(used: i64, sidechain: bool) -> String {
        line(json!({"type": "assistant", "isSidechain": sidechain,
            "timestamp": "2026-11-23T10:00:00.000Z",
            "message": {"model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "ok"}],
                "usage": {"input_tokens": 3, "cache_read_input_tokens": used, "cache_creation_input_tokens": 7}}}))
    }

    #[test]
    fn the_tail_gives_the_last_main_reply_and_nothing_after_a_compaction() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let filler = line(json!({"type": "progress", "data": "x".repeat(300_000)}));
        std::fs::write(
            &path,
            [
                assistant(50_000, false),
                filler,
                assistant(120_000, false),
                assistant(5, true),
            ]
            .concat(),
        )
        .unwrap();
        let u = tail_usage(&path).unwrap();
        assert_eq!(u.used_tokens, 120_010);
        assert_eq!(u.window_tokens, STANDARD_WINDOW);
        assert_eq!(u.at_ms, timestamp_ms("2026-11-23T10:00:00Z"));
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str(&line(
            json!({"type": "system", "subtype": "compact_boundary"}),
        ));
        std::fs::write(&path, &text).unwrap();
        assert_eq!(tail_usage(&path), None);
        assert_eq!(tail_usage(&dir.path().join("missing.jsonl")), None);
        assert_eq!(window_of(Some("claude-sonnet-4-5[1m]"), 10), LONG_WINDOW);
        assert_eq!(window_of(None, 250_000), LONG_WINDOW);
    }

    #[test]
    fn real_transcripts_read_into_items() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpus/transcripts/claude-code");
        let t = read(&dir.join("258c7280-ae70-4798-800f-63464d01a85d.jsonl")).unwrap();
        let count = |f: &dyn Fn(&Item) -> bool| t.items.iter().filter(|(_, i)| f(i)).count();
        assert!(count(&|i| matches!(i, Item::UserPrompt { .. })) >= 3);
        assert!(count(&|i| matches!(i, Item::ToolUse { name, .. } if name == "Edit")) >= 1);
        let uses = count(&|i| matches!(i, Item::ToolUse { .. }));
        let results = count(&|i| matches!(i, Item::ToolResult { .. }));
        assert!(
            uses > 10 && results >= uses - 2,
            "{uses} uses, {results} results"
        );
        assert_eq!(count(&|i| matches!(i, Item::Compaction)), 1);
        assert!(t.since_compaction().len() < t.items.len());
        assert!(t.cwd.as_deref().unwrap().contains("spotter"));
        // The tail of a compacted session that replied since has a figure.
        assert!(tail_usage(&dir.join("258c7280-ae70-4798-800f-63464d01a85d.jsonl")).is_some());
    }
}
