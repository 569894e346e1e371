//! A small mutation fuzzer for ghost's input boundaries, bounded by time so
//! it runs in every `cargo test` (and longer in CI).
//!
//! cargo-fuzz needs a nightly toolchain and libFuzzer; ghost's toolchain is
//! pinned stable, so this is the portable fallback: seeds taken from real
//! captured inputs, mutated at the byte level (bit flips, splices, cuts,
//! hostile tokens) and, when a seed is JSON, at the structure level (values
//! replaced by other types, strings poisoned, arrays blown up, keys
//! dropped), each mutant run through a target's check. A check fails by
//! panicking or returning an error; the input is then written under
//! `target/fuzz-findings/<target>/` and the test fails naming it. Once
//! fixed, a finding moves to `tests/fuzz-regressions/<target>/`, which every
//! run replays first.
//!
//! - `GHOST_FUZZ_SECS`: seconds of mutation per target (default 8);
//! - `GHOST_FUZZ_SEED`: the random seed (default fixed, so a slower machine
//!   explores a prefix of the same sequence; CI may vary it).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Mutants are cut to this many bytes: large enough for a real tool output,
/// small enough that a debug build checks many of them.
const MAX_INPUT: usize = 192 * 1024;

/// An input whose check takes longer than this is a finding (a blow-up),
/// even in a debug build.
const SLOW: Duration = Duration::from_secs(20);

/// Seconds of mutation per target: `GHOST_FUZZ_SECS`, else 8.
pub fn budget() -> Duration {
    let secs = std::env::var("GHOST_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(8.0);
    Duration::from_secs_f64(secs.max(0.0))
}

/// The random seed: `GHOST_FUZZ_SEED`, else a fixed one.
pub fn seed() -> u64 {
    std::env::var("GHOST_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9e37_79b9_7f4a_7c15)
}

/// xorshift64*: fast, deterministic, good enough to pick mutations.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (zero is replaced: xorshift needs a bit set).
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Text that breaks parsers and compressors: escapes, control bytes, ANSI,
/// odd Unicode, extreme numbers, deep nesting, line noise.
const HOSTILE: &[&str] = &[
    "\\u0000",
    "\\ud800",
    "\\udfff\\ud800",
    "\u{0}",
    "\u{1b}[31m",
    "\u{1b}[2K\r",
    "\r\n",
    "\r",
    "\t",
    "\u{feff}",
    "\u{202e}",
    "é日本🦀",
    "\u{fffd}",
    "1e999",
    "-0",
    "18446744073709551616",
    "-9223372036854775809",
    "null",
    "true",
    "[]",
    "{}",
    "\"\"",
    "\\",
    "\"",
    "error: ",
    "FAILED",
    "test result: ",
    "--> src/lib.rs:1:1",
    "Traceback (most recent call last):",
    "<private>",
    "</private>",
    "[secret:",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    "```",
    "\n\n\n",
];

/// Applies one to four mutations to a copy of `input`; `others` are spliced
/// in sometimes.
pub fn mutate(rng: &mut Rng, input: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
    let mut out = input.to_vec();
    if rng.one_in(3)
        && let Ok(mut json) = serde_json::from_slice::<Value>(&out)
    {
        for _ in 0..=rng.below(3) {
            mutate_json(rng, &mut json, 0);
        }
        out = serde_json::to_vec(&json).unwrap_or(out);
        if rng.one_in(2) {
            return cut(out);
        }
    }
    for _ in 0..=rng.below(4) {
        mutate_bytes(rng, &mut out, others);
    }
    cut(out)
}

fn cut(mut out: Vec<u8>) -> Vec<u8> {
    out.truncate(MAX_INPUT);
    out
}

fn mutate_bytes(rng: &mut Rng, out: &mut Vec<u8>, others: &[Vec<u8>]) {
    let at = rng.below(out.len() + 1);
    match rng.below(10) {
        0 if !out.is_empty() => {
            let i = rng.below(out.len());
            out[i] ^= 1 << rng.below(8);
        }
        1 if !out.is_empty() => {
            let i = rng.below(out.len());
            out[i] = *rng.pick(&[
                0, 0xff, b'"', b'\\', b'{', b'}', b'[', b']', b'\n', 0x80, 0xc3,
            ]);
        }
        2 => {
            let token = rng.pick(HOSTILE).as_bytes().to_vec();
            out.splice(at..at, token);
        }
        3 if !out.is_empty() => {
            let end = (at + 1 + rng.below(256)).min(out.len());
            out.drain(at.min(end)..end);
        }
        4 if !out.is_empty() => {
            // A run of the input repeated: the shape of a noisy log.
            let start = rng.below(out.len());
            let end = (start + 1 + rng.below(512)).min(out.len());
            let chunk = out[start..end].to_vec();
            for _ in 0..=rng.below(50) {
                out.splice(at..at, chunk.iter().copied());
            }
        }
        5 => out.truncate(at),
        6 if !others.is_empty() => {
            let other = rng.pick(others);
            let from = rng.below(other.len() + 1);
            out.truncate(at);
            out.extend_from_slice(&other[from..]);
        }
        7 => {
            // Deep nesting.
            let depth = 1 + rng.below(5_000);
            let open = *rng.pick(b"[{");
            out.splice(at..at, std::iter::repeat_n(open, depth));
        }
        8 => {
            // One very long line.
            let len = 1 + rng.below(64 * 1024);
            out.splice(at..at, std::iter::repeat_n(b'x', len));
        }
        _ => {
            let token = rng.pick(HOSTILE).as_bytes().to_vec();
            let n = 1 + rng.below(300);
            for _ in 0..n {
                out.splice(at..at, token.iter().copied().chain([b'\n']));
            }
        }
    }
}

/// Mutates one node of `value`, found by a random walk from the root.
fn mutate_json(rng: &mut Rng, value: &mut Value, depth: usize) {
    let descend = depth < 64 && rng.below(4) != 0;
    match value {
        Value::Object(map) if descend && !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = rng.pick(&keys).clone();
            if rng.one_in(8) {
                map.remove(&key);
            } else if let Some(child) = map.get_mut(&key) {
                mutate_json(rng, child, depth + 1);
            }
        }
        Value::Array(items) if descend && !items.is_empty() => {
            let i = rng.below(items.len());
            if rng.one_in(6) {
                let copy = items[i].clone();
                let n = 1 + rng.below(200);
                items.splice(i..i, std::iter::repeat_n(copy, n));
            } else {
                mutate_json(rng, &mut items[i], depth + 1);
            }
        }
        Value::String(s) if rng.below(3) != 0 => {
            let mut bytes = std::mem::take(s).into_bytes();
            mutate_bytes(rng, &mut bytes, &[]);
            *s = String::from_utf8_lossy(&bytes).into_owned();
        }
        _ => *value = random_value(rng),
    }
}

fn random_value(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 => Value::Null,
        1 => Value::Bool(rng.one_in(2)),
        2 => serde_json::json!(i64::MAX),
        3 => serde_json::json!(-1),
        4 => serde_json::json!(1e308),
        5 => Value::String(String::new()),
        6 => Value::String(rng.pick(HOSTILE).repeat(1 + rng.below(1_000))),
        7 => Value::Array(vec![Value::Null; rng.below(100)]),
        _ => serde_json::json!({"": [{}], "type": "text", "text": rng.pick(HOSTILE).to_string()}),
    }
}

