//! YAML and XML read into the same tree as JSON (`serde_json::Value`), so one
//! outline renders them all. XML elements become objects: attributes as
//! `@name`, text as `#text`, children by tag (repeated tags as arrays).

use quick_xml::events::Event;
use serde_json::{Map, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// `text` as YAML, when it is a mapping or a sequence (a YAML parser accepts
/// almost any text as a plain string; that is not structured data).
pub fn yaml(text: &str) -> Option<Value> {
    let docs = YamlLoader::load_from_str(text).ok()?;
    let values: Vec<Value> = docs
        .into_iter()
        .filter(|d| matches!(d, Yaml::Hash(_) | Yaml::Array(_)))
        .map(yaml_to_json)
        .collect();
    match values.len() {
        0 => None,
        1 => values.into_iter().next(),
        _ => Some(Value::Array(values)),
    }
}

fn yaml_to_json(y: Yaml) -> Value {
    match y {
        Yaml::Real(r) => r
            .parse::<f64>()
            .map(Value::from)
            .unwrap_or(Value::String(r)),
        Yaml::Integer(i) => Value::from(i),
        Yaml::String(s) => Value::String(s),
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Array(a) => Value::Array(a.into_iter().map(yaml_to_json).collect()),
        Yaml::Hash(h) => Value::Object(
            h.into_iter()
                .map(|(k, v)| {
                    let key = match k {
                        Yaml::String(s) => s,
                        Yaml::Integer(i) => i.to_string(),
                        Yaml::Boolean(b) => b.to_string(),
                        Yaml::Real(r) => r,
                        other => format!("{other:?}"),
                    };
                    (key, yaml_to_json(v))
                })
                .collect::<Map<_, _>>(),
        ),
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

/// An outline of YAML that does not parse: every `key:` line down to `depth`
/// levels of indentation is kept; the lines between fold into `… N lines`.
pub fn yaml_by_indentation(text: &str, depth: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let unit = lines
        .iter()
        .map(|l| l.len() - l.trim_start().len())
        .filter(|&n| n > 0)
        .min()
        .unwrap_or(2);
    let mut out = String::new();
    let mut folded = 0;
    for line in &lines {
        let t = line.trim_start();
        let level = (line.len() - t.len()) / unit;
        let is_key = t
            .trim_start_matches("- ")
            .split_once(':')
            .is_some_and(|(k, _)| !k.is_empty() && !k.contains(' ') || k.starts_with('"'));
        if !t.is_empty() && !t.starts_with('#') && level < depth && is_key {
            if folded > 0 {
                out.push_str(&format!(
                    "{}… {folded} lines\n",
                    " ".repeat(unit * (level + 1))
                ));
                folded = 0;
            }
            out.push_str(line.trim_end());
            out.push('\n');
        } else if !t.is_empty() {
            folded += 1;
        }
    }
    if folded > 0 {
        out.push_str(&format!("… {folded} lines\n"));
    }
    out
}

/// `text` as XML, when it is well-formed with one root element.
pub fn xml(text: &str) -> Option<Value> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut stack: Vec<(String, Map<String, Value>)> = Vec::new();
    let mut root: Option<Value> = None;
    loop {
        match reader.read_event().ok()? {
            Event::Start(e) => {
                let name = e.name().as_ref().to_owned();
                stack.push((name, attributes(&e)));
            }
            Event::Empty(e) => {
                let name = e.name().as_ref().to_owned();
                let element = Value::Object(attributes(&e));
                attach(&mut stack, &mut root, name, element);
            }
            Event::Text(t) => {
                let text = t.trim().to_string();
                if let (false, Some((_, map))) = (text.is_empty(), stack.last_mut()) {
                    map.insert("#text".into(), Value::String(text));
                }
            }
            Event::CData(t) => {
                if let Some((_, map)) = stack.last_mut() {
                    map.insert("#text".into(), Value::String(t.to_string()));
                }
            }
            Event::End(_) => {
                let (name, mut map) = stack.pop()?;
                // An element holding only text is that text.
                let element = match map.len() {
                    1 if map.contains_key("#text") => map.remove("#text").unwrap_or_default(),
                    _ => Value::Object(map),
                };
                attach(&mut stack, &mut root, name, element);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !stack.is_empty() {
        return None;
    }
    root
}

fn attributes(e: &quick_xml::events::BytesStart<'_>) -> Map<String, Value> {
    e.attributes()
        .flatten()
        .map(|a| {
            let key = format!("@{}", a.key.as_ref());
            (key, Value::String(a.value.to_string()))
        })
        .collect()
}

/// Puts a finished element under its parent (repeated tags become an array),
/// or makes it the root.
fn attach(
    stack: &mut [(String, Map<String, Value>)],
    root: &mut Option<Value>,
    name: String,
    element: Value,
) {
    match stack.last_mut() {
        Some((_, parent)) => match parent.get_mut(&name) {
            Some(Value::Array(items)) => items.push(element),
            Some(existing) => {
                let first = existing.take();
                *existing = Value::Array(vec![first, element]);
            }
            None => {
                parent.insert(name, element);
            }
        },
        None => {
            let mut map = Map::new();
            map.insert(name, element);
            *root = Some(Value::Object(map));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_and_xml_become_trees() {
        let y = yaml("name: ghost\nversion: 1\ntags:\n  - a\n  - b\n").unwrap();
        assert_eq!(y["name"], "ghost");
        assert!(yaml("just a sentence").is_none());
        let x = xml("<project a=\"1\"><dep>x</dep><dep>y</dep><name>n</name></project>").unwrap();
        assert_eq!(x["project"]["@a"], "1");
        assert_eq!(x["project"]["dep"].as_array().unwrap().len(), 2);
        assert!(xml("<a><b></a>").is_none());
    }
}
