//! The per-session context state: what ghost knows of each agent session's
//! context window beside the archive of its entries.
//!
//! - the latest context reading (tokens used of a window, where the figure
//!   came from, when);
//! - the last compaction (entries stored before it have left the agent's
//!   context);
//! - which earlier result an agent still has in its context (a re-read file,
//!   a repeated command output).
//!
//! A [`SessionContext`] is a view on the store's connection
//! ([`crate::Store::session_context`]); it owns no data of its own.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::StoreError;
use crate::entry::{InContext, SeenBy};

/// The context window ghost assumes when no reading says otherwise.
pub const DEFAULT_CONTEXT_WINDOW: i64 = 200_000;

/// A context-window reading.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ContextReading {
    /// Tokens in use.
    pub used_tokens: i64,
    /// The window's size.
    pub window_tokens: i64,
    /// `used / window`, in percent.
    pub percent: f64,
    /// Where the figure comes from: `status_line` (Claude Code's own
    /// reading), `session_start`, `gateway` (the usage the model API
    /// reported to ghost's gateway), or `estimate` (ghost's own: the tokens
    /// of every summary it handed the agent).
    pub source: String,
    /// Seconds since the reading, when it is one.
    pub age_seconds: Option<i64>,
}

/// A `session_state` reading as stored: used, window, source, read at.
type RawReading = (Option<i64>, Option<i64>, Option<String>, Option<i64>);

/// The context state of every session, on one store's connection.
pub struct SessionContext<'a> {
    conn: &'a Connection,
}

impl<'a> SessionContext<'a> {
    /// The context state kept on `conn`.
    pub(crate) fn new(conn: &'a Connection) -> Self {
        Self { conn }
    }

