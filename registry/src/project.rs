//! A plugin author's project manifest (`ghost-plugin.toml` in the project's
//! folder), which `ghost plugin add <dir>` reads.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{ManifestError, RegistryError};
use crate::manifest::{Limits, valid_id, validate_version};

/// The project manifest's file name.
pub const PROJECT_FILE: &str = "ghost-plugin.toml";

/// What an author declares about a plugin.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Project {
    /// The plugin's id.
    pub id: String,
    /// Its version.
    pub version: String,
    /// The classes it compresses (none for a classifier).
    #[serde(default)]
    pub classes: Vec<ghost_types::ContentClass>,
    /// Its priority (default 0).
    #[serde(default)]
    pub priority: i32,
    /// The built component, relative to the project's folder.
    pub component: PathBuf,
    /// The limits it asks for.
    #[serde(default)]
    pub limits: Limits,
}

impl Project {
    /// Reads `dir/ghost-plugin.toml`.
    pub fn read(dir: &Path) -> Result<Self, RegistryError> {
        let path = dir.join(PROJECT_FILE);
        let text = std::fs::read_to_string(&path).map_err(RegistryError::io("reading", &path))?;
        Self::parse(&text).map_err(|problem| RegistryError::Manifest { path, problem })
    }

    /// Parses and checks a project manifest's text.
    pub fn parse(text: &str) -> Result<Self, ManifestError> {
        let p: Self = toml::from_str(text).map_err(|e| ManifestError::Syntax(e.to_string()))?;
        if !valid_id(&p.id) {
            return Err(ManifestError::invalid(
                "id",
                format!("{:?} is not a valid id", p.id),
            ));
        }
        validate_version(&p.version)?;
        p.limits.validate()?;
        Ok(p)
    }
}
