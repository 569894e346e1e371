//! Retention on real SQLite files: forgetting erases (no byte of a
//! forgotten text is left in the file or its write-ahead log), purges by
//! session, by date and of everything, eviction under a cap by priority,
//! and each class's TTL.

mod common;

use std::path::Path;

use common::entry;
use ghost_core::ingest::{IngestRequest, Ingestor};
use ghost_core::pipeline::Pipeline;
use ghost_core::retention::Retention;
use ghost_store::recall::RecallQuery;
use ghost_store::{Scope, Store};
use ghost_types::ContentClass;

const DAY: i64 = 86_400_000;

/// A text no other entry has: a marker word repeated into a long output
/// (long enough to spill into overflow pages).
fn unique_text(marker: &str, lines: usize) -> String {
    (0..lines)
        .map(|i| format!("{marker} line {i}: build step finished\n"))
        .collect()
}

/// Whether `needle` is anywhere in the bytes of the store's files (the
/// database, its write-ahead log, its shared memory).
fn on_disk(path: &Path, needle: &str) -> bool {
    ["", "-wal", "-shm"].iter().any(|suffix| {
        let mut file = path.as_os_str().to_owned();
        file.push(suffix);
        std::fs::read(&file)
            .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
    })
}

/// A store file holding one log entry, "deploy step output", made now.
fn one_entry() -> (tempfile::TempDir, std::path::PathBuf, i64) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let now = ghost_store::now_ms();
    let mut store = Store::open(&path).unwrap();
    store
        .insert(&entry(
            "s",
            "1",
            "deploy step output",
            ContentClass::Log,
            now,
        ))
        .unwrap();
    (dir, path, now)
}

fn recall(store: &mut Store, query: &str, now: i64) -> Vec<String> {
    store
        .recall(&RecallQuery::new(query), now)
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect()
}

#[test]
fn forgetting_an_entry_erases_its_text_from_the_file_and_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let mut store = Store::open(&path).unwrap();
    let now = ghost_store::now_ms();
    let secret = unique_text("zebrafinch", 400);
    let id = store
        .insert(&entry("s", "1", &secret, ContentClass::Log, now))
        .unwrap()
        .id;
    store
        .insert(&entry(
            "s",
            "2",
            &unique_text("kept", 50),
            ContentClass::Log,
            now,
        ))
        .unwrap();
    assert!(on_disk(&path, "zebrafinch"));
    store.forget(&id).unwrap();
    store.clear_wal().unwrap();
    assert!(
        !on_disk(&path, "zebrafinch"),
        "a forgotten text is still in the store's bytes"
    );
    assert!(recall(&mut store, "zebrafinch", now).is_empty());
    assert_eq!(recall(&mut store, "kept", now).len(), 1);
    // The same tool call coming again is stored anew, under the same id.
    let again = store
        .insert(&entry("s", "1", &secret, ContentClass::Log, now))
        .unwrap();
    assert!(again.created);
    assert_eq!(again.id, id);
    assert_eq!(store.read(&id, now).unwrap().original, secret);
}

#[test]
fn a_session_is_purged_with_everything_about_it_and_others_stay() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let mut store = Store::open(&path).unwrap();
    let now = ghost_store::now_ms();
    for call in ["1", "2", "3"] {
        let text = unique_text(&format!("quokka{call}"), 200);
        store
            .insert(&entry("gone", call, &text, ContentClass::Log, now))
            .unwrap();
    }
    let kept = store
        .insert(&entry(
            "stays",
            "1",
            &unique_text("wombat", 200),
            ContentClass::Code,
            now,
        ))
        .unwrap()
        .id;
    store
        .session_context()
        .record_reading("gone", 50_000, None, "test", now)
        .unwrap();
    let purged = store.purge(Scope::Session("gone")).unwrap();
    assert_eq!(purged.entries, 3);
    assert_eq!(purged.sessions, 1);
    assert!(purged.wal_cleared);
    assert!(
        !on_disk(&path, "quokka"),
        "a purged session left bytes behind"
    );
    assert!(on_disk(&path, "wombat"));
    assert_eq!(recall(&mut store, "wombat", now), vec![kept]);
    assert!(recall(&mut store, "quokka1", now).is_empty());
    assert_eq!(store.latest_session().unwrap().as_deref(), Some("stays"));
}

