//! `ghost memory save|search|get` and `ghost checkpoints`: the CLI twins of
//! the MCP memory tools, on the same functions, printing the same text (or
//! JSON with `--json`).

use std::process::ExitCode;

use anyhow::Result;
use ghost_core::memory::{
    MemoryGetRequest, MemorySaveRequest, MemorySearchRequest, MemoryTarget, ProjectMemory,
};
use ghost_core::render;
use ghost_store::Store;
use serde::Serialize;

/// `ghost memory …`.
#[derive(Debug, clap::Subcommand)]
pub enum Args {
    /// Append a memory to the project's MEMORY.md (or today's log with --log).
    Save(SaveArgs),
    /// Search the project's memories, daily logs and past sessions.
    Search(SearchArgs),
    /// Print a memory file, or some of its lines.
    Get(GetArgs),
}

/// Where, and for which project.
#[derive(Debug, clap::Args)]
pub struct ProjectArg {
    /// The project (its directory); default: CLAUDE_PROJECT_DIR, else the
    /// working directory.
    #[arg(long)]
    project: Option<String>,
    /// Print the structured output as JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `ghost memory save`.
#[derive(Debug, clap::Args)]
pub struct SaveArgs {
    /// What to remember.
    #[arg(required = true, num_args = 1.., value_name = "TEXT")]
    text: Vec<String>,
    /// Append to today's daily log instead of MEMORY.md.
    #[arg(long)]
    log: bool,
    /// A word to find it by (repeatable).
    #[arg(long = "tag")]
    tags: Vec<String>,
    #[command(flatten)]
    common: ProjectArg,
}

/// Arguments of `ghost memory search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// What to look for.
    #[arg(required = true, num_args = 1.., value_name = "QUERY")]
    query: Vec<String>,
    /// How many hits.
    #[arg(long, short = 'n')]
    limit: Option<usize>,
    /// Only `memory`, `log` or `session`.
    #[arg(long)]
    source: Option<String>,
    #[command(flatten)]
    common: ProjectArg,
}

/// Arguments of `ghost memory get`.
#[derive(Debug, clap::Args)]
pub struct GetArgs {
    /// The file: MEMORY.md, memory/YYYY-MM-DD.md, or a path a hit gave.
    path: String,
    /// First line.
    #[arg(long)]
    start_line: Option<usize>,
    /// Last line (inclusive).
    #[arg(long)]
    end_line: Option<usize>,
    #[command(flatten)]
    common: ProjectArg,
}

/// Runs `ghost memory …` on `store`, with memory folders under `projects_dir`.
pub fn run(args: Args, store: Store, projects_dir: &std::path::Path) -> Result<ExitCode> {
    let memory = |p: &ProjectArg| {
        let project = p
            .project
            .clone()
            .unwrap_or_else(ghost_core::memory::current_project);
        ProjectMemory::new(projects_dir, &project)
    };
    match args {
        Args::Save(a) => {
            let request = MemorySaveRequest {
                text: a.text.join(" "),
                target: if a.log {
                    MemoryTarget::Log
                } else {
                    MemoryTarget::Memory
                },
                tags: a.tags,
            };
            let out = memory(&a.common).save(&store, &request, chrono::Local::now())?;
            print(a.common.json, &out, render::memory_saved)
        }
        Args::Search(a) => {
            let request = MemorySearchRequest {
                query: a.query.join(" "),
                limit: a.limit,
                source: a.source,
            };
            let out = memory(&a.common).search(&store, &request)?;
            print(a.common.json, &out, render::memory_search)
        }
        Args::Get(a) => {
            let request = MemoryGetRequest {
                path: a.path,
                start_line: a.start_line,
                end_line: a.end_line,
            };
            let out = memory(&a.common).get(&store, &request)?;
            print(a.common.json, &out, render::memory_text)
        }
    }
}

fn print<T: Serialize>(json: bool, out: &T, text: impl Fn(&T) -> String) -> Result<ExitCode> {
    if json {
        println!("{}", serde_json::to_string_pretty(out)?);
    } else {
        println!("{}", text(out));
    }
    Ok(ExitCode::SUCCESS)
}

/// Arguments of `ghost checkpoints`.
#[derive(Debug, clap::Args)]
pub struct CheckpointsArgs {
    #[command(flatten)]
    common: ProjectArg,
}

/// `ghost checkpoints`: the project's checkpoints, oldest first, each with
/// whether its file is still on disk.
pub fn checkpoints(args: CheckpointsArgs, projects_dir: &std::path::Path) -> Result<ExitCode> {
    let project = args
        .common
        .project
        .clone()
        .unwrap_or_else(ghost_core::memory::current_project);
    let memory = ProjectMemory::new(projects_dir, &project);
    let listed = ghost_core::checkpoint::list(&memory)?;
    if args.common.json {
        println!("{}", serde_json::to_string_pretty(&listed)?);
        return Ok(ExitCode::SUCCESS);
    }
    if listed.is_empty() {
        println!(
            "no checkpoints for {project} yet (ghost writes one at each compaction, in {})",
            memory.checkpoints_dir().display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    for c in &listed {
        let e = &c.entry;
        println!(
            "{}  {:<6}  session {} #{}  {}  {}",
            e.meta.created,
            e.meta.trigger,
            e.meta.session,
            e.meta.iteration,
            if c.on_disk { "verified" } else { "MISSING" },
            e.path
        );
    }
    Ok(ExitCode::SUCCESS)
}
