//! ghost's plugin registry library.
//!
//! Plugins are stored and cached by the blake3 digest of their bytes, never by
//! a name a user or a plugin chooses. On disk, under one root directory:
//!
//! ```text
//! store/<blake3>.wasm              immutable component bytes, named by digest
//! installed/<id>/ghost-plugin.toml the manifest: what the plugin is and may do
//! installed/<id>/state.toml        enabled or not, failures, auto-disable backoff
//! ghost-plugins.lock               id → version, digest: a reproducible install
//! .lock                            held while anything is written
//! ```
//!
//! Every write is atomic: bytes are staged, checked by the caller (the host
//! compiles and smoke-tests them), then renamed into place; a crash half-way
//! leaves the registry as it was. This crate knows nothing of WebAssembly:
//! the host decides what a valid component is.

mod digest;
mod error;
mod fsutil;
mod manifest;
mod project;
mod registry;
mod state;
mod time;

pub use digest::{Digest, DigestParseError};
pub use error::{ManifestError, RegistryError};
pub use manifest::{
    Limits, MANIFEST_FILE, MAX_DEADLINE_MS, MAX_MEMORY_MIB, Manifest, World, valid_id,
};
pub use project::{PROJECT_FILE, Project};
pub use registry::{
    Checked, Draft, Generation, InstallOutcome, Installed, Problem, Registry, STORE_DIR,
};
pub use state::{BACKOFF_BASE_SECS, BACKOFF_MAX_SECS, FAILURES_TO_DISABLE, PluginState, Status};
pub use time::{now_secs, rfc3339};
