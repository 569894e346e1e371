//! What the compressor knows about one line: its content without a leading
//! timestamp, how severe it is, and a mask used to tell similar lines apart.

use crate::search::Search;
use ghost_types::digest;
/// How much a line matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Ordinary output.
    Normal,
    /// A warning: kept verbatim.
    Warning,
    /// An error, failure, panic or exception: kept verbatim with its context.
    Error,
}

/// What `line` says, read without what the printer put before every line:
/// a timestamp (see [`without_timestamp`]) and pytest's `INTERNALERROR> `
/// (its own crash, a Python traceback under that prefix).
pub fn content(line: &str) -> &str {
    let line = without_timestamp(line);
    line.strip_prefix("INTERNALERROR> ").unwrap_or(line)
}

/// The part of `line` after a leading timestamp (ISO 8601 as GitHub Actions
/// prints it, `[12:00:01]`, syslog `Mar  3 12:00:01`), or the line itself.
pub fn without_timestamp(line: &str) -> &str {
    let b = line.as_bytes();
    // 2022-05-30T09:11:02.8581448Z / 2022-05-30 09:11:02,123
    if b.len() >= 19
        && b[..19].is_ascii()
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[7] == b'-'
        && (b[10] == b'T' || b[10] == b' ')
        && b[13] == b':'
    {
        let end = b[19..]
            .iter()
            .position(|c| !(c.is_ascii_digit() || matches!(c, b'.' | b',' | b'Z' | b'+' | b':')))
            .map_or(b.len(), |p| 19 + p);
        return line[end..].strip_prefix(' ').unwrap_or(&line[end..]);
    }
    // [12:00:01] or [12:00:01.123]
    if b.len() > 10
        && b[0] == b'['
        && b[3] == b':'
        && b[6] == b':'
        && let Some(close) = line.find_str("]")
    {
        return line[close + 1..].trim_ascii_start();
    }
    line
}

/// Whether the word at `text[start..end]` is a count of zero ("Errors: 0",
/// "0 failed", "failures=0", "no errors"), which is not a failure at all.
fn is_zero_count(text: &[u8], start: usize, end: usize) -> bool {
    let after = &text[end..];
    let mut i = 0;
    while i < after.len() && matches!(after[i], b':' | b'=' | b' ' | b'\t') {
        i += 1;
    }
    // A count is a whole number: `Failed    0.00 sec` (CTest) is a time.
    let decimal =
        after.get(i + 1) == Some(&b'.') && after.get(i + 2).is_some_and(u8::is_ascii_digit);
    if i > 0
        && i < after.len()
        && after[i] == b'0'
        && after.get(i + 1).is_none_or(|c| !c.is_ascii_digit())
        && !decimal
    {
        return true;
    }
    let before = text[..start].trim_ascii_end();
    let zero_before = before.ends_with(b"0")
        && (before.len() == 1
            || matches!(before[before.len() - 2], b' ' | b'\t' | b',' | b'(' | b'['));
    zero_before || before.ends_with(b"no") || before.ends_with(b"No")
}

/// Words that make a line an error, failure or panic, matched at the start of
/// a word (not inside an identifier or a path), case-insensitively; a word may
/// continue (`errors`, `failed`, `panicked`). Among them, the C library's
/// own messages for the failures a build meets (`strerror`: `No space left
/// on device`, `Too many open files`), which carry no other error word.
const ERROR_WORDS: &[&str] = &[
    "error",
    "err:",
    "fatal",
    "fail",
    "panic",
    "exception",
    "traceback",
    "abort",
    "segfault",
    "segmentation fault",
    "core dumped",
    "severe",
    "critical",
    "emerg",
    "denied",
    "refused",
    "cannot",
    "can't",
    "couldn't",
    "could not",
    "unable to",
    "not found",
    "no such file",
    "no space left",
    "out of memory",
    "too many open files",
    "not permitted",
    "read-only file system",
    "connection reset",
    "does not exist",
    "timed out",
    "assert",
    "broken pipe",
    "invalid",
    "illegal",
    "went wrong",
    "bad ",
    "wrong ",
    "incompatible",
    "unresolved",
    "undefined",
    "exit code",
    "exited with",
];

/// Words that make a line a warning.
const WARNING_WORDS: &[&str] = &["warn", "deprecat", "bug"];

/// Characters that make a word part of an identifier or a path, where a
/// keyword is not a keyword (`org.example.error`, `RUN_ERROR`, `-Werror`).
fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'/' | b'_' | b'$' | b'\\' | b'-' | b'#')
}

