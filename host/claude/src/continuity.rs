//! Continuity across compaction, Claude Code's side: the checkpoint written
//! at PreCompact (and the session's turns indexed for `memory_search`), and
//! what a session starts with at SessionStart: the latest verified
//! checkpoint, the head of MEMORY.md and the last two days' logs, most
//! important first, within [`SESSION_START_BUDGET_TOKENS`], with how to get
//! the rest.

use std::path::Path;

use anyhow::{Context, Result};
use chrono::{Duration, Local};
use ghost_core::checkpoint::{self, CheckpointMeta, IndexEntry};
use ghost_core::memory::ProjectMemory;
use ghost_core::tokens;
use ghost_store::{MemoryChunk, Store};

use crate::hooks::HookContext;
use crate::policy::SESSION_START_BUDGET_TOKENS;
use crate::transcript::{self, Item, Transcript};

/// A fresh session gets the project's checkpoint only when it is this
/// recent (24 hours).
pub const STARTUP_RESTORE_WITHIN_MS: i64 = 24 * 3600 * 1000;

/// Lines of MEMORY.md a session starts with, at most.
const MEMORY_HEAD_LINES: usize = 40;

/// The memory folder of `project` under the configured projects directory.
pub fn project_memory(ctx: &HookContext, project: &str) -> ProjectMemory {
    ProjectMemory::new(&ctx.config.projects_dir(&ctx.store_path), project)
}

/// Writes the verified checkpoint of the session whose transcript is at
/// `transcript_path`, and indexes its turns; returns the index entry and
/// the checkpoint's text.
pub fn write_checkpoint(
    ctx: &HookContext,
    store: &Store,
    session: &str,
    transcript_path: &Path,
    cwd: Option<&str>,
    trigger: &str,
) -> Result<(IndexEntry, String)> {
    let transcript = transcript::read(transcript_path)?;
    let project = cwd
        .or(transcript.cwd.as_deref())
        .context("neither the payload nor the transcript names the project")?;
    let memory = project_memory(ctx, project);
    let now = Local::now();
    let meta = CheckpointMeta {
        created: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
        trigger: trigger.to_string(),
        project: project.to_string(),
        session: session.to_string(),
        iteration: checkpoint::count_for_session(&memory, session) + 1,
    };
    let cp = crate::checkpoint::build(&transcript, meta);
    let written =
        checkpoint::write_verified(&memory, &cp, now.timestamp_millis(), store.redactor())?;
    if let Err(e) = memory.index_session(
        store,
        transcript_path,
        transcript.bytes,
        &turn_chunks(&transcript),
    ) {
        log::warn!("pre-compact: indexing the session's turns: {e:#}");
    }
    Ok(written)
}

/// Indexes the turns of the session whose transcript is at `path` for
/// `memory_search` (at SessionEnd; PreCompact does it with the checkpoint).
pub fn index_turns(ctx: &HookContext, store: &Store, path: &Path, cwd: Option<&str>) -> Result<()> {
    let transcript = transcript::read(path)?;
    let project = cwd
        .or(transcript.cwd.as_deref())
        .context("neither the payload nor the transcript names the project")?;
    project_memory(ctx, project).index_session(
        store,
        path,
        transcript.bytes,
        &turn_chunks(&transcript),
    )?;
    Ok(())
}

/// A session's turns as search chunks: each user prompt with the
/// assistant's text that answered it, by transcript line.
pub fn turn_chunks(t: &Transcript) -> Vec<MemoryChunk> {
    let mut chunks: Vec<MemoryChunk> = Vec::new();
    for (line, item) in &t.items {
        let line = *line as i64;
        match item {
            Item::UserPrompt { text } => chunks.push(MemoryChunk {
                start_line: line,
                end_line: line,
                text: format!("User: {text}"),
            }),
            Item::AssistantText { text } if !text.trim().is_empty() => {
                if let Some(c) = chunks.last_mut() {
                    c.end_line = line;
                    c.text.push_str("\nAssistant: ");
                    c.text.push_str(text);
                }
            }
            _ => {}
        }
    }
    chunks
}

/// Pieces of a session's starting context, most important first.
struct Piece {
    title: String,
    body: String,
    /// Where the whole of it is.
    source: String,
}

