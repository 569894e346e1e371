//! The built-in classifier, through the real runtime, on the labelled set
//! described in `tests/LABELS.md`: at least 95% right.

use std::collections::BTreeMap;

use ghost_core::pipeline::Pipeline;
use ghost_tests::labelled_set;
use ghost_types::ClassifyRequest;

#[test]
fn classifier_is_right_at_least_95_percent_of_the_time() {
    let pipeline = Pipeline::with_dirs(None).unwrap();
    let set = labelled_set();
    assert!(set.len() >= 200, "the labelled set has {} texts", set.len());
    let mut per_label: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    for item in &set {
        let request = ClassifyRequest {
            text: item.text.clone(),
            tool_name: item.tool.clone(),
            source_path: item.path.clone(),
            command: item.command.clone(),
        };
        let got = pipeline.classify(&request);
        assert!(
            got.fallback_reason.is_none(),
            "the classifier failed: {:?}",
            got.fallback_reason
        );
        let got = got.classification.class.to_string();
        let entry = per_label.entry(item.label.as_str()).or_default();
        entry.1 += 1;
        if got == item.label {
            entry.0 += 1;
        } else {
            misses.push(format!(
                "{} labelled {} classified {got}",
                item.origin, item.label
            ));
        }
    }
    let right: usize = per_label.values().map(|v| v.0).sum();
    let accuracy = right as f64 / set.len() as f64;
    for (label, (ok, all)) in &per_label {
        eprintln!("{label:<11} {ok}/{all}");
    }
    eprintln!(
        "accuracy {right}/{} = {accuracy:.3}\n{}",
        set.len(),
        misses.join("\n")
    );
    assert!(
        accuracy >= 0.95,
        "accuracy {accuracy:.3} < 0.95; misses:\n{}",
        misses.join("\n")
    );
}
