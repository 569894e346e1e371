//! The archive: the [`Store`] type, one SQLite connection, and what it does
//! with entries: open and migrate, insert (idempotently), read, touch,
//! forget, maintain (expiry, priorities), settle estimated token counts,
//! list, and compact the file. Recall and reports are in their own modules;
//! the per-session context state is [`crate::session`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::functions::FunctionFlags;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use ghost_redact::{RedactRules, Redactor};

use crate::entry::{self, Entry, Forgotten, IdempotencyKey, Listed, NewEntry, Stored};
use crate::gateway::GatewayState;
use crate::retention::TOMBSTONE;
use crate::session::SessionContext;
use crate::{BUSY_TIMEOUT, StoreError, priority, recall, schema};

/// A store open on one file.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    tuning: recall::RecallTuning,
    redactor: Redactor,
}

/// What a maintenance pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Maintenance {
    /// Entries whose TTL ran out, now soft-deleted.
    pub expired: usize,
    /// Entries whose priority was recomputed.
    pub reprioritized: usize,
}

/// What `gc` did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Collected {
    /// Soft-deleted entries purged for good.
    pub purged: usize,
    /// File size before, bytes.
    pub bytes_before: u64,
    /// File size after, bytes.
    pub bytes_after: u64,
}

/// A connection to `path` in WAL mode with the current schema. Processes
/// that open a new file at once contend for it in ways SQLite's busy
/// handler does not cover (switching to WAL, creating the schema): those
/// steps are retried until [`BUSY_TIMEOUT`].
fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let started = std::time::Instant::now();
    loop {
        let attempt = (|| {
            let mut conn = Connection::open(path)?;
            conn.busy_timeout(BUSY_TIMEOUT)?;
            // WAL lets readers run beside one writer; NORMAL sync is durable
            // across application crashes, which is what a hook can cause.
            // The mode is stored in the file: only its first opener sets it.
            let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0))?;
            if !mode.eq_ignore_ascii_case("wal") {
                conn.pragma_update(None, "journal_mode", "WAL")?;
            }
            conn.pragma_update(None, "synchronous", "NORMAL")?;
            conn.pragma_update(None, "foreign_keys", true)?;
            // What is deleted is overwritten, not left in free pages.
            conn.pragma_update(None, "secure_delete", true)?;
            schema::migrate(&mut conn)?;
            Ok::<_, StoreError>(conn)
        })();
        match attempt {
            Err(e) if e.is_busy() && started.elapsed() < BUSY_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(
                    5 + started.elapsed().as_millis() as u64 % 20,
                ));
            }
            other => return other,
        }
    }
}

/// Creates `path` empty and private (0600) when it does not exist, so
/// SQLite, which gives its WAL and shared-memory files the database file's
/// mode, never makes any of them readable by others. An empty file is an
/// empty database.
fn create_private_file(path: &Path) {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    // Already there (or made by another process first): nothing to do.
    let _ = options.open(path);
}

