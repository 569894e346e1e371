//! Builds guest crates into WebAssembly components from a `build.rs`.
//!
//! ghost's binary embeds its built-in compressors, and its test suite builds
//! hostile guests; both run `cargo build --target wasm32-wasip2` from a build
//! script. That inner cargo needs care, which lives here once:
//! - its own target directory (the outer build holds the lock on its own),
//!   shared by every build script and profile of the workspace
//!   ([`guest_target_dir`]), so a release build or `cargo clippy` reuses what
//!   the test build compiled;
//! - none of the outer build's rustflags (they are for the host target), and
//!   WebAssembly SIMD on (`+simd128`: wasmtime compiles it to the host's
//!   vector instructions; the built-in log compressor ran about 7% faster on
//!   the SWE logs, 93.7 → 86.7 ms per MB in the sandbox);
//! - `rerun-if-changed` on every file the built components were compiled
//!   from, read from the inner cargo's dep-info (`<component>.d`): a change
//!   to any crate a guest depends on (`log-folding`, `terminal-text`,
//!   `ghost-types`, the SDK, the WIT contract…) rebuilds it, so stale wasm
//!   is never embedded.
//!
//! It never downloads a toolchain: the `wasm32-wasip2` target comes from
//! `rust-toolchain.toml`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The cargo profile guests are built with (see the workspace `Cargo.toml`).
pub const GUEST_PROFILE: &str = "guest";
/// The flags guests are compiled with: WebAssembly SIMD, which wasmtime
/// supports by default.
pub const GUEST_RUSTFLAGS: &str = "-Ctarget-feature=+simd128";
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

/// The target directory guests are built in: `ghost-guests` beside the
/// outer build's profile directories (`target/ghost-guests`), derived from
/// the build script's `OUT_DIR` (`target/<profile>/build/<crate>/out`).
pub fn guest_target_dir() -> PathBuf {
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR is set for build scripts"));
    match out.ancestors().nth(4) {
        Some(target) => target.join("ghost-guests"),
        None => out.join("guests"),
    }
}

/// Builds `guests` as components into `target_dir` and returns each one's path,
/// in the order given, and has cargo re-run the calling build script when any
/// file they were built from changes. Panics with the inner cargo's message
/// on failure, which is how a build script reports errors.
pub fn build_components(workspace: &Path, target_dir: &Path, guests: &[Guest]) -> Vec<PathBuf> {
    // Before building, so a failed build is retried once a guest is fixed.
    for guest in guests {
        println!("cargo:rerun-if-changed={}", guest.dir.display());
    }
    for file in ["Cargo.toml", "Cargo.lock", "rust-toolchain.toml"] {
        println!("cargo:rerun-if-changed={}", workspace.join(file).display());
    }

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
    cmd.env("CARGO_ENCODED_RUSTFLAGS", GUEST_RUSTFLAGS);
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
    let built: Vec<PathBuf> = guests
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
        .collect();
    for file in compiled_from(workspace, &built) {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    built
}

/// Every file the components `built` were compiled from, by the inner
/// cargo's dep-info files (`x.wasm` → `x.d`), with the `Cargo.toml` of each
/// workspace crate among them (a dependency added to `log-folding` changes
/// the component too). Sorted, each once.
pub fn compiled_from(workspace: &Path, built: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = std::collections::BTreeSet::new();
    for component in built {
        let dep_info = component.with_extension("d");
        let text = std::fs::read_to_string(&dep_info).unwrap_or_else(|e| {
            panic!(
                "reading {} (cargo's dep-info for {}): {e}",
                dep_info.display(),
                component.display()
            )
        });
        for file in dep_info_files(&text) {
            if let Some(manifest) = crate_manifest(workspace, &file) {
                files.insert(manifest);
            }
            files.insert(file);
        }
    }
    files.into_iter().collect()
}

/// The prerequisites of a Makefile-style dep-info file (`target: a b\ c`),
/// unescaped.
pub fn dep_info_files(text: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for line in text.lines() {
        // Skip to after the target's colon: the first ": " or a trailing ":".
        let Some(deps) = line
            .split_once(": ")
            .map(|(_, d)| d)
            .or_else(|| line.strip_suffix(':').map(|_| ""))
        else {
            continue;
        };
        let mut current = String::new();
        let mut chars = deps.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&' ') => {
                    current.push(' ');
                    chars.next();
                }
                ' ' => {
                    if !current.is_empty() {
                        files.push(PathBuf::from(std::mem::take(&mut current)));
                    }
                }
                c => current.push(c),
            }
        }
        if !current.is_empty() {
            files.push(PathBuf::from(current));
        }
    }
    files
}

/// The `Cargo.toml` of the workspace crate `file` belongs to, if it is in
/// the workspace.
fn crate_manifest(workspace: &Path, file: &Path) -> Option<PathBuf> {
    if !file.starts_with(workspace) {
        return None;
    }
    file.ancestors()
        .skip(1)
        .take_while(|dir| dir.starts_with(workspace) && *dir != workspace)
        .map(|dir| dir.join("Cargo.toml"))
        .find(|manifest| manifest.is_file())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dep_info_prerequisites_are_unescaped() {
        let text = "/t/x.wasm: /w/a.rs /w/dir\\ with\\ space/b.rs /w/wit/p.wit\n\n/w/a.rs:\n";
        assert_eq!(
            dep_info_files(text),
            vec![
                PathBuf::from("/w/a.rs"),
                PathBuf::from("/w/dir with space/b.rs"),
                PathBuf::from("/w/wit/p.wit"),
            ]
        );
    }

    #[test]
    fn a_source_file_names_its_crate_manifest() {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let workspace = workspace.canonicalize().unwrap();
        let file = workspace.join("compressors/log-folding/src/grep.rs");
        assert_eq!(
            crate_manifest(&workspace, &file),
            Some(workspace.join("compressors/log-folding/Cargo.toml"))
        );
        assert_eq!(
            crate_manifest(&workspace, Path::new("/elsewhere/x.rs")),
            None
        );
    }
}
