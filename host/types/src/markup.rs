//! Headings of document markups beyond Markdown's, told line by line: the
//! prose compressor keeps them, and the classifier reads a text that has
//! them as a document.

/// The characters reStructuredText draws a title's underline and overline
/// with (Markdown's `=` and `-` among them).
const TITLE_RULE_CHARS: &[u8] = b"=-~^*#\"+`:.'_";

/// Whether `rule` is a line of one of reStructuredText's title characters,
/// at least three and at least as long as `title`, a line with a letter or
/// digit: the underline (or overline) of a section title. A Markdown rule
/// (`***`) under a longer paragraph line is not one, nor are carets under
/// part of a line of code.
pub fn is_title_rule(rule: &str, title: &str) -> bool {
    let r = rule.trim_end().as_bytes();
    let title = title.trim();
    r.len() >= 3
        && TITLE_RULE_CHARS.contains(&r[0])
        && r.iter().all(|&c| c == r[0])
        && r.len() >= title.chars().count()
        && title.bytes().any(|c| c.is_ascii_alphanumeric())
}

/// Whether `line` is POD's heading command at the margin: `=head1 NAME`
/// to `=head4 …`.
pub fn is_pod_heading(line: &str) -> bool {
    line.strip_prefix("=head")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_rules_and_pod_headings() {
        assert!(is_title_rule("~~~~~", "Usage"));
        assert!(is_title_rule("******************", ":mod:`x` --- Tools"));
        assert!(!is_title_rule("~~~", "Usage"));
        assert!(!is_title_rule("***", "A paragraph line that is long"));
        assert!(!is_title_rule("^^^^^^", "x = f(y)  # long enough"));
        assert!(!is_title_rule("=====", "====="));
        assert!(is_pod_heading("=head2 Module Installation"));
        assert!(!is_pod_heading("=header"));
        assert!(!is_pod_heading(" =head1 NAME"));
    }
}
