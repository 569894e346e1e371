//! Builds the built-in task runtimes (guest crates under `runtimes/`) into
//! wasm32-wasip2 components for `lib.rs` to embed, as `ghost-core` does for
//! the compressors (see `ghost-guest-build`).

use std::path::PathBuf;

use ghost_guest_build::{Guest, build_components, guest_target_dir};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let workspace = manifest
        .ancestors()
        .nth(2)
        .expect("host/task sits two levels under the workspace")
        .to_path_buf();
    let runtimes = [("js", "JS"), ("py", "PY")];
    let guests: Vec<Guest> = runtimes
        .iter()
        .map(|(dir, _)| Guest {
            package: format!("ghost-task-{dir}"),
            dir: manifest.join("runtimes").join(dir),
        })
        .collect();
    let built = build_components(&workspace, &guest_target_dir(), &guests);
    for ((_, var), wasm) in runtimes.iter().zip(&built) {
        println!("cargo:rustc-env=GHOST_TASK_{var}_WASM={}", wasm.display());
    }
}
