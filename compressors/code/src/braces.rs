//! Folding for brace languages (Rust, JavaScript/TypeScript, Go, Java, C,
//! C#, Swift, Kotlin, …): a small lexer that skips strings, characters and
//! comments counts braces; blocks opened by a type, trait, impl, class,
//! interface or module keep their members, every other block (a function
//! body, a closure, an object literal) is folded.

use crate::source::Line;

/// Whether each line is kept (`true`) or folded.
pub fn keep_mask(lines: &[Line<'_>]) -> Vec<bool> {
    let mut lexer = Lexer::default();
    let mut stack: Vec<Block> = Vec::new();
    let mut keep = vec![true; lines.len()];
    // The declaration a brace may close over lines: Java's `public class
    // ArrayDeque<E> extends …` then `implements …` then `{`, Rust's `impl …`
    // then `where …` then `{`. The code since the last statement ended.
    let mut statement = String::new();
    for (i, line) in lines.iter().enumerate() {
        let body_at = stack.iter().position(|b| *b == Block::Body);
        for event in lexer.braces(line.code) {
            match event {
                Brace::Open(pos) => {
                    let own = &line.code[..pos];
                    let joined;
                    let header = if statement.is_empty() {
                        own
                    } else {
                        joined = format!("{statement}{own}");
                        joined.as_str()
                    };
                    let kind = if stack.contains(&Block::Body) {
                        Block::Body
                    } else if header.contains("macro_rules!")
                        || stack.last() == Some(&Block::Transparent) && header.contains("=>")
                    {
                        // A macro's rules are read like items: the items they
                        // expand to keep their signatures.
                        Block::Transparent
                    } else {
                        classify(header)
                    };
                    stack.push(kind);
                }
                Brace::Close => {
                    stack.pop();
                }
            }
        }
        // Inside a body that is still open after this line: folded, unless
        // it declares a nested item (a helper `fn inner` inside a function).
        if let Some(b) = body_at {
            keep[i] = stack.len() <= b || is_item_declaration(line.code);
        }
        let t = line.code.trim();
        let ends_statement = t.is_empty()
            || t.starts_with("//")
            || t.starts_with("/*")
            || t.starts_with('*')
            || t.ends_with(['{', '}', ';']);
        if ends_statement {
            statement.clear();
        } else if statement.len() < STATEMENT_AT_MOST {
            statement.push_str(t);
            statement.push(' ');
        }
    }
    keep
}

/// The most of a declaration over several lines read as a brace's header.
const STATEMENT_AT_MOST: usize = 400;

/// What a block is for.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Block {
    /// Its members are declarations worth keeping.
    Container,
    /// Its contents are an implementation: folded.
    Body,
    /// A macro definition or one of its rules: read like the top level.
    Transparent,
}

/// A line that starts an item declaration, after any visibility and qualifiers.
fn is_item_declaration(code: &str) -> bool {
    let mut t = code.trim_start();
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "export ",
        "async ",
        "const ",
        "unsafe ",
        "extern \"C\" ",
        "default ",
    ] {
        t = t.strip_prefix(prefix).unwrap_or(t);
    }
    [
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "impl ",
        "impl<",
        "mod ",
        "function ",
        "class ",
        "func ",
        // Tcl's: a command defined inside another's body (a logger
        // defined one way or another by a setter) is an item all the same.
        "proc ",
    ]
    .iter()
    .any(|k| t.starts_with(k))
        // R names a function by assigning it (`helper <- function(x) {`),
        // in a package's closure as at the top level.
        || t.contains("<- function")
}

/// Keywords whose block holds declarations.
const CONTAINERS: &[&str] = &[
    "impl",
    "trait",
    "struct",
    "enum",
    "union",
    "mod",
    "class",
    "interface",
    "namespace",
    "module",
    "extern",
    "object",
    "record",
    "protocol",
    "extension",
    "type",
];

