//! Redacts every `input.txt` under the folders given and reports the lines
//! it changed (to judge false positives) and its speed:
//! `cargo run --release -p ghost-redact --example scan -- ../shared/corpus/cases`
//! (`SCAN_ALL=1`: every file, not only the corpus's `input.txt`).

use std::path::Path;

fn main() {
    let redactor = ghost_redact::Redactor::new(ghost_redact::Key::from_bytes([0; 32]));
    let (mut lines, mut changed, mut bytes) = (0usize, 0usize, 0usize);
    let mut elapsed = std::time::Duration::ZERO;
    for dir in std::env::args().skip(1) {
        let mut inputs = Vec::new();
        collect(Path::new(&dir), &mut inputs);
        inputs.sort();
        for path in inputs {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let started = std::time::Instant::now();
            let out = redactor.redact(&text);
            elapsed += started.elapsed();
            bytes += text.len();
            lines += text.lines().count();
            for (before, after) in text.lines().zip(out.lines()) {
                if before != after {
                    changed += 1;
                    let at = after
                        .find("[secret:")
                        .or(after.find("[private]"))
                        .unwrap_or(0);
                    let from = after.floor_char_boundary(at.saturating_sub(60));
                    let to = after.ceil_char_boundary((at + 80).min(after.len()));
                    println!("{}: {}", path.display(), &after[from..to]);
                }
            }
        }
    }
    println!(
        "{changed} of {lines} lines changed ({:.3}%); {:.1} MB in {:.1} ms ({:.0} MB/s)",
        changed as f64 * 100.0 / lines.max(1) as f64,
        bytes as f64 / 1e6,
        elapsed.as_secs_f64() * 1000.0,
        bytes as f64 / 1e6 / elapsed.as_secs_f64().max(1e-9)
    );
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.file_name().is_some_and(|n| n == "input.txt")
            || std::env::var_os("SCAN_ALL").is_some()
        {
            out.push(path);
        }
    }
}
