//! One tool result into ghost: classify → compress → store, in one call.
//! The path the hooks take, and `ghost ingest`.
//!
//! Idempotent: a (session, tool call) already stored comes back as it was,
//! without compressing again. Inputs under the configured size are stored
//! but not compressed; the prompt class is never compressed.

use anyhow::{Context, Result};
use serde::Serialize;

use crate::pipeline::Pipeline;
use crate::retention::Retention;
use ghost_store::{Entry, IdempotencyKey, NewEntry, Store};
use ghost_types::{ClassifyRequest, CompressRequest, ContentClass};

/// One tool result to ingest.
#[derive(Debug, Clone)]
pub struct IngestRequest {
    /// The text.
    pub text: String,
    /// The agent session.
    pub session: String,
    /// The subagent that ran the tool, if not the session's main agent.
    pub agent_id: String,
    /// The tool call's id, which makes replays idempotent; without it the
    /// text itself is the key.
    pub tool_use_id: Option<String>,
    /// The tool that produced it.
    pub tool_name: Option<String>,
    /// The file it came from.
    pub source_path: Option<String>,
    /// The shell command that printed it, when there was one (a hint to
    /// the classifier).
    pub command: Option<String>,
    /// The size, in tokens, the caller would like the compressed text to
    /// stay under (from context pressure); compressors keep what matters
    /// and fold more.
    pub target_tokens: Option<u32>,
    /// Its class, when the caller knows; else the classifier decides.
    pub class: Option<ContentClass>,
    /// Low-weight search text (the command, the neighbouring turns).
    pub context: String,
    /// Entities it is about, beyond the tool and the file (derived).
    pub tags: Vec<String>,
    /// Seconds until it expires (default: its class's, from the
    /// ingestor's retention).
    pub ttl_seconds: Option<i64>,
    /// When it was produced (Unix milliseconds).
    pub created_at: i64,
    /// The summary, when the caller made it (the class must be given too):
    /// no compressor runs.
    pub summary: Option<String>,
    /// What the classifier and compressor get instead of `text`, when the
    /// agent should see a different form of it (a Read's lines with their
    /// real numbers); `text` is still what is stored.
    pub compress_text: Option<String>,
}

impl IngestRequest {
    /// A request for `text` in `session`, everything else unknown.
    pub fn new(text: impl Into<String>, session: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            session: session.into(),
            agent_id: String::new(),
            tool_use_id: None,
            tool_name: None,
            source_path: None,
            command: None,
            target_tokens: None,
            class: None,
            context: String::new(),
            tags: Vec::new(),
            ttl_seconds: None,
            created_at: ghost_store::now_ms(),
            compress_text: None,
            summary: None,
        }
    }
}

/// What ingesting gave back.
#[derive(Debug, Clone, Serialize)]
pub struct Ingested {
    /// The entry's id.
    pub id: String,
    /// False when this tool call was already stored (a replay).
    pub created: bool,
    /// The class it was stored as.
    pub class: ContentClass,
    /// Whether the agent sees a compressed version.
    pub compressed: bool,
    /// What the agent sees: the summary, then the handle line when compressed.
    pub text: String,
    /// The handle line, when compressed.
    pub handle: Option<String>,
    /// Tokens of the original (o200k_base).
    pub original_tokens: i64,
    /// Tokens of the summary.
    pub summary_tokens: i64,
}

/// Ingests into one store, building the compression pipeline only when
/// something needs compressing.
pub struct Ingestor<'a> {
    store: &'a mut Store,
    min_compress_bytes: usize,
    exact_tokens: bool,
    make_pipeline: Box<dyn Fn() -> Result<Pipeline> + 'a>,
    pipeline: Option<Pipeline>,
    retention: Option<Retention>,
}

impl<'a> Ingestor<'a> {
    /// An ingestor on `store` that compresses inputs of `min_compress_bytes`
    /// or more with a pipeline from `make_pipeline`.
    pub fn new(
        store: &'a mut Store,
        min_compress_bytes: usize,
        make_pipeline: impl Fn() -> Result<Pipeline> + 'a,
    ) -> Self {
        Self {
            store,
            min_compress_bytes,
            exact_tokens: true,
            make_pipeline: Box::new(make_pipeline),
            pipeline: None,
            retention: None,
        }
    }

