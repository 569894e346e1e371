//! The key of the markers' hashes: 32 random bytes, hex in a 0600 file
//! (`redaction.key`), created on first use. Processes that create it at once
//! agree on one: each writes its own temporary file and links it into place
//! only if no key is there yet.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::RedactError;

/// The key file's name.
pub const KEY_FILE: &str = "redaction.key";

/// The hashing key. Its bytes never appear in `Debug` output.
#[derive(Clone)]
pub struct Key([u8; 32]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(…)")
    }
}

impl Key {
    /// A key of these bytes (tests, and callers with their own key).
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// A fresh random key.
    pub fn random() -> Self {
        let mut bytes = [0u8; 32];
        let from_os =
            std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
        if from_os.is_err() {
            // No OS randomness (not a Unix): time, process and address.
            let mut hasher = blake3::Hasher::new();
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            hasher.update(&now.to_le_bytes());
            hasher.update(&std::process::id().to_le_bytes());
            hasher.update(&(&bytes as *const _ as usize).to_le_bytes());
            bytes = *hasher.finalize().as_bytes();
        }
        Self(bytes)
    }

    /// The key in `dir`, created (with `dir`, 0700) when there is none.
    pub fn load_or_create(dir: &Path) -> Result<Self, RedactError> {
        let path = dir.join(KEY_FILE);
        let err = |source| RedactError::Key {
            path: path.clone(),
            source,
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => return Self::parse(&text).ok_or_else(|| err(invalid())),
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(err(e)),
            Err(_) => {}
        }
        create_private_dir(dir).map_err(err)?;
        let key = Self::random();
        static ATTEMPT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let attempt = ATTEMPT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let temp = dir.join(format!(".{KEY_FILE}.{}.{attempt}.tmp", std::process::id()));
        let written = write_private(&temp, key.hex().as_bytes())
            .and_then(|()| std::fs::hard_link(&temp, &path));
        let _ = std::fs::remove_file(&temp);
        match written {
            Ok(()) => Ok(key),
            // Another process made one first: that one is the key.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let text = std::fs::read_to_string(&path).map_err(err)?;
                Self::parse(&text).ok_or_else(|| err(invalid()))
            }
            Err(e) => Err(err(e)),
        }
    }

    /// The first 8 hex digits of the keyed hash of `secret`.
    pub fn short_hash(&self, secret: &str) -> String {
        let hash = blake3::keyed_hash(&self.0, secret.as_bytes());
        hash.to_hex()[..8].to_string()
    }

    fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        if text.len() != 64 {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(Self(bytes))
    }
}

fn invalid() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        "not 64 hex digits; delete it and ghost makes a new one (markers made with the old key will no longer match new ones)",
    )
}

/// Creates `dir` (and its parents) readable by its owner only.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Writes `bytes` to a new file at `path` readable by its owner only.
fn write_private(path: &PathBuf, bytes: &[u8]) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_created_once_private_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("ghost");
        let a = Key::load_or_create(&home).unwrap();
        let b = Key::load_or_create(&home).unwrap();
        assert_eq!(a.short_hash("x"), b.short_hash("x"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(home.join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
            let mode = std::fs::metadata(&home).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        assert_eq!(format!("{a:?}"), "Key(…)");
        std::fs::write(home.join(KEY_FILE), "nope").unwrap();
        let err = Key::load_or_create(&home).unwrap_err().to_string();
        assert!(err.contains("delete it"), "{err}");
    }

    #[test]
    fn concurrent_creators_agree_on_one_key() {
        let dir = tempfile::tempdir().unwrap();
        let hashes: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| s.spawn(|| Key::load_or_create(dir.path()).unwrap().short_hash("x")))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(hashes.windows(2).all(|w| w[0] == w[1]), "{hashes:?}");
    }
}
