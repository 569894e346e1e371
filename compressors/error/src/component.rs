//! The error compressor as a `ghost:plugin/compressor` component.

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, Guest, PluginError};

struct ErrorCompressor;

impl Guest for ErrorCompressor {
    fn compress(request: CompressRequest) -> Result<Compressed, PluginError> {
        match crate::compress_within(&request.text, request.target_tokens) {
            Some(out) => Ok(Compressed {
                text: out.text,
                notes: out.notes,
            }),
            None => Err(PluginError::Unsupported(
                "no stack frames or memory dump to fold".into(),
            )),
        }
    }
}

ghost_plugin_sdk::compressor::export_compressor!(ErrorCompressor);