#[test]
fn everything_before_a_date_goes_and_nothing_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let mut store = Store::open(&path).unwrap();
    let now = ghost_store::now_ms();
    store
        .insert(&entry(
            "old",
            "1",
            &unique_text("platypus", 100),
            ContentClass::Log,
            now - 40 * DAY,
        ))
        .unwrap();
    let recent = store
        .insert(&entry(
            "new",
            "1",
            &unique_text("echidna", 100),
            ContentClass::Log,
            now - DAY,
        ))
        .unwrap()
        .id;
    let purged = store.purge(Scope::Before(now - 30 * DAY)).unwrap();
    assert_eq!(purged.entries, 1);
    assert!(!on_disk(&path, "platypus"));
    assert_eq!(recall(&mut store, "echidna", now), vec![recent]);
    let all = store.purge(Scope::All).unwrap();
    assert_eq!(all.entries, 1);
    assert!(!on_disk(&path, "echidna"));
    assert_eq!(store.stats().unwrap().entries, 0);
    // The store is still a working store.
    store
        .insert(&entry(
            "next",
            "1",
            "after the purge",
            ContentClass::Log,
            now,
        ))
        .unwrap();
    assert_eq!(recall(&mut store, "purge", now).len(), 1);
}

#[test]
fn past_its_cap_the_store_evicts_the_least_important_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let mut store = Store::open(&path).unwrap();
    let now = ghost_store::now_ms();
    // 40 old logs, 10 fresh errors and one prompt, ~40 KB each.
    let mut logs = Vec::new();
    for i in 0..40 {
        let text = unique_text(&format!("log{i}x"), 1_000);
        logs.push(
            store
                .insert(&entry(
                    "s",
                    &format!("l{i}"),
                    &text,
                    ContentClass::Log,
                    now - 5 * DAY,
                ))
                .unwrap()
                .id,
        );
    }
    let mut errors = Vec::new();
    for i in 0..10 {
        let text = unique_text(&format!("err{i}x"), 1_000);
        errors.push(
            store
                .insert(&entry(
                    "s",
                    &format!("e{i}"),
                    &text,
                    ContentClass::Error,
                    now,
                ))
                .unwrap()
                .id,
        );
    }
    store.maintain(now).unwrap();
    let used = store.used_bytes().unwrap();
    let cap = used / 2;
    // The newest entry, just stored, is a log: it must stay whatever its priority.
    let newest = store
        .insert(&entry(
            "s",
            "n",
            &unique_text("newest", 1_000),
            ContentClass::Log,
            now - 5 * DAY,
        ))
        .unwrap()
        .id;
    let evicted = store.evict_to_cap(cap, &newest).unwrap();
    assert!(evicted.entries > 0);
    assert!(evicted.used_after <= cap, "{evicted:?} over cap {cap}");
    let alive = |store: &Store, id: &str| store.entry(id).is_ok();
    assert!(alive(&store, &newest));
    assert!(
        errors.iter().all(|id| alive(&store, id)),
        "an error went before the logs"
    );
    assert!(logs.iter().any(|id| !alive(&store, id)));
    // Under the cap, it does nothing.
    let again = store.evict_to_cap(cap, &newest).unwrap();
    assert_eq!(again.entries, 0);
}

