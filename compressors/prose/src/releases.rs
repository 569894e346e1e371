//! A changelog (`CHANGELOG.md`, `RELEASES.md`, a project's release notes):
//! a heading per release, named by its version (`# 1.2.4`, `## [0.3.1] -
//! 2024-05-01`, `## v2.0`). What an agent reads one for is the latest
//! releases; an old release's entries are each specific (a pull request's
//! link, a name in backticks), so sentence ranking keeps them all and the
//! document passes nearly whole. The [`RECENT_RELEASES`] latest releases
//! are read as any prose; every older one keeps its headings, its entries
//! folded and counted.

use crate::markdown::Block;

/// A document is a changelog when at least this many headings name a
/// version.
const RELEASE_HEADINGS_AT_LEAST: usize = 4;

/// A release's only entry of at most this many bytes is shown: the line
/// counting it would be as long.
const SHORT_ENTRY_BYTES: usize = 40;

/// The latest releases read as any prose.
pub const RECENT_RELEASES: usize = 3;

/// For each block, whether it is an older release's entry to fold (never
/// a heading or a blank line); all false when `blocks` are no changelog.
pub fn folded(blocks: &[Block<'_>]) -> Vec<bool> {
    let mut folded = vec![false; blocks.len()];
    // Each release heading's block and version.
    let releases: Vec<(usize, Vec<u64>)> = blocks
        .iter()
        .enumerate()
        .filter_map(|(b, block)| match block {
            Block::Heading(h) => version_of(h).map(|v| (b, v)),
            _ => None,
        })
        .collect();
    if releases.len() < RELEASE_HEADINGS_AT_LEAST {
        return folded;
    }
    // Newest first (the usual order), or oldest first: the latest are at
    // the end then.
    let newest_first = releases[0].1 >= releases[releases.len() - 1].1;
    let recent: Vec<usize> = if newest_first {
        (0..RECENT_RELEASES).collect()
    } else {
        (releases.len() - RECENT_RELEASES..releases.len()).collect()
    };
    for (k, &(start, _)) in releases.iter().enumerate() {
        if recent.contains(&k) {
            continue;
        }
        let end = section_end(blocks, start);
        let entries: Vec<usize> = (start + 1..end)
            .filter(|&b| !matches!(blocks[b], Block::Heading(_) | Block::Blank))
            .collect();
        // One entry no longer than the line that would count it stays.
        if let [only] = entries[..]
            && length(&blocks[only]) <= SHORT_ENTRY_BYTES
        {
            continue;
        }
        for b in entries {
            folded[b] = true;
        }
    }
    folded
}

/// Where the release whose heading is `blocks[start]` ends: at the next
/// release's heading, or at a heading over it (a `## License` after the
/// last release of a README's release notes: one `#` at most as many as
/// the release heading's; for a heading not marked by `#`, any but a
/// title's underline).
fn section_end(blocks: &[Block<'_>], start: usize) -> usize {
    let Block::Heading(release) = blocks[start] else {
        unreachable!("a release starts at its heading");
    };
    let level = hashes(release);
    (start + 1..blocks.len())
        .find(|&b| match blocks[b] {
            Block::Heading(h) => {
                version_of(h).is_some()
                    || if level > 0 {
                        (1..=level).contains(&hashes(h))
                    } else {
                        !is_rule(h)
                    }
            }
            _ => false,
        })
        .unwrap_or(blocks.len())
}

/// The bytes `block` shows.
fn length(block: &Block<'_>) -> usize {
    match block {
        Block::Heading(text) | Block::Markup(text) => text.len(),
        Block::ListItem(text) | Block::Paragraph(text) => text.len(),
        Block::Code(lines) | Block::Table(lines) => lines.iter().map(|l| l.len() + 1).sum(),
        Block::Blank => 0,
    }
}

/// How many `#` mark a heading (none for a reStructuredText or POD one).
fn hashes(heading: &str) -> usize {
    heading
        .trim_start()
        .bytes()
        .take_while(|&b| b == b'#')
        .count()
}

/// Whether `line` is one punctuation mark repeated (a title's underline).
fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3
        && t.bytes()
            .all(|b| b == t.as_bytes()[0] && b.is_ascii_punctuation())
}

/// The version a release heading names (`# 1.2.4`, `## [0.3.1] - 2024`,
/// `## v2.0`, `## Version 2.0.1 (2023-01-01)`), as its numbers; none for
/// any other heading.
fn version_of(heading: &str) -> Option<Vec<u64>> {
    let t = heading.trim().trim_start_matches('#').trim_start();
    let t = t.trim_start_matches('[');
    let t = ["Version ", "version ", "Release ", "release ", "v", "V"]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(t);
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let version = t[..end].trim_end_matches('.');
    // A section numbered like a version (`## 1.2 Installation`) goes on
    // with a title; a release's heading with at most a date or a dash.
    let rest = t[end..].trim_start_matches([']', '.']).trim_start();
    if rest.starts_with(char::is_alphabetic) {
        return None;
    }
    let numbers: Vec<u64> = version
        .split('.')
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    (numbers.len() >= 2).then_some(numbers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::blocks;

    #[test]
    fn a_heading_names_a_version_or_not() {
        for (heading, version) in [
            ("# 1.2.4", Some(vec![1, 2, 4])),
            ("## [0.3.1] - 2024-05-01", Some(vec![0, 3, 1])),
            ("## v2.0", Some(vec![2, 0])),
            ("### Version 10.1.0 (2023)", Some(vec![10, 1, 0])),
            ("## 1.2.0 — the fast release", Some(vec![1, 2, 0])),
            ("## 1.2 Installation", None),
            ("### 2.1. Scope", None),
            ("## Install", None),
            ("## 2024", None),
            ("## Unreleased", None),
        ] {
            assert_eq!(version_of(heading), version, "{heading}");
        }
    }

    #[test]
    fn older_releases_fold_their_entries_newest_first_or_last() {
        let mut newest_first = String::new();
        for v in (1..=6).rev() {
            newest_first.push_str(&format!(
                "## 1.{v}.0\n\n* Fix {v}: no panic on empty input any more (#{v})\n\n"
            ));
        }
        let doc = blocks(&newest_first);
        let marks = folded(&doc);
        let kept: Vec<&Block> = doc
            .iter()
            .zip(&marks)
            .filter(|(_, f)| !**f)
            .map(|(b, _)| b)
            .collect();
        assert!(kept.contains(&&Block::ListItem(
            "* Fix 6: no panic on empty input any more (#6)".into()
        )));
        assert!(kept.contains(&&Block::ListItem(
            "* Fix 4: no panic on empty input any more (#4)".into()
        )));
        assert!(!kept.contains(&&Block::ListItem(
            "* Fix 3: no panic on empty input any more (#3)".into()
        )));
        assert!(kept.contains(&&Block::Heading("## 1.1.0")));
        let mut oldest_first = String::new();
        for v in 1..=6 {
            oldest_first.push_str(&format!(
                "## 1.{v}.0\n\n* Fix {v}: no panic on empty input any more (#{v})\n\n"
            ));
        }
        let doc = blocks(&oldest_first);
        let folded_items: Vec<&Block> = doc
            .iter()
            .zip(folded(&doc))
            .filter(|(_, f)| *f)
            .map(|(b, _)| b)
            .collect();
        assert_eq!(
            folded_items,
            [1, 2, 3]
                .map(|v| Block::ListItem(format!(
                    "* Fix {v}: no panic on empty input any more (#{v})"
                )))
                .iter()
                .collect::<Vec<_>>()
        );
        // A release's one short entry stays: counting it costs as much.
        let short: String = (1..=5)
            .map(|v| format!("## 1.{v}.0\n\n* Fix {v}\n\n"))
            .collect();
        assert!(folded_none(&short));
        // A document whose sections are numbered is no changelog.
        let spec: String = (1..=6)
            .map(|v| {
                format!("## 1.{v} Part {v}\n\nIt says what part {v} of the design is for.\n\n")
            })
            .collect();
        assert!(folded_none(&spec));
        // Fewer release headings: no changelog.
        assert!(folded_none("## 1.0.0\n\n* a\n\n## 0.9.0\n\n* b\n"));
    }

    #[test]
    fn the_last_release_ends_at_a_heading_over_it() {
        let mut readme = String::from("# Crate\n\nIt parses.\n\n## Release notes\n\n");
        for v in (1..=5).rev() {
            readme.push_str(&format!(
                "### 0.{v}.0\n\n* Change {v} to the wording of the parser's messages\n\n"
            ));
        }
        readme.push_str("## License\n\nMIT, see `LICENSE`.\n");
        let doc = blocks(&readme);
        let marks = folded(&doc);
        let license = doc
            .iter()
            .position(|b| *b == Block::Heading("## License"))
            .unwrap();
        assert!(marks[license..].iter().all(|&f| !f));
        assert_eq!(marks.iter().filter(|&&f| f).count(), 2);
    }

    fn folded_none(text: &str) -> bool {
        !folded(&blocks(text)).iter().any(|&f| f)
    }
}
