//! `ghost task run`: an agent's task as a sandboxed `wasi:cli/run`
//! component, with exactly the grants given on the command line.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use ghost_core::paths::GhostDirs;
use ghost_runtime::cache::ArtifactCache;
use ghost_task::{Grants, TaskLimits, TaskRequest};

/// `ghost task …`.
#[derive(Debug, clap::Subcommand)]
pub enum Args {
    /// Run a wasi:cli/run component with exactly the capabilities granted:
    /// `ghost task run --allow-read data -- task.wasm ARGS…`. Its stdout and
    /// stderr are its own (bounded); its exit code is ghost's (124: past its
    /// deadline, 137: past its memory cap, 134: trapped).
    Run(RunArgs),
}

/// Arguments of `ghost task run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// A directory the task may read (seen under its absolute path; when
    /// the current directory is inside a grant, relative paths start there).
    #[arg(long, value_name = "DIR")]
    allow_read: Vec<PathBuf>,
    /// A directory the task may read and write.
    #[arg(long, value_name = "DIR")]
    allow_write: Vec<PathBuf>,
    /// An environment variable the task may read (the host's value).
    #[arg(long, value_name = "NAME")]
    allow_env: Vec<String>,
    /// A host:port the task may open TCP connections to.
    #[arg(long, value_name = "HOST:PORT")]
    allow_net: Vec<String>,
    /// Wall-clock deadline: 500ms, 30s, 2m.
    #[arg(long, default_value = "30s", value_parser = parse_duration, value_name = "DUR")]
    timeout: Duration,
    /// Memory cap, MiB.
    #[arg(long, default_value_t = 512, value_name = "MIB")]
    memory: usize,
    /// Most bytes of stdout, and of stderr, kept (the rest is counted).
    #[arg(long, default_value_t = 1 << 20, value_name = "BYTES")]
    max_output: usize,
    /// A file the task reads as its stdin (default: nothing).
    #[arg(long, value_name = "FILE")]
    stdin: Option<PathBuf>,
    /// Run this JavaScript file (`-`: stdin) with the built-in runtime;
    /// the arguments after `--` are the script's `args`.
    #[arg(long, value_name = "FILE", conflicts_with = "py")]
    js: Option<PathBuf>,
    /// Run this Python file (`-`: stdin) with the built-in runtime; the
    /// arguments after `--` are the script's `args` (and `sys.argv[1:]`).
    #[arg(long, value_name = "FILE")]
    py: Option<PathBuf>,
    /// The component, then its arguments (with --js or --py: the script's
    /// arguments).
    #[arg(
        required_unless_present_any = ["js", "py"],
        num_args = 0..,
        last = true,
        value_name = "COMPONENT.wasm [ARGS]"
    )]
    command: Vec<String>,
}

/// `500ms`, `30s`, `2m`, or a number of seconds.
fn parse_duration(value: &str) -> Result<Duration, String> {
    let v = value.trim();
    let (number, scale) = if let Some(n) = v.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = v.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = v.strip_suffix('m') {
        (n, 60.0)
    } else {
        (v, 1.0)
    };
    match number.trim().parse::<f64>() {
        Ok(n) if n > 0.0 && n.is_finite() => Ok(Duration::from_secs_f64(n * scale)),
        _ => Err(format!("'{value}' is not a duration (500ms, 30s, 2m)")),
    }
}

