//! The crawls' totals in PostgreSQL (see [`crate::summary`]), a row of each per site: made
//! with the tables, or under the schema lock by the first store that prepares a database made
//! before them, and read in one snapshot.
//!
//! The triggers run once per statement over the rows it wrote (transition tables): the store
//! writes a page's posts, links and queued URLs as one statement each, so a page costs a few
//! small upserts of its site's totals rather than one per row.

use postgres::{GenericClient, IsolationLevel};

use super::PostgresStore;
use crate::StoreError;
use crate::summary::{CrawlSummary, RoleSummary, role_of, timestamp_of};

/// The totals' tables, the triggers that keep them and the functions the triggers run. A
/// fetch time is counted in the second its text names (`2026-01-02T03:04:05` of `…05.5Z`), as
/// in the file; a text not of that shape is left out of `fetch_seconds` rather than failing
/// the write.
pub(super) const TABLES: &str = r"
CREATE TABLE summary (
    site BIGINT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    pages BIGINT NOT NULL DEFAULT 0,
    posts BIGINT NOT NULL DEFAULT 0,
    errors BIGINT NOT NULL DEFAULT 0,
    frontier_waiting BIGINT NOT NULL DEFAULT 0,
    frontier_done BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE role_summary (
    site BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    pages BIGINT NOT NULL DEFAULT 0,
    posts BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (site, role)
);
CREATE TABLE fetch_seconds (
    site BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    at_second BIGINT NOT NULL,
    pages BIGINT NOT NULL,
    PRIMARY KEY (site, at_second)
);
CREATE FUNCTION trawl_fetch_second(fetched_at TEXT) RETURNS BIGINT
    LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN fetched_at ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}'
        THEN extract(epoch FROM (left(fetched_at, 19) || '+00')::timestamptz)::bigint
    END
$$;
CREATE FUNCTION trawl_summary_of_pages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary AS kept (site, pages, errors)
        SELECT site, count(*), count(*) FILTER (WHERE status = 0 OR status >= 400)
        FROM new_pages GROUP BY site
        ON CONFLICT (site) DO UPDATE SET pages = kept.pages + EXCLUDED.pages,
            errors = kept.errors + EXCLUDED.errors;
    INSERT INTO role_summary AS kept (site, role, pages)
        SELECT site, coalesce(role, ''), count(*) FROM new_pages GROUP BY 1, 2
        ON CONFLICT (site, role) DO UPDATE SET pages = kept.pages + EXCLUDED.pages;
    INSERT INTO fetch_seconds AS kept (site, at_second, pages)
        SELECT site, at_second, count(*)
        FROM (SELECT site, trawl_fetch_second(fetched_at) AS at_second FROM new_pages) AS fetched
        WHERE at_second IS NOT NULL GROUP BY 1, 2
        ON CONFLICT (site, at_second) DO UPDATE SET pages = kept.pages + EXCLUDED.pages;
    RETURN NULL;
END
$$;
CREATE TRIGGER trawl_summary_of_pages AFTER INSERT ON pages
    REFERENCING NEW TABLE AS new_pages
    FOR EACH STATEMENT EXECUTE FUNCTION trawl_summary_of_pages();
CREATE FUNCTION trawl_summary_of_posts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary AS kept (site, posts)
        SELECT site, count(*) FROM new_posts GROUP BY site
        ON CONFLICT (site) DO UPDATE SET posts = kept.posts + EXCLUDED.posts;
    INSERT INTO role_summary AS kept (site, role, posts)
        SELECT new_posts.site, coalesce(pages.role, ''), count(*)
        FROM new_posts JOIN pages ON pages.site = new_posts.site AND pages.id = new_posts.page
        GROUP BY 1, 2
        ON CONFLICT (site, role) DO UPDATE SET posts = kept.posts + EXCLUDED.posts;
    RETURN NULL;
END
$$;
CREATE TRIGGER trawl_summary_of_posts AFTER INSERT ON posts
    REFERENCING NEW TABLE AS new_posts
    FOR EACH STATEMENT EXECUTE FUNCTION trawl_summary_of_posts();
CREATE FUNCTION trawl_summary_of_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary AS kept (site, frontier_waiting, frontier_done)
        SELECT site, count(*) FILTER (WHERE NOT done), count(*) FILTER (WHERE done)
        FROM new_entries GROUP BY site
        ON CONFLICT (site) DO UPDATE SET
            frontier_waiting = kept.frontier_waiting + EXCLUDED.frontier_waiting,
            frontier_done = kept.frontier_done + EXCLUDED.frontier_done;
    RETURN NULL;
END
$$;
CREATE TRIGGER trawl_summary_of_queued AFTER INSERT ON frontier
    REFERENCING NEW TABLE AS new_entries
    FOR EACH STATEMENT EXECUTE FUNCTION trawl_summary_of_queued();
