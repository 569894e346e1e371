//! Real Claude Code sessions (`../shared/corpus/transcripts/claude-code/`)
//! replayed through the PostToolUse hook, as the installed matcher sends
//! them: no result grows, and the whole saves more than a tenth.

use std::path::{Path, PathBuf};

use ghost_bench::replay;
use ghost_core::paths::GhostDirs;
use ghost_core::pipeline::Pipeline;

#[test]
fn replayed_transcripts_never_show_the_model_more() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/transcripts/claude-code");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    let home = tempfile::tempdir().unwrap();
    let dirs = GhostDirs {
        data: home.path().to_path_buf(),
        cache: home.path().join("cache"),
        config: home.path().to_path_buf(),
    };
    let pipeline = || Pipeline::with_dirs(Some(&dirs));
    let report = replay::run(&files, &pipeline).unwrap();
    println!("{}", replay::render(&report));
    assert_eq!(report.transcripts, files.len());
    for (tool, t) in &report.tools {
        assert!(t.tokens_with <= t.tokens_without, "{tool}: {t:?}");
    }
    for row in &report.results {
        assert!(row.tokens_with <= row.tokens_without, "{row:?}");
    }
    assert!(report.total.replaced > 0);
    assert!(report.total.tokens_with < report.total.tokens_without * 9 / 10);
    assert!(report.edits.edits_after_read > 100);
    // Every tool the hook handles was seen in these sessions, and replaced
    // at least once where it can be: the matcher lets it through.
    for tool in ["Bash", "Read", "Glob", "TaskOutput"] {
        assert!(
            report.tools[tool].replaced > 0,
            "{tool}: {:?}",
            report.tools[tool]
        );
    }
    // A tool the matcher does not send is never replaced.
    assert_eq!(report.tools["Write"].replaced, 0);
}