/// Runs `ghost task …`.
pub fn run(args: Args, dirs: Option<&GhostDirs>, verbose: bool) -> Result<ExitCode> {
    let Args::Run(args) = args;
    let stdin = match &args.stdin {
        Some(file) => {
            std::fs::read(file).with_context(|| format!("reading --stdin {}", file.display()))?
        }
        None => Vec::new(),
    };
    let script = match (&args.js, &args.py) {
        (Some(file), _) => Some((ghost_task::Lang::Js, file)),
        (_, Some(file)) => Some((ghost_task::Lang::Py, file)),
        _ => None,
    };
    let (program, task_args) = match script {
        // The script goes in as an argument: it needs no file grant.
        Some((lang, file)) => {
            let code = if file.as_os_str() == "-" {
                let mut code = String::new();
                std::io::stdin()
                    .read_to_string(&mut code)
                    .context("reading the script from stdin")?;
                code
            } else {
                std::fs::read_to_string(file)
                    .with_context(|| format!("reading the script {}", file.display()))?
            };
            (
                ghost_task::Program::Runtime(lang),
                lang.args(&code, &args.command),
            )
        }
        None => {
            let (path, rest) = args.command.split_first().context("no component given")?;
            let component = std::fs::read(path)
                .with_context(|| format!("reading the task component {path}"))?;
            let name = std::path::Path::new(path)
                .file_stem()
                .map_or_else(|| path.clone(), |s| s.to_string_lossy().into_owned());
            (
                ghost_task::Program::Component(component),
                std::iter::once(name).chain(rest.iter().cloned()).collect(),
            )
        }
    };
    let mut request = TaskRequest {
        program,
        args: task_args,
        stdin,
        provided_env: Vec::new(),
        grants: Grants {
            read: args.allow_read,
            write: args.allow_write,
            env: args.allow_env,
            net: args.allow_net,
            cwd: None,
        },
        limits: TaskLimits {
            timeout: args.timeout,
            memory_bytes: args.memory.max(1) << 20,
            output_bytes: args.max_output,
        },
        control: ghost_task::TaskControl::default(),
    };
    // Relative paths start at the current directory when it is inside a
    // grant.
    request.grants.cwd = std::env::current_dir()
        .ok()
        .and_then(|d| d.canonicalize().ok())
        .filter(|d| request.grants.permissions_of(d).is_some());
    if verbose {
        eprintln!("ghost task: grants: {}", describe(&request.grants));
    }
    let engine = ghost_runtime::engine::shared_engine()?;
    let cache = ArtifactCache::new(
        dirs.map(GhostDirs::component_cache),
        ghost_runtime::engine::compatibility_key(engine),
    );
    let outcome = match ghost_task::run(&request, &cache) {
        Ok(o) => o,
        Err(e) => bail!("{e}"),
    };
    std::io::stdout().write_all(&outcome.stdout)?;
    std::io::stdout().flush()?;
    std::io::stderr().write_all(&outcome.stderr)?;
    for (stream, dropped) in [
        ("stdout", outcome.stdout_dropped),
        ("stderr", outcome.stderr_dropped),
    ] {
        if dropped > 0 {
            eprintln!(
                "ghost task: {dropped} more bytes of {stream} were cut (--max-output {})",
                request.limits.output_bytes
            );
        }
    }
    for connect in &outcome.connects {
        if !connect.allowed {
            eprintln!(
                "ghost task: denied a connection to {} (grant it with --allow-net {})",
                connect.addr, connect.addr
            );
        } else if verbose {
            eprintln!("ghost task: connected to {} (granted)", connect.addr);
        }
    }
    if verbose {
        for line in grants_used(&request.grants, &outcome) {
            eprintln!("ghost task: {line}");
        }
    }
    if let Some(reason) = outcome.ended.reason() {
        eprintln!("ghost task: {reason}");
    }
    if verbose {
        eprintln!(
            "ghost task: ran {:.1} ms, exit {} (component {:?})",
            outcome.elapsed.as_secs_f64() * 1000.0,
            outcome.ended.exit_code(),
            outcome.cache
        );
    }
    Ok(ExitCode::from(outcome.ended.exit_code().clamp(0, 255) as u8))
}

/// The grants for people: what is allowed, or that nothing is.
fn describe(g: &Grants) -> String {
    let mut parts = Vec::new();
    parts.extend(g.read.iter().map(|p| format!("read {}", p.display())));
    parts.extend(
        g.write
            .iter()
            .map(|p| format!("read-write {}", p.display())),
    );
    parts.extend(g.env.iter().map(|n| format!("env {n}")));
    parts.extend(g.net.iter().map(|a| format!("tcp {a}")));
    if parts.is_empty() {
        "none (no files, no environment, no network)".into()
    } else {
        parts.join(", ")
    }
}

/// Most file openings listed by `-v`.
const FILES_LISTED: usize = 20;

/// What the task did with its grants, for people: each file it opened (or
/// a grant refused), each variable it was given, and the grants it never
/// used (candidates to drop).
fn grants_used(g: &Grants, outcome: &ghost_task::TaskOutcome) -> Vec<String> {
    let mut lines = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let files: Vec<&ghost_task::FileUse> = outcome
        .files
        .iter()
        .filter(|f| seen.insert((f.path.clone(), f.write, f.error.clone())))
        .collect();
    for f in files.iter().take(FILES_LISTED) {
        let mode = if f.write { "write" } else { "read" };
        lines.push(match &f.error {
            None => format!("opened {} to {mode}", f.path.display()),
            Some(why) => format!("could not open {} to {mode}: {why}", f.path.display()),
        });
    }
    if files.len() > FILES_LISTED {
        lines.push(format!(
            "… and {} more openings",
            files.len() - FILES_LISTED
        ));
    }
    for name in &g.env {
        let set = std::env::var_os(name).is_some();
        lines.push(format!(
            "env {name}: {}",
            if set { "given" } else { "not set on the host" }
        ));
    }
    let used = |dir: &PathBuf| {
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        outcome.files.iter().any(|f| f.path.starts_with(&dir))
    };
    for (flag, dirs) in [("--allow-read", &g.read), ("--allow-write", &g.write)] {
        for dir in dirs.iter().filter(|d| !used(d)) {
            lines.push(format!("unused grant: {flag} {}", dir.display()));
        }
    }
    for addr in &g.net {
        let granted: Vec<std::net::SocketAddr> = std::net::ToSocketAddrs::to_socket_addrs(addr)
            .map(|a| a.collect())
            .unwrap_or_default();
        if !outcome.connects.iter().any(|c| granted.contains(&c.addr)) {
            lines.push(format!("unused grant: --allow-net {addr}"));
        }
    }
    lines
}
