//! Substring search for short lines and short needles, the shape of nearly
//! every search the folding makes (is `" passed"` in this line?).
//!
//! `str::contains(&str)` prepares a two-way searcher for each call (and only
//! x86-64 builds have a vector fast path), so inside the WebAssembly sandbox
//! the preparation cost more than the search itself: a third of the
//! compressor's time on small logs went to it. Scanning for the needle's
//! first byte and comparing the rest prepares nothing, and on a line of a
//! few hundred bytes and a needle of a few words it is as quick as any.

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
}

impl Search for str {
    fn has(&self, needle: &str) -> bool {
        self.find_str(needle).is_some()
    }

    fn find_str(&self, needle: &str) -> Option<usize> {
        let (h, n) = (self.as_bytes(), needle.as_bytes());
        let Some((&first, rest)) = n.split_first() else {
            return Some(0);
        };
        let last_start = h.len().checked_sub(n.len())?;
        let mut i = 0;
        while i <= last_start {
            i += h[i..=last_start].iter().position(|&b| b == first)?;
            if &h[i + 1..i + n.len()] == rest {
                return Some(i);
            }
            i += 1;
        }
        None
    }

    fn split_around(&self, needle: &str) -> Option<(&str, &str)> {
        let at = self.find_str(needle)?;
        Some((&self[..at], &self[at + needle.len()..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_str_find_finds() {
        let hays = [
            "",
            "a",
            "ab",
            "aab",
            "Tests run: 3",
            "x  Tests run:",
            "éé passed",
            "pass",
        ];
        let needles = ["", "a", "ab", "b", "Tests run:", " passed", "é", "passed"];
        for hay in hays {
            for needle in needles {
                assert_eq!(hay.find_str(needle), hay.find(needle), "{hay:?} {needle:?}");
                assert_eq!(hay.split_around(needle), hay.split_once(needle));
                assert_eq!(hay.has(needle), hay.contains(needle));
            }
        }
    }
}
