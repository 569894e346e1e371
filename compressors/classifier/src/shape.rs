//! What a text's lines look like, for a text no tool and no clear path
//! speaks for (`ghost classify saved.txt`, a Read of a file without a known
//! extension): code, prose or a log, by the shape of its lines.
//!
//! - **Code** is judged on the lines that are not comments: a long doc
//!   comment at the top of a Ruby file or a licence header says nothing of
//!   what follows it. Comments are runs of `#` lines, `//` lines and `/* …
//!   */` blocks; a lone `# Title` over text is a Markdown heading.
//! - **Prose** is Markdown's structure (headings, links, fences, list items
//!   quoting code) or
//!   paragraphs: lines made of words, wrapped where the page ends, at the
//!   left margin (a help text or a manual page is indented under its
//!   options), not led by one recurring word (`npm warn …`, `Destroying
//!   test database …` are a program's records).
//! - A **log** is what is left; the verdict is confident when nothing in
//!   the text reads as prose, so a weak path hint (`.txt`) cannot turn a
//!   build log into a document.

use ghost_types::{ContentClass, markup};

use ghost_log_folding::{help_text, markers};

use crate::{LINES_JUDGED, is_sentence_line, starts_with_level};

/// Share of the judged code lines that must read as code (see
/// [`reads_as_code`]).
const CODE_SHARE: f32 = 0.15;

/// Share of lines led by a timestamp or a level that makes a log.
const TIMESTAMPED_SHARE: f32 = 0.3;

/// Share of sentence lines (see [`is_sentence_line`]) that makes prose.
const SENTENCE_SHARE: f32 = 0.2;

/// Share of paragraph lines (see [`is_paragraph_line`]) that makes prose.
const PARAGRAPH_SHARE: f32 = 0.35;

/// Paragraphs sit at the left margin: above this share of indented lines
/// the words are descriptions under options (a help text, a manual page).
const INDENTED_AT_MOST: f32 = 0.5;

/// A program's records open with the same word (`npm warn`, `Destroying
/// test database`): above this share of lines led by one word, lines of
/// words are records, not paragraphs.
const ONE_LEADING_WORD_AT_MOST: f32 = 0.3;

/// A program narrating its steps (see [`narration`]): above this share of
/// such lines, lines of words are its records, not paragraphs.
const NARRATION_SHARE: f32 = 0.2;

/// Markdown headings, links and fence lines per line above which a text is
/// a document.
const MARKDOWN_SHARE: f32 = 0.05;

/// Below this share of paragraph lines (half of it of sentence lines, half
/// of [`MARKDOWN_SHARE`] of Markdown, and no heading) nothing in a text
/// reads as prose.
const NO_PROSE_BELOW: f32 = 0.2;

/// Lines only a program's output has (see [`is_output_line`]) that make a
/// text output rather than code, and a log however much prose is in it.
const OUTPUT_LINES_AT_LEAST: usize = 2;

