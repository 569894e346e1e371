//! Backtraces that count their calls and print each call in parentheses,
//! as Lisp-family runtimes do: SBCL (`4: (PARSE-AMOUNT "n/a")`, counting up
//! from the innermost) and Guile (`     4:11  4 (total-of _)`, its place
//! first, counting down to the innermost, under a line naming the file
//! the calls are in: `In /src/prices.scm:`). The classifier reads such a
//! trace as a crash's, the error compressor folds the runtime's calls.

use crate::search::Search;

/// The number of a counted call: a number (after the call's place,
/// `line:col`, if any) then the call, parenthesised; SBCL puts a colon
/// after the number.
pub fn number(line: &str) -> Option<u32> {
    let mut t = line.trim_ascii_start();
    let first = t.split_whitespace().next()?;
    if is_line_and_column(first) {
        t = t[first.len()..].trim_ascii_start();
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &t[digits..];
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    let call = rest.strip_prefix(' ')?.trim_ascii_start();
    (digits > 0 && call.starts_with('(')).then(|| t[..digits].parse().ok())?
}

/// The file Guile names above the counted calls made in it (`In
/// ice-9/boot-9.scm:`, `In unknown file:`), when `next` is such a call.
pub fn file_above<'a>(line: &'a str, next: &str) -> Option<&'a str> {
    let file = line.strip_prefix("In ")?.strip_suffix(':')?;
    (!file.is_empty() && number(next).is_some()).then_some(file)
}

/// `1752:10`: a line and a column.
fn is_line_and_column(word: &str) -> bool {
    word.split_around(":").is_some_and(|(line, col)| {
        [line, col]
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_counted_after_their_place_and_files_named_above_them() {
        assert_eq!(number("  1752:10  9 (with-exception-handler _ _)"), Some(9));
        assert_eq!(number("           8 (apply-smob/0 #<thunk 7f66>)"), Some(8));
        assert_eq!(number("12: (LOAD #<FD-STREAM>)"), Some(12));
        assert_eq!(number("see (2)"), None);
        assert_eq!(number("12:5 error (x)"), None);
        assert_eq!(
            file_above("In ice-9/boot-9.scm:", "    724:2  7 (call-with-prompt _)"),
            Some("ice-9/boot-9.scm")
        );
        assert_eq!(file_above("In short:", "nothing counted"), None);
    }
}
