//! What leaves the store, and how completely: forgetting one entry, purging
//! a session, everything before a date or everything, and evicting the
//! least important entries when the store outgrows its cap.
//!
//! Forgetting is not hiding. A forgotten entry keeps only its id (so that
//! forgetting it again is harmless); its texts are blanked at once. Every
//! connection runs with `secure_delete`, and both full-text indexes with
//! FTS5's `secure-delete`, so a removed text is overwritten in the file
//! and dropped from the index, not left in free pages or as a delete
//! marker beside its tokens. A purge ends with a checkpoint that empties
//! the write-ahead log, which would otherwise still hold the old pages.

use rusqlite::{Connection, TransactionBehavior, params};
use serde::Serialize;

use crate::{Store, StoreError};

/// The assignments that turn an entry into a tombstone: inactive, every
/// text blanked (the FTS triggers take its old text out of the index).
pub(crate) const TOMBSTONE: &str =
    "active = 0, original = '', summary = '', context = '', tags = '', source_path = NULL";

/// Which part of the store a purge removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope<'a> {
    /// One session: its entries, its context state, its gateway
    /// conversations and the index of its transcript.
    Session(&'a str),
    /// Whatever was created before this time (Unix milliseconds): entries,
    /// sessions last seen before it, gateway decisions made before it.
    Before(i64),
    /// Everything: entries, sessions, gateway decisions, the memory index
    /// (the memory files themselves are the user's and stay).
    All,
}

/// What a purge removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Purged {
    /// Entries removed (tombstones of forgotten ones included).
    pub entries: usize,
    /// Sessions whose context state was removed.
    pub sessions: usize,
    /// Blocks the gateway had rewritten, removed with their replacements.
    pub gateway_rewrites: usize,
    /// Chunks of the memory index removed.
    pub memory_chunks: usize,
    /// Whether the write-ahead log was emptied (false when another process
    /// was reading: the old pages go at the next checkpoint).
    pub wal_cleared: bool,
}

/// What an eviction did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Evicted {
    /// Entries removed, lowest priority first.
    pub entries: usize,
    /// Bytes the store's pages held before.
    pub used_before: u64,
    /// Bytes they hold after.
    pub used_after: u64,
}

/// At most this many rounds of eviction in one call: each round removes
/// what should bring the store under its cap; the index's share is only
/// estimated, so a second round may be needed.
const EVICTION_ROUNDS: usize = 4;

impl Store {
    /// Removes `scope` for good (see [`Scope`]), then empties the
    /// write-ahead log.
    pub fn purge(&mut self, scope: Scope<'_>) -> Result<Purged, StoreError> {
        let mut purged = {
            let tx = self
                .conn_mut()
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let purged = match scope {
                Scope::Session(session) => purge_filtered(&tx, &SESSION, &session)?,
                Scope::Before(time) => purge_filtered(&tx, &BEFORE, &time)?,
                Scope::All => purge_all(&tx)?,
            };
            tx.commit()?;
            purged
        };
        purged.wal_cleared = self.clear_wal()?;
        Ok(purged)
    }

    /// Bytes held by the store's pages (its size less its free pages).
    pub fn used_bytes(&self) -> Result<u64, StoreError> {
        let conn = self.conn();
        let pragma = |name: &str| -> Result<u64, StoreError> {
            Ok(conn.pragma_query_value(None, name, |r| r.get::<_, i64>(0))? as u64)
        };
        Ok(pragma("page_count")?.saturating_sub(pragma("freelist_count")?) * pragma("page_size")?)
    }

    /// When the store holds more than `cap` bytes, removes entries, the
    /// least important first (forgotten ones, then by priority, the oldest
    /// first among equals), until it holds at most nine tenths of `cap`.
    /// The entry `keep` (the one just stored) is never removed. Cheap when
    /// under the cap: two pragma reads.
    pub fn evict_to_cap(&mut self, cap: u64, keep: &str) -> Result<Evicted, StoreError> {
        let used_before = self.used_bytes()?;
        let mut evicted = Evicted {
            entries: 0,
            used_before,
            used_after: used_before,
        };
        if used_before <= cap {
            return Ok(evicted);
        }
        let goal = cap / 10 * 9;
        for _ in 0..EVICTION_ROUNDS {
            let removed = evict_round(self.conn_mut(), evicted.used_after - goal, keep)?;
            evicted.entries += removed;
            evicted.used_after = self.used_bytes()?;
            if removed == 0 || evicted.used_after <= goal {
                break;
            }
        }
        Ok(evicted)
    }

