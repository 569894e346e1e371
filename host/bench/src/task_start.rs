//! What starting a task costs (`ghost-bench tasks`): a hello world in each
//! built-in runtime as a whole `ghost task run` process, beside `node -e`
//! and `python3 -c`, interleaved in one run; and per `run_task` call of a
//! real `ghost serve` over stdio, the compiled runtime already in memory.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::{Value, json};

/// One way of printing "hi", and what it cost.
#[derive(Debug, Clone, Serialize)]
pub struct StartCost {
    /// What ran.
    pub what: String,
    /// Median wall time, ms.
    pub median_ms: f64,
    /// 90th percentile, ms.
    pub p90_ms: f64,
    /// The first run (compiling or loading the runtime), ms.
    pub first_ms: f64,
}

/// Every measurement of one run.
#[derive(Debug, Clone, Serialize)]
pub struct TaskStartReport {
    /// Runs of each.
    pub runs: usize,
    /// Whole processes: `ghost task run --js/--py`, `node -e`, `python3 -c`
    /// (those not installed are left out).
    pub processes: Vec<StartCost>,
    /// Per `run_task` call of one `ghost serve`.
    pub mcp_calls: Vec<StartCost>,
}

fn percentile(xs: &[f64], p: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn cost(what: &str, first: f64, times: &[f64]) -> StartCost {
    StartCost {
        what: what.to_string(),
        median_ms: percentile(times, 0.5),
        p90_ms: percentile(times, 0.9),
        first_ms: first,
    }
}

/// Runs `program args` with `stdin`; its wall time in ms, or why it failed.
fn time_process(program: &Path, args: &[&str], home: &Path, stdin: &[u8]) -> Result<f64> {
    let started = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .env("GHOST_HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", program.display()))?;
    child
        .stdin
        .take()
        .context("no stdin")?
        .write_all(stdin)
        .ok();
    let out = child.wait_with_output()?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if !out.status.success() || String::from_utf8_lossy(&out.stdout).trim() != "hi" {
        bail!(
            "{} {args:?} did not print hi ({})",
            program.display(),
            out.status
        );
    }
    Ok(ms)
}

/// Measures `runs` hello worlds of each kind with `ghost`, in `scratch`;
/// with `component`, also that component run as `COMPONENT cat` on "hi"
/// (a command that copies stdin, such as the tests' probe task).
pub fn run(
    ghost: &Path,
    runs: usize,
    scratch: &Path,
    component: Option<&Path>,
) -> Result<TaskStartReport> {
    let home = scratch.join("ghost");
    let runs = runs.max(2);
    let component = component.map(|c| c.to_string_lossy().into_owned());
    type Way<'a> = (&'a str, std::path::PathBuf, Vec<&'a str>, &'a [u8]);
    let mut ways: Vec<Way<'_>> = vec![
        (
            "ghost task run --js (boa)",
            ghost.to_path_buf(),
            vec!["task", "run", "--js", "-"],
            b"print('hi')",
        ),
        (
            "ghost task run --py (RustPython)",
            ghost.to_path_buf(),
            vec!["task", "run", "--py", "-"],
            b"print('hi')",
        ),
        (
            "node -e",
            "node".into(),
            vec!["-e", "console.log('hi')"],
            b"",
        ),
        ("python3 -c", real_python(), vec!["-c", "print('hi')"], b""),
    ];
    if let Some(c) = &component {
        ways.insert(
            0,
            (
                "ghost task run -- COMPONENT cat",
                ghost.to_path_buf(),
                vec!["task", "run", "--stdin", "/dev/stdin", "--", c, "cat"],
                b"hi",
            ),
        );
    }
    // Tools not installed are left out; ghost itself must work.
    let mut firsts = Vec::new();
    ways.retain(
        |(what, program, args, stdin)| match time_process(program, args, &home, stdin) {
            Ok(ms) => {
                firsts.push(ms);
                true
            }
            Err(e) => {
                eprintln!("left out {what}: {e:#}");
                false
            }
        },
    );
    if ways.len() < 2 {
        bail!(
            "ghost task run did not print hi: is {} built?",
            ghost.display()
        );
    }
    let mut times = vec![Vec::new(); ways.len()];
    for _ in 0..runs {
        for (i, (_, program, args, stdin)) in ways.iter().enumerate() {
            times[i].push(time_process(program, args, &home, stdin)?);
        }
    }
    let processes = ways
        .iter()
        .zip(&times)
        .zip(&firsts)
        .map(|(((what, ..), t), first)| cost(what, *first, t))
        .collect();

    let mut server = McpServer::start(ghost, &home, scratch)?;
    let mut mcp_calls = Vec::new();
    for (lang, code) in [("js", "print('hi')"), ("py", "print('hi')")] {
        let first = server.run_task(lang, code)?;
        let mut t = Vec::with_capacity(runs);
        for _ in 0..runs {
            t.push(server.run_task(lang, code)?);
        }
        mcp_calls.push(cost(&format!("MCP run_task lang={lang}"), first, &t));
    }
    Ok(TaskStartReport {
        runs,
        processes,
        mcp_calls,
    })
}

/// The Python interpreter itself, not a version manager's shim in front of
/// it (pyenv's adds tens of milliseconds).
fn real_python() -> std::path::PathBuf {
    Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|p| !p.is_empty())
        .map_or_else(|| "python3".into(), Into::into)
}

/// A `ghost serve` spoken to over stdio, newline-delimited JSON-RPC.
struct McpServer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl McpServer {
    fn start(ghost: &Path, home: &Path, project: &Path) -> Result<Self> {
        let mut child = Command::new(ghost)
            .arg("serve")
            .env("GHOST_HOME", home)
            .current_dir(project)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("starting ghost serve")?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("no stdout")?);
        let mut server = Self {
            child,
            stdin,
            stdout,
            next_id: 0,
        };
        server.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "ghost-bench", "version": "0"}}),
        )?;
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(server)
    }

    fn send(&mut self, message: &Value) -> Result<()> {
        writeln!(self.stdin, "{message}")?;
        self.stdin.flush()?;
        Ok(())
    }

    fn request(&mut self, method: &str, params: Value) -> Result<Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("ghost serve ended during {method}");
            }
            let Ok(answer) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if answer["id"] == json!(id) {
                if let Some(e) = answer.get("error") {
                    bail!("{method}: {e}");
                }
                return Ok(answer["result"].clone());
            }
        }
    }

    /// One `run_task` call; its wall time in ms.
    fn run_task(&mut self, lang: &str, code: &str) -> Result<f64> {
        let started = Instant::now();
        let result = self.request(
            "tools/call",
            json!({"name": "run_task", "arguments": {"lang": lang, "code": code}}),
        )?;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let out = &result["structuredContent"];
        if out["exit_code"] != json!(0) || out["output"].as_str().map(str::trim) != Some("hi") {
            bail!("run_task {lang} did not print hi: {result}");
        }
        Ok(ms)
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The report for people.
pub fn render(r: &TaskStartReport) -> String {
    let mut out = format!(
        "hello world, median of {} runs (p90, first run), ms:\n",
        r.runs
    );
    for c in r.processes.iter().chain(&r.mcp_calls) {
        out.push_str(&format!(
            "  {:<36} {:>8.1}  (p90 {:.1}, first {:.1})\n",
            c.what, c.median_ms, c.p90_ms, c.first_ms
        ));
    }
    out
}
