//! Installed (third-party) plugins on the host side: adding one (inspect,
//! compile under a time limit, smoke-test), which plugin serves which class,
//! and scaffolding a new plugin project. The registry itself (files,
//! manifests, lock file, states) is the `ghost-registry` library.
//!
//! - [`add`]: `ghost plugin add`;
//! - [`routes`]: for each class, the enabled plugins by priority, then the built-in;
//! - [`smoke`]: the small texts a new plugin must survive;
//! - [`scaffold`]: `ghost plugin new`.

pub mod add;
pub mod routes;
pub mod scaffold;
pub mod smoke;

use ghost_registry::{Limits, Registry};

use crate::paths::GhostDirs;
use ghost_runtime::PluginLimits;

/// The registry under ghost's data directory.
pub fn registry(dirs: &GhostDirs) -> Registry {
    Registry::new(dirs.plugins())
}

/// `base` with the deadline and memory a plugin's manifest asks for (the
/// registry has already held them within the host's maxima).
pub fn limits_for(base: &PluginLimits, asked: &Limits) -> PluginLimits {
    let mut limits = base.clone();
    if let Some(ms) = asked.deadline_ms {
        limits.deadline = std::time::Duration::from_millis(ms);
    }
    if let Some(mib) = asked.memory_mib {
        limits.memory_bytes = (mib as usize) << 20;
    }
    limits
}
