//! [`PluginRuntime`]: loads components and calls them, one fresh store per call.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use ghost_types::{Classification, ClassifyRequest, CompressRequest, Compressed};
use wasmtime::component::Linker;
use wasmtime::{Engine, Store, Trap};

use crate::cache::{ArtifactCache, CacheStatus};
use crate::engine;
use crate::limits::PluginLimits;
use crate::memory_image;
use crate::sandbox::PluginState;
use crate::wit::{self, PluginKind, TargetError, VersionedPre};

/// How a runtime is set up.
#[derive(Debug, Clone, Default)]
pub struct RuntimeConfig {
    /// The caps every call runs under.
    pub limits: PluginLimits,
    /// Where compiled components are cached; `None` compiles in memory.
    pub cache_dir: Option<PathBuf>,
}

/// Runs plugins. Cheap to create: the engine is shared by the whole process.
pub struct PluginRuntime {
    engine: &'static Engine,
    linker: Linker<PluginState>,
    cache: ArtifactCache,
    limits: PluginLimits,
    /// The time all calls together may take (a hook's overall budget), and
    /// what they have taken so far: no call starts once it is spent, none
    /// runs past it. Compiling and loading do not count.
    call_budget: std::sync::Mutex<Option<CallBudget>>,
}

/// A budget of call time shared by several calls.
#[derive(Debug, Clone, Copy)]
struct CallBudget {
    total: Duration,
    spent: Duration,
}

/// A component ready to run: compiled, checked and pre-instantiated.
pub struct Plugin {
    name: String,
    digest: blake3::Hash,
    kind: PluginKind,
    wit_version: &'static str,
    cache_status: CacheStatus,
    limits: Option<PluginLimits>,
    instance: VersionedPre,
}

impl Plugin {
    /// The name it was loaded under (e.g. `builtin:log`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The blake3 digest of its bytes.
    pub fn digest(&self) -> &blake3::Hash {
        &self.digest
    }

    /// Which world it implements.
    pub fn kind(&self) -> PluginKind {
        self.kind
    }

    /// The `ghost:plugin` WIT version it targets.
    pub fn wit_version(&self) -> &'static str {
        self.wit_version
    }

    /// Whether loading it hit the compile cache.
    pub fn cache_status(&self) -> CacheStatus {
        self.cache_status
    }

    /// Runs its calls under `limits` instead of the runtime's.
    pub fn with_limits(mut self, limits: PluginLimits) -> Self {
        self.limits = Some(limits);
        self
    }
}

/// Why a component could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The bytes are not a valid component, or compiling them failed.
    #[error("{name}: not a valid WebAssembly component: {reason}")]
    Invalid {
        /// The plugin's name.
        name: String,
        /// The compiler's or validator's reason.
        reason: String,
    },
    /// It targets a world or version this host does not run.
    #[error("{name}: {source}")]
    Target {
        /// The plugin's name.
        name: String,
        /// What is wrong with its target.
        source: TargetError,
    },
    /// It is of the wrong kind for the use asked of it.
    #[error("{name}: is a {found} plugin, but a {wanted} was expected")]
    WrongKind {
        /// The plugin's name.
        name: String,
        /// What it is.
        found: &'static str,
        /// What was wanted.
        wanted: &'static str,
    },
    /// It imports something the sandbox does not provide.
    #[error(
        "{name}: imports something ghost does not provide (plugins may import only ghost:plugin/log and WASI): {reason}"
    )]
    ForbiddenImport {
        /// The plugin's name.
        name: String,
        /// wasmtime's description of the missing import.
        reason: String,
    },
    /// Anything else (engine set-up).
    #[error("{name}: {reason}")]
    Other {
        /// The plugin's name.
        name: String,
        /// What went wrong.
        reason: String,
    },
}

/// A successful call: the plugin's answer and what it logged.
#[derive(Debug)]
pub struct CallOutput<T> {
    /// The plugin's answer.
    pub value: T,
    /// Its log lines (bounded), including captured stdout/stderr.
    pub log: Vec<String>,
    /// How long the call took, store creation included.
    pub elapsed: Duration,
}

/// How a call failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The plugin returned one of the contract's errors (`unsupported`, …):
    /// it works, it declined this input.
    Declined,
    /// The plugin was stopped: a trap, a deadline, a memory cap, a stack
    /// overflow, or a host-side failure to run it.
    Stopped,
}

/// Why a call produced no usable answer.
#[derive(Debug)]
pub struct CallFailure {
    /// One line for people: "deadline of 250 ms exceeded", …
    pub reason: String,
    /// Whether the plugin answered with an error or was stopped.
    pub kind: FailureKind,
    /// What the plugin logged before failing.
    pub log: Vec<String>,
    /// How long the call ran.
    pub elapsed: Duration,
}

