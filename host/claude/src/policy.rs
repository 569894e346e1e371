//! Every threshold the Claude Code hooks decide by, in one place, each with
//! the reason or the measurement behind it. `ghost bench replay` (real
//! transcripts through the PostToolUse hook) is how the Read thresholds were
//! measured; re-run it after changing any of them.

use std::time::Duration;

/// Stdin larger than this is not read: the hook passes the original through.
/// Far above any payload seen (a persisted Bash output arrives cut to 30,000
/// characters; the largest captured payload is 37 KB), it only bounds
/// the memory a runaway payload can take.
pub const MAX_STDIN_BYTES: u64 = 128 << 20;

/// Tool results under this many bytes go through as they are: about 500
/// tokens, where a digest and its handle line save too little to be worth
/// the text the agent no longer sees. They are still stored from
/// [`SEEN_MIN_BYTES`] on, so a later identical one can refer to them.
pub const MIN_RESULT_BYTES: usize = 2_048;

/// Results under this many bytes are not worth a reference to an earlier
/// one (the reference line itself is about 200 bytes).
pub const SEEN_MIN_BYTES: usize = 1_024;

/// Whole-file Reads under this many bytes (about 200 lines) go through as
/// they are while the context has room (see [`READ_FOLD_TIERS`]): the agent
/// edits what it reads, and a folded body hides the text an Edit needs.
/// Measured with `ghost bench replay` on the shared transcripts (Read tokens
/// with/without, all tools, edit-visible rate; 83.6% without ghost): 2 KB
/// 0.46 / 0.60 / 55.9%, 4 KB 0.48 / 0.61 / 58.5%, 8 KB 0.55 / 0.66 / 68.2%,
/// 16 KB 0.63 / 0.71 / 70.3%, 32 KB 0.89 / 0.87 / 83.1%; with the tiers
/// 0.54 / 0.65 / 67.2%.
pub const READ_MIN_BYTES: usize = 8_192;

/// As the context fills (by Claude Code's own reading, from the status
/// line), whole-file Reads fold from a smaller size: (share of the window
/// used, fold from this many bytes), highest share first. Every token saved
/// then puts off the compaction, which loses far more than a folded body
/// (the measurements are under [`READ_MIN_BYTES`]).
pub const READ_FOLD_TIERS: [(f64, usize); 2] = [(0.7, 2_048), (0.5, 4_096)];

/// The size from which a whole-file Read folds, given the share of the
/// context window in use (`None`: no reading).
pub fn read_fold_bytes(context_share: Option<f64>) -> usize {
    tier_of(&READ_FOLD_TIERS, context_share).unwrap_or(READ_MIN_BYTES)
}

/// The setting of the first of `tiers` (highest share first) that the
/// share of the context window in use reaches, if any.
fn tier_of<T: Copy>(tiers: &[(f64, T)], context_share: Option<f64>) -> Option<T> {
    let share = context_share?;
    tiers
        .iter()
        .find(|(from, _)| share >= *from)
        .map(|(_, setting)| *setting)
}

/// As the context fills (Claude Code's own reading), compressors are asked
/// to fit a result in fewer tokens: (share of the window used, target
/// tokens), highest share first. Below the lowest share the target is what
/// the replacement holds (see [`target_tokens`]).
/// A first setting, not yet measured against alternatives: at half the
/// window a result gets at most about 2% of what is left, at 70% about 1%.
pub const TARGET_TOKEN_TIERS: [(f64, u32); 2] = [(0.7, 1_000), (0.5, 2_000)];

/// The token budget for a compressed result, given the share of the
/// context window in use (`None`: no reading) and the bytes its
/// replacement may take ([`replacement_bytes`]): the context's tier, or
/// when the context leaves room, what the replacement holds (as compressors
/// estimate tokens: [`ghost_types::tokens_in_bytes`]) less a tenth for ghost's handle and
/// notes. A larger result would be cut to its size line by line, blindly;
/// asked for it, a compressor folds by its own rules and says what it
/// folded (a failing test's long output shows its first lines, and the
/// failure still shows).
pub fn target_tokens(context_share: Option<f64>, room_bytes: usize) -> u32 {
    let room = u32::try_from(ghost_types::tokens_in_bytes(room_bytes) * 9 / 10).unwrap_or(u32::MAX);
    tier_of(&TARGET_TOKEN_TIERS, context_share).map_or(room, |tier| tier.min(room))
}

