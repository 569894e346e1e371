//! A tree listing: `npm ls`, `cargo tree`, `pnpm list`, Maven's
//! `dependency:tree`, Gradle's `dependencies`, `tree`. Every node names a
//! package or a file, the answer the agent asked for, and no two nodes are
//! alike in what matters; the template fold would take them for one shape
//! printed many times. Each node stays, but a node the tool itself marks as
//! shown already (npm's `deduped`, cargo's and Gradle's `(*)`) folds.
//!
//! A profiler's call tree is ranked: each node leads with the time its
//! frame took and siblings come largest first (pyinstrument's `├─ 0.303
//! main  pip/_internal/cli/main.py:46`). Its thousands of small frames are
//! not what it is read for: it keeps its [`RANKED_NODES_KEPT`] largest
//! nodes with the nodes above them (a frame's time is never more than its
//! caller's, so they are the top of the tree), the rest fold.

use crate::search::Search;
use rustc_hash::FxHashSet;

/// A listing is a tree when at least this many of its lines are nodes…
const MIN_NODES: usize = 5;
/// …making up at least this share of its non-blank lines.
const MIN_NODE_SHARE: f64 = 0.5;

/// A ranked tree keeps this many of its largest nodes (and the nodes
/// above them).
const RANKED_NODES_KEPT: usize = 30;
/// A tree is ranked when at least this share of its nodes lead with a
/// number…
const NUMBERED_SHARE: f64 = 0.9;
/// …and at least this share of the nodes after a sibling are no larger.
const FALLING_SHARE: f64 = 0.95;

/// The node lines to keep, or none when `contents` is not a tree listing.
pub fn kept(contents: &[&str]) -> FxHashSet<usize> {
    let nodes: Vec<(usize, &str)> = contents
        .iter()
        .enumerate()
        .filter_map(|(i, c)| node_name(c).map(|name| (i, name)))
        .collect();
    let non_blank = contents
        .iter()
        .filter(|c| !c.trim_ascii().is_empty())
        .count();
    if nodes.len() < MIN_NODES || (nodes.len() as f64) < non_blank as f64 * MIN_NODE_SHARE {
        return FxHashSet::default();
    }
    let nodes = largest_of_ranked(contents, &nodes).unwrap_or(nodes);
    // A line heading nodes but no node itself is a tree's root (`cargo tree
    // -d`'s duplicated package, `npm ls`'s project) or a label over a
    // branch (`[dev-dependencies]`): it says what the nodes under it are,
    // marked as a repeat or not.
    let roots = nodes.iter().filter_map(|&(i, _)| {
        let above = contents[..i].last()?;
        (!above.trim_ascii().is_empty() && node_name(above).is_none()).then_some(i - 1)
    });
    // So is a line standing alone between blank lines: a root whose nodes
    // were shown already (`cargo tree -d`'s `phf v0.14.0 (*)`).
    let blank = |i: usize| contents.get(i).is_none_or(|c| c.trim_ascii().is_empty());
    let alone = (0..contents.len()).filter(|&i| {
        !blank(i) && (i == 0 || blank(i - 1)) && blank(i + 1) && node_name(contents[i]).is_none()
    });
    let roots: Vec<usize> = roots.chain(alone).collect();
    nodes
        .into_iter()
        .filter(|(_, name)| !is_repeat(name))
        .map(|(i, _)| i)
        .chain(roots)
        .collect()
}

