//! `ghost serve` driven over stdio by a real MCP client (rmcp's), against a
//! real store filled by `ghost ingest`.

use std::path::Path;
use std::process::Stdio;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, ProtocolVersion,
    ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

const GHOST: &str = env!("CARGO_BIN_EXE_ghost");

#[derive(Clone)]
struct Client {
    version: ProtocolVersion,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.protocol_version = self.version.clone();
        info
    }
}

fn workspace_file(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(rel),
    )
    .unwrap()
}

/// Fills the store under `home` with a CI log, a source file and a prompt;
/// returns their ids.
fn seed(home: &Path) -> Vec<String> {
    let lines = [
        json!({"text": workspace_file("examples/ci-failure.log"), "session": "s1",
               "tool_use_id": "toolu_log", "tool": "Bash", "context": "mvn verify"}),
        json!({"text": workspace_file("host/store/src/archive.rs"), "session": "s1",
               "tool_use_id": "toolu_read", "tool": "Read", "source_path": "host/store/src/archive.rs"}),
        json!({"text": "please make the flaky login test deterministic", "session": "s1",
               "tool_use_id": "prompt_1", "class": "prompt"}),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut child = std::process::Command::new(GHOST)
        .args(["ingest", "--jsonl"])
        .env("GHOST_HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

async fn connect(home: &Path, version: ProtocolVersion) -> RunningService<RoleClient, Client> {
    connect_in(home, home, version).await
}

/// A client of `ghost serve` started in the project directory `project`.
async fn connect_in(
    home: &Path,
    project: &Path,
    version: ProtocolVersion,
) -> RunningService<RoleClient, Client> {
    let mut cmd = tokio::process::Command::new(GHOST);
    cmd.arg("serve")
        .env("GHOST_HOME", home)
        .current_dir(project);
    let (transport, _stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Client { version }
        .serve(transport)
        .await
        .expect("MCP handshake")
}

async fn call(
    client: &RunningService<RoleClient, Client>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments are an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

fn structured(result: &CallToolResult) -> &Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let text = result.content[0].as_text().expect("a text rendering");
    assert!(!text.text.is_empty());
    result
        .structured_content
        .as_ref()
        .expect("structured output")
}

#[tokio::test(flavor = "current_thread")]
async fn a_real_client_lists_and_calls_every_tool() {
    let home = tempfile::tempdir().unwrap();
    let ids = seed(home.path());
    let (log_id, code_id, prompt_id) = (&ids[0], &ids[1], &ids[2]);
    let client = connect(home.path(), ProtocolVersion::V_2025_11_25).await;

    let info = client.peer_info().expect("server info");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    assert_eq!(
        info.server_info.as_ref().map(|s| s.name.as_str()),
        Some("ghost")
    );

    // Every tool, with schemas and annotations.
    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "context",
            "context_pressure",
            "forget",
            "get",
            "memory_get",
            "memory_save",
            "memory_search",
            "recall",
            "run_task",
            "spawn_task",
            "stats",
            "task_cancel",
            "task_output",
            "task_status"
        ]
    );
    for t in &tools {
        assert_eq!(
            t.input_schema.get("type"),
            Some(&json!("object")),
            "{}",
            t.name
        );
        let out = t.output_schema.as_ref().expect("output schema");
        assert_eq!(out.get("type"), Some(&json!("object")), "{}", t.name);
        let a = t.annotations.as_ref().expect("annotations");
        let writes = [
            "forget",
            "memory_save",
            "run_task",
            "spawn_task",
            "task_cancel",
        ]
        .contains(&t.name.as_ref());
        assert_eq!(a.read_only_hint, Some(!writes), "{}", t.name);
        assert_eq!(
            a.destructive_hint,
            Some(["forget", "task_cancel"].contains(&t.name.as_ref())),
            "{}",
            t.name
        );
        assert_eq!(
            a.idempotent_hint,
            Some(!["memory_save", "run_task", "spawn_task"].contains(&t.name.as_ref())),
            "{}",
            t.name
        );
    }
    let recall_schema = &tools
        .iter()
        .find(|t| t.name == "recall")
        .unwrap()
        .input_schema;
    assert_eq!(recall_schema["required"], json!(["query"]));

    // recall: BM25 over the originals, summaries and paths.
    let r = call(&client, "recall", json!({"query": "BUILD FAILURE maven"})).await;
    let s = structured(&r);
    assert_eq!(s["hits"][0]["id"], json!(log_id));
    assert_eq!(s["hits"][0]["class"], json!("log"));
    assert!(
        s["hits"][0]["original"].is_null(),
        "no original unless full"
    );
    let r = call(
        &client,
        "recall",
        json!({"query": "busy_timeout", "class": "code", "full": true}),
    )
    .await;
    let s = structured(&r);
    assert_eq!(s["hits"].as_array().unwrap().len(), 1);
    assert_eq!(s["hits"][0]["id"], json!(code_id));
    assert_eq!(
        s["hits"][0]["original"],
        json!(workspace_file("host/store/src/archive.rs"))
    );
    // FTS5 syntax in the query never reaches the agent as an error.
    let r = call(
        &client,
        "recall",
        json!({"query": "\"unbalanced AND ( NEAR * -"}),
    )
    .await;
    structured(&r);

    // get: a line range is exactly those lines.
    let original = workspace_file("host/store/src/archive.rs");
    let r = call(
        &client,
        "get",
        json!({"id": code_id, "start_line": 10, "end_line": 14}),
    )
    .await;
    let s = structured(&r);
    assert_eq!(
        (s["start_line"].as_u64(), s["end_line"].as_u64()),
        (Some(10), Some(14))
    );
    let want: String = original
        .lines()
        .enumerate()
        .skip(9)
        .take(5)
        .map(|(i, l)| format!("{:>4}\t{l}\n", i + 1))
        .collect();
    assert_eq!(s["text"], json!(want));
    assert_eq!(
        s["total_lines"].as_u64(),
        Some(original.lines().count() as u64)
    );
    let r = call(
        &client,
        "get",
        json!({"id": log_id, "around": "BUILD FAILURE", "context_lines": 1}),
    )
    .await;
    let s = structured(&r);
    assert!(s["matches"].as_u64().unwrap() >= 1);
    assert!(s["text"].as_str().unwrap().contains("BUILD FAILURE"));
    let r = call(&client, "get", json!({"id": "ffffffffffff"})).await;
    assert_eq!(r.is_error, Some(true));
    assert!(
        r.content[0]
            .as_text()
            .unwrap()
            .text
            .contains("no entry with id")
    );

    // context_pressure: per class, with ghost's own estimate.
    let r = call(&client, "context_pressure", json!({})).await;
    let s = structured(&r);
    assert_eq!(s["session"], json!("s1"));
    assert_eq!(s["entries"], json!(3));
    assert_eq!(s["by_class"]["log"]["count"], json!(1));
    assert!(s["by_class"]["log"]["ratio"].as_f64().unwrap() < 0.2);
    assert_eq!(s["by_class"]["prompt"]["ratio"], json!(1.0));
    assert_eq!(s["context"]["source"], json!("estimate"));
    assert!(!s["recommendation"].as_str().unwrap().is_empty());
    assert_eq!(s["eviction_candidates"][0]["id"], json!(log_id));

    // stats
    let r = call(&client, "stats", json!({})).await;
    let s = structured(&r);
    assert_eq!(s["entries"], json!(3));
    assert!(s["saved_tokens"].as_i64().unwrap() > 30_000);
    assert_eq!(s["per_day"].as_array().unwrap().len(), 1);

    // Resources: each entry as ghost://entry/{id}.
    let listed = client.list_all_resources().await.unwrap();
    assert_eq!(listed.len(), 3);
    let templates = client.list_all_resource_templates().await.unwrap();
    assert_eq!(templates[0].uri_template, "ghost://entry/{id}");
    let read = client
        .read_resource(ReadResourceRequestParams::new(format!(
            "ghost://entry/{prompt_id}"
        )))
        .await
        .unwrap();
    match &read.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => {
            assert_eq!(text, "please make the flaky login test deterministic")
        }
        other => panic!("{other:?}"),
    }

    // forget, then recall does not return it; forgetting again is harmless.
    let r = call(&client, "forget", json!({"id": log_id})).await;
    assert_eq!(structured(&r)["status"], json!("now"));
    let r = call(&client, "forget", json!({"id": log_id})).await;
    assert_eq!(structured(&r)["status"], json!("already"));
    let r = call(
        &client,
        "recall",
        json!({"query": "BUILD FAILURE maven", "limit": 10}),
    )
    .await;
    let hits = structured(&r)["hits"].as_array().unwrap().clone();
    assert!(hits.iter().all(|h| h["id"] != json!(log_id)), "{hits:?}");

    // Bad arguments are a tool error the agent can read, not a crash.
    let r = call(&client, "get", json!({"idd": "x"})).await;
    assert_eq!(r.is_error, Some(true));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn memories_are_saved_found_and_read_through_a_real_client() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let mut cmd = tokio::process::Command::new(GHOST);
    cmd.arg("serve")
        .env("GHOST_HOME", home.path())
        .env("CLAUDE_PROJECT_DIR", project.path());
    let (transport, _stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = Client {
        version: ProtocolVersion::V_2025_11_25,
    }
    .serve(transport)
    .await
    .expect("MCP handshake");

    let r = call(
        &client,
        "memory_save",
        json!({"text": "The user prefers rebase over merge", "tags": ["git"]}),
    )
    .await;
    let path = structured(&r)["path"].as_str().unwrap().to_string();
    assert!(path.ends_with("MEMORY.md"), "{path}");
    assert!(path.starts_with(home.path().to_str().unwrap()), "{path}");
    let r = call(
        &client,
        "memory_save",
        json!({"text": "bisected the slowdown to the JSON parser", "target": "log"}),
    )
    .await;
    assert!(
        structured(&r)["path"]
            .as_str()
            .unwrap()
            .contains("/memory/")
    );

    let r = call(&client, "memory_search", json!({"query": "rebase merge"})).await;
    let hits = structured(&r)["hits"].as_array().unwrap().clone();
    assert_eq!(hits[0]["source"], json!("memory"));
    assert_eq!(hits[0]["path"], json!(path));
    let r = call(
        &client,
        "memory_search",
        json!({"query": "slowdown parser", "source": "log"}),
    )
    .await;
    assert_eq!(structured(&r)["hits"].as_array().unwrap().len(), 1);

    let line = hits[0]["start_line"].clone();
    let r = call(
        &client,
        "memory_get",
        json!({"path": "MEMORY.md", "start_line": line, "end_line": line}),
    )
    .await;
    assert_eq!(
        structured(&r)["text"],
        json!("- The user prefers rebase over merge #git\n")
    );
    // A file not written yet is empty text, not an error.
    let r = call(
        &client,
        "memory_get",
        json!({"path": "memory/1999-01-01.md"}),
    )
    .await;
    assert_ne!(r.is_error, Some(true));
    assert_eq!(r.structured_content.as_ref().unwrap()["text"], json!(""));
    // Outside the memory folder: a tool error that says where memories live.
    let r = call(&client, "memory_get", json!({"path": "/etc/passwd"})).await;
    assert_eq!(r.is_error, Some(true));

    // People edit memory files: a secret written there by hand comes back
    // redacted, in the structured result and its text rendering alike; one
    // saved through the tool never reaches the file.
    let token = "ghp_R8mK2vQ9xL4tN7pW1zY5bC3dF6gH0jS2aE4u";
    let mut file = std::fs::read_to_string(&path).unwrap();
    file.push_str(&format!("- CI pushes with GITHUB_TOKEN={token}\n"));
    std::fs::write(&path, file).unwrap();
    let r = call(&client, "memory_get", json!({"path": "MEMORY.md"})).await;
    let shown = format!("{:?} {}", r.content, structured(&r));
    assert!(!shown.contains(token), "{shown}");
    assert!(shown.contains("[secret:github-token:"), "{shown}");
    let r = call(
        &client,
        "memory_search",
        json!({"query": "GITHUB_TOKEN pushes"}),
    )
    .await;
    assert!(!format!("{r:?}").contains(token));
    let r = call(
        &client,
        "memory_save",
        json!({"text": "staging key: AWS_SECRET_ACCESS_KEY=Lk3v9QpZ2mX8rT5wY1uB7nC4eH6jD0sF+aG2iK9o"}),
    )
    .await;
    structured(&r);
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(
        !written.contains("Lk3v9QpZ2mX8rT5wY1uB7nC4eH6jD0sF"),
        "{written}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn older_clients_negotiate_their_own_version() {
    let home = tempfile::tempdir().unwrap();
    let client = connect(home.path(), ProtocolVersion::V_2025_06_18).await;
    let info = client.peer_info().expect("server info");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_06_18);
    let r = call(&client, "stats", json!({})).await;
    assert_eq!(structured(&r)["entries"], json!(0));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn run_task_answers_with_a_compressed_result_and_a_handle() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    // A 5,000-line log in the project; the task prints every error line.
    let mut log = String::new();
    for i in 0..5_000 {
        if i % 50 == 7 {
            log.push_str(&format!(
                "2026-11-23 10:{:02}:{:02} ERROR worker {} timed out after 30s\n",
                i / 60 % 60,
                i % 60,
                i % 8
            ));
        } else {
            log.push_str(&format!(
                "2026-11-23 10:{:02}:{:02} INFO request {i} served in {} ms\n",
                i / 60 % 60,
                i % 60,
                i % 97
            ));
        }
    }
    std::fs::write(project.path().join("server.log"), &log).unwrap();
    let client = connect_in(home.path(), project.path(), ProtocolVersion::V_2025_11_25).await;

    let code = "const lines = readFile('server.log').split('\\n');\n\
                for (const l of lines) { if (l.includes('INFO')) print(l); }\n\
                console.error('scanned ' + lines.length + ' lines');";
    let r = call(&client, "run_task", json!({"lang": "js", "code": code})).await;
    let out = structured(&r).clone();
    assert_eq!(out["exit_code"], json!(0), "{out}");
    let shown = out["output"].as_str().unwrap();
    let id = out["id"]
        .as_str()
        .expect("the output is stored")
        .to_string();
    assert!(shown.contains(&format!("get id={id}")), "{shown}");
    assert!(
        shown.len() * 4 < log.len(),
        "the agent got {} bytes",
        shown.len()
    );
    assert!(
        out["stderr"]
            .as_str()
            .unwrap()
            .contains("scanned 5001 lines"),
        "{out}"
    );
    // The whole output is one `get` away.
    let full = call(
        &client,
        "get",
        json!({"id": id, "around": "request 4999 served"}),
    )
    .await;
    assert!(
        structured(&full)
            .to_string()
            .contains("request 4999 served")
    );

    assert_eq!(
        out["scratch"],
        json!(""),
        "it wrote nothing: no scratch left"
    );
    // What a task writes goes into its scratch directory, which it is told
    // (`scratch`) and which the answer names; nowhere else is writable.
    let r = call(
        &client,
        "run_task",
        json!({"lang": "js", "code": "writeFile(scratch + '/counts.json', '{\"E1\":2}'); print('saved')"}),
    )
    .await;
    let out = structured(&r).clone();
    assert_eq!(out["exit_code"], json!(0), "{out}");
    let dir = out["scratch"].as_str().unwrap();
    assert_eq!(
        std::fs::read_to_string(Path::new(dir).join("counts.json")).unwrap(),
        r#"{"E1":2}"#
    );
    let r = call(
        &client,
        "run_task",
        json!({"lang": "js", "code": "writeFile('server.log', 'overwritten')"}),
    )
    .await;
    assert_eq!(
        structured(&r)["exit_code"],
        json!(1),
        "the project is read-only"
    );
    assert!(
        std::fs::read_to_string(project.path().join("server.log"))
            .unwrap()
            .len()
            > 1000
    );
    // Reading outside the project fails inside the task; asking for a
    // variable or an address the user did not allow is refused up front.
    let r = call(
        &client,
        "run_task",
        json!({"lang": "js", "code": "print(readFile('/etc/hostname'))"}),
    )
    .await;
    assert_eq!(structured(&r)["exit_code"], json!(1));
    let r = call(
        &client,
        "run_task",
        json!({"lang": "js", "code": "1", "env": ["HOME"]}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(format!("{r:?}").contains("allow_env"), "{r:?}");
    let r = call(
        &client,
        "run_task",
        json!({"lang": "js", "code": "1", "read": ["../"]}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(format!("{r:?}").contains("outside the project"), "{r:?}");
    let r = call(
        &client,
        "run_task",
        json!({"lang": "ruby", "code": "puts 1"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(format!("{r:?}").contains("js, py"), "{r:?}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn python_tasks_run_spawned_report_and_cancel() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let rows: String = (0..3_000)
        .map(|i| {
            format!(
                "{{\"id\": {i}, \"status\": \"{}\"}}\n",
                ["ok", "ok", "late", "failed"][i % 4]
            )
        })
        .collect();
    std::fs::write(project.path().join("events.jsonl"), &rows).unwrap();
    let client = connect_in(home.path(), project.path(), ProtocolVersion::V_2025_11_25).await;

    // A Python snippet over a project file: the answer, small.
    let code = "import json, collections\n\
                c = collections.Counter(json.loads(l)['status'] for l in open('events.jsonl'))\n\
                print(json.dumps(dict(sorted(c.items()))))";
    let r = call(&client, "run_task", json!({"lang": "py", "code": code})).await;
    let out = structured(&r).clone();
    assert_eq!(out["exit_code"], json!(0), "{out}");
    assert_eq!(
        out["output"].as_str().unwrap().trim(),
        r#"{"failed": 750, "late": 750, "ok": 1500}"#
    );

    // Spawned: an id at once, then its status and its answer, which went
    // through the pipeline (compressed, with a handle).
    let code = "import json\n\
                for l in open('events.jsonl'):\n\
                \x20   e = json.loads(l)\n\
                \x20   print(f\"2026-11-23 10:00:{e['id'] % 60:02d} INFO request {e['id']} served\")";
    let r = call(
        &client,
        "spawn_task",
        json!({"lang": "python", "code": code}),
    )
    .await;
    let id = structured(&r)["id"].as_str().unwrap().to_string();
    let mut answer = Value::Null;
    for _ in 0..600 {
        let r = call(&client, "task_output", json!({"id": id})).await;
        let out = structured(&r).clone();
        if out["status"]["state"] == "ended" {
            answer = out;
            break;
        }
        assert_eq!(out["status"]["state"], "running", "{out}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let result = &answer["result"];
    assert_eq!(result["exit_code"], json!(0), "{answer}");
    let shown = result["output"].as_str().unwrap();
    let handle = result["id"].as_str().expect("stored with a handle");
    assert!(shown.contains(&format!("get id={handle}")), "{shown}");
    assert!(shown.len() * 4 < rows.len(), "{} bytes shown", shown.len());
    let r = call(&client, "task_status", json!({"id": id})).await;
    assert_eq!(structured(&r)["exit_code"], json!(0));

    // An endless task: running, with its output so far; cancelled, it ends
    // with 130 and what it printed is kept.
    let code = "print('started', flush=True)\nwhile True:\n    pass";
    let r = call(
        &client,
        "spawn_task",
        json!({"lang": "py", "code": code, "timeout_secs": 120}),
    )
    .await;
    let id = structured(&r)["id"].as_str().unwrap().to_string();
    let mut partial = String::new();
    for _ in 0..600 {
        let r = call(&client, "task_output", json!({"id": id})).await;
        let out = structured(&r).clone();
        assert_eq!(out["status"]["state"], "running", "{out}");
        partial = out["partial"].as_str().unwrap_or_default().to_string();
        if !partial.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(partial.trim(), "started");
    let r = call(&client, "task_cancel", json!({"id": id})).await;
    let status = structured(&r).clone();
    assert_eq!(status["state"], "ended", "{status}");
    assert_eq!(status["exit_code"], json!(130), "{status}");
    assert!(status["stopped"].as_str().unwrap().contains("cancelled"));
    let r = call(&client, "task_output", json!({"id": id})).await;
    assert!(
        structured(&r)["result"]["output"]
            .as_str()
            .unwrap()
            .contains("started")
    );
    // An unknown id is a clear error.
    let r = call(&client, "task_status", json!({"id": "task-999"})).await;
    assert_eq!(r.is_error, Some(true));
    assert!(format!("{r:?}").contains("spawn_task"), "{r:?}");
    client.cancel().await.unwrap();
}
