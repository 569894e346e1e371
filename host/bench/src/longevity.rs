//! `ghost bench longevity TRANSCRIPT.jsonl…`: how much longer a session
//! runs before compaction with the gateway gardening its window, and what
//! it costs with the prompt cache counted.
//!
//! Each transcript's main chain is turned back into the sequence of
//! Messages requests Claude Code sent (one per reply: every message before
//! it, an answer's blocks merged by message id, tool results merged into one
//! user message, a compaction starting over), and every request goes, in
//! order, through the gateway's own transform ([`Gardener::garden`]) on a
//! scratch store, with the usage fed back as upstream would report it.
//!
//! Tokens: no public tokenizer is Claude's, so a request's context is
//! modelled as `C + s × T`, where `T` is the o200k_base tokens of its
//! messages (each message serialised as JSON, as on the wire), `s` one scale
//! per session fitted on the run without ghost against the recorded usage,
//! and `C` the system prompt and tools, inferred from the first reply's
//! recorded usage. The validation is how far that model is from the
//! recorded usage (median relative error).
//!
//! Longevity: the reply at which the context crosses the compaction
//! threshold (83.5% of the window: the shared transcripts compact at about
//! 165–167k of 200k), with ghost ÷ without, per compaction cycle,
//! extrapolated from the cycle's growth rate where it ends first.
//!
//! Cost: for each request, the cached prefix is the longest run of leading
//! messages identical to the previous request's, if it came within the
//! cache's time to live (1 hour when the session's usage shows the 1-hour
//! cache, else 5 minutes); Claude Code marks the cache near the end of the
//! conversation, so the rest is written to the cache. Billed input-token
//! equivalents = 1.25 × cache writes + 0.1 × cache reads.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ghost_core::config::Config;
use ghost_core::pipeline::Pipeline;
use ghost_gateway::gardener::{GardenPolicy, Gardener, RequestInfo};
use serde::Serialize;
use serde_json::{Value, json};

use crate::ScratchStore;

/// The share of the window at which Claude Code compacts.
pub const COMPACTION_SHARE: f64 = 0.835;

/// Compaction cycles shorter than this many replies are too short to tell
/// a growth rate from.
pub const MIN_CYCLE_REPLIES: usize = 20;

/// One session's figures.
#[derive(Debug, Clone, Serialize)]
pub struct SessionLongevity {
    /// The transcript.
    pub file: String,
    /// Replies (requests) replayed.
    pub replies: usize,
    /// Median relative error of the modelled context against the recorded
    /// usage, without ghost.
    pub usage_error: f64,
    /// The reply at which the first cycle crosses the compaction threshold
    /// without ghost (fractional when extrapolated).
    pub compaction_reply_without: f64,
    /// The same with ghost.
    pub compaction_reply_with: f64,
    /// Replies before the threshold with ghost ÷ without, over every cycle.
    pub longevity: f64,
    /// Billed input-token equivalents without ghost.
    pub cost_without: f64,
    /// With ghost.
    pub cost_with: f64,
    /// Garbage-collection steps the gardener took.
    pub gc_steps: usize,
    /// Requests whose cached prefix broke before the previous request's end
    /// (with ghost; without ghost a prefix breaks only when the cache has
    /// gone cold).
    pub cache_breaks: usize,
    /// The fitted model: tokens of the system prompt and tools…
    pub constant_tokens: f64,
    /// …and the scale of o200k tokens to the recorded ones.
    pub scale: f64,
    /// Each compaction cycle: (replies before the threshold without, with).
    pub cycles: Vec<(f64, f64)>,
}

