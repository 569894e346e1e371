//! The content class: what kind of text a tool produced, hence which
//! compressor shrinks it. The one definition every crate of ghost uses; the
//! WIT contract's `content-class` enum mirrors it at the plugin boundary.

use std::fmt;
use std::str::FromStr;

/// What kind of text a tool produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ContentClass {
    /// Line-oriented output: builds, tests, servers, commands.
    Log,
    /// Source code.
    Code,
    /// JSON, YAML, TOML, CSV, XML.
    Structured,
    /// Natural-language text.
    Prose,
    /// Exceptions, panics, stack traces.
    Error,
    /// The user's own words: never compressed.
    Prompt,
}

impl ContentClass {
    /// Every class, in the order people see them listed.
    pub const ALL: [ContentClass; 6] = [
        ContentClass::Log,
        ContentClass::Code,
        ContentClass::Structured,
        ContentClass::Prose,
        ContentClass::Error,
        ContentClass::Prompt,
    ];

    /// The classes a compressor may serve: every class but the prompt, the
    /// user's own words, which are never compressed.
    pub const COMPRESSIBLE: [ContentClass; 5] = [
        ContentClass::Log,
        ContentClass::Code,
        ContentClass::Structured,
        ContentClass::Prose,
        ContentClass::Error,
    ];

    /// The lowercase name used on the command line, in manifests, in the
    /// store and in the WIT contract.
    pub fn as_str(self) -> &'static str {
        match self {
            ContentClass::Log => "log",
            ContentClass::Code => "code",
            ContentClass::Structured => "structured",
            ContentClass::Prose => "prose",
            ContentClass::Error => "error",
            ContentClass::Prompt => "prompt",
        }
    }

    /// Whether a compressor may shrink text of this class (see
    /// [`ContentClass::COMPRESSIBLE`]).
    pub fn is_compressible(self) -> bool {
        Self::COMPRESSIBLE.contains(&self)
    }

    /// `names` of `classes` joined with ", ", for messages.
    pub fn list(classes: &[ContentClass]) -> String {
        classes
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for ContentClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A class name that is not one of [`ContentClass::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown class '{0}' (expected one of: log, code, structured, prose, error, prompt)")]
pub struct UnknownClass(pub String);

impl FromStr for ContentClass {
    type Err = UnknownClass;

    /// Case-insensitive, surrounding blanks ignored: `Log`, ` log ` and
    /// `LOG` are all [`ContentClass::Log`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ContentClass::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownClass(s.to_string()))
    }
}

impl serde::Serialize for ContentClass {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for ContentClass {
    /// The same names [`FromStr`] accepts.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = ContentClass;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a class: log, code, structured, prose, error or prompt")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ContentClass, E> {
                v.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Name)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for ContentClass {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ContentClass".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = ContentClass::ALL.iter().map(|c| c.as_str()).collect();
        schemars::json_schema!({
            "type": "string",
            "enum": names,
            "description": "A content class: log, code, structured, prose, error or prompt.",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_case_insensitively() {
        for class in ContentClass::ALL {
            assert_eq!(class.as_str().parse::<ContentClass>(), Ok(class));
            assert_eq!(
                class.as_str().to_uppercase().parse::<ContentClass>(),
                Ok(class)
            );
            let json = serde_json::to_string(&class).unwrap();
            assert_eq!(json, format!("\"{class}\""));
            assert_eq!(serde_json::from_str::<ContentClass>(&json).unwrap(), class);
        }
        assert!(" Prose ".parse::<ContentClass>().is_ok());
        let err = "logs".parse::<ContentClass>().unwrap_err().to_string();
        assert!(
            err.contains("'logs'") && err.contains("structured"),
            "{err}"
        );
        assert!(serde_json::from_str::<ContentClass>("\"logs\"").is_err());
    }

    #[test]
    fn only_the_prompt_is_never_compressed() {
        for class in ContentClass::ALL {
            assert_eq!(class.is_compressible(), class != ContentClass::Prompt);
        }
        assert_eq!(
            ContentClass::list(&ContentClass::COMPRESSIBLE),
            "log, code, structured, prose, error"
        );
    }
}
