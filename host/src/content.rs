//! ghost's own vocabulary for content: classes, compression requests and
//! results. The runtime converts these to and from each WIT version's
//! generated types, so the rest of ghost never sees a binding type.

use std::fmt;
use std::str::FromStr;

/// What kind of text a tool produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ContentClass {
    /// Line-oriented output: builds, tests, servers, commands.
    Log,
    /// Source code.
    Code,
    /// JSON, YAML, TOML, CSV, XML.
    Structured,
    /// Natural-language text.
    Prose,
    /// Exceptions, panics, stack traces.
    Error,
    /// The user's own words: never compressed.
    Prompt,
}

impl ContentClass {
    /// Every class, in the order people see them listed.
    pub const ALL: [ContentClass; 6] = [
        ContentClass::Log,
        ContentClass::Code,
        ContentClass::Structured,
        ContentClass::Prose,
        ContentClass::Error,
        ContentClass::Prompt,
    ];

    /// The lowercase name used on the command line and in the WIT contract.
    pub fn as_str(self) -> &'static str {
        match self {
            ContentClass::Log => "log",
            ContentClass::Code => "code",
            ContentClass::Structured => "structured",
            ContentClass::Prose => "prose",
            ContentClass::Error => "error",
            ContentClass::Prompt => "prompt",
        }
    }
}

impl fmt::Display for ContentClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A class name that is not one of [`ContentClass::ALL`].
#[derive(Debug, thiserror::Error)]
#[error("unknown class '{0}' (expected one of: log, code, structured, prose, error, prompt)")]
pub struct UnknownClass(pub String);

impl FromStr for ContentClass {
    type Err = UnknownClass;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ContentClass::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownClass(s.to_string()))
    }
}

/// What ghost asks a compressor to shrink.
#[derive(Debug, Clone)]
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

/// What a compressor gave back.
#[derive(Debug, Clone, PartialEq)]
pub struct Compressed {
    /// The compressed text.
    pub text: String,
    /// Short notes for people.
    pub notes: Vec<String>,
}

/// What ghost asks a classifier to label.
#[derive(Debug, Clone)]
pub struct ClassifyRequest {
    /// The text to classify.
    pub text: String,
    /// The agent tool that produced it, when known.
    pub tool_name: Option<String>,
    /// The file it came from, when known.
    pub source_path: Option<String>,
}

/// A classifier's answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Classification {
    /// The most likely class.
    pub class: ContentClass,
    /// Confidence from 0.0 to 1.0.
    pub confidence: f32,
}
