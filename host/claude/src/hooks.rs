//! `ghost hook <event>`: Claude Code's hook entry points.
//!
//! Each reads the event's JSON on stdin ([`crate::payload`]) and prints the
//! hook's answer on stdout. A hook must never break the agent: any failure
//! (bad stdin, a store that cannot be opened, a compressor that traps) ends
//! in exit 0 with nothing on stdout, so the original goes through, and the
//! reason in ghost's log. Nothing but the answer is ever printed on stdout.

use std::io::Read;
use std::path::PathBuf;
use std::str::FromStr;

use anyhow::{Context, Result, bail};
use ghost_core::config::Config;
use ghost_core::ingest::{IngestRequest, Ingestor};
use ghost_core::pipeline::Pipeline;
use ghost_store::Store;
use ghost_types::ContentClass;
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::payload::{
    PostCompact, PostToolUse, PostToolUseFailure, PreCompact, PreToolUse, SessionEnd, SessionStart,
    StatusLine, UserPromptSubmit,
};
use crate::policy::MAX_STDIN_BYTES;
use crate::replacement::{self, ResultToShow};
use crate::response::{self, Skip};
use crate::{flush, state};

/// The events ghost handles: Claude Code's hook events, and its statusLine
/// command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookEvent {
    /// A tool is about to run: the memory flush nudge, when it is due.
    PreToolUse,
    /// A tool succeeded: compress and replace its result.
    PostToolUse,
    /// A tool failed: store the error, point at it.
    PostToolUseFailure,
    /// The user sent a prompt: store it.
    UserPromptSubmit,
    /// Claude Code's statusLine command: record the context reading.
    StatusLine,
    /// Compaction is about to run: print ghost's state block.
    PreCompact,
    /// Compaction ran: store its summary.
    PostCompact,
    /// A session (re)started: after compaction or on resume, say what ghost holds.
    SessionStart,
    /// A session ended: index its turns for `memory_search`.
    SessionEnd,
}

impl HookEvent {
    /// Every event, with its `ghost hook` argument.
    pub const ALL: [(HookEvent, &'static str); 9] = [
        (HookEvent::PreToolUse, "pre-tool-use"),
        (HookEvent::PostToolUse, "post-tool-use"),
        (HookEvent::PostToolUseFailure, "post-tool-use-failure"),
        (HookEvent::UserPromptSubmit, "user-prompt-submit"),
        (HookEvent::StatusLine, "status-line"),
        (HookEvent::PreCompact, "pre-compact"),
        (HookEvent::PostCompact, "post-compact"),
        (HookEvent::SessionStart, "session-start"),
        (HookEvent::SessionEnd, "session-end"),
    ];

    /// The argument of `ghost hook` for this event (`post-tool-use`).
    pub fn arg(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(event, _)| *event == self)
            .map(|(_, arg)| *arg)
            .expect("every event is listed")
    }

    /// Every `ghost hook` argument.
    pub fn args() -> Vec<&'static str> {
        Self::ALL.iter().map(|(_, arg)| *arg).collect()
    }
}

impl FromStr for HookEvent {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .find(|(_, arg)| *arg == s)
            .map(|(event, _)| *event)
            .ok_or_else(|| {
                format!(
                    "unknown hook event '{s}' (one of: {})",
                    Self::args().join(", ")
                )
            })
    }
}

/// What a hook needs from the process.
pub struct HookContext<'a> {
    /// The store's file.
    pub store_path: PathBuf,
    /// The configuration.
    pub config: &'a Config,
    /// Builds the compression pipeline when one is needed.
    pub pipeline: &'a dyn Fn() -> Result<Pipeline>,
}

/// Runs the hook for `event` on `stdin`; returns what goes on stdout. Never
/// fails: on any error it logs why and returns nothing.
pub fn run(event: HookEvent, stdin: impl Read, ctx: &HookContext) -> String {
    let started = std::time::Instant::now();
    let outcome = read_payload(stdin).and_then(|payload| dispatch(event, &payload, ctx));
    match outcome {
        Ok(out) => {
            log::info!(
                "hook {event:?}: {} in {:.1} ms",
                if out.is_empty() {
                    "no output"
                } else {
                    "answered"
                },
                started.elapsed().as_secs_f64() * 1000.0
            );
            out
        }
        Err(e) => {
            log::warn!("hook {event:?} failed, the original passes through: {e:#}");
            String::new()
        }
    }
}

