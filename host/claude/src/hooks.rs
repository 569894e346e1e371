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
use ghost_store::entry::ID_LEN;
use ghost_store::{IdempotencyKey, SeenBy, Store};
use ghost_types::ContentClass;
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::file_list;
use crate::payload::{
    PostCompact, PostToolUse, PostToolUseFailure, PreCompact, SessionStart, StatusLine,
    UserPromptSubmit,
};
use crate::policy::{
    FILE_LIST_LINES, MAX_KEPT_SHARE, MAX_REPLACEMENT_BYTES, MAX_STDIN_BYTES, MIN_RESULT_BYTES,
    PERSISTED_DIGEST_BYTES, READ_MIN_BYTES, SEEN_MIN_BYTES, read_fold_bytes,
};
use crate::response::{self, Extracted, Skip, Slot};
use crate::seen;
use crate::state;

/// The events ghost handles: Claude Code's hook events, and its statusLine
/// command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookEvent {
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
}

impl HookEvent {
    /// Every event, with its `ghost hook` argument.
    pub const ALL: [(HookEvent, &'static str); 7] = [
        (HookEvent::PostToolUse, "post-tool-use"),
        (HookEvent::PostToolUseFailure, "post-tool-use-failure"),
        (HookEvent::UserPromptSubmit, "user-prompt-submit"),
        (HookEvent::StatusLine, "status-line"),
        (HookEvent::PreCompact, "pre-compact"),
        (HookEvent::PostCompact, "post-compact"),
        (HookEvent::SessionStart, "session-start"),
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
            Ok(String::new())
        }
        HookEvent::StatusLine => state::status_line(&parse::<StatusLine>(event, bytes)?, ctx),
        HookEvent::PreCompact => {
            state::pre_compact(&parse::<PreCompact>(event, bytes)?.session_id, ctx)
        }
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
    }
}

/// The store at the context's path.
pub(crate) fn open_store(ctx: &HookContext) -> Result<Store> {
    Store::open(&ctx.store_path).with_context(|| format!("opening {}", ctx.store_path.display()))
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
    Ok(ingestor.ingest(request)?.id)
}

fn post_tool_use(payload: &PostToolUse, ctx: &HookContext) -> Result<String> {
    let tool = payload.tool_name.as_str();
    let session = payload.session_id.as_str();
    let response = &payload.tool_response;
    let extracted = match response::extract(tool, &payload.tool_input, response) {
        Ok(e) => e,
        Err(Skip::UnknownShape(t)) => bail!("unknown tool_response shape for {t}"),
        Err(_) => return Ok(String::new()),
    };
    if extracted.text.len() < SEEN_MIN_BYTES.max(ctx.config.min_compress_bytes()) {
        return Ok(String::new());
    }
    let agent = payload.agent();
    let mut store = open_store(ctx)?;
    let mut request = IngestRequest::new(extracted.text.clone(), session);
    request.agent_id = agent.to_string();
    request.tool_use_id = Some(payload.tool_use_id.clone());
    request.tool_name = Some(tool.to_string());
    request.source_path = extracted.source_path.clone();
    request.context = extracted.context.clone();
    request.ttl_seconds = ctx.config.ttl_seconds();
    let min = match extracted.slot {
        // The status line's reading is the main agent's context.
        Slot::ReadContent { .. } if agent.is_empty() => {
            read_fold_bytes(store.session_context().share(session)?)
        }
        Slot::ReadContent { .. } => READ_MIN_BYTES,
        _ => MIN_RESULT_BYTES,
    };
    if let Some((summary, class)) = against_context(&store, &request, &extracted)? {
        // Already in the agent's context: a reference, or the changes.
        request.summary = Some(summary);
        request.class = Some(class);
    } else if extracted.slot == Slot::FileList {
        // File lists: a digest by directory, made here.
        let files: Vec<&str> = extracted.text.lines().collect();
        if files.len() <= FILE_LIST_LINES {
            return Ok(String::new());
        }
        request.summary = Some(file_list::digest(&files, FILE_LIST_LINES).join("\n"));
        request.class = Some(ContentClass::Structured);
    } else if extracted.text.len() < min {
        // Too small to compress, but kept: a later result may refer to it.
        request.summary = Some(extracted.text.clone());
        request.class = Some(match &extracted.source_path {
            Some(path) => seen::class_of_file(path),
            None => ContentClass::Log,
        });
    }
    // Read: the agent sees the code with its real line numbers; data files
    // go to the structured compressor whatever they look like.
    if let Slot::ReadContent { start_line } = extracted.slot {
        request.compress_text = Some(response::numbered(&extracted.text, start_line));
        let data_file = extracted
            .source_path
            .as_deref()
            .is_some_and(|p| seen::class_of_file(p) == ContentClass::Structured);
        if request.class.is_none() && data_file {
            request.class = Some(ContentClass::Structured);
        }
    }
    let mut ingestor = Ingestor::new(&mut store, 0, ctx.pipeline);
    ingestor.estimate_tokens();
    let ingested = ingestor.ingest(request)?;
    if !ingested.compressed {
        return Ok(String::new());
    }
    // Never worse: the model must see clearly less than it would have (see
    // MAX_KEPT_SHARE).
    let would_see = extracted.text.len();
    let saves_a_tenth = |len: usize| len as f64 <= would_see as f64 * MAX_KEPT_SHARE;
    let kept_as_is = |len: usize| {
        log::info!(
            "hook: {tool} result kept as it is: the summary ({len} bytes) does not save a tenth of what the model would see ({would_see} bytes); stored as id={}",
            ingested.id
        );
        Ok(String::new())
    };
    // The compressor's own text must save a tenth: `fit` below only caps
    // the size and cuts lines blindly, so it must never be what makes a
    // text smaller. Except for a persisted output, of which the model would
    // see a 2 KB preview: a digest of that size is better.
    let persisted = extracted.persisted;
    if !persisted && !saves_a_tenth(ingested.text.len()) {
        return kept_as_is(ingested.text.len());
    }
    let budget = if persisted {
        PERSISTED_DIGEST_BYTES
    } else {
        MAX_REPLACEMENT_BYTES
    };
    // Code keeps its structure when cut; outputs keep their failures.
    let prefer_errors = !matches!(extracted.slot, Slot::ReadContent { .. });
    let mut text = fit(
        &ingested.text,
        ingested.handle.as_deref().unwrap_or_default(),
        budget,
        prefer_errors,
    );
    // Claude Code numbers a Read's lines from `startLine`: a digest whose
    // lines are not the file's (an outline, folded log lines) says so first.
    if !prefer_errors && !response::line_addressable(&text) {
        text.insert_str(0, response::NOT_THE_FILES_LINES);
    }
    if !saves_a_tenth(text.len()) {
        return kept_as_is(text.len());
    }
    let updated = response::replace(&extracted.slot, response, &text);
    Ok(json!({
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "updatedToolOutput": updated,
        }
    })
    .to_string())
}

