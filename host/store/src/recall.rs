//! Ranked search over the store: what the MCP `recall` tool, `ghost recall`
//! and `ghost bench recall` all call.
//!
//! Ranking ([`RecallTuning`]): FTS5's BM25 over the entry's original,
//! summary, source path (weight 2) and context (weight 0.6); multiplied by the
//! entry's priority weight ([`priority::recall_weight`]); multiplied by the
//! entity boost when the query names one of the entry's tags (a speaker, a
//! tool, a file). BM25 picks a candidate pool first, so the re-ranking never
//! scans the store.

use std::collections::HashSet;

use ghost_types::ContentClass;
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use crate::entry::{self, source_label};
use crate::query::{TextQuery, words};
use crate::snippet::best_line;
use crate::{Store, StoreError, priority};

/// How recall ranks. The default is what ghost uses; [`RecallTuning::plain`]
/// is a plain FTS5 OR query, the baseline `ghost bench recall --plain`
/// measures against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecallTuning {
    /// BM25 column weights: original, summary, source path, context, tags.
    pub column_weights: [f64; 5],
    /// Multiplier when the query names one of the entry's tags (a speaker,
    /// a tool, a file).
    pub entity_boost: f64,
    /// Drop stop words from the query.
    pub drop_stop_words: bool,
}

impl Default for RecallTuning {
    /// Tuned on LoCoMo conversations 0–4 only.
    fn default() -> Self {
        Self {
            column_weights: [1.0, 1.0, 2.0, 0.6, 0.0],
            entity_boost: 2.0,
            drop_stop_words: true,
        }
    }
}

impl RecallTuning {
    /// Every word OR-ed, BM25 over the texts only, no boost.
    pub fn plain() -> Self {
        Self {
            column_weights: [1.0, 1.0, 1.0, 0.0, 0.0],
            entity_boost: 1.0,
            drop_stop_words: false,
        }
    }
}

/// How many characters of an entry's summary a hit carries.
pub const SUMMARY_PREVIEW_CHARS: usize = 600;

/// A recall request.
#[derive(Debug, Clone)]
pub struct RecallQuery {
    /// What to look for, in words (any punctuation is fine).
    pub text: String,
    /// Only entries of this class.
    pub class: Option<ContentClass>,
    /// Only entries of this session.
    pub session: Option<String>,
    /// At most this many hits.
    pub limit: usize,
    /// Return the originals too (and count it as reading them).
    pub full: bool,
}

impl RecallQuery {
    /// A query for `text` with the defaults: any class, any session, 5 hits.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            class: None,
            session: None,
            limit: 5,
            full: false,
        }
    }
}

/// One recalled entry.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RecallHit {
    /// The entry's id: pass it to `get`.
    pub id: String,
    /// Relevance (higher is better).
    pub score: f64,
    /// Content class.
    pub class: ContentClass,
    /// The session it belongs to.
    pub session_id: String,
    /// Where it came from (tool and path).
    pub source: String,
    /// Seconds since it was stored.
    pub age_seconds: i64,
    /// Tokens of the original.
    pub original_tokens: i64,
    /// Tokens of the summary.
    pub summary_tokens: i64,
    /// The line of the original that matched best (1-based), if one did.
    pub line: Option<usize>,
    /// That line (or the summary's start when only the path matched).
    pub snippet: String,
    /// The start of what the agent saw (the compressed text).
    pub summary: String,
    /// Whether `summary` was cut.
    pub summary_truncated: bool,
    /// The full original, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original: Option<String>,
}

/// At most this many matching entries are ranked by BM25 per query (FTS5
/// scores every match, so this bounds recall's latency on a large store).
/// The phrases of a query go in rarest first while their matches add up to
/// no more than this: the commonest words, which weigh least in BM25, are
/// the ones left out. When the rarest phrase alone matches more, the newest
/// matches are taken and ranked by priority alone.
pub const RANKED_MATCHES: usize = 2_000;

/// What the ranking pass searches.
struct Plan {
    /// The MATCH expression.
    fts: String,
    /// Even the rarest phrase matches more than [`RANKED_MATCHES`] entries:
    /// too common for BM25 to tell them apart (and FTS5 would scan all of
    /// them), so the newest matches are taken, all equally relevant.
    too_common: bool,
}

