//! Command-line arguments and the dispatch to each command.

mod bench;
mod classify;
mod compress;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};
use ghost::paths::GhostDirs;
use ghost::runtime::PluginLimits;

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

    /// Wall-clock budget of one plugin call, in milliseconds.
    #[arg(
        long,
        global = true,
        env = "GHOST_PLUGIN_DEADLINE_MS",
        default_value_t = 250,
        value_name = "MS"
    )]
    plugin_deadline_ms: u64,

    /// Memory cap of one plugin call, in MiB.
    #[arg(
        long,
        global = true,
        env = "GHOST_PLUGIN_MEMORY_MIB",
        default_value_t = 128,
        value_name = "MIB"
    )]
    plugin_memory_mib: usize,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compress a text and print the result.
    Compress(compress::Args),
    /// Print the content class of a text and the classifier's confidence.
    Classify(classify::Args),
    /// Measure ghost on a corpus of real tool outputs.
    #[command(subcommand)]
    Bench(bench::Args),
}

/// Runs the command the user asked for.
pub fn run(cli: Cli) -> Result<ExitCode> {
    let dirs = GhostDirs::from_env();
    ghost::logging::init(
        dirs.as_ref().map(GhostDirs::log_file).as_deref(),
        cli.verbose,
    );
    let limits = PluginLimits {
        deadline: std::time::Duration::from_millis(cli.plugin_deadline_ms.max(1)),
        memory_bytes: cli.plugin_memory_mib.max(1) << 20,
        ..PluginLimits::default()
    };
    let pipeline = || ghost::pipeline::Pipeline::new_with(dirs.as_ref(), limits.clone());
    match cli.command {
        Command::Compress(args) => compress::run(args, pipeline),
        Command::Classify(args) => classify::run(args, pipeline),
        Command::Bench(args) => bench::run(args, pipeline),
    }
}
