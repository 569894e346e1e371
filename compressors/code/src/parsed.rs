//! Folding from a real parse: the parser says where every function body
//! starts and ends, so nothing is guessed. Used when the file parses (a whole
//! file in a language with a parser here); the lexer-based folders are the
//! fallback for other languages and for fragments (a Read with an offset).

/// What the parse found: line ranges (0-based, inclusive) of function-body
/// interiors to fold, and lines to keep even inside them (the signatures of
/// functions nested in other functions).
#[derive(Debug, Default)]
pub struct Folds {
    /// Interiors of function bodies.
    pub bodies: Vec<(usize, usize)>,
    /// Lines kept even inside a folded body.
    pub keep: Vec<(usize, usize)>,
    /// Regions the parser does not look inside (a Rust macro's rules are
    /// token trees): the lexer-based folding decides there.
    pub unparsed: Vec<(usize, usize)>,
}

impl Folds {
    /// The keep mask for `n` lines; `lexer` is the lexer-based mask, used in
    /// the regions the parser did not look inside.
    pub fn mask(&self, n: usize, lexer: &[bool]) -> Vec<bool> {
        let mut keep = vec![true; n];
        for &(a, b) in &self.unparsed {
            let region = a.min(n)..(b + 1).min(n);
            keep[region.clone()].copy_from_slice(&lexer[region]);
        }
        for &(a, b) in &self.bodies {
            keep[a.min(n)..(b + 1).min(n)]
                .iter_mut()
                .for_each(|k| *k = false);
        }
        for &(a, b) in &self.keep {
            keep[a.min(n)..(b + 1).min(n)]
                .iter_mut()
                .for_each(|k| *k = true);
        }
        keep
    }
}

/// Where each line of a source starts: turns a parser's byte offsets into
/// 0-based line numbers.
pub struct LineIndex(Vec<usize>);

impl LineIndex {
    /// Indexes `source`.
    pub fn new(source: &str) -> Self {
        Self(
            std::iter::once(0)
                .chain(source.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        )
    }

    /// The 0-based line holding byte `offset`.
    pub fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&s| s <= offset) - 1
    }
}

/// Rust, read as tokens (see [`crate::rust_lexer`]: strings, raw strings,
/// lifetimes and nested comments as the compiler reads them). A function
/// is `fn NAME`, its body the first brace-delimited group after its name
/// outside generic arguments (a declaration without one ends at `;`).
/// What a full parse (`syn`) adds, a syntax tree of every expression, is
/// not needed to find bodies, and made a Rust file cost 300 ms per MB in
/// the sandbox. On 18,814 Rust files of crates.io this finds what `syn`
/// did (and, where `syn` failed, on 2 of them, folds what lexes). A file
/// that does not lex (an unclosed delimiter, a fragment) is left to the
/// lexer-based folding.
pub mod rust {
    use super::Folds;
    use crate::rust_lexer::tokens;
    use crate::tokens::{Kind, Token, next};

    /// The folds of a Rust file, or `None` when it does not lex.
    pub fn folds(source: &str) -> Option<Folds> {
        let tokens = tokens(source)?;
        let mut folds = Folds::default();
        walk(&tokens, 0..tokens.len(), Context::Items, 0, &mut folds);
        Some(folds)
    }

    /// What a group's tokens are.
    #[derive(Clone, Copy, PartialEq)]
    enum Context {
        /// A file's or a module's items: a macro called where an item
        /// starts is an item (`macro_rules! name { … }`, `a::m! { … }`).
        Items,
        /// A block's statements (a constant's `{ … }`): only a macro
        /// defining a name there is an item (`macro_rules! name { … }`);
        /// others (`assert!(…)`) are statements.
        Block,
        /// The members of an `impl`, a `trait` or an `extern` block, or
        /// anything else (an expression, a type, fields): its macro calls
        /// are not items.
        Other,
    }

    /// Whether `token` is the punctuation `ch`.
    fn is_punct(token: Option<&Token<'_>>, ch: u8) -> bool {
        matches!(token, Some(Token { kind: Kind::Punct { ch: c, .. }, .. }) if *c == ch)
    }

