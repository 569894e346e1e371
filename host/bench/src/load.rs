//! ghost under load: hook processes writing the store while a gateway
//! gardens concurrent streaming requests against a loopback model API,
//! every request collected (so both write the same store file at once).
//!
//! Counted: every hook call that failed or said nothing, every request that
//! did not come back whole, and every acknowledged write missing from the
//! store afterwards (a hook's tool call by its key; a request's tool result
//! by its text); the store must pass `integrity_check`. Latencies are whole
//! hook processes and whole streamed answers, p50 and p99.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::{Value, json};

use ghost_store::IdempotencyKey;

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// The ghost binary.
    pub ghost: PathBuf,
    /// A PostToolUse payload (its tool call id and output are made unique
    /// per call).
    pub payload: PathBuf,
    /// A log whose text the requests' tool results carry.
    pub log: PathBuf,
    /// How long to keep the load on.
    pub duration: Duration,
    /// Hook processes running at once.
    pub hook_writers: usize,
    /// Gateway requests in flight at once.
    pub gateway_clients: usize,
}

/// What the run measured.
#[derive(Debug, Clone, Serialize)]
pub struct LoadReport {
    /// Seconds the load was on.
    pub seconds: f64,
    /// Hook processes run.
    pub hook_calls: usize,
    /// Of which failed or answered nothing.
    pub hook_errors: usize,
    /// Whole hook process, median, ms.
    pub hook_p50_ms: f64,
    /// Whole hook process, 99th percentile, ms.
    pub hook_p99_ms: f64,
    /// Gateway requests sent.
    pub gateway_requests: usize,
    /// Of which did not come back whole.
    pub gateway_errors: usize,
    /// Whole streamed answer, median, ms.
    pub gateway_p50_ms: f64,
    /// Whole streamed answer, 99th percentile, ms.
    pub gateway_p99_ms: f64,
    /// Acknowledged writes missing from the store.
    pub lost: usize,
    /// Tool calls stored more than once.
    pub duplicates: usize,
    /// SQLite's `integrity_check`.
    pub integrity: String,
}

impl LoadReport {
    /// Whether nothing failed and nothing was lost.
    pub fn clean(&self) -> bool {
        self.hook_errors == 0
            && self.gateway_errors == 0
            && self.lost == 0
            && self.duplicates == 0
            && self.integrity == "ok"
    }
}

/// The SSE answer of the loopback model API, sent event by event.
const EVENTS: &[&str] = &[
    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n",
    "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"looking\"}}\n\n",
    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" into it\"}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
    "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":3}}\n\n",
    "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
];

/// A loopback model API streaming [`EVENTS`] with a pause between them.
pub fn start_upstream() -> Result<SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || stream_answer(stream));
        }
    });
    Ok(addr)
}

