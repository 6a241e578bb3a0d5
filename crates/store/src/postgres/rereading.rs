//! Pages whose posts a crawler reads again from their stored bodies, in PostgreSQL (see
//! [`crate::Store::pages_before_post_patterns`] and [`crate::Store::replace_posts`]).

use super::PostgresStore;
use crate::audit_pages::Digest;
use crate::{PageBeforePostPatterns, PostRecord, StoreError};

/// The pages of [`crate::Store::pages_before_post_patterns`], chosen as in the file: for each
/// vertex of the current plan, the first page showing each of its post patterns; the latest of
/// those is the page after which every pattern the vertex is known by was known.
const PAGES_BEFORE_POST_PATTERNS: &str = "
WITH generation AS (
    SELECT value::bigint AS current FROM meta WHERE site = $1 AND key = 'plan_generation'
),
first_shown AS (
    SELECT vertex, post_pattern, min(id) AS page FROM pages
    WHERE site = $1 AND post_pattern IS NOT NULL AND vertex IS NOT NULL
        AND plan_generation = (SELECT current FROM generation)
    GROUP BY vertex, post_pattern
),
all_known AS (SELECT vertex, max(page) AS page FROM first_shown GROUP BY vertex),
candidates AS (
    SELECT pages.id, pages.url, pages.depth, pages.status, pages.fetched_at, pages.headers,
        pages.vertex,
        (SELECT count(*) FROM posts WHERE posts.site = $1 AND posts.page = pages.id)
            AS post_count
    FROM pages JOIN all_known ON pages.vertex = all_known.vertex
    WHERE pages.site = $1 AND pages.id < all_known.page
        AND pages.plan_generation = (SELECT current FROM generation)
        AND pages.status BETWEEN 200 AND 299
)
SELECT id, url, depth, status, fetched_at, headers, vertex, post_count FROM candidates
WHERE post_count <= 1 ORDER BY id
";

const DELETE_POSTS: &str = "DELETE FROM posts WHERE site = $1 AND page = $2";
/// The totals count posts on insert only (`summary`'s triggers); the posts taken out are
/// taken off here, and those put in count themselves.
const TAKE_OFF_SITE_POSTS: &str = "UPDATE summary SET posts = posts - $2 WHERE site = $1";
const TAKE_OFF_ROLE_POSTS: &str = "UPDATE role_summary SET posts = posts - $3 \
     WHERE site = $1 AND role = (SELECT coalesce(role, '') FROM pages WHERE site = $1 AND id = $2)";
const INSERT_POSTS: &str = "INSERT INTO posts (site, page, position, author, time, text, \
     permalink) SELECT $1, $2, position - 1, author, time, text, permalink \
     FROM UNNEST($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY \
     AS posts (author, time, text, permalink, position)";
const UPDATE_DIGEST: &str =
    "UPDATE audit_pages SET posts = $3, newest_post = $4 WHERE site = $1 AND page = $2";

impl PostgresStore {
    /// See [`crate::Store::pages_before_post_patterns`].
    pub fn pages_before_post_patterns(&self) -> Result<Vec<PageBeforePostPatterns>, StoreError> {
        let site = self.site;
        let rows = self.reading(|client| client.query(PAGES_BEFORE_POST_PATTERNS, &[&site]))?;
        let mut pages = Vec::with_capacity(rows.len());
        for row in &rows {
            let url: String = row.get(1);
            let fetched_at: String = row.get(4);
            let headers: String = row.get(5);
            let number = |value: i64, what: &str| {
                u32::try_from(value).map_err(|_| self.damaged(format!("{what} of {url}")))
            };
            let depth = number(row.get(2), "depth")?;
            let status = number(row.get(3), "status")?;
            let vertex = number(row.get(6), "vertex")?;
            let posts: i64 = row.get(7);
            pages.push(PageBeforePostPatterns {
                id: row.get(0),
                depth,
                status: u16::try_from(status)
                    .map_err(|_| self.damaged(format!("status of {url}")))?,
                fetched_at: fetched_at
                    .parse()
                    .map_err(|error| self.damaged(format!("fetch time of {url}: {error}")))?,
                headers: serde_json::from_str(&headers)
                    .map_err(|error| self.damaged(format!("headers of {url}: {error}")))?,
                vertex,
                posts: posts as usize,
                url,
            });
        }
        Ok(pages)
    }

    /// See [`crate::Store::replace_posts`].
    pub fn replace_posts(&mut self, id: i64, posts: &[PostRecord]) -> Result<(), StoreError> {
        let site = self.site;
        let (identities, newest_post) = Digest::of_posts(posts);
        let authors: Vec<Option<&str>> = posts.iter().map(|p| p.author.as_deref()).collect();
        let times: Vec<Option<&str>> = posts.iter().map(|p| p.time.as_deref()).collect();
        let texts: Vec<&str> = posts.iter().map(|p| p.text.as_str()).collect();
        let permalinks: Vec<Option<&str>> = posts.iter().map(|p| p.permalink.as_deref()).collect();
        self.in_transaction(|transaction, _| {
            let removed = transaction.execute(DELETE_POSTS, &[&site, &id])? as i64;
            transaction.execute(TAKE_OFF_SITE_POSTS, &[&site, &removed])?;
            transaction.execute(TAKE_OFF_ROLE_POSTS, &[&site, &id, &removed])?;
            transaction.execute(
                INSERT_POSTS,
                &[&site, &id, &authors, &times, &texts, &permalinks],
            )?;
            transaction.execute(UPDATE_DIGEST, &[&site, &id, &identities, &newest_post])?;
            Ok(())
        })
    }
}