/// The class of `body` by the shape of its lines, with a confidence.
pub(crate) fn judge(body: &str) -> (ContentClass, f32) {
    let lines = Lines::of(body);
    if lines.text.is_empty() {
        return (ContentClass::Log, 0.3);
    }
    let share = |of: &[&str], f: &dyn Fn(&str) -> bool| {
        of.iter().filter(|l| f(l)).count() as f32 / of.len().max(1) as f32
    };
    let all = &lines.text;
    let timestamped = share(all, &|l| {
        starts_with_timestamp(l) || starts_with_level(l) || starts_with_uptime_and_level(l)
    });
    if timestamped > TIMESTAMPED_SHARE {
        return (ContentClass::Log, 0.6 + timestamped.min(0.3));
    }
    let output = lines.output >= OUTPUT_LINES_AT_LEAST;
    let code = share(&lines.code, &|l| reads_as_code(l.trim_start()));
    if code > CODE_SHARE && !output && lines.code.len() >= lines.markdown {
        return (ContentClass::Code, (0.5 + code).min(0.95));
    }
    if help_text::option_definitions(all).contains(&true) {
        // A help text or a manual page: its options are what it is read
        // for. (Code first: CSS's `--custom-property: …;` is no option.)
        return (ContentClass::Log, 0.75);
    }
    let markdown = lines.markdown as f32 / all.len() as f32;
    // A document's headings title text; among lines only a program prints
    // (diagnostics, a failure exit), a `#` line is the program's own (a
    // heredoc's comment in `go build -x`).
    if markdown > MARKDOWN_SHARE
        && (lines.headings > 0 || markdown > 3.0 * MARKDOWN_SHARE)
        && !output
    {
        return (ContentClass::Prose, (0.6 + markdown).min(0.9));
    }
    // Lines of words are running text only at the margin and when no one
    // word leads most lines: indented, they describe options (a help text,
    // a manual page); led by one word, they are a program's records.
    let indented = share(all, &|l| l.starts_with([' ', '\t']));
    let records = indented > INDENTED_AT_MOST
        || one_leading_word(all) > ONE_LEADING_WORD_AT_MOST
        || narration(all) > NARRATION_SHARE;
    let (sentences, paragraphs) = if records {
        (0.0, 0.0)
    } else {
        (
            share(all, &is_sentence_line),
            share(all, &is_paragraph_line),
        )
    };
    if sentences > SENTENCE_SHARE {
        return (ContentClass::Prose, (0.5 + sentences).min(0.9));
    }
    if paragraphs > PARAGRAPH_SHARE {
        return (ContentClass::Prose, (0.4 + paragraphs).min(0.9));
    }
    let prose_in_it = paragraphs >= NO_PROSE_BELOW
        || sentences >= NO_PROSE_BELOW / 2.0
        || lines.headings > 0
        || markdown >= MARKDOWN_SHARE / 2.0;
    (
        ContentClass::Log,
        if prose_in_it && !output { 0.5 } else { 0.7 },
    )
}

/// Whether a `#` line over `next` names what the diagnostics below it are
/// about (the go tool's `# example.com/calc` over `./calc.go:15:9:
/// undefined: totl`) rather than titling text: `next` is a compiler
/// diagnostic.
pub(crate) fn names_the_diagnostics_below(next: Option<&str>) -> bool {
    next.is_some_and(ghost_log_folding::markers::is_diagnostic)
}

/// A text's nonblank lines outside Markdown's code fences, up to
/// [`LINES_JUDGED`] of them that are neither comments nor Markdown.
struct Lines<'a> {
    /// Every line read (comments included).
    text: Vec<&'a str>,
    /// The lines that are neither comments nor Markdown (headings, links).
    code: Vec<&'a str>,
    /// Markdown headings: `# Title` over a line that is not code (and not
    /// in a run of `#` lines), or a line underlined with `===` or `---`;
    /// reStructuredText's titles and POD's `=headN` lines.
    headings: usize,
    /// Headings, lines holding a link (`](`), fence lines and list items
    /// quoting code.
    markdown: usize,
    /// Lines only a program's output has (see [`is_output_line`]).
    output: usize,
}

