//! Digests: the checksums and content hashes tools print (`sha256:<hex>`,
//! go.sum's `h1:<base64>=`, npm's `sha512-<base64>`). Opaque: two that
//! differ in one letter are unrelated, and nobody reads one for its
//! letters; what a digest sums (a package, a version) is named beside it.

/// Fewest characters of a digest (a 64-bit hash in hex).
pub const MIN_DIGEST_LEN: usize = 16;

/// Whether `field` is a digest, an algorithm's name before it or not
/// (`sha256:…`, `h1:…=`, `sha512-…`): hex (see [`is_hex_digest`]) or
/// base64 (see [`is_base64_digest`]).
pub fn is_digest(field: &str) -> bool {
    let value = field
        .rsplit([':', '='])
        .find(|s| !s.is_empty())
        .unwrap_or("");
    is_hex_digest(value) || is_base64_digest(value)
}

/// A hex digest: at least [`MIN_DIGEST_LEN`] hex digits, with both
/// letters and digits.
pub fn is_hex_digest(field: &str) -> bool {
    field.len() >= MIN_DIGEST_LEN
        && field.bytes().all(|b| b.is_ascii_hexdigit())
        && field.bytes().any(|b| b.is_ascii_digit())
        && field.bytes().any(|b| b.is_ascii_alphabetic())
}

/// A base64 digest (`RYM6lWITV8oADrwLfdzxmt8ucfW6UtP9v1jg4qAbqts=`): at
/// least 20 characters of base64 (or its URL-safe alphabet) before its
/// padding, of both cases, with digits in three places or more, as random
/// bytes encode; a name in camel case has its digits, if any, in one or
/// two places.
pub fn is_base64_digest(field: &str) -> bool {
    let body = field.trim_end_matches('=').as_bytes();
    if body.len() < 20
        || !body
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'_' | b'-'))
    {
        return false;
    }
    let digit_runs = (0..body.len())
        .filter(|&i| body[i].is_ascii_digit() && (i == 0 || !body[i - 1].is_ascii_digit()))
        .count();
    digit_runs >= 3
        && body.iter().any(u8::is_ascii_uppercase)
        && body.iter().any(u8::is_ascii_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_with_or_without_their_algorithm() {
        assert!(is_digest("h1:RYM6lWITV8oADrwLfdzxmt8ucfW6UtP9v1jg4qAbqts="));
        assert!(is_digest(
            "2c42aad9ed60e24046fbf5720f438884942897197cb790ce58cccdacedd9532d"
        ));
        assert!(is_digest(
            "sha256:b4ce2265a7abece45e7cc896e98dbebe6cead56bcf805a3d23136d145f5445bf"
        ));
        assert!(is_digest(
            "sha512-Hh3rjpDosVbmzTQRxMg2QMWBRHnnNrx/dH3yHmb2Z+eQmcWP3k6Qm9YnTdw4GV5qu3kUzYbsP7rHH4PDj1+YMQ=="
        ));
        assert!(!is_digest("v0.0.2"));
        assert!(!is_digest("HttpServerConfigurationBuilder2"));
        assert!(!is_digest("deadbeef"));
        assert!(!is_digest("github.com/Azure/go-autorest"));
    }
}
