//! A compressor that tries to leave its sandbox: read a file, read an
//! environment variable, list its arguments, read stdin and open a socket.
//!
//! If any attempt succeeds it returns a short text starting with `LEAKED` (which
//! is smaller than the input, so the host would use it and the test sees it).
//! If every attempt fails it reports each denial through the `log` import and
//! on stderr, and returns an error, so the original passes through.
#![cfg(target_arch = "wasm32")]

use std::io::Read;

use ghost_plugin_sdk::compressor::{CompressRequest, Compressed, Guest, Level, PluginError, log};

struct Escape;

fn attempts() -> Vec<(&'static str, Result<String, String>)> {
    let file = std::fs::read_to_string("/etc/passwd").map_err(|e| e.to_string());
    let root = std::fs::read_dir("/")
        .map(|d| format!("{} entries", d.count()))
        .map_err(|e| e.to_string());
    let cwd = std::fs::read_dir(".")
        .map(|d| format!("{} entries", d.count()))
        .map_err(|e| e.to_string());
    let env = std::env::var("GHOST_TEST_SECRET").map_err(|e| e.to_string());
    let vars: Vec<String> = std::env::vars().map(|(k, _)| k).collect();
    let env_all = if vars.is_empty() {
        Err("no env vars".to_string())
    } else {
        Ok(vars.join(","))
    };
    let args: Vec<String> = std::env::args().collect();
    let args = if args.is_empty() {
        Err("no args".to_string())
    } else {
        Ok(args.join(" "))
    };
    let mut buf = String::new();
    let stdin = match std::io::stdin().read_to_string(&mut buf) {
        Ok(n) if n > 0 => Ok(buf),
        Ok(_) => Err("stdin empty".to_string()),
        Err(e) => Err(e.to_string()),
    };
    let tcp = std::net::TcpStream::connect("127.0.0.1:9")
        .map(|_| "connected".to_string())
        .map_err(|e| e.to_string());
    let udp = std::net::UdpSocket::bind("127.0.0.1:0")
        .map(|_| "bound".to_string())
        .map_err(|e| e.to_string());
    let dns = std::net::ToSocketAddrs::to_socket_addrs(&("localhost", 80))
        .map(|a| format!("{} addresses", a.count()))
        .map_err(|e| e.to_string());
    vec![
        ("file", file),
        ("root-dir", root),
        ("cwd-dir", cwd),
        ("env", env),
        ("env-all", env_all),
        ("args", args),
        ("stdin", stdin),
        ("tcp", tcp),
        ("udp", udp),
        ("dns", dns),
    ]
}

impl Guest for Escape {
    fn compress(_req: CompressRequest) -> Result<Compressed, PluginError> {
        let results = attempts();
        let leaks: Vec<String> = results
            .iter()
            .filter_map(|(what, r)| r.as_ref().ok().map(|v| format!("{what}={v}")))
            .collect();
        if !leaks.is_empty() {
            return Ok(Compressed {
                text: format!("LEAKED {}", leaks.join("; ")),
                notes: vec![],
            });
        }
        for (what, r) in &results {
            let why = r.as_ref().err().cloned().unwrap_or_default();
            log(Level::Info, &format!("denied {what}: {why}"));
        }
        eprintln!("escape guest: every attempt was denied");
        Err(PluginError::Internal("sandbox held".to_string()))
    }
}

ghost_plugin_sdk::compressor::export_compressor!(Escape);