/// How severe `content` (a line without its timestamp) is.
pub fn severity(content: &str) -> Severity {
    let b = content.as_bytes();
    // Only a line with one of these suffixes can name a throwable.
    let may_name_throwable =
        content.has("Error") || content.has("Exception") || content.has("Failure");
    let mut warning = false;
    let mut i = 0;
    while i < b.len() {
        let starts_word = b[i].is_ascii_alphabetic() && (i == 0 || !is_ident_char(b[i - 1]));
        if !starts_word {
            i += 1;
            continue;
        }
        if keyword_at(b, i, ERROR_WORDS, &ERROR_WORDS_BY_LETTER)
            || (may_name_throwable && is_throwable_name(b, i))
        {
            return if is_command_line(content) {
                Severity::Normal
            } else {
                Severity::Error
            };
        }
        warning = warning || keyword_at(b, i, WARNING_WORDS, &WARNING_WORDS_BY_LETTER);
        while i < b.len() && is_ident_char(b[i]) {
            i += 1;
        }
    }
    let (error_letter, warning_letter) = level_letters(b);
    if error_letter || starts_with_level_column(b, b'E') || starts_with_level_tag(b, b'E') {
        return Severity::Error;
    }
    if (warning && !is_command_line(content)) || warning_letter || starts_with_level_tag(b, b'W') {
        return Severity::Warning;
    }
    Severity::Normal
}

/// A line of this many options or more, a third of its words at least,
/// is a command line (see [`is_command_line`]).
const COMMAND_LINE_OPTIONS_AT_LEAST: usize = 8;

/// Whether `content` is a command line a build echoes (`Running \`rustc
/// --crate-name clap … '--warn=clippy::invalid_upcast_comparisons' --cfg
/// 'feature="error-context"'\``, `cc -Wall -c x.c`): many options, a
/// third of its words at least. Its words are the command's arguments,
/// not a message, so an error or warning word among them (a feature's
/// name, a lint's) says nothing failed. Read only for a line with such a
/// word. A line led by a word ending in `:` (`cc: error: …`) is a
/// message, whatever options it names.
pub(crate) fn is_command_line(content: &str) -> bool {
    let (mut words, mut options) = (0usize, 0usize);
    for word in content.split_ascii_whitespace() {
        if words == 0 && word.ends_with(':') {
            return false;
        }
        words += 1;
        let w = word.trim_start_matches(['\'', '"', '`']).as_bytes();
        options += usize::from(
            w.len() > 1 && w[0] == b'-' && (w[1] == b'-' || w[1].is_ascii_alphabetic())
                || is_variable_setting(w),
        );
    }
    options >= COMMAND_LINE_OPTIONS_AT_LEAST && 3 * options >= words
}

