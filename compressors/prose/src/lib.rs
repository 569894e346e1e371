//! ghost's built-in prose compressor: extractive, no model.
//!
//! TextRank over sentences picks the central ones; on top of those it keeps
//! each paragraph's first sentence, every sentence with a number, a path, a
//! URL or an identifier in backticks, every heading, list items' first words,
//! and short code fences (long ones fold). Markdown structure survives: what
//! is dropped is marked `…` where it was.

pub mod markdown;
pub mod textrank;

#[cfg(target_arch = "wasm32")]
mod component;

use markdown::Block;

/// Share of sentences kept by rank on top of the ones kept by rule.
const RANKED_SHARE: f64 = 0.05;
/// Code fences up to this many lines are kept whole.
const SHORT_CODE: usize = 4;
/// Words of a list item kept.
const LIST_WORDS: usize = 6;
/// Table rows kept after the header.
const TABLE_ROWS: usize = 3;

/// Compressed prose and notes about it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedProse {
    /// The compressed text.
    pub text: String,
    /// Short notes, e.g. "120 sentences → 48".
    pub notes: Vec<String>,
}

/// Whether a sentence carries something an agent may need verbatim.
fn is_specific(s: &str) -> bool {
    s.contains('`')
        || s.contains("://")
        || s.bytes().any(|b| b.is_ascii_digit())
        || s.split_whitespace()
            .any(|w| w.contains('/') && w.len() > 2 || w.contains("::"))
}

/// Compresses `text`.
pub fn compress(text: &str) -> CompressedProse {
    let blocks = markdown::blocks(text);
    // Every sentence, with the paragraph it belongs to.
    let mut sentences: Vec<(usize, &str)> = Vec::new();
    for (b, block) in blocks.iter().enumerate() {
        if let Block::Paragraph(p) = block {
            sentences.extend(markdown::sentences(p).into_iter().map(|s| (b, s)));
        }
    }
    let texts: Vec<&str> = sentences.iter().map(|(_, s)| *s).collect();
    let scores = textrank::rank(&texts);
    let mut keep = vec![false; sentences.len()];
    for (k, (b, s)) in sentences.iter().enumerate() {
        let first_of_paragraph = k == 0 || sentences[k - 1].0 != *b;
        keep[k] = first_of_paragraph || is_specific(s);
    }
    let mut order: Vec<usize> = (0..sentences.len()).filter(|&k| !keep[k]).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    let ranked = (sentences.len() as f64 * RANKED_SHARE).ceil() as usize;
    for &k in order.iter().take(ranked) {
        keep[k] = true;
    }

    let mut out: Vec<String> = Vec::new();
    let mut code_folded = 0;
    let mut markup = 0;
    let mut next_sentence = 0;
    for (b, block) in blocks.iter().enumerate() {
        if !matches!(block, Block::Markup(_) | Block::Blank) && markup > 0 {
            out.push(format!("[… {markup} markup lines]"));
            markup = 0;
        }
        match block {
            Block::Heading(h) => out.push(h.to_string()),
            Block::Blank => {
                if out.last().is_some_and(|l| !l.is_empty()) {
                    out.push(String::new());
                }
            }
            Block::Markup(_) => markup += 1,
            Block::ListItem(item) => {
                let words: Vec<&str> = item.split_whitespace().collect();
                let indent = &item[..item.len() - item.trim_start().len()];
                if words.len() <= LIST_WORDS + 1 || is_specific(item) {
                    out.push(item.trim_end().to_string());
                } else {
                    out.push(format!("{indent}{} …", words[..LIST_WORDS + 1].join(" ")));
                }
            }
            Block::Table(rows) => {
                let shown = rows.len().min(TABLE_ROWS + 2);
                out.extend(rows[..shown].iter().map(|r| r.to_string()));
                if rows.len() > shown {
                    out.push(format!("| … {} more rows |", rows.len() - shown));
                }
            }
            Block::Code(lines) => {
                if lines.len() <= SHORT_CODE + 2 {
                    out.extend(lines.iter().map(|l| l.to_string()));
                } else {
                    let body = lines.len() - 2;
                    code_folded += body - 2;
                    out.extend(lines[..3].iter().map(|l| l.to_string()));
                    out.push(format!("… {} more lines of code", body - 2));
                    out.push(lines[lines.len() - 1].to_string());
                }
            }
            Block::Paragraph(_) => {
                let mut para = String::new();
                let mut gap = false;
                while next_sentence < sentences.len() && sentences[next_sentence].0 == b {
                    if keep[next_sentence] {
                        if gap {
                            para.push_str(" …");
                        }
                        if !para.is_empty() {
                            para.push(' ');
                        }
                        para.push_str(sentences[next_sentence].1);
                        gap = false;
                    } else {
                        gap = true;
                    }
                    next_sentence += 1;
                }
                if gap {
                    para.push_str(" …");
                }
                out.push(para);
            }
        }
    }
    if markup > 0 {
        out.push(format!("[… {markup} markup lines]"));
    }
    let kept = keep.iter().filter(|k| **k).count();
    let summary = format!(
        "{} sentences → {kept}, {code_folded} code lines folded",
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
}
