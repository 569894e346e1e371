//! The MCP tools: their arguments, their definitions (schemas and
//! annotations) and what each one does on the store.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::excerpt::{DEFAULT_CONTEXT_LINES, Selection, excerpt};
use crate::render::{self, ForgetOutput, GetOutput};
use crate::store::recall::{RecallHit, RecallQuery};
use crate::store::report::{Pressure, Stats};
use crate::store::{Store, StoreError, now_ms};

/// Estimated token counts made exact before a report, at most.
pub const SETTLE_BEFORE_REPORT: usize = 5_000;

/// Most hits one recall returns.
pub const MAX_RECALL_LIMIT: u32 = 50;

/// Arguments of `recall`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecallArgs {
    /// What to look for, in plain words: an error message, a file or function
    /// name, a command. Punctuation and quotes are fine.
    pub query: String,
    /// Only entries of this class: log, code, structured, prose, error, prompt.
    pub class: Option<String>,
    /// Only entries of this session id.
    pub session: Option<String>,
    /// How many entries to return (default 5, at most 50).
    pub limit: Option<u32>,
    /// Return each entry's full original text too (default false).
    pub full: Option<bool>,
}

/// What `recall` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RecallOutput {
    /// The query as asked.
    pub query: String,
    /// The matching entries, best first.
    pub hits: Vec<RecallHit>,
}

/// Arguments of `get`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetArgs {
    /// The entry's id (from a ghost handle line or from recall).
    pub id: String,
    /// First line to return (1-based).
    pub start_line: Option<u32>,
    /// Last line to return (inclusive).
    pub end_line: Option<u32>,
    /// Return only the lines containing this text (case-insensitive), with
    /// context around them.
    pub around: Option<String>,
    /// Lines of context either side of each `around` match (default 3).
    pub context_lines: Option<u32>,
}

/// Arguments of `context_pressure`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PressureArgs {
    /// The session id (default: the most recent session).
    pub session: Option<String>,
}

/// Arguments of `forget`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgetArgs {
    /// The entry's id.
    pub id: String,
}

/// Arguments of `stats` (none).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatsArgs {}

fn tool<Args: JsonSchema + 'static, Out: JsonSchema + 'static>(
    name: &'static str,
    title: &str,
    description: &'static str,
    annotations: ToolAnnotations,
) -> Tool {
    Tool::new(name, description, JsonObject::new())
        .with_input_schema::<Args>()
        .with_output_schema::<Out>()
        .with_title(title)
        .with_annotations(annotations.open_world(false))
}

/// Every tool ghost serves.
pub fn definitions() -> Vec<Tool> {
    let read_only = || {
        ToolAnnotations::new()
            .read_only(true)
            .destructive(false)
            .idempotent(true)
    };
    vec![
        tool::<RecallArgs, RecallOutput>(
            "recall",
            "Search ghost's store",
            "Search every tool result ghost has stored (full originals of compressed outputs, \
             user prompts, errors) by words; ranked by relevance (BM25) and priority. Returns \
             ids with the matching passage; `get` an id for its text. Use it instead of \
             re-running a command or re-reading a file you saw before.",
            // `full` refreshes access times, but never changes what is stored.
            ToolAnnotations::new()
                .read_only(true)
                .destructive(false)
                .idempotent(true),
        ),
        tool::<GetArgs, GetOutput>(
            "get",
            "Get a stored original",
            "The original text of a ghost entry with line numbers: all of it, a line range \
             (start_line, end_line), or the lines around a match (around, context_lines). \
             Ids appear in ghost's handle lines, e.g. `[ghost 41.2k→3.1k tokens · full text: \
             get id=7f3a9c0b12de]`.",
            read_only(),
        ),
        tool::<PressureArgs, Pressure>(
            "context_pressure",
            "Context pressure",
            "How full the context window is (Claude Code's own reading when ghost has one, \
             else ghost's estimate), what ghost holds for the session per class (count, \
             original and summary tokens, ratio), the lowest-priority entries, and a \
             one-line recommendation.",
            read_only(),
        ),
        tool::<ForgetArgs, ForgetOutput>(
            "forget",
            "Forget an entry",
            "Forget a stored entry: it stops appearing in recall and get. Forgetting twice is \
             harmless.",
            ToolAnnotations::new()
                .read_only(false)
                .destructive(true)
                .idempotent(true),
        ),
        tool::<StatsArgs, Stats>(
            "stats",
            "Store statistics",
            "ghost's store in figures: size on disk, entries, sessions, tokens saved overall \
             and per day.",
            read_only(),
        ),
    ]
}

