//! Which frames of a stack trace a reader needs, whatever printed it
//! (Python's `Traceback`, pytest's short frames): the innermost, where the
//! exception was raised; the project's own frames, not the libraries' it
//! called through; and in a long trace only where the project's code was
//! entered and left, not every call between (as the error compressor does)
//! — unless the log is long enough that the whole trace is a small part of
//! it (see [`Allowance`]).

use crate::search::Search;

use crate::pytest_tb::Role;

/// A trace longer than this many frames folds its middle, the project's own
/// frames included.
pub const LONG_TRACE: usize = 8;

/// Frames kept at the raising end of a long trace.
pub const INNERMOST_KEPT: usize = 3;

/// The share of a log's bytes that the frames [`kept_frames`] leaves out
/// may take, all traces together, for their traces to stay whole: in a
/// long log a crash's trace is a small part of it, and whoever reads the
/// crash reads every frame (a library frame too may be where it went
/// wrong). First come, first kept: the traces under failing tests and
/// the unannounced ones, then pytest's, Python's, g++'s instantiation
/// chains and the native traces, each kind in the log's order (see
/// `fold::Analysis::of`).
pub const WHOLE_TRACE_SHARE: f64 = 0.02;

/// What a log affords of the frames [`kept_frames`] leaves out (see
/// [`WHOLE_TRACE_SHARE`]), spent trace by trace.
#[derive(Debug, Clone)]
pub struct Allowance {
    left: usize,
}

impl Allowance {
    /// [`WHOLE_TRACE_SHARE`] of the bytes of `contents`.
    pub fn of(contents: &[&str]) -> Self {
        let bytes: usize = contents.iter().map(|c| c.len() + 1).sum();
        Self {
            left: (bytes as f64 * WHOLE_TRACE_SHARE) as usize,
        }
    }

    /// Nothing: every trace keeps only what [`kept_frames`] keeps.
    pub fn none() -> Self {
        Self { left: 0 }
    }

    /// Whether `bytes` more of frames fit, spending them if they do.
    pub fn affords(&mut self, bytes: usize) -> bool {
        let fits = bytes <= self.left;
        if fits {
            self.left -= bytes;
        }
        fits
    }
}

/// Each frame's role in a trace, given whether each is library code and
/// its size in bytes (outermost first): `Kept` for what [`kept_frames`]
/// keeps; for the others `Whole` when the log affords them (the whole
/// trace stays; see [`Allowance`]), else `Other`.
pub fn frame_roles(library: &[bool], bytes: &[usize], allowance: &mut Allowance) -> Vec<Role> {
    let kept = kept_frames(library);
    let left_out: usize = kept
        .iter()
        .zip(bytes)
        .filter(|(kept, _)| !**kept)
        .map(|(_, b)| b)
        .sum();
    let whole = left_out > 0 && allowance.affords(left_out);
    kept.into_iter()
        .map(|kept| match (kept, whole) {
            (true, _) => Role::Kept,
            (false, true) => Role::Whole,
            (false, false) => Role::Other,
        })
        .collect()
}

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
        match path.rsplit_around(":") {
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
    fn a_trace_stays_whole_while_the_log_affords_it() {
        // A 1,000-byte log affords 20 bytes of left-out frames.
        let log = ["x".repeat(999)];
        let lines: Vec<&str> = log.iter().map(String::as_str).collect();
        let mut allowance = Allowance::of(&lines);
        let library = [true, false, true];
        use Role::*;
        assert_eq!(
            frame_roles(&library, &[12, 50, 30], &mut allowance),
            vec![Whole, Kept, Kept]
        );
        // 8 bytes are left: the next trace's 10 do not fit.
        assert_eq!(
            frame_roles(&library, &[10, 50, 30], &mut allowance),
            vec![Other, Kept, Kept]
        );
        assert_eq!(
            frame_roles(&library, &[8, 50, 30], &mut allowance),
            vec![Whole, Kept, Kept]
        );
        let mut none = Allowance::none();
        assert_eq!(
            frame_roles(&library, &[1, 50, 30], &mut none),
            vec![Other, Kept, Kept]
        );
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