/// The context a session starts with in `project` (`source`: `startup`,
/// `resume`, `compact`), within `budget_tokens`; `None` when there is
/// nothing to restore.
pub fn restore(
    ctx: &HookContext,
    project: &str,
    source: &str,
    budget_tokens: usize,
) -> Option<String> {
    let memory = project_memory(ctx, project);
    let now = Local::now();
    let since = if source == "startup" {
        now.timestamp_millis() - STARTUP_RESTORE_WITHIN_MS
    } else {
        0
    };
    let mut pieces = Vec::new();
    if let Some((entry, text)) = checkpoint::latest_verified(&memory, since) {
        for title in [
            "Next steps",
            "Active issues",
            "Key decisions",
            "What changed",
            "Why",
        ] {
            let body = checkpoint::section(&text, title);
            if !body.is_empty() && body != "none" {
                pieces.push(Piece {
                    title: format!(
                        "{title} (checkpoint {}, {})",
                        entry.meta.iteration, entry.meta.created
                    ),
                    body: body.to_string(),
                    source: entry.path.clone(),
                });
            }
        }
    }
    let memory_file = memory.memory_file();
    if let Ok(text) = std::fs::read_to_string(&memory_file) {
        let head: Vec<&str> = text
            .lines()
            .filter(|l| l.trim_start().starts_with("- ") || l.starts_with("  "))
            .take(MEMORY_HEAD_LINES)
            .collect();
        if !head.is_empty() {
            pieces.push(Piece {
                title: "Memory (MEMORY.md)".into(),
                body: head.join("\n"),
                source: memory_file.display().to_string(),
            });
        }
    }
    for (label, date) in [
        ("Today's log", now.date_naive()),
        ("Yesterday's log", now.date_naive() - Duration::days(1)),
    ] {
        let path = memory.daily_log(date);
        if let Ok(text) = std::fs::read_to_string(&path) {
            let body: Vec<&str> = text
                .lines()
                .filter(|l| !l.starts_with("# ") && !l.trim().is_empty())
                .collect();
            if !body.is_empty() {
                // The newest notes matter most: keep the end of the log.
                pieces.push(Piece {
                    title: format!("{label} ({})", date.format("%Y-%m-%d")),
                    body: body.join("\n"),
                    source: path.display().to_string(),
                });
            }
        }
    }
    if pieces.is_empty() {
        return None;
    }
    Some(fit(pieces, budget_tokens))
}

/// The pieces within `budget_tokens`: whole while they fit, then cut at a
/// line; what did not fit is named with the call that reads it.
fn fit(pieces: Vec<Piece>, budget_tokens: usize) -> String {
    let intro = "ghost restored this project's context (saved before the last compaction and \
                 in its memory files):\n";
    let mut out = String::from(intro);
    let mut rest: Vec<String> = Vec::new();
    // Room kept for the closing lines.
    let reserve = 120;
    for p in pieces {
        let heading = format!("\n## {}\n", p.title);
        let used = tokens::estimate(&out) + reserve;
        if used + tokens::estimate(&heading) + 10 > budget_tokens {
            rest.push(p.source);
            continue;
        }
        out.push_str(&heading);
        let mut cut = false;
        for line in p.body.lines() {
            if tokens::estimate(&out) + tokens::estimate(line) + reserve > budget_tokens {
                cut = true;
                break;
            }
            out.push_str(line);
            out.push('\n');
        }
        if cut {
            out.push_str("[… more in the file below]\n");
            rest.push(p.source);
        }
    }
    rest.dedup();
    if !rest.is_empty() {
        out.push_str("\nThe rest: memory_get(path) (MCP server ghost) on ");
        out.push_str(&rest.join(", "));
        out.push('\n');
    }
    out.push_str("memory_search(query) searches memories, daily logs and past sessions.\n");
    out
}

/// The session-start budget left after the restore took its share.
pub fn remaining_budget(restored: &str) -> usize {
    SESSION_START_BUDGET_TOKENS.saturating_sub(tokens::estimate(restored))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_fit_the_budget_in_order_and_name_the_rest() {
        let piece = |title: &str, lines: usize, source: &str| Piece {
            title: title.into(),
            body: (0..lines)
                .map(|i| format!("- line {i} of {title}"))
                .collect::<Vec<_>>()
                .join("\n"),
            source: source.into(),
        };
        let text = fit(
            vec![
                piece("Next steps", 3, "/cp.md"),
                piece("Memory", 400, "/MEMORY.md"),
                piece("Log", 5, "/log.md"),
            ],
            500,
        );
        assert!(
            tokens::estimate(&text) <= 500,
            "{}",
            tokens::estimate(&text)
        );
        assert!(text.contains("- line 2 of Next steps"));
        assert!(text.find("Next steps").unwrap() < text.find("## Memory").unwrap());
        assert!(
            text.contains("memory_get(path)")
                && text.contains("/MEMORY.md")
                && text.contains("/log.md"),
            "{text}"
        );
    }
}
