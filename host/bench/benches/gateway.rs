//! The gateway's cost on the request path (`cargo bench -p ghost-bench
//! --bench gateway`): a real session's largest request (about 165k tokens,
//! rebuilt from a shared transcript) through the gardener when there is
//! nothing new to rewrite (every earlier decision replayed byte for byte),
//! and its parse alone.

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

criterion_group!(benches, bench);
criterion_main!(benches);
