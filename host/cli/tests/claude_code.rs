//! End to end with the real Claude Code CLI (pinned 2.1.329, from npm),
//! driven in print mode against a scripted model server on 127.0.0.1. The
//! model calls Bash on a real CI log, Read on a large source file, Grep,
//! ghost's own MCP `get` and a sandboxed Python task (`run_task`) over the
//! log; then `/compact` runs. The test asserts on what the
//! model server received. Nothing leaves the machine.
//!
//! The CLI is looked for in `GHOST_CLAUDE_BIN`, then in
//! `target/claude-code/` (where `.ci/run` installs it), then installed there
//! with npm; where npm is unreachable the test says so and skips.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const CLAUDE_CODE_VERSION: &str = "2.1.329";
const GHOST: &str = env!("CARGO_BIN_EXE_ghost");

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Claude Code binary, installing it with npm if needed: once for all
/// the tests of this file, which run at once (one test spawning the binary
/// while another's npm rewrites it failed with "Text file busy").
fn claude_binary() -> Option<PathBuf> {
    static INSTALLED: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    INSTALLED.get_or_init(install_claude_code).clone()
}

fn install_claude_code() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GHOST_CLAUDE_BIN") {
        return Some(PathBuf::from(p));
    }
    let prefix = workspace().join("target/claude-code");
    let native = prefix.join("node_modules/@anthropic-ai/claude-code-linux-x64/claude");
    if native.is_file() {
        return Some(native);
    }
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&prefix)
        .arg(format!("@anthropic-ai/claude-code@{CLAUDE_CODE_VERSION}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match status {
        Ok(s) if s.success() && native.is_file() => Some(native),
        _ => None,
    }
}

