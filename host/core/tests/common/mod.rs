//! What the store's tests share.

use ghost_store::{IdempotencyKey, NewEntry};
use ghost_types::ContentClass;

/// An entry of `class` for tool call `call` of `session`, made at `at`,
/// whose every text field is filled (a Bash call on `/work/<call>.txt`).
pub fn entry(session: &str, call: &str, text: &str, class: ContentClass, at: i64) -> NewEntry {
    NewEntry {
        key: IdempotencyKey::for_tool_call(session, call),
        session_id: session.into(),
        agent_id: String::new(),
        created_at: at,
        class,
        source_tool: Some("Bash".into()),
        source_path: Some(format!("/work/{call}.txt")),
        original: text.into(),
        summary: text.into(),
        original_tokens: text.len() as i64 / 4,
        summary_tokens: text.len() as i64 / 4,
        tokens_exact: true,
        ttl_seconds: None,
        context: format!("context of {call}"),
        tags: "bash".into(),
    }
}
