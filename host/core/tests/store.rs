//! The store on real SQLite files: idempotent ingest, FTS queries with
//! punctuation and quotes, TTL expiry, forgetting, migrations.

mod common;

use ghost_core::ingest::{IngestRequest, Ingestor};
use ghost_core::paths::GhostDirs;
use ghost_core::pipeline::Pipeline;
use ghost_store::recall::RecallQuery;
use ghost_store::schema::SCHEMA_VERSION;
use ghost_store::{Forgotten, NewEntry, Store, StoreError};

const T0: i64 = 1_790_000_000_000;

fn entry(session: &str, call: &str, text: &str, class: &str) -> NewEntry {
    NewEntry {
        source_path: None,
        context: String::new(),
        ..common::entry(session, call, text, class.parse().unwrap(), T0)
    }
}

fn ids(store: &mut Store, query: &str) -> Vec<String> {
    store
        .recall(&RecallQuery::new(query), T0)
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect()
}

#[test]
fn the_same_tool_call_is_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    let mut store = Store::open(&path).unwrap();
    let first = store
        .insert(&entry("s1", "toolu_1", "hello", "log"))
        .unwrap();
    let again = store
        .insert(&entry("s1", "toolu_1", "hello", "log"))
        .unwrap();
    assert!(first.created);
    assert!(!again.created);
    assert_eq!(first.id, again.id);
    let other_session = store
        .insert(&entry("s2", "toolu_1", "hello", "log"))
        .unwrap();
    assert_ne!(first.id, other_session.id);
    // Reopened from the file, the key still maps to the same id.
    drop(store);
    let mut store = Store::open(&path).unwrap();
    let third = store
        .insert(&entry("s1", "toolu_1", "other", "log"))
        .unwrap();
    assert_eq!(third.id, first.id);
    assert_eq!(store.stats().unwrap().entries, 2);
    assert_eq!(store.entry(&first.id).unwrap().original, "hello");
}

#[test]
fn any_punctuation_in_a_query_is_searched_as_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db")).unwrap();
    let auth = store
        .insert(&entry(
            "s",
            "a",
            "error[E0308]: mismatched types in src/auth.rs:42 (expected `User`, found `Option<User>`)",
            "error",
        ))
        .unwrap()
        .id;
    let refused = store
        .insert(&entry(
            "s",
            "b",
            "psycopg2.OperationalError: connection refused on 127.0.0.1:5432",
            "error",
        ))
        .unwrap()
        .id;
    assert_eq!(ids(&mut store, "auth.rs")[0], auth);
    assert_eq!(ids(&mut store, "\"connection refused\"")[0], refused);
    assert_eq!(ids(&mut store, "Option<User>")[0], auth);
    assert_eq!(ids(&mut store, "127.0.0.1:5432")[0], refused);
    for hostile in [
        "\"unterminated",
        "auth AND (",
        "NEAR(connection refused, 2)",
        "*",
        "-refused",
        "original: refused",
        "'; DROP TABLE entries; --",
        "^refused + \"",
        "",
        "   ",
        "🔥 E0308",
        "OR OR AND NOT",
    ] {
        let hits = store.recall(&RecallQuery::new(hostile), T0);
        assert!(hits.is_ok(), "{hostile:?}: {:?}", hits.err());
    }
    assert_eq!(ids(&mut store, "🔥 E0308"), vec![auth.clone()]);
    assert!(ids(&mut store, "").is_empty());
    assert_eq!(store.stats().unwrap().entries, 2, "nothing was dropped");
}

#[test]
fn recall_filters_by_class_and_session_and_ranks_by_priority() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db")).unwrap();
    let log = store
        .insert(&entry("s1", "1", "timeout while fetching crates", "log"))
        .unwrap()
        .id;
    let err = store
        .insert(&entry("s2", "2", "timeout while fetching crates", "error"))
        .unwrap()
        .id;
    // Same text: the error's higher priority ranks it first.
    assert_eq!(
        ids(&mut store, "timeout crates"),
        vec![err.clone(), log.clone()]
    );
    let mut q = RecallQuery::new("timeout");
    q.class = Some(ghost_types::ContentClass::Log);
    let hits = store.recall(&q, T0).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].id, log);
    let mut q = RecallQuery::new("timeout");
    q.session = Some("s2".into());
    assert_eq!(store.recall(&q, T0).unwrap()[0].id, err);
}

