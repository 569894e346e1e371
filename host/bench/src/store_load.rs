//! `ghost bench store`: ingest throughput and recall latency on a large
//! store of realistic entries.
//!
//! The entries are real tool results: every tool result of the Claude Code
//! transcripts (`transcripts/claude-code/*.jsonl`) and every corpus case of
//! 64 KB or less (`cases/*/input.txt`). First each one is ingested once
//! through the whole pipeline (classify → compress → store), which measures
//! ingest throughput; then the store is filled with copies under distinct
//! tool-call ids up to each requested size, and a fixed set of queries drawn
//! from the texts is recalled there, which measures recall latency.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::Value;

use crate::{ScratchStore, quantile_ms};
use ghost_claude::response::content_text;
use ghost_core::ingest::{IngestRequest, Ingestor};
use ghost_core::pipeline::Pipeline;
use ghost_store::recall::RecallQuery;
use ghost_store::{IdempotencyKey, NewEntry, Store};

/// Corpus cases larger than this are left out: tool results that big are
/// rare, and a few of them would dominate the store's size.
pub const MAX_CASE_BYTES: usize = 64 * 1024;

/// Queries asked at each size.
pub const QUERIES: usize = 200;

/// One real tool result.
#[derive(Debug, Clone)]
pub struct Source {
    /// Its text.
    pub text: String,
    /// The tool that produced it, when known.
    pub tool: Option<String>,
}

/// Ingest throughput through the whole pipeline.
#[derive(Debug, Clone, Serialize)]
pub struct IngestFigures {
    /// Tool results ingested.
    pub results: usize,
    /// Their bytes.
    pub bytes: usize,
    /// Results per second.
    pub per_second: f64,
    /// Megabytes per second.
    pub mb_per_second: f64,
    /// Median time of one ingest, milliseconds.
    pub p50_ms: f64,
    /// 95th percentile, milliseconds.
    pub p95_ms: f64,
}

/// Recall latency at one store size.
#[derive(Debug, Clone, Serialize)]
pub struct RecallFigures {
    /// Active entries in the store.
    pub entries: usize,
    /// The store's size on disk, bytes.
    pub bytes_on_disk: u64,
    /// Entries inserted per second while filling (store only, one
    /// transaction each, as the hooks do).
    pub inserts_per_second: f64,
    /// Queries asked.
    pub queries: usize,
    /// Median latency, milliseconds.
    pub p50_ms: f64,
    /// 95th percentile latency, milliseconds.
    pub p95_ms: f64,
    /// Slowest query, milliseconds.
    pub max_ms: f64,
    /// Share of queries with at least one hit.
    pub answered: f64,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct StoreReport {
    /// Distinct tool results in the pool.
    pub sources: usize,
    /// Their mean size, bytes.
    pub mean_bytes: usize,
    /// Ingest through the pipeline.
    pub ingest: IngestFigures,
    /// Recall at each size.
    pub recall: Vec<RecallFigures>,
}

/// Reads the pool of tool results under `corpus` (`../shared/corpus`).
pub fn sources(corpus: &Path) -> Result<Vec<Source>> {
    let mut out = Vec::new();
    let transcripts = corpus.join("transcripts/claude-code");
    for file in sorted_dir(&transcripts)? {
        if file.extension().is_some_and(|e| e == "jsonl") {
            out.extend(transcript_results(&file)?);
        }
    }
    for case in sorted_dir(&corpus.join("cases"))? {
        let input = case.join("input.txt");
        if let Ok(text) = std::fs::read_to_string(&input)
            && text.len() <= MAX_CASE_BYTES
        {
            out.push(Source { text, tool: None });
        }
    }
    out.retain(|s| !s.text.trim().is_empty());
    if out.is_empty() {
        bail!(
            "no tool results under {} (expected transcripts/claude-code/*.jsonl and cases/*/input.txt)",
            corpus.display()
        );
    }
    Ok(out)
}

fn sorted_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    Ok(paths)
}

