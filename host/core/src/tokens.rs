//! Token counting with a real BPE tokenizer (OpenAI's o200k_base), for
//! `--stats` and benchmarks. Building the tokenizer takes a while, so it is
//! built once, lazily, and never on the compression path.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

/// The tokenizer's name, for reports.
pub const TOKENIZER: &str = "o200k_base";

fn bpe() -> &'static CoreBPE {
    static BPE: OnceLock<CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("the embedded o200k_base tokenizer loads"))
}

/// How many o200k_base tokens `text` is.
pub fn count(text: &str) -> usize {
    bpe().encode_ordinary(text).len()
}

/// A quick estimate of [`count`] without the tokenizer (see
/// [`ghost_types::estimated_tokens`]).
pub fn estimate(text: &str) -> usize {
    ghost_types::estimated_tokens(text)
}
