//! ghost's own log: one line per event, appended to a file under ghost's data
//! directory, and mirrored to stderr when asked (`-v`).
//!
//! Logging must never fail an operation: a log that cannot be written is
//! skipped silently. Nothing here ever writes to stdout, which belongs to the
//! command's output (and to the hook protocol).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

struct Sink {
    file: Option<File>,
    mirror_to_stderr: bool,
}

static SINK: OnceLock<Mutex<Sink>> = OnceLock::new();

/// Sends log lines to `path` (created if missing; `None` for no file) and,
/// when `mirror_to_stderr`, to stderr too. Only the first call takes effect.
pub fn init(path: Option<&Path>, mirror_to_stderr: bool) {
    let file = path.and_then(|p| {
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir).ok()?;
        }
        OpenOptions::new().create(true).append(true).open(p).ok()
    });
    let _ = SINK.set(Mutex::new(Sink {
        file,
        mirror_to_stderr,
    }));
}

/// Logs an informational line.
pub fn info(message: &str) {
    write("info", message);
}

/// Logs a warning: something failed and ghost fell back to a safe path.
pub fn warn(message: &str) {
    write("warn", message);
}

fn write(level: &str, message: &str) {
    let Some(sink) = SINK.get() else { return };
    let Ok(mut sink) = sink.lock() else { return };
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0);
    let line = format!("{secs:.3} {level} pid={} {message}\n", std::process::id());
    if let Some(file) = sink.file.as_mut() {
        let _ = file.write_all(line.as_bytes());
    }
    if sink.mirror_to_stderr {
        eprintln!("ghost: {level}: {message}");
    }
}
