//! A compressor that panics: the trap must be caught and the original kept.
#![cfg(target_arch = "wasm32")]

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, Guest, PluginError};

struct Panic;

impl Guest for Panic {
    fn compress(req: CompressRequest) -> Result<Compressed, PluginError> {
        panic!("guest-panic refuses {} bytes", req.text.len());
    }
}

ghost_plugin_sdk::compressor::export_compressor!(Panic);