/// The payload's bytes: at most [`MAX_STDIN_BYTES`], a JSON object.
fn read_payload(stdin: impl Read) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    stdin
        .take(MAX_STDIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .context("reading the hook's stdin")?;
    if bytes.len() as u64 > MAX_STDIN_BYTES {
        bail!("stdin is over {MAX_STDIN_BYTES} bytes");
    }
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        None => bail!("stdin is empty"),
        Some(b'{') => Ok(bytes),
        Some(_) => {
            serde_json::from_slice::<serde_json::Value>(&bytes).context("stdin is not JSON")?;
            bail!("stdin is JSON but not an object")
        }
    }
}

/// The payload of `event`, typed.
fn parse<T: DeserializeOwned>(event: HookEvent, bytes: &[u8]) -> Result<T> {
    serde_json::from_slice(bytes).with_context(|| format!("stdin is not a {} payload", event.arg()))
}

fn dispatch(event: HookEvent, bytes: &[u8], ctx: &HookContext) -> Result<String> {
    match event {
        HookEvent::PreToolUse => {
            let p: PreToolUse = parse(event, bytes)?;
            // A subagent's context is its own; the flush is the main agent's.
            if p.agent_id.is_some() {
                return Ok(String::new());
            }
            nudge_when_due(
                "PreToolUse",
                &p.session_id,
                p.transcript_path.as_deref(),
                ctx,
            )
        }
        HookEvent::PostToolUse => post_tool_use(&parse(event, bytes)?, ctx),
        HookEvent::PostToolUseFailure => post_tool_use_failure(&parse(event, bytes)?, ctx),
        HookEvent::UserPromptSubmit => {
            let p: UserPromptSubmit = parse(event, bytes)?;
            let key = p.prompt_id.as_deref();
            store_text(
                ctx,
                &p.session_id,
                &p.prompt,
                ContentClass::Prompt,
                key,
                "prompt",
            )?;
            nudge_when_due(
                "UserPromptSubmit",
                &p.session_id,
                p.transcript_path.as_deref(),
                ctx,
            )
        }
        HookEvent::StatusLine => state::status_line(&parse::<StatusLine>(event, bytes)?, ctx),
        HookEvent::PreCompact => state::pre_compact(&parse::<PreCompact>(event, bytes)?, ctx),
        HookEvent::PostCompact => {
            let p: PostCompact = parse(event, bytes)?;
            let key = p.prompt_id.as_deref();
            store_text(
                ctx,
                &p.session_id,
                &p.compact_summary,
                ContentClass::Prose,
                key,
                "compact",
            )?;
            Ok(String::new())
        }
        HookEvent::SessionStart => state::session_start(&parse::<SessionStart>(event, bytes)?, ctx),
        HookEvent::SessionEnd => {
            let p: SessionEnd = parse(event, bytes)?;
            if let Some(path) = p.transcript_path.as_deref() {
                let store = open_store(ctx)?;
                crate::continuity::index_turns(
                    ctx,
                    &store,
                    std::path::Path::new(path),
                    p.cwd.as_deref(),
                )?;
            }
            Ok(String::new())
        }
    }
}

/// `event`'s answer: the flush nudge when it is due, else nothing.
fn nudge_when_due(
    event: &str,
    session: &str,
    transcript_path: Option<&str>,
    ctx: &HookContext,
) -> Result<String> {
    let nudge = flush::nudge(session, transcript_path, ctx, flush::Record::WhenDue)?;
    Ok(nudge.map_or_else(String::new, |text| additional_context(event, &text)))
}

/// A hook answer that adds `text` to the agent's context.
fn additional_context(event: &str, text: &str) -> String {
    json!({
        "hookSpecificOutput": {
            "hookEventName": event,
            "additionalContext": text,
        }
    })
    .to_string()
}

/// The store at the context's path.
pub(crate) fn open_store(ctx: &HookContext) -> Result<Store> {
    ctx.config.open_store(&ctx.store_path)
}

