//! `ghost hook <event>`: Claude Code's hook entry points.
//!
//! Each reads the event's JSON on stdin and prints the hook's answer on
//! stdout. A hook must never break the agent: any failure (bad stdin, a
//! store that cannot be opened, a compressor that traps) ends in exit 0
//! with nothing on stdout, so the original goes through, and the reason in
//! ghost's log. Nothing but the answer is ever printed on stdout.
//!
//! - [`tool_output`]: tool response shapes, what to compress, how to put it back;
//! - [`seen`]: what the agent already has in its context (re-reads, repeats);
//! - [`file_list`]: the digest of long file lists;
//! - [`state`]: the state block before compaction and the context after it.

pub mod file_list;
pub mod seen;
pub mod state;
pub mod tool_output;

use std::io::Read;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::config::Config;
use crate::content::ContentClass;
use crate::ingest::{IngestRequest, Ingestor};
use crate::pipeline::Pipeline;
use crate::store::entry::ID_LEN;
use crate::store::{IdempotencyKey, SeenBy, Store};
use tool_output::Skip;

/// The events ghost handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
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

/// Stdin larger than this is not read: the hook passes the original through.
pub const MAX_STDIN_BYTES: u64 = 128 << 20;

/// Replacement texts are kept under this many bytes: Claude Code persists a
/// replacement of about 60 KB to a file and shows the model a 2 KB preview.
pub const MAX_REPLACEMENT_BYTES: usize = 40_000;

/// The most ghost shows of a Bash output Claude Code persisted to a file.
/// Without ghost the model sees a 2 KB preview of the output's head in a
/// wrapper naming the file (about 2,300 bytes); ghost's digest takes no more
/// room than that (never worse), with the failures and the tail in it.
pub const PERSISTED_DIGEST_BYTES: usize = 2_300;

/// Tool results under this many bytes go through as they are (stored from
/// [`seen::SEEN_MIN_BYTES`] on, so a later identical one can refer to them).
pub const MIN_RESULT_BYTES: usize = 2_048;

/// Whole-file Reads under this many bytes (about 200 lines) go through as
/// they are while the context has room (see [`READ_FOLD_TIERS`]): the agent
/// edits what it reads, and a folded body hides the text an Edit needs.
/// Measured with `ghost bench replay` on the shared transcripts (Read tokens
/// with/without, all tools, edit-visible rate; 83.6% without ghost): 2 KB
/// 0.46 / 0.60 / 55.9%, 4 KB 0.48 / 0.61 / 58.5%, 8 KB 0.55 / 0.66 / 68.2%,
/// 16 KB 0.63 / 0.71 / 70.3%, 32 KB 0.89 / 0.87 / 83.1%; with the tiers
/// 0.54 / 0.65 / 67.2%.
pub const READ_MIN_BYTES: usize = 8_192;

/// As the context fills (by Claude Code's own reading, from the status
/// line), whole-file Reads fold from a smaller size: (share of the window
/// used, fold from this many bytes), highest share first. Every token saved
/// then puts off the compaction, which loses far more than a folded body.
pub const READ_FOLD_TIERS: [(f64, usize); 2] = [(0.7, 2_048), (0.5, 4_096)];

/// The size from which a whole-file Read folds, given the share of the
/// context window in use (`None`: no reading).
pub fn read_fold_bytes(context_share: Option<f64>) -> usize {
    context_share
        .and_then(|share| {
            READ_FOLD_TIERS
                .iter()
                .find(|(from, _)| share >= *from)
                .map(|(_, bytes)| *bytes)
        })
        .unwrap_or(READ_MIN_BYTES)
}

/// The first line of a Read replacement whose lines are not the file's own.
pub const NOT_THE_FILES_LINES: &str = "[ghost: a digest of this file, not its lines; the line numbers shown are not the file's: Read with offset/limit for exact text]\n";

/// A replacement is used only when it is at most this share of what the
/// model would see: saving a few percent is not worth showing a digest in
/// place of the exact text (e.g. a task description with two sentences cut).
pub const MAX_KEPT_SHARE: f64 = 0.9;

/// File lists (Glob, Grep's file mode) longer than this become a digest of
/// at most this many lines.
pub const FILE_LIST_LINES: usize = 40;

