//! The one wasmtime `Engine` of a ghost process, configured in one place.
//!
//! Every knob is here with the reason for it. The engine must never be built
//! twice in a process: compiled code, the epoch counter and the compatibility
//! hash the disk cache is keyed by all belong to it.

use std::hash::Hasher;
use std::sync::OnceLock;
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result};
use wasmtime::{Config, Engine, OptLevel};

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
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    if let Some(engine) = ENGINE.get() {
        return Ok(engine);
    }
    let engine = build_engine()?;
    let engine = ENGINE.get_or_init(|| engine);
    start_epoch_ticker(engine);
    Ok(engine)
}

/// Builds an engine with ghost's configuration.
fn build_engine() -> Result<Engine> {
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
    Engine::new(&config)
        .map_err(anyhow::Error::from)
        .context("configuring the WebAssembly engine")
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
