//! Runs an agent's task — a `wasi:cli/run` component — with exactly the
//! capabilities granted, under a deadline and a memory cap (see the README).
//!
//! - [`Grants`]: what a task may touch; checked and resolved before it runs;
//! - [`TaskLimits`]: how long, how much memory, how much output;
//! - [`run`]: one task, start to end, and its [`TaskOutcome`];
//! - [`JS_RUNTIME`]: the built-in JavaScript runtime (boa), a task
//!   component that runs a script (`--eval CODE ARGS…`).

use std::collections::HashSet;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ghost_runtime::PluginLimits;
use ghost_runtime::cache::{ArtifactCache, CacheStatus};
use ghost_runtime::engine::{deadline_ticks, shared_engine};
use ghost_runtime::limits::CallLimiter;
use ghost_runtime::output::CappedOutput;
use wasmtime::Store;
use wasmtime::component::{Linker, ResourceTable};
use wasmtime_wasi::p2::bindings::sync::Command;
use wasmtime_wasi::p2::pipe::MemoryInputPipe;
use wasmtime_wasi::sockets::SocketAddrUse;
use wasmtime_wasi::{FsPerms, I32Exit, WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

/// The built-in JavaScript runtime (`runtimes/js`): a task component run
/// as `ghost_task_js --eval CODE [ARGS…]`.
pub const JS_RUNTIME: &[u8] = include_bytes!(env!("GHOST_TASK_JS_WASM"));

/// The variable through which a task learns its scratch directory (the JS
/// runtime shows it as `scratch`).
pub const SCRATCH_VAR: &str = "GHOST_TASK_SCRATCH";

/// The arguments that make [`JS_RUNTIME`] run `code` with `args`.
pub fn js_args(code: &str, args: &[String]) -> Vec<String> {
    ["js", "--eval", code]
        .into_iter()
        .map(str::to_string)
        .chain(args.iter().cloned())
        .collect()
}

/// What a task may touch. Everything not listed is denied.
#[derive(Debug, Clone, Default)]
pub struct Grants {
    /// Directories the task may read (it sees each under its absolute path).
    pub read: Vec<PathBuf>,
    /// Directories the task may read and write.
    pub write: Vec<PathBuf>,
    /// Environment variables it may read, by name (the host's values).
    pub env: Vec<String>,
    /// `host:port` pairs it may open TCP connections to.
    pub net: Vec<String>,
    /// Where relative paths start: a directory inside one of the granted
    /// ones, with that grant's permissions (none: relative paths reach
    /// nothing).
    pub cwd: Option<PathBuf>,
}

/// How long, how big, how loud a task may be.
#[derive(Debug, Clone)]
pub struct TaskLimits {
    /// Wall-clock deadline.
    pub timeout: Duration,
    /// Memory cap, bytes (all of the task's memories together).
    pub memory_bytes: usize,
    /// Most bytes of stdout, and of stderr, kept.
    pub output_bytes: usize,
}

impl Default for TaskLimits {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(30),
            memory_bytes: 512 << 20,
            output_bytes: 1 << 20,
        }
    }
}

/// One task to run.
#[derive(Debug, Clone, Default)]
pub struct TaskRequest {
    /// The component's bytes (`wasi:cli/run`).
    pub component: Vec<u8>,
    /// Its arguments (the first is its name, by convention).
    pub args: Vec<String>,
    /// What it reads on stdin.
    pub stdin: Vec<u8>,
    /// Variables ghost itself gives the task (not the host's), such as
    /// where its scratch directory is.
    pub provided_env: Vec<(String, String)>,
    /// What it may touch.
    pub grants: Grants,
    /// Its limits.
    pub limits: TaskLimits,
}

/// How a task ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this code. WASI 0.2 carries success or failure only:
    /// 0 when it succeeded, 1 for any failure (`exit(3)` included).
    Exited(i32),
    /// Its deadline passed.
    TimedOut(Duration),
    /// It asked for more memory than its cap.
    OutOfMemory(usize),
    /// It trapped (a panic, an unreachable, a stack overflow).
    Trapped(String),
}

impl Ended {
    /// The exit code ghost reports: the task's own, else 124 for a timeout
    /// (as `timeout(1)`), 137 for the memory cap, 134 for a trap.
    pub fn exit_code(&self) -> i32 {
        match self {
            Ended::Exited(code) => *code,
            Ended::TimedOut(_) => 124,
            Ended::OutOfMemory(_) => 137,
            Ended::Trapped(_) => 134,
        }
    }

