//! The one network call the built-in runtimes give a script:
//! `tcp_request(addr, data)` connects to `addr`, sends `data`, closes its
//! side and reads the answer to its end. Shared by `js` and `py` (each
//! includes this file: a guest crate of its own would be heavier than it).
//!
//! The host checks every connect against the task's `--allow-net` grants;
//! tasks cannot look names up, so `addr` is an IP address and a port
//! (`localhost` is taken as 127.0.0.1).

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};

/// Most bytes of an answer kept (the rest is an error, not a silent cut).
const MAX_ANSWER_BYTES: u64 = 64 << 20;

/// Sends `data` to `addr` and returns everything it answers.
pub fn tcp_request(addr: &str, data: &[u8]) -> Result<Vec<u8>, String> {
    let addr = match addr.strip_prefix("localhost:") {
        Some(port) => format!("127.0.0.1:{port}"),
        None => addr.to_string(),
    };
    let target: SocketAddr = addr.parse().map_err(|_| {
        format!(
            "{addr}: give an IP address and a port, e.g. 127.0.0.1:8080 (tasks cannot look \
             names up)"
        )
    })?;
    let denied = |e: std::io::Error| {
        format!("{target}: {e} (connections go only to addresses granted with --allow-net)")
    };
    let mut stream = TcpStream::connect(target).map_err(denied)?;
    stream
        .write_all(data)
        .map_err(|e| format!("{target}: {e}"))?;
    let _ = stream.shutdown(Shutdown::Write);
    let mut answer = Vec::new();
    (&mut stream)
        .take(MAX_ANSWER_BYTES + 1)
        .read_to_end(&mut answer)
        .map_err(|e| format!("{target}: {e}"))?;
    if answer.len() as u64 > MAX_ANSWER_BYTES {
        return Err(format!(
            "{target}: the answer is longer than {MAX_ANSWER_BYTES} bytes"
        ));
    }
    Ok(answer)
}
