//! A compressor that returns more text than it got: the host must refuse it.
#![cfg(target_arch = "wasm32")]

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, Guest, PluginError};

struct Inflate;

impl Guest for Inflate {
    fn compress(req: CompressRequest) -> Result<Compressed, PluginError> {
        let text = format!("{0}\n{0}", req.text);
        Ok(Compressed {
            text,
            notes: vec!["twice as long".to_string()],
        })
    }
}

ghost_plugin_sdk::compressor::export_compressor!(Inflate);
