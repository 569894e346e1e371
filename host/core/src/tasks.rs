//! An agent's task, run for it (the MCP `run_task` tool): its code in the
//! task sandbox with grants bounded by the user's configuration, and its
//! output through ghost's pipeline — classified, compressed, stored — so
//! the agent gets the answer and a handle, not the raw output.
//!
//! What a task may touch: always the project's directory read-only and a
//! scratch directory of its own read-write; more directories to read only
//! inside the project; environment variables and network addresses only
//! those `[tasks]` in `config.toml` lists. The agent cannot widen them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use ghost_store::Store;
use ghost_task::{Grants, TaskLimits, TaskRequest};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ingest::{IngestRequest, Ingestor};
use crate::pipeline::Pipeline;

/// Longest deadline an agent may ask for.
pub const MAX_TASK_TIMEOUT: Duration = Duration::from_secs(300);

/// Most of a task's stderr shown to the agent (its tail).
const STDERR_SHOWN_BYTES: usize = 4 << 10;

/// The `[tasks]` table: what an agent's tasks may be granted beyond the
/// project (read-only) and their scratch directory.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskSettings {
    /// Environment variables a task may ask for.
    #[serde(default)]
    pub allow_env: Vec<String>,
    /// `host:port` pairs a task may ask to connect to.
    #[serde(default)]
    pub allow_net: Vec<String>,
}

/// A task an agent asks to run.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunTaskRequest {
    /// The program's source (or give `file`).
    pub code: Option<String>,
    /// A file inside the project holding the program.
    pub file: Option<String>,
    /// Its language: `js` (JavaScript) or `py` (Python 3; the standard
    /// library is there, no packages).
    pub lang: String,
    /// Its arguments (`args` in the script).
    #[serde(default)]
    pub args: Vec<String>,
    /// More directories inside the project to read (the project itself is
    /// always readable).
    #[serde(default)]
    pub read: Vec<String>,
    /// Environment variables to see (only those the user allowed).
    #[serde(default)]
    pub env: Vec<String>,
    /// `host:port` pairs to connect to (only those the user allowed).
    #[serde(default)]
    pub net: Vec<String>,
    /// Deadline in seconds (default 30, at most 300).
    pub timeout_secs: Option<u64>,
}

/// What the agent gets back.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RunTaskOutput {
    /// 0 when the task succeeded; 1 when it failed; 124 past its deadline,
    /// 137 past its memory cap, 134 trapped.
    pub exit_code: i32,
    /// Why it was stopped, when it was.
    pub stopped: Option<String>,
    /// Its stdout as the agent sees it: compressed with a handle when long.
    pub output: String,
    /// The stored output's id (`get` it for the full text).
    pub id: Option<String>,
    /// The tail of its stderr.
    pub stderr: String,
    /// The scratch directory it wrote into (`scratch` in the script); empty
    /// when it wrote nothing (the directory is then removed).
    pub scratch: String,
    /// Milliseconds it ran.
    pub elapsed_ms: u64,
}

/// Where tasks run from and what bounds them.
pub struct TaskContext<'a> {
    /// The project directory (readable by every task).
    pub project: &'a Path,
    /// Where each task gets its scratch directory.
    pub scratch_root: &'a Path,
    /// What the user allows beyond the defaults.
    pub settings: &'a TaskSettings,
}