/// What the scripted model does, and every request it received.
#[derive(Default)]
struct Model {
    requests: Vec<Value>,
    /// The raw bodies of the /v1/messages requests, in order.
    raw: Vec<Vec<u8>>,
    /// Paths of every request, in order.
    paths: Vec<String>,
    /// Script the gateway session instead of the hooks' one.
    gateway_script: bool,
    /// Script the continuity session (flush, checkpoint, restore).
    continuity_script: bool,
    log_path: String,
    source_path: String,
    glob_root: String,
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(text_of).collect::<Vec<_>>().join("\n"),
        Value::Object(o) => o
            .get("text")
            .or(o.get("content"))
            .map(text_of)
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// The tool results in a request, by tool_use_id.
fn tool_results(request: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for m in request["messages"].as_array().into_iter().flatten() {
        for b in m["content"].as_array().into_iter().flatten() {
            if b["type"] == "tool_result" {
                out.push((
                    b["tool_use_id"].as_str().unwrap_or_default().to_string(),
                    text_of(&b["content"]),
                ));
            }
        }
    }
    out
}

fn sse(content: Vec<Value>, stop: &str) -> String {
    sse_with(content, stop, 1000)
}

/// An answer streamed as the API streams it, reporting `input_tokens` of
/// usage; thinking blocks come with their signature.
fn sse_with(content: Vec<Value>, stop: &str, input_tokens: u64) -> String {
    // Each answer its own id, as the API gives: Claude Code merges the
    // answers that share one into one message.
    static ANSWERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = ANSWERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut out = String::new();
    let mut event = |name: &str, data: Value| {
        out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    };
    event(
        "message_start",
        json!({"type": "message_start", "message": {"id": format!("msg_e2e_{n}"), "type": "message",
            "role": "assistant", "model": "claude-e2e", "content": [], "stop_reason": null,
            "stop_sequence": null, "usage": {"input_tokens": input_tokens, "output_tokens": 1}}}),
    );
    for (i, block) in content.iter().enumerate() {
        if block["type"] == "thinking" {
            event(
                "content_block_start",
                json!({"type": "content_block_start", "index": i,
                "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
            );
            event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": i,
                "delta": {"type": "thinking_delta", "thinking": block["thinking"]}}),
            );
            event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": i,
                "delta": {"type": "signature_delta", "signature": block["signature"]}}),
            );
        } else if block["type"] == "tool_use" {
            let start =
                json!({"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}});
            event(
                "content_block_start",
                json!({"type": "content_block_start", "index": i, "content_block": start}),
            );
            event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": i,
                "delta": {"type": "input_json_delta", "partial_json": block["input"].to_string()}}),
            );
        } else {
            event(
                "content_block_start",
                json!({"type": "content_block_start", "index": i,
                "content_block": {"type": "text", "text": ""}}),
            );
            event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": i,
                "delta": {"type": "text_delta", "text": block["text"]}}),
            );
        }
        event(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": i}),
        );
    }
    event(
        "message_delta",
        json!({"type": "message_delta",
        "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 20}}),
    );
    event("message_stop", json!({"type": "message_stop"}));
    out
}

fn tool_use(id: &str, name: &str, input: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": input})
}

/// The scripted reply to a /v1/messages request.
fn reply(model: &Model, request: &Value) -> String {
    let all = request.to_string();
    if all.contains("ghost holds the full originals") || !request["tools"].is_array() {
        // Compaction, or a side request (titles and the like).
        return sse(
            vec![
                json!({"type": "text", "text": "<summary>E2E summary: ran the checks.</summary>"}),
            ],
            "end_turn",
        );
    }
    let results = tool_results(request);
    let has = |id: &str| results.iter().any(|(i, _)| i == id);
    let content = if !has("toolu_e2e_bash") {
        tool_use(
            "toolu_e2e_bash",
            "Bash",
            json!({"command": format!("cat {}", model.log_path), "description": "show the CI log"}),
        )
    } else if !has("toolu_e2e_read") {
        tool_use(
            "toolu_e2e_read",
            "Read",
            json!({"file_path": model.source_path}),
        )
    } else if !has("toolu_e2e_grep") {
        tool_use(
            "toolu_e2e_grep",
            "Grep",
            json!({"pattern": "INFO", "path": model.log_path, "output_mode": "content", "-n": true}),
        )
    } else if !has("toolu_e2e_glob") {
        tool_use(
            "toolu_e2e_glob",
            "Glob",
            json!({"pattern": "**/*.rs", "path": model.glob_root}),
        )
    } else if !has("toolu_e2e_get") {
        let bash = &results
            .iter()
            .find(|(i, _)| i == "toolu_e2e_bash")
            .unwrap()
            .1;
        let id = bash
            .rfind("get id=")
            .map(|at| bash[at + 7..at + 19].to_string())
            .unwrap_or_else(|| "000000000000".into());
        let tools: Vec<&str> = request["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        let get = tools
            .iter()
            .find(|t| t.ends_with("ghost__get"))
            .copied()
            .unwrap_or("mcp__ghost__get");
        tool_use(
            "toolu_e2e_get",
            get,
            json!({"id": id, "start_line": 1, "end_line": 2000}),
        )
    } else if !has("toolu_e2e_task") {
        // A sandboxed Python task over the project's log, through ghost's
        // MCP server: its long output comes back compressed with a handle.
        tool_use(
            "toolu_e2e_task",
            &tool_named(request, "run_task"),
            json!({
                "lang": "py",
                "code": "lines = open('ci.log').read().splitlines()\n\
                         for n, l in enumerate(lines, 1):\n    print(n, l)\n\
                         print('scanned', len(lines), 'lines')",
            }),
        )
    } else {
        json!({"type": "text", "text": "All checks done."})
    };
    let stop = if content["type"] == "tool_use" {
        "tool_use"
    } else {
        "end_turn"
    };
    sse(vec![content], stop)
}

/// The scripted reply of the gateway session: a failing command with a
/// long output, a Read, a few short commands while the reported context
/// grows past the gardener's step, then ghost's `get`, then the end. Every
/// reply thinks first (with a signature).
fn gateway_reply(model: &Model, request: &Value) -> String {
    if !request["tools"].is_array() {
        return sse(vec![json!({"type": "text", "text": "a title"})], "end_turn");
    }
    let results = tool_results(request);
    let has = |id: &str| results.iter().any(|(i, _)| i == id);
    let step = results.len();
    let think = json!({"type": "thinking", "thinking": format!("Planning step {step}."),
        "signature": format!("c2lnLXN0ZXAt{step}AAAA==")});
    let call = if !has("toolu_gw_fail") {
        tool_use(
            "toolu_gw_fail",
            "Bash",
            json!({"command": format!("cat {}; exit 1", model.log_path), "description": "build"}),
        )
    } else if !has("toolu_gw_read") {
        tool_use(
            "toolu_gw_read",
            "Read",
            json!({"file_path": model.source_path}),
        )
    } else if let Some(n) = (1..=6).find(|n| !has(&format!("toolu_gw_echo_{n}"))) {
        tool_use(
            &format!("toolu_gw_echo_{n}"),
            "Bash",
            json!({"command": format!("echo step {n}"), "description": "a step"}),
        )
    } else if !has("toolu_gw_get") {
        let fail = &results
            .iter()
            .find(|(i, _)| i == "toolu_gw_fail")
            .unwrap()
            .1;
        let id = fail
            .rfind("get id=")
            .map(|at| fail[at + 7..at + 19].to_string())
            .unwrap_or_else(|| "000000000000".into());
        let get = request["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str())
            .find(|t| t.ends_with("ghost__get"))
            .unwrap_or("mcp__ghost__get")
            .to_string();
        tool_use(
            "toolu_gw_get",
            &get,
            json!({"id": id, "start_line": 1, "end_line": 2000}),
        )
    } else {
        return sse_with(
            vec![think, json!({"type": "text", "text": "Done."})],
            "end_turn",
            30_000 * step as u64,
        );
    };
    // The context the model reports grows by 30k tokens a result.
    sse_with(vec![think, call], "tool_use", 1_000 + 30_000 * step as u64)
}

fn handle(mut stream: TcpStream, model: &Arc<Mutex<Model>>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line)? == 0 {
            return Ok(());
        }
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line)?;
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        model.lock().unwrap().paths.push(path.clone());
        let (content_type, payload) = if path.starts_with("/v1/messages/count_tokens") {
            (
                "application/json",
                json!({"input_tokens": 1000}).to_string(),
            )
        } else if path.starts_with("/v1/messages") {
            let mut m = model.lock().unwrap();
            let out = if m.continuity_script {
                continuity_reply(&m, &request)
            } else if m.gateway_script {
                gateway_reply(&m, &request)
            } else {
                reply(&m, &request)
            };
            m.requests.push(request);
            m.raw.push(body.clone());
            ("text/event-stream", out)
        } else {
            ("application/json", "{}".to_string())
        };
        write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: keep-alive\r\n\r\n{payload}",
            payload.len()
        )?;
        stream.flush()?;
    }
}

