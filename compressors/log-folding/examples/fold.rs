//! Folds standard input with the log compressor, natively, and prints the
//! result: a quick way to see what a log becomes while tuning.
//!
//! `cargo run --release -p ghost-log-folding --example fold [TARGET_TOKENS] < build.log`

use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .expect("standard input is UTF-8 text");
    let target = std::env::args()
        .nth(1)
        .map(|t| t.parse::<u32>().expect("TARGET_TOKENS is a number"));
    let out = ghost_log_folding::compress_within(&text, target);
    print!("{}", out.text);
    eprintln!("{} -> {} bytes", text.len(), out.text.len());
}
