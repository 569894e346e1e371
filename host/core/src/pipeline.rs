//! One text through ghost: classify it, pick the compressor for its class,
//! compress it, fail open at every step.
//!
//! For each class, the enabled installed plugins claiming it run first, by
//! priority; the built-in comes last. A plugin that is stopped (trap,
//! deadline, memory) or declines the input hands the text to the next one.
//! Plugins are loaded lazily: a call that needs only the log compressor never
//! loads the classifier. Loading goes through the on-disk compile cache.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use anyhow::Result;

use ghost_registry::{Manifest, Registry};

use crate::builtin::{self, BuiltinPlugin};
use crate::paths::GhostDirs;
use crate::plugins::{self, routes::Routes};
use ghost_runtime::{
    CompressOutcome, FailOpen, FailureKind, Plugin, PluginLimits, PluginRuntime, RuntimeConfig,
};
use ghost_types::{Classification, ClassifyRequest, CompressRequest, ContentClass};

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
    /// The compressor that ran, if any (`builtin:log`, `plugin:short-logs`).
    pub compressor: Option<String>,
}

/// Classifies and compresses texts: with the enabled installed plugins for
/// each class, by priority, then the built-ins. Cheap to clone: clones
/// share the runtime, the loaded plugins and the routes (a long-running
/// process keeps one and hands out clones).
#[derive(Clone)]
pub struct Pipeline {
    runtime: Rc<PluginRuntime>,
    loaded: Rc<RefCell<HashMap<String, Rc<Plugin>>>>,
    registry: Option<Registry>,
    routes: Rc<RefCell<Routes>>,
}

impl Pipeline {
    /// A pipeline on `runtime` with the built-ins only.
    pub fn new(runtime: PluginRuntime) -> Self {
        Self {
            runtime: Rc::new(runtime),
            loaded: Rc::new(RefCell::new(HashMap::new())),
            registry: None,
            routes: Rc::new(RefCell::new(Routes::default())),
        }
    }

    /// Also routes texts to the plugins installed in `registry`; changes to
    /// the registry are picked up by the next call, without a restart.
    pub fn with_registry(mut self, registry: Registry) -> Self {
        self.routes = Rc::new(RefCell::new(Routes::load(&registry)));
        self.registry = Some(registry);
        self
    }

    /// A pipeline with the default limits and the compile cache under `dirs`.
    pub fn with_dirs(dirs: Option<&GhostDirs>) -> Result<Self> {
        Self::new_with(dirs, PluginLimits::default())
    }

    /// A pipeline with `limits`, the compile cache and the installed plugins
    /// under `dirs`.
    pub fn new_with(dirs: Option<&GhostDirs>, limits: PluginLimits) -> Result<Self> {
        let config = RuntimeConfig {
            cache_dir: dirs.map(GhostDirs::component_cache),
            limits,
        };
        let pipeline = Self::new(PluginRuntime::new(config)?);
        Ok(match dirs {
            Some(d) => pipeline.with_registry(plugins::registry(d)),
            None => pipeline,
        })
    }

    /// Every plugin call from now on together may take `budget` (a hook's
    /// overall budget; compiling does not count): once it is spent, later
    /// calls are skipped, a running one is stopped, and the text passes
    /// through as it is.
    pub fn set_call_budget(&self, budget: std::time::Duration) {
        self.runtime.set_call_budget(Some(budget));
    }

    /// The runtime underneath.
    pub fn runtime(&self) -> &PluginRuntime {
        &self.runtime
    }

    fn refresh(&self) {
        let Some(registry) = &self.registry else {
            return;
        };
        if registry.generation() != self.routes.borrow().generation() {
            *self.routes.borrow_mut() = Routes::load(registry);
        }
    }

    fn builtin(&self, builtin: BuiltinPlugin) -> Result<Rc<Plugin>, String> {
        self.cached(builtin.name, || {
            self.runtime
                .load_kind(builtin.name, builtin.bytes, builtin.kind)
                .map_err(|e| e.to_string())
        })
    }

    /// An installed plugin, its bytes checked against its manifest's digest.
    fn installed(&self, manifest: &Manifest) -> Result<Rc<Plugin>, String> {
        let registry = self.registry.as_ref().ok_or("no registry")?;
        let key = format!("plugin:{}@{}", manifest.id, manifest.digest);
        self.cached(&key, || {
            let bytes = registry.load_bytes(manifest).map_err(|e| e.to_string())?;
            let plugin = self
                .runtime
                .load_third_party(&format!("plugin:{}", manifest.id), &bytes)
                .map_err(|e| e.to_string())?;
            Ok(plugin.with_limits(plugins::limits_for(self.runtime.limits(), &manifest.limits)))
        })
    }

    fn cached(
        &self,
        key: &str,
        load: impl FnOnce() -> Result<Plugin, String>,
    ) -> Result<Rc<Plugin>, String> {
        if let Some(p) = self.loaded.borrow().get(key) {
            return Ok(p.clone());
        }
        let plugin = Rc::new(load()?);
        self.loaded
            .borrow_mut()
            .insert(key.to_string(), plugin.clone());
        Ok(plugin)
    }

