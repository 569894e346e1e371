//! `ghost plugin new <name>`: a plugin project that builds with one command
//! (`cargo build --release`) and passes `ghost plugin add <folder>`.
//!
//! The project is self-contained: it carries the WIT contract and a copy of
//! the guest SDK, so it builds outside ghost's repository with only
//! crates.io (for `wit-bindgen`) and the toolchain its
//! `rust-toolchain.toml` names.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The WIT contract the project builds against.
const WIT: &str = include_str!("../../../../wit/v0.2.0/plugin.wit");
/// The guest SDK, copied into the project.
const SDK: &str = include_str!("../../../../plugins/sdk/src/lib.rs");
/// ghost's pinned toolchain, with the wasm32-wasip2 target.
const TOOLCHAIN: &str = include_str!("../../../../rust-toolchain.toml");
/// The SDK's path to the WIT inside ghost's repository.
const SDK_WIT_PATH: &str = "../../wit/v0.2.0";

/// Languages `ghost plugin new` can scaffold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Rust, with ghost's guest SDK.
    Rust,
}

impl Lang {
    /// Every language, by the name `--lang` takes.
    pub const ALL: [(&'static str, Lang); 1] = [("rust", Lang::Rust)];
}

impl std::str::FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Lang::ALL
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(s.trim()))
            .map(|(_, lang)| *lang)
            .ok_or_else(|| {
                let known: Vec<&str> = Lang::ALL.iter().map(|(n, _)| *n).collect();
                format!(
                    "unknown language '{s}' (ghost plugin new knows: {})",
                    known.join(", ")
                )
            })
    }
}

/// Writes a new plugin project `name` into `parent/name`; returns its folder.
pub fn scaffold(parent: &Path, name: &str, lang: Lang) -> Result<PathBuf> {
    if !ghost_registry::valid_id(name) || name.contains('.') {
        bail!(
            "{name:?} is not a usable plugin name: use lowercase letters, digits, '-' and '_' \
             (it becomes the crate's name and the plugin's id)"
        );
    }
    let dir = parent.join(name);
    if dir.exists() {
        bail!(
            "{} already exists; pick another name or folder",
            dir.display()
        );
    }
    match lang {
        Lang::Rust => write_rust(&dir, name)?,
    }
    Ok(dir)
}

fn write_rust(dir: &Path, name: &str) -> Result<()> {
    let crate_file = name.replace('-', "_");
    let sdk = SDK.replace(SDK_WIT_PATH, "../wit");
    if sdk == SDK {
        bail!("internal: the SDK no longer names {SDK_WIT_PATH}; update the scaffold");
    }
    let files: Vec<(&str, String)> = vec![
        ("Cargo.toml", cargo_toml(name)),
        (
            ".cargo/config.toml",
            "[build]\ntarget = \"wasm32-wasip2\"\n".into(),
        ),
        ("rust-toolchain.toml", TOOLCHAIN.to_string()),
        ("ghost-plugin.toml", project_toml(name, &crate_file)),
        ("src/lib.rs", LIB_RS.replace("{name}", name)),
        ("sdk/Cargo.toml", SDK_CARGO_TOML.to_string()),
        ("sdk/src/lib.rs", sdk),
        ("wit/plugin.wit", WIT.to_string()),
        ("README.md", README.replace("{name}", name)),
        (".gitignore", "/target\n".into()),
    ];
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("a file in the project"))
            .with_context(|| format!("creating {}", path.display()))?;
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn cargo_toml(name: &str) -> String {
    format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2024"
publish = false

[lib]
crate-type = ["cdylib"]

[dependencies]
ghost-plugin-sdk = {{ path = "sdk" }}

[profile.release]
opt-level = "s"
lto = true
strip = true
codegen-units = 1

# A project of its own, even when created inside another workspace.
[workspace]
"#
    )
}

fn project_toml(name: &str, crate_file: &str) -> String {
    format!(
        r#"# What `ghost plugin add .` reads. Fields: id, version, classes (log, code,
# structured, prose, error), priority (higher runs first; the built-in runs
# last), component (the built file), and optionally
# [limits] deadline_ms = … (up to {}) and memory_mib = … (up to {}).
id = "{name}"
version = "0.1.0"
classes = ["log"]
priority = 10
component = "target/wasm32-wasip2/release/{crate_file}.wasm"
"#,
        ghost_registry::MAX_DEADLINE_MS,
        ghost_registry::MAX_MEMORY_MIB
    )
}

const SDK_CARGO_TOML: &str = r#"[package]
name = "ghost-plugin-sdk"
description = "ghost's guest SDK (a copy made by `ghost plugin new`)."
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
wit-bindgen = { version = "0.61.1", default-features = false, features = ["macros", "realloc"] }
"#;

const LIB_RS: &str = r#"//! {name}: a ghost compressor.
//!
//! It folds runs of identical lines into one line and a count, keeping every
//! other line as it is. Change `compress` to do what your plugin is for; the
//! rules ghost holds it to are in the README.

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, Level, PluginError, log};

fn compress(request: CompressRequest) -> Result<Compressed, PluginError> {
    if request.text.is_empty() {
        return Err(PluginError::Unsupported("empty text".into()));
    }
    let mut out: Vec<String> = Vec::new();
    let mut folded = 0;
    let mut lines = request.text.lines().peekable();
    while let Some(line) = lines.next() {
        let mut repeats = 1;
        while lines.peek() == Some(&line) {
            lines.next();
            repeats += 1;
        }
        if repeats > 1 {
            folded += repeats - 1;
            out.push(format!("{line} [×{repeats}]"));
        } else {
            out.push(line.to_string());
        }
    }
    log(Level::Debug, &format!("{folded} repeated lines folded"));
    Ok(Compressed {
        text: out.join("\n"),
        notes: vec![format!("{folded} repeated lines folded")],
    })
}

ghost_plugin_sdk::compressor!(compress);
"#;

const README: &str = r#"# {name}

A ghost compressor plugin.

    cargo build --release          # builds the component (wasm32-wasip2)
    ghost plugin add .             # checks it, smoke-tests it, installs it
    ghost plugin list              # shows which classes it serves
    echo "a\na\na\nb" | ghost compress --class log --stats

Edit `ghost-plugin.toml` to change the classes it serves or its priority,
and `src/lib.rs` to change what it does. Rebuild and `ghost plugin add .`
again to upgrade it.

The rules: the plugin gets the text and its class, and returns a shorter
text or an error. It has no files, no network, no environment; a call has a
deadline (500 ms unless `ghost-plugin.toml` asks for another) and a memory cap
(128 MiB likewise). If it fails, runs out of time, or returns something not
smaller, ghost shows the agent the original; three failures in a row disable
it for a while (`ghost plugin list` says why).
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_project_is_complete_and_its_sdk_points_at_its_own_wit() {
        let dir = tempfile::tempdir().unwrap();
        let project = scaffold(dir.path(), "my-plugin", Lang::Rust).unwrap();
        for f in [
            "Cargo.toml",
            "ghost-plugin.toml",
            "src/lib.rs",
            "sdk/src/lib.rs",
            "wit/plugin.wit",
        ] {
            assert!(project.join(f).exists(), "{f}");
        }
        let sdk = std::fs::read_to_string(project.join("sdk/src/lib.rs")).unwrap();
        assert!(sdk.contains("path: \"../wit\""));
        let p = ghost_registry::Project::read(&project).unwrap();
        assert_eq!(p.id, "my-plugin");
        assert!(scaffold(dir.path(), "my-plugin", Lang::Rust).is_err());
        assert!(scaffold(dir.path(), "Bad Name", Lang::Rust).is_err());
    }
}