/// What a fuzzing run did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Inputs checked (regressions, seeds and mutants).
    pub runs: usize,
    /// Of which regression files replayed.
    pub regressions: usize,
    /// The slowest input's check.
    pub slowest: Duration,
}

/// Fuzzes `target`: replays its regression files, runs every seed, then
/// mutants of the seeds until the budget is spent. Panics naming the saved
/// input when `check` panics, errs or takes longer than [`SLOW`].
pub fn run(
    target: &str,
    seeds: &[Vec<u8>],
    mut check: impl FnMut(&[u8]) -> Result<(), String>,
) -> Report {
    assert!(
        !seeds.is_empty(),
        "{target}: no seeds: fuzzing would test nothing"
    );
    let mut report = Report::default();
    let mut try_one = |input: &[u8], report: &mut Report| {
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| check(input)));
        let took = started.elapsed();
        report.runs += 1;
        report.slowest = report.slowest.max(took);
        let problem = match outcome {
            Ok(Ok(())) if took <= SLOW => return,
            Ok(Ok(())) => format!("took {took:?}"),
            Ok(Err(e)) => e,
            Err(panic) => panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .map_or_else(|| "panicked".to_string(), |p| format!("panicked: {p}")),
        };
        let saved = save_finding(target, input);
        panic!(
            "fuzz {target}: {problem}\n  input saved to {} ({} bytes); once fixed, move it to \
             tests/fuzz-regressions/{target}/ so every run replays it",
            saved.display(),
            input.len()
        );
    };
    for file in regression_files(target) {
        let input = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        try_one(&input, &mut report);
        report.regressions += 1;
    }
    for seed in seeds {
        try_one(seed, &mut report);
    }
    let mut rng = Rng::new(seed() ^ blake3::hash(target.as_bytes()).as_bytes()[0] as u64);
    let budget = budget();
    let started = Instant::now();
    while started.elapsed() < budget {
        let base = rng.pick(seeds).clone();
        let mutant = mutate(&mut rng, &base, seeds);
        try_one(&mutant, &mut report);
    }
    eprintln!(
        "fuzz {target}: {} inputs ({} regressions, {} seeds) in {:.1?}, slowest {:.1?}, seed {}",
        report.runs,
        report.regressions,
        seeds.len(),
        started.elapsed(),
        report.slowest,
        seed()
    );
    report
}

/// The regression inputs of `target`, in name order.
pub fn regression_files(target: &str) -> Vec<PathBuf> {
    let dir = crate::workspace()
        .join("tests/fuzz-regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"));
    files.sort();
    files
}

fn save_finding(target: &str, input: &[u8]) -> PathBuf {
    let dir = crate::workspace().join("target/fuzz-findings").join(target);
    let path = dir.join(format!("{}.bin", &blake3::hash(input).to_hex()[..16]));
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, input)) {
        eprintln!(
            "fuzz {target}: could not save the finding to {}: {e}",
            path.display()
        );
    }
    path
}

/// Every file under `dir` whose name ends with `suffix`, read, in name
/// order (at most `limit` of them, each cut to [`MAX_INPUT`] bytes).
pub fn read_seeds(dir: &Path, suffix: &str, limit: usize) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("seeds in {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    files.sort();
    files
        .iter()
        .take(limit)
        .filter_map(|p| std::fs::read(p).ok())
        .map(cut)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutants_differ_and_the_sequence_repeats_for_a_seed() {
        let seed = br#"{"a": [1, "two", {"b": null}], "c": "text\nmore"}"#.to_vec();
        let run = |s| {
            let mut rng = Rng::new(s);
            (0..50)
                .map(|_| mutate(&mut rng, &seed, std::slice::from_ref(&seed)))
                .collect::<Vec<_>>()
        };
        let a = run(7);
        assert_eq!(a, run(7));
        assert_ne!(a, run(8));
        assert!(a.iter().filter(|m| **m != seed).count() > 40);
        assert!(a.iter().all(|m| m.len() <= MAX_INPUT));
    }
}
