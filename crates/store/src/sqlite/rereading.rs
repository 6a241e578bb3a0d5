//! Pages whose posts a crawler reads again from their stored bodies, in the file (see
//! [`crate::Store::pages_before_post_patterns`] and [`crate::Store::replace_posts`]).

use rusqlite::params;

use super::SqliteStore;
use super::write::insert_posts;
use crate::audit_pages::Digest;
use crate::{PageBeforePostPatterns, PostRecord, StoreError};

/// The pages of [`crate::Store::pages_before_post_patterns`]. For each vertex of the current
/// plan, the first page showing each of its post patterns; the latest of those is the page
/// after which every pattern the vertex is known by was known, and the vertex's answered pages
/// of at most one post fetched before it are the ones to read again.
const PAGES_BEFORE_POST_PATTERNS: &str = "
WITH generation AS (
    SELECT CAST(value AS INTEGER) AS current FROM meta WHERE key = 'plan_generation'
),
first_shown AS (
    SELECT vertex, post_pattern, min(id) AS page FROM pages
    WHERE post_pattern IS NOT NULL AND vertex IS NOT NULL
        AND plan_generation = (SELECT current FROM generation)
    GROUP BY vertex, post_pattern
),
all_known AS (SELECT vertex, max(page) AS page FROM first_shown GROUP BY vertex)
SELECT pages.id, pages.url, pages.depth, pages.status, pages.fetched_at, pages.headers,
    pages.vertex, (SELECT count(*) FROM posts WHERE posts.page = pages.id) AS post_count
FROM pages JOIN all_known ON pages.vertex = all_known.vertex
WHERE pages.id < all_known.page
    AND pages.plan_generation = (SELECT current FROM generation)
    AND pages.status BETWEEN 200 AND 299
    AND post_count <= 1
ORDER BY pages.id
";

impl SqliteStore {
    /// See [`crate::Store::pages_before_post_patterns`].
    pub fn pages_before_post_patterns(&self) -> Result<Vec<PageBeforePostPatterns>, StoreError> {
        let database = |error| self.database_error(error);
        let mut statement = self
            .connection
            .prepare(PAGES_BEFORE_POST_PATTERNS)
            .map_err(database)?;
        let mut rows = statement.query([]).map_err(database)?;
        let mut pages = Vec::new();
        while let Some(row) = rows.next().map_err(database)? {
            let url: String = row.get(1).map_err(database)?;
            let fetched_at: String = row.get(4).map_err(database)?;
            let headers: String = row.get(5).map_err(database)?;
            let posts: i64 = row.get(7).map_err(database)?;
            pages.push(PageBeforePostPatterns {
                id: row.get(0).map_err(database)?,
                depth: row.get(2).map_err(database)?,
                status: row.get(3).map_err(database)?,
                fetched_at: fetched_at
                    .parse()
                    .map_err(|error| self.damaged(format!("fetch time of {url}: {error}")))?,
                headers: serde_json::from_str(&headers)
                    .map_err(|error| self.damaged(format!("headers of {url}: {error}")))?,
                vertex: row.get(6).map_err(database)?,
                posts: posts as usize,
                url,
            });
        }
        Ok(pages)
    }

    /// See [`crate::Store::replace_posts`].
    pub fn replace_posts(&mut self, id: i64, posts: &[PostRecord]) -> Result<(), StoreError> {
        let (identities, newest_post) = Digest::of_posts(posts);
        let path = self.path.clone();
        let database = |source| StoreError::Sqlite {
            path: path.clone(),
            source,
        };
        let transaction = self.connection.transaction().map_err(database)?;
        let write = || -> rusqlite::Result<()> {
            let removed = transaction.execute("DELETE FROM posts WHERE page = ?1", [id])?;
            // The totals count posts on insert only (`summary`); the posts taken out are taken
            // off here, and those put in count themselves.
            transaction.execute(
                "UPDATE role_summary SET posts = posts - ?2 \
                 WHERE role = (SELECT coalesce(role, '') FROM pages WHERE id = ?1)",
                params![id, removed as i64],
            )?;
            insert_posts(&transaction, id, posts)?;
            transaction.execute(
                "UPDATE audit_pages SET posts = ?2, newest_post = ?3 WHERE page = ?1",
                params![id, identities, newest_post],
            )?;
            Ok(())
        };
        write().map_err(database)?;
        transaction.commit().map_err(database)
    }
}
