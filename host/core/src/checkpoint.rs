//! Checkpoints: what a session had in hand when it was compacted, written
//! as Markdown with frontmatter in the project's `checkpoints/` folder, so a
//! later context (after compaction, or a new session) starts from it.
//!
//! A checkpoint is written atomically (a temporary file renamed into place),
//! read back and verified (frontmatter and every section present, the bytes
//! as written) before it is listed in the folder's index (`index.jsonl`) or
//! reported: a checkpoint that is reported is on disk.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::memory::ProjectMemory;

/// The sections of a checkpoint, in order.
pub const SECTIONS: [&str; 5] = [
    "What changed",
    "Why",
    "Active issues",
    "Key decisions",
    "Next steps",
];

/// The index file in the checkpoints folder.
pub const INDEX_FILE: &str = "index.jsonl";

/// What can go wrong writing or reading checkpoints.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file read back is not the checkpoint written.
    #[error("checkpoint {path} failed verification: {reason}")]
    Unverified {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CheckpointError + '_ {
    move |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A checkpoint's frontmatter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CheckpointMeta {
    /// When it was made (RFC 3339).
    pub created: String,
    /// What made it: `manual` (`/compact`), `auto`, …
    pub trigger: String,
    /// The project (its working directory).
    pub project: String,
    /// The agent session.
    pub session: String,
    /// The how-manyth checkpoint of the session (1 for the first).
    pub iteration: u32,
}

/// A checkpoint: its frontmatter and the body of each of [`SECTIONS`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The frontmatter.
    pub meta: CheckpointMeta,
    /// Each section's body, in the order of [`SECTIONS`] (Markdown; empty
    /// bodies read "none").
    pub sections: [String; 5],
}

/// One line of the index: a verified checkpoint.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct IndexEntry {
    /// The file, absolute.
    pub path: String,
    /// Its frontmatter.
    #[serde(flatten)]
    pub meta: CheckpointMeta,
    /// When it was made, in milliseconds since the epoch.
    pub created_ms: i64,
    /// Its size in bytes.
    pub bytes: u64,
    /// Whether it was verified after writing (always, for indexed ones).
    pub verified: bool,
}

/// A listed checkpoint and whether its file is still there.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Listed {
    /// The index entry.
    #[serde(flatten)]
    pub entry: IndexEntry,
    /// Whether the file exists with the indexed size.
    pub on_disk: bool,
}

/// The checkpoint as Markdown with frontmatter.
pub fn render(cp: &Checkpoint) -> String {
    let m = &cp.meta;
    let mut out = format!(
        "---\ncreated: {}\ntrigger: {}\nproject: {}\nsession: {}\niteration: {}\nverified: true\n---\n\
         # Checkpoint {} of session {}\n",
        m.created, m.trigger, m.project, m.session, m.iteration, m.iteration, m.session
    );
    for (title, body) in SECTIONS.iter().zip(&cp.sections) {
        let body = body.trim();
        out.push_str(&format!(
            "\n## {title}\n{}\n",
            if body.is_empty() { "none" } else { body }
        ));
    }
    out
}

/// A checkpoint's text split into its frontmatter and its body; `None`
/// when it does not open with a closed frontmatter.
fn split(text: &str) -> Option<(&str, &str)> {
    text.strip_prefix("---\n")?.split_once("\n---\n")
}

/// A checkpoint's Markdown without its frontmatter (all of it when it has
/// none).
pub fn body(text: &str) -> &str {
    split(text).map_or(text, |(_, body)| body)
}

/// Checks a checkpoint's text: the frontmatter with every field and
/// `verified: true`, then every section heading, in order.
pub fn verify(text: &str) -> Result<(), String> {
    let (front, body) = split(text).ok_or("no closed frontmatter at the start")?;
    for field in [
        "created",
        "trigger",
        "project",
        "session",
        "iteration",
        "verified",
    ] {
        if !front.lines().any(|l| l.starts_with(&format!("{field}: "))) {
            return Err(format!("the frontmatter has no {field}"));
        }
    }
    if !front.lines().any(|l| l == "verified: true") {
        return Err("the frontmatter does not say verified: true".into());
    }
    let mut from = 0;
    for title in SECTIONS {
        let heading = format!("\n## {title}\n");
        match body[from..].find(&heading) {
            Some(at) => from += at + heading.len(),
            None => return Err(format!("section '{title}' is missing or out of order")),
        }
    }
    Ok(())
}

/// Writes `cp`, redacted by `redactor`, into `memory`'s checkpoints folder
/// (0700) atomically, reads it back, verifies it, and only then lists it in
/// the index. Returns the index entry and the text.
pub fn write_verified(
    memory: &ProjectMemory,
    cp: &Checkpoint,
    created_ms: i64,
    redactor: &ghost_redact::Redactor,
) -> Result<(IndexEntry, String), CheckpointError> {
    let dir = memory.checkpoints_dir();
    ghost_redact::key::create_private_dir(&dir).map_err(io(&dir))?;
    let text = redactor.redact_owned(render(cp));
    let session: String = cp.meta.session.chars().take(8).collect();
    let stamp = cp
        .meta
        .created
        .chars()
        .filter(char::is_ascii_digit)
        .take(14)
        .collect::<String>();
    let name = format!("{stamp}-{session}-{}.md", cp.meta.iteration);
    let path = dir.join(&name);
    let tmp = dir.join(format!(".{name}.tmp"));
    {
        let mut f = std::fs::File::create(&tmp).map_err(io(&tmp))?;
        f.write_all(text.as_bytes()).map_err(io(&tmp))?;
        f.sync_all().map_err(io(&tmp))?;
    }
    std::fs::rename(&tmp, &path).map_err(io(&path))?;
    let back = std::fs::read_to_string(&path).map_err(io(&path))?;
    let check = if back != text {
        Err("the file read back differs from what was written".to_string())
    } else {
        verify(&back)
    };
    if let Err(reason) = check {
        let _ = std::fs::remove_file(&path);
        return Err(CheckpointError::Unverified { path, reason });
    }
    let entry = IndexEntry {
        path: path.display().to_string(),
        meta: cp.meta.clone(),
        created_ms,
        bytes: back.len() as u64,
        verified: true,
    };
    let index = dir.join(INDEX_FILE);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&index)
        .map_err(io(&index))?;
    let line = serde_json::to_string(&entry).expect("an index entry serialises") + "\n";
    f.write_all(line.as_bytes()).map_err(io(&index))?;
    Ok((entry, back))
}