    /// Stores estimated token counts, which the store makes exact later:
    /// for one-shot processes on the agent's critical path (the hooks), which
    /// cannot afford to build the BPE tokenizer.
    pub fn estimate_tokens(&mut self) {
        self.exact_tokens = false;
    }

    /// Keeps what it stores by `retention`: each class's TTL, and the
    /// store's cap (the least important entries go when it is passed).
    /// Without it entries never expire and the store has no cap.
    pub fn set_retention(&mut self, retention: Retention) {
        self.retention = Some(retention);
    }

    /// Uses `pipeline` from now on instead of building one.
    pub fn use_pipeline(&mut self, pipeline: Pipeline) {
        self.pipeline = Some(pipeline);
    }

    fn pipeline(&mut self) -> Result<&Pipeline> {
        if self.pipeline.is_none() {
            self.pipeline = Some((self.make_pipeline)()?);
        }
        Ok(self.pipeline.as_ref().expect("just built"))
    }

    /// Ingests `request`. Secrets are redacted first (by the store's
    /// redactor): no plugin sees them, the store never holds them, and the
    /// text the agent gets back has the same markers.
    pub fn ingest(&mut self, request: IngestRequest) -> Result<Ingested> {
        let key = match &request.tool_use_id {
            Some(id) => IdempotencyKey::for_tool_call(&request.session, id),
            None => IdempotencyKey::for_content(&request.session, &request.text),
        };
        if let Some(id) = self.store.find(&key)? {
            return Ok(ingested(&self.store.entry(&id)?, false));
        }
        let request = redacted(self.store.redactor(), request);
        let input = request
            .compress_text
            .as_ref()
            .unwrap_or(&request.text)
            .clone();
        let class = match request.class {
            Some(c) => c,
            None => {
                let classify = ClassifyRequest {
                    text: input.clone(),
                    tool_name: request.tool_name.clone(),
                    source_path: request.source_path.clone(),
                    command: request.command.clone(),
                };
                self.pipeline()?.classify(&classify).classification.class
            }
        };
        let summary = if let Some(summary) = request.summary.clone() {
            summary
        } else if request.text.len() < self.min_compress_bytes {
            request.text.clone()
        } else {
            // The pipeline passes through what is never compressed (prompts).
            let compress = CompressRequest {
                text: input.clone(),
                class,
                tool_name: request.tool_name.clone(),
                // `cat a.py` printed a.py: its path picks the parser.
                source_path: ghost_types::command::file_hint(
                    request.source_path.as_deref(),
                    request.command.as_deref(),
                )
                .map(str::to_owned),
                target_tokens: request.target_tokens,
            };
            let out = self.pipeline()?.compress(&compress).outcome;
            // Not compressed: the agent gets the original as it was.
            if out.applied {
                out.text
            } else {
                request.text.clone()
            }
        };
        let count = |t: &str| {
            if self.exact_tokens {
                crate::tokens::count(t) as i64
            } else {
                crate::tokens::estimate(t) as i64
            }
        };
        let original_tokens = count(&request.text);
        let summary_tokens = if summary == request.text {
            original_tokens
        } else {
            count(&summary)
        };
        let tags = tags_of(&request);
        let entry = NewEntry {
            key,
            session_id: request.session,
            agent_id: request.agent_id,
            created_at: request.created_at,
            class,
            source_tool: request.tool_name,
            source_path: request.source_path,
            original: request.text,
            summary,
            original_tokens,
            summary_tokens,
            tokens_exact: self.exact_tokens,
            ttl_seconds: request
                .ttl_seconds
                .or_else(|| self.retention.as_ref().and_then(|r| r.ttl_seconds(class))),
            context: request.context,
            tags,
        };
        let stored = self.store.insert(&entry).context("storing the original")?;
        if !stored.created {
            // Another process stored this tool call first: answer with its entry.
            return Ok(ingested(&self.store.entry(&stored.id)?, false));
        }
        self.keep_under_cap(&stored.id);
        Ok(answer(
            &stored.id,
            entry.class,
            &entry.original,
            &entry.summary,
            (entry.original_tokens, entry.summary_tokens),
            true,
        ))
    }
}