impl<'a> Lines<'a> {
    fn of(body: &'a str) -> Self {
        let raw: Vec<&str> = body.lines().collect();
        let blank = |i: Option<usize>| {
            i.and_then(|i| raw.get(i))
                .is_none_or(|l| l.trim().is_empty())
        };
        let hash = |i: usize| raw.get(i).is_some_and(|l| l.trim_start().starts_with('#'));
        // Rules stacked one on another close a block and open the next
        // (`raco test`'s FAILURE reports): such a text frames its records
        // with rules, and a rule in it underlines no title.
        let frames = raw
            .windows(2)
            .any(|w| is_underline(w[0].trim()) && is_underline(w[1].trim()));
        let mut lines = Lines {
            text: Vec::new(),
            code: Vec::new(),
            headings: 0,
            markdown: 0,
            output: 0,
        };
        let mut in_fence = false;
        let mut in_block_comment = false;
        // Inside POD (`=head1` … `=cut`): documentation, its indented
        // examples included, as a fence's code is a document's.
        let mut in_pod = false;
        for (i, l) in raw.iter().enumerate() {
            let t = l.trim();
            if t.starts_with("```") {
                in_fence = !in_fence;
                lines.markdown += 1;
                continue;
            }
            if in_fence || t.is_empty() {
                continue;
            }
            lines.text.push(l);
            if is_pod_command(l) || in_pod {
                in_pod = l.trim_end() != "=cut";
                if markup::is_pod_heading(l) {
                    lines.markdown += 1;
                    lines.headings += 1;
                }
                continue;
            }
            // A heading titles text; a lone `# comment` sits on the code it
            // speaks of, and a run of `#` lines is a comment block. Indented
            // four spaces or more, it is no heading (CommonMark): pip-compile's
            // `    # via flask` under each pin.
            let heading = t.starts_with('#')
                && l.len() - l.trim_start().len() < 4
                && is_atx_heading(t)
                && !hash(i + 1)
                && !(i > 0 && hash(i - 1))
                && !raw
                    .get(i + 1)
                    .is_some_and(|next| reads_as_code(next.trim_start()))
                && !names_the_diagnostics_below(raw.get(i + 1).copied());
            // A title over its underline, standing alone. (Not between an
            // overline and an underline: a program's banners look so,
            // Robot Framework's suite, PHP_CodeSniffer's counts.)
            let underlined = i > 0
                && !frames
                && (is_underline(t) || markup::is_title_rule(t, raw[i - 1]))
                && !raw[i - 1].trim().is_empty()
                && !is_column_header(raw[i - 1])
                && blank(i.checked_sub(2));
            let markdown =
                heading || underlined || t.contains("](") || is_list_item_with_code_span(t);
            lines.markdown += usize::from(markdown);
            lines.headings += usize::from(heading || underlined);
            let comment = if in_block_comment || t.starts_with("/*") {
                in_block_comment = !t.contains("*/");
                true
            } else {
                // `;` leads a comment in Lisp, assembly and INI files; no
                // statement starts with one (SBCL's compiler notes are all
                // such lines, the lone `; ` among them).
                t.starts_with("//")
                    || t.starts_with(';')
                    || t.starts_with('#') && !heading && (hash(i + 1) || i > 0 && hash(i - 1))
            };
            if !comment && !markdown {
                lines.output += usize::from(is_output_line(t));
                lines.code.push(l);
                if lines.code.len() == LINES_JUDGED {
                    break;
                }
            }
        }
        lines
    }
}

/// A Markdown list item quoting code (`` - `lib/app.ex` (modify) ``): a
/// document's way of naming things, not a program's.
fn is_list_item_with_code_span(t: &str) -> bool {
    let item = t
        .strip_prefix("- ")
        .or_else(|| t.strip_prefix("* "))
        .or_else(|| {
            let digits = t.bytes().take_while(u8::is_ascii_digit).count();
            t[digits..].strip_prefix(". ").filter(|_| digits > 0)
        });
    item.is_some_and(|i| i.matches('`').count() >= 2)
}

/// `# Title` to `###### Title`.
fn is_atx_heading(t: &str) -> bool {
    let level = t.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&level) && t[level..].starts_with(' ') && t.len() > level + 1
}

/// Words spaced into columns (`Name   Stmts   Miss  Cover`): a table's
/// header over its rule, not a title over its underline.
fn is_column_header(line: &str) -> bool {
    let t = line.trim();
    t.split_whitespace().count() >= 3 && t.contains("   ")
}

/// A setext heading's underline: `===` or `---`, nothing else.
fn is_underline(t: &str) -> bool {
    t.len() >= 3 && (t.bytes().all(|b| b == b'=') || t.bytes().all(|b| b == b'-'))
}

/// A POD command at the margin: `=` then a word (`=head1`, `=pod`,
/// `=over`, `=item`, `=cut`), not `==` or an assignment.
fn is_pod_command(l: &str) -> bool {
    l.strip_prefix('=')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_lowercase()))
}

/// A line of a paragraph: six words or more, three in four of them plain
/// words (letters, maybe an apostrophe, with the punctuation of running
/// text around them), so a wrapped line counts though it ends mid-sentence;
/// and it starts with a word (after a list's or a quote's marker), where a
/// record starts with its id (`a1b2c3d fix the parser`, `12:01 started`).
fn is_paragraph_line(l: &str) -> bool {
    let is_marker = |w: &str| {
        matches!(w, "-" | "*" | "+" | ">")
            || w.strip_suffix(['.', ')'])
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let mut words = 0;
    let mut plain = 0;
    let mut first = true;
    for w in l.split_whitespace() {
        if first && is_marker(w) {
            continue;
        }
        words += 1;
        let core = w
            .trim_start_matches(['(', '"', '\'', '`', '*', '_'])
            .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '"', '\'', '`', '*', '_']);
        let is_plain = !core.is_empty()
            && core
                .chars()
                .all(|c| c.is_alphabetic() || c == '\'' || c == '-');
        if first && !is_plain {
            return false;
        }
        first = false;
        plain += usize::from(is_plain);
    }
    words >= 6 && plain * 4 >= words * 3
}

