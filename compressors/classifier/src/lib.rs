//! ghost's built-in content classifier: labels a tool result `log`, `code`,
//! `structured`, `prose`, `error` or `prompt`.
//!
//! It looks at the hints first (the tool that produced the text, the file it
//! came from), then at the content (JSON shape, stack-trace markers, code
//! keywords at line starts, timestamps, sentence structure). A first version:
//! simple signals, fast, no model. It never sees anything but the request.

#[cfg(target_arch = "wasm32")]
mod component;

/// The classes, mirroring the WIT `content-class` enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Build, test, server and command output.
    Log,
    /// Source code.
    Code,
    /// JSON, YAML, TOML, CSV, XML.
    Structured,
    /// Natural-language text.
    Prose,
    /// An exception, panic or stack trace.
    Error,
    /// The user's own words.
    Prompt,
}

/// What the classifier knows about a text besides its content.
#[derive(Debug, Clone, Copy, Default)]
pub struct Hints<'a> {
    /// The agent tool that produced it.
    pub tool_name: Option<&'a str>,
    /// The file it came from.
    pub source_path: Option<&'a str>,
}

/// Classifies `text`, returning the class and a confidence from 0 to 1.
pub fn classify(text: &str, hints: Hints<'_>) -> (Class, f32) {
    if hints.tool_name.is_some_and(|t| {
        t.eq_ignore_ascii_case("UserPromptSubmit") || t.eq_ignore_ascii_case("prompt")
    }) {
        return (Class::Prompt, 1.0);
    }
    if let Some(class) = hints.source_path.and_then(class_from_path) {
        return (class, 0.9);
    }
    let sample = head(text, 64 * 1024);
    if looks_like_error(sample) {
        return (Class::Error, 0.8);
    }
    if looks_structured(sample) {
        return (Class::Structured, 0.85);
    }
    let lines: Vec<&str> = sample
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(400)
        .collect();
    if lines.is_empty() {
        return (Class::Log, 0.3);
    }
    let share = |f: &dyn Fn(&str) -> bool| {
        lines.iter().filter(|l| f(l)).count() as f32 / lines.len() as f32
    };
    let code = share(&|l| starts_with_code_keyword(l.trim_start()));
    let timestamped = share(&|l| starts_with_timestamp(l));
    let sentences = share(&|l| {
        l.len() > 60
            && l.split_whitespace().count() > 10
            && l.trim_end().ends_with(['.', '?', '!', ':'])
    });
    let tool_is_shell = hints
        .tool_name
        .is_some_and(|t| t == "Bash" || t.starts_with("mcp__"));
    if timestamped > 0.3 || tool_is_shell && code < 0.3 {
        return (Class::Log, 0.6 + timestamped.min(0.3));
    }
    if code > 0.15 {
        return (Class::Code, (0.5 + code).min(0.95));
    }
    if sentences > 0.3 || hints.tool_name == Some("WebFetch") {
        return (Class::Prose, (0.5 + sentences).min(0.9));
    }
    (Class::Log, 0.5)
}

fn head(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn class_from_path(path: &str) -> Option<Class> {
    let ext = path.rsplit('.').next()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "rs" | "py" | "js" | "mjs" | "cjs" | "ts" | "tsx" | "jsx" | "go" | "java" | "kt" | "c"
        | "h" | "cc" | "cpp" | "hpp" | "cs" | "rb" | "ex" | "exs" | "erl" | "swift" | "scala"
        | "php" | "sh" | "bash" | "zsh" | "lua" | "zig" | "hs" | "ml" | "sql" | "css" | "html"
        | "vue" => Class::Code,
        "json" | "yaml" | "yml" | "toml" | "csv" | "tsv" | "xml" | "lock" => Class::Structured,
        "md" | "markdown" | "txt" | "rst" | "adoc" => Class::Prose,
        "log" | "out" => Class::Log,
        _ => return None,
    })
}

fn looks_like_error(sample: &str) -> bool {
    let first = sample.lines().take(3).any(|l| {
        l.starts_with("Traceback (most recent call last)")
            || l.contains("panicked at")
            || l.starts_with("Exception in thread")
            || l.starts_with("goroutine ") && l.ends_with(':')
            || l.starts_with("** (")
    });
    let frames = sample.lines().take(200).filter(|l| {
        let t = l.trim_start();
        t.starts_with("at ") && t.contains('(') || t.starts_with("File \"") && t.contains(", line ")
    });
    first || frames.count() >= 3 && sample.lines().count() < 400
}

fn looks_structured(sample: &str) -> bool {
    let t = sample.trim();
    (t.starts_with('{') && t.ends_with('}'))
        || (t.starts_with('[') && t.ends_with(']') && t.contains('"'))
        || t.starts_with("<?xml")
}

fn starts_with_code_keyword(l: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "fn ",
        "pub ",
        "use ",
        "impl ",
        "struct ",
        "enum ",
        "mod ",
        "let ",
        "def ",
        "class ",
        "import ",
        "from ",
        "return ",
        "function ",
        "const ",
        "var ",
        "export ",
        "package ",
        "func ",
        "#include",
        "#define",
        "public ",
        "private ",
        "static ",
        "if (",
        "for (",
        "}",
        "defmodule ",
    ];
    KEYWORDS.iter().any(|k| l.starts_with(k))
}

fn starts_with_timestamp(l: &str) -> bool {
    let b = l.as_bytes();
    b.len() > 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-'
        || b.len() > 8 && b[0] == b'[' && b[1].is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_by_hint_and_content() {
        let none = Hints::default();
        assert_eq!(
            classify(
                "x",
                Hints {
                    source_path: Some("src/lib.rs"),
                    ..none
                }
            )
            .0,
            Class::Code
        );
        assert_eq!(classify("{\"a\": [1, 2]}", none).0, Class::Structured);
        assert_eq!(
            classify(
                "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'x'",
                none
            )
            .0,
            Class::Error
        );
        assert_eq!(
            classify(
                "2024-01-01 12:00:00 INFO start\n2024-01-01 12:00:01 INFO ok\n",
                none
            )
            .0,
            Class::Log
        );
        assert_eq!(
            classify("fn main() {\n    let x = 1;\n}\nfn other() {}\n", none).0,
            Class::Code
        );
        assert_eq!(
            classify(
                "please fix it",
                Hints {
                    tool_name: Some("prompt"),
                    ..none
                }
            )
            .0,
            Class::Prompt
        );
    }
}
