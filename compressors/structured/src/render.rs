//! Rendering a parsed document as a short outline: every key path down to a
//! depth, the first items of long arrays (and the first entries of long maps
//! whose values share a shape) plus `… and N more items of the same shape`,
//! long strings cut with their length.

use serde_json::{Map, Value};

/// Knobs of the outline.
#[derive(Debug, Clone)]
pub struct Outline {
    /// Deepest level whose keys are listed; deeper values are summarised.
    pub max_depth: usize,
    /// Items of an array shown before the rest is summarised.
    pub array_items: usize,
    /// A map with more entries than this, all of one shape, is sampled like an array.
    pub map_entries: usize,
    /// Strings longer than this are cut.
    pub max_string: usize,
}

impl Default for Outline {
    fn default() -> Self {
        Self {
            max_depth: 4,
            array_items: 2,
            map_entries: 12,
            max_string: 80,
        }
    }
}

impl Outline {
    /// Renders `value` as indented JSON-like lines.
    pub fn render(&self, value: &Value) -> String {
        let mut out = String::new();
        self.value(value, 0, &mut out);
        out.push('\n');
        out
    }

    fn value(&self, v: &Value, depth: usize, out: &mut String) {
        match v {
            Value::Object(map) => self.object(map, depth, out),
            Value::Array(items) => self.array(items, depth, out),
            Value::String(s) => out.push_str(&self.string(s)),
            other => out.push_str(&other.to_string()),
        }
    }

    fn string(&self, s: &str) -> String {
        if s.chars().count() <= self.max_string {
            return Value::String(s.to_string()).to_string();
        }
        let head: String = s.chars().take(self.max_string * 3 / 4).collect();
        format!(
            "{}… ({} chars)",
            Value::String(head).to_string().trim_end_matches('"'),
            s.chars().count()
        )
    }

    fn object(&self, map: &Map<String, Value>, depth: usize, out: &mut String) {
        if map.is_empty() {
            out.push_str("{}");
            return;
        }
        if depth >= self.max_depth {
            out.push_str(&format!("{{… {} keys: {}}}", map.len(), key_list(map, 6)));
            return;
        }
        let pad = "  ".repeat(depth + 1);
        out.push_str("{\n");
        // A long map whose values all share one shape (versions → dates,
        // packages → entries) is sampled like an array, except at the top.
        let sample = depth > 0 && map.len() > self.map_entries && one_shape(map.values());
        let shown = if sample { self.array_items } else { map.len() };
        for (k, v) in map.iter().take(shown) {
            out.push_str(&pad);
            out.push_str(&Value::String(k.clone()).to_string());
            out.push_str(": ");
            self.value(v, depth + 1, out);
            out.push('\n');
        }
        if sample {
            // The last entry too: in version and time maps it is the newest.
            let (last_key, last_value) = map.iter().next_back().expect("non-empty");
            out.push_str(&format!(
                "{pad}… and {} more keys of the same shape {}\n",
                map.len() - shown - 1,
                shape(last_value)
            ));
            out.push_str(&pad);
            out.push_str(&Value::String(last_key.clone()).to_string());
            out.push_str(": ");
            self.value(last_value, depth + 1, out);
            out.push('\n');
        }
        out.push_str(&"  ".repeat(depth));
        out.push('}');
    }

    fn array(&self, items: &[Value], depth: usize, out: &mut String) {
        if items.is_empty() {
            out.push_str("[]");
            return;
        }
        if items.iter().all(|v| !v.is_object() && !v.is_array()) && items.len() <= 8 {
            let parts: Vec<String> = items
                .iter()
                .map(|v| match v {
                    Value::String(s) => self.string(s),
                    other => other.to_string(),
                })
                .collect();
            out.push_str(&format!("[{}]", parts.join(", ")));
            return;
        }
        if depth >= self.max_depth {
            out.push_str(&format!(
                "[… {} items of shape {}]",
                items.len(),
                shape(&items[0])
            ));
            return;
        }
        let pad = "  ".repeat(depth + 1);
        out.push_str("[\n");
        let shown = items.len().min(self.array_items);
        for v in &items[..shown] {
            out.push_str(&pad);
            self.value(v, depth + 1, out);
            out.push('\n');
        }
        if items.len() > shown + 1 {
            let rest = &items[shown..items.len() - 1];
            let same = one_shape(rest.iter().chain(std::iter::once(&items[0])));
            out.push_str(&format!(
                "{pad}… and {} more items {}\n",
                rest.len(),
                if same {
                    format!("of the same shape {}", shape(&items[0]))
                } else {
                    "of mixed shapes".to_string()
                }
            ));
        }
        if items.len() > shown {
            // The last item too: lists often grow at the end.
            out.push_str(&pad);
            self.value(&items[items.len() - 1], depth + 1, out);
            out.push('\n');
        }
        out.push_str(&"  ".repeat(depth));
        out.push(']');
    }
}

/// The first `n` keys of `map`, quoted, and how many more.
fn key_list(map: &Map<String, Value>, n: usize) -> String {
    let mut keys: Vec<String> = map
        .keys()
        .take(n)
        .map(|k| Value::String(k.clone()).to_string())
        .collect();
    if map.len() > n {
        keys.push(format!("+{}", map.len() - n));
    }
    keys.join(", ")
}

/// A type signature: `{"name": string, "version": string}`, `[number]`.
pub fn shape(v: &Value) -> String {
    fn inner(v: &Value, depth: usize) -> String {
        match v {
            Value::Null => "null".into(),
            Value::Bool(_) => "bool".into(),
            Value::Number(_) => "number".into(),
            Value::String(_) => "string".into(),
            Value::Array(items) => match items.first() {
                Some(first) if depth < 2 => format!("[{}]", inner(first, depth + 1)),
                Some(_) => "[…]".into(),
                None => "[]".into(),
            },
            Value::Object(map) if depth < 2 => {
                let fields: Vec<String> = map
                    .iter()
                    .take(8)
                    .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), inner(v, depth + 1)))
                    .collect();
                let more = if map.len() > 8 {
                    format!(", +{}", map.len() - 8)
                } else {
                    String::new()
                };
                format!("{{{}{more}}}", fields.join(", "))
            }
            Value::Object(map) => format!("{{… {} keys}}", map.len()),
        }
    }
    inner(v, 0)
}

/// Whether all values have the same kind and, for objects, the same keys.
fn one_shape<'a>(mut values: impl Iterator<Item = &'a Value>) -> bool {
    let Some(first) = values.next() else {
        return true;
    };
    values.all(|v| same_kind(first, v))
}

fn same_kind(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let shared = x.keys().filter(|k| y.contains_key(*k)).count();
            shared * 2 >= x.len().max(y.len())
        }
        (Value::Array(_), Value::Array(_)) => true,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_long_arrays_and_cuts_strings() {
        let items: Vec<Value> = (0..50)
            .map(|i| serde_json::json!({"id": i, "name": format!("n{i}")}))
            .collect();
        let doc = serde_json::json!({"items": items, "note": "x".repeat(300), "ok": true});
        let out = Outline::default().render(&doc);
        assert!(out.contains("\"items\": ["));
        assert!(
            out.contains(
                "… and 47 more items of the same shape {\"id\": number, \"name\": string}"
            ),
            "{out}"
        );
        assert!(out.contains("… (300 chars)"), "{out}");
        assert!(out.contains("\"ok\": true"));
    }
}