/// The share of `lines` a program narrating its steps prints: a line
/// announcing a step (`Installing click==8.1.7...`, `Locking
/// dependencies...`) or one said again word for word (an installer's
/// advice after every step). Running text neither trails off nor repeats
/// itself.
fn narration(lines: &[&str]) -> f32 {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for l in lines {
        *seen.entry(l.trim()).or_default() += 1;
    }
    let narrating = lines
        .iter()
        .filter(|l| {
            let t = l.trim();
            (t.ends_with("...") && !t.ends_with("....")) || seen.get(t).is_some_and(|&n| n > 1)
        })
        .count();
    narrating as f32 / lines.len().max(1) as f32
}

/// The share of the lines at the margin led by the most common first word
/// (digits masked): a record opens at the margin, and what is indented
/// under it (`git log`'s messages) is its body.
fn one_leading_word(lines: &[&str]) -> f32 {
    let lines: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.starts_with([' ', '\t']))
        .collect();
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for l in &lines {
        if let Some(w) = l.split_whitespace().next() {
            let masked: String = w
                .chars()
                .map(|c| if c.is_ascii_digit() { '0' } else { c })
                .collect();
            *counts.entry(masked).or_default() += 1;
        }
    }
    counts.values().copied().max().unwrap_or(0) as f32 / lines.len().max(1) as f32
}

/// `2024-01-01…` or `[12:00:01]`/`[2024…` at the start of a line.
pub(crate) fn starts_with_timestamp(l: &str) -> bool {
    let b = l.as_bytes();
    b.len() > 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-'
        || b.len() > 8 && b[0] == b'[' && b[1].is_ascii_digit()
}

/// A record led by the time since the program started and its level, as
/// Rust's `tracing` prints them (`   0.012289147s  INFO main: …`: cargo's
/// `CARGO_LOG=debug`).
pub(crate) fn starts_with_uptime_and_level(l: &str) -> bool {
    let t = l.trim_start();
    let Some((uptime, rest)) = t.split_once(' ') else {
        return false;
    };
    uptime
        .strip_suffix('s')
        .and_then(|n| n.split_once('.'))
        .is_some_and(|(whole, part)| {
            !whole.is_empty()
                && !part.is_empty()
                && whole.bytes().all(|b| b.is_ascii_digit())
                && part.bytes().all(|b| b.is_ascii_digit())
        })
        && starts_with_level(rest.trim_start())
}

/// A line only a program's output has: one led by an error or warning
/// level (`Error: Symbol ‘mean’ …`, `warning: unused`), a failure exit (`make: *** [b.o]
/// Error 1`), a compiler's or linter's diagnostic, a runner's summary, or a
/// title framed by rules (`==== test session starts ====`; not a `#`
/// comment framed so), or a stack frame (see [`is_frame`]; a Python
/// traceback's `File "/app/spider.py", line 20, in parse` too: only the
/// interpreter prints it, so a log of tracebacks is no Python source,
/// however many of their source lines it quotes).
fn is_output_line(t: &str) -> bool {
    leads_with_an_alarm(t)
        || is_frame(t)
        || ghost_log_folding::python_traceback::frame_path(t).is_some()
        || markers::is_failure_exit(t)
        || markers::is_diagnostic(t)
        || markers::is_summary(t)
        || !t.starts_with('#') && markers::is_section_title(t)
}

/// A stack frame no sentence reads like: a call named by one dotted name
/// (the JVM's `at java.lang.Object.wait(java.base@17/Native Method)`, a
/// thread dump's frames) or one ending at a line number (`at f
/// (/app/x.js:1:2)`). (A sentence may start with `at` and end in
/// brackets: `at least once (see below)`.)
fn is_frame(t: &str) -> bool {
    if !t.starts_with("at ") || !ghost_log_folding::fold::is_stack_frame(t) {
        return false;
    }
    let dotted_call = t[3..]
        .split_once('(')
        .is_some_and(|(call, _)| call.contains('.') && !call.contains(' '));
    let at_a_line = t
        .strip_suffix(')')
        .and_then(|r| r.rsplit(':').next())
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    dotted_call || at_a_line
}