    /// A failed call of an installed plugin: counted, and after
    /// [`ghost_registry::FAILURES_TO_DISABLE`] in a row the plugin is
    /// disabled for a while.
    fn record_failure(&self, manifest: &Manifest, reason: &str) {
        let Some(registry) = &self.registry else {
            return;
        };
        match registry.record_failure(&manifest.id, reason) {
            Ok(Some(backoff)) => log::warn!(
                "plugin {} disabled for {backoff} s after {} failures in a row (last: {reason});                  the built-in serves meanwhile; `ghost plugin enable {}` re-enables it now",
                manifest.id,
                ghost_registry::FAILURES_TO_DISABLE,
                manifest.id
            ),
            Ok(None) => {}
            Err(e) => log::warn!("could not record plugin {}'s failure: {e}", manifest.id),
        }
    }

    fn record_success(&self, manifest: &Manifest) {
        if let Some(registry) = &self.registry
            && let Err(e) = registry.record_success(&manifest.id)
        {
            log::warn!("could not record plugin {}'s success: {e}", manifest.id);
        }
    }

    /// Classifies `request` with the first classifier that answers (installed
    /// ones by priority, then the built-in); falls back to
    /// [`FALLBACK_CLASS`] when none does.
    pub fn classify(&self, request: &ClassifyRequest) -> ClassifyOutcome {
        self.refresh();
        let installed = self.routes.borrow().classifiers().to_vec();
        for manifest in &installed {
            let plugin = match self.installed(manifest) {
                Ok(p) => p,
                Err(reason) => {
                    log::warn!(
                        "plugin {} not loaded, the next classifier serves: {reason}",
                        manifest.id
                    );
                    continue;
                }
            };
            match self.runtime.classify(&plugin, request) {
                Ok(out) => {
                    self.record_success(manifest);
                    return ClassifyOutcome {
                        classification: out.value,
                        fallback_reason: None,
                    };
                }
                Err(failure) => {
                    log::warn!("plugin {}: {}", manifest.id, failure.reason);
                    self.record_failure(manifest, &failure.reason);
                }
            }
        }
        let fallback = |reason: String| {
            log::warn!("classifier: {reason}; assuming {FALLBACK_CLASS}");
            ClassifyOutcome {
                classification: Classification {
                    class: FALLBACK_CLASS,
                    confidence: 0.0,
                },
                fallback_reason: Some(reason),
            }
        };
        let plugin = match self.builtin(builtin::CLASSIFIER) {
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

    /// Compresses `request` with the first compressor for its class that
    /// does not fail (installed ones by priority, then the built-in). The
    /// prompt class is never compressed; a class with no compressor passes
    /// through.
    pub fn compress(&self, request: &CompressRequest) -> PipelineOutcome {
        let passthrough = |reason: String| CompressOutcome {
            text: request.text.clone(),
            applied: false,
            notes: Vec::new(),
            fallback_reason: Some(reason),
            failure: None,
            plugin_log: Vec::new(),
            elapsed: Default::default(),
        };
        // The one place the rule is enforced: ingest, the hooks and the CLI
        // all compress through here.
        if !request.class.is_compressible() {
            let outcome = passthrough(format!("the {} class is never compressed", request.class));
            return PipelineOutcome {
                outcome,
                compressor: None,
            };
        }
        self.refresh();
        let installed = self.routes.borrow().for_class(request.class).to_vec();
        for manifest in &installed {
            let plugin = match self.installed(manifest) {
                Ok(p) => p,
                Err(reason) => {
                    log::warn!(
                        "plugin {} not loaded, the next compressor serves: {reason}",
                        manifest.id
                    );
                    continue;
                }
            };
            let outcome = self.runtime.compress_or_original(&plugin, request);
            match outcome.failure {
                // Stopped (trap, deadline, memory): counted, the next one serves.
                Some(FailureKind::Stopped) => {
                    self.record_failure(
                        manifest,
                        outcome.fallback_reason.as_deref().unwrap_or("failed"),
                    );
                }
                // Declined this input: the next one serves.
                Some(FailureKind::Declined) => {}
                None => {
                    self.record_success(manifest);
                    return PipelineOutcome {
                        outcome,
                        compressor: Some(format!("plugin:{}", manifest.id)),
                    };
                }
            }
        }
        let Some(builtin) = builtin::compressor_for(request.class) else {
            let outcome = passthrough(format!("no compressor for class {}", request.class));
            return PipelineOutcome {
                outcome,
                compressor: None,
            };
        };
        let outcome = match self.builtin(builtin) {
            Ok(plugin) => self.runtime.compress_or_original(&plugin, request),
            Err(reason) => {
                log::warn!("{reason}; the original passed through");
                passthrough(reason)
            }
        };
        PipelineOutcome {
            outcome,
            compressor: Some(builtin.name.to_string()),
        }
    }
}
