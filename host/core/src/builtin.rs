//! The built-in plugins, embedded in the binary by `build.rs`.
//!
//! They are ordinary components and run through the same runtime, sandbox and
//! limits as any third-party plugin.

use ghost_runtime::PluginKind;
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

/// Every built-in plugin.
pub const ALL: &[BuiltinPlugin] = &[
    LOG_COMPRESSOR,
    ERROR_COMPRESSOR,
    STRUCTURED_COMPRESSOR,
    PROSE_COMPRESSOR,
    CODE_COMPRESSOR,
    CLASSIFIER,
];

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
