//! `ghost compress`: compress a file or stdin and print the result.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use ghost_core::pipeline::Pipeline;
use ghost_types::{ClassifyRequest, CompressRequest, ContentClass};

/// Arguments of `ghost compress`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The content class (log, code, structured, prose, error, prompt);
    /// when omitted, the classifier decides.
    #[arg(long, value_name = "CLASS")]
    class: Option<String>,
    /// The agent tool that produced the text (e.g. Bash, Read), as a hint.
    #[arg(long, value_name = "NAME")]
    tool: Option<String>,
    /// The file the text came from, as a hint.
    #[arg(long, value_name = "PATH")]
    source_path: Option<String>,
    /// The shell command that printed the text, as a hint.
    #[arg(long, value_name = "COMMAND")]
    command: Option<String>,
    /// Ask the compressor to fit the result in about this many tokens
    /// (what must be kept stays whatever the budget).
    #[arg(long, value_name = "N")]
    target_tokens: Option<u32>,
    /// Print bytes and tokens in/out (o200k_base) on stderr.
    #[arg(long)]
    stats: bool,
    /// The text to compress: a file, or - (the default) for standard input.
    #[arg(value_name = "FILE|-")]
    file: Option<String>,
}

/// Runs `ghost compress`.
pub fn run(args: Args, pipeline: impl FnOnce() -> Result<Pipeline>) -> Result<ExitCode> {
    let given_class = args
        .class
        .as_deref()
        .map(str::parse::<ContentClass>)
        .transpose()?;
    let text = crate::input::read_text(args.file.as_deref())?;
    // The file's own path is the best hint there is.
    let source_path = args
        .source_path
        .or_else(|| args.file.clone().filter(|f| f != "-"));
    let started = Instant::now();
    let pipeline = pipeline()?;
    let (class, class_source) = match given_class {
        Some(c) => (c, "given".to_string()),
        None => {
            let request = ClassifyRequest {
                text: text.clone(),
                tool_name: args.tool.clone(),
                source_path: source_path.clone(),
                command: args.command.clone(),
            };
            let c = pipeline.classify(&request).classification;
            (
                c.class,
                format!("classified, confidence {:.2}", c.confidence),
            )
        }
    };
    let request = CompressRequest {
        text,
        class,
        tool_name: args.tool,
        // `cat a.py` printed a.py: its path picks the parser.
        source_path: ghost_types::command::file_hint(
            source_path.as_deref(),
            args.command.as_deref(),
        )
        .map(str::to_owned),
        target_tokens: args.target_tokens,
    };
    let result = pipeline.compress(&request);
    let elapsed = started.elapsed();
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(result.outcome.text.as_bytes())
        .context("writing to stdout")?;
    if !result.outcome.text.ends_with('\n') && !result.outcome.text.is_empty() {
        stdout.write_all(b"\n").context("writing to stdout")?;
    }
    stdout.flush().context("writing to stdout")?;
    if let (Some(reason), Some(_)) = (&result.outcome.fallback_reason, &result.compressor) {
        eprintln!("ghost: note: printed the original: {reason}");
    }
    if args.stats {
        let out = &result.outcome.text;
        let tokens_in = ghost_core::tokens::count(&request.text);
        let tokens_out = ghost_core::tokens::count(out);
        eprintln!(
            "ghost: class {class} ({class_source}) · compressor {} · {} → {} bytes ({}) · {} → {} tokens {} ({}) · {:.1} ms{}",
            result.compressor.as_deref().unwrap_or("none"),
            request.text.len(),
            out.len(),
            percent(out.len(), request.text.len()),
            tokens_in,
            tokens_out,
            ghost_core::tokens::TOKENIZER,
            percent(tokens_out, tokens_in),
            elapsed.as_secs_f64() * 1000.0,
            if result.outcome.notes.is_empty() {
                String::new()
            } else {
                format!(" · {}", result.outcome.notes.join("; "))
            },
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "-".into();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}
