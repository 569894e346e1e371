//! One compressor component in the sandbox over corpora laid out like
//! `../shared/corpus/cases` (`<case>/input.txt`): time per MB and a hash of
//! every output, so two builds of a component (or two compiler settings)
//! can be compared run for run without the rest of ghost around them.
//!
//! ```text
//! cargo run --release -p ghost-runtime --example component_speed -- log.wasm CLASS DIR...
//! ```
//!
//! `CLASS` is the class each input is sent as (`log`, `prose`, …). Every
//! call runs as ghost runs it (a fresh store, ghost's memory cap), under a
//! deadline of 20 s per MiB so that a slow machine still finishes, from the
//! instance pool a long-lived process uses.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ghost_runtime::{PluginLimits, PluginRuntime, RuntimeConfig};
use ghost_types::{CompressRequest, ContentClass};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [component, class, dirs @ ..] = args.as_slice() else {
        anyhow::bail!("usage: component_speed COMPONENT.wasm CLASS DIR...");
    };
    let class: ContentClass = class
        .parse()
        .map_err(|e| anyhow::anyhow!("{class}: not a class ({e:?})"))?;
    // As the gateway and `ghost-bench` run plugins: from a pool of instances.
    ghost_runtime::engine::pool_instances();
    let limits = PluginLimits {
        deadline: Duration::from_secs(20),
        ..PluginLimits::default()
    };
    let runtime = PluginRuntime::new(RuntimeConfig {
        limits,
        cache_dir: None,
    })?;
    let bytes = std::fs::read(component)?;
    let plugin = runtime.load_third_party("speed", &bytes)?;
    for dir in dirs {
        let inputs = inputs_of(Path::new(dir))?;
        let total: usize = inputs.iter().map(String::len).sum();
        let mut hash = Fnv::default();
        let mut took = Duration::ZERO;
        let mut failed = 0;
        for input in &inputs {
            let request = CompressRequest::new(input.clone(), class);
            let start = Instant::now();
            let out = runtime.compress(&plugin, &request);
            took += start.elapsed();
            match out {
                Ok(out) => hash.add(out.value.text.as_bytes()),
                Err(_) => failed += 1,
            }
        }
        let mb = total as f64 / f64::from(1 << 20);
        println!(
            "{dir}: {} inputs, {mb:.2} MB, {:.1} ms/MB, {failed} failed, outputs {:016x}",
            inputs.len(),
            took.as_secs_f64() * 1000.0 / mb,
            hash.0
        );
    }
    Ok(())
}

/// Every case's `input.txt` under `dir`, in the order of the case names.
fn inputs_of(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    cases.sort();
    Ok(cases
        .iter()
        .filter_map(|case| std::fs::read(case.join("input.txt")).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect())
}

/// FNV-1a over every output in turn.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        self.0 = (self.0 ^ 0xff).wrapping_mul(0x100_0000_01b3);
    }
}
