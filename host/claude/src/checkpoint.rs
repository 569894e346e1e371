//! A checkpoint's sections from a Claude Code transcript, by rules, no
//! model call:
//!
//! - **What changed**: every file an Edit, MultiEdit, Write or NotebookEdit
//!   changed since the last compaction, with the line ranges its patches
//!   touched (from Claude Code's `structuredPatch`);
//! - **Why**: the user's requests and what the assistant said right before
//!   it edited;
//! - **Active issues**: the last failing commands not followed by a passing
//!   run of the same command, with their key lines;
//! - **Key decisions**: the user's own words (instructions, corrections),
//!   newest first, and the assistant's stated choices;
//! - **Next steps**: the latest TodoWrite list (or the tasks of TaskCreate /
//!   TaskUpdate) verbatim, pending first.

use std::collections::BTreeMap;

use ghost_core::checkpoint::{Checkpoint, CheckpointMeta};
use serde_json::Value;

use crate::transcript::{Item, Transcript};

/// Longest quote of the user or the assistant, in characters.
const QUOTE_CHARS: usize = 300;

/// Most user prompts quoted under Key decisions.
const USER_WORDS: usize = 8;

/// Most assistant statements quoted under Why and Key decisions.
const STATEMENTS: usize = 5;

/// Most failing commands under Active issues.
const ISSUES: usize = 5;

/// Most key lines quoted per failing command.
const KEY_LINES: usize = 4;

/// Tools that change files.
const EDIT_TOOLS: [&str; 4] = ["Edit", "MultiEdit", "Write", "NotebookEdit"];

/// Builds the checkpoint of `transcript` with `meta`.
pub fn build(transcript: &Transcript, meta: CheckpointMeta) -> Checkpoint {
    let items = transcript.since_compaction();
    Checkpoint {
        meta,
        sections: [
            what_changed(items),
            why(items),
            active_issues(items),
            key_decisions(items),
            next_steps(&transcript.items),
        ],
    }
}

fn quote(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= QUOTE_CHARS {
        one_line
    } else {
        let cut: String = one_line.chars().take(QUOTE_CHARS).collect();
        format!("{cut}…")
    }
}

/// The result of each tool call, by call id.
fn results(items: &[(usize, Item)]) -> BTreeMap<&str, (&str, bool, &Value)> {
    items
        .iter()
        .filter_map(|(_, i)| match i {
            Item::ToolResult {
                id,
                text,
                is_error,
                structured,
            } => Some((id.as_str(), (text.as_str(), *is_error, structured))),
            _ => None,
        })
        .collect()
}

