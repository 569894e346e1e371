//! Recall quality on LoCoMo through the MCP recall path: the held-out
//! conversations (5–9) must keep R@5 at or above 0.60, and the tuned ranking
//! must beat a plain FTS5 OR query.

use std::path::Path;

use ghost_bench::locomo;
use ghost_store::recall::RecallTuning;

#[test]
fn held_out_conversations_reach_r_at_5_of_0_60() {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/locomo/locomo10.json");
    let tuned = locomo::run(&file, RecallTuning::default()).unwrap();
    let plain = locomo::run(&file, RecallTuning::plain()).unwrap();
    println!("{}{}", locomo::render(&tuned), locomo::render(&plain));
    let held_out = &tuned.splits[1];
    assert_eq!(held_out.questions, 776);
    assert!(held_out.recall_at_5 >= 0.60, "{held_out:?}");
    assert!(held_out.recall_at_5 > plain.splits[1].recall_at_5 + 0.05);
    assert!(held_out.mrr > plain.splits[1].mrr);
}
