//! What the gateway decided, per conversation, kept beside the archive:
//! every block it rewrote (its key, the digest of what it replaced, the
//! exact bytes it spliced in, at which step), and each conversation's
//! context figures and garbage-collection step. Every later request of the
//! conversation gets the same bytes, so the prompt cache keeps its prefix;
//! a restarted gateway replays them too.
//!
//! A [`GatewayState`] is a view on the store's connection
//! ([`crate::Store::gateway_state`]).

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::StoreError;

/// What a rewrite put in a block's place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RewriteKind {
    /// A compressed version, with its handle.
    Summary,
    /// One line naming what it was, with its handle.
    Reference,
}

impl RewriteKind {
    fn as_str(self) -> &'static str {
        match self {
            RewriteKind::Summary => "summary",
            RewriteKind::Reference => "reference",
        }
    }

    fn parse(s: &str) -> Self {
        match s {
            "reference" => RewriteKind::Reference,
            _ => RewriteKind::Summary,
        }
    }
}

/// One block the gateway rewrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    /// Which block: a tool call id, or a text's digest.
    pub block_key: String,
    /// The blake3 digest (hex) of the bytes it replaced, as the client sent them.
    pub original_digest: String,
    /// The bytes spliced in their place.
    pub replacement: String,
    /// Whether that is a summary or a reference.
    pub kind: RewriteKind,
    /// 0 when rewritten on arrival; `k` when by garbage-collection step `k`.
    pub step: u32,
    /// The stored original's entry, when there is one.
    pub entry_id: Option<String>,
    /// Bytes of what it replaced.
    pub original_bytes: i64,
}

/// A conversation's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversation {
    /// Its key.
    pub conversation: String,
    /// The agent's session it belongs to.
    pub session_id: Option<String>,
    /// Requests seen.
    pub requests: i64,
    /// Garbage-collection steps taken.
    pub gc_step: u32,
    /// The estimated context right after the last step, in tokens.
    pub gc_floor_tokens: Option<i64>,
    /// When the last request went upstream (Unix milliseconds).
    pub last_request_at: i64,
    /// The input tokens upstream reported for the last answer.
    pub input_tokens: Option<i64>,
    /// The bytes of the body sent for that answer.
    pub sent_bytes: Option<i64>,
    /// The context window it runs in.
    pub window_tokens: Option<i64>,
}

/// One request the gateway sent upstream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SentRequest {
    /// The agent's session, when known.
    pub session: Option<String>,
    /// Bytes of the body sent.
    pub sent_bytes: i64,
    /// The garbage-collection step the conversation is at.
    pub gc_step: u32,
    /// The estimated context right after that step, in tokens.
    pub gc_floor_tokens: Option<i64>,
    /// The context window.
    pub window_tokens: i64,
}

/// What the gateway did: for a session, or over every one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GatewaySavings {
    /// Conversations of the session the gateway saw.
    pub conversations: i64,
    /// Requests it forwarded.
    pub requests: i64,
    /// Blocks it rewrote.
    pub blocks_rewritten: i64,
    /// Bytes those blocks took before.
    pub bytes_before: i64,
    /// Bytes they take now.
    pub bytes_after: i64,
    /// Garbage-collection steps taken (over all its conversations).
    pub gc_steps: i64,
    /// The context of the most recent conversation, as upstream last
    /// reported it, in tokens.
    pub context_tokens: Option<i64>,
}

/// The gateway's decisions, on one store's connection.
pub struct GatewayState<'a> {
    conn: &'a Connection,
}

impl<'a> GatewayState<'a> {
    /// The state kept on `conn`.
    pub(crate) fn new(conn: &'a Connection) -> Self {
        Self { conn }
    }

