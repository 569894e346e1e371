//! A tree listing: `npm ls`, `cargo tree`, `pnpm list`, Maven's
//! `dependency:tree`, Gradle's `dependencies`, `tree`. Every node names a
//! package or a file, the answer the agent asked for, and no two nodes are
//! alike in what matters; the template fold would take them for one shape
//! printed many times. Each node stays, but a node the tool itself marks as
//! shown already (npm's `deduped`, cargo's and Gradle's `(*)`) folds.

use crate::search::Search;
use rustc_hash::FxHashSet;

/// A listing is a tree when at least this many of its lines are nodes…
const MIN_NODES: usize = 5;
/// …making up at least this share of its non-blank lines.
const MIN_NODE_SHARE: f64 = 0.5;

/// The node lines to keep, or none when `contents` is not a tree listing.
pub fn kept(contents: &[&str]) -> FxHashSet<usize> {
    let nodes: Vec<(usize, &str)> = contents
        .iter()
        .enumerate()
        .filter_map(|(i, c)| node_name(c).map(|name| (i, name)))
        .collect();
    let non_blank = contents.iter().filter(|c| !c.trim().is_empty()).count();
    if nodes.len() < MIN_NODES || (nodes.len() as f64) < non_blank as f64 * MIN_NODE_SHARE {
        return FxHashSet::default();
    }
    // A line heading nodes but no node itself is a tree's root (`cargo tree
    // -d`'s duplicated package, `npm ls`'s project) or a label over a
    // branch (`[dev-dependencies]`): it says what the nodes under it are,
    // marked as a repeat or not.
    let roots = nodes.iter().filter_map(|&(i, _)| {
        let above = contents[..i].last()?;
        (!above.trim().is_empty() && node_name(above).is_none()).then_some(i - 1)
    });
    // So is a line standing alone between blank lines: a root whose nodes
    // were shown already (`cargo tree -d`'s `phf v0.14.0 (*)`).
    let blank = |i: usize| contents.get(i).is_none_or(|c| c.trim().is_empty());
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

/// The text after a tree node's branch (`├── `, `└─┬ `, `+--- `, `\- `,
/// `` `-- ``), a bracketed tag (`[INFO] `) allowed before it.
pub fn node_name(line: &str) -> Option<&str> {
    let mut t = line.trim_start();
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
    (branch && !name.trim().is_empty()).then_some(name.trim_end())
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

    #[test]
    fn a_log_with_a_few_dashes_is_not_a_tree() {
        let log = ["- building", "- testing", "+ done", "ok"];
        assert!(kept(&log).is_empty());
        assert_eq!(node_name("-- separator --"), None);
        assert_eq!(node_name("- item"), None);
    }
}
