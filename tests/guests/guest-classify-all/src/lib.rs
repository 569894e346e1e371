//! A third-party classifier that calls every text prose, with confidence
//! 0.99: installed, it must replace the built-in classifier.
#![cfg(target_arch = "wasm32")]

use ghost_plugin_sdk::classifier::{Classification, ClassifyRequest, ContentClass};

fn classify(_request: ClassifyRequest) -> Classification {
    Classification {
        class: ContentClass::Prose,
        confidence: 0.99,
    }
}

ghost_plugin_sdk::classifier!(classify);
