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
mod task;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    quiet_when_stdout_closes();
    let args = commands::Cli::parse();
    match commands::run(args) {
        Ok(code) => code,
        // The reader went away (`ghost compress | head`): nothing is wrong.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ghost: error: {}", one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}

/// Whether `e` is, at its root, a write to a pipe nobody reads any more.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `println!` panics when its reader has gone (`ghost recall x | head`):
/// like any Unix tool, ghost then just stops, without a message.
fn quiet_when_stdout_closes() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info)
    }));
}

/// Error chains on one line, as a user-facing CLI error should be.
fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
