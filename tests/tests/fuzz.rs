//! Fuzzing ghost's input boundaries, each for a bounded time
//! (`GHOST_FUZZ_SECS`, see `ghost_tests::fuzz`), from real captured
//! inputs: Claude Code's hook payloads, the corpus's tool outputs and the
//! model requests built from what the model saw.
//!
//! - `hook_payloads`: every hook event's handler, in process, on a real
//!   store: never panics, answers PostToolUse with nothing or a well-formed
//!   replacement;
//! - `compressors_native`: each compressor's and the classifier's native
//!   build: never panics, and a budget never makes an output bigger than
//!   the same compressor's unbudgeted one by more than a note;
//! - `wit_boundary`: the built-in components through wasmtime and the WIT
//!   contract, with hostile hints: never panics, never worse (an applied
//!   answer is smaller; otherwise the original comes back byte for byte);
//! - `gateway_requests`: the gateway's request parser and splicer on
//!   Messages bodies: never panics, and what it sends is the body received
//!   or a body that parses again (strict JSON stays strict JSON).

use std::path::Path;
use std::sync::OnceLock;

use ghost_claude::hooks::HookEvent;
use ghost_core::config::Config;
use ghost_core::paths::GhostDirs;
use ghost_core::pipeline::Pipeline;
use ghost_tests::fuzz;
use ghost_types::{ClassifyRequest, CompressRequest, ContentClass};
use serde_json::{Value, json};

fn payloads_dir() -> std::path::PathBuf {
    let dir = ghost_tests::workspace().join("../shared/claude-code/payloads");
    assert!(
        dir.is_dir(),
        "{} is missing: the fuzz seeds come from it",
        dir.display()
    );
    dir
}

/// A ghost home with the built-in components compiled once for all targets.
fn dirs(home: &Path) -> GhostDirs {
    GhostDirs {
        data: home.to_path_buf(),
        cache: home.join("cache"),
        config: home.to_path_buf(),
    }
}

fn pipeline(home: &Path) -> Pipeline {
    Pipeline::with_dirs(Some(&dirs(home))).expect("the built-in pipeline")
}

/// Tool outputs to seed the text targets: a slice of every corpus case and
/// the texts inside the captured payloads.
fn text_seeds() -> &'static Vec<Vec<u8>> {
    static SEEDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut seeds = Vec::new();
        let mut cases: Vec<_> = std::fs::read_dir(ghost_tests::corpus_cases())
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path().join("input.txt")))
            .collect();
        cases.sort();
        for case in cases {
            if let Ok(mut bytes) = std::fs::read(&case) {
                bytes.truncate(32 * 1024);
                seeds.push(bytes);
            }
        }
        for payload in fuzz::read_seeds(&payloads_dir(), ".json", usize::MAX) {
            if let Ok(v) = serde_json::from_slice::<Value>(&payload) {
                collect_strings(&v, &mut seeds);
            }
        }
        seeds
    })
}

fn collect_strings(v: &Value, out: &mut Vec<Vec<u8>>) {
    match v {
        Value::String(s) if s.len() >= 64 => {
            out.push(s.as_bytes()[..s.len().min(32 * 1024)].to_vec())
        }
        Value::Array(items) => items.iter().for_each(|i| collect_strings(i, out)),
        Value::Object(map) => map.values().for_each(|i| collect_strings(i, out)),
        _ => {}
    }
}

#[test]
fn hook_payloads() {
    let home = tempfile::tempdir().unwrap();
    let config = Config::default();
    let built = pipeline(home.path());
    let make = || Ok(built.clone());
    let ctx = ghost_claude::hooks::HookContext {
        store_path: home.path().join("store.sqlite3"),
        config: &config,
        pipeline: &make,
    };
    // Each seed: one byte naming the event, then the captured payload.
    let mut seeds = Vec::new();
    for payload in fuzz::read_seeds(&payloads_dir(), ".json", usize::MAX) {
        let Ok(v) = serde_json::from_slice::<Value>(&payload) else {
            continue;
        };
        let Some(name) = v["hook_event_name"].as_str() else {
            continue;
        };
        let arg = kebab(name);
        if let Some(i) = HookEvent::ALL.iter().position(|(_, a)| *a == arg) {
            let mut seed = vec![i as u8];
            seed.extend_from_slice(&payload);
            seeds.push(seed);
        }
    }
    assert!(seeds.len() > 50, "only {} hook payload seeds", seeds.len());
    let report = fuzz::run("hook_payloads", &seeds, |input| {
        let Some((&selector, payload)) = input.split_first() else {
            return Ok(());
        };
        let (event, name) = HookEvent::ALL[selector as usize % HookEvent::ALL.len()];
        let out = ghost_claude::hooks::run(event, payload, &ctx);
        if name == "post-tool-use" && !out.is_empty() {
            let answer: Value = serde_json::from_str(&out)
                .map_err(|e| format!("post-tool-use answered something not JSON ({e}): {out}"))?;
            if answer["hookSpecificOutput"]["hookEventName"] != "PostToolUse" {
                return Err(format!("post-tool-use answered an unknown shape: {out}"));
            }
        }
        Ok(())
    });
    assert!(report.runs > seeds.len());
}

fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Each text behind a selector byte (its index), which the text targets
/// read to pick a compressor, a class, hints and a budget.
fn with_selectors<'a>(texts: impl Iterator<Item = &'a Vec<u8>>) -> Vec<Vec<u8>> {
    texts
        .enumerate()
        .map(|(i, text)| {
            let mut seed = vec![i as u8];
            seed.extend_from_slice(text);
            seed
        })
        .collect()
}

/// Native compressors: one byte picks the compressor and the budget, the
/// rest is the text.
#[test]
fn compressors_native() {
    let seeds = with_selectors(text_seeds().iter());
    let report = fuzz::run("compressors_native", &seeds, |input| {
        let Some((&selector, text)) = input.split_first() else {
            return Ok(());
        };
        let text = String::from_utf8_lossy(text);
        let budget = [None, Some(0), Some(1), Some(50), Some(400), Some(u32::MAX)]
            [(selector >> 3) as usize % 6];
        let path = [
            "src/lib.rs",
            "a.py",
            "package-lock.json",
            "x.txt",
            "",
            "../../\u{0}",
        ][(selector >> 5) as usize % 6];
        match selector % 7 {
            0 => {
                ghost_log_folding::compress_within(&text, budget);
            }
            1 => {
                let tool = ["Read", "Bash"][(selector >> 2) as usize % 2];
                ghost_compressor_structured::compress_within(&text, Some(path), Some(tool), budget);
            }
            2 => {
                ghost_compressor_code::compress(&text, Some(path));
            }
            3 => {
                ghost_compressor_error::compress(&text);
            }
            4 => {
                ghost_compressor_prose::compress(&text);
            }
            5 => {
                let hints = ghost_classifier::Hints {
                    tool_name: Some(
                        ["Bash", "Read", "mcp__x__y", ""][(selector >> 3) as usize % 4],
                    ),
                    source_path: Some(path),
                    command: Some(text.lines().next().unwrap_or_default()),
                };
                let (_, confidence) = ghost_classifier::classify(&text, hints);
                if !(0.0..=1.0).contains(&confidence) {
                    return Err(format!("classifier confidence {confidence} outside 0..=1"));
                }
            }
            _ => {
                ghost_terminal_text::strip_ansi(&text);
            }
        }
        Ok(())
    });
    assert!(report.runs > seeds.len());
}

/// The built-in components through wasmtime: the text, a class, and
/// hostile hints, all taken from the input.
#[test]
fn wit_boundary() {
    let home = tempfile::tempdir().unwrap();
    let pipeline = pipeline(home.path());
    let seeds = with_selectors(text_seeds().iter().step_by(3));
    let report = fuzz::run("wit_boundary", &seeds, |input| {
        let Some((&selector, text)) = input.split_first() else {
            return Ok(());
        };
        let text = String::from_utf8_lossy(text).into_owned();
        let hint = |n: u8| -> Option<String> {
            match n % 5 {
                0 => None,
                1 => Some(String::new()),
                2 => Some("\u{0}\u{1b}[31m../../etc/passwd".into()),
                3 => Some("x".repeat(70_000)),
                _ => Some(text.lines().next().unwrap_or("").to_string()),
            }
        };
        let classified = pipeline.classify(&ClassifyRequest {
            text: text.clone(),
            tool_name: hint(selector),
            source_path: hint(selector >> 2),
            command: hint(selector >> 4),
        });
        let class = ContentClass::ALL[selector as usize % ContentClass::ALL.len()];
        let out = pipeline
            .compress(&CompressRequest {
                text: text.clone(),
                class,
                tool_name: hint(selector >> 1),
                source_path: hint(selector >> 3),
                target_tokens: [None, Some(0), Some(1), Some(200), Some(u32::MAX)]
                    [(selector >> 5) as usize % 5],
            })
            .outcome;
        if out.applied && out.text.len() >= text.len() {
            return Err(format!(
                "{class} ({:?}): an answer of {} bytes for {} was used",
                classified.classification.class,
                out.text.len(),
                text.len()
            ));
        }
        if !out.applied && out.text != text {
            return Err(format!("{class}: not applied, yet the text changed"));
        }
        Ok(())
    });
    assert!(report.runs > seeds.len());
}

