//! `ghost classify`: print a text's content class and the confidence.

use std::process::ExitCode;

use anyhow::Result;
use ghost_core::pipeline::Pipeline;
use ghost_types::ClassifyRequest;

/// Arguments of `ghost classify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent tool that produced the text (e.g. Bash, Read), as a hint.
    #[arg(long, value_name = "NAME")]
    tool: Option<String>,
    /// The file the text came from, as a hint.
    #[arg(long, value_name = "PATH")]
    source_path: Option<String>,
    /// The shell command that printed the text, as a hint.
    #[arg(long, value_name = "COMMAND")]
    command: Option<String>,
    /// The text to classify: a file, or - (the default) for standard input.
    #[arg(value_name = "FILE|-")]
    file: Option<String>,
}

/// Runs `ghost classify`.
pub fn run(args: Args, pipeline: impl FnOnce() -> Result<Pipeline>) -> Result<ExitCode> {
    let text = crate::input::read_text(args.file.as_deref())?;
    let pipeline = pipeline()?;
    // The file's own path is the best hint there is.
    let source_path = args
        .source_path
        .or_else(|| args.file.clone().filter(|f| f != "-"));
    let request = ClassifyRequest {
        text,
        tool_name: args.tool,
        source_path,
        command: args.command,
    };
    let outcome = pipeline.classify(&request);
    println!(
        "{} {:.2}",
        outcome.classification.class, outcome.classification.confidence
    );
    if let Some(reason) = outcome.fallback_reason {
        eprintln!(
            "ghost: note: the classifier failed ({reason}); assumed {}",
            outcome.classification.class
        );
    }
    Ok(ExitCode::SUCCESS)
}
