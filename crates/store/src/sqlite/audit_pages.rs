//! The pages as an audit reads them, in the file (see [`crate::audit_pages`]): the table, its
//! row written with each page, its filling for pages written without one, and the reading.

use std::collections::HashSet;

use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteStore;
use crate::audit_pages::{
    AuditPage, Digest, attach_entries, audit_page_of_digest, location_of_json,
    reduce_pages_without_digest,
};
use crate::{Bodies, StoreError, ThreadEntryRecord};

/// One row per page that has its digest.
pub(super) const TABLE: &str = "
CREATE TABLE IF NOT EXISTS audit_pages (
    page INTEGER PRIMARY KEY,
    list_links TEXT NOT NULL,
    links TEXT NOT NULL,
    posts BLOB NOT NULL,
    newest_post TEXT
);
";

/// Writes `page_id`'s digest in the transaction that writes the page.
pub(super) fn write_digest(
    connection: &Connection,
    page_id: i64,
    digest: &Digest,
) -> rusqlite::Result<()> {
    connection
        .prepare_cached(
            "INSERT OR REPLACE INTO audit_pages (page, list_links, links, posts, newest_post) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![
            page_id,
            digest.list_links,
            digest.links,
            digest.posts,
            digest.newest_post
        ])?;
    Ok(())
}

fn has_table(connection: &Connection) -> rusqlite::Result<bool> {
    connection
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'audit_pages'",
            [],
            |row| row.get::<_, i64>(0),
        )
        .map(|count| count > 0)
}

/// The first page without its digest, if any.
fn first_without_digest(connection: &Connection) -> rusqlite::Result<Option<i64>> {
    connection
        .query_row(
            "SELECT min(id) FROM pages WHERE id NOT IN (SELECT page FROM audit_pages)",
            [],
            |row| row.get::<_, Option<i64>>(0),
        )
        .optional()
        .map(Option::flatten)
}

impl SqliteStore {
    /// Makes the table in a file that lacks it and gives every page without a digest its
    /// digest, under the write lock taken at once, so that no page is written meanwhile.
    pub(super) fn ensure_audit_pages(&mut self) -> Result<(), StoreError> {
        let database = |error| self.database_error(error);
        if has_table(&self.connection).map_err(database)?
            && first_without_digest(&self.connection)
                .map_err(database)?
                .is_none()
        {
            return Ok(());
        }
        self.connection
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(|error| self.database_error(error))?;
        let filled = self.fill_audit_pages();
        let end = if filled.is_ok() { "COMMIT" } else { "ROLLBACK" };
        let ended = self
            .connection
            .execute_batch(end)
            .map_err(|error| self.database_error(error));
        filled.and(ended)
    }

    /// [`SqliteStore::ensure_audit_pages`]' work, inside its transaction.
    fn fill_audit_pages(&mut self) -> Result<(), StoreError> {
        let database = |error| self.database_error(error);
        self.connection.execute_batch(TABLE).map_err(database)?;
        let Some(first) = first_without_digest(&self.connection).map_err(database)? else {
            return Ok(());
        };
        let having: HashSet<i64> = {
            let mut statement = self
                .connection
                .prepare("SELECT page FROM audit_pages WHERE page >= ?1")
                .map_err(database)?;
            statement
                .query_map([first], |row| row.get(0))
                .map_err(database)?
                .collect::<Result<_, _>>()
                .map_err(database)?
        };
        let mut digests: Vec<(i64, Digest)> = Vec::new();
        let roles = trawl_audit::list_role_names();
        self.visit_pages(
            Bodies::OfRoles(&roles),
            Some(trawl_audit::TEXT_IN_IDENTITY),
            first - 1,
            |stored| {
                if !having.contains(&stored.id) {
                    digests.push((stored.id, Digest::of(&stored.record)));
                }
            },
        )?;
        for (page, digest) in &digests {
            write_digest(&self.connection, *page, digest)
                .map_err(|error| self.database_error(error))?;
        }
        Ok(())
    }

    /// See [`crate::Store::audit_pages`].
    pub fn audit_pages(&self) -> Result<Vec<AuditPage>, StoreError> {
        let database = |error| self.database_error(error);
        // One read transaction: the pages, their digests and entries of one committed state.
        let transaction = self.connection.unchecked_transaction().map_err(database)?;
        let with_digests = has_table(&transaction).map_err(database)?;
        let digest_columns = if with_digests {
            "audit.page IS NOT NULL, audit.list_links, audit.links, audit.posts, \
             audit.newest_post FROM pages LEFT JOIN audit_pages AS audit ON audit.page = pages.id"
        } else {
            "0, '', '', x'', NULL FROM pages"
        };
        let mut pages: Vec<AuditPage> = Vec::new();
        let mut without_digest: Vec<usize> = Vec::new();
        {
            let mut statement = transaction
                .prepare(&format!(
                    "SELECT id, url, status, error, \
                     CASE WHEN status BETWEEN 300 AND 399 THEN headers END, role, title, \
                     {digest_columns} ORDER BY id"
                ))
                .map_err(database)?;
            let mut rows = statement.query([]).map_err(database)?;
            while let Some(row) = rows.next().map_err(database)? {
                let status: u16 = row.get(2).map_err(database)?;
                let headers: Option<String> = row.get(4).map_err(database)?;
                let page = AuditPage {
                    id: row.get(0).map_err(database)?,
                    url: row.get(1).map_err(database)?,
                    status,
                    error: row.get(3).map_err(database)?,
                    location: location_of_json(status, headers.as_deref()),
                    role: row.get(5).map_err(database)?,
                    title: row.get(6).map_err(database)?,
                    list_links: Vec::new(),
                    links: Vec::new(),
                    posts: Default::default(),
                    thread_entries: Vec::new(),
                };
                let has_digest: bool = row.get(7).map_err(database)?;
                if has_digest {
                    let digest = Digest {
                        list_links: row.get(8).map_err(database)?,
                        links: row.get(9).map_err(database)?,
                        posts: row.get(10).map_err(database)?,
                        newest_post: row.get(11).map_err(database)?,
                    };
                    pages.push(audit_page_of_digest(page, digest));
                } else {
                    without_digest.push(pages.len());
                    pages.push(page);
                }
            }
            let mut statement = transaction
                .prepare(
                    "SELECT page, title, url, author, replies, last_reply FROM thread_entries \
                     ORDER BY page, position",
                )
                .map_err(database)?;
            let entries = statement
                .query_map([], |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        ThreadEntryRecord {
                            title: row.get(1)?,
                            url: row.get(2)?,
                            author: row.get(3)?,
                            replies: row.get::<_, Option<i64>>(4)?.map(|count| count as u64),
                            last_reply: row.get(5)?,
                        },
                    ))
                })
                .map_err(database)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(database)?;
            attach_entries(&mut pages, entries);
        }
        drop(transaction);
        // Pages written without a digest are reduced now, from their bodies and posts (a
        // writer from before the digests, a file of that age opened for reading only).
        reduce_pages_without_digest(
            &mut pages,
            without_digest,
            |bodies, text_chars, after, visit| {
                self.visit_pages(bodies, Some(text_chars), after, visit)
            },
        )?;
        Ok(pages)
    }
}
