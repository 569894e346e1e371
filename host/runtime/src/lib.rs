//! The plugin runtime: runs untrusted WebAssembly components (compressors and
//! classifiers) under ghost's sandbox.
//!
//! One module per concern:
//! - [`engine`]: the one wasmtime `Engine` per process and its epoch ticker;
//! - [`limits`]: deadline, memory, table and instance caps for each call;
//! - [`cache`]: compiled components on disk, so a cold process never compiles;
//! - [`wit`]: the host side of the WIT contract, one module per version, and
//!   the version check;
//! - [`output`]: a captured stdout or stderr, cut at its cap (never a trap);
//! - [`sandbox`]: the per-call store state: an empty WASI context, captured
//!   stdout/stderr and the bounded log;
//! - [`outcome`]: fail-open: every failure becomes "the original, unchanged".
//!
//! This crate must never give a plugin a capability beyond the bounded log,
//! and must never let a plugin failure lose the text it was given. It logs
//! through the `log` facade (target `ghost_runtime`); the binary decides
//! where lines go.

pub mod cache;
pub mod engine;
pub mod limits;
pub mod memory_image;
pub mod outcome;
pub mod output;
pub mod sandbox;
pub mod wit;

mod plugin;

pub use limits::PluginLimits;
pub use outcome::{CompressOutcome, FailOpen};
pub use plugin::{
    CallFailure, CallOutput, FailureKind, LoadError, Plugin, PluginRuntime, RuntimeConfig,
};
pub use wit::{ALLOWED_IMPORTS, PluginKind, SUPPORTED_WIT_VERSIONS, forbidden_imports};
