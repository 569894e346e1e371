//! What the binary's end-to-end tests share.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `ghost ARGS` with `GHOST_HOME=home`, `stdin` fed from a thread (so a
/// full stdout pipe cannot deadlock the test), and returns its output.
pub fn run_ghost(home: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ghost"))
        .args(args)
        .env("GHOST_HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}
