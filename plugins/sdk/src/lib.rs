//! Guest-side bindings for ghost plugins written in Rust.
//!
//! A plugin is a `cdylib` crate built for `wasm32-wasip2`. It implements one
//! trait and calls one macro:
//!
//! ```ignore
//! use ghost_plugin_sdk::compressor::{Guest, CompressRequest, Compressed, PluginError};
//!
//! struct Mine;
//! impl Guest for Mine {
//!     fn compress(req: CompressRequest) -> Result<Compressed, PluginError> { /* … */ }
//! }
//! ghost_plugin_sdk::compressor::export_compressor!(Mine);
//! ```
//!
//! The bindings come from the WIT contract in `wit/v0.1.0/`, the same file the
//! host is generated from, so a plugin built with this crate always targets a
//! version the host speaks. This crate must never add capabilities of its own:
//! a plugin's only way out of its sandbox is the bounded `log` import.

/// Bindings for the `compressor` world: export `compress`, import `log`.
pub mod compressor {
    wit_bindgen::generate!({
        world: "compressor",
        path: "../../wit/v0.1.0",
        default_bindings_module: "ghost_plugin_sdk::compressor",
        pub_export_macro: true,
        export_macro_name: "export_compressor",
    });

    pub use exports::ghost::plugin::compress::Guest;
    pub use ghost::plugin::log::{Level, log};
    pub use ghost::plugin::types::{CompressRequest, Compressed, ContentClass, PluginError};
}

/// Bindings for the `classifier` world: export `classify`, import `log`.
pub mod classifier {
    wit_bindgen::generate!({
        world: "classifier",
        path: "../../wit/v0.1.0",
        default_bindings_module: "ghost_plugin_sdk::classifier",
        pub_export_macro: true,
        export_macro_name: "export_classifier",
    });

    pub use exports::ghost::plugin::classify::Guest;
    pub use ghost::plugin::log::{Level, log};
    pub use ghost::plugin::types::{Classification, ClassifyRequest, ContentClass};
}
