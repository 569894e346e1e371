//! The `ghost` command line: a thin layer over the `ghost` library.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ghost: error: {}", one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}

/// Error chains on one line, as a user-facing CLI error should be.
fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