/// Every session together.
#[derive(Debug, Clone, Serialize)]
pub struct Overall {
    /// Replies before the threshold with ghost ÷ without, over every cycle
    /// of every session.
    pub longevity: f64,
    /// Billed input with ghost ÷ without.
    pub cost_ratio: f64,
    /// The median of the sessions' usage errors.
    pub usage_error: f64,
    /// Compaction cycles long enough to measure ([`MIN_CYCLE_REPLIES`]);
    /// with none, longevity is 1.
    pub cycles_measured: usize,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct LongevityReport {
    /// Per session.
    pub sessions: Vec<SessionLongevity>,
    /// Over all of them.
    pub overall: Overall,
}

/// One request as replayed: its messages and what the transcript recorded.
struct Replayed {
    cycle: usize,
    at_ms: i64,
    recorded: Option<i64>,
}

/// A transcript's main chain, rebuilt as the requests Claude Code sent.
struct Session {
    id: String,
    model: String,
    one_hour_cache: bool,
    window: i64,
    /// The message list as it stood before each reply.
    requests: Vec<(Replayed, Vec<Value>)>,
}

/// Reads `file`'s main chain into its requests.
fn read_session(file: &Path) -> Result<Session> {
    let text = std::fs::read_to_string(file)?;
    let mut session = Session {
        id: file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        model: "claude".into(),
        one_hour_cache: false,
        window: 200_000,
        requests: Vec::new(),
    };
    let mut messages: Vec<Value> = Vec::new();
    // The open answer's message id and its index in `messages`.
    let mut answers: HashMap<String, usize> = HashMap::new();
    let mut cycle = 0;
    let mut most = 0;
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v["isSidechain"] == json!(true) || !v["agentId"].is_null() {
            continue;
        }
        if let Some(id) = v["sessionId"].as_str() {
            session.id = id.to_string();
        }
        if v["subtype"] == "compact_boundary" {
            messages.clear();
            answers.clear();
            cycle += 1;
            continue;
        }
        let message = &v["message"];
        match v["type"].as_str() {
            Some("assistant") => {
                let Some(id) = message["id"].as_str() else {
                    continue;
                };
                let blocks = message["content"].as_array().cloned().unwrap_or_default();
                if let Some(&at) = answers.get(id) {
                    append(&mut messages[at], blocks);
                    continue;
                }
                // A new answer: the request that asked for it is every
                // message so far.
                let usage = &message["usage"];
                let recorded = [
                    "input_tokens",
                    "cache_creation_input_tokens",
                    "cache_read_input_tokens",
                ]
                .iter()
                .filter_map(|k| usage[*k].as_i64())
                .reduce(|a, b| a + b);
                if usage["cache_creation"]["ephemeral_1h_input_tokens"]
                    .as_i64()
                    .unwrap_or(0)
                    > 0
                {
                    session.one_hour_cache = true;
                }
                if let Some(m) = message["model"].as_str() {
                    session.model = m.to_string();
                }
                most = most.max(recorded.unwrap_or(0));
                if !messages.is_empty() {
                    session.requests.push((
                        Replayed {
                            cycle,
                            at_ms: timestamp_ms(&v["timestamp"]),
                            recorded,
                        },
                        messages.clone(),
                    ));
                }
                answers.insert(id.to_string(), messages.len());
                messages.push(json!({"role": "assistant", "content": blocks}));
            }
            Some("user") => {
                let content = match &message["content"] {
                    Value::String(s) => vec![json!({"type": "text", "text": s})],
                    Value::Array(a) => a.clone(),
                    _ => continue,
                };
                match messages.last_mut() {
                    Some(last) if last["role"] == "user" => append(last, content),
                    _ => messages.push(json!({"role": "user", "content": content})),
                }
            }
            _ => {}
        }
    }
    if most > 200_000 {
        session.window = 1_000_000;
    }
    Ok(session)
}

fn append(message: &mut Value, blocks: Vec<Value>) {
    if let Some(content) = message["content"].as_array_mut() {
        content.extend(blocks);
    }
}

fn timestamp_ms(v: &Value) -> i64 {
    // `2026-02-11T20:36:45.618Z`: days from the civil date, then the time.
    let Some(s) = v.as_str() else { return 0 };
    let num = |r: std::ops::Range<usize>| s.get(r).and_then(|x| x.parse::<i64>().ok());
    let (Some(y), Some(mo), Some(d), Some(h), Some(mi)) =
        (num(0..4), num(5..7), num(8..10), num(11..13), num(14..16))
    else {
        return 0;
    };
    let secs: f64 = s
        .get(17..)
        .map_or(0.0, |r| r.trim_end_matches('Z').parse().unwrap_or(0.0));
    let (y, m) = if mo <= 2 {
        (y - 1, mo + 9)
    } else {
        (y, mo - 3)
    };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    (days * 86_400 + h * 3_600 + mi * 60) * 1_000 + (secs * 1_000.0) as i64
}

/// Token counts of messages, each counted once.
#[derive(Default)]
struct Counter {
    counted: HashMap<blake3::Hash, usize>,
}

impl Counter {
    /// The o200k tokens of each message (its JSON without the cache
    /// markers, which are not content), in order.
    fn messages(&mut self, messages: &[Value]) -> Vec<(blake3::Hash, usize)> {
        messages
            .iter()
            .map(|m| {
                let mut m = m.clone();
                for block in m["content"].as_array_mut().into_iter().flatten() {
                    if let Some(b) = block.as_object_mut() {
                        b.remove("cache_control");
                    }
                }
                let text = m.to_string();
                let hash = blake3::hash(text.as_bytes());
                let n = *self
                    .counted
                    .entry(hash)
                    .or_insert_with(|| ghost_core::tokens::count(&text));
                (hash, n)
            })
            .collect()
    }
}

