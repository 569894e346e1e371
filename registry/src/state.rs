//! A plugin's mutable state: enabled by its user, and its health (failures
//! in a row, automatic disabling with an exponential backoff).

use serde::{Deserialize, Serialize};

/// Failures in a row (traps, deadlines, memory caps) that disable a plugin.
pub const FAILURES_TO_DISABLE: u32 = 3;

/// The first automatic disabling lasts this long; each next one twice longer.
pub const BACKOFF_BASE_SECS: u64 = 60;

/// The longest automatic disabling.
pub const BACKOFF_MAX_SECS: u64 = 24 * 3600;

/// `installed/<id>/state.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PluginState {
    /// Whether its user wants it to run.
    pub enabled: bool,
    /// Failures in a row since its last success.
    #[serde(default)]
    pub failures: u32,
    /// Disabled automatically until this time (Unix seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled_until: Option<u64>,
    /// How many times it was disabled automatically (sets the backoff).
    #[serde(default)]
    pub auto_disabled: u32,
    /// Its last failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

impl Default for PluginState {
    fn default() -> Self {
        Self {
            enabled: true,
            failures: 0,
            disabled_until: None,
            auto_disabled: 0,
            last_error: None,
        }
    }
}

/// Whether a plugin runs now, and if not why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// It runs.
    Enabled,
    /// Its user disabled it.
    Disabled,
    /// ghost disabled it after failures, until the given time (Unix seconds).
    AutoDisabled {
        /// Until when.
        until: u64,
        /// Its last failure.
        reason: String,
    },
}

impl PluginState {
    /// Its status at `now` (Unix seconds).
    pub fn status(&self, now: u64) -> Status {
        if !self.enabled {
            return Status::Disabled;
        }
        match self.disabled_until {
            Some(until) if until > now => Status::AutoDisabled {
                until,
                reason: self.last_error.clone().unwrap_or_default(),
            },
            _ => Status::Enabled,
        }
    }

    /// Records a failure at `now`; returns the backoff in seconds when this
    /// failure disables the plugin.
    pub fn record_failure(&mut self, reason: &str, now: u64) -> Option<u64> {
        self.failures += 1;
        self.last_error = Some(reason.chars().take(300).collect());
        if self.failures < FAILURES_TO_DISABLE {
            return None;
        }
        let backoff = BACKOFF_BASE_SECS
            .saturating_mul(1u64 << self.auto_disabled.min(20))
            .min(BACKOFF_MAX_SECS);
        self.auto_disabled += 1;
        self.failures = 0;
        self.disabled_until = Some(now + backoff);
        Some(backoff)
    }

    /// Records a success: the failure count starts again (the backoff
    /// doubling is kept until its user re-enables it).
    pub fn record_success(&mut self) {
        self.failures = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_failures_disable_with_a_doubling_backoff() {
        let mut s = PluginState::default();
        assert_eq!(s.record_failure("deadline", 0), None);
        assert_eq!(s.record_failure("deadline", 0), None);
        assert_eq!(s.record_failure("deadline", 0), Some(60));
        assert!(matches!(
            s.status(30),
            Status::AutoDisabled { until: 60, .. }
        ));
        assert_eq!(s.status(61), Status::Enabled);
        for _ in 0..2 {
            s.record_failure("trap", 100);
        }
        assert_eq!(s.record_failure("trap", 100), Some(120));
        s.record_success();
        assert_eq!(s.failures, 0);
        s.enabled = false;
        assert_eq!(s.status(10_000), Status::Disabled);
    }
}
