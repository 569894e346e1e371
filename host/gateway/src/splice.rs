//! Edits of a request body as splices: byte ranges of the original replaced
//! by new bytes, everything else kept exactly as the client sent it.

use std::ops::Range;

/// One replacement: the bytes at `range` of the original become `with`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice {
    /// Where, in the original body.
    pub range: Range<usize>,
    /// The new bytes (a complete JSON value where a value was).
    pub with: String,
}

/// Why a set of splices cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpliceError {
    /// Two splices overlap.
    #[error("splices overlap at byte {0}")]
    Overlap(usize),
    /// A splice ends past the body.
    #[error("a splice ends at byte {end}, past the body's {len}")]
    OutOfBounds {
        /// Where it ends.
        end: usize,
        /// The body's length.
        len: usize,
    },
}

/// `original` with `splices` applied (in any order; they must not overlap).
/// No splices: the original bytes, unchanged.
pub fn apply(original: &[u8], splices: &mut [Splice]) -> Result<Vec<u8>, SpliceError> {
    splices.sort_by_key(|s| s.range.start);
    let mut out = Vec::with_capacity(original.len());
    let mut at = 0;
    for s in splices.iter() {
        if s.range.start < at {
            return Err(SpliceError::Overlap(s.range.start));
        }
        if s.range.end > original.len() || s.range.start > s.range.end {
            return Err(SpliceError::OutOfBounds {
                end: s.range.end,
                len: original.len(),
            });
        }
        out.extend_from_slice(&original[at..s.range.start]);
        out.extend_from_slice(s.with.as_bytes());
        at = s.range.end;
    }
    out.extend_from_slice(&original[at..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_replace_only_their_bytes() {
        let body = b"{\"a\":\"xx\",\"b\":\"yy\"}";
        let mut edits = vec![
            Splice {
                range: 14..18,
                with: "\"Z\"".into(),
            },
            Splice {
                range: 5..9,
                with: "\"long\"".into(),
            },
        ];
        assert_eq!(
            apply(body, &mut edits).unwrap(),
            b"{\"a\":\"long\",\"b\":\"Z\"}".to_vec()
        );
        assert_eq!(apply(body, &mut []).unwrap(), body.to_vec());
        let mut overlapping = vec![
            Splice {
                range: 1..5,
                with: String::new(),
            },
            Splice {
                range: 3..6,
                with: String::new(),
            },
        ];
        assert_eq!(apply(body, &mut overlapping), Err(SpliceError::Overlap(3)));
    }
}
