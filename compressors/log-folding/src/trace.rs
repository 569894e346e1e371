//! Which frames of a stack trace a reader needs, whatever printed it
//! (Python's `Traceback`, pytest's short frames): the innermost, where the
//! exception was raised; the project's own frames, not the libraries' it
//! called through; and in a long trace only where the project's code was
//! entered and left, not every call between (as the error compressor does).

/// A trace longer than this many frames folds its middle, the project's own
/// frames included.
pub const LONG_TRACE: usize = 8;

/// Frames kept at the raising end of a long trace.
pub const INNERMOST_KEPT: usize = 3;

/// Whether each frame of a trace stays, given whether each is library code
/// (outermost first, the innermost last): the innermost always; a library
/// frame never otherwise; the project's own frames all in a short trace,
/// and in a long one the outermost and innermost of them and the last
/// [`INNERMOST_KEPT`].
pub fn kept_frames(library: &[bool]) -> Vec<bool> {
    let Some(last) = library.len().checked_sub(1) else {
        return Vec::new();
    };
    let long = library.len() > LONG_TRACE;
    let outermost_own = library.iter().position(|l| !l);
    let innermost_own = library.iter().rposition(|l| !l);
    (0..library.len())
        .map(|k| {
            k == last
                || !library[k]
                    && (!long
                        || k + INNERMOST_KEPT > last
                        || Some(k) == outermost_own
                        || Some(k) == innermost_own)
        })
        .collect()
}

/// A frame's place without its line and column: `heap.c` of `heap.c:6`,
/// `/app/x.js` of `/app/x.js:1:2` (both compressors read frames' places
/// by it).
pub fn without_line_and_column(place: &str) -> &str {
    let mut path = place;
    for _ in 0..2 {
        match path.rsplit_once(':') {
            Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                path = head
            }
            _ => break,
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_trace_keeps_its_own_frames_and_the_innermost() {
        assert_eq!(
            kept_frames(&[true, false, true, false, true]),
            vec![false, true, false, true, true]
        );
        assert!(kept_frames(&[]).is_empty());
    }

    #[test]
    fn a_long_trace_keeps_where_own_code_was_entered_and_left() {
        let mut library = vec![true];
        library.extend([false; 10]);
        library.push(true);
        let kept = kept_frames(&library);
        // Library entry folds; own entry (1) stays; the middle folds; the
        // last three stay (9, 10 and the innermost library frame 11).
        assert_eq!(
            kept,
            vec![
                false, true, false, false, false, false, false, false, false, true, true, true
            ]
        );
    }
}
