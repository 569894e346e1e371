//! The gardener on conversations built from real tool outputs, with a real
//! store file and the real (sandboxed) compressors.

use std::path::{Path, PathBuf};

use ghost_core::config::Config;
use ghost_core::paths::GhostDirs;
use ghost_core::pipeline::Pipeline;
use ghost_gateway::gardener::{GardenPolicy, Gardener, RequestInfo};
use serde_json::{Value, json};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn gardener(home: &Path, policy: GardenPolicy) -> Gardener {
    let dirs = GhostDirs {
        data: home.to_path_buf(),
        cache: home.join("cache"),
        config: home.to_path_buf(),
    };
    let pipeline = Pipeline::with_dirs(Some(&dirs)).unwrap();
    Gardener::new(
        home.join("store.sqlite3"),
        Config::default(),
        pipeline,
        policy,
    )
    .unwrap()
}

/// A Claude Code-like conversation that grows turn by turn.
struct Conversation {
    messages: Vec<Value>,
    calls: usize,
}

impl Conversation {
    fn new(prompt: &str) -> Self {
        Self {
            messages: vec![json!({"role": "user", "content": prompt})],
            calls: 0,
        }
    }

    /// The assistant calls `tool` with `input` (after thinking), the tool
    /// answers `result`.
    fn call(&mut self, tool: &str, input: Value, result: &str, is_error: bool) -> String {
        self.calls += 1;
        let id = format!("toolu_{:04}", self.calls);
        self.messages.push(json!({"role": "assistant", "content": [
            {"type": "thinking", "thinking": format!("step {}", self.calls), "signature": "c2lnbmF0dXJl"},
            {"type": "tool_use", "id": id, "name": tool, "input": input}]}));
        let mut block = json!({"type": "tool_result", "tool_use_id": id, "content": result});
        if is_error {
            block["is_error"] = json!(true);
        }
        self.messages
            .push(json!({"role": "user", "content": [block]}));
        id
    }

    fn body(&self) -> Vec<u8> {
        json!({
            "model": "claude-opus-5-5",
            "max_tokens": 128000,
            "metadata": {"user_id": "{\"device_id\":\"d\",\"account_uuid\":\"\",\"session_id\":\"sess-1\"}"},
            "system": [{"type": "text", "text": "You are Claude Code.", "cache_control": {"type": "ephemeral"}}],
            "tools": [{"name": "Bash", "input_schema": {"type": "object"}}],
            "messages": self.messages,
            "stream": true
        })
        .to_string()
        .into_bytes()
    }
}

fn info(now: i64) -> RequestInfo {
    RequestInfo {
        session_header: Some("sess-1".into()),
        beta: None,
        now,
    }
}

fn ci_log() -> String {
    std::fs::read_to_string(workspace().join("examples/ci-failure.log")).unwrap()
}

/// The `content` of the tool result answering `id` in `body`.
fn result_of(body: &[u8], id: &str) -> Value {
    let v: Value = serde_json::from_slice(body).unwrap();
    for m in v["messages"].as_array().unwrap() {
        for b in m["content"].as_array().into_iter().flatten() {
            if b["tool_use_id"] == id {
                return b["content"].clone();
            }
        }
    }
    panic!("no result {id}")
}

#[test]
fn a_new_result_is_shown_shorter_and_then_byte_for_byte_the_same() {
    let home = tempfile::tempdir().unwrap();
    let mut g = gardener(home.path(), GardenPolicy::default());
    let mut c = Conversation::new("why does the build fail?");
    let log = ci_log();
    let id = c.call(
        "Bash",
        json!({"command": "mvn verify"}),
        &format!("Exit code 1\n{log}"),
        true,
    );
    let first = g.garden(&c.body(), &info(1_000));
    assert_eq!(first.passed_through, None);
    assert_eq!(first.new_rewrites, 1);
    let sent = first.body.expect("rewritten");
    let shown = result_of(&sent, &id);
    let text = shown.as_str().unwrap();
    assert!(text.len() < log.len() / 4, "{}", text.len());
    assert!(text.contains("BUILD FAILURE"), "{text}");
    assert!(text.contains("get id="), "{text}");
    // Everything else reaches upstream as it came: thinking, system, order.
    let (a, b): (Value, Value) = (
        serde_json::from_slice(&c.body()).unwrap(),
        serde_json::from_slice(&sent).unwrap(),
    );
    assert_eq!(a["system"], b["system"]);
    assert_eq!(a["messages"][1], b["messages"][1]);
    // The next request: the same bytes for the same block, and its prefix
    // (everything up to the new turn) identical to what was sent before.
    c.call("Bash", json!({"command": "ls"}), "a\nb\n", false);
    let second = g.garden(&c.body(), &info(2_000));
    let again = second.body.expect("replayed");
    assert_eq!(result_of(&again, &id), shown);
    let cut = sent.len() - 40;
    assert_eq!(&again[..cut], &sent[..cut]);
    assert_eq!(second.new_rewrites, 0);
    // A fresh gardener (a restarted gateway) replays the same bytes.
    drop(g);
    let mut g = gardener(home.path(), GardenPolicy::default());
    let third = g.garden(&c.body(), &info(3_000));
    assert_eq!(third.body.unwrap(), again);
}