/// The [`RANKED_NODES_KEPT`] largest of `nodes` with the nodes above
/// them, in order, when the tree is ranked (see the module's doc); else
/// none.
fn largest_of_ranked<'a>(
    contents: &[&str],
    nodes: &[(usize, &'a str)],
) -> Option<Vec<(usize, &'a str)>> {
    if nodes.len() <= RANKED_NODES_KEPT {
        return None;
    }
    // Each node's depth (where its name starts), number and parent.
    let depth = |k: usize| nodes[k].1.as_ptr() as usize - contents[nodes[k].0].as_ptr() as usize;
    let values: Vec<Option<f64>> = nodes
        .iter()
        .map(|(_, name)| {
            name.split_whitespace()
                .next()
                .and_then(crate::table::number)
        })
        .collect();
    let numbered = values.iter().filter(|v| v.is_some()).count();
    if (numbered as f64) < nodes.len() as f64 * NUMBERED_SHARE {
        return None;
    }
    let mut parent: Vec<Option<usize>> = vec![None; nodes.len()];
    // The open branches: (depth, node), the deepest last.
    let mut open: Vec<(usize, usize)> = Vec::new();
    let (mut after_sibling, mut falling) = (0usize, 0usize);
    for k in 0..nodes.len() {
        let d = depth(k);
        while open.last().is_some_and(|&(od, _)| od > d) {
            open.pop();
        }
        if let Some(&(od, sibling)) = open.last()
            && od == d
        {
            open.pop();
            after_sibling += 1;
            if let (Some(now), Some(before)) = (values[k], values[sibling])
                && now <= before
            {
                falling += 1;
            }
        }
        parent[k] = open.last().map(|&(_, p)| p);
        open.push((d, k));
    }
    if after_sibling == 0 || (falling as f64) < after_sibling as f64 * FALLING_SHARE {
        return None;
    }
    let mut by_size: Vec<usize> = (0..nodes.len()).filter(|&k| values[k].is_some()).collect();
    by_size.sort_by(|&a, &b| {
        values[b]
            .partial_cmp(&values[a])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut chosen = vec![false; nodes.len()];
    for &k in by_size.iter().take(RANKED_NODES_KEPT) {
        let mut at = Some(k);
        while let Some(node) = at
            && !chosen[node]
        {
            chosen[node] = true;
            at = parent[node];
        }
    }
    Some(
        (0..nodes.len())
            .filter(|&k| chosen[k])
            .map(|k| nodes[k])
            .collect(),
    )
}

/// The text after a tree node's branch (`├── `, `└─┬ `, `+--- `, `\- `,
/// `` `-- ``), a bracketed tag (`[INFO] `) allowed before it.
pub fn node_name(line: &str) -> Option<&str> {
    let mut t = line.trim_ascii_start();
    if t.starts_with('[')
        && let Some(close) = t.find_str("] ")
    {
        t = &t[close + 2..];
    }
    let glyphs = t
        .char_indices()
        .find(|&(_, c)| !is_tree_glyph(c))
        .map_or(t.len(), |(at, _)| at);
    let (prefix, name) = t.split_at(glyphs);
    let branch =
        prefix.contains(['├', '└']) || ["+-", "\\-", "|-", "`-"].iter().any(|b| prefix.contains(b));
    (branch && !name.trim_ascii().is_empty()).then_some(name.trim_ascii_end())
}

/// Whether `c` draws a tree's branches or indents them: `tree` indents
/// with `│` and no-break spaces (`│\u{a0}\u{a0} ├── x`).
fn is_tree_glyph(c: char) -> bool {
    matches!(
        c,
        '│' | '├' | '└' | '─' | '┬' | '┼' | '┌' | '|' | '`' | '+' | '\\' | '-' | ' ' | '\u{a0}'
    )
}

/// A node the tool marks as listed elsewhere in the tree.
fn is_repeat(name: &str) -> bool {
    name.ends_with(" deduped") || name.ends_with("(*)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npm_and_cargo_trees_keep_their_nodes_but_repeats() {
        let npm = [
            "app@1.0.0 /tmp/app",
            "├─┬ eslint@9.39.5",
            "│ ├─┬ @eslint-community/eslint-utils@4.10.1",
            "│ │ ├── eslint-visitor-keys@3.4.3",
            "│ │ └── eslint@9.39.5 deduped",
            "│ ├── @eslint-community/regexpp@4.12.3",
            "│ └── debug@4.4.3",
            "└── ms@2.1.3",
        ];
        assert_eq!(kept(&npm), FxHashSet::from_iter([0, 1, 2, 3, 5, 6, 7]));
        let gradle = [
            "compileClasspath - Compile classpath.",
            "+--- org.slf4j:slf4j-api:2.0.9",
            "+--- com.google.guava:guava:32.1.2-jre",
            "|    +--- com.google.guava:failureaccess:1.0.1",
            "|    \\--- org.checkerframework:checker-qual:3.33.0",
            "\\--- org.slf4j:slf4j-api:2.0.9 (*)",
        ];
        assert_eq!(kept(&gradle), FxHashSet::from_iter([0, 1, 2, 3, 4]));
        // `cargo tree -d`: each duplicated package is the root of a tree
        // of what depends on it, a root marked as shown already too.
        let duplicates = [
            "bitflags v2.13.2",
            "└── wasmparser v0.254.2",
            "    └── wasmtime v48.0.8 (*)",
            "",
            "object v0.39.1 (*)",
            "├── wasmtime v48.0.8 (*)",
            "│   [build-dependencies]",
            "│   └── cc v1.2.0",
            "└── backtrace v0.3.76",
            "",
            "phf v0.14.0 (*)",
            "",
        ];
        assert_eq!(
            kept(&duplicates),
            FxHashSet::from_iter([0, 1, 4, 6, 7, 8, 10])
        );
        assert_eq!(
            node_name("[INFO] +- junit:junit:jar:4.13.2:test"),
            Some("junit:junit:jar:4.13.2:test")
        );
    }

    #[test]
    fn tree_indenting_with_no_break_spaces_keeps_its_deep_nodes() {
        let listing = "docs\n├── guide\n│\u{a0}\u{a0} ├── error_handling.md\n│\u{a0}\u{a0} └── setup.md\n\
                       └── api\n    ├── client.md\n    └── server\n        └── routes.md\n";
        let lines: Vec<&str> = listing.lines().collect();
        let kept = kept(&lines);
        for (i, line) in lines.iter().enumerate().skip(1) {
            assert!(kept.contains(&i), "{line}");
        }
        assert_eq!(node_name(lines[2]), Some("error_handling.md"));
    }

    /// A call tree of `n` functions under a root, each calling three
    /// others, times falling among siblings as pyinstrument prints them.
    fn call_tree(n: usize) -> Vec<String> {
        let mut lines = vec!["1.000 <module>  app.py:1".to_string()];
        fn grow(lines: &mut Vec<String>, prefix: &str, time: f64, depth: usize, n: usize) {
            for k in 0..3 {
                if lines.len() > n || depth > 5 {
                    return;
                }
                let last = k == 2;
                let t = time * [0.6, 0.3, 0.1][k];
                let branch = if last { "└─ " } else { "├─ " };
                lines.push(format!(
                    "{prefix}{branch}{t:.4} f{}  app.py:{}",
                    lines.len(),
                    lines.len()
                ));
                let deeper = format!("{prefix}{}", if last { "   " } else { "│  " });
                grow(lines, &deeper, t, depth + 1, n);
            }
        }
        grow(&mut lines, "", 1.0, 0, n);
        lines
    }

    #[test]
    fn a_ranked_call_tree_keeps_its_largest_nodes_and_those_above_them() {
        let lines = call_tree(300);
        let contents: Vec<&str> = lines.iter().map(String::as_str).collect();
        let kept = kept(&contents);
        let time = |i: usize| -> f64 {
            node_name(contents[i])
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        let mut times: Vec<f64> = (1..contents.len()).map(time).collect();
        times.sort_by(|a, b| b.partial_cmp(a).unwrap());
        let thirtieth = times[RANKED_NODES_KEPT - 1];
        for (i, line) in contents.iter().enumerate().skip(1) {
            if time(i) > thirtieth {
                assert!(kept.contains(&i), "{line}");
            }
        }
        assert!(kept.len() < 40, "{} of {} kept", kept.len(), contents.len());
        // Kept nodes hang from kept nodes: the top of the tree.
        assert!(kept.contains(&0));
        // Unranked (siblings in name order, not by size), every node stays.
        let unranked: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i % 2 == 1 {
                    l.replacen("─ 0.", "─ 9.", 1)
                } else {
                    l.clone()
                }
            })
            .collect();
        let contents: Vec<&str> = unranked.iter().map(String::as_str).collect();
        assert_eq!(super::kept(&contents).len(), contents.len());
    }

    #[test]
    fn a_log_with_a_few_dashes_is_not_a_tree() {
        let log = ["- building", "- testing", "+ done", "ok"];
        assert!(kept(&log).is_empty());
        assert_eq!(node_name("-- separator --"), None);
        assert_eq!(node_name("- item"), None);
    }
}
