//! What the store can tell about itself: context pressure for a session and
//! statistics for the whole store.

use std::collections::BTreeMap;

use ghost_types::ContentClass;
use rusqlite::params;
use serde::Serialize;

use crate::entry::{self, source_label};
use crate::gateway::GatewaySavings;
use crate::session::ContextReading;
use crate::{Store, StoreError, schema};

/// How full a session's context window is, and what ghost holds for it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Pressure {
    /// The session described; `None` when the store has no session yet.
    pub session: Option<String>,
    /// Active entries ghost holds for it.
    pub entries: i64,
    /// Tokens of their originals.
    pub original_tokens: i64,
    /// Tokens of what the agent saw instead.
    pub summary_tokens: i64,
    /// `summary_tokens / original_tokens` (1.0 when there is nothing).
    pub ratio: f64,
    /// The same per class.
    pub by_class: BTreeMap<ContentClass, ClassTotals>,
    /// How full the context window is.
    pub context: ContextReading,
    /// The lowest-priority entries: what can go first.
    pub eviction_candidates: Vec<EvictionCandidate>,
    /// What ghost's gateway did for the session, when it saw it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gateway: Option<GatewaySavings>,
    /// One line saying what to do.
    pub recommendation: String,
}

/// Count and tokens of one class.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct ClassTotals {
    /// Entries.
    pub count: i64,
    /// Original tokens.
    pub orig: i64,
    /// Summary tokens.
    pub sum: i64,
    /// `sum / orig`.
    pub ratio: f64,
}

/// An entry that could be dropped first.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct EvictionCandidate {
    /// Its id.
    pub id: String,
    /// Its class.
    pub class: ContentClass,
    /// Where it came from.
    pub source: String,
    /// Its priority.
    pub priority: f64,
    /// Tokens it takes in the context (its summary).
    pub summary_tokens: i64,
}

/// The whole store in figures.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Stats {
    /// The store's file.
    pub path: String,
    /// Bytes on disk (with the write-ahead log).
    pub bytes_on_disk: u64,
    /// Schema version.
    pub schema_version: u32,
    /// Active entries.
    pub entries: i64,
    /// Forgotten or expired entries not yet purged by `ghost gc`.
    pub forgotten: i64,
    /// Sessions seen.
    pub sessions: i64,
    /// Tokens of every original stored.
    pub original_tokens: i64,
    /// Tokens of what the agents saw instead.
    pub summary_tokens: i64,
    /// `original − summary`.
    pub saved_tokens: i64,
    /// Per day (UTC), newest first, the last 30 days with activity.
    pub per_day: Vec<DayStats>,
    /// What ghost's gateway did, over every session.
    pub gateway: GatewaySavings,
}

/// One day of [`Stats`].
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DayStats {
    /// `YYYY-MM-DD`, UTC.
    pub date: String,
    /// Entries stored that day.
    pub entries: i64,
    /// Their original tokens.
    pub original_tokens: i64,
    /// Tokens saved.
    pub saved_tokens: i64,
}

fn ratio(part: i64, whole: i64) -> f64 {
    if whole <= 0 {
        return 1.0;
    }
    (part as f64 / whole as f64 * 1000.0).round() / 1000.0
}

