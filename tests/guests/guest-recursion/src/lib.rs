//! A compressor that recurses without bound: the wasm stack limit must stop it.
#![allow(unconditional_recursion)]
#![cfg(target_arch = "wasm32")]

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, Guest, PluginError};

struct Recurse;

#[inline(never)]
fn descend(depth: u64, pad: [u64; 8]) -> u64 {
    let next = std::hint::black_box([pad[0].wrapping_add(depth); 8]);
    descend(depth + 1, next).wrapping_add(next[7])
}

impl Guest for Recurse {
    fn compress(req: CompressRequest) -> Result<Compressed, PluginError> {
        let n = descend(req.text.len() as u64, [0; 8]);
        Ok(Compressed {
            text: n.to_string(),
            notes: vec![],
        })
    }
}

ghost_plugin_sdk::compressor::export_compressor!(Recurse);
