//! ghost's built-in prose compressor: extractive, no model.
//!
//! Every heading stays, and so do each section's opening sentence and the
//! caption of a code block, list or table; the other sentences compete for
//! a share of the text, specific ones first (inline code, a path, a version,
//! a flag, a bare URL, an identifier: see [`specific`]), then by TextRank
//! ([`select`]). Short list items stay whole, long ones keep their first
//! words; tables keep their first rows with their padding squeezed
//! ([`table`]); code fences keep their outline ([`fence`]); links lose
//! their web addresses ([`links`]). A table of
//! contents (a list of links to the document's own headings) folds: the
//! headings are kept anyway. Markdown structure survives: what is dropped is
//! marked `…` where it was.

pub mod fence;
pub mod links;
pub mod markdown;
pub mod releases;
pub mod select;
pub mod specific;
pub mod table;
pub mod textrank;

#[cfg(target_arch = "wasm32")]
mod component;

use markdown::Block;
use select::{Ranking, Sentence};
use specific::is_specific;

/// A list item of up to this many words is kept whole (an instruction or a
/// requirement is short and every word of it counts); a longer one keeps
/// this many words, or all of it when it names something specific.
const LIST_WORDS: usize = 16;

/// How much of a document stays; tighter under a token budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Share of the paragraphs' text that may stay (sections' opening
    /// sentences and captions of code, lists and tables stay beyond it).
    pub sentence_share: f64,
    /// Lines of a code example's folded body shown before its count.
    pub body_head: usize,
    /// Table rows kept after the header.
    pub table_rows: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sentence_share: 0.4,
            body_head: 2,
            table_rows: 3,
        }
    }
}

impl Options {
    /// For a small budget: a fifth of the paragraphs, code outlines only.
    pub fn tighter() -> Self {
        Options {
            sentence_share: 0.2,
            body_head: 0,
            table_rows: 3,
        }
    }

    /// For a very small budget: sections' openers, captions, outlines, one table row.
    pub fn tightest() -> Self {
        Options {
            sentence_share: 0.0,
            body_head: 0,
            table_rows: 1,
        }
    }
}

/// Compressed prose and notes about it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedProse {
    /// The compressed text.
    pub text: String,
    /// Short notes, e.g. "120 sentences → 48".
    pub notes: Vec<String>,
}

/// A list item that is only a link to a heading of this document
/// (`- [Install](#install)`): a line of a table of contents.
fn is_contents_link(item: &str) -> bool {
    let t = item.trim_start();
    let t = t
        .strip_prefix(|c: char| matches!(c, '-' | '*' | '+'))
        .map(str::trim_start)
        .unwrap_or_else(|| {
            t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ')')
                .trim_start()
        });
    t.starts_with('[') && t.ends_with(')') && t.contains("](#") && t.matches("](").count() == 1
}

/// Compresses `text`.
pub fn compress(text: &str) -> CompressedProse {
    compress_with(text, &Options::default())
}

/// Compresses `text` to fit `target_tokens` if given (by
/// [`ghost_types::estimated_tokens`]), tightening step by step; headings always stay, so a document
/// may still be over a very small budget.
pub fn compress_within(text: &str, target_tokens: Option<u32>) -> CompressedProse {
    let blocks = markdown::blocks(text);
    let sentences = sentences_of(&blocks);
    let ranking = Ranking::of(&sentences);
    let mut out = render(&blocks, &sentences, &ranking, &Options::default());
    let Some(target) = target_tokens else {
        return out;
    };
    for tighter in [Options::tighter, Options::tightest] {
        if ghost_types::estimated_tokens(&out.text) <= target as usize {
            break;
        }
        out = render(&blocks, &sentences, &ranking, &tighter());
        out.notes
            .push(format!("tightened for a budget of {target} tokens"));
    }
    out
}

/// Compresses `text` keeping as much as `opts` says.
pub fn compress_with(text: &str, opts: &Options) -> CompressedProse {
    let blocks = markdown::blocks(text);
    let sentences = sentences_of(&blocks);
    render(&blocks, &sentences, &Ranking::of(&sentences), opts)
}

