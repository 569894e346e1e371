//! Builds the built-in compressors and classifier (guest crates under
//! `compressors/`) into wasm32-wasip2 components, so `builtin.rs` can embed
//! them with `include_bytes!`. Built-ins then take exactly the same path
//! through the runtime as a third-party plugin. Cargo re-runs this whenever
//! any file a component was compiled from changes (see `ghost-guest-build`).

use std::path::PathBuf;

use ghost_guest_build::{Guest, build_components, guest_target_dir};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let workspace = manifest
        .ancestors()
        .nth(2)
        .expect("host/core sits two levels under the workspace")
        .to_path_buf();
    // Every built-in component: (package, folder under compressors/, env var
    // that tells builtin.rs where the built component is).
    let builtins = [
        ("ghost-compressor-log", "log", "GHOST_BUILTIN_LOG_WASM"),
        (
            "ghost-compressor-error",
            "error",
            "GHOST_BUILTIN_ERROR_WASM",
        ),
        (
            "ghost-compressor-structured",
            "structured",
            "GHOST_BUILTIN_STRUCTURED_WASM",
        ),
        (
            "ghost-compressor-prose",
            "prose",
            "GHOST_BUILTIN_PROSE_WASM",
        ),
        ("ghost-compressor-code", "code", "GHOST_BUILTIN_CODE_WASM"),
        (
            "ghost-classifier",
            "classifier",
            "GHOST_BUILTIN_CLASSIFIER_WASM",
        ),
    ];
    let guests: Vec<Guest> = builtins
        .iter()
        .map(|(package, dir, _)| Guest {
            package: package.to_string(),
            dir: workspace.join("compressors").join(dir),
        })
        .collect();
    let built = build_components(&workspace, &guest_target_dir(), &guests);
    for ((_, _, var), path) in builtins.iter().zip(&built) {
        println!("cargo:rustc-env={var}={}", path.display());
    }
}
