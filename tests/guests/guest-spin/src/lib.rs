//! A compressor that never returns: the host's epoch deadline must stop it.
#![cfg(target_arch = "wasm32")]

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, Guest, PluginError};

struct Spin;

impl Guest for Spin {
    fn compress(req: CompressRequest) -> Result<Compressed, PluginError> {
        let mut n: u64 = req.text.len() as u64;
        loop {
            n = std::hint::black_box(n.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}

ghost_plugin_sdk::compressor::export_compressor!(Spin);
