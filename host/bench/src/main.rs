//! `ghost-bench` (also run as `ghost bench …`): compression on a corpus
//! (`corpus`), recall quality on LoCoMo (`recall`), store speed (`store`),
//! real sessions through the hook (`replay`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;
use ghost_bench::corpus;
use ghost_core::paths::GhostDirs;
use ghost_core::pipeline::Pipeline;
use ghost_runtime::PluginLimits;
use ghost_store::recall::RecallTuning;

/// ghost's benchmarks: compression, recall, store speed, replayed sessions.
/// Plugins run under ghost's default limits, as in a hook.
#[derive(Debug, Parser)]
#[command(name = "ghost-bench", version)]
struct Cli {
    /// Each plugin call's deadline in ms, per MiB for a larger input
    /// (default: ghost's own). A larger one measures what the compressors keep on a busy
    /// machine, where a large input would otherwise pass through whole.
    #[arg(long, global = true, value_name = "MS")]
    plugin_deadline_ms: Option<u64>,
    #[command(subcommand)]
    command: Args,
}

/// The benchmarks.
#[derive(Debug, clap::Subcommand)]
enum Args {
    /// Per class: tokens in/out (o200k_base), bytes, compressor time per MB,
    /// must-keep retention and classifier accuracy, for a corpus laid out like
    /// `../shared/corpus/cases` (`<case>/input.txt` + `<case>/meta.json`).
    Corpus {
        /// The folder of cases.
        dir: PathBuf,
        /// Also write the full report, every case included, as JSON here.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// List every case, not only the totals.
        #[arg(long)]
        cases: bool,
        /// Score another tool's outputs (`DIR/<case id>.txt`) instead of
        /// running ghost's compressors: for side-by-side comparisons.
        #[arg(long, value_name = "DIR")]
        outputs: Option<PathBuf>,
        /// Give every request this token budget, as a hook under context
        /// pressure does: what the compressors keep when space is short.
        #[arg(long, value_name = "N")]
        target_tokens: Option<u32>,
        /// Compress each case as the class the classifier picked (given the
        /// hints a hook has), not its label: the whole path a hook takes.
        #[arg(long)]
        classified: bool,
        /// Classify and compress each case as `ghost compress
        /// saved/input.txt` would (no tool, no command, a `.txt` path): what
        /// the content alone decides.
        #[arg(long)]
        as_saved_file: bool,
    },
    /// Recall quality on LoCoMo: every question of categories 1-4 through
    /// the MCP recall path; recall@1/5/10, MRR and latency for conversations
    /// 0-4 (where ranking was tuned) and 5-9 (held out).
    Recall {
        /// LoCoMo's locomo10.json.
        #[arg(long, default_value = "../shared/corpus/locomo/locomo10.json")]
        locomo: PathBuf,
        /// Rank with a plain FTS5 OR query instead (the baseline).
        #[arg(long)]
        plain: bool,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Real Claude Code transcripts through the PostToolUse hook: tokens the
    /// model sees with and without ghost, per tool, and the edit-visible rate.
    Replay {
        /// Transcript files (`.jsonl`).
        #[arg(required = true)]
        transcripts: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Real sessions' requests through the gateway's transform: replies
    /// before compaction and cache-aware cost, with and without ghost.
    Longevity {
        /// Transcript files (`.jsonl`).
        #[arg(required = true)]
        transcripts: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Collect when the context reaches this share of the window.
        #[arg(long)]
        step_share: Option<f64>,
        /// …and has grown this share since the last step.
        #[arg(long)]
        step_gap_share: Option<f64>,
        /// Collect from this share on when the cache has gone cold.
        #[arg(long)]
        cold_step_share: Option<f64>,
        /// The last this many assistant turns are never collected.
        #[arg(long)]
        keep_turns: Option<usize>,
        /// Blocks under this many bytes are left as they are.
        #[arg(long)]
        reference_min_bytes: Option<usize>,
        /// Collection stops at summaries (no one-line references).
        #[arg(long)]
        no_references: bool,
    },
    /// What a hook costs the agent: `ghost hook pre-tool-use` with nothing
    /// to say against a Node.js no-op hook, whole processes, alternating;
    /// medians and their ratio.
    HookCost {
        /// The ghost binary (default: `ghost` beside this one).
        #[arg(long)]
        ghost: Option<PathBuf>,
        /// A PreToolUse payload.
        #[arg(
            long,
            default_value = "../shared/claude-code/payloads/PreToolUse-Bash-fail.json"
        )]
        payload: PathBuf,
        /// Runs of each.
        #[arg(long, default_value_t = 50)]
        runs: usize,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// What starting a task costs: a hello world in each built-in runtime
    /// as a whole `ghost task run`, beside `node -e` and `python3 -c`, and
    /// per `run_task` call of one `ghost serve`; medians of one run.
    Tasks {
        /// The ghost binary (default: `ghost` beside this one).
        #[arg(long)]
        ghost: Option<PathBuf>,
        /// Runs of each.
        #[arg(long, default_value_t = 20)]
        runs: usize,
        /// Also a task component that copies stdin to stdout when given
        /// `cat` (the tests' probe: target/ghost-guests/…/guest_task_probe.wasm).
        #[arg(long, value_name = "WASM")]
        component: Option<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Hook processes and streaming gateway requests at once on one store,
    /// against a loopback model API: errors, lost writes, integrity,
    /// p50/p99 of each.
    Load {
        /// The ghost binary (default: `ghost` beside this one).
        #[arg(long)]
        ghost: Option<PathBuf>,
        /// The PostToolUse payload the hooks get (made unique per call).
        #[arg(
            long,
            default_value = "../shared/claude-code/payloads/PostToolUse-Bash-large.json"
        )]
        payload: PathBuf,
        /// The log the requests' tool results carry.
        #[arg(long, default_value = "examples/ci-failure.log")]
        log: PathBuf,
        /// Seconds of load.
        #[arg(long, default_value_t = 60)]
        secs: u64,
        /// Hook processes at once.
        #[arg(long, default_value_t = 8)]
        hook_writers: usize,
        /// Streaming gateway requests at once.
        #[arg(long, default_value_t = 50)]
        gateway_clients: usize,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Ingest throughput and recall latency (p50/p95) on stores of real
    /// tool results, filled to each size.
    Store {
        /// The shared corpus (transcripts/claude-code and cases).
        #[arg(long, default_value = "../shared/corpus")]
        corpus: PathBuf,
        /// Store sizes to measure recall at.
        #[arg(long = "entries", value_delimiter = ',', default_values_t = [10_000, 100_000])]
        entries: Vec<usize>,
        /// Keep the store in this file instead of a scratch one.
        #[arg(long, value_name = "FILE")]
        keep: Option<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Many calls in one process, as the gateway makes them.
    ghost_runtime::engine::pool_instances();
    let dirs = GhostDirs::from_env();
    let mut limits = PluginLimits::default();
    if let Some(ms) = cli.plugin_deadline_ms {
        limits.deadline = std::time::Duration::from_millis(ms.max(1));
    }
    let pipeline = || Pipeline::new_with(dirs.as_ref(), limits.clone());
    match run(cli.command, pipeline) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ghost-bench: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Runs one benchmark.
fn run(args: Args, pipeline: impl Fn() -> Result<Pipeline>) -> Result<ExitCode> {
    match args {
        Args::Corpus {
            dir,
            json,
            cases,
            outputs,
            target_tokens,
            classified,
            as_saved_file,
        } => corpus_bench(
            dir,
            json,
            cases,
            corpus::ScoreOptions {
                outputs,
                target_tokens,
                classified,
                as_saved_file,
            },
            pipeline,
        ),
        Args::Recall {
            locomo,
            plain,
            json,
        } => {
            let tuning = if plain {
                RecallTuning::plain()
            } else {
                RecallTuning::default()
            };
            let report = ghost_bench::locomo::run(&locomo, tuning)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", ghost_bench::locomo::render(&report));
            }
            Ok(ExitCode::SUCCESS)
        }
        Args::Replay { transcripts, json } => {
            let report = ghost_bench::replay::run(&transcripts, &pipeline)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", ghost_bench::replay::render(&report));
            }
            Ok(ExitCode::SUCCESS)
        }
        Args::Longevity {
            transcripts,
            json,
            step_share,
            step_gap_share,
            cold_step_share,
            keep_turns,
            reference_min_bytes,
            no_references,
        } => {
            let settings = ghost_core::config::GatewaySettings {
                upstream: None,
                step_share,
                step_gap_share,
                cold_step_share,
                keep_turns,
                reference_min_bytes,
            };
            let mut policy = ghost_gateway::gardener::GardenPolicy::from_settings(&settings);
            policy.references = !no_references;
            let report = ghost_bench::longevity::run(&transcripts, &policy, &pipeline)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", ghost_bench::longevity::render(&report));
            }
            Ok(ExitCode::SUCCESS)
        }
        Args::Load {
            ghost,
            payload,
            log,
            secs,
            hook_writers,
            gateway_clients,
            json,
        } => {
            let options = ghost_bench::load::LoadOptions {
                ghost: ghost_binary(ghost)?,
                payload,
                log,
                duration: std::time::Duration::from_secs(secs),
                hook_writers,
                gateway_clients,
            };
            let scratch = tempfile::tempdir()?;
            let report = ghost_bench::load::run(&options, scratch.path())?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", ghost_bench::load::render(&report));
            }
            Ok(if report.clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Args::Tasks {
            ghost,
            runs,
            component,
            json,
        } => {
            let scratch = tempfile::tempdir()?;
            let report = ghost_bench::task_start::run(
                &ghost_binary(ghost)?,
                runs,
                scratch.path(),
                component.as_deref(),
            )?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", ghost_bench::task_start::render(&report));
            }
            Ok(ExitCode::SUCCESS)
        }
        Args::HookCost {
            ghost,
            payload,
            runs,
            json,
        } => {
            let ghost = ghost_binary(ghost)?;
            let cost = ghost_bench::hook_cost::run(&ghost, &payload, runs)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&cost)?);
            } else {
                print!("{}", ghost_bench::hook_cost::render(&cost));
            }
            Ok(ExitCode::SUCCESS)
        }
        Args::Store {
            corpus,
            entries,
            keep,
            json,
        } => {
            let pool = ghost_bench::store_load::sources(&corpus)?;
            let report =
                ghost_bench::store_load::run(&pool, &entries, keep.as_deref(), pipeline, |line| {
                    eprintln!("ghost: bench: {line}")
                })?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", ghost_bench::store_load::render(&report));
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn corpus_bench(
    dir: PathBuf,
    json: Option<PathBuf>,
    cases: bool,
    options: corpus::ScoreOptions,
    pipeline: impl FnOnce() -> Result<Pipeline>,
) -> Result<ExitCode> {
    let pipeline = pipeline()?;
    let report = corpus::score_with(&pipeline, &dir, &options)?;
    if cases {
        for c in &report.cases {
            println!(
                "{:<45} {:<4} {:<10} {:>9} → {:>8} tokens {:>6.3}  kept {}/{}  {:.1} ms{}",
                c.id,
                match c.half {
                    corpus::Half::Tuning => "tune",
                    corpus::Half::Evaluation => "eval",
                },
                c.class,
                c.tokens_in,
                c.tokens_out,
                c.tokens_out as f64 / c.tokens_in.max(1) as f64,
                c.kept,
                c.must_keep,
                c.compress_ms,
                if c.classified_as == c.class {
                    String::new()
                } else {
                    format!("  (classified {})", c.classified_as)
                }
            );
        }
        println!();
    }
    print!("{}", corpus::render_table(&report));
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        println!("report written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `explicit`, else the `ghost` binary beside this one.
fn ghost_binary(explicit: Option<PathBuf>) -> Result<PathBuf> {
    match explicit {
        Some(g) => Ok(g),
        None => Ok(std::env::current_exe()?
            .parent()
            .context("ghost-bench has no folder")?
            .join("ghost")),
    }
}
