//! `ghost bench replay TRANSCRIPT.jsonl…`: real Claude Code sessions through
//! the PostToolUse hook.
//!
//! Each tool result of a transcript becomes the PostToolUse payload Claude
//! Code would have sent (`toolUseResult` as `tool_response`, with the
//! matching `tool_use`'s name and input) and goes through the hook itself,
//! on a scratch store, when the matcher `ghost install` writes sends that
//! tool to the hook (a result the installed hook would never see counts as
//! unchanged). Reported per tool: o200k tokens of what the model saw
//! without ghost (the transcript's own tool result) and with ghost (the
//! replacement, rendered the way Claude Code renders it). And the
//! edit-visible rate: of the Edits that follow a Read of the same file (since
//! the last compaction), how many `old_string`s the model could still see in
//! the Reads of that file it had in its context. The main agent's context
//! readings (each reply's token usage) reach ghost as the statusLine command
//! would give them, and compactions as PreCompact.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::{Value, json};

use crate::ScratchStore;
use ghost_claude::hooks::{self, HookContext, HookEvent};
use ghost_claude::response::{self, content_text};
use ghost_claude::tools;
use ghost_core::config::Config;
use ghost_core::pipeline::Pipeline;

/// Totals of one tool.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ToolTotals {
    /// Results.
    pub results: usize,
    /// Results ghost replaced.
    pub replaced: usize,
    /// Tokens the model saw without ghost.
    pub tokens_without: usize,
    /// Tokens it would see with ghost.
    pub tokens_with: usize,
}

/// Edits after a Read of the same file.
#[derive(Debug, Clone, Default, Serialize)]
pub struct EditVisibility {
    /// Edits whose file had been Read earlier in the session.
    pub edits_after_read: usize,
    /// Of those, `old_string` visible in the Read as the model saw it without ghost.
    pub visible_without: usize,
    /// … and with ghost.
    pub visible_with: usize,
}

/// The whole report.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ReplayReport {
    /// Transcripts replayed.
    pub transcripts: usize,
    /// Per tool.
    pub tools: BTreeMap<String, ToolTotals>,
    /// All tools.
    pub total: ToolTotals,
    /// All tools, per session.
    pub sessions: BTreeMap<String, ToolTotals>,
    /// The edit-visible rate's counts.
    pub edits: EditVisibility,
    /// Every tool result, in transcript order (in `--json` only).
    pub results: Vec<ResultRow>,
}

/// One tool result of a replayed transcript.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ResultRow {
    /// The session.
    pub session: String,
    /// The tool.
    pub tool: String,
    /// What it was called on: the file path, the command, the pattern.
    pub subject: String,
    /// Whether the call failed (PostToolUseFailure: nothing to replace).
    pub failed: bool,
    /// Tokens the model saw without ghost.
    pub tokens_without: usize,
    /// Tokens it would see with ghost.
    pub tokens_with: usize,
}

/// The text the model sees for a tool result block.
fn block_text(content: &Value) -> String {
    content_text(content).unwrap_or_default()
}

