//! CSV and TSV: the header, the first rows, and how many rows there are.

/// Rows shown after the header.
const ROWS_SHOWN: usize = 5;

/// A summary of `text` as a table, when it is one (by extension, or a
/// delimiter every line has the same number of).
pub fn summarise(text: &str, ext: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() < ROWS_SHOWN + 3 {
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
    for l in &lines[..=ROWS_SHOWN] {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(&format!(
        "… and {} more rows\n",
        lines.len() - 1 - ROWS_SHOWN
    ));
    out.push_str(lines[lines.len() - 1]);
    out.push('\n');
    Some(out)
}

fn consistent(lines: &[&str], d: char) -> bool {
    let count = |l: &str| l.matches(d).count();
    let first = count(lines[0]);
    first > 0 && lines.iter().take(200).all(|l| count(l) == first)
}