    /// Why a task that did not exit by itself was stopped, for people.
    pub fn reason(&self) -> Option<String> {
        match self {
            Ended::Exited(_) => None,
            Ended::TimedOut(d) => Some(format!("stopped: the task ran past its {d:?} deadline")),
            Ended::OutOfMemory(cap) => Some(format!(
                "stopped: the task asked for more than its {} MiB memory cap",
                cap >> 20
            )),
            Ended::Trapped(why) => Some(format!("stopped: the task trapped: {why}")),
        }
    }
}

/// A connection the task tried to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connect {
    /// Where to.
    pub addr: SocketAddr,
    /// Whether a grant allowed it.
    pub allowed: bool,
}

/// What a task did.
#[derive(Debug, Clone)]
pub struct TaskOutcome {
    /// How it ended.
    pub ended: Ended,
    /// Its stdout, up to the cap.
    pub stdout: Vec<u8>,
    /// Its stderr, up to the cap.
    pub stderr: Vec<u8>,
    /// Bytes of stdout beyond the cap, dropped.
    pub stdout_dropped: usize,
    /// Bytes of stderr beyond the cap, dropped.
    pub stderr_dropped: usize,
    /// Every connection it tried, allowed or not.
    pub connects: Vec<Connect>,
    /// Whether the compiled component came from the cache.
    pub cache: CacheStatus,
    /// Time spent running (compiling excluded).
    pub elapsed: Duration,
}

/// Why a task could not start.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    /// A granted directory (or the working directory) is not there, not a
    /// directory, or not inside a grant.
    #[error("{kind} {path}: {why}")]
    BadDir {
        /// Which grant: `--allow-read`, `--allow-write` or `cwd`.
        kind: &'static str,
        /// The path given.
        path: PathBuf,
        /// Why it cannot be granted.
        why: String,
    },
    /// A network grant is not `host:port`, or the host does not resolve.
    #[error("--allow-net {0}: {1}")]
    BadNet(String, String),
    /// The bytes are not a component with `wasi:cli/run`.
    #[error("{0}")]
    NotACommand(String),
    /// The engine failed.
    #[error("{0:#}")]
    Engine(anyhow::Error),
}

struct TaskState {
    wasi: WasiCtx,
    table: ResourceTable,
    limiter: CallLimiter,
}

impl WasiView for TaskState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// Runs `request`, compiling its component through `cache`.
pub fn run(request: &TaskRequest, cache: &ArtifactCache) -> Result<TaskOutcome, TaskError> {
    let engine = shared_engine().map_err(TaskError::Engine)?;
    let digest = blake3::hash(&request.component);
    let (component, status) = cache
        .load_or_compile(engine, &request.component, &digest)
        .map_err(|e| TaskError::NotACommand(format!("not a WebAssembly component: {e:#}")))?;

    let limits = &request.limits;
    let stdout = CappedOutput::new(limits.output_bytes);
    let stderr = CappedOutput::new(limits.output_bytes);
    let connects: Arc<Mutex<Vec<Connect>>> = Arc::default();
    let wasi = context(request, &stdout, &stderr, connects.clone())?;
    let plugin_limits = PluginLimits {
        memory_bytes: limits.memory_bytes,
        memories: 16,
        ..PluginLimits::default()
    };
    let mut store = Store::new(
        engine,
        TaskState {
            wasi,
            table: ResourceTable::new(),
            limiter: CallLimiter::new(&plugin_limits),
        },
    );
    store.limiter(|s| &mut s.limiter);
    store.set_epoch_deadline(deadline_ticks(limits.timeout));
    store.epoch_deadline_trap();

    let mut linker: Linker<TaskState> = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(|e| TaskError::Engine(e.into()))?;
    let started = Instant::now();
    let result = Command::instantiate(&mut store, &component, &linker)
        .map_err(|e| {
            TaskError::NotACommand(format!(
                "the component is not a wasi:cli/run command, or imports what a task is not \
                 given: {e:#}"
            ))
        })?
        .wasi_cli_run()
        .call_run(&mut store);
    let elapsed = started.elapsed();
    let ended = match result {
        Ok(Ok(())) => Ended::Exited(0),
        Ok(Err(())) => Ended::Exited(1),
        Err(e) => {
            if let Some(exit) = e.downcast_ref::<I32Exit>() {
                Ended::Exited(exit.0)
            } else if store.data().limiter.memory_exceeded {
                Ended::OutOfMemory(limits.memory_bytes)
            } else if matches!(
                e.downcast_ref::<wasmtime::Trap>(),
                Some(wasmtime::Trap::Interrupt)
            ) {
                Ended::TimedOut(limits.timeout)
            } else {
                Ended::Trapped(format!("{}", e.root_cause()))
            }
        }
    };
    let connects = connects.lock().map(|c| c.clone()).unwrap_or_default();
    Ok(TaskOutcome {
        ended,
        stdout: stdout.contents(),
        stderr: stderr.contents(),
        stdout_dropped: stdout.dropped(),
        stderr_dropped: stderr.dropped(),
        connects,
        cache: status,
        elapsed,
    })
}