/// Every sentence of the paragraphs in `blocks`, with where it stands.
fn sentences_of<'a>(blocks: &'a [Block<'a>]) -> Vec<Sentence<'a>> {
    // Every sentence, with the paragraph it belongs to.
    let mut sentences: Vec<Sentence> = Vec::new();
    let mut after_heading = true;
    for (b, block) in blocks.iter().enumerate() {
        match block {
            Block::Paragraph(p) => {
                let shows_next = blocks[b + 1..]
                    .iter()
                    .find(|n| !matches!(n, Block::Blank))
                    .is_some_and(|n| {
                        matches!(n, Block::Code(_) | Block::ListItem(_) | Block::Table(_))
                    });
                let parts = markdown::sentences(p);
                let last = parts.len().saturating_sub(1);
                for (k, text) in parts.into_iter().enumerate() {
                    sentences.push(Sentence {
                        block: b,
                        first: k == 0,
                        opens_section: after_heading,
                        introduces: k == last && shows_next && text.ends_with(':'),
                        text,
                    });
                }
                after_heading = false;
            }
            Block::Heading(_) => after_heading = true,
            Block::Blank | Block::Markup(_) => {}
            _ => after_heading = false,
        }
    }
    sentences
}

/// The document as shown under `opts`.
fn render(
    blocks: &[Block],
    sentences: &[Sentence],
    ranking: &Ranking,
    opts: &Options,
) -> CompressedProse {
    let keep = ranking.keep(sentences, opts.sentence_share);
    // An older release's entries in a changelog (see [`releases`]).
    let older = releases::folded(blocks);
    let mut older_folded = 0;

    let mut out: Vec<String> = Vec::new();
    let mut code_folded = 0;
    let mut markup = 0;
    let mut contents = 0;
    let mut targets_dropped = 0;
    let mut next_sentence = 0;
    for (b, block) in blocks.iter().enumerate() {
        if older[b] {
            older_folded += 1;
            // (Its sentences are not shown either.)
            while next_sentence < sentences.len() && sentences[next_sentence].block == b {
                next_sentence += 1;
            }
            continue;
        }
        if matches!(block, Block::Blank) && older_folded > 0 {
            continue;
        }
        if older_folded > 0 {
            out.push(older_note(older_folded));
            out.push(String::new());
            older_folded = 0;
        }
        if !matches!(block, Block::Markup(_) | Block::Blank) && markup > 0 {
            out.push(markup_note(markup));
            markup = 0;
        }
        let in_contents = matches!(block, Block::ListItem(item) if is_contents_link(item));
        if !in_contents && !matches!(block, Block::Blank) && contents > 0 {
            out.push(format!("[… {contents} links to this document's headings]"));
            contents = 0;
        }
        match block {
            Block::ListItem(_) if in_contents => contents += 1,
            Block::Heading(h) => out.push(h.to_string()),
            Block::Blank => {
                if out.last().is_some_and(|l| !l.is_empty()) {
                    out.push(String::new());
                }
            }
            Block::Markup(_) => markup += 1,
            Block::ListItem(item) => {
                let specific = is_specific(item);
                let (item, dropped) = links::without_web_targets(item);
                targets_dropped += dropped;
                let words: Vec<&str> = item.split_whitespace().collect();
                let indent = &item[..item.len() - item.trim_start().len()];
                if words.len() <= LIST_WORDS || specific {
                    out.push(item.trim_end().to_string());
                } else {
                    out.push(format!("{indent}{} …", words[..LIST_WORDS].join(" ")));
                }
            }
            Block::Table(rows) => {
                let shown = rows.len().min(opts.table_rows + 2);
                for row in &rows[..shown] {
                    let (row, dropped) = links::without_web_targets(&table::squeezed(row));
                    targets_dropped += dropped;
                    out.push(row);
                }
                if rows.len() > shown {
                    out.push(format!("| … {} more rows |", rows.len() - shown));
                }
            }
            Block::Code(lines) => {
                let outline = fence::outline(lines, opts.body_head);
                code_folded += outline.folded;
                out.extend(outline.lines);
            }
            Block::Paragraph(_) => {
                let mut para = String::new();
                let mut gap = false;
                while next_sentence < sentences.len() && sentences[next_sentence].block == b {
                    if keep[next_sentence] {
                        if gap {
                            para.push_str(" …");
                        }
                        if !para.is_empty() {
                            para.push(' ');
                        }
                        para.push_str(sentences[next_sentence].text);
                        gap = false;
                    } else {
                        gap = true;
                    }
                    next_sentence += 1;
                }
                if gap {
                    para.push_str(if para.is_empty() { "…" } else { " …" });
                }
                let (para, dropped) = links::without_web_targets(&para);
                targets_dropped += dropped;
                out.push(para);
            }
        }
    }
    if older_folded > 0 {
        out.push(older_note(older_folded));
    }
    if markup > 0 {
        out.push(markup_note(markup));
    }
    if contents > 0 {
        out.push(format!("[… {contents} links to this document's headings]"));
    }
    let kept = (0..sentences.len())
        .filter(|&i| keep[i] && !older[sentences[i].block])
        .count();
    let summary = format!(
        "{} sentences → {kept}, {code_folded} code lines folded, {targets_dropped} link addresses left out",
        sentences.len()
    );
    out.push(format!("[ghost prose: {summary}]"));
    let mut text = out.join("\n");
    text.push('\n');
    CompressedProse {
        text,
        notes: vec![summary],
    }
}

/// The line standing for an older release's `n` folded entries.
fn older_note(n: usize) -> String {
    format!(
        "[… {n} entr{} of an older release]",
        if n == 1 { "y" } else { "ies" }
    )
}

/// The line standing for `n` folded badge, image or link-definition lines.
fn markup_note(n: usize) -> String {
    format!("[… {n} markup line{}]", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_headings_specific_sentences_and_marks_gaps() {
        let mut doc = String::from("# Guide\n\n");
        for i in 0..10 {
            doc.push_str(&format!("Paragraph {} opens here. ", i + 1));
            doc.push_str("Then it rambles on about nothing in particular. It rambles more. And more again. Still rambling here.\n\n");
        }
        doc.push_str("## Install\n\nRun `cargo install ghost` to install it.\n");
        let out = compress(&doc).text;
        assert!(out.contains("# Guide") && out.contains("## Install"));
        assert!(out.contains("Run `cargo install ghost` to install it."));
        assert!(out.contains("Paragraph 7 opens here."));
        assert!(out.contains(" …"));
        assert!(out.len() < doc.len());
    }

    #[test]
    fn a_changelog_keeps_its_latest_releases_and_every_heading() {
        let mut log = String::from("# Changelog\n\n");
        for v in (1..=8).rev() {
            log.push_str(&format!("## [1.{v}.0] - 2026-0{v}-01\n\n### Fixed\n\n"));
            for k in 0..3 {
                log.push_str(&format!(
                    "* Fix `parse_{v}_{k}` on empty input (#{v}{k}).\n"
                ));
            }
            log.push('\n');
        }
        let out = compress(&log).text;
        for v in 1..=8 {
            assert!(
                out.contains(&format!("## [1.{v}.0] - 2026-0{v}-01\n")),
                "{out}"
            );
        }
        assert_eq!(out.matches("### Fixed").count(), 8);
        assert!(out.contains("* Fix `parse_6_2` on empty input (#62)."));
        assert!(!out.contains("parse_5_0"), "{out}");
        assert_eq!(out.matches("[… 3 entries of an older release]").count(), 5);
        assert!(
            out.len() * 4 < log.len() * 3,
            "{} of {} bytes",
            out.len(),
            log.len()
        );
    }

    #[test]
    fn a_budget_tightens_but_keeps_headings() {
        let mut doc = String::from("# Guide\n\n");
        for i in 0..30 {
            doc.push_str(&format!("## Part {i}\n\nPart {i} opens here. "));
            doc.push_str("It explains things at some length, with care. It goes on. And on.\n\n");
            doc.push_str("A second paragraph adds detail nobody asked for. It is long.\n\n");
        }
        let free = compress_within(&doc, None).text;
        let tight = compress_within(&doc, Some(400));
        assert!(tight.text.len() < free.len());
        assert!(tight.notes.iter().any(|n| n.contains("budget of 400")));
        assert!((0..30).all(|i| tight.text.contains(&format!("## Part {i}\n"))));
    }
}
