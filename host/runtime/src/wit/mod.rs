//! The host side of the WIT contract, version by version.
//!
//! Each `ghost:plugin` version ghost speaks has one module here that owns
//! its generated bindings, its host imports and its pre-instantiated worlds
//! ([`v0_1_0`], [`v0_2_0`]; what they share is written once in [`common`]). This module holds what does not depend on a
//! version: which versions there are, reading from a component's own exports
//! which world and version it targets, which imports a plugin may have, and
//! [`VersionedPre`], the one place that dispatches a call to its version's
//! module. Adding a version is a module beside `v0_1_0` and one arm in each
//! `match` below; the rest of ghost only sees `ghost_types`.

mod common;
mod v0_1_0;
mod v0_2_0;

use common::version_module_common;

use wasmtime::component::types::ComponentItem;
use wasmtime::component::{Component, InstancePre, Linker};
use wasmtime::{Engine, Store};

use ghost_types::{Classification, ClassifyRequest, CompressRequest, Compressed};

use crate::sandbox::PluginState;

/// The WIT package versions of `ghost:plugin` this host can run.
pub const SUPPORTED_WIT_VERSIONS: &[&str] = &[v0_1_0::VERSION, v0_2_0::VERSION];

/// A plugin's answer: its result, or the error it returned (`unsupported`,
/// `invalid-input`, `internal`), described for people.
pub(crate) type Answer<T> = Result<T, String>;

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
         ghost:plugin/compress@{latest} or ghost:plugin/classify@{latest}",
        latest = latest_version()
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

fn latest_version() -> &'static str {
    SUPPORTED_WIT_VERSIONS.last().expect("at least one version")
}

/// What a plugin may import: ghost's bounded log (and the types it uses), and
/// the WASI interfaces a guest's standard library links (the sandbox's WASI
/// context grants them nothing: no directories, environment, arguments or
/// stdin). Sockets, HTTP and anything else are refused when a plugin is added
/// or loaded from the registry.
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

/// Adds every supported version's host imports to `linker`.
pub(crate) fn add_to_linker(linker: &mut Linker<PluginState>) -> wasmtime::Result<()> {
    v0_1_0::add_to_linker(linker)?;
    v0_2_0::add_to_linker(linker)
}

/// A pre-instantiated component of one of the supported versions.
pub(crate) enum VersionedPre {
    /// `ghost:plugin@0.1.0`.
    V0_1_0(v0_1_0::Pre),
    /// `ghost:plugin@0.2.0`.
    V0_2_0(v0_2_0::Pre),
}

impl VersionedPre {
    /// Pre-instantiates `pre` as a `kind` of `version` (one of
    /// [`SUPPORTED_WIT_VERSIONS`], as [`detect_target`] returned it).
    pub(crate) fn new(
        version: &str,
        kind: PluginKind,
        pre: InstancePre<PluginState>,
    ) -> wasmtime::Result<Self> {
        match version {
            v0_1_0::VERSION => Ok(Self::V0_1_0(v0_1_0::Pre::new(kind, pre)?)),
            v0_2_0::VERSION => Ok(Self::V0_2_0(v0_2_0::Pre::new(kind, pre)?)),
            other => Err(wasmtime::Error::msg(format!(
                "ghost:plugin@{other} is not a version this host speaks"
            ))),
        }
    }

    /// Calls the compressor; `None` when the component is not one.
    pub(crate) fn compress(
        &self,
        store: &mut Store<PluginState>,
        request: &CompressRequest,
    ) -> Option<wasmtime::Result<Answer<Compressed>>> {
        match self {
            Self::V0_1_0(pre) => pre.compress(store, request),
            Self::V0_2_0(pre) => pre.compress(store, request),
        }
    }

    /// Calls the classifier; `None` when the component is not one.
    pub(crate) fn classify(
        &self,
        store: &mut Store<PluginState>,
        request: &ClassifyRequest,
    ) -> Option<wasmtime::Result<Classification>> {
        match self {
            Self::V0_1_0(pre) => pre.classify(store, request),
            Self::V0_2_0(pre) => pre.classify(store, request),
        }
    }
}