fn classify(header: &str) -> Block {
    // `fn` before the brace (a function, even inside `impl`) is a body.
    let words: Vec<&str> = header
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let is_function = words
        .iter()
        .any(|w| matches!(*w, "fn" | "function" | "func" | "def"))
        || header.contains("=>")
        // (C's `extern int\nf(void)` is a function; Rust's `extern "C" {`
        // a container.)
        || header.trim_end().ends_with(')')
            && !words
                .iter()
                .any(|w| CONTAINERS.contains(w) && *w != "extern");
    if is_function {
        return Block::Body;
    }
    if words.iter().any(|w| CONTAINERS.contains(w)) && !assigns(header)
        || header.trim_end().ends_with("= struct")
    {
        return Block::Container;
    }
    Block::Body
}

/// Whether `header` assigns what its brace opens (`const x = {`, `type T =
/// {`, `module.exports = class {`): an `=` outside brackets. One inside is
/// not: a template's default argument (C++'s `template<typename _Compare =
/// less<_Key>> class map`), a parameter's default value.
fn assigns(header: &str) -> bool {
    let mut depth = 0i32;
    for c in header.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = (depth - 1).max(0),
            '=' if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// A brace event on a line: an opening brace at a byte offset, or a closing one.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Brace {
    Open(usize),
    Close,
}

/// Lexer state carried from line to line.
#[derive(Debug, Default)]
struct Lexer {
    in_block_comment: bool,
    /// Inside a string that may span lines: its closing delimiter.
    in_string: Option<char>,
}

