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

/// Rust, parsed with `syn`.
pub mod rust {
    use super::Folds;
    use syn::visit::Visit;

    /// The folds of a Rust file, or `None` when it does not parse.
    pub fn folds(source: &str) -> Option<Folds> {
        let file = syn::parse_file(source).ok()?;
        let mut v = Visitor {
            folds: Folds::default(),
            fn_depth: 0,
        };
        v.visit_file(&file);
        Some(v.folds)
    }

    struct Visitor {
        folds: Folds,
        fn_depth: usize,
    }

    impl Visitor {
        /// Lines are 1-based in spans; folds are 0-based.
        fn function(&mut self, sig_line: usize, block: &syn::Block, visit: impl FnOnce(&mut Self)) {
            let open = block.brace_token.span.open().start().line;
            let close = block.brace_token.span.close().start().line;
            if self.fn_depth > 0 {
                // A function inside a function: its signature stays visible.
                self.folds.keep.push((sig_line - 1, open - 1));
            }
            if close > open + 1 {
                self.folds.bodies.push((open, close - 2));
            }
            self.fn_depth += 1;
            visit(self);
            self.fn_depth -= 1;
        }
    }

    impl<'ast> Visit<'ast> for Visitor {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            let line = f.sig.fn_token.span.start().line;
            self.function(line, &f.block, |v| syn::visit::visit_block(v, &f.block));
        }

        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            let line = f.sig.fn_token.span.start().line;
            self.function(line, &f.block, |v| syn::visit::visit_block(v, &f.block));
        }

        fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
            // `macro_rules!` and other item macros: their bodies are tokens.
            let open = m.mac.delimiter.span().open().start().line;
            let close = m.mac.delimiter.span().close().start().line;
            if close > open + 1 {
                self.folds.unparsed.push((open, close - 2));
            }
        }

        fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
            if let Some(block) = &f.default {
                let line = f.sig.fn_token.span.start().line;
                self.function(line, block, |v| syn::visit::visit_block(v, block));
            }
        }
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
}
