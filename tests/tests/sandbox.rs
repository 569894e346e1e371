//! The sandbox's cases (see `sandbox_cases`) with an instance made for each
//! call, as a one-shot process (a hook, `ghost compress`) runs them.

mod sandbox_cases;

/// This binary keeps the engine's default: no instance pool.
fn prepare_engine() {}

/// Asking for the pool once the engine exists changes nothing, and says so.
#[test]
fn asking_for_the_pool_after_the_engine_is_built_is_refused() {
    ghost_runtime::engine::shared_engine().expect("engine");
    assert!(!ghost_runtime::engine::pool_instances());
}
