//! Fail open: whatever goes wrong in a plugin, the original text comes back.
//!
//! This is the only way the rest of ghost calls a compressor. A result is used
//! only when the call succeeded and the text is smaller than the original;
//! otherwise the original is returned unchanged and the reason is logged.

use std::time::Duration;

use crate::plugin::{Plugin, PluginRuntime};
use ghost_types::{CompressRequest, MAX_KEPT_PERCENT, clearly_smaller};

/// The text to show the agent, and how it was arrived at.
#[derive(Debug, Clone)]
pub struct CompressOutcome {
    /// The compressed text, or the original when the plugin's answer was not used.
    pub text: String,
    /// Whether `text` is the plugin's compressed output.
    pub applied: bool,
    /// The plugin's notes when applied.
    pub notes: Vec<String>,
    /// Why the original was kept, when it was.
    pub fallback_reason: Option<String>,
    /// How the call failed, when it did (an answer not smaller is no failure).
    pub failure: Option<crate::FailureKind>,
    /// The plugin's log lines (bounded).
    pub plugin_log: Vec<String>,
    /// How long the plugin call took.
    pub elapsed: Duration,
}

/// The fail-open entry point to compressors.
pub trait FailOpen {
    /// Compresses `request` with `plugin`; on any failure, or an answer not
    /// smaller than the input, returns the original and says why.
    fn compress_or_original(&self, plugin: &Plugin, request: &CompressRequest) -> CompressOutcome;
}

impl FailOpen for PluginRuntime {
    fn compress_or_original(&self, plugin: &Plugin, request: &CompressRequest) -> CompressOutcome {
        let original = |reason: String, failure, plugin_log: Vec<String>, elapsed| {
            // The caller decides what serves instead (the next compressor,
            // the built-in, or the original), and says so.
            log::warn!(
                "{}: {reason}; its answer for {} bytes is not used",
                plugin.name(),
                request.text.len()
            );
            for line in &plugin_log {
                log::info!("{}: {line}", plugin.name());
            }
            CompressOutcome {
                text: request.text.clone(),
                applied: false,
                notes: Vec::new(),
                fallback_reason: Some(reason),
                failure,
                plugin_log,
                elapsed,
            }
        };
        match self.compress(plugin, request) {
            Err(f) => original(f.reason, Some(f.kind), f.log, f.elapsed),
            Ok(out) if !clearly_smaller(out.value.text.len(), request.text.len()) => original(
                format!(
                    "output not clearly smaller than input ({} of {} bytes; at most {}% is used)",
                    out.value.text.len(),
                    request.text.len(),
                    MAX_KEPT_PERCENT
                ),
                None,
                out.log,
                out.elapsed,
            ),
            Ok(out) => {
                for line in &out.log {
                    log::info!("{}: {line}", plugin.name());
                }
                CompressOutcome {
                    text: out.value.text,
                    applied: true,
                    notes: out.value.notes,
                    fallback_reason: None,
                    failure: None,
                    plugin_log: out.log,
                    elapsed: out.elapsed,
                }
            }
        }
    }
}
