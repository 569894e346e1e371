//! Whether a sentence carries something an agent may need verbatim: inline
//! code, a name with `::`, a bare URL, a file path, a version, a
//! command-line flag, an identifier mixing letters and digits
//! (`spotter-4te.3`, `E0308`, `#123`). A link's target does not count (its
//! text carries the meaning), nor does a plain number ("2009", "Tier 1").

/// Whether `sentence` holds a specific the agent may need verbatim.
pub fn is_specific(sentence: &str) -> bool {
    let text = without_link_targets(sentence);
    text.contains('`')
        || text.contains("::")
        || text.contains("://")
        || text.split_whitespace().any(|w| {
            let w = w.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '(' | ')' | '"' | '\''));
            is_version(w) || is_flag(w) || is_path(w) || is_identifier(w)
        })
}

/// `text` with every Markdown link's `(target)` removed: `[text](url)` → `[text]`.
fn without_link_targets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        out.push_str(&rest[..=at]);
        let after = &rest[at + 2..];
        match after.find(')') {
            Some(close) => rest = &after[close + 1..],
            None => {
                rest = after;
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `1.63`, `v2.0.1`, `>=3.10`: digits on both sides of a dot.
fn is_version(word: &str) -> bool {
    let b = word.as_bytes();
    (1..b.len().saturating_sub(1))
        .any(|i| b[i] == b'.' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit())
}

/// `spotter-4te.3`, `E0308`, `CVE-2024-1234`, `#123`: digits with letters
/// or a `#` in one word (not a plain number, nor a size like `32-bit`).
fn is_identifier(word: &str) -> bool {
    let digits = word.bytes().filter(u8::is_ascii_digit).count();
    let letters = word.bytes().filter(u8::is_ascii_alphabetic).count();
    digits > 0
        && (word.starts_with('#') && digits + 1 == word.len()
            || letters > 0 && digits + letters >= 3 && !is_measure(word))
}

/// `32-bit`, `2-6x`, `64KB`, `10ms`, `3rd`: a number with its unit.
fn is_measure(word: &str) -> bool {
    let unit = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '-' || c == '.');
    unit.len() < word.len() && unit.bytes().all(|b| b.is_ascii_alphabetic())
}

/// `--release`, `-v`, `--jobs=4`.
fn is_flag(word: &str) -> bool {
    let long = word
        .strip_prefix("--")
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic()));
    let short = word.len() == 2
        && word.starts_with('-')
        && word[1..].starts_with(|c: char| c.is_ascii_alphabetic());
    long || short
}

/// A path to a file or folder: `src/lib.rs`, `/usr/share/doc`, `~/.cargo`,
/// `./configure`; not `GNU/Linux` or `and/or`.
fn is_path(word: &str) -> bool {
    let rooted = ["/", "./", "../", "~/"].iter().any(|p| word.starts_with(p)) && word.len() > 2;
    let file = word.contains('/')
        && word
            .rsplit('/')
            .next()
            .and_then(|name| name.rsplit_once('.'))
            .is_some_and(|(stem, ext)| {
                !stem.is_empty()
                    && (1..=4).contains(&ext.len())
                    && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            });
    rooted || file
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_paths_versions_flags_and_bare_urls_are_specific() {
        for s in [
            "Run `cargo test` first.",
            "See src/lib.rs for details.",
            "It needs Rust 1.63 or newer.",
            "Build with --release to go fast.",
            "Binaries are at <https://nodejs.org/download/release/>.",
            "Use darling::FromMeta here.",
            "Config lives in ~/.config/ghost.",
            "It blocks spotter-4te.3 and fixes #123.",
        ] {
            assert!(is_specific(s), "{s}");
        }
    }

    #[test]
    fn links_plain_numbers_and_slashed_words_are_not() {
        for s in [
            "It is 2-6x as fast on 32-bit GNU/Linux and/or macOS.",
            "Read the [guide](https://example.com/guide.html) first.",
            "In 2009 the project made numerous enhancements.",
            "Tier 1 platforms block releases.",
        ] {
            assert!(!is_specific(s), "{s}");
        }
    }
}
