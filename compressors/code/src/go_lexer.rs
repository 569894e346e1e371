//! Go's tokens (see [`crate::tokens`]), literals and comments skipped as
//! the compiler reads them: interpreted strings, raw strings in
//! backquotes, runes, line and block comments.

use crate::tokens::{Kind, Token};

/// The tokens of `source`, or `None` when it does not lex as Go: an
/// unclosed or mismatched delimiter, an unterminated string or comment, a
/// character no token starts with.
pub fn tokens(source: &str) -> Option<Vec<Token<'_>>> {
    crate::tokens::lex(source, false, token)
}

/// The token at `i` (see [`crate::tokens::ReadToken`]).
fn token<'a>(source: &'a str, i: usize, line: &mut usize) -> Option<(Kind<'a>, usize)> {
    let b = source.as_bytes();
    let c = b[i];
    Some(match c {
        b'`' => {
            let end = i + 1 + memchr::memchr(b'`', &b[i + 1..])? + 1;
            *line += memchr::memchr_iter(b'\n', &b[i..end]).count();
            (Kind::Literal, end)
        }
        b'"' | b'\'' => (Kind::Literal, quoted_end(b, i)?),
        b'0'..=b'9' => (Kind::Literal, number_end(b, i)),
        _ if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
            let mut end = i + 1;
            while end < b.len()
                && (b[end].is_ascii_alphanumeric() || b[end] == b'_' || b[end] >= 0x80)
            {
                end += 1;
            }
            (Kind::Ident(&source[i..end]), end)
        }
        b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'<' | b'>' | b'=' | b'!'
        | b':' | b'.' | b',' | b';' | b'~' => (
            Kind::Punct {
                ch: c,
                joint: false,
            },
            i + 1,
        ),
        _ => return None,
    })
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
        assert_eq!(crate::tokens::groups(&toks, b'{'), 1);
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
