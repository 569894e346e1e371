//! Runs the log compressor natively over a corpus laid out like
//! `../shared/corpus/cases/<id>/{input.txt,meta.json}` and prints, per case,
//! the byte ratio and how many must-keep lines survived. A quick loop for
//! tuning; the real, tokenized measurement is ghost's test suite.
//!
//! `cargo run --release -p ghost-log-folding --example corpus -- ../shared/corpus/cases [prefix]`

fn must_keep(meta: &str) -> Vec<String> {
    // Tiny extraction of the "must_keep" string array, to avoid a JSON dependency.
    let Some(start) = meta.find("\"must_keep\"") else {
        return vec![];
    };
    let rest = &meta[start..];
    let open = rest.find('[').unwrap();
    let mut out = Vec::new();
    let mut chars = rest[open + 1..].chars();
    let mut cur = String::new();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        match (in_str, c) {
            (false, ']') => break,
            (false, '"') => in_str = true,
            (true, '"') => {
                out.push(std::mem::take(&mut cur));
                in_str = false;
            }
            (true, '\\') => match chars.next() {
                Some('n') => cur.push('\n'),
                Some('t') => cur.push('\t'),
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    if let Some(ch) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        cur.push(ch);
                    }
                }
                Some(o) => cur.push(o),
                None => {}
            },
            (true, c) => cur.push(c),
            _ => {}
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .get(1)
        .map(String::as_str)
        .unwrap_or("../shared/corpus/cases");
    let prefix = args.get(2).map(String::as_str).unwrap_or("");
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    let (mut tin, mut tout, mut kept, mut total) = (0usize, 0usize, 0usize, 0usize);
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with(prefix) {
            continue;
        }
        let meta = std::fs::read_to_string(path.join("meta.json")).unwrap();
        if !meta.contains("\"class\": \"log\"") {
            continue;
        }
        let input =
            String::from_utf8_lossy(&std::fs::read(path.join("input.txt")).unwrap()).to_string();
        let t = std::time::Instant::now();
        let out = ghost_log_folding::compress(&input);
        let dt = t.elapsed();
        if std::env::var_os("DUMP").is_some() {
            std::fs::write(format!("/tmp/out-{name}.txt"), &out.text).unwrap();
        }
        let lines: std::collections::HashSet<&str> = out.text.lines().map(str::trim).collect();
        let keep = must_keep(&meta);
        let missing: Vec<&String> = keep.iter().filter(|k| !lines.contains(k.trim())).collect();
        tin += input.len();
        tout += out.text.len();
        kept += keep.len() - missing.len();
        total += keep.len();
        println!(
            "{name:40} {:>9} → {:>7} {:.3}  kept {}/{}  {:?}",
            input.len(),
            out.text.len(),
            out.text.len() as f64 / input.len() as f64,
            keep.len() - missing.len(),
            keep.len(),
            dt
        );
        for m in missing.iter().take(5) {
            println!("    MISSING: {}", m.chars().take(150).collect::<String>());
        }
    }
    println!(
        "TOTAL {tin} → {tout} {:.3} kept {kept}/{total}",
        tout as f64 / tin as f64
    );
}
