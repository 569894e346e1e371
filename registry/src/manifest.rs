//! `ghost-plugin.toml`: what an installed plugin is and what it may use.

use ghost_types::ContentClass;
use serde::{Deserialize, Serialize};

use crate::digest::Digest;
use crate::error::ManifestError;

/// The manifest's file name inside `installed/<id>/`.
pub const MANIFEST_FILE: &str = "ghost-plugin.toml";

/// The longest deadline a plugin may ask for, per call.
pub const MAX_DEADLINE_MS: u64 = 2_000;

/// The most memory a plugin may ask for, per call.
pub const MAX_MEMORY_MIB: u64 = 512;

/// Which world of the WIT contract a plugin implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum World {
    /// Exports `ghost:plugin/compress`.
    Compressor,
    /// Exports `ghost:plugin/classify`.
    Classifier,
}

impl World {
    /// The world's name.
    pub fn as_str(self) -> &'static str {
        match self {
            World::Compressor => "compressor",
            World::Classifier => "classifier",
        }
    }
}

/// Per-call resource limits a plugin asks for; `None`: the host's default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Wall-clock budget of one call, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
    /// Memory cap of one call, in MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_mib: Option<u64>,
}

impl Limits {
    /// Whether it asks for nothing (the host's defaults).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Refuses limits outside the host's maxima.
    pub fn validate(&self) -> Result<(), ManifestError> {
        if let Some(ms) = self.deadline_ms
            && !(1..=MAX_DEADLINE_MS).contains(&ms)
        {
            return Err(ManifestError::invalid(
                "limits.deadline_ms",
                format!("{ms} is outside 1..={MAX_DEADLINE_MS}"),
            ));
        }
        if let Some(mib) = self.memory_mib
            && !(1..=MAX_MEMORY_MIB).contains(&mib)
        {
            return Err(ManifestError::invalid(
                "limits.memory_mib",
                format!("{mib} is outside 1..={MAX_MEMORY_MIB}"),
            ));
        }
        Ok(())
    }
}

/// An installed plugin's manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Its id: lowercase letters, digits, `-`, `_`, `.`; at most 64.
    pub id: String,
    /// Its version, as its author names it.
    pub version: String,
    /// The world it implements.
    pub world: World,
    /// The `ghost:plugin` WIT version it targets (read from the component).
    pub wit: String,
    /// The blake3 digest of its bytes (64 hex characters).
    pub digest: String,
    /// The classes it compresses (none for a classifier), each one of
    /// [`ContentClass::COMPRESSIBLE`].
    #[serde(default)]
    pub classes: Vec<ContentClass>,
    /// Higher runs first among the plugins claiming a class; the built-in
    /// always comes last.
    pub priority: i32,
    /// The limits it asks for, within the host's maxima.
    #[serde(default, skip_serializing_if = "Limits::is_default")]
    pub limits: Limits,
    /// Where it was added from.
    pub source: String,
    /// When it was added (RFC 3339, UTC).
    pub added: String,
}

/// Whether `id` is an acceptable plugin id.
pub fn valid_id(id: &str) -> bool {
    let first_ok = id
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    first_ok
        && id.len() <= 64
        && !id.starts_with("builtin")
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b))
}

impl Manifest {
    /// Parses and validates a manifest's text.
    pub fn parse(text: &str) -> Result<Self, ManifestError> {
        let manifest: Self =
            toml::from_str(text).map_err(|e| ManifestError::Syntax(e.to_string()))?;
        manifest.validate()?;
        Ok(manifest)
    }

    /// The manifest as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a manifest always serializes")
    }

    /// Its digest, parsed.
    pub fn digest(&self) -> Result<Digest, ManifestError> {
        self.digest
            .parse()
            .map_err(|e: crate::DigestParseError| ManifestError::invalid("digest", e.to_string()))
    }

    /// Checks every field.
    pub fn validate(&self) -> Result<(), ManifestError> {
        if !valid_id(&self.id) {
            return Err(ManifestError::invalid(
                "id",
                format!(
                    "{:?}: use 1–64 lowercase letters, digits, '-', '_' or '.', not starting with \"builtin\"",
                    self.id
                ),
            ));
        }
        validate_version(&self.version)?;
        if self.wit.is_empty() {
            return Err(ManifestError::invalid("wit", "empty"));
        }
        self.digest()?;
        validate_classes(self.world, &self.classes)?;
        self.limits.validate()?;
        Ok(())
    }
}

/// Refuses an empty or odd version string.
pub(crate) fn validate_version(version: &str) -> Result<(), ManifestError> {
    let ok = !version.is_empty()
        && version.len() <= 64
        && version
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.+".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(ManifestError::invalid(
            "version",
            format!("{version:?}: use letters, digits and - _ . +"),
        ))
    }
}

/// A compressor claims at least one known class, each once; a classifier none.
pub(crate) fn validate_classes(
    world: World,
    classes: &[ContentClass],
) -> Result<(), ManifestError> {
    let compressible = ContentClass::list(&ContentClass::COMPRESSIBLE);
    match world {
        World::Classifier if !classes.is_empty() => Err(ManifestError::invalid(
            "classes",
            "a classifier handles every text; it claims no classes",
        )),
        World::Compressor if classes.is_empty() => Err(ManifestError::invalid(
            "classes",
            format!("a compressor claims at least one of {compressible}"),
        )),
        _ => {
            for (i, c) in classes.iter().enumerate() {
                if !c.is_compressible() {
                    return Err(ManifestError::invalid(
                        "classes",
                        format!(
                            "{c} is never compressed; a compressor claims one or more of {compressible}"
                        ),
                    ));
                }
                if classes[..i].contains(c) {
                    return Err(ManifestError::invalid("classes", format!("{c} twice")));
                }
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Manifest {
        Manifest {
            id: "short-logs".into(),
            version: "1.2.0".into(),
            world: World::Compressor,
            wit: "0.1.0".into(),
            digest: Digest::of(b"x").to_hex(),
            classes: vec![ContentClass::Log],
            priority: 10,
            limits: Limits {
                deadline_ms: Some(100),
                memory_mib: None,
            },
            source: "/tmp/short-logs.wasm".into(),
            added: "2026-11-21T12:00:00Z".into(),
        }
    }

    #[test]
    fn a_manifest_round_trips_through_toml() {
        let m = sample();
        assert_eq!(Manifest::parse(&m.to_toml()).unwrap(), m);
    }

    #[test]
    fn unknown_fields_and_bad_values_are_refused() {
        let text = format!("{}\nnetwork = true\n", sample().to_toml());
        assert!(
            Manifest::parse(&text)
                .unwrap_err()
                .to_string()
                .contains("network")
        );
        let mut m = sample();
        m.classes = vec![ContentClass::Prompt];
        assert!(m.validate().unwrap_err().to_string().contains("classes"));
        let mut m = sample();
        m.limits.memory_mib = Some(4096);
        assert!(m.validate().unwrap_err().to_string().contains("memory_mib"));
        let mut m = sample();
        m.id = "../etc".into();
        assert!(m.validate().is_err());
        let mut m = sample();
        m.id = "builtin-log".into();
        assert!(m.validate().is_err());
        let mut m = sample();
        m.world = World::Classifier;
        assert!(m.validate().is_err());
        let mut m = sample();
        m.digest = "abc".into();
        assert!(m.validate().is_err());
    }
}
