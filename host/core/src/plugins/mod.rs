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

/// What is wrong in the compiled-component cache of the built-ins and of
/// `installed` (id, digest hex): entries that are corrupt, swapped for
/// another component's, or writable. Each is refused and rebuilt at its
/// next load; this reports them.
pub fn cache_problems(
    dirs: &GhostDirs,
    installed: &[(String, String)],
) -> anyhow::Result<Vec<String>> {
    let mut named: Vec<(String, String)> = crate::builtin::ALL
        .iter()
        .map(|b| {
            (
                b.name.to_string(),
                ghost_runtime::cache::digest_hex(b.bytes),
            )
        })
        .collect();
    named.extend(installed.iter().cloned());
    let digests: Vec<String> = named.iter().map(|(_, d)| d.clone()).collect();
    let checked = ghost_runtime::cache::verify_entries(&dirs.component_cache(), &digests)?;
    Ok(named
        .iter()
        .zip(checked)
        .filter_map(|((name, _), (_, result))| {
            result
                .err()
                .map(|why| format!("{name}: {why:#} (it is rebuilt at its next load)"))
        })
        .collect())
}

/// `base` (the user's settings) with the deadline and memory a plugin's
/// manifest asks for, which can only lower them: the user's are the ceiling.
pub fn limits_for(base: &PluginLimits, asked: &Limits) -> PluginLimits {
    let mut limits = base.clone();
    if let Some(ms) = asked.deadline_ms {
        limits.deadline = limits.deadline.min(std::time::Duration::from_millis(ms));
    }
    if let Some(mib) = asked.memory_mib {
        limits.memory_bytes = limits.memory_bytes.min((mib as usize) << 20);
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_can_lower_the_users_limits_never_raise_them() {
        let user = PluginLimits {
            deadline: std::time::Duration::from_millis(100),
            memory_bytes: 64 << 20,
            ..PluginLimits::default()
        };
        let asks = |deadline_ms, memory_mib| Limits {
            deadline_ms,
            memory_mib,
        };
        let raised = limits_for(&user, &asks(Some(2_000), Some(512)));
        assert_eq!(raised.deadline, user.deadline);
        assert_eq!(raised.memory_bytes, user.memory_bytes);
        let lowered = limits_for(&user, &asks(Some(20), Some(16)));
        assert_eq!(lowered.deadline.as_millis(), 20);
        assert_eq!(lowered.memory_bytes, 16 << 20);
    }
}