/// `Error: …`, `ERROR: …`, `warning: …`, `fatal: …`: a program's alarm, led
/// by its level and a colon.
fn leads_with_an_alarm(t: &str) -> bool {
    t.split_once(':').is_some_and(|(level, _)| {
        ["error", "warning", "fatal"]
            .iter()
            .any(|l| level.eq_ignore_ascii_case(l))
    })
}

/// A line that reads as code: it starts with a keyword of a common language
/// or assigns a value (`self.x = …`, `total += n`), or ends the way
/// statements and blocks do (`{`, `}`, `;`, `):`) or opens a call or a
/// list that the next lines go on with (`(`, `[`), or opens a block (`…
/// do`, `… ->`) or closes one alone on its line (`end`, `}`, `)`, `fi`).
/// A Dockerfile's instructions are its keywords.
fn reads_as_code(l: &str) -> bool {
    const CLOSERS: &[&str] = &["end", "}", ")", "]", "});", "fi", "done", "esac", "end)"];
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
        "return",
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
        "protected ",
        "static ",
        "if ",
        "for ",
        "with ",
        "assert ",
        "}",
        "defmodule ",
        "elif ",
        "else:",
        "try:",
        "except",
        "raise ",
        "self.",
        "async ",
        "await ",
        "#[",
        "@",
        "while ",
        "match ",
        "case ",
        "yield ",
        "type ",
        "interface ",
        // A Dockerfile's (a Containerfile's) instructions.
        "FROM ",
        "RUN ",
        "COPY ",
        "ADD ",
        "WORKDIR ",
        "ENTRYPOINT ",
        "CMD ",
        "ENV ",
        "ARG ",
        "EXPOSE ",
        "LABEL ",
        "VOLUME ",
        "HEALTHCHECK ",
    ];
    let t = l.trim_end();
    KEYWORDS
        .iter()
        .any(|k| l.starts_with(k) && !labels_a_value(&l[k.len()..]))
        || CLOSERS.contains(&t)
        || t.ends_with(" do")
        || t.ends_with(" ->")
        || t.ends_with('{')
        || t.ends_with(';')
        || t.ends_with("):")
        || t.ends_with("})")
        || t.ends_with(['(', '['])
        || is_assignment(t)
}

/// Whether what follows a line's leading keyword is a label and its value
/// (`import time: 1466 | …`, `for example: …`): a word of a name's letters
/// ending in a colon, with more after it. No language puts that after its
/// keyword; output and prose do.
fn labels_a_value(rest: &str) -> bool {
    let (word, after) = rest.split_once(' ').unwrap_or((rest, ""));
    word.len() > 1
        && word.ends_with(':')
        && word[..word.len() - 1]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        && !after.trim().is_empty()
}

