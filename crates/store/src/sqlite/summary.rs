//! The crawl's totals in the file (see [`crate::summary`]): made with the tables, or on the
//! first opening for writing of a file made before them, and read in one transaction.

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use super::SqliteStore;
use crate::StoreError;
use crate::summary::{CrawlSummary, RoleSummary, role_of, timestamp_of};

/// The totals' tables and the triggers that keep them. `summary` has one row; the pages and
/// posts are the sums of `role_summary`'s few rows, so that a post stored costs one update of
/// one row (SQLite runs triggers once per row; a page of ten posts fires ten), and a page one
/// upsert of its role's row and one of its second's, the errors' row only for an error. A
/// fetch time is
/// counted in the second its text names (`2026-01-02T03:04:05` of `…05.5Z`), which is the
/// second `jiff::Timestamp::as_second` gives for the times the store writes (UTC, after 1970);
/// a time SQLite cannot read is left out of `fetch_seconds` rather than counted at second 0.
const TABLES: &str = "
CREATE TABLE summary (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    errors INTEGER NOT NULL DEFAULT 0,
    frontier_waiting INTEGER NOT NULL DEFAULT 0,
    frontier_done INTEGER NOT NULL DEFAULT 0
);
INSERT INTO summary (id) VALUES (1);
CREATE TABLE role_summary (
    role TEXT NOT NULL PRIMARY KEY,
    pages INTEGER NOT NULL DEFAULT 0,
    posts INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE fetch_seconds (at_second INTEGER PRIMARY KEY, pages INTEGER NOT NULL);
CREATE TRIGGER summary_of_pages AFTER INSERT ON pages BEGIN
    INSERT INTO role_summary (role, pages) VALUES (coalesce(NEW.role, ''), 1)
        ON CONFLICT (role) DO UPDATE SET pages = pages + 1;
    INSERT INTO fetch_seconds (at_second, pages)
        SELECT CAST(strftime('%s', substr(NEW.fetched_at, 1, 19)) AS INTEGER), 1
        WHERE strftime('%s', substr(NEW.fetched_at, 1, 19)) IS NOT NULL
        ON CONFLICT (at_second) DO UPDATE SET pages = pages + 1;
END;
CREATE TRIGGER summary_of_errors AFTER INSERT ON pages
    WHEN NEW.status = 0 OR NEW.status >= 400 BEGIN
    UPDATE summary SET errors = errors + 1;
END;
CREATE TRIGGER summary_of_posts AFTER INSERT ON posts BEGIN
    UPDATE role_summary SET posts = posts + 1
        WHERE role = (SELECT coalesce(role, '') FROM pages WHERE id = NEW.page);
END;
CREATE TRIGGER summary_of_queued AFTER INSERT ON frontier BEGIN
    UPDATE summary SET frontier_waiting = frontier_waiting + (NEW.done = 0),
        frontier_done = frontier_done + (NEW.done <> 0);
END;
CREATE TRIGGER summary_of_frontier_states AFTER UPDATE OF done ON frontier
    WHEN (OLD.done = 0) <> (NEW.done = 0) BEGIN
    UPDATE summary SET
        frontier_waiting = frontier_waiting + (NEW.done = 0) - (OLD.done = 0),
        frontier_done = frontier_done + (OLD.done = 0) - (NEW.done = 0);
END;
";

/// Fills the totals from the rows a file made before them holds (nothing, in a new file).
const FILL: &str = "
UPDATE summary SET
    errors = (SELECT count(*) FROM pages WHERE status = 0 OR status >= 400),
    frontier_waiting = (SELECT count(*) FROM frontier WHERE done = 0),
    frontier_done = (SELECT count(*) FROM frontier WHERE done <> 0);
INSERT INTO role_summary (role, pages, posts)
    SELECT coalesce(role, ''), count(*), coalesce(sum(counted.posts), 0)
    FROM pages LEFT JOIN (SELECT page, count(*) AS posts FROM posts GROUP BY page) AS counted
        ON counted.page = pages.id
    GROUP BY 1;
INSERT INTO fetch_seconds (at_second, pages)
    SELECT CAST(strftime('%s', substr(fetched_at, 1, 19)) AS INTEGER), count(*)
    FROM pages WHERE strftime('%s', substr(fetched_at, 1, 19)) IS NOT NULL
    GROUP BY 1;
";

/// Whether the file has the totals' tables.
fn has_summary(connection: &Connection) -> rusqlite::Result<bool> {
    connection
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'summary'",
            [],
            |row| row.get::<_, i64>(0),
        )
        .map(|count| count > 0)
}

impl SqliteStore {
    /// Makes and fills the totals in a file that lacks them, under the write lock taken at
    /// once, so that no fetch is written between their making and their filling and two
    /// processes opening an old file together make them once.
    pub(super) fn ensure_summary(&mut self) -> Result<(), StoreError> {
        if has_summary(&self.connection).map_err(|error| self.database_error(error))? {
            return Ok(());
        }
        let path = self.path.clone();
        let database = |source| StoreError::Sqlite {
            path: path.clone(),
            source,
        };
        let transaction = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(database)?;
        if !has_summary(&transaction).map_err(database)? {
            transaction.execute_batch(TABLES).map_err(database)?;
            transaction.execute_batch(FILL).map_err(database)?;
        }
        transaction.commit().map_err(database)
    }

    /// See [`crate::Store::summary`].
    pub fn summary(&self) -> Result<Option<CrawlSummary>, StoreError> {
        let database = |error| self.database_error(error);
        // One read transaction: the totals of one committed state, whatever a writer does.
        let transaction = self.connection.unchecked_transaction().map_err(database)?;
        if !has_summary(&transaction).map_err(database)? {
            return Ok(None);
        }
        let count = |value: i64| value.max(0) as usize;
        let mut summary = transaction
            .query_row(
                "SELECT errors, frontier_waiting, frontier_done FROM summary",
                [],
                |row| {
                    Ok(CrawlSummary {
                        errors: count(row.get(0)?),
                        frontier_waiting: count(row.get(1)?),
                        frontier_done: count(row.get(2)?),
                        ..CrawlSummary::default()
                    })
                },
            )
            .optional()
            .map_err(database)?
            .ok_or_else(|| self.damaged("the summary table has no row"))?;
        let mut roles = transaction
            .prepare("SELECT role, pages, posts FROM role_summary")
            .map_err(database)?;
        summary.by_role = roles
            .query_map([], |row| {
                Ok(RoleSummary {
                    role: role_of(row.get(0)?),
                    pages: count(row.get(1)?),
                    posts: count(row.get(2)?),
                })
            })
            .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
            .map_err(database)?;
        drop(roles);
        // Ordered here, not by the database's collation, so both backends agree.
        summary.by_role.sort_by(|a, b| a.role.cmp(&b.role));
        summary.pages = summary.by_role.iter().map(|role| role.pages).sum();
        summary.posts = summary.by_role.iter().map(|role| role.posts).sum();
        let (first, last): (Option<i64>, Option<i64>) = transaction
            .query_row(
                "SELECT min(at_second), max(at_second) FROM fetch_seconds",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map_err(database)?;
        summary.first_fetch = timestamp_of(first);
        summary.last_fetch = timestamp_of(last);
        if let Some(last) = last {
            let recent: i64 = transaction
                .query_row(
                    "SELECT coalesce(sum(pages), 0) FROM fetch_seconds WHERE at_second > ?1",
                    [last - 60],
                    |row| row.get(0),
                )
                .map_err(database)?;
            summary.pages_in_last_minute = count(recent);
        }
        Ok(Some(summary))
    }
}