/// Lines of a Read as the model saw them, without any line-number prefix
/// (Claude Code's `N\t`, then ghost's `N→`).
fn unnumbered(text: &str) -> String {
    let strip = |l: &str, sep: char| -> Option<String> {
        let t = l.trim_start();
        let digits = t.chars().take_while(char::is_ascii_digit).count();
        (digits > 0)
            .then(|| t[digits..].strip_prefix(sep).map(str::to_string))
            .flatten()
    };
    text.lines()
        .map(|l| {
            let l = strip(l, '\t').unwrap_or_else(|| l.to_string());
            strip(&l, '→').unwrap_or(l)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Replays `files` through the hook.
pub fn run(files: &[PathBuf], pipeline: &dyn Fn() -> Result<Pipeline>) -> Result<ReplayReport> {
    let scratch = ScratchStore::new("bench-replay");
    let config = Config::default();
    let ctx = HookContext {
        store_path: scratch.path().to_path_buf(),
        config: &config,
        pipeline,
    };
    let mut report = ReplayReport::default();
    for file in files {
        replay_one(file, &ctx, &mut report)
            .with_context(|| format!("replaying {}", file.display()))?;
        report.transcripts += 1;
    }
    Ok(report)
}

fn replay_one(file: &Path, ctx: &HookContext, report: &mut ReplayReport) -> Result<()> {
    let text = std::fs::read_to_string(file)?;
    let fallback_session = file.file_stem().map(|s| s.to_string_lossy().into_owned());
    let mut calls: HashMap<String, (String, Value)> = HashMap::new();
    // (session, file path) → every Read of it since the last compaction, as
    // seen without and with ghost: what the model has of the file.
    let mut reads: HashMap<(String, String), (String, String)> = HashMap::new();
    let lines: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let window = context_window(&lines);
    for v in &lines {
        let session = v["sessionId"]
            .as_str()
            .map(str::to_string)
            .or(fallback_session.clone())
            .unwrap_or_default();
        let agent = v["agentId"].as_str().unwrap_or_default();
        if v["subtype"] == "compact_boundary" {
            // The context is replaced by a summary: ghost is told, as
            // Claude Code's PreCompact hook would.
            let payload = json!({"session_id": session, "hook_event_name": "PreCompact",
                "trigger": "auto", "custom_instructions": null});
            hooks::run(HookEvent::PreCompact, payload.to_string().as_bytes(), ctx);
            reads.retain(|(s, _), _| *s != session);
            continue;
        }
        if let Some(reading) = status_line_reading(&session, v, window) {
            // Claude Code runs the statusLine command after each of the main
            // agent's replies; ghost's Read policy follows that reading.
            hooks::run(HookEvent::StatusLine, reading.to_string().as_bytes(), ctx);
        }
        for block in v["message"]["content"].as_array().into_iter().flatten() {
            match block["type"].as_str() {
                Some("tool_use") => {
                    let (Some(id), Some(name)) = (block["id"].as_str(), block["name"].as_str())
                    else {
                        continue;
                    };
                    calls.insert(id.to_string(), (name.to_string(), block["input"].clone()));
                    if name == "Edit" {
                        edit_visibility(&session, &block["input"], &reads, &mut report.edits);
                    }
                }
                Some("tool_result") => {
                    let Some(id) = block["tool_use_id"].as_str() else {
                        continue;
                    };
                    let Some((tool, input)) = calls.get(id).cloned() else {
                        continue;
                    };
                    let without = block_text(&block["content"]);
                    let persisted = PersistedOutput::emulate(&tool, &v["toolUseResult"], &without)?;
                    let response = persisted
                        .as_ref()
                        .map_or(&v["toolUseResult"], |p| &p.response);
                    let with = if tools::hook_sees(&tool)
                        && (response.is_object() || response.is_array())
                    {
                        let payload = json!({
                            "session_id": session, "hook_event_name": "PostToolUse",
                            "tool_name": tool, "tool_input": input, "tool_response": response,
                            "tool_use_id": id, "agent_id": agent,
                        });
                        let out =
                            hooks::run(HookEvent::PostToolUse, payload.to_string().as_bytes(), ctx);
                        match serde_json::from_str::<Value>(&out) {
                            Ok(a) => Some(response::model_text(
                                &tool,
                                response,
                                &without,
                                &a["hookSpecificOutput"]["updatedToolOutput"],
                            )),
                            Err(_) => None,
                        }
                    } else {
                        None
                    };
                    let t = report.tools.entry(tool.clone()).or_default();
                    let n_without = ghost_core::tokens::count(&without);
                    let n_with = with.as_deref().map_or(n_without, ghost_core::tokens::count);
                    report.results.push(ResultRow {
                        session: session.clone(),
                        tool: tool.clone(),
                        subject: subject(&input),
                        failed: block["is_error"].as_bool().unwrap_or(false),
                        tokens_without: n_without,
                        tokens_with: n_with,
                    });
                    let per_session = report.sessions.entry(session.clone()).or_default();
                    for t in [&mut *t, &mut report.total, per_session] {
                        t.results += 1;
                        t.replaced += usize::from(with.is_some());
                        t.tokens_without += n_without;
                        t.tokens_with += n_with;
                    }
                    if tool == "Read"
                        && let Some(path) = input["file_path"].as_str()
                    {
                        let seen = with.unwrap_or_else(|| without.clone());
                        let views = reads
                            .entry((session.clone(), path.to_string()))
                            .or_default();
                        views.0.push_str(&unnumbered(&without));
                        views.0.push('\n');
                        views.1.push_str(&unnumbered(&seen));
                        views.1.push('\n');
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Claude Code cuts a Bash output over [`BASH_INLINE_CHARS`] characters,
/// saves the whole of it to a file and shows the model a preview
/// (`<persisted-output>`); the hook then receives the cut stdout and the
/// file's path. Older transcripts keep the whole stdout in `toolUseResult`:
/// this rebuilds the payload the hook gets, with a scratch file that is
/// removed when dropped.
struct PersistedOutput {
    /// The `tool_response` as the hook receives it.
    response: Value,
    file: PathBuf,
}

/// Characters of a Bash output Claude Code shows inline (and passes to the hook).
const BASH_INLINE_CHARS: usize = 30_000;

impl PersistedOutput {
    fn emulate(tool: &str, response: &Value, seen: &str) -> Result<Option<Self>> {
        let Some(stdout) = response["stdout"].as_str() else {
            return Ok(None);
        };
        if tool != "Bash"
            || !seen.starts_with("<persisted-output>")
            || response.get("persistedOutputPath").is_some()
            || stdout.chars().count() <= BASH_INLINE_CHARS
        {
            return Ok(None);
        }
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let file = std::env::temp_dir().join(format!(
            "ghost-replay-persisted-{}-{n}.txt",
            std::process::id()
        ));
        std::fs::write(&file, stdout).with_context(|| format!("writing {}", file.display()))?;
        let mut response = response.clone();
        let cut: String = stdout.chars().take(BASH_INLINE_CHARS).collect();
        response["stdout"] = json!(cut);
        response["persistedOutputPath"] = json!(file.to_string_lossy());
        response["persistedOutputSize"] = json!(stdout.len());
        Ok(Some(Self { response, file }))
    }
}

impl Drop for PersistedOutput {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.file);
    }
}

/// The main agent's reply `line`'s usage: the tokens in its context.
fn reply_usage(line: &Value) -> Option<(&Value, i64)> {
    let usage = &line["message"]["usage"];
    let main_agent = line["agentId"].is_null() && line["isSidechain"] != json!(true);
    (line["type"] == "assistant" && usage.is_object() && main_agent).then(|| {
        let parts = [
            "input_tokens",
            "cache_creation_input_tokens",
            "cache_read_input_tokens",
        ];
        (usage, parts.iter().filter_map(|p| usage[*p].as_i64()).sum())
    })
}

/// The context window of a transcript's model, which the transcript does
/// not say: 200,000 tokens, or 1,000,000 when a reply used more than that.
fn context_window(lines: &[Value]) -> i64 {
    let most = lines
        .iter()
        .filter_map(|l| reply_usage(l).map(|(_, used)| used))
        .max()
        .unwrap_or(0);
    if most > 200_000 { 1_000_000 } else { 200_000 }
}

/// The statusLine input Claude Code would give after the main agent's reply
/// `line`, from the usage it reports; `None` for other lines.
fn status_line_reading(session: &str, line: &Value, window: i64) -> Option<Value> {
    reply_usage(line).map(|(usage, _)| {
        json!({
            "session_id": session, "hook_event_name": "Status",
            "model": {"id": line["message"]["model"]},
            "context_window": {"context_window_size": window, "current_usage": usage},
        })
    })
}

/// What a tool was called on, for the per-result rows.
fn subject(input: &Value) -> String {
    let keys = [
        "file_path",
        "command",
        "pattern",
        "url",
        "query",
        "description",
    ];
    let what: String = keys
        .iter()
        .find_map(|k| input[*k].as_str())
        .unwrap_or_default()
        .chars()
        .take(120)
        .collect();
    match (&input["offset"], &input["limit"]) {
        (Value::Null, Value::Null) => what,
        (offset, limit) => format!("{what} offset={offset} limit={limit}"),
    }
}

fn edit_visibility(
    session: &str,
    input: &Value,
    reads: &HashMap<(String, String), (String, String)>,
    out: &mut EditVisibility,
) {
    let (Some(path), Some(old)) = (input["file_path"].as_str(), input["old_string"].as_str())
    else {
        return;
    };
    let Some((without, with)) = reads.get(&(session.to_string(), path.to_string())) else {
        return;
    };
    out.edits_after_read += 1;
    out.visible_without += usize::from(without.contains(old));
    out.visible_with += usize::from(with.contains(old));
}

/// The report as a table.
pub fn render(r: &ReplayReport) -> String {
    let mut out = format!(
        "{} transcripts through `ghost hook post-tool-use` (o200k_base tokens the model sees)\n\
         {:<28} {:>7} {:>8} {:>10} {:>10} {:>6}\n",
        r.transcripts, "tool", "results", "replaced", "without", "with", "ratio"
    );
    let row = |name: &str, t: &ToolTotals| {
        format!(
            "{:<28} {:>7} {:>8} {:>10} {:>10} {:>6.3}\n",
            name,
            t.results,
            t.replaced,
            t.tokens_without,
            t.tokens_with,
            t.tokens_with as f64 / t.tokens_without.max(1) as f64
        )
    };
    for (tool, t) in &r.tools {
        out.push_str(&row(tool, t));
    }
    out.push_str(&row("all", &r.total));
    out.push_str("per session\n");
    for (session, t) in &r.sessions {
        out.push_str(&row(session, t));
    }
    let e = &r.edits;
    let pct = |n: usize| n as f64 * 100.0 / e.edits_after_read.max(1) as f64;
    out.push_str(&format!(
        "edit-visible: {} Edits after a Read of the same file; old_string visible in the Reads \
         of it in context: {} without ghost ({:.1}%), {} with ghost ({:.1}%)\n",
        e.edits_after_read,
        e.visible_without,
        pct(e.visible_without),
        e.visible_with,
        pct(e.visible_with)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_numbers_of_both_kinds_are_stripped() {
        assert_eq!(unnumbered("1\t    40→fn a() {\n2\t}"), "fn a() {\n}");
        assert_eq!(unnumbered("12\tplain"), "plain");
    }
}