/// Stores `text` as it is, keyed by `tool` and the payload's call or prompt
/// id (`key`): a replayed hook stores it once.
fn store_text(
    ctx: &HookContext,
    session: &str,
    text: &str,
    class: ContentClass,
    key: Option<&str>,
    tool: &str,
) -> Result<String> {
    let mut store = open_store(ctx)?;
    let mut request = IngestRequest::new(text, session);
    request.class = Some(class);
    request.tool_name = Some(tool.to_string());
    request.tool_use_id = key.map(|id| format!("{tool}:{id}"));
    let mut ingestor = Ingestor::new(&mut store, usize::MAX, ctx.pipeline);
    ingestor.estimate_tokens();
    ingestor.set_retention(ctx.config.retention.clone());
    Ok(ingestor.ingest(request)?.id)
}

fn post_tool_use(payload: &PostToolUse, ctx: &HookContext) -> Result<String> {
    // The newest context reading, for the replacement policy and every
    // other consumer; and the flush nudge, which is due here when the reply
    // that crossed the line reached the transcript after this call's
    // PreToolUse ran (the main agent's only: a subagent's context is its own).
    let nudge = match payload.transcript_path.as_deref() {
        Some(path) if payload.agent_id.is_none() => {
            flush::nudge(&payload.session_id, Some(path), ctx, flush::Record::Always)
                .unwrap_or_else(|e| {
                    log::warn!("post-tool-use: the context reading or the flush failed: {e:#}");
                    None
                })
        }
        _ => None,
    };
    let updated = replacement_of(payload, ctx);
    let mut out = serde_json::Map::new();
    out.insert("hookEventName".into(), json!("PostToolUse"));
    match updated {
        Ok(Some(updated)) => {
            out.insert("updatedToolOutput".into(), updated);
        }
        Ok(None) => {}
        // Without a nudge to give, the failure is the hook's; with one, the
        // original goes through with the nudge beside it.
        Err(e) if nudge.is_none() => return Err(e),
        Err(e) => log::warn!("post-tool-use failed, the original passes through: {e:#}"),
    }
    if let Some(text) = nudge {
        out.insert("additionalContext".into(), json!(text));
    }
    if out.len() == 1 {
        return Ok(String::new());
    }
    Ok(json!({ "hookSpecificOutput": out }).to_string())
}

/// The tool's response with its text replaced by a shorter one, when ghost
/// has one to show.
fn replacement_of(payload: &PostToolUse, ctx: &HookContext) -> Result<Option<serde_json::Value>> {
    let tool = payload.tool_name.as_str();
    let response = &payload.tool_response;
    let extracted = match response::extract(tool, &payload.tool_input, response) {
        Ok(e) => e,
        Err(Skip::UnknownShape(t)) => bail!("unknown tool_response shape for {t}"),
        Err(_) => return Ok(None),
    };
    let result = ResultToShow {
        session: &payload.session_id,
        agent: payload.agent(),
        tool,
        tool_use_id: &payload.tool_use_id,
        extracted: &extracted,
        // The context reading is looked up by `shorter_text`, in the store
        // it opens anyway.
        context_share: None,
    };
    let Some(text) = replacement::shorter_text(ctx, &result)?.text else {
        return Ok(None);
    };
    Ok(Some(response::replace(&extracted.slot, response, &text)))
}

fn post_tool_use_failure(payload: &PostToolUseFailure, ctx: &HookContext) -> Result<String> {
    let tool = payload.tool_name.as_deref().unwrap_or("tool");
    let key = payload
        .tool_use_id
        .as_deref()
        .or(payload.prompt_id.as_deref());
    let id = store_text(
        ctx,
        &payload.session_id,
        &payload.error,
        ContentClass::Error,
        key,
        tool,
    )?;
    Ok(json!({
        "hookSpecificOutput": {
            "hookEventName": "PostToolUseFailure",
            "additionalContext": format!(
                "[ghost stored this {tool} error: get id={id}; recall(query) searches every earlier one]"
            ),
        }
    })
    .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_and_their_arguments_round_trip() {
        for (event, arg) in HookEvent::ALL {
            assert_eq!(arg.parse::<HookEvent>(), Ok(event));
            assert_eq!(event.arg(), arg);
        }
        assert!("post_tool_use".parse::<HookEvent>().is_err());
    }

    #[test]
    fn read_replacements_are_line_addressable_or_not() {
        assert!(response::line_addressable(
            "1→fn a() {\n    … lines 2–9 folded (Read offset=2 limit=8)\n10→}\n[ghost 1→1 tokens]"
        ));
        assert!(!response::line_addressable("{\n  \"a\": 1\n}"));
    }
}
