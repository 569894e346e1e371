//! Scoring ghost on a corpus laid out like `../shared/corpus/cases/`:
//! `<case>/input.txt` plus `<case>/meta.json` with `class`, `tool`, `command`
//! and `must_keep`. For each case: classify (with the case's hints) and
//! compress (with the case's class) through the real runtime, count tokens,
//! bytes and time, and check that every must-keep string survived.
//!
//! Every case belongs to a source (the package, repository or log it came
//! from: its id without trailing numbers) and every source to one half, the
//! tuning half or the evaluation half, by a stable hash of its name (see
//! [`crate::halves`]). Tune on the first; report both.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use ghost_core::pipeline::Pipeline;
use ghost_types::{ClassifyRequest, CompressRequest, ContentClass};

pub use crate::halves::{Half, Split, source_of};

/// What `meta.json` says about a case.
#[derive(Debug, Clone, Deserialize)]
pub struct CaseMeta {
    /// The case's content class.
    pub class: String,
    /// The agent tool that produced it (`Bash`, `Read`, …).
    #[serde(default)]
    pub tool: Option<String>,
    /// The command or file it came from.
    #[serde(default)]
    pub command: Option<String>,
    /// Strings a faithful compression must still contain.
    #[serde(default)]
    pub must_keep: Vec<String>,
}

/// The score of one case.
#[derive(Debug, Clone, Serialize)]
pub struct CaseScore {
    /// The case's folder name.
    pub id: String,
    /// The class the corpus gives it.
    pub class: String,
    /// Where it came from (see [`source_of`]).
    pub source: String,
    /// The half its source belongs to.
    pub half: Half,
    /// The class ghost's classifier gave it.
    pub classified_as: String,
    /// The compressor that ran, if any.
    pub compressor: Option<String>,
    /// Whether the compressed text was used (smaller, no failure).
    pub applied: bool,
    /// Bytes in and out.
    pub bytes_in: usize,
    /// Bytes out.
    pub bytes_out: usize,
    /// o200k_base tokens in.
    pub tokens_in: usize,
    /// o200k_base tokens out.
    pub tokens_out: usize,
    /// Time of the compressor call in the sandbox, in milliseconds.
    pub compress_ms: f64,
    /// Must-keep strings present in the output.
    pub kept: usize,
    /// Must-keep strings in all.
    pub must_keep: usize,
    /// The first few that were lost.
    pub lost: Vec<String>,
}

/// Totals for one class (or for the whole corpus).
#[derive(Debug, Clone, Default, Serialize)]
pub struct ClassTotals {
    /// Cases.
    pub cases: usize,
    /// Cases the classifier got right.
    pub classified_right: usize,
    /// Bytes in.
    pub bytes_in: usize,
    /// Bytes out.
    pub bytes_out: usize,
    /// Tokens in.
    pub tokens_in: usize,
    /// Tokens out.
    pub tokens_out: usize,
    /// Compressor time in milliseconds.
    pub compress_ms: f64,
    /// Must-keep strings kept.
    pub kept: usize,
    /// Must-keep strings in all.
    pub must_keep: usize,
}

impl ClassTotals {
    fn add(&mut self, s: &CaseScore) {
        self.cases += 1;
        self.classified_right += usize::from(s.classified_as == s.class);
        self.bytes_in += s.bytes_in;
        self.bytes_out += s.bytes_out;
        self.tokens_in += s.tokens_in;
        self.tokens_out += s.tokens_out;
        self.compress_ms += s.compress_ms;
        self.kept += s.kept;
        self.must_keep += s.must_keep;
    }

    /// Tokens out / tokens in.
    pub fn token_ratio(&self) -> f64 {
        self.tokens_out as f64 / self.tokens_in.max(1) as f64
    }

