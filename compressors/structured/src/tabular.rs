//! CSV and TSV: a row is a record, so every row stays as written, up to
//! the outline's row budget; only a longer table is sampled, its first rows
//! and its last, with how many rows lie between.

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
    let mut out = String::new();
    out.push_str(&format!(
        "[table: {} rows × {columns} columns, delimiter {delimiter:?}]\n",
        lines.len() - 1
    ));
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

fn consistent(lines: &[&str], d: char) -> bool {
    let count = |l: &str| l.matches(d).count();
    let first = count(lines[0]);
    first > 0 && lines.iter().take(200).all(|l| count(l) == first)
}
