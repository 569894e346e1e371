//! What a hook costs the agent: whole processes, as Claude Code runs them.
//! `ghost hook pre-tool-use` with nothing to say (a real PreToolUse payload,
//! a transcript whose last reply used a quarter of the window) against a
//! Node.js hook that reads its stdin and exits, run alternately in the same
//! loop so both see the same machine; medians and their ratio.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::Serialize;

/// The Node.js no-op hook: read the payload, exit 0.
pub const NODE_NOOP: &str =
    "process.stdin.resume(); process.stdin.on('end', () => process.exit(0));";

/// The figures of one run.
#[derive(Debug, Clone, Serialize)]
pub struct HookCost {
    /// Runs of each.
    pub runs: usize,
    /// Median wall time of `ghost hook pre-tool-use`, ms.
    pub ghost_ms: f64,
    /// Median wall time of the Node.js no-op hook, ms.
    pub node_ms: f64,
    /// `ghost_ms / node_ms`.
    pub ratio: f64,
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Runs `program args` with `stdin`, returns the wall time in ms.
fn time(program: &Path, args: &[&str], env: &[(&str, &Path)], stdin: &[u8]) -> Result<f64> {
    let started = Instant::now();
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .spawn()
        .with_context(|| format!("running {}", program.display()))?;
    child.stdin.take().expect("piped").write_all(stdin)?;
    let status = child.wait()?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if !status.success() {
        bail!("{} exited with {status}", program.display());
    }
    Ok(ms)
}

/// Measures `runs` of each, alternating, with `ghost` the binary and
/// `payload` a PreToolUse payload (its transcript_path is replaced).
pub fn run(ghost: &Path, payload: &Path, runs: usize) -> Result<HookCost> {
    let scratch = tempfile::tempdir()?;
    let transcript = scratch.path().join("session.jsonl");
    // A transcript tail as a real one looks: progress lines, then a reply
    // at 25% of the window.
    let filler = serde_json::json!({"type": "progress", "data": "x".repeat(2_000)}).to_string();
    let reply = serde_json::json!({"type": "assistant", "isSidechain": false,
        "timestamp": "2026-11-23T10:00:00.000Z",
        "message": {"model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "ok"}],
            "usage": {"input_tokens": 10, "cache_read_input_tokens": 50_000,
                "cache_creation_input_tokens": 0}}})
    .to_string();
    let mut text = format!("{filler}\n").repeat(200);
    text.push_str(&reply);
    text.push('\n');
    std::fs::write(&transcript, text)?;
    let mut p: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(payload)
            .with_context(|| format!("reading {}", payload.display()))?,
    )?;
    p["transcript_path"] = serde_json::json!(transcript.display().to_string());
    let stdin = p.to_string().into_bytes();
    let node = Path::new("node");
    let home = scratch.path().join("ghost");
    let (mut g, mut n) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        g.push(time(
            ghost,
            &["hook", "pre-tool-use"],
            &[("GHOST_HOME", &home)],
            &stdin,
        )?);
        n.push(
            time(node, &["-e", NODE_NOOP], &[], &stdin)
                .context("node is needed for the comparison")?,
        );
    }
    let (ghost_ms, node_ms) = (median(g), median(n));
    Ok(HookCost {
        runs: runs.max(1),
        ghost_ms,
        node_ms,
        ratio: ghost_ms / node_ms,
    })
}

/// The figures as a line for people.
pub fn render(c: &HookCost) -> String {
    format!(
        "PreToolUse with nothing to say, whole process, median of {}: ghost {:.2} ms, \
         Node.js no-op hook {:.2} ms, ratio {:.3}\n",
        c.runs, c.ghost_ms, c.node_ms, c.ratio
    )
}
