//! Rust's tokens (see [`crate::tokens`]), literals and comments skipped
//! as the compiler reads them: raw strings, byte and C strings, characters
//! against lifetimes, nested block comments.

use crate::tokens::{Kind, Token};

/// The tokens of `source`, or `None` when it does not lex as Rust: an
/// unclosed or mismatched delimiter, an unterminated string or comment, a
/// character no token starts with.
pub fn tokens(source: &str) -> Option<Vec<Token<'_>>> {
    crate::tokens::lex(source, true, token)
}

/// The token at `i` (see [`crate::tokens::ReadToken`]).
fn token<'a>(source: &'a str, i: usize, line: &mut usize) -> Option<(Kind<'a>, usize)> {
    let b = source.as_bytes();
    let c = b[i];
    Some(if let Some(end) = quoted_literal_end(b, i, line)? {
        (Kind::Literal, end)
    } else if c == b'\'' {
        // A character literal, or a lifetime (`'a`, `'static`): its quote
        // is punctuation, its name an identifier.
        match char_literal_end(b, i) {
            Some(end) => (Kind::Literal, end),
            None => (Kind::Punct { ch: c, joint: true }, i + 1),
        }
    } else if c.is_ascii_digit() {
        (Kind::Literal, number_end(b, i))
    } else if is_ident_start(c) {
        let raw = c == b'r'
            && b.get(i + 1) == Some(&b'#')
            && b.get(i + 2).is_some_and(|&n| is_ident_start(n));
        // A raw identifier keeps its `r#`: `r#fn` is no `fn`.
        let mut end = if raw { i + 3 } else { i + 1 };
        while end < b.len() && is_ident_continue(b[end]) {
            end += 1;
        }
        (Kind::Ident(&source[i..end]), end)
    } else if is_punct(c) {
        let joint = b.get(i + 1).is_some_and(|&n| is_punct(n));
        (Kind::Punct { ch: c, joint }, i + 1)
    } else {
        return None;
    })
}

/// Whether `c` may start an identifier (any non-ASCII byte is taken for a
/// letter of one: Rust's identifiers may be Unicode).
fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

