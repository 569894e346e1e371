//! A compressor that allocates without end: the host's memory cap must stop it.
#![cfg(target_arch = "wasm32")]

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, Guest, PluginError};

struct Bomb;

impl Guest for Bomb {
    fn compress(req: CompressRequest) -> Result<Compressed, PluginError> {
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            // 16 MiB at a time, touched so the pages are really used.
            let chunk = vec![req.text.len() as u8 | 1; 16 << 20];
            hoard.push(std::hint::black_box(chunk));
        }
    }
}

ghost_plugin_sdk::compressor::export_compressor!(Bomb);
