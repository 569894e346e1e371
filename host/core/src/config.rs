//! ghost's configuration file, `config.toml` (in `GHOST_HOME`, else in
//! `$XDG_CONFIG_HOME/ghost/`). Every key is optional; an unknown key is an
//! error, so a typo never silently does nothing.
//!
//! ```toml
//! store = "/path/to/store.sqlite3"   # where originals are kept
//! min_compress_bytes = 1024          # smaller inputs are stored as they are
//! hook_budget_ms = 1500              # a hook's plugin work, all plugins together
//!
//! [gateway]                          # `ghost gateway` and `ghost run`
//! upstream = "https://api.anthropic.com"
//! step_share = 0.5                   # collect when the context reaches this share…
//! step_gap_share = 0.15              # …and has grown this much since the last step
//! cold_step_share = 0.3              # when the prompt cache has gone cold anyway
//! keep_turns = 4                     # the last turns are never collected
//! reference_min_bytes = 1024         # smaller blocks are left as they are
//!
//! [retention]                        # how long and how much (see `retention`)
//! max_store_mib = 2048               # past this, the least important entries go
//! ttl_days = { log = 14, prompt = 90 } # days per class (0: for ever)
//!
//! [tasks]                            # run_task: beyond the project (read) and a scratch dir
//! allow_env = ["LANG"]               # variables a task may ask for
//! allow_net = ["127.0.0.1:8080"]     # addresses a task may ask to connect to
//!
//! [redact]                           # secrets never stored, logged or shown
//! allow = ["^AKIAIOSFODNN7EXAMPLE$"] # patterns never redacted
//! deny = ["acme-[0-9]{6}"]           # patterns always redacted (kind "custom")
//! off = ["jwt"]                      # built-in rules turned off, by kind
//! ```

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::paths::GhostDirs;

/// Inputs under this many bytes are stored but not compressed.
pub const DEFAULT_MIN_COMPRESS_BYTES: usize = 1024;

/// The whole of one hook call's plugin calls (classify and compress, every
/// plugin tried; compiling a component does not count) must be over in this
/// many milliseconds; then the original passes through. Claude Code waits 60 s for a hook: this is far under it,
/// and far over what compressing takes (tens of milliseconds).
pub const DEFAULT_HOOK_BUDGET_MS: u64 = 1_500;

/// The configuration file's contents.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The store's file.
    pub store: Option<PathBuf>,
    /// Inputs under this many bytes are stored but not compressed.
    pub min_compress_bytes: Option<usize>,
    /// A hook call's overall budget for plugin work, in milliseconds.
    pub hook_budget_ms: Option<u64>,
    /// The gateway's settings.
    #[serde(default)]
    pub gateway: GatewaySettings,
    /// Continuity across compaction: memory files, checkpoints, the flush.
    #[serde(default)]
    pub memory: MemorySettings,
    /// How long entries are kept and how big the store may grow.
    #[serde(default)]
    pub retention: crate::retention::Retention,
    /// What an agent's tasks may be granted beyond the defaults.
    #[serde(default)]
    pub tasks: crate::tasks::TaskSettings,
    /// Secret redaction: the built-in rules adjusted.
    #[serde(default)]
    pub redact: ghost_redact::RedactRules,
}

/// Share of the context window at which the agent is asked, once per
/// compaction cycle, to save what it knows before compaction takes it.
pub const DEFAULT_FLUSH_SHARE: f64 = 0.65;

/// The `[memory]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemorySettings {
    /// Where each project's memory files and checkpoints live (default:
    /// `projects/` beside the store).
    pub dir: Option<PathBuf>,
    /// The flush nudge comes when the context reaches this share (0–1).
    pub flush_share: Option<f64>,
}

/// The `[gateway]` table: where the gateway forwards, and its collection
/// policy (each unset key keeps the gateway's measured default).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GatewaySettings {
    /// The model API's base URL.
    pub upstream: Option<String>,
    /// Collect when the context reaches this share of the window.
    pub step_share: Option<f64>,
    /// …and has grown by this share since the last step.
    pub step_gap_share: Option<f64>,
    /// Collect from this share on when the prompt cache has gone cold.
    pub cold_step_share: Option<f64>,
    /// The last this many assistant turns are never collected.
    pub keep_turns: Option<usize>,
    /// Blocks under this many bytes are left as they are by collection.
    pub reference_min_bytes: Option<usize>,
}

