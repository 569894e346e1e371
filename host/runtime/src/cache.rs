//! Compiled components on disk, so a cold `ghost` process never runs the
//! compiler on the hot path.
//!
//! An entry is keyed by the engine's compatibility key and the blake3 digest
//! of the component's bytes, and carries a blake3 checksum of the compiled
//! artifact. An entry that is unreadable, fails its checksum or is refused by
//! wasmtime is rebuilt, never trusted. Only files this module wrote itself are
//! ever deserialized, from a directory under ghost's own data.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use wasmtime::Engine;
use wasmtime::component::Component;

/// The first bytes of every cache entry.
const MAGIC: &[u8; 8] = b"GHSTCW01";
/// Magic plus the artifact's 32-byte checksum.
const HEADER_LEN: usize = MAGIC.len() + 32;

/// How a component was obtained, for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheStatus {
    /// Loaded from a valid cache entry: no compilation.
    Hit,
    /// Not in the cache: compiled and stored.
    Miss,
    /// The entry was corrupt or stale: compiled again and replaced.
    Rebuilt,
    /// The cache could not be used (no directory): compiled in memory.
    Uncached,
}

/// A directory of precompiled components for one engine.
#[derive(Debug, Clone)]
pub struct ArtifactCache {
    dir: Option<PathBuf>,
    engine_key: String,
}

impl ArtifactCache {
    /// A cache in `dir` (created on first write) for code compiled by an
    /// engine with `engine_key`. `None` compiles in memory every time.
    pub fn new(dir: Option<PathBuf>, engine_key: String) -> Self {
        Self { dir, engine_key }
    }

    /// Where the entry for `digest` lives.
    pub fn entry_path(&self, digest: &blake3::Hash) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{}-{}.cwasm", self.engine_key, digest.to_hex())))
    }

    /// The compiled component for `bytes`: from the cache when a valid entry
    /// exists, else compiled now and stored for next time.
    pub fn load_or_compile(
        &self,
        engine: &Engine,
        bytes: &[u8],
        digest: &blake3::Hash,
    ) -> Result<(Component, CacheStatus)> {
        let Some(path) = self.entry_path(digest) else {
            return Ok((compile(engine, bytes)?, CacheStatus::Uncached));
        };
        let status = match read_entry(engine, &path) {
            Ok(Some(component)) => return Ok((component, CacheStatus::Hit)),
            Ok(None) => CacheStatus::Miss,
            Err(why) => {
                log::warn!(
                    "cache entry {} is unusable ({why:#}); rebuilding it",
                    path.display()
                );
                CacheStatus::Rebuilt
            }
        };
        let artifact = engine
            .precompile_component(bytes)
            .map_err(anyhow::Error::from)
            .context("compiling the component")?;
        if let Err(why) = write_entry(&path, &artifact) {
            log::warn!("could not write cache entry {}: {why:#}", path.display());
        }
        // SAFETY: `artifact` was produced just now by `engine` itself.
        let component = unsafe { Component::deserialize(engine, &artifact) }
            .map_err(anyhow::Error::from)
            .context("loading the component just compiled")?;
        Ok((component, status))
    }
}

/// Compiles without touching the disk.
fn compile(engine: &Engine, bytes: &[u8]) -> Result<Component> {
    Component::new(engine, bytes)
        .map_err(anyhow::Error::from)
        .context("compiling the component")
}

/// `Ok(None)` when there is no entry; `Err` when there is one but it is
/// corrupt (bad header or checksum) or stale (wasmtime refuses it).
fn read_entry(engine: &Engine, path: &Path) -> Result<Option<Component>> {
    let data = match fs::read(path) {
        Ok(d) => d,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).context("reading it"),
    };
    anyhow::ensure!(
        data.len() > HEADER_LEN && data.starts_with(MAGIC),
        "bad header"
    );
    let (header, artifact) = data.split_at(HEADER_LEN);
    let stored: [u8; 32] = header[MAGIC.len()..].try_into().expect("32-byte checksum");
    anyhow::ensure!(
        blake3::hash(artifact) == blake3::Hash::from_bytes(stored),
        "checksum mismatch"
    );
    // SAFETY: the entry is in ghost's own cache directory, was written by
    // `write_entry` from `Engine::precompile_component`, and its checksum
    // matches; wasmtime additionally checks it was built by a compatible engine.
    let component = unsafe { Component::deserialize(engine, artifact) }
        .map_err(anyhow::Error::from)
        .context("wasmtime refused it")?;
    Ok(Some(component))
}

/// Writes an entry atomically: a temporary file in the same directory, then a
/// rename, so a reader never sees half an entry.
fn write_entry(path: &Path, artifact: &[u8]) -> Result<()> {
    let dir = path.parent().context("cache entry has no directory")?;
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("entry"),
        std::process::id()
    ));
    let mut file = fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    file.write_all(MAGIC)?;
    file.write_all(blake3::hash(artifact).as_bytes())?;
    file.write_all(artifact)?;
    file.sync_all().ok();
    drop(file);
    fs::rename(&tmp, path).with_context(|| format!("renaming into {}", path.display()))?;
    Ok(())
}
