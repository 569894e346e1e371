//! `ghost hook <event>` on Claude Code's real hook payloads (captured from
//! Claude Code 2.1.329, `../shared/claude-code/payloads/`), enlarged with
//! real content where the captured result is too small to compress.

mod common;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

fn payloads() -> PathBuf {
    common::workspace().join("../shared/claude-code/payloads")
}

fn payload(name: &str) -> Value {
    let text = std::fs::read_to_string(payloads().join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn workspace_file(rel: &str) -> String {
    std::fs::read_to_string(common::workspace().join(rel)).unwrap()
}

use common::run_ghost as run;

fn hook(home: &Path, event: &str, payload: &Value) -> Option<Value> {
    let out = run(home, &["hook", event], payload.to_string().as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    (!stdout.trim().is_empty()).then(|| serde_json::from_str(&stdout).expect("stdout is JSON only"))
}

/// The replaced response, checked to keep the received keys (minus the
/// persisted-output pair).
fn replaced(answer: &Value, received: &Value) -> Value {
    let out = &answer["hookSpecificOutput"];
    assert_eq!(out["hookEventName"], "PostToolUse");
    let updated = out["updatedToolOutput"].clone();
    if let (Some(a), Some(b)) = (received.as_object(), updated.as_object()) {
        let want: Vec<&String> = a
            .keys()
            .filter(|k| !k.starts_with("persistedOutput"))
            .collect();
        let got: Vec<&String> = b.keys().collect();
        assert_eq!(got, want, "the tool's own shape");
    }
    updated
}

fn handle_id(text: &str) -> String {
    let at = text.rfind("get id=").expect("a handle") + 7;
    text[at..at + 12].to_string()
}

/// `ghost get ID --json`'s full original.
fn original(home: &Path, id: &str) -> String {
    let out = run(home, &["get", id, "--json"], b"");
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let numbered = v["text"].as_str().unwrap();
    numbered
        .lines()
        .map(|l| l.split_once('\t').unwrap().1)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_large_bash_result_is_replaced_in_its_own_shape_and_kept_whole() {
    let home = tempfile::tempdir().unwrap();
    let log = workspace_file("examples/ci-failure.log");
    // Claude Code cut stdout at 30,000 characters and persisted the rest.
    let persisted = home.path().join("persisted-output.txt");
    std::fs::write(&persisted, &log).unwrap();
    let mut p = payload("PostToolUse-Bash-large.json");
    let cut: String = log.chars().take(30_000).collect();
    p["tool_response"]["stdout"] = json!(cut);
    p["tool_response"]["persistedOutputPath"] = json!(persisted.to_str().unwrap());
    p["tool_response"]["persistedOutputSize"] = json!(log.len());
    let answer = hook(home.path(), "post-tool-use", &p).expect("a replacement");
    let updated = replaced(&answer, &p["tool_response"]);
    let stdout = updated["stdout"].as_str().unwrap();
    assert!(
        stdout.len() * 5 < log.len(),
        "compressed: {} bytes",
        stdout.len()
    );
    assert!(stdout.len() < 40_000);
    assert!(stdout.contains("BUILD FAILURE"));
    assert_eq!(updated["stderr"], "");
    let id = handle_id(stdout);
    assert_eq!(original(home.path(), &id), log.trim_end_matches('\n'));
    // A replay (the same tool_use_id) answers the same, stores nothing new.
    let again = hook(home.path(), "post-tool-use", &p).unwrap();
    assert_eq!(again, answer);
    let stats: Value =
        serde_json::from_slice(&run(home.path(), &["stats", "--json"], b"").stdout).unwrap();
    assert_eq!(stats["entries"], json!(1));
}

#[test]
fn a_whole_file_read_keeps_real_line_numbers_and_a_targeted_read_is_untouched() {
    let home = tempfile::tempdir().unwrap();
    let source = workspace_file("host/store/src/archive.rs");
    let mut p = payload("PostToolUse-Read-whole.json");
    let n = source.lines().count();
    p["tool_input"] = json!({"file_path": "/home/dev/project/src/store.rs"});
    p["tool_response"]["file"] = json!({"filePath": "/home/dev/project/src/store.rs",
        "content": source, "numLines": n, "startLine": 1, "totalLines": n});
    let answer = hook(home.path(), "post-tool-use", &p).expect("a replacement");
    let updated = replaced(&answer, &p["tool_response"]);
    let content = updated["file"]["content"].as_str().unwrap();
    assert_eq!(
        updated["file"]["numLines"],
        json!(content.lines().count()),
        "numLines matches the replacement"
    );
    assert_eq!(updated["file"]["totalLines"], json!(n));
    // Signatures keep their real numbers; folds say how to read them back.
    let line_of = |needle: &str| source.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let open = line_of("pub fn open(path: &Path)");
    assert!(
        content.contains(&format!("\n{open}→    pub fn open(path: &Path)")),
        "{content}"
    );
    assert!(content.contains("Read offset="), "{content}");
    assert!(content.len() < source.len());
    assert_eq!(
        original(home.path(), &handle_id(content)),
        source.trim_end_matches('\n')
    );

    let mut targeted = p.clone();
    targeted["tool_use_id"] = json!("toolu_targeted");
    targeted["tool_input"]["offset"] = json!(1);
    targeted["tool_input"]["limit"] = json!(n);
    assert!(hook(home.path(), "post-tool-use", &targeted).is_none());
}

#[test]
fn grep_webfetch_and_mcp_results_keep_their_shapes() {
    let home = tempfile::tempdir().unwrap();
    let log = workspace_file("examples/ci-failure.log");
    let mut grep = payload("PostToolUse-Grep-content.json");
    let lines: String = log
        .lines()
        .take(1500)
        .enumerate()
        .map(|(i, l)| format!("build.log:{}:{l}\n", i + 1))
        .collect();
    grep["tool_response"]["content"] = json!(lines);
    grep["tool_response"]["numLines"] = json!(1500);
    let g = hook(home.path(), "post-tool-use", &grep).expect("grep replaced");
    let updated = replaced(&g, &grep["tool_response"]);
    assert_eq!(updated["mode"], "content");
    assert_eq!(
        updated["numLines"],
        json!(updated["content"].as_str().unwrap().lines().count())
    );

    // A crate's README, as a web page.
    let readme = std::fs::read_to_string(
        common::workspace().join("../shared/corpus/cases/prose-bumpalo-3-20-3/input.txt"),
    )
    .unwrap();
    let mut fetch = payload("PostToolUse-WebFetch-https-local.json");
    fetch["tool_response"]["result"] = json!(readme);
    let f = hook(home.path(), "post-tool-use", &fetch).expect("webfetch replaced");
    let updated = replaced(&f, &fetch["tool_response"]);
    assert!(updated["result"].as_str().unwrap().len() < readme.len());
    assert_eq!(updated["code"], json!(200));

    let mut mcp = payload("PostToolUse-mcp__echo__echo-mcp-plain.json");
    mcp["tool_response"] = json!([{"type": "text", "text": log}]);
    let m = hook(home.path(), "post-tool-use", &mcp).expect("mcp replaced");
    let blocks = m["hookSpecificOutput"]["updatedToolOutput"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0]["type"], "text");
    let text = blocks[0]["text"].as_str().unwrap();
    assert!(text.len() * 5 < log.len());
    assert_eq!(
        original(home.path(), &handle_id(text)),
        log.trim_end_matches('\n')
    );
}

/// A real `cargo test` run (a reference-test crate written for this, in
/// `tests/fixtures/`) whose three failing tests print every cell that
/// differs: 1,264 lines, about 140 KB, more than a replacement may take.
#[test]
fn a_result_larger_than_its_replacement_is_folded_by_its_compressor_not_cut() {
    let home = tempfile::tempdir().unwrap();
    let log = std::fs::read_to_string(
        common::workspace().join("host/cli/tests/fixtures/cargo-test-reference-failures.log"),
    )
    .unwrap();
    let mut mcp = payload("PostToolUse-mcp__echo__echo-mcp-plain.json");
    mcp["tool_response"] = json!([{"type": "text", "text": log}]);
    let m = hook(home.path(), "post-tool-use", &mcp).expect("mcp replaced");
    let text = m["hookSpecificOutput"]["updatedToolOutput"][0]["text"]
        .as_str()
        .unwrap();
    assert!(text.len() < 40_000, "{} bytes", text.len());
    // The compressor fitted it (its folds say what they folded); the size
    // cap did not have to cut lines blindly.
    assert!(!text.contains(" lines: get id]"), "{text}");
    assert!(text.contains("lines folded]"), "{text}");
    for failing in ["log_lines", "exact_width", "long_paragraph"] {
        assert!(
            text.contains(&format!("---- {failing} stdout ----")),
            "{failing}: {text}"
        );
        assert!(
            text.contains(&format!("Ref test {failing} failed;")),
            "{failing}: {text}"
        );
    }
    assert!(text.contains("test result: FAILED. 4 passed; 3 failed"));
    assert_eq!(
        original(home.path(), &handle_id(text)),
        log.trim_end_matches('\n')
    );
}

#[test]
fn every_captured_post_tool_use_payload_is_answered_safely() {
    let home = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(payloads()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("PostToolUse-") {
            continue;
        }
        let p: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        // Small captured results go through untouched; the cut Bash output
        // (its persisted file is on another machine) is compressed as cut.
        if let Some(answer) = hook(home.path(), "post-tool-use", &p) {
            replaced(&answer, &p["tool_response"]);
            assert!(
                name.contains("Bash-large") || name.contains("seq3000"),
                "{name}"
            );
        }
    }
}

#[test]
fn bad_stdin_exits_0_with_nothing_on_stdout() {
    let home = tempfile::tempdir().unwrap();
    let valid = payload("PostToolUse-Bash-large.json").to_string();
    let truncated = &valid.as_bytes()[..valid.len() / 2];
    let huge = vec![b' '; 1 << 20];
    let wrong_shape = json!({"session_id": "s", "tool_name": "Bash", "tool_use_id": "t",
        "tool_response": {"stdout": 5}});
    let no_session = json!({"tool_name": "Bash"});
    let inputs: Vec<&[u8]> = vec![
        b"",
        b"not json",
        b"[1,2,3]",
        truncated,
        &huge,
        b"\xff\xfe\x00garbage",
    ];
    let wrong = wrong_shape.to_string();
    let none = no_session.to_string();
    for event in [
        "post-tool-use",
        "post-tool-use-failure",
        "user-prompt-submit",
        "status-line",
        "pre-compact",
        "post-compact",
        "session-start",
    ] {
        // A status line for a session without a reading is still a status line.
        let shapes: Vec<&[u8]> = if event == "status-line" {
            vec![none.as_bytes()]
        } else {
            vec![wrong.as_bytes(), none.as_bytes()]
        };
        for input in inputs.iter().copied().chain(shapes) {
            let out = run(home.path(), &["hook", event], input);
            assert_eq!(out.status.code(), Some(0), "{event}");
            assert!(
                out.stdout.is_empty(),
                "{event}: {:?}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
    }
    // The reasons are in ghost's log.
    let log = std::fs::read_to_string(home.path().join("ghost.log")).unwrap();
    assert!(log.contains("stdin is not JSON"), "{log}");
}

#[test]
fn prompts_failures_compaction_and_status_feed_the_store() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let prompt = payload("UserPromptSubmit.json");
    let session = prompt["session_id"].as_str().unwrap().to_string();
    assert!(hook(h, "user-prompt-submit", &prompt).is_none());
    let fail = payload("PostToolUseFailure-Bash-fail.json");
    let answer = hook(h, "post-tool-use-failure", &fail).expect("a pointer");
    let context = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    let id = handle_id(context);
    assert!(original(h, &id).contains("No such file or directory"));

    // A large Bash result for the state block to list.
    let mut bash = payload("PostToolUse-Bash-large.json");
    bash["session_id"] = json!(session);
    bash["tool_response"]["stdout"] = json!(workspace_file("examples/ci-failure.log"));
    bash["tool_response"]
        .as_object_mut()
        .unwrap()
        .remove("persistedOutputPath");
    hook(h, "post-tool-use", &bash).expect("compressed");

    // PreCompact: plain text on stdout (not JSON), naming the ids.
    let mut pre = payload("PreCompact-auto.json");
    pre["session_id"] = json!(session);
    let out = run(h, &["hook", "pre-compact"], pre.to_string().as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let block = String::from_utf8(out.stdout).unwrap();
    assert!(block.contains(&format!("id={id}")), "{block}");
    assert!(
        block.contains("recall(query)") && block.contains("get(id)"),
        "{block}"
    );
    assert!(serde_json::from_str::<Value>(&block).is_err());

    // PostCompact stores the summary; SessionStart(compact) points at the items.
    let mut post = payload("PostCompact-auto.json");
    post["session_id"] = json!(session);
    assert!(hook(h, "post-compact", &post).is_none());
    let mut start = payload("SessionStart-compact.json");
    start["session_id"] = json!(session);
    let s = hook(h, "session-start", &start).expect("context after compaction");
    let ctx = s["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        ctx.contains(&format!("id={id}")) && ctx.len() < 8_000,
        "{ctx}"
    );
    let mut fresh = start.clone();
    fresh["source"] = json!("startup");
    assert!(hook(h, "session-start", &fresh).is_none());

    // statusLine: a reading that pressure then reports as Claude Code's own.
    let status = json!({"session_id": session, "model": {"id": "claude-opus", "display_name": "Opus"},
        "context_window": {"context_window_size": 200000, "used_percentage": 42.0,
            "current_usage": {"input_tokens": 84000}}});
    let out = run(h, &["hook", "status-line"], status.to_string().as_bytes());
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(line.starts_with("Opus · ctx 42% · ghost saved "), "{line}");
    let p: Value =
        serde_json::from_slice(&run(h, &["pressure", "--session", &session, "--json"], b"").stdout)
            .unwrap();
    assert_eq!(p["context"]["source"], "status_line");
    assert_eq!(p["context"]["used_tokens"], json!(84000));
    assert!(p["by_class"]["prompt"]["count"] == json!(1), "{p}");
}

#[test]
fn a_result_the_compressor_barely_shrinks_goes_through_whole() {
    // A task description (`bd show`) from a real session: the prose
    // compressor saves under a tenth, and cutting lines to make it smaller
    // would drop the task's own words.
    let transcript = std::fs::read_to_string(common::workspace().join(
        "../shared/corpus/transcripts/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl",
    ))
    .unwrap();
    let stdout = transcript
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| {
            let out = v["toolUseResult"]["stdout"].as_str()?;
            out.starts_with("○ spotter-4te.2 ·")
                .then(|| out.to_string())
        })
        .expect("the bd show output");
    assert!(stdout.len() > 2_048);
    let home = tempfile::tempdir().unwrap();
    let mut p = payload("PostToolUse-Bash-large.json");
    p["tool_response"] = json!({"stdout": stdout, "stderr": "", "interrupted": false,
        "isImage": false, "noOutputExpected": false});
    assert!(hook(home.path(), "post-tool-use", &p).is_none());
}

#[test]
fn a_filling_context_folds_smaller_reads_until_compaction() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let session = payload("PostToolUse-Read-whole.json")["session_id"].clone();
    // Real source files (the shared corpus), cut at a line end to about 6 KB.
    let read = |case: &str, call: &str| {
        let whole = std::fs::read_to_string(
            common::workspace().join(format!("../shared/corpus/cases/{case}/input.txt")),
        )
        .unwrap();
        let mut source = String::new();
        for line in whole.lines() {
            if source.len() >= 6_000 {
                break;
            }
            source.push_str(line);
            source.push('\n');
        }
        assert!(source.len() > 4_096 && source.len() < 8_192, "{case}");
        hook(
            h,
            "post-tool-use",
            &read_payload(&format!("/p/{case}.py"), &source, call),
        )
    };
    // No reading: a 6 KB file passes whole.
    assert!(read("code-py-argparse", "toolu_a").is_none());
    // The status line says 60% of the window is in use: it folds.
    let status = json!({"session_id": session, "model": {"id": "claude-opus"},
        "context_window": {"context_window_size": 200000, "used_percentage": 60.0}});
    run(h, &["hook", "status-line"], status.to_string().as_bytes());
    let folded = read_content(&read("code-py-dataclasses", "toolu_b").expect("folded"));
    assert!(folded.contains("Read offset="), "{folded}");
    // Compaction empties the context: the reading no longer holds.
    let compact = json!({"session_id": session, "hook_event_name": "PreCompact",
        "trigger": "auto", "custom_instructions": null});
    run(h, &["hook", "pre-compact"], compact.to_string().as_bytes());
    assert!(read("code-py-textwrap", "toolu_c").is_none());
}

#[test]
fn data_file_reads_keep_real_line_numbers_or_say_they_are_a_digest() {
    let home = tempfile::tempdir().unwrap();
    let shared = common::workspace().join("../shared/corpus");
    // JSON Lines: a line per record, shrunk, each with its real number.
    let records =
        std::fs::read_to_string(shared.join("transcripts/claude-code/tool_heavy.jsonl")).unwrap();
    let p = read_payload(
        "/home/dev/project/test/fixtures/t.jsonl",
        &records,
        "toolu_jsonl",
    );
    let content = read_content(&hook(home.path(), "post-tool-use", &p).expect("a replacement"));
    assert!(content.len() < records.len() * 3 / 4, "{}", content.len());
    for (i, line) in records.lines().enumerate() {
        let key = &line[..line.find(':').unwrap()];
        assert!(
            content.contains(&format!("\n{}→{key}", i + 1)) || i == 0,
            "record {} is on its own numbered line",
            i + 1
        );
    }
    assert!(content.starts_with("1→{"), "{content}");
    // Pretty JSON becomes an outline: not the file's lines, and it says so.
    let json =
        std::fs::read_to_string(shared.join("cases/struct-npm-view-semver/input.txt")).unwrap();
    let p = read_payload("/home/dev/project/semver.json", &json, "toolu_json");
    let content = read_content(&hook(home.path(), "post-tool-use", &p).expect("a replacement"));
    assert!(
        content.starts_with("[ghost: a digest of this file, not its lines"),
        "{content}"
    );
    assert_eq!(
        original(home.path(), &handle_id(&content)),
        json.trim_end_matches('\n')
    );
}

#[test]
fn a_long_glob_becomes_a_digest_by_directory() {
    let home = tempfile::tempdir().unwrap();
    // A real file list: every Rust file of this workspace's sources.
    let mut files = Vec::new();
    let mut dirs = vec![common::workspace()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() && name != "target" && !name.starts_with('.') {
                dirs.push(p);
            } else if name.ends_with(".rs") {
                files.push(p.display().to_string());
            }
        }
    }
    assert!(files.len() > 60, "{}", files.len());
    let mut glob = payload("PostToolUse-Glob-py.json");
    glob["tool_response"]["filenames"] = json!(files);
    glob["tool_response"]["numFiles"] = json!(files.len());
    let answer = hook(home.path(), "post-tool-use", &glob).expect("a digest");
    let updated = replaced(&answer, &glob["tool_response"]);
    let listed: Vec<&str> = updated["filenames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(listed.len() <= 42, "{}", listed.len());
    assert_eq!(
        updated["numFiles"],
        json!(files.len()),
        "the real count stays"
    );
    let handle = listed.last().unwrap();
    assert!(handle.contains("get id="), "{handle}");
    assert!(listed.iter().any(|l| l.contains(" files: ")), "{listed:?}");
    assert_eq!(original(home.path(), &handle_id(handle)), files.join("\n"));
}

/// A whole-file Read payload of `content` at `path`, for tool call `call`.
fn read_payload(path: &str, content: &str, call: &str) -> Value {
    let mut p = payload("PostToolUse-Read-whole.json");
    let n = content.lines().count();
    p["tool_use_id"] = json!(call);
    p["tool_input"] = json!({"file_path": path});
    p["tool_response"]["file"] = json!({"filePath": path, "content": content,
        "numLines": n, "startLine": 1, "totalLines": n});
    p
}

fn read_content(answer: &Value) -> String {
    answer["hookSpecificOutput"]["updatedToolOutput"]["file"]["content"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn what_the_agent_already_saw_is_referred_to_until_compaction() {
    let home = tempfile::tempdir().unwrap();
    let path = "/home/dev/project/src/ingest.rs";
    // A file under the fold threshold: the first Read passes through, stored.
    let source = std::fs::read_to_string(
        common::workspace().join("../shared/corpus/cases/code-py-asyncio-queues/input.txt"),
    )
    .unwrap();
    assert!(source.len() > 1_024 && source.len() < 8_192);
    assert!(
        hook(
            home.path(),
            "post-tool-use",
            &read_payload(path, &source, "toolu_r1")
        )
        .is_none()
    );

    // The same file again: one line, and get still has the whole file.
    let again = hook(
        home.path(),
        "post-tool-use",
        &read_payload(path, &source, "toolu_r2"),
    )
    .expect("a reference");
    let text = read_content(&again);
    assert!(text.contains("is unchanged since you read it"), "{text}");
    let earlier = text.split("(id ").nth(1).unwrap()[..12].to_string();
    assert_eq!(
        original(home.path(), &earlier),
        source.trim_end_matches('\n')
    );
    assert_eq!(
        original(home.path(), &handle_id(&text)),
        source.trim_end_matches('\n')
    );

    // Edited: only the changed lines, at their real numbers.
    let mut lines: Vec<&str> = source.lines().collect();
    lines[30] = "    let edited = true; // the agent's edit";
    let edited = lines.join("\n");
    let delta = hook(
        home.path(),
        "post-tool-use",
        &read_payload(path, &edited, "toolu_r3"),
    )
    .expect("a delta");
    let text = read_content(&delta);
    assert!(text.contains("changed since you read it"), "{text}");
    assert!(
        text.contains("\n31→    let edited = true; // the agent's edit\n"),
        "{text}"
    );
    assert!(
        text.contains("… lines 1–28 as before (Read offset=1 limit=28)"),
        "{text}"
    );
    assert!(text.len() < edited.len() / 2, "{text}");
    assert_eq!(original(home.path(), &handle_id(&text)), edited);

    // A subagent has its own context: it gets the file, not a reference.
    let mut sub = read_payload(path, &edited, "toolu_r4");
    sub["agent_id"] = json!("a2898e3");
    assert!(hook(home.path(), "post-tool-use", &sub).is_none());

    // After compaction the agent no longer has it: the whole file again.
    let mut pre = payload("PreCompact-manual.json");
    pre["session_id"] = sub["session_id"].clone();
    let out = run(
        home.path(),
        &["hook", "pre-compact"],
        pre.to_string().as_bytes(),
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("ghost holds"));
    assert!(
        hook(
            home.path(),
            "post-tool-use",
            &read_payload(path, &edited, "toolu_r5")
        )
        .is_none()
    );

    // A command output identical to an earlier one: one line naming it.
    let log = workspace_file("examples/ci-failure.log");
    let mut bash = payload("PostToolUse-Bash-seq3000.json");
    bash["tool_input"]["command"] = json!("mix test");
    bash["tool_response"]["stdout"] = json!(&log[..1_900]);
    bash["tool_use_id"] = json!("toolu_b1");
    assert!(hook(home.path(), "post-tool-use", &bash).is_none());
    bash["tool_use_id"] = json!("toolu_b2");
    let repeated = hook(home.path(), "post-tool-use", &bash).expect("a reference");
    let stdout = repeated["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
        .as_str()
        .unwrap();
    assert!(
        stdout.contains("as the output of `mix test` earlier"),
        "{stdout}"
    );
    assert_eq!(
        original(home.path(), &handle_id(stdout)),
        log[..1_900].trim_end_matches('\n')
    );
}

#[test]
fn a_background_task_output_is_compressed_in_its_shape() {
    let home = tempfile::tempdir().unwrap();
    let log = workspace_file("examples/ci-failure.log");
    let mut p = payload("PostToolUse-Bash-seq3000.json");
    p["tool_name"] = json!("TaskOutput");
    p["tool_input"] = json!({"task_id": "b7636e2", "block": true, "timeout": 180000});
    p["tool_response"] = json!({"retrieval_status": "success", "task": {"task_id": "b7636e2",
        "task_type": "local_bash", "status": "completed", "description": "Run the tests",
        "output": log, "exitCode": 1}});
    let answer = hook(home.path(), "post-tool-use", &p).expect("a replacement");
    let updated = replaced(&answer, &p["tool_response"]);
    assert_eq!(updated["task"]["exitCode"], 1);
    let output = updated["task"]["output"].as_str().unwrap();
    assert!(output.len() < log.len() / 2);
    assert_eq!(
        original(home.path(), &handle_id(output)),
        log.trim_end_matches('\n')
    );
}

/// A real Claude Code transcript (compacted once) from the shared corpus.
fn real_transcript() -> PathBuf {
    common::workspace()
        .join("../shared/corpus/transcripts/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl")
}

/// A transcript line of a main-agent reply whose context held `used` tokens.
fn reply_line(used: i64) -> String {
    let now = chrono_like_now();
    format!(
        "{}\n",
        json!({"type": "assistant", "isSidechain": false, "timestamp": now,
            "message": {"model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "ok"}],
                "usage": {"input_tokens": 10, "cache_read_input_tokens": used - 10,
                    "cache_creation_input_tokens": 0}}})
    )
}

/// Now as RFC 3339 (UTC), without a date crate in the test.
fn chrono_like_now() -> String {
    let out = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%dT%H:%M:%S.000Z"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn the_flush_nudge_comes_once_per_compaction_cycle_even_under_parallel_calls() {
    let home = tempfile::tempdir().unwrap();
    let transcript = home.path().join("session.jsonl");
    let mut pre = payload("PreToolUse-Bash-fail.json");
    pre["transcript_path"] = json!(transcript.display().to_string());
    let session = pre["session_id"].clone();
    let mut prompt = payload("UserPromptSubmit.json");
    prompt["session_id"] = session.clone();
    prompt["transcript_path"] = pre["transcript_path"].clone();

    // Below 65% of 200k: nothing to say.
    std::fs::write(&transcript, reply_line(100_000)).unwrap();
    assert_eq!(hook(home.path(), "pre-tool-use", &pre), None);

    // Above it: four parallel PreToolUse hooks, exactly one nudges.
    std::fs::write(&transcript, reply_line(140_000)).unwrap();
    let children: Vec<_> = (0..4)
        .map(|_| {
            common::spawn_ghost(
                home.path(),
                &["hook", "pre-tool-use"],
                pre.to_string().as_bytes(),
            )
        })
        .collect();
    let answers: Vec<String> = children
        .into_iter()
        .map(|c| String::from_utf8(c.wait_with_output().unwrap().stdout).unwrap())
        .filter(|s| !s.trim().is_empty())
        .collect();
    assert_eq!(answers.len(), 1, "{answers:?}");
    let answer: Value = serde_json::from_str(&answers[0]).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    let text = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        text.contains("70% full") && text.contains("memory_save"),
        "{text}"
    );
    // Later calls of the cycle, and the prompt hook, stay quiet.
    assert_eq!(hook(home.path(), "pre-tool-use", &pre), None);
    assert_eq!(hook(home.path(), "user-prompt-submit", &prompt), None);

    // Compaction starts a new cycle; the pre-compaction figure no longer counts.
    let mut compact = payload("PreCompact-manual.json");
    compact["session_id"] = session.clone();
    let out = run(
        home.path(),
        &["hook", "pre-compact"],
        compact.to_string().as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    let mut text = std::fs::read_to_string(&transcript).unwrap();
    text.push_str(&format!(
        "{}\n",
        json!({"type": "system", "subtype": "compact_boundary"})
    ));
    std::fs::write(&transcript, &text).unwrap();
    assert_eq!(hook(home.path(), "user-prompt-submit", &prompt), None);
    // Full again: the next prompt carries the nudge. (The reply's timestamp
    // has whole seconds: it must be later than the compaction.)
    std::thread::sleep(std::time::Duration::from_millis(1100));
    text.push_str(&reply_line(150_000));
    std::fs::write(&transcript, &text).unwrap();
    let answer = hook(home.path(), "user-prompt-submit", &prompt).expect("the nudge");
    assert_eq!(
        answer["hookSpecificOutput"]["hookEventName"],
        "UserPromptSubmit"
    );
    assert_eq!(hook(home.path(), "pre-tool-use", &pre), None);
}

/// A transcript of a short session: a request, an edit, a failing test run,
/// a todo list.
fn session_transcript(project: &str) -> String {
    let lines = [
        json!({"type": "user", "cwd": project, "message": {"role": "user",
            "content": "Make the parser accept tabs, and keep the lexer as it is."}}),
        json!({"type": "assistant", "cwd": project, "message": {"content": [
            {"type": "text", "text": "I'll change parse_line because it splits on spaces only."},
            {"type": "tool_use", "id": "e1", "name": "Edit",
             "input": {"file_path": format!("{project}/src/parse.rs"), "old_string": "a", "new_string": "b"}}]}}),
        json!({"type": "user", "cwd": project, "toolUseResult": {"structuredPatch": [
            {"oldStart": 10, "oldLines": 3, "newStart": 10, "newLines": 4}]},
            "message": {"content": [{"type": "tool_result", "tool_use_id": "e1", "content": "ok"}]}}),
        json!({"type": "assistant", "cwd": project, "message": {"content": [
            {"type": "tool_use", "id": "b1", "name": "Bash", "input": {"command": "cargo test"}}]}}),
        json!({"type": "user", "cwd": project, "message": {"content": [{"type": "tool_result",
            "tool_use_id": "b1", "is_error": true,
            "content": "Exit code 101\ntest tabs ... FAILED\nerror: test failed"}]}}),
        json!({"type": "assistant", "cwd": project, "message": {"content": [
            {"type": "tool_use", "id": "t1", "name": "TodoWrite", "input": {"todos": [
                {"content": "Fix the tabs test", "status": "in_progress", "activeForm": "Fixing"},
                {"content": "Update the README", "status": "pending", "activeForm": "Updating"}]}}]}}),
    ];
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn compaction_writes_a_verified_checkpoint_and_sessions_start_from_it() {
    let home = tempfile::tempdir().unwrap();
    let project = home.path().join("project");
    let project_s = project.display().to_string();
    let transcript = home.path().join("session.jsonl");
    std::fs::write(&transcript, session_transcript(&project_s)).unwrap();
    let mut compact = payload("PreCompact-manual.json");
    compact["transcript_path"] = json!(transcript.display().to_string());
    compact["cwd"] = json!(project_s);
    let session = compact["session_id"].as_str().unwrap().to_string();

    let out = run(
        home.path(),
        &["hook", "pre-compact"],
        compact.to_string().as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(said.contains("verified checkpoint"), "{said}");
    assert!(
        said.contains(&format!("{project_s}/src/parse.rs: lines 10–13")),
        "{said}"
    );
    assert!(
        said.contains("- [ ] Update the README (pending)\n- [ ] Fix the tabs test (in_progress)"),
        "{said}"
    );
    assert!(said.contains("`cargo test` failed"), "{said}");

    // Listed, on disk, verified.
    let listed = run(
        home.path(),
        &["checkpoints", "--json", "--project", &project_s],
        b"",
    );
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["on_disk"], json!(true));
    assert_eq!(listed[0]["verified"], json!(true));
    assert_eq!(listed[0]["session"], json!(session));
    let file = std::fs::read_to_string(listed[0]["path"].as_str().unwrap()).unwrap();
    assert!(file.starts_with("---\ncreated: ") && file.contains("\nverified: true\n"));

    // A memory saved in the project, then the restore after compaction.
    let saved = run(
        home.path(),
        &[
            "memory",
            "save",
            "--project",
            &project_s,
            "Releases go out with make release",
        ],
        b"",
    );
    assert_eq!(saved.status.code(), Some(0));
    let mut start = payload("SessionStart-compact.json");
    start["session_id"] = json!(session);
    start["cwd"] = json!(project_s);
    let answer = hook(home.path(), "session-start", &start).expect("a restore");
    let context = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        context.find("Next steps").unwrap() < context.find("What changed").unwrap(),
        "{context}"
    );
    assert!(
        context.contains("Update the README") && context.contains("make release"),
        "{context}"
    );
    assert!(context.len() <= 2_000 * 4, "{}", context.len());

    // A new session in the same project starts with it; another project does not.
    let mut startup = payload("SessionStart-startup.json");
    startup["cwd"] = json!(project_s);
    let answer = hook(home.path(), "session-start", &startup).expect("a restore at startup");
    assert!(
        answer["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .contains("Fix the tabs test")
    );
    startup["cwd"] = json!(home.path().join("elsewhere").display().to_string());
    assert_eq!(hook(home.path(), "session-start", &startup), None);
}

#[test]
fn a_checkpoint_that_cannot_be_written_is_never_reported() {
    let home = tempfile::tempdir().unwrap();
    // Where the projects' folders would go is a file.
    std::fs::write(home.path().join("projects"), "not a folder").unwrap();
    let transcript = home.path().join("session.jsonl");
    std::fs::write(&transcript, session_transcript("/home/dev/project")).unwrap();
    let mut compact = payload("PreCompact-manual.json");
    compact["transcript_path"] = json!(transcript.display().to_string());
    let out = run(
        home.path(),
        &["hook", "pre-compact"],
        compact.to_string().as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(!said.contains("checkpoint"), "{said}");
    // The hook ran and said why (not a hook that failed before trying).
    let log = std::fs::read_to_string(home.path().join("ghost.log")).unwrap();
    assert!(log.contains("pre-compact: no checkpoint"), "{log}");
}

#[test]
fn ghost_context_reads_what_fills_a_real_session() {
    let home = tempfile::tempdir().unwrap();
    let transcript = real_transcript();
    let mut post = payload("PostToolUse-Bash-large.json");
    post["transcript_path"] = json!(transcript.display().to_string());
    let session = post["session_id"].as_str().unwrap().to_string();
    hook(home.path(), "post-tool-use", &post);
    let out = run(home.path(), &["context", &session, "--json"], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["reading"]["source"], json!("transcript"));
    let kinds = r["by_kind"].as_array().unwrap();
    let tokens_of = |kind: &str, tool: Option<&str>| {
        kinds
            .iter()
            .find(|k| k["kind"] == json!(kind) && k["tool"].as_str() == tool)
            .map_or(0, |k| k["tokens"].as_u64().unwrap())
    };
    assert!(tokens_of("tool results", Some("Read")) > tokens_of("tool results", Some("Bash")));
    assert!(tokens_of("system + tools + compaction summary", None) > 10_000);
    assert!(tokens_of("user prompts", None) > 0 && tokens_of("thinking", None) > 0);
    let largest = r["largest"].as_array().unwrap();
    assert_eq!(largest.len(), 10);
    assert!(largest[0]["tokens"].as_u64() >= largest[9]["tokens"].as_u64());
    assert_eq!(r["replaced"]["entries"], json!(1));
    assert_eq!(r["swap_next"].as_array().unwrap().len(), 1);
    let text = run(home.path(), &["context", &session, "--detail"], b"");
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("largest items:") && text.contains("would swap out next"),
        "{text}"
    );
    // A session ghost never saw: a clear error, exit non-zero.
    let out = run(home.path(), &["context", "nope"], b"");
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("transcript"));
}

#[test]
fn a_finished_session_is_searchable_by_its_turns() {
    let home = tempfile::tempdir().unwrap();
    let transcript = real_transcript();
    let mut end = payload("SessionEnd.json");
    end["transcript_path"] = json!(transcript.display().to_string());
    let project = end["cwd"].as_str().unwrap().to_string();
    assert_eq!(hook(home.path(), "session-end", &end), None);
    let out = run(
        home.path(),
        &[
            "memory",
            "search",
            "did you push",
            "--source",
            "session",
            "--json",
            "--project",
            &project,
        ],
        b"",
    );
    let found: Value = serde_json::from_slice(&out.stdout).unwrap();
    let hits = found["hits"].as_array().unwrap();
    assert!(!hits.is_empty(), "{found}");
    assert_eq!(hits[0]["source"], json!("session"));
    assert!(
        hits[0]["text"]
            .as_str()
            .unwrap()
            .contains("User: did you push?"),
        "{found}"
    );
    // Background task notices are not the user's words.
    let out = run(
        home.path(),
        &[
            "memory",
            "search",
            "task-notification",
            "--json",
            "--project",
            &project,
        ],
        b"",
    );
    let found: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(found["hits"].as_array().unwrap().is_empty(), "{found}");
}

/// The `.cwasm` entries in `home`'s component cache.
fn compiled_entries(home: &Path) -> usize {
    std::fs::read_dir(home.join("cache/components"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().ends_with(".cwasm"))
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn a_session_start_compiles_the_built_ins_in_the_background_once() {
    let home = tempfile::tempdir().unwrap();
    let start = payload("SessionStart-startup.json");
    let hook = |home: &Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ghost"))
            .args(["hook", "session-start"])
            .env("GHOST_HOME", home)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(start.to_string().as_bytes())?;
                child.wait_with_output()
            })
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
    };
    // The hook returns without waiting for the compiler (which takes
    // seconds); the compilation it started fills the cache on its own.
    hook(home.path());
    let builtins = ghost_core::builtin::ALL.len();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while compiled_entries(home.path()) < builtins {
        assert!(
            std::time::Instant::now() < deadline,
            "only {} compiled after 300 s",
            compiled_entries(home.path())
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let log = std::fs::read_to_string(home.path().join("ghost.log")).unwrap();
    assert!(
        log.contains("compiling the built-in plugins in the background"),
        "{log}"
    );
    // With everything compiled, a later start starts nothing.
    hook(home.path());
    let log = std::fs::read_to_string(home.path().join("ghost.log")).unwrap();
    assert_eq!(
        log.matches("compiling the built-in plugins in the background")
            .count(),
        1,
        "{log}"
    );
    // `ghost plugin compile` finds them all there.
    let out = run(home.path(), &["plugin", "compile"], b"");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(said.matches("already compiled").count(), builtins, "{said}");
}
