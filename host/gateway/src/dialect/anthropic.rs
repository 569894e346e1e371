//! Anthropic's Messages API (`POST /v1/messages`, `…/count_tokens`): the
//! body parsed once, borrowing every value it may splice from the original
//! bytes, so each block knows its exact byte range.
//!
//! Only `model`, `stream`, `metadata` and `messages` are read; every other
//! key (`system`, `tools`, `thinking`, `context_management`, unknown ones)
//! is skipped and reaches upstream as it came. Within messages, only text,
//! `tool_use` and `tool_result` blocks are described; thinking and
//! redacted-thinking blocks, images and anything unknown are `Other`.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{Block, JsonText, Message, Request, Role, ToolResult, ToolUse};

/// Why a body is not a Messages request ghost can garden.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// Not UTF-8.
    #[error("the body is not UTF-8")]
    NotUtf8,
    /// Not the JSON ghost expects.
    #[error("the body is not a Messages request: {0}")]
    Json(#[from] serde_json::Error),
}

#[derive(Deserialize)]
struct BodyRaw<'a> {
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    stream: Option<bool>,
    #[serde(borrow, default)]
    metadata: Option<&'a RawValue>,
    #[serde(borrow, default)]
    messages: Vec<MessageRaw<'a>>,
}

#[derive(Deserialize)]
struct MessageRaw<'a> {
    #[serde(default)]
    role: String,
    #[serde(borrow)]
    content: &'a RawValue,
}

#[derive(Deserialize)]
struct BlockRaw<'a> {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(borrow, default)]
    text: Option<&'a RawValue>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(borrow, default)]
    input: Option<&'a RawValue>,
    #[serde(default)]
    tool_use_id: Option<String>,
    #[serde(default)]
    is_error: Option<bool>,
    #[serde(borrow, default)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Metadata {
    #[serde(default)]
    user_id: Option<String>,
}

#[derive(Deserialize)]
struct UserId {
    #[serde(default)]
    session_id: Option<String>,
}

/// Parses `body`. Fails on anything that is not a Messages request with the
/// shapes ghost knows; the caller then passes the body through untouched.
pub fn parse(body: &[u8]) -> Result<Request<'_>, ParseError> {
    let body = std::str::from_utf8(body).map_err(|_| ParseError::NotUtf8)?;
    let raw: BodyRaw = serde_json::from_str(body)?;
    let mut messages = Vec::with_capacity(raw.messages.len());
    for m in &raw.messages {
        messages.push(Message {
            role: match m.role.as_str() {
                "user" => Role::User,
                "assistant" => Role::Assistant,
                _ => Role::Other,
            },
            blocks: blocks(body, m.content)?,
            content_span: span(body, m.content),
        });
    }
    Ok(Request {
        body,
        model: raw.model,
        session: raw.metadata.and_then(session_of),
        messages,
        stream: raw.stream.unwrap_or(false),
    })
}

/// Claude Code's session id: `metadata.user_id` is a JSON string holding
/// `{"device_id", "account_uuid", "session_id"}`.
fn session_of(metadata: &RawValue) -> Option<String> {
    let meta: Metadata = serde_json::from_str(metadata.get()).ok()?;
    let user: UserId = serde_json::from_str(&meta.user_id?).ok()?;
    user.session_id.filter(|s| !s.is_empty())
}

/// The byte range of `raw` inside `body` (it borrows from it).
fn span(body: &str, raw: &RawValue) -> std::ops::Range<usize> {
    let start = raw.get().as_ptr() as usize - body.as_ptr() as usize;
    start..start + raw.get().len()
}

fn text<'a>(body: &'a str, raw: &'a RawValue) -> Option<JsonText<'a>> {
    raw.get().starts_with('"').then(|| JsonText {
        span: span(body, raw),
        raw: raw.get(),
    })
}

