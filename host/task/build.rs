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
    let guests = [Guest {
        package: "ghost-task-js".into(),
        dir: manifest.join("runtimes/js"),
    }];
    let built = build_components(&workspace, &guest_target_dir(), &guests);
    println!("cargo:rustc-env=GHOST_TASK_JS_WASM={}", built[0].display());
}
