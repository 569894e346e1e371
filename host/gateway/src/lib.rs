//! `ghost gateway` and `ghost run`: ghost on the model API's request path.
//!
//! - [`dialect`]: a request body parsed into blocks that know their bytes;
//! - [`gardener`]: what changes in a request: results shown shorter on
//!   arrival, earlier rewrites replayed byte for byte, garbage-collection
//!   steps as the context fills;
//! - [`results`]: a tool result as the model reads it, taken apart for the
//!   hooks' policy and put back around a shorter text;
//! - [`splice`]: edits as byte-range splices of the original body.
pub mod dialect;
pub mod gardener;
pub mod results;
pub mod splice;
