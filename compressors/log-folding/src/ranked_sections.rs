//! Sections ranked by a number: a name at the margin, then the things under
//! it, indented, each ending in a number the tool sorted them by, falling
//! (`radon cc -s`'s blocks of each file by complexity: `    M 1276:4
//! BaseEventLoop.create_datagram_endpoint - F (53)`). The tool put the
//! largest first because they are what its reader acts on; a template
//! takes the rows for one shape printed many times and folds the very
//! rows that matter. So where a text is such a listing, the rows whose
//! number is among the listing's largest stay, each under its section's
//! name; the rest fold as any lines do.

/// A listing holds at least this many ranked rows…
const MIN_ROWS: usize = 20;
/// …in at least this many sections…
const MIN_SECTIONS: usize = 3;
/// …making up at least this share of its indented lines.
const MIN_RANKED_SHARE: f64 = 0.9;
/// The rows kept: those whose number is at least the one this share of
/// the way down the listing's numbers, largest first.
const TOP_SHARE: f64 = 0.1;

/// The lines to keep (the largest rows and their sections' names), or none
/// when `contents` is not a listing of ranked sections.
pub fn kept(contents: &[&str]) -> Vec<usize> {
    let indented = contents
        .iter()
        .filter(|l| l.starts_with([' ', '\t']) && !l.trim_ascii().is_empty())
        .count();
    if indented < MIN_ROWS {
        return Vec::new();
    }
    let sections = sections(contents);
    let ranked: Vec<&Section> = sections.iter().filter(|s| s.is_ranked()).collect();
    let rows: usize = ranked.iter().map(|s| s.rows.len()).sum();
    if ranked.len() < MIN_SECTIONS
        || rows < MIN_ROWS
        || (rows as f64) < indented as f64 * MIN_RANKED_SHARE
    {
        return Vec::new();
    }
    let mut values: Vec<u64> = ranked
        .iter()
        .flat_map(|s| s.rows.iter().map(|&(_, v)| v))
        .collect();
    values.sort_unstable_by(|a, b| b.cmp(a));
    let cutoff = values[((values.len() as f64 * TOP_SHARE) as usize).min(values.len() - 1)];
    let mut out = Vec::new();
    for s in ranked {
        let top: Vec<usize> = s
            .rows
            .iter()
            .filter(|&&(_, v)| v >= cutoff)
            .map(|&(i, _)| i)
            .collect();
        if !top.is_empty() {
            out.push(s.name);
            out.extend(top);
        }
    }
    out
}

/// A name at the margin and the indented rows under it, each with the
/// last number it ends in (none when a row ends in none).
struct Section {
    name: usize,
    rows: Vec<(usize, u64)>,
    unnumbered: bool,
}

impl Section {
    /// Two rows or more, each ending in a number, none larger than the
    /// one above it.
    fn is_ranked(&self) -> bool {
        !self.unnumbered && self.rows.len() >= 2 && self.rows.windows(2).all(|w| w[0].1 >= w[1].1)
    }
}

/// The sections of `contents`: each line at the margin opens one, and the
/// indented lines right under it are its rows.
fn sections(contents: &[&str]) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for (i, line) in contents.iter().enumerate() {
        if line.trim_ascii().is_empty() {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            out.push(Section {
                name: i,
                rows: Vec::new(),
                unnumbered: false,
            });
            continue;
        }
        let Some(section) = out.last_mut() else {
            continue;
        };
        match trailing_number(line) {
            Some(v) => section.rows.push((i, v)),
            None => section.unnumbered = true,
        }
    }
    out
}

/// The number a line ends in, bare or framed (`(53)`, `[12]`, `53%`).
fn trailing_number(line: &str) -> Option<u64> {
    let last = line.split_whitespace().next_back()?;
    let bare = last.trim_matches(|c: char| matches!(c, '(' | ')' | '[' | ']' | '%' | ','));
    if bare.is_empty() || !bare.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    bare.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(files: usize, rows: usize) -> String {
        let mut text = String::new();
        for f in 0..files {
            text.push_str(&format!("pkg/module_{f}.py\n"));
            for r in 0..rows {
                let complexity = (rows - r) * (f + 1);
                text.push_str(&format!(
                    "    F {}:0 function_{f}_{r} - A ({complexity})\n",
                    r * 10 + 1
                ));
            }
        }
        text.push_str("\n120 blocks (classes, functions, methods) analyzed.\n");
        text
    }

    #[test]
    fn the_largest_rows_stay_under_their_sections_names() {
        let text = report(6, 20);
        let lines: Vec<&str> = text.lines().collect();
        let kept = kept(&lines);
        // The largest tenth of 120 rows, at least: the last file's first rows.
        assert!(kept.len() >= 12, "{kept:?}");
        assert!(kept.contains(&(5 * 21)), "the last file's name stays");
        assert!(kept.contains(&(5 * 21 + 1)), "its largest row stays");
        // A small row (complexity 1) folds.
        assert!(!kept.contains(&20));
    }

    #[test]
    fn rows_out_of_order_or_without_numbers_are_no_ranking() {
        // One section of twelve out of order, with an unnumbered row: the
        // others still make a listing.
        let text = report(12, 20).replacen("- A (20)", "- A (1)\n    a row without a number", 1);
        let lines: Vec<&str> = text.lines().collect();
        assert!(!kept(&lines).is_empty());
        // Half the sections out of order: no listing.
        let text = report(6, 20)
            .replace("- A (40)", "- A (1)")
            .replace("- A (20)", "- A (1)");
        let lines: Vec<&str> = text.lines().collect();
        assert!(kept(&lines).is_empty());
        // A log whose indented lines are messages, not ranked rows.
        let log: String = (0..30)
            .map(|i| {
                format!(
                    "step {i}\n    took {} ms\n    wrote {} files\n",
                    i % 7,
                    i % 5
                )
            })
            .collect();
        let lines: Vec<&str> = log.lines().collect();
        assert!(kept(&lines).is_empty());
    }
}
