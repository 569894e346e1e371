//! Memory that survives compaction: per project, Markdown files are the
//! source of truth, and the store indexes them for search.
//!
//! - `MEMORY.md`: durable knowledge (decisions, preferences, project facts),
//!   one list item per memory;
//! - `memory/YYYY-MM-DD.md`: the day's log, append-only, one timestamped item
//!   per note;
//! - `checkpoints/`: what [`crate::checkpoint`] writes before a compaction.
//!
//! A project is the absolute path of its working directory; its folder is
//! that path with every separator turned into `-`, under the projects
//! directory ([`crate::config::Config::projects_dir`]). People may read and
//! edit every file; the index follows (a file is re-indexed when its size or
//! time changes).

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use chrono::{DateTime, Local, NaiveDate};
use ghost_store::{MemoryChunk, MemoryFile, MemoryHit, Store};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The durable memory file of a project.
pub const MEMORY_FILE: &str = "MEMORY.md";

/// The folder of daily logs.
pub const LOG_DIR: &str = "memory";

/// The folder of checkpoints.
pub const CHECKPOINT_DIR: &str = "checkpoints";

/// Hits `memory_search` returns when the request does not say.
pub const DEFAULT_SEARCH_LIMIT: usize = 5;

/// Longest chunk indexed, in lines: a long paragraph is split.
const CHUNK_LINES: usize = 20;

/// What can go wrong with memory files.
#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A request asked for something it may not.
    #[error("{0}")]
    Invalid(String),
    /// The index failed.
    #[error(transparent)]
    Store(#[from] ghost_store::StoreError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MemoryError + '_ {
    move |source| MemoryError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Where a memory goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MemoryTarget {
    /// `MEMORY.md`: durable knowledge, read at every session start.
    #[default]
    Memory,
    /// Today's log (`memory/YYYY-MM-DD.md`): what happened, append-only.
    Log,
}

/// `memory_save`'s arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct MemorySaveRequest {
    /// What to remember, in a sentence or a few: a decision and its reason,
    /// a user preference, a debugging insight, a project fact.
    pub text: String,
    /// `memory` (durable, the default) or `log` (today's log).
    #[serde(default)]
    pub target: MemoryTarget,
    /// Words to find it by later.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// What `memory_save` did.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MemorySaved {
    /// The file written.
    pub path: String,
    /// The line the memory starts at.
    pub line: usize,
}

/// `memory_search`'s arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct MemorySearchRequest {
    /// Words to look for.
    pub query: String,
    /// At most this many hits (default 5).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Only `memory` (MEMORY.md), `log` (daily logs) or `session` (past
    /// sessions' turns).
    #[serde(default)]
    pub source: Option<String>,
}

/// What `memory_search` found.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MemorySearchOutput {
    /// The hits, best first.
    pub hits: Vec<MemoryHit>,
}

/// `memory_get`'s arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct MemoryGetRequest {
    /// A memory file: `MEMORY.md`, `memory/2026-11-23.md`, a checkpoint, or
    /// a path a search hit gave.
    pub path: String,
    /// First line (1-based).
    #[serde(default)]
    pub start_line: Option<usize>,
    /// Last line (inclusive).
    #[serde(default)]
    pub end_line: Option<usize>,
}

/// A memory file's text (empty when the file does not exist).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MemoryText {
    /// The lines asked for.
    pub text: String,
    /// The file.
    pub path: String,
}

