//! `ghost context`: what fills a session's context window, the CLI twin of
//! the MCP `context` tool (`ghost_claude::inspect`).

use std::process::ExitCode;

use anyhow::Result;
use ghost_store::Store;

/// Arguments of `ghost context`.
#[derive(Debug, clap::Args)]
pub struct ContextArgs {
    /// The session (default: the latest one ghost saw).
    session: Option<String>,
    /// Also list the largest items and what ghost would swap out next.
    #[arg(long)]
    detail: bool,
    /// Print the structured output as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `ghost context` on `store`.
pub fn run(args: ContextArgs, store: Store) -> Result<ExitCode> {
    let request = ghost_claude::inspect::ContextRequest {
        session: args.session,
    };
    let report = ghost_claude::inspect::report(&store, &request)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", ghost_claude::inspect::render(&report, args.detail));
    }
    Ok(ExitCode::SUCCESS)
}
