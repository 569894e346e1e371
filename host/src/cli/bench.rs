//! `ghost bench corpus DIR`: score ghost on a corpus of real tool outputs.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use ghost::corpus;
use ghost::pipeline::Pipeline;

/// Arguments of `ghost bench`.
#[derive(Debug, clap::Subcommand)]
pub enum Args {
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
    },
}

/// Runs `ghost bench`.
pub fn run(args: Args, pipeline: impl FnOnce() -> Result<Pipeline>) -> Result<ExitCode> {
    let Args::Corpus {
        dir,
        json,
        cases,
        outputs,
    } = args;
    let pipeline = pipeline()?;
    let report = corpus::score_with(&pipeline, &dir, outputs.as_deref())?;
    if cases {
        for c in &report.cases {
            println!(
                "{:<45} {:<10} {:>9} → {:>8} tokens {:>6.3}  kept {}/{}  {:.1} ms{}",
                c.id,
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
