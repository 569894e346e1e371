//! The memory flush: when the context crosses the configured share of its
//! window, the next PreToolUse, PostToolUse or UserPromptSubmit hook adds a
//! note asking
//! the agent to save what it knows with `memory_save` before compaction
//! takes it — once per compaction cycle (also under parallel tool calls:
//! the store hands the nudge to exactly one caller), never on a reading
//! older than [`FLUSH_READING_MAX_AGE_SECS`], and again after the next
//! compaction.
//!
//! Claude Code writes a reply to the transcript after its tool calls'
//! PreToolUse hooks ran (seen with 2.1.329, timing-dependent): the reply
//! that crosses the line is often first seen by the PostToolUse hook of the
//! call it made, which is why that hook gives the nudge too.
//!
//! The context reading comes from the transcript's tail
//! ([`crate::transcript::tail_usage`]), recorded in the store beside the
//! status line's and the gateway's; the newest one decides. With nothing to
//! say, the PreToolUse hook never opens the store: it reads the tail, sees
//! the context is below the line, and answers nothing.

use anyhow::Result;
use ghost_store::{ContextReading, Store, now_ms};

use crate::hooks::{HookContext, open_store};
use crate::policy::FLUSH_READING_MAX_AGE_SECS;
use crate::transcript::{self, TailUsage};

/// What the agent is told when the context is nearly full.
pub fn nudge_text(reading: &ContextReading) -> String {
    format!(
        "ghost: the context is {:.0}% full ({} tokens of {}, by the {}); compaction will come soon \
         and drop detail. Before continuing, save what must survive with ghost's memory_save \
         (MCP server ghost), one fact per call: decisions and their reasons, the user's \
         preferences and corrections, debugging insights, project facts (target \"log\" for \
         what happened today). Then carry on with the task.",
        reading.percent, reading.used_tokens, reading.window_tokens, reading.source
    )
}

/// Records the transcript's latest usage for `session` in `store` (a
/// figure from before the session's last compaction is ignored), and where
/// the transcript is (for `ghost context`).
pub fn record_transcript_reading(
    store: &Store,
    session: &str,
    transcript_path: &str,
    usage: &TailUsage,
    now: i64,
) -> Result<()> {
    let at = usage.at_ms.unwrap_or(now).min(now);
    let sessions = store.session_context();
    sessions.record_transcript(session, transcript_path, now)?;
    if sessions.compacted_at(session)?.is_some_and(|c| at < c) {
        return Ok(());
    }
    sessions.record_reading(
        session,
        usage.used_tokens,
        Some(usage.window_tokens),
        "transcript",
        at,
    )?;
    Ok(())
}

/// How much a caller wants from [`nudge`] besides the nudge itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    /// Only the nudge: below the line, the store is not even opened (the
    /// PreToolUse hook, on every tool call).
    WhenDue,
    /// Record the transcript's reading whatever it says (PostToolUse: the
    /// replacement policy reads it next).
    Always,
}

/// Reads the transcript's tail once, records the reading when `record`
/// asks or the context is past the line, and returns the nudge for
/// `session` when this call is the one that should give it.
pub fn nudge(
    session: &str,
    transcript_path: Option<&str>,
    ctx: &HookContext,
    record: Record,
) -> Result<Option<String>> {
    let share = ctx.config.flush_share();
    let usage = transcript_path.and_then(|p| transcript::tail_usage(std::path::Path::new(p)));
    // The newest figure there is says the context is below the line.
    // (Without a transcript, the store's reading decides.)
    let below = usage
        .as_ref()
        .is_some_and(|u| (u.used_tokens as f64) < share * u.window_tokens as f64);
    if below && record == Record::WhenDue {
        return Ok(None);
    }
    let store = open_store(ctx)?;
    let now = now_ms();
    if let (Some(u), Some(path)) = (&usage, transcript_path) {
        record_transcript_reading(&store, session, path, u, now)?;
    }
    if below {
        return Ok(None);
    }
    let reading = store.session_context().reading(Some(session), 0, now)?;
    let fresh = reading
        .age_seconds
        .is_some_and(|age| age <= FLUSH_READING_MAX_AGE_SECS);
    if reading.source == "estimate" || !fresh || reading.percent < share * 100.0 {
        return Ok(None);
    }
    if !store.session_context().claim_flush_nudge(session, now)? {
        return Ok(None);
    }
    log::info!(
        "flush: nudged session {session} at {:.0}% ({})",
        reading.percent,
        reading.source
    );
    Ok(Some(nudge_text(&reading)))
}
