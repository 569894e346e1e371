//! What the binary's end-to-end tests share.

#[allow(dead_code)] // Only some test binaries use the secrets corpus.
pub mod secrets;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The workspace root (this crate is `host/cli`).
#[allow(dead_code)] // Not every test binary that shares this module needs it.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Starts `ghost ARGS` with `GHOST_HOME=home`, `stdin` fed from a thread (so
/// a full stdout pipe cannot deadlock the test); stdout and stderr are piped.
/// A session's start compiles nothing in the background: the throwaway home
/// is gone before it would finish.
pub fn spawn_ghost(home: &Path, args: &[&str], stdin: &[u8]) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ghost"))
        .args(args)
        .env("GHOST_HOME", home)
        .env("GHOST_NO_BACKGROUND_COMPILE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    child
}

/// Runs `ghost ARGS` (see [`spawn_ghost`]) and returns its output.
#[allow(dead_code)] // Not every test binary that shares this module runs one.
pub fn run_ghost(home: &Path, args: &[&str], stdin: &[u8]) -> Output {
    spawn_ghost(home, args, stdin).wait_with_output().unwrap()
}