#[test]
fn forgotten_entries_disappear_and_forgetting_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db")).unwrap();
    let id = store
        .insert(&entry("s", "1", "flaky test test_login_redirect", "log"))
        .unwrap()
        .id;
    assert_eq!(ids(&mut store, "test_login_redirect"), vec![id.clone()]);
    assert_eq!(store.forget(&id).unwrap(), Forgotten::Now);
    assert_eq!(store.forget(&id).unwrap(), Forgotten::Already);
    assert!(ids(&mut store, "test_login_redirect").is_empty());
    assert!(matches!(store.read(&id, T0), Err(StoreError::NotFound(_))));
    assert!(matches!(
        store.forget("000000000000"),
        Err(StoreError::NotFound(_))
    ));
    let gc = store.gc().unwrap();
    assert_eq!(gc.purged, 1);
    assert!(matches!(store.entry(&id), Err(StoreError::NotFound(_))));
}

#[test]
fn entries_expire_after_their_ttl() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db")).unwrap();
    let mut short = entry("s", "1", "ephemeral deploy output", "log");
    short.ttl_seconds = Some(60);
    let short = store.insert(&short).unwrap().id;
    let kept = store
        .insert(&entry("s", "2", "durable deploy output", "log"))
        .unwrap()
        .id;
    let at = |store: &mut Store, t: i64| -> Vec<String> {
        store
            .recall(&RecallQuery::new("deploy"), t)
            .unwrap()
            .into_iter()
            .map(|h| h.id)
            .collect()
    };
    assert_eq!(at(&mut store, T0 + 30_000).len(), 2);
    // Past its TTL it no longer matches, even before maintenance runs…
    assert_eq!(at(&mut store, T0 + 61_000), vec![kept.clone()]);
    // …and maintenance soft-deletes it.
    let m = store.maintain(T0 + 61_000).unwrap();
    assert_eq!(m.expired, 1);
    assert!(!store.entry(&short).unwrap().active);
    assert!(store.entry(&kept).unwrap().active);
    assert_eq!(store.gc().unwrap().purged, 1);
}

#[test]
fn reading_an_entry_refreshes_its_priority() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db")).unwrap();
    let id = store.insert(&entry("s", "1", "x", "code")).unwrap().id;
    let day = 86_400_000;
    store.maintain(T0 + 5 * day).unwrap();
    let stale = store.entry(&id).unwrap().priority;
    let read = store.read(&id, T0 + 5 * day).unwrap();
    assert!(read.priority > stale + 9.0, "{stale} → {}", read.priority);
    assert_eq!(read.last_access, T0 + 5 * day);
}

#[test]
fn a_newer_schema_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    drop(Store::open(&path).unwrap());
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        conn.pragma_update(None, "wal_checkpoint", "TRUNCATE").ok();
    }
    let before = std::fs::read(&path).unwrap();
    let err = Store::open(&path).err().expect("refused");
    assert!(matches!(err, StoreError::NewerSchema { found, supported }
        if found == SCHEMA_VERSION + 1 && supported == SCHEMA_VERSION));
    assert!(err.to_string().contains("upgrade ghost"), "{err}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file was not touched"
    );
}

#[test]
fn an_old_database_is_migrated_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    // A version-0 file: an SQLite database ghost has never written to.
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE unrelated(x); INSERT INTO unrelated VALUES (1);")
            .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    store
        .insert(&entry("s", "1", "migrated fine", "log"))
        .unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let version: u32 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    let kept: i64 = conn
        .query_row("SELECT x FROM unrelated", [], |r| r.get(0))
        .unwrap();
    assert_eq!(kept, 1);
    let journal: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(journal, "wal");
}

