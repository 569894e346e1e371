//! Command-line arguments and the dispatch to each command.

use std::process::ExitCode;

use anyhow::Result;
use clap::builder::TypedValueParser;
use clap::{Parser, Subcommand};
use ghost_claude::hooks::{HookContext, HookEvent};
use ghost_core::config::Config;
use ghost_core::paths::GhostDirs;
use ghost_core::pipeline::Pipeline;
use ghost_runtime::PluginLimits;
use ghost_store::Store;

use crate::{
    bench, classify, compress, context, gateway, ingest, install, logging, memory, plugin, store,
    task,
};

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

    /// Wall-clock budget of one plugin call, in milliseconds (per MiB of a
    /// larger input).
    #[arg(
        long,
        global = true,
        env = "GHOST_PLUGIN_DEADLINE_MS",
        default_value_t = PluginLimits::default().deadline.as_millis() as u64,
        value_name = "MS"
    )]
    plugin_deadline_ms: u64,

    /// Memory cap of one plugin call, in MiB.
    #[arg(
        long,
        global = true,
        env = "GHOST_PLUGIN_MEMORY_MIB",
        default_value_t = PluginLimits::default().memory_bytes >> 20,
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
    /// Forget an entry (the MCP `forget` tool), a session, everything
    /// before a date, or everything.
    Forget(store::ForgetArgs),
    /// Store statistics (the MCP `stats` tool).
    Stats(store::JsonOnly),
    /// Expire entries past their TTL, redact what was stored before the
    /// current rules, purge forgotten entries, compact the store.
    Gc(store::JsonOnly),
    /// Memories that survive compaction (the MCP `memory_save`,
    /// `memory_search` and `memory_get` tools).
    #[command(subcommand)]
    Memory(memory::Args),
    /// What fills a session's context window: tokens by kind, the largest
    /// items, tool results by age, what ghost replaced and would swap next
    /// (the MCP `context` tool).
    Context(context::ContextArgs),
    /// The project's checkpoints (written at each compaction), oldest first.
    Checkpoints(memory::CheckpointsArgs),
    /// Run the MCP server on stdin/stdout.
    Serve,
    /// Run ghost on the model API's request path: a local gateway that
    /// gardens the whole context window of every request it forwards.
    Gateway(gateway::GatewayArgs),
    /// Run an agent command with a gateway for its life:
    /// `ghost run -- claude …`.
    Run(gateway::RunArgs),
    /// Add ghost's hooks, statusLine and MCP server to Claude Code's settings.
    Install(install::Args),
    /// Remove what `ghost install` added.
    Uninstall(install::Args),
    /// Check the installation and say what is wrong.
    Doctor(install::DoctorArgs),
    /// A Claude Code hook: reads the event's JSON on stdin, answers on
    /// stdout, always exits 0 (on any failure the original goes through).
    Hook {
        /// The event.
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(HookEvent::args())
            .map(|arg| arg.parse::<HookEvent>().expect("a listed event")))]
        event: HookEvent,
    },
    /// Measure ghost (runs the `ghost-bench` binary: corpus, recall,
    /// store, replay; `ghost bench --help` lists them).
    #[command(disable_help_flag = true)]
    Bench(bench::Args),
    /// Manage plugins: add, list, enable, disable, remove, verify, gc, new
    #[command(subcommand)]
    Plugin(plugin::Args),
    /// Run code an agent wrote as a sandboxed WebAssembly task, with exactly
    /// the capabilities granted.
    #[command(subcommand)]
    Task(task::Args),
}

