//! What the model is shown in place of a tool result: the decision the
//! PostToolUse hook makes and the gateway makes on the request path, on a
//! result's text, whatever brought it in.
//!
//! A result too small is left alone (kept in the store when a later one may
//! refer to it); one the agent already has in its context becomes a
//! reference or the changes; a long file list a digest by directory; any
//! other one is classified, compressed and stored, and shown when the
//! compressor's own text saves a tenth, cut to the size cap with its
//! failures kept, its handle last.

use anyhow::Result;
use ghost_core::ingest::{IngestRequest, Ingested, Ingestor};
use ghost_store::entry::ID_LEN;
use ghost_store::{IdempotencyKey, SeenBy, Store};
use ghost_types::ContentClass;

use crate::file_list;
use crate::hooks::{HookContext, open_store};
use crate::policy::{
    FILE_LIST_LINES, MIN_RESULT_BYTES, READ_MIN_BYTES, SEEN_MIN_BYTES, read_fold_bytes,
    replacement_bytes, target_tokens,
};
use crate::response::{self, Extracted, Slot};
use crate::seen;

/// One tool result, and what is known of where it came from.
#[derive(Debug, Clone, Copy)]
pub struct ResultToShow<'a> {
    /// The agent session.
    pub session: &'a str,
    /// The agent within it that saw the result (`""`: the main agent; the
    /// gateway gives each conversation its own).
    pub agent: &'a str,
    /// The tool's name.
    pub tool: &'a str,
    /// The tool call's id.
    pub tool_use_id: &'a str,
    /// Its text, where it goes back, its file and search context.
    pub extracted: &'a Extracted,
    /// The share of the agent's context window in use, when the caller
    /// knows it (the gateway); else the status line's reading in the store
    /// is used for the session's main agent. Reads fold from smaller sizes
    /// and compressors get a token budget as it fills.
    pub context_share: Option<f64>,
}

/// What became of a result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shown {
    /// The stored entry, when the result was stored.
    pub id: Option<String>,
    /// The text to show instead, when there is one worth showing (for a
    /// Read, its lines carry their real numbers as `N→`).
    pub text: Option<String>,
}

/// Decides what the model sees of `result` (see the module's doc), storing
/// the original on the way.
///
/// A result that holds a secret is always shown redacted (the same markers
/// the store keeps), whether or not it is compressed.
pub fn shorter_text(ctx: &HookContext, result: &ResultToShow) -> Result<Shown> {
    let extracted = result.extracted;
    let redacted = match ctx
        .config
        .redactor(&ctx.store_path)?
        .redact(&extracted.text)
    {
        std::borrow::Cow::Owned(redacted) => Some(redacted),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let as_it_is = || Shown {
        id: None,
        text: redacted.clone(),
    };
    if extracted.text.len() < SEEN_MIN_BYTES.max(ctx.config.min_compress_bytes()) {
        return Ok(as_it_is());
    }
    let mut store = open_store(ctx)?;
    // The context reading is the main agent's context, not a subagent's.
    let context_share = match result.context_share {
        Some(share) => Some(share),
        None if result.agent.is_empty() => {
            let reading = store
                .session_context()
                .share(result.session, ghost_store::now_ms())?;
            if let Some((share, source)) = &reading {
                log::debug!(
                    "replacement: context at {:.0}% by the {source}",
                    share * 100.0
                );
            }
            reading.map(|(share, _)| share)
        }
        None => None,
    };
    let mut request = IngestRequest::new(extracted.text.clone(), result.session);
    request.agent_id = result.agent.to_string();
    request.tool_use_id = Some(result.tool_use_id.to_string());
    request.tool_name = Some(result.tool.to_string());
    request.source_path = extracted.source_path.clone();
    request.context = extracted.context.clone();
    request.target_tokens = Some(target_tokens(
        context_share,
        replacement_bytes(extracted.persisted),
    ));
    if extracted.slot == Slot::BashOutput {
        // A Bash result's context is its command: a hint to the classifier.
        request.command = Some(extracted.context.clone()).filter(|c| !c.is_empty());
    }
    let min = match extracted.slot {
        Slot::ReadContent { .. } => match context_share {
            Some(share) => read_fold_bytes(Some(share)),
            None => READ_MIN_BYTES,
        },
        _ => MIN_RESULT_BYTES,
    };
    if let Some((summary, class)) = against_context(&store, &request, extracted)? {
        // Already in the agent's context: a reference, or the changes.
        request.summary = Some(summary);
        request.class = Some(class);
    } else if extracted.slot == Slot::FileList {
        // File lists: a digest by directory, made here.
        let files: Vec<&str> = extracted.text.lines().collect();
        if files.len() <= FILE_LIST_LINES {
            return Ok(as_it_is());
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
    ingestor.set_retention(ctx.config.retention.clone());
    let ingested = ingestor.ingest(request)?;
    let text = worth_showing(&ingested, extracted, result.tool).or(redacted);
    Ok(Shown {
        id: Some(ingested.id),
        text,
    })
}

/// The text to show for `ingested`, when it is clearly smaller than what
/// the model would see of `extracted` (never worse): the compressor's own
/// text must be [`ghost_types::clearly_smaller`], and what is shown, cut to
/// the size cap, too.
fn worth_showing(ingested: &Ingested, extracted: &Extracted, tool: &str) -> Option<String> {
    if !ingested.compressed {
        return None;
    }
    let would_see = extracted.text.len();
    let saves_a_tenth = |len: usize| ghost_types::clearly_smaller(len, would_see);
    let kept_as_is = |len: usize| {
        log::info!(
            "{tool} result kept as it is: the summary ({len} bytes) does not save a tenth of what the model would see ({would_see} bytes); stored as id={}",
            ingested.id
        );
        None
    };
    // `fit` below only caps the size and cuts lines blindly, so it must
    // never be what makes a text smaller. Except for a persisted output, of
    // which the model would see a 2 KB preview: a digest of that size is
    // better.
    let persisted = extracted.persisted;
    if !persisted && !saves_a_tenth(ingested.text.len()) {
        return kept_as_is(ingested.text.len());
    }
    let budget = replacement_bytes(persisted);
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
    Some(text)
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
pub(crate) fn fit(text: &str, handle: &str, max: usize, prefer_errors: bool) -> String {
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
        if names_a_failure(line) {
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

/// Whether `line` names an error or a failure (what `fit` keeps first).
pub fn names_a_failure(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    ["error", "fail", "exception", "panic", "fatal"]
        .iter()
        .any(|w| lower.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::MAX_REPLACEMENT_BYTES;

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