/// The most bytes a replacement may take: [`PERSISTED_DIGEST_BYTES`] for
/// an output Claude Code persisted to a file (the model would see a 2 KB
/// preview), else [`MAX_REPLACEMENT_BYTES`].
pub fn replacement_bytes(persisted: bool) -> usize {
    if persisted {
        PERSISTED_DIGEST_BYTES
    } else {
        MAX_REPLACEMENT_BYTES
    }
}

/// Replacement texts are kept under this many bytes: Claude Code persists a
/// replacement of about 60 KB (Bash; 120 KB for MCP) to a file and shows the
/// model a 2 KB preview, which would undo the replacement (observed on
/// Claude Code 2.1.329).
pub const MAX_REPLACEMENT_BYTES: usize = 40_000;

/// The most ghost shows of a Bash output Claude Code persisted to a file.
/// Without ghost the model sees a 2 KB preview of the output's head in a
/// wrapper naming the file (about 2,300 bytes); ghost's digest takes no more
/// room than that (never worse), with the failures and the tail in it.
pub const PERSISTED_DIGEST_BYTES: usize = 2_300;

/// Bash outputs larger than this on disk are not read back (Claude Code
/// keeps the persisted output anyway): a bound on the hook's memory and
/// time, far above the outputs seen (the largest replayed Bash output is
/// 144 KB).
pub const MAX_PERSISTED_BYTES: u64 = 64 << 20;

/// File lists (Glob, Grep's file mode) longer than this become a digest of
/// at most this many lines: 40 paths (about 2 KB) are read at a glance,
/// longer lists were 3 of the 36 replayed Globs and 0.209 of their tokens as
/// digests.
pub const FILE_LIST_LINES: usize = 40;

/// Files named one by one in a directory's line of a file-list digest
/// before "…": enough to show what kind of files are there.
pub const NAMES_PER_DIRECTORY: usize = 4;

/// A changed file is shown as its changes only when they take at most this
/// share of the whole file's bytes; beyond, the file is shown again as any
/// Read is (a delta that large is harder to read than the file).
pub const MAX_DELTA_SHARE: f64 = 0.5;

/// Unchanged lines shown around each change of a re-read file: enough for
/// an Edit's `old_string` to be unique in most code.
pub const DELTA_CONTEXT_LINES: usize = 2;

/// How long the line diff of a re-read file may take before ghost gives up
/// on a delta: a hook sits on the agent's critical path (the whole hook
/// takes about 15 ms on a 100 KB result).
pub const DIFF_DEADLINE: Duration = Duration::from_millis(50);

/// Items listed in the state block before compaction and in the context a
/// session starts with: a screenful the compaction summary can keep ids of.
pub const TOP_ITEMS: usize = 12;

/// The state block appended to the compaction prompt stays under this many
/// bytes (about 1,500 tokens of a prompt that summarises ~160k).
pub const PRE_COMPACT_ITEMS_BYTES: usize = 6_000;

/// The session-start context stays under this many tokens (estimated at
/// four bytes a token): it arrives in every resumed or compacted session.
pub const SESSION_START_BUDGET_TOKENS: usize = 2_000;

/// Seconds Claude Code gives the PostToolUse and PreCompact hooks before it
/// gives up on them (and shows the original): ghost answers in about
/// 15 ms, a cold compile cache costs a second or two once.
pub const SLOW_HOOK_TIMEOUT_SECS: u64 = 10;

/// Seconds for every other hook, which only stores a text or reads a few
/// rows.
pub const QUICK_HOOK_TIMEOUT_SECS: u64 = 5;

/// A context reading older than this brings no flush nudge: it may describe
/// a context that has changed since (30 minutes).
pub const FLUSH_READING_MAX_AGE_SECS: i64 = 30 * 60;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_asked_to_fit_the_context_tier_or_else_their_replacement() {
        let room = replacement_bytes(false);
        assert_eq!(target_tokens(None, room), 9_000);
        assert_eq!(target_tokens(Some(0.3), room), 9_000);
        assert_eq!(target_tokens(Some(0.5), room), 2_000);
        assert_eq!(target_tokens(Some(0.95), room), 1_000);
        let persisted = replacement_bytes(true);
        assert_eq!(target_tokens(None, persisted), 517);
        assert_eq!(target_tokens(Some(0.6), persisted), 517);
    }

    #[test]
    fn reads_fold_from_smaller_sizes_as_the_context_fills() {
        assert_eq!(read_fold_bytes(None), READ_MIN_BYTES);
        assert_eq!(read_fold_bytes(Some(0.3)), READ_MIN_BYTES);
        assert_eq!(read_fold_bytes(Some(0.5)), 4_096);
        assert_eq!(read_fold_bytes(Some(0.69)), 4_096);
        assert_eq!(read_fold_bytes(Some(0.95)), 2_048);
    }
}
