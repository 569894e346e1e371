//! The typed API over the store that every agent-facing layer shares: the MCP
//! tools and their CLI twins are thin wrappers that turn their arguments into
//! these requests and render these answers (see [`crate::render`]).
//!
//! Requests derive `Deserialize` and `JsonSchema`, so an MCP tool takes them
//! as its arguments (their doc comments are what the model reads), and the
//! command line builds them from typed flags. Answers derive `Serialize` and
//! `JsonSchema` (the tools' structured output, `--json`).

use std::time::Duration;

use ghost_store::recall::{RecallHit, RecallQuery};
use ghost_store::report::{Pressure, Stats};
use ghost_store::{Entry, Forgotten, Store, StoreError, now_ms};
use ghost_types::ContentClass;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::excerpt::{DEFAULT_CONTEXT_LINES, Excerpt, Selection, excerpt};
use crate::tokens;

/// Estimated token counts made exact before a report, at most.
pub const SETTLE_BEFORE_REPORT: usize = 5_000;

/// Most hits one recall returns.
pub const MAX_RECALL_LIMIT: u32 = 50;

/// Hits a recall returns when the request does not say.
pub const DEFAULT_RECALL_LIMIT: u32 = 5;

/// How often a long-running process (`ghost serve`) or an occasional one
/// (`ghost ingest`) runs the store's maintenance pass.
pub const MAINTENANCE_EVERY: Duration = Duration::from_secs(3_600);

/// Why a request could not be served.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The store failed, or has no such entry.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The request contradicts itself; the message says how to fix it.
    #[error("{0}")]
    BadRequest(String),
}

/// A search of the store.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecallRequest {
    /// What to look for, in plain words: an error message, a file or function
    /// name, a command. Punctuation and quotes are fine.
    pub query: String,
    /// Only entries of this class: log, code, structured, prose, error, prompt.
    pub class: Option<ContentClass>,
    /// Only entries of this session id.
    pub session: Option<String>,
    /// How many entries to return (default 5, at most 50).
    pub limit: Option<u32>,
    /// Return each entry's full original text too (default false).
    pub full: Option<bool>,
}

/// What `recall` returns.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RecallOutput {
    /// The query as asked.
    pub query: String,
    /// The matching entries, best first.
    pub hits: Vec<RecallHit>,
}

/// A stored original, or part of it.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetRequest {
    /// The entry's id (from a ghost handle line or from recall).
    pub id: String,
    /// First line to return (1-based).
    pub start_line: Option<u32>,
    /// Last line to return (inclusive).
    pub end_line: Option<u32>,
    /// Return only the lines containing this text (case-insensitive), with
    /// context around them.
    pub around: Option<String>,
    /// Lines of context either side of each `around` match (default 3).
    pub context_lines: Option<u32>,
}

impl GetRequest {
    /// The lines asked for; a request for both a range and `around`, or for
    /// a range that ends before it starts, is refused.
    pub fn selection(&self) -> Result<Selection, ServiceError> {
        if let Some(needle) = &self.around {
            if self.start_line.is_some() || self.end_line.is_some() {
                return Err(ServiceError::BadRequest(
                    "get: give either around or start_line/end_line, not both".into(),
                ));
            }
            return Ok(Selection::Around {
                needle: needle.clone(),
                context: self
                    .context_lines
                    .map_or(DEFAULT_CONTEXT_LINES, |c| c as usize),
            });
        }
        if let (Some(s), Some(e)) = (self.start_line, self.end_line)
            && s > e
        {
            return Err(ServiceError::BadRequest(format!(
                "get: start_line {s} is after end_line {e}"
            )));
        }
        if self.start_line.is_none() && self.end_line.is_none() {
            return Ok(Selection::All);
        }
        Ok(Selection::Range {
            start: self.start_line.map(|s| s as usize),
            end: self.end_line.map(|e| e as usize),
        })
    }
}

/// What `get` returns.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GetOutput {
    /// The entry's id.
    pub id: String,
    /// Its class.
    pub class: ContentClass,
    /// Where it came from.
    pub source: String,
    /// Its session.
    pub session_id: String,
    /// Tokens of the whole original.
    pub original_tokens: i64,
    /// The lines asked for.
    #[serde(flatten)]
    pub excerpt: Excerpt,
}

impl GetOutput {
    /// The answer for `excerpt` of `entry`.
    pub fn new(entry: &Entry, excerpt: Excerpt) -> Self {
        Self {
            id: entry.id.clone(),
            class: entry.class,
            source: entry.source_label(),
            session_id: entry.session_id.clone(),
            original_tokens: entry.original_tokens,
            excerpt,
        }
    }
}

