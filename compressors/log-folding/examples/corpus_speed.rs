//! The log folding alone, natively, over corpora laid out like
//! `../shared/corpus/cases` (`<case>/input.txt`): time per MB and a hash of
//! every output, so a change meant to make it faster can be shown to fold
//! every log exactly as before (same hash) and timed against the build
//! before it, run for run.
//!
//! ```text
//! cargo run --release -p ghost-log-folding --example corpus_speed -- DIR...
//! ```
//!
//! `REPS=N` times each corpus N times and prints the median; `BUDGET=N`
//! gives every log a budget of N tokens, as a hook under context pressure
//! does; `PER_CASE=1` also prints each log's size and time (first run).

use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() {
    let dirs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if dirs.is_empty() {
        eprintln!("usage: corpus_speed DIR... (folders of <case>/input.txt)");
        std::process::exit(2);
    }
    let budget = number_from_env("BUDGET").map(|n| n as u32);
    let reps = number_from_env("REPS").unwrap_or(1).max(1);
    let per_case = std::env::var_os("PER_CASE").is_some();
    let mut all = Fnv::default();
    for dir in &dirs {
        let inputs = match inputs_of(dir) {
            Ok(inputs) => inputs,
            Err(e) => {
                eprintln!("reading {}: {e}", dir.display());
                std::process::exit(1);
            }
        };
        let bytes: usize = inputs.iter().map(String::len).sum();
        let mut outputs = Fnv::default();
        let mut times = Vec::with_capacity(reps);
        for rep in 0..reps {
            let start = Instant::now();
            for (i, input) in inputs.iter().enumerate() {
                let one = Instant::now();
                let out = ghost_log_folding::compress_within(input, budget);
                if per_case && rep == 0 {
                    let ms = one.elapsed().as_secs_f64() * 1000.0;
                    println!("case {i} {} bytes {ms:.3} ms", input.len());
                }
                if rep == 0 {
                    outputs.add(out.text.as_bytes());
                    all.add(out.text.as_bytes());
                }
            }
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        let ms = times[times.len() / 2];
        let mb = bytes as f64 / f64::from(1 << 20);
        println!(
            "{}: {} logs, {mb:.2} MB, {ms:.1} ms, {:.1} ms/MB, outputs {:016x}",
            dir.display(),
            inputs.len(),
            ms / mb,
            outputs.0
        );
    }
    println!("all outputs {:016x}", all.0);
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

/// A whole number from the environment variable `name`, if set.
fn number_from_env(name: &str) -> Option<usize> {
    let value = std::env::var(name).ok()?;
    match value.parse() {
        Ok(n) => Some(n),
        Err(_) => {
            eprintln!("{name}={value} is not a whole number");
            std::process::exit(2);
        }
    }
}

/// FNV-1a over every output in turn (stable across Rust versions, unlike
/// `DefaultHasher`), with each output's length so two splits of the same
/// bytes differ.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    /// Mixes in one output.
    fn add(&mut self, bytes: &[u8]) {
        for &b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}