/// Checks `request` against the user's bounds and builds the task: the
/// program, its grants, its limits. Fails with what was refused and why.
pub fn prepare(request: &RunTaskRequest, ctx: &TaskContext<'_>) -> Result<(TaskRequest, PathBuf)> {
    let Some(lang) = ghost_task::Lang::parse(&request.lang) else {
        let names: Vec<&str> = ghost_task::Lang::ALL.iter().map(|l| l.name()).collect();
        bail!(
            "run_task: lang '{}' is not available; the built-in runtimes are: {}",
            request.lang,
            names.join(", ")
        );
    };
    let project = std::fs::canonicalize(ctx.project)
        .with_context(|| format!("the project directory {}", ctx.project.display()))?;
    let inside = |p: &str| -> Result<PathBuf> {
        let path = project.join(p);
        let path = std::fs::canonicalize(&path)
            .with_context(|| format!("run_task: {p} does not exist"))?;
        if !path.starts_with(&project) {
            bail!(
                "run_task: {p} is outside the project ({}): tasks read only inside it",
                project.display()
            );
        }
        Ok(path)
    };
    let code = match (&request.code, &request.file) {
        (Some(code), None) => code.clone(),
        (None, Some(file)) => std::fs::read_to_string(inside(file)?)
            .with_context(|| format!("run_task: reading {file}"))?,
        _ => bail!("run_task: give either `code` or `file`"),
    };
    for name in &request.env {
        if !ctx.settings.allow_env.contains(name) {
            bail!(
                "run_task: the environment variable {name} is not allowed; the user may list it \
                 in config.toml [tasks] allow_env"
            );
        }
    }
    for addr in &request.net {
        if !ctx.settings.allow_net.contains(addr) {
            bail!(
                "run_task: connecting to {addr} is not allowed; the user may list it in \
                 config.toml [tasks] allow_net"
            );
        }
    }
    let mut read = vec![project.clone()];
    for dir in &request.read {
        read.push(inside(dir)?);
    }
    let scratch = scratch_dir(ctx.scratch_root)?;
    let timeout =
        Duration::from_secs(request.timeout_secs.unwrap_or(30).max(1)).min(MAX_TASK_TIMEOUT);
    let task = TaskRequest {
        program: ghost_task::Program::Runtime(lang),
        args: lang.args(&code, &request.args),
        stdin: Vec::new(),
        provided_env: vec![(
            ghost_task::SCRATCH_VAR.to_string(),
            scratch.display().to_string(),
        )],
        grants: Grants {
            read,
            write: vec![scratch.clone()],
            env: request.env.clone(),
            net: request.net.clone(),
            cwd: Some(project.clone()),
        },
        limits: TaskLimits {
            timeout,
            ..TaskLimits::default()
        },
        control: ghost_task::TaskControl::default(),
    };
    Ok((task, scratch))
}

/// A new private scratch directory under `root`.
fn scratch_dir(root: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(root).with_context(|| format!("creating {}", root.display()))?;
    let dir = root.join(format!(
        "task-{}-{}",
        ghost_store::now_ms(),
        std::process::id()
    ));
    let mut n = 0;
    let mut path = dir.clone();
    while path.exists() {
        n += 1;
        path = PathBuf::from(format!("{}-{n}", dir.display()));
    }
    std::fs::create_dir(&path).with_context(|| format!("creating {}", path.display()))?;
    Ok(path)
}

/// Stores a finished task's output through `pipeline` into `store` and
/// builds the agent's answer: the output compressed with a handle when long,
/// the tail of stderr, how it ended.
pub fn store_output(
    outcome: &ghost_task::TaskOutcome,
    task: &TaskRequest,
    scratch: &Path,
    session: &str,
    store: &mut Store,
    pipeline: Pipeline,
    min_compress_bytes: usize,
) -> Result<RunTaskOutput> {
    let mut stdout = String::from_utf8_lossy(&outcome.stdout).into_owned();
    if outcome.stdout_dropped > 0 {
        stdout.push_str(&format!(
            "\n[task output cut: {} more bytes not kept]",
            outcome.stdout_dropped
        ));
    }
    let (output, id) = if stdout.is_empty() {
        (String::new(), None)
    } else {
        let mut ingestor = Ingestor::new(store, min_compress_bytes, move || Ok(pipeline.clone()));
        let mut request = IngestRequest::new(stdout, session);
        request.tool_name = Some("run_task".into());
        request.context = format!(
            "run_task {}",
            task.args.get(3..).unwrap_or_default().join(" ")
        );
        let ingested = ingestor.ingest(request)?;
        (ingested.text, Some(ingested.id))
    };
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    Ok(RunTaskOutput {
        exit_code: outcome.ended.exit_code(),
        stopped: outcome.ended.reason(),
        output,
        id,
        stderr: tail(&stderr, STDERR_SHOWN_BYTES).to_string(),
        // An empty scratch directory goes (removing fails when it holds files).
        scratch: if std::fs::remove_dir(scratch).is_ok() {
            String::new()
        } else {
            scratch.display().to_string()
        },
        elapsed_ms: outcome.elapsed.as_millis() as u64,
    })
}

/// The end of `text`, at most `max_bytes` long, starting on a character.
pub(crate) fn tail(text: &str, max_bytes: usize) -> &str {
    let from = text
        .char_indices()
        .map(|(i, _)| i)
        .find(|&i| text.len() - i <= max_bytes)
        .unwrap_or(text.len());
    &text[from..]
}
