//! A compressor that tries to carry state from one call to the next: a
//! counter in a static and the previous text on the heap. The host makes
//! every call start from the component's initial state, so it must always
//! answer that this is call 1 and that nothing was left.
#![cfg(target_arch = "wasm32")]

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, PluginError};

static CALLS: AtomicU32 = AtomicU32::new(0);
static PREVIOUS: Mutex<Option<String>> = Mutex::new(None);

fn compress(request: CompressRequest) -> Result<Compressed, PluginError> {
    let call = CALLS.fetch_add(1, Ordering::SeqCst) + 1;
    let left = PREVIOUS
        .lock()
        .map_err(|_| PluginError::Internal("poisoned".into()))?
        .replace(request.text);
    let left = match left {
        Some(text) => format!("{} bytes left by an earlier call", text.len()),
        None => "nothing left by an earlier call".to_string(),
    };
    Ok(Compressed {
        text: format!("[stateful] call {call}; {left}"),
        notes: vec![],
    })
}

ghost_plugin_sdk::compressor!(compress);
