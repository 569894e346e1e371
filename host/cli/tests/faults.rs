//! kill -9 at random points: during hook ingest, `ghost plugin add` and
//! gateway requests, 100 rounds each. Afterwards the store passes SQLite's
//! `integrity_check`, everything acknowledged (a hook that answered, an add
//! that said so, a request whose answer came back) is there, and replaying
//! what was cut off adds no duplicate. Then the load: hook processes and
//! streaming gateway requests at once on one store, nothing failing and
//! nothing lost (`ghost bench load` runs it for a minute with figures).

mod common;

use std::io::Read;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use common::{run_ghost, spawn_ghost, workspace};
use ghost_bench::load::{self, post};
use ghost_store::{IdempotencyKey, Store};
use ghost_tests::fuzz::Rng;
use serde_json::{Value, json};

const ROUNDS: usize = 100;

/// Kill delays: uniform up to `scale` times a whole run, deterministic.
/// The scale adapts so that some runs are cut and some finish whatever the
/// machine's load (each cut lengthens the next delays, each finish shortens
/// them).
struct Delays {
    rng: Rng,
    scale: f64,
}

impl Delays {
    fn new(seed: u64) -> Self {
        Self {
            rng: Rng::new(seed),
            scale: 2.0,
        }
    }

    /// A delay in `0..=scale × full`.
    fn next(&mut self, full: Duration) -> Duration {
        full.mul_f64(self.scale * self.rng.below(10_001) as f64 / 10_000.0)
    }

    /// Says whether the last run was cut.
    fn record(&mut self, cut: bool) {
        self.scale = (self.scale * if cut { 1.08 } else { 0.95 }).clamp(0.2, 50.0);
    }
}

