//! The store: every original ghost ever shrank, in one SQLite file.
//!
//! - [`archive`]: the [`Store`] itself: opening, entries in and out,
//!   maintenance, garbage collection;
//! - [`session`]: the per-session context state the hooks keep beside the
//!   archive: context readings, compaction marks, what an agent still has
//!   in its context;
//! - [`gateway`]: what the gateway decided per conversation (the blocks it
//!   rewrote, so every later request gets the same bytes; context figures
//!   and garbage-collection steps);
//! - [`memory`]: the index of memory files (MEMORY.md, daily logs, past
//!   sessions' turns), chunked for FTS5 search;
//! - [`retention`]: what leaves the store and how completely: forgetting,
//!   purging a session, a date range or everything, eviction under a cap;
//! - [`schema`]: tables, the FTS5 index and its triggers, migrations;
//! - [`entry`]: what an entry is and how its id is derived;
//! - [`query`]: user text → a safe FTS5 query;
//! - [`recall`]: ranked search;
//! - [`report`]: context pressure and statistics;
//! - [`snippet`]: the best-matching line of a hit;
//! - [`priority`]: how much an entry matters.
//!
//! Every text the store writes (originals, summaries, search context,
//! memory chunks, the gateway's replacements) goes through its
//! [`ghost_redact::Redactor`] first: no secret is ever written in clear,
//! whichever caller brought it in. The key of the markers' hashes lives
//! beside the store file (`redaction.key`, 0600).
//!
//! The file is opened in WAL mode with a busy timeout, so several processes
//! (hooks, the MCP server, the CLI) read and write it at once; every write is
//! one immediate transaction. The store never counts tokens itself: callers
//! pass the counts, or the counter that settles estimated ones.

pub mod archive;
pub mod entry;
pub mod gateway;
pub mod memory;
pub mod priority;
pub mod query;
pub mod recall;
pub mod report;
pub mod retention;
pub mod schema;
pub mod session;
pub mod snippet;

use std::path::PathBuf;
use std::time::Duration;

pub use archive::{Collected, Maintenance, Store};
pub use entry::{Entry, Forgotten, IdempotencyKey, InContext, Listed, NewEntry, SeenBy, Stored};
pub use gateway::{Conversation, GatewaySavings, GatewayState, Rewrite, RewriteKind, SentRequest};
pub use memory::{MemoryChunk, MemoryFile, MemoryHit, MemoryIndex};
pub use retention::{Evicted, Purged, Scope};
pub use session::{ContextReading, DEFAULT_CONTEXT_WINDOW, SessionContext};

/// How long a writer waits for another one before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// What can go wrong with the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error("store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The store's directory could not be created.
    #[error("cannot create the store's directory {path}: {source}")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file was written by a newer ghost.
    #[error(
        "the store has schema version {found}, but this ghost understands up to {supported}: \
         upgrade ghost (the store was left untouched)"
    )]
    NewerSchema {
        /// The file's version.
        found: u32,
        /// The newest version this binary knows.
        supported: u32,
    },
    /// A migration failed (and was rolled back).
    #[error("migrating the store to schema version {to} failed (rolled back): {source}")]
    Migration {
        /// The version it was migrating to.
        to: u32,
        /// Why.
        source: rusqlite::Error,
    },
    /// The redaction key or a configured redaction pattern is unusable.
    #[error(transparent)]
    Redact(#[from] ghost_redact::RedactError),
    /// No entry has this id.
    #[error("no entry with id '{0}' (ids are the 12 hex digits in ghost's handle line)")]
    NotFound(String),
}

impl StoreError {
    /// Whether SQLite answered busy or locked: another connection held a lock.
    pub fn is_busy(&self) -> bool {
        let sqlite = match self {
            StoreError::Sqlite(e) | StoreError::Migration { source: e, .. } => e,
            _ => return false,
        };
        matches!(
            sqlite.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        )
    }
}

/// The current time in Unix milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