#[test]
fn each_class_keeps_its_own_ttl_and_expired_texts_are_erased() {
    let dir = tempfile::tempdir().unwrap();
    let dirs = ghost_core::paths::GhostDirs {
        data: dir.path().to_path_buf(),
        cache: dir.path().join("cache"),
        config: dir.path().to_path_buf(),
    };
    let path = dirs.store_file();
    let mut store = Store::open(&path).unwrap();
    let retention: Retention = toml::from_str("[ttl_days]\nlog = 7\nprompt = 0\n").unwrap();
    let now = ghost_store::now_ms();
    let mut ingestor = Ingestor::new(&mut store, usize::MAX, || Pipeline::with_dirs(Some(&dirs)));
    ingestor.set_retention(retention);
    let ingest = |ingestor: &mut Ingestor, text: String, class| {
        let mut request = IngestRequest::new(text, "s");
        request.class = Some(class);
        request.created_at = now - 10 * DAY;
        ingestor.ingest(request).unwrap().id
    };
    let log = ingest(
        &mut ingestor,
        unique_text("capybara", 100),
        ContentClass::Log,
    );
    let error = ingest(
        &mut ingestor,
        unique_text("axolotl", 100),
        ContentClass::Error,
    );
    let prompt = ingest(
        &mut ingestor,
        "fix the capybara build".into(),
        ContentClass::Prompt,
    );
    drop(ingestor);
    let ttl = |id: &str| store.entry(id).unwrap().ttl_seconds;
    assert_eq!(ttl(&log), Some(7 * 86_400));
    assert_eq!(ttl(&error), Some(60 * 86_400));
    assert_eq!(ttl(&prompt), None);
    assert_eq!(store.maintain(now).unwrap().expired, 1);
    store.clear_wal().unwrap();
    assert!(!on_disk(&path, "capybara line"), "an expired text stayed");
    assert!(store.entry(&error).unwrap().active);
    assert!(store.entry(&prompt).unwrap().active);
}

#[test]
fn gc_redacts_what_an_older_ghost_stored_in_clear() {
    let (_dir, path, now) = one_entry();
    let token = "ghp_R4nd0mL00k1ngT0k3nV4lu3AbCdEf1234567";
    // What an older ghost wrote: the token in clear, in every table.
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute(
            "UPDATE entries SET original = ?1, summary = ?1",
            [format!(
                "git push https://x:{token}@github.com/acme/app deploy step"
            )],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO memory_chunks (path, project, source, start_line, end_line, text)
             VALUES ('/m/MEMORY.md', 'p', 'memory', 1, 1, ?1)",
            [format!("the deploy token is {token}")],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO gateway_rewrites (conversation, block_key, original_digest, replacement,
                kind, step, original_bytes, created_at)
             VALUES ('c', 'b', 'd', ?1, 'summary', 1, 10, 0)",
            [format!("pushed with {token}")],
        )
        .unwrap();
    }
    let check = |when: &str| {
        let conn = rusqlite::Connection::open(&path).unwrap();
        for t in ["entries_fts", "memory_fts"] {
            conn.execute(
                &format!("INSERT INTO {t}({t}) VALUES ('integrity-check')"),
                [],
            )
            .unwrap_or_else(|e| panic!("{when}: {t}: {e}"));
        }
    };
    check("before");
    let mut store = Store::open(&path).unwrap();
    store.clear_wal().unwrap();
    assert!(on_disk(&path, token));
    let redacted = store.redact_stored().unwrap();
    check("after redact");

    assert_eq!(redacted, 3);
    store.gc().unwrap();
    check("after gc");
    assert!(
        !on_disk(&path, token),
        "gc left a secret in the store's bytes"
    );
    assert!(on_disk(&path, "[secret:github"));
    // Still found by its other words, and again is a no-op.
    assert_eq!(recall(&mut store, "deploy step", now).len(), 1);
    assert_eq!(store.redact_stored().unwrap(), 0);
}

#[test]
fn an_active_entry_whose_text_changes_keeps_the_index_whole() {
    // Found here: the index's two update triggers fired newest first.
    let (_dir, path, now) = one_entry();
    let mut store = Store::open(&path).unwrap();
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE entries SET original = 'x deploy step y', summary = 'z'",
            [],
        )
        .unwrap();
    assert_eq!(recall(&mut store, "deploy step", now).len(), 1);
    assert!(recall(&mut store, "output", now).is_empty());
}
