//! The host side of the WIT contract: generated bindings for each version ghost
//! speaks, conversions to ghost's own types, and reading which version and
//! world a component targets from the component itself.
//!
//! One binding module per WIT version (today only `v0_1_0`). A new version gets
//! a module beside it; the rest of ghost only sees [`crate::content`] types.

use wasmtime::Engine;
use wasmtime::component::Component;
use wasmtime::component::types::ComponentItem;

use crate::content::{Classification, ClassifyRequest, CompressRequest, Compressed, ContentClass};

/// The WIT package versions of `ghost:plugin` this host can run.
pub const SUPPORTED_WIT_VERSIONS: &[&str] = &["0.1.0"];

/// Bindings generated from `wit/v0.1.0`.
pub mod v0_1_0 {
    /// The `compressor` world.
    pub mod compressor {
        wasmtime::component::bindgen!({
            path: "../wit/v0.1.0",
            world: "compressor",
        });
    }

    /// The `classifier` world, sharing the `types` and `log` interfaces above.
    pub mod classifier {
        wasmtime::component::bindgen!({
            path: "../wit/v0.1.0",
            world: "classifier",
            with: {
                "ghost:plugin/types": super::compressor::ghost::plugin::types,
                "ghost:plugin/log": super::compressor::ghost::plugin::log,
            },
        });
    }

    pub use compressor::ghost::plugin::log::Level;
    pub use compressor::ghost::plugin::types;
}

use v0_1_0::types as wit;

impl From<ContentClass> for wit::ContentClass {
    fn from(c: ContentClass) -> Self {
        match c {
            ContentClass::Log => wit::ContentClass::Log,
            ContentClass::Code => wit::ContentClass::Code,
            ContentClass::Structured => wit::ContentClass::Structured,
            ContentClass::Prose => wit::ContentClass::Prose,
            ContentClass::Error => wit::ContentClass::Error,
            ContentClass::Prompt => wit::ContentClass::Prompt,
        }
    }
}

impl From<wit::ContentClass> for ContentClass {
    fn from(c: wit::ContentClass) -> Self {
        match c {
            wit::ContentClass::Log => ContentClass::Log,
            wit::ContentClass::Code => ContentClass::Code,
            wit::ContentClass::Structured => ContentClass::Structured,
            wit::ContentClass::Prose => ContentClass::Prose,
            wit::ContentClass::Error => ContentClass::Error,
            wit::ContentClass::Prompt => ContentClass::Prompt,
        }
    }
}

impl From<&CompressRequest> for wit::CompressRequest {
    fn from(r: &CompressRequest) -> Self {
        Self {
            text: r.text.clone(),
            class: r.class.into(),
            tool_name: r.tool_name.clone(),
            source_path: r.source_path.clone(),
            target_tokens: r.target_tokens,
        }
    }
}

impl From<wit::Compressed> for Compressed {
    fn from(c: wit::Compressed) -> Self {
        Self {
            text: c.text,
            notes: c.notes,
        }
    }
}

impl From<&ClassifyRequest> for wit::ClassifyRequest {
    fn from(r: &ClassifyRequest) -> Self {
        Self {
            text: r.text.clone(),
            tool_name: r.tool_name.clone(),
            source_path: r.source_path.clone(),
        }
    }
}

impl From<wit::Classification> for Classification {
    fn from(c: wit::Classification) -> Self {
        Self {
            class: c.class.into(),
            confidence: c.confidence,
        }
    }
}

/// Describes a plugin error for people.
pub fn describe_plugin_error(e: &wit::PluginError) -> String {
    match e {
        wit::PluginError::Unsupported(m) => format!("plugin does not support this input: {m}"),
        wit::PluginError::InvalidInput(m) => format!("plugin rejected the input: {m}"),
        wit::PluginError::Internal(m) => format!("plugin failed: {m}"),
    }
}

/// Which world a component implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PluginKind {
    /// Exports `ghost:plugin/compress`.
    Compressor,
    /// Exports `ghost:plugin/classify`.
    Classifier,
}

impl PluginKind {
    /// The name of the world.
    pub fn world(self) -> &'static str {
        match self {
            PluginKind::Compressor => "compressor",
            PluginKind::Classifier => "classifier",
        }
    }
}

/// Why a component's declared target is not one this host runs.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// It targets a `ghost:plugin` version this host does not speak.
    #[error(
        "component targets ghost:plugin@{found} (export `{export}`), but this ghost speaks {}; \
         rebuild the plugin against one of those versions",
        supported_list()
    )]
    UnsupportedVersion {
        /// The version the component targets.
        found: String,
        /// The export that named it.
        export: String,
    },
    /// It exports no `ghost:plugin` interface at all.
    #[error(
        "component exports no ghost:plugin interface (it exports: {exports}); a plugin must export \
         ghost:plugin/compress@0.1.0 or ghost:plugin/classify@0.1.0"
    )]
    NotAPlugin {
        /// What it exports instead.
        exports: String,
    },
}

fn supported_list() -> String {
    SUPPORTED_WIT_VERSIONS
        .iter()
        .map(|v| format!("ghost:plugin@{v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a plugin may import: ghost's bounded log (and the types it uses), and the WASI interfaces a
/// guest's standard library links (the sandbox's WASI context grants them
/// nothing: no directories, environment, arguments or stdin). Sockets, HTTP
/// and anything else are refused when a plugin is added or loaded from the
/// registry.
pub const ALLOWED_IMPORTS: &[&str] = &[
    "ghost:plugin/log@",
    "ghost:plugin/types@",
    "wasi:cli/",
    "wasi:io/",
    "wasi:clocks/",
    "wasi:random/",
    "wasi:filesystem/",
];

/// The component's imports that are not in [`ALLOWED_IMPORTS`].
pub fn forbidden_imports(engine: &Engine, component: &Component) -> Vec<String> {
    component
        .component_type()
        .imports(engine)
        .map(|(name, _)| name.to_string())
        .filter(|name| !ALLOWED_IMPORTS.iter().any(|a| name.starts_with(a)))
        .collect()
}

/// Reads, from the component's own exports, which world and WIT version it
/// targets, and refuses any version this host does not speak.
pub fn detect_target(
    engine: &Engine,
    component: &Component,
) -> Result<(PluginKind, &'static str), TargetError> {
    let ty = component.component_type();
    let mut names = Vec::new();
    for (name, item) in ty.exports(engine) {
        names.push(name.to_string());
        if !matches!(item.ty, ComponentItem::ComponentInstance(_)) {
            continue;
        }
        let Some(rest) = name.strip_prefix("ghost:plugin/") else {
            continue;
        };
        let (iface, version) = rest.split_once('@').unwrap_or((rest, ""));
        let kind = match iface {
            "compress" => PluginKind::Compressor,
            "classify" => PluginKind::Classifier,
            _ => continue,
        };
        let Some(supported) = SUPPORTED_WIT_VERSIONS.iter().find(|v| **v == version) else {
            return Err(TargetError::UnsupportedVersion {
                found: if version.is_empty() {
                    "(unversioned)".into()
                } else {
                    version.into()
                },
                export: name.to_string(),
            });
        };
        return Ok((kind, supported));
    }
    Err(TargetError::NotAPlugin {
        exports: if names.is_empty() {
            "nothing".into()
        } else {
            names.join(", ")
        },
    })
}
