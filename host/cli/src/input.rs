//! Reading the text a user hands ghost (a file or stdin), with one-line errors
//! that name the problem: a directory, a binary file, invalid UTF-8, a file
//! that is not there.

use std::io::Read;
use std::path::Path;

/// Why an input could not be used as text.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The path names a directory.
    #[error("{0} is a directory; give a file, or - for standard input")]
    Directory(String),
    /// The file could not be opened or read.
    #[error("cannot read {path}: {reason}")]
    Unreadable {
        /// The file.
        path: String,
        /// The operating system's reason.
        reason: String,
    },
    /// It holds NUL bytes: not text.
    #[error("{0} looks like a binary file (it contains NUL bytes); ghost compresses text")]
    Binary(String),
    /// It is not valid UTF-8.
    #[error(
        "{name} is not valid UTF-8 (first bad byte at offset {offset}); convert it with iconv first"
    )]
    NotUtf8 {
        /// The file.
        name: String,
        /// Where the first invalid byte is.
        offset: usize,
    },
}

/// Reads `path` (`None` or `-` for stdin) as UTF-8 text.
pub fn read_text(path: Option<&str>) -> Result<String, InputError> {
    let (name, bytes) = match path {
        None | Some("-") => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| InputError::Unreadable {
                    path: "standard input".into(),
                    reason: e.to_string(),
                })?;
            ("standard input".to_string(), buf)
        }
        Some(p) => {
            if Path::new(p).is_dir() {
                return Err(InputError::Directory(p.to_string()));
            }
            let bytes = std::fs::read(p).map_err(|e| InputError::Unreadable {
                path: p.to_string(),
                reason: strip_os_error(&e),
            })?;
            (p.to_string(), bytes)
        }
    };
    text_from_bytes(name, bytes)
}

/// Checks `bytes` are text: no NUL byte, valid UTF-8.
pub fn text_from_bytes(name: String, bytes: Vec<u8>) -> Result<String, InputError> {
    if bytes.contains(&0) {
        return Err(InputError::Binary(name));
    }
    String::from_utf8(bytes).map_err(|e| InputError::NotUtf8 {
        name,
        offset: e.utf8_error().valid_up_to(),
    })
}

/// "No such file or directory" rather than "No such file or directory (os error 2)".
fn strip_os_error(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}
