//! Builds the built-in compressors and classifier (guest crates under
//! `compressors/`) into wasm32-wasip2 components, so `builtin.rs` can embed
//! them with `include_bytes!`. Built-ins then take exactly the same path
//! through the runtime as a third-party plugin.

use std::path::PathBuf;

use ghost_guest_build::{Guest, build_components};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let workspace = manifest.parent().unwrap().to_path_buf();
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let guests = [
        Guest {
            package: "ghost-compressor-log".into(),
            dir: workspace.join("compressors/log"),
        },
        Guest {
            package: "ghost-classifier".into(),
            dir: workspace.join("compressors/classifier"),
        },
    ];
    let built = build_components(&workspace, &out.join("guests"), &guests);
    let names = ["GHOST_BUILTIN_LOG_WASM", "GHOST_BUILTIN_CLASSIFIER_WASM"];
    for (name, path) in names.iter().zip(&built) {
        println!("cargo:rustc-env={name}={}", path.display());
    }
}