/// Makes `path` (and its WAL and shared-memory files, when there) readable
/// and writable by its owner only. Best effort: a file on a filesystem
/// without Unix modes stays as it is.
fn restrict_to_owner(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for suffix in ["", "-wal", "-shm"] {
            let mut file = path.as_os_str().to_owned();
            file.push(suffix);
            let file = PathBuf::from(file);
            if let Ok(meta) = std::fs::metadata(&file)
                && meta.permissions().mode() & 0o077 != 0
            {
                let _ = std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

impl Store {
    /// Opens (creating if needed) the store at `path` and migrates it, with
    /// the built-in redaction rules.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Self::open_with(path, &RedactRules::default())
    }

    /// Opens (creating if needed) the store at `path` and migrates it;
    /// every text written is redacted by the built-in rules adjusted by
    /// `rules`. A new directory is made private (0700), a new file 0600.
    pub fn open_with(path: &Path, rules: &RedactRules) -> Result<Self, StoreError> {
        let redactor = Self::redactor_for(path, rules)?;
        create_private_file(path);
        let conn = open_connection(path)?;
        restrict_to_owner(path);
        conn.create_scalar_function(
            "ghost_priority",
            4,
            FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
            |ctx| {
                let class: String = ctx.get(0)?;
                Ok(priority::priority(
                    priority::class_of_column(&class),
                    ctx.get(1)?,
                    ctx.get(2)?,
                    ctx.get(3)?,
                ))
            },
        )?;
        Ok(Self {
            conn,
            path: path.to_path_buf(),
            tuning: recall::RecallTuning::default(),
            redactor,
        })
    }

    /// The redactor of the store at `path`: `rules`, keyed by the key file
    /// beside the store (its directory created 0700 when missing), for
    /// callers that redact without opening the store.
    pub fn redactor_for(path: &Path, rules: &RedactRules) -> Result<Redactor, StoreError> {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        ghost_redact::key::create_private_dir(dir).map_err(|source| StoreError::CreateDir {
            path: dir.to_path_buf(),
            source,
        })?;
        Ok(Redactor::in_dir(dir, rules)?)
    }

    /// What redacts every text this store writes (and what callers use to
    /// redact what they show).
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    /// How recall ranks on this connection.
    pub fn recall_tuning(&self) -> recall::RecallTuning {
        self.tuning
    }

    /// Changes how recall ranks on this connection (for benchmarks).
    pub fn set_recall_tuning(&mut self, tuning: recall::RecallTuning) {
        self.tuning = tuning;
    }

    /// The file this store is on.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The id of the active entry stored under `key`, if any.
    pub fn find(&self, key: &IdempotencyKey) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM entries WHERE idempotency_key = ?1 AND active",
                [key.as_str()],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Stores `entry` unless its key is already there; either way returns the id.
    pub fn insert(&mut self, entry: &NewEntry) -> Result<Stored, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        // A forgotten (or expired) entry under this key is a tombstone:
        // what comes in again is stored anew, under the same id.
        tx.execute(
            "DELETE FROM entries WHERE idempotency_key = ?1 AND NOT active",
            [entry.key.as_str()],
        )?;
        let existing: Option<String> = tx
            .query_row(
                "SELECT id FROM entries WHERE idempotency_key = ?1",
                [entry.key.as_str()],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(id) = existing {
            return Ok(Stored { id, created: false });
        }
        // 12 hex digits; on the rare clash with another key, a longer prefix.
        let mut id = entry.key.entry_id(entry::ID_LEN);
        for len in [16, 24, 64] {
            let taken: bool = tx.query_row(
                "SELECT EXISTS(SELECT 1 FROM entries WHERE id = ?1)",
                [&id],
                |r| r.get(0),
            )?;
            if !taken {
                break;
            }
            id = entry.key.entry_id(len);
        }
        let priority = priority::priority(
            entry.class,
            entry.created_at,
            entry.created_at,
            entry.created_at,
        );
        tx.execute(
            "INSERT INTO entries (id, idempotency_key, session_id, created_at, class,
                source_tool, source_path, original, summary, original_tokens, summary_tokens,
                priority, last_access, ttl_seconds, active, context, tags, tokens_exact, agent_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?4, ?13, 1, ?14, ?15, ?16,
                ?17)",
            params![
                id,
                entry.key.as_str(),
                entry.session_id,
                entry.created_at,
                entry.class.as_str(),
                entry.source_tool,
                entry
                    .source_path
                    .as_deref()
                    .map(|p| self.redactor.redact(p)),
                self.redactor.redact(&entry.original),
                self.redactor.redact(&entry.summary),
                entry.original_tokens,
                entry.summary_tokens,
                priority,
                entry.ttl_seconds,
                self.redactor.redact(&entry.context),
                self.redactor.redact(&entry.tags),
                entry.tokens_exact,
                entry.agent_id,
            ],
        )?;
        tx.execute(
            "INSERT INTO session_state (session_id, first_seen, last_seen, entries_ingested,
                tokens_original, tokens_summary)
             VALUES (?1, ?2, ?2, 1, ?3, ?4)
             ON CONFLICT(session_id) DO UPDATE SET
                last_seen = max(last_seen, excluded.last_seen),
                entries_ingested = entries_ingested + 1,
                tokens_original = tokens_original + excluded.tokens_original,
                tokens_summary = tokens_summary + excluded.tokens_summary",
            params![
                entry.session_id,
                entry.created_at,
                entry.original_tokens,
                entry.summary_tokens
            ],
        )?;
        tx.commit()?;
        Ok(Stored { id, created: true })
    }

    /// The entry `id`, active or not, without touching it.
    pub fn entry(&self, id: &str) -> Result<Entry, StoreError> {
        self.conn
            .query_row(
                "SELECT id, session_id, created_at, class, source_tool, source_path, original,
                    summary, original_tokens, summary_tokens, priority, last_access,
                    ttl_seconds, active
                 FROM entries WHERE id = ?1",
                [id.trim()],
                |r| {
                    Ok(Entry {
                        id: r.get(0)?,
                        session_id: r.get(1)?,
                        created_at: r.get(2)?,
                        class: entry::class_at(r, 3)?,
                        source_tool: r.get(4)?,
                        source_path: r.get(5)?,
                        original: r.get(6)?,
                        summary: r.get(7)?,
                        original_tokens: r.get(8)?,
                        summary_tokens: r.get(9)?,
                        priority: r.get(10)?,
                        last_access: r.get(11)?,
                        ttl_seconds: r.get(12)?,
                        active: r.get(13)?,
                    })
                },
            )
            .optional()?
            .ok_or_else(|| StoreError::NotFound(id.trim().to_string()))
    }

    /// Reads the active entry `id` for someone who asked for it: refreshes
    /// its last access and priority. A forgotten entry is not found.
    pub fn read(&mut self, id: &str, now: i64) -> Result<Entry, StoreError> {
        let mut entry = self.entry(id)?;
        if !entry.active {
            return Err(StoreError::NotFound(entry.id));
        }
        self.touch(&[entry.id.as_str()], now)?;
        // What touch wrote, without reading the original again.
        entry.last_access = entry.last_access.max(now);
        entry.priority = priority::priority(entry.class, entry.created_at, entry.last_access, now);
        Ok(entry)
    }

    /// Marks `ids` as read at `now` and recomputes their priority.
    pub fn touch(&mut self, ids: &[&str], now: i64) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut update = tx.prepare_cached(
                "UPDATE entries SET last_access = max(last_access, ?2),
                    priority = ghost_priority(class, created_at, max(last_access, ?2), ?2)
                 WHERE id = ?1",
            )?;
            for id in ids {
                update.execute(params![id, now])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Forgets `id`: its texts are blanked at once (and leave the search
    /// index); only its id stays, so forgetting it twice is not an error,
    /// until `gc` removes it. It no longer matches recall or `get`.
    pub fn forget(&mut self, id: &str) -> Result<Forgotten, StoreError> {
        let entry = self.entry(id)?;
        if !entry.active {
            return Ok(Forgotten::Already);
        }
        let changed = self.conn.execute(
            &format!("UPDATE entries SET {TOMBSTONE} WHERE id = ?1 AND active"),
            [&entry.id],
        )?;
        Ok(if changed == 1 {
            Forgotten::Now
        } else {
            Forgotten::Already
        })
    }

    /// Expires entries whose TTL ran out by `now` (forgets them: their texts
    /// are blanked) and recomputes every active entry's priority.
    pub fn maintain(&mut self, now: i64) -> Result<Maintenance, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let expired = tx.execute(
            &format!(
                "UPDATE entries SET {TOMBSTONE}
                 WHERE active AND ttl_seconds IS NOT NULL AND created_at + ttl_seconds * 1000 <= ?1"
            ),
            [now],
        )?;
        let reprioritized = tx.execute(
            "UPDATE entries SET priority = ghost_priority(class, created_at, last_access, ?1)
             WHERE active",
            [now],
        )?;
        tx.execute(
            "INSERT INTO store_meta (key, value) VALUES ('maintained_at', ?1)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [now.to_string()],
        )?;
        tx.commit()?;
        Ok(Maintenance {
            expired,
            reprioritized,
        })
    }

    /// Replaces estimated token counts by exact ones from `count` (the
    /// caller's tokenizer), for at most `limit` entries; returns how many
    /// were counted. Calls `count` only when there is something to count.
    pub fn settle_token_counts(
        &mut self,
        limit: usize,
        count: impl Fn(&str) -> usize,
    ) -> Result<usize, StoreError> {
        let pending: Vec<(i64, String, String, Option<String>)> = {
            let mut stmt = self.conn.prepare_cached(
                "SELECT rowid, session_id, original, CASE WHEN summary = original THEN NULL ELSE summary END
                 FROM entries WHERE tokens_exact = 0 LIMIT ?1",
            )?;
            let rows = stmt.query_map([limit as i64], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?;
            rows.collect::<Result<_, _>>()?
        };
        if pending.is_empty() {
            return Ok(0);
        }
        let counted: Vec<(i64, String, i64, i64)> = pending
            .into_iter()
            .map(|(rowid, session, original, summary)| {
                let o = count(&original) as i64;
                let s = summary.map_or(o, |s| count(&s) as i64);
                (rowid, session, o, s)
            })
            .collect();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut old = tx.prepare_cached(
                "SELECT original_tokens, summary_tokens FROM entries
                 WHERE rowid = ?1 AND tokens_exact = 0",
            )?;
            let mut set = tx.prepare_cached(
                "UPDATE entries SET original_tokens = ?2, summary_tokens = ?3, tokens_exact = 1
                 WHERE rowid = ?1",
            )?;
            let mut totals = tx.prepare_cached(
                "UPDATE session_state SET tokens_original = tokens_original + ?2,
                    tokens_summary = tokens_summary + ?3 WHERE session_id = ?1",
            )?;
            for (rowid, session, o, s) in &counted {
                // Another process may have settled it meanwhile.
                let Some((old_o, old_s)): Option<(i64, i64)> = old
                    .query_row([rowid], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()?
                else {
                    continue;
                };
                set.execute(params![rowid, o, s])?;
                totals.execute(params![session, o - old_o, s - old_s])?;
            }
        }
        tx.commit()?;
        Ok(counted.len())
    }

    /// Runs [`Store::maintain`] if the last pass is older than `every`.
    pub fn maintain_if_due(
        &mut self,
        now: i64,
        every: Duration,
    ) -> Result<Option<Maintenance>, StoreError> {
        let last: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM store_meta WHERE key = 'maintained_at'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        let last = last.and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
        if now - last < every.as_millis() as i64 {
            return Ok(None);
        }
        self.maintain(now).map(Some)
    }

    /// Purges soft-deleted entries, then compacts the file.
    pub fn gc(&mut self) -> Result<Collected, StoreError> {
        let bytes_before = self.size_on_disk();
        let purged = self
            .conn
            .execute("DELETE FROM entries WHERE NOT active", [])?;
        self.conn.execute(
            "INSERT INTO entries_fts(entries_fts) VALUES ('optimize')",
            [],
        )?;
        self.conn.execute_batch("VACUUM")?;
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(Collected {
            purged,
            bytes_before,
            bytes_after: self.size_on_disk(),
        })
    }

    /// Bytes the store takes on disk (the file and its write-ahead log).
    pub fn size_on_disk(&self) -> u64 {
        let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        size(&self.path) + size(Path::new(&wal))
    }

    /// The `limit` most recent active entries.
    pub fn recent(&self, limit: usize) -> Result<Vec<Listed>, StoreError> {
        self.listed(
            "WHERE active ORDER BY created_at DESC, rowid DESC LIMIT ?1",
            params![limit as i64],
        )
    }

    /// The `limit` active entries of `session` with the highest priority.
    pub fn top(&self, session: &str, limit: usize) -> Result<Vec<Listed>, StoreError> {
        self.listed(
            "WHERE active AND session_id = ?2 ORDER BY priority DESC, created_at DESC LIMIT ?1",
            params![limit as i64, session],
        )
    }

    fn listed(&self, rest: &str, args: impl rusqlite::Params) -> Result<Vec<Listed>, StoreError> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT id, class, source_tool, source_path, original_tokens, summary_tokens,
                length(CAST(original AS BLOB)), priority
             FROM entries {rest}"
        ))?;
        let rows = stmt.query_map(args, |r| {
            Ok(Listed {
                id: r.get(0)?,
                class: entry::class_at(r, 1)?,
                source_tool: r.get(2)?,
                source_path: r.get(3)?,
                original_tokens: r.get(4)?,
                summary_tokens: r.get(5)?,
                original_bytes: r.get(6)?,
                priority: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The session seen most recently, if any.
    pub fn latest_session(&self) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT session_id FROM session_state ORDER BY last_seen DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The gateway's decisions kept beside the archive.
    pub fn gateway_state(&self) -> GatewayState<'_> {
        GatewayState::new(&self.conn)
    }

    /// The index of memory files and past sessions' turns.
    pub fn memory_index(&self) -> crate::memory::MemoryIndex<'_> {
        crate::memory::MemoryIndex::new(&self.conn, &self.redactor)
    }

    /// The per-session context state kept beside the archive.
    pub fn session_context(&self) -> SessionContext<'_> {
        SessionContext::new(&self.conn)
    }

    /// The connection, for the query modules.
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// The connection, for modules that write in transactions.
    pub(crate) fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }
}
