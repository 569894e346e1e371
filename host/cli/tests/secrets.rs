//! No secret in clear: a corpus of realistic outputs full of credentials
//! (`common/secrets.rs`) goes through the PostToolUse hook, `ghost ingest`,
//! the prompt and failure hooks, `ghost memory save` and `ghost gateway`
//! (every request's tool results collected into the store); the model is shown
//! redacted text, and no secret appears in the bytes of any file ghost
//! wrote (the store, its WAL, the log, memory files) nor in what `recall`
//! and `get` print.

mod common;

use std::path::{Path, PathBuf};

use common::run_ghost as run;
use common::secrets::{self, corpus};
use serde_json::{Value, json};

fn bash_payload(id: &str, command: &str, stdout: &str) -> Value {
    json!({
        "session_id": "sess-secrets",
        "cwd": "/home/dev/project",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "look"},
        "tool_response": {"stdout": stdout, "stderr": "", "interrupted": false,
                          "isImage": false, "noOutputExpected": false},
        "tool_use_id": id,
    })
}

fn stdout_of(home: &Path, args: &[&str], stdin: &[u8]) -> String {
    let out = run(home, args, stdin);
    assert!(
        out.status.success(),
        "ghost {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn every_file(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            every_file(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn assert_no_secret(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for output in corpus() {
        for secret in output.secrets {
            assert!(!text.contains(secret), "{what} holds {secret:?}");
        }
    }
    assert!(
        !text.contains(secrets::PROMPT_SECRET),
        "{what} holds the prompt's"
    );
}

#[test]
fn no_secret_is_stored_logged_or_shown() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();

    // The hook: every output holds a secret, so every one is replaced, by
    // its summary or by itself redacted.
    for (i, output) in corpus().iter().enumerate() {
        let payload = bash_payload(&format!("toolu_{i}"), output.command, &output.text);
        let answer = stdout_of(
            home,
            &["hook", "post-tool-use"],
            payload.to_string().as_bytes(),
        );
        assert_no_secret(
            &format!("the hook's answer to `{}`", output.command),
            answer.as_bytes(),
        );
        let answer: Value = serde_json::from_str(&answer)
            .unwrap_or_else(|_| panic!("`{}` was not replaced: {answer:?}", output.command));
        let shown = answer["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
            .as_str()
            .unwrap();
        assert!(shown.contains("[secret:"), "{}: {shown}", output.command);
    }
    // The same secret gets the same marker everywhere.
    let env = corpus().remove(0);
    let payload = bash_payload("toolu_env_again", "printenv", &env.text);
    let again = stdout_of(
        home,
        &["hook", "post-tool-use"],
        payload.to_string().as_bytes(),
    );
    let markers = |s: &str| -> Vec<String> {
        s.match_indices("[secret:")
            .map(|(at, _)| s[at..at + s[at..].find(']').unwrap() + 1].to_string())
            .collect()
    };
    let aws: Vec<String> = markers(&again)
        .into_iter()
        .filter(|m| m.starts_with("[secret:aws-access-key:"))
        .collect();
    assert!(!aws.is_empty(), "{again}");
    let first = bash_payload("toolu_env_first", "env", &env.text);
    let first = stdout_of(
        home,
        &["hook", "post-tool-use"],
        first.to_string().as_bytes(),
    );
    assert_eq!(markers(&first), markers(&again));

    // `ghost ingest`, a prompt, a failure, a memory.
    let lines: String = corpus()
        .iter()
        .enumerate()
        .map(|(i, o)| {
            json!({"text": o.text, "session": "sess-ingest", "tool_use_id": format!("ing_{i}"),
                   "tool": "Bash", "context": o.command})
            .to_string()
                + "\n"
        })
        .collect();
    let ingested = stdout_of(home, &["ingest", "--jsonl"], lines.as_bytes());
    assert_no_secret("ghost ingest's answer", ingested.as_bytes());
    let recalled = stdout_of(home, &["recall", "AWS_ACCESS_KEY_ID", "--full"], b"");
    assert!(
        recalled.contains(&aws[0]),
        "the store keeps the same marker: {recalled}"
    );
    let prompt = json!({
        "session_id": "sess-secrets", "hook_event_name": "UserPromptSubmit",
        "prompt": format!("use DB_PASSWORD={} on staging", secrets::PROMPT_SECRET),
        "prompt_id": "p1", "cwd": "/home/dev/project",
    });
    stdout_of(
        home,
        &["hook", "user-prompt-submit"],
        prompt.to_string().as_bytes(),
    );
    let failure = json!({
        "session_id": "sess-secrets", "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash", "tool_use_id": "toolu_fail", "cwd": "/home/dev/project",
        "tool_input": {"command": "aws s3 ls"},
        "error": format!("Exit code 255\nInvalid header: aws_secret_access_key={}", secrets::AWS_SECRET),
    });
    let answer = stdout_of(
        home,
        &["hook", "post-tool-use-failure"],
        failure.to_string().as_bytes(),
    );
    assert!(answer.contains("stored this Bash error"), "{answer}");
    let saved = stdout_of(
        home,
        &[
            "memory",
            "save",
            &format!("deploys use GITHUB_TOKEN={}", secrets::GITHUB),
        ],
        b"",
    );
    assert_no_secret("memory save's answer", saved.as_bytes());

    // What people and agents read back.
    for query in [
        "AWS_SECRET_ACCESS_KEY",
        "password",
        "token",
        "deploy",
        "staging",
    ] {
        let out = stdout_of(home, &["recall", query, "--full", "--json"], b"");
        assert_no_secret(&format!("recall {query}"), out.as_bytes());
    }
    let memory = stdout_of(home, &["memory", "search", "GITHUB_TOKEN"], b"");
    assert!(memory.contains("[secret:github-token:"), "{memory}");

    // Every byte ghost wrote: the store, its WAL, the log, memory files.
    let mut files = Vec::new();
    every_file(home, &mut files);
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n == "store.sqlite3"), "{names:?}");
    assert!(names.iter().any(|n| n == "ghost.log"), "{names:?}");
    assert!(names.iter().any(|n| n == "MEMORY.md"), "{names:?}");
    for file in &files {
        assert_no_secret(&file.display().to_string(), &std::fs::read(file).unwrap());
    }

    // Private: the store, its log and its key are the owner's only.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for name in ["store.sqlite3", "ghost.log", "redaction.key"] {
            let mode = std::fs::metadata(home.join(name))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "{name} is {mode:o}");
        }
    }
}

