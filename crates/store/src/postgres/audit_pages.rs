//! The pages as an audit reads them, in the shared database (see [`crate::audit_pages`]): the
//! table (made by `schema`), the filling for pages written without a digest, and the reading.
//! The row is written with its page by the page's one statement (`write`).

use std::collections::HashSet;

use super::PostgresStore;
use crate::audit_pages::{
    AuditPage, Digest, attach_entries, audit_page_of_digest, location_of_json,
    reduce_pages_without_digest,
};
use crate::{Bodies, StoreError, ThreadEntryRecord};

/// One row per page that has its digest. Made under the schema lock, in a database made before
/// it too.
pub(super) const TABLE: &str = "
CREATE TABLE IF NOT EXISTS audit_pages (
    site BIGINT NOT NULL,
    page BIGINT NOT NULL,
    list_links TEXT NOT NULL,
    links TEXT NOT NULL,
    posts BYTEA NOT NULL,
    newest_post TEXT,
    PRIMARY KEY (site, page),
    FOREIGN KEY (site, page) REFERENCES pages (site, id) ON DELETE CASCADE
);
";

/// The site's pages without a digest, from the first of them.
const FIRST_WITHOUT_DIGEST: &str = "SELECT min(id) FROM pages WHERE site = $1 AND NOT EXISTS \
     (SELECT 1 FROM audit_pages WHERE audit_pages.site = $1 AND audit_pages.page = pages.id)";

impl PostgresStore {
    /// Gives every page of the site written without a digest (by a trawl from before them) its
    /// digest. Pages are only appended and a digest depends on its page alone, so a writer
    /// going on meanwhile writes its own pages' digests and nothing here can contradict them.
    pub(super) fn ensure_audit_pages(&mut self) -> Result<(), StoreError> {
        let site = self.site;
        // A site opened without preparing the database (a fleet worker's) may find a database
        // made before the digests: their table is made as `schema` makes it, under its lock.
        self.reading(|client| {
            let mut transaction = client.transaction()?;
            let missing: bool = transaction
                .query_one("SELECT to_regclass('audit_pages') IS NULL", &[])?
                .get(0);
            if missing {
                transaction.execute(
                    "SELECT pg_advisory_xact_lock($1)",
                    &[&super::schema::SCHEMA_LOCK],
                )?;
                transaction.batch_execute(TABLE)?;
            }
            transaction.commit()
        })?;
        let first: Option<i64> =
            self.reading(|client| Ok(client.query_one(FIRST_WITHOUT_DIGEST, &[&site])?.get(0)))?;
        let Some(first) = first else {
            return Ok(());
        };
        let having: HashSet<i64> = self.reading(|client| {
            Ok(client
                .query(
                    "SELECT page FROM audit_pages WHERE site = $1 AND page >= $2",
                    &[&site, &first],
                )?
                .iter()
                .map(|row| row.get(0))
                .collect())
        })?;
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
        self.reading(|client| {
            let mut transaction = client.transaction()?;
            let insert = transaction.prepare(
                "INSERT INTO audit_pages (site, page, list_links, links, posts, newest_post) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (site, page) DO NOTHING",
            )?;
            for (page, digest) in &digests {
                transaction.execute(
                    &insert,
                    &[
                        &site,
                        page,
                        &digest.list_links,
                        &digest.links,
                        &digest.posts,
                        &digest.newest_post,
                    ],
                )?;
            }
            transaction.commit()
        })
    }

    /// See [`crate::Store::audit_pages`].
    pub fn audit_pages(&self) -> Result<Vec<AuditPage>, StoreError> {
        let site = self.site;
        // One repeatable-read transaction: the pages, digests and entries of one state.
        let (page_rows, entry_rows) = self.reading(|client| {
            let mut transaction = client
                .build_transaction()
                .isolation_level(postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()?;
            // A database no trawl with the digests has opened for writing lacks their table.
            let with_digests: bool = transaction
                .query_one("SELECT to_regclass('audit_pages') IS NOT NULL", &[])?
                .get(0);
            let digest_columns = if with_digests {
                "audit.page IS NOT NULL, audit.list_links, audit.links, audit.posts, \
                 audit.newest_post FROM pages LEFT JOIN audit_pages AS audit \
                 ON audit.site = pages.site AND audit.page = pages.id"
            } else {
                "FALSE, '', '', ''::bytea, NULL::text FROM pages"
            };
            let pages = transaction.query(
                &format!(
                    "SELECT id, url, status, error, \
                     CASE WHEN status BETWEEN 300 AND 399 THEN headers END, role, title, \
                     {digest_columns} WHERE pages.site = $1 ORDER BY id"
                ),
                &[&site],
            )?;
            let entries = transaction.query(
                "SELECT page, title, url, author, replies, last_reply FROM thread_entries \
                 WHERE site = $1 ORDER BY page, position",
                &[&site],
            )?;
            transaction.commit()?;
            Ok((pages, entries))
        })?;
        let mut pages: Vec<AuditPage> = Vec::with_capacity(page_rows.len());
        let mut without_digest: Vec<usize> = Vec::new();
        for row in &page_rows {
            let status = u16::try_from(row.get::<_, i64>(2)).unwrap_or(0);
            let headers: Option<String> = row.get(4);
            let page = AuditPage {
                id: row.get(0),
                url: row.get(1),
                status,
                error: row.get(3),
                location: location_of_json(status, headers.as_deref()),
                role: row.get(5),
                title: row.get(6),
                list_links: Vec::new(),
                links: Vec::new(),
                posts: Default::default(),
                thread_entries: Vec::new(),
            };
            if row.get::<_, bool>(7) {
                let digest = Digest {
                    list_links: row.get(8),
                    links: row.get(9),
                    posts: row.get(10),
                    newest_post: row.get(11),
                };
                pages.push(audit_page_of_digest(page, digest));
            } else {
                without_digest.push(pages.len());
                pages.push(page);
            }
        }
        drop(page_rows);
        attach_entries(
            &mut pages,
            entry_rows.iter().map(|row| {
                (
                    row.get::<_, i64>(0),
                    ThreadEntryRecord {
                        title: row.get(1),
                        url: row.get(2),
                        author: row.get(3),
                        replies: row.get::<_, Option<i64>>(4).map(|count| count as u64),
                        last_reply: row.get(5),
                    },
                )
            }),
        );
        // Pages written without a digest are reduced now, from their bodies and posts.
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