fn serve(model: Arc<Mutex<Model>>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let model = model.clone();
            std::thread::spawn(move || {
                let _ = handle(stream, &model);
            });
        }
    });
    port
}

fn claude(bin: &Path, home: &Path, project: &Path, port: u16, args: &[&str]) -> String {
    claude_run(bin, home, project, port, args, false)
}

/// Runs Claude Code with `args` against the scripted model on `port`;
/// `through_gateway`: as `ghost run --upstream <model> -- claude …`.
fn claude_run(
    bin: &Path,
    home: &Path,
    project: &Path,
    port: u16,
    args: &[&str],
    through_gateway: bool,
) -> String {
    let ghost_dir = Path::new(GHOST).parent().unwrap();
    let path = format!(
        "{}:{}",
        ghost_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = if through_gateway {
        let mut c = Command::new(GHOST);
        c.args([
            "run",
            "--upstream",
            &format!("http://127.0.0.1:{port}"),
            "--",
        ])
        .arg(bin);
        c
    } else {
        Command::new(bin)
    };
    cmd.env_clear();
    claude_env(&mut cmd, home);
    let mut child = cmd
        .args(args)
        .args([
            "--output-format",
            "stream-json",
            "--verbose",
            "--permission-mode",
            "bypassPermissions",
        ])
        .current_dir(project)
        .env("PATH", path)
        .env("GHOST_HOME", home.join("ghost"))
        .envs(
            (!through_gateway).then(|| ("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}"))),
        )
        .env("ANTHROPIC_API_KEY", "e2e-key")
        .env("IS_SANDBOX", "1")
        .env("DISABLE_ERROR_REPORTING", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Bounded: the whole run stops itself within a minute.
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Claude Code's own environment for a throwaway `home`.
fn claude_env(cmd: &mut Command, home: &Path) {
    cmd.env("HOME", home)
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
}

/// `ghost install` into the throwaway `home`: the hooks and the MCP server.
fn install_ghost(home: &Path) {
    let installed = Command::new(GHOST)
        .arg("install")
        .env("HOME", home)
        .env("GHOST_HOME", home.join("ghost"))
        .output()
        .unwrap();
    assert!(
        installed.status.success(),
        "{}",
        String::from_utf8_lossy(&installed.stderr)
    );
}

/// `ghost ARGS` on the store in `home`; its stdout.
fn ghost_in(home: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new(GHOST)
        .args(args)
        .env("GHOST_HOME", home.join("ghost"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn skip() {
    eprintln!(
        "SKIPPED: Claude Code {CLAUDE_CODE_VERSION} is not installed and npm could not install it (no registry?)"
    );
}

#[test]
fn claude_code_sees_compressed_results_and_gets_originals_back() {
    let Some(bin) = claude_binary() else {
        return skip();
    };
    let home = tempfile::tempdir().unwrap();
    // ghost's own installer writes the hooks and the MCP server.
    install_ghost(home.path());
    scripted_session(&bin, home.path(), true);
}

#[test]
fn the_plugin_from_the_local_marketplace_works_too() {
    let Some(bin) = claude_binary() else {
        return skip();
    };
    let home = tempfile::tempdir().unwrap();
    let repo = workspace().display().to_string();
    for args in [
        vec!["plugin", "marketplace", "add", repo.as_str()],
        vec!["plugin", "install", "ghost@ghost"],
    ] {
        let mut cmd = Command::new(&bin);
        cmd.args(&args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default());
        claude_env(&mut cmd, home.path());
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "claude {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    scripted_session(&bin, home.path(), false);
}

/// The scripted session in `home`, where ghost is already installed; with
/// `compact`, a `/compact` run after it.
fn scripted_session(bin: &Path, home: &Path, compact: bool) {
    let project = tempfile::tempdir().unwrap();
    let log = std::fs::read_to_string(workspace().join("examples/ci-failure.log")).unwrap();
    let source = std::fs::read_to_string(workspace().join("host/store/src/archive.rs")).unwrap();
    let log_path = project.path().join("ci.log");
    let source_path = project.path().join("store.rs");
    std::fs::write(&log_path, &log).unwrap();
    std::fs::write(&source_path, &source).unwrap();
    let model = Arc::new(Mutex::new(Model {
        log_path: log_path.display().to_string(),
        source_path: source_path.display().to_string(),
        glob_root: workspace().display().to_string(),
        ..Model::default()
    }));
    let port = serve(model.clone());
    let transcript = claude(
        bin,
        home,
        project.path(),
        port,
        &["-p", "Run the checks.", "--tools", "Bash,Read,Grep,Glob"],
    );
    let requests = model.lock().unwrap().requests.clone();
    let last = requests
        .iter()
        .rev()
        .find(|r| tool_results(r).len() >= 6)
        .unwrap_or_else(|| panic!("the scripted session did not finish:\n{transcript}"));
    let results: std::collections::HashMap<String, String> =
        tool_results(last).into_iter().collect();

    let bash = &results["toolu_e2e_bash"];
    assert!(
        bash.contains("[ghost ") && bash.contains("get id="),
        "{bash}"
    );
    assert!(
        bash.len() * 5 < log.len(),
        "Bash result compressed: {} bytes",
        bash.len()
    );
    assert!(bash.contains("BUILD FAILURE"));
    let read = &results["toolu_e2e_read"];
    assert!(read.contains("get id=") && read.contains("→"), "{read}");
    assert!(read.len() < source.len());
    let grep = &results["toolu_e2e_grep"];
    assert!(grep.contains("get id="), "{grep}");
    let glob = &results["toolu_e2e_glob"];
    assert!(
        glob.contains(" files: ") && glob.contains("get id="),
        "{glob}"
    );
    // ghost's MCP get brings back lines the compressed result did not show.
    let get = &results["toolu_e2e_get"];
    let hidden = log
        .lines()
        .find(|l| l.len() > 40 && !bash.contains(*l))
        .unwrap();
    assert!(
        get.contains(hidden),
        "get returned:\n{}",
        &get[..get.len().min(2000)]
    );
    // The task ran in ghost's sandbox over the project's file; the model got
    // its output compressed, with the failure and the task's own summary
    // kept, and a handle to the rest.
    let task = &results["toolu_e2e_task"];
    assert!(task.contains(r#""exit_code":0"#), "{task}");
    assert!(task.contains("get id="), "{task}");
    assert!(task.contains("BUILD FAILURE"), "{task}");
    assert!(
        task.contains(&format!("scanned {} lines", log.lines().count())),
        "{task}"
    );
    assert!(
        task.len() * 3 < log.len(),
        "task result compressed: {} bytes",
        task.len()
    );
    assert!(
        !transcript.contains("hook_error_during_execution"),
        "{transcript}"
    );

    if !compact {
        return;
    }
    // /compact: PreCompact's state block reaches the compaction prompt.
    let before = requests.len();
    let compacted = claude(
        bin,
        home,
        project.path(),
        port,
        &["-p", "/compact", "--continue"],
    );
    let requests = model.lock().unwrap().requests.clone();
    assert!(
        requests[before..]
            .iter()
            .any(|r| r.to_string().contains("ghost holds the full originals")),
        "no compaction request carried ghost's state block:\n{compacted}"
    );
}

/// What the flush nudge says (a phrase of `ghost_claude::flush::nudge_text`).
const NUDGE: &str = "save what must survive with ghost's memory_save";

/// The name a tool has in `request` (MCP tools are prefixed by their server).
fn tool_named(request: &Value, suffix: &str) -> String {
    request["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .find(|t| *t == suffix || t.ends_with(&format!("__{suffix}")))
        .unwrap_or(suffix)
        .to_string()
}

/// The continuity session's script: write a file, edit it, set a todo
/// list, then report a context of 135k tokens (67.5% of 200k) with a Bash
/// call; more Bash calls until the nudge arrives; save a memory; another
/// Bash call at 138k; then done. Compaction requests get a summary; any other prompt an answer.
fn continuity_reply(model: &Model, request: &Value) -> String {
    let all = request.to_string();
    if !request["tools"].is_array() || all.contains("verified checkpoint of this session") {
        return sse(
            vec![json!({"type": "text", "text": "<summary>E2E summary: parser work.</summary>"})],
            "end_turn",
        );
    }
    let prompt_is = |p: &str| {
        request["messages"]
            .as_array()
            .and_then(|m| m.first())
            .is_some_and(|m| text_of(&m["content"]).contains(p))
    };
    if !prompt_is("Fix the parser") {
        return sse(
            vec![json!({"type": "text", "text": "Resumed."})],
            "end_turn",
        );
    }
    let results = tool_results(request);
    let has = |id: &str| results.iter().any(|(i, _)| i == id);
    let file = format!("{}/parse.rs", model.glob_root);
    let (content, tokens) = if !has("toolu_c_write") {
        (
            tool_use(
                "toolu_c_write",
                "Write",
                json!({"file_path": file, "content": "fn parse(line: &str) {\n    line.split(' ');\n}\n"}),
            ),
            1_000,
        )
    } else if !has("toolu_c_edit") {
        (
            tool_use(
                "toolu_c_edit",
                "Edit",
                json!({"file_path": file, "old_string": "line.split(' ')", "new_string": "line.split_whitespace()"}),
            ),
            2_000,
        )
    } else if !has("toolu_c_todo") {
        let todo = if all.contains("\"name\":\"TaskCreate\"") {
            tool_named(request, "TaskCreate")
        } else {
            tool_named(request, "TodoWrite")
        };
        let input = if todo == "TodoWrite" {
            json!({"todos": [
                {"content": "Accept tabs in the parser", "status": "completed", "activeForm": "Accepting tabs"},
                {"content": "Document the tab rule", "status": "pending", "activeForm": "Documenting"}]})
        } else {
            json!({"subject": "Document the tab rule", "description": "Document the tab rule"})
        };
        (tool_use("toolu_c_todo", &todo, input), 3_000)
    } else if !has("toolu_c_full") {
        (
            tool_use(
                "toolu_c_full",
                "Bash",
                json!({"command": "echo full", "description": "full"}),
            ),
            135_000,
        )
    } else if !all.contains(NUDGE) && !has("toolu_c_save") {
        // Claude Code writes a reply to the transcript a little after it
        // runs the reply's tool calls; a real model takes seconds to answer,
        // this one waits a quarter second and calls one more tool, until the
        // nudge arrives (at most eight times).
        let waits = results
            .iter()
            .filter(|(i, _)| i.starts_with("toolu_c_wait"))
            .count();
        if waits >= 8 {
            return sse(
                vec![json!({"type": "text", "text": "No nudge came."})],
                "end_turn",
            );
        }
        std::thread::sleep(Duration::from_millis(250));
        (
            tool_use(
                &format!("toolu_c_wait{waits}"),
                "Bash",
                json!({"command": format!("echo wait {waits}"), "description": "wait"}),
            ),
            135_500,
        )
    } else if !has("toolu_c_save") {
        (
            tool_use(
                "toolu_c_save",
                &tool_named(request, "memory_save"),
                json!({"text": "The parser splits on any whitespace, tabs included", "target": "log"}),
            ),
            136_000,
        )
    } else if !has("toolu_c_again") {
        (
            tool_use(
                "toolu_c_again",
                "Bash",
                json!({"command": "echo again", "description": "again"}),
            ),
            138_000,
        )
    } else {
        (
            json!({"type": "text", "text": "The parser accepts tabs."}),
            138_500,
        )
    };
    let stop = if content["type"] == "tool_use" {
        "tool_use"
    } else {
        "end_turn"
    };
    sse_with(vec![content], stop, tokens)
}

#[test]
fn memories_and_a_checkpoint_carry_a_session_across_compaction() {
    let Some(bin) = claude_binary() else {
        return skip();
    };
    let home = tempfile::tempdir().unwrap();
    install_ghost(home.path());
    let project = tempfile::tempdir().unwrap();
    let project_dir = project.path().canonicalize().unwrap();
    let model = Arc::new(Mutex::new(Model {
        continuity_script: true,
        glob_root: project_dir.display().to_string(),
        ..Model::default()
    }));
    let port = serve(model.clone());
    let tools = "Bash,Read,Edit,Write,TodoWrite,TaskCreate,TaskUpdate,TaskList";
    let run = |args: &[&str]| claude(&bin, home.path(), &project_dir, port, args);

    // The session: the context crosses 65% once; the nudge comes once, in
    // the request after the first tool call that follows the crossing (a
    // reply's usage reaches the transcript after its tool calls' PreToolUse
    // hooks ran).
    let out = run(&["-p", "Fix the parser.", "--tools", tools]);
    let requests = model.lock().unwrap().requests.clone();
    let session: Vec<&Value> = requests
        .iter()
        .filter(|r| r["tools"].is_array() && !tool_results(r).is_empty())
        .collect();
    let counts: Vec<usize> = session
        .iter()
        .map(|r| r.to_string().matches(NUDGE).count())
        .collect();
    let log = std::fs::read_to_string(home.path().join("ghost/ghost.log")).unwrap_or_default();
    // Given once (the history may carry that one message on), never twice.
    assert_eq!(log.matches("flush: nudged").count(), 1, "{log}");
    let first = counts
        .iter()
        .position(|&n| n > 0)
        .unwrap_or_else(|| panic!("no request carries the nudge: {counts:?}\n{log}"));
    assert!(counts.iter().all(|&n| n <= 1), "{counts:?}");
    assert!(
        first + 1 < counts.len(),
        "the model answers the nudge: {counts:?}"
    );
    assert!(session[first].to_string().contains("% full"));
    let last = session
        .last()
        .unwrap_or_else(|| panic!("the session did not run:\n{out}"));
    let saved = tool_results(last)
        .into_iter()
        .find(|(i, _)| i == "toolu_c_save")
        .expect("the model called memory_save")
        .1;
    // Claude Code shows the model the structured result.
    assert!(saved.contains("/memory/"), "{saved}");
    // memory_search finds it (the CLI twin, on the same files).
    let project_arg = project_dir.to_str().unwrap();
    let found = ghost_in(
        home.path(),
        &[
            "memory",
            "search",
            "whitespace tabs",
            "--project",
            project_arg,
        ],
    );
    assert!(String::from_utf8_lossy(&found).contains("splits on any whitespace"));

    // /compact: a verified checkpoint in the compaction prompt.
    let before = model.lock().unwrap().requests.len();
    let out = run(&["-p", "/compact", "--continue"]);
    let requests = model.lock().unwrap().requests.clone();
    let compaction = requests[before..]
        .iter()
        .map(|r| r.to_string())
        .find(|r| r.contains("verified checkpoint of this session"))
        .unwrap_or_else(|| panic!("no checkpoint in the compaction prompt:\n{out}"));
    assert!(compaction.contains("parse.rs"), "{compaction}");
    assert!(compaction.contains("Document the tab rule"), "{compaction}");
    let listed = ghost_in(
        home.path(),
        &["checkpoints", "--json", "--project", project_arg],
    );
    let listed: Value = serde_json::from_slice(&listed).unwrap();
    assert_eq!(listed[0]["on_disk"], json!(true));
    let checkpoint = std::fs::read_to_string(listed[0]["path"].as_str().unwrap()).unwrap();
    assert!(checkpoint.contains("\nverified: true\n") && checkpoint.contains("parse.rs"));

    // The first request after compaction carries the restore.
    let before = model.lock().unwrap().requests.len();
    let out = run(&["-p", "Continue.", "--continue"]);
    let requests = model.lock().unwrap().requests.clone();
    let after = requests[before..]
        .iter()
        .find(|r| r["tools"].is_array())
        .unwrap_or_else(|| panic!("no request after compaction:\n{out}"))
        .to_string();
    assert!(
        after.contains("ghost restored this project's context"),
        "{after}"
    );
    assert!(after.contains("Document the tab rule"), "{after}");

    // A new session in the project starts with the checkpoint and the log.
    let before = model.lock().unwrap().requests.len();
    let out = run(&["-p", "Hello again."]);
    let requests = model.lock().unwrap().requests.clone();
    let first = requests[before..]
        .iter()
        .find(|r| r["tools"].is_array())
        .unwrap_or_else(|| panic!("no request in the new session:\n{out}"))
        .to_string();
    assert!(first.contains("Document the tab rule"), "{first}");
    assert!(first.contains("splits on any whitespace"), "{first}");
}

/// The raw text of every `{"type":"thinking",…}` object in `body`.
fn thinking_blocks(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find("{\"type\":\"thinking\"") {
        let from = &rest[at..];
        let end = from.find('}').map_or(from.len(), |e| e + 1);
        out.push(from[..end].to_string());
        rest = &from[end..];
    }
    out
}

#[test]
fn claude_code_through_ghost_run_gets_a_gardened_window() {
    let Some(bin) = claude_binary() else {
        return skip();
    };
    let home = tempfile::tempdir().unwrap();
    // ghost's MCP server only (no hooks: the gateway does the work).
    std::fs::write(
        home.path().join(".claude.json"),
        json!({"mcpServers": {"ghost": {"command": "ghost", "args": ["serve"]}}}).to_string(),
    )
    .unwrap();
    let project = tempfile::tempdir().unwrap();
    let log = std::fs::read_to_string(workspace().join("examples/ci-failure.log")).unwrap();
    let source = std::fs::read_to_string(workspace().join("host/store/src/archive.rs")).unwrap();
    let log_path = project.path().join("ci.log");
    let source_path = project.path().join("store.rs");
    std::fs::write(&log_path, &log).unwrap();
    std::fs::write(&source_path, &source).unwrap();
    let model = Arc::new(Mutex::new(Model {
        log_path: log_path.display().to_string(),
        source_path: source_path.display().to_string(),
        gateway_script: true,
        ..Model::default()
    }));
    let port = serve(model.clone());
    let transcript = claude_run(
        &bin,
        home.path(),
        project.path(),
        port,
        &["-p", "Build it.", "--tools", "Bash,Read"],
        true,
    );
    let m = model.lock().unwrap();
    let raw: Vec<String> = m
        .raw
        .iter()
        .map(|b| String::from_utf8(b.clone()).unwrap())
        .collect();
    let requests = &m.requests;
    if let Some(dir) = std::env::var_os("GHOST_E2E_DUMP") {
        for (i, body) in raw.iter().enumerate() {
            std::fs::write(Path::new(&dir).join(format!("{i:02}.json")), body).unwrap();
        }
    }
    let last = requests
        .iter()
        .rposition(|r| tool_results(r).iter().any(|(i, _)| i == "toolu_gw_get"))
        .unwrap_or_else(|| panic!("the scripted session did not finish:\n{transcript}"));
    // Every request is valid: JSON, each result answers an earlier call.
    for r in requests {
        assert!(r.is_object());
        let mut calls = std::collections::HashSet::new();
        for msg in r["messages"].as_array().into_iter().flatten() {
            for b in msg["content"].as_array().into_iter().flatten() {
                if b["type"] == "tool_use" {
                    calls.insert(b["id"].as_str().unwrap().to_string());
                }
                if b["type"] == "tool_result" {
                    assert!(calls.contains(b["tool_use_id"].as_str().unwrap()), "{b}");
                }
            }
        }
    }
    // The failing command's long output was compressed (no hook can do that).
    let results: std::collections::HashMap<String, String> =
        tool_results(&requests[last]).into_iter().collect();
    let first_seen = requests
        .iter()
        .position(|r| tool_results(r).iter().any(|(i, _)| i == "toolu_gw_fail"))
        .unwrap();
    let fail_then: std::collections::HashMap<String, String> =
        tool_results(&requests[first_seen]).into_iter().collect();
    let fail = &fail_then["toolu_gw_fail"];
    assert!(
        fail.contains("Exit code 1") && fail.contains("get id="),
        "{fail}"
    );
    // A garbage-collection step turned older results into references, and
    // every later request carries the same bytes for them.
    let ghost_log =
        std::fs::read_to_string(home.path().join("ghost/ghost.log")).unwrap_or_default();
    let gateway_lines: Vec<&str> = ghost_log
        .lines()
        .filter(|l| l.contains("gateway:"))
        .collect();
    let step = requests
        .iter()
        .position(|r| r.to_string().contains("[ghost: an earlier result"))
        .unwrap_or_else(|| panic!("no garbage-collection step:\n{}", gateway_lines.join("\n")));
    let reference = |body: &str| {
        let at = body.find("[ghost: an earlier result").unwrap();
        let end = at + body[at..].find(']').unwrap();
        body[at..=end].to_string()
    };
    let first_reference = reference(&raw[step]);
    for body in &raw[step..] {
        if body.contains("toolu_gw_fail") {
            assert_eq!(reference(body), first_reference);
        }
    }
    assert!(results["toolu_gw_fail"].starts_with("[ghost: an earlier result"));
    // Thinking blocks reach the model byte for byte in every later request.
    let signed = thinking_blocks(&raw[first_seen]);
    assert!(
        !signed.is_empty(),
        "{}",
        &raw[first_seen][..2000.min(raw[first_seen].len())]
    );
    for body in &raw[first_seen..] {
        for block in &signed {
            assert!(body.contains(block.as_str()), "{block} changed");
        }
    }
    // ghost's MCP get brings the original back (what Claude Code sent of a
    // failed command: its own cut of the output), well over what was shown.
    let get = &results["toolu_gw_get"];
    assert!(
        get.len() > fail.len() * 2,
        "{} vs {}",
        get.len(),
        fail.len()
    );
    let hidden = log
        .lines()
        .find(|l| l.len() > 40 && get.contains(*l) && !fail.contains(*l))
        .unwrap_or_else(|| panic!("get returned:\n{}", &get[..get.len().min(2000)]));
    assert!(!hidden.is_empty());
    // The gateway logged each request.
    assert!(
        ghost_log.contains("garbage-collection step 1"),
        "{ghost_log}"
    );
}
