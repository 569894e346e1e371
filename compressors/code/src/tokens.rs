//! A source's tokens as the code compressor reads them to find function
//! bodies: identifiers, punctuation and delimited groups, each with its
//! line; literals and comments are skipped by each language's lexer
//! ([`crate::rust_lexer`], [`crate::go_lexer`]). A file becomes one flat
//! list, read once, in which every group's opener points past its closer;
//! nothing is allocated per token.

/// One token, with its 1-based line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Token<'a> {
    /// What it is.
    pub kind: Kind<'a>,
    /// The line it starts on, from 1.
    pub line: usize,
}

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind<'a> {
    /// An identifier or keyword (Rust's raw `r#type` with its `r#`).
    Ident(&'a str),
    /// One punctuation character; `joint` when another follows it at once
    /// (`-` in `->`).
    Punct {
        /// The character.
        ch: u8,
        /// Whether a punctuation character follows without a space.
        joint: bool,
    },
    /// A string, character or number.
    Literal,
    /// A group's opener; `end` is the index just past its closer.
    Open {
        /// `(`, `[` or `{`.
        delimiter: u8,
        /// The index after the group's closer.
        end: usize,
    },
    /// A group's closer.
    Close,
}

/// How a language reads a token the shared loop of [`lex`] leaves to it
/// (at `i`, no whitespace, comment or delimiter): its kind and the index
/// after it, the newlines it spans added to `line`; `None` when nothing
/// lexes there.
pub type ReadToken = for<'a> fn(&'a str, usize, &mut usize) -> Option<(Kind<'a>, usize)>;

/// The tokens of `source`, or `None` when it does not lex: whitespace,
/// `//` and `/* */` comments (nested ones when `nested_comments`) and
/// delimiters are read here, every other token by `read`.
pub fn lex(source: &str, nested_comments: bool, read: ReadToken) -> Option<Vec<Token<'_>>> {
    let b = source.as_bytes();
    let mut out = Builder::with_capacity(source.len());
    let mut line = 1;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |at| i + at);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = block_comment_end(b, i, nested_comments, &mut line)?;
            }
            b'(' | b'[' | b'{' | b')' | b']' | b'}' => {
                out.delimiter(c, line)?;
                i += 1;
            }
            _ => {
                let start_line = line;
                let (kind, end) = read(source, i, &mut line)?;
                out.push(kind, start_line);
                i = end;
            }
        }
    }
    out.finish()
}

/// The index after the block comment opening at `i` (and the comments
/// nested in it when `nested`), its newlines added to `line`.
fn block_comment_end(b: &[u8], mut i: usize, nested: bool, line: &mut usize) -> Option<usize> {
    let mut depth = 0usize;
    while i < b.len() {
        match (b[i], b.get(i + 1)) {
            (b'/', Some(b'*')) if nested || depth == 0 => {
                depth += 1;
                i += 2;
            }
            (b'*', Some(b'/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Some(i);
                }
            }
            (b'\n', _) => {
                *line += 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// Builds a token list, matching each closer with its opener.
#[derive(Default)]
pub struct Builder<'a> {
    tokens: Vec<Token<'a>>,
    /// Indices of the open groups' openers.
    open: Vec<usize>,
}

impl<'a> Builder<'a> {
    /// A builder for a source of `bytes` bytes.
    pub fn with_capacity(bytes: usize) -> Self {
        Self {
            tokens: Vec::with_capacity(bytes / 4),
            open: Vec::new(),
        }
    }

    /// Adds a token that opens or closes no group.
    pub fn push(&mut self, kind: Kind<'a>, line: usize) {
        self.tokens.push(Token { kind, line });
    }

    /// Adds `delimiter` (`(`, `[`, `{`, or a closer), or `None` when it
    /// closes a group it does not match (or none).
    pub fn delimiter(&mut self, delimiter: u8, line: usize) -> Option<()> {
        match delimiter {
            b'(' | b'[' | b'{' => {
                self.open.push(self.tokens.len());
                self.push(Kind::Open { delimiter, end: 0 }, line);
            }
            _ => {
                let opener = self.open.pop()?;
                let Kind::Open {
                    delimiter: open, ..
                } = self.tokens[opener].kind
                else {
                    unreachable!("only openers are kept open");
                };
                if closer_of(open) != delimiter {
                    return None;
                }
                self.push(Kind::Close, line);
                self.tokens[opener].kind = Kind::Open {
                    delimiter: open,
                    end: self.tokens.len(),
                };
            }
        }
        Some(())
    }

    /// The tokens, or `None` when a group is left open.
    pub fn finish(self) -> Option<Vec<Token<'a>>> {
        self.open.is_empty().then_some(self.tokens)
    }
}

/// The closer matching opener `open`.
fn closer_of(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// The index of the token after `tokens[i]` in its group: past the whole
/// group when `tokens[i]` opens one.
pub fn next(tokens: &[Token<'_>], i: usize) -> usize {
    match tokens[i].kind {
        Kind::Open { end, .. } => end,
        _ => i + 1,
    }
}

/// The line `tokens[i]` ends on: its closer's when it opens a group.
pub fn last_line(tokens: &[Token<'_>], i: usize) -> usize {
    match tokens[i].kind {
        Kind::Open { end, .. } => tokens[end - 1].line,
        _ => tokens[i].line,
    }
}

/// How many groups `tokens` opens with `delimiter`: for tests of what a
/// lexer skips.
#[cfg(test)]
pub fn groups(tokens: &[Token<'_>], delimiter: u8) -> usize {
    tokens
        .iter()
        .filter(|t| matches!(t.kind, Kind::Open { delimiter: d, .. } if d == delimiter))
        .count()
}
