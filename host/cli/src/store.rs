//! The store's CLI twins of the MCP tools: `ghost recall`, `get`, `pressure`,
//! `forget`, `stats`, plus `ghost gc`. Each builds the service request its
//! MCP tool takes, calls the same service function, and prints the same text
//! rendering, or the structured answer with `--json`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use ghost_core::render;
use ghost_core::service::{
    ForgetRequest, GetRequest, PressureRequest, RecallRequest, Service, StatsRequest,
};
use ghost_store::{Scope, Store};
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

/// Arguments of `ghost forget`: one entry, a session, everything before a
/// date, or everything.
#[derive(Debug, clap::Args)]
pub struct ForgetArgs {
    /// The entry's id: its text is erased, its id kept until `ghost gc`.
    #[arg(
        required_unless_present_any = ["session", "before", "all"],
        conflicts_with_all = ["session", "before", "all"]
    )]
    id: Option<String>,
    /// Every entry of this session, its context state, the gateway's
    /// rewrites for it and the index of its transcript.
    #[arg(long, value_name = "SESSION", conflicts_with_all = ["before", "all"])]
    session: Option<String>,
    /// Everything created before this: a date (2026-11-01, UTC midnight),
    /// a time (2026-11-01T12:00:00Z) or an age (30d, 12h, 2w).
    #[arg(long, value_name = "WHEN", value_parser = parse_before, conflicts_with = "all")]
    before: Option<i64>,
    /// Everything ghost stored, and its log (memory files are yours: they
    /// stay).
    #[arg(long)]
    all: bool,
    /// Print the structured output as JSON.
    #[arg(long)]
    json: bool,
}

/// `--before`'s value as Unix milliseconds.
fn parse_before(value: &str) -> Result<i64, String> {
    let value = value.trim();
    let now = ghost_store::now_ms();
    if let Some(unit) = value.chars().last().filter(char::is_ascii_alphabetic) {
        let hours = match unit {
            'h' => 1,
            'd' => 24,
            'w' => 24 * 7,
            _ => 0,
        };
        if let Ok(n) = value[..value.len() - 1].parse::<i64>()
            && hours > 0
            && n >= 0
        {
            return Ok(now - n * hours * 3_600_000);
        }
    }
    if let Ok(date) = chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d") {
        return Ok(date
            .and_time(chrono::NaiveTime::MIN)
            .and_utc()
            .timestamp_millis());
    }
    if let Ok(time) = chrono::DateTime::parse_from_rfc3339(value) {
        return Ok(time.timestamp_millis());
    }
    Err(format!(
        "'{value}' is not a date (2026-11-01), a time (2026-11-01T12:00:00Z) or an age (30d, 12h, 2w)"
    ))
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

/// Runs `ghost forget`. With `--all`, ghost's log at `log_file` is
/// emptied too.
pub fn forget(args: ForgetArgs, store: Store, log_file: Option<&Path>) -> Result<ExitCode> {
    let mut service = Service::new(store);
    let (scope, what) = match (&args.id, &args.session, args.before) {
        (Some(id), ..) => {
            let out = service.forget(&ForgetRequest { id: id.clone() })?;
            return print(&out, args.json, render::forget);
        }
        (None, Some(session), _) => (Scope::Session(session), format!("session {session}")),
        (None, None, Some(time)) => (
            Scope::Before(time),
            format!("everything before {}", when(time)),
        ),
        (None, None, None) => (Scope::All, "everything".to_string()),
    };
    let out = service.purge(scope)?;
    if args.all
        && let Some(log) = log_file.filter(|l| l.exists())
    {
        std::fs::OpenOptions::new()
            .write(true)
            .open(log)
            .and_then(|f| f.set_len(0))
            .with_context(|| format!("emptying ghost's log {}", log.display()))?;
    }
    print(&out, args.json, |p| render::purged(&what, p))
}

/// A time in Unix milliseconds, for people (UTC).
fn when(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_else(|| ms.to_string())
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
