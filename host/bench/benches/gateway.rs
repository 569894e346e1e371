//! The gateway's cost on the request path (`cargo bench -p ghost-bench
//! --bench gateway`): a real session's largest request (about 165k tokens,
//! rebuilt from a shared transcript) through the gardener when there is
//! nothing new to rewrite (every earlier decision replayed byte for byte),
//! the same request grown to a full 200k-token window with more turns of the
//! session's own tool results, and the parse alone.

use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use ghost_core::config::Config;
use ghost_core::paths::GhostDirs;
use ghost_core::pipeline::Pipeline;
use ghost_gateway::gardener::{GardenPolicy, Gardener, RequestInfo};

fn bench(c: &mut Criterion) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../../shared/corpus/transcripts/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
    );
    let Ok(bodies) = ghost_bench::longevity::request_bodies(&file) else {
        eprintln!("gateway bench skipped: {} is not there", file.display());
        return;
    };
    // The session's largest request, and every one before it.
    let (last, _) = bodies
        .iter()
        .enumerate()
        .max_by_key(|(_, b)| b.len())
        .expect("requests");
    let home = tempfile::tempdir().unwrap();
    let dirs = GhostDirs {
        data: home.path().to_path_buf(),
        cache: home.path().join("cache"),
        config: home.path().to_path_buf(),
    };
    let mut gardener = Gardener::new(
        home.path().join("store.sqlite3"),
        Config::default(),
        Pipeline::with_dirs(Some(&dirs)).unwrap(),
        GardenPolicy::default(),
    )
    .unwrap();
    let mut now = 1_000_000;
    let mut info = || {
        now += 1_000;
        RequestInfo {
            session_header: Some("bench".into()),
            beta: None,
            now,
        }
    };
    for body in &bodies[..=last] {
        gardener.garden(body, &info());
    }
    let body = &bodies[last];
    let full = grow_to_tokens(body, 200_000);
    gardener.garden(&full, &info());
    let rewritten = gardener.garden(body, &info());
    eprintln!(
        "largest request: {} bytes, {} blocks rewritten, {} bytes sent",
        body.len(),
        rewritten.blocks_rewritten,
        rewritten.bytes_out
    );
    let mut group = c.benchmark_group("gateway");
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("replay_165k_tokens", |b| {
        b.iter(|| {
            let out = gardener.garden(body, &info());
            assert_eq!(out.new_rewrites, 0);
            out
        })
    });
    group.bench_function("replay_200k_tokens", |b| {
        b.iter(|| {
            let out = gardener.garden(&full, &info());
            assert_eq!(out.new_rewrites, 0);
            out
        })
    });
    group.bench_function("parse_165k_tokens", |b| {
        b.iter(|| {
            ghost_gateway::dialect::anthropic::parse(body)
                .unwrap()
                .messages
                .len()
        })
    });
    group.finish();
}

/// `body` with more tool turns appended (the session's own tool results
/// again, under fresh ids) until the whole request is at least `tokens`
/// o200k_base tokens.
fn grow_to_tokens(body: &[u8], tokens: usize) -> Vec<u8> {
    let mut request: serde_json::Value = serde_json::from_slice(body).expect("a JSON request");
    let results: Vec<serde_json::Value> = request["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|b| b["type"] == "tool_result" && b["content"].to_string().len() > 2_000)
        .map(|b| b["content"].clone())
        .collect();
    assert!(
        !results.is_empty(),
        "the request has tool results to repeat"
    );
    let mut grown = body.to_vec();
    let mut turn = 0;
    while ghost_core::tokens::count(&String::from_utf8_lossy(&grown)) < tokens {
        let id = format!("toolu_bench_{turn}");
        let messages = request["messages"].as_array_mut().expect("messages");
        messages.push(serde_json::json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": id, "name": "Bash", "input": {"command": format!("cat part{turn}")}}
        ]}));
        messages.push(serde_json::json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": id, "content": results[turn % results.len()]}
        ]}));
        turn += 1;
        grown = serde_json::to_vec(&request).expect("serialises");
    }
    eprintln!(
        "grown request: {} bytes, {} turns added, >= {tokens} o200k_base tokens",
        grown.len(),
        turn
    );
    grown
}

criterion_group!(benches, bench);
criterion_main!(benches);