/// `name = value`, `self.items[0] += 1`, `a, b = pair`: a target made of
/// identifiers, dots, indexes and commas, then an assignment operator with
/// spaces around it (an HTML attribute's `alt="x"` is not one).
fn is_assignment(t: &str) -> bool {
    let Some(at) = t.find(" = ").or_else(|| {
        t.find("= ")
            .filter(|&i| i > 0 && t[..i].ends_with(['+', '-', '*', '/', '|', '&', ':']))
    }) else {
        return false;
    };
    let target = t[..at]
        .trim_end_matches(['+', '-', '*', '/', '|', '&', ':'])
        .trim_end();
    !target.is_empty()
        && target.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && target.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(b, b'_' | b'.' | b'[' | b']' | b',' | b' ' | b'\'' | b'"')
        })
        && target.split(',').all(|part| !part.trim().contains(' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tracing_log_with_rust_structs_in_its_spans_is_a_log() {
        // cargo's `CARGO_LOG=debug`: braces and `::` paths in every span.
        let span = "main:exec:compile_ws:compile:compile{unit=Unit { pkg: Package { id: PackageId { name: \"app\" }, ..: \"..\" }, kind: Host }}";
        let mut log: String = (0..30)
            .map(|i| format!("   0.0{i:08}s DEBUG {span}: cargo::core::compiler::fingerprint: step {i} {{ x: {i} }}\n"))
            .collect();
        // And the resolver's features, pretty-printed as Rust's Debug does.
        log.push_str("   0.011256065s DEBUG main:exec:compile_ws:create_bcx:resolve: cargo::core::resolver::features: features={\n");
        for name in ["fnv", "memchr", "app", "libc", "cfg-if", "log"] {
            log.push_str(&format!(
                "    (\n        PackageId {{\n            name: \"{name}\",\n            version: \"1.0.7\",\n        }},\n        NormalOrDev,\n    ): {{\n        \"default\",\n    }},\n"
            ));
        }
        log.push_str("}\n");
        assert_eq!(judge(&log).0, ContentClass::Log);
        assert!(starts_with_uptime_and_level(
            "   0.012289147s  INFO main: x"
        ));
        assert!(!starts_with_uptime_and_level("3.5s elapsed INFO"));
        assert!(!starts_with_uptime_and_level("s INFO x"));
    }

    #[test]
    fn code_is_judged_below_its_comments() {
        // A Ruby file opening with a long doc comment: only its code counts.
        let header: String = (0..450)
            .map(|i| format!("# Line {i} of the documentation of the class below.\n"))
            .collect();
        let ruby = format!(
            "{header}\nclass OptionParser\n  def initialize(banner = nil)\n    @stack = []\n    yield self if block_given?\n  end\nend\n"
        );
        assert_eq!(judge(&ruby).0, ContentClass::Code);
        // Python without a parenthesis in sight: assignments and asserts.
        let tests = "i, j = symbols('i j')\nA = MatrixSymbol('A', n, n)\nB = MatrixSymbol('B', n, n)\n\n\
                     def test_sum():\n    assert bc_matadd(A + B) == A + B\n    assert A.T == B.T\n";
        assert_eq!(judge(tests).0, ContentClass::Code);
        // A container recipe: its instructions are its keywords.
        let dockerfile = "ARG BASH\n\nFROM alpine/git:v2.30.0 as bats\nARG BATS_VERSION\n\
                          RUN git clone https://github.com/bats-core/bats-core.git /root/bats-core \\\n\
                          && cd /root/bats-core \\\n      && git checkout \"${BATS_VERSION}\"\n\n\
                          FROM bash:$BASH\n  # Bats\n  RUN apk add --update parallel ncurses git \\\n\
                          && mkdir -p ~/.parallel \\\n        && touch ~/.parallel/will-cite\n\
                          COPY --from=bats /root/bats-core /root/bats-core\nWORKDIR /code/\n";
        assert_eq!(judge(dockerfile).0, ContentClass::Code);
        // SBCL's compiler notes: every line a `;` comment, the lone `; `
        // (which ends in `;`) among them, is no code.
        let notes = "; compiling file \"/tmp/rates.lisp\"\n\n; file: /tmp/rates.lisp\n\
                     ; in: DEFUN LABEL\n;     (CONCATENATE 'STRING \"n=\" X 5)\n; \n; caught WARNING:\n\
                     ;   Constant 5 conflicts with its asserted type SEQUENCE.\n; \n\
                     ; compilation unit finished\n;   caught 1 WARNING condition\n\n\
                     ; wrote /tmp/rates.fasl\n; compilation finished in 0:00:00.076\n";
        assert_ne!(judge(notes).0, ContentClass::Code);
    }

    #[test]
    fn wrapped_paragraphs_and_markdown_are_prose() {
        let readme = "Background\n==========\n\nlibjpeg-turbo is a JPEG image codec that uses SIMD instructions to accelerate\n\
                      baseline JPEG compression and decompression on x86, x86-64, Arm, PowerPC, and\n\
                      MIPS systems, as well as progressive JPEG compression on x86, x86-64, and Arm\n\
                      systems.  On such systems, libjpeg-turbo is generally 2-6x as fast as libjpeg,\n\
                      all else being equal.  On other types of systems, libjpeg-turbo can still\n\
                      outperform libjpeg by a significant amount, by virtue of its highly-optimized\n";
        assert_eq!(judge(readme).0, ContentClass::Prose);
        // Badges whose links wrap (`](` at a line's end) are Markdown, not calls.
        let badges = "# Crossbeam Deque\n\n[![Build Status](https://example.org/badge.svg)](\nhttps://example.org/actions)\n\
                      [![Cargo](https://example.org/v.svg)](\nhttps://crates.io/crates/x)\n\n\
                      This crate provides work-stealing deques, which are primarily intended for\nbuilding task schedulers.\n\n## Usage\n\nAdd this to your `Cargo.toml`:\n";
        assert_eq!(judge(badges).0, ContentClass::Prose);
    }

    #[test]
    fn a_programs_records_and_help_are_a_log() {
        // Lines of words led by one word are records, not paragraphs.
        let npm: String = (0..6)
            .map(|i| format!("npm warn deprecated pkg{i}@1.0.0: This module is not supported, and leaks memory. Do not use it.\n"))
            .collect();
        assert_eq!(judge(&npm).0, ContentClass::Log);
        // Records open at the margin; the sentences indented under them
        // are their bodies (`git log`).
        let git_log: String = (0..5)
            .map(|i| {
                format!(
                    "commit {i}f3a9c0e2b7d4418a6c5e9f01b2d3c4e5f6a7b8c{i}\nAuthor: Dev <dev@example.com>\n\
                     Date:   Fri Nov 27 2{i}:02:31 2026 +0000\n\n    The parser now reads a diff by its hunks, and every changed line stays.\n\n"
                )
            })
            .collect();
        assert_eq!(judge(&git_log).0, ContentClass::Log);
        // Descriptions indented under options are a help text's.
        let help = "usage: tool [options]\n  -a, --all        list every entry, the hidden ones too\n\
                    \x20 -l               use a long listing format with sizes\n  -h, --human      print sizes in units people read easily\n\
                    \x20 -r, --reverse    reverse the order of the sort chosen\n  -s, --size       print the allocated size of each file\n";
        assert_eq!(judge(help).0, ContentClass::Log);
        // A test session's framed titles make its source listings output.
        let pytest = "============================= test session starts ==============================\n\
                      collected 1 item\n\n==================================== ERRORS ====================================\n\
                      ___________________ ERROR at setup of test_data ___________________\n\n\
                      \x20   def from_call(cls, func, when, reraise=None) -> \"CallInfo\":\n\
                      \x20       excinfo = None\n        start = time()\n        try:\n>           result = func()\n";
        assert_eq!(judge(pytest).0, ContentClass::Log);
        // A keyword leading a label and its value is no statement
        // (`python -X importtime`); an import is.
        let importtime: String = (0..40)
            .map(|i| format!("import time:      {i}13 |       {i}472 |   module_{i}\n"))
            .collect();
        assert_eq!(judge(&importtime).0, ContentClass::Log);
        assert!(reads_as_code("import json"));
        assert!(reads_as_code("if ready:"));
        assert!(!reads_as_code("import time:       316 |        786 | site"));
    }

    #[test]
    fn a_log_with_nothing_of_prose_is_a_confident_log() {
        let build = "Reading package lists...\nBuilding dependency tree...\nReading state information...\n\
                     E: Unable to locate package ghost-no-such-package\n";
        assert_eq!(judge(build), (ContentClass::Log, 0.7));
        // Rules stacked between records frame them: the first, under the
        // report's title, underlines no heading (`raco test`).
        let framed = "raco test: \"t.rkt\"\n--------------------\nFAILURE\nname:       check-equal?\n\
                      location:   t.rkt:4:0\nactual:     1\nexpected:   2\n--------------------\n\
                      --------------------\nFAILURE\nname:       check-pred\nlocation:   t.rkt:5:0\n\
                      --------------------\n2/9 test failures\n";
        assert_eq!(judge(framed), (ContentClass::Log, 0.7));
        // A table's header over its rule is no heading (coverage.py's
        // report).
        let coverage = "Name           Stmts   Miss  Cover   Missing\n--------------------------------------------\n\
                        slug.py            9      2    78%   6, 11\ntest_slug.py       6      0   100%\n\
                        --------------------------------------------\nTOTAL             29      9    69%\n";
        assert_eq!(judge(coverage).0, ContentClass::Log);
    }
}
