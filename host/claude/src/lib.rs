//! ghost in Claude Code: the hooks (`ghost hook <event>`), installing them
//! into Claude Code's settings, and checking an installation.
//!
//! - [`payload`]: the hook payloads Claude Code sends, as serde types;
//! - [`tools`]: the one table of tools whose results the hook handles, from
//!   which the dispatch and the installed matcher are derived;
//! - [`response`]: a tool response's text out, a shorter one back in, in the
//!   tool's own shape; and how Claude Code renders a response for the model;
//! - [`hooks`]: the entry points, one per event;
//! - [`replacement`]: what the model sees in place of a result, decided on
//!   its text (the hook and the gateway share it);
//! - [`seen`]: what the agent already has in its context (re-reads, repeats);
//! - [`checkpoint`]: a checkpoint's sections from the transcript, by rules;
//! - [`continuity`]: the checkpoint at PreCompact and the context restored
//!   at SessionStart;
//! - [`flush`]: the one nudge per compaction cycle to save memories when
//!   the context is nearly full;
//! - [`file_list`]: the digest of long file lists;
//! - [`state`]: the status line, the state block before compaction and the
//!   context after it;
//! - [`transcript`]: the session's transcript: the latest context size
//!   from its tail, its items for checkpoints and inspection;
//! - [`policy`]: every threshold, with its reason;
//! - [`inspect`]: what fills a session's context (`ghost context`);
//! - [`install`], [`doctor`]: ghost in Claude Code's settings (and the
//!   plugin's generated files), and checking it.
//!
//! Everything Claude Code-specific lives here; the service underneath is
//! `ghost-core`. A hook never breaks the agent: on any failure the original
//! goes through and the reason is logged (the `log` facade).

pub mod checkpoint;
pub mod continuity;
pub mod doctor;
pub mod file_list;
pub mod flush;
pub mod hooks;
pub mod inspect;
pub mod install;
pub mod payload;
pub mod policy;
pub mod replacement;
pub mod response;
pub mod seen;
pub mod state;
pub mod tools;
pub mod transcript;
