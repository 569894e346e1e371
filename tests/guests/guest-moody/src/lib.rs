//! A compressor that passes its smoke test and usually works (it keeps the
//! first half of the lines, marked `[moody]`), but loops forever on any text
//! containing `SPIN`: the host must stop it each time, pass the text on, and
//! disable it after failures in a row.
#![cfg(target_arch = "wasm32")]

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, PluginError};

fn compress(request: CompressRequest) -> Result<Compressed, PluginError> {
    if request.text.contains("SPIN") {
        let mut n: u64 = request.text.len() as u64;
        loop {
            n = std::hint::black_box(n.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
    let lines: Vec<&str> = request.text.lines().collect();
    let half = lines[..lines.len() / 2].join("\n");
    Ok(Compressed {
        text: format!("[moody]\n{half}"),
        notes: vec![],
    })
}

ghost_plugin_sdk::compressor!(compress);
