//! The store's CLI twins of the MCP tools: `ghost recall`, `get`, `pressure`,
//! `forget`, `stats`, plus `ghost gc`. Each builds the service request its
//! MCP tool takes, calls the same service function, and prints the same text
//! rendering, or the structured answer with `--json`.

use std::process::ExitCode;

use anyhow::Result;
use ghost_core::render;
use ghost_core::service::{
    ForgetRequest, GetRequest, PressureRequest, RecallRequest, Service, StatsRequest,
};
use ghost_store::Store;
use ghost_types::ContentClass;
use serde::Serialize;

/// Arguments of `ghost recall`.
#[derive(Debug, clap::Args)]
pub struct RecallArgs {
    /// What to look for, in plain words.
    #[arg(required = true, num_args = 1.., value_name = "QUERY")]
    query: Vec<String>,
    /// Only entries of this class.
    #[arg(long)]
    class: Option<ContentClass>,
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

/// Prints `out`: its text rendering, or its JSON with `as_json`.
fn print<T: Serialize>(
    out: &T,
    as_json: bool,
    text: impl FnOnce(&T) -> String,
) -> Result<ExitCode> {
    if as_json {
        println!("{}", serde_json::to_string_pretty(out)?);
    } else {
        print!("{}", text(out));
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `ghost recall`.
pub fn recall(args: RecallArgs, store: Store) -> Result<ExitCode> {
    let request = RecallRequest {
        query: args.query.join(" "),
        class: args.class,
        session: args.session,
        limit: Some(args.limit),
        full: Some(args.full),
    };
    let out = Service::new(store).recall(&request)?;
    print(&out, args.json, render::recall)
}

/// Runs `ghost get`.
pub fn get(args: GetArgs, store: Store) -> Result<ExitCode> {
    let request = GetRequest {
        id: args.id,
        start_line: args.start_line,
        end_line: args.end_line,
        around: args.around,
        context_lines: args.context_lines,
    };
    let out = Service::new(store).get(&request)?;
    print(&out, args.json, render::get)
}

/// Runs `ghost pressure`.
pub fn pressure(args: PressureArgs, store: Store) -> Result<ExitCode> {
    let request = PressureRequest {
        session: args.session,
    };
    let out = Service::new(store).pressure(&request)?;
    print(&out, args.json, render::pressure)
}

/// Runs `ghost forget`.
pub fn forget(args: ForgetArgs, store: Store) -> Result<ExitCode> {
    let out = Service::new(store).forget(&ForgetRequest { id: args.id })?;
    print(&out, args.json, render::forget)
}

/// Runs `ghost stats`.
pub fn stats(args: JsonOnly, store: Store) -> Result<ExitCode> {
    let out = Service::new(store).stats(&StatsRequest {})?;
    print(&out, args.json, render::stats)
}

/// Runs `ghost gc`: expire, purge forgotten entries, compact the file.
pub fn gc(args: JsonOnly, store: Store) -> Result<ExitCode> {
    let out = Service::new(store).gc()?;
    print(&out, args.json, render::gc)
}
