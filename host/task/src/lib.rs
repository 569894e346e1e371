//! Runs an agent's task — a `wasi:cli/run` component — with exactly the
//! capabilities granted, under a deadline and a memory cap (see the README).
//!
//! - [`Grants`]: what a task may touch; checked and resolved before it runs;
//! - [`TaskLimits`]: how long, how much memory, how much output;
//! - [`run`]: one task, start to end, and its [`TaskOutcome`];
//! - [`TaskControl`]: cancel a running task, read its output so far;
//! - [`Lang`]: the built-in runtimes, JavaScript ([`JS_RUNTIME`], boa) and
//!   Python ([`PY_RUNTIME`], RustPython), task components that run a
//!   script (`--eval CODE ARGS…`).

use std::collections::{HashMap, HashSet};
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use ghost_runtime::PluginLimits;
use ghost_runtime::cache::{ArtifactCache, CacheStatus};
use ghost_runtime::engine::{EPOCH_TICK, shared_engine};
use ghost_runtime::limits::CallLimiter;
use ghost_runtime::memory_image;
use ghost_runtime::output::CappedOutput;
use wasmtime::component::{Linker, ResourceTable};
use wasmtime::{Store, UpdateDeadline};
use wasmtime_wasi::p2::bindings::sync::Command;
use wasmtime_wasi::p2::pipe::MemoryInputPipe;
use wasmtime_wasi::sockets::SocketAddrUse;
use wasmtime_wasi::{FsPerms, I32Exit, WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

mod files;

pub use files::FileUse;

/// The built-in JavaScript runtime (`runtimes/js`, boa): a task component
/// run as `ghost_task_js --eval CODE [ARGS…]`.
pub const JS_RUNTIME: &[u8] = include_bytes!(env!("GHOST_TASK_JS_WASM"));

/// The built-in Python runtime (`runtimes/py`, RustPython with its standard
/// library frozen in): a task component run as `ghost_task_py --eval CODE
/// [ARGS…]`.
pub const PY_RUNTIME: &[u8] = include_bytes!(env!("GHOST_TASK_PY_WASM"));

/// A language with a built-in runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// JavaScript (ECMAScript, boa).
    Js,
    /// Python 3 (RustPython).
    Py,
}

impl Lang {
    /// Every built-in language.
    pub const ALL: [Lang; 2] = [Lang::Js, Lang::Py];

    /// The language called `name` (`js`, `javascript`, `py`, `python`).
    pub fn parse(name: &str) -> Option<Lang> {
        match name.to_ascii_lowercase().as_str() {
            "js" | "javascript" => Some(Lang::Js),
            "py" | "python" | "python3" => Some(Lang::Py),
            _ => None,
        }
    }

    /// Its short name.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Js => "js",
            Lang::Py => "py",
        }
    }

    /// Its runtime component.
    pub fn runtime(self) -> &'static [u8] {
        match self {
            Lang::Js => JS_RUNTIME,
            Lang::Py => PY_RUNTIME,
        }
    }

    /// The arguments that make its runtime run `code` with `args`.
    pub fn args(self, code: &str, args: &[String]) -> Vec<String> {
        [self.name(), "--eval", code]
            .into_iter()
            .map(str::to_string)
            .chain(args.iter().cloned())
            .collect()
    }
}

/// The variable through which a task learns its scratch directory (the
/// runtimes show it as `scratch`).
pub const SCRATCH_VAR: &str = "GHOST_TASK_SCRATCH";

/// How many epoch ticks pass between two checks of a running task (a
/// cancel is seen within this many ticks).
const CHECK_TICKS: u64 = 4;

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

impl Grants {
    /// The permissions `dir` (absolute) has under these grants: read-write
    /// inside a writable grant, read-only inside a readable one, `None`
    /// outside every grant (or when a grant is not there).
    pub fn permissions_of(&self, dir: &Path) -> Option<FsPerms> {
        let within = |dirs: &[PathBuf]| {
            dirs.iter()
                .filter_map(|d| absolute(d).ok())
                .any(|d| dir.starts_with(d))
        };
        if within(&self.write) {
            Some(FsPerms::ReadWrite)
        } else if within(&self.read) {
            Some(FsPerms::ReadOnly)
        } else {
            None
        }
    }
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

/// What a task runs.
#[derive(Debug, Clone)]
pub enum Program {
    /// A built-in runtime (its arguments say what script it runs).
    Runtime(Lang),
    /// A component's bytes (`wasi:cli/run`).
    Component(Vec<u8>),
}

impl Default for Program {
    fn default() -> Self {
        Program::Component(Vec::new())
    }
}

impl Program {
    fn bytes(&self) -> &[u8] {
        match self {
            Program::Runtime(lang) => lang.runtime(),
            Program::Component(bytes) => bytes,
        }
    }