/// The WASI context of `request`: its grants and nothing else.
fn context(
    request: &TaskRequest,
    stdout: &CappedOutput,
    stderr: &CappedOutput,
    connects: Arc<Mutex<Vec<Connect>>>,
) -> Result<WasiCtx, TaskError> {
    let grants = &request.grants;
    let mut b = WasiCtxBuilder::new();
    b.stdin(MemoryInputPipe::new(request.stdin.clone()))
        .stdout(stdout.clone())
        .stderr(stderr.clone())
        .args(&request.args)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    for (kind, dirs, perms) in [
        ("--allow-read", &grants.read, FsPerms::ReadOnly),
        ("--allow-write", &grants.write, FsPerms::ReadWrite),
    ] {
        for dir in dirs {
            let path = absolute(dir).map_err(|why| TaskError::BadDir {
                kind,
                path: dir.clone(),
                why,
            })?;
            b.preopened_dir(&path, path.to_string_lossy(), perms)
                .map_err(|e| TaskError::BadDir {
                    kind,
                    path: dir.clone(),
                    why: format!("{e:#}"),
                })?;
        }
    }
    if let Some(cwd) = &grants.cwd {
        let cwd = absolute(cwd).map_err(|why| TaskError::BadDir {
            kind: "cwd",
            path: cwd.clone(),
            why,
        })?;
        let within = |dirs: &[PathBuf]| {
            dirs.iter()
                .filter_map(|d| absolute(d).ok())
                .any(|d| cwd.starts_with(d))
        };
        let perms = if within(&grants.write) {
            FsPerms::ReadWrite
        } else if within(&grants.read) {
            FsPerms::ReadOnly
        } else {
            return Err(TaskError::BadDir {
                kind: "cwd",
                path: cwd,
                why: "not inside a granted directory".into(),
            });
        };
        b.preopened_dir(&cwd, ".", perms)
            .map_err(|e| TaskError::BadDir {
                kind: "cwd",
                path: cwd.clone(),
                why: format!("{e:#}"),
            })?;
    }
    for (name, value) in &request.provided_env {
        b.env(name, value);
    }
    for name in &grants.env {
        if let Ok(value) = std::env::var(name) {
            b.env(name, value);
        }
    }
    // TCP is on so that every connect reaches the check below, which
    // denies all but the granted addresses (and names what it denied).
    let allowed = resolve(&grants.net)?;
    b.allow_tcp(true);
    b.socket_addr_check(move |addr, use_| {
        let ok = match use_ {
            // The implicit bind before a connect (any address, any port):
            // harmless by itself; the connect is what is checked.
            SocketAddrUse::TcpBind => addr.ip().is_unspecified() && addr.port() == 0,
            SocketAddrUse::TcpConnect => {
                let ok = allowed.contains(&addr);
                if let Ok(mut log) = connects.lock() {
                    log.push(Connect { addr, allowed: ok });
                }
                ok
            }
            // No listening, no UDP.
            _ => false,
        };
        Box::pin(async move { ok })
    });
    Ok(b.build())
}

/// `dir` made absolute and checked to be a directory.
fn absolute(dir: &Path) -> Result<PathBuf, String> {
    let path = std::fs::canonicalize(dir).map_err(|e| e.to_string())?;
    if !path.is_dir() {
        return Err("not a directory".into());
    }
    Ok(path)
}

/// Every address the `host:port` grants resolve to.
fn resolve(net: &[String]) -> Result<HashSet<SocketAddr>, TaskError> {
    let mut allowed = HashSet::new();
    for grant in net {
        if grant
            .rsplit_once(':')
            .is_none_or(|(_, port)| port.parse::<u16>().is_err())
        {
            return Err(TaskError::BadNet(
                grant.clone(),
                "give a host and a port, e.g. 127.0.0.1:8080 or example.com:443".into(),
            ));
        }
        let addrs = grant
            .to_socket_addrs()
            .map_err(|e| TaskError::BadNet(grant.clone(), format!("cannot resolve it: {e}")))?;
        allowed.extend(addrs);
    }
    Ok(allowed)
}