/// Whether `word` sets an environment variable for the command it leads
/// (`CARGO_CRATE_NAME=memchr`, `CC=gcc`): a name in capitals, digits and
/// underscores, then `=`. `cargo build -vv` echoes each build command
/// after dozens of them; they are the command's settings as its options
/// are.
fn is_variable_setting(word: &[u8]) -> bool {
    let Some(eq) = word.iter().position(|&b| b == b'=') else {
        return false;
    };
    let name = &word[..eq];
    name.first().is_some_and(|b| b.is_ascii_uppercase())
        && name
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// For each letter `a`..`z`, the indices (as bits) of the words in `words`
/// that start with it: a word of a line is compared only with the keywords
/// sharing its first letter. Every word starts with a small ASCII letter,
/// and there are at most 64.
const fn index_by_first_letter(words: &[&str]) -> [u64; 26] {
    assert!(words.len() <= 64);
    let mut index = [0u64; 26];
    let mut k = 0;
    while k < words.len() {
        let first = words[k].as_bytes()[0];
        assert!(first.is_ascii_lowercase());
        index[(first - b'a') as usize] |= 1 << k;
        k += 1;
    }
    index
}

/// [`ERROR_WORDS`] by first letter.
const ERROR_WORDS_BY_LETTER: [u64; 26] = index_by_first_letter(ERROR_WORDS);

/// [`WARNING_WORDS`] by first letter.
const WARNING_WORDS_BY_LETTER: [u64; 26] = index_by_first_letter(WARNING_WORDS);

/// Whether one of `words` starts at `b[i]`, an ASCII letter (not counting
/// a zero count); `by_letter` is their [`index_by_first_letter`].
fn keyword_at(b: &[u8], i: usize, words: &[&str], by_letter: &[u64; 26]) -> bool {
    let mut candidates = by_letter[usize::from(b[i].to_ascii_lowercase() - b'a')];
    while candidates != 0 {
        let w = words[candidates.trailing_zeros() as usize].as_bytes();
        candidates &= candidates - 1;
        if b.len() >= i + w.len() && b[i..i + w.len()].eq_ignore_ascii_case(w) {
            let mut end = i + w.len();
            while end < b.len() && b[end].is_ascii_alphabetic() {
                end += 1;
            }
            if !is_zero_count(b, i, end)
                && !is_versioned_name(b, end)
                && !is_camel_case(&b[i..end])
                && !joins_a_snake_case_name(b, end)
                && !heads_a_summary(b, end)
            {
                return true;
            }
        }
    }
    false
}

/// Whether `word` is an identifier in camel case (`ExceptionFilter`,
/// `errorHandler`, `assertEquals`): a capital after a small letter. A name
/// in code that starts with an error word is not an error (`FAILED` and
/// `Errors` are words).
fn is_camel_case(word: &[u8]) -> bool {
    word.windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
}

/// Whether the word ending at `b[end]` goes on with `_` and a letter or
/// digit: it is part of a name in snake case (clippy's
/// `--warn=clippy::invalid_upcast_comparisons` on every `rustc` command
/// line, `error_count`), as a word joined to one before it by `_` is.
fn joins_a_snake_case_name(b: &[u8], end: usize) -> bool {
    b.get(end) == Some(&b'_') && b.get(end + 1).is_some_and(u8::is_ascii_alphanumeric)
}

/// Whether the word ending at `b[end]` is followed by `summary`: it
/// titles a tally (valgrind's `ERROR SUMMARY: 0 errors from 0 contexts`),
/// whose counts say whether anything failed.
fn heads_a_summary(b: &[u8], end: usize) -> bool {
    const SUMMARY: &[u8] = b" summary";
    b.len() >= end + SUMMARY.len()
        && b[end..end + SUMMARY.len()].eq_ignore_ascii_case(SUMMARY)
        && b.get(end + SUMMARY.len())
            .is_none_or(|c| !c.is_ascii_alphabetic())
}

/// Whether the word ending at `b[end]` goes on with a version, `-0.10.0`:
/// then it names a package (Haskell's `exceptions-0.10.0`, `fail-4.9.0.0`
/// in a build's every command line), not an error.
fn is_versioned_name(b: &[u8], end: usize) -> bool {
    b.get(end) == Some(&b'-') && b.get(end + 1).is_some_and(u8::is_ascii_digit)
}

/// A qualified or simple class name ending in `Error` or `Exception`, such as
/// `java.lang.AssertionError` or `ValueError`, starting at `b[i]`.
fn is_throwable_name(b: &[u8], i: usize) -> bool {
    let mut end = i;
    while end < b.len() && (b[end].is_ascii_alphanumeric() || matches!(b[end], b'.' | b'$' | b'_'))
    {
        end += 1;
    }
    let word = &b[i..end];
    let last = word
        .rsplit(|&c| c == b'.' || c == b'$')
        .next()
        .unwrap_or(word);
    let named = last.first().is_some_and(u8::is_ascii_uppercase)
        && (last.ends_with(b"Error") || last.ends_with(b"Exception") || last.ends_with(b"Failure"));
    // A module named just `Error` (`Text.Pandoc.Error`, compiled or listed)
    // is not an error; `java.lang.Error: …` raised, or ending a line, is.
    let bare_in_a_module = word.len() > last.len()
        && matches!(last, b"Error" | b"Exception" | b"Failure")
        && !matches!(b.get(end), None | Some(b':'));
    named && !bare_in_a_module
}

/// Android/logcat style single-letter levels: ` E ` or ` E/Tag` after the
/// process and thread ids; whether the line has an error level (`E`, `F`)
/// and whether a warning one (`W`).
fn level_letters(b: &[u8]) -> (bool, bool) {
    let head = &b[..b.len().min(64)];
    // The ids first: most lines have too few digits to have them.
    if head.iter().take(40).filter(|c| c.is_ascii_digit()).count() < 6 {
        return (false, false);
    }
    let (mut error, mut warning) = (false, false);
    for w in head.windows(3) {
        if w[0] == b' ' && (w[2] == b' ' || w[2] == b'/') {
            error |= matches!(w[1], b'E' | b'F');
            warning |= w[1] == b'W';
        }
    }
    (error, warning)
}

/// A level letter in a column of its own at the start of the line, then
/// the message indented (`E       AssertionError: …`, pytest's error
/// detail): the letter alone, then at least two spaces.
fn starts_with_level_column(b: &[u8], letter: u8) -> bool {
    b.len() > 3 && b[0] == letter && b[1] == b' ' && b[2] == b' '
}

/// A level letter and a colon leading the line (`E: ledger-tool:
/// no-copyright-file`, `W: Some index files failed to download`): how
/// apt, dpkg and lintian tag their errors and warnings.
fn starts_with_level_tag(b: &[u8], letter: u8) -> bool {
    b.len() > 3 && b[0] == letter && b[1] == b':' && b[2] == b' '
}

/// A shape for `content` in which numbers, hashes and paths are masked, so
/// lines that differ only in those compare equal.
pub fn mask(content: &str) -> String {
    // Never longer than `content`: each token shrinks or stays, each run
    // of whitespace becomes one space.
    let mut out = String::with_capacity(content.len());
    if content.is_ascii() {
        // Most lines: their whitespace is bytes, read without decoding.
        let b = content.as_bytes();
        let is_space = |c: u8| matches!(c, b'\t'..=b'\r' | b' ');
        let mut j = 0;
        while j < b.len() {
            while j < b.len() && is_space(b[j]) {
                j += 1;
            }
            let start = j;
            // Whether the token is a plain word (see `mask_token`), read
            // in the same pass that finds its end.
            let mut plain = true;
            while j < b.len() && !is_space(b[j]) {
                plain &= !is_maskable_byte(b[j]);
                j += 1;
            }
            if start < j {
                if !out.is_empty() {
                    out.push(' ');
                }
                if plain && j - start < ENCODED_BYTES_AT_LEAST {
                    out.push_str(&content[start..j]);
                } else {
                    mask_token(&content[start..j], &mut out);
                }
            }
        }
    } else {
        for (i, token) in content.split_whitespace().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            mask_token(token, &mut out);
        }
    }
    out
}