/// Waits `delay`, then kills `child` with SIGKILL unless it has exited.
/// Returns whether it finished by itself (and so was acknowledged), with
/// its stdout.
fn kill_after(mut child: Child, delay: Duration) -> (bool, Vec<u8>) {
    let started = Instant::now();
    while started.elapsed() < delay {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    let finished = match child.try_wait().unwrap() {
        Some(status) => status.success(),
        None => {
            child.kill().unwrap(); // SIGKILL
            child.wait().unwrap();
            false
        }
    };
    let mut out = Vec::new();
    if let Some(mut stdout) = child.stdout.take() {
        let _ = stdout.read_to_end(&mut out);
    }
    (finished, out)
}

fn integrity(store: &Path) -> String {
    let conn = rusqlite::Connection::open(store).unwrap();
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

fn entries_with_key(store: &Path, key: &IdempotencyKey) -> i64 {
    let conn = rusqlite::Connection::open(store).unwrap();
    conn.query_row(
        "SELECT count(*) FROM entries WHERE idempotency_key = ?1",
        [key.as_str()],
        |r| r.get(0),
    )
    .unwrap()
}

/// The captured large Bash PostToolUse payload, made unique for `round`.
fn hook_payload(round: usize) -> (String, Vec<u8>) {
    let path = workspace().join("../shared/claude-code/payloads/PostToolUse-Bash-large.json");
    let template: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let id = format!("toolu_kill_{round:03}");
    let payload = load::distinct_bash_payload(&template, &id);
    (id, payload.to_string().into_bytes())
}

#[test]
fn hook_ingest_killed_at_random_points_loses_nothing_acknowledged() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let store = home.join("store.sqlite3");
    // One whole run first: compiles the components into the cache and
    // tells how long a hook takes.
    let (_, warm) = hook_payload(999);
    assert!(
        run_ghost(home, &["hook", "post-tool-use"], &warm)
            .status
            .success()
    );
    let (_, timed) = hook_payload(998);
    let started = Instant::now();
    assert!(
        run_ghost(home, &["hook", "post-tool-use"], &timed)
            .status
            .success()
    );
    let full = started.elapsed();
    let session = serde_json::from_slice::<Value>(&warm).unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_string();

    let mut delays = Delays::new(0x2545_f491);
    let mut acknowledged = Vec::new();
    for round in 0..ROUNDS {
        let (id, payload) = hook_payload(round);
        let child = spawn_ghost(home, &["hook", "post-tool-use"], &payload);
        let (finished, answer) = kill_after(child, delays.next(full));
        delays.record(!finished);
        if finished {
            assert!(
                !answer.is_empty(),
                "round {round}: a finished hook said nothing"
            );
            acknowledged.push(id);
        }
    }
    assert_eq!(integrity(&store), "ok");
    for id in &acknowledged {
        let key = IdempotencyKey::for_tool_call(&session, id);
        assert_eq!(
            entries_with_key(&store, &key),
            1,
            "{id} was acknowledged, then lost"
        );
    }
    // Claude Code sends each call again (a replay): every one is stored
    // exactly once, whatever happened to its first attempt.
    for round in 0..ROUNDS {
        let (id, payload) = hook_payload(round);
        let out = run_ghost(home, &["hook", "post-tool-use"], &payload);
        assert!(out.status.success());
        let key = IdempotencyKey::for_tool_call(&session, &id);
        assert_eq!(
            entries_with_key(&store, &key),
            1,
            "{id}: not exactly one entry"
        );
    }
    let total: i64 = rusqlite::Connection::open(&store)
        .unwrap()
        .query_row("SELECT count(*) FROM entries", [], |r| r.get(0))
        .unwrap();
    assert_eq!(total, ROUNDS as i64 + 2);
    assert_eq!(integrity(&store), "ok");
    let killed = ROUNDS - acknowledged.len();
    eprintln!("hook ingest: {killed} of {ROUNDS} rounds killed mid-way (one run takes {full:?})");
    assert!(
        killed >= ROUNDS / 5,
        "too few rounds were cut off to test anything"
    );
    assert!(
        acknowledged.len() >= ROUNDS / 20,
        "too few rounds finished to test anything"
    );
}

#[test]
fn plugin_add_killed_at_random_points_leaves_a_registry_that_recovers() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let wasm = ghost_tests::guest_path("guest-short-lines");
    let wasm = wasm.to_str().unwrap();
    let add = ["plugin", "add", wasm, "--class", "log"];
    let remove = ["plugin", "remove", "guest-short-lines"];
    assert!(run_ghost(home, &add, b"").status.success());
    assert!(run_ghost(home, &remove, b"").status.success());
    // How long an add takes: the fastest of three, so that one slow run on
    // a busy machine does not stretch every delay (too few adds were cut
    // once when a single timing read 120 ms).
    let full = (0..3)
        .map(|_| {
            let started = Instant::now();
            assert!(run_ghost(home, &add, b"").status.success());
            let took = started.elapsed();
            assert!(run_ghost(home, &remove, b"").status.success());
            took
        })
        .min()
        .unwrap();

    let mut delays = Delays::new(0x9e37_79b9);
    let mut killed = 0;
    for round in 0..ROUNDS {
        let (finished, _) = kill_after(spawn_ghost(home, &add, b""), delays.next(full));
        delays.record(!finished);
        killed += usize::from(!finished);
        // Whatever was cut, ghost still reads its registry and says what it has.
        let list = run_ghost(home, &["plugin", "list", "--json"], b"");
        assert!(
            list.status.success(),
            "round {round}: plugin list failed after a kill: {}",
            String::from_utf8_lossy(&list.stderr)
        );
        let listing: Value = serde_json::from_slice(&list.stdout).unwrap();
        let listed = listing["plugins"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == "guest-short-lines");
        if finished {
            assert!(listed, "round {round}: an acknowledged add is not listed");
        }
        // Adding again completes it; verify is then clean.
        let again = run_ghost(home, &add, b"");
        assert!(
            again.status.success(),
            "round {round}: adding again failed: {}",
            String::from_utf8_lossy(&again.stderr)
        );
        let verify = run_ghost(home, &["plugin", "verify"], b"");
        assert!(
            verify.status.success(),
            "round {round}: verify after recovery: {}{}",
            String::from_utf8_lossy(&verify.stdout),
            String::from_utf8_lossy(&verify.stderr)
        );
        // And removing it leaves nothing behind for the next round.
        let (removed, _) = kill_after(
            spawn_ghost(home, &remove, b""),
            delays.next(full.mul_f64(0.2)),
        );
        if !removed {
            let _ = run_ghost(home, &remove, b"");
        }
    }
    eprintln!("plugin add: {killed} of {ROUNDS} adds killed mid-way (one add takes {full:?})");
    assert!(
        killed >= ROUNDS / 5,
        "too few adds were cut off to test anything"
    );
    assert!(
        killed <= ROUNDS * 19 / 20,
        "too few adds finished to test anything"
    );
}