CREATE FUNCTION trawl_summary_of_frontier_states() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary AS kept (site, frontier_waiting, frontier_done)
        SELECT site, sum(waits), -sum(waits)
        FROM (SELECT later.site,
                CASE WHEN earlier.done AND NOT later.done THEN 1
                    WHEN later.done AND NOT earlier.done THEN -1 ELSE 0 END AS waits
            FROM old_entries AS earlier
            JOIN new_entries AS later ON later.site = earlier.site AND later.id = earlier.id)
            AS changes
        GROUP BY site
        ON CONFLICT (site) DO UPDATE SET
            frontier_waiting = kept.frontier_waiting + EXCLUDED.frontier_waiting,
            frontier_done = kept.frontier_done + EXCLUDED.frontier_done;
    RETURN NULL;
END
$$;
CREATE TRIGGER trawl_summary_of_frontier_states AFTER UPDATE ON frontier
    REFERENCING OLD TABLE AS old_entries NEW TABLE AS new_entries
    FOR EACH STATEMENT EXECUTE FUNCTION trawl_summary_of_frontier_states();
";

/// Fills the totals from the rows a database made before them holds, every site at once.
pub(super) const FILL: &str = "
INSERT INTO summary (site, pages, errors)
    SELECT site, count(*), count(*) FILTER (WHERE status = 0 OR status >= 400)
    FROM pages GROUP BY site;
INSERT INTO summary AS kept (site, posts)
    SELECT site, count(*) FROM posts GROUP BY site
    ON CONFLICT (site) DO UPDATE SET posts = EXCLUDED.posts;
INSERT INTO summary AS kept (site, frontier_waiting, frontier_done)
    SELECT site, count(*) FILTER (WHERE NOT done), count(*) FILTER (WHERE done)
    FROM frontier GROUP BY site
    ON CONFLICT (site) DO UPDATE SET frontier_waiting = EXCLUDED.frontier_waiting,
        frontier_done = EXCLUDED.frontier_done;
INSERT INTO role_summary (site, role, pages, posts)
    SELECT pages.site, coalesce(pages.role, ''), count(*), coalesce(sum(counted.posts), 0)
    FROM pages LEFT JOIN (SELECT site, page, count(*) AS posts FROM posts GROUP BY site, page)
        AS counted ON counted.site = pages.site AND counted.page = pages.id
    GROUP BY 1, 2;
INSERT INTO fetch_seconds (site, at_second, pages)
    SELECT site, at_second, count(*)
    FROM (SELECT site, trawl_fetch_second(fetched_at) AS at_second FROM pages) AS fetched
    WHERE at_second IS NOT NULL GROUP BY 1, 2;
";

/// Whether the database has the totals' tables.
pub(super) fn has_summary(client: &mut impl GenericClient) -> Result<bool, postgres::Error> {
    Ok(client
        .query_one("SELECT to_regclass('summary') IS NOT NULL", &[])?
        .get(0))
}

impl PostgresStore {
    /// See [`crate::Store::summary`].
    pub fn summary(&self) -> Result<Option<CrawlSummary>, StoreError> {
        let site = self.site;
        let count = |value: i64| value.max(0) as usize;
        self.reading(|client| {
            // One snapshot: the totals of one committed state, whatever a writer does.
            let mut transaction = client
                .build_transaction()
                .isolation_level(IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()?;
            if !has_summary(&mut transaction)? {
                return Ok(None);
            }
            let mut summary = transaction
                .query_opt(
                    "SELECT pages, posts, errors, frontier_waiting, frontier_done \
                     FROM summary WHERE site = $1",
                    &[&site],
                )?
                .map(|row| CrawlSummary {
                    pages: count(row.get(0)),
                    posts: count(row.get(1)),
                    errors: count(row.get(2)),
                    frontier_waiting: count(row.get(3)),
                    frontier_done: count(row.get(4)),
                    ..CrawlSummary::default()
                })
                // A site nothing was written to yet has no row.
                .unwrap_or_default();
            summary.by_role = transaction
                .query(
                    "SELECT role, pages, posts FROM role_summary WHERE site = $1 ORDER BY role",
                    &[&site],
                )?
                .iter()
                .map(|row| RoleSummary {
                    role: role_of(row.get(0)),
                    pages: count(row.get(1)),
                    posts: count(row.get(2)),
                })
                .collect();
            // Ordered here, not by the database's collation, so both backends agree.
            summary.by_role.sort_by(|a, b| a.role.cmp(&b.role));
            let times = transaction.query_one(
                "SELECT min(at_second), max(at_second) FROM fetch_seconds WHERE site = $1",
                &[&site],
            )?;
            let last: Option<i64> = times.get(1);
            summary.first_fetch = timestamp_of(times.get(0));
            summary.last_fetch = timestamp_of(last);
            if let Some(last) = last {
                let recent: i64 = transaction
                    .query_one(
                        "SELECT coalesce(sum(pages), 0)::bigint FROM fetch_seconds \
                         WHERE site = $1 AND at_second > $2",
                        &[&site, &(last - 60)],
                    )?
                    .get(0);
                summary.pages_in_last_minute = count(recent);
            }
            transaction.commit()?;
            Ok(Some(summary))
        })
    }
}
