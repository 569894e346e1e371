//! The `ghost` command line: argument parsing and glue over ghost's crates
//! (`ghost-core` for the service, `ghost-claude` for the hooks, install and
//! doctor, `ghost-mcp` for `ghost serve`). No logic of its own lives here.

mod bench;
mod classify;
mod commands;
mod compress;
mod context;
mod gateway;
mod ingest;
mod input;
mod install;
mod logging;
mod memory;
mod plugin;
mod store;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = commands::Cli::parse();
    match commands::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ghost: error: {}", one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}

/// Error chains on one line, as a user-facing CLI error should be.
fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