/// What a hook needs from the process.
pub struct HookContext<'a> {
    /// The store's file.
    pub store_path: std::path::PathBuf,
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
            crate::logging::info(&format!(
                "hook {event:?}: {} in {:.1} ms",
                if out.is_empty() {
                    "no output"
                } else {
                    "answered"
                },
                started.elapsed().as_secs_f64() * 1000.0
            ));
            out
        }
        Err(e) => {
            crate::logging::warn(&format!(
                "hook {event:?} failed, the original passes through: {e:#}"
            ));
            String::new()
        }
    }
}

fn read_payload(stdin: impl Read) -> Result<Value> {
    let mut bytes = Vec::new();
    stdin
        .take(MAX_STDIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .context("reading the hook's stdin")?;
    if bytes.len() as u64 > MAX_STDIN_BYTES {
        bail!("stdin is over {MAX_STDIN_BYTES} bytes");
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        bail!("stdin is empty");
    }
    let value: Value = serde_json::from_slice(&bytes).context("stdin is not JSON")?;
    if !value.is_object() {
        bail!("stdin is JSON but not an object");
    }
    Ok(value)
}

fn dispatch(event: HookEvent, payload: &Value, ctx: &HookContext) -> Result<String> {
    let session = payload["session_id"]
        .as_str()
        .context("no session_id in the payload")?;
    match event {
        HookEvent::PostToolUse => post_tool_use(session, payload, ctx),
        HookEvent::PostToolUseFailure => post_tool_use_failure(session, payload, ctx),
        HookEvent::UserPromptSubmit => {
            let prompt = payload["prompt"].as_str().context("no prompt")?;
            store_text(
                ctx,
                session,
                prompt,
                ContentClass::Prompt,
                payload,
                "prompt",
            )?;
            Ok(String::new())
        }
        HookEvent::StatusLine => state::status_line(session, payload, ctx),
        HookEvent::PreCompact => state::pre_compact(session, ctx),
        HookEvent::PostCompact => {
            let summary = payload["compact_summary"]
                .as_str()
                .context("no compact_summary")?;
            store_text(
                ctx,
                session,
                summary,
                ContentClass::Prose,
                payload,
                "compact",
            )?;
            Ok(String::new())
        }
        HookEvent::SessionStart => state::session_start(session, payload, ctx),
    }
}

fn open_store(ctx: &HookContext) -> Result<Store> {
    Store::open(&ctx.store_path).with_context(|| format!("opening {}", ctx.store_path.display()))
}

/// Stores `text` as it is, keyed by the payload's `tool_use_id` or `prompt_id`.
fn store_text(
    ctx: &HookContext,
    session: &str,
    text: &str,
    class: ContentClass,
    payload: &Value,
    tool: &str,
) -> Result<String> {
    let mut store = open_store(ctx)?;
    let mut request = IngestRequest::new(text, session);
    request.class = Some(class);
    request.tool_name = Some(tool.to_string());
    request.tool_use_id = payload["tool_use_id"]
        .as_str()
        .or(payload["prompt_id"].as_str())
        .map(|id| format!("{tool}:{id}"));
    let mut ingestor = Ingestor::new(&mut store, usize::MAX, ctx.pipeline);
    ingestor.estimate_tokens();
    Ok(ingestor.ingest(request)?.id)
}

fn post_tool_use(session: &str, payload: &Value, ctx: &HookContext) -> Result<String> {
    let tool = payload["tool_name"].as_str().context("no tool_name")?;
    let tool_use_id = payload["tool_use_id"].as_str().context("no tool_use_id")?;
    let response = payload.get("tool_response").context("no tool_response")?;
    let extracted = match tool_output::extract(tool, &payload["tool_input"], response) {
        Ok(e) => e,
        Err(Skip::UnknownShape(t)) => bail!("unknown tool_response shape for {t}"),
        Err(_) => return Ok(String::new()),
    };
    if extracted.text.len() < seen::SEEN_MIN_BYTES.max(ctx.config.min_compress_bytes()) {
        return Ok(String::new());
    }
    let agent = payload["agent_id"].as_str().unwrap_or_default();
    let mut store = open_store(ctx)?;
    let mut request = IngestRequest::new(extracted.text.clone(), session);
    request.agent_id = agent.to_string();
    request.tool_use_id = Some(tool_use_id.to_string());
    request.tool_name = Some(tool.to_string());
    request.source_path = extracted.source_path.clone();
    request.context = extracted.context.clone();
    request.ttl_seconds = ctx.config.ttl_seconds();
    let min = match extracted.slot {
        // The status line's reading is the main agent's context.
        tool_output::Slot::ReadContent { .. } if agent.is_empty() => {
            read_fold_bytes(store.context_share(session)?)
        }
        tool_output::Slot::ReadContent { .. } => READ_MIN_BYTES,
        _ => MIN_RESULT_BYTES,
    };
    if let Some((summary, class)) = against_context(&store, &request, &extracted)? {
        // Already in the agent's context: a reference, or the changes.
        request.summary = Some(summary);
        request.class = Some(class);
    } else if extracted.slot == tool_output::Slot::FileList {
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
    if let tool_output::Slot::ReadContent { start_line } = extracted.slot {
        request.compress_text = Some(tool_output::numbered(&extracted.text, start_line));
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
        crate::logging::info(&format!(
            "hook: {tool} result kept as it is: the summary ({len} bytes) does not save a tenth of what the model would see ({would_see} bytes); stored as id={}",
            ingested.id
        ));
        Ok(String::new())
    };
    // The compressor's own text must save a tenth: `fit` below only caps
    // the size and cuts lines blindly, so it must never be what makes a
    // text smaller. Except for a persisted output, of which the model would
    // see a 2 KB preview: a digest of that size is better.
    let persisted = response.get("persistedOutputPath").is_some();
    if !persisted && !saves_a_tenth(ingested.text.len()) {
        return kept_as_is(ingested.text.len());
    }
    let budget = if persisted {
        PERSISTED_DIGEST_BYTES
    } else {
        MAX_REPLACEMENT_BYTES
    };
    // Code keeps its structure when cut; outputs keep their failures.
    let prefer_errors = !matches!(extracted.slot, tool_output::Slot::ReadContent { .. });
    let mut text = fit(
        &ingested.text,
        ingested.handle.as_deref().unwrap_or_default(),
        budget,
        prefer_errors,
    );
    // Claude Code numbers a Read's lines from `startLine`: a digest whose
    // lines are not the file's (an outline, folded log lines) says so first.
    if !prefer_errors && !tool_output::line_addressable(&text) {
        text.insert_str(0, NOT_THE_FILES_LINES);
    }
    if !saves_a_tenth(text.len()) {
        return kept_as_is(text.len());
    }
    let updated = tool_output::replace(&extracted.slot, response, &text);
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
    extracted: &tool_output::Extracted,
) -> Result<Option<(String, ContentClass)>> {
    let tool = request.tool_name.as_deref().unwrap_or_default();
    let own_id = request
        .tool_use_id
        .as_deref()
        .map(|call| IdempotencyKey::for_tool_call(&request.session, call).entry_id(ID_LEN))
        .unwrap_or_default();
    let lookup =
        |by| store.still_in_context(&request.session, &request.agent_id, tool, by, &own_id);
    Ok(match (&extracted.slot, &extracted.source_path) {
        (tool_output::Slot::ReadContent { start_line: 1 }, Some(path)) => {
            lookup(SeenBy::Path(path))?.and_then(|earlier| {
                let earlier = seen::Earlier {
                    id: &earlier.id,
                    text: &earlier.original,
                };
                seen::reread(path, earlier, &extracted.text)
                    .map(|text| (text, seen::class_of_file(path)))
            })
        }
        (tool_output::Slot::ReadContent { .. }, _) => None,
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

fn post_tool_use_failure(session: &str, payload: &Value, ctx: &HookContext) -> Result<String> {
    let error = payload["error"].as_str().context("no error")?;
    let tool = payload["tool_name"].as_str().unwrap_or("tool");
    let id = store_text(ctx, session, error, ContentClass::Error, payload, tool)?;
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
    fn reads_fold_from_smaller_sizes_as_the_context_fills() {
        assert_eq!(read_fold_bytes(None), READ_MIN_BYTES);
        assert_eq!(read_fold_bytes(Some(0.3)), READ_MIN_BYTES);
        assert_eq!(read_fold_bytes(Some(0.5)), 4_096);
        assert_eq!(read_fold_bytes(Some(0.69)), 4_096);
        assert_eq!(read_fold_bytes(Some(0.95)), 2_048);
    }

    #[test]
    fn read_replacements_are_line_addressable_or_not() {
        assert!(tool_output::line_addressable(
            "1→fn a() {\n    … lines 2–9 folded (Read offset=2 limit=8)\n10→}\n[ghost 1→1 tokens]"
        ));
        assert!(!tool_output::line_addressable("{\n  \"a\": 1\n}"));
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
