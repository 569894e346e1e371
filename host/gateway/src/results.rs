//! A tool result as the model reads it on the request path, taken apart
//! into the hooks' [`Extracted`] (so the same policy decides what is shown:
//! [`ghost_claude::replacement`]), and put back together around a shorter
//! text in the same frame: a Read's lines in the numbering the model saw,
//! Grep's "Found N files" line, a background task's tags, Claude Code's
//! notes after a Read.
//!
//! Text formats as observed on Claude Code 2.1.329 (`1\tline` for a Read;
//! older versions wrote `     1→line`), in `../shared/claude-code/`.

use ghost_claude::policy::MAX_PERSISTED_BYTES;
use ghost_claude::response::{Extracted, Slot, is_ghost_tool};
use ghost_claude::tools::{self, Shape};
use serde::Deserialize;
use serde_json::Value;

/// The fields of a tool call's input the gateway reads.
#[derive(Debug, Default, Deserialize)]
pub struct CallInput {
    /// Bash's command.
    #[serde(default)]
    pub command: Option<String>,
    /// Read's, Write's and Edit's file.
    #[serde(default)]
    pub file_path: Option<String>,
    /// Read's first line, when targeted.
    #[serde(default)]
    pub offset: Option<Value>,
    /// Read's line count, when targeted.
    #[serde(default)]
    pub limit: Option<Value>,
    /// Grep's and Glob's pattern.
    #[serde(default)]
    pub pattern: Option<String>,
    /// Grep's and Glob's folder.
    #[serde(default)]
    pub path: Option<String>,
    /// Grep's mode (`content`, `count`, `files_with_matches`).
    #[serde(default)]
    pub output_mode: Option<String>,
    /// WebFetch's address.
    #[serde(default)]
    pub url: Option<String>,
    /// A background task's id.
    #[serde(default)]
    pub task_id: Option<String>,
    /// An MCP call's entry id (ghost's `get`).
    #[serde(default)]
    pub id: Option<String>,
}

impl CallInput {
    /// Reads a call's raw input; an input ghost cannot read is an empty one.
    pub fn parse(raw: &str) -> Self {
        serde_json::from_str(raw).unwrap_or_default()
    }

    /// What the call was about, for people: the command, the file, the
    /// pattern, the address.
    pub fn subject(&self) -> String {
        let what = self
            .command
            .as_deref()
            .or(self.file_path.as_deref())
            .or(self.pattern.as_deref())
            .or(self.url.as_deref())
            .or(self.task_id.as_deref())
            .unwrap_or_default();
        let first = what.lines().next().unwrap_or_default();
        let mut short: String = first.chars().take(80).collect();
        if short.len() < what.len() {
            short.push('…');
        }
        short
    }
}

/// How the text sat in the result, hence how a shorter one goes back.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Frame {
    /// The text is the whole result.
    Whole,
    /// A Read's numbered lines: `N<TAB>` (or `N→` padded to `width`), and
    /// what Claude Code put after them.
    Read {
        arrow: bool,
        width: usize,
        trailer: String,
    },
    /// A file list under Grep's `Found N files` line.
    Found { header: String },
    /// A background task's output inside its tags.
    Task { before: String, after: String },
}

/// A result taken apart.
#[derive(Debug, Clone)]
pub struct ModelResult {
    /// What the policy decides on.
    pub extracted: Extracted,
    frame: Frame,
}

impl ModelResult {
    /// A result of tool `tool` called with `input`, whose text the model
    /// reads is `text`; `None` for a result the gateway leaves alone on
    /// arrival (a targeted Read, ghost's own tools, a tool ghost does not
    /// know, unless the call failed: any failure's output is compressible).
    pub fn take_apart(tool: &str, input: &CallInput, text: &str, is_error: bool) -> Option<Self> {
        if tool.starts_with("mcp__") && is_ghost_tool(tool) {
            return None;
        }
        let shape = tools::shape_of(tool);
        if is_error {
            return Some(Self::whole(text, Slot::BashOutput, input.subject()));
        }
        let result = match shape? {
            Shape::Bash => {
                let (text, persisted) = persisted_output(text);
                let mut r = Self::whole(&text, Slot::BashOutput, input.subject());
                r.extracted.persisted = persisted;
                r
            }
            Shape::Read => {
                if input.offset.as_ref().is_some_and(|v| !v.is_null())
                    || input.limit.as_ref().is_some_and(|v| !v.is_null())
                {
                    return None;
                }
                Self::read(input.file_path.as_deref()?, text)?
            }
            Shape::Grep => match input.output_mode.as_deref() {
                Some("content" | "count") => {
                    Self::whole(text, Slot::GrepContent, grep_context(input))
                }
                _ => Self::found(text, grep_context(input)),
            },
            Shape::Glob => Self::whole(text, Slot::FileList, grep_context(input)),
            Shape::WebFetch => Self::whole(text, Slot::WebFetchResult, input.subject()),
            Shape::TaskOutput => Self::task(text, input.subject()),
            Shape::Mcp => Self::whole(text, Slot::McpText, tool.to_string()),
        };
        Some(result)
    }