impl PluginRuntime {
    /// A runtime on the process's shared engine.
    pub fn new(config: RuntimeConfig) -> anyhow::Result<Self> {
        let engine = engine::shared_engine()?;
        let mut linker = Linker::new(engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
            .map_err(anyhow::Error::from)
            .context("linking WASI")?;
        wit::add_to_linker(&mut linker)
            .map_err(anyhow::Error::from)
            .context("linking the log import")?;
        let cache = ArtifactCache::new(config.cache_dir, engine::compatibility_key(engine));
        Ok(Self {
            engine,
            linker,
            cache,
            limits: config.limits,
            call_budget: std::sync::Mutex::new(None),
        })
    }

    /// Sets the time every call from now on may take together (`None`:
    /// each call has only its own deadline). A call cut short by it is
    /// declined, not counted against the plugin: the time went to the calls
    /// before it.
    pub fn set_call_budget(&self, budget: Option<Duration>) {
        if let Ok(mut b) = self.call_budget.lock() {
            *b = budget.map(|total| CallBudget {
                total,
                spent: Duration::ZERO,
            });
        }
    }

    /// What is left of the call budget, if there is one.
    fn budget_left(&self) -> Option<Duration> {
        let b = self.call_budget.lock().ok()?;
        b.as_ref().map(|b| b.total.saturating_sub(b.spent))
    }

    fn spend(&self, elapsed: Duration) {
        if let Ok(mut b) = self.call_budget.lock()
            && let Some(b) = b.as_mut()
        {
            b.spent += elapsed;
        }
    }

    /// The caps calls run under.
    pub fn limits(&self) -> &PluginLimits {
        &self.limits
    }

    /// Compiles (or loads from the cache) `bytes`, checks which world and WIT
    /// version it targets, and pre-instantiates it.
    pub fn load(&self, name: &str, bytes: &[u8]) -> Result<Plugin, LoadError> {
        self.load_with(name, bytes, false)
    }

    /// [`PluginRuntime::load`] for a third-party plugin: also refuses any
    /// import outside [`wit::ALLOWED_IMPORTS`] (sockets, HTTP, …), even
    /// though the sandbox would deny it at run time.
    pub fn load_third_party(&self, name: &str, bytes: &[u8]) -> Result<Plugin, LoadError> {
        self.load_with(name, bytes, true)
    }

    fn load_with(&self, name: &str, bytes: &[u8], strict: bool) -> Result<Plugin, LoadError> {
        let digest = blake3::hash(bytes);
        let (component, cache_status) = self
            .cache
            .load_or_compile(self.engine, bytes, &digest)
            .map_err(|e| LoadError::Invalid {
                name: name.to_string(),
                reason: format!("{e:#}"),
            })?;
        let (kind, wit_version) =
            wit::detect_target(self.engine, &component).map_err(|source| LoadError::Target {
                name: name.to_string(),
                source,
            })?;
        let forbidden = wit::forbidden_imports(self.engine, &component);
        if strict && !forbidden.is_empty() {
            return Err(LoadError::ForbiddenImport {
                name: name.to_string(),
                reason: format!("it imports {}", forbidden.join(", ")),
            });
        }
        let pre =
            self.linker
                .instantiate_pre(&component)
                .map_err(|e| LoadError::ForbiddenImport {
                    name: name.to_string(),
                    reason: format!("{e:#}"),
                })?;
        let instance = VersionedPre::new(wit_version, kind, pre).map_err(|e| LoadError::Other {
            name: name.to_string(),
            reason: format!("{e:#}"),
        })?;
        Ok(Plugin {
            name: name.to_string(),
            digest,
            kind,
            wit_version,
            cache_status,
            limits: None,
            instance,
        })
    }

    /// Loads `bytes` and checks it is a `kind` plugin.
    pub fn load_kind(
        &self,
        name: &str,
        bytes: &[u8],
        kind: PluginKind,
    ) -> Result<Plugin, LoadError> {
        let plugin = self.load(name, bytes)?;
        if plugin.kind != kind {
            return Err(LoadError::WrongKind {
                name: name.to_string(),
                found: plugin.kind.world(),
                wanted: kind.world(),
            });
        }
        Ok(plugin)
    }

    /// Calls a compressor in a fresh store.
    pub fn compress(
        &self,
        plugin: &Plugin,
        request: &CompressRequest,
    ) -> Result<CallOutput<Compressed>, CallFailure> {
        let out = self.call(plugin, request.text.len(), |store| {
            plugin.instance.compress(store, request)
        });
        match out {
            Err(failure) => Err(failure),
            Ok(None) => Err(self.not_a(plugin, PluginKind::Compressor)),
            Ok(Some(out)) => match out.value {
                Ok(compressed) => Ok(CallOutput {
                    value: compressed,
                    log: out.log,
                    elapsed: out.elapsed,
                }),
                Err(reason) => Err(CallFailure {
                    reason,
                    kind: FailureKind::Declined,
                    log: out.log,
                    elapsed: out.elapsed,
                }),
            },
        }
    }

    /// Calls a classifier in a fresh store.
    pub fn classify(
        &self,
        plugin: &Plugin,
        request: &ClassifyRequest,
    ) -> Result<CallOutput<Classification>, CallFailure> {
        match self.call(plugin, request.text.len(), |store| {
            plugin.instance.classify(store, request)
        }) {
            Err(failure) => Err(failure),
            Ok(None) => Err(self.not_a(plugin, PluginKind::Classifier)),
            Ok(Some(out)) => Ok(out),
        }
    }

    fn not_a(&self, plugin: &Plugin, wanted: PluginKind) -> CallFailure {
        CallFailure {
            kind: FailureKind::Stopped,
            reason: format!(
                "{} is a {} plugin, not a {}",
                plugin.name,
                plugin.kind.world(),
                wanted.world()
            ),
            log: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }

    /// Runs `f` in a fresh store under the limits (the deadline for
    /// `input_bytes` of input) and turns any trap into a [`CallFailure`]
    /// that says which limit was hit. `f` answers `None` when the plugin is
    /// not of the world the call needs (nothing ran).
    fn call<T>(
        &self,
        plugin: &Plugin,
        input_bytes: usize,
        f: impl Fn(&mut Store<PluginState>) -> Option<wasmtime::Result<T>>,
    ) -> Result<Option<CallOutput<T>>, CallFailure> {
        let limits = plugin.limits.as_ref().unwrap_or(&self.limits);
        let started = Instant::now();
        let left = self.budget_left();
        if left.is_some_and(|left| left < Duration::from_millis(1)) {
            return Err(CallFailure {
                reason: "the overall time budget was spent before this call".to_string(),
                kind: FailureKind::Declined,
                log: Vec::new(),
                elapsed: Duration::ZERO,
            });
        }
        let own = limits.deadline_for(input_bytes);
        let deadline = left.map_or(own, |left| left.min(own));
        let cut_by_budget = deadline < own;
        let mut attempt = 1;
        let (mut store, result) = loop {
            let mut store = Store::new(self.engine, PluginState::new(limits));
            store.limiter(|state| &mut state.limiter);
            store.set_epoch_deadline(engine::deadline_ticks(deadline));
            store.epoch_deadline_trap();
            let Some(result) = f(&mut store) else {
                return Ok(None);
            };
            match result {
                // The kernel would not seal the module's memory image this
                // time; nothing ran, so the call starts again in a fresh store.
                Err(error)
                    if attempt < memory_image::ATTEMPTS
                        && memory_image::is_seal_refusal(&error) =>
                {
                    log::debug!("{}: memory image refused ({error:#}); again", plugin.name);
                    attempt += 1;
                    std::thread::sleep(memory_image::PAUSE);
                }
                result => break (store, result),
            }
        };
        let elapsed = started.elapsed();
        self.spend(elapsed);
        let log = store.data_mut().take_log_lines();
        match result {
            Ok(value) => Ok(Some(CallOutput {
                value,
                log,
                elapsed,
            })),
            Err(error) => {
                let reason = explain(limits, own, &error, store.data().limiter.memory_exceeded);
                if cut_by_budget && reason.starts_with("deadline") {
                    return Err(CallFailure {
                        reason: format!(
                            "stopped when the overall time budget ran out ({} ms were left for it)",
                            deadline.as_millis()
                        ),
                        kind: FailureKind::Declined,
                        log,
                        elapsed,
                    });
                }
                Err(CallFailure {
                    reason,
                    kind: FailureKind::Stopped,
                    log,
                    elapsed,
                })
            }
        }
    }
}

/// One line saying why a call failed, naming the limit when one was hit
/// (`deadline`: the call's own, for its input).
fn explain(
    limits: &PluginLimits,
    deadline: Duration,
    error: &wasmtime::Error,
    memory_exceeded: bool,
) -> String {
    if memory_exceeded {
        return format!("memory cap of {} MiB exceeded", limits.memory_bytes >> 20);
    }
    match error.downcast_ref::<Trap>() {
        Some(Trap::Interrupt) => {
            format!("deadline of {} ms exceeded", deadline.as_millis())
        }
        Some(Trap::StackOverflow) => "stack overflow (unbounded recursion?)".to_string(),
        Some(Trap::UnreachableCodeReached) => {
            "plugin trapped: unreachable code reached (a panic or abort)".to_string()
        }
        Some(trap) => format!("plugin trapped: {trap}"),
        None => format!("plugin failed: {}", one_line(&format!("{error:#}"))),
    }
}

/// The first line of `s`, at most 300 characters.
fn one_line(s: &str) -> String {
    let first = s.lines().next().unwrap_or_default();
    first.chars().take(300).collect()
}
