//! What the store keeps for one tool result, and its identifiers.

use ghost_types::ContentClass;
use serde::Serialize;

/// The idempotency key of an entry: one per (session, tool call).
///
/// Ingesting twice with the same key stores one entry and returns its id
/// both times, so a replayed hook never duplicates anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// The key of the tool call `tool_use_id` in `session`.
    pub fn for_tool_call(session: &str, tool_use_id: &str) -> Self {
        Self(hash_hex(&[
            b"tool-call",
            session.as_bytes(),
            tool_use_id.as_bytes(),
        ]))
    }

    /// The key of `text` in `session`, for input that has no tool call id
    /// (a file fed to `ghost ingest`): the same text twice is one entry.
    pub fn for_content(session: &str, text: &str) -> Self {
        Self(hash_hex(&[b"content", session.as_bytes(), text.as_bytes()]))
    }

    /// The key as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The entry id derived from this key: its first `len` hex digits.
    pub fn entry_id(&self, len: usize) -> String {
        self.0[..len.min(self.0.len())].to_string()
    }
}

fn hash_hex(parts: &[&[u8]]) -> String {
    let mut hasher = blake3::Hasher::new();
    for part in parts {
        // Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
        hasher.update(&(part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher.finalize().to_hex().to_string()
}

/// Length of an entry id: 12 hex digits (48 bits), short enough to type.
pub const ID_LEN: usize = 12;

/// An entry to store.
#[derive(Debug, Clone)]
pub struct NewEntry {
    /// The idempotency key.
    pub key: IdempotencyKey,
    /// The agent session it belongs to.
    pub session_id: String,
    /// The agent of the session that saw it: empty for the main agent, the
    /// subagent's id otherwise (each has its own context).
    pub agent_id: String,
    /// When it was produced (Unix milliseconds).
    pub created_at: i64,
    /// Its content class.
    pub class: ContentClass,
    /// The tool that produced it.
    pub source_tool: Option<String>,
    /// The file it came from.
    pub source_path: Option<String>,
    /// The full text.
    pub original: String,
    /// What the agent sees instead (equal to `original` when not compressed).
    pub summary: String,
    /// o200k_base tokens of `original`.
    pub original_tokens: i64,
    /// o200k_base tokens of `summary`.
    pub summary_tokens: i64,
    /// Whether the two counts are exact, or estimates that the store will
    /// count exactly later ([`crate::Store::settle_token_counts`]).
    pub tokens_exact: bool,
    /// Seconds until it expires, if it does.
    pub ttl_seconds: Option<i64>,
    /// Low-weight search text around it (the command that produced it, the
    /// neighbouring turns of a conversation).
    pub context: String,
    /// Entities it is about (a tool, a file, a speaker), space-separated;
    /// a query that names one ranks it higher.
    pub tags: String,
}

/// An earlier result the agent still has in its context (see
/// [`crate::SessionContext::still_in_context`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InContext {
    /// Its id.
    pub id: String,
    /// Its full text.
    pub original: String,
    /// Its search context (for a command's output, the command).
    pub context: String,
}

/// What a result is matched on against the ones the agent already saw.
#[derive(Debug, Clone, Copy)]
pub enum SeenBy<'a> {
    /// The same file (a Read of it).
    Path(&'a str),
    /// The same text (a command's output).
    Text(&'a str),
}

/// The result of storing an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The entry's id.
    pub id: String,
    /// False when the key was already there and nothing new was stored.
    pub created: bool,
}

/// A stored entry, as `get` returns it.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// Its id.
    pub id: String,
    /// Its session.
    pub session_id: String,
    /// When it was produced (Unix milliseconds).
    pub created_at: i64,
    /// Its class.
    pub class: ContentClass,
    /// The tool that produced it.
    pub source_tool: Option<String>,
    /// The file it came from.
    pub source_path: Option<String>,
    /// The full text.
    pub original: String,
    /// What the agent saw.
    pub summary: String,
    /// Tokens of the original.
    pub original_tokens: i64,
    /// Tokens of the summary.
    pub summary_tokens: i64,
    /// Its current priority.
    pub priority: f64,
    /// When it was last read (Unix milliseconds).
    pub last_access: i64,
    /// Seconds until it expires, if it does.
    pub ttl_seconds: Option<i64>,
    /// False once forgotten or expired.
    pub active: bool,
}

impl Entry {
    /// Where it came from, for people: `Bash`, `Read src/main.rs`, `-`.
    pub fn source_label(&self) -> String {
        source_label(self.source_tool.as_deref(), self.source_path.as_deref())
    }
}

/// The class stored in column `index` of `row`.
pub(crate) fn class_at(row: &rusqlite::Row, index: usize) -> rusqlite::Result<ContentClass> {
    let name: String = row.get(index)?;
    name.parse().map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(index, rusqlite::types::Type::Text, Box::new(e))
    })
}

/// `tool path`, `tool`, `path` or `-`.
pub fn source_label(tool: Option<&str>, path: Option<&str>) -> String {
    match (tool, path) {
        (Some(t), Some(p)) => format!("{t} {p}"),
        (Some(t), None) => t.to_string(),
        (None, Some(p)) => p.to_string(),
        (None, None) => "-".to_string(),
    }
}

/// An entry in a listing: everything but the texts.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// Its class.
    pub class: ContentClass,
    /// The tool that produced it.
    pub source_tool: Option<String>,
    /// The file it came from.
    pub source_path: Option<String>,
    /// Tokens of the original.
    pub original_tokens: i64,
    /// Tokens of the summary.
    pub summary_tokens: i64,
    /// Bytes of the original.
    pub original_bytes: i64,
    /// Its priority.
    pub priority: f64,
}

impl Listed {
    /// Where it came from, for people.
    pub fn source_label(&self) -> String {
        source_label(self.source_tool.as_deref(), self.source_path.as_deref())
    }
}

/// What `forget` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Forgotten {
    /// The entry was active and is now forgotten.
    Now,
    /// It had already been forgotten (or had expired).
    Already,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_stable_and_distinct() {
        let a = IdempotencyKey::for_tool_call("s1", "toolu_1");
        assert_eq!(a, IdempotencyKey::for_tool_call("s1", "toolu_1"));
        assert_ne!(a, IdempotencyKey::for_tool_call("s1", "toolu_2"));
        assert_ne!(a, IdempotencyKey::for_tool_call("s2", "toolu_1"));
        assert_ne!(
            IdempotencyKey::for_tool_call("ab", "c"),
            IdempotencyKey::for_tool_call("a", "bc")
        );
        let id = a.entry_id(ID_LEN);
        assert_eq!(id.len(), 12);
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()));
    }
}
