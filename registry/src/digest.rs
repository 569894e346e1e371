//! Content digests: the blake3 hash that names a plugin's bytes everywhere.

use std::fmt;
use std::str::FromStr;

/// The blake3 digest of a component's bytes, the only name ghost trusts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest([u8; 32]);

/// A string that is not a 64-character lowercase hex digest.
#[derive(Debug, thiserror::Error)]
#[error("not a blake3 digest (64 hex characters): {0:?}")]
pub struct DigestParseError(String);

impl Digest {
    /// Hashes `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        Self(*blake3::hash(bytes).as_bytes())
    }

    /// The digest as raw bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The full digest as 64 lowercase hex characters, safe as a file name.
    pub fn to_hex(&self) -> String {
        blake3::Hash::from_bytes(self.0).to_hex().to_string()
    }

    /// The first 12 hex characters, for people.
    pub fn short(&self) -> String {
        self.to_hex()[..12].to_string()
    }
}

impl From<[u8; 32]> for Digest {
    fn from(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }
}

impl FromStr for Digest {
    type Err = DigestParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let is_hex = s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if !is_hex {
            return Err(DigestParseError(s.to_string()));
        }
        blake3::Hash::from_hex(s)
            .map(|h| Self(*h.as_bytes()))
            .map_err(|_| DigestParseError(s.to_string()))
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({})", self.short())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_rejects_garbage() {
        let d = Digest::of(b"ghost");
        assert_eq!(d.to_hex().parse::<Digest>().unwrap(), d);
        assert_eq!(d.short().len(), 12);
        assert_ne!(Digest::of(b"ghost"), Digest::of(b"ghosT"));
        assert!("xyz".parse::<Digest>().is_err());
        assert!(d.to_hex().to_uppercase().parse::<Digest>().is_err());
    }
}