    /// Records the functions and item macros among `tokens[range]`, the
    /// tokens of one group, inside `fn_depth` function bodies.
    fn walk(
        tokens: &[Token<'_>],
        range: std::ops::Range<usize>,
        context: Context,
        fn_depth: usize,
        folds: &mut Folds,
    ) {
        let end = range.end;
        // Where the current item began: an item starts the group, and
        // after a `;`, a braced group or an attribute.
        let mut item_start = range.start;
        let mut i = range.start;
        while i < end {
            let at_item_start = i == item_start;
            let following = tokens.get(i + 1).filter(|_| i + 1 < end);
            match tokens[i].kind {
                Kind::Ident("fn")
                    if matches!(
                        following,
                        Some(Token {
                            kind: Kind::Ident(_),
                            ..
                        })
                    ) =>
                {
                    i = function(tokens, i, end, fn_depth, folds);
                    item_start = i;
                    continue;
                }
                Kind::Ident(name) => {
                    if let Some((open, after)) = macro_call(tokens, i, end)
                        && !is_keyword(name)
                    {
                        // A macro's tokens are not read as Rust: the
                        // lexer-based folding decides inside an item macro
                        // (one called where an item starts, by a path or
                        // not: `macro_rules! name { … }`, `a::m! { … }`).
                        let item = tokens[item_start..i].iter().all(|t| match t.kind {
                            Kind::Ident(_) => true,
                            Kind::Punct { ch, .. } => ch == b':',
                            _ => false,
                        });
                        let names = open > i + 2;
                        let is_item = item
                            && fn_depth == 0
                            && (context == Context::Items || context == Context::Block && names);
                        let (first, last) = (tokens[open].line, tokens[after - 1].line);
                        if is_item && last > first + 1 {
                            folds.unparsed.push((first, last - 2));
                        }
                        i = after;
                        if matches!(
                            tokens[open].kind,
                            Kind::Open {
                                delimiter: b'{',
                                ..
                            }
                        ) {
                            item_start = i;
                        }
                        continue;
                    }
                }
                Kind::Open {
                    delimiter,
                    end: after,
                } => {
                    // An attribute (`#[…]`, `#![…]`) ends where an item
                    // may start; its tokens are its own, as a macro's are.
                    let attribute = delimiter == b'['
                        && (i > range.start && is_punct(tokens.get(i - 1), b'#')
                            || i > range.start + 1
                                && is_punct(tokens.get(i - 1), b'!')
                                && is_punct(tokens.get(i - 2), b'#'));
                    if !attribute {
                        // Braces at item level hold items (a module's),
                        // statements (a constant's block) or members (an
                        // `impl`'s).
                        let head = || siblings(tokens, item_start, i);
                        let members = || {
                            head()
                                .any(|t| matches!(t.kind, Kind::Ident("impl" | "trait" | "extern")))
                        };
                        let inner = if delimiter != b'{' || context != Context::Items || members() {
                            Context::Other
                        } else if head().any(|t| t.kind == Kind::Ident("mod")) {
                            Context::Items
                        } else {
                            Context::Block
                        };
                        walk(tokens, i + 1..after - 1, inner, fn_depth, folds);
                    }
                    i = after;
                    if delimiter == b'{' || attribute {
                        item_start = i;
                    }
                    continue;
                }
                Kind::Punct { ch: b';', .. } => {
                    i += 1;
                    item_start = i;
                    continue;
                }
                // An attribute's `#`, and an inner one's `!`, leave the
                // item starting after them.
                Kind::Punct { ch: b'#', .. } if at_item_start => {
                    i += 1;
                    item_start = i;
                    continue;
                }
                Kind::Punct { ch: b'!', .. }
                    if at_item_start && i > range.start && is_punct(tokens.get(i - 1), b'#') =>
                {
                    i += 1;
                    item_start = i;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// The tokens of one group from `from` to `to`, a group standing for
    /// its opener.
    fn siblings<'t, 'a>(
        tokens: &'t [Token<'a>],
        from: usize,
        to: usize,
    ) -> impl Iterator<Item = &'t Token<'a>> {
        let mut k = from;
        std::iter::from_fn(move || {
            (k < to).then(|| {
                let token = &tokens[k];
                k = next(tokens, k);
                token
            })
        })
    }

    /// When a macro is called at `tokens[i]` (`name!(…)`, `macro_rules!
    /// name { … }`), the index of the group opening its tokens and the
    /// index after that group.
    fn macro_call(tokens: &[Token<'_>], i: usize, end: usize) -> Option<(usize, usize)> {
        if i + 2 >= end || !is_punct(tokens.get(i + 1), b'!') {
            return None;
        }
        let open = match tokens[i + 2].kind {
            Kind::Ident(_) => i + 3,
            _ => i + 2,
        };
        match tokens.get(open).filter(|_| open < end)?.kind {
            Kind::Open { end: after, .. } => Some((open, after)),
            _ => None,
        }
    }

    /// Whether `id` is one of Rust's keywords, which may stand before a
    /// `!` (`if !(…)`, `impl Trait for ! { … }`) but name no macro.
    fn is_keyword(id: &str) -> bool {
        const KEYWORDS: &[&str] = &[
            "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else",
            "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match",
            "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct",
            "super", "trait", "true", "type", "unsafe", "use", "where", "while", "yield",
        ];
        KEYWORDS.contains(&id)
    }

    /// Records the function whose `fn` is `tokens[at]` (its body, and its
    /// signature when it is inside another function), then the functions
    /// inside it; answers the index after it. Lines are 1-based in tokens;
    /// folds are 0-based.
    fn function(
        tokens: &[Token<'_>],
        at: usize,
        end: usize,
        fn_depth: usize,
        folds: &mut Folds,
    ) -> usize {
        let sig_line = tokens[at].line;
        // Up to the body, or to the `;` ending a declaration. Braces
        // inside generic arguments (`-> ArrayString<{ 2 * N }>`) are a
        // constant's, not the body.
        let mut angles = 0usize;
        let mut j = at + 2;
        while j < end {
            match tokens[j].kind {
                Kind::Open {
                    delimiter: b'{',
                    end: after,
                } if angles == 0 => {
                    let (open, close) = (tokens[j].line, tokens[after - 1].line);
                    if fn_depth > 0 {
                        // A function inside a function: its signature
                        // stays visible.
                        folds.keep.push((sig_line - 1, open - 1));
                    }
                    if close > open + 1 {
                        folds.bodies.push((open, close - 2));
                    }
                    walk(
                        tokens,
                        j + 1..after - 1,
                        Context::Block,
                        fn_depth + 1,
                        folds,
                    );
                    return after;
                }
                Kind::Punct { ch: b';', .. } => return j + 1,
                Kind::Punct { ch: b'<', .. } => angles += 1,
                // (Not an arrow's `>`.)
                Kind::Punct { ch: b'>', .. }
                    if !matches!(
                        tokens[j - 1].kind,
                        Kind::Punct {
                            ch: b'-',
                            joint: true
                        }
                    ) =>
                {
                    angles = angles.saturating_sub(1);
                }
                _ => {}
            }
            j = next(tokens, j);
        }
        end
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn rust_bodies_fold_nested_signatures_stay() {
        let src = "pub fn a() -> u32 {\n    fn inner(x: u32) -> u32 {\n        x + 1\n    }\n    inner(1)\n}\nfn one() { }\n";
        let folds = super::rust::folds(src).unwrap();
        let mask = folds.mask(src.lines().count(), &[true; 7]);
        assert_eq!(mask, vec![true, true, false, false, false, true, true]);
        assert!(super::rust::folds("fn broken( {").is_none());
    }

    /// The keep mask of `src` with every line the lexer would keep.
    fn rust_mask(src: &str) -> Vec<bool> {
        let n = src.lines().count();
        super::rust::folds(src).unwrap().mask(n, &vec![true; n])
    }

    #[test]
    fn rust_braces_in_a_signature_or_a_string_are_not_a_body() {
        let src = "pub fn to_hex(&self) -> ArrayString<{ 2 * LEN }> {\n    let s = \"}\";\n                       let r = r#\"{\"#;\n    s\n}\nfn next() {}\n";
        assert_eq!(rust_mask(src), [true, false, false, false, true, true]);
        let never =
            "impl Serialize for ! {\n    fn serialize(&self) -> u8 {\n        *self\n    }\n}\n";
        assert_eq!(rust_mask(never), [true, true, false, true, true]);
    }

    #[test]
    fn rust_macros_and_attributes_are_not_read_as_code() {
        // An item macro's rules are left to the lexer (here: folded), a function in
        // an attribute's tokens is not one, a macro in a function is in
        // its body.
        let src = "macro_rules! twice {\n    ($e:expr) => {\n        $e; $e\n    };\n}\n                   #[error(\"{}\", {\n    fn fmt() -> u8 {\n        1\n    }\n})]\nstruct E;\n";
        let n = src.lines().count();
        let mask = super::rust::folds(src).unwrap().mask(n, &vec![false; n]);
        assert_eq!(mask[..5], [true, false, false, false, true]);
        assert!(mask[5..].iter().all(|&k| k), "{mask:?}");
    }
}

/// Python, parsed with Ruff's parser.
pub mod python {
    use ruff_python_ast::{Expr, Stmt};
    use ruff_text_size::Ranged;

    use super::{Folds, LineIndex};

    /// The folds of a Python module, or `None` when it does not parse.
    pub fn folds(source: &str) -> Option<Folds> {
        let parsed = ruff_python_parser::parse_module(source).ok()?;
        let mut walker = Walker {
            lines: LineIndex::new(source),
            folds: Folds::default(),
        };
        let body = &parsed.syntax().body;
        walker.docstring(body.first());
        walker.block(body, false);
        Some(walker.folds)
    }

    struct Walker {
        lines: LineIndex,
        folds: Folds,
    }

    /// A string literal assigned outside functions folds from this many lines.
    const LONG_STRING_LINES: usize = 4;

    impl Walker {
        /// The 0-based line of a byte offset.
        fn line(&self, offset: ruff_text_size::TextSize) -> usize {
            self.lines.line(offset.to_usize())
        }

        /// The line of a docstring's summary (its first line of text) when
        /// `stmt` is a docstring.
        fn docstring_summary(&self, stmt: &Stmt) -> Option<usize> {
            let Stmt::Expr(e) = stmt else {
                return None;
            };
            let Expr::StringLiteral(doc) = &*e.value else {
                return None;
            };
            Some(self.first_text_line(doc))
        }

        /// The line of a string literal's first line of text: `"""` alone
        /// on its line puts it on the next one.
        fn first_text_line(&self, literal: &ruff_python_ast::ExprStringLiteral) -> usize {
            let start = self.line(literal.start());
            let text = literal.value.to_str();
            let opens_alone = text.starts_with('\n') && !text.trim().is_empty();
            if opens_alone { start + 1 } else { start }
        }

        /// Folds a module's or class's docstring after its summary line
        /// (PEP 257: the first line says what it is; the rest is one Read
        /// away).
        fn docstring(&mut self, first: Option<&Stmt>) {
            let Some(first) = first else {
                return;
            };
            if let Some(summary) = self.docstring_summary(first) {
                let end = self.line(first.end());
                if summary < end {
                    self.folds.bodies.push((summary + 1, end));
                }
            }
        }

        /// Folds a string literal spanning more than [`LONG_STRING_LINES`]
        /// lines after its first line of text.
        fn long_string(&mut self, value: &Expr) {
            let end = self.line(value.end());
            if end < self.line(value.start()) + LONG_STRING_LINES {
                return;
            }
            let first = match value {
                Expr::StringLiteral(literal) => self.first_text_line(literal),
                _ => self.line(value.start()),
            };
            if first < end {
                self.folds.bodies.push((first + 1, end));
            }
        }

        fn block(&mut self, body: &[Stmt], in_function: bool) {
            for stmt in body {
                match stmt {
                    Stmt::FunctionDef(f) => {
                        let def_line = self.line(f.name.start());
                        let (Some(first), Some(last)) = (f.body.first(), f.body.last()) else {
                            continue;
                        };
                        let first_line = self.line(first.start());
                        // The signature ends where its parameters or return annotation do.
                        let header_end = f.returns.as_ref().map_or(f.parameters.end(), |r| r.end());
                        let header_end = self.line(header_end);
                        if in_function {
                            self.folds.keep.push((def_line, header_end));
                        }
                        // A docstring's summary stays; the rest folds with the body
                        // (comments before the first statement included).
                        let fold_from = match self.docstring_summary(first) {
                            Some(summary) => summary + 1,
                            None => header_end + 1,
                        };
                        let fold_to = self.line(last.end());
                        if first_line > header_end && fold_from <= fold_to {
                            self.folds.bodies.push((fold_from, fold_to));
                        }
                        self.block(&f.body, true);
                    }
                    Stmt::ClassDef(c) => {
                        if in_function && let Some(first) = c.body.first() {
                            let class_line = self.line(c.range.start());
                            self.folds.keep.push((
                                class_line,
                                self.line(first.start()).saturating_sub(1).max(class_line),
                            ));
                        }
                        self.docstring(c.body.first());
                        self.block(&c.body, in_function);
                    }
                    Stmt::If(s) => {
                        self.block(&s.body, in_function);
                        for clause in &s.elif_else_clauses {
                            self.block(&clause.body, in_function);
                        }
                    }
                    Stmt::Try(s) => {
                        self.block(&s.body, in_function);
                        self.block(&s.orelse, in_function);
                        self.block(&s.finalbody, in_function);
                    }
                    // A long string assigned at module or class level (a
                    // docstring template, a SQL query) is text, not
                    // structure: its first line of text stays, like a
                    // docstring's summary.
                    Stmt::Assign(a) if !in_function => self.long_string(&a.value),
                    Stmt::AnnAssign(a) if !in_function => {
                        if let Some(value) = &a.value {
                            self.long_string(value);
                        }
                    }
                    Stmt::With(s) => self.block(&s.body, in_function),
                    Stmt::For(s) => self.block(&s.body, in_function),
                    Stmt::While(s) => self.block(&s.body, in_function),
                    _ => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod python_tests {
    /// The lines of `src` its Python folds keep.
    fn kept(src: &str) -> Vec<&str> {
        let folds = super::python::folds(src).unwrap();
        let n = src.lines().count();
        let mask = folds.mask(n, &vec![true; n]);
        src.lines()
            .zip(&mask)
            .filter(|(_, k)| **k)
            .map(|(l, _)| l)
            .collect()
    }

    #[test]
    fn python_bodies_fold_docstring_and_nested_signatures_stay() {
        let src = "import os\n\ndef a(x,\n      y):\n    \"\"\"Doc.\n\n    More.\n    \"\"\"\n    def inner():\n        return 1\n    return inner()\n\ndef one(): return 1\n";
        assert_eq!(
            kept(src),
            vec![
                "import os",
                "",
                "def a(x,",
                "      y):",
                "    \"\"\"Doc.",
                "    def inner():",
                "",
                "def one(): return 1"
            ]
        );
        assert!(super::python::folds("def broken(:\n").is_none());
    }

    #[test]
    fn long_strings_outside_functions_keep_their_first_line() {
        let src = "TEMPLATE = \"\"\"\n    Reduce this {cls}'s data.\n\n    Parameters\n    dim : str\n\"\"\"\nSHORT = \"\"\"a\nb\"\"\"\nclass A:\n    query: str = \"\"\"SELECT *\n    FROM t\n    WHERE x\n    AND z\n    ORDER BY y\"\"\"\n";
        assert_eq!(
            kept(src),
            vec![
                "TEMPLATE = \"\"\"",
                "    Reduce this {cls}'s data.",
                "SHORT = \"\"\"a",
                "b\"\"\"",
                "class A:",
                "    query: str = \"\"\"SELECT *",
            ]
        );
    }

    #[test]
    fn module_and_class_docstrings_keep_their_summary_line() {
        let src = "\"\"\"\nForm helpers.\n\nLong story.\n\"\"\"\nimport os\n\nclass A:\n    \"\"\"One line.\n\n    More.\n    \"\"\"\n    x = 1\n\nclass B:\n    \"\"\"Short.\"\"\"\n";
        assert_eq!(
            kept(src),
            vec![
                "\"\"\"",
                "Form helpers.",
                "import os",
                "",
                "class A:",
                "    \"\"\"One line.",
                "    x = 1",
                "",
                "class B:",
                "    \"\"\"Short.\"\"\""
            ]
        );
    }
}

/// JavaScript and TypeScript, parsed with oxc.
pub mod javascript {
    use oxc_ast::ast::{ArrowFunctionExpression, Function, FunctionBody};
    use oxc_ast_visit::Visit;
    use oxc_syntax::scope::ScopeFlags;

    use super::{Folds, LineIndex};

    /// The folds of a JS/TS file (`path` gives the dialect: `.ts`, `.tsx`,
    /// `.jsx`, `.mjs`, …), or `None` when it does not parse.
    pub fn folds(source: &str, path: &str) -> Option<Folds> {
        let source_type = oxc_span::SourceType::from_path(path).ok()?;
        let allocator = oxc_allocator::Allocator::default();
        let parsed = oxc_parser::Parser::new(&allocator, source, source_type).parse();
        if parsed.panicked || !parsed.diagnostics.is_empty() {
            return None;
        }
        let mut v = Visitor {
            lines: LineIndex::new(source),
            folds: Folds::default(),
            depth: 0,
            named: false,
        };
        v.visit_program(&parsed.program);
        Some(v.folds)
    }

    struct Visitor {
        lines: LineIndex,
        folds: Folds,
        depth: usize,
        /// Whether the body about to be visited is a named function's.
        named: bool,
    }

    impl Visitor {
        fn line(&self, offset: u32) -> usize {
            self.lines.line(offset as usize)
        }
    }

    impl<'a> Visit<'a> for Visitor {
        fn visit_function(&mut self, f: &Function<'a>, flags: ScopeFlags) {
            self.named = f.id.is_some();
            oxc_ast_visit::walk::walk_function(self, f, flags);
        }

        fn visit_arrow_function_expression(&mut self, f: &ArrowFunctionExpression<'a>) {
            self.named = false;
            oxc_ast_visit::walk::walk_arrow_function_expression(self, f);
        }

        fn visit_function_body(&mut self, body: &FunctionBody<'a>) {
            let open = self.line(body.span.start);
            let close = self.line(body.span.end.saturating_sub(1));
            if self.depth > 0 && std::mem::take(&mut self.named) {
                // A named function inside a function: the line that opens it
                // stays (callbacks and closures fold with their caller).
                self.folds.keep.push((open, open));
            }
            if close > open + 1 {
                self.folds.bodies.push((open + 1, close - 1));
            }
            self.depth += 1;
            oxc_ast_visit::walk::walk_function_body(self, body);
            self.depth -= 1;
        }
    }
}

#[cfg(test)]
mod javascript_tests {
    #[test]
    fn js_and_ts_bodies_fold() {
        let src = "import x from 'x';\nexport class A {\n  run(n: number): number {\n    function f(y) {\n      return y;\n    };\n    return f(n);\n  }\n}\n";
        let folds = super::javascript::folds(src, "a.ts").unwrap();
        let mask = folds.mask(src.lines().count(), &[true; 9]);
        assert_eq!(
            mask,
            vec![true, true, true, true, false, false, false, true, true]
        );
        assert!(super::javascript::folds("function (", "a.js").is_none());
    }
}

/// Go, read as tokens (see [`crate::go_lexer`]). A function declaration
/// is a `func` starting a line at the file's top level (after what ends a
/// statement: not `var f = func() {`, whose literal is a value); its body
/// is the first braced group after it on the line its signature ends on
/// that is no `struct { … }` or `interface { … }` type. A declaration
/// with no body (one written in assembly) ends at its line's end. On the
/// 1,907 Go files of five projects (fzf, gin, etcd, prometheus, cobra)
/// this finds what `gosyn`'s parse found, but in 88 files where text
/// before a body is not ASCII: there `gosyn`'s offsets (not bytes) put
/// the body's lines off by as many lines as that text shifted them. It
/// costs a tenth of the parse.
pub mod go {
    use super::Folds;
    use crate::go_lexer::tokens;
    use crate::tokens::{Kind, Token, last_line, next};

    /// The folds of a Go file, or `None` when it does not lex.
    pub fn folds(source: &str) -> Option<Folds> {
        let tokens = tokens(source)?;
        let mut folds = Folds::default();
        // The top-level token before `i`.
        let mut previous: Option<usize> = None;
        let mut i = 0;
        while i < tokens.len() {
            if tokens[i].kind == Kind::Ident("func") && starts_statement(&tokens, previous, i) {
                i = function(&tokens, i, &mut folds);
                previous = None;
                continue;
            }
            previous = Some(i);
            i = next(&tokens, i);
        }
        Some(folds)
    }

    /// Whether `tokens[i]` starts a statement, `previous` being the token
    /// before it at its level: the first, or after a `;`, or on a later
    /// line than a token ending a statement there (Go puts the `;` in
    /// after a name, a literal or a closer; not after an operator).
    fn starts_statement(tokens: &[Token<'_>], previous: Option<usize>, i: usize) -> bool {
        let Some(p) = previous else {
            return true;
        };
        match tokens[p].kind {
            Kind::Punct { ch, .. } => ch == b';',
            _ => last_line(tokens, p) < tokens[i].line,
        }
    }

    /// Records the body of the function declared at `tokens[at]` (`func`)
    /// and answers the index after the declaration.
    fn function(tokens: &[Token<'_>], at: usize, folds: &mut Folds) -> usize {
        let mut line = tokens[at].line;
        let mut type_keyword = false;
        let mut j = next(tokens, at);
        while j < tokens.len() && tokens[j].line == line {
            match tokens[j].kind {
                Kind::Open {
                    delimiter: b'{',
                    end,
                } if !type_keyword => {
                    let (open, close) = (tokens[j].line, tokens[end - 1].line);
                    if close > open + 1 {
                        folds.bodies.push((open, close - 2));
                    }
                    return end;
                }
                Kind::Punct { ch: b';', .. } => return j + 1,
                kind => type_keyword = matches!(kind, Kind::Ident("struct" | "interface")),
            }
            line = last_line(tokens, j);
            j = next(tokens, j);
        }
        j
    }
}

#[cfg(test)]
mod go_tests {
    #[test]
    fn go_function_bodies_fold() {
        let src = "package main\n\nimport \"fmt\"\n\ntype T struct {\n\tA int\n}\n\nfunc (t *T) Run() error {\n\tfmt.Println(t.A)\n\treturn nil\n}\n";
        let folds = super::go::folds(src).unwrap();
        let mask = folds.mask(src.lines().count(), &[true; 12]);
        let kept: Vec<&str> = src
            .lines()
            .zip(&mask)
            .filter(|(_, k)| **k)
            .map(|(l, _)| l)
            .collect();
        assert!(kept.contains(&"\tA int") && kept.contains(&"func (t *T) Run() error {"));
        assert!(!kept.contains(&"\treturn nil"));
    }

    /// The lines of `src` the Go folds keep.
    fn kept(src: &str) -> Vec<&str> {
        let n = src.lines().count();
        let mask = super::go::folds(src).unwrap().mask(n, &vec![true; n]);
        src.lines()
            .zip(mask)
            .filter(|(_, k)| *k)
            .map(|(l, _)| l)
            .collect()
    }

    #[test]
    fn go_types_literals_and_values_are_no_bodies() {
        // An `interface{}` result is a type; a literal assigned is a value
        // (its lines stay); a declaration in assembly has no body.
        let src = "func Get() map[string]interface{} {\n\ts := `{\n}`\n\treturn nil\n}\nvar handler = func() {\n\tserve()\n}\nfunc add(x, y int) int\nfunc Map[T any](s []T, f func(T) T) []T {\n\tr := '}'\n\treturn s\n}\n";
        assert_eq!(
            kept(src),
            [
                "func Get() map[string]interface{} {",
                "}",
                "var handler = func() {",
                "\tserve()",
                "}",
                "func add(x, y int) int",
                "func Map[T any](s []T, f func(T) T) []T {",
                "}",
            ]
        );
    }

    #[test]
    fn go_bodies_are_found_after_text_that_is_not_ascii() {
        let src = "var sep = \"·—·\"\n\nfunc f() string {\n\ta := sep\n\treturn a\n}\n";
        assert_eq!(
            kept(src),
            ["var sep = \"·—·\"", "", "func f() string {", "}"]
        );
    }
}
