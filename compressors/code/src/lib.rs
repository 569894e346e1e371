//! ghost's built-in code compressor.
//!
//! Keeps what an agent navigates by: imports, exports, type, struct, enum,
//! trait and class declarations, function and method signatures, constants,
//! and the first line of each doc comment; folds function bodies to a line
//! that says how many lines were folded and which (`… 12 lines (41–52)`), so
//! the agent can read exactly that range later. One-line functions stay whole.
//! Line numbers from Claude Code's `N→` prefixes survive on every kept line.
//!
//! Brace languages fold by a brace-depth lexer ([`braces`]), Python by
//! indentation ([`indentation`]), Elixir and Ruby by `do … end` blocks
//! ([`doend`]); any other language falls back to whichever fits its text.

pub mod braces;
pub mod doend;
pub mod indentation;
pub mod parsed;
pub mod source;

#[cfg(target_arch = "wasm32")]
mod component;

use source::Line;

/// Fewer lines than this are printed rather than folded.
const MIN_FOLD: usize = 3;

/// Comment runs longer than this keep only their first line.
const COMMENT_RUN: usize = 2;

/// Compressed code and notes about it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedCode {
    /// The compressed text.
    pub text: String,
    /// Short notes, e.g. "812 lines → 140, 35 bodies folded".
    pub notes: Vec<String>,
}

/// How a file is folded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Syntax {
    /// Blocks in braces.
    Braces,
    /// Blocks by indentation.
    Indentation,
    /// Blocks in `do … end` (Elixir, Ruby), with their braces too.
    DoEnd,
}

/// Picks the folding for `source_path`'s extension, or from the text.
pub fn syntax_of(source_path: Option<&str>, lines: &[Line<'_>]) -> Syntax {
    let ext = source_path
        .and_then(|p| p.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("py" | "pyi" | "pyw") => Syntax::Indentation,
        Some("ex" | "exs" | "rb" | "rake") => Syntax::DoEnd,
        Some(_) if ext.as_deref().is_some_and(|e| !matches!(e, "txt" | "md")) => Syntax::Braces,
        _ => {
            let defs = lines
                .iter()
                .filter(|l| {
                    let t = l.code.trim_start();
                    (t.starts_with("def ") || t.starts_with("class "))
                        && t.trim_end().ends_with(':')
                })
                .count();
            let braces = lines
                .iter()
                .filter(|l| l.code.trim_end().ends_with('{'))
                .count();
            if defs > braces {
                Syntax::Indentation
            } else {
                Syntax::Braces
            }
        }
    }
}

fn is_comment(code: &str) -> bool {
    let t = code.trim_start();
    t.starts_with("//")
        || t.starts_with("/*")
        || t.starts_with("* ")
        || t == "*"
        || t.starts_with("*/")
        || t.starts_with('#')
            && !t.starts_with("#[")
            && !t.starts_with("#!")
            && !t.starts_with("#include")
            && !t.starts_with("#define")
}

/// Whether a comment line shows a declaration (after its comment marks):
/// `/// pub fn parse(s: &str)`, ` * class Foo`, `struct MyFlags;`.
fn declares_item(code: &str) -> bool {
    const DECLARATIONS: &[&str] = &[
        "pub ",
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "type ",
        "const ",
        "static ",
        "mod ",
        "impl ",
        "impl<",
        "class ",
        "def ",
        "interface ",
        "function ",
        "export ",
    ];
    let t = code
        .trim_start()
        .trim_start_matches(['/', '*', '!', '#'])
        .trim_start();
    DECLARATIONS.iter().any(|d| t.starts_with(d))
}

/// Which lines are comments: lines [`is_comment`] recognises, and in
/// brace languages every line of a `/* … */` block (a crate's `/*!` docs
/// hold plain Markdown lines).
fn comment_lines(lines: &[Line<'_>], syntax: Syntax) -> Vec<bool> {
    let mut comment: Vec<bool> = lines.iter().map(|l| is_comment(l.code)).collect();
    if syntax == Syntax::Indentation {
        return comment;
    }
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].code.trim_start();
        if t.starts_with("/*") && !t.contains("*/") {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].code.contains("*/"))
                .unwrap_or(lines.len() - 1);
            comment[i..=end].iter_mut().for_each(|c| *c = true);
            i = end + 1;
        } else {
            i += 1;
        }
    }
    comment
}

/// Languages with a real parser here.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Language {
    /// Parsed with `syn`.
    Rust,
    /// Parsed with Ruff's parser.
    Python,
    /// Parsed with oxc (JavaScript, TypeScript, JSX).
    JavaScript,
    /// Parsed with `gosyn`.
    Go,
    /// No parser: the lexer-based folding.
    Other,
}

/// The language of `source_path`, or (with no path) a guess from the syntax.
fn language_of(source_path: Option<&str>, syntax: Syntax) -> Language {
    match source_path.and_then(|p| p.rsplit_once('.')).map(|(_, e)| e) {
        Some("rs") => Language::Rust,
        Some("py" | "pyi") => Language::Python,
        Some("js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx") => Language::JavaScript,
        Some("go") => Language::Go,
        None if syntax == Syntax::Indentation => Language::Python,
        _ => Language::Other,
    }
}

/// Inputs larger than this are folded by the lexer alone: parsing is slower,
/// and the deadline is per call.
const MAX_PARSED_BYTES: usize = 256 << 10;

