//! Compiled components on disk, so a cold `ghost` process never runs the
//! compiler on the hot path.
//!
//! An entry is keyed by the engine's compatibility key and the blake3 digest
//! of the component's bytes, and carries a binding hash of the engine key,
//! the component's digest and the compiled artifact together: an entry
//! copied over another's file (even a valid artifact of another component)
//! fails it. An entry that is unreadable, fails its hash or is refused by
//! wasmtime is rebuilt, never trusted. Only files this module wrote itself are
//! ever deserialized, from a directory under ghost's own cache (0700; entries
//! read-only, 0400).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use wasmtime::Engine;
use wasmtime::component::Component;

/// The first bytes of every cache entry.
const MAGIC: &[u8; 8] = b"GHSTCW02";
/// Magic plus the 32-byte binding hash.
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

    /// The cache in `dir` for the process's shared engine.
    pub fn for_process(dir: &Path) -> Result<Self> {
        let engine = crate::engine::shared_engine()?;
        Ok(Self::new(
            Some(dir.to_path_buf()),
            crate::engine::compatibility_key(engine),
        ))
    }

    /// Where the entry for `digest` lives.
    pub fn entry_path(&self, digest: &blake3::Hash) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{}-{}.cwasm", self.engine_key, digest.to_hex())))
    }

    /// Checks the entry for `digest` without loading it: `Ok(false)` when
    /// there is none, `Ok(true)` when it is bound to this component and
    /// engine, `Err` (why) when it is corrupt, swapped or not read-only.
    pub fn verify_entry(&self, digest: &blake3::Hash) -> Result<bool> {
        let Some(path) = self.entry_path(digest) else {
            return Ok(false);
        };
        let data = match fs::read(&path) {
            Ok(d) => d,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        check_binding(&data, &self.engine_key, digest)
            .with_context(|| format!("cache entry {}", path.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path)?.permissions().mode();
            anyhow::ensure!(
                mode & 0o222 == 0,
                "cache entry {} is writable (mode {:o}); ghost writes them read-only",
                path.display(),
                mode & 0o777
            );
        }
        Ok(true)
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
        let status = match read_entry(engine, &path, &self.engine_key, digest) {
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
        // Processes started together (a turn's parallel tool calls each run
        // a hook) compile a component once: the others wait for it here and
        // then load what it wrote.
        let lock = CompileLock::acquire(&path);
        if lock.is_some()
            && let Ok(Some(component)) = read_entry(engine, &path, &self.engine_key, digest)
        {
            return Ok((component, CacheStatus::Hit));
        }
        let artifact = engine
            .precompile_component(bytes)
            .map_err(anyhow::Error::from)
            .context("compiling the component")?;
        if let Err(why) = write_entry(
            &path,
            &artifact,
            &binding(&self.engine_key, digest, &artifact),
        ) {
            log::warn!("could not write cache entry {}: {why:#}", path.display());
        }
        // SAFETY: `artifact` was produced just now by `engine` itself.
        let component = unsafe { Component::deserialize(engine, &artifact) }
            .map_err(anyhow::Error::from)
            .context("loading the component just compiled")?;
        Ok((component, status))
    }
}

/// An exclusive lock on the file beside a cache entry, held while the
/// entry is compiled and written; released when dropped.
struct CompileLock(fs::File);

impl CompileLock {
    /// Waits for the lock of the entry at `entry`, making the cache
    /// directory if needed. `None` when the lock cannot be had: the caller
    /// then just compiles.
    fn acquire(entry: &Path) -> Option<Self> {
        let path = lock_path(entry)?;
        make_private_dir(path.parent()?).ok()?;
        let mut options = fs::OpenOptions::new();
        options.create(true).truncate(false).write(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(&path).ok()?;
        file.lock().ok()?;
        Some(Self(file))
    }
}

impl Drop for CompileLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// The lock file of the entry at `entry`: `.NAME.lock` beside it.
fn lock_path(entry: &Path) -> Option<PathBuf> {
    let name = entry.file_name()?.to_str()?;
    Some(entry.with_file_name(format!(".{name}.lock")))
}

/// What [`prune`] deleted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pruned {
    /// Files deleted.
    pub entries: usize,
    /// Their bytes.
    pub bytes: u64,
}

/// How old a temporary file must be to count as left by an interrupted
/// write (a younger one may be a write in progress in another process).
const STALE_TMP: std::time::Duration = std::time::Duration::from_secs(3600);

/// Deletes from `dir` the entries this process's engine will not load: an
/// entry of another engine (an older ghost or wasmtime) and one of a
/// component whose digest (hex) is not in `keep` (a built-in of an older build, a
/// removed plugin), with temporary files of writes interrupted and lock
/// files left over an hour ago. Every upgrade leaves a set of entries behind, a few MB each;
/// nothing else does away with them. Files ghost did not name are left
/// alone. A deleted entry a process still needs is compiled again.
pub fn prune(dir: &Path, keep: &[String]) -> Result<Pruned> {
    let cache = ArtifactCache::for_process(dir)?;
    let wanted: Vec<std::ffi::OsString> = keep
        .iter()
        .filter_map(|hex| blake3::Hash::from_hex(hex).ok())
        .filter_map(|d| cache.entry_path(&d)?.file_name().map(Into::into))
        .collect();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Pruned::default()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
    };
    let mut pruned = Pruned::default();
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        let name = entry.file_name();
        let text = name.to_string_lossy();
        let meta = entry.metadata()?;
        let unwanted_entry = text.ends_with(".cwasm") && !wanted.contains(&name);
        let stale_tmp = text.starts_with('.')
            && (text.ends_with(".tmp") || text.ends_with(".lock"))
            && meta.modified()?.elapsed().is_ok_and(|age| age > STALE_TMP);
        if meta.is_file() && (unwanted_entry || stale_tmp) {
            fs::remove_file(entry.path())
                .with_context(|| format!("deleting {}", entry.path().display()))?;
            pruned.entries += 1;
            pruned.bytes += meta.len();
        }
    }
    Ok(pruned)
}