/// The project this process works for: `CLAUDE_PROJECT_DIR` (set by Claude
/// Code for hooks and MCP servers), else the working directory.
pub fn current_project() -> String {
    std::env::var_os("CLAUDE_PROJECT_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "default".to_string())
}

/// One project's memory folder.
#[derive(Debug, Clone)]
pub struct ProjectMemory {
    dir: PathBuf,
    project: String,
}

impl ProjectMemory {
    /// The memory of `project` (its working directory) under `projects_dir`.
    pub fn new(projects_dir: &Path, project: &str) -> Self {
        let slug: String = project
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let slug = if slug.trim_matches('-').is_empty() {
            "default".to_string()
        } else {
            slug
        };
        Self {
            dir: projects_dir.join(slug),
            project: project.to_string(),
        }
    }

    /// The project's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The project (its working directory).
    pub fn project(&self) -> &str {
        &self.project
    }

    /// `MEMORY.md`.
    pub fn memory_file(&self) -> PathBuf {
        self.dir.join(MEMORY_FILE)
    }

    /// The daily log of `date`.
    pub fn daily_log(&self, date: NaiveDate) -> PathBuf {
        self.dir
            .join(LOG_DIR)
            .join(format!("{}.md", date.format("%Y-%m-%d")))
    }

    /// The checkpoints' folder.
    pub fn checkpoints_dir(&self) -> PathBuf {
        self.dir.join(CHECKPOINT_DIR)
    }

    /// Appends a memory (to `MEMORY.md` or today's log at `now`) and indexes
    /// the file.
    pub fn save(
        &self,
        store: &Store,
        request: &MemorySaveRequest,
        now: DateTime<Local>,
    ) -> Result<MemorySaved, MemoryError> {
        let text = store.redactor().redact(request.text.trim()).into_owned();
        let text = text.as_str();
        if text.is_empty() {
            return Err(MemoryError::Invalid(
                "memory_save: text is empty; say what to remember".into(),
            ));
        }
        let (path, header, prefix) = match request.target {
            MemoryTarget::Memory => (
                self.memory_file(),
                "# Memory\n\nDurable knowledge of this project, saved with ghost's memory_save. \
                 Edit freely.\n\n"
                    .to_string(),
                String::new(),
            ),
            MemoryTarget::Log => (
                self.daily_log(now.date_naive()),
                format!("# {}\n\n", now.format("%Y-%m-%d")),
                format!("{} ", now.format("%H:%M")),
            ),
        };
        let tags: String = request
            .tags
            .iter()
            .map(|t| t.trim().replace(char::is_whitespace, "-"))
            .filter(|t| !t.is_empty())
            .map(|t| format!(" #{t}"))
            .collect();
        // One list item; continuation lines indented under it.
        let body = text.lines().collect::<Vec<_>>().join("\n  ");
        let item = format!("- {prefix}{body}{tags}\n");
        let dir = path.parent().expect("memory files live in a folder");
        ghost_redact::key::create_private_dir(dir).map_err(io(dir))?;
        let existing = std::fs::read_to_string(&path).unwrap_or_default();
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io(&path))?;
        let mut write = String::new();
        if existing.is_empty() {
            write.push_str(&header);
        } else if !existing.ends_with('\n') {
            write.push('\n');
        }
        let line = existing.lines().count() + write.lines().count() + 1;
        write.push_str(&item);
        file.write_all(write.as_bytes()).map_err(io(&path))?;
        drop(file);
        self.index_file(store, &path, source_of(request.target))?;
        Ok(MemorySaved {
            path: path.display().to_string(),
            line,
        })
    }

    /// Lines of a memory file: `{text: "", path}` when it does not exist.
    /// Only files in the project's folder, or past sessions it indexed.
    pub fn get(
        &self,
        store: &Store,
        request: &MemoryGetRequest,
    ) -> Result<MemoryText, MemoryError> {
        let path = self.resolve(store, &request.path)?;
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(&path)(e)),
        };
        let start = request.start_line.unwrap_or(1).max(1);
        let end = request.end_line.unwrap_or(usize::MAX);
        let text = if start == 1 && end == usize::MAX {
            text
        } else {
            text.lines()
                .skip(start - 1)
                .take(end.saturating_sub(start - 1))
                .map(|l| format!("{l}\n"))
                .collect()
        };
        Ok(MemoryText {
            text,
            path: path.display().to_string(),
        })
    }

    /// Searches the project's memories, daily logs and past sessions.
    pub fn search(
        &self,
        store: &Store,
        request: &MemorySearchRequest,
    ) -> Result<MemorySearchOutput, MemoryError> {
        if let Some(s) = request.source.as_deref()
            && !["memory", "log", "session"].contains(&s)
        {
            return Err(MemoryError::Invalid(format!(
                "memory_search: source '{s}' is not one of memory, log, session"
            )));
        }
        self.sync_index(store)?;
        let limit = request.limit.unwrap_or(DEFAULT_SEARCH_LIMIT).min(50);
        let hits = store.memory_index().search(
            &request.query,
            &self.project,
            request.source.as_deref(),
            limit,
        )?;
        Ok(MemorySearchOutput { hits })
    }

    /// Brings the index up to date with the files: new and changed ones
    /// indexed, deleted ones forgotten.
    pub fn sync_index(&self, store: &Store) -> Result<(), MemoryError> {
        let mut files = vec![(self.memory_file(), "memory")];
        if let Ok(entries) = std::fs::read_dir(self.dir.join(LOG_DIR)) {
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "md") {
                    files.push((p, "log"));
                }
            }
        }
        let index = store.memory_index();
        for indexed in index.paths(&self.project)? {
            let p = Path::new(&indexed);
            if p.starts_with(&self.dir) && !p.exists() {
                index.remove(&indexed)?;
            }
        }
        for (path, source) in files {
            if path.exists() {
                self.index_file(store, &path, source)?;
            }
        }
        Ok(())
    }

    /// Indexes `path` as `source` unless this version is indexed already.
    fn index_file(&self, store: &Store, path: &Path, source: &str) -> Result<(), MemoryError> {
        let meta = std::fs::metadata(path).map_err(io(path))?;
        let file = MemoryFile {
            path: path.display().to_string(),
            project: self.project.clone(),
            source: source.to_string(),
            modified_ms: meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_millis() as i64),
            size: meta.len() as i64,
        };
        let index = store.memory_index();
        if index.is_current(&file)? {
            return Ok(());
        }
        let text = std::fs::read_to_string(path).map_err(io(path))?;
        index.replace(&file, &markdown_chunks(&text))?;
        Ok(())
    }

    /// Indexes a past session's turns (`chunks`, by line of its transcript
    /// at `path`, `size` bytes long) for `memory_search`.
    pub fn index_session(
        &self,
        store: &Store,
        path: &Path,
        size: u64,
        chunks: &[MemoryChunk],
    ) -> Result<(), MemoryError> {
        let file = MemoryFile {
            path: path.display().to_string(),
            project: self.project.clone(),
            source: "session".into(),
            modified_ms: 0,
            size: size as i64,
        };
        let index = store.memory_index();
        if !index.is_current(&file)? {
            index.replace(&file, chunks)?;
        }
        Ok(())
    }

    /// A requested path, checked: inside the project's folder (relative
    /// paths are taken from there; no `..`), or a session transcript the
    /// index holds for this project.
    fn resolve(&self, store: &Store, requested: &str) -> Result<PathBuf, MemoryError> {
        let p = Path::new(requested.trim());
        if p.components().any(|c| matches!(c, Component::ParentDir)) {
            return Err(MemoryError::Invalid(format!(
                "memory_get: '{requested}' has '..'; give a path inside the memory folder"
            )));
        }
        let path = if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.dir.join(p)
        };
        if path.starts_with(&self.dir)
            || store
                .memory_index()
                .paths(&self.project)?
                .iter()
                .any(|indexed| Path::new(indexed) == path)
        {
            Ok(path)
        } else {
            Err(MemoryError::Invalid(format!(
                "memory_get: '{requested}' is not a memory file of this project (they live in {})",
                self.dir.display()
            )))
        }
    }
}