/// Runs the command the user asked for.
pub fn run(cli: Cli) -> Result<ExitCode> {
    let dirs = GhostDirs::from_env();
    // The log redacts by the configured rules; a broken config is reported
    // by the command that reads it.
    let rules = Config::from_dirs(dirs.as_ref())
        .map(|c| c.redact)
        .unwrap_or_default();
    logging::init(
        dirs.as_ref().map(GhostDirs::log_file).as_deref(),
        cli.verbose,
        &rules,
    );
    let limits = PluginLimits {
        deadline: std::time::Duration::from_millis(cli.plugin_deadline_ms.max(1)),
        memory_bytes: cli.plugin_memory_mib.max(1) << 20,
        ..PluginLimits::default()
    };
    let pipeline = || Pipeline::new_with(dirs.as_ref(), limits.clone());
    let config = || Config::from_dirs(dirs.as_ref());
    let open_store = || -> Result<Store> {
        let config = config()?;
        let path = config.store_path(cli.store.as_deref(), dirs.as_ref())?;
        config.open_store(&path)
    };
    match cli.command {
        Command::Compress(args) => compress::run(args, pipeline),
        Command::Classify(args) => classify::run(args, pipeline),
        Command::Ingest(args) => ingest::run(args, &mut open_store()?, &config()?, pipeline),
        Command::Recall(args) => store::recall(args, open_store()?),
        Command::Get(args) => store::get(args, open_store()?),
        Command::Pressure(args) => store::pressure(args, open_store()?),
        Command::Forget(args) => store::forget(
            args,
            open_store()?,
            dirs.as_ref().map(GhostDirs::log_file).as_deref(),
        ),
        Command::Stats(args) => store::stats(args, open_store()?),
        Command::Gc(args) => store::gc(args, open_store()?),
        Command::Memory(args) => {
            let config = config()?;
            let store_path = config.store_path(cli.store.as_deref(), dirs.as_ref())?;
            memory::run(args, open_store()?, &config.projects_dir(&store_path))
        }
        Command::Context(args) => context::run(args, open_store()?),
        Command::Checkpoints(args) => {
            let config = config()?;
            let store_path = config.store_path(cli.store.as_deref(), dirs.as_ref())?;
            memory::checkpoints(args, &config.projects_dir(&store_path))
        }
        Command::Serve => {
            ghost_runtime::engine::pool_instances();
            let config = config()?;
            let store_path = config.store_path(cli.store.as_deref(), dirs.as_ref())?;
            let memory = ghost_core::memory::ProjectMemory::new(
                &config.projects_dir(&store_path),
                &ghost_core::memory::current_project(),
            );
            let tasks = task_runner(&config, dirs.as_ref(), &limits)?;
            ghost_mcp::serve_stdio(open_store()?, memory, Some(tasks))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench(args) => bench::run(args),
        Command::Gateway(args) => {
            ghost_runtime::engine::pool_instances();
            gateway::gateway(args, dirs.as_ref(), &limits, cli.store.as_deref())
        }
        Command::Run(args) => {
            ghost_runtime::engine::pool_instances();
            gateway::run(args, dirs.as_ref(), &limits, cli.store.as_deref())
        }
        Command::Plugin(args) => plugin::run(args, dirs.as_ref(), &limits),
        Command::Task(args) => task::run(args, dirs.as_ref(), cli.verbose),
        Command::Install(args) => install::install(args, dirs.as_ref(), &limits),
        Command::Uninstall(args) => install::uninstall(args),
        Command::Doctor(args) => {
            let path = config()?.store_path(cli.store.as_deref(), dirs.as_ref())?;
            let plugins = dirs.as_ref().map(ghost_core::plugins::registry);
            install::doctor(args, &path, plugins.as_ref(), pipeline)
        }
        Command::Hook { event } => {
            hook(event, dirs.as_ref(), cli.store.as_deref(), &pipeline);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Runs a hook; whatever happens, the caller exits 0.
fn hook(
    event: HookEvent,
    dirs: Option<&GhostDirs>,
    explicit_store: Option<&std::path::Path>,
    pipeline: &dyn Fn() -> Result<Pipeline>,
) {
    let config = match Config::from_dirs(dirs) {
        Ok(c) => c,
        Err(e) => {
            log::warn!("hook: {e:#}; using the default configuration");
            Config::default()
        }
    };
    let store_path = match config.store_path(explicit_store, dirs) {
        Ok(p) => p,
        Err(e) => {
            log::warn!("hook: {e:#}; the original passes through");
            return;
        }
    };
    if event == HookEvent::SessionStart
        && let Some(dirs) = dirs
    {
        compile_in_background(dirs);
    }
    // All plugin calls of this hook together stay within the budget; then
    // the original passes through.
    let pipeline = || {
        let p = pipeline()?;
        p.set_call_budget(config.hook_budget());
        Ok(p)
    };
    let ctx = HookContext {
        store_path,
        config: &config,
        pipeline: &pipeline,
    };
    // Even a panic must not break the agent.
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        ghost_claude::hooks::run(event, std::io::stdin().lock(), &ctx)
    }))
    .unwrap_or_else(|_| {
        log::warn!("hook: panicked; the original passes through");
        String::new()
    });
    if !out.is_empty() {
        use std::io::Write;
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(out.as_bytes());
        let _ = stdout.write_all(b"\n");
        let _ = stdout.flush();
    }
}

/// Set (to anything) to keep a session's start from compiling the built-in
/// plugins in the background: for scripted runs on throwaway homes.
const NO_BACKGROUND_COMPILE: &str = "GHOST_NO_BACKGROUND_COMPILE";

/// At a session's start, when a built-in plugin is not compiled yet (a
/// plugin install, a new ghost version), starts `ghost plugin compile` on
/// its own and returns at once: the session's first tool results then find
/// the components compiled, or wait only for the rest of a compilation
/// already under way, instead of each hook compiling while the agent waits.
fn compile_in_background(dirs: &GhostDirs) {
    if std::env::var_os(NO_BACKGROUND_COMPILE).is_some() {
        return;
    }
    match ghost_core::builtin::missing_from_cache(&dirs.component_cache()) {
        Ok(0) => return,
        Ok(_) => {}
        Err(why) => {
            log::warn!("hook: cannot check the component cache: {why:#}");
            return;
        }
    }
    let spawned = std::env::current_exe().and_then(|exe| {
        let mut cmd = std::process::Command::new(exe);
        cmd.args(["plugin", "compile", "--quiet"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        // Its own process group: Claude Code ending the hook's group on a
        // timeout does not stop it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd.spawn()
    });
    match spawned {
        Ok(child) => log::info!(
            "hook: compiling the built-in plugins in the background (pid {})",
            child.id()
        ),
        Err(why) => log::warn!("hook: cannot start `ghost plugin compile`: {why}"),
    }
}

/// What `ghost serve`'s `run_task` needs: the current directory as the
/// project, scratch directories under ghost's data directory, the user's
/// `[tasks]` bounds, the component cache and the pipeline.
fn task_runner(
    config: &Config,
    dirs: Option<&GhostDirs>,
    limits: &PluginLimits,
) -> Result<ghost_mcp::TaskRunner> {
    let engine = ghost_runtime::engine::shared_engine()?;
    let data = dirs.map_or_else(std::env::temp_dir, |d| d.data.clone());
    Ok(ghost_mcp::TaskRunner {
        project: std::env::current_dir()?,
        scratch_root: data.join("tasks"),
        settings: config.tasks.clone(),
        cache: ghost_runtime::cache::ArtifactCache::new(
            dirs.map(GhostDirs::component_cache),
            ghost_runtime::engine::compatibility_key(engine),
        ),
        make_pipeline: {
            let (dirs, limits) = (dirs.cloned(), limits.clone());
            Box::new(move || Pipeline::new_with(dirs.as_ref(), limits.clone()))
        },
        min_compress_bytes: config.min_compress_bytes(),
    })
}
