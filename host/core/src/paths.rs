//! Where ghost keeps its files.
//!
//! `GHOST_HOME`, when set, holds everything (store, config, cache, log), which is what
//! tests and CI use. Otherwise ghost follows the XDG base directories.

use std::path::PathBuf;

/// ghost's directories for this process.
#[derive(Debug, Clone)]
pub struct GhostDirs {
    /// Persistent data (the store, installed plugins).
    pub data: PathBuf,
    /// Rebuildable data (compiled components).
    pub cache: PathBuf,
    /// The user's configuration (`config.toml`).
    pub config: PathBuf,
}

impl GhostDirs {
    /// Resolves the directories from the environment. `None` when neither
    /// `GHOST_HOME` nor a home directory is known.
    pub fn from_env() -> Option<Self> {
        if let Some(home) = env_path("GHOST_HOME") {
            return Some(Self {
                data: home.clone(),
                cache: home.join("cache"),
                config: home.clone(),
            });
        }
        let home = env_path("HOME");
        let data =
            env_path("XDG_DATA_HOME").or_else(|| home.as_ref().map(|h| h.join(".local/share")))?;
        let cache =
            env_path("XDG_CACHE_HOME").or_else(|| home.as_ref().map(|h| h.join(".cache")))?;
        let config =
            env_path("XDG_CONFIG_HOME").or_else(|| home.as_ref().map(|h| h.join(".config")))?;
        Some(Self {
            data: data.join("ghost"),
            cache: cache.join("ghost"),
            config: config.join("ghost"),
        })
    }

    /// Where compiled components are cached.
    pub fn component_cache(&self) -> PathBuf {
        self.cache.join("components")
    }

    /// The plugin registry (installed plugins, their blobs, the lock file).
    pub fn plugins(&self) -> PathBuf {
        self.data.join("plugins")
    }

    /// The default store file.
    pub fn store_file(&self) -> PathBuf {
        self.data.join("store.sqlite3")
    }

    /// The configuration file.
    pub fn config_file(&self) -> PathBuf {
        self.config.join("config.toml")
    }

    /// ghost's log file.
    pub fn log_file(&self) -> PathBuf {
        self.data.join("ghost.log")
    }
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}