impl Ingestor<'_> {
    /// Evicts the least important entries when the store has outgrown its
    /// cap (never `just_stored`). A failure is logged: the entry is stored.
    fn keep_under_cap(&mut self, just_stored: &str) {
        let Some(cap) = self.retention.as_ref().and_then(Retention::max_store_bytes) else {
            return;
        };
        match self.store.evict_to_cap(cap, just_stored) {
            Ok(e) if e.entries > 0 => log::info!(
                "the store passed its cap of {} MiB: evicted {} entries, least important first \
                 ({} → {} bytes in use)",
                cap >> 20,
                e.entries,
                e.used_before,
                e.used_after
            ),
            Ok(_) => {}
            Err(e) => log::warn!("keeping the store under its cap failed: {e}"),
        }
    }
}

/// `request` with every text in it redacted.
fn redacted(redactor: &ghost_redact::Redactor, mut request: IngestRequest) -> IngestRequest {
    let redact = |text: String| redactor.redact_owned(text);
    request.text = redact(request.text);
    request.compress_text = request.compress_text.map(redact);
    request.summary = request.summary.map(redact);
    request.context = redact(request.context);
    request.command = request.command.map(redact);
    request.source_path = request.source_path.map(redact);
    request.tags = request.tags.into_iter().map(redact).collect();
    request
}

/// The tags of a request: its own, the tool, and the file's name, stem and
/// directory.
fn tags_of(request: &IngestRequest) -> String {
    let mut tags: Vec<String> = request.tags.clone();
    if let Some(tool) = &request.tool_name {
        tags.push(tool.clone());
    }
    if let Some(path) = &request.source_path {
        let path = std::path::Path::new(path);
        for part in [
            path.file_name(),
            path.file_stem(),
            path.parent().and_then(|p| p.file_name()),
        ]
        .into_iter()
        .flatten()
        {
            tags.push(part.to_string_lossy().into_owned());
        }
    }
    tags.dedup();
    tags.join(" ")
}

fn ingested(entry: &Entry, created: bool) -> Ingested {
    answer(
        &entry.id,
        entry.class,
        &entry.original,
        &entry.summary,
        (entry.original_tokens, entry.summary_tokens),
        created,
    )
}

fn answer(
    id: &str,
    class: ContentClass,
    original: &str,
    summary: &str,
    (original_tokens, summary_tokens): (i64, i64),
    created: bool,
) -> Ingested {
    let compressed = summary != original;
    let handle = compressed.then(|| handle_line(id, original_tokens, summary_tokens));
    let text = match &handle {
        Some(h) => format!("{}\n{h}", summary.trim_end_matches('\n')),
        None => summary.to_string(),
    };
    Ingested {
        id: id.to_string(),
        created,
        class,
        compressed,
        text,
        handle,
        original_tokens,
        summary_tokens,
    }
}

/// The line the agent sees under a compressed result, e.g.
/// `[ghost 41.2k→3.1k tokens · full text: get id=7f3a9c0b12de · search: recall]`.
pub fn handle_line(id: &str, original_tokens: i64, summary_tokens: i64) -> String {
    format!(
        "[ghost {}→{} tokens · full text: get id={id} · search: recall]",
        short_count(original_tokens),
        short_count(summary_tokens),
    )
}

/// `950`, `41.2k`, `1.3M`.
pub fn short_count(n: i64) -> String {
    match n {
        n if n >= 1_000_000 => format!("{:.1}M", n as f64 / 1e6),
        n if n >= 1_000 => format!("{:.1}k", n as f64 / 1e3),
        n => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_short() {
        assert_eq!(short_count(950), "950");
        assert_eq!(short_count(41_234), "41.2k");
        assert_eq!(short_count(1_250_000), "1.2M");
    }

    #[test]
    fn tags_name_the_tool_and_the_file() {
        let mut r = IngestRequest::new("x", "s");
        r.tool_name = Some("Read".into());
        r.source_path = Some("/repo/lib/auth/login.ex".into());
        assert_eq!(tags_of(&r), "Read login.ex login auth");
    }
}