fn source_of(target: MemoryTarget) -> &'static str {
    match target {
        MemoryTarget::Memory => "memory",
        MemoryTarget::Log => "log",
    }
}

/// Markdown split into chunks: a heading, a list item (with its
/// continuation lines) or a paragraph each, at most [`CHUNK_LINES`] lines.
pub fn markdown_chunks(text: &str) -> Vec<MemoryChunk> {
    let mut chunks = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut start = 1;
    let flush = |current: &mut Vec<&str>, start: usize, chunks: &mut Vec<MemoryChunk>| {
        if !current.is_empty() {
            chunks.push(MemoryChunk {
                start_line: start as i64,
                end_line: (start + current.len() - 1) as i64,
                text: current.join("\n"),
            });
            current.clear();
        }
    };
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let t = line.trim_start();
        let opens = t.starts_with('#')
            || t.starts_with("- ")
            || t.starts_with("* ")
            || line.trim().is_empty()
            || current.len() >= CHUNK_LINES;
        if opens {
            flush(&mut current, start, &mut chunks);
        }
        if line.trim().is_empty() {
            continue;
        }
        if current.is_empty() {
            start = n;
        }
        current.push(line);
    }
    flush(&mut current, start, &mut chunks);
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn setup() -> (tempfile::TempDir, Store, ProjectMemory) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.sqlite3")).unwrap();
        let memory = ProjectMemory::new(&dir.path().join("projects"), "/home/dev/project");
        (dir, store, memory)
    }

    fn save(target: MemoryTarget, text: &str, tags: &[&str]) -> MemorySaveRequest {
        MemorySaveRequest {
            text: text.into(),
            target,
            tags: tags.iter().map(|t| t.to_string()).collect(),
        }
    }

    #[test]
    fn saved_memories_land_in_markdown_and_are_found() {
        let (_d, store, memory) = setup();
        assert!(memory.dir().ends_with("-home-dev-project"));
        let now = Local.with_ymd_and_hms(2026, 11, 23, 14, 5, 0).unwrap();
        let saved = memory
            .save(
                &store,
                &save(
                    MemoryTarget::Memory,
                    "Releases go out with `make release`",
                    &["deploy"],
                ),
                now,
            )
            .unwrap();
        assert_eq!(saved.line, 5);
        memory
            .save(
                &store,
                &save(MemoryTarget::Memory, "The user wants tabs", &[]),
                now,
            )
            .unwrap();
        let logged = memory
            .save(
                &store,
                &save(
                    MemoryTarget::Log,
                    "Flaky test: net::retry\ntimes out under load",
                    &[],
                ),
                now,
            )
            .unwrap();
        assert!(
            logged.path.ends_with("memory/2026-11-23.md"),
            "{}",
            logged.path
        );
        let text = std::fs::read_to_string(memory.memory_file()).unwrap();
        assert!(text.starts_with("# Memory\n"));
        assert!(
            text.contains("- Releases go out with `make release` #deploy\n- The user wants tabs\n")
        );
        let log = std::fs::read_to_string(&logged.path).unwrap();
        assert_eq!(
            log,
            "# 2026-11-23\n\n- 14:05 Flaky test: net::retry\n  times out under load\n"
        );

        let search = |q: &str, source: Option<&str>| {
            memory
                .search(
                    &store,
                    &MemorySearchRequest {
                        query: q.into(),
                        limit: None,
                        source: source.map(str::to_string),
                    },
                )
                .unwrap()
                .hits
        };
        let hits = search("how do releases deploy", None);
        assert_eq!(hits[0].source, "memory");
        assert_eq!(hits[0].start_line, 5);
        let hits = search("retry", Some("log"));
        assert_eq!((hits.len(), hits[0].end_line), (1, 4));
        assert!(search("retry", Some("memory")).is_empty());

        // People edit the files; the index follows.
        std::fs::write(
            memory.memory_file(),
            "# Memory\n\n- Deploys use cargo dist now\n",
        )
        .unwrap();
        assert!(search("make release", Some("memory")).is_empty());
        assert_eq!(search("dist", None).len(), 1);
    }

    #[test]
    fn get_reads_lines_answers_empty_for_a_missing_file_and_stays_in_its_folder() {
        let (_d, store, memory) = setup();
        let get = |path: &str, start: Option<usize>, end: Option<usize>| {
            memory.get(
                &store,
                &MemoryGetRequest {
                    path: path.into(),
                    start_line: start,
                    end_line: end,
                },
            )
        };
        let missing = get("MEMORY.md", None, None).unwrap();
        assert_eq!(missing.text, "");
        assert!(missing.path.ends_with("MEMORY.md"));
        let now = Local.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap();
        memory
            .save(&store, &save(MemoryTarget::Memory, "one", &[]), now)
            .unwrap();
        memory
            .save(&store, &save(MemoryTarget::Memory, "two", &[]), now)
            .unwrap();
        assert_eq!(
            get("MEMORY.md", Some(5), Some(6)).unwrap().text,
            "- one\n- two\n"
        );
        assert!(get("../../etc/passwd", None, None).is_err());
        assert!(get("/etc/passwd", None, None).is_err());
        let err = memory
            .save(&store, &save(MemoryTarget::Memory, "  ", &[]), now)
            .unwrap_err();
        assert!(err.to_string().contains("text is empty"));
    }

    #[test]
    fn markdown_is_chunked_by_heading_item_and_paragraph() {
        let chunks = markdown_chunks("# T\n\n- a\n  more a\n- b\n\npara one\npara two\n");
        let spans: Vec<(i64, i64)> = chunks.iter().map(|c| (c.start_line, c.end_line)).collect();
        assert_eq!(spans, vec![(1, 1), (3, 4), (5, 5), (7, 8)]);
    }
}
