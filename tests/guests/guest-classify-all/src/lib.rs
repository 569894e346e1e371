//! A third-party classifier that calls every text prose, with confidence
//! 0.99 — or code when the host says a shell command printed it (the
//! `classify-in-context` of `ghost:plugin@0.2.0`): installed, it must replace
//! the built-in classifier and see the command.
#![cfg(target_arch = "wasm32")]

use ghost_plugin_sdk::classifier::{
    Classification, ClassifyContext, ClassifyRequest, ContentClass,
};

fn classify(_request: ClassifyRequest, context: ClassifyContext) -> Classification {
    let class = match context.command {
        Some(_) => ContentClass::Code,
        None => ContentClass::Prose,
    };
    Classification {
        class,
        confidence: 0.99,
    }
}

ghost_plugin_sdk::classifier!(in_context: classify);
