//! Splitting Markdown (or plain text) into the blocks the prose compressor
//! treats differently: headings, code fences, list items, quotes, tables,
//! images and link definitions, and paragraphs of sentences. The headings
//! of reStructuredText (a title over a line of one punctuation mark, or
//! between two) and Perl's POD (`=head2 Title`) are headings too.

use ghost_types::markup::{is_pod_heading, is_title_rule};

/// One block of a document.
#[derive(Debug, Clone, PartialEq)]
pub enum Block<'a> {
    /// `# Title`, a title's underline or overline, `=head1 NAME` (kept
    /// whole).
    Heading(&'a str),
    /// A fenced code block: its lines, fences included.
    Code(Vec<&'a str>),
    /// A list item, its continuation lines joined with spaces.
    ListItem(String),
    /// Table rows (kept as they are: short and structured).
    Table(Vec<&'a str>),
    /// Badge or image lines and link reference definitions: markup, not prose.
    Markup(&'a str),
    /// A paragraph (or a quote), its lines joined with spaces.
    Paragraph(String),
    /// An empty line.
    Blank,
}

/// Splits `text` into blocks.
pub fn blocks(text: &str) -> Vec<Block<'_>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim();
        if t.is_empty() {
            out.push(Block::Blank);
            i += 1;
        } else if t.starts_with("```") || t.starts_with("~~~") {
            let fence = &t[..3];
            let start = i;
            i += 1;
            while i < lines.len() && !lines[i].trim().starts_with(fence) {
                i += 1;
            }
            i = (i + 1).min(lines.len());
            out.push(Block::Code(lines[start..i].to_vec()));
        } else if t.starts_with('#') && t.trim_start_matches('#').starts_with(' ')
            || is_pod_heading(line)
        {
            out.push(Block::Heading(line));
            i += 1;
        } else if i + 2 < lines.len()
            && is_title_rule(line, lines[i + 1])
            && lines[i + 2].trim_end() == line.trim_end()
        {
            // reStructuredText's title between an overline and an underline.
            out.extend(lines[i..i + 3].iter().map(|l| Block::Heading(l)));
            i += 3;
        } else if is_list_item(t) {
            // Continuation lines (not blank, not a new item or block) belong to the item.
            let start = i;
            i += 1;
            while i < lines.len() && continues_item(lines[i]) {
                i += 1;
            }
            let item: Vec<&str> = lines[start..i].iter().map(|l| l.trim()).collect();
            let indent = &line[..line.len() - t.len()];
            out.push(Block::ListItem(format!("{indent}{}", item.join(" "))));
        } else if t.starts_with('|') {
            let start = i;
            while i < lines.len() && lines[i].trim().starts_with('|') {
                i += 1;
            }
            out.push(Block::Table(lines[start..i].to_vec()));
        } else if i + 1 < lines.len()
            && (is_setext_underline(lines[i + 1]) || is_title_rule(lines[i + 1], line))
        {
            out.push(Block::Heading(line));
            out.push(Block::Heading(lines[i + 1]));
            i += 2;
        } else if t.starts_with("![")
            || t.starts_with("[![")
            || t.starts_with("[<img")
            || is_tag_only(t)
            || is_link_definition(t)
            || t.starts_with("<img")
        {
            out.push(Block::Markup(line));
            i += 1;
            // A badge or image split over lines (`[![x](…)](` then the URL).
            while i < lines.len() && is_markup_continuation(lines[i].trim()) {
                out.push(Block::Markup(lines[i]));
                i += 1;
            }
        } else {
            let mut para = String::new();
            while i < lines.len() {
                let t = lines[i].trim();
                if t.is_empty()
                    || t.starts_with("```")
                    || (t.starts_with('#') && t.trim_start_matches('#').starts_with(' '))
                    || is_pod_heading(lines[i])
                    || is_list_item(t)
                    || t.starts_with('|')
                {
                    break;
                }
                if !para.is_empty() {
                    para.push(' ');
                }
                para.push_str(t);
                i += 1;
            }
            out.push(Block::Paragraph(para));
        }
    }
    out
}

/// A line that is only HTML tags (`<br>`, `<p align="center">`, `</div>`).
fn is_tag_only(t: &str) -> bool {
    t.starts_with('<') && t.ends_with('>') && {
        let mut inside = false;
        t.chars().all(|c| match c {
            '<' => {
                inside = true;
                true
            }
            '>' => {
                inside = false;
                true
            }
            c => inside || c.is_whitespace(),
        })
    }
}

fn is_markup_continuation(t: &str) -> bool {
    ["http://", "https://", "[![", "![", "[<img", "<img", ")"]
        .iter()
        .any(|p| t.starts_with(p))
}

/// `====` or `----` under a line: that line is a heading.
fn is_setext_underline(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3 && (t.bytes().all(|b| b == b'=') || t.bytes().all(|b| b == b'-'))
}

fn continues_item(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && !is_list_item(t)
        && !t.starts_with("```")
        && !t.starts_with('#')
        && !t.starts_with('|')
}

fn is_list_item(t: &str) -> bool {
    let bullet = t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ");
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    bullet || digits > 0 && (t[digits..].starts_with(". ") || t[digits..].starts_with(") "))
}

fn is_link_definition(t: &str) -> bool {
    t.starts_with('[') && t.contains("]: ") && !t.contains(' ')
        || t.starts_with('[')
            && t.split_once("]: ")
                .is_some_and(|(_, url)| !url.contains(' ') || url.starts_with("http"))
}

/// Splits a paragraph into sentences at `.`, `!` or `?` followed by a space
/// and a capital letter, a quote or a backtick (not after `e.g.`, `i.e.`, …).
pub fn sentences(paragraph: &str) -> Vec<&str> {
    const ABBREVIATIONS: &[&str] = &[
        "e.g.", "i.e.", "etc.", "vs.", "cf.", "Dr.", "Mr.", "Mrs.", "No.",
    ];
    let b = paragraph.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + 2 < b.len() {
        if matches!(b[i], b'.' | b'!' | b'?')
            && b[i + 1] == b' '
            && (b[i + 2].is_ascii_uppercase() || matches!(b[i + 2], b'"' | b'`' | b'*' | b'['))
            && !ABBREVIATIONS.iter().any(|a| paragraph[..=i].ends_with(a))
        {
            out.push(paragraph[start..=i].trim());
            start = i + 2;
        }
        i += 1;
    }
    let rest = paragraph[start..].trim();
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_blocks_and_sentences() {
        let doc = "# Title\n\nFirst one. Second one, e.g. this. Third?\n\n- item one\n- item two\n\n```rust\nfn x() {}\n```\n";
        let b = blocks(doc);
        assert_eq!(b[0], Block::Heading("# Title"));
        assert!(matches!(&b[2], Block::Paragraph(p) if sentences(p).len() == 3));
        assert!(
            b.iter()
                .any(|x| matches!(x, Block::Code(lines) if lines.len() == 3))
        );
        assert_eq!(
            b.iter().filter(|x| matches!(x, Block::ListItem(_))).count(),
            2
        );
    }

    #[test]
    fn restructuredtext_and_pod_headings() {
        let rst = "********************************\n:mod:`cache` --- Memoizing tools\n********************************\n\nSome text here.\n\nUsage\n~~~~~\n\nMore text.\n";
        let b = blocks(rst);
        assert_eq!(b[1], Block::Heading(":mod:`cache` --- Memoizing tools"));
        assert_eq!(b[2], Block::Heading("********************************"));
        assert!(b.contains(&Block::Heading("Usage")));
        // A rule shorter than the line above it is not its underline.
        assert!(!blocks("A paragraph line that is long\n***\n").contains(&Block::Heading("***")));
        let pod =
            "=head1 NAME\n\nFoo - does things\n\n=head2 Module Installation\nHow to install.\n";
        let b = blocks(pod);
        assert_eq!(b[0], Block::Heading("=head1 NAME"));
        assert!(b.contains(&Block::Heading("=head2 Module Installation")));
    }

    #[test]
    fn setext_headings_and_multi_line_items() {
        let b = blocks("Title\n=====\n\n- a long item\n  that continues\n");
        assert_eq!(b[0], Block::Heading("Title"));
        assert_eq!(
            b[3],
            Block::ListItem("- a long item that continues".to_string())
        );
    }
}
