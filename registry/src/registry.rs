//! [`Registry`]: the installed plugins under one root directory.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::digest::Digest;
use crate::error::RegistryError;
use crate::fsutil::{WriteLock, temp_path, write_atomic};
use crate::manifest::{
    Limits, MANIFEST_FILE, Manifest, World, valid_id, validate_classes, validate_version,
};
use crate::state::PluginState;
use crate::time::{now_secs, rfc3339};

/// The folder of component bytes, named by digest.
pub const STORE_DIR: &str = "store";
const INSTALLED_DIR: &str = "installed";
const STATE_FILE: &str = "state.toml";
const LOCK_FILE: &str = "ghost-plugins.lock";
const WRITE_LOCK: &str = ".lock";
const GENERATION_FILE: &str = ".generation";

/// The installed plugins under one root directory.
#[derive(Debug, Clone)]
pub struct Registry {
    root: PathBuf,
}

/// What the host's check of a component found (it compiled, its imports are
/// allowed, a smoke call on each class it claims worked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The world it implements.
    pub world: World,
    /// The `ghost:plugin` version it targets.
    pub wit: String,
}

/// What the user asks for when adding a plugin.
#[derive(Debug, Clone)]
pub struct Draft {
    /// Its id.
    pub id: String,
    /// Its version.
    pub version: String,
    /// The classes it will serve (none for a classifier).
    pub classes: Vec<ghost_types::ContentClass>,
    /// Its priority.
    pub priority: i32,
    /// The limits it asks for.
    pub limits: Limits,
    /// Where it comes from (a path), for people.
    pub source: String,
}

/// What adding did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallOutcome {
    /// A new plugin.
    Added(Manifest),
    /// The same bytes were already installed under this id: nothing changed.
    Unchanged(Manifest),
    /// The same bytes were installed under this id but their stored blob
    /// was missing or damaged, or the lock file was behind (an install cut
    /// short): both were written again.
    Repaired(Manifest),
    /// A new version of an installed id; the old blob stays until `gc`.
    Upgraded {
        /// The manifest it replaced.
        from: Box<Manifest>,
        /// The new one.
        to: Box<Manifest>,
    },
}

/// An installed plugin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// Its manifest.
    pub manifest: Manifest,
    /// Its state.
    pub state: PluginState,
}