/// Writes `token` masked to `out`: a path as `/`, a hash as `#`, each run
/// of digits as one `0`. A token of fields joined by `=` or `:`
/// (`--hash=sha256:<hex>`, `h1:<base64>=`, `Digest: sha256:<hex>`) is
/// masked field by field, so a digest inside it masks too.
fn mask_token(token: &str, out: &mut String) {
    // Most tokens are plain words: too short to be encoded bytes, without a
    // digit (so no hash and nothing to mask), a path's slash or a field's
    // `=` or `:`. They stay as they are, read in one pass.
    if token.len() < ENCODED_BYTES_AT_LEAST && !token.bytes().any(is_maskable_byte) {
        out.push_str(token);
        return;
    }
    // (Base64 has `/` among its letters: read before a path is.)
    if is_encoded_bytes(token) {
        out.push('#');
        return;
    }
    // Tokens are short: a plain loop beats two searches.
    if token.bytes().any(|b| b == b'/' || b == b'\\') {
        out.push('/');
        return;
    }
    if is_hashlike(token) {
        out.push('#');
        return;
    }
    if token.len() >= digest::MIN_DIGEST_LEN && token.bytes().any(|b| b == b'=' || b == b':') {
        let mut from = 0;
        for (i, b) in token.bytes().enumerate() {
            if b == b'=' || b == b':' {
                mask_field(&token[from..i], out);
                out.push(b as char);
                from = i + 1;
            }
        }
        mask_field(&token[from..], out);
        return;
    }
    mask_digits(token, out);
}

/// A byte that may make a token masked: a digit, a path's slash, a field's
/// `=` or `:`. A short token without one is a plain word, kept as it is.
fn is_maskable_byte(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'/' | b'\\' | b'=' | b':')
}

/// Writes one field of a token masked: a digest as `#`, otherwise each run
/// of digits as one `0`.
fn mask_field(field: &str, out: &mut String) {
    if field.len() >= digest::MIN_DIGEST_LEN
        && (is_hashlike(field) || digest::is_base64_digest(field))
    {
        out.push('#');
    } else {
        mask_digits(field, out);
    }
}

/// Writes `token` to `out` with each run of digits as one `0`.
fn mask_digits(token: &str, out: &mut String) {
    // Each run of digits becomes one `0`; what lies between is copied
    // whole (digits are ASCII, so every cut is on a char boundary).
    let b = token.as_bytes();
    let mut from = 0;
    let mut j = 0;
    while j < b.len() {
        if b[j].is_ascii_digit() {
            out.push_str(&token[from..j]);
            out.push('0');
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            from = j;
        } else {
            j += 1;
        }
    }
    out.push_str(&token[from..]);
}

