//! ghost, the context gardener for AI coding agents.
//!
//! The binary (`main.rs`) is a thin command line over this library:
//! - [`runtime`]: the sandboxed WebAssembly plugin runtime;
//! - [`builtin`]: the built-in classifier and compressors, embedded components;
//! - [`pipeline`]: classify → compress, fail-open, for one text;
//! - [`content`]: ghost's own types for classes, requests and results;
//! - [`store`]: the SQLite store of originals, with full-text recall;
//! - [`ingest`]: classify → compress → store, the path the hooks take;
//! - [`mcp`]: the MCP server (`ghost serve`);
//! - [`hooks`]: the Claude Code hook entry points (`ghost hook <event>`);
//! - [`excerpt`]: numbered line ranges of an original;
//! - [`config`]: the configuration file;
//! - [`install`], [`doctor`]: ghost in Claude Code's settings, and checking it;
//! - [`input`]: reading a user's file or stdin with clear errors;
//! - [`tokens`], [`paths`], [`logging`]: the supporting pieces.

pub mod bench;
pub mod builtin;
pub mod config;
pub mod content;
pub mod corpus;
pub mod doctor;
pub mod excerpt;
pub mod hooks;
pub mod ingest;
pub mod input;
pub mod install;
pub mod logging;
pub mod mcp;
pub mod paths;
pub mod pipeline;
pub mod plugins;
pub mod render;
pub mod runtime;
pub mod store;
pub mod tokens;
