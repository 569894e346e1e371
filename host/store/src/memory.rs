//! The index of memory files: Markdown the user and the agent can read and
//! edit (`MEMORY.md`, daily logs) and past sessions' turns, split into
//! chunks and searchable with FTS5. The files stay the source of truth: a
//! file is re-indexed whenever its size or modification time changes, and
//! the index can be rebuilt from them at any time.
//!
//! A [`MemoryIndex`] is a view on the store's connection
//! ([`crate::Store::memory_index`]); it owns no data of its own.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::StoreError;
use crate::query::TextQuery;
use crate::recall::preview;

/// Longest chunk text a hit shows, in characters.
pub const HIT_PREVIEW_CHARS: usize = 600;

/// A file as indexed: where it is, whose it is, what kind, which version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryFile {
    /// Its path (the key).
    pub path: String,
    /// The project it belongs to.
    pub project: String,
    /// What it is: `memory` (MEMORY.md), `log` (a daily log) or `session`
    /// (a past session's turns).
    pub source: String,
    /// Its modification time, in milliseconds since the epoch.
    pub modified_ms: i64,
    /// Its size in bytes.
    pub size: i64,
}

/// A span of a file's lines, indexed as one unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryChunk {
    /// Its first line (1-based).
    pub start_line: i64,
    /// Its last line (1-based, inclusive).
    pub end_line: i64,
    /// Its text.
    pub text: String,
}

/// One search hit.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct MemoryHit {
    /// The file: pass it to `memory_get` with the lines.
    pub path: String,
    /// `memory`, `log` or `session`.
    pub source: String,
    /// First line of the matching chunk.
    pub start_line: i64,
    /// Last line of the matching chunk.
    pub end_line: i64,
    /// Relevance (higher is better).
    pub score: f64,
    /// The chunk's text, shortened when long.
    pub text: String,
}

/// The memory index on one store's connection.
pub struct MemoryIndex<'a> {
    conn: &'a Connection,
    redactor: &'a ghost_redact::Redactor,
}

impl<'a> MemoryIndex<'a> {
    /// The index kept on `conn`, writing what `redactor` leaves of a text.
    pub(crate) fn new(conn: &'a Connection, redactor: &'a ghost_redact::Redactor) -> Self {
        Self { conn, redactor }
    }

    /// Whether `file` is indexed at this very version (size and time).
    pub fn is_current(&self, file: &MemoryFile) -> Result<bool, StoreError> {
        let found: Option<(i64, i64)> = self
            .conn
            .query_row(
                "SELECT modified_ms, size FROM memory_files WHERE path = ?1",
                [&file.path],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(found == Some((file.modified_ms, file.size)))
    }

    /// Replaces whatever was indexed of `file` with `chunks`, in one
    /// transaction.
    pub fn replace(&self, file: &MemoryFile, chunks: &[MemoryChunk]) -> Result<(), StoreError> {
        let tx = self.conn.unchecked_transaction()?;
        tx.execute("DELETE FROM memory_chunks WHERE path = ?1", [&file.path])?;
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO memory_chunks (path, project, source, start_line, end_line, text)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for c in chunks {
                insert.execute(params![
                    file.path,
                    file.project,
                    file.source,
                    c.start_line,
                    c.end_line,
                    self.redactor.redact(&c.text)
                ])?;
            }
        }
        tx.execute(
            "INSERT INTO memory_files (path, project, source, modified_ms, size)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT(path) DO UPDATE SET project = excluded.project,
                source = excluded.source, modified_ms = excluded.modified_ms,
                size = excluded.size",
            params![
                file.path,
                file.project,
                file.source,
                file.modified_ms,
                file.size
            ],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Forgets `path` (a file that no longer exists).
    pub fn remove(&self, path: &str) -> Result<(), StoreError> {
        self.conn
            .execute("DELETE FROM memory_chunks WHERE path = ?1", [path])?;
        self.conn
            .execute("DELETE FROM memory_files WHERE path = ?1", [path])?;
        Ok(())
    }

    /// Every indexed path of `project`.
    pub fn paths(&self, project: &str) -> Result<Vec<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT path FROM memory_files WHERE project = ?1 ORDER BY path")?;
        let rows = stmt.query_map([project], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The chunks of `project` that best match `text` (BM25), at most
    /// `limit`, only of `source` when given.
    pub fn search(
        &self,
        text: &str,
        project: &str,
        source: Option<&str>,
        limit: usize,
    ) -> Result<Vec<MemoryHit>, StoreError> {
        let query = TextQuery::parse(text);
        if query.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.path, c.source, c.start_line, c.end_line, -bm25(memory_fts), c.text
             FROM memory_fts JOIN memory_chunks c ON c.rowid = memory_fts.rowid
             WHERE memory_fts MATCH ?1 AND c.project = ?2 AND (?3 IS NULL OR c.source = ?3)
             ORDER BY bm25(memory_fts) LIMIT ?4",
        )?;
        let rows = stmt.query_map(
            params![query.to_fts(), project, source, limit as i64],
            |r| {
                let text: String = r.get(5)?;
                Ok(MemoryHit {
                    path: r.get(0)?,
                    source: r.get(1)?,
                    start_line: r.get(2)?,
                    end_line: r.get(3)?,
                    score: r.get(4)?,
                    text: preview(&text, HIT_PREVIEW_CHARS).0,
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    fn file(path: &str, size: i64) -> MemoryFile {
        MemoryFile {
            path: path.into(),
            project: "/p".into(),
            source: "memory".into(),
            modified_ms: 1,
            size,
        }
    }

    fn chunk(line: i64, text: &str) -> MemoryChunk {
        MemoryChunk {
            start_line: line,
            end_line: line,
            text: text.into(),
        }
    }

    #[test]
    fn chunks_are_found_replaced_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.sqlite3")).unwrap();
        let index = store.memory_index();
        let f = file("/m/MEMORY.md", 10);
        assert!(!index.is_current(&f).unwrap());
        index
            .replace(
                &f,
                &[
                    chunk(1, "We deploy with make release"),
                    chunk(3, "Tabs, not spaces"),
                ],
            )
            .unwrap();
        assert!(index.is_current(&f).unwrap());
        let hits = index.search("how do we deploy", "/p", None, 5).unwrap();
        assert_eq!(hits.len(), 1);
        assert_eq!((hits[0].start_line, hits[0].source.as_str()), (1, "memory"));
        assert!(
            index
                .search("deploy", "/other", None, 5)
                .unwrap()
                .is_empty()
        );
        assert!(
            index
                .search("deploy", "/p", Some("log"), 5)
                .unwrap()
                .is_empty()
        );
        // A new version replaces the old chunks.
        let f2 = file("/m/MEMORY.md", 20);
        index
            .replace(&f2, &[chunk(1, "We deploy with cargo dist")])
            .unwrap();
        assert!(!index.is_current(&f).unwrap());
        let hits = index.search("release", "/p", None, 5).unwrap();
        assert!(hits.is_empty(), "{hits:?}");
        assert_eq!(index.search("dist", "/p", None, 5).unwrap().len(), 1);
        index.remove("/m/MEMORY.md").unwrap();
        assert!(index.search("dist", "/p", None, 5).unwrap().is_empty());
        assert!(index.paths("/p").unwrap().is_empty());
    }
}
