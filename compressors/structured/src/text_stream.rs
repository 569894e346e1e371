//! JSON Lines that carry a tool's printed text: `go test -json`'s
//! `Output`, cargo's `--message-format=json` diagnostics (`message.rendered`),
//! Docker's `log`. A string value that ends with a newline is text a tool
//! printed, wrapped in an envelope of fields for machines; the text is what
//! a reader reads. It is unwrapped, in the records' order, and folded as the
//! log it is (its runner's summary, its failures and diagnostics kept; see
//! `ghost_log_folding`), under one line that says what the envelope held:
//! how many records, the values of its few-valued fields with their counts
//! (`Action: output ×96, run ×47, fail ×5`), the names of the others.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// Records that must carry the text for a stream to be read as one.
const MIN_TEXT_RECORDS: usize = 2;

/// A field with at most this many distinct values has them listed.
const FEW_VALUES: usize = 6;

/// The stream `text` (JSON Lines, no line-number prefixes) as its envelope
/// line and its unwrapped text folded within `target_tokens`, or `None`
/// when it carries no text (fewer than [`MIN_TEXT_RECORDS`] records hold a
/// newline-ended string at the same field).
pub fn unwrap(text: &str, target_tokens: Option<u32>) -> Option<String> {
    // A newline-ended string ends `\n"` in JSON: without one, no record
    // carries text, and the records are not parsed twice (see `jsonl`).
    if !text.contains("\\n\"") {
        return None;
    }
    let mut records = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if !line.starts_with('{') {
            return None;
        }
        records.push(serde_json::from_str::<Map<String, Value>>(line).ok()?);
    }
    let field = text_field(&records)?;
    let mut printed = String::new();
    let mut carrying = 0;
    for record in &records {
        if let Some(t) = text_at(record, &field) {
            printed.push_str(t);
            carrying += 1;
        }
    }
    let folded = ghost_log_folding::compress_within(&printed, target_tokens);
    Some(format!(
        "[JSON Lines: {} records; {}; the `{}` text of {carrying} of them below, folded as a log]\n{}",
        records.len(),
        envelope(&records, &field),
        field.join("."),
        folded.text
    ))
}