    fn whole(text: &str, slot: Slot, context: String) -> Self {
        Self {
            extracted: Extracted {
                text: text.to_string(),
                slot,
                source_path: None,
                context,
                persisted: false,
            },
            frame: Frame::Whole,
        }
    }

    /// A Read: numbered lines from the first line on, then Claude Code's own
    /// notes (a `<system-reminder>`), if any.
    fn read(path: &str, text: &str) -> Option<Self> {
        let mut content = String::new();
        let mut start = None;
        let mut arrow = false;
        let mut width = 0;
        let mut consumed = 0;
        for line in text.split_inclusive('\n') {
            let Some((n, sep, rest)) = numbered_line(line.trim_end_matches('\n')) else {
                break;
            };
            if start.is_none() {
                start = Some(n);
                arrow = sep == '→';
                width = line.find(sep).unwrap_or(0);
            }
            content.push_str(rest);
            content.push('\n');
            consumed += line.len();
        }
        let start_line = start?;
        Some(Self {
            extracted: Extracted {
                text: content,
                slot: Slot::ReadContent { start_line },
                source_path: Some(path.to_string()),
                context: path.to_string(),
                persisted: false,
            },
            frame: Frame::Read {
                arrow,
                width,
                trailer: text[consumed..].to_string(),
            },
        })
    }

    /// Grep's file list: `Found N files` then one path a line.
    fn found(text: &str, context: String) -> Self {
        match text.split_once('\n') {
            Some((header, names)) if header.starts_with("Found ") => Self {
                extracted: Extracted {
                    text: names.to_string(),
                    slot: Slot::FileList,
                    source_path: None,
                    context,
                    persisted: false,
                },
                frame: Frame::Found {
                    header: header.to_string(),
                },
            },
            _ => Self::whole(text, Slot::FileList, context),
        }
    }

    /// A background task's answer: its tags, and its output between
    /// `<output>` and `</output>`.
    fn task(text: &str, context: String) -> Self {
        let open = "<output>\n";
        let close = "</output>";
        match (text.find(open), text.rfind(close)) {
            (Some(i), Some(j)) if i + open.len() <= j => Self {
                extracted: Extracted {
                    text: text[i + open.len()..j].to_string(),
                    slot: Slot::TaskOutput,
                    source_path: None,
                    context,
                    persisted: false,
                },
                frame: Frame::Task {
                    before: text[..i + open.len()].to_string(),
                    after: text[j..].to_string(),
                },
            },
            _ => Self::whole(text, Slot::TaskOutput, context),
        }
    }

    /// The result's text with `shorter` in place of what was taken out.
    pub fn put_back(&self, shorter: &str) -> String {
        match &self.frame {
            Frame::Whole => shorter.to_string(),
            Frame::Found { header } => format!("{header}\n{shorter}"),
            Frame::Task { before, after } => {
                format!("{before}{}\n{after}", shorter.trim_end_matches('\n'))
            }
            Frame::Read {
                arrow,
                width,
                trailer,
            } => {
                let mut out = String::with_capacity(shorter.len() + trailer.len());
                for line in shorter.lines() {
                    match numbered_line(line).filter(|(_, sep, _)| *sep == '→') {
                        Some((n, _, rest)) if *arrow => {
                            out.push_str(&format!("{n:>width$}→{rest}\n", width = *width))
                        }
                        Some((n, _, rest)) => out.push_str(&format!("{n}\t{rest}\n")),
                        None => {
                            out.push_str(line);
                            out.push('\n');
                        }
                    }
                }
                if trailer.is_empty() {
                    out.truncate(out.trim_end_matches('\n').len());
                } else {
                    out.push_str(trailer.trim_start_matches('\n'));
                }
                out
            }
        }
    }
}

