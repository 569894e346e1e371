//! Claude Code's hook payloads (the JSON each `ghost hook <event>` reads on
//! stdin) as serde types, with only the fields ghost uses; Claude Code adds
//! fields between versions, so unknown ones are ignored. Shapes as observed
//! on Claude Code 2.1.329 (`../shared/claude-code/payloads/`).
//!
//! A tool's `tool_response` stays a [`Value`]: ghost answers with the same
//! object and only its text replaced, so every key Claude Code sent must go
//! back as it came. Its text is read through the typed views of
//! [`crate::response`].

use serde::Deserialize;
use serde_json::Value;

/// `PostToolUse`: a tool succeeded.
#[derive(Debug, Clone, Deserialize)]
pub struct PostToolUse {
    /// The session.
    pub session_id: String,
    /// The session's transcript (JSON lines).
    #[serde(default)]
    pub transcript_path: Option<String>,
    /// The subagent that ran the tool (absent for the main agent).
    #[serde(default)]
    pub agent_id: Option<String>,
    /// The tool's name (`Bash`, `Read`, `mcp__server__tool`, …).
    pub tool_name: String,
    /// The tool call's id.
    pub tool_use_id: String,
    /// What the tool was called with.
    #[serde(default)]
    pub tool_input: Value,
    /// The tool's structured output.
    pub tool_response: Value,
}

impl PostToolUse {
    /// The agent that saw the result: empty for the session's main agent.
    pub fn agent(&self) -> &str {
        self.agent_id.as_deref().unwrap_or_default()
    }
}

/// `PostToolUseFailure`: a tool failed (nothing can be replaced).
#[derive(Debug, Clone, Deserialize)]
pub struct PostToolUseFailure {
    /// The session.
    pub session_id: String,
    /// The tool's name.
    #[serde(default)]
    pub tool_name: Option<String>,
    /// The tool call's id.
    #[serde(default)]
    pub tool_use_id: Option<String>,
    /// The id of the prompt the call answered.
    #[serde(default)]
    pub prompt_id: Option<String>,
    /// The error, as the model sees it.
    pub error: String,
}

/// `UserPromptSubmit`: the user sent a prompt.
#[derive(Debug, Clone, Deserialize)]
pub struct UserPromptSubmit {
    /// The session.
    pub session_id: String,
    /// The session's transcript (JSON lines).
    #[serde(default)]
    pub transcript_path: Option<String>,
    /// The prompt's id.
    #[serde(default)]
    pub prompt_id: Option<String>,
    /// The user's words.
    pub prompt: String,
}

/// `PreCompact`: compaction is about to run.
#[derive(Debug, Clone, Deserialize)]
pub struct PreCompact {
    /// The session.
    pub session_id: String,
    /// The session's transcript (JSON lines).
    #[serde(default)]
    pub transcript_path: Option<String>,
    /// The session's working directory: its project.
    #[serde(default)]
    pub cwd: Option<String>,
    /// `manual` (`/compact`) or `auto`.
    #[serde(default)]
    pub trigger: Option<String>,
}

/// `SessionEnd`: a session ended.
#[derive(Debug, Clone, Deserialize)]
pub struct SessionEnd {
    /// The session.
    pub session_id: String,
    /// The session's transcript (JSON lines).
    #[serde(default)]
    pub transcript_path: Option<String>,
    /// The session's working directory: its project.
    #[serde(default)]
    pub cwd: Option<String>,
}

/// `PreToolUse`: a tool is about to run.
#[derive(Debug, Clone, Deserialize)]
pub struct PreToolUse {
    /// The session.
    pub session_id: String,
    /// The session's transcript (JSON lines).
    #[serde(default)]
    pub transcript_path: Option<String>,
    /// The subagent about to run the tool (absent for the main agent).
    #[serde(default)]
    pub agent_id: Option<String>,
}

/// `PostCompact`: compaction ran.
#[derive(Debug, Clone, Deserialize)]
pub struct PostCompact {
    /// The session.
    pub session_id: String,
    /// The id of the prompt that led to it.
    #[serde(default)]
    pub prompt_id: Option<String>,
    /// The summary that replaced the context.
    pub compact_summary: String,
}

/// `SessionStart`: a session started, resumed or was compacted.
#[derive(Debug, Clone, Deserialize)]
pub struct SessionStart {
    /// The session.
    pub session_id: String,
    /// The session's transcript (JSON lines).
    #[serde(default)]
    pub transcript_path: Option<String>,
    /// The session's working directory: its project.
    #[serde(default)]
    pub cwd: Option<String>,
    /// `startup`, `resume`, `compact` (or `clear`).
    #[serde(default)]
    pub source: String,
    /// On `resume`: the tokens in the resumed context.
    #[serde(default)]
    pub context_tokens: Option<i64>,
}

/// The statusLine command's input (documented; print mode never runs it).
#[derive(Debug, Clone, Deserialize)]
pub struct StatusLine {
    /// The session.
    pub session_id: String,
    /// The model.
    #[serde(default)]
    pub model: Model,
    /// The context window's reading.
    #[serde(default)]
    pub context_window: ContextWindow,
}

/// The model a status line reports.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Model {
    /// Its id (`claude-opus-5-5`).
    #[serde(default)]
    pub id: Option<String>,
    /// Its name for people (`Opus`).
    #[serde(default)]
    pub display_name: Option<String>,
}

/// The context window a status line reports.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ContextWindow {
    /// The window's size in tokens.
    #[serde(default)]
    pub context_window_size: Option<i64>,
    /// Its share in use, in percent.
    #[serde(default)]
    pub used_percentage: Option<f64>,
    /// The last reply's usage.
    #[serde(default)]
    pub current_usage: Option<Usage>,
}

/// A model reply's token usage.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Usage {
    /// Input tokens not read from or written to the cache.
    #[serde(default)]
    pub input_tokens: Option<i64>,
    /// Input tokens written to the cache.
    #[serde(default)]
    pub cache_creation_input_tokens: Option<i64>,
    /// Input tokens read from the cache.
    #[serde(default)]
    pub cache_read_input_tokens: Option<i64>,
}

impl Usage {
    /// The tokens in the context: every kind of input token.
    pub fn context_tokens(&self) -> i64 {
        [
            self.input_tokens,
            self.cache_creation_input_tokens,
            self.cache_read_input_tokens,
        ]
        .into_iter()
        .flatten()
        .sum()
    }
}

impl ContextWindow {
    /// Tokens in use: the share of the window when both are given, else the
    /// last reply's usage; `None` without a figure.
    pub fn used_tokens(&self) -> Option<i64> {
        match (self.used_percentage, self.context_window_size) {
            (Some(pct), Some(size)) => Some((pct / 100.0 * size as f64).round() as i64),
            _ => self
                .current_usage
                .as_ref()
                .map(Usage::context_tokens)
                .filter(|sum| *sum > 0),
        }
    }
}