/// The request body Claude Code would send for `messages`.
fn body(session: &Session, messages: &[Value]) -> Vec<u8> {
    let mut messages = messages.to_vec();
    // Claude Code marks the cache on the conversation's last block.
    if let Some(last) = messages
        .last_mut()
        .and_then(|m| m["content"].as_array_mut())
        .and_then(|c| c.last_mut())
        && let Some(block) = last.as_object_mut()
    {
        let mut marker = json!({"type": "ephemeral"});
        if session.one_hour_cache {
            marker["ttl"] = json!("1h");
        }
        block.insert("cache_control".into(), marker);
    }
    let user_id =
        json!({"device_id": "bench", "account_uuid": "", "session_id": session.id}).to_string();
    json!({
        "model": session.model,
        "max_tokens": 32000,
        "metadata": {"user_id": user_id},
        "messages": messages,
        "stream": true,
    })
    .to_string()
    .into_bytes()
}

/// The request bodies Claude Code sent in the session of `file` (its main
/// chain, one per reply), in order: what a benchmark of the gateway feeds
/// it.
pub fn request_bodies(file: &Path) -> Result<Vec<Vec<u8>>> {
    let session = read_session(file)?;
    Ok(session
        .requests
        .iter()
        .map(|(_, messages)| body(&session, messages))
        .collect())
}

/// The messages of a request body.
fn messages_of(body: &[u8]) -> Vec<Value> {
    serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|v| v["messages"].as_array().cloned())
        .unwrap_or_default()
}

/// A cost model's running state: the previous request's message hashes and
/// when it went.
#[derive(Default)]
struct Cache {
    previous: Vec<blake3::Hash>,
    at_ms: i64,
    cost: f64,
    breaks: usize,
}

impl Cache {
    /// Bills one request of `counts` at `at_ms` (context = C + s × tokens).
    fn bill(
        &mut self,
        counts: &[(blake3::Hash, usize)],
        at_ms: i64,
        ttl_ms: i64,
        model: (f64, f64),
    ) {
        let (c, s) = model;
        let total = c + s * counts.iter().map(|(_, n)| *n as f64).sum::<f64>();
        let warm = !self.previous.is_empty() && at_ms - self.at_ms <= ttl_ms;
        let prefix = if warm {
            let same = counts
                .iter()
                .zip(&self.previous)
                .take_while(|((h, _), p)| h == *p)
                .count();
            if same < self.previous.len() {
                self.breaks += 1;
            }
            c + s * counts[..same].iter().map(|(_, n)| *n as f64).sum::<f64>()
        } else {
            0.0
        };
        self.cost += 1.25 * (total - prefix) + 0.1 * prefix;
        self.previous = counts.iter().map(|(h, _)| *h).collect();
        self.at_ms = at_ms;
    }
}