    /// The digest the compiled code is keyed by; a runtime's is computed
    /// once per process.
    fn digest(&self) -> blake3::Hash {
        static RUNTIMES: OnceLock<Mutex<HashMap<&'static str, blake3::Hash>>> = OnceLock::new();
        match self {
            Program::Runtime(lang) => {
                let mut known = RUNTIMES
                    .get_or_init(Mutex::default)
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                *known
                    .entry(lang.name())
                    .or_insert_with(|| blake3::hash(lang.runtime()))
            }
            Program::Component(bytes) => blake3::hash(bytes),
        }
    }
}

/// Components compiled (or loaded from the disk cache) in this process, by
/// digest: a server runs the same runtimes again and again. Bounded.
fn loaded(
    engine: &wasmtime::Engine,
    program: &Program,
    cache: &ArtifactCache,
) -> anyhow::Result<(wasmtime::component::Component, CacheStatus)> {
    const KEPT: usize = 8;
    static LOADED: OnceLock<Mutex<HashMap<blake3::Hash, wasmtime::component::Component>>> =
        OnceLock::new();
    let digest = program.digest();
    let memo = LOADED.get_or_init(Mutex::default);
    if let Some(component) = memo.lock().ok().and_then(|m| m.get(&digest).cloned()) {
        return Ok((component, CacheStatus::Hit));
    }
    let (component, status) = cache.load_or_compile(engine, program.bytes(), &digest)?;
    if let Ok(mut memo) = memo.lock() {
        if memo.len() >= KEPT {
            memo.clear();
        }
        memo.insert(digest, component.clone());
    }
    Ok((component, status))
}

/// One task to run.
#[derive(Debug, Clone, Default)]
pub struct TaskRequest {
    /// What it runs.
    pub program: Program,
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
    /// How another thread stops it or looks at its output while it runs.
    pub control: TaskControl,
}

/// A handle on a running task, shared with other threads: cancel it, read
/// its stdout so far. Clones share the same task.
#[derive(Debug, Clone, Default)]
pub struct TaskControl {
    inner: Arc<ControlInner>,
}

#[derive(Debug, Default)]
struct ControlInner {
    cancelled: AtomicBool,
    stdout: Mutex<Option<CappedOutput>>,
}

impl TaskControl {
    /// Asks the task to stop; it ends as [`Ended::Cancelled`] within a few
    /// milliseconds of its next WebAssembly instruction.
    pub fn cancel(&self) {
        self.inner.cancelled.store(true, Ordering::SeqCst);
    }

    /// Whether [`TaskControl::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::SeqCst)
    }

    /// Its stdout so far (up to its cap), and the bytes dropped beyond it;
    /// empty before it starts.
    pub fn stdout_so_far(&self) -> (Vec<u8>, usize) {
        match self.inner.stdout.lock().ok().and_then(|s| s.clone()) {
            Some(out) => (out.contents(), out.dropped()),
            None => (Vec::new(), 0),
        }
    }

    fn watch(&self, stdout: &CappedOutput) {
        if let Ok(mut slot) = self.inner.stdout.lock() {
            *slot = Some(stdout.clone());
        }
    }
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
    /// It was cancelled ([`TaskControl::cancel`]).
    Cancelled,
}

impl Ended {
    /// The exit code ghost reports: the task's own, else 124 for a timeout
    /// (as `timeout(1)`), 137 for the memory cap, 134 for a trap, 130 when
    /// cancelled (as an interrupted command).
    pub fn exit_code(&self) -> i32 {
        match self {
            Ended::Exited(code) => *code,
            Ended::TimedOut(_) => 124,
            Ended::OutOfMemory(_) => 137,
            Ended::Trapped(_) => 134,
            Ended::Cancelled => 130,
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
            Ended::Cancelled => Some("stopped: the task was cancelled".into()),
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
    /// Every file or directory it opened under a grant, or tried to.
    pub files: Vec<FileUse>,
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
    files: files::FileLog,
}

impl files::HasFileLog for TaskState {
    fn file_log(&mut self) -> &mut files::FileLog {
        &mut self.files
    }
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
    let (component, status) = loaded(engine, &request.program, cache)
        .map_err(|e| TaskError::NotACommand(format!("not a WebAssembly component: {e:#}")))?;
    memory_image::prepare(&component).map_err(|e| TaskError::Engine(e.into()))?;

    let limits = &request.limits;
    let stdout = CappedOutput::new(limits.output_bytes);
    let stderr = CappedOutput::new(limits.output_bytes);
    request.control.watch(&stdout);
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
            files: files::FileLog {
                cwd: request.grants.cwd.as_deref().and_then(|d| absolute(d).ok()),
                ..files::FileLog::default()
            },
        },
    );
    store.limiter(|s| &mut s.limiter);
    // Every few ticks the task is checked: cancelled, or past its deadline.
    let started = Instant::now();
    let (control, timeout) = (request.control.clone(), limits.timeout);
    store.set_epoch_deadline(CHECK_TICKS);
    store.epoch_deadline_callback(move |_| {
        let left = timeout.saturating_sub(started.elapsed());
        if control.is_cancelled() || left.is_zero() {
            return Ok(UpdateDeadline::Interrupt);
        }
        let ticks = left.as_micros().div_ceil(EPOCH_TICK.as_micros()) as u64;
        Ok(UpdateDeadline::Continue(ticks.clamp(1, CHECK_TICKS)))
    });

    let mut linker: Linker<TaskState> = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(|e| TaskError::Engine(e.into()))?;
    files::track_openings(&mut linker).map_err(|e| TaskError::Engine(e.into()))?;
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
                if request.control.is_cancelled() {
                    Ended::Cancelled
                } else {
                    Ended::TimedOut(limits.timeout)
                }
            } else {
                Ended::Trapped(format!("{}", e.root_cause()))
            }
        }
    };
    let connects = connects.lock().map(|c| c.clone()).unwrap_or_default();
    let files = std::mem::take(&mut store.data_mut().files.uses);
    Ok(TaskOutcome {
        files,
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
        let Some(perms) = grants.permissions_of(&cwd) else {
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