    /// Redacts what is already stored by the current rules: texts written
    /// by a ghost older than redaction, or before a rule was added or a
    /// pattern denied. Returns how many rows changed. Run by `gc`, which
    /// then compacts the file, so the old texts leave it.
    pub fn redact_stored(&mut self) -> Result<usize, StoreError> {
        let redactor = self.redactor().clone();
        // `Ok` with the text when it holds no secret, `Err` with the
        // redacted text when it did.
        let redact = |text: String| -> Result<String, String> {
            match redactor.redact(&text) {
                std::borrow::Cow::Borrowed(_) => Ok(text),
                std::borrow::Cow::Owned(redacted) => Err(redacted),
            }
        };
        let tx = self
            .conn_mut()
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut changed = 0;
        {
            // Rows to change are gathered first: a table is not written
            // while a statement still reads it.
            type Texts = (i64, [String; 4], Option<String>);
            let mut redone: Vec<Texts> = Vec::new();
            let mut read = tx.prepare(
                "SELECT rowid, original, summary, context, tags, source_path FROM entries
                 WHERE active",
            )?;
            let mut rows = read.query([])?;
            while let Some(row) = rows.next()? {
                let mut any = false;
                let mut redo = |text: String| match redact(text) {
                    Ok(same) => same,
                    Err(redacted) => {
                        any = true;
                        redacted
                    }
                };
                let texts = [
                    redo(row.get(1)?),
                    redo(row.get(2)?),
                    redo(row.get(3)?),
                    redo(row.get(4)?),
                ];
                let path = row.get::<_, Option<String>>(5)?.map(&mut redo);
                if any {
                    redone.push((row.get(0)?, texts, path));
                }
            }
            drop(rows);
            for (rowid, [original, summary, context, tags], path) in &redone {
                tx.execute(
                    "UPDATE entries SET original = ?2, summary = ?3, context = ?4, tags = ?5,
                        source_path = ?6 WHERE rowid = ?1",
                    params![rowid, original, summary, context, tags, path],
                )?;
            }
            changed += redone.len();
        }
        {
            // A chunk leaves its index and comes back (the index's triggers
            // are on insert and delete).
            type Chunk = (i64, String, String, String, i64, i64, String);
            let mut read = tx.prepare(
                "SELECT rowid, path, project, source, start_line, end_line, text
                 FROM memory_chunks",
            )?;
            let mut rows = read.query([])?;
            let mut redone: Vec<Chunk> = Vec::new();
            while let Some(r) = rows.next()? {
                if let Err(text) = redact(r.get(6)?) {
                    redone.push((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        text,
                    ));
                }
            }
            drop(rows);
            for (rowid, path, project, source, start, end, text) in &redone {
                tx.execute("DELETE FROM memory_chunks WHERE rowid = ?1", [rowid])?;
                tx.execute(
                    "INSERT INTO memory_chunks (rowid, path, project, source, start_line, end_line, text)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![rowid, path, project, source, start, end, text],
                )?;
            }
            changed += redone.len();
        }
        {
            let mut read =
                tx.prepare("SELECT conversation, block_key, replacement FROM gateway_rewrites")?;
            let mut rows = read.query([])?;
            let mut redone = Vec::new();
            while let Some(row) = rows.next()? {
                if let Err(text) = redact(row.get(2)?) {
                    redone.push((row.get::<_, String>(0)?, row.get::<_, String>(1)?, text));
                }
            }
            drop(rows);
            for (conversation, block, text) in &redone {
                tx.execute(
                    "UPDATE gateway_rewrites SET replacement = ?3
                     WHERE conversation = ?1 AND block_key = ?2",
                    params![conversation, block, text],
                )?;
            }
            changed += redone.len();
        }
        tx.commit()?;
        Ok(changed)
    }

    /// Checkpoints the write-ahead log into the file and truncates it, so
    /// pages that held removed texts leave it. False when a reader kept
    /// part of it in use.
    pub fn clear_wal(&self) -> Result<bool, StoreError> {
        let busy: i64 = self
            .conn()
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
        Ok(busy == 0)
    }
}

