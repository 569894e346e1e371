//! `ghost ingest`: classify → compress → store one text, and print what the
//! agent would see (or the whole answer as JSON).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use ghost_core::ingest::{IngestRequest, Ingestor};
use ghost_core::pipeline::Pipeline;
use ghost_store::Store;
use ghost_types::ContentClass;

/// Arguments of `ghost ingest`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent session the text belongs to.
    #[arg(long, default_value = "cli")]
    session: String,
    /// The tool call's id: ingesting the same (session, id) twice stores one
    /// entry. Without it, the same text twice is one entry.
    #[arg(long, value_name = "ID")]
    tool_use_id: Option<String>,
    /// The tool that produced the text (Bash, Read, …).
    #[arg(long, value_name = "NAME")]
    tool: Option<String>,
    /// The file the text came from.
    #[arg(long, value_name = "PATH")]
    source_path: Option<String>,
    /// The class, when known (else the classifier decides).
    #[arg(long)]
    class: Option<String>,
    /// Extra search text: the command that produced it, say.
    #[arg(long, default_value = "")]
    context: String,
    /// An entity it is about (repeatable).
    #[arg(long = "tag", value_name = "TAG")]
    tags: Vec<String>,
    /// Print the whole answer as JSON.
    #[arg(long)]
    json: bool,
    /// Batch mode: the input is JSON lines, one tool result each
    /// (`{"text", "session"?, "tool_use_id"?, "tool"?, "source_path"?,
    /// "class"?, "context"?, "tags"?}`); prints one JSON answer per line.
    #[arg(long, conflicts_with_all = ["tool_use_id", "tool", "source_path", "class", "json"])]
    jsonl: bool,
    /// The text: a file, or - (the default) for standard input.
    #[arg(value_name = "FILE|-")]
    file: Option<String>,
}

/// Runs `ghost ingest`.
pub fn run(
    args: Args,
    store: &mut Store,
    config: &ghost_core::config::Config,
    pipeline: impl Fn() -> Result<Pipeline>,
) -> Result<ExitCode> {
    let class = args
        .class
        .as_deref()
        .map(str::parse::<ContentClass>)
        .transpose()?;
    let text = crate::input::read_text(args.file.as_deref())?;
    if args.jsonl {
        return run_batch(&text, &args.session, store, config, pipeline);
    }
    let mut request = IngestRequest::new(text, args.session);
    request.tool_use_id = args.tool_use_id;
    request.tool_name = args.tool;
    request.source_path = args
        .source_path
        .or_else(|| args.file.clone().filter(|f| f != "-"));
    request.class = class;
    request.context = args.context;
    request.tags = args.tags;
    let _ = store.maintain_if_due(
        ghost_store::now_ms(),
        ghost_core::service::MAINTENANCE_EVERY,
    );
    let mut ingestor = Ingestor::new(store, config.min_compress_bytes(), pipeline);
    ingestor.set_retention(config.retention.clone());
    let ingested = ingestor.ingest(request)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&ingested)?);
    } else {
        print!("{}", ingested.text);
        if !ingested.text.ends_with('\n') {
            println!();
        }
        eprintln!(
            "ghost: id={} · {} · {} → {} tokens{}",
            ingested.id,
            ingested.class,
            ingested.original_tokens,
            ingested.summary_tokens,
            if ingested.created {
                ""
            } else {
                " · already stored"
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// One line of `ghost ingest --jsonl`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BatchLine {
    text: String,
    session: Option<String>,
    tool_use_id: Option<String>,
    tool: Option<String>,
    source_path: Option<String>,
    class: Option<String>,
    #[serde(default)]
    context: String,
    #[serde(default)]
    tags: Vec<String>,
}

fn run_batch(
    input: &str,
    default_session: &str,
    store: &mut Store,
    config: &ghost_core::config::Config,
    pipeline: impl Fn() -> Result<Pipeline>,
) -> Result<ExitCode> {
    let mut ingestor = Ingestor::new(store, config.min_compress_bytes(), pipeline);
    ingestor.set_retention(config.retention.clone());
    let mut stdout = std::io::stdout().lock();
    for (n, line) in input
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let line: BatchLine = serde_json::from_str(line)
            .with_context(|| format!("line {} is not a valid ingest request", n + 1))?;
        let mut request = IngestRequest::new(
            line.text,
            line.session.as_deref().unwrap_or(default_session),
        );
        request.tool_use_id = line.tool_use_id;
        request.tool_name = line.tool;
        request.source_path = line.source_path;
        request.class = line
            .class
            .as_deref()
            .map(str::parse::<ContentClass>)
            .transpose()
            .with_context(|| format!("line {}", n + 1))?;
        request.context = line.context;
        request.tags = line.tags;
        let ingested = ingestor
            .ingest(request)
            .with_context(|| format!("ingesting line {}", n + 1))?;
        writeln!(stdout, "{}", serde_json::to_string(&ingested)?).context("writing to stdout")?;
    }
    Ok(ExitCode::SUCCESS)
}