/// Fewest bytes of a token read as encoded data (see [`is_encoded_bytes`]):
/// a line of a PEM block has 64, a line of `openssl x509 -text`'s
/// signature 18 bytes written in 54.
const ENCODED_BYTES_AT_LEAST: usize = 32;

/// Bytes written as text for no one to read letter by letter: a run of hex
/// bytes joined by `:` (a certificate's modulus or signature, a key's
/// fingerprint: `97:31:02:9f:e7:fd:43:67:…`), or a line of base64 (a PEM
/// block's `MIIHbTCCBVWgAwIBAgIIXsO3pkN…`, see [`is_base64_block_line`]).
/// Each line of such a block is one token
/// of its own letters, so without this mask every line would be a shape
/// of its own and pass for a rare one. A MAC address (six bytes) and an
/// IPv6 address (groups of four digits) are no such run.
pub(crate) fn is_encoded_bytes(token: &str) -> bool {
    if token.len() < ENCODED_BYTES_AT_LEAST {
        return false;
    }
    let hex_bytes = token
        .trim_end_matches(':')
        .split(':')
        .all(|b| b.len() == 2 && b.bytes().all(|c| c.is_ascii_hexdigit()));
    hex_bytes || is_base64_block_line(token)
}

/// Whether `content` is one line of an encoded block and nothing else (see
/// [`is_encoded_bytes`]): data, which heads and says nothing.
pub(crate) fn is_encoded_line(content: &str) -> bool {
    let mut tokens = content.split_whitespace();
    tokens.next().is_some_and(is_encoded_bytes) && tokens.next().is_none()
}

/// A line's worth of base64 (a PEM block's 64 letters, a gzip archive
/// pasted into a CI log): its alphabet only, mixed as random bytes mix
/// it. Capitals, small letters an eighth of it or more, in runs of
/// [`BASE64_SMALL_RUN_MEAN_AT_MOST`] letters or fewer on average, and the
/// kind of letter (capital, small, other) changing at one letter in three
/// or more (`MIIHbTCCBVWgAwIBAgII…`). A name in camel case is words, each a
/// capital and a run of small letters (`HTTPDigestAuthenticationTestCase`,
/// `AWSS3BucketPolicyV2ForUploads`); a constant has no small letters.
fn is_base64_block_line(token: &str) -> bool {
    let body = token.trim_end_matches('=').as_bytes();
    if body.len() < ENCODED_BYTES_AT_LEAST
        || !body
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/'))
    {
        return false;
    }
    let kind = |b: u8| {
        if b.is_ascii_uppercase() {
            0
        } else if b.is_ascii_lowercase() {
            1
        } else {
            2
        }
    };
    let changes = body.windows(2).filter(|w| kind(w[0]) != kind(w[1])).count();
    let capitals = body.iter().filter(|b| b.is_ascii_uppercase()).count();
    let small = body.iter().filter(|b| b.is_ascii_lowercase()).count();
    let small_runs = (0..body.len())
        .filter(|&i| body[i].is_ascii_lowercase() && (i == 0 || !body[i - 1].is_ascii_lowercase()))
        .count();
    capitals > 0
        && small * 8 >= body.len()
        && small <= small_runs * BASE64_SMALL_RUN_MEAN_AT_MOST
        && changes * 3 >= body.len()
}

/// Most small letters in a run, on average, in a line of base64 (see
/// [`is_base64_block_line`]): random letters, two in five of them small,
/// run fewer than two on average; the words of a name run four or more.
const BASE64_SMALL_RUN_MEAN_AT_MOST: usize = 3;

/// A hex digest or id: at least 7 hex digits with both letters and digits.
fn is_hashlike(token: &str) -> bool {
    if token.len() < 7 {
        return false;
    }
    let t = token.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    t.len() >= 7
        && t.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars().any(|c| c.is_ascii_alphabetic())
}

/// What follows a leading level tag (`[info] `, `[ERROR] `), if the line
/// has one.
fn after_level_tag(content: &str) -> Option<&str> {
    let (tag, rest) = content.strip_prefix('[')?.split_around("] ")?;
    crate::levels::level_named_in_any_case(tag).map(|_| rest)
}

/// The bytes of whitespace `content` opens with: its indent.
pub fn indent(content: &str) -> usize {
    content.len() - content.trim_ascii_start().len()
}