/// How full a session's context is.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PressureRequest {
    /// The session id (default: the most recent session).
    pub session: Option<String>,
}

/// An entry to forget.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgetRequest {
    /// The entry's id.
    pub id: String,
}

/// What `forget` returns.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ForgetOutput {
    /// The entry's id.
    pub id: String,
    /// `now` when it was forgotten by this call, `already` when it had been.
    pub status: Forgotten,
}

/// The store's statistics (no arguments).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatsRequest {}

/// What `gc` did.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GcOutput {
    /// Entries past their TTL, expired now.
    pub expired: usize,
    /// Stored texts (entries, memory chunks, gateway replacements) that
    /// held a secret by the current rules, redacted now.
    pub redacted: usize,
    /// Forgotten entries purged for good.
    pub purged: usize,
    /// The file's size before, bytes.
    pub bytes_before: u64,
    /// The file's size after, bytes.
    pub bytes_after: u64,
}

/// ghost's store behind its typed operations.
pub struct Service {
    store: Store,
}

impl Service {
    /// The service on `store`.
    pub fn new(store: Store) -> Self {
        Self { store }
    }

    /// The store underneath.
    pub fn store(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Searches every entry for `request.query`, ranked.
    pub fn recall(&mut self, request: &RecallRequest) -> Result<RecallOutput, ServiceError> {
        let query = RecallQuery {
            text: request.query.clone(),
            class: request.class,
            session: request.session.clone(),
            limit: request
                .limit
                .unwrap_or(DEFAULT_RECALL_LIMIT)
                .clamp(1, MAX_RECALL_LIMIT) as usize,
            full: request.full.unwrap_or(false),
        };
        let hits = self.store.recall(&query, now_ms())?;
        Ok(RecallOutput {
            query: request.query.clone(),
            hits,
        })
    }

    /// The lines of an entry's original that `request` asks for (reading it
    /// refreshes its priority).
    pub fn get(&mut self, request: &GetRequest) -> Result<GetOutput, ServiceError> {
        let selection = request.selection()?;
        let entry = self.store.read(&request.id, now_ms())?;
        Ok(GetOutput::new(&entry, excerpt(&entry.original, &selection)))
    }

    /// How full a session's context is, what ghost holds for it and what can
    /// go first (token counts made exact first).
    pub fn pressure(&mut self, request: &PressureRequest) -> Result<Pressure, ServiceError> {
        self.settle_token_counts(SETTLE_BEFORE_REPORT)?;
        Ok(self.store.pressure(request.session.as_deref(), now_ms())?)
    }

    /// Removes a session, everything before a time, or everything, for
    /// good (see [`ghost_store::Scope`]).
    pub fn purge(
        &mut self,
        scope: ghost_store::Scope<'_>,
    ) -> Result<ghost_store::Purged, ServiceError> {
        Ok(self.store.purge(scope)?)
    }

    /// Forgets an entry: its text is erased at once, its id kept until
    /// `gc` (so twice is harmless).
    pub fn forget(&mut self, request: &ForgetRequest) -> Result<ForgetOutput, ServiceError> {
        let status = self.store.forget(&request.id)?;
        Ok(ForgetOutput {
            id: request.id.trim().to_string(),
            status,
        })
    }

    /// The whole store in figures (token counts made exact first).
    pub fn stats(&mut self, _request: &StatsRequest) -> Result<Stats, ServiceError> {
        self.settle_token_counts(SETTLE_BEFORE_REPORT)?;
        Ok(self.store.stats()?)
    }

    /// Expires entries past their TTL, redacts what was stored before the
    /// current rules, purges forgotten entries, compacts the file.
    pub fn gc(&mut self) -> Result<GcOutput, ServiceError> {
        let maintained = self.store.maintain(now_ms())?;
        let redacted = self.store.redact_stored()?;
        let collected = self.store.gc()?;
        Ok(GcOutput {
            expired: maintained.expired,
            redacted,
            purged: collected.purged,
            bytes_before: collected.bytes_before,
            bytes_after: collected.bytes_after,
        })
    }

    /// The maintenance pass of a long-running server: expiry, priorities,
    /// every estimated token count made exact. Failures are logged, never
    /// fatal.
    pub fn maintain(&mut self) {
        if let Err(e) = self.store.maintain(now_ms()) {
            log::warn!("store maintenance failed: {e}");
        }
        if let Err(e) = self.settle_token_counts(usize::MAX >> 1) {
            log::warn!("counting tokens failed: {e}");
        }
    }

    fn settle_token_counts(&mut self, limit: usize) -> Result<usize, StoreError> {
        self.store.settle_token_counts(limit, tokens::count)
    }
}
