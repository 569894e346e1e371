//! How much an entry matters: a base by class, plus recency of access, minus
//! staleness.
//!
//! `priority = base(class) + 10 · 2^(−hours since last access / 24)
//!                        − min(30, 2 · days since creation)`
//!
//! The user's own words (prompt, 90) outrank errors (80), code (60), prose
//! (40), structured data (30) and logs (20). An entry read a moment ago gains
//! up to 10 points, halving every day it is not read; an old entry loses 2
//! points a day, at most 30. The store recomputes it when an entry is read
//! and in its maintenance pass; recall weighs relevance by it.

use ghost_types::ContentClass;

/// Milliseconds in an hour.
const HOUR_MS: f64 = 3_600_000.0;

/// The base priority of a class.
pub fn base(class: ContentClass) -> f64 {
    match class {
        ContentClass::Prompt => 90.0,
        ContentClass::Error => 80.0,
        ContentClass::Code => 60.0,
        ContentClass::Prose => 40.0,
        ContentClass::Structured => 30.0,
        ContentClass::Log => 20.0,
    }
}

/// The class of a class column's text inside SQL (the `ghost_priority`
/// function): a log's, the lowest, for a name this binary does not know.
pub fn class_of_column(name: &str) -> ContentClass {
    name.parse().unwrap_or(ContentClass::Log)
}

/// The priority at `now` of an entry of `class` created at `created_at` and
/// last read at `last_access` (all times in Unix milliseconds).
pub fn priority(class: ContentClass, created_at: i64, last_access: i64, now: i64) -> f64 {
    let hours_since_access = (now - last_access).max(0) as f64 / HOUR_MS;
    let days_old = (now - created_at).max(0) as f64 / (24.0 * HOUR_MS);
    let recency = 10.0 * (-hours_since_access / 24.0).exp2();
    let staleness = (2.0 * days_old).min(30.0);
    base(class) + recency - staleness
}

/// How much a priority weighs a relevance score in recall: 0.85 for the
/// lowest class base up to 1.2 for a fresh prompt.
pub fn recall_weight(priority: f64) -> f64 {
    0.75 + priority.clamp(0.0, 100.0) / 200.0
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 24 * 3_600_000;

    #[test]
    fn classes_keep_their_order_when_fresh() {
        let p = |c| priority(c, 0, 0, 0);
        use ContentClass::*;
        assert!(p(Prompt) > p(Error));
        assert!(p(Error) > p(Code));
        assert!(p(Code) > p(Prose));
        assert!(p(Prose) > p(Structured));
        assert!(p(Structured) > p(Log));
        assert_eq!(p(Log), 30.0);
        assert_eq!(class_of_column("unknown"), Log);
    }

    #[test]
    fn access_refreshes_and_age_decays() {
        let untouched = priority(ContentClass::Code, 0, 0, 3 * DAY);
        let read_now = priority(ContentClass::Code, 0, 3 * DAY, 3 * DAY);
        assert!(read_now > untouched + 8.0);
        assert!((untouched - (60.0 + 10.0 / 8.0 - 6.0)).abs() < 1e-9);
        // Staleness is capped.
        assert_eq!(priority(ContentClass::Log, 0, 0, 400 * DAY), 20.0 - 30.0);
    }
}
