//! ghost's built-in log compressor as a `ghost:plugin/compressor` component.
//! The algorithm lives in `ghost-log-folding`, which also runs natively.
#![cfg(target_arch = "wasm32")]

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, Guest, PluginError};

struct LogCompressor;

impl Guest for LogCompressor {
    fn compress(request: CompressRequest) -> Result<Compressed, PluginError> {
        let search = request
            .tool_name
            .as_deref()
            .is_some_and(ghost_log_folding::grep::is_search_tool);
        let out = if search {
            ghost_log_folding::compress_search_within(&request.text, request.target_tokens)
        } else {
            ghost_log_folding::compress_within(&request.text, request.target_tokens)
        };
        Ok(Compressed {
            text: out.text,
            notes: out.notes,
        })
    }
}

ghost_plugin_sdk::compressor::export_compressor!(LogCompressor);
