//! The on-disk compile cache: a second load is a hit, a corrupt or stale entry
//! is detected and rebuilt, never trusted.

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

fn only_entry(dir: &std::path::Path) -> std::path::PathBuf {
    let entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
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
    std::fs::write(&entry, &bytes).unwrap();
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
        b"GHSTCW01 but nothing else, definitely not a module".as_slice(),
    ] {
        std::fs::write(&entry, garbage).unwrap();
        let p = runtime(dir.path()).load(plugin.name, plugin.bytes).unwrap();
        assert_eq!(p.cache_status(), CacheStatus::Rebuilt);
    }
}

#[test]
fn stale_entry_with_a_valid_checksum_is_rebuilt() {
    // A well-formed entry whose payload wasmtime refuses (e.g. written by an
    // engine with other settings): the checksum passes, deserialisation fails.
    let dir = tempfile::tempdir().unwrap();
    let plugin = builtin::CLASSIFIER;
    runtime(dir.path()).load(plugin.name, plugin.bytes).unwrap();
    let entry = only_entry(dir.path());
    let payload = b"\0asm this is not a precompiled wasmtime artifact";
    let mut stale = b"GHSTCW01".to_vec();
    stale.extend_from_slice(ghost_registry_digest(payload).as_slice());
    stale.extend_from_slice(payload);
    std::fs::write(&entry, stale).unwrap();
    let p = runtime(dir.path()).load(plugin.name, plugin.bytes).unwrap();
    assert_eq!(p.cache_status(), CacheStatus::Rebuilt);
}

fn ghost_registry_digest(bytes: &[u8]) -> [u8; 32] {
    *blake3::hash(bytes).as_bytes()
}
