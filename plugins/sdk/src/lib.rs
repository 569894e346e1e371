//! Guest-side bindings for ghost plugins written in Rust.
//!
//! A plugin is a `cdylib` crate built for `wasm32-wasip2`. A compressor is
//! one function and one macro:
//!
//! ```ignore
//! use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, PluginError};
//!
//! fn compress(request: CompressRequest) -> Result<Compressed, PluginError> {
//!     let text = request.text.lines().take(10).collect::<Vec<_>>().join("\n");
//!     Ok(Compressed { text, notes: vec![] })
//! }
//! ghost_plugin_sdk::compressor!(compress);
//! ```
//!
//! A classifier is the same with `classifier!` and a function
//! `fn(ClassifyRequest) -> Classification`, or, to see the shell command that
//! printed the text (since 0.2.0), `classifier!(in_context: f)` with
//! `fn(ClassifyRequest, ClassifyContext) -> Classification`. (The generated
//! traits, `compressor::Guest` and `export_compressor!`, remain available.)
//!
//! The bindings come from the WIT contract in `wit/v0.2.0/`, the same file the
//! host is generated from, so a plugin built with this crate always targets a
//! version the host speaks. This crate must never add capabilities of its own:
//! a plugin's only way out of its sandbox is the bounded `log` import.

/// Exports `$function`, a `fn(CompressRequest) -> Result<Compressed,
/// PluginError>`, as this component's `ghost:plugin/compress`.
#[macro_export]
macro_rules! compressor {
    ($function:path) => {
        const _: () = {
            struct GhostCompressor;
            impl $crate::compressor::Guest for GhostCompressor {
                fn compress(
                    request: $crate::compressor::CompressRequest,
                ) -> ::core::result::Result<
                    $crate::compressor::Compressed,
                    $crate::compressor::PluginError,
                > {
                    $function(request)
                }
            }
            $crate::compressor::export_compressor!(GhostCompressor with_types_in $crate::compressor);
        };
    };
}

/// Exports a classifier as this component's `ghost:plugin/classify`:
/// `classifier!(f)` with `f: fn(ClassifyRequest) -> Classification`, which
/// never sees the context, or `classifier!(in_context: f)` with
/// `f: fn(ClassifyRequest, ClassifyContext) -> Classification`, which is
/// given an empty context when the host calls the context-free `classify`.
#[macro_export]
macro_rules! classifier {
    (in_context: $function:path) => {
        const _: () = {
            struct GhostClassifier;
            impl $crate::classifier::Guest for GhostClassifier {
                fn classify(
                    request: $crate::classifier::ClassifyRequest,
                ) -> $crate::classifier::Classification {
                    $function(request, $crate::classifier::ClassifyContext { command: None })
                }
                fn classify_in_context(
                    request: $crate::classifier::ClassifyRequest,
                    context: $crate::classifier::ClassifyContext,
                ) -> $crate::classifier::Classification {
                    $function(request, context)
                }
            }
            $crate::classifier::export_classifier!(GhostClassifier with_types_in $crate::classifier);
        };
    };
    ($function:path) => {
        const _: () = {
            fn ignoring_context(
                request: $crate::classifier::ClassifyRequest,
                _context: $crate::classifier::ClassifyContext,
            ) -> $crate::classifier::Classification {
                $function(request)
            }
            $crate::classifier!(in_context: ignoring_context);
        };
    };
}

/// Bindings for the `compressor` world: export `compress`, import `log`.
// The generated items carry the WIT contract's own comments where it has
// them; the rest (variants, aliases) are documented in `wit/v0.2.0/`.
#[allow(missing_docs)]
pub mod compressor {
    wit_bindgen::generate!({
        world: "compressor",
        path: "../../wit/v0.2.0",
        default_bindings_module: "ghost_plugin_sdk::compressor",
        pub_export_macro: true,
        export_macro_name: "export_compressor",
    });

    pub use exports::ghost::plugin::compress::Guest;
    pub use ghost::plugin::log::{Level, log};
    pub use ghost::plugin::types::{CompressRequest, Compressed, ContentClass, PluginError};
}

/// Bindings for the `classifier` world: export `classify`, import `log`.
// The generated items carry the WIT contract's own comments where it has
// them; the rest (variants, aliases) are documented in `wit/v0.2.0/`.
#[allow(missing_docs)]
pub mod classifier {
    wit_bindgen::generate!({
        world: "classifier",
        path: "../../wit/v0.2.0",
        default_bindings_module: "ghost_plugin_sdk::classifier",
        pub_export_macro: true,
        export_macro_name: "export_classifier",
    });

    pub use exports::ghost::plugin::classify::Guest;
    pub use ghost::plugin::log::{Level, log};
    pub use ghost::plugin::types::{
        Classification, ClassifyContext, ClassifyRequest, ContentClass,
    };
}