/// Whether `content` continues the error block above it: an indented line, a
/// stack frame, an exception-chain link or a compiler's detail line.
pub fn is_continuation(content: &str) -> bool {
    // sbt's `[info]   at …`: the tag is the line's level, what follows it
    // is the line.
    if let Some(rest) = after_level_tag(content) {
        return rest.starts_with([' ', '\t']) && !rest.trim_ascii().is_empty();
    }
    if content.starts_with([' ', '\t']) {
        return !content.trim_ascii().is_empty();
    }
    const LINKS: &[&str] = &[
        "at ",
        "Caused by",
        "Caused:",
        "Also:",
        "Suppressed:",
        "...",
        "symbol:",
        "location:",
        "required:",
        "found:",
        "reason:",
        "During handling",
        "The above exception",
        "Traceback",
        "File \"",
        "note:",
        "help:",
        "-->",
        "|",
        "= note",
        "stack backtrace:",
        "left:",
        "right:",
        "expected",
        "actual",
        "but was",
        "Expected",
        "Received",
    ];
    LINKS.iter().any(|l| content.starts_with(l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_named_by_an_error_word_and_a_version_is_not_an_error() {
        for line in [
            "ghc --make -package-id exceptions-0.10.0-K1JVigLRL0e8 -package-id fail-4.9.0.0-JMlLBj",
            "Configuring exceptions-0.10.0...",
        ] {
            assert_eq!(severity(line), Severity::Normal, "{line}");
        }
        for line in [
            "error-prone build",
            "3 failed-tests",
            "exception-0: boom, exceptions raised",
        ] {
            assert_eq!(severity(line), Severity::Error, "{line}");
        }
    }

    #[test]
    fn a_level_letter_tagging_a_line_is_its_level() {
        // apt, dpkg and lintian tag a line with its level's letter.
        assert_eq!(
            severity("E: ledger-tool: no-copyright-file"),
            Severity::Error
        );
        assert_eq!(
            severity("W: ledger-tool: priority-extra-is-replaced-by-priority-optional"),
            Severity::Warning
        );
        // Not a lintian note, nor a letter inside a word.
        assert_eq!(severity("N:   Show-Always: no"), Severity::Normal);
        assert_eq!(severity("EW: ledger-tool"), Severity::Normal);
    }

    #[test]
    fn the_c_librarys_own_error_messages_are_errors() {
        for line in [
            "bash: line 170: pom.bak10.xml: No space left on device",
            "fork: Out of memory",
            "socket: Too many open files",
            "chmod: changing permissions of '/etc/x': Operation not permitted",
            "cp: cannot create regular file 'a': Read-only file system",
            "curl: (56) Recv failure: Connection reset by peer",
        ] {
            assert_eq!(severity(line), Severity::Error, "{line}");
        }
    }

    #[test]
    fn a_camel_case_name_starting_with_an_error_word_is_not_an_error() {
        for line in [
            "\tat com.twitter.finagle.http.filter.ExceptionFilter.apply(ExceptionFilter.scala:24)",
            "  registered errorHandler for /api",
        ] {
            assert_eq!(severity(line), Severity::Normal, "{line}");
        }
        for line in ["FAILED tests/a.py::t", "Errors: 2", "Failed to fetch"] {
            assert_eq!(severity(line), Severity::Error, "{line}");
        }
    }

    #[test]
    fn a_snake_case_name_starting_with_an_error_word_is_not_an_error() {
        for line in [
            "     Running `rustc --crate-name anstyle '--warn=clippy::invalid_upcast_comparisons'`",
            "  error_count: 0",
        ] {
            assert_eq!(severity(line), Severity::Normal, "{line}");
        }
        for line in ["error: could not compile `app`", "invalid value: 3_000"] {
            assert_eq!(severity(line), Severity::Error, "{line}");
        }
    }

    #[test]
    fn an_error_word_among_a_command_lines_options_is_no_error() {
        let rustc = "     Running `rustc --crate-name clap --edition=2024 src/lib.rs --error-format=json \
                     --crate-type lib -C embed-bitcode=no -C debuginfo=2 --cfg 'feature=\"error-context\"' \
                     --check-cfg 'cfg(feature, values(\"color\", \"deprecated\"))' -C metadata=0414 \
                     --out-dir /t/deps -L dependency=/t/deps --cap-lints allow`";
        assert_eq!(severity(rustc), Severity::Normal);
        let cc =
            "cc -Wall -Wextra -O2 -g -fPIC -DNDEBUG -I include -I src -c src/error.c -o error.o";
        assert_eq!(severity(cc), Severity::Normal);
        for line in [
            "error: unknown argument '-fbogus' (did you mean -fbog, -fbag, -fbig, -fbug, -fbeg or -fbugs?)",
            "cc: error: unrecognized options -mfoo -mbar -fbaz -fqux -Wx -Wy -Wz -Ww -Wv -Wu",
        ] {
            assert_eq!(severity(line), Severity::Error, "{line}");
        }
    }

    #[test]
    fn a_command_led_by_variable_settings_is_a_command_line() {
        // `cargo build -vv` echoes each command after its environment.
        let settings: String = (0..24)
            .map(|i| format!("CARGO_PKG_SETTING_{i}=value{i} "))
            .collect();
        let vv = format!(
            "     Running `{settings}/usr/bin/rustc --crate-name fnv --edition=2015 lib.rs \
             --error-format=json --crate-type lib -C debuginfo=2 --cap-lints allow`"
        );
        assert!(is_command_line(&vv));
        assert_eq!(severity(&vv), Severity::Normal);
        // A message naming a setting or two is no command.
        for message in [
            "warning: LEDGER_RATES=0 is not set; rates default to zero",
            "error: PATH=/usr/bin has no compiler, set CC=gcc or CC=clang",
            "Using CC=gcc CXX=g++ AR=ar for the build of zlib",
        ] {
            assert!(!is_command_line(message), "{message}");
        }
    }

    #[test]
    fn a_module_named_error_is_not_an_error_but_a_throwable_raised_is() {
        let compiling = "[ 47 of 120] Compiling Text.Pandoc.Error ( src/Text/Pandoc/Error.hs, dist/build/Text/Pandoc/Error.o )";
        assert_eq!(severity(compiling), Severity::Normal);
        for line in [
            "java.lang.Error: boom",
            "Caused by: java.lang.Error",
            "\tat x.y.Z(Z.java:3) java.io.UncheckedIOException thrown",
        ] {
            assert_eq!(severity(line), Severity::Error, "{line}");
        }
    }

    #[test]
    fn a_timestamp_with_a_non_ascii_character_in_it_is_no_timestamp() {
        // Found by fuzzing: slicing at byte 19 fell inside the character.
        let line = "2022-05-30T09:10:4\u{fffd}.0415188Z remote: Counting objects";
        assert_eq!(without_timestamp(line), line);
    }

    #[test]
    fn content_is_read_without_pytests_internal_error_prefix() {
        assert_eq!(
            content("INTERNALERROR>   File \"/a/main.py\", line 201, in wrap"),
            "  File \"/a/main.py\", line 201, in wrap"
        );
        assert_eq!(content("INTERNALERROR>"), "INTERNALERROR>");
    }

    #[test]
    fn strips_timestamps() {
        assert_eq!(
            without_timestamp("2022-05-30T09:11:02.8581448Z [ERROR] x"),
            "[ERROR] x"
        );
        assert_eq!(
            without_timestamp("2022-05-30 09:11:02,123 WARN y"),
            "WARN y"
        );
        assert_eq!(without_timestamp("[12:00:01] ok"), "ok");
        assert_eq!(without_timestamp("plain"), "plain");
    }

    #[test]
    fn zero_counts_are_not_failures() {
        assert_eq!(
            severity("Tests run: 5, Failures: 0, Errors: 0, Skipped: 0"),
            Severity::Normal
        );
        assert_eq!(
            severity("Tests run: 5, Failures: 1, Errors: 0, Skipped: 0"),
            Severity::Error
        );
        assert_eq!(
            severity("test result: ok. 3 passed; 0 failed; 0 ignored"),
            Severity::Normal
        );
        // A time after the word is no count (CTest's result line).
        assert_eq!(
            severity("44/60 Test #44: fill_43 ..........***Failed    0.00 sec"),
            Severity::Error
        );
        // A tally's title is no error; its counts say.
        assert_eq!(
            severity("==41== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)"),
            Severity::Normal
        );
        assert_eq!(
            severity("==41== ERROR SUMMARY: 2 errors from 1 contexts (suppressed: 0 from 0)"),
            Severity::Error
        );
        assert_eq!(
            severity("[ERROR] Foo.java:[27,122] incompatible types"),
            Severity::Error
        );
        assert_eq!(severity("[WARNING] deprecated API"), Severity::Warning);
        assert_eq!(severity("Compiling 12 source files"), Severity::Normal);
    }

    #[test]
    fn masks_numbers_hashes_and_paths() {
        assert_eq!(
            mask("Downloaded 12 kB from /a/b.jar"),
            mask("Downloaded 913 kB from /c/d.jar")
        );
        assert_eq!(
            mask("commit 4e8932e579d2e085"),
            mask("commit aa0932e579d2e0ff")
        );
        assert_ne!(mask("Compiling foo"), mask("Linking foo"));
    }

    /// A digest inside a token of fields (`--hash=sha256:…`, go.sum's
    /// `h1:…=`, docker's `sha256:…`) masks as a field of its own; a name in
    /// camel case stays a name.
    #[test]
    fn masks_digests_inside_tokens_of_fields() {
        assert_eq!(
            mask(
                "    --hash=sha256:b4ce2265a7abece45e7cc896e98dbebe6cead56bcf805a3d23136d145f5445bf \\"
            ),
            mask(
                "    --hash=sha256:0cf3cae568d36aa9576b28dfb35f11328f1cb974ca7647d9475ebb86c75ac6e3 \\"
            )
        );
        assert_eq!(
            mask("cloud.google.com/go v0.112.1 h1:uJSeirPke5UNZHIb4SxfZklVSiWWVqW4oXlETwZziwM="),
            mask("cloud.google.com/go v0.112.1 h1:ZRpHJedLtTpKgr3RV1Fx23NuaAEN1Zfx9hw1u4aJdjU=")
        );
        assert_eq!(
            mask("Digest: sha256:5f2a0c1c83a05c0a8e2a0cbbdf3bb1e4a8e3f7e24a4c7fb61a2c8e1e9b5d7a10"),
            "Digest: sha0:#"
        );
        assert_ne!(
            mask("value=HttpServerConfigurationBuilder2"),
            mask("value=HttpClientConfigurationBuilder2")
        );
    }

    /// The lines of an encoded block (a certificate's signature in hex
    /// bytes, a PEM body in base64) share one mask; a MAC address, an IPv6
    /// address and a long name do not pass for one.
    #[test]
    fn lines_of_encoded_bytes_share_a_mask() {
        assert_eq!(
            mask("        97:31:02:9f:e7:fd:43:67:48:44:14:e4:29:87:ed:4c:28:66:"),
            mask("        d0:8f:35:da:4d:61:b7:4a:97:4d:b5:db:90:e0:05:2e:0e:c6:")
        );
        assert_eq!(
            mask("MIIHbTCCBVWgAwIBAgIIXsO3pkN/pOAwDQYJKoZIhvcNAQEFBQAwQjESMBAGA1UE"),
            mask("AwwJQUNDVlJBSVoxMRAwDgYDVQQLDAdQS0lBQ0NWMQ0wCwYDVQQKDARBQ0NWMQsw")
        );
        assert_ne!(
            mask("link/ether 52:54:00:12:34:56 brd ff:ff:ff:ff:ff:ff"),
            mask("link/ether 52:54:00:ab:cd:ef brd ff:ff:ff:ff:ff:ff")
        );
        assert_ne!(
            mask("inet6 2001:0db8:85a3:0000:0000:8a2e:0370:7334/64"),
            "inet6 #"
        );
        assert_ne!(
            mask("test_parse_header_with_unicode_name"),
            mask("test_parse_header_with_unicode_value")
        );
        assert_ne!(
            mask("HttpServerConfigurationBuilderFactoryImpl"),
            mask("HttpClientConfigurationBuilderFactoryImpl")
        );
        assert_ne!(mask("=".repeat(78).as_str()), "#");
        assert_ne!(
            mask("HTTPDigestAuthenticationTestCase"),
            mask("SortedKeysJSONParameterEncoderTests")
        );
        assert_ne!(
            mask("AWSS3BucketPolicyV2ForUploadsMain"),
            mask("AWSS3BucketPolicyV2ForDownloadsMain")
        );
        assert_ne!(
            mask("XMLHttpRequestEventTargetPrototype"),
            mask("XMLHttpRequestEventTargetInstance")
        );
        // A gzip archive in base64 is mostly small letters.
        assert_eq!(
            mask("K9gsrW/Gx5ulsF7faJaCeqPW2Lgb1errm8PLnxlmfmaU+Zm1zM+sJ8989l5sx4P+aPzj6bpa2pw9"),
            "#"
        );
        // A run of seven small letters (`jqoquei`) happens in random bytes.
        assert_eq!(
            mask("KcHLPMw9RJ39afmTbBx7Fh6UJDsrkujOllJjqoqueiYhTbJ7Ktm1VCxHeQ6wNgbV"),
            "#"
        );
        assert_ne!(
            mask("MAX_BUFFER_SIZE_FOR_NETWORK_CONNECTIONS"),
            mask("MIN_BUFFER_SIZE_FOR_NETWORK_CONNECTIONS")
        );
    }
}