impl Config {
    /// Reads `path`; a missing file is the default configuration.
    pub fn load(path: &Path) -> Result<Self> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        toml::from_str(&text)
            .with_context(|| format!("{} is not a valid ghost config", path.display()))
    }

    /// Reads the configuration file under `dirs`, if any.
    pub fn from_dirs(dirs: Option<&GhostDirs>) -> Result<Self> {
        match dirs {
            Some(d) => Self::load(&d.config_file()),
            None => Ok(Self::default()),
        }
    }

    /// The store's file: `explicit` (a flag or `GHOST_STORE`), else the
    /// configured one, else the default under ghost's data directory.
    pub fn store_path(&self, explicit: Option<&Path>, dirs: Option<&GhostDirs>) -> Result<PathBuf> {
        if let Some(p) = explicit.or(self.store.as_deref()) {
            return Ok(p.to_path_buf());
        }
        dirs.map(GhostDirs::store_file)
            .context("no place for the store: set GHOST_HOME (or HOME), or pass --store PATH")
    }

    /// The redactor the store at `store_path` uses, for callers that
    /// redact without opening the store.
    pub fn redactor(&self, store_path: &Path) -> Result<ghost_redact::Redactor> {
        Ok(ghost_store::Store::redactor_for(store_path, &self.redact)?)
    }

    /// Opens the store at `path` with the configured redaction rules.
    pub fn open_store(&self, path: &Path) -> Result<ghost_store::Store> {
        ghost_store::Store::open_with(path, &self.redact)
            .with_context(|| format!("opening the store {}", path.display()))
    }

    /// The folder of every project's memory files and checkpoints: the
    /// configured one, else `projects/` beside the store at `store_path`.
    pub fn projects_dir(&self, store_path: &Path) -> PathBuf {
        self.memory.dir.clone().unwrap_or_else(|| {
            store_path
                .parent()
                .unwrap_or_else(|| Path::new("."))
                .join("projects")
        })
    }

    /// The share of the context window that brings the flush nudge.
    pub fn flush_share(&self) -> f64 {
        self.memory
            .flush_share
            .filter(|s| (0.0..=1.0).contains(s))
            .unwrap_or(DEFAULT_FLUSH_SHARE)
    }

    /// A hook call's overall budget for plugin work.
    pub fn hook_budget(&self) -> std::time::Duration {
        std::time::Duration::from_millis(
            self.hook_budget_ms.unwrap_or(DEFAULT_HOOK_BUDGET_MS).max(1),
        )
    }

    /// Inputs under this many bytes are not compressed.
    pub fn min_compress_bytes(&self) -> usize {
        self.min_compress_bytes
            .unwrap_or(DEFAULT_MIN_COMPRESS_BYTES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_refused_and_known_ones_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "min_compress_bytes = 10\n[retention]\nttl_days = { log = 2 }\n",
        )
        .unwrap();
        let c = Config::load(&path).unwrap();
        assert_eq!(c.min_compress_bytes(), 10);
        assert_eq!(
            c.retention.ttl_seconds(ghost_types::ContentClass::Log),
            Some(172_800)
        );
        std::fs::write(&path, "[gateway]\nkeep_turns = 6\n").unwrap();
        assert_eq!(Config::load(&path).unwrap().gateway.keep_turns, Some(6));
        std::fs::write(&path, "[gateway]\nkeep_turn = 6\n").unwrap();
        assert!(Config::load(&path).is_err());
        std::fs::write(&path, "min_compress_byte = 10\n").unwrap();
        let err = format!("{:#}", Config::load(&path).unwrap_err());
        assert!(err.contains("min_compress_byte"), "{err}");
        assert!(
            Config::load(&dir.path().join("none.toml"))
                .unwrap()
                .store
                .is_none()
        );
    }
}
