//! The seam between an agent's API dialect and the gardener.
//!
//! A dialect parses a request body into a [`Request`]: the conversation's
//! messages as blocks (text, tool calls, tool results, anything else), each
//! with the byte range of the JSON it came from, so the gardener can decide
//! what to change without knowing the wire format, and every change is a
//! splice of the original bytes ([`crate::splice`]). Today: Anthropic's
//! Messages API ([`anthropic`]); OpenAI's Responses and Chat Completions
//! APIs (Codex CLI, Aider) would be modules beside it producing the same
//! [`Request`].

pub mod anthropic;

use std::borrow::Cow;
use std::ops::Range;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The user (and tool results, which travel in user messages).
    User,
    /// The model.
    Assistant,
    /// Anything else a dialect may carry.
    Other,
}

/// A JSON string of the body: where it is, and its raw (escaped) text.
#[derive(Debug, Clone)]
pub struct JsonText<'a> {
    /// The byte range of the string literal, quotes included.
    pub span: Range<usize>,
    /// The literal as it stands in the body, quotes included.
    pub raw: &'a str,
}

impl JsonText<'_> {
    /// The decoded text.
    pub fn text(&self) -> Cow<'_, str> {
        serde_json::from_str::<Cow<'_, str>>(self.raw).unwrap_or(Cow::Borrowed(""))
    }
}

/// What a tool returned, as the model reads it.
#[derive(Debug, Clone)]
pub struct ToolResult<'a> {
    /// The call it answers.
    pub tool_use_id: String,
    /// Whether the call failed.
    pub is_error: bool,
    /// The byte range of the whole `content` value.
    pub content_span: Range<usize>,
    /// The raw `content` value.
    pub content_raw: &'a str,
    /// Its text parts, in order (one for a string content).
    pub texts: Vec<JsonText<'a>>,
    /// Its other parts (images, documents), raw, in order.
    pub others: Vec<&'a str>,
    /// Whether `content` is a plain string (else a list of blocks).
    pub content_is_string: bool,
}

impl ToolResult<'_> {
    /// The text the model reads: the text parts joined by newlines.
    pub fn text(&self) -> String {
        self.texts
            .iter()
            .map(|t| t.text().into_owned())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A tool call the model made.
#[derive(Debug, Clone)]
pub struct ToolUse<'a> {
    /// Its id.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The byte range of its `input` object.
    pub input_span: Range<usize>,
    /// The raw `input` object.
    pub input_raw: &'a str,
}

/// One block of a message.
#[derive(Debug, Clone)]
pub enum Block<'a> {
    /// Text (a string content is one text block).
    Text(JsonText<'a>),
    /// A tool call.
    ToolUse(ToolUse<'a>),
    /// A tool's result.
    ToolResult(ToolResult<'a>),
    /// Anything else (thinking, images, server tools): never touched.
    Other,
}

/// One message.
#[derive(Debug, Clone)]
pub struct Message<'a> {
    /// Who wrote it.
    pub role: Role,
    /// Its blocks, in order.
    pub blocks: Vec<Block<'a>>,
    /// The byte range of its `content`.
    pub content_span: Range<usize>,
}

/// A request, as the gardener sees it.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The body it was parsed from.
    pub body: &'a str,
    /// The model asked for.
    pub model: Option<String>,
    /// The agent's session id, when the body carries one.
    pub session: Option<String>,
    /// The conversation, oldest message first.
    pub messages: Vec<Message<'a>>,
    /// Whether the client asked for a streamed answer.
    pub stream: bool,
}

impl<'a> Request<'a> {
    /// Every tool call of the conversation by id.
    pub fn tool_uses(&self) -> std::collections::HashMap<&str, &ToolUse<'a>> {
        self.messages
            .iter()
            .flat_map(|m| &m.blocks)
            .filter_map(|b| match b {
                Block::ToolUse(u) => Some((u.id.as_str(), u)),
                _ => None,
            })
            .collect()
    }
}

/// A JSON string literal for `text`.
pub fn json_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}
