//! Atomic file writes and the registry's write lock.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::RegistryError;

/// Writes `bytes` to `path` atomically: a temporary file beside it, synced,
/// then renamed over it. Readers see the old file or the new one, never half.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RegistryError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(RegistryError::io("creating", dir))?;
    let tmp = temp_path(
        dir,
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
    );
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(RegistryError::io("writing", path))
}

/// A fresh temporary path in `dir` (dot-prefixed: listings skip it).
pub(crate) fn temp_path(dir: &Path, stem: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    dir.join(format!(".{stem}.{}.{n}.{nanos}.tmp", std::process::id()))
}

/// The registry's exclusive write lock, released when dropped.
pub(crate) struct WriteLock {
    _file: File,
}

impl WriteLock {
    /// Blocks until this process holds the lock at `path`.
    pub(crate) fn acquire(path: &Path) -> Result<Self, RegistryError> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(RegistryError::io("opening the lock", path))?;
        file.lock()
            .map_err(RegistryError::io("taking the lock", path))?;
        Ok(Self { _file: file })
    }
}