/// What the agent should see of `extracted` given what it already saw this
/// session: a reference to an identical earlier result, or a re-read file's
/// changes; with the class to store it as. `None`: nothing applies.
fn against_context(
    store: &Store,
    request: &IngestRequest,
    extracted: &Extracted,
) -> Result<Option<(String, ContentClass)>> {
    let tool = request.tool_name.as_deref().unwrap_or_default();
    let own_id = request
        .tool_use_id
        .as_deref()
        .map(|call| IdempotencyKey::for_tool_call(&request.session, call).entry_id(ID_LEN))
        .unwrap_or_default();
    let sessions = store.session_context();
    let lookup =
        |by| sessions.still_in_context(&request.session, &request.agent_id, tool, by, &own_id);
    Ok(match (&extracted.slot, &extracted.source_path) {
        (Slot::ReadContent { start_line: 1 }, Some(path)) => {
            lookup(SeenBy::Path(path))?.and_then(|earlier| {
                let earlier = seen::Earlier {
                    id: &earlier.id,
                    text: &earlier.original,
                };
                seen::reread(path, earlier, &extracted.text)
                    .map(|text| (text, seen::class_of_file(path)))
            })
        }
        (Slot::ReadContent { .. }, _) => None,
        _ => lookup(SeenBy::Text(&extracted.text))?.map(|earlier| {
            let text = seen::repeated_output(&earlier.id, &earlier.context, &extracted.text);
            (text, ContentClass::Log)
        }),
    })
}

/// `text` (which ends with `handle`) cut to `max` bytes: a quarter for its
/// head, then (when `prefer_errors`) the lines that name an error or a
/// failure, then its tail; gaps marked, the handle last.
fn fit(text: &str, handle: &str, max: usize, prefer_errors: bool) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let body = text.strip_suffix(handle).unwrap_or(text);
    let lines: Vec<&str> = body.lines().collect();
    let Some(budget) = max.checked_sub(handle.len() + 64) else {
        return text.to_string();
    };
    let mut keep = vec![false; lines.len()];
    let mut used = 0;
    let take = |i: usize, used: &mut usize, limit: usize, keep: &mut Vec<bool>| {
        // Each kept line costs itself plus, at worst, a gap marker.
        let cost = lines[i].len() + 48;
        if !keep[i] && *used + cost <= limit {
            keep[i] = true;
            *used += cost;
        }
    };
    for i in 0..lines.len() {
        take(i, &mut used, budget / 4, &mut keep);
    }
    for (i, line) in lines.iter().enumerate().filter(|_| prefer_errors) {
        let lower = line.to_ascii_lowercase();
        if ["error", "fail", "exception", "panic", "fatal"]
            .iter()
            .any(|w| lower.contains(w))
        {
            take(i, &mut used, budget * 3 / 4, &mut keep);
        }
    }
    for i in (0..lines.len()).rev() {
        take(i, &mut used, budget, &mut keep);
    }
    let mut out = String::new();
    let mut gap = 0;
    for (line, kept) in lines.iter().zip(&keep) {
        if *kept {
            if gap > 0 {
                out.push_str(&format!("[… {gap} lines: get id]\n"));
                gap = 0;
            }
            out.push_str(line);
            out.push('\n');
        } else {
            gap += 1;
        }
    }
    if gap > 0 {
        out.push_str(&format!("[… {gap} lines: get id]\n"));
    }
    out.push_str(handle);
    out
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

    #[test]
    fn fitting_keeps_head_tail_and_the_handle() {
        let handle = "[ghost 1→1 tokens · full text: get id=abc · search: recall]";
        let body: String = (0..20_000)
            .map(|i| {
                if i == 12_345 {
                    "ERROR: the one that matters\n".to_string()
                } else {
                    format!("line {i}\n")
                }
            })
            .collect();
        let text = format!("{body}{handle}");
        let fitted = fit(&text, handle, MAX_REPLACEMENT_BYTES, true);
        assert!(fitted.len() <= MAX_REPLACEMENT_BYTES);
        assert!(fitted.starts_with("line 0\n"));
        assert!(fitted.ends_with(&format!("line 19999\n{handle}")));
        assert!(fitted.contains(" lines: get id]"));
        assert_eq!(fit("short", "h", 100, true), "short");
        assert!(fitted.contains("ERROR: the one that matters"));
        let small = fit(&text, handle, 2_400, true);
        assert!(small.contains("ERROR: the one that matters"));
        assert!(
            small.len() <= 2_400 && small.ends_with(handle),
            "{}",
            small.len()
        );
    }
}
