//! CSV and TSV: a row is a record, so every row stays as written, up to
//! the outline's row budget; only a longer table is sampled, its first rows
//! and its last, with how many rows lie between. As in a lockfile, the
//! checksums of what a table pins are not what it pins: a column of
//! digests folds when another column holds versions (a module's sums
//! beside its version); where no column does, the digest is the version (a
//! pinned commit) and stays.

use ghost_types::digest;

/// Fewest rows a text needs to be read as a table.
const MIN_ROWS: usize = 8;

/// `text` as a table, when it is one (by extension, or a delimiter every
/// line has the same number of): a line naming its size, then its rows as
/// written, at most `max_rows` of them before the last.
pub fn summarise(text: &str, ext: &str, max_rows: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() < MIN_ROWS {
        return None;
    }
    let (delimiter, min_columns) = match ext {
        "csv" => (',', 2),
        "tsv" => ('\t', 2),
        "json" | "toml" | "yaml" | "yml" | "xml" | "lock" => return None,
        // A guess needs more evidence: three columns on every line.
        _ => {
            let d = [',', '\t', ';', '|']
                .into_iter()
                .find(|&d| consistent(&lines, d))?;
            (d, 3)
        }
    };
    let columns = lines[0].split(delimiter).count();
    if columns < min_columns {
        return None;
    }
    let folded = digest_columns(&lines, delimiter, columns);
    let kept_rows: Vec<String>;
    let lines: Vec<&str> = if folded.is_empty() {
        lines
    } else {
        kept_rows = lines
            .iter()
            .map(|l| {
                l.split(delimiter)
                    .enumerate()
                    .filter(|(c, _)| !folded.contains(c))
                    .map(|(_, cell)| cell)
                    .collect::<Vec<_>>()
                    .join(&delimiter.to_string())
            })
            .collect();
        kept_rows.iter().map(String::as_str).collect()
    };
    let mut out = String::new();
    out.push_str(&format!(
        "[table: {} rows × {columns} columns, delimiter {delimiter:?}",
        lines.len() - 1
    ));
    if !folded.is_empty() {
        let names: Vec<String> = folded.iter().map(|c| (c + 1).to_string()).collect();
        out.push_str(&format!(
            "; column {} (digests beside a version) folded",
            names.join(", ")
        ));
    }
    out.push_str("]\n");
    let shown = max_rows.max(1);
    if lines.len() <= shown + 1 {
        for l in &lines {
            out.push_str(l);
            out.push('\n');
        }
        return Some(out);
    }
    for l in &lines[..shown] {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(&format!("… and {} more rows\n", lines.len() - 1 - shown));
    out.push_str(lines[lines.len() - 1]);
    out.push('\n');
    Some(out)
}

/// Share of a column's cells that must be digests, or versions, for the
/// column to be one (a header row is not).
const COLUMN_SHARE: f64 = 0.9;

/// The columns (from 0) of digests to fold: those whose cells are
/// digests, when another column's are versions; none otherwise.
fn digest_columns(lines: &[&str], delimiter: char, columns: usize) -> Vec<usize> {
    let rows: Vec<Vec<&str>> = lines
        .iter()
        .take(200)
        .map(|l| l.split(delimiter).map(str::trim).collect())
        .collect();
    let share = |c: usize, f: &dyn Fn(&str) -> bool| {
        let n = rows
            .iter()
            .filter(|r| r.get(c).is_some_and(|cell| f(cell)))
            .count();
        n as f64 >= rows.len() as f64 * COLUMN_SHARE
    };
    let digests: Vec<usize> = (0..columns)
        .filter(|&c| share(c, &digest::is_digest))
        .collect();
    let has_version = (0..columns).any(|c| !digests.contains(&c) && share(c, &is_version));
    if has_version && digests.len() < columns {
        digests
    } else {
        Vec::new()
    }
}

/// A version in any ecosystem's syntax (`1.2.3`, Go's
/// `v0.0.0-20180421153158-65cc252bf669`, `2.0.0+incompatible`, pip's
/// `==3.1`, Debian's `1:2.39.5-0+deb12u2` and `1.14.10-1~deb12u1`): a
/// digit first (after `v` or `==`), then digits, letters and `.`, `-`,
/// `+`, `_`, `~`, `!` and at most one `:` (an epoch, not a clock's time),
/// with a dot or a leading `v`.
fn is_version(cell: &str) -> bool {
    let cell = cell.strip_prefix("==").unwrap_or(cell);
    let (v, rest) = match cell.strip_prefix('v') {
        Some(rest) => (true, rest),
        None => (false, cell),
    };
    rest.starts_with(|c: char| c.is_ascii_digit())
        && rest.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+' | b'_' | b'~' | b'!' | b':')
        })
        && rest.matches(':').count() <= 1
        && (v || rest.contains('.'))
}

fn consistent(lines: &[&str], d: char) -> bool {
    let count = |l: &str| l.matches(d).count();
    let first = count(lines[0]);
    first > 0 && lines.iter().take(200).all(|l| count(l) == first)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hex digest of `i`, as a checksum prints.
    fn hex(i: usize) -> String {
        format!(
            "{:064x}",
            (i as u128 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834)
        )
        .replace('0', "a")
    }

    #[test]
    fn digests_beside_versions_fold_and_a_pinned_commit_stays() {
        let sums: String = (0..20)
            .map(|i| format!("example.com/m{i},v1.{i}.0,sha256:{}\n", hex(i)))
            .collect();
        let out = summarise(&sums, "csv", 100).unwrap();
        assert!(out.starts_with("[table: 19 rows × 3 columns, delimiter ','; column 3 (digests beside a version) folded]\n"), "{out}");
        assert!(
            (0..20).all(|i| out.contains(&format!("example.com/m{i},v1.{i}.0\n"))),
            "{out}"
        );
        assert!(!out.contains("sha256"), "{out}");
        // No column holds versions: the commit is what pins each module.
        let deps: String = (0..20)
            .map(|i| {
                format!(
                    "github.com/o/m{i}\tgit\t{}\t2016-07-20T05:16:58Z\n",
                    &hex(i)[..40]
                )
            })
            .collect();
        let out = summarise(&deps, "tsv", 100).unwrap();
        assert!((0..20).all(|i| out.contains(&hex(i)[..40])), "{out}");
    }

    #[test]
    fn versions_of_every_ecosystem_and_no_clock() {
        for v in [
            "1.2.3",
            "v0.0.0-20180421153158-65cc252bf669",
            "==3.1",
            "1:2.39.5-0+deb12u2",
            "1.14.10-1~deb12u1",
            "v2",
        ] {
            assert!(is_version(v), "{v}");
        }
        for not in ["2016-07-20T05:16:58Z", "05:16:58.123", "git", "abc1.2"] {
            assert!(!is_version(not), "{not}");
        }
    }
}