    /// Every rewrite of `conversation`.
    pub fn rewrites(&self, conversation: &str) -> Result<Vec<Rewrite>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT block_key, original_digest, replacement, kind, step, entry_id, original_bytes
             FROM gateway_rewrites WHERE conversation = ?1",
        )?;
        let rows = stmt.query_map([conversation], |r| {
            Ok(Rewrite {
                block_key: r.get(0)?,
                original_digest: r.get(1)?,
                replacement: r.get(2)?,
                kind: RewriteKind::parse(&r.get::<_, String>(3)?),
                step: r.get(4)?,
                entry_id: r.get(5)?,
                original_bytes: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records `rewrite` of `conversation` (replacing an earlier one of the
    /// same block: a later step's).
    pub fn record(
        &self,
        conversation: &str,
        rewrite: &Rewrite,
        now: i64,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO gateway_rewrites (conversation, block_key, original_digest, replacement,
                kind, step, entry_id, original_bytes, created_at)
             VALUES (?1, ?2, ?3, ?4, ?9, ?5, ?6, ?7, ?8)
             ON CONFLICT(conversation, block_key) DO UPDATE SET
                original_digest = excluded.original_digest, replacement = excluded.replacement,
                kind = excluded.kind, step = excluded.step, entry_id = excluded.entry_id,
                original_bytes = excluded.original_bytes, created_at = excluded.created_at",
            params![
                conversation,
                rewrite.block_key,
                rewrite.original_digest,
                rewrite.replacement,
                rewrite.step,
                rewrite.entry_id,
                rewrite.original_bytes,
                now,
                rewrite.kind.as_str()
            ],
        )?;
        Ok(())
    }

    /// `conversation`'s figures, if the gateway has seen it.
    pub fn conversation(&self, conversation: &str) -> Result<Option<Conversation>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT conversation, session_id, requests, gc_step, last_request_at,
                    input_tokens, sent_bytes, window_tokens, gc_floor_tokens
                 FROM gateway_conversations WHERE conversation = ?1",
                [conversation],
                |r| {
                    Ok(Conversation {
                        conversation: r.get(0)?,
                        session_id: r.get(1)?,
                        requests: r.get(2)?,
                        gc_step: r.get(3)?,
                        last_request_at: r.get(4)?,
                        input_tokens: r.get(5)?,
                        sent_bytes: r.get(6)?,
                        window_tokens: r.get(7)?,
                        gc_floor_tokens: r.get(8)?,
                    })
                },
            )
            .optional()?)
    }

    /// Counts a request of `conversation` sent upstream at `now`: its
    /// body's size, the garbage-collection step it is at and the estimated
    /// context after that step, the window it runs in.
    pub fn record_request(
        &self,
        conversation: &str,
        sent: &SentRequest,
        now: i64,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO gateway_conversations (conversation, session_id, first_seen,
                last_request_at, requests, gc_step, gc_floor_tokens, sent_bytes, window_tokens)
             VALUES (?1, ?2, ?3, ?3, 1, ?4, ?5, ?6, ?7)
             ON CONFLICT(conversation) DO UPDATE SET
                session_id = coalesce(excluded.session_id, session_id),
                last_request_at = excluded.last_request_at,
                requests = requests + 1, gc_step = excluded.gc_step,
                gc_floor_tokens = excluded.gc_floor_tokens,
                sent_bytes = excluded.sent_bytes, window_tokens = excluded.window_tokens",
            params![
                conversation,
                sent.session,
                now,
                sent.gc_step,
                sent.gc_floor_tokens,
                sent.sent_bytes,
                sent.window_tokens
            ],
        )?;
        Ok(())
    }

    /// Records the input tokens upstream reported for `conversation`'s last
    /// request (every kind of input token: the context's size).
    pub fn record_usage(&self, conversation: &str, input_tokens: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE gateway_conversations SET input_tokens = ?2 WHERE conversation = ?1",
            params![conversation, input_tokens],
        )?;
        Ok(())
    }

    /// What the gateway did in `session`.
    pub fn savings(&self, session: &str) -> Result<GatewaySavings, StoreError> {
        self.figures("WHERE c.session_id = ?1", Some(session))
    }

    /// What the gateway did, over every session.
    pub fn totals(&self) -> Result<GatewaySavings, StoreError> {
        self.figures("WHERE ?1 IS NULL", None)
    }

    fn figures(&self, filter: &str, session: Option<&str>) -> Result<GatewaySavings, StoreError> {
        let (conversations, requests, gc_steps): (i64, i64, i64) = self.conn.query_row(
            &format!(
                "SELECT count(*), coalesce(sum(requests), 0), coalesce(sum(gc_step), 0)
                 FROM gateway_conversations c {filter}"
            ),
            [session],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let (blocks_rewritten, bytes_before, bytes_after): (i64, i64, i64) = self.conn.query_row(
            &format!(
                "SELECT count(*), coalesce(sum(w.original_bytes), 0),
                    coalesce(sum(length(CAST(w.replacement AS BLOB))), 0)
                 FROM gateway_rewrites w JOIN gateway_conversations c USING (conversation)
                 {filter}"
            ),
            [session],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let context_tokens: Option<i64> = self
            .conn
            .query_row(
                &format!(
                    "SELECT input_tokens FROM gateway_conversations c {filter}
                     ORDER BY last_request_at DESC LIMIT 1"
                ),
                [session],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        Ok(GatewaySavings {
            context_tokens,
            conversations,
            requests,
            blocks_rewritten,
            bytes_before,
            bytes_after,
            gc_steps,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::Store;

    use super::*;

    #[test]
    fn rewrites_and_figures_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.sqlite3")).unwrap();
        let g = store.gateway_state();
        assert!(g.conversation("c1").unwrap().is_none());
        let sent = |session: Option<&str>, bytes, step| SentRequest {
            session: session.map(str::to_string),
            sent_bytes: bytes,
            gc_step: step,
            gc_floor_tokens: None,
            window_tokens: 200_000,
        };
        g.record_request("c1", &sent(Some("s1"), 1_000, 0), 5)
            .unwrap();
        g.record_usage("c1", 300).unwrap();
        let mut w = Rewrite {
            block_key: "toolu_1".into(),
            original_digest: "ab".into(),
            replacement: "\"short\"".into(),
            kind: RewriteKind::Summary,
            step: 0,
            entry_id: Some("e1".into()),
            original_bytes: 5_000,
        };
        g.record("c1", &w, 6).unwrap();
        w.step = 1;
        w.kind = RewriteKind::Reference;
        w.replacement = "\"ref\"".into();
        g.record("c1", &w, 7).unwrap();
        assert_eq!(g.rewrites("c1").unwrap(), vec![w]);
        g.record_request("c1", &sent(None, 900, 1), 8).unwrap();
        let c = g.conversation("c1").unwrap().unwrap();
        assert_eq!(
            (c.requests, c.gc_step, c.session_id.as_deref()),
            (2, 1, Some("s1"))
        );
        assert_eq!(c.input_tokens, Some(300));
        let s = g.savings("s1").unwrap();
        assert_eq!(
            (
                s.blocks_rewritten,
                s.bytes_before,
                s.bytes_after,
                s.requests
            ),
            (1, 5_000, 5, 2)
        );
        assert_eq!(s.context_tokens, Some(300));
        assert_eq!(g.totals().unwrap(), s);
    }
}