/// A Messages request as Claude Code sends it: a tool call and the result
/// the model saw for it.
fn request_seed(pre: &Value, seen: &Value) -> Vec<u8> {
    json!({
        "model": "claude-opus-5-5",
        "max_tokens": 32000,
        "metadata": {"user_id": "{\"session_id\":\"fuzz\"}"},
        "system": [{"type": "text", "text": "You are Claude Code.", "cache_control": {"type": "ephemeral"}}],
        "tools": [{"name": pre["tool_name"], "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "do the thing"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "step", "signature": "c2ln"},
                {"type": "tool_use", "id": pre["tool_use_id"], "name": pre["tool_name"], "input": pre["tool_input"]}
            ]},
            {"role": "user", "content": [seen]},
            {"role": "assistant", "content": [{"type": "text", "text": "done"}]},
            {"role": "user", "content": "next"}
        ],
        "stream": true
    })
    .to_string()
    .into_bytes()
}

#[test]
fn gateway_requests() {
    let home = tempfile::tempdir().unwrap();
    // Collect from the first request on, so the splicer runs on every seed.
    let policy = ghost_gateway::gardener::GardenPolicy {
        step_share: 0.0,
        step_gap_share: 0.0,
        keep_turns: 0,
        reference_min_bytes: 64,
        ..Default::default()
    };
    let mut gardener = ghost_gateway::gardener::Gardener::new(
        home.path().join("store.sqlite3"),
        Config::default(),
        pipeline(home.path()),
        policy,
    )
    .unwrap();
    let dir = payloads_dir();
    let mut seeds = Vec::new();
    for seen_file in fuzz::read_seeds(&dir, ".json", usize::MAX) {
        let Ok(seen) = serde_json::from_slice::<Value>(&seen_file) else {
            continue;
        };
        if seen["type"] != "tool_result" {
            continue;
        }
        let id = seen["tool_use_id"].clone();
        let pre = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with("PreToolUse-"))
            .filter_map(|e| serde_json::from_slice::<Value>(&std::fs::read(e.path()).ok()?).ok())
            .find(|p| p["tool_use_id"] == id)
            .unwrap_or_else(
                || json!({"tool_name": "Bash", "tool_use_id": id, "tool_input": {"command": "ls"}}),
            );
        seeds.push(request_seed(&pre, &seen));
    }
    assert!(seeds.len() >= 20, "only {} request seeds", seeds.len());
    let mut now = ghost_store::now_ms();
    let mut rewritten = 0usize;
    let report = fuzz::run("gateway_requests", &seeds, |body| {
        now += 1_000;
        let info = ghost_gateway::gardener::RequestInfo {
            session_header: Some("fuzz".into()),
            beta: None,
            now,
        };
        for out in [gardener.garden(body, &info), gardener.replay(body, &info)] {
            let Some(sent) = out.body else { continue };
            rewritten += 1;
            // A body strict JSON parsers accept stays acceptable to them (the
            // gateway's own parser is laxer: it takes lone surrogates).
            if serde_json::from_slice::<Value>(body).is_ok() {
                serde_json::from_slice::<Value>(&sent)
                    .map_err(|e| format!("the rewritten body is not JSON: {e}"))?;
            }
            ghost_gateway::dialect::anthropic::parse(&sent)
                .map_err(|e| format!("the rewritten body no longer parses: {e}"))?;
        }
        Ok(())
    });
    assert!(report.runs > seeds.len());
    assert!(
        rewritten > 0,
        "no request was ever rewritten: the splicer went untested"
    );
}
