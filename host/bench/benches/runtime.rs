//! Benchmarks of the plugin runtime (`cargo bench -p ghost-bench --bench runtime`):
//! - `per_call/<size>`: a fresh store, instantiation and one call of the
//!   built-in log compressor component, at 1 KB, 100 KB and 1 MB of real log;
//! - `native/<size>`: the same compressor compiled natively, for the ratio;
//! - `class_1MB/<class>` and `class_1MB_native/<class>`: every built-in
//!   compressor on 1 MB of its own class (real corpus files, concatenated),
//!   in the sandbox and natively;
//! - `cold_process`: a whole `ghost compress --class log` process on a 100 KB
//!   log (compile cache warm), next to `node -e ''` doing nothing. It runs
//!   the `ghost` binary of the same profile (`cargo build --release -p
//!   ghost` first), and is skipped, saying so, when there is none.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ghost_core::builtin;
use ghost_runtime::{PluginKind, PluginRuntime, RuntimeConfig};
use ghost_types::{CompressRequest, ContentClass};

/// A real CI log (the shared corpus's 1 MB Maven log, or the example log
/// repeated when the corpus is not there), cut at a line end to `size` bytes.
fn real_log(size: usize) -> String {
    let root = workspace();
    let big = root.join("../shared/corpus/cases/cidiff-assertj_1944/input.txt");
    let text = std::fs::read(&big)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_else(|_| {
            std::fs::read_to_string(root.join("examples/ci-failure.log"))
                .unwrap()
                .repeat(10)
        });
    let mut cut = size.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let end = text[..cut].rfind('\n').map_or(cut, |i| i + 1);
    text[..end].to_string()
}

/// The workspace root.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `ghost` binary built beside this benchmark (`target/<profile>/ghost`).
fn ghost_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    // target/<profile>/deps/runtime-<hash> → target/<profile>/ghost
    let ghost = exe.parent()?.parent()?.join("ghost");
    ghost.is_file().then_some(ghost)
}

const SIZES: [(&str, usize); 4] = [
    ("16B", 16),
    ("1KB", 1 << 10),
    ("100KB", 100 << 10),
    ("1MB", 1 << 20),
];

fn per_call(c: &mut Criterion) {
    ghost_runtime::engine::pool_instances();
    let rt = PluginRuntime::new(RuntimeConfig::default()).unwrap();
    let log = builtin::LOG_COMPRESSOR;
    let plugin = rt
        .load_kind(log.name, log.bytes, PluginKind::Compressor)
        .unwrap();
    let mut group = c.benchmark_group("per_call");
    for (name, size) in SIZES {
        let request = CompressRequest::new(real_log(size), ContentClass::Log);
        group.throughput(Throughput::Bytes(request.text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &request, |b, r| {
            b.iter(|| {
                rt.compress(&plugin, r)
                    .expect("the log compressor succeeds")
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("native");
    for (name, size) in SIZES {
        let text = real_log(size);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &text, |b, t| {
            b.iter(|| ghost_log_folding::compress(t))
        });
    }
    group.finish();
}

/// About 1 MB of real `class` text: the shared corpus's cases of that class,
/// concatenated (structured data as one JSON array of them).
fn class_megabyte(class: &str, file: &str) -> String {
    let root = workspace();
    let text = std::fs::read_to_string(
        root.join("../shared/corpus/cases")
            .join(file)
            .join("input.txt"),
    )
    .expect("the shared corpus beside the repository");
    let copies = (1 << 20) / text.len() + 1;
    if class == "structured" {
        format!("[{}]", vec![text.trim(); copies].join(",\n"))
    } else {
        text.repeat(copies)
    }
}

fn per_class(c: &mut Criterion) {
    ghost_runtime::engine::pool_instances();
    let rt = PluginRuntime::new(RuntimeConfig::default()).unwrap();
    let inputs = [
        (
            builtin::ERROR_COMPRESSOR,
            ContentClass::Error,
            "err-py-recursion",
        ),
        (
            builtin::STRUCTURED_COMPRESSOR,
            ContentClass::Structured,
            "struct-npm-hidden-lockfile",
        ),
        (
            builtin::PROSE_COMPRESSOR,
            ContentClass::Prose,
            "prose-bumpalo-3-20-3",
        ),
        (
            builtin::CODE_COMPRESSOR,
            ContentClass::Code,
            "code-py-argparse",
        ),
        (
            builtin::CODE_COMPRESSOR,
            ContentClass::Code,
            "code-rs-either-1-19-0-lib",
        ),
    ];
    let mut group = c.benchmark_group("class_1MB");
    group.sample_size(20);
    for (plugin, class, file) in inputs {
        let loaded = rt
            .load_kind(plugin.name, plugin.bytes, PluginKind::Compressor)
            .unwrap();
        let request = CompressRequest::new(class_megabyte(class.as_str(), file), class);
        group.throughput(Throughput::Bytes(request.text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(file), &request, |b, r| {
            b.iter(|| rt.compress(&loaded, r).expect("the compressor succeeds"))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("class_1MB_native");
    group.sample_size(20);
    for (_, class, file) in inputs {
        let text = class_megabyte(class.as_str(), file);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(file), &text, |b, t| {
            b.iter(|| match class {
                ContentClass::Error => ghost_compressor_error::compress(t)
                    .map(|c| c.text.len())
                    .unwrap_or(0),
                ContentClass::Structured => {
                    ghost_compressor_structured::compress(t, None).text.len()
                }
                ContentClass::Prose => ghost_compressor_prose::compress(t).text.len(),
                _ => ghost_compressor_code::compress(t, None).text.len(),
            })
        });
    }
    group.finish();
}

fn cold_process(c: &mut Criterion) {
    let home = tempfile::tempdir().unwrap();
    let input: PathBuf = home.path().join("100kb.log");
    std::fs::write(&input, real_log(100 << 10)).unwrap();
    let Some(ghost) = ghost_binary() else {
        eprintln!(
            "cold_process skipped: no ghost binary beside this benchmark; \
             run `cargo build --release -p ghost` first"
        );
        return;
    };
    let run_ghost = || {
        let out = Command::new(&ghost)
            .args(["compress", "--class", "log"])
            .arg(&input)
            .env("GHOST_HOME", home.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run_ghost(); // fills the compile cache, as any first run does
    let mut group = c.benchmark_group("cold_process");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("ghost_compress_100KB", |b| b.iter(run_ghost));
    if Command::new("node").arg("--version").output().is_ok() {
        group.bench_function("node_noop", |b| {
            b.iter(|| {
                assert!(
                    Command::new("node")
                        .args(["-e", ""])
                        .status()
                        .unwrap()
                        .success()
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, per_call, per_class, cold_process);
criterion_main!(benches);