/// A message's content: a string (one text block) or a list of blocks.
fn blocks<'a>(body: &'a str, content: &'a RawValue) -> Result<Vec<Block<'a>>, ParseError> {
    if let Some(t) = text(body, content) {
        return Ok(vec![Block::Text(t)]);
    }
    // The blocks themselves, not their raw text first: every byte of a
    // message is scanned as few times as it can be.
    let list: Vec<BlockRaw<'a>> = serde_json::from_str(content.get())?;
    let mut out = Vec::with_capacity(list.len());
    for b in list {
        out.push(match b.kind.as_str() {
            "text" => match b.text.and_then(|t| text(body, t)) {
                Some(t) => Block::Text(t),
                None => Block::Other,
            },
            "tool_use" => match (b.id, b.name, b.input) {
                (Some(id), Some(name), Some(input)) => Block::ToolUse(ToolUse {
                    id,
                    name,
                    input_span: span(body, input),
                    input_raw: input.get(),
                }),
                _ => Block::Other,
            },
            "tool_result" => match (b.tool_use_id, b.content) {
                (Some(tool_use_id), Some(content)) => {
                    tool_result(body, tool_use_id, b.is_error.unwrap_or(false), content)?
                }
                _ => Block::Other,
            },
            _ => Block::Other,
        });
    }
    Ok(out)
}

fn tool_result<'a>(
    body: &'a str,
    tool_use_id: String,
    is_error: bool,
    content: &'a RawValue,
) -> Result<Block<'a>, ParseError> {
    let mut result = ToolResult {
        tool_use_id,
        is_error,
        content_span: span(body, content),
        content_raw: content.get(),
        texts: Vec::new(),
        others: Vec::new(),
        content_is_string: false,
    };
    if let Some(t) = text(body, content) {
        result.texts.push(t);
        result.content_is_string = true;
        return Ok(Block::ToolResult(result));
    }
    let parts: Vec<&'a RawValue> = serde_json::from_str(content.get())?;
    for part in parts {
        let b: BlockRaw<'a> = serde_json::from_str(part.get())?;
        match (b.kind.as_str(), b.text.and_then(|t| text(body, t))) {
            ("text", Some(t)) => result.texts.push(t),
            _ => result.others.push(part.get()),
        }
    }
    Ok(Block::ToolResult(result))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = r#"{"model":"claude-opus-5-5","max_tokens":128000,
 "metadata":{"user_id":"{\"device_id\":\"d\",\"account_uuid\":\"\",\"session_id\":\"s-1\"}"},
 "system":[{"type":"text","text":"sys","cache_control":{"type":"ephemeral"}}],
 "messages":[
  {"role":"user","content":"fix the tests"},
  {"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"SIG=="},
    {"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"mix test"}}]},
  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,
    "content":[{"type":"text","text":"line \"1\"\nline 2"},{"type":"image","source":{}}]},
    {"type":"text","text":"go on","cache_control":{"type":"ephemeral"}}]}],
 "stream":true,"unknown":{"x":[1,2]}}"#;

    #[test]
    fn blocks_know_their_bytes() {
        let r = parse(BODY.as_bytes()).unwrap();
        assert_eq!(r.session.as_deref(), Some("s-1"));
        assert_eq!(r.model.as_deref(), Some("claude-opus-5-5"));
        assert!(r.stream);
        assert_eq!(r.messages.len(), 3);
        let Block::Text(prompt) = &r.messages[0].blocks[0] else {
            panic!()
        };
        assert_eq!(&BODY[prompt.span.clone()], "\"fix the tests\"");
        assert!(matches!(r.messages[1].blocks[0], Block::Other));
        let Block::ToolUse(call) = &r.messages[1].blocks[1] else {
            panic!()
        };
        assert_eq!(&BODY[call.input_span.clone()], r#"{"command":"mix test"}"#);
        let Block::ToolResult(result) = &r.messages[2].blocks[0] else {
            panic!()
        };
        assert!(result.is_error && !result.content_is_string);
        assert_eq!(result.text(), "line \"1\"\nline 2");
        assert_eq!(result.others, vec![r#"{"type":"image","source":{}}"#]);
        assert!(BODY[result.content_span.clone()].starts_with("[{\"type\":\"text\""));
        assert_eq!(r.tool_uses()["toolu_1"].name, "Bash");
    }

    #[test]
    fn what_is_not_a_messages_request_is_refused() {
        assert!(parse(b"not json").is_err());
        assert!(parse(b"[1,2]").is_err());
        assert!(parse(&[0xff, 0xfe]).is_err());
        assert!(parse(br#"{"messages":[{"role":"user","content":[{"type":"text","text":"a","type":"x"}]}]}"#).is_err());
        // No messages at all is a request with none (count_tokens of nothing).
        assert!(parse(b"{}").unwrap().messages.is_empty());
    }
}
