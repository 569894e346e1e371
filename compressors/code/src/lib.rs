//! ghost's built-in code compressor.
//!
//! Keeps what an agent navigates by: imports, exports, type, struct, enum,
//! trait and class declarations, function and method signatures, constants,
//! and the first line of each doc comment; folds function bodies to a line
//! that says which lines were folded (`… lines 41–52`), so the agent can
//! read exactly that range later. A body shorter than twice
//! its marker line stays whole.
//! Line numbers from Claude Code's `N→` prefixes survive on every kept line.
//!
//! Brace languages fold by a brace-depth lexer ([`braces`]), Python by
//! indentation ([`indentation`]), Elixir, Ruby and Lua by `do … end` blocks
//! ([`doend`]), Vim script by its functions' `endfunction`/`enddef`; any
//! other language falls back to whichever fits its text.
//! A unified diff is not folded as code: its changed lines all stay, and
//! only unchanged context away from a change folds ([`diff`]).

pub mod braces;
pub mod diff;
pub mod doend;
pub mod go_lexer;
pub mod indentation;
pub mod parsed;
pub mod rust_lexer;
pub mod source;
pub mod tokens;

#[cfg(target_arch = "wasm32")]
mod component;

use source::Line;

/// Lines are folded only when they are at least this many times as long
/// as the marker that replaces them (indentation aside): a fold must save
/// more than it costs, however many lines it spans.
const MIN_FOLD_GAIN: usize = 2;

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
    /// Blocks in `do … end` (Elixir, Ruby, Lua), with their braces too.
    DoEnd,
    /// Functions closed by a keyword of their own and no braces (Vim
    /// script's `function` … `endfunction`, `def` … `enddef`), where `"`
    /// opens a comment: braces are not read.
    EndKeyword,
}

/// Picks the folding for `source_path`'s extension, or from the text.
pub fn syntax_of(source_path: Option<&str>, lines: &[Line<'_>]) -> Syntax {
    let ext = source_path
        .and_then(|p| p.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("py" | "pyi" | "pyw") => Syntax::Indentation,
        Some("ex" | "exs" | "rb" | "rake" | "lua") => Syntax::DoEnd,
        Some("vim") => Syntax::EndKeyword,
        Some(_) if ext.as_deref().is_some_and(|e| !matches!(e, "txt" | "md")) => Syntax::Braces,
        _ => guess_syntax(lines),
    }
}

/// The syntax a text looks like, without a path: Python's block openers
/// (`def`/`class` lines, lines ending in `:`), the brace languages' lines
/// ending in `{` or `;`, Ruby's and Elixir's lines closing a block with
/// `end` alone, and Vim script's `endfunction`. A signature may span lines,
/// so a `def` line need not end in `:` to count.
fn guess_syntax(lines: &[Line<'_>]) -> Syntax {
    let (mut indentation, mut braces, mut do_end, mut vim_ends) = (0, 0, 0, 0);
    for line in lines {
        let t = line.code.trim();
        if t.ends_with('{') || t.ends_with(';') {
            braces += 1;
        } else if t == "end" {
            do_end += 1;
        } else if doend::is_vim_function_end(t) {
            vim_ends += 1;
        } else if t.starts_with("def ")
            || t.starts_with("async def ")
            || t.starts_with("class ")
            || t.ends_with(':') && !t.starts_with("case ") && !t.starts_with("default")
        {
            indentation += 1;
        }
    }
    // Only Vim script closes functions with `endfunction` or `enddef`.
    if vim_ends >= 2 {
        return Syntax::EndKeyword;
    }
    // Every Ruby `def` (counted as Python's) has its `end`; Python has none.
    if do_end > braces && do_end >= indentation {
        Syntax::DoEnd
    } else if indentation > braces {
        Syntax::Indentation
    } else {
        Syntax::Braces
    }
}

fn is_comment(code: &str) -> bool {
    let t = code.trim_start();
    t.starts_with("//")
        // Lua's, SQL's and Haskell's line comments (not C's `--i;`).
        || t.starts_with("-- ")
        || t.starts_with("---")
        || t == "--"
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
        // Perl's POD (`=head1 NAME` … `=cut`) and Ruby's `=begin` … `=end`:
        // documentation blocks, opened at the margin by `=` and a word.
        if is_doc_block_start(lines[i].code) {
            let end = (i + 1..lines.len())
                .find(|&j| matches!(lines[j].code.trim_end(), "=cut" | "=end"))
                .unwrap_or(lines.len() - 1);
            comment[i..=end].iter_mut().for_each(|c| *c = true);
            i = end + 1;
            continue;
        }
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

/// A line opening a documentation block at the margin: `=` and a word
/// (`=head1`, `=pod`, `=begin`), not `==` or an assignment.
fn is_doc_block_start(code: &str) -> bool {
    code.strip_prefix('=')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic()))
        && !matches!(code.trim_end(), "=cut" | "=end")
}

/// Languages with a real parser here.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Language {
    /// Read as tokens (see [`parsed::rust`]).
    Rust,
    /// Parsed with Ruff's parser.
    Python,
    /// Parsed with oxc (JavaScript, TypeScript, JSX).
    JavaScript,
    /// Read as tokens (see [`parsed::go`]).
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
    compress_within(text, source_path, None)
}