/// One eviction round: removes the least important entries whose texts add
/// up to `bytes`. Returns how many it removed.
fn evict_round(conn: &mut Connection, bytes: u64, keep: &str) -> Result<usize, StoreError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let victims: Vec<i64> = {
        let mut stmt = tx.prepare(
            "SELECT rowid, length(CAST(original AS BLOB)) + length(CAST(summary AS BLOB))
                + length(CAST(context AS BLOB)) + length(CAST(tags AS BLOB)) + 200
             FROM entries WHERE id <> ?1
             ORDER BY active, priority, created_at",
        )?;
        let mut rows = stmt.query([keep])?;
        let mut victims = Vec::new();
        let mut total = 0u64;
        while total < bytes {
            let Some(row) = rows.next()? else { break };
            victims.push(row.get(0)?);
            total += row.get::<_, i64>(1)? as u64;
        }
        victims
    };
    {
        let mut delete = tx.prepare_cached("DELETE FROM entries WHERE rowid = ?1")?;
        for rowid in &victims {
            delete.execute([rowid])?;
        }
    }
    tx.commit()?;
    Ok(victims.len())
}

/// Which rows of each table a scoped purge takes: SQL conditions on `?1`.
struct Filter {
    /// On `session_state` (its transcripts' index goes with it).
    sessions: &'static str,
    /// On `entries`.
    entries: &'static str,
    /// On `gateway_conversations`.
    conversations: &'static str,
    /// On `gateway_rewrites` (a conversation's rewrites go with it).
    rewrites: &'static str,
}

/// The session `?1`: everything about it.
const SESSION: Filter = Filter {
    sessions: "session_id = ?1",
    entries: "session_id = ?1",
    conversations: "session_id = ?1",
    rewrites: "conversation IN (SELECT conversation FROM gateway_conversations WHERE session_id = ?1)",
};

/// Before `?1` (Unix ms): what was made, or last seen, earlier.
const BEFORE: Filter = Filter {
    sessions: "last_seen < ?1",
    entries: "created_at < ?1",
    conversations: "last_request_at < ?1",
    rewrites: "created_at < ?1 OR conversation IN
        (SELECT conversation FROM gateway_conversations WHERE last_request_at < ?1)",
};

/// Deletes what `filter` selects with `arg` as `?1`, children before the
/// rows they are found through.
fn purge_filtered(
    tx: &Connection,
    filter: &Filter,
    arg: &dyn rusqlite::ToSql,
) -> Result<Purged, StoreError> {
    let run = |sql: String| tx.execute(&sql, [arg]);
    let transcripts = format!(
        "SELECT transcript_path FROM session_state WHERE {}",
        filter.sessions
    );
    let memory_chunks = run(format!(
        "DELETE FROM memory_chunks WHERE source = 'session' AND path IN ({transcripts})"
    ))?;
    run(format!(
        "DELETE FROM memory_files WHERE source = 'session' AND path IN ({transcripts})"
    ))?;
    let gateway_rewrites = run(format!(
        "DELETE FROM gateway_rewrites WHERE {}",
        filter.rewrites
    ))?;
    run(format!(
        "DELETE FROM gateway_conversations WHERE {}",
        filter.conversations
    ))?;
    Ok(Purged {
        entries: run(format!("DELETE FROM entries WHERE {}", filter.entries))?,
        sessions: run(format!(
            "DELETE FROM session_state WHERE {}",
            filter.sessions
        ))?,
        gateway_rewrites,
        memory_chunks,
        wal_cleared: false,
    })
}

fn purge_all(tx: &Connection) -> Result<Purged, StoreError> {
    let gateway_rewrites = tx.execute("DELETE FROM gateway_rewrites", [])?;
    tx.execute("DELETE FROM gateway_conversations", [])?;
    tx.execute("DELETE FROM memory_files", [])?;
    let memory_chunks = tx.execute("DELETE FROM memory_chunks", [])?;
    Ok(Purged {
        entries: tx.execute("DELETE FROM entries", [])?,
        sessions: tx.execute("DELETE FROM session_state", [])?,
        gateway_rewrites,
        memory_chunks,
        wal_cleared: false,
    })
}
