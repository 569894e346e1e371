//! `ghost context` and the MCP `context` tool: what fills a session's
//! context window now (since its last compaction), read from its transcript,
//! beside what ghost replaced (in the hooks, and in the gateway when it runs)
//! and what it would swap out next.
//!
//! Tokens are o200k_base counts of the text as the transcript holds it (a
//! close stand-in for Claude's tokenizer); the system prompt and tool
//! definitions are not in the transcript, so they are estimated from the
//! first reply's usage minus the conversation before it.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use ghost_core::tokens;
use ghost_store::report::EvictionCandidate;
use ghost_store::{ContextReading, GatewaySavings, Store, now_ms};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::transcript::{self, Item};

/// Items listed among the largest.
pub const LARGEST: usize = 10;

/// The `context` tool's arguments.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct ContextRequest {
    /// The session (default: the latest one ghost saw).
    #[serde(default)]
    pub session: Option<String>,
}

/// Tokens of one kind of content.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct KindTokens {
    /// `system + tools` (with the compaction summary after a compaction),
    /// `user prompts`, `assistant text`, `thinking`, `tool calls` or `tool
    /// results`.
    pub kind: String,
    /// For tool calls and results: the tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// How many items.
    pub items: usize,
    /// Their tokens.
    pub tokens: usize,
}

/// One large item of the context.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LargeItem {
    /// Its kind.
    pub kind: String,
    /// The tool, for tool calls and results.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Its line in the transcript.
    pub line: usize,
    /// Its tokens.
    pub tokens: usize,
    /// Its first line, shortened.
    pub preview: String,
}

/// Tool results by how many user turns ago they arrived.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AgeBucket {
    /// `this turn`, `1-2 turns ago`, `3-5 turns ago`, `6-10 turns ago`,
    /// `older`.
    pub age: String,
    /// Results.
    pub results: usize,
    /// Their tokens.
    pub tokens: usize,
}

/// What ghost replaced in this session.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Replaced {
    /// Entries stored.
    pub entries: i64,
    /// Tokens of their originals.
    pub original_tokens: i64,
    /// Tokens the agent saw instead.
    pub shown_tokens: i64,
}

/// The report.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ContextReport {
    /// The session.
    pub session: String,
    /// Its transcript.
    pub transcript: String,
    /// The context reading ghost holds (the newest of transcript, status
    /// line and gateway).
    pub reading: ContextReading,
    /// Tokens of the conversation since the last compaction, by kind.
    pub by_kind: Vec<KindTokens>,
    /// Their sum.
    pub total_tokens: usize,
    /// The largest items.
    pub largest: Vec<LargeItem>,
    /// Tool results by age.
    pub result_ages: Vec<AgeBucket>,
    /// What ghost replaced.
    pub replaced: Replaced,
    /// What the gardener would swap out next (lowest priority first).
    pub swap_next: Vec<EvictionCandidate>,
    /// What ghost's gateway did for the session, when it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gateway: Option<GatewaySavings>,
}

fn first_line(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let short: String = line.chars().take(100).collect();
    if short.len() < line.len() {
        format!("{short}…")
    } else {
        short
    }
}

fn age_label(turns: usize) -> &'static str {
    match turns {
        0 => "this turn",
        1..=2 => "1-2 turns ago",
        3..=5 => "3-5 turns ago",
        6..=10 => "6-10 turns ago",
        _ => "older",
    }
}

