//! `ghost bench longevity` on a real session (held out from the tuning of
//! the gardener's defaults): the token model matches the recorded usage,
//! and the gateway lets the session run longer for less.

use std::path::Path;

use ghost_bench::longevity;
use ghost_core::paths::GhostDirs;
use ghost_core::pipeline::Pipeline;
use ghost_gateway::gardener::GardenPolicy;

#[test]
fn a_held_out_session_runs_longer_for_less() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../../shared/corpus/transcripts/claude-code/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl",
    );
    let home = tempfile::tempdir().unwrap();
    let dirs = GhostDirs {
        data: home.path().to_path_buf(),
        cache: home.path().join("cache"),
        config: home.path().to_path_buf(),
    };
    let pipeline = || Pipeline::with_dirs(Some(&dirs));
    let report = longevity::run(&[file], &GardenPolicy::default(), &pipeline).unwrap();
    print!("{}", longevity::render(&report));
    let s = &report.sessions[0];
    assert!(s.replies > 100, "{}", s.replies);
    assert!(
        s.usage_error < 0.10,
        "the token model is off: {}",
        s.usage_error
    );
    assert!(s.gc_steps > 0);
    assert_eq!(
        s.cache_breaks, s.gc_steps,
        "one cache break per step, none else"
    );
    assert!(report.overall.longevity > 2.0, "{:?}", report.overall);
    assert!(report.overall.cost_ratio < 0.8, "{:?}", report.overall);
}
