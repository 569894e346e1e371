//! Terminal noise removal, shared by the built-in compressors: ANSI escape
//! sequences and carriage-return overwrites (progress bars), so what is
//! compared and kept is what a person saw on the screen.

/// `text` without ANSI escape sequences (CSI `ESC [ … final`, OSC
/// `ESC ] … BEL|ST`, and two-byte `ESC x`). Returns the input unchanged when
/// there is nothing to strip.
pub fn strip_ansi(text: &str) -> std::borrow::Cow<'_, str> {
    // (`memchr` is vectorised in the sandbox too; `str::contains` is not.)
    if memchr::memchr(0x1b, text.as_bytes()).is_none() {
        return std::borrow::Cow::Borrowed(text);
    }
    // Text between escapes is copied a run at a time (an escape is ASCII,
    // so every cut falls between two characters).
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(found) = memchr::memchr(0x1b, &b[i..]) {
        let escape = i + found;
        out.push_str(&text[i..escape]);
        let mut j = escape + 1;
        match b.get(j) {
            Some(b'[') => {
                // Parameters and intermediates, then one final byte in @..~.
                j += 1;
                while j < b.len() {
                    j += 1;
                    if (b'@'..=b'~').contains(&b[j - 1]) {
                        break;
                    }
                }
            }
            Some(b']') => {
                // An operating system command, to BEL or ESC \.
                j += 1;
                while j < b.len() {
                    if b[j] == 0x07 {
                        j += 1;
                        break;
                    }
                    if b[j] == 0x1b && b.get(j + 1) == Some(&b'\\') {
                        j += 2;
                        break;
                    }
                    j += 1;
                }
            }
            Some(_) => j += text[j..].chars().next().map_or(1, char::len_utf8),
            None => {}
        }
        i = j;
    }
    out.push_str(&text[i..]);
    std::borrow::Cow::Owned(out)
}

/// What a terminal would show for one line: a trailing `\r` (CRLF) dropped,
/// and for a line redrawn with `\r` (a progress bar) only its last state.
pub fn last_redraw(line: &str) -> &str {
    let line = line.strip_suffix('\r').unwrap_or(line);
    match memchr::memrchr(b'\r', line.as_bytes()) {
        Some(i) if !line[i + 1..].trim().is_empty() => &line[i + 1..],
        Some(i) => line[..i]
            .rsplit('\r')
            .find(|s| !s.trim().is_empty())
            .unwrap_or(""),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_colour_and_osc() {
        assert_eq!(strip_ansi("\u{1b}[1;31merror\u{1b}[0m: x"), "error: x");
        assert_eq!(strip_ansi("\u{1b}]0;title\u{7}ok"), "ok");
        assert_eq!(strip_ansi("plain"), "plain");
    }

    #[test]
    fn odd_escapes_end_where_a_character_ends() {
        // Unterminated sequences run to the end; an escape before a
        // character of several bytes drops that whole character.
        assert_eq!(strip_ansi("a\u{1b}[1;3"), "a");
        assert_eq!(strip_ansi("a\u{1b}]0;t\u{1b}x\u{1b}\\b"), "ab");
        assert_eq!(strip_ansi("a\u{1b}]0;title"), "a");
        assert_eq!(strip_ansi("a\u{1b}éb"), "ab");
        assert_eq!(strip_ansi("a\u{1b}[1é;2mb"), "ab");
        assert_eq!(strip_ansi("a\u{1b}"), "a");
        // An escape then an escape: the second is what the first escaped.
        assert_eq!(strip_ansi("\u{1b}\u{1b}[0mé\u{1b}(B"), "[0méB");
    }

    #[test]
    fn keeps_last_progress_state() {
        assert_eq!(last_redraw("10%\r50%\r100%"), "100%");
        assert_eq!(last_redraw("done\r"), "done");
        assert_eq!(last_redraw("a\r"), "a");
    }
}