fn what_changed(items: &[(usize, Item)]) -> String {
    let results = results(items);
    // File → line ranges, in the order files were first changed.
    let mut order: Vec<String> = Vec::new();
    let mut ranges: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (_, item) in items {
        let Item::ToolUse { id, name, input } = item else {
            continue;
        };
        if !EDIT_TOOLS.contains(&name.as_str()) {
            continue;
        }
        let Some(path) = input["file_path"]
            .as_str()
            .or(input["notebook_path"].as_str())
        else {
            continue;
        };
        let result = results.get(id.as_str());
        if result.is_some_and(|r| r.1) {
            continue; // The edit failed: nothing changed.
        }
        if !ranges.contains_key(path) {
            order.push(path.to_string());
        }
        let spans = ranges.entry(path.to_string()).or_default();
        let patch = result.map(|r| &r.2["structuredPatch"]);
        let mut any = false;
        for hunk in patch.and_then(Value::as_array).into_iter().flatten() {
            let (Some(start), Some(lines)) = (hunk["newStart"].as_i64(), hunk["newLines"].as_i64())
            else {
                continue;
            };
            any = true;
            spans.push(if lines <= 1 {
                format!("line {start}")
            } else {
                format!("lines {start}–{}", start + lines - 1)
            });
        }
        if !any {
            if name == "Write" {
                let n = input["content"].as_str().map_or(0, |c| c.lines().count());
                spans.push(format!("written whole ({n} lines)"));
            } else {
                spans.push(name.to_string());
            }
        }
    }
    order
        .iter()
        .map(|path| {
            let mut spans = ranges[path].clone();
            spans.dedup();
            format!("- {path}: {}", spans.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn why(items: &[(usize, Item)]) -> String {
    let mut out = Vec::new();
    // The user's requests that led to edits: the last prompt before each.
    let mut last_prompt: Option<&str> = None;
    let mut last_text: Option<&str> = None;
    let mut requests: Vec<&str> = Vec::new();
    let mut statements: Vec<&str> = Vec::new();
    for (_, item) in items {
        match item {
            Item::UserPrompt { text } => last_prompt = Some(text),
            Item::AssistantText { text } if !text.trim().is_empty() => last_text = Some(text),
            Item::ToolUse { name, .. } if EDIT_TOOLS.contains(&name.as_str()) => {
                if let Some(p) = last_prompt.take() {
                    requests.push(p);
                }
                if let Some(t) = last_text.take() {
                    statements.push(t);
                }
            }
            _ => {}
        }
    }
    for r in requests.iter().rev().take(STATEMENTS).rev() {
        out.push(format!("- The user asked: \"{}\"", quote(r)));
    }
    for s in statements.iter().rev().take(STATEMENTS).rev() {
        out.push(format!("- Before editing: \"{}\"", quote(s)));
    }
    out.join("\n")
}

/// The command a Bash call ran.
fn command_of(input: &Value) -> Option<&str> {
    input["command"].as_str()
}

fn active_issues(items: &[(usize, Item)]) -> String {
    let results = results(items);
    // Each command's latest outcome, in the order of those outcomes.
    let mut latest: Vec<(&str, &str, bool)> = Vec::new();
    for (_, item) in items {
        let Item::ToolUse { id, name, input } = item else {
            continue;
        };
        if name != "Bash" {
            continue;
        }
        let (Some(command), Some((text, failed, _))) =
            (command_of(input), results.get(id.as_str()))
        else {
            continue;
        };
        latest.retain(|(c, _, _)| *c != command);
        latest.push((command, text, *failed));
    }
    latest
        .iter()
        .rev()
        .filter(|(_, _, failed)| *failed)
        .take(ISSUES)
        .map(|(command, text, _)| {
            let key: Vec<String> = key_lines(text)
                .into_iter()
                .map(|l| format!("  > {}", quote(l)))
                .collect();
            format!("- `{}` failed\n{}", quote(command), key.join("\n"))
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lines of a failure worth quoting: those that name an error, else its
/// last lines.
fn key_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let errors: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| {
            let lower = l.to_lowercase();
            [
                "error",
                "fail",
                "panic",
                "exception",
                "not found",
                "denied",
                "exit code",
            ]
            .iter()
            .any(|w| lower.contains(w))
        })
        .collect();
    let chosen = if errors.is_empty() { &lines } else { &errors };
    chosen.iter().rev().take(KEY_LINES).rev().copied().collect()
}

fn key_decisions(items: &[(usize, Item)]) -> String {
    let mut out = Vec::new();
    let prompts: Vec<&str> = items
        .iter()
        .filter_map(|(_, i)| match i {
            Item::UserPrompt { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    for p in prompts.iter().rev().take(USER_WORDS) {
        out.push(format!("- The user: \"{}\"", quote(p)));
    }
    // The assistant's stated choices: sentences that say what it will do
    // or chose, and why.
    let mut chosen = Vec::new();
    for (_, item) in items.iter().rev() {
        let Item::AssistantText { text } = item else {
            continue;
        };
        for sentence in text.split_inclusive(['.', '\n']) {
            let s = sentence.trim();
            let lower = s.to_lowercase();
            let states_choice = [
                "i'll ",
                "i will ",
                "decided",
                "instead of",
                "rather than",
                "chose ",
                "going with",
                "let's use",
                "the fix is",
                "because ",
            ]
            .iter()
            .any(|w| lower.contains(w));
            if states_choice && s.len() > 20 {
                chosen.push(s.to_string());
            }
            if chosen.len() >= STATEMENTS {
                break;
            }
        }
        if chosen.len() >= STATEMENTS {
            break;
        }
    }
    for c in chosen {
        out.push(format!("- The assistant: \"{}\"", quote(&c)));
    }
    out.join("\n")
}

/// A task as a todo list shows it.
struct Task {
    content: String,
    status: String,
}

fn next_steps(items: &[(usize, Item)]) -> String {
    // The latest TodoWrite list wins; TaskCreate/TaskUpdate build a list of
    // their own (task ids are given in creation order from 1).
    let mut todo: Option<Vec<Task>> = None;
    let mut tasks: Vec<Task> = Vec::new();
    let mut todo_at = 0;
    let mut tasks_at = 0;
    for (n, item) in items.iter().enumerate() {
        let Item::ToolUse { name, input, .. } = &item.1 else {
            continue;
        };
        match name.as_str() {
            "TodoWrite" => {
                todo = Some(
                    input["todos"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|t| Task {
                            content: t["content"].as_str().unwrap_or_default().to_string(),
                            status: t["status"].as_str().unwrap_or("pending").to_string(),
                        })
                        .collect(),
                );
                todo_at = n + 1;
            }
            "TaskCreate" => {
                tasks.push(Task {
                    content: input["subject"]
                        .as_str()
                        .or(input["description"].as_str())
                        .unwrap_or_default()
                        .to_string(),
                    status: "pending".into(),
                });
                tasks_at = n + 1;
            }
            "TaskUpdate" => {
                let id = input["taskId"]
                    .as_str()
                    .and_then(|s| s.parse::<usize>().ok())
                    .or(input["taskId"].as_u64().map(|v| v as usize));
                if let (Some(id), Some(status)) = (id, input["status"].as_str())
                    && let Some(t) = tasks.get_mut(id.wrapping_sub(1))
                {
                    t.status = status.to_string();
                    tasks_at = n + 1;
                }
            }
            _ => {}
        }
    }
    let list = match todo {
        Some(list) if todo_at >= tasks_at => list,
        _ => tasks,
    };
    let rank = |s: &str| match s {
        "pending" => 0,
        "in_progress" => 1,
        _ => 2,
    };
    let mut list = list;
    list.sort_by_key(|t| rank(&t.status));
    list.iter()
        .filter(|t| !t.content.is_empty())
        .map(|t| {
            let mark = if t.status == "completed" { "x" } else { " " };
            format!("- [{mark}] {} ({})", t.content, t.status)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ghost_core::checkpoint::{render, section, verify};
    use serde_json::json;

    fn meta() -> CheckpointMeta {
        CheckpointMeta {
            created: "2026-11-23T10:00:00+00:00".into(),
            trigger: "manual".into(),
            project: "/p".into(),
            session: "s".into(),
            iteration: 1,
        }
    }

    fn tool(id: &str, name: &str, input: Value) -> (usize, Item) {
        (
            0,
            Item::ToolUse {
                id: id.into(),
                name: name.into(),
                input,
            },
        )
    }

    fn result(id: &str, text: &str, is_error: bool, structured: Value) -> (usize, Item) {
        (
            0,
            Item::ToolResult {
                id: id.into(),
                text: text.into(),
                is_error,
                structured,
            },
        )
    }

    #[test]
    fn sections_come_from_edits_failures_words_and_the_todo_list() {
        let items = vec![
            (
                0,
                Item::UserPrompt {
                    text: "Make the parser accept tabs. Don't touch the lexer.".into(),
                },
            ),
            (
                0,
                Item::AssistantText {
                    text: "I'll change parse_line because it splits on spaces only.".into(),
                },
            ),
            tool(
                "e1",
                "Edit",
                json!({"file_path": "/p/src/parse.rs", "old_string": "a", "new_string": "b"}),
            ),
            result(
                "e1",
                "ok",
                false,
                json!({"structuredPatch": [{"oldStart": 10, "oldLines": 3, "newStart": 10, "newLines": 4}]}),
            ),
            tool(
                "w1",
                "Write",
                json!({"file_path": "/p/tests/tabs.rs", "content": "a\nb\nc\n"}),
            ),
            result("w1", "created", false, json!({"type": "create"})),
            tool("e2", "Edit", json!({"file_path": "/p/src/lex.rs"})),
            result("e2", "String to replace not found", true, Value::Null),
            tool("b1", "Bash", json!({"command": "cargo test"})),
            result(
                "b1",
                "Exit code 101\nrunning 3 tests\ntest tabs ... FAILED\nerror: test failed, to rerun pass `--test tabs`",
                true,
                Value::Null,
            ),
            tool("b2", "Bash", json!({"command": "cargo fmt --check"})),
            result("b2", "Exit code 1\nDiff in src/parse.rs", true, Value::Null),
            tool("b3", "Bash", json!({"command": "cargo fmt --check"})),
            result("b3", "", false, Value::Null),
            tool(
                "t1",
                "TodoWrite",
                json!({"todos": [
                {"content": "Accept tabs in the parser", "status": "completed", "activeForm": "x"},
                {"content": "Fix the failing tabs test", "status": "in_progress", "activeForm": "x"},
                {"content": "Update the README", "status": "pending", "activeForm": "x"}]}),
            ),
        ];
        let transcript = Transcript {
            items,
            ..Transcript::default()
        };
        let text = render(&build(&transcript, meta()));
        assert!(verify(&text).is_ok(), "{text}");
        assert_eq!(
            section(&text, "What changed"),
            "- /p/src/parse.rs: lines 10–13\n- /p/tests/tabs.rs: written whole (3 lines)"
        );
        let why = section(&text, "Why");
        assert!(
            why.contains("Make the parser accept tabs") && why.contains("I'll change parse_line"),
            "{why}"
        );
        let issues = section(&text, "Active issues");
        assert!(
            issues.contains("`cargo test` failed") && issues.contains("test tabs ... FAILED"),
            "{issues}"
        );
        assert!(
            !issues.contains("cargo fmt"),
            "fixed by a later run: {issues}"
        );
        let decisions = section(&text, "Key decisions");
        assert!(decisions.contains("Don't touch the lexer"), "{decisions}");
        assert!(
            decisions.contains("because it splits on spaces"),
            "{decisions}"
        );
        assert_eq!(
            section(&text, "Next steps"),
            "- [ ] Update the README (pending)\n- [ ] Fix the failing tabs test (in_progress)\n- [x] Accept tabs in the parser (completed)"
        );
    }

    #[test]
    fn a_real_transcript_gives_a_verified_checkpoint() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpus/transcripts/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl");
        let transcript = crate::transcript::read(&path).unwrap();
        let text = render(&build(&transcript, meta()));
        assert!(verify(&text).is_ok());
        assert!(
            section(&text, "Key decisions").contains("The user:"),
            "{text}"
        );
    }
}
