//! A test task: `guest_task_probe ACTION [ARG]` does one thing and prints
//! what happened; a denied attempt prints `denied: <why>` on stderr and
//! exits 3.
//!
//! - `read PATH`, `write PATH`: a file;
//! - `env NAME`: a variable;
//! - `connect ADDR`: a TCP connection, sends `ping`, prints the reply;
//! - `loop`, `alloc`: never ends / never stops asking for memory;
//! - `spam N`: prints N lines;
//! - `cat`: copies stdin to stdout;
//! - `exit N`: exits with N.

use std::io::{Read, Write};

fn denied(what: impl std::fmt::Display) -> ! {
    eprintln!("denied: {what}");
    std::process::exit(3)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
    match arg(1).as_str() {
        "read" => match std::fs::read_to_string(arg(2)) {
            Ok(text) => print!("{text}"),
            Err(e) => denied(e),
        },
        "write" => match std::fs::write(arg(2), b"written by a task\n") {
            Ok(()) => println!("wrote {}", arg(2)),
            Err(e) => denied(e),
        },
        "env" => match std::env::var(arg(2)) {
            Ok(v) => println!("{v}"),
            Err(e) => denied(e),
        },
        "connect" => {
            let mut stream = std::net::TcpStream::connect(arg(2)).unwrap_or_else(|e| denied(e));
            stream.write_all(b"ping\n").unwrap_or_else(|e| denied(e));
            let mut reply = String::new();
            stream
                .read_to_string(&mut reply)
                .unwrap_or_else(|e| denied(e));
            println!("reply: {}", reply.trim());
        }
        "loop" => {
            let mut n: u64 = 0;
            loop {
                n = std::hint::black_box(n.wrapping_add(1));
            }
        }
        "alloc" => {
            let mut held: Vec<Vec<u8>> = Vec::new();
            loop {
                held.push(vec![1u8; 16 << 20]);
                std::hint::black_box(&held);
            }
        }
        "spam" => {
            let n: usize = arg(2).parse().unwrap_or(1000);
            let mut out = std::io::stdout().lock();
            for i in 0..n {
                let _ = writeln!(out, "line {i} of a task that prints too much");
            }
        }
        "cat" => {
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .unwrap_or_else(|e| denied(e));
            print!("{input}");
        }
        "exit" => std::process::exit(arg(2).parse().unwrap_or(0)),
        other => {
            eprintln!("unknown action {other:?}");
            std::process::exit(2);
        }
    }
}
