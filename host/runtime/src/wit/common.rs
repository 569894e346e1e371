//! What every version module has in common, written once: the
//! pre-instantiated worlds and the compressor call, the host side of the
//! `log` import, and the conversions between a version's generated types and
//! ghost's own. Generated types differ per version (each is its own Rust
//! type), so this is a macro each version module expands against its own
//! `wit` (types) and `log` modules; only what a version changes (today, how
//! the classifier is called) is written in the module itself.

/// Expands, in a version module that has `wit`, `log`, `Compressor`,
/// `CompressorPre`, `ClassifierPre` and the `ghost_types` items in scope, the
/// parts every version shares.
macro_rules! version_module_common {
    () => {
        /// A component of this version, pre-instantiated for its world.
        pub(crate) enum Pre {
            /// It exports `ghost:plugin/compress` of this version.
            Compressor(CompressorPre<PluginState>),
            /// It exports `ghost:plugin/classify` of this version.
            Classifier(ClassifierPre<PluginState>),
        }

        impl Pre {
            /// Checks `pre` has the exports of `kind`'s world and keeps their indices.
            pub(crate) fn new(
                kind: PluginKind,
                pre: InstancePre<PluginState>,
            ) -> wasmtime::Result<Self> {
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
                wit::PluginError::Unsupported(m) => {
                    format!("plugin does not support this input: {m}")
                }
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

        impl From<wit::Classification> for Classification {
            fn from(c: wit::Classification) -> Self {
                Self {
                    class: c.class.into(),
                    confidence: c.confidence,
                }
            }
        }
    };
}

pub(crate) use version_module_common;
