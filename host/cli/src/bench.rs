//! `ghost bench …`: the benchmarks live in their own binary, `ghost-bench`
//! (crate `host/bench`), which the product does not depend on. This runs it
//! with the same arguments, found beside `ghost` or on `PATH`, as git runs
//! `git-<command>`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

use anyhow::{Context, Result, bail};

/// The name of the benchmarks' binary.
pub const BENCH_BINARY: &str = "ghost-bench";

/// Arguments of `ghost bench`: everything after it, for `ghost-bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `corpus DIR`, `recall`, `store`, `replay TRANSCRIPT…` and their
    /// options (`ghost bench --help` for the list).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    args: Vec<OsString>,
}

/// `ghost-bench` beside the running `ghost`, else on `PATH`.
fn bench_binary() -> Option<PathBuf> {
    let name = format!("{BENCH_BINARY}{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&name)))
        .filter(|p| p.is_file());
    beside.or_else(|| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(&name))
                .find(|p| p.is_file())
        })
    })
}

/// Runs `ghost-bench` with `args`; its exit code is ghost's.
pub fn run(args: Args) -> Result<ExitCode> {
    let Some(binary) = bench_binary() else {
        bail!(
            "{BENCH_BINARY} is not installed: build it with `cargo build -p ghost-bench` \
             (or `cargo install --path host/bench`), or run `cargo run -p ghost-bench -- …`"
        );
    };
    let status = Command::new(&binary)
        .args(&args.args)
        .status()
        .with_context(|| format!("running {}", binary.display()))?;
    Ok(match status.code() {
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::from(1),
    })
}
