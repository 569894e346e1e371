//! The one wasmtime `Engine` of a ghost process, configured in one place.
//!
//! Every knob is here with the reason for it. The engine must never be built
//! twice in a process: compiled code, the epoch counter and the compatibility
//! hash the disk cache is keyed by all belong to it.

use std::hash::Hasher;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result};
use wasmtime::{
    Config, Enabled, Engine, InstanceAllocationStrategy, OptLevel, PoolingAllocationConfig,
};

/// How often the ticker thread advances the epoch. A deadline is a whole
/// number of ticks, so a call may overrun its deadline by up to one tick.
pub const EPOCH_TICK: Duration = Duration::from_millis(5);

/// Most bytes of native stack wasm code may use: unbounded recursion in a
/// guest traps with a stack overflow here instead of taking the process down.
const MAX_WASM_STACK: usize = 1 << 20;

/// The process's engine, built on first use and shared by every runtime.
///
/// One engine per process: compiled code, the epoch counter (and so every
/// deadline) and the cache key all belong to it. The epoch ticker starts with it.
pub fn shared_engine() -> Result<&'static Engine> {
    if let Some(shared) = ENGINE.get() {
        return Ok(&shared.engine);
    }
    let shared = build_engine()?;
    let shared = ENGINE.get_or_init(|| shared);
    start_epoch_ticker(&shared.engine);
    Ok(&shared.engine)
}

/// The process's engine, once built.
static ENGINE: OnceLock<SharedEngine> = OnceLock::new();

/// The engine and how it allocates instances.
struct SharedEngine {
    engine: Engine,
    /// Whether instances come from a pool.
    is_pooled: bool,
}

/// Whether the engine takes instances from a pool (see [`pool_instances`]).
static POOLED: AtomicBool = AtomicBool::new(false);

/// Has this process's engine take plugin instances from a pool (see
/// [`instance_pool`]): a call then costs about a quarter of what it did on a
/// small input (10 µs instead of 42 µs on 16 bytes, `per_call` in
/// `host/bench/benches/runtime.rs`). Building the pool costs about 2 ms, so
/// only a process making many calls gains: the gateway, the MCP server,
/// benchmarks. A hook or `ghost compress` makes one call and should not ask.
///
/// Call it before the first plugin is loaded; answers false when the engine
/// was already built without a pool. (A pool the process cannot reserve is
/// logged, and the engine is built without it.)
pub fn pool_instances() -> bool {
    POOLED.store(true, Ordering::SeqCst);
    ENGINE.get().is_none_or(|engine| engine.is_pooled)
}

/// Builds an engine with ghost's configuration: with an instance pool when
/// [`pool_instances`] asked for one and the process may reserve it, else
/// allocating each call's instance afresh.
fn build_engine() -> Result<SharedEngine> {
    if POOLED.load(Ordering::SeqCst) {
        let mut config = base_config();
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(instance_pool()));
        // The pool reserves address space up front; a process capped below
        // that (`ulimit -v`) still runs plugins, each call mapping its own.
        match Engine::new(&config) {
            Ok(engine) => {
                return Ok(SharedEngine {
                    engine,
                    is_pooled: true,
                });
            }
            Err(why) => log::warn!("no instance pool ({why}); each call maps its own memory"),
        }
    }
    let engine = Engine::new(&base_config())
        .map_err(anyhow::Error::from)
        .context("configuring the WebAssembly engine")?;
    Ok(SharedEngine {
        engine,
        is_pooled: false,
    })
}

/// Every setting but the allocation strategy.
fn base_config() -> Config {
    let mut config = Config::new();
    // Deadlines: with epoch interruption on, each store must set a deadline
    // before it runs or it traps at once. The ticker below advances the epoch.
    config.epoch_interruption(true);
    // Recursion cap, well under the host thread's stack.
    config.max_wasm_stack(MAX_WASM_STACK);
    // The built-in compressors sit on the agent's critical path: optimise.
    config.cranelift_opt_level(OptLevel::Speed);
    // Components are compiled ahead of time and cached on disk (see cache.rs);
    // parallel compilation only speeds up that first, rare compile.
    config.parallel_compilation(true);
    config
}

/// Most component instances alive at once in a process (one per plugin call
/// or task in flight); a call beyond it fails, and its text goes through
/// unchanged, as for any failing plugin.
const POOLED_COMPONENTS: u32 = 256;

/// Bytes of each linear memory kept mapped between calls and reset in place,
/// when the kernel tells which pages a call dirtied. With at most 32 idle
/// slots kept warm, a long-lived process holds at most 128 MiB this way.
const KEEP_RESIDENT: usize = 4 << 20;

/// The instance pool. Every call used to map a fresh linear memory, fault
/// its pages in and unmap it: most of a small call's cost. Pooled memories
/// are reused; where the kernel reports dirtied pages (`PAGEMAP_SCAN`,
/// Linux 6.7+) only those are restored and stay resident, so the next call
/// takes no page faults on them. A module may have as many memories as
/// [`crate::limits::PluginLimits`] lets a plugin have; tables hold up to
/// 200,000 elements (a plugin's cap is 100,000: room for the task runtimes).
fn instance_pool() -> PoolingAllocationConfig {
    let mut pool = PoolingAllocationConfig::new();
    pool.total_component_instances(POOLED_COMPONENTS)
        .total_core_instances(POOLED_COMPONENTS * 8)
        .total_memories(POOLED_COMPONENTS * 2)
        .total_tables(POOLED_COMPONENTS * 4)
        .max_memories_per_module(crate::limits::PluginLimits::default().memories as u32)
        .max_tables_per_module(4)
        .table_elements(200_000)
        .max_unused_warm_slots(32);
    if PoolingAllocationConfig::is_pagemap_scan_available() {
        pool.pagemap_scan(Enabled::Yes)
            .linear_memory_keep_resident(KEEP_RESIDENT)
            .table_keep_resident(64 << 10);
    }
    pool
}

/// Starts the thread that advances `engine`'s epoch every [`EPOCH_TICK`].
/// It holds only a weak reference and ends once the engine is gone.
fn start_epoch_ticker(engine: &Engine) {
    static STARTED: OnceLock<()> = OnceLock::new();
    let weak = engine.weak();
    STARTED.get_or_init(|| {
        thread::Builder::new()
            .name("ghost-epoch".into())
            .spawn(move || {
                loop {
                    thread::sleep(EPOCH_TICK);
                    match weak.upgrade() {
                        Some(engine) => engine.increment_epoch(),
                        None => break,
                    }
                }
            })
            .expect("spawning the epoch ticker thread");
    });
}

/// Number of epoch ticks that covers `deadline` (at least one).
pub fn deadline_ticks(deadline: Duration) -> u64 {
    let ticks = deadline.as_micros().div_ceil(EPOCH_TICK.as_micros());
    (ticks as u64).max(1)
}

/// A stable key for code compiled by `engine`: two engines with the same key
/// can load each other's precompiled artifacts.
pub fn compatibility_key(engine: &Engine) -> String {
    struct Blake3Hasher(blake3::Hasher);
    impl Hasher for Blake3Hasher {
        fn finish(&self) -> u64 {
            unreachable!("only the full digest is used")
        }
        fn write(&mut self, bytes: &[u8]) {
            self.0.update(bytes);
        }
    }
    let mut hasher = Blake3Hasher(blake3::Hasher::new());
    std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut hasher);
    hasher.0.update(env!("CARGO_PKG_VERSION").as_bytes());
    hasher.0.finalize().to_hex()[..16].to_string()
}
