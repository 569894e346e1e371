//! ghost's shared vocabulary: the content class, the requests a classifier
//! and a compressor get and what they answer, and the extension → class
//! table. Everything here is plain data: no I/O, nothing host-only, so the
//! built-in classifier (a WebAssembly guest) uses it as the host does.
//!
//! - [`ContentClass`]: log, code, structured, prose, error, prompt;
//! - [`CompressRequest`], [`Compressed`], [`ClassifyRequest`],
//!   [`Classification`]: a plugin call's input and output, and when an
//!   answer is [`clearly_smaller`] than its input;
//! - [`class_of_path`]: a file's class by its extension;
//! - [`command::file_shown`]: the file a shell command prints;
//! - [`document`]: TOML, YAML, INI and delimited tables told by their lines.

mod class;
pub mod command;
pub mod digest;
pub mod document;
mod extension;
pub mod markup;
mod request;

pub use class::{ContentClass, UnknownClass};
pub use extension::{
    EXTENSIONS, PathHint, WEAK_EXTENSIONS, class_of_extension, class_of_path, hint_of_path,
    telling_path,
};
pub use request::{
    Classification, ClassifyRequest, CompressRequest, Compressed, MAX_KEPT_PERCENT,
    clearly_smaller, estimated_tokens, tokens_in_bytes,
};