/// The field (a top-level key, or a key of a top-level object) holding a
/// newline-ended string in the most records, if enough hold one.
fn text_field(records: &[Map<String, Value>]) -> Option<Vec<String>> {
    let mut counts: BTreeMap<Vec<String>, usize> = BTreeMap::new();
    for record in records {
        for (key, value) in record {
            match value {
                Value::String(s) if s.ends_with('\n') => {
                    *counts.entry(vec![key.clone()]).or_default() += 1;
                }
                Value::Object(inner) => {
                    for (k, v) in inner {
                        if v.as_str().is_some_and(|s| s.ends_with('\n')) {
                            *counts.entry(vec![key.clone(), k.clone()]).or_default() += 1;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    counts
        .into_iter()
        .filter(|(_, n)| *n >= MIN_TEXT_RECORDS)
        .max_by_key(|(_, n)| *n)
        .map(|(field, _)| field)
}

/// The newline-ended string at `field` of `record`.
fn text_at<'a>(record: &'a Map<String, Value>, field: &[String]) -> Option<&'a str> {
    let mut value = record.get(&field[0])?;
    for key in &field[1..] {
        value = value.get(key)?;
    }
    value.as_str().filter(|s| s.ends_with('\n'))
}

/// What the records' other top-level fields hold: the values of a
/// few-valued scalar field with their counts, most frequent first; the
/// names of the rest.
fn envelope(records: &[Map<String, Value>], field: &[String]) -> String {
    let mut keys: Vec<&str> = Vec::new();
    let mut values: BTreeMap<&str, Vec<(String, usize)>> = BTreeMap::new();
    let mut varied: BTreeMap<&str, bool> = BTreeMap::new();
    for record in records {
        for (key, value) in record {
            if !values.contains_key(key.as_str()) {
                keys.push(key);
                values.insert(key, Vec::new());
            }
            let many = varied.entry(key).or_default();
            let shown = match value {
                Value::String(s) if !s.contains('\n') => s.clone(),
                Value::Bool(_) | Value::Number(_) => value.to_string(),
                _ => {
                    *many = true;
                    continue;
                }
            };
            let seen = values.get_mut(key.as_str()).expect("inserted above");
            if let Some((_, n)) = seen.iter_mut().find(|(v, _)| *v == shown) {
                *n += 1;
            } else if seen.len() < FEW_VALUES {
                seen.push((shown, 1));
            } else {
                *many = true;
            }
        }
    }
    let mut listed = Vec::new();
    let mut others = Vec::new();
    for key in keys {
        if key == field[0] && field.len() == 1 {
            continue;
        }
        let seen = &values[key];
        if varied[key] || seen.is_empty() {
            others.push(key);
            continue;
        }
        let mut seen = seen.clone();
        seen.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        let list: Vec<String> = seen.iter().map(|(v, n)| format!("{v} ×{n}")).collect();
        listed.push(format!("{key}: {}", list.join(", ")));
    }
    if !others.is_empty() {
        listed.push(format!("also {}", others.join(", ")));
    }
    listed.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_carrying_text_is_read_as_its_log() {
        let mut text = String::new();
        for t in 0..40 {
            for (action, output) in [
                ("run", None),
                ("output", Some(format!("=== RUN   TestQty{t}\\n"))),
                ("output", Some(format!("--- PASS: TestQty{t} (0.00s)\\n"))),
                ("pass", None),
            ] {
                let output = output.map_or(String::new(), |o| format!(",\"Output\":\"{o}\""));
                text.push_str(&format!(
                    "{{\"Time\":\"2026-11-27T23:27:52.{t:06}Z\",\"Action\":\"{action}\",\"Package\":\"example.com/calc\",\"Test\":\"TestQty{t}\"{output}}}\n"
                ));
            }
        }
        text.push_str("{\"Action\":\"output\",\"Package\":\"example.com/calc\",\"Test\":\"TestPadded\",\"Output\":\"    parse_test.go:48: Qty(\\\" 3\\\"): invalid syntax\\n\"}\n");
        text.push_str("{\"Action\":\"output\",\"Package\":\"example.com/calc\",\"Test\":\"TestPadded\",\"Output\":\"--- FAIL: TestPadded (0.00s)\\n\"}\n");
        text.push_str(
            "{\"Action\":\"fail\",\"Package\":\"example.com/calc\",\"Test\":\"TestPadded\"}\n",
        );
        let out = unwrap(&text, None).expect("a stream carrying text");
        let first = out.lines().next().unwrap();
        assert!(
            first.starts_with("[JSON Lines: 163 records; Action: output ×82, run ×40, pass ×40, fail ×1; Package: example.com/calc ×163; also Time, Test; the `Output` text of 82 of them below"),
            "{first}"
        );
        // The failure, unescaped, as the tool printed it.
        assert!(
            out.contains("    parse_test.go:48: Qty(\" 3\"): invalid syntax"),
            "{out}"
        );
        assert!(out.contains("--- FAIL: TestPadded (0.00s)"), "{out}");
        assert!(out.len() * 4 < text.len(), "{out}");
    }

    #[test]
    fn a_nested_text_field_is_found_and_records_without_text_are_not_a_stream() {
        let cargo = "{\"reason\":\"compiler-artifact\",\"package_id\":\"a 0.1.0\"}\n\
            {\"reason\":\"compiler-message\",\"message\":{\"message\":\"unused variable: `y`\",\"rendered\":\"warning: unused variable: `y`\\n --> src/lib.rs:3:9\\n\"}}\n\
            {\"reason\":\"compiler-message\",\"message\":{\"message\":\"mismatched types\",\"rendered\":\"error[E0308]: mismatched types\\n --> src/lib.rs:9:5\\n\"}}\n\
            {\"reason\":\"build-finished\",\"success\":false}\n";
        let out = unwrap(cargo, None).expect("rendered diagnostics");
        assert!(
            out.contains("the `message.rendered` text of 2 of them"),
            "{out}"
        );
        assert!(out.contains("error[E0308]: mismatched types"), "{out}");
        assert!(out.contains("success: false ×1"), "{out}");
        assert_eq!(unwrap("{\"a\":\"x\\n\"}\n{\"a\":\"y\"}\n", None), None);
        assert_eq!(unwrap("{\"a\":1}\nplain\n", None), None);
    }
}
