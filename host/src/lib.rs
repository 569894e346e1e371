//! ghost, the context gardener for AI coding agents.
//!
//! The binary (`main.rs`) is a thin command line over this library:
//! - [`runtime`]: the sandboxed WebAssembly plugin runtime;
//! - [`builtin`]: the built-in classifier and compressors, embedded components;
//! - [`pipeline`]: classify → compress, fail-open, for one text;
//! - [`content`]: ghost's own types for classes, requests and results;
//! - [`input`]: reading a user's file or stdin with clear errors;
//! - [`tokens`], [`paths`], [`logging`]: the supporting pieces.

pub mod builtin;
pub mod content;
pub mod corpus;
pub mod input;
pub mod logging;
pub mod paths;
pub mod pipeline;
pub mod runtime;
pub mod tokens;