/// The report for `request.session` (default: the latest) from `store`.
pub fn report(store: &Store, request: &ContextRequest) -> Result<ContextReport> {
    let session = match &request.session {
        Some(s) => s.clone(),
        None => store
            .latest_session()?
            .context("ghost has seen no session yet; pass a session id")?,
    };
    let path = store
        .session_context()
        .transcript_path(&session)?
        .with_context(|| {
            format!(
                "ghost does not know session {session}'s transcript yet (a hook records it on the \
                 next tool call)"
            )
        })?;
    let t = transcript::read(Path::new(&path))?;
    let items = t.since_compaction();

    // The tool of each call, for its result.
    let tool_of: BTreeMap<&str, &str> = items
        .iter()
        .filter_map(|(_, i)| match i {
            Item::ToolUse { id, name, .. } => Some((id.as_str(), name.as_str())),
            _ => None,
        })
        .collect();
    let prompts_total = items
        .iter()
        .filter(|(_, i)| matches!(i, Item::UserPrompt { .. }))
        .count();
    let mut kinds: BTreeMap<(String, Option<String>), (usize, usize)> = BTreeMap::new();
    let mut largest: Vec<LargeItem> = Vec::new();
    let mut ages: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    let mut prompts_seen = 0;
    for (line, item) in items {
        // Thinking is counted by its length (four characters a token): the
        // transcript keeps no more than its size.
        let (kind, tool, n, preview): (&str, Option<String>, usize, String) = match item {
            Item::UserPrompt { text } => {
                prompts_seen += 1;
                ("user prompts", None, tokens::count(text), first_line(text))
            }
            Item::AssistantText { text } => (
                "assistant text",
                None,
                tokens::count(text),
                first_line(text),
            ),
            Item::Thinking { chars } => ("thinking", None, chars.div_ceil(4), String::new()),
            Item::ToolUse { name, input, .. } => {
                let text = input.to_string();
                (
                    "tool calls",
                    Some(name.clone()),
                    tokens::count(&text),
                    first_line(&text),
                )
            }
            Item::ToolResult { id, text, .. } => (
                "tool results",
                Some(tool_of.get(id.as_str()).unwrap_or(&"?").to_string()),
                tokens::count(text),
                first_line(text),
            ),
            Item::Usage { .. } | Item::Compaction => continue,
        };
        let e = kinds.entry((kind.to_string(), tool.clone())).or_default();
        e.0 += 1;
        e.1 += n;
        if kind == "tool results" {
            let a = ages
                .entry(age_label(prompts_total - prompts_seen))
                .or_default();
            a.0 += 1;
            a.1 += n;
        }
        largest.push(LargeItem {
            kind: kind.to_string(),
            tool,
            line: *line,
            tokens: n,
            preview,
        });
    }
    largest.sort_by_key(|i| std::cmp::Reverse(i.tokens));
    largest.truncate(LARGEST);
    let conversation: usize = kinds.values().map(|(_, n)| n).sum();
    let mut by_kind: Vec<KindTokens> = kinds
        .into_iter()
        .map(|((kind, tool), (items, tokens))| KindTokens {
            kind,
            tool,
            items,
            tokens,
        })
        .collect();
    // The system prompt and tools: the first reply's context minus what
    // came before it in the conversation (none of it when it was the first).
    let first_reply = items.iter().find_map(|(_, i)| match i {
        Item::Usage { tokens } => Some(*tokens as usize),
        _ => None,
    });
    if let Some(first) = first_reply {
        by_kind.insert(
            0,
            KindTokens {
                kind: if items.len() < t.items.len() {
                    "system + tools + compaction summary".into()
                } else {
                    "system + tools".into()
                },
                tool: None,
                items: 1,
                tokens: first.saturating_sub(first_prompt_tokens(items)),
            },
        );
    }
    by_kind.sort_by_key(|k| std::cmp::Reverse(k.tokens));
    let total_tokens = by_kind
        .iter()
        .map(|k| k.tokens)
        .sum::<usize>()
        .max(conversation);
    let order = [
        "this turn",
        "1-2 turns ago",
        "3-5 turns ago",
        "6-10 turns ago",
        "older",
    ];
    let result_ages = order
        .iter()
        .filter_map(|label| {
            ages.get(label).map(|(results, tokens)| AgeBucket {
                age: label.to_string(),
                results: *results,
                tokens: *tokens,
            })
        })
        .collect();
    let p = store.pressure(Some(&session), now_ms())?;
    Ok(ContextReport {
        session,
        transcript: path,
        reading: p.context,
        by_kind,
        total_tokens,
        largest,
        result_ages,
        replaced: Replaced {
            entries: p.entries,
            original_tokens: p.original_tokens,
            shown_tokens: p.summary_tokens,
        },
        swap_next: p.eviction_candidates,
        gateway: p.gateway,
    })
}

/// Tokens of the user's first prompt (what the first reply's context held
/// beside the system prompt and tools).
fn first_prompt_tokens(items: &[(usize, Item)]) -> usize {
    items
        .iter()
        .find_map(|(_, i)| match i {
            Item::UserPrompt { text } => Some(tokens::count(text)),
            _ => None,
        })
        .unwrap_or(0)
}

/// The report as text for people and agents; `detail` adds the largest
/// items and what would be swapped next.
pub fn render(r: &ContextReport, detail: bool) -> String {
    let mut out = format!(
        "session {} · context {}% ({} of {} tokens, by the {})\n\nby kind (since the last compaction):\n",
        r.session,
        r.reading.percent,
        r.reading.used_tokens,
        r.reading.window_tokens,
        r.reading.source
    );
    for k in &r.by_kind {
        let share = 100.0 * k.tokens as f64 / r.total_tokens.max(1) as f64;
        let name = match &k.tool {
            Some(t) => format!("{} · {t}", k.kind),
            None => k.kind.clone(),
        };
        out.push_str(&format!(
            "  {name:<32} {:>8} tokens {share:>5.1}%  ({} items)\n",
            k.tokens, k.items
        ));
    }
    out.push_str("\ntool results by age:\n");
    for a in &r.result_ages {
        out.push_str(&format!(
            "  {:<16} {:>4} results {:>8} tokens\n",
            a.age, a.results, a.tokens
        ));
    }
    out.push_str(&format!(
        "\nghost replaced {} results: {} tokens shown as {}\n",
        r.replaced.entries, r.replaced.original_tokens, r.replaced.shown_tokens
    ));
    if let Some(g) = &r.gateway {
        out.push_str(&ghost_core::render::gateway_line(g));
    }
    if detail {
        out.push_str("\nlargest items:\n");
        for i in &r.largest {
            out.push_str(&format!(
                "  {:>7} tokens  {}{} (line {})  {}\n",
                i.tokens,
                i.kind,
                i.tool
                    .as_deref()
                    .map(|t| format!(" · {t}"))
                    .unwrap_or_default(),
                i.line,
                i.preview
            ));
        }
        out.push_str("\nwould swap out next (lowest priority first):\n");
        for c in &r.swap_next {
            out.push_str(&format!(
                "  id={} · {} · {} · {} tokens · priority {:.2}\n",
                c.id, c.class, c.source, c.summary_tokens, c.priority
            ));
        }
    }
    out
}