    /// Milliseconds of compressor time per MB of input.
    pub fn ms_per_mb(&self) -> f64 {
        self.compress_ms / (self.bytes_in.max(1) as f64 / (1 << 20) as f64)
    }
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct CorpusReport {
    /// The corpus folder.
    pub corpus: PathBuf,
    /// The tokenizer tokens were counted with.
    pub tokenizer: &'static str,
    /// Totals per class.
    pub by_class: BTreeMap<String, ClassTotals>,
    /// Totals over every case.
    pub overall: ClassTotals,
    /// Totals per half, then per class (and `overall`).
    pub by_half: BTreeMap<Half, BTreeMap<String, ClassTotals>>,
    /// Sources the first rule put in the evaluation half that moved to the
    /// tuning half for it to hold its share (see [`crate::halves`]).
    pub moved_to_tuning: Vec<String>,
    /// Every case.
    pub cases: Vec<CaseScore>,
}

/// The must-keep strings that `output` lost. One survives as a substring, or
/// as a trimmed line, once ANSI codes are stripped (as the corpus's must-keep
/// lines are).
pub fn lost<'a>(must_keep: &'a [String], output: &str) -> Vec<&'a String> {
    let output = ghost_terminal_text::strip_ansi(output);
    must_keep
        .iter()
        .filter(|k| {
            let needle = k.trim();
            !(output.contains(needle) || output.lines().any(|l| l.trim() == needle))
        })
        .collect()
}

/// Scores every case under `dir` (a folder of case folders) with ghost.
pub fn score(pipeline: &Pipeline, dir: &Path) -> Result<CorpusReport> {
    score_with(pipeline, dir, &ScoreOptions::default())
}

/// The path `--as-saved-file` gives the classifier: a text saved to a file
/// whose extension says little.
pub const SAVED_FILE: &str = "saved/input.txt";

/// How [`score_with`] runs the cases.
#[derive(Debug, Clone, Default)]
pub struct ScoreOptions {
    /// Score the texts found here as `<case id>.txt` (another tool's
    /// compressed outputs) instead of running ghost's compressors.
    pub outputs: Option<PathBuf>,
    /// Give every request this token budget, as a hook under context
    /// pressure does.
    pub target_tokens: Option<u32>,
    /// Compress with the class the classifier picked rather than the
    /// case's label: the whole path a hook takes.
    pub classified: bool,
    /// Classify and compress each text as `ghost compress saved/input.txt`
    /// would: no tool, no command, only a saved file's weak `.txt` path.
    pub as_saved_file: bool,
}

