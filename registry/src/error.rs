//! The registry's errors.

use std::path::PathBuf;

/// A manifest that is not acceptable.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// Not TOML, or a field ghost does not know, or a missing one.
    #[error("{0}")]
    Syntax(String),
    /// A field with a value ghost refuses.
    #[error("{field}: {reason}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
}

impl ManifestError {
    pub(crate) fn invalid(field: &'static str, reason: impl Into<String>) -> Self {
        Self::Invalid {
            field,
            reason: reason.into(),
        }
    }
}

/// Why a registry operation failed. Each message already says why in full,
/// so no variant names another error as its source: a chain printed with
/// `{:#}` never repeats itself.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// A file or directory could not be read or written.
    #[error("{action} {}: {error}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// Where.
        path: PathBuf,
        /// The OS error.
        error: std::io::Error,
    },
    /// A manifest (installed or a project's) is not acceptable.
    #[error("{}: {problem}", path.display())]
    Manifest {
        /// The manifest's file.
        path: PathBuf,
        /// What is wrong.
        problem: ManifestError,
    },
    /// No plugin with this id is installed.
    #[error("no plugin `{0}` is installed (see `ghost plugin list`)")]
    NotInstalled(String),
    /// The caller's check refused the component.
    #[error("{0}")]
    Refused(String),
}

impl RegistryError {
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |error| Self::Io {
            action,
            path,
            error,
        }
    }
}
