//! `ghost bench recall`: recall quality on LoCoMo, a long-term
//! conversational memory benchmark (10 conversations, 5,882 turns, questions
//! with the ids of the turns that hold the answer).
//!
//! Every turn becomes an entry (session = its conversation, tags = its
//! speaker, context = the turns either side); every question of categories
//! 1–4 goes through [`Store::recall`], the code path of the MCP `recall`
//! tool, limited to its conversation. Reported per split: conversations 0–4
//! (where ghost's ranking was tuned) and 5–9 (held out).

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::Value;

use crate::{ScratchStore, quantile_ms};
use ghost_store::recall::{RecallQuery, RecallTuning};
use ghost_store::{IdempotencyKey, NewEntry, Store};

/// The question categories asked (5, adversarial, has no evidence to find).
const CATEGORIES: [u64; 4] = [1, 2, 3, 4];

/// Results of one split.
#[derive(Debug, Clone, Serialize)]
pub struct SplitReport {
    /// Which conversations.
    pub name: String,
    /// Questions asked.
    pub questions: usize,
    /// Share of a question's evidence turns in the top 1, averaged.
    pub recall_at_1: f64,
    /// … in the top 5.
    pub recall_at_5: f64,
    /// … in the top 10.
    pub recall_at_10: f64,
    /// Mean reciprocal rank of the first evidence turn (0 beyond 10).
    pub mrr: f64,
    /// Median recall latency, milliseconds.
    pub latency_p50_ms: f64,
    /// 95th percentile recall latency, milliseconds.
    pub latency_p95_ms: f64,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct LocomoReport {
    /// `tuned` or `plain`.
    pub ranking: String,
    /// Turns loaded.
    pub turns: usize,
    /// Conversations 0–4, 5–9, and all.
    pub splits: Vec<SplitReport>,
}

struct Turn {
    dia_id: String,
    speaker: String,
    text: String,
}

struct Question {
    text: String,
    evidence: Vec<String>,
}

fn turns_of(conversation: &Value) -> Vec<Turn> {
    let mut turns = Vec::new();
    for n in 1.. {
        let Some(session) = conversation.get(format!("session_{n}")) else {
            break;
        };
        for t in session.as_array().into_iter().flatten() {
            let mut text = t["text"].as_str().unwrap_or_default().to_string();
            // A shared photo is part of what was said.
            if let Some(caption) = t.get("blip_caption").and_then(Value::as_str) {
                text.push_str(&format!(" [shares a photo: {caption}]"));
            }
            turns.push(Turn {
                dia_id: t["dia_id"].as_str().unwrap_or_default().to_string(),
                speaker: t["speaker"].as_str().unwrap_or_default().to_string(),
                text,
            });
        }
    }
    turns
}

fn questions_of(sample: &Value) -> Vec<Question> {
    sample["qa"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|q| {
            q["category"]
                .as_u64()
                .is_some_and(|c| CATEGORIES.contains(&c))
        })
        .filter_map(|q| {
            let evidence: Vec<String> = q["evidence"]
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .flat_map(|e| e.split([';', ',', ' ']).map(str::trim))
                .filter(|e| !e.is_empty())
                .map(str::to_string)
                .collect();
            (!evidence.is_empty()).then(|| Question {
                text: q["question"].as_str().unwrap_or_default().to_string(),
                evidence,
            })
        })
        .collect()
}

/// Loads the conversations into `store`; returns, per conversation, its
/// session id and the map from entry id to turn id.
fn load(store: &mut Store, samples: &[Value]) -> Result<Vec<(String, HashMap<String, String>)>> {
    let mut loaded = Vec::new();
    for (i, sample) in samples.iter().enumerate() {
        let session = format!("locomo-{i}");
        let turns = turns_of(&sample["conversation"]);
        let mut ids = HashMap::new();
        for (k, turn) in turns.iter().enumerate() {
            let neighbours: Vec<&str> = [k.checked_sub(1), Some(k + 1)]
                .into_iter()
                .flatten()
                .filter_map(|j| turns.get(j))
                .map(|t| t.text.as_str())
                .collect();
            let tokens = ghost_core::tokens::count(&turn.text) as i64;
            let entry = NewEntry {
                key: IdempotencyKey::for_tool_call(&session, &turn.dia_id),
                session_id: session.clone(),
                agent_id: String::new(),
                created_at: ghost_store::now_ms(),
                class: ghost_types::ContentClass::Prose,
                source_tool: Some("conversation".into()),
                source_path: None,
                original: turn.text.clone(),
                summary: turn.text.clone(),
                original_tokens: tokens,
                summary_tokens: tokens,
                tokens_exact: true,
                ttl_seconds: None,
                context: neighbours.join(" "),
                tags: turn.speaker.clone(),
            };
            let stored = store.insert(&entry)?;
            ids.insert(stored.id, turn.dia_id.clone());
        }
        loaded.push((session, ids));
    }
    Ok(loaded)
}

#[derive(Default)]
struct Totals {
    questions: usize,
    r1: f64,
    r5: f64,
    r10: f64,
    mrr: f64,
    latencies: Vec<Duration>,
}

impl Totals {
    fn add(&mut self, other: &Totals) {
        self.questions += other.questions;
        self.r1 += other.r1;
        self.r5 += other.r5;
        self.r10 += other.r10;
        self.mrr += other.mrr;
        self.latencies.extend(&other.latencies);
    }

