//! Substring search for short lines and short needles, the shape of nearly
//! every search the folding makes (is `" passed"` in this line?).
//!
//! `str::contains(&str)` prepares a two-way searcher for each call (and only
//! x86-64 builds have a vector fast path), so inside the WebAssembly sandbox
//! the preparation cost more than the search itself: a third of the
//! compressor's time on small logs went to it. Scanning for one byte of the
//! needle and comparing the rest prepares nothing, and on a line of a few
//! hundred bytes and a needle of a few words it is as quick as any. The
//! byte looked for is the needle's first that is not a space (`" passed"`
//! stops at each `p`, not at each space), found by `memchr` (vectorised,
//! in the sandbox too: guests are built with SIMD).

/// The searches of this module as methods of `str`, named apart from
/// `str`'s own (`has`, `find_str`, `split_around`) so that a call says which
/// it makes.
pub trait Search {
    /// Whether `needle` is in the text.
    fn has(&self, needle: &str) -> bool;
    /// The byte offset of the first `needle` in the text.
    fn find_str(&self, needle: &str) -> Option<usize>;
    /// The text split around the first `needle`, as [`str::split_once`].
    fn split_around(&self, needle: &str) -> Option<(&str, &str)>;
    /// The byte offset of the last `needle` in the text.
    fn rfind_str(&self, needle: &str) -> Option<usize>;
    /// The text split around the last `needle`, as [`str::rsplit_once`].
    fn rsplit_around(&self, needle: &str) -> Option<(&str, &str)>;
}

impl Search for str {
    fn has(&self, needle: &str) -> bool {
        self.find_str(needle).is_some()
    }

    fn find_str(&self, needle: &str) -> Option<usize> {
        let (h, n) = (self.as_bytes(), needle.as_bytes());
        if n.is_empty() {
            return Some(0);
        }
        // The needle's first byte that is not a space is looked for: a
        // needle such as `" passed"` would otherwise stop at every space.
        let k = n.iter().position(|&b| b != b' ').unwrap_or(0);
        let anchor = n[k];
        let last_start = h.len().checked_sub(n.len())?;
        let mut start = 0;
        while start <= last_start {
            let at = start + memchr::memchr(anchor, &h[start + k..=last_start + k])?;
            if same_bytes(&h[at..at + n.len()], n) {
                return Some(at);
            }
            start = at + 1;
        }
        None
    }

    fn split_around(&self, needle: &str) -> Option<(&str, &str)> {
        let at = self.find_str(needle)?;
        Some((&self[..at], &self[at + needle.len()..]))
    }

    fn rfind_str(&self, needle: &str) -> Option<usize> {
        let (h, n) = (self.as_bytes(), needle.as_bytes());
        let last_start = h.len().checked_sub(n.len())?;
        if n.is_empty() {
            return Some(h.len());
        }
        // As in `find_str`, anchored on the needle's first byte that is
        // not a space, looked for from the end.
        let k = n.iter().position(|&b| b != b' ').unwrap_or(0);
        let anchor = n[k];
        let mut end = last_start + 1;
        while end > 0 {
            let at = memchr::memrchr(anchor, &h[k..end + k])?;
            if same_bytes(&h[at..at + n.len()], n) {
                return Some(at);
            }
            end = at;
        }
        None
    }

    fn rsplit_around(&self, needle: &str) -> Option<(&str, &str)> {
        let at = self.rfind_str(needle)?;
        Some((&self[..at], &self[at + needle.len()..]))
    }
}

/// The pieces of `text` between its `byte`s, as `str::split` with an ASCII
/// `byte` gives them, found by `memchr` (`str::split` scans a byte at a
/// time in the sandbox).
pub fn split_at_byte(text: &str, byte: u8) -> impl Iterator<Item = &str> {
    debug_assert!(byte.is_ascii());
    let mut start = 0;
    memchr::memchr_iter(byte, text.as_bytes())
        .chain(std::iter::once(text.len()))
        .map(move |end| {
            let piece = &text[start..end];
            start = end + 1;
            piece
        })
}

/// Whether `a` and `b`, of one length, hold the same bytes. The last byte
/// is compared first (a candidate found by its anchor seldom ends as the
/// needle does), then eight bytes at a time, inline: `==` on slices calls
/// the C library's `memcmp`, which in the sandbox compares byte by byte.
#[inline]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.last() != b.last() {
        return false;
    }
    let (mut a8, mut b8) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut a8).zip(&mut b8) {
        let word = |c: &[u8]| u64::from_ne_bytes(c.try_into().expect("eight bytes"));
        if word(x) != word(y) {
            return false;
        }
    }
    a8.remainder()
        .iter()
        .zip(b8.remainder())
        .all(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_str_find_and_rfind_find() {
        let hays = [
            "",
            "a",
            "ab",
            "aab",
            "Tests run: 3",
            "x  Tests run:",
            "éé passed",
            "pass",
            " ",
            "  a",
            "a  b ",
            " passed passed",
            "Tests run: 3, Failures: 0",
            "Tests run: 3, Failures: 1",
        ];
        let needles = [
            "",
            "a",
            "ab",
            "b",
            "Tests run:",
            " passed",
            "é",
            "passed",
            " ",
            "  ",
            " a",
            "a ",
            "  b",
            "Tests run: 3, Failures: 1",
            "Failures: 0",
        ];
        for hay in hays {
            for needle in needles {
                assert_eq!(hay.find_str(needle), hay.find(needle), "{hay:?} {needle:?}");
                assert_eq!(hay.split_around(needle), hay.split_once(needle));
                assert_eq!(
                    hay.rfind_str(needle),
                    hay.rfind(needle),
                    "{hay:?} {needle:?}"
                );
                assert_eq!(hay.rsplit_around(needle), hay.rsplit_once(needle));
                assert_eq!(hay.has(needle), hay.contains(needle));
                if let [b] = needle.as_bytes() {
                    assert_eq!(
                        split_at_byte(hay, *b).collect::<Vec<_>>(),
                        hay.split(char::from(*b)).collect::<Vec<_>>()
                    );
                }
                assert_eq!(same_bytes(hay.as_bytes(), needle.as_bytes()), hay == needle);
            }
        }
    }
}