/// Compresses `text` to fit `target_tokens` if given (by
/// [`ghost_types::estimated_tokens`]): when the outline is over it,
/// comments are left out (and counted), but a declaration or a signature
/// never is, however small the budget, so a file may stay over it.
pub fn compress_within(
    text: &str,
    source_path: Option<&str>,
    target_tokens: Option<u32>,
) -> CompressedCode {
    // A `.txt` or `.log` says nothing of the language: the text decides.
    let source_path = ghost_types::telling_path(source_path);
    let (lines, numbered) = source::lines(text);
    let (mut keep, comment) = outline(text, source_path, &lines);
    let repeats = if diff::is_unified_diff(&lines) {
        diff::repeats(&lines)
    } else {
        Vec::new()
    };
    for (kept, repeat) in keep.iter_mut().zip(&repeats) {
        *kept &= repeat.is_none();
    }
    let render =
        |keep: &[bool], dropped: &[bool]| render(&lines, numbered, keep, dropped, &repeats);
    let out = render(&keep, &[]);
    let Some(target) = target_tokens else {
        return out;
    };
    if ghost_types::estimated_tokens(&out.text) <= target as usize {
        return out;
    }
    let (keep, dropped) = without_comments(&lines, &keep, &comment);
    let mut out = render(&keep, &dropped);
    out.notes
        .push(format!("tightened for a budget of {target} tokens"));
    out
}

