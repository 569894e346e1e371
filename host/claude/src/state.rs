//! What ghost tells Claude Code about a session: the status line, the state
//! block the compaction prompt gets, and the context a session starts with
//! after compaction or on resume.

use anyhow::Result;
use ghost_core::ingest::short_count;
use ghost_store::now_ms;
use serde_json::json;

use crate::continuity;
use crate::hooks::{HookContext, open_store};
use crate::payload::{PreCompact, SessionStart, StatusLine};
use crate::policy::{PRE_COMPACT_ITEMS_BYTES, SESSION_START_BUDGET_TOKENS, TOP_ITEMS};

/// The statusLine command: records the context reading, prints one line.
pub fn status_line(payload: &StatusLine, ctx: &HookContext) -> Result<String> {
    let store = open_store(ctx)?;
    let session = payload.session_id.as_str();
    let window = &payload.context_window;
    if let Some(used) = window.used_tokens() {
        store.session_context().record_reading(
            session,
            used,
            window.context_window_size,
            "status_line",
            now_ms(),
        )?;
    }
    let p = store.pressure(Some(session), now_ms())?;
    let model = payload
        .model
        .display_name
        .as_deref()
        .or(payload.model.id.as_deref())
        .unwrap_or("claude");
    let gateway = p
        .gateway
        .as_ref()
        .map(|g| {
            format!(
                " · gateway −{}",
                short_count((g.bytes_before - g.bytes_after) / 4)
            )
        })
        .unwrap_or_default();
    Ok(format!(
        "{model} · ctx {:.0}% · ghost saved {} tokens{gateway}",
        p.context.percent,
        short_count(p.original_tokens - p.summary_tokens)
    ))
}

/// The items ghost holds for `session`, one line each, within `budget_bytes`;
/// and how many there are.
fn top_lines(ctx: &HookContext, session: &str, budget_bytes: usize) -> Result<(String, usize)> {
    let store = open_store(ctx)?;
    let mut out = String::new();
    let mut listed = 0;
    for e in store.top(session, TOP_ITEMS)? {
        let line = format!(
            "- id={} · {} · {} · {}→{} tokens\n",
            e.id,
            e.class,
            e.source_label(),
            short_count(e.original_tokens),
            short_count(e.summary_tokens)
        );
        if out.len() + line.len() > budget_bytes {
            break;
        }
        out.push_str(&line);
        listed += 1;
    }
    Ok((out, listed))
}

/// PreCompact: plain text, which Claude Code appends to the compaction
/// prompt: the session's verified checkpoint (written before anything
/// else, from the transcript), then what ghost holds. Never blocks
/// compaction: a checkpoint that cannot be written or verified is left out
/// and logged.
pub fn pre_compact(payload: &PreCompact, ctx: &HookContext) -> Result<String> {
    let session = payload.session_id.as_str();
    let store = open_store(ctx)?;
    let mut out = String::new();
    if let Some(path) = payload.transcript_path.as_deref() {
        let trigger = payload.trigger.as_deref().unwrap_or("unknown");
        match continuity::write_checkpoint(
            ctx,
            &store,
            session,
            std::path::Path::new(path),
            payload.cwd.as_deref(),
            trigger,
        ) {
            Ok((entry, text)) => {
                let body = ghost_core::checkpoint::body(&text);
                out.push_str(&format!(
                    "ghost saved a verified checkpoint of this session ({}). Keep its Next steps \
                     and Active issues in the summary; it comes back after compaction.\n{}\n",
                    entry.path,
                    body.trim()
                ));
            }
            Err(e) => log::warn!("pre-compact: no checkpoint: {e:#}"),
        }
    }
    // What the agent saw so far leaves its context now.
    store.session_context().mark_compaction(session, now_ms())?;
    let p = store.pressure(Some(session), now_ms())?;
    if p.entries > 0 {
        let (items, _) = top_lines(ctx, session, PRE_COMPACT_ITEMS_BYTES)?;
        out.push_str(&format!(
            "ghost holds the full originals of this session's tool results: {} entries, {} tokens \
             shown as {}. Keep in the summary the ids the next steps need; these matter most:\n{items}\
             After compaction use recall(query) to search them and get(id) for the full text \
             (MCP server ghost), instead of re-running tools.\n",
            p.entries,
            short_count(p.original_tokens),
            short_count(p.summary_tokens),
        ));
    }
    Ok(store.redactor().redact_owned(out))
}

/// SessionStart: after compaction, on resume, and at a fresh start in a
/// project with a recent checkpoint: the restored context (checkpoint,
/// memories, logs) and what ghost holds, under
/// [`SESSION_START_BUDGET_TOKENS`].
pub fn session_start(payload: &SessionStart, ctx: &HookContext) -> Result<String> {
    let session = payload.session_id.as_str();
    let source = payload.source.as_str();
    if source == "resume"
        && let Some(tokens) = payload.context_tokens
    {
        open_store(ctx)?.session_context().record_reading(
            session,
            tokens,
            None,
            "session_start",
            now_ms(),
        )?;
    }
    if source == "compact" {
        open_store(ctx)?
            .session_context()
            .mark_compaction(session, now_ms())?;
    }
    if source == "startup" {
        // A new session: expire what is past its TTL (at most hourly; a
        // failure only delays it).
        if let Err(e) = open_store(ctx).and_then(|mut s| {
            Ok(s.maintain_if_due(now_ms(), ghost_core::service::MAINTENANCE_EVERY)?)
        }) {
            log::warn!("session-start: store maintenance failed: {e:#}");
        }
    }
    if !matches!(source, "compact" | "resume" | "startup") {
        return Ok(String::new());
    }
    let project = payload.cwd.clone().or_else(|| {
        payload
            .transcript_path
            .as_deref()
            .and_then(|p| crate::transcript::read(std::path::Path::new(p)).ok())
            .and_then(|t| t.cwd)
    });
    let restored = project
        .as_deref()
        .and_then(|p| continuity::restore(ctx, p, source, SESSION_START_BUDGET_TOKENS - 500))
        .unwrap_or_default();
    let mut context = restored.clone();
    if source != "startup" {
        let budget = continuity::remaining_budget(&restored).saturating_sub(100) * 4;
        let (items, listed) = top_lines(ctx, session, budget.saturating_sub(400))?;
        if listed > 0 {
            context.push_str(&format!(
                "ghost keeps the full text of earlier tool results in this session. Most important:\n{items}\
                 Use recall(query) to search them and get(id) (optionally start_line/end_line) for the \
                 full text, instead of re-running tools."
            ));
        }
    }
    if context.is_empty() {
        return Ok(String::new());
    }
    // Memory files are people's to edit: what ghost adds holds no secret.
    let context = ctx.config.redactor(&ctx.store_path)?.redact_owned(context);
    Ok(json!({
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": context,
        }
    })
    .to_string())
}
