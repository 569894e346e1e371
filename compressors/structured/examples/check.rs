//! Prints the structured compressor's output and notes for a file:
//! `cargo run -p ghost-compressor-structured --example check -- FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let text = std::fs::read_to_string(&path).unwrap();
    let out = ghost_compressor_structured::compress(&text, Some(&path));
    println!("{}\n{:?}", out.text, out.notes);
}
