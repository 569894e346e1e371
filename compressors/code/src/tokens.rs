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
