//! The state of one plugin call: a WASI context that grants nothing, captured
//! stdout/stderr, the bounded log behind each WIT version's `log` import, and
//! the resource limiter.
//!
//! Built fresh for every call from an empty builder. It must never inherit
//! anything from the host process: no directories, environment, arguments,
//! stdin or network.

use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

use crate::limits::{CallLimiter, PluginLimits};
use crate::output::CappedOutput;

/// Everything a plugin's store holds during one call.
pub struct PluginState {
    wasi: WasiCtx,
    table: ResourceTable,
    stdout: CappedOutput,
    stderr: CappedOutput,
    /// Caps memory, tables and instances; records which cap was hit.
    pub limiter: CallLimiter,
    log: BoundedLog,
}

impl PluginState {
    /// Fresh state for one call under `limits`.
    pub fn new(limits: &PluginLimits) -> Self {
        let stdout = CappedOutput::new(limits.captured_output_bytes);
        let stderr = CappedOutput::new(limits.captured_output_bytes);
        let wasi = WasiCtxBuilder::new()
            .stdout(stdout.clone())
            .stderr(stderr.clone())
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .build();
        Self {
            wasi,
            table: ResourceTable::new(),
            stdout,
            stderr,
            limiter: CallLimiter::new(limits),
            log: BoundedLog::new(limits.log_messages, limits.log_message_bytes),
        }
    }

    /// The plugin's log lines for this call: `log` messages first, then what it
    /// wrote to stdout and stderr, each bounded.
    pub fn take_log_lines(&mut self) -> Vec<String> {
        let mut lines = std::mem::take(&mut self.log.lines);
        if self.log.dropped > 0 {
            lines.push(format!("({} more log messages dropped)", self.log.dropped));
        }
        for (stream, pipe) in [("stdout", &self.stdout), ("stderr", &self.stderr)] {
            let bytes = pipe.contents();
            let text = String::from_utf8_lossy(&bytes);
            lines.extend(
                text.lines()
                    .filter(|l| !l.trim().is_empty())
                    .take(self.log.max_lines)
                    .map(|l| format!("{stream}: {}", cut(l, self.log.max_bytes))),
            );
            if pipe.dropped() > 0 {
                lines.push(format!("{stream}: ({} more bytes cut)", pipe.dropped()));
            }
        }
        lines
    }
}

impl WasiView for PluginState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// The level of a plugin's log message, whatever WIT version it speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogLevel {
    /// Detail for the plugin's author.
    Debug,
    /// What the plugin did.
    Info,
    /// Something the plugin worked around.
    Warn,
    /// Something the plugin could not do.
    Error,
}

impl LogLevel {
    /// The level's name in a log line.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Warn => "warn",
            LogLevel::Error => "error",
        }
    }
}

impl PluginState {
    /// Keeps one message of the plugin's `log` import, within the bounds.
    pub fn push_log(&mut self, level: LogLevel, message: &str) {
        self.log.push(level.as_str(), message);
    }
}

/// At most `max_lines` messages of at most `max_bytes` each; the rest counted.
struct BoundedLog {
    lines: Vec<String>,
    dropped: usize,
    max_lines: usize,
    max_bytes: usize,
}

impl BoundedLog {
    fn new(max_lines: usize, max_bytes: usize) -> Self {
        Self {
            lines: Vec::new(),
            dropped: 0,
            max_lines,
            max_bytes,
        }
    }

    fn push(&mut self, level: &str, message: &str) {
        if self.lines.len() >= self.max_lines {
            self.dropped += 1;
            return;
        }
        self.lines
            .push(format!("{level}: {}", cut(message, self.max_bytes)));
    }
}

/// `s` cut to at most `max` bytes on a character boundary, marked when cut.
fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}
