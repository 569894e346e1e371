//! ghost's core service: everything between a text and the store that does
//! not depend on which agent or protocol brought the text in.
//!
//! - [`builtin`]: the built-in classifier and compressors, embedded components;
//! - [`pipeline`]: classify → compress for one text, installed plugins by
//!   priority then the built-in, fail-open;
//! - [`plugins`]: adding a third-party plugin (checks, smoke test), which
//!   plugin serves which class, scaffolding a plugin project;
//! - [`ingest`]: classify → compress → store, idempotently, and the handle
//!   line the agent sees;
//! - [`service`]: the typed API over the store: recall, get, pressure,
//!   forget, stats, gc, maintenance;
//! - [`checkpoint`]: checkpoints before compaction, written atomically,
//!   verified, indexed;
//! - [`memory`]: per-project memory files (MEMORY.md, daily logs) and
//!   their search index;
//! - [`retention`]: how long each class is kept, how big the store may grow;
//! - [`tasks`]: an agent's task run in the sandbox with grants bounded by
//!   the user's `[tasks]`, its output stored through the pipeline;
//! - [`render`]: the service's answers as text for people and agents;
//! - [`excerpt`]: numbered line ranges of an original;
//! - [`tokens`]: token counting (o200k_base) and its cheap estimate;
//! - [`config`], [`paths`]: ghost's configuration file and directories.
//!
//! Logging goes through the `log` facade (targets `ghost_core::…`); the
//! binary decides where lines go.

pub mod builtin;
pub mod checkpoint;
pub mod config;
pub mod excerpt;
pub mod ingest;
pub mod memory;
pub mod paths;
pub mod pipeline;
pub mod plugins;
pub mod render;
pub mod retention;
pub mod service;
pub mod spawned_tasks;
pub mod tasks;
pub mod tokens;