/// The digest (blake3, hex) a component's cache entry is keyed by.
pub fn digest_hex(component: &[u8]) -> String {
    blake3::hash(component).to_hex().to_string()
}

/// Checks the entries in `dir` of the components with these blake3 digests
/// (hex), for the process's engine: `(digest, Ok(present) | Err(why))`.
pub fn verify_entries(dir: &Path, digests: &[String]) -> Result<Vec<(String, Result<bool>)>> {
    let cache = ArtifactCache::for_process(dir)?;
    Ok(digests
        .iter()
        .map(|hex| {
            let checked = blake3::Hash::from_hex(hex)
                .map_err(|e| anyhow::anyhow!("{hex} is not a digest: {e}"))
                .and_then(|digest| cache.verify_entry(&digest));
            (hex.clone(), checked)
        })
        .collect())
}

/// How many of `components` (their bytes) have no entry in `dir` for the
/// process's engine: what a process would compile before its first call.
/// Looks at file names only; [`verify_entries`] checks contents.
pub fn missing_entries(dir: &Path, components: &[&[u8]]) -> Result<usize> {
    let cache = ArtifactCache::for_process(dir)?;
    Ok(components
        .iter()
        .filter_map(|bytes| cache.entry_path(&blake3::hash(bytes)))
        .filter(|path| !path.is_file())
        .count())
}

/// Compiles without touching the disk.
fn compile(engine: &Engine, bytes: &[u8]) -> Result<Component> {
    Component::new(engine, bytes)
        .map_err(anyhow::Error::from)
        .context("compiling the component")
}

/// The hash that ties an artifact to the component it was compiled from
/// (`digest`) and the engine that compiled it (`engine_key`), stored in
/// each entry's header.
pub fn binding(engine_key: &str, digest: &blake3::Hash, artifact: &[u8]) -> blake3::Hash {
    let mut hasher = blake3::Hasher::new_derive_key("ghost compiled component cache entry v2");
    hasher.update(&(engine_key.len() as u64).to_le_bytes());
    hasher.update(engine_key.as_bytes());
    hasher.update(digest.as_bytes());
    hasher.update(artifact);
    hasher.finalize()
}

/// The artifact in an entry's `data`, when its header binds it to `digest`
/// and `engine_key`.
fn check_binding<'d>(data: &'d [u8], engine_key: &str, digest: &blake3::Hash) -> Result<&'d [u8]> {
    anyhow::ensure!(
        data.len() > HEADER_LEN && data.starts_with(MAGIC),
        "bad header (corrupt, or written by an older ghost)"
    );
    let (header, artifact) = data.split_at(HEADER_LEN);
    let stored: [u8; 32] = header[MAGIC.len()..].try_into().expect("32-byte hash");
    anyhow::ensure!(
        binding(engine_key, digest, artifact) == blake3::Hash::from_bytes(stored),
        "it is not the compiled form of this component (corrupt or swapped)"
    );
    Ok(artifact)
}

/// `Ok(None)` when there is no entry; `Err` when there is one but it is
/// corrupt, not bound to this component and engine, or stale (wasmtime
/// refuses it).
fn read_entry(
    engine: &Engine,
    path: &Path,
    engine_key: &str,
    digest: &blake3::Hash,
) -> Result<Option<Component>> {
    let data = match fs::read(path) {
        Ok(d) => d,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).context("reading it"),
    };
    let artifact = check_binding(&data, engine_key, digest)?;
    // SAFETY: the entry is in ghost's own cache directory, was written by
    // `write_entry` from `Engine::precompile_component`, and its binding
    // hash ties it to this component's digest and this engine; wasmtime
    // additionally checks it was built by a compatible engine.
    let component = unsafe { Component::deserialize(engine, artifact) }
        .map_err(anyhow::Error::from)
        .context("wasmtime refused it")?;
    Ok(Some(component))
}

/// Makes `dir` (and its parents) if needed; `dir` itself private (0700).
fn make_private_dir(dir: &Path) -> Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        builder.mode(0o700);
        builder
            .create(dir)
            .with_context(|| format!("creating {}", dir.display()))?;
        // The cache is ghost's own: nobody else may read or add entries.
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
            .with_context(|| format!("making {} private", dir.display()))?;
    }
    #[cfg(not(unix))]
    builder
        .create(dir)
        .with_context(|| format!("creating {}", dir.display()))?;
    Ok(())
}

/// Writes an entry atomically: a temporary read-only file in the same
/// (0700) directory, then a rename, so a reader never sees half an entry.
fn write_entry(path: &Path, artifact: &[u8], binding: &blake3::Hash) -> Result<()> {
    let dir = path.parent().context("cache entry has no directory")?;
    make_private_dir(dir)?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("entry"),
        std::process::id()
    ));
    let _ = fs::remove_file(&tmp);
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o400);
    }
    let mut file = options
        .open(&tmp)
        .with_context(|| format!("creating {}", tmp.display()))?;
    file.write_all(MAGIC)?;
    file.write_all(binding.as_bytes())?;
    file.write_all(artifact)?;
    file.sync_all().ok();
    drop(file);
    fs::rename(&tmp, path).with_context(|| format!("renaming into {}", path.display()))?;
    Ok(())
}