/// Something `verify` (or a listing) found wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The plugin concerned, if one is.
    pub id: Option<String>,
    /// What is wrong, for people.
    pub what: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.id {
            Some(id) => write!(f, "{id}: {}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

/// A token that changes whenever the registry does (an install, a removal,
/// an enable or disable, an automatic disabling): long-running processes
/// compare it to pick up changes without restarting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Generation(u64);

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LockFile {
    #[serde(default)]
    plugin: Vec<LockEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LockEntry {
    id: String,
    version: String,
    digest: String,
}

impl Registry {
    /// The registry rooted at `root` (created on first write).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// Its root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn installed_dir(&self) -> PathBuf {
        self.root.join(INSTALLED_DIR)
    }

    fn plugin_dir(&self, id: &str) -> PathBuf {
        self.installed_dir().join(id)
    }

    /// Where the bytes of `digest` are kept.
    pub fn blob_path(&self, digest: &Digest) -> PathBuf {
        self.root
            .join(STORE_DIR)
            .join(format!("{}.wasm", digest.to_hex()))
    }

    fn lock(&self) -> Result<WriteLock, RegistryError> {
        fs::create_dir_all(&self.root).map_err(RegistryError::io("creating", &self.root))?;
        WriteLock::acquire(&self.root.join(WRITE_LOCK))
    }

    /// The current generation (see [`Generation`]).
    pub fn generation(&self) -> Generation {
        fs::read_to_string(self.root.join(GENERATION_FILE))
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .map(Generation)
            .unwrap_or_default()
    }

    fn bump_generation(&self) -> Result<(), RegistryError> {
        let next = self.generation().0 + 1;
        write_atomic(
            &self.root.join(GENERATION_FILE),
            next.to_string().as_bytes(),
        )
    }

    /// The installed manifest of `id`.
    pub fn manifest(&self, id: &str) -> Result<Manifest, RegistryError> {
        if !valid_id(id) {
            return Err(RegistryError::NotInstalled(id.to_string()));
        }
        let path = self.plugin_dir(id).join(MANIFEST_FILE);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(RegistryError::NotInstalled(id.to_string()));
            }
            Err(e) => return Err(RegistryError::io("reading", &path)(e)),
        };
        let manifest = Manifest::parse(&text).map_err(|problem| RegistryError::Manifest {
            path: path.clone(),
            problem,
        })?;
        if manifest.id != id {
            return Err(RegistryError::Manifest {
                path,
                problem: crate::ManifestError::invalid(
                    "id",
                    format!("{:?} in the folder of {id:?}", manifest.id),
                ),
            });
        }
        Ok(manifest)
    }

    /// The state of `id` (the default when none was written).
    pub fn state(&self, id: &str) -> Result<PluginState, RegistryError> {
        let path = self.plugin_dir(id).join(STATE_FILE);
        match fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text).map_err(|e| RegistryError::Manifest {
                path,
                problem: crate::ManifestError::Syntax(e.to_string()),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(PluginState::default()),
            Err(e) => Err(RegistryError::io("reading", &path)(e)),
        }
    }

    fn write_state(&self, id: &str, state: &PluginState) -> Result<(), RegistryError> {
        let text = toml::to_string(state).expect("a state always serializes");
        write_atomic(&self.plugin_dir(id).join(STATE_FILE), text.as_bytes())
    }

    /// Every installed plugin whose manifest is sound, in id order, and the
    /// problems of the others.
    pub fn list(&self) -> Result<(Vec<Installed>, Vec<Problem>), RegistryError> {
        let dir = self.installed_dir();
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((vec![], vec![])),
            Err(e) => return Err(RegistryError::io("listing", &dir)(e)),
        };
        let mut ids: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|e| e.path().join(MANIFEST_FILE).exists())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| !name.starts_with('.'))
            .collect();
        ids.sort();
        let mut plugins = Vec::new();
        let mut problems = Vec::new();
        for id in ids {
            match self.manifest(&id).and_then(|m| Ok((m, self.state(&id)?))) {
                Ok((manifest, state)) => plugins.push(Installed { manifest, state }),
                Err(e) => problems.push(Problem {
                    id: Some(id),
                    what: e.to_string(),
                }),
            }
        }
        Ok((plugins, problems))
    }

    /// Installs `bytes` as `draft.id`, once `check` (the host's validation,
    /// compilation and smoke test) accepted them. The same bytes under the
    /// same id are a no-op; new bytes under an installed id upgrade it.
    pub fn install(
        &self,
        bytes: &[u8],
        draft: &Draft,
        check: impl FnOnce(&[u8]) -> Result<Checked, String>,
    ) -> Result<InstallOutcome, RegistryError> {
        let invalid = |problem| RegistryError::Manifest {
            path: PathBuf::from(&draft.source),
            problem,
        };
        if !valid_id(&draft.id) {
            return Err(invalid(crate::ManifestError::invalid(
                "id",
                format!(
                    "{:?}: use 1–64 lowercase letters, digits, '-', '_' or '.', not starting with \"builtin\"",
                    draft.id
                ),
            )));
        }
        validate_version(&draft.version).map_err(invalid)?;
        draft.limits.validate().map_err(invalid)?;
        let digest = Digest::of(bytes);
        // The same bytes again: nothing to check; the blob is written again
        // only when the stored one is missing or damaged.
        // An install cut short (a crash, kill -9) may have left the lock
        // file behind the manifests: the same add again brings it up to date.
        if let Ok(existing) = self.manifest(&draft.id)
            && existing.digest == digest.to_hex()
        {
            if self.blob_intact(&digest) && self.lock_file_current() {
                return Ok(InstallOutcome::Unchanged(existing));
            }
            let _lock = self.lock()?;
            if !self.blob_intact(&digest) {
                self.store_blob(bytes, &digest)?;
            }
            self.write_lock_file()?;
            self.bump_generation()?;
            return Ok(InstallOutcome::Repaired(existing));
        }
        // The slow part (compiling, running) happens before the lock.
        let checked = check(bytes).map_err(RegistryError::Refused)?;
        validate_classes(checked.world, &draft.classes).map_err(invalid)?;
        let manifest = Manifest {
            id: draft.id.clone(),
            version: draft.version.clone(),
            world: checked.world,
            wit: checked.wit,
            digest: digest.to_hex(),
            classes: draft.classes.clone(),
            priority: draft.priority,
            limits: draft.limits.clone(),
            source: draft.source.clone(),
            added: rfc3339(now_secs()),
        };
        manifest.validate().map_err(invalid)?;

        let _lock = self.lock()?;
        let previous = match self.manifest(&draft.id) {
            Ok(m) if m.digest == manifest.digest => return Ok(InstallOutcome::Unchanged(m)),
            Ok(m) => Some(m),
            Err(RegistryError::NotInstalled(_)) => None,
            // A broken manifest is replaced by the new one.
            Err(RegistryError::Manifest { .. }) => None,
            Err(e) => return Err(e),
        };
        // The bytes first, then the manifest naming them: a crash in between
        // leaves an unreferenced blob, which `gc` removes.
        self.store_blob(bytes, &digest)?;
        write_atomic(
            &self.plugin_dir(&draft.id).join(MANIFEST_FILE),
            manifest.to_toml().as_bytes(),
        )?;
        let mut state = self.state(&draft.id).unwrap_or_default();
        if previous.is_none() {
            state = PluginState::default();
        } else {
            state.failures = 0;
            state.disabled_until = None;
            state.auto_disabled = 0;
            state.last_error = None;
        }
        self.write_state(&draft.id, &state)?;
        self.write_lock_file()?;
        self.bump_generation()?;
        Ok(match previous {
            None => InstallOutcome::Added(manifest),
            Some(from) => InstallOutcome::Upgraded {
                from: Box::new(from),
                to: Box::new(manifest),
            },
        })
    }

    /// Whether the blob of `digest` is there and hashes to it.
    fn blob_intact(&self, digest: &Digest) -> bool {
        fs::read(self.blob_path(digest)).is_ok_and(|existing| Digest::of(&existing) == *digest)
    }

    fn store_blob(&self, bytes: &[u8], digest: &Digest) -> Result<(), RegistryError> {
        if self.blob_intact(digest) {
            return Ok(());
        }
        let path = self.blob_path(digest);
        write_atomic(&path, bytes)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = fs::set_permissions(&path, fs::Permissions::from_mode(0o444));
        }
        Ok(())
    }

    /// The bytes of an installed plugin, refused when they do not hash to its
    /// manifest's digest (a tampered or damaged blob).
    pub fn load_bytes(&self, manifest: &Manifest) -> Result<Vec<u8>, RegistryError> {
        let digest = manifest
            .digest()
            .map_err(|problem| RegistryError::Manifest {
                path: self.plugin_dir(&manifest.id).join(MANIFEST_FILE),
                problem,
            })?;
        let path = self.blob_path(&digest);
        let bytes = fs::read(&path).map_err(RegistryError::io("reading", &path))?;
        let found = Digest::of(&bytes);
        if found != digest {
            return Err(RegistryError::Refused(format!(
                "{}: {} hashes to {}, not to its manifest's digest {}: the blob was changed after \
                 it was added; remove the plugin and add it again",
                manifest.id,
                path.display(),
                found.short(),
                digest.short()
            )));
        }
        Ok(bytes)
    }

    /// Removes `id` (its blob stays until [`Registry::gc`]).
    pub fn remove(&self, id: &str) -> Result<Manifest, RegistryError> {
        let _lock = self.lock()?;
        let manifest = match self.manifest(id) {
            Ok(m) => m,
            Err(e @ RegistryError::NotInstalled(_)) => {
                // A removal cut short after its rename: finish its lock file.
                if !self.lock_file_current() {
                    self.write_lock_file()?;
                }
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        let dir = self.plugin_dir(id);
        // Renamed away first, so a crash never leaves half a plugin.
        let gone = temp_path(&self.installed_dir(), id);
        fs::rename(&dir, &gone).map_err(RegistryError::io("removing", &dir))?;
        let _ = fs::remove_dir_all(&gone);
        self.write_lock_file()?;
        self.bump_generation()?;
        Ok(manifest)
    }

    /// Enables or disables `id` by its user's choice. Enabling also clears an
    /// automatic disabling and its backoff.
    pub fn set_enabled(&self, id: &str, enabled: bool) -> Result<(), RegistryError> {
        let _lock = self.lock()?;
        self.manifest(id)?;
        let mut state = self.state(id)?;
        state.enabled = enabled;
        if enabled {
            state.failures = 0;
            state.disabled_until = None;
            state.auto_disabled = 0;
        }
        self.write_state(id, &state)?;
        self.bump_generation()
    }

    /// Records a failed call of `id` (a trap, a deadline, a memory cap);
    /// returns the backoff in seconds when it disables the plugin.
    pub fn record_failure(&self, id: &str, reason: &str) -> Result<Option<u64>, RegistryError> {
        let _lock = self.lock()?;
        self.manifest(id)?;
        let mut state = self.state(id)?;
        let disabled = state.record_failure(reason, now_secs());
        self.write_state(id, &state)?;
        if disabled.is_some() {
            self.bump_generation()?;
        }
        Ok(disabled)
    }

    /// Records a successful call of `id` (writes only when it had failures).
    pub fn record_success(&self, id: &str) -> Result<(), RegistryError> {
        if self.state(id)?.failures == 0 {
            return Ok(());
        }
        let _lock = self.lock()?;
        let mut state = self.state(id)?;
        state.record_success();
        self.write_state(id, &state)
    }

    /// The lock file as written now, if it is there and readable.
    fn read_lock_file(&self) -> Option<LockFile> {
        fs::read_to_string(self.root.join(LOCK_FILE))
            .ok()
            .and_then(|t| toml::from_str(&t).ok())
    }

    /// Whether the lock file names exactly what is installed (no lock file
    /// is right when nothing is).
    fn lock_file_current(&self) -> bool {
        let Ok((plugins, _)) = self.list() else {
            return false;
        };
        match self.read_lock_file() {
            Some(lock) => lock.plugin == lock_entries(&plugins),
            None => plugins.is_empty() && !self.root.join(LOCK_FILE).exists(),
        }
    }

    fn write_lock_file(&self) -> Result<(), RegistryError> {
        let (plugins, _) = self.list()?;
        let lock = LockFile {
            plugin: lock_entries(&plugins),
        };
        let text = format!(
            "# ghost-plugins.lock: the installed plugins (id, version, blake3 digest), to \
             reproduce this install. Written by ghost; do not edit.\n\n{}",
            toml::to_string(&lock).expect("a lock file always serializes")
        );
        write_atomic(&self.root.join(LOCK_FILE), text.as_bytes())
    }

    /// Re-hashes every blob and re-checks every manifest, state and the lock
    /// file; returns what is wrong (nothing when all is well).
    pub fn verify(&self) -> Result<Vec<Problem>, RegistryError> {
        let (plugins, mut problems) = self.list()?;
        for p in &plugins {
            let id = Some(p.manifest.id.clone());
            if let Err(e) = self.load_bytes(&p.manifest) {
                problems.push(Problem {
                    id,
                    what: match e {
                        RegistryError::Refused(why) => why
                            .split_once(": ")
                            .map_or(why.clone(), |(_, rest)| rest.to_string()),
                        other => other.to_string(),
                    },
                });
            }
        }
        // Every blob must hash to its own name.
        let store = self.root.join(STORE_DIR);
        if let Ok(entries) = fs::read_dir(&store) {
            for entry in entries.filter_map(Result::ok) {
                let name = entry.file_name().to_string_lossy().into_owned();
                let Some(hex) = name.strip_suffix(".wasm") else {
                    continue;
                };
                let ok = fs::read(entry.path())
                    .map(|b| Digest::of(&b).to_hex() == hex)
                    .unwrap_or(false);
                if !ok {
                    problems.push(Problem {
                        id: None,
                        what: format!(
                            "{}: its bytes do not hash to its name",
                            entry.path().display()
                        ),
                    });
                }
            }
        }
        // The lock file names exactly what is installed.
        let lock_path = self.root.join(LOCK_FILE);
        if !plugins.is_empty() || lock_path.exists() {
            let want = lock_entries(&plugins);
            match self.read_lock_file() {
                Some(l) if l.plugin == want => {}
                Some(_) => problems.push(Problem {
                    id: None,
                    what: format!(
                        "{} does not match the installed manifests",
                        lock_path.display()
                    ),
                }),
                None => problems.push(Problem {
                    id: None,
                    what: format!("{} is missing or unreadable", lock_path.display()),
                }),
            }
        }
        Ok(problems)
    }

    /// Removes blobs no manifest names any more, and leftovers of
    /// interrupted writes; returns the digests removed.
    pub fn gc(&self) -> Result<Vec<String>, RegistryError> {
        let _lock = self.lock()?;
        let (plugins, _) = self.list()?;
        let keep: Vec<&str> = plugins.iter().map(|p| p.manifest.digest.as_str()).collect();
        let mut removed = Vec::new();
        let store = self.root.join(STORE_DIR);
        for entry in fs::read_dir(&store)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stale_tmp = name.starts_with('.') && name.ends_with(".tmp");
            let unreferenced = name
                .strip_suffix(".wasm")
                .is_some_and(|hex| !keep.contains(&hex));
            if stale_tmp || unreferenced {
                fs::remove_file(entry.path())
                    .map_err(RegistryError::io("removing", entry.path()))?;
                if let Some(hex) = name.strip_suffix(".wasm") {
                    removed.push(hex.to_string());
                }
            }
        }
        // Folders without a manifest: interrupted adds and removals.
        for entry in fs::read_dir(self.installed_dir())
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
        {
            if !entry.path().join(MANIFEST_FILE).exists() {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
        Ok(removed)
    }
}

/// The lock file's entries for `plugins`, in their order.
fn lock_entries(plugins: &[Installed]) -> Vec<LockEntry> {
    plugins
        .iter()
        .map(|p| LockEntry {
            id: p.manifest.id.clone(),
            version: p.manifest.version.clone(),
            digest: p.manifest.digest.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(id: &str, version: &str) -> Draft {
        Draft {
            id: id.into(),
            version: version.into(),
            classes: vec![ghost_types::ContentClass::Log],
            priority: 5,
            limits: Limits::default(),
            source: format!("/src/{id}.wasm"),
        }
    }

    fn ok(_: &[u8]) -> Result<Checked, String> {
        Ok(Checked {
            world: World::Compressor,
            wit: "0.1.0".into(),
        })
    }

    #[test]
    fn add_upgrade_remove_and_gc() {
        let dir = tempfile::tempdir().unwrap();
        let reg = Registry::new(dir.path());
        let g0 = reg.generation();
        let added = reg.install(b"v1", &draft("short", "1.0.0"), ok).unwrap();
        assert!(matches!(added, InstallOutcome::Added(_)));
        assert_ne!(reg.generation(), g0);
        let again = reg
            .install(b"v1", &draft("short", "1.0.0"), |_| {
                panic!("not checked again")
            })
            .unwrap();
        assert!(matches!(again, InstallOutcome::Unchanged(_)));
        let up = reg.install(b"v2", &draft("short", "2.0.0"), ok).unwrap();
        let InstallOutcome::Upgraded { from, to } = up else {
            panic!("{up:?}")
        };
        assert_eq!(
            (from.version.as_str(), to.version.as_str()),
            ("1.0.0", "2.0.0")
        );
        assert!(reg.blob_path(&Digest::of(b"v1")).exists(), "old blob kept");
        assert!(reg.verify().unwrap().is_empty());
        assert_eq!(reg.gc().unwrap(), vec![Digest::of(b"v1").to_hex()]);
        reg.remove("short").unwrap();
        assert!(reg.list().unwrap().0.is_empty());
        assert!(matches!(
            reg.remove("short"),
            Err(RegistryError::NotInstalled(_))
        ));
        assert!(reg.verify().unwrap().is_empty());
    }

    #[test]
    fn an_install_or_removal_cut_short_is_completed_by_doing_it_again() {
        let dir = tempfile::tempdir().unwrap();
        let reg = Registry::new(dir.path());
        reg.install(b"one", &draft("p", "1"), ok).unwrap();
        let lock = dir.path().join(LOCK_FILE);
        let complete = fs::read(&lock).unwrap();
        // Killed after the manifest, before the lock file.
        fs::write(&lock, "# cut short\n").unwrap();
        assert_eq!(reg.verify().unwrap().len(), 1);
        let again = reg.install(b"one", &draft("p", "1"), ok).unwrap();
        assert!(matches!(again, InstallOutcome::Repaired(_)), "{again:?}");
        assert!(reg.verify().unwrap().is_empty());
        assert_eq!(fs::read(&lock).unwrap(), complete);
        // Killed after the removal's rename, before the lock file.
        fs::remove_dir_all(reg.plugin_dir("p")).unwrap();
        assert_eq!(reg.verify().unwrap().len(), 1);
        assert!(matches!(
            reg.remove("p"),
            Err(RegistryError::NotInstalled(_))
        ));
        assert!(reg.verify().unwrap().is_empty());
    }

    #[test]
    fn a_refused_check_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let reg = Registry::new(dir.path());
        let err = reg
            .install(b"bad", &draft("bad", "1"), |_| {
                Err("imports wasi:sockets".into())
            })
            .unwrap_err();
        assert!(err.to_string().contains("wasi:sockets"));
        assert!(!dir.path().join(INSTALLED_DIR).exists());
        assert!(!reg.blob_path(&Digest::of(b"bad")).exists());
    }

    #[test]
    fn tampering_is_found_and_refused() {
        let dir = tempfile::tempdir().unwrap();
        let reg = Registry::new(dir.path());
        reg.install(b"good", &draft("p", "1"), ok).unwrap();
        let blob = reg.blob_path(&Digest::of(b"good"));
        let mut perms = fs::metadata(&blob).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        fs::set_permissions(&blob, perms).unwrap();
        fs::write(&blob, b"evil").unwrap();
        let m = reg.manifest("p").unwrap();
        assert!(
            reg.load_bytes(&m)
                .unwrap_err()
                .to_string()
                .contains("changed after")
        );
        let problems = reg.verify().unwrap();
        assert_eq!(problems.len(), 2, "{problems:?}");
        // Adding the same bytes again repairs it.
        let again = reg.install(b"good", &draft("p", "1"), ok).unwrap();
        assert!(matches!(again, InstallOutcome::Repaired(_)), "{again:?}");
        assert!(reg.load_bytes(&m).is_ok());
        assert!(reg.verify().unwrap().is_empty());
        let again = reg.install(b"good", &draft("p", "1"), ok).unwrap();
        assert!(matches!(again, InstallOutcome::Unchanged(_)));
    }

    #[test]
    fn user_and_automatic_disabling() {
        let dir = tempfile::tempdir().unwrap();
        let reg = Registry::new(dir.path());
        reg.install(b"x", &draft("p", "1"), ok).unwrap();
        reg.set_enabled("p", false).unwrap();
        assert!(!reg.state("p").unwrap().enabled);
        reg.set_enabled("p", true).unwrap();
        assert_eq!(reg.record_failure("p", "deadline").unwrap(), None);
        assert_eq!(reg.record_failure("p", "deadline").unwrap(), None);
        assert_eq!(reg.record_failure("p", "deadline").unwrap(), Some(60));
        assert!(reg.state("p").unwrap().disabled_until.is_some());
        assert!(reg.set_enabled("nope", true).is_err());
    }
}
