//! `ghost ingest`: classify → compress → store one text, and print what the
//! agent would see (or the whole answer as JSON).

use std::process::ExitCode;

use anyhow::Result;
use ghost::content::ContentClass;
use ghost::ingest::{IngestRequest, Ingestor};
use ghost::pipeline::Pipeline;
use ghost::store::Store;

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
    /// The text: a file, or - (the default) for standard input.
    #[arg(value_name = "FILE|-")]
    file: Option<String>,
}

/// Runs `ghost ingest`.
pub fn run(
    args: Args,
    store: &mut Store,
    config: &ghost::config::Config,
    pipeline: impl Fn() -> Result<Pipeline>,
) -> Result<ExitCode> {
    let class = args
        .class
        .as_deref()
        .map(str::parse::<ContentClass>)
        .transpose()?;
    let text = ghost::input::read_text(args.file.as_deref())?;
    let mut request = IngestRequest::new(text, args.session);
    request.tool_use_id = args.tool_use_id;
    request.tool_name = args.tool;
    request.source_path = args
        .source_path
        .or_else(|| args.file.clone().filter(|f| f != "-"));
    request.class = class;
    request.context = args.context;
    request.tags = args.tags;
    request.ttl_seconds = config.ttl_seconds();
    let _ = store.maintain_if_due(ghost::store::now_ms(), ghost::mcp::MAINTENANCE_EVERY);
    let mut ingestor = Ingestor::new(store, config.min_compress_bytes(), pipeline);
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
