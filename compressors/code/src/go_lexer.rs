//! Go's tokens (see [`crate::tokens`]), literals and comments skipped as
//! the compiler reads them: interpreted strings, raw strings in
//! backquotes, runes, line and block comments.

use crate::tokens::{Builder, Kind, Token};

/// The tokens of `source`, or `None` when it does not lex as Go: an
/// unclosed or mismatched delimiter, an unterminated string or comment, a
/// character no token starts with.
pub fn tokens(source: &str) -> Option<Vec<Token<'_>>> {
    let b = source.as_bytes();
    let mut out = Builder::with_capacity(source.len());
    let mut line = 1;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start_line = line;
        let kind = match c {
            b'\n' => {
                line += 1;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |at| i + at);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = i + 2 + memchr::memmem::find(&b[i + 2..], b"*/")? + 2;
                line += memchr::memchr_iter(b'\n', &b[i..end]).count();
                i = end;
                continue;
            }
            b'(' | b'[' | b'{' | b')' | b']' | b'}' => {
                out.delimiter(c, line)?;
                i += 1;
                continue;
            }
            b'`' => {
                let end = i + 1 + memchr::memchr(b'`', &b[i + 1..])? + 1;
                line += memchr::memchr_iter(b'\n', &b[i..end]).count();
                i = end;
                Kind::Literal
            }
            b'"' | b'\'' => {
                i = quoted_end(b, i)?;
                Kind::Literal
            }
            b'0'..=b'9' => {
                i = number_end(b, i);
                Kind::Literal
            }
            _ if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                let from = i;
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80)
                {
                    i += 1;
                }
                Kind::Ident(&source[from..i])
            }
            b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'<' | b'>' | b'=' | b'!'
            | b':' | b'.' | b',' | b';' | b'~' => {
                i += 1;
                Kind::Punct {
                    ch: c,
                    joint: false,
                }
            }
            _ => return None,
        };
        out.push(kind, start_line);
    }
    out.finish()
}

/// The index after the interpreted string or rune opening at `i`; none
/// when it does not end on its line.
fn quoted_end(b: &[u8], i: usize) -> Option<usize> {
    let quote = b[i];
    let mut k = i + 1;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 2,
            b'\n' => return None,
            c if c == quote => return Some(k + 1),
            _ => k += 1,
        }
    }
    None
}

/// The index after a number starting at `i` (`42`, `0x1F`, `1_000`,
/// `1.5e3`, `2i`; an exponent's sign reads as punctuation and another
/// number, which says nothing of a function's body).
fn number_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_comments_hide_their_braces() {
        let src = "func f() {\n\ts := \"}\"\n\tr := `{\n}`\n\tc := '}' /* { */ // {\n}\n";
        let toks = tokens(src).unwrap();
        let braces = toks
            .iter()
            .filter(|t| {
                matches!(
                    t.kind,
                    Kind::Open {
                        delimiter: b'{',
                        ..
                    }
                )
            })
            .count();
        assert_eq!(braces, 1);
        assert_eq!(toks.last().map(|t| t.line), Some(6));
    }

    #[test]
    fn what_does_not_lex_is_none() {
        for bad in [
            "func f( {",
            "func f() }",
            "\"open\n\"",
            "/* open",
            "`open",
            "a # b",
        ] {
            assert!(tokens(bad).is_none(), "{bad}");
        }
    }
}
