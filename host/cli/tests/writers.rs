//! Several `ghost` processes writing one store at once: nothing fails,
//! nothing is lost, and a replayed tool call never makes a duplicate.

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::process::Child;

use common::spawn_ghost;

use ghost_store::Store;
use serde_json::{Value, json};

const PROCESSES: usize = 4;
const PER_PROCESS: usize = 500;

/// Real text to cut tool results from: ghost's own sources and a CI log.
fn material() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut lines = Vec::new();
    for rel in [
        "host/store/src/archive.rs",
        "host/core/src/ingest.rs",
        "examples/ci-failure.log",
    ] {
        let text = std::fs::read_to_string(root.join(rel)).unwrap();
        lines.extend(text.lines().map(str::to_string));
    }
    lines
}

/// The JSON-lines batch of process `p`: mostly small results, every fifth
/// one large enough to be compressed.
fn batch(p: usize, material: &[String]) -> String {
    let mut out = String::new();
    for i in 0..PER_PROCESS {
        let len = if i % 5 == 0 { 60 } else { 6 };
        let start = (p * 7919 + i * 131) % (material.len() - len);
        let text = format!(
            "result {p}-{i}\n{}",
            material[start..start + len].join("\n")
        );
        let line = json!({
            "text": text,
            "session": format!("session-{}", i % 3),
            "tool_use_id": format!("toolu_{p}_{i}"),
            "tool": if i % 2 == 0 { "Bash" } else { "Read" },
        });
        out.push_str(&format!("{line}\n"));
    }
    out
}

/// Runs every batch in its own process at once; returns each answer line.
fn run_all(home: &Path, batches: &[String]) -> Vec<Vec<Value>> {
    let children: Vec<Child> = batches
        .iter()
        .map(|b| spawn_ghost(home, &["ingest", "--jsonl"], b.as_bytes()))
        .collect();
    children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "a writer failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn four_processes_ingest_at_once_and_replays_add_nothing() {
    let home = tempfile::tempdir().unwrap();
    let material = material();
    let batches: Vec<String> = (0..PROCESSES).map(|p| batch(p, &material)).collect();

    let first = run_all(home.path(), &batches);
    let mut ids = HashSet::new();
    for answers in &first {
        assert_eq!(answers.len(), PER_PROCESS);
        for a in answers {
            assert_eq!(a["created"], json!(true));
            assert!(ids.insert(a["id"].as_str().unwrap().to_string()));
        }
    }
    assert!(first[0].iter().any(|a| a["compressed"] == json!(true)));
    let store = Store::open(&home.path().join("store.sqlite3")).unwrap();
    assert_eq!(
        store.stats().unwrap().entries,
        (PROCESSES * PER_PROCESS) as i64
    );
    drop(store);

    // Every batch replayed, again all at once: the same ids, nothing new.
    let replay = run_all(home.path(), &batches);
    for (a, b) in first.iter().flatten().zip(replay.iter().flatten()) {
        assert_eq!(a["id"], b["id"]);
        assert_eq!(b["created"], json!(false));
        assert_eq!(a["text"], b["text"]);
    }
    let store = Store::open(&home.path().join("store.sqlite3")).unwrap();
    let stats = store.stats().unwrap();
    assert_eq!(stats.entries, (PROCESSES * PER_PROCESS) as i64);
    assert_eq!(stats.sessions, 3);
}

#[test]
fn processes_creating_a_new_store_at_once_all_open_it() {
    // Switching a new file to WAL and creating the schema contend in ways
    // SQLite's busy handler does not cover; seen failing about one round in 15 from a shell, less often here.
    for _ in 0..100 {
        let home = tempfile::tempdir().unwrap();
        let children: Vec<Child> = (0..6)
            .map(|_| spawn_ghost(home.path(), &["stats", "--json"], b""))
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}
