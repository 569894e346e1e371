//! The store's CLI twins of the MCP tools: `ghost recall`, `get`, `pressure`,
//! `forget`, `stats`, plus `ghost gc`. Each runs the very MCP tool it twins
//! and prints its text rendering, or its structured output with `--json`.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use ghost::mcp::tools;
use ghost::store::Store;
use serde_json::{Map, Value, json};

/// Arguments of `ghost recall`.
#[derive(Debug, clap::Args)]
pub struct RecallArgs {
    /// What to look for, in plain words.
    #[arg(required = true, num_args = 1.., value_name = "QUERY")]
    query: Vec<String>,
    /// Only entries of this class.
    #[arg(long)]
    class: Option<String>,
    /// Only entries of this session.
    #[arg(long)]
    session: Option<String>,
    /// How many entries.
    #[arg(long, short = 'n', default_value_t = 5)]
    limit: u32,
    /// Print the originals too.
    #[arg(long)]
    full: bool,
    /// Print the structured output as JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `ghost get`.
#[derive(Debug, clap::Args)]
pub struct GetArgs {
    /// The entry's id.
    id: String,
    /// First line.
    #[arg(long)]
    start_line: Option<u32>,
    /// Last line (inclusive).
    #[arg(long)]
    end_line: Option<u32>,
    /// Only the lines containing this text, with context.
    #[arg(long)]
    around: Option<String>,
    /// Lines of context around each match.
    #[arg(long)]
    context_lines: Option<u32>,
    /// Print the structured output as JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `ghost pressure`.
#[derive(Debug, clap::Args)]
pub struct PressureArgs {
    /// The session (default: the most recent one).
    #[arg(long)]
    session: Option<String>,
    /// Print the structured output as JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `ghost forget`.
#[derive(Debug, clap::Args)]
pub struct ForgetArgs {
    /// The entry's id.
    id: String,
    /// Print the structured output as JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `ghost stats` and `ghost gc`.
#[derive(Debug, clap::Args)]
pub struct JsonOnly {
    /// Print the structured output as JSON.
    #[arg(long)]
    json: bool,
}

fn object(pairs: Vec<(&str, Option<Value>)>) -> Map<String, Value> {
    pairs
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
        .collect()
}

/// Runs the MCP tool `name` and prints its answer.
fn twin(
    store: &mut Store,
    name: &str,
    args: Map<String, Value>,
    as_json: bool,
) -> Result<ExitCode> {
    let result = tools::call(store, name, Some(args)).map_err(|f| anyhow!(f.0))?;
    if as_json {
        let value = result.structured_content.unwrap_or(Value::Null);
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        for block in &result.content {
            if let Some(text) = block.as_text() {
                print!("{}", text.text);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `ghost recall`.
pub fn recall(args: RecallArgs, store: &mut Store) -> Result<ExitCode> {
    let a = object(vec![
        ("query", Some(json!(args.query.join(" ")))),
        ("class", args.class.map(Value::from)),
        ("session", args.session.map(Value::from)),
        ("limit", Some(json!(args.limit))),
        ("full", Some(json!(args.full))),
    ]);
    twin(store, "recall", a, args.json)
}

/// Runs `ghost get`.
pub fn get(args: GetArgs, store: &mut Store) -> Result<ExitCode> {
    let a = object(vec![
        ("id", Some(json!(args.id))),
        ("start_line", args.start_line.map(Value::from)),
        ("end_line", args.end_line.map(Value::from)),
        ("around", args.around.map(Value::from)),
        ("context_lines", args.context_lines.map(Value::from)),
    ]);
    twin(store, "get", a, args.json)
}

/// Runs `ghost pressure`.
pub fn pressure(args: PressureArgs, store: &mut Store) -> Result<ExitCode> {
    let a = object(vec![("session", args.session.map(Value::from))]);
    twin(store, "context_pressure", a, args.json)
}

/// Runs `ghost forget`.
pub fn forget(args: ForgetArgs, store: &mut Store) -> Result<ExitCode> {
    twin(
        store,
        "forget",
        object(vec![("id", Some(json!(args.id)))]),
        args.json,
    )
}

/// Runs `ghost stats`.
pub fn stats(args: JsonOnly, store: &mut Store) -> Result<ExitCode> {
    twin(store, "stats", Map::new(), args.json)
}

/// Runs `ghost gc`: expire, purge forgotten entries, compact the file.
pub fn gc(args: JsonOnly, store: &mut Store) -> Result<ExitCode> {
    let maintained = store.maintain(ghost::store::now_ms())?;
    let collected = store.gc()?;
    if args.json {
        let value = json!({
            "expired": maintained.expired,
            "purged": collected.purged,
            "bytes_before": collected.bytes_before,
            "bytes_after": collected.bytes_after,
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        println!(
            "expired {} · purged {} forgotten entries · {:.1} MB → {:.1} MB",
            maintained.expired,
            collected.purged,
            collected.bytes_before as f64 / 1e6,
            collected.bytes_after as f64 / 1e6
        );
    }
    Ok(ExitCode::SUCCESS)
}
