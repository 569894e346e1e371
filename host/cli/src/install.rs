//! `ghost install`, `ghost uninstall`, `ghost doctor`.

use std::process::ExitCode;

use anyhow::{Context, Result};
use ghost_claude::install::{self, FileChange, Targets};
use ghost_core::pipeline::Pipeline;

/// Arguments of `ghost install` and `ghost uninstall`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write the project's `.claude/settings.json` and `.mcp.json` (in the
    /// current directory) instead of the user's.
    #[arg(long)]
    project: bool,
    /// Print the diff, change nothing.
    #[arg(long)]
    dry_run: bool,
}

/// Arguments of `ghost doctor`.
#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Check the project's settings instead of the user's.
    #[arg(long)]
    project: bool,
}

fn targets(project: bool) -> Result<Targets> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(std::path::PathBuf::from)
        .context("HOME is not set: cannot find Claude Code's settings")?;
    let cwd = std::env::current_dir().context("reading the current directory")?;
    Ok(Targets::new(&home, project.then_some(cwd.as_path())))
}

fn show_or_apply(changes: &[FileChange], dry_run: bool, verb: &str) -> Result<ExitCode> {
    let changed: Vec<&FileChange> = changes.iter().filter(|c| c.changes()).collect();
    if changed.is_empty() {
        println!("nothing to {verb}: already done");
        return Ok(ExitCode::SUCCESS);
    }
    for c in &changed {
        if dry_run {
            println!(
                "--- {}\n{}",
                c.path.display(),
                install::diff(&c.before, &c.after)
            );
        } else {
            println!("{verb}: wrote {}", c.path.display());
        }
    }
    if !dry_run {
        for backup in install::apply(changes)? {
            println!("  backup: {}", backup.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `ghost install`: the hooks and the MCP server, then the built-in
/// plugins compiled into the cache so the first session's first hook calls
/// do not wait for the compiler (a failure there is only reported: each
/// hook compiles what it needs anyway).
pub fn install(
    args: Args,
    dirs: Option<&ghost_core::paths::GhostDirs>,
    limits: &ghost_runtime::PluginLimits,
) -> Result<ExitCode> {
    let changes = install::plan_install(&targets(args.project)?)?;
    let code = show_or_apply(&changes, args.dry_run, "install")?;
    if let Some(dirs) = dirs.filter(|_| !args.dry_run) {
        println!("compiling the built-in plugins (once per ghost version)…");
        if let Err(why) = crate::plugin::compile_builtins(dirs, limits, false) {
            println!("could not compile them now ({why:#}); each hook compiles what it needs");
        }
    }
    Ok(code)
}

/// Runs `ghost uninstall`.
pub fn uninstall(args: Args) -> Result<ExitCode> {
    let changes = install::plan_uninstall(&targets(args.project)?)?;
    show_or_apply(&changes, args.dry_run, "uninstall")
}

/// Runs `ghost doctor`: exit 0 when everything is fine, 1 otherwise.
pub fn doctor(
    args: DoctorArgs,
    store: &std::path::Path,
    plugins: Option<&ghost_registry::Registry>,
    pipeline: impl FnOnce() -> Result<Pipeline>,
) -> Result<ExitCode> {
    let checks = ghost_claude::doctor::checks(&targets(args.project)?, store, plugins, pipeline);
    let mut problems = 0;
    for c in &checks {
        match &c.problem {
            None => println!("ok    {}", c.what),
            Some(p) => {
                problems += 1;
                println!("FAIL  {}: {p}", c.what);
            }
        }
    }
    Ok(if problems == 0 {
        println!("ghost is installed and working");
        ExitCode::SUCCESS
    } else {
        println!("{problems} problem(s)");
        ExitCode::from(1)
    })
}