/// A candidate from the BM25 pass.
struct Candidate {
    rowid: i64,
    score: f64,
    priority: f64,
    tags: String,
}

impl Store {
    /// Searches the active entries for `query` at time `now`.
    ///
    /// Never fails on what the user typed: a query with no searchable word
    /// returns no hits.
    pub fn recall(&mut self, query: &RecallQuery, now: i64) -> Result<Vec<RecallHit>, StoreError> {
        let tuning = self.recall_tuning();
        let parsed = if tuning.drop_stop_words {
            TextQuery::parse(&query.text)
        } else {
            TextQuery::parse_keeping_stop_words(&query.text)
        };
        if parsed.is_empty() || query.limit == 0 {
            return Ok(Vec::new());
        }
        let Some(plan) = self.plan(&parsed)? else {
            return Ok(Vec::new());
        };
        let query_words: Vec<&str> = parsed.words().collect();
        let named: HashSet<&str> = query_words.iter().copied().collect();
        let mut candidates = self.candidates(&plan, query, &tuning, now)?;
        for c in &mut candidates {
            c.score *= priority::recall_weight(c.priority);
            if words(&c.tags).iter().any(|t| named.contains(t.as_str())) {
                c.score *= tuning.entity_boost;
            }
        }
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.rowid.cmp(&a.rowid)));
        candidates.truncate(query.limit);
        let hits = candidates
            .iter()
            .map(|c| self.hit(c, &query_words, query.full, now))
            .collect::<Result<Vec<_>, _>>()?;
        if query.full {
            let ids: Vec<&str> = hits.iter().map(|h| h.id.as_str()).collect();
            self.touch(&ids, now)?;
        }
        Ok(hits)
    }

    /// Bounds the work of ranking (see [`RANKED_MATCHES`]): the phrases
    /// that match, rarest first, as long as together they match at most
    /// that many entries; when even the rarest matches more, the most recent
    /// ones only.
    fn plan(&self, parsed: &TextQuery) -> Result<Option<Plan>, StoreError> {
        let cap = RANKED_MATCHES as i64;
        let mut counted: Vec<(i64, String)> = Vec::new();
        {
            let mut count = self.conn().prepare_cached(
                "SELECT count(*) FROM (SELECT 1 FROM entries_fts WHERE entries_fts MATCH ?1 LIMIT ?2)",
            )?;
            for phrase in parsed.phrase_fts() {
                let n: i64 = count.query_row(params![phrase, cap + 1], |r| r.get(0))?;
                if n > 0 {
                    counted.push((n, phrase));
                }
            }
        }
        counted.sort();
        let mut total = 0;
        let mut included = Vec::new();
        for (n, phrase) in counted {
            if included.is_empty() || total + n <= cap {
                total += n;
                included.push(phrase);
            }
        }
        if included.is_empty() {
            return Ok(None);
        }
        Ok(Some(Plan {
            fts: included.join(" OR "),
            too_common: total > cap,
        }))
    }

    /// The best `pool` entries by BM25 alone. Without a session or class
    /// filter the ranking never touches the entries table: SQLite scores
    /// the index's matches and only the pool's rows are looked up after.
    fn candidates(
        &self,
        plan: &Plan,
        query: &RecallQuery,
        tuning: &RecallTuning,
        now: i64,
    ) -> Result<Vec<Candidate>, StoreError> {
        let pool = (query.limit * 4).max(40) as i64;
        let [w0, w1, w2, w3, w4] = tuning.column_weights;
        let bm25 = format!("bm25(entries_fts, {w0}, {w1}, {w2}, {w3}, {w4})");
        let filtered = query.session.is_some() || query.class.is_some();
        // Equal relevance, newest first, when the phrase is too common.
        let (score, order) = if plan.too_common {
            ("-1.0".to_string(), "f.rowid DESC")
        } else {
            (bm25, "bm")
        };
        let bm25 = score;
        let sql = if filtered {
            format!(
                "SELECT f.rowid, {bm25} AS bm FROM entries_fts f
                 JOIN entries e ON e.rowid = f.rowid
                 WHERE entries_fts MATCH ?1
                   AND (?2 IS NULL OR e.session_id = ?2)
                   AND (?3 IS NULL OR e.class = ?3)
                 ORDER BY {order} LIMIT ?4"
            )
        } else {
            format!(
                "SELECT f.rowid, {bm25} AS bm FROM entries_fts f
                 WHERE entries_fts MATCH ?1 AND ?2 IS NULL AND ?3 IS NULL
                 ORDER BY {order} LIMIT ?4"
            )
        };
        let ranked: Vec<(i64, f64)> = {
            let mut stmt = self.conn().prepare_cached(&sql)?;
            let class = query.class.map(ContentClass::as_str);
            let rows = stmt.query_map(params![plan.fts, query.session, class, pool], |r| {
                // BM25 in FTS5 is negative: more negative is better.
                Ok((r.get(0)?, -r.get::<_, f64>(1)?))
            })?;
            rows.collect::<Result<_, _>>()?
        };
        let mut meta = self.conn().prepare_cached(
            "SELECT priority, tags FROM entries WHERE rowid = ?1
               AND (ttl_seconds IS NULL OR created_at + ttl_seconds * 1000 > ?2)",
        )?;
        let mut candidates = Vec::with_capacity(ranked.len());
        for (rowid, score) in ranked {
            // Past its TTL but not yet expired by maintenance: skip it.
            if let Some((priority, tags)) = meta
                .query_row(params![rowid, now], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?
            {
                candidates.push(Candidate {
                    rowid,
                    score,
                    priority,
                    tags,
                });
            }
        }
        Ok(candidates)
    }

    fn hit(
        &self,
        c: &Candidate,
        words: &[&str],
        full: bool,
        now: i64,
    ) -> Result<RecallHit, StoreError> {
        self.conn()
            .query_row(
                "SELECT id, class, session_id, source_tool, source_path, created_at,
                    original_tokens, summary_tokens, summary, original
                 FROM entries WHERE rowid = ?1",
                [c.rowid],
                |r| {
                    let tool: Option<String> = r.get(3)?;
                    let path: Option<String> = r.get(4)?;
                    let summary: String = r.get(8)?;
                    let original: String = r.get(9)?;
                    let (line, snippet) = match best_line(&original, words) {
                        Some((n, s)) => (Some(n), s),
                        None => (None, preview(&summary, 160).0),
                    };
                    let (summary, summary_truncated) = preview(&summary, SUMMARY_PREVIEW_CHARS);
                    Ok(RecallHit {
                        id: r.get(0)?,
                        score: (c.score * 1000.0).round() / 1000.0,
                        class: entry::class_at(r, 1)?,
                        session_id: r.get(2)?,
                        source: source_label(tool.as_deref(), path.as_deref()),
                        age_seconds: ((now - r.get::<_, i64>(5)?) / 1000).max(0),
                        original_tokens: r.get(6)?,
                        summary_tokens: r.get(7)?,
                        line,
                        snippet,
                        summary,
                        summary_truncated,
                        original: full.then_some(original),
                    })
                },
            )
            .map_err(StoreError::from)
    }
}

/// The first `max_chars` characters of `text`, cut at a line end when one
/// is near, and whether anything was cut.
pub fn preview(text: &str, max_chars: usize) -> (String, bool) {
    let Some((cut, _)) = text.char_indices().nth(max_chars) else {
        return (text.to_string(), false);
    };
    let head = &text[..cut];
    let head = match head.rfind('\n') {
        Some(nl) if nl > cut / 2 => &head[..nl],
        _ => head,
    };
    (format!("{head}…"), true)
}

#[cfg(test)]
mod tests {
    use super::preview;

    #[test]
    fn previews_cut_at_a_line_end_and_on_char_boundaries() {
        assert_eq!(preview("short", 10), ("short".into(), false));
        let (p, cut) = preview("line one\nline two is long", 12);
        assert!(cut);
        assert_eq!(p, "line one…");
        let (p, _) = preview("ééééé", 2);
        assert_eq!(p, "éé…");
    }
}
