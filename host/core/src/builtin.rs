//! The built-in plugins, embedded in the binary by `build.rs`.
//!
//! They are ordinary components and run through the same runtime, sandbox and
//! limits as any third-party plugin.

use ghost_runtime::cache::CacheStatus;
use ghost_runtime::{LoadError, PluginKind, PluginRuntime};
use ghost_types::ContentClass;

/// One embedded component.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinPlugin {
    /// Its name in logs and `--stats`, e.g. `builtin:log`.
    pub name: &'static str,
    /// The component's bytes.
    pub bytes: &'static [u8],
    /// Which world it implements.
    pub kind: PluginKind,
    /// The classes it compresses (empty for the classifier).
    pub classes: &'static [ContentClass],
}

/// The log compressor.
pub const LOG_COMPRESSOR: BuiltinPlugin = BuiltinPlugin {
    name: "builtin:log",
    bytes: include_bytes!(env!("GHOST_BUILTIN_LOG_WASM")),
    kind: PluginKind::Compressor,
    classes: &[ContentClass::Log],
};

/// The error compressor: stack traces and exception chains.
pub const ERROR_COMPRESSOR: BuiltinPlugin = BuiltinPlugin {
    name: "builtin:error",
    bytes: include_bytes!(env!("GHOST_BUILTIN_ERROR_WASM")),
    kind: PluginKind::Compressor,
    classes: &[ContentClass::Error],
};

/// The structured-data compressor: JSON, TOML, CSV/TSV, lockfiles.
pub const STRUCTURED_COMPRESSOR: BuiltinPlugin = BuiltinPlugin {
    name: "builtin:structured",
    bytes: include_bytes!(env!("GHOST_BUILTIN_STRUCTURED_WASM")),
    kind: PluginKind::Compressor,
    classes: &[ContentClass::Structured],
};

/// The prose compressor: extractive TextRank, Markdown kept.
pub const PROSE_COMPRESSOR: BuiltinPlugin = BuiltinPlugin {
    name: "builtin:prose",
    bytes: include_bytes!(env!("GHOST_BUILTIN_PROSE_WASM")),
    kind: PluginKind::Compressor,
    classes: &[ContentClass::Prose],
};

/// The code compressor: declarations and signatures kept, bodies folded.
pub const CODE_COMPRESSOR: BuiltinPlugin = BuiltinPlugin {
    name: "builtin:code",
    bytes: include_bytes!(env!("GHOST_BUILTIN_CODE_WASM")),
    kind: PluginKind::Compressor,
    classes: &[ContentClass::Code],
};

/// The content classifier.
pub const CLASSIFIER: BuiltinPlugin = BuiltinPlugin {
    name: "builtin:classifier",
    bytes: include_bytes!(env!("GHOST_BUILTIN_CLASSIFIER_WASM")),
    kind: PluginKind::Classifier,
    classes: &[],
};

/// Every built-in plugin, in the order [`compile_all`] compiles them: the
/// classifier every call needs, then the classes tool results are most
/// often (a shell's log, a file's code, data).
pub const ALL: &[BuiltinPlugin] = &[
    CLASSIFIER,
    LOG_COMPRESSOR,
    CODE_COMPRESSOR,
    STRUCTURED_COMPRESSOR,
    ERROR_COMPRESSOR,
    PROSE_COMPRESSOR,
];

/// How one built-in was made ready by [`compile_all`].
#[derive(Debug)]
pub struct Compiled {
    /// Its name, e.g. `builtin:log`.
    pub name: &'static str,
    /// Loaded from the cache or compiled now, or why it could not be.
    pub outcome: Result<CacheStatus, LoadError>,
    /// How long it took.
    pub elapsed: std::time::Duration,
}

/// Compiles every built-in into `runtime`'s component cache, in [`ALL`]'s
/// order (one already there is loaded, not compiled). A process
/// started later finds them compiled and answers its first call without
/// waiting for the compiler.
pub fn compile_all(runtime: &PluginRuntime) -> Vec<Compiled> {
    ALL.iter()
        .map(|b| {
            let started = std::time::Instant::now();
            let outcome = runtime
                .load_kind(b.name, b.bytes, b.kind)
                .map(|p| p.cache_status());
            Compiled {
                name: b.name,
                outcome,
                elapsed: started.elapsed(),
            }
        })
        .collect()
}

/// How many built-ins have no compiled entry in the component cache `dir`
/// yet (file names only: cheap enough for a hook).
pub fn missing_from_cache(dir: &std::path::Path) -> anyhow::Result<usize> {
    let bytes: Vec<&[u8]> = ALL.iter().map(|b| b.bytes).collect();
    ghost_runtime::cache::missing_entries(dir, &bytes)
}

/// The built-in compressor for `class`, if ghost has one yet.
pub fn compressor_for(class: ContentClass) -> Option<BuiltinPlugin> {
    ALL.iter()
        .copied()
        .find(|p| p.kind == PluginKind::Compressor && p.classes.contains(&class))
}

#[cfg(test)]
mod tests {
    /// The build script has cargo re-run it when any crate an embedded
    /// component is compiled from changes, not only the component's own
    /// folder: an edit to `log-folding` or `terminal-text` never leaves stale
    /// wasm embedded.
    #[test]
    fn the_guest_build_reruns_on_every_crate_the_components_use() {
        let out = std::path::Path::new(env!("OUT_DIR")).join("../output");
        let output = std::fs::read_to_string(&out).unwrap();
        let watched: Vec<&str> = output
            .lines()
            .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
            .collect();
        for file in [
            "compressors/log-folding/src/lib.rs",
            "compressors/log-folding/src/fold.rs",
            "compressors/log-folding/Cargo.toml",
            "compressors/terminal-text/src/lib.rs",
            "host/types/src/extension.rs",
            "plugins/sdk/src/lib.rs",
            "wit/v0.2.0/plugin.wit",
            "Cargo.lock",
        ] {
            assert!(
                watched.iter().any(|w| w.ends_with(file)),
                "{file} is not watched by the guest build: {watched:?}"
            );
        }
    }
}
