//! Which files a task opened, under which grant: WASI's `open-at` and
//! `get-directories` wrapped so each opening is recorded (the task's
//! grants actually used, for `ghost task run -v`).
//!
//! A path outside every grant never reaches the host (the guest's libc finds
//! no directory to open it under), so what is recorded is what the grants
//! let through, and what a grant refused (a write under a read-only one).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use wasmtime::StoreContextMut;
use wasmtime::component::{Linker, Resource};
use wasmtime_wasi::filesystem::WasiFilesystemView;
use wasmtime_wasi::p2::bindings::filesystem::preopens::Host as _;
use wasmtime_wasi::p2::bindings::sync::filesystem::types::{
    Descriptor, DescriptorFlags, ErrorCode, Host as _, HostDescriptor as _, OpenFlags, PathFlags,
};

/// The WASI filesystem interfaces as wasmtime-wasi names them (its version
/// of the WIT); a test checks that openings are recorded, so a new version
/// cannot silently turn this off.
const TYPES: &str = "wasi:filesystem/types@0.2.12";
const PREOPENS: &str = "wasi:filesystem/preopens@0.2.12";

/// A file or directory the task opened, or tried to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileUse {
    /// Its path on the host.
    pub path: PathBuf,
    /// Opened to write (or create, or truncate).
    pub write: bool,
    /// Why the opening failed, when it did (`access`, `read-only`,
    /// `no-entry`…).
    pub error: Option<String>,
}

/// What a task's store keeps to record openings.
#[derive(Debug, Default)]
pub(crate) struct FileLog {
    /// Where relative paths start (the `.` directory), on the host.
    pub cwd: Option<PathBuf>,
    /// Each open directory descriptor's host path, by resource id.
    pub dirs: HashMap<u32, PathBuf>,
    /// Every opening, in order.
    pub uses: Vec<FileUse>,
}

/// Gives the state of a task's store access to its [`FileLog`].
pub(crate) trait HasFileLog: WasiFilesystemView + 'static {
    fn file_log(&mut self) -> &mut FileLog;
}

/// Replaces `open-at` and `get-directories` in `linker` (after WASI was
/// added to it) with versions that record what they open.
pub(crate) fn track_openings<T: HasFileLog>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    linker.instance(PREOPENS)?.func_wrap(
        "get-directories",
        |mut store: StoreContextMut<'_, T>, (): ()| {
            let state = store.data_mut();
            let dirs = state.filesystem().get_directories()?;
            let cwd = state.file_log().cwd.clone();
            let log = state.file_log();
            for (dir, name) in &dirs {
                let path = match (&cwd, name.as_str()) {
                    (Some(cwd), ".") => cwd.clone(),
                    _ => PathBuf::from(name),
                };
                log.dirs.insert(dir.rep(), path);
            }
            Ok((dirs,))
        },
    )?;
    linker.instance(TYPES)?.func_wrap(
        "[method]descriptor.open-at",
        |mut store: StoreContextMut<'_, T>,
         (dir, path_flags, path, open_flags, flags): (
            Resource<Descriptor>,
            PathFlags,
            String,
            OpenFlags,
            DescriptorFlags,
        )| {
            let state = store.data_mut();
            let base = state.file_log().dirs.get(&dir.rep()).cloned();
            let write = flags.contains(DescriptorFlags::WRITE)
                || open_flags.intersects(OpenFlags::CREATE | OpenFlags::TRUNCATE);
            let opened = {
                let mut fs = state.filesystem();
                match fs.open_at(dir, path_flags, path.clone(), open_flags, flags) {
                    Ok(d) => Ok(d),
                    Err(e) => Err(fs.convert_error_code(e)?),
                }
            };
            if let Some(base) = base {
                let full = joined(&base, &path);
                let log = state.file_log();
                if let Ok(d) = &opened {
                    log.dirs.insert(d.rep(), full.clone());
                }
                log.uses.push(FileUse {
                    path: full,
                    write,
                    error: opened.as_ref().err().map(describe),
                });
            }
            Ok((opened,))
        },
    )?;
    Ok(())
}

/// `path` under `base`, with `.` segments dropped (the sandbox refuses
/// `..` that would leave a grant).
fn joined(base: &Path, path: &str) -> PathBuf {
    path.split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .fold(base.to_path_buf(), |p, s| p.join(s))
}

/// An error code as WASI names it (`read-only`, `no-entry`…).
fn describe(e: &ErrorCode) -> String {
    e.name().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_join_without_dot_segments_and_errors_read_as_wasi_names() {
        assert_eq!(
            joined(Path::new("/data"), "./logs//a.txt"),
            PathBuf::from("/data/logs/a.txt")
        );
        assert_eq!(describe(&ErrorCode::ReadOnly), "read-only");
        assert_eq!(describe(&ErrorCode::NoEntry), "no-entry");
    }
}
