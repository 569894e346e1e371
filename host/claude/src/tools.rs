//! The tools whose PostToolUse results ghost handles: one table, from which
//! the hook's dispatch, the matcher `ghost install` writes and the plugin's
//! `hooks/hooks.json` are all derived, so a tool the hook handles is always
//! one Claude Code sends it.

/// How a tool's result carries its text (see [`crate::response`]), hence
/// how ghost takes it out and puts a shorter one back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `stdout` and `stderr`, maybe persisted to a file when long.
    Bash,
    /// `file.content`, numbered from `file.startLine`.
    Read,
    /// `content` (content and count modes) or `filenames` (file mode).
    Grep,
    /// `filenames`.
    Glob,
    /// A background command's output: `task.output`.
    TaskOutput,
    /// `result`.
    WebFetch,
    /// An MCP tool's content blocks (or string).
    Mcp,
}

/// How a tool is named in Claude Code's `tool_name`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolName {
    /// Exactly this name.
    Exact(&'static str),
    /// Any name starting with this (MCP tools: `mcp__<server>__<tool>`).
    Prefix(&'static str),
}

impl ToolName {
    /// Whether `name` is this tool.
    pub fn matches(self, name: &str) -> bool {
        match self {
            ToolName::Exact(exact) => name == exact,
            ToolName::Prefix(prefix) => name.starts_with(prefix),
        }
    }

    /// This name in a Claude Code matcher (a regular expression):
    /// `Bash`, `mcp__.*`.
    fn pattern(self) -> String {
        match self {
            ToolName::Exact(exact) => exact.to_string(),
            ToolName::Prefix(prefix) => format!("{prefix}.*"),
        }
    }
}

/// Every tool whose PostToolUse result ghost compresses, and its shape.
pub const HANDLED: &[(ToolName, Shape)] = &[
    (ToolName::Exact("Bash"), Shape::Bash),
    (ToolName::Exact("Read"), Shape::Read),
    (ToolName::Exact("Grep"), Shape::Grep),
    (ToolName::Exact("Glob"), Shape::Glob),
    (ToolName::Exact("WebFetch"), Shape::WebFetch),
    (ToolName::Exact("TaskOutput"), Shape::TaskOutput),
    (ToolName::Prefix("mcp__"), Shape::Mcp),
];

/// The shape of `tool`'s result, when ghost handles that tool.
pub fn shape_of(tool: &str) -> Option<Shape> {
    HANDLED
        .iter()
        .find(|(name, _)| name.matches(tool))
        .map(|(_, shape)| *shape)
}

/// The PostToolUse matcher that sends Claude Code's hook exactly the tools
/// in [`HANDLED`]: `^(Bash|Read|…|mcp__.*)$`.
pub fn post_tool_use_matcher() -> String {
    let names: Vec<String> = HANDLED.iter().map(|(name, _)| name.pattern()).collect();
    format!("^({})$", names.join("|"))
}

/// Whether the installed PostToolUse matcher sends `tool`'s results to the
/// hook (the same table as [`post_tool_use_matcher`], without a regex engine).
pub fn hook_sees(tool: &str) -> bool {
    shape_of(tool).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tool names Claude Code uses (its own tools, seen in the shared
    /// transcripts and payloads, and MCP tools).
    const NAMES: &[&str] = &[
        "Bash",
        "Read",
        "Grep",
        "Glob",
        "WebFetch",
        "TaskOutput",
        "mcp__ghost__get",
        "mcp__echo__echo",
        "Write",
        "Edit",
        "MultiEdit",
        "Task",
        "WebSearch",
        "TodoWrite",
        "AskUserQuestion",
        "ExitPlanMode",
        "Skill",
        "BashOutput",
        "NotebookEdit",
        "Bash2",
        "xBash",
        "mcp_",
        "read",
    ];

    #[test]
    fn the_matcher_and_the_table_agree_on_every_name() {
        let matcher = regex::Regex::new(&post_tool_use_matcher()).unwrap();
        for name in NAMES {
            assert_eq!(matcher.is_match(name), hook_sees(name), "{name}");
        }
        assert_eq!(
            post_tool_use_matcher(),
            "^(Bash|Read|Grep|Glob|WebFetch|TaskOutput|mcp__.*)$"
        );
    }
}