#[test]
fn a_secret_the_user_allows_is_left_alone() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    std::fs::write(
        home.join("config.toml"),
        format!("[redact]\nallow = [\"^{}$\"]\n", secrets::AWS_KEY),
    )
    .unwrap();
    let text = format!(
        "AWS_ACCESS_KEY_ID={}\nAWS_SECRET_ACCESS_KEY={}\n",
        secrets::AWS_KEY,
        secrets::AWS_SECRET
    );
    let answer = stdout_of(
        home,
        &["hook", "post-tool-use"],
        bash_payload("toolu_1", "env", &text).to_string().as_bytes(),
    );
    assert!(answer.contains(secrets::AWS_KEY), "{answer}");
    assert!(!answer.contains(secrets::AWS_SECRET), "{answer}");
    // A bad rule is named, with what to do.
    std::fs::write(home.join("config.toml"), "[redact]\noff = [\"jwts\"]\n").unwrap();
    let out = run(home, &["recall", "x"], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("jwts") && err.contains("private-key"),
        "{err}"
    );
}

#[test]
fn the_gateway_stores_and_logs_no_secret() {
    use ghost_bench::load;
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    // Collect every request's tool results, so each one is stored.
    std::fs::write(
        home.join("config.toml"),
        "[gateway]\nstep_share = 0.0\nstep_gap_share = 0.0\nkeep_turns = 0\nreference_min_bytes = 64\n",
    )
    .unwrap();
    let upstream = load::start_upstream().unwrap();
    let (mut gateway, addr) =
        load::start_gateway(Path::new(env!("CARGO_BIN_EXE_ghost")), home, upstream).unwrap();
    // Each output in a conversation of its own, collected at its first
    // request; a long build log after it makes it worth collecting.
    let log = std::fs::read_to_string(common::workspace().join("examples/ci-failure.log")).unwrap();
    for (i, output) in corpus().into_iter().enumerate() {
        let id = format!("toolu_gw_secret_{i}");
        let body = json!({"model": "claude-opus-5-5", "max_tokens": 1000, "stream": true,
        "metadata": {"user_id": format!("{{\"session_id\":\"gw-secrets-{i}\"}}")},
        "messages": [
            {"role": "user", "content": format!("look around ({i})")},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": id, "name": "Bash", "input": {"command": output.command}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": id,
                 "content": format!("{}\n{log}", output.text)}]},
            {"role": "assistant", "content": [{"type": "text", "text": "noted"}]},
            {"role": "user", "content": "go on"}
        ]});
        assert!(
            load::post(addr, body.to_string().as_bytes()).is_some(),
            "request {i} failed"
        );
    }
    gateway.kill().unwrap();
    gateway.wait().unwrap();
    let conn = rusqlite::Connection::open(home.join("store.sqlite3")).unwrap();
    let stored: i64 = conn
        .query_row("SELECT count(*) FROM entries", [], |r| r.get(0))
        .unwrap();
    assert!(
        stored >= corpus().len() as i64,
        "only {stored} entries: the gateway stored too little to test; its log:\n{}",
        std::fs::read_to_string(home.join("ghost.log")).unwrap_or_default()
    );
    drop(conn);
    let mut files = Vec::new();
    every_file(home, &mut files);
    for file in files {
        assert_no_secret(&file.display().to_string(), &std::fs::read(&file).unwrap());
    }
}
