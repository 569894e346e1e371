//! The structured-data compressor as a `ghost:plugin/compressor` component.

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, Guest, PluginError};

struct StructuredCompressor;

impl Guest for StructuredCompressor {
    fn compress(request: CompressRequest) -> Result<Compressed, PluginError> {
        let out = crate::compress_within(
            &request.text,
            request.source_path.as_deref(),
            request.tool_name.as_deref(),
            request.target_tokens,
        );
        Ok(Compressed {
            text: out.text,
            notes: out.notes,
        })
    }
}

ghost_plugin_sdk::compressor::export_compressor!(StructuredCompressor);
