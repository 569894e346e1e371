//! JSON Lines (`.jsonl`, `.ndjson`): one record per line, each kept on its
//! own line (with Claude Code's `N→` prefix when it had one, so a Read keeps
//! its real line numbers) and shrunk: every key of the record's top level,
//! long strings cut with their length, long arrays sampled, deep values
//! summarised.

use serde_json::{Map, Value};

/// Strings longer than this many characters are cut.
const MAX_STRING_CHARS: usize = 48;
/// Characters of a cut string that are kept.
const KEPT_STRING_CHARS: usize = 32;
/// Items of an array shown before the rest is counted.
const ARRAY_ITEMS: usize = 2;
/// Deeper objects and arrays are summarised by their size.
const MAX_DEPTH: usize = 3;

/// `text` as shrunk JSON Lines, or `None` when it is not JSON Lines: at
/// least two records, every non-blank line (after an optional `N→` prefix)
/// a JSON object or array.
pub fn records(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() / 4);
    let mut records = 0;
    for line in text.lines() {
        let (prefix, body) = split_line_number(line);
        let trimmed = body.trim();
        if trimmed.is_empty() {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
            return None;
        }
        let value: Value = serde_json::from_str(trimmed).ok()?;
        records += 1;
        out.push_str(prefix);
        compact(&value, 0, &mut out);
        out.push('\n');
    }
    (records >= 2).then_some(out)
}

/// `("12→", rest)` for a line with Read's prefix, else `("", line)`.
pub(crate) fn split_line_number(line: &str) -> (&str, &str) {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    match t[digits..].strip_prefix('→') {
        Some(rest) if digits > 0 => (&line[..line.len() - rest.len()], rest),
        _ => ("", line),
    }
}

fn compact(v: &Value, depth: usize, out: &mut String) {
    match v {
        Value::Object(map) => object(map, depth, out),
        Value::Array(items) => array(items, depth, out),
        Value::String(s) => out.push_str(&string(s)),
        other => out.push_str(&other.to_string()),
    }
}

fn string(s: &str) -> String {
    let chars = s.chars().count();
    if chars <= MAX_STRING_CHARS {
        return Value::String(s.to_string()).to_string();
    }
    let head: String = s.chars().take(KEPT_STRING_CHARS).collect();
    let quoted = Value::String(head).to_string();
    format!(
        "{}…(+{} chars)\"",
        &quoted[..quoted.len() - 1],
        chars - KEPT_STRING_CHARS
    )
}

fn object(map: &Map<String, Value>, depth: usize, out: &mut String) {
    if map.is_empty() {
        out.push_str("{}");
        return;
    }
    if depth >= MAX_DEPTH {
        out.push_str(&format!("{{…{} keys}}", map.len()));
        return;
    }
    out.push('{');
    for (i, (k, v)) in map.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&Value::String(k.clone()).to_string());
        out.push(':');
        compact(v, depth + 1, out);
    }
    out.push('}');
}

fn array(items: &[Value], depth: usize, out: &mut String) {
    if items.is_empty() {
        out.push_str("[]");
        return;
    }
    if depth >= MAX_DEPTH {
        out.push_str(&format!("[…{} items]", items.len()));
        return;
    }
    out.push('[');
    for (i, v) in items.iter().take(ARRAY_ITEMS).enumerate() {
        if i > 0 {
            out.push(',');
        }
        compact(v, depth + 1, out);
    }
    if items.len() > ARRAY_ITEMS {
        out.push_str(&format!(",…+{} items", items.len() - ARRAY_ITEMS));
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_keep_their_line_numbers_and_top_level_keys() {
        let long = "x".repeat(500);
        let text = format!(
            "7→{{\"type\":\"user\",\"message\":{{\"content\":\"{long}\"}}}}\n8→{{\"type\":\"assistant\",\"n\":[1,2,3,4]}}\n"
        );
        let out = records(&text).expect("JSON Lines");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("7→{\"type\":\"user\",\"message\":{\"content\":\"xxx"));
        assert!(lines[0].contains("…(+468 chars)\""), "{}", lines[0]);
        assert_eq!(lines[1], "8→{\"type\":\"assistant\",\"n\":[1,2,…+2 items]}");
        assert!(out.len() < text.len() / 3);
    }

    #[test]
    fn anything_else_is_not_json_lines() {
        assert_eq!(records("{\"a\": 1}\n"), None, "one record");
        assert_eq!(records("{\"a\": 1}\nplain text\n"), None);
        assert_eq!(records("{\n  \"a\": 1\n}\n"), None, "pretty JSON");
        assert!(records("{\"a\":1}\n\n[2]\n").is_some());
    }
}