/// Replays `files` through a gardener with `policy`; `make_pipeline` gives
/// it the compressors.
pub fn run(
    files: &[PathBuf],
    policy: &GardenPolicy,
    make_pipeline: &dyn Fn() -> Result<Pipeline>,
) -> Result<LongevityReport> {
    let mut sessions = Vec::new();
    for file in files {
        let s = session(file, policy, make_pipeline)
            .with_context(|| format!("replaying {}", file.display()))?;
        if let Some(s) = s {
            sessions.push(s);
        }
    }
    let (r0, r1): (f64, f64) = sessions
        .iter()
        .flat_map(|s| &s.cycles)
        .fold((0.0, 0.0), |(a, b), (w, g)| (a + w, b + g));
    let cost_without: f64 = sessions.iter().map(|s| s.cost_without).sum();
    let cost_with: f64 = sessions.iter().map(|s| s.cost_with).sum();
    let cycles_measured = sessions.iter().map(|s| s.cycles.len()).sum();
    let overall = Overall {
        cycles_measured,
        longevity: if cycles_measured == 0 {
            1.0
        } else {
            round3(r1 / r0)
        },
        cost_ratio: round3(cost_with / cost_without.max(1.0)),
        usage_error: round3(median(sessions.iter().map(|s| s.usage_error).collect())),
    };
    Ok(LongevityReport { sessions, overall })
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One session; `None` when it has no reply with usage.
fn session(
    file: &Path,
    policy: &GardenPolicy,
    make_pipeline: &dyn Fn() -> Result<Pipeline>,
) -> Result<Option<SessionLongevity>> {
    let session = read_session(file)?;
    if session.requests.is_empty() {
        return Ok(None);
    }
    let mut counter = Counter::default();
    // Without ghost: the tokens of each request's messages, to fit the model.
    let without: Vec<Vec<(blake3::Hash, usize)>> = session
        .requests
        .iter()
        .map(|(_, messages)| counter.messages(messages))
        .collect();
    let totals: Vec<f64> = without
        .iter()
        .map(|c| c.iter().map(|(_, n)| *n as f64).sum())
        .collect();
    let (c, s) = fit(&session, &totals);
    let modelled = |t: f64| c + s * t;
    let errors: Vec<f64> = session
        .requests
        .iter()
        .zip(&totals)
        .filter_map(|((r, _), t)| {
            r.recorded
                .filter(|u| *u > 0)
                .map(|u| ((modelled(*t) - u as f64) / u as f64).abs())
        })
        .collect();
    // With ghost: every request through the gardener, in order.
    let scratch = ScratchStore::new("bench-longevity");
    let mut gardener = Gardener::new(
        scratch.path().to_path_buf(),
        Config::default(),
        make_pipeline()?,
        policy.clone(),
    )?;
    let ttl_ms = if session.one_hour_cache {
        3_600_000
    } else {
        300_000
    };
    let (mut cache_without, mut cache_with) = (Cache::default(), Cache::default());
    let mut with_totals = Vec::with_capacity(totals.len());
    let mut gc_steps = 0;
    let mut cycle_seen = usize::MAX;
    for ((replayed, messages), counts) in session.requests.iter().zip(&without) {
        if replayed.cycle != cycle_seen {
            // A compaction: the next request shares no prefix with the last.
            cache_without.previous.clear();
            cache_with.previous.clear();
            cycle_seen = replayed.cycle;
        }
        let sent = body(&session, messages);
        let info = RequestInfo {
            session_header: Some(session.id.clone()),
            beta: None,
            now: replayed.at_ms,
        };
        let gardened = gardener.garden(&sent, &info);
        gc_steps += usize::from(gardened.gc_step.is_some());
        let with_counts = match &gardened.body {
            Some(b) => counter.messages(&messages_of(b)),
            None => counts.clone(),
        };
        let with_total: f64 = with_counts.iter().map(|(_, n)| *n as f64).sum();
        if let Some(conversation) = &gardened.conversation {
            gardener.record_usage(conversation, modelled(with_total) as i64);
        }
        with_totals.push(with_total);
        cache_without.bill(counts, replayed.at_ms, ttl_ms, (c, s));
        cache_with.bill(&with_counts, replayed.at_ms, ttl_ms, (c, s));
    }
    // Longevity per compaction cycle.
    let threshold = COMPACTION_SHARE * session.window as f64;
    let mut cycles = Vec::new();
    let mut first_cycle = None;
    let mut start = 0;
    while start < totals.len() {
        let cycle = session.requests[start].0.cycle;
        let end = (start..totals.len())
            .find(|&i| session.requests[i].0.cycle != cycle)
            .unwrap_or(totals.len());
        let w: Vec<f64> = totals[start..end].iter().map(|t| modelled(*t)).collect();
        let g: Vec<f64> = with_totals[start..end]
            .iter()
            .map(|t| modelled(*t))
            .collect();
        if w.len() >= MIN_CYCLE_REPLIES {
            let pair = (crossing(&w, threshold), crossing(&g, threshold));
            first_cycle.get_or_insert(pair);
            cycles.push(pair);
        }
        start = end;
    }
    let (r0, r1) = cycles
        .iter()
        .fold((0.0, 0.0), |(a, b), (w, g)| (a + w, b + g));
    let (first_without, first_with) = first_cycle.unwrap_or((0.0, 0.0));
    Ok(Some(SessionLongevity {
        file: file.display().to_string(),
        replies: session.requests.len(),
        usage_error: round3(median(errors)),
        compaction_reply_without: round3(first_without),
        compaction_reply_with: round3(first_with),
        longevity: round3(if r0 > 0.0 { r1 / r0 } else { 1.0 }),
        cost_without: cache_without.cost.round(),
        cost_with: cache_with.cost.round(),
        gc_steps,
        cache_breaks: cache_with.breaks,
        constant_tokens: c.round(),
        scale: round3(s),
        cycles: cycles
            .iter()
            .map(|(a, b)| (round3(*a), round3(*b)))
            .collect(),
    }))
}

/// The model `recorded ≈ C + s × T`: `s` fitted by least squares on every
/// request of the session against the first one, `C` from the first.
fn fit(session: &Session, totals: &[f64]) -> (f64, f64) {
    let pairs: Vec<(f64, f64)> = session
        .requests
        .iter()
        .zip(totals)
        .filter_map(|((r, _), t)| r.recorded.filter(|u| *u > 0).map(|u| (*t, u as f64)))
        .collect();
    let Some(&(t1, u1)) = pairs.first() else {
        return (0.0, 1.0);
    };
    let (num, den) = pairs.iter().fold((0.0, 0.0), |(n, d), (t, u)| {
        (n + (t - t1) * (u - u1), d + (t - t1) * (t - t1))
    });
    let s = if den > 0.0 { num / den } else { 1.0 };
    (u1 - s * t1, s)
}

/// The reply (1-based) at which `series` reaches `threshold`; past its end,
/// extrapolated at its average growth per reply.
fn crossing(series: &[f64], threshold: f64) -> f64 {
    if let Some(i) = series.iter().position(|v| *v >= threshold) {
        return (i + 1) as f64;
    }
    let n = series.len();
    let (first, last) = (series[0], series[n - 1]);
    let slope = (last - first) / (n - 1).max(1) as f64;
    if slope <= 0.0 {
        // Never grows: say ten times as long, rather than forever.
        return n as f64 * 10.0;
    }
    n as f64 + (threshold - last) / slope
}

/// The report as a table.
pub fn render(r: &LongevityReport) -> String {
    let mut out = format!(
        "{:<40} {:>7} {:>7} {:>9} {:>9} {:>9} {:>12} {:>12} {:>6} {:>5} {:>6}\n",
        "session",
        "replies",
        "usage±",
        "compact0",
        "compact1",
        "longevity",
        "cost without",
        "cost with",
        "ratio",
        "steps",
        "breaks"
    );
    for s in &r.sessions {
        let name = Path::new(&s.file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push_str(&format!(
            "{:<40} {:>7} {:>6.1}% {:>9.1} {:>9.1} {:>9.2} {:>12.0} {:>12.0} {:>6.3} {:>5} {:>6}\n",
            name,
            s.replies,
            s.usage_error * 100.0,
            s.compaction_reply_without,
            s.compaction_reply_with,
            s.longevity,
            s.cost_without,
            s.cost_with,
            s.cost_with / s.cost_without.max(1.0),
            s.gc_steps,
            s.cache_breaks,
        ));
    }
    out.push_str(&format!(
        "overall: longevity {:.2} · cost ratio {:.3} · usage error {:.1}%\n",
        r.overall.longevity,
        r.overall.cost_ratio,
        r.overall.usage_error * 100.0
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_unix_milliseconds() {
        assert_eq!(timestamp_ms(&json!("1970-01-01T00:00:01.500Z")), 1_500);
        assert_eq!(
            timestamp_ms(&json!("2026-02-11T20:36:45.618Z")),
            1_770_842_205_618
        );
    }

    #[test]
    fn crossings_are_found_or_extrapolated() {
        assert_eq!(crossing(&[1.0, 5.0, 10.0], 5.0), 2.0);
        assert_eq!(crossing(&[0.0, 1.0, 2.0], 4.0), 5.0);
        assert_eq!(crossing(&[3.0, 3.0], 4.0), 20.0);
    }

    #[test]
    fn prefixes_are_cached_only_while_warm() {
        let h = |s: &str| blake3::hash(s.as_bytes());
        let mut cache = Cache::default();
        let a = vec![(h("a"), 100), (h("b"), 100)];
        cache.bill(&a, 0, 1_000, (0.0, 1.0));
        assert_eq!(cache.cost, 250.0);
        let b = vec![(h("a"), 100), (h("b"), 100), (h("c"), 100)];
        cache.bill(&b, 500, 1_000, (0.0, 1.0));
        assert_eq!(cache.cost, 250.0 + 125.0 + 20.0);
        assert_eq!(cache.breaks, 0);
        let changed = vec![(h("x"), 10), (h("b"), 100), (h("c"), 100)];
        cache.bill(&changed, 700, 1_000, (0.0, 1.0));
        assert_eq!(cache.breaks, 1);
        cache.bill(&changed, 5_000, 1_000, (0.0, 1.0));
        assert_eq!(cache.breaks, 1, "a cold cache is no break");
    }
}