#[test]
fn ingest_compresses_stores_and_hands_back_a_handle() {
    let dir = tempfile::tempdir().unwrap();
    let dirs = GhostDirs {
        data: dir.path().to_path_buf(),
        cache: dir.path().join("cache"),
        config: dir.path().to_path_buf(),
    };
    let log = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ci-failure.log"),
    )
    .unwrap();
    let mut store = Store::open(&dirs.store_file()).unwrap();
    let mut ingestor = Ingestor::new(&mut store, 1024, || Pipeline::with_dirs(Some(&dirs)));
    let mut request = IngestRequest::new(log.clone(), "s1");
    request.tool_use_id = Some("toolu_01".into());
    request.tool_name = Some("Bash".into());
    let first = ingestor.ingest(request.clone()).unwrap();
    assert!(first.created && first.compressed);
    assert_eq!(first.class, ghost_types::ContentClass::Log);
    assert!(
        first.summary_tokens * 5 < first.original_tokens,
        "{first:?}"
    );
    let handle = first.handle.clone().unwrap();
    assert!(handle.contains(&format!("get id={}", first.id)), "{handle}");
    assert!(first.text.ends_with(&handle));
    let replay = ingestor.ingest(request).unwrap();
    assert_eq!(
        (replay.id.as_str(), replay.created),
        (first.id.as_str(), false)
    );
    assert_eq!(replay.text, first.text);
    // Small inputs are stored as they are.
    let small = ingestor
        .ingest(IngestRequest::new("ok: 3 files changed", "s1"))
        .unwrap();
    assert!(!small.compressed && small.handle.is_none());
    assert_eq!(small.text, "ok: 3 files changed");
    drop(ingestor);
    assert_eq!(store.entry(&first.id).unwrap().original, log);
}

#[test]
fn estimated_token_counts_are_made_exact_later() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db")).unwrap();
    let text = "error[E0308]: mismatched types\n  --> src/auth.rs:42:5\n".repeat(20);
    let mut e = entry("s", "1", &text, "error");
    e.original_tokens = 1;
    e.summary_tokens = 1;
    e.tokens_exact = false;
    let id = store.insert(&e).unwrap().id;
    assert_eq!(
        store
            .settle_token_counts(100, ghost_core::tokens::count)
            .unwrap(),
        1
    );
    let exact = ghost_core::tokens::count(&text) as i64;
    let stored = store.entry(&id).unwrap();
    assert_eq!(
        (stored.original_tokens, stored.summary_tokens),
        (exact, exact)
    );
    assert_eq!(
        store
            .settle_token_counts(100, ghost_core::tokens::count)
            .unwrap(),
        0,
        "nothing left to count"
    );
    let p = store.pressure(Some("s"), T0).unwrap();
    assert_eq!(p.original_tokens, exact);
}

#[test]
fn a_version_1_store_is_migrated_to_the_current_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    {
        let mut store = Store::open(&path).unwrap();
        store
            .insert(&entry("s", "1", "kept across the migration", "log"))
            .unwrap();
    }
    // Take the file back to what schema version 1 wrote.
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "DROP TABLE memory_fts;
             DROP TABLE memory_chunks;
             DROP TABLE memory_files;
             ALTER TABLE session_state DROP COLUMN flush_nudged_at;
             ALTER TABLE session_state DROP COLUMN compacted_at;
             ALTER TABLE session_state DROP COLUMN transcript_path;
             DROP TABLE gateway_rewrites;
             DROP TABLE gateway_conversations;
             DROP INDEX entries_estimated;
             ALTER TABLE entries DROP COLUMN tokens_exact;
             ALTER TABLE entries DROP COLUMN agent_id;
             ALTER TABLE session_state DROP COLUMN compacted_after;
             DROP TRIGGER entries_fts_update;
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
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(ids(&mut store, "migration").len(), 1);
    assert_eq!(
        store
            .settle_token_counts(10, ghost_core::tokens::count)
            .unwrap(),
        0,
        "old counts are exact"
    );
    assert_eq!(store.stats().unwrap().schema_version, SCHEMA_VERSION);
    assert_eq!(SCHEMA_VERSION, 7);
    // Migration 7 replaced the two update triggers: a text that changes
    // keeps the index whole.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute("UPDATE entries SET summary = 'summary after migration'", [])
        .unwrap();
    assert_eq!(ids(&mut store, "migration").len(), 1);
    // The new parts work on the migrated file.
    assert!(store.session_context().claim_flush_nudge("s", T0).unwrap());
    assert!(
        store
            .memory_index()
            .search("x", "/p", None, 5)
            .unwrap()
            .is_empty()
    );
}
