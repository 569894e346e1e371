//! Markdown table rows with their alignment padding squeezed: `| a    | b |`
//! reads as `| a | b |` and `|-----|:---:|` as `| --- | :---: |`. Cell text is
//! not changed.

/// `row` with each cell's surrounding spaces reduced to one.
pub fn squeezed(row: &str) -> String {
    let t = row.trim();
    // An escaped pipe would be split as a cell border: leave such rows as they are.
    if t.contains("\\|") || !t.starts_with('|') {
        return row.to_string();
    }
    let inner = t.trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let cells: Vec<String> = inner
        .split('|')
        .map(|c| {
            let c = c.trim();
            if !c.is_empty() && c.bytes().all(|b| matches!(b, b'-' | b':')) {
                let left = if c.starts_with(':') { ":" } else { "" };
                let right = if c.len() > 1 && c.ends_with(':') {
                    ":"
                } else {
                    ""
                };
                format!("{left}---{right}")
            } else {
                c.to_string()
            }
        })
        .collect();
    format!("| {} |", cells.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_is_squeezed_and_cells_kept() {
        assert_eq!(
            squeezed("| GNU/Linux        | x64   | Tier 1 |"),
            "| GNU/Linux | x64 | Tier 1 |"
        );
        assert_eq!(squeezed("|------|:----:|---:|"), "| --- | :---: | ---: |");
        assert_eq!(squeezed("| a \\| b | c |"), "| a \\| b | c |");
    }
}