    fn report(&self, name: &str) -> SplitReport {
        let n = self.questions.max(1) as f64;
        let r = |x: f64| (x / n * 1000.0).round() / 1000.0;
        SplitReport {
            name: name.to_string(),
            questions: self.questions,
            recall_at_1: r(self.r1),
            recall_at_5: r(self.r5),
            recall_at_10: r(self.r10),
            mrr: r(self.mrr),
            latency_p50_ms: quantile_ms(&self.latencies, 0.5),
            latency_p95_ms: quantile_ms(&self.latencies, 0.95),
        }
    }
}

/// Runs the benchmark on the LoCoMo file at `path` with `tuning`.
pub fn run(path: &Path, tuning: RecallTuning) -> Result<LocomoReport> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "reading {} (the LoCoMo file, locomo10.json)",
            path.display()
        )
    })?;
    let samples: Vec<Value> = serde_json::from_str(&text)
        .with_context(|| format!("{} is not LoCoMo's JSON", path.display()))?;
    if samples.len() < 10 {
        bail!(
            "{} has {} conversations, expected 10",
            path.display(),
            samples.len()
        );
    }
    let scratch = ScratchStore::new("bench-recall");
    let mut store = Store::open(scratch.path())?;
    store.set_recall_tuning(tuning);
    let loaded = load(&mut store, &samples)?;
    let turns = loaded.iter().map(|(_, ids)| ids.len()).sum();
    let now = ghost_store::now_ms();
    let mut per_conversation = Vec::new();
    for (sample, (session, ids)) in samples.iter().zip(&loaded) {
        let mut t = Totals::default();
        for q in questions_of(sample) {
            let query = RecallQuery {
                text: q.text.clone(),
                class: None,
                session: Some(session.clone()),
                limit: 10,
                full: false,
            };
            let started = Instant::now();
            let hits = store.recall(&query, now)?;
            t.latencies.push(started.elapsed());
            let ranked: Vec<&str> = hits
                .iter()
                .map(|h| ids.get(&h.id).map_or("", String::as_str))
                .collect();
            let found = |k: usize| {
                let top = &ranked[..k.min(ranked.len())];
                q.evidence
                    .iter()
                    .filter(|e| top.contains(&e.as_str()))
                    .count() as f64
                    / q.evidence.len() as f64
            };
            t.questions += 1;
            t.r1 += found(1);
            t.r5 += found(5);
            t.r10 += found(10);
            if let Some(rank) = ranked
                .iter()
                .position(|d| q.evidence.iter().any(|e| e == d))
            {
                t.mrr += 1.0 / (rank + 1) as f64;
            }
        }
        per_conversation.push(t);
    }
    let mut tune = Totals::default();
    let mut held_out = Totals::default();
    let mut all = Totals::default();
    for (i, t) in per_conversation.iter().enumerate() {
        if i < 5 { &mut tune } else { &mut held_out }.add(t);
        all.add(t);
    }
    Ok(LocomoReport {
        ranking: if tuning == RecallTuning::plain() {
            "plain"
        } else {
            "tuned"
        }
        .into(),
        turns,
        splits: vec![
            tune.report("conversations 0-4 (tuning)"),
            held_out.report("conversations 5-9 (held out)"),
            all.report("all"),
        ],
    })
}

/// The report as a table.
pub fn render(report: &LocomoReport) -> String {
    let mut out = format!(
        "LoCoMo recall, {} ranking, {} turns, categories 1-4\n{:<30} {:>9} {:>6} {:>6} {:>6} {:>6} {:>8} {:>8}\n",
        report.ranking,
        report.turns,
        "split",
        "questions",
        "R@1",
        "R@5",
        "R@10",
        "MRR",
        "p50 ms",
        "p95 ms"
    );
    for s in &report.splits {
        out.push_str(&format!(
            "{:<30} {:>9} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>8.3} {:>8.3}\n",
            s.name,
            s.questions,
            s.recall_at_1,
            s.recall_at_5,
            s.recall_at_10,
            s.mrr,
            s.latency_p50_ms,
            s.latency_p95_ms
        ));
    }
    out
}
