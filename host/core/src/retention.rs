//! How long ghost keeps what it stores, and how much: the `[retention]`
//! table of the configuration.
//!
//! ```toml
//! [retention]
//! max_store_mib = 2048   # past this, the least important entries go (0: no cap)
//!
//! [retention.ttl_days]   # days each class is kept (0: for ever)
//! log = 14
//! prompt = 90
//! ```
//!
//! The defaults follow what each class is worth later: a log or a JSON
//! dump can be printed again and a file read again, while an error, and
//! above all the user's own words, are what recall is for.

use serde::Deserialize;

use ghost_types::ContentClass;

/// Days an entry of each class is kept when the configuration says nothing.
pub fn default_ttl_days(class: ContentClass) -> u64 {
    match class {
        ContentClass::Log | ContentClass::Structured => 14,
        ContentClass::Code | ContentClass::Prose => 30,
        ContentClass::Error => 60,
        ContentClass::Prompt => 90,
    }
}

/// The store's default cap, in MiB.
pub const DEFAULT_MAX_STORE_MIB: u64 = 2_048;

/// The `[retention]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Retention {
    /// The store's cap, in MiB (0: none).
    pub max_store_mib: Option<u64>,
    /// Days each class is kept.
    #[serde(default)]
    pub ttl_days: ClassDays,
}

/// Days per class; a class not named keeps its default.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassDays {
    /// Logs.
    pub log: Option<u64>,
    /// Source code.
    pub code: Option<u64>,
    /// Structured data.
    pub structured: Option<u64>,
    /// Prose.
    pub prose: Option<u64>,
    /// Errors.
    pub error: Option<u64>,
    /// The user's own words.
    pub prompt: Option<u64>,
}

impl Retention {
    /// Seconds an entry of `class` is kept; `None` when for ever.
    pub fn ttl_seconds(&self, class: ContentClass) -> Option<i64> {
        let d = &self.ttl_days;
        let days = match class {
            ContentClass::Log => d.log,
            ContentClass::Code => d.code,
            ContentClass::Structured => d.structured,
            ContentClass::Prose => d.prose,
            ContentClass::Error => d.error,
            ContentClass::Prompt => d.prompt,
        }
        .unwrap_or_else(|| default_ttl_days(class));
        (days > 0).then_some(days as i64 * 86_400)
    }

    /// The store's cap in bytes; `None` when uncapped.
    pub fn max_store_bytes(&self) -> Option<u64> {
        let mib = self.max_store_mib.unwrap_or(DEFAULT_MAX_STORE_MIB);
        (mib > 0).then_some(mib << 20)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_hold_unless_a_class_is_named_and_zero_means_for_ever() {
        let r: Retention =
            toml::from_str("max_store_mib = 0\n[ttl_days]\nlog = 1\nprompt = 0\n").unwrap();
        assert_eq!(r.ttl_seconds(ContentClass::Log), Some(86_400));
        assert_eq!(r.ttl_seconds(ContentClass::Prompt), None);
        assert_eq!(r.ttl_seconds(ContentClass::Error), Some(60 * 86_400));
        assert_eq!(r.max_store_bytes(), None);
        assert_eq!(Retention::default().max_store_bytes(), Some(2_048 << 20));
        assert!(toml::from_str::<Retention>("[ttl_days]\nlogs = 1\n").is_err());
    }
}