    /// Records a context-window reading for `session`: `used` tokens of a
    /// `window`, as reported by `source` (`status_line`, `session_start`,
    /// `transcript`) at `now` (when the figure was true). An older reading
    /// than the one kept is ignored: the newest one wins.
    pub fn record_reading(
        &self,
        session: &str,
        used: i64,
        window: Option<i64>,
        source: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO session_state (session_id, first_seen, last_seen, context_used,
                context_window, context_source, context_read_at)
             VALUES (?1, ?5, ?5, ?2, ?3, ?4, ?5)
             ON CONFLICT(session_id) DO UPDATE SET
                last_seen = max(last_seen, excluded.last_seen),
                context_used = CASE WHEN (context_read_at IS NULL OR excluded.context_read_at >= context_read_at) THEN excluded.context_used ELSE context_used END,
                context_window = CASE WHEN (context_read_at IS NULL OR excluded.context_read_at >= context_read_at)
                    THEN coalesce(excluded.context_window, context_window)
                    ELSE context_window END,
                context_source = CASE WHEN (context_read_at IS NULL OR excluded.context_read_at >= context_read_at)
                    THEN excluded.context_source ELSE context_source END,
                context_read_at = CASE WHEN (context_read_at IS NULL OR excluded.context_read_at >= context_read_at)
                    THEN excluded.context_read_at ELSE context_read_at END",
            params![session, used, window, source, now],
        )?;
        Ok(())
    }

    /// The share (0–1) of its context window `session`'s main agent uses, by
    /// the same reading every consumer uses ([`Self::reading`]: the newest of
    /// transcript, status line, session start and gateway) since its last
    /// compaction, with the reading's source; `None` without a real one.
    pub fn share(&self, session: &str, now: i64) -> Result<Option<(f64, String)>, StoreError> {
        let r = self.reading(Some(session), 0, now)?;
        if r.source == "estimate" {
            return Ok(None);
        }
        Ok(Some((
            r.used_tokens as f64 / r.window_tokens.max(1) as f64,
            r.source,
        )))
    }

    /// `session`'s context reading at `now`: its latest real one (Claude
    /// Code's status line or session start, or the usage upstream reported
    /// to the gateway for the session's latest conversation, whichever is
    /// newer), else `estimate` tokens (ghost's own figure) of the default
    /// window.
    pub fn reading(
        &self,
        session: Option<&str>,
        estimate: i64,
        now: i64,
    ) -> Result<ContextReading, StoreError> {
        let reading: Option<RawReading> = self
            .conn
            .query_row(
                "SELECT context_used, context_window, context_source, context_read_at
                 FROM session_state WHERE session_id = ?1",
                [session],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?;
        let gateway: Option<(Option<i64>, Option<i64>, i64)> = self
            .conn
            .query_row(
                "SELECT input_tokens, window_tokens, last_request_at FROM gateway_conversations
                 WHERE session_id = ?1 ORDER BY last_request_at DESC LIMIT 1",
                [session],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        let reading = match (reading, gateway) {
            (hook, Some((Some(used), window, at)))
                if hook
                    .as_ref()
                    .and_then(|h| h.3)
                    .is_none_or(|hook_at| at > hook_at) =>
            {
                Some((Some(used), window, Some("gateway".to_string()), Some(at)))
            }
            (hook, _) => hook,
        };
        let (used, window, source, age) = match reading {
            Some((Some(used), window, Some(source), read_at)) => (
                used,
                window.unwrap_or(DEFAULT_CONTEXT_WINDOW),
                source,
                read_at.map(|t| ((now - t) / 1000).max(0)),
            ),
            _ => (
                estimate,
                DEFAULT_CONTEXT_WINDOW,
                "estimate".to_string(),
                None,
            ),
        };
        let window = window.max(1);
        Ok(ContextReading {
            used_tokens: used,
            window_tokens: window,
            percent: (used as f64 * 1000.0 / window as f64).round() / 10.0,
            source,
            age_seconds: age,
        })
    }

    /// Marks a compaction of `session`: whatever was stored so far has left
    /// the agent's context (only the compaction summary remains), and so
    /// has the context reading, which described the context before it; a
    /// new compaction cycle begins (the flush nudge may come again).
    pub fn mark_compaction(&self, session: &str, now: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO session_state (session_id, first_seen, last_seen, compacted_after,
                compacted_at)
             VALUES (?1, ?2, ?2, (SELECT coalesce(max(rowid), 0) FROM entries), ?2)
             ON CONFLICT(session_id) DO UPDATE SET
                last_seen = max(last_seen, excluded.last_seen),
                compacted_after = excluded.compacted_after,
                compacted_at = excluded.compacted_at,
                flush_nudged_at = NULL,
                context_used = NULL, context_source = NULL, context_read_at = NULL",
            params![session, now],
        )?;
        Ok(())
    }

    /// Claims the one flush nudge of `session`'s current compaction cycle:
    /// `true` for the first caller since the last compaction, `false` for
    /// every later one. One SQL statement, so of hooks running in parallel
    /// exactly one wins.
    pub fn claim_flush_nudge(&self, session: &str, now: i64) -> Result<bool, StoreError> {
        self.conn.execute(
            "INSERT INTO session_state (session_id, first_seen, last_seen)
             VALUES (?1, ?2, ?2) ON CONFLICT(session_id) DO NOTHING",
            params![session, now],
        )?;
        let claimed = self.conn.execute(
            "UPDATE session_state SET flush_nudged_at = ?2
             WHERE session_id = ?1 AND flush_nudged_at IS NULL",
            params![session, now],
        )?;
        Ok(claimed == 1)
    }

    /// Remembers where `session`'s transcript is (writing nothing when it
    /// is already known: hooks call this on every tool call).
    pub fn record_transcript(&self, session: &str, path: &str, now: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO session_state (session_id, first_seen, last_seen, transcript_path)
             VALUES (?1, ?3, ?3, ?2)
             ON CONFLICT(session_id) DO UPDATE SET transcript_path = excluded.transcript_path
             WHERE transcript_path IS NOT excluded.transcript_path",
            params![session, path, now],
        )?;
        Ok(())
    }

    /// Where `session`'s transcript is, when a hook said.
    pub fn transcript_path(&self, session: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT transcript_path FROM session_state WHERE session_id = ?1",
                [session],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// When `session` was last compacted (ms since the epoch), if ever.
    pub fn compacted_at(&self, session: &str) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT compacted_at FROM session_state WHERE session_id = ?1",
                [session],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// The latest result of `tool` that `agent` of `session` saw since the
    /// session's last compaction, matched by `by`, other than the entry
    /// `except` (the tool call being handled, on a replay): a result the
    /// agent still has in its context.
    pub fn still_in_context(
        &self,
        session: &str,
        agent: &str,
        tool: &str,
        by: SeenBy,
        except: &str,
    ) -> Result<Option<InContext>, StoreError> {
        let (clause, value) = match by {
            SeenBy::Path(p) => ("source_path = ?4 AND ?6 >= 0", p),
            // The byte length first: SQLite knows it from the record header,
            // without reading the text's overflow pages.
            SeenBy::Text(t) => ("octet_length(original) = ?6 AND original = ?4", t),
        };
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT id, original, context FROM entries
             WHERE session_id = ?1 AND active AND agent_id = ?2 AND source_tool = ?3
               AND rowid > (SELECT coalesce(max(compacted_after), 0) FROM session_state
                            WHERE session_id = ?1)
               AND id != ?5 AND {clause}
             ORDER BY rowid DESC LIMIT 1"
        ))?;
        Ok(stmt
            .query_row(
                params![session, agent, tool, value, except, value.len() as i64],
                |r| {
                    Ok(InContext {
                        id: r.get(0)?,
                        original: r.get(1)?,
                        context: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }
}

#[cfg(test)]
mod tests {
    use crate::Store;

    #[test]
    fn one_flush_nudge_per_compaction_cycle_and_the_newest_reading_wins() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.sqlite3")).unwrap();
        let sessions = store.session_context();
        assert!(sessions.claim_flush_nudge("s", 10).unwrap());
        assert!(!sessions.claim_flush_nudge("s", 11).unwrap());
        assert!(sessions.claim_flush_nudge("other", 11).unwrap());
        sessions.mark_compaction("s", 20).unwrap();
        assert_eq!(sessions.compacted_at("s").unwrap(), Some(20));
        assert!(sessions.claim_flush_nudge("s", 21).unwrap());
        assert!(!sessions.claim_flush_nudge("s", 22).unwrap());

        sessions
            .record_reading("s", 1000, Some(200_000), "transcript", 100)
            .unwrap();
        // An older figure (a statusLine call that raced) does not win.
        sessions
            .record_reading("s", 500, None, "status_line", 90)
            .unwrap();
        let r = sessions.reading(Some("s"), 0, 100).unwrap();
        assert_eq!((r.used_tokens, r.source.as_str()), (1000, "transcript"));
        sessions
            .record_reading("s", 1500, None, "status_line", 110)
            .unwrap();
        let r = sessions.reading(Some("s"), 0, 110).unwrap();
        assert_eq!((r.used_tokens, r.source.as_str()), (1500, "status_line"));
    }
}