impl Lexer {
    /// The braces of `code` that are code (not in a string or comment).
    fn braces(&mut self, code: &str) -> Vec<Brace> {
        let b = code.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if self.in_block_comment {
                if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    self.in_block_comment = false;
                    i += 1;
                }
                i += 1;
                continue;
            }
            if let Some(close) = self.in_string {
                if b[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if b[i] as char == close {
                    self.in_string = None;
                }
                i += 1;
                continue;
            }
            match b[i] {
                b'/' if b.get(i + 1) == Some(&b'/') => break,
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    self.in_block_comment = true;
                    i += 1;
                }
                b'"' | b'`' => self.in_string = Some(b[i] as char),
                // A character literal ('x', '\n', '{'); a Rust lifetime ('a) is not one.
                b'\'' => {
                    let close = if b.get(i + 1) == Some(&b'\\') {
                        i + 3
                    } else {
                        i + 2
                    };
                    if b.get(close) == Some(&b'\'')
                        || b.get(close + 1) == Some(&b'\'') && b.get(i + 1) == Some(&b'\\')
                    {
                        i = if b.get(close) == Some(&b'\'') {
                            close
                        } else {
                            close + 1
                        };
                    }
                }
                b'{' => out.push(Brace::Open(i)),
                b'}' => out.push(Brace::Close),
                _ => {}
            }
            i += 1;
        }
        // A string opened with " on this line and not closed stays open only
        // in languages where that is legal; both " and ` may span lines.
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source;

    fn kept(code: &str) -> Vec<String> {
        let (lines, _) = source::lines(code);
        let mask = keep_mask(&lines);
        lines
            .iter()
            .zip(mask)
            .filter(|(_, k)| *k)
            .map(|(l, _)| l.code.to_string())
            .collect()
    }

    #[test]
    fn folds_function_bodies_keeps_members() {
        let code = "use std::fmt;\n\npub struct A {\n    x: u32,\n}\n\nimpl A {\n    pub fn new() -> Self {\n        let s = \"}\";\n        A { x: 1 }\n    }\n    fn one(&self) -> u32 { self.x }\n}\n";
        let k = kept(code);
        assert!(k.contains(&"    x: u32,".to_string()));
        assert!(k.contains(&"    pub fn new() -> Self {".to_string()));
        assert!(!k.iter().any(|l| l.contains("let s")));
        assert!(k.contains(&"    fn one(&self) -> u32 { self.x }".to_string()));
        assert_eq!(k.iter().filter(|l| l.trim() == "}").count(), 3);
    }

    #[test]
    fn a_declaration_over_several_lines_opens_its_block() {
        let java = "public class ArrayDeque<E> extends AbstractCollection<E>\n                           implements Deque<E>, Cloneable\n{\n    transient Object[] elements;\n\n    public ArrayDeque(int numElements) {\n        elements = new Object[numElements];\n    }\n}\n";
        let k = kept(java);
        assert!(
            k.contains(&"    transient Object[] elements;".to_string()),
            "{k:?}"
        );
        assert!(k.contains(&"    public ArrayDeque(int numElements) {".to_string()));
        assert!(!k.contains(&"        elements = new Object[numElements];".to_string()));
        let c = "extern int\ninit(int x)\n{\n\treturn x;\n}\n";
        assert!(
            !kept(c).contains(&"\treturn x;".to_string()),
            "{:?}",
            kept(c)
        );
        let rust = "impl<T> Stack<T>\nwhere\n    T: Clone,\n{\n    pub fn push(&mut self, t: T) {\n        self.0.push(t);\n    }\n}\n";
        let k = kept(rust);
        assert!(
            k.contains(&"    pub fn push(&mut self, t: T) {".to_string()),
            "{k:?}"
        );
        assert!(!k.contains(&"        self.0.push(t);".to_string()));
    }

    #[test]
    fn a_template_class_with_default_arguments_keeps_its_members() {
        // libstdc++'s style: the template's head, the class, its brace and
        // each member's return type on lines of their own.
        let cpp = "  template<typename _Key, typename _Compare = std::less<_Key>>\n    class ledger\n    {\n    public:\n      iterator\n      begin() noexcept\n      { return _M_t.begin(); }\n\n      mapped_type&\n      at(const key_type& __k)\n      {\n\titerator __i = lower_bound(__k);\n\treturn (*__i).second;\n      }\n    };\n";
        let k = kept(cpp);
        assert!(k.contains(&"      begin() noexcept".to_string()), "{k:?}");
        assert!(k.contains(&"      at(const key_type& __k)".to_string()));
        assert!(!k.iter().any(|l| l.contains("lower_bound")));
        // An object assigned is still a body.
        let js = "const table = {\n  a: 1,\n  b: 2,\n  c: 3,\n};\n";
        assert!(!kept(js).contains(&"  b: 2,".to_string()));
        let ts = "type Options = {\n  name: string;\n};\n";
        assert!(!kept(ts).contains(&"  name: string;".to_string()));
    }

    #[test]
    fn a_tcl_proc_defined_in_a_body_keeps_its_head() {
        let tcl = "proc ::safe::setLogCmd {args} {\n    variable Log\n    if {$Log eq \"\"} {\n\tproc ::safe::Log {args} {}\n    } else {\n\tproc ::safe::Log {child msg} {\n\t    variable Log\n\t    {*}$Log \"$child : $msg\"\n\t}\n    }\n}\n";
        let k = kept(tcl);
        assert!(
            k.contains(&"\tproc ::safe::Log {args} {}".to_string()),
            "{k:?}"
        );
        assert!(k.contains(&"\tproc ::safe::Log {child msg} {".to_string()));
        assert!(!k.iter().any(|l| l.contains("{*}$Log")));
    }

    #[test]
    fn an_r_function_assigned_in_a_body_keeps_its_head() {
        let r = "function(...) {\n  helper <- function(x) {\n    y <- x + 1\n    y * 2\n  }\n  other <- function() NULL\n  z <- 3\n}\n";
        let k = kept(r);
        assert!(
            k.contains(&"  helper <- function(x) {".to_string()),
            "{k:?}"
        );
        assert!(k.contains(&"  other <- function() NULL".to_string()));
        assert!(
            !k.iter()
                .any(|l| l.contains("y * 2") || l.contains("z <- 3"))
        );
    }

    #[test]
    fn js_classes_and_go_functions() {
        let js = "class Command extends EventEmitter {\n  constructor(name) {\n    super();\n    this.name = name;\n  }\n}\n";
        let k = kept(js);
        assert!(k.contains(&"  constructor(name) {".to_string()));
        assert!(!k.iter().any(|l| l.contains("super()")));
        let go = "type Client struct {\n\tName string\n}\n\nfunc (c *Client) Do() error {\n\treturn nil\n}\n";
        let k = kept(go);
        assert!(k.contains(&"\tName string".to_string()));
        assert!(!k.iter().any(|l| l.contains("return nil")));
    }
}