/// The lines the outline keeps, and which lines are comments.
fn outline(text: &str, source_path: Option<&str>, lines: &[Line<'_>]) -> (Vec<bool>, Vec<bool>) {
    if diff::is_unified_diff(lines) {
        return (diff::keep_mask(lines), vec![false; lines.len()]);
    }
    let syntax = syntax_of(source_path, lines);
    let language = language_of(source_path, syntax);
    let lexer = match syntax {
        Syntax::Braces => braces::keep_mask(lines),
        Syntax::Indentation => indentation::keep_mask(lines),
        Syntax::DoEnd => braces::keep_mask(lines)
            .into_iter()
            .zip(doend::keep_mask(lines))
            .map(|(a, b)| a && b)
            .collect(),
        Syntax::EndKeyword => doend::vim_keep_mask(lines),
    };
    let mut keep = match parse(language, source_path, lines, text.len()) {
        Some(folds) => folds.mask(lines.len(), &lexer),
        None => lexer,
    };
    // Doc comments and comment blocks: the first line says what follows.
    let comment = comment_lines(lines, syntax);
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
    (keep, comment)
}

/// The outline's lines without its comments (but for those showing a
/// declaration), and the lines left out without a marker: those comments,
/// and blank lines (a fold of them alone is no fold).
fn without_comments(lines: &[Line<'_>], keep: &[bool], comment: &[bool]) -> (Vec<bool>, Vec<bool>) {
    let dropped: Vec<bool> = (0..lines.len())
        .map(|i| comment[i] && !declares_item(lines[i].code) || lines[i].code.trim().is_empty())
        .collect();
    let keep = (0..lines.len()).map(|i| keep[i] && !dropped[i]).collect();
    (keep, dropped)
}

/// Prints the `keep` lines of a file and a marker for each run of the
/// others, but for runs of `dropped` lines alone, which are left out. A
/// run of a diff's lines that `repeats` an earlier file's change names
/// that file in its marker.
fn render(
    lines: &[Line<'_>],
    numbered: bool,
    keep: &[bool],
    dropped: &[bool],
    repeats: &[Option<&str>],
) -> CompressedCode {
    let is_dropped = |i: usize| dropped.get(i).copied().unwrap_or(false);
    let mut out = Outline::default();
    let mut folds = 0;
    let mut left_out = 0;
    let mut i = 0;
    while i < lines.len() {
        if keep[i] {
            out.line(&lines[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && !keep[i] {
            i += 1;
        }
        // A fold of blank lines (or lines left out) only is just dropped;
        // one that would save little is not a fold (see [`MIN_FOLD_GAIN`]).
        if (start..i).all(|k| lines[k].code.trim().is_empty() || is_dropped(k)) {
            left_out += (start..i)
                .filter(|&k| is_dropped(k) && !lines[k].code.trim().is_empty())
                .count();
            continue;
        }
        let (first, last) = (lines[start].number, lines[i - 1].number);
        let indent: String = lines[start..i]
            .iter()
            .find(|l| !l.code.trim().is_empty())
            .map(|l| l.code.chars().take_while(|c| c.is_whitespace()).collect())
            .unwrap_or_default();
        let n = i - start;
        let mut marker = match (numbered, n) {
            (true, _) => {
                format!("{indent}… lines {first}–{last} folded (Read offset={first} limit={n})")
            }
            (false, 1) => format!("{indent}… line {first}"),
            (false, _) => format!("{indent}… lines {first}–{last}"),
        };
        if let Some(Some(earlier)) = repeats.get(start) {
            marker.push_str(&format!(": the same changes as {earlier}'s"));
        }
        let folded: usize = lines[start..i].iter().map(|l| l.raw.trim().len()).sum();
        if folded < marker.trim().len() * MIN_FOLD_GAIN {
            for (k, line) in lines.iter().enumerate().take(i).skip(start) {
                if is_dropped(k) {
                    left_out += usize::from(!line.code.trim().is_empty());
                } else {
                    out.line(line);
                }
            }
            continue;
        }
        folds += 1;
        out.marker(marker);
    }
    let mut out = out.printed;
    let mut summary = format!(
        "{} lines → {}, {folds} blocks folded",
        lines.len(),
        out.len() + 1
    );
    if left_out > 0 {
        summary.push_str(&format!(
            ", {left_out} comment line{} left out",
            if left_out == 1 { "" } else { "s" }
        ));
    }
    out.push(format!("[ghost code: {summary}]"));
    let mut text = out.join("\n");
    text.push('\n');
    CompressedCode {
        text,
        notes: vec![summary],
    }
}

/// The printed lines. A blank line right after another separates nothing
/// new and is left out.
#[derive(Default)]
struct Outline {
    printed: Vec<String>,
    /// Whether the last printed line is blank.
    gap: bool,
}

impl Outline {
    /// Prints a kept line of the source.
    fn line(&mut self, line: &Line<'_>) {
        let blank = line.code.trim().is_empty();
        if !(blank && self.gap) {
            self.printed.push(line.raw.trim_end().to_string());
        }
        self.gap = blank;
    }

    /// Prints a fold's marker.
    fn marker(&mut self, marker: String) {
        self.printed.push(marker);
        self.gap = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of one type with many documented methods: under a budget
    /// its comments go (counted); its signatures stay however small the
    /// budget.
    #[test]
    fn a_budget_leaves_out_comments_but_never_a_signature() {
        let mut src = String::from(
            "use std::fmt;\n\n/// A ledger of amounts.\npub struct Ledger {\n    entries: Vec<u64>,\n}\n\nimpl Ledger {\n",
        );
        for k in 0..30 {
            src.push_str(&format!(
                "    /// Adds entry {k} to the ledger and returns the running total of all entries.\n    pub fn add_{k}(&mut self, amount: u64) -> u64 {{\n        self.entries.push(amount + {k});\n        self.entries.iter().sum()\n    }}\n\n"
            ));
        }
        src.push_str("}\n");
        let full = compress(&src, Some("src/ledger.rs"));
        assert!(
            full.text.contains("/// Adds entry 7 to the ledger"),
            "{}",
            full.text
        );
        assert!(full.notes.iter().all(|n| !n.contains("budget")));
        let estimate = |t: &str| ghost_types::estimated_tokens(t);
        // A budget the outline meets changes nothing.
        let roomy = compress_within(
            &src,
            Some("src/ledger.rs"),
            Some(estimate(&full.text) as u32),
        );
        assert_eq!(roomy, full);
        for budget in [estimate(&full.text) as u32 - 50, 60] {
            let tight = compress_within(&src, Some("src/ledger.rs"), Some(budget));
            assert!(estimate(&tight.text) < estimate(&full.text));
            for k in 0..30 {
                let signature = format!("    pub fn add_{k}(&mut self, amount: u64) -> u64 {{");
                assert!(tight.text.contains(&signature), "{}", tight.text);
            }
            assert!(tight.text.contains("pub struct Ledger {"), "{}", tight.text);
            assert!(!tight.text.contains("/// Adds entry 7"), "{}", tight.text);
            assert!(
                tight
                    .notes
                    .iter()
                    .any(|n| n.contains("31 comment lines left out")),
                "{:?}",
                tight.notes
            );
            assert!(
                tight
                    .notes
                    .iter()
                    .any(|n| n.contains(&format!("budget of {budget}")))
            );
        }
    }

    #[test]
    fn perl_pod_folds_to_its_first_lines() {
        let mut text = String::from(
            "package Text::Wrap;\n\nsub wrap {\n    my ($ip, $xp, @t) = @_;\n    return join('', @t);\n}\n\n1;\n__END__\n\n=head1 NAME\n\nText::Wrap - line wrapping\n\n",
        );
        for i in 0..30 {
            text.push_str(&format!(
                "Paragraph {i} of the documentation, which says how to wrap text.\n\n"
            ));
        }
        text.push_str("=cut\n");
        let out = compress(&text, Some("lib/Text/Wrap.pm")).text;
        assert!(out.contains("=head1 NAME"), "{out}");
        assert!(!out.contains("Paragraph 20"), "{out}");
        assert!(out.contains("sub wrap {"));
    }

    #[test]
    fn a_block_doc_comment_folds_to_its_first_line_and_its_declarations() {
        let src = "/*!\nGenerate flags types.\n\n# Getting started\n\nAdd it to Cargo.toml, then:\n\n```rust\npub struct Flags: u32 {\n```\n*/\n\npub fn parse(s: &str) -> u32 {\n    s.len() as u32\n}\n";
        let out = compress(src, Some("src/lib.rs")).text;
        assert!(out.starts_with("/*!\nGenerate flags types.\n"), "{out}");
        assert!(out.contains("pub struct Flags: u32 {"), "{out}");
        assert!(!out.contains("# Getting started"), "{out}");
        assert!(out.contains("pub fn parse(s: &str) -> u32 {"), "{out}");
    }

    /// Ruby piped in or saved as `.txt`: its `end` lines tell it, so its
    /// method bodies fold as they do in a `.rb` file.
    #[test]
    fn ruby_is_known_without_a_path_by_its_ends() {
        let mut text = String::from(
            "# frozen_string_literal: true\nrequire 'set'\n\nclass Registry\n  attr_reader :entries\n\n",
        );
        for k in 0..8 {
            text.push_str(&format!(
                "  def register_{k}(name, value = nil)\n    raise ArgumentError, name if name.empty?\n    @entries[name] = value || {k}\n    @order << name\n    self\n  end\n\n"
            ));
        }
        text.push_str("end\n");
        let as_rb = compress(&text, Some("lib/registry.rb")).text;
        assert!(!as_rb.contains("@order << name"), "{as_rb}");
        for path in [None, Some("saved/output.txt")] {
            let out = compress(&text, path).text;
            assert_eq!(out, as_rb);
            assert!(out.contains("  def register_7(name, value = nil)"), "{out}");
        }
    }

    #[test]
    fn python_with_multi_line_signatures_is_known_without_a_path_or_with_a_weak_one() {
        let mut text = String::from(
            "import numpy as np\n\n\ndef stackplot(axes, x, *args,\n              labels=(), colors=None,\n              **kwargs):\n    \"\"\"\n    Draw a stacked area plot.\n    \"\"\"\n",
        );
        for k in 0..12 {
            text.push_str(&format!(
                "    stacked_area_{k} = np.cumsum(np.vstack(args), axis=0)\n"
            ));
        }
        let numbered: String = text
            .lines()
            .enumerate()
            .map(|(i, l)| format!("{:>6}\t{l}\n", i + 1))
            .collect();
        for (input, path) in [
            (&text, None),
            (&numbered, None),
            (&text, Some("out/view.txt")),
        ] {
            let out = compress(input, path).text;
            assert!(out.contains("**kwargs):"), "{out}");
            assert!(out.contains("Draw a stacked area plot."), "{out}");
            assert!(!out.contains("stacked_area_3"), "{out}");
        }
    }

    #[test]
    fn read_line_numbers_survive_and_ranges_are_actionable() {
        let mut text = String::new();
        let body = [
            "pub fn add(a: u32, b: u32) -> u32 {",
            "    let total = a.checked_add(b).expect(\"the sum fits in a u32\");",
            "    let doubled = total.checked_mul(2).expect(\"twice the sum fits\");",
            "    doubled - total",
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

    #[test]
    fn vim_script_without_a_path_folds_by_its_functions() {
        let body = "  let l:a = \"x\"\n  \" a comment { with a brace\n  let l:b = {'k': 1}\n  return l:a\n";
        let text = format!(
            "\" tar.vim\nfun! tar#Browse(tarfile)\n{body}endfun\n\nfun! s:Select()\n{body}endfun\n"
        );
        let (lines, _) = source::lines(&text);
        assert_eq!(syntax_of(None, &lines), Syntax::EndKeyword);
        assert_eq!(syntax_of(Some("saved.txt"), &lines), Syntax::EndKeyword);
        let out = compress(&text, None).text;
        assert!(out.contains("fun! tar#Browse(tarfile)"), "{out}");
        assert!(out.contains("fun! s:Select()"), "{out}");
        assert!(!out.contains("return l:a"), "{out}");
    }
}