impl Store {
    /// Context pressure of `session` (the most recent session when `None`).
    pub fn pressure(&self, session: Option<&str>, now: i64) -> Result<Pressure, StoreError> {
        let session = match session {
            Some(s) => Some(s.to_string()),
            None => self.latest_session()?,
        };
        let mut by_class: BTreeMap<ContentClass, ClassTotals> = BTreeMap::new();
        {
            let mut stmt = self.conn().prepare_cached(
                "SELECT class, count(*), sum(original_tokens), sum(summary_tokens)
                 FROM entries WHERE active AND session_id = ?1 GROUP BY class",
            )?;
            let rows = stmt.query_map([&session], |r| {
                Ok((entry::class_at(r, 0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?;
            for row in rows {
                let (class, count, orig, sum) = row?;
                by_class.insert(
                    class,
                    ClassTotals {
                        count,
                        orig,
                        sum,
                        ratio: ratio(sum, orig),
                    },
                );
            }
        }
        let entries = by_class.values().map(|c| c.count).sum();
        let original_tokens: i64 = by_class.values().map(|c| c.orig).sum();
        let summary_tokens: i64 = by_class.values().map(|c| c.sum).sum();
        let context = self
            .session_context()
            .reading(session.as_deref(), summary_tokens, now)?;
        let eviction_candidates = self.eviction_candidates(session.as_deref())?;
        let gateway = match session.as_deref() {
            Some(s) => Some(self.gateway_state().savings(s)?).filter(|g| g.requests > 0),
            None => None,
        };
        let recommendation = recommend(&context, entries, original_tokens, &eviction_candidates);
        Ok(Pressure {
            session,
            entries,
            original_tokens,
            summary_tokens,
            ratio: ratio(summary_tokens, original_tokens),
            by_class,
            context,
            eviction_candidates,
            gateway,
            recommendation,
        })
    }

    fn eviction_candidates(
        &self,
        session: Option<&str>,
    ) -> Result<Vec<EvictionCandidate>, StoreError> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT id, class, source_tool, source_path, priority, summary_tokens
             FROM entries WHERE active AND session_id = ?1
             ORDER BY priority ASC, summary_tokens DESC LIMIT 5",
        )?;
        let rows = stmt.query_map([session], |r| {
            let tool: Option<String> = r.get(2)?;
            let path: Option<String> = r.get(3)?;
            Ok(EvictionCandidate {
                id: r.get(0)?,
                class: entry::class_at(r, 1)?,
                source: source_label(tool.as_deref(), path.as_deref()),
                priority: (r.get::<_, f64>(4)? * 10.0).round() / 10.0,
                summary_tokens: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Figures for the whole store.
    pub fn stats(&self) -> Result<Stats, StoreError> {
        let (entries, forgotten, original_tokens, summary_tokens): (i64, i64, i64, i64) =
            self.conn().query_row(
                "SELECT coalesce(sum(active), 0), coalesce(sum(NOT active), 0),
                    coalesce(sum(original_tokens), 0), coalesce(sum(summary_tokens), 0)
                 FROM entries",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )?;
        let sessions: i64 =
            self.conn()
                .query_row("SELECT count(*) FROM session_state", [], |r| r.get(0))?;
        let mut stmt = self.conn().prepare_cached(
            "SELECT date(created_at / 1000, 'unixepoch') AS day, count(*),
                sum(original_tokens), sum(original_tokens - summary_tokens)
             FROM entries GROUP BY day ORDER BY day DESC LIMIT ?1",
        )?;
        let per_day = stmt
            .query_map(params![30], |r| {
                Ok(DayStats {
                    date: r.get(0)?,
                    entries: r.get(1)?,
                    original_tokens: r.get(2)?,
                    saved_tokens: r.get(3)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(Stats {
            path: self.path().display().to_string(),
            bytes_on_disk: self.size_on_disk(),
            schema_version: schema::user_version(self.conn())?,
            entries,
            forgotten,
            sessions,
            original_tokens,
            summary_tokens,
            saved_tokens: original_tokens - summary_tokens,
            per_day,
            gateway: self.gateway_state().totals()?,
        })
    }
}

fn recommend(
    context: &ContextReading,
    entries: i64,
    original_tokens: i64,
    candidates: &[EvictionCandidate],
) -> String {
    let pct = context.percent;
    let held = if entries > 0 {
        format!(
            "ghost holds {entries} originals ({original_tokens} tokens) for recall(query) / get(id)"
        )
    } else {
        "ghost holds nothing for this session yet".to_string()
    };
    if pct >= 80.0 {
        let drop = candidates
            .iter()
            .take(3)
            .map(|c| c.id.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let drop = if drop.is_empty() {
            String::new()
        } else {
            format!(" lowest priority: {drop};")
        };
        format!(
            "Context {pct:.0}% full: compaction is near;{drop} after compaction use recall(query) / get(id) instead of re-running tools ({held})."
        )
    } else if pct >= 50.0 {
        format!(
            "Context {pct:.0}% full: prefer recall(query) / get(id, start_line, end_line) over re-reading whole files ({held})."
        )
    } else {
        format!("Context {pct:.0}% full: no action needed ({held}).")
    }
}
