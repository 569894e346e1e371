//! The sandbox's cases (see `sandbox_cases`) with instances from the pool,
//! as a long-lived process (the gateway, the MCP server) runs them: a pooled
//! memory is reused, so every limit and every reset is checked again here.

#[path = "sandbox_cases/mod.rs"]
mod sandbox_cases;

/// Every test asks for the pool before its runtime exists.
fn prepare_engine() {
    assert!(
        ghost_runtime::engine::pool_instances(),
        "the engine was built before the pool was asked for"
    );
}
