//! ghost's plugin registry library.
//!
//! Plugins are stored and cached by the blake3 digest of their bytes, never by
//! a name a user or a plugin chooses. This crate holds that content addressing;
//! install, verify, list and remove build on it.

mod digest;

pub use digest::{Digest, DigestParseError};
