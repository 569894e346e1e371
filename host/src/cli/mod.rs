//! Command-line arguments and the dispatch to each command.

mod bench;
mod classify;
mod compress;
mod ingest;
mod store;

use std::process::ExitCode;

use anyhow::{Context, Result};
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

    /// The store's file (default: `store` in config.toml, else
    /// store.sqlite3 under ghost's data directory).
    #[arg(long, global = true, env = "GHOST_STORE", value_name = "PATH")]
    store: Option<std::path::PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compress a text and print the result.
    Compress(compress::Args),
    /// Print the content class of a text and the classifier's confidence.
    Classify(classify::Args),
    /// Classify, compress and store a text; print what the agent sees.
    Ingest(ingest::Args),
    /// Search the store (the MCP `recall` tool).
    Recall(store::RecallArgs),
    /// Print a stored original or part of it (the MCP `get` tool).
    Get(store::GetArgs),
    /// How full the context is and what ghost holds (the MCP `context_pressure` tool).
    Pressure(store::PressureArgs),
    /// Forget an entry (the MCP `forget` tool).
    Forget(store::ForgetArgs),
    /// Store statistics (the MCP `stats` tool).
    Stats(store::JsonOnly),
    /// Expire entries past their TTL, purge forgotten ones, compact the store.
    Gc(store::JsonOnly),
    /// Run the MCP server on stdin/stdout.
    Serve,
    /// Measure ghost: compression on a corpus, recall quality, store speed.
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
    let config = || ghost::config::Config::from_dirs(dirs.as_ref());
    let open_store = || -> Result<ghost::store::Store> {
        let path = config()?.store_path(cli.store.as_deref(), dirs.as_ref())?;
        ghost::store::Store::open(&path)
            .with_context(|| format!("opening the store {}", path.display()))
    };
    match cli.command {
        Command::Compress(args) => compress::run(args, pipeline),
        Command::Classify(args) => classify::run(args, pipeline),
        Command::Ingest(args) => ingest::run(args, &mut open_store()?, &config()?, pipeline),
        Command::Recall(args) => store::recall(args, &mut open_store()?),
        Command::Get(args) => store::get(args, &mut open_store()?),
        Command::Pressure(args) => store::pressure(args, &mut open_store()?),
        Command::Forget(args) => store::forget(args, &mut open_store()?),
        Command::Stats(args) => store::stats(args, &mut open_store()?),
        Command::Gc(args) => store::gc(args, &mut open_store()?),
        Command::Serve => {
            ghost::mcp::serve_stdio(open_store()?)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench(args) => bench::run(args, pipeline),
    }
}