fn stream_answer(stream: TcpStream) {
    let mut reader = BufReader::new(stream);
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let mut stream = reader.into_inner();
    let _ = stream.write_all(
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n",
    );
    for event in EVENTS {
        let _ = write!(stream, "{:x}\r\n{event}\r\n", event.len());
        let _ = stream.flush();
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = stream.write_all(b"0\r\n\r\n");
}

/// `ghost gateway` on a free loopback port, once it accepts connections.
pub fn start_gateway(
    ghost: &Path,
    home: &Path,
    upstream: SocketAddr,
) -> Result<(Child, SocketAddr)> {
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let child = Command::new(ghost)
        .args(["gateway", "--listen", &addr.to_string()])
        .args(["--upstream", &format!("http://{upstream}")])
        .env("GHOST_HOME", home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", ghost.display()))?;
    let started = Instant::now();
    while TcpStream::connect(addr).is_err() {
        if started.elapsed() > Duration::from_secs(30) {
            bail!("the gateway did not listen on {addr} within 30 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok((child, addr))
}

/// Posts a Messages request to the gateway at `addr`; the whole answer
/// (headers and streamed body) when it came back with 200 and
/// `message_stop`.
pub fn post(addr: SocketAddr, body: &[u8]) -> Option<String> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .ok()?;
    let head = format!(
        "POST /v1/messages HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         x-api-key: sk-ant-load\r\nanthropic-version: 2023-06-01\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body).ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).ok()?;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    (answer.starts_with("HTTP/1.1 200") && answer.contains("message_stop")).then_some(answer)
}

/// A request of its own conversation whose one tool result starts with
/// `marker`.
fn request(marker: &str, log: &str) -> Vec<u8> {
    json!({
        "model": "claude-opus-5-5", "max_tokens": 1000, "stream": true,
        "metadata": {"user_id": format!("{{\"session_id\":\"load-{marker}\"}}")},
        "messages": [
            {"role": "user", "content": format!("why does build {marker} fail?")},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": format!("toolu_{marker}"), "name": "Bash",
                 "input": {"command": format!("make {marker}")}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": format!("toolu_{marker}"),
                 "content": format!("{marker}\n{log}")}]},
            {"role": "assistant", "content": [{"type": "text", "text": "reading"}]},
            {"role": "user", "content": "go on"}
        ]
    })
    .to_string()
    .into_bytes()
}

/// Configuration that makes the gateway collect every request's results.
const COLLECT_ALWAYS: &str = "[gateway]\nstep_share = 0.0\nstep_gap_share = 0.0\nkeep_turns = 0\nreference_min_bytes = 256\n";

/// Runs the load; `home` is ghost's home for the run (a fresh one is best).
pub fn run(opts: &LoadOptions, home: &Path) -> Result<LoadReport> {
    std::fs::create_dir_all(home)?;
    std::fs::write(home.join("config.toml"), COLLECT_ALWAYS)?;
    let template: Value = serde_json::from_slice(
        &std::fs::read(&opts.payload)
            .with_context(|| format!("reading {}", opts.payload.display()))?,
    )?;
    let session = template["session_id"]
        .as_str()
        .unwrap_or("load")
        .to_string();
    let log = std::fs::read_to_string(&opts.log)
        .with_context(|| format!("reading {}", opts.log.display()))?;
    let upstream = start_upstream()?;
    let (mut gateway, addr) = start_gateway(&opts.ghost, home, upstream)?;
    // Warm: the components compile into the cache once, not under load.
    hook_call(&opts.ghost, home, &template, "warm")?;
    post(addr, &request("warm-0", &log)).context("the warm-up request failed")?;

    let deadline = Instant::now() + opts.duration;
    let hooks: Arc<Mutex<Vec<(String, Duration, bool)>>> = Arc::default();
    let requests: Arc<Mutex<Vec<(String, Duration, bool)>>> = Arc::default();
    let started = Instant::now();
    std::thread::scope(|scope| {
        for w in 0..opts.hook_writers {
            let (hooks, template) = (hooks.clone(), &template);
            scope.spawn(move || {
                let mut i = 0;
                while Instant::now() < deadline {
                    let id = format!("toolu_load_{w}_{i}");
                    let t = Instant::now();
                    let ok = hook_call(&opts.ghost, home, template, &id).is_ok();
                    hooks.lock().unwrap().push((id, t.elapsed(), ok));
                    i += 1;
                }
            });
        }
        for c in 0..opts.gateway_clients {
            let (requests, log) = (requests.clone(), &log);
            scope.spawn(move || {
                let mut i = 0;
                while Instant::now() < deadline {
                    let marker = format!("gw-{c}-{i}");
                    let t = Instant::now();
                    let ok = post(addr, &request(&marker, log)).is_some();
                    requests.lock().unwrap().push((marker, t.elapsed(), ok));
                    i += 1;
                }
            });
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let _ = gateway.kill();
    let _ = gateway.wait();

    let hooks = std::mem::take(&mut *hooks.lock().unwrap());
    let requests = std::mem::take(&mut *requests.lock().unwrap());
    let store = home.join("store.sqlite3");
    let conn = rusqlite_open(&store)?;
    let integrity: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    let keys: HashSet<String> = strings(&conn, "SELECT idempotency_key FROM entries")?;
    let heads: HashSet<String> = strings(
        &conn,
        "SELECT substr(original, 1, instr(original || char(10), char(10)) - 1) FROM entries",
    )?;
    let duplicates: i64 = conn.query_row(
        "SELECT count(*) FROM (SELECT 1 FROM entries GROUP BY idempotency_key HAVING count(*) > 1)",
        [],
        |r| r.get(0),
    )?;
    let lost_hooks = hooks
        .iter()
        .filter(|(id, _, ok)| {
            *ok && !keys.contains(IdempotencyKey::for_tool_call(&session, id).as_str())
        })
        .count();
    let lost_requests = requests
        .iter()
        .filter(|(marker, _, ok)| *ok && !heads.contains(marker))
        .count();
    let times = |calls: &[(String, Duration, bool)]| -> Vec<Duration> {
        calls.iter().map(|(_, t, _)| *t).collect()
    };
    Ok(LoadReport {
        seconds,
        hook_calls: hooks.len(),
        hook_errors: hooks.iter().filter(|(_, _, ok)| !ok).count(),
        hook_p50_ms: crate::quantile_ms(&times(&hooks), 0.5),
        hook_p99_ms: crate::quantile_ms(&times(&hooks), 0.99),
        gateway_requests: requests.len(),
        gateway_errors: requests.iter().filter(|(_, _, ok)| !ok).count(),
        gateway_p50_ms: crate::quantile_ms(&times(&requests), 0.5),
        gateway_p99_ms: crate::quantile_ms(&times(&requests), 0.99),
        lost: lost_hooks + lost_requests,
        duplicates: duplicates as usize,
        integrity,
    })
}

fn rusqlite_open(path: &Path) -> Result<rusqlite::Connection> {
    rusqlite::Connection::open(path).with_context(|| format!("opening {}", path.display()))
}

fn strings(conn: &rusqlite::Connection, sql: &str) -> Result<HashSet<String>> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A Bash PostToolUse payload like `template` made distinct for tool call
/// `id`: its id, its output starting with a line naming it, no transcript.
pub fn distinct_bash_payload(template: &Value, id: &str) -> Value {
    let mut payload = template.clone();
    payload["tool_use_id"] = json!(id);
    payload["transcript_path"] = Value::Null;
    let stdout = payload["tool_response"]["stdout"]
        .as_str()
        .unwrap_or("")
        .to_string();
    payload["tool_response"]["stdout"] = json!(format!("{id}\n{stdout}"));
    payload
}

/// One `ghost hook post-tool-use` process for tool call `id`: ok when it
/// exited 0 and answered with a replacement.
fn hook_call(ghost: &Path, home: &Path, template: &Value, id: &str) -> Result<()> {
    let payload = distinct_bash_payload(template, id);
    let mut child = Command::new(ghost)
        .args(["hook", "post-tool-use"])
        .env("GHOST_HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let input = payload.to_string().into_bytes();
    let mut pipe = child.stdin.take().context("no stdin")?;
    let writer = std::thread::spawn(move || pipe.write_all(&input));
    let out = child.wait_with_output()?;
    let _ = writer.join();
    if !out.status.success() || out.stdout.is_empty() {
        bail!(
            "the hook exited {} with {} bytes",
            out.status,
            out.stdout.len()
        );
    }
    Ok(())
}

/// The figures as lines for people.
pub fn render(r: &LoadReport) -> String {
    format!(
        "{:.0} s of load · store integrity {} · {} acknowledged writes lost · {} duplicates\n\
         hooks:   {} calls, {} errors, whole process p50 {:.1} ms, p99 {:.1} ms\n\
         gateway: {} streamed requests, {} errors, whole answer p50 {:.1} ms, p99 {:.1} ms\n",
        r.seconds,
        r.integrity,
        r.lost,
        r.duplicates,
        r.hook_calls,
        r.hook_errors,
        r.hook_p50_ms,
        r.hook_p99_ms,
        r.gateway_requests,
        r.gateway_errors,
        r.gateway_p50_ms,
        r.gateway_p99_ms
    )
}
