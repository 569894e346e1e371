//! Long file lists (Glob, Grep's `files_with_matches`) as a digest by
//! directory: every directory with its count and first names, so the agent
//! still knows where things are; the whole list stays in the store.

use crate::policy::NAMES_PER_DIRECTORY;

/// A digest of `files` in at most `max_lines` lines, directories in the
/// order they first appear.
pub fn digest(files: &[&str], max_lines: usize) -> Vec<String> {
    let mut dirs: Vec<(&str, Vec<&str>)> = Vec::new();
    for f in files {
        let (dir, name) = f.rsplit_once('/').unwrap_or(("", f));
        match dirs.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, names)) => names.push(name),
            None => dirs.push((dir, vec![name])),
        }
    }
    let mut out = Vec::new();
    let shown = dirs.len().min(max_lines.saturating_sub(1).max(1));
    for (dir, names) in &dirs[..shown] {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        if names.len() == 1 {
            out.push(format!("{prefix}{}", names[0]));
            continue;
        }
        let first: Vec<&str> = names.iter().take(NAMES_PER_DIRECTORY).copied().collect();
        let more = names.len() - first.len();
        out.push(format!(
            "{prefix} ({} files: {}{})",
            names.len(),
            first.join(", "),
            if more > 0 {
                format!(", … {more} more")
            } else {
                String::new()
            }
        ));
    }
    if shown < dirs.len() {
        let rest: usize = dirs[shown..].iter().map(|(_, n)| n.len()).sum();
        out.push(format!(
            "… {} more directories, {rest} files",
            dirs.len() - shown
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_grouped_by_directory() {
        let files = [
            "src/a.rs",
            "src/b.rs",
            "lib/x.ex",
            "src/c.rs",
            "README.md",
            "src/d.rs",
            "src/e.rs",
        ];
        assert_eq!(
            digest(&files, 10),
            vec![
                "src/ (5 files: a.rs, b.rs, c.rs, d.rs, … 1 more)",
                "lib/x.ex",
                "README.md"
            ]
        );
        let many: Vec<String> = (0..50).map(|i| format!("d{i}/f.rs")).collect();
        let refs: Vec<&str> = many.iter().map(String::as_str).collect();
        let d = digest(&refs, 10);
        assert_eq!(d.len(), 10);
        assert_eq!(d[9], "… 41 more directories, 41 files");
    }
}
