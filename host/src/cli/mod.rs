//! Command-line arguments and the dispatch to each command.

mod classify;
mod compress;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};
use ghost::paths::GhostDirs;

/// ghost: a context gardener for AI coding agents.
///
/// Classifies tool output (log, code, structured, prose, error, prompt),
/// shrinks it with a sandboxed WebAssembly compressor made for its class, and
/// never loses the original.
#[derive(Debug, Parser)]
#[command(name = "ghost", version, propagate_version = true)]
pub struct Cli {
    /// Also print ghost's log lines on stderr.
    #[arg(short, long, global = true)]
    verbose: bool,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compress a text and print the result.
    Compress(compress::Args),
    /// Print the content class of a text and the classifier's confidence.
    Classify(classify::Args),
}

/// Runs the command the user asked for.
pub fn run(cli: Cli) -> Result<ExitCode> {
    let dirs = GhostDirs::from_env();
    ghost::logging::init(
        dirs.as_ref().map(GhostDirs::log_file).as_deref(),
        cli.verbose,
    );
    match cli.command {
        Command::Compress(args) => compress::run(args, dirs.as_ref()),
        Command::Classify(args) => classify::run(args, dirs.as_ref()),
    }
}