#[test]
fn what_ghost_does_not_change_goes_through_as_the_exact_bytes() {
    let home = tempfile::tempdir().unwrap();
    let mut g = gardener(home.path(), GardenPolicy::default());
    let mut c = Conversation::new("hello");
    c.call("Bash", json!({"command": "ls"}), "a\nb\n", false);
    let out = g.garden(&c.body(), &info(1_000));
    assert!(out.body.is_none(), "nothing to change");
    for bad in [&b"{not json"[..], b"", b"[1]", &[0xff, 0x00]] {
        let out = g.garden(bad, &info(1_000));
        assert!(out.body.is_none());
        assert!(out.passed_through.is_some());
    }
}

#[test]
fn a_garbage_collection_step_gardens_old_turns_once_and_for_good() {
    let home = tempfile::tempdir().unwrap();
    let policy = GardenPolicy {
        step_share: 0.02,
        step_gap_share: 0.01,
        keep_turns: 3,
        ..GardenPolicy::default()
    };
    let mut g = gardener(home.path(), policy);
    let mut c = Conversation::new("fix the build");
    let log = ci_log();
    let source = std::fs::read_to_string(
        workspace().join("../shared/corpus/cases/code-py-textwrap/input.txt"),
    )
    .unwrap();
    let numbered: String = source
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{}\t{l}\n", i + 1))
        .collect();
    // Claude Code sends a request after each tool result.
    let first = c.call("Bash", json!({"command": "mvn verify"}), &log, false);
    let out = g.garden(&c.body(), &info(1_000));
    let summary = result_of(out.body.as_ref().unwrap(), &first);
    let read = c.call(
        "Read",
        json!({"file_path": "/w/textwrap.py"}),
        &numbered,
        false,
    );
    g.garden(&c.body(), &info(1_000));
    let write = c.call(
        "Write",
        json!({"file_path": "/w/new.py", "content": source}),
        "File created successfully at: /w/new.py",
        false,
    );
    let out = g.garden(&c.body(), &info(1_000));
    assert_eq!(out.gc_step, None, "not enough turns are old yet");
    g.record_usage(out.conversation.as_deref().unwrap(), 30_000);
    for i in 0..3 {
        c.call("Bash", json!({"command": format!("echo {i}")}), "ok", false);
    }
    let out = g.garden(&c.body(), &info(2_000));
    assert_eq!(out.gc_step, Some(1), "{out:?}");
    let body = out.body.unwrap();
    // The summary became a reference with its handle and its failures.
    let reference = result_of(&body, &first);
    let reference = reference.as_str().unwrap();
    assert!(
        reference.starts_with("[ghost: an earlier result, Bash `mvn verify`"),
        "{reference}"
    );
    assert!(reference.len() < summary.as_str().unwrap().len() / 10);
    // The Read, never shortened on arrival (under 8 KB), is now a summary.
    let read_now = result_of(&body, &read);
    assert!(read_now.as_str().unwrap().len() < numbered.len());
    // The Write's content is a reference; the file path stays.
    let v: Value = serde_json::from_slice(&body).unwrap();
    let write_input = v["messages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .find(|b| b["id"] == write)
        .unwrap()["input"]
        .clone();
    assert_eq!(write_input["file_path"], "/w/new.py");
    assert!(
        write_input["content"]
            .as_str()
            .unwrap()
            .starts_with("[ghost: ")
    );
    // Thinking blocks are byte-identical.
    assert!(String::from_utf8_lossy(&body).contains(r#""signature":"c2lnbmF0dXJl""#));
    // The next request replays the step: the same bytes, no new step.
    c.call("Bash", json!({"command": "echo again"}), "ok", false);
    let next = g.garden(&c.body(), &info(3_000));
    assert_eq!(next.gc_step, None);
    let next = next.body.unwrap();
    let cut = body.len() - 40;
    assert_eq!(&next[..cut], &body[..cut]);
}

#[test]
fn files_re_attached_after_compaction_are_shown_shorter() {
    let home = tempfile::tempdir().unwrap();
    let mut g = gardener(home.path(), GardenPolicy::default());
    let source = std::fs::read_to_string(
        workspace().join("../shared/corpus/cases/code-py-textwrap/input.txt"),
    )
    .unwrap();
    let numbered: String = source
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{}\t{l}\n", i + 1))
        .collect();
    // The first request after /compact, as Claude Code 2.1.329 sends it.
    let mut c = Conversation::new("This session is being continued from a previous conversation…");
    c.messages[0] = json!({"role": "user", "content": [
        {"type": "text", "text": "This session is being continued from a previous conversation…"},
        {"type": "text", "text": "<system-reminder>\nCalled the Read tool with the following input: {\"file_path\":\"/w/textwrap.py\"}\n</system-reminder>"},
        {"type": "text", "text": format!("<system-reminder>\nResult of calling the Read tool: {numbered}</system-reminder>")},
    ]});
    let out = g.garden(&c.body(), &info(1_000));
    assert_eq!(out.new_rewrites, 1, "{out:?}");
    let sent: Value = serde_json::from_slice(out.body.as_ref().unwrap()).unwrap();
    let text = sent["messages"][0]["content"][2]["text"].as_str().unwrap();
    assert!(
        text.starts_with("<system-reminder>\nResult of calling the Read tool: 1\t"),
        "{text}"
    );
    assert!(text.ends_with("</system-reminder>"), "{text}");
    assert!(
        text.contains("get id=") && text.len() < numbered.len() / 2,
        "{}",
        text.len()
    );
    // The summary and the call are as they were.
    assert_eq!(
        sent["messages"][0]["content"][1],
        c.messages[0]["content"][1]
    );
    // Replayed byte for byte by the next request.
    c.call("Bash", json!({"command": "ls"}), "a\n", false);
    let again = g.garden(&c.body(), &info(2_000));
    let sent2: Value = serde_json::from_slice(again.body.as_ref().unwrap()).unwrap();
    assert_eq!(sent2["messages"][0], sent["messages"][0]);
}

#[test]
fn results_the_hooks_replaced_are_left_alone_until_collected() {
    let home = tempfile::tempdir().unwrap();
    let policy = GardenPolicy {
        step_share: 0.0,
        step_gap_share: 0.0,
        keep_turns: 1,
        ..GardenPolicy::default()
    };
    let mut g = gardener(home.path(), policy);
    let mut c = Conversation::new("go");
    let hooked = format!(
        "{}\n[ghost 4.1k→1.2k tokens · full text: get id=0123456789ab · search: recall]",
        "BUILD FAILURE: 3 tests failed\n".repeat(60)
    );
    let id = c.call("Bash", json!({"command": "mvn verify"}), &hooked, false);
    let out = g.garden(&c.body(), &info(1_000));
    assert_eq!(out.new_rewrites, 0, "already shorter: {out:?}");
    c.call("Bash", json!({"command": "ls"}), "a\n", false);
    let out = g.garden(&c.body(), &info(2_000));
    assert_eq!(out.gc_step, Some(1));
    let shown = result_of(out.body.as_ref().unwrap(), &id);
    let shown = shown.as_str().unwrap();
    assert!(
        shown.starts_with("[ghost: an earlier result, Bash `mvn verify`"),
        "{shown}"
    );
    assert!(shown.contains("get id=0123456789ab"), "{shown}");
}

#[test]
fn a_cold_cache_is_a_free_step() {
    let home = tempfile::tempdir().unwrap();
    let policy = GardenPolicy {
        step_share: 0.99,
        cold_step_share: 0.0,
        keep_turns: 1,
        ..GardenPolicy::default()
    };
    let mut g = gardener(home.path(), policy);
    let mut c = Conversation::new("go");
    let id = c.call("Bash", json!({"command": "mvn verify"}), &ci_log(), false);
    g.garden(&c.body(), &info(1_000));
    c.call("Bash", json!({"command": "ls"}), "a\n", false);
    let warm = g.garden(&c.body(), &info(2_000));
    assert_eq!(warm.gc_step, None, "under the step while the cache is warm");
    c.call("Bash", json!({"command": "ls -a"}), "a\n", false);
    // Six minutes later: the 5-minute cache has gone cold.
    let cold = g.garden(&c.body(), &info(2_000 + 6 * 60_000));
    assert_eq!(cold.gc_step, Some(1));
    let shown = result_of(cold.body.as_ref().unwrap(), &id);
    assert!(
        shown
            .as_str()
            .unwrap()
            .starts_with("[ghost: an earlier result")
    );
}