/// Every tool result of one transcript, with its tool's name.
fn transcript_results(path: &Path) -> Result<Vec<Source>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut tools = std::collections::HashMap::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        for block in v["message"]["content"].as_array().into_iter().flatten() {
            match block["type"].as_str() {
                Some("tool_use") => {
                    if let (Some(id), Some(name)) = (block["id"].as_str(), block["name"].as_str()) {
                        tools.insert(id.to_string(), name.to_string());
                    }
                }
                Some("tool_result") => {
                    let Some(text) = content_text(&block["content"]) else {
                        continue;
                    };
                    let tool = block["tool_use_id"]
                        .as_str()
                        .and_then(|id| tools.get(id).cloned());
                    out.push(Source { text, tool });
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

/// Queries drawn from the pool: two rare-ish words of a source each, the
/// way an agent asks for something it saw ("ExUnit timeout", "lockfile
/// integrity").
fn queries(pool: &[Source]) -> Vec<String> {
    let mut out = Vec::new();
    let step = (pool.len() / QUERIES).max(1);
    for (i, s) in pool.iter().enumerate().step_by(step) {
        let words: Vec<&str> = s
            .text
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| w.len() >= 6 && w.chars().any(char::is_alphabetic))
            .collect();
        if words.len() < 2 {
            continue;
        }
        let a = words[(i * 7) % words.len()];
        let b = words[(i * 13 + 5) % words.len()];
        out.push(format!("{a} {b}"));
        if out.len() == QUERIES {
            break;
        }
    }
    out
}

fn stored_copy(entry: &ghost_store::Entry, k: usize) -> NewEntry {
    let session = format!("bench-{}", k % 64);
    NewEntry {
        key: IdempotencyKey::for_tool_call(&session, &format!("toolu_{k}")),
        session_id: session,
        agent_id: String::new(),
        created_at: ghost_store::now_ms(),
        class: entry.class,
        source_tool: entry.source_tool.clone(),
        source_path: entry.source_path.clone(),
        original: entry.original.clone(),
        summary: entry.summary.clone(),
        original_tokens: entry.original_tokens,
        summary_tokens: entry.summary_tokens,
        tokens_exact: true,
        ttl_seconds: None,
        context: String::new(),
        tags: entry.source_tool.clone().unwrap_or_default(),
    }
}

/// Runs the benchmark: ingest `pool` once through `pipeline`, then recall at
/// each of `sizes` entries (ascending) in a scratch store (or `store_path`).
pub fn run(
    pool: &[Source],
    sizes: &[usize],
    store_path: Option<&Path>,
    pipeline: impl Fn() -> Result<Pipeline>,
    mut progress: impl FnMut(&str),
) -> Result<StoreReport> {
    let scratch = ScratchStore::new("bench-store");
    let path = store_path.unwrap_or(scratch.path());
    let mut store = Store::open(path)?;

    // 1. Ingest throughput through the whole pipeline.
    let pipeline = pipeline()?;
    let mut ids = Vec::with_capacity(pool.len());
    let mut times = Vec::with_capacity(pool.len());
    let bytes: usize = pool.iter().map(|s| s.text.len()).sum();
    {
        // Build once so start-up costs do not count as ingest.
        let _ = pipeline.classify(&ghost_types::ClassifyRequest {
            text: "warm up".into(),
            tool_name: None,
            source_path: None,
            command: None,
        });
        ghost_core::tokens::count("warm up");
        let mut ingestor = Ingestor::new(
            &mut store,
            ghost_core::config::DEFAULT_MIN_COMPRESS_BYTES,
            || bail!("unused"),
        );
        ingestor.use_pipeline(pipeline);
        let started = Instant::now();
        for (k, s) in pool.iter().enumerate() {
            let mut request = IngestRequest::new(s.text.clone(), "bench-ingest");
            request.tool_use_id = Some(format!("ingest_{k}"));
            request.tool_name = s.tool.clone();
            let t = Instant::now();
            let ingested = ingestor.ingest(request)?;
            times.push(t.elapsed());
            ids.push(ingested.id);
        }
        let total = started.elapsed().as_secs_f64();
        progress(&format!("ingested {} results in {total:.1} s", pool.len()));
    }
    let total: Duration = times.iter().sum();
    let ingest = IngestFigures {
        results: pool.len(),
        bytes,
        per_second: pool.len() as f64 / total.as_secs_f64(),
        mb_per_second: bytes as f64 / 1e6 / total.as_secs_f64(),
        p50_ms: quantile_ms(&times, 0.5),
        p95_ms: quantile_ms(&times, 0.95),
    };
    let entries: Vec<ghost_store::Entry> = ids
        .iter()
        .map(|id| store.entry(id))
        .collect::<Result<_, _>>()?;

    // 2. Fill up to each size and measure recall there.
    let queries = queries(pool);
    let mut recall = Vec::new();
    let mut count = entries.len();
    let mut sorted_sizes = sizes.to_vec();
    sorted_sizes.sort_unstable();
    for size in sorted_sizes {
        let started = Instant::now();
        let before = count;
        while count < size {
            store.insert(&stored_copy(&entries[count % entries.len()], count))?;
            count += 1;
            if count.is_multiple_of(10_000) {
                progress(&format!("{count} entries"));
            }
        }
        let fill = started.elapsed().as_secs_f64();
        let mut latencies = Vec::with_capacity(queries.len());
        let mut answered = 0;
        let now = ghost_store::now_ms();
        // One untimed pass warms SQLite's page cache, as a running server's is.
        for q in &queries {
            store.recall(&RecallQuery::new(q.as_str()), now)?;
        }
        for q in &queries {
            let t = Instant::now();
            let hits = store.recall(&RecallQuery::new(q.as_str()), now)?;
            latencies.push(t.elapsed());
            answered += usize::from(!hits.is_empty());
        }
        recall.push(RecallFigures {
            entries: count,
            bytes_on_disk: store.size_on_disk(),
            inserts_per_second: if count > before {
                (count - before) as f64 / fill
            } else {
                0.0
            },
            queries: queries.len(),
            p50_ms: quantile_ms(&latencies, 0.5),
            p95_ms: quantile_ms(&latencies, 0.95),
            max_ms: quantile_ms(&latencies, 1.0),
            answered: answered as f64 / queries.len().max(1) as f64,
        });
    }
    Ok(StoreReport {
        sources: pool.len(),
        mean_bytes: bytes / pool.len().max(1),
        ingest,
        recall,
    })
}

/// The report as text.
pub fn render(r: &StoreReport) -> String {
    let i = &r.ingest;
    let mut out = format!(
        "pool: {} real tool results, mean {} bytes\n\
         ingest (classify → compress → store): {:.0} results/s, {:.2} MB/s, p50 {:.2} ms, p95 {:.2} ms\n\
         {:>9} {:>9} {:>11} {:>8} {:>8} {:>8} {:>9}\n",
        r.sources,
        r.mean_bytes,
        i.per_second,
        i.mb_per_second,
        i.p50_ms,
        i.p95_ms,
        "entries",
        "MB",
        "inserts/s",
        "p50 ms",
        "p95 ms",
        "max ms",
        "answered"
    );
    for f in &r.recall {
        out.push_str(&format!(
            "{:>9} {:>9.0} {:>11.0} {:>8.3} {:>8.3} {:>8.3} {:>8.0}%\n",
            f.entries,
            f.bytes_on_disk as f64 / 1e6,
            f.inserts_per_second,
            f.p50_ms,
            f.p95_ms,
            f.max_ms,
            f.answered * 100.0
        ));
    }
    out
}
