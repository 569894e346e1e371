//! Builds the hostile guest components in `tests/guests/` for the sandbox tests
//! and tells the tests where they are (`GHOST_HOSTILE_DIR`).

use std::path::PathBuf;

use ghost_guest_build::{Guest, build_components, guest_target_dir};

/// Every test guest: the hostile ones the sandbox tests load, and the
/// third-party plugins the registry tests add.
const HOSTILE: &[&str] = &[
    "guest-spin",
    "guest-memory-bomb",
    "guest-recursion",
    "guest-escape",
    "guest-inflate",
    "guest-panic",
    "guest-wrong-version",
    "guest-short-lines",
    "guest-moody",
    "guest-classify-all",
    "guest-task-probe",
    "guest-stateful",
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let workspace = manifest.parent().unwrap().to_path_buf();
    let guests: Vec<Guest> = HOSTILE
        .iter()
        .map(|name| Guest {
            package: name.to_string(),
            dir: manifest.join("guests").join(name),
        })
        .collect();
    let built = build_components(&workspace, &guest_target_dir(), &guests);
    let dir = built[0].parent().unwrap();
    println!("cargo:rustc-env=GHOST_HOSTILE_DIR={}", dir.display());
}
