//! What ghost asks of a classifier and a compressor, and what they give
//! back, in ghost's own types. The runtime converts these to and from each
//! WIT version's generated types, so nothing else sees a binding type.

use crate::ContentClass;

/// What ghost asks a compressor to shrink.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressRequest {
    /// The text to compress.
    pub text: String,
    /// Its class.
    pub class: ContentClass,
    /// The agent tool that produced it, when known.
    pub tool_name: Option<String>,
    /// The file it came from, when known.
    pub source_path: Option<String>,
    /// A size hint in tokens.
    pub target_tokens: Option<u32>,
}

impl CompressRequest {
    /// A request for `text` of `class` with nothing else known.
    pub fn new(text: impl Into<String>, class: ContentClass) -> Self {
        Self {
            text: text.into(),
            class,
            tool_name: None,
            source_path: None,
            target_tokens: None,
        }
    }
}

/// A shorter text stands in for a longer one only when it is at most this
/// many percent of its bytes: saving a few percent is not worth a text the
/// reader may not find its words in (a fold marker can cost more tokens
/// than the lines it folds; a task description with two sentences cut
/// saved 2.6%). The runtime applies it to a compressor's answer, the Claude
/// Code adapter to what the model would see.
pub const MAX_KEPT_PERCENT: usize = 90;

/// Whether a text of `kept` bytes is clearly smaller than one of
/// `original` bytes (see [`MAX_KEPT_PERCENT`]).
pub fn clearly_smaller(kept: usize, original: usize) -> bool {
    kept * 100 <= original * MAX_KEPT_PERCENT
}

/// About how many tokens `text` is, without a tokenizer: one per four bytes,
/// rounded up (o200k_base averages about that on English and code). What a
/// compressor checks its result against a request's `target_tokens` with,
/// and what the host estimates with when it has no tokenizer at hand.
pub fn estimated_tokens(text: &str) -> usize {
    tokens_in_bytes(text.len())
}

/// About how many tokens `bytes` bytes of text are (see
/// [`estimated_tokens`]): what a room of that many bytes holds.
pub fn tokens_in_bytes(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

/// What a compressor gave back.
#[derive(Debug, Clone, PartialEq)]
pub struct Compressed {
    /// The compressed text.
    pub text: String,
    /// Short notes for people.
    pub notes: Vec<String>,
}

/// What ghost asks a classifier to label.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassifyRequest {
    /// The text to classify.
    pub text: String,
    /// The agent tool that produced it, when known.
    pub tool_name: Option<String>,
    /// The file it came from, when known.
    pub source_path: Option<String>,
    /// The shell command that printed it, when there was one.
    pub command: Option<String>,
}

impl ClassifyRequest {
    /// A request for `text` with no hints.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            tool_name: None,
            source_path: None,
            command: None,
        }
    }

    /// The file the text came from: the one given, else the one file the
    /// command printed (see [`crate::command::file_hint`]).
    pub fn file_hint(&self) -> Option<&str> {
        crate::command::file_hint(self.source_path.as_deref(), self.command.as_deref())
    }
}

/// A classifier's answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Classification {
    /// The most likely class.
    pub class: ContentClass,
    /// Confidence from 0.0 to 1.0.
    pub confidence: f32,
}