/// Every indexed checkpoint of `memory`'s project, oldest first, each with
/// whether its file is still on disk.
pub fn list(memory: &ProjectMemory) -> Result<Vec<Listed>, CheckpointError> {
    let index = memory.checkpoints_dir().join(INDEX_FILE);
    let text = match std::fs::read_to_string(&index) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(&index)(e)),
    };
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<IndexEntry>(l).ok())
        .map(|entry| {
            let on_disk = std::fs::metadata(&entry.path).is_ok_and(|m| m.len() == entry.bytes);
            Listed { entry, on_disk }
        })
        .collect())
}

/// How many checkpoints `session` has in `memory`'s index.
pub fn count_for_session(memory: &ProjectMemory, session: &str) -> u32 {
    list(memory)
        .map(|l| l.iter().filter(|c| c.entry.meta.session == session).count() as u32)
        .unwrap_or(0)
}

/// The newest checkpoint that is on disk and still verifies, made at or
/// after `since_ms`, with its text.
pub fn latest_verified(memory: &ProjectMemory, since_ms: i64) -> Option<(IndexEntry, String)> {
    let listed = list(memory).ok()?;
    listed
        .into_iter()
        .rev()
        .filter(|c| c.on_disk && c.entry.created_ms >= since_ms)
        .find_map(|c| {
            let text = std::fs::read_to_string(&c.entry.path).ok()?;
            verify(&text).ok()?;
            Some((c.entry, text))
        })
}

/// The body of `section` in a checkpoint's `text` (empty when absent).
pub fn section<'t>(text: &'t str, title: &str) -> &'t str {
    let heading = format!("\n## {title}\n");
    let Some(at) = text.find(&heading) else {
        return "";
    };
    let body = &text[at + heading.len()..];
    let end = body.find("\n## ").unwrap_or(body.len());
    body[..end].trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redactor() -> ghost_redact::Redactor {
        ghost_redact::Redactor::new(ghost_redact::Key::from_bytes([3; 32]))
    }

    fn checkpoint(iteration: u32) -> Checkpoint {
        Checkpoint {
            meta: CheckpointMeta {
                created: format!("2026-11-23T10:0{iteration}:00+00:00"),
                trigger: "manual".into(),
                project: "/p".into(),
                session: "abcdef123456".into(),
                iteration,
            },
            sections: [
                "- src/lib.rs: lines 3–9".into(),
                "".into(),
                "".into(),
                "- The user: use tabs".into(),
                "- [ ] write the docs (pending)".into(),
            ],
        }
    }

    #[test]
    fn checkpoints_are_written_verified_indexed_and_found() {
        let dir = tempfile::tempdir().unwrap();
        let memory = ProjectMemory::new(dir.path(), "/p");
        let (entry, text) = write_verified(&memory, &checkpoint(1), 1_000, &redactor()).unwrap();
        assert!(Path::new(&entry.path).is_file());
        assert!(verify(&text).is_ok());
        assert_eq!(section(&text, "Why"), "none");
        assert!(body(&text).starts_with("# Checkpoint 1 of session"));
        assert_eq!(
            section(&text, "Next steps"),
            "- [ ] write the docs (pending)"
        );
        write_verified(&memory, &checkpoint(2), 2_000, &redactor()).unwrap();
        assert_eq!(count_for_session(&memory, "abcdef123456"), 2);
        let (latest, _) = latest_verified(&memory, 0).unwrap();
        assert_eq!(latest.meta.iteration, 2);
        assert!(latest_verified(&memory, 3_000).is_none());
        // A checkpoint whose file went away is listed as such and never restored.
        std::fs::remove_file(&latest.path).unwrap();
        let listed = list(&memory).unwrap();
        assert_eq!(
            listed.iter().map(|l| l.on_disk).collect::<Vec<_>>(),
            [true, false]
        );
        assert_eq!(latest_verified(&memory, 0).unwrap().0.meta.iteration, 1);
    }

    #[test]
    fn verification_catches_missing_parts() {
        let good = render(&checkpoint(1));
        assert!(verify(&good).is_ok());
        assert!(verify(&good.replace("## Why\n", "## Because\n")).is_err());
        assert!(verify(&good.replace("verified: true", "verified: false")).is_err());
        assert!(verify(&good.replacen("---\n", "", 1)).is_err());
    }

    #[test]
    fn a_checkpoint_that_cannot_be_written_is_not_indexed() {
        let dir = tempfile::tempdir().unwrap();
        // The project's folder is a file: nothing can be written under it.
        let memory = ProjectMemory::new(dir.path(), "/p");
        std::fs::write(memory.dir(), "not a folder").unwrap();
        assert!(write_verified(&memory, &checkpoint(1), 1, &redactor()).is_err());
        assert!(list(&memory).map_or(true, |l| l.is_empty()));
        assert!(latest_verified(&memory, 0).is_none());
    }
}
