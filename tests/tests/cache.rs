//! The on-disk compile cache: a second load is a hit, a corrupt, stale or
//! swapped entry is detected and rebuilt, never trusted; entries are
//! read-only in a private directory.

use ghost_core::builtin;
use ghost_runtime::cache::CacheStatus;
use ghost_runtime::{PluginRuntime, RuntimeConfig};

fn runtime(dir: &std::path::Path) -> PluginRuntime {
    PluginRuntime::new(RuntimeConfig {
        cache_dir: Some(dir.to_path_buf()),
        ..Default::default()
    })
    .unwrap()
}

/// Writes `bytes` over a cache entry (read-only, as ghost leaves them).
fn overwrite(entry: &std::path::Path, bytes: &[u8]) {
    make_writable(entry);
    std::fs::write(entry, bytes).unwrap();
}

fn make_writable(entry: &std::path::Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(entry, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
}

/// The files of `dir` but the lock files beside entries (kept, empty).
fn files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".lock"))
        .collect()
}

fn only_entry(dir: &std::path::Path) -> std::path::PathBuf {
    let entries = files(dir);
    assert_eq!(
        entries.len(),
        1,
        "one entry, no temporary files left: {entries:?}"
    );
    entries[0].clone()
}

#[test]
fn compiled_once_then_loaded_from_disk() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = builtin::CLASSIFIER;
    let first = runtime(dir.path()).load(plugin.name, plugin.bytes).unwrap();
    assert_eq!(first.cache_status(), CacheStatus::Miss);
    let second = runtime(dir.path()).load(plugin.name, plugin.bytes).unwrap();
    assert_eq!(second.cache_status(), CacheStatus::Hit);
    let name = only_entry(dir.path())
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(
        name.ends_with(&format!("{}.cwasm", first.digest().to_hex())),
        "keyed by digest: {name}"
    );
}

#[test]
fn corrupt_entry_is_rebuilt_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = builtin::CLASSIFIER;
    runtime(dir.path()).load(plugin.name, plugin.bytes).unwrap();
    let entry = only_entry(dir.path());

    // Flip one byte of the compiled code: the checksum catches it.
    let mut bytes = std::fs::read(&entry).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    overwrite(&entry, &bytes);
    let rebuilt = runtime(dir.path()).load(plugin.name, plugin.bytes).unwrap();
    assert_eq!(rebuilt.cache_status(), CacheStatus::Rebuilt);
    assert_eq!(
        runtime(dir.path())
            .load(plugin.name, plugin.bytes)
            .unwrap()
            .cache_status(),
        CacheStatus::Hit
    );

    // A truncated entry, and one that is not an artifact at all.
    for garbage in [
        &bytes[..10],
        b"GHSTCW02 but nothing else, definitely not a module".as_slice(),
    ] {
        overwrite(&entry, garbage);
        let p = runtime(dir.path()).load(plugin.name, plugin.bytes).unwrap();
        assert_eq!(p.cache_status(), CacheStatus::Rebuilt);
    }
}

#[test]
fn stale_entry_with_a_valid_binding_is_rebuilt() {
    // A well-formed entry whose payload wasmtime refuses (e.g. written by an
    // engine with other settings): the binding passes, deserialisation fails.
    let dir = tempfile::tempdir().unwrap();
    let plugin = builtin::CLASSIFIER;
    let loaded = runtime(dir.path()).load(plugin.name, plugin.bytes).unwrap();
    let entry = only_entry(dir.path());
    let payload = b"\0asm this is not a precompiled wasmtime artifact";
    let key = engine_key();
    let mut stale = b"GHSTCW02".to_vec();
    stale.extend_from_slice(
        ghost_runtime::cache::binding(&key, loaded.digest(), payload).as_bytes(),
    );
    stale.extend_from_slice(payload);
    overwrite(&entry, &stale);
    let p = runtime(dir.path()).load(plugin.name, plugin.bytes).unwrap();
    assert_eq!(p.cache_status(), CacheStatus::Rebuilt);
}

fn engine_key() -> String {
    ghost_runtime::engine::compatibility_key(ghost_runtime::engine::shared_engine().unwrap())
}

#[test]
fn another_components_valid_artifact_swapped_in_is_refused_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let classifier = builtin::CLASSIFIER;
    let other = builtin::LOG_COMPRESSOR;
    let loaded = runtime(dir.path())
        .load(classifier.name, classifier.bytes)
        .unwrap();
    let victim = only_entry(dir.path());
    runtime(dir.path()).load(other.name, other.bytes).unwrap();
    let swapped_in = files(dir.path())
        .into_iter()
        .find(|p| *p != victim)
        .unwrap();
    // Entries are read-only, in a directory only their owner can open.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&victim).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o400);
        let mode = std::fs::metadata(dir.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }
    overwrite(&victim, &std::fs::read(&swapped_in).unwrap());

    let cache =
        ghost_runtime::cache::ArtifactCache::new(Some(dir.path().to_path_buf()), engine_key());
    let why = format!("{:#}", cache.verify_entry(loaded.digest()).unwrap_err());
    assert!(why.contains("swapped"), "{why}");
    let p = runtime(dir.path())
        .load(classifier.name, classifier.bytes)
        .unwrap();
    assert_eq!(p.cache_status(), CacheStatus::Rebuilt);
    assert_eq!(p.kind(), loaded.kind(), "the classifier's own code runs");
    assert!(cache.verify_entry(loaded.digest()).unwrap());
}

#[test]
fn processes_started_together_compile_a_component_once() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = builtin::LOG_COMPRESSOR;
    // Each thread has its own runtime and its own lock file handle, as
    // hooks started by one turn's parallel tool calls do.
    let statuses: Vec<CacheStatus> = std::thread::scope(|s| {
        let loads: Vec<_> = (0..3)
            .map(|_| {
                s.spawn(|| {
                    runtime(dir.path())
                        .load(plugin.name, plugin.bytes)
                        .unwrap()
                        .cache_status()
                })
            })
            .collect();
        loads.into_iter().map(|l| l.join().unwrap()).collect()
    });
    let compiled = statuses.iter().filter(|s| **s == CacheStatus::Miss).count();
    assert_eq!(compiled, 1, "{statuses:?}");
    assert_eq!(
        statuses.iter().filter(|s| **s == CacheStatus::Hit).count(),
        2
    );
    only_entry(dir.path());
}