/// The folds from a real parse of the whole text, when it parses.
fn parse(
    language: Language,
    source_path: Option<&str>,
    lines: &[Line<'_>],
    bytes: usize,
) -> Option<parsed::Folds> {
    if bytes > MAX_PARSED_BYTES {
        return None;
    }
    let source: String = lines.iter().map(|l| l.code).collect::<Vec<_>>().join("\n");
    match language {
        Language::Rust => parsed::rust::folds(&source),
        Language::Python => parsed::python::folds(&source),
        Language::JavaScript => parsed::javascript::folds(&source, source_path?),
        Language::Go => parsed::go::folds(&source),
        Language::Other => None,
    }
}

/// Compresses `text`; `source_path`, when known, picks the syntax.
pub fn compress(text: &str, source_path: Option<&str>) -> CompressedCode {
    let (lines, numbered) = source::lines(text);
    let syntax = syntax_of(source_path, &lines);
    let language = language_of(source_path, syntax);
    let lexer = match syntax {
        Syntax::Braces => braces::keep_mask(&lines),
        Syntax::Indentation => indentation::keep_mask(&lines),
        Syntax::DoEnd => braces::keep_mask(&lines)
            .into_iter()
            .zip(doend::keep_mask(&lines))
            .map(|(a, b)| a && b)
            .collect(),
    };
    let mut keep = match parse(language, source_path, &lines, text.len()) {
        Some(folds) => folds.mask(lines.len(), &lexer),
        None => lexer,
    };
    // Doc comments and comment blocks: the first line says what follows.
    let comment = comment_lines(&lines, syntax);
    let mut i = 0;
    while i < lines.len() {
        if keep[i] && comment[i] {
            let mut j = i + 1;
            while j < lines.len() && keep[j] && comment[j] {
                j += 1;
            }
            if j - i > COMMENT_RUN {
                // A declaration in a doc's example (`pub struct Flags: u32 {`)
                // names the API: it stays with the first line.
                // A run opened by marks alone (`/*!`, `/**`) says what it is
                // on its next line.
                let marks_only = !lines[i].code.chars().any(char::is_alphanumeric);
                for k in i + 1..j {
                    keep[k] = declares_item(lines[k].code) || marks_only && k == i + 1;
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }

    let mut out: Vec<String> = Vec::new();
    let mut folds = 0;
    let mut i = 0;
    while i < lines.len() {
        if keep[i] {
            out.push(lines[i].raw.trim_end().to_string());
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && !keep[i] {
            i += 1;
        }
        // A fold of blank lines only is just dropped; one shorter than its
        // marker line is worth is not a fold.
        if lines[start..i].iter().all(|l| l.code.trim().is_empty()) {
            continue;
        }
        if i - start < MIN_FOLD {
            out.extend(lines[start..i].iter().map(|l| l.raw.trim_end().to_string()));
            continue;
        }
        folds += 1;
        let (first, last) = (lines[start].number, lines[i - 1].number);
        let indent: String = lines[start..i]
            .iter()
            .find(|l| !l.code.trim().is_empty())
            .map(|l| l.code.chars().take_while(|c| c.is_whitespace()).collect())
            .unwrap_or_default();
        let n = i - start;
        out.push(if numbered {
            format!("{indent}… lines {first}–{last} folded (Read offset={first} limit={n})")
        } else {
            format!("{indent}… {n} lines ({first}–{last})")
        });
    }
    let summary = format!(
        "{} lines → {}, {folds} blocks folded",
        lines.len(),
        out.len() + 1
    );
    out.push(format!("[ghost code: {summary}]"));
    let mut text = out.join("\n");
    text.push('\n');
    CompressedCode {
        text,
        notes: vec![summary],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_doc_comment_folds_to_its_first_line_and_its_declarations() {
        let src = "/*!\nGenerate flags types.\n\n# Getting started\n\nAdd it to Cargo.toml, then:\n\n```rust\npub struct Flags: u32 {\n```\n*/\n\npub fn parse(s: &str) -> u32 {\n    s.len() as u32\n}\n";
        let out = compress(src, Some("src/lib.rs")).text;
        assert!(out.starts_with("/*!\nGenerate flags types.\n"), "{out}");
        assert!(out.contains("pub struct Flags: u32 {"), "{out}");
        assert!(!out.contains("# Getting started"), "{out}");
        assert!(out.contains("pub fn parse(s: &str) -> u32 {"), "{out}");
    }

    #[test]
    fn read_line_numbers_survive_and_ranges_are_actionable() {
        let mut text = String::new();
        let body = [
            "pub fn add(a: u32, b: u32) -> u32 {",
            "    let c = a + b;",
            "    let d = c * 2;",
            "    d - c",
            "}",
        ];
        for (k, l) in body.iter().enumerate() {
            text.push_str(&format!("{:>6}→{l}\n", 40 + k));
        }
        let out = compress(&text, Some("src/lib.rs")).text;
        assert!(
            out.contains("    40→pub fn add(a: u32, b: u32) -> u32 {"),
            "{out}"
        );
        assert!(
            out.contains("    … lines 41–43 folded (Read offset=41 limit=3)"),
            "{out}"
        );
        assert!(out.contains("    44→}"));
    }
}
