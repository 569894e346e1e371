//! `ghost:plugin@0.1.0`, frozen in `wit/v0.1.0/`: its generated bindings,
//! its `log` import, its conversions to and from ghost's own types (the
//! parts every version shares come from [`super::common`]), and its
//! classifier call, which has no command to pass: the file a command printed
//! goes in `source-path` instead.

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

super::version_module_common!();

impl Pre {
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
