//! Benchmarks that measure ghost as a whole (the `ghost-bench` binary,
//! which `ghost bench …` runs), in a crate of their own: the product crates
//! never depend on it.
//! - [`corpus`]: compression on a corpus of real tool outputs with must-keep
//!   facts: tokens, retention, classifier accuracy;
//! - [`halves`]: a corpus split by source into a tuning and an evaluation
//!   half;
//! - [`locomo`]: recall quality on the LoCoMo conversations;
//! - [`store_load`]: recall latency and ingest throughput on a large store;
//! - [`replay`]: real Claude Code transcripts through the PostToolUse hook,
//!   as the installed matcher would send them;
//! - [`load`]: hook processes and streaming gateway requests at once on
//!   one store: errors, lost writes, integrity, p50/p99;
//! - [`longevity`]: real sessions' requests through the gateway: replies
//!   before compaction and cache-aware cost, with and without ghost.

pub mod corpus;
pub mod halves;
pub mod hook_cost;
pub mod load;
pub mod locomo;
pub mod longevity;
pub mod replay;
pub mod store_load;
pub mod task_start;

use std::time::Duration;

/// The `q`-quantile (0.0–1.0) of `samples`, in milliseconds (nearest rank).
pub fn quantile_ms(samples: &[Duration], q: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut sorted = samples.to_vec();
    sorted.sort();
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1].as_secs_f64() * 1000.0
}

/// A fresh store file in the system's temporary directory, removed (with
/// its WAL files) when dropped.
pub struct ScratchStore {
    path: std::path::PathBuf,
}

impl ScratchStore {
    /// A new, unique path for `purpose`.
    pub fn new(purpose: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path = std::env::temp_dir().join(format!(
            "ghost-{purpose}-{}-{nanos}.sqlite3",
            std::process::id()
        ));
        Self { path }
    }

    /// The file's path.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }
}

impl Drop for ScratchStore {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut p = self.path.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_nearest_rank() {
        let ms = |v: &[u64]| {
            v.iter()
                .map(|&m| Duration::from_millis(m))
                .collect::<Vec<_>>()
        };
        let s = ms(&[5, 1, 4, 2, 3, 6, 7, 8, 9, 10]);
        assert_eq!(quantile_ms(&s, 0.5), 5.0);
        assert_eq!(quantile_ms(&s, 0.95), 10.0);
        assert_eq!(quantile_ms(&[], 0.5), 0.0);
    }
}
