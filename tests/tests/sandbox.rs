//! The sandbox's cases (see `sandbox_cases`) with an instance made for each
//! call, as a one-shot process (a hook, `ghost compress`) runs them.

mod sandbox_cases;

/// This binary keeps the engine's default: no instance pool.
fn prepare_engine() {}