/// Whether `c` may continue an identifier.
fn is_ident_continue(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// Whether `c` is one of Rust's punctuation characters.
fn is_punct(c: u8) -> bool {
    matches!(
        c,
        b'+' | b'-'
            | b'*'
            | b'/'
            | b'%'
            | b'^'
            | b'!'
            | b'&'
            | b'|'
            | b'='
            | b'<'
            | b'>'
            | b'@'
            | b'.'
            | b','
            | b';'
            | b':'
            | b'#'
            | b'$'
            | b'?'
            | b'~'
    )
}

/// When a string literal starts at `i` (`"…"`, `b"…"`, `c"…"`, `r#"…"#`,
/// `br"…"`, `cr"…"`), the index after it; `Some(None)` when none starts
/// there; `None` when one starts but never ends.
fn quoted_literal_end(b: &[u8], i: usize, line: &mut usize) -> Option<Option<usize>> {
    let mut k = i;
    if matches!(b[k], b'b' | b'c') {
        k += 1;
    }
    let raw = b.get(k) == Some(&b'r');
    if raw {
        k += 1;
    }
    let hashes = b[k.min(b.len())..]
        .iter()
        .take_while(|&&h| h == b'#')
        .count();
    if !raw && (hashes > 0 || k > i + 1) {
        return Some(None);
    }
    k += hashes;
    if b.get(k) != Some(&b'"') {
        // A byte character (`b'a'`) is read as a literal too.
        if k == i + 1 && b[i] == b'b' && b.get(k) == Some(&b'\'') {
            return Some(char_literal_end(b, k));
        }
        return Some(None);
    }
    k += 1;
    while k < b.len() {
        match b[k] {
            b'\\' if !raw => {
                // (An escaped newline continues the string on the next line.)
                if b.get(k + 1) == Some(&b'\n') {
                    *line += 1;
                }
                k += 2;
            }
            b'"' if b[k + 1..]
                .iter()
                .take(hashes)
                .filter(|&&h| h == b'#')
                .count()
                == hashes =>
            {
                return Some(Some(suffix_end(b, k + 1 + hashes)));
            }
            c => {
                if c == b'\n' {
                    *line += 1;
                }
                k += 1;
            }
        }
    }
    None
}

/// The index after a character literal opening at `i` (`'a'`, `'\n'`,
/// `'\u{1F600}'`, `'é'`), or none when the quote opens a lifetime.
fn char_literal_end(b: &[u8], i: usize) -> Option<usize> {
    let k = i + 1;
    let c = *b.get(k)?;
    let close = if c == b'\\' {
        // An escape: up to the next quote (`'\''` has one escaped).
        let from = k + 2;
        from + memchr::memchr(b'\'', b.get(from..)?)?
    } else {
        // One character, of up to four bytes.
        let len = match c {
            0xf0.. => 4,
            0xe0.. => 3,
            0xc0.. => 2,
            _ => 1,
        };
        if c == b'\'' || c == b'\n' {
            return None;
        }
        k + len
    };
    (b.get(close) == Some(&b'\'')).then(|| suffix_end(b, close + 1))
}

/// The index after a literal's suffix (`1u8`, `"a"_s`) that starts at `i`.
fn suffix_end(b: &[u8], mut i: usize) -> usize {
    if b.get(i).is_some_and(|&c| is_ident_start(c)) {
        while i < b.len() && is_ident_continue(b[i]) {
            i += 1;
        }
    }
    i
}

/// The index after a number starting at `i` (`42`, `0x1F_u8`, `1.5e-3`
/// up to its `-`: the rest reads as punctuation and another number, which
/// says nothing of a function's body).
fn number_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    // A fraction, not a range (`1..2`) or a method (`1.max(2)`).
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Token;

    fn kinds(source: &str) -> Vec<Kind<'_>> {
        tokens(source)
            .unwrap()
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn literals_and_comments_hide_their_braces() {
        let src = "fn a() { let s = \"}\"; let r = r#\"\"}\"#; let c = '}'; /* { /* } */ */ }";
        let toks = tokens(src).unwrap();
        assert_eq!(crate::tokens::groups(&toks, b'{'), 1);
        assert_eq!(toks.iter().filter(|t| t.kind == Kind::Close).count(), 2);
    }

    #[test]
    fn a_lifetime_is_no_character() {
        assert_eq!(
            kinds("'a x 'b'"),
            [
                Kind::Punct {
                    ch: b'\'',
                    joint: true
                },
                Kind::Ident("a"),
                Kind::Ident("x"),
                Kind::Literal
            ]
        );
        assert_eq!(kinds("'\\''"), [Kind::Literal]);
        assert_eq!(kinds("r#fn r"), [Kind::Ident("r#fn"), Kind::Ident("r")]);
        assert_eq!(kinds("b'{' br\"}\" c\"}\""), [Kind::Literal; 3]);
    }

    #[test]
    fn groups_point_past_their_closers_and_lines_count() {
        let toks = tokens("fn f() {\n    g(1.5);\n}\n").unwrap();
        assert_eq!(
            toks[0],
            Token {
                kind: Kind::Ident("fn"),
                line: 1
            }
        );
        let brace = toks
            .iter()
            .position(|t| {
                matches!(
                    t.kind,
                    Kind::Open {
                        delimiter: b'{',
                        ..
                    }
                )
            })
            .unwrap();
        let Kind::Open { end, .. } = toks[brace].kind else {
            unreachable!()
        };
        assert_eq!(end, toks.len());
        assert_eq!(toks[end - 1].line, 3);
    }

    #[test]
    fn what_does_not_lex_is_none() {
        for bad in ["fn f( {", "fn f() }", "\"open", "/* open", "a ` b", "(]"] {
            assert!(tokens(bad).is_none(), "{bad}");
        }
    }
}
