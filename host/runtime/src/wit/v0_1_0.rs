//! `ghost:plugin@0.1.0`, frozen in `wit/v0.1.0/`: its generated bindings,
//! the host side of its `log` import, its conversions to and from ghost's
//! own types, and its pre-instantiated worlds. Everything that depends on
//! this version's generated code lives here, so a new version is a new
//! module beside this one and leaves this one as it is.

use wasmtime::Store;
use wasmtime::component::{HasSelf, InstancePre, Linker};

use ghost_types::{Classification, ClassifyRequest, CompressRequest, Compressed, ContentClass};

use super::{Answer, PluginKind};
use crate::sandbox::{LogLevel, PluginState};

/// The version this module speaks.
pub(crate) const VERSION: &str = "0.1.0";

/// Bindings of the `compressor` world.
mod compressor {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.1.0",
        world: "compressor",
    });
}

/// Bindings of the `classifier` world, sharing the `types` and `log`
/// interfaces of the compressor's bindings.
mod classifier {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.1.0",
        world: "classifier",
        with: {
            "ghost:plugin/types": super::compressor::ghost::plugin::types,
            "ghost:plugin/log": super::compressor::ghost::plugin::log,
        },
    });
}

use classifier::{Classifier, ClassifierPre};
use compressor::ghost::plugin::log;
use compressor::ghost::plugin::types as wit;
use compressor::{Compressor, CompressorPre};

/// Adds this version's imports (the bounded `log`) to `linker`.
pub(crate) fn add_to_linker(linker: &mut Linker<PluginState>) -> wasmtime::Result<()> {
    log::add_to_linker::<_, HasSelf<_>>(linker, |state| state)
}

/// A component of this version, pre-instantiated for its world.
pub(crate) enum Pre {
    /// It exports `ghost:plugin/compress@0.1.0`.
    Compressor(CompressorPre<PluginState>),
    /// It exports `ghost:plugin/classify@0.1.0`.
    Classifier(ClassifierPre<PluginState>),
}

impl Pre {
    /// Checks `pre` has the exports of `kind`'s world and keeps their indices.
    pub(crate) fn new(kind: PluginKind, pre: InstancePre<PluginState>) -> wasmtime::Result<Self> {
        Ok(match kind {
            PluginKind::Compressor => Pre::Compressor(CompressorPre::new(pre)?),
            PluginKind::Classifier => Pre::Classifier(ClassifierPre::new(pre)?),
        })
    }

    /// Instantiates the compressor in `store` and calls it; `None` when this
    /// is a classifier.
    pub(crate) fn compress(
        &self,
        store: &mut Store<PluginState>,
        request: &CompressRequest,
    ) -> Option<wasmtime::Result<Answer<Compressed>>> {
        let Pre::Compressor(pre) = self else {
            return None;
        };
        let request = wit::CompressRequest::from(request);
        Some((|| {
            let instance: Compressor = pre.instantiate(&mut *store)?;
            let answer = instance
                .ghost_plugin_compress()
                .call_compress(&mut *store, &request)?;
            Ok(answer.map(Compressed::from).map_err(|e| describe(&e)))
        })())
    }

    /// Instantiates the classifier in `store` and calls it; `None` when this
    /// is a compressor.
    pub(crate) fn classify(
        &self,
        store: &mut Store<PluginState>,
        request: &ClassifyRequest,
    ) -> Option<wasmtime::Result<Classification>> {
        let Pre::Classifier(pre) = self else {
            return None;
        };
        let request = wit::ClassifyRequest::from(request);
        Some((|| {
            let instance: Classifier = pre.instantiate(&mut *store)?;
            let answer = instance
                .ghost_plugin_classify()
                .call_classify(&mut *store, &request)?;
            Ok(answer.into())
        })())
    }
}

impl log::Host for PluginState {
    fn log(&mut self, level: log::Level, message: String) {
        let level = match level {
            log::Level::Debug => LogLevel::Debug,
            log::Level::Info => LogLevel::Info,
            log::Level::Warn => LogLevel::Warn,
            log::Level::Error => LogLevel::Error,
        };
        self.push_log(level, &message);
    }
}

/// A plugin's own error, for people.
fn describe(e: &wit::PluginError) -> String {
    match e {
        wit::PluginError::Unsupported(m) => format!("plugin does not support this input: {m}"),
        wit::PluginError::InvalidInput(m) => format!("plugin rejected the input: {m}"),
        wit::PluginError::Internal(m) => format!("plugin failed: {m}"),
    }
}

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
            // 0.1.0 carries no command: the file it printed stands for it.
            source_path: r.file_hint().map(str::to_string),
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