/// A tool call that could not be served, with a message for the agent.
#[derive(Debug)]
pub struct ToolFailure(pub String);

impl From<StoreError> for ToolFailure {
    fn from(e: StoreError) -> Self {
        ToolFailure(e.to_string())
    }
}

fn parse<T: for<'de> Deserialize<'de>>(
    tool: &str,
    args: Option<JsonObject>,
) -> Result<T, ToolFailure> {
    let value = serde_json::Value::Object(args.unwrap_or_default());
    serde_json::from_value(value).map_err(|e| ToolFailure(format!("{tool}: bad arguments: {e}")))
}

fn result<T: Serialize>(value: &T, text: String) -> Result<CallToolResult, ToolFailure> {
    let structured =
        serde_json::to_value(value).map_err(|e| ToolFailure(format!("serialising: {e}")))?;
    let mut result = CallToolResult::structured(structured);
    result.content = vec![ContentBlock::text(text)];
    Ok(result)
}

/// Runs the tool `name` with `args` on `store`.
pub fn call(
    store: &mut Store,
    name: &str,
    args: Option<JsonObject>,
) -> Result<CallToolResult, ToolFailure> {
    let now = now_ms();
    match name {
        "recall" => {
            let a: RecallArgs = parse(name, args)?;
            let query = RecallQuery {
                text: a.query.clone(),
                class: a.class.map(|c| c.trim().to_lowercase()),
                session: a.session,
                limit: a.limit.unwrap_or(5).clamp(1, MAX_RECALL_LIMIT) as usize,
                full: a.full.unwrap_or(false),
            };
            let hits = store.recall(&query, now)?;
            let text = render::recall(&a.query, &hits);
            result(
                &RecallOutput {
                    query: a.query,
                    hits,
                },
                text,
            )
        }
        "get" => {
            let a: GetArgs = parse(name, args)?;
            let entry = store.read(&a.id, now)?;
            let selection = selection(&a)?;
            let out = GetOutput::new(&entry, excerpt(&entry.original, &selection));
            let text = render::get(&out);
            result(&out, text)
        }
        "context_pressure" => {
            let a: PressureArgs = parse(name, args)?;
            store.settle_token_counts(SETTLE_BEFORE_REPORT)?;
            let p = store.pressure(a.session.as_deref(), now)?;
            let text = render::pressure(&p);
            result(&p, text)
        }
        "forget" => {
            let a: ForgetArgs = parse(name, args)?;
            let status = store.forget(&a.id)?;
            let out = ForgetOutput {
                id: a.id.trim().to_string(),
                status,
            };
            let text = render::forget(&out);
            result(&out, text)
        }
        "stats" => {
            let _: StatsArgs = parse(name, args)?;
            store.settle_token_counts(SETTLE_BEFORE_REPORT)?;
            let s = store.stats()?;
            let text = render::stats(&s);
            result(&s, text)
        }
        other => Err(ToolFailure(format!(
            "no tool named '{other}' (tools: recall, get, context_pressure, forget, stats)"
        ))),
    }
}

/// The lines `get` was asked for.
pub fn selection(a: &GetArgs) -> Result<Selection, ToolFailure> {
    if let Some(needle) = &a.around {
        if a.start_line.is_some() || a.end_line.is_some() {
            return Err(ToolFailure(
                "get: give either around or start_line/end_line, not both".into(),
            ));
        }
        return Ok(Selection::Around {
            needle: needle.clone(),
            context: a
                .context_lines
                .map_or(DEFAULT_CONTEXT_LINES, |c| c as usize),
        });
    }
    if let (Some(s), Some(e)) = (a.start_line, a.end_line)
        && s > e
    {
        return Err(ToolFailure(format!(
            "get: start_line {s} is after end_line {e}"
        )));
    }
    if a.start_line.is_none() && a.end_line.is_none() {
        return Ok(Selection::All);
    }
    Ok(Selection::Range {
        start: a.start_line.map(|s| s as usize),
        end: a.end_line.map(|e| e as usize),
    })
}

/// The tool definitions, shared.
pub fn shared_definitions() -> Arc<Vec<Tool>> {
    static DEFS: std::sync::OnceLock<Arc<Vec<Tool>>> = std::sync::OnceLock::new();
    DEFS.get_or_init(|| Arc::new(definitions())).clone()
}
