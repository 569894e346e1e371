//! A compressor built against `ghost:plugin@0.9.0`: the host must refuse it
//! before it runs, naming the version it targets and the ones ghost speaks.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ world: "compressor", path: "wit" });

use exports::ghost::plugin::compress::Guest;
use ghost::plugin::types::{CompressRequest, Compressed};

struct Future;

impl Guest for Future {
    fn compress(req: CompressRequest) -> Result<Compressed, String> {
        Ok(Compressed {
            text: req.text.chars().take(1).collect(),
        })
    }
}

export!(Future);
