//! The store's schema and its migrations.
//!
//! The schema version lives in SQLite's `user_version`. Each migration moves
//! the database from version `n` to `n + 1` inside one immediate transaction,
//! so two processes opening an old database at once never both migrate it. A
//! database whose version is newer than this binary knows is refused before
//! anything touches it.

use rusqlite::{Connection, TransactionBehavior};

use crate::StoreError;

/// The migrations, in order: `MIGRATIONS[n]` takes version `n` to `n + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: entries, their full-text index, session state, store metadata.
    r#"
    -- Small columns first, big texts last: SQLite reads a row's columns in
    -- order, and ranking reads only the small ones.
    CREATE TABLE entries (
        rowid            INTEGER PRIMARY KEY,
        id               TEXT    NOT NULL UNIQUE,
        idempotency_key  TEXT    NOT NULL UNIQUE,
        session_id       TEXT    NOT NULL,
        created_at       INTEGER NOT NULL,
        class            TEXT    NOT NULL,
        source_tool      TEXT,
        source_path      TEXT,
        original_tokens  INTEGER NOT NULL,
        summary_tokens   INTEGER NOT NULL,
        priority         REAL    NOT NULL,
        last_access      INTEGER NOT NULL,
        ttl_seconds      INTEGER,
        active           INTEGER NOT NULL DEFAULT 1,
        tags             TEXT    NOT NULL DEFAULT '',
        context          TEXT    NOT NULL DEFAULT '',
        summary          TEXT    NOT NULL,
        original         TEXT    NOT NULL
    );
    CREATE INDEX entries_by_session ON entries(session_id, active, created_at);
    CREATE INDEX entries_by_created ON entries(created_at);

    -- Only active entries are indexed: a forgotten entry never matches.
    -- '_' is part of a word: snake_case identifiers are searched whole.
    CREATE VIRTUAL TABLE entries_fts USING fts5(
        original, summary, source_path, context, tags,
        content = 'entries', content_rowid = 'rowid',
        tokenize = "porter unicode61 tokenchars '_'"
    );
    CREATE TRIGGER entries_fts_insert AFTER INSERT ON entries WHEN new.active BEGIN
        INSERT INTO entries_fts(rowid, original, summary, source_path, context, tags)
        VALUES (new.rowid, new.original, new.summary, coalesce(new.source_path, ''),
                new.context, new.tags);
    END;
    CREATE TRIGGER entries_fts_delete AFTER DELETE ON entries WHEN old.active BEGIN
        INSERT INTO entries_fts(entries_fts, rowid, original, summary, source_path, context, tags)
        VALUES ('delete', old.rowid, old.original, old.summary, coalesce(old.source_path, ''),
                old.context, old.tags);
    END;
    CREATE TRIGGER entries_fts_update_old AFTER UPDATE OF
        active, original, summary, source_path, context, tags ON entries WHEN old.active BEGIN
        INSERT INTO entries_fts(entries_fts, rowid, original, summary, source_path, context, tags)
        VALUES ('delete', old.rowid, old.original, old.summary, coalesce(old.source_path, ''),
                old.context, old.tags);
    END;
    CREATE TRIGGER entries_fts_update_new AFTER UPDATE OF
        active, original, summary, source_path, context, tags ON entries WHEN new.active BEGIN
        INSERT INTO entries_fts(rowid, original, summary, source_path, context, tags)
        VALUES (new.rowid, new.original, new.summary, coalesce(new.source_path, ''),
                new.context, new.tags);
    END;

    CREATE TABLE session_state (
        session_id          TEXT    PRIMARY KEY,
        first_seen          INTEGER NOT NULL,
        last_seen           INTEGER NOT NULL,
        context_used        INTEGER,
        context_window      INTEGER,
        context_source      TEXT,
        context_read_at     INTEGER,
        entries_ingested    INTEGER NOT NULL DEFAULT 0,
        tokens_original     INTEGER NOT NULL DEFAULT 0,
        tokens_summary      INTEGER NOT NULL DEFAULT 0
    );

    CREATE TABLE store_meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    "#,
    // 2: token counts may be estimates, made exact later: a one-shot hook
    // process cannot afford to build the BPE tokenizer (~0.2 s).
    r#"
    ALTER TABLE entries ADD COLUMN tokens_exact INTEGER NOT NULL DEFAULT 1;
    CREATE INDEX entries_estimated ON entries(tokens_exact) WHERE tokens_exact = 0;
    "#,
    // 3: what is still in the agent's context. Entries know which agent of
    // the session (a subagent has its own context) saw them; a session knows
    // the last entry before its latest compaction.
    r#"
    ALTER TABLE entries ADD COLUMN agent_id TEXT NOT NULL DEFAULT '';
    ALTER TABLE session_state ADD COLUMN compacted_after INTEGER NOT NULL DEFAULT 0;
    "#,
    // 4: what the gateway decided, per conversation: every block it
    // rewrote (so every later request gets the same bytes and the prompt
    // cache its prefix), and each conversation's context figures and
    // garbage-collection step.
    r#"
    CREATE TABLE gateway_conversations (
        conversation      TEXT    PRIMARY KEY,
        session_id        TEXT,
        first_seen        INTEGER NOT NULL,
        last_request_at   INTEGER NOT NULL,
        requests          INTEGER NOT NULL DEFAULT 0,
        gc_step           INTEGER NOT NULL DEFAULT 0,
        gc_floor_tokens   INTEGER,
        input_tokens      INTEGER,
        sent_bytes        INTEGER,
        window_tokens     INTEGER
    );
    CREATE INDEX gateway_conversations_by_session ON gateway_conversations(session_id);
    CREATE TABLE gateway_rewrites (
        conversation      TEXT    NOT NULL,
        block_key         TEXT    NOT NULL,
        original_digest   TEXT    NOT NULL,
        replacement       TEXT    NOT NULL,
        kind              TEXT    NOT NULL,
        step              INTEGER NOT NULL,
        entry_id          TEXT,
        original_bytes    INTEGER NOT NULL,
        created_at        INTEGER NOT NULL,
        PRIMARY KEY (conversation, block_key)
    ) WITHOUT ROWID;
    "#,
    // 5: continuity across compaction. A session remembers its transcript,
    // when it was nudged to save its memories (once per compaction cycle)
    // and when it was last compacted; memory files (MEMORY.md, daily logs) and past
    // sessions' turns are indexed by chunk for `memory_search`, the
    // Markdown files staying the source of truth.
    r#"
    ALTER TABLE session_state ADD COLUMN flush_nudged_at INTEGER;
    ALTER TABLE session_state ADD COLUMN compacted_at INTEGER;
    ALTER TABLE session_state ADD COLUMN transcript_path TEXT;
    CREATE TABLE memory_files (
        path          TEXT    PRIMARY KEY,
        project       TEXT    NOT NULL,
        source        TEXT    NOT NULL,
        modified_ms   INTEGER NOT NULL,
        size          INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE memory_chunks (
        rowid         INTEGER PRIMARY KEY,
        path          TEXT    NOT NULL,
        project       TEXT    NOT NULL,
        source        TEXT    NOT NULL,
        start_line    INTEGER NOT NULL,
        end_line      INTEGER NOT NULL,
        text          TEXT    NOT NULL
    );
    CREATE INDEX memory_chunks_by_path ON memory_chunks(path);
    CREATE VIRTUAL TABLE memory_fts USING fts5(
        text, content = 'memory_chunks', content_rowid = 'rowid',
        tokenize = "porter unicode61 tokenchars '_'"
    );
    CREATE TRIGGER memory_fts_insert AFTER INSERT ON memory_chunks BEGIN
        INSERT INTO memory_fts(rowid, text) VALUES (new.rowid, new.text);
    END;
    CREATE TRIGGER memory_fts_delete AFTER DELETE ON memory_chunks BEGIN
        INSERT INTO memory_fts(memory_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    END;
    "#,
    // 6: forgetting removes. Both full-text indexes drop a deleted row's
    // tokens at once instead of keeping them beside a delete marker, and
    // entries forgotten before this version lose their texts (only their
    // ids stay, so forgetting them again is harmless).
    r#"
    INSERT INTO entries_fts(entries_fts, rank) VALUES ('secure-delete', 1);
    INSERT INTO memory_fts(memory_fts, rank) VALUES ('secure-delete', 1);
    UPDATE entries SET original = '', summary = '', context = '', tags = '', source_path = NULL
    WHERE NOT active;
    "#,
    // 7: one update trigger instead of two. SQLite fires a table's
    // triggers newest first, so the index got an updated row's new text
    // before losing its old one, and an entry whose text changed while
    // active (redacted again by `gc`) corrupted it.
    r#"
    DROP TRIGGER IF EXISTS entries_fts_update_old;
    DROP TRIGGER IF EXISTS entries_fts_update_new;
    CREATE TRIGGER entries_fts_update AFTER UPDATE OF
        active, original, summary, source_path, context, tags ON entries BEGIN
        INSERT INTO entries_fts(entries_fts, rowid, original, summary, source_path, context, tags)
        SELECT 'delete', old.rowid, old.original, old.summary, coalesce(old.source_path, ''),
               old.context, old.tags
        WHERE old.active;
        INSERT INTO entries_fts(rowid, original, summary, source_path, context, tags)
        SELECT new.rowid, new.original, new.summary, coalesce(new.source_path, ''),
               new.context, new.tags
        WHERE new.active;
    END;
    "#,
];

/// The schema version this binary writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Brings the database on `conn` to [`SCHEMA_VERSION`], or refuses a newer one.
pub fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    // Cheap check first, without a write lock: every hook opens the store.
    let found = user_version(conn)?;
    check_not_newer(found)?;
    if found == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // Another process may have migrated between the check and the lock.
    let mut version = user_version(&tx)?;
    check_not_newer(version)?;
    while version < SCHEMA_VERSION {
        tx.execute_batch(MIGRATIONS[version as usize])
            .map_err(|source| StoreError::Migration {
                to: version + 1,
                source,
            })?;
        version += 1;
        tx.pragma_update(None, "user_version", version)?;
    }
    tx.commit()?;
    Ok(())
}

fn check_not_newer(found: u32) -> Result<(), StoreError> {
    if found > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(())
}

/// The schema version of the database on `conn` (0 for a new file).
pub fn user_version(conn: &Connection) -> Result<u32, StoreError> {
    Ok(conn.pragma_query_value(None, "user_version", |row| row.get(0))?)
}
