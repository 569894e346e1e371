//! Builds guest crates into WebAssembly components from a `build.rs`.
//!
//! ghost's binary embeds its built-in compressors, and its test suite builds
//! hostile guests; both run `cargo build --target wasm32-wasip2` from a build
//! script. That inner cargo needs care, which lives here once:
//! - its own target directory (the outer build holds the lock on its own);
//! - none of the outer build's rustflags (they are for the host target);
//! - `rerun-if-changed` on every guest source and on the WIT contract.
//!
//! It never downloads a toolchain: the `wasm32-wasip2` target comes from
//! `rust-toolchain.toml`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The cargo profile guests are built with (see the workspace `Cargo.toml`).
pub const GUEST_PROFILE: &str = "guest";
/// The target guests are built for.
pub const GUEST_TARGET: &str = "wasm32-wasip2";

/// One guest crate to build: its package name and its folder.
#[derive(Debug, Clone)]
pub struct Guest {
    /// The cargo package name, e.g. `ghost-compressor-log`.
    pub package: String,
    /// The crate's folder, used for `rerun-if-changed`.
    pub dir: PathBuf,
}

impl Guest {
    /// The file name cargo gives the component: the package name with `_`.
    pub fn artifact_name(&self) -> String {
        format!("{}.wasm", self.package.replace('-', "_"))
    }
}

/// Builds `guests` as components into `target_dir` and returns each one's path,
/// in the order given. Panics with the inner cargo's message on failure, which
/// is how a build script reports errors.
pub fn build_components(workspace: &Path, target_dir: &Path, guests: &[Guest]) -> Vec<PathBuf> {
    for guest in guests {
        println!("cargo:rerun-if-changed={}", guest.dir.display());
    }
    println!("cargo:rerun-if-changed={}", workspace.join("wit").display());
    println!(
        "cargo:rerun-if-changed={}",
        workspace.join("plugins/sdk").display()
    );

    ensure_target_installed();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(workspace)
        .args([
            "build",
            "--target",
            GUEST_TARGET,
            "--profile",
            GUEST_PROFILE,
        ])
        .arg("--target-dir")
        .arg(target_dir);
    for guest in guests {
        cmd.args(["-p", &guest.package]);
    }
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        cmd.env_remove(var);
    }
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("could not run cargo to build guest components: {e}"));
    if !status.success() {
        panic!(
            "building guest components failed ({status}); is the {GUEST_TARGET} target installed? \
             rustup installs it from rust-toolchain.toml (`rustup show` or `rustup target add {GUEST_TARGET}`)"
        );
    }
    let out = target_dir.join(GUEST_TARGET).join(GUEST_PROFILE);
    guests
        .iter()
        .map(|g| {
            let path = out.join(g.artifact_name());
            assert!(
                path.exists(),
                "cargo built {} but {} is missing",
                g.package,
                path.display()
            );
            path
        })
        .collect()
}

/// Makes sure the active toolchain has the guest target's standard library.
///
/// rustup installs the targets listed in `rust-toolchain.toml` when it installs
/// the toolchain, but not when the pinned toolchain was already there without
/// them; in that case add the target here rather than fail the build.
fn ensure_target_installed() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let sysroot = Command::new(&rustc).args(["--print", "sysroot"]).output();
    let Ok(sysroot) = sysroot else { return };
    let sysroot = String::from_utf8_lossy(&sysroot.stdout).trim().to_string();
    if Path::new(&sysroot)
        .join("lib/rustlib")
        .join(GUEST_TARGET)
        .exists()
    {
        return;
    }
    let mut rustup = Command::new("rustup");
    rustup.args(["target", "add", GUEST_TARGET]);
    if let Ok(toolchain) = std::env::var("RUSTUP_TOOLCHAIN") {
        rustup.args(["--toolchain", &toolchain]);
    }
    match rustup.status() {
        Ok(s) if s.success() => {}
        other => println!(
            "cargo:warning=could not add the {GUEST_TARGET} target with rustup ({other:?})"
        ),
    }
}
