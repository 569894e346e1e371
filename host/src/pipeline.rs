//! One text through ghost: classify it, pick the compressor for its class,
//! compress it, fail open at every step.
//!
//! Plugins are loaded lazily: a call that needs only the log compressor never
//! loads the classifier. Loading goes through the on-disk compile cache.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use anyhow::Result;

use crate::builtin::{self, BuiltinPlugin};
use crate::content::{Classification, ClassifyRequest, CompressRequest, ContentClass};
use crate::paths::GhostDirs;
use crate::runtime::{
    CompressOutcome, FailOpen, Plugin, PluginLimits, PluginRuntime, RuntimeConfig,
};

/// The class ghost assumes when the classifier cannot answer.
pub const FALLBACK_CLASS: ContentClass = ContentClass::Log;

/// A classification and, when the classifier failed, why.
#[derive(Debug, Clone)]
pub struct ClassifyOutcome {
    /// The class (the fallback when the classifier failed).
    pub classification: Classification,
    /// Why the classifier's answer is not there, when it is not.
    pub fallback_reason: Option<String>,
}

/// The result of compressing one text.
#[derive(Debug, Clone)]
pub struct PipelineOutcome {
    /// What the runtime returned (always a usable text).
    pub outcome: CompressOutcome,
    /// The compressor that ran, if any.
    pub compressor: Option<&'static str>,
}

/// Classifies and compresses texts with the built-in plugins.
pub struct Pipeline {
    runtime: PluginRuntime,
    loaded: RefCell<HashMap<&'static str, Rc<Plugin>>>,
}

impl Pipeline {
    /// A pipeline on `runtime`.
    pub fn new(runtime: PluginRuntime) -> Self {
        Self {
            runtime,
            loaded: RefCell::new(HashMap::new()),
        }
    }

    /// A pipeline with the default limits and the compile cache under `dirs`.
    pub fn with_dirs(dirs: Option<&GhostDirs>) -> Result<Self> {
        Self::new_with(dirs, PluginLimits::default())
    }

    /// A pipeline with `limits` and the compile cache under `dirs`.
    pub fn new_with(dirs: Option<&GhostDirs>, limits: PluginLimits) -> Result<Self> {
        let config = RuntimeConfig {
            cache_dir: dirs.map(GhostDirs::component_cache),
            limits,
        };
        Ok(Self::new(PluginRuntime::new(config)?))
    }

    /// The runtime underneath.
    pub fn runtime(&self) -> &PluginRuntime {
        &self.runtime
    }

    fn plugin(&self, builtin: BuiltinPlugin) -> Result<Rc<Plugin>, String> {
        if let Some(p) = self.loaded.borrow().get(builtin.name) {
            return Ok(p.clone());
        }
        let plugin = self
            .runtime
            .load_kind(builtin.name, builtin.bytes, builtin.kind)
            .map_err(|e| e.to_string())?;
        let plugin = Rc::new(plugin);
        self.loaded
            .borrow_mut()
            .insert(builtin.name, plugin.clone());
        Ok(plugin)
    }

    /// Classifies `request`; falls back to [`FALLBACK_CLASS`] on any failure.
    pub fn classify(&self, request: &ClassifyRequest) -> ClassifyOutcome {
        let fallback = |reason: String| {
            crate::logging::warn(&format!("classifier: {reason}; assuming {FALLBACK_CLASS}"));
            ClassifyOutcome {
                classification: Classification {
                    class: FALLBACK_CLASS,
                    confidence: 0.0,
                },
                fallback_reason: Some(reason),
            }
        };
        let plugin = match self.plugin(builtin::CLASSIFIER) {
            Ok(p) => p,
            Err(reason) => return fallback(reason),
        };
        match self.runtime.classify(&plugin, request) {
            Ok(out) => ClassifyOutcome {
                classification: out.value,
                fallback_reason: None,
            },
            Err(failure) => fallback(failure.reason),
        }
    }

    /// Compresses `request` with the compressor for its class. The prompt
    /// class is never compressed; a class with no compressor passes through.
    pub fn compress(&self, request: &CompressRequest) -> PipelineOutcome {
        let passthrough = |reason: String| CompressOutcome {
            text: request.text.clone(),
            applied: false,
            notes: Vec::new(),
            fallback_reason: Some(reason),
            plugin_log: Vec::new(),
            elapsed: Default::default(),
        };
        if request.class == ContentClass::Prompt {
            let outcome = passthrough("the prompt class is never compressed".into());
            return PipelineOutcome {
                outcome,
                compressor: None,
            };
        }
        let Some(builtin) = builtin::compressor_for(request.class) else {
            let outcome = passthrough(format!("no compressor for class {}", request.class));
            return PipelineOutcome {
                outcome,
                compressor: None,
            };
        };
        let outcome = match self.plugin(builtin) {
            Ok(plugin) => self.runtime.compress_or_original(&plugin, request),
            Err(reason) => {
                crate::logging::warn(&format!("{reason}; the original passed through"));
                passthrough(reason)
            }
        };
        PipelineOutcome {
            outcome,
            compressor: Some(builtin.name),
        }
    }
}