/// `  12→text` or `12<TAB>text`: the number, the separator and the text.
fn numbered_line(line: &str) -> Option<(usize, char, &str)> {
    let trimmed = line.trim_start_matches(' ');
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = &trimmed[digits..];
    let sep = rest.chars().next()?;
    if sep != '\t' && sep != '→' {
        return None;
    }
    Some((
        trimmed[..digits].parse().ok()?,
        sep,
        &rest[sep.len_utf8()..],
    ))
}

fn grep_context(input: &CallInput) -> String {
    format!(
        "{} {}",
        input.pattern.as_deref().unwrap_or_default(),
        input.path.as_deref().unwrap_or_default()
    )
}

/// A Bash output Claude Code persisted (`<persisted-output>` … `Full output
/// saved to: PATH` … a 2 KB preview): the whole output read back from the
/// file when it is there, else the text as it is; and whether it was one.
fn persisted_output(text: &str) -> (String, bool) {
    if !text.starts_with("<persisted-output>") {
        return (text.to_string(), false);
    }
    let path = text
        .lines()
        .find_map(|l| l.split_once("saved to: ").map(|(_, p)| p.trim()));
    let full = path
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() <= MAX_PERSISTED_BYTES))
        .and_then(|p| std::fs::read_to_string(p).ok());
    match full {
        Some(full) => (full, true),
        None => (text.to_string(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(json: &str) -> CallInput {
        CallInput::parse(json)
    }

    #[test]
    fn a_read_keeps_its_numbering_and_claude_codes_notes() {
        let text = "1\tfn a() {\n2\t    x\n3\t}\n\n<system-reminder>be careful</system-reminder>\n";
        let r = ModelResult::take_apart("Read", &input(r#"{"file_path":"/a.rs"}"#), text, false)
            .unwrap();
        assert_eq!(r.extracted.text, "fn a() {\n    x\n}\n");
        assert_eq!(r.extracted.slot, Slot::ReadContent { start_line: 1 });
        let back = r
            .put_back("1→fn a() {\n    … lines 2–2 folded (Read offset=2 limit=1)\n3→}\n[ghost …]");
        assert_eq!(
            back,
            "1\tfn a() {\n    … lines 2–2 folded (Read offset=2 limit=1)\n3\t}\n[ghost …]\n<system-reminder>be careful</system-reminder>\n"
        );
        // The older arrow style, padded.
        let old = "     1→a\n     2→b";
        let r =
            ModelResult::take_apart("Read", &input(r#"{"file_path":"/a"}"#), old, false).unwrap();
        assert_eq!(r.put_back("1→a\n2→b"), old);
        // A targeted Read is left alone.
        assert!(
            ModelResult::take_apart(
                "Read",
                &input(r#"{"file_path":"/a","offset":5,"limit":2}"#),
                "5\tx",
                false
            )
            .is_none()
        );
    }

    #[test]
    fn frames_go_back_around_the_shorter_text() {
        let grep = "Found 3 files\na.rs\nb.rs\nc.rs";
        let r = ModelResult::take_apart("Grep", &input(r#"{"pattern":"x"}"#), grep, false).unwrap();
        assert_eq!(r.extracted.text, "a.rs\nb.rs\nc.rs");
        assert_eq!(r.put_back("(3 files)"), "Found 3 files\n(3 files)");
        let task = "<status>done</status>\n\n<output>\nlong\nlog\n</output>";
        let r = ModelResult::take_apart("TaskOutput", &input("{}"), task, false).unwrap();
        assert_eq!(r.extracted.text, "long\nlog\n");
        assert_eq!(
            r.put_back("short"),
            "<status>done</status>\n\n<output>\nshort\n</output>"
        );
        assert!(ModelResult::take_apart("mcp__ghost__get", &input("{}"), "x", false).is_none());
        assert!(ModelResult::take_apart("Write", &input("{}"), "ok", false).is_none());
        let failed = ModelResult::take_apart("Write", &input("{}"), "Exit", true).unwrap();
        assert_eq!(failed.extracted.slot, Slot::BashOutput);
    }
}