/// Scores every case under `dir` as `options` say (see [`ScoreOptions`]).
/// With outputs of another tool, a case with no output file counts as
/// passed through unchanged.
pub fn score_with(pipeline: &Pipeline, dir: &Path, options: &ScoreOptions) -> Result<CorpusReport> {
    let mut ids: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading the corpus folder {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("input.txt").is_file() && p.join("meta.json").is_file())
        .collect();
    anyhow::ensure!(
        !ids.is_empty(),
        "{} holds no cases (folders with input.txt and meta.json)",
        dir.display()
    );
    ids.sort();
    let names: Vec<String> = ids
        .iter()
        .map(|p| {
            p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let split = Split::of(names.iter().map(String::as_str));
    let mut report = CorpusReport {
        corpus: dir.to_path_buf(),
        tokenizer: ghost_core::tokens::TOKENIZER,
        by_class: BTreeMap::new(),
        overall: ClassTotals::default(),
        by_half: BTreeMap::new(),
        moved_to_tuning: split.moved().to_vec(),
        cases: Vec::new(),
    };
    for (case_dir, name) in ids.iter().zip(&names) {
        let score = score_case(pipeline, case_dir, split.half(name), options)?;
        report
            .by_class
            .entry(score.class.clone())
            .or_default()
            .add(&score);
        report.overall.add(&score);
        let half = report.by_half.entry(score.half).or_default();
        half.entry(score.class.clone()).or_default().add(&score);
        half.entry("overall".into()).or_default().add(&score);
        report.cases.push(score);
    }
    Ok(report)
}

fn score_case(
    pipeline: &Pipeline,
    dir: &Path,
    half: Half,
    options: &ScoreOptions,
) -> Result<CaseScore> {
    let id = dir
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let meta: CaseMeta = serde_json::from_slice(&std::fs::read(dir.join("meta.json"))?)
        .with_context(|| format!("{id}: meta.json"))?;
    let class: ContentClass = meta
        .class
        .parse()
        .with_context(|| format!("{id}: meta.json"))?;
    let input = String::from_utf8_lossy(&std::fs::read(dir.join("input.txt"))?).into_owned();
    let source_path = meta
        .command
        .clone()
        .filter(|_| meta.tool.as_deref() == Some("Read"));
    // A saved file says nothing but its weak `.txt` path, to the classifier
    // and to the compressor alike: `ghost compress saved/input.txt`.
    let hints = if options.as_saved_file {
        ClassifyRequest {
            text: input.clone(),
            tool_name: None,
            source_path: Some(SAVED_FILE.to_string()),
            command: None,
        }
    } else {
        ClassifyRequest {
            text: input.clone(),
            tool_name: meta.tool.clone(),
            source_path,
            command: meta
                .command
                .clone()
                .filter(|_| meta.tool.as_deref() == Some("Bash")),
        }
    };
    let classified = pipeline.classify(&hints);
    let request = CompressRequest {
        text: input,
        class: if options.classified {
            classified.classification.class
        } else {
            class
        },
        tool_name: hints.tool_name.clone(),
        // As a hook does: `cat a.py` printed a.py.
        source_path: hints.file_hint().map(str::to_owned),
        target_tokens: options.target_tokens,
    };
    let (result, external);
    let (out, compressor, applied, elapsed_ms) = match options.outputs.as_deref() {
        None => {
            result = pipeline.compress(&request);
            let o = &result.outcome;
            (
                &o.text,
                result.compressor,
                o.applied,
                o.elapsed.as_secs_f64() * 1000.0,
            )
        }
        Some(outputs) => {
            let path = outputs.join(format!("{id}.txt"));
            external = std::fs::read(&path)
                .ok()
                .map(|b| String::from_utf8_lossy(&b).into_owned());
            match &external {
                Some(text) => (text, Some(outputs.display().to_string()), true, 0.0),
                None => (&request.text, None, false, 0.0),
            }
        }
    };
    let lost: Vec<String> = lost(&meta.must_keep, out).into_iter().cloned().collect();
    let source = source_of(&id).to_string();
    Ok(CaseScore {
        half,
        source,
        id,
        class: meta.class,
        classified_as: classified.classification.class.to_string(),
        compressor,
        applied,
        bytes_in: request.text.len(),
        bytes_out: out.len(),
        tokens_in: ghost_core::tokens::count(&request.text),
        tokens_out: ghost_core::tokens::count(out),
        compress_ms: elapsed_ms,
        kept: meta.must_keep.len() - lost.len(),
        must_keep: meta.must_keep.len(),
        lost: lost.into_iter().take(5).collect(),
    })
}

/// The report as tables for people: the tuning half, the evaluation half,
/// then every case.
pub fn render_table(report: &CorpusReport) -> String {
    let mut s = String::new();
    for (half, totals) in &report.by_half {
        let sources: std::collections::BTreeSet<&str> = report
            .cases
            .iter()
            .filter(|c| c.half == *half)
            .map(|c| c.source.as_str())
            .collect();
        s.push_str(&format!("{half:?} half ({} sources)\n", sources.len()).to_lowercase());
        if *half == Half::Tuning && !report.moved_to_tuning.is_empty() {
            s.push_str(&format!(
                "({} moved from evaluation for the tuning half to hold {}% of the cases: {})\n",
                report.moved_to_tuning.len(),
                crate::halves::MIN_TUNING_PERCENT,
                report.moved_to_tuning.join(", ")
            ));
        }
        let (overall, classes): (Vec<_>, Vec<_>) =
            totals.iter().partition(|(name, _)| *name == "overall");
        s.push_str(&table(classes.into_iter().chain(overall)));
        s.push('\n');
    }
    s.push_str("all cases\n");
    s.push_str(&table(
        report
            .by_class
            .iter()
            .chain([(&"overall".to_string(), &report.overall)]),
    ));
    s
}

fn table<'a>(rows: impl Iterator<Item = (&'a String, &'a ClassTotals)>) -> String {
    let mut s = format!(
        "{:<12} {:>5} {:>11} {:>12} {:>11} {:>7} {:>10} {:>12} {:>10}\n",
        "class",
        "cases",
        "classified",
        "tokens in",
        "tokens out",
        "ratio",
        "ms/MB",
        "must-keep",
        "bytes out"
    );
    let mut row = |name: &str, t: &ClassTotals| {
        s.push_str(&format!(
            "{:<12} {:>5} {:>11} {:>12} {:>11} {:>7.3} {:>10.1} {:>12} {:>10}\n",
            name,
            t.cases,
            format!("{}/{}", t.classified_right, t.cases),
            t.tokens_in,
            t.tokens_out,
            t.token_ratio(),
            t.ms_per_mb(),
            format!("{}/{}", t.kept, t.must_keep),
            t.bytes_out
        ));
    };
    for (class, t) in rows {
        row(class, t);
    }
    s
}
