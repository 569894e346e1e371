//! `ghost gateway` and `ghost run`: ghost on the model API's request path.
//!
//! A local server between the agent and the model API sees every request
//! and gardens the whole context window: new results shown shorter,
//! earlier rewrites replayed byte for byte (the prompt cache keeps its
//! prefix), old content collected in steps as the context fills. Everything
//! it does not change reaches upstream as the agent sent it.
//!
//! - [`dialect`]: a request body parsed into blocks that know their bytes;
//! - [`splice`]: edits as byte-range splices of the original body;
//! - [`results`]: a tool result as the model reads it, taken apart for the
//!   hooks' policy and put back around a shorter text;
//! - [`gardener`]: what changes in a request: results shown shorter on
//!   arrival, earlier rewrites replayed byte for byte, garbage-collection
//!   steps as the context fills;
//! - [`worker`]: the gardener on a thread of its own;
//! - [`usage`]: the context size read off upstream's answers;
//! - [`server`]: the HTTP side: listen, forward, stream back;
//! - [`run`]: a gateway for the life of one agent command.

pub mod dialect;
pub mod gardener;
pub mod results;
pub mod run;
pub mod server;
pub mod splice;
pub mod usage;
pub mod worker;
