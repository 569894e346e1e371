//! The Rust folding reads tokens, not a syntax tree (see
//! `parsed::rust`): it must find the function bodies, nested signatures
//! and item macros a full parse with `syn` finds. Compared on this
//! repository's Rust files and on the crates in Cargo's registry
//! (`$CARGO_HOME/registry/src`, filled by building this workspace), up to
//! a bound of bytes.

use std::path::{Path, PathBuf};

use ghost_compressor_code::parsed::{Folds, rust};

mod by_syn {
    use ghost_compressor_code::parsed::Folds;
    use syn::visit::Visit;

    /// The folds of a Rust file by a full parse, or `None` when it does not parse.
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

/// At most this many bytes of the registry's sources are compared.
const REGISTRY_BYTES_AT_MOST: usize = 24 << 20;

/// The `.rs` files under `dir`, in a stable order, each under 256 KB (the
/// compressor parses nothing larger).
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path
            .file_name()
            .is_some_and(|n| n == "target" || n.to_string_lossy().starts_with('.'))
        {
            continue;
        }
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.metadata().is_ok_and(|m| m.len() < 256 << 10)
        {
            out.push(path);
        }
    }
}

/// The keep mask of `folds` over `text`, the lexer keeping nothing (so
/// an item macro's region shows).
fn mask(folds: &Folds, text: &str) -> Vec<bool> {
    let n = text.lines().count() + 1;
    folds.mask(n, &vec![false; n])
}

#[test]
fn rust_tokens_find_what_a_full_parse_finds() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    rust_files(&repo, &mut files);
    let own = files.len();
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let mut registry = Vec::new();
    if let Some(home) = cargo_home {
        rust_files(&home.join("registry/src"), &mut registry);
    }
    let mut budget = REGISTRY_BYTES_AT_MOST;
    for path in registry {
        let len = path.metadata().map_or(0, |m| m.len() as usize);
        if len > budget {
            break;
        }
        budget -= len;
        files.push(path);
    }
    let (mut compared, mut differ) = (0, Vec::new());
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        // Where the full parse fails, the tokens may still fold: nothing
        // to compare with.
        let Some(parsed) = by_syn::folds(&text) else {
            continue;
        };
        compared += 1;
        match rust::folds(&text) {
            Some(read) if mask(&read, &text) == mask(&parsed, &text) => {}
            _ => differ.push(path.display().to_string()),
        }
    }
    assert!(compared >= own / 2, "only {compared} files compared");
    assert!(
        differ.is_empty(),
        "{} of {compared} files differ: {differ:#?}",
        differ.len()
    );
}
