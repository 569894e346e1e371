//! A well-behaved third-party compressor, written as a plugin author would:
//! one function and the SDK's macro. It cuts every line to 60 characters and
//! marks its output with `[short-lines]`, so tests see which compressor ran.
#![cfg(target_arch = "wasm32")]

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, PluginError};

fn compress(request: CompressRequest) -> Result<Compressed, PluginError> {
    let mut out = String::from("[short-lines]\n");
    for line in request.text.lines() {
        if line.chars().count() > 60 {
            out.extend(line.chars().take(60));
            out.push('…');
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    Ok(Compressed {
        text: out,
        notes: vec!["lines cut to 60 characters".into()],
    })
}

ghost_plugin_sdk::compressor!(compress);