/// A request whose tool result is large enough to be stored: round `n`'s
/// own output.
fn gateway_body(n: usize, log: &str) -> Vec<u8> {
    let mut messages = vec![json!({"role": "user", "content": "why does the build fail?"})];
    for i in 0..=n % 4 {
        let id = format!("toolu_gw_{n:03}_{i}");
        messages.push(json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": id, "name": "Bash", "input": {"command": format!("make test-{n}-{i}")}}]}));
        messages.push(json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": id, "content": format!("run {n}.{i}\n{log}")}]}));
    }
    json!({"model": "claude-opus-5-5", "max_tokens": 1000, "stream": true, "messages": messages})
        .to_string()
        .into_bytes()
}

fn start_gateway(home: &Path, upstream: SocketAddr) -> (Child, SocketAddr) {
    load::start_gateway(Path::new(env!("CARGO_BIN_EXE_ghost")), home, upstream).unwrap()
}

#[test]
fn gateway_killed_mid_request_keeps_its_store_whole() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let store = home.join("store.sqlite3");
    let up = load::start_upstream().unwrap();
    let log = std::fs::read_to_string(workspace().join("examples/ci-failure.log")).unwrap();
    // Collect from the first request on: every request stores its results.
    std::fs::write(
        home.join("config.toml"),
        "[gateway]\nstep_share = 0.0\nstep_gap_share = 0.0\nkeep_turns = 0\nreference_min_bytes = 256\n",
    )
    .unwrap();
    // A whole request first (compiles the components), timed.
    let (mut gateway, addr) = start_gateway(home, up);
    assert!(post(addr, &gateway_body(998, &log)).is_some());
    let started = Instant::now();
    assert!(post(addr, &gateway_body(999, &log)).is_some());
    let full = started.elapsed();
    gateway.kill().unwrap();
    gateway.wait().unwrap();
    let stored = |round: usize| -> i64 {
        rusqlite::Connection::open(&store)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM entries WHERE original LIKE ?1",
                [format!("run {round}.%")],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert!(
        stored(999) > 0,
        "the gateway stored nothing: the test would test nothing"
    );

    let mut delays = Delays::new(0x5851_f42d);
    let mut answered = Vec::new();
    let mut killed = 0;
    for round in 0..ROUNDS {
        let (mut gateway, addr) = start_gateway(home, up);
        let body = gateway_body(round, &log);
        let sender = std::thread::spawn(move || post(addr, &body));
        std::thread::sleep(delays.next(full));
        gateway.kill().unwrap(); // SIGKILL
        gateway.wait().unwrap();
        let answer = sender.join().unwrap();
        delays.record(answer.is_none());
        match answer {
            Some(_) => answered.push(round),
            None => killed += 1,
        }
    }
    assert_eq!(integrity(&store), "ok");
    // Everything answered was recorded before its answer came back.
    for &round in &answered {
        assert!(
            stored(round) > 0,
            "round {round} was answered, yet nothing of it is stored"
        );
    }
    // Sent again, every request is answered; its rewrites point at stored
    // entries and nothing is stored twice.
    let (mut gateway, addr) = start_gateway(home, up);
    let before = Store::open(&store).unwrap().stats().unwrap().entries;
    for round in 0..ROUNDS {
        assert!(
            post(addr, &gateway_body(round, &log)).is_some(),
            "round {round} replay"
        );
    }
    gateway.kill().unwrap();
    gateway.wait().unwrap();
    assert_eq!(integrity(&store), "ok");
    let conn = rusqlite::Connection::open(&store).unwrap();
    let dangling: i64 = conn
        .query_row(
            "SELECT count(*) FROM gateway_rewrites r WHERE r.entry_id IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.id = r.entry_id)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        dangling, 0,
        "a rewrite points at an entry that is not there"
    );
    let duplicates: i64 = conn
        .query_row(
            "SELECT count(*) FROM (SELECT idempotency_key FROM entries
             GROUP BY idempotency_key HAVING count(*) > 1)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(duplicates, 0);
    let after = Store::open(&store).unwrap().stats().unwrap().entries;
    eprintln!(
        "gateway: {killed} of {ROUNDS} requests cut by kill -9, {} answered; entries {before} \
         before the replay, {after} after (one request takes {full:?})",
        answered.len()
    );
    assert!(
        killed >= ROUNDS / 5,
        "too few requests were cut off to test anything"
    );
    assert!(
        answered.len() >= ROUNDS / 20,
        "too few requests were answered to test anything"
    );
}

#[test]
fn hooks_and_streaming_gateway_requests_at_once_fail_nothing_and_lose_nothing() {
    let home = tempfile::tempdir().unwrap();
    let options = load::LoadOptions {
        ghost: env!("CARGO_BIN_EXE_ghost").into(),
        payload: workspace().join("../shared/claude-code/payloads/PostToolUse-Bash-large.json"),
        log: workspace().join("examples/ci-failure.log"),
        duration: Duration::from_secs(4),
        hook_writers: 8,
        gateway_clients: 50,
    };
    let report = load::run(&options, home.path()).unwrap();
    eprint!("{}", load::render(&report));
    assert!(
        report.hook_calls >= 8 && report.gateway_requests >= 50,
        "{report:?}"
    );
    assert!(report.clean(), "{report:?}");
}
