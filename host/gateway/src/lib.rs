//! `ghost gateway` and `ghost run`: ghost on the model API's request path.
//!
//! - [`dialect`]: a request body parsed into blocks that know their bytes;
//! - [`splice`]: edits as byte-range splices of the original body.
pub mod dialect;
pub mod splice;
