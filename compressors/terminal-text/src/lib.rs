//! Terminal noise removal, shared by the built-in compressors: ANSI escape
//! sequences and carriage-return overwrites (progress bars), so what is
//! compared and kept is what a person saw on the screen.

/// `text` without ANSI escape sequences (CSI `ESC [ … final`, OSC
/// `ESC ] … BEL|ST`, and two-byte `ESC x`). Returns the input unchanged when
/// there is nothing to strip.
pub fn strip_ansi(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('[') => {
                chars.next();
                // Parameters and intermediates, then one final byte in @..~.
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                chars.next();
                while let Some(c) = chars.next() {
                    if c == '\u{7}' {
                        break;
                    }
                    if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                        chars.next();
                        break;
                    }
                }
            }
            Some(_) => {
                chars.next();
            }
            None => {}
        }
    }
    std::borrow::Cow::Owned(out)
}

/// What a terminal would show for one line: a trailing `\r` (CRLF) dropped,
/// and for a line redrawn with `\r` (a progress bar) only its last state.
pub fn last_redraw(line: &str) -> &str {
    let line = line.strip_suffix('\r').unwrap_or(line);
    match line.rfind('\r') {
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
    fn keeps_last_progress_state() {
        assert_eq!(last_redraw("10%\r50%\r100%"), "100%");
        assert_eq!(last_redraw("done\r"), "done");
        assert_eq!(last_redraw("a\r"), "a");
    }
}
