//! False positives on real outputs nobody on the team wrote: the shared
//! corpus's logs, CI logs, errors and source files (`cases/`, `swe/`) and
//! real Claude Code transcripts. At most 0.1% of their lines may change.

use std::path::{Path, PathBuf};

use ghost_redact::{Key, Redactor};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

fn files(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, keep, out);
        } else if keep(&path) {
            out.push(path);
        }
    }
}

#[test]
fn at_most_a_thousandth_of_real_lines_change() {
    let redactor = Redactor::new(Key::from_bytes([5; 32]));
    let mut inputs = Vec::new();
    for corpus in ["cases", "swe"] {
        files(
            &shared().join(corpus),
            &|p| p.file_name().is_some_and(|n| n == "input.txt"),
            &mut inputs,
        );
    }
    files(
        &shared().join("transcripts"),
        &|p| p.extension().is_some_and(|e| e == "jsonl"),
        &mut inputs,
    );
    assert!(inputs.len() > 200, "the shared corpus is there");
    let (mut lines, mut changed) = (0usize, Vec::new());
    for path in &inputs {
        let text = std::fs::read_to_string(path).unwrap();
        let out = redactor.redact(&text);
        lines += text.lines().count();
        assert_eq!(
            out.lines().count(),
            text.lines().count(),
            "{}",
            path.display()
        );
        for (before, after) in text.lines().zip(out.lines()) {
            if before != after {
                changed.push(format!(
                    "{}: {}",
                    path.display(),
                    after.chars().take(160).collect::<String>()
                ));
            }
        }
    }
    let share = changed.len() as f64 / lines as f64;
    println!(
        "{} of {lines} lines changed ({:.4}%)",
        changed.len(),
        share * 100.0
    );
    assert!(
        share <= 0.001,
        "{:.4}% changed:\n{}",
        share * 100.0,
        changed.join("\n")
    );
}
