//! ghost's own log: one line per event, appended to a file under ghost's data
//! directory, and mirrored to stderr when asked (`-v`). The library crates
//! log through the `log` facade; this is the logger the binary installs.
//!
//! Every line is redacted first (`ghost-redact`, the same key and rules as
//! the store's): a secret in an error message never lands in the log.
//!
//! Only ghost's own crates' lines are kept (targets `ghost…`): wasmtime,
//! SQLite and the rest log through the same facade and are not ghost's
//! business to record. Logging must never fail an operation: a line that
//! cannot be written is skipped silently. Nothing here ever writes to stdout,
//! which belongs to the command's output (and to the hook protocol).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use ghost_redact::{Key, RedactRules, Redactor};
use log::{Level, LevelFilter, Log, Metadata, Record};

/// The logger: a file (when it could be opened) and the stderr mirror.
struct GhostLog {
    file: Option<Mutex<File>>,
    mirror_to_stderr: bool,
    redactor: Redactor,
}

/// Sends ghost's log lines to `path` (created 0600 if missing, in a 0700
/// directory; `None` for no file) and, when `mirror_to_stderr`, to stderr
/// too, each redacted by `rules` (keyed like the store in that directory).
/// Only the first call takes effect.
pub fn init(path: Option<&Path>, mirror_to_stderr: bool, rules: &RedactRules) {
    let dir = path.and_then(Path::parent);
    let file = path.and_then(|p| {
        if let Some(dir) = dir {
            ghost_redact::key::create_private_dir(dir).ok()?;
        }
        let mut options = OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        options.open(p).ok()
    });
    let redactor = dir
        .and_then(|d| Redactor::in_dir(d, rules).ok())
        .or_else(|| Redactor::with_rules(Key::random(), rules).ok())
        .unwrap_or_else(|| Redactor::new(Key::random()));
    let logger = GhostLog {
        file: file.map(Mutex::new),
        mirror_to_stderr,
        redactor,
    };
    if log::set_logger(Box::leak(Box::new(logger))).is_ok() {
        log::set_max_level(LevelFilter::Info);
    }
}

impl Log for GhostLog {
    fn enabled(&self, metadata: &Metadata) -> bool {
        metadata.level() <= Level::Info && metadata.target().starts_with("ghost")
    }

    fn log(&self, record: &Record) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let level = match record.level() {
            Level::Error | Level::Warn => "warn",
            _ => "info",
        };
        let message = record.args().to_string();
        let message = self.redactor.redact(&message);
        if let Some(file) = &self.file
            && let Ok(mut file) = file.lock()
        {
            let secs = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs_f64())
                .unwrap_or(0.0);
            let line = format!("{secs:.3} {level} pid={} {message}\n", std::process::id());
            let _ = file.write_all(line.as_bytes());
        }
        if self.mirror_to_stderr {
            eprintln!("ghost: {level}: {message}");
        }
    }

    fn flush(&self) {
        if let Some(file) = &self.file
            && let Ok(mut file) = file.lock()
        {
            let _ = file.flush();
        }
    }
}
