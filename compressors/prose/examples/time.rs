//! Times the prose compressor, and its phases, on a file repeated to about
//! 1 MB: `cargo run --release -p ghost-compressor-prose --example time -- FILE`.
use ghost_compressor_prose::{markdown, textrank};

fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let text = std::fs::read_to_string(path).unwrap();
    let big = text.repeat((1 << 20) / text.len() + 1);
    let t = std::time::Instant::now();
    let blocks = markdown::blocks(&big);
    let mut sentences = Vec::new();
    for b in &blocks {
        if let markdown::Block::Paragraph(p) = b {
            sentences.extend(markdown::sentences(p));
        }
    }
    let parsed = t.elapsed();
    let scores = textrank::rank(&sentences);
    let ranked = t.elapsed();
    let out = ghost_compressor_prose::compress(&big);
    println!(
        "{} → {} bytes; parse {parsed:?}, rank {:?} ({} sentences, {} scores); whole compress {:?}",
        big.len(),
        out.text.len(),
        ranked - parsed,
        sentences.len(),
        scores.len(),
        t.elapsed() - ranked
    );
}
