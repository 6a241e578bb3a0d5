//! Reading back: what a resumed crawl needs, and every page with its records for export.

use std::collections::HashMap;

use postgres::Row;

use super::{Connection, PostgresStore};
use crate::compression::inflate;
use crate::{
    Bodies, CrawlSettings, FrontierEntry, PageRecord, PostRecord, ResumeState, StoreError,
    StoredPage, ThreadEntryRecord, UnfetchedFrontier,
};

/// Pages read per round of [`PostgresStore::visit_pages`]: large enough that the four queries
/// of a round cost little per page, small enough that a round of bodies stays a few megabytes.
const PAGES_PER_ROUND: i64 = 256;

impl PostgresStore {
    /// Runs `read` on this store's connection, outside any explicit transaction.
    pub(super) fn reading<T>(
        &self,
        read: impl FnOnce(&mut postgres::Client) -> Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        let mut connection = self.connection.borrow_mut();
        let Connection { client, .. } = &mut *connection;
        read(client).map_err(|error| self.database_error(error))
    }

    /// See [`crate::Store::page_body`].
    pub fn page_body(&self, id: i64) -> Result<Option<Vec<u8>>, StoreError> {
        let site = self.site;
        let body: Option<Vec<u8>> = self.reading(|client| {
            Ok(client
                .query_opt(
                    "SELECT body FROM pages WHERE site = $1 AND id = $2",
                    &[&site, &id],
                )?
                .map(|row| row.get(0)))
        })?;
        body.map(|body| {
            inflate(&body).map_err(|error| self.damaged(format!("body of page {id}: {error}")))
        })
        .transpose()
    }

    /// What the site keeps as [`crate::Store::plan_vertices_since`], when it keeps it.
    pub(crate) fn kept_plan_vertices_since(&self) -> Result<Option<u32>, StoreError> {
        let site = self.site;
        let kept: Option<String> = self.reading(|client| {
            Ok(client
                .query_opt(
                    "SELECT value FROM meta WHERE site = $1 AND key = $2",
                    &[&site, &crate::records::PLAN_VERTICES_SINCE],
                )?
                .map(|row| row.get(0)))
        })?;
        kept.map(|value| {
            value
                .parse()
                .map_err(|error| self.damaged(format!("plan vertices since: {error}")))
        })
        .transpose()
    }

    /// See [`crate::Store::plan_vertices_since`].
    pub fn plan_vertices_since(&self) -> Result<u32, StoreError> {
        match self.kept_plan_vertices_since()? {
            Some(since) => Ok(since),
            None => Ok(self
                .settings()?
                .map_or(0, |settings| settings.plan_generation)),
        }
    }

    /// See [`crate::Store::settings`].
    pub fn settings(&self) -> Result<Option<CrawlSettings>, StoreError> {
        let site = self.site;
        let values: HashMap<String, String> = self.reading(|client| {
            Ok(client
                .query("SELECT key, value FROM meta WHERE site = $1", &[&site])?
                .iter()
                .map(|row| (row.get(0), row.get(1)))
                .collect())
        })?;
        let value = |key: &str| values.get(key).cloned();
        let Some(portal) = value("portal") else {
            return Ok(None);
        };
        let strategy = value("strategy").ok_or_else(|| self.damaged("no strategy"))?;
        let started_at = value("started_at")
            .ok_or_else(|| self.damaged("no start time"))?
            .parse()
            .map_err(|error| self.damaged(format!("start time: {error}")))?;
        let plan_generation = value("plan_generation")
            .ok_or_else(|| self.damaged("no plan generation"))?
            .parse()
            .map_err(|error| self.damaged(format!("plan generation: {error}")))?;
        Ok(Some(CrawlSettings {
            portal,
            strategy,
            plan_json: value("plan"),
            plan_generation,
            started_at,
            order: value("order"),
            patterns_json: value("patterns"),
        }))
    }

    /// See [`crate::Store::resume_state`].
    pub fn resume_state(&self) -> Result<ResumeState, StoreError> {
        let site = self.site;
        let (frontier, pages) = self.reading(|client| {
            let frontier = client.query(
                "SELECT url, depth, redirects, done FROM frontier WHERE site = $1 ORDER BY id",
                &[&site],
            )?;
            let pages = client.query(
                "SELECT url, signature, vertex, status, post_pattern, \
                 COALESCE(plan_generation = (SELECT value::bigint FROM meta \
                 WHERE site = $1 AND key = 'plan_generation'), FALSE) \
                 FROM pages WHERE site = $1 ORDER BY id",
                &[&site],
            )?;
            Ok((frontier, pages))
        })?;
        let mut state = ResumeState::default();
        for row in &frontier {
            let url: String = row.get(0);
            let done: bool = row.get(3);
            if !done {
                state.pending.push(FrontierEntry {
                    url: url.clone(),
                    depth: self.narrow(row.get(1), "frontier depth")?,
                    redirects: self.narrow(row.get(2), "frontier redirects")?,
                });
            }
            state.seen.push(url);
        }
        for row in &pages {
            let url: String = row.get(0);
            let signature: Option<i64> = row.get(1);
            let vertex: Option<i64> = row.get(2);
            let status: i64 = row.get(3);
            let post_pattern: Option<i64> = row.get(4);
            // Vertex numbers of an earlier plan name other vertices in the current one.
            let current_plan: bool = row.get(5);
            if let (Some(vertex), Some(pattern), true) = (vertex, post_pattern, current_plan) {
                state
                    .post_patterns
                    .push((self.narrow(vertex, "vertex")?, pattern as u64));
            }
            state.fetched += 1;
            if vertex.is_none() && status != 0 && current_plan {
                state.unclassified += 1;
            }
            state
                .signatures
                .push((url, signature.map(|signature| signature as u64)));
        }
        Ok(state)
    }

    /// See [`crate::Store::document`].
    pub fn document(&self, name: &str) -> Result<Option<String>, StoreError> {
        let site = self.site;
        let key = crate::document_key(name);
        self.reading(|client| {
            Ok(client
                .query_opt(
                    "SELECT value FROM meta WHERE site = $1 AND key = $2",
                    &[&site, &key],
                )?
                .map(|row| row.get(0)))
        })
    }

    /// See [`crate::Store::cookies`].
    pub fn cookies(&self) -> Result<Vec<(String, String)>, StoreError> {
        let site = self.site;
        self.reading(|client| {
            Ok(client
                .query(
                    "SELECT name, value FROM cookies WHERE site = $1 ORDER BY name",
                    &[&site],
                )?
                .iter()
                .map(|row| (row.get(0), row.get(1)))
                .collect())
        })
    }

    /// See [`crate::Store::page_count`].
    pub fn page_count(&self) -> Result<usize, StoreError> {
        self.count("SELECT count(*) FROM pages WHERE site = $1")
    }

    /// See [`crate::Store::post_count`].
    pub fn post_count(&self) -> Result<usize, StoreError> {
        self.count("SELECT count(*) FROM posts WHERE site = $1")
    }

    fn count(&self, sql: &str) -> Result<usize, StoreError> {
        let site = self.site;
        let count: i64 = self.reading(|client| Ok(client.query_one(sql, &[&site])?.get(0)))?;
        Ok(count as usize)
    }

    /// See [`crate::Store::unfetched_frontier`].
    pub fn unfetched_frontier(&self) -> Result<UnfetchedFrontier, StoreError> {
        let site = self.site;
        // Page URLs carry no index (nothing else looks pages up by URL), so the fetched ones
        // are gathered once, as the file's backend does, rather than looked up per entry.
        let (fetched, frontier) = self.reading(|client| {
            let fetched =
                client.query("SELECT DISTINCT url FROM pages WHERE site = $1", &[&site])?;
            let frontier = client.query(
                "SELECT url, done FROM frontier WHERE site = $1 ORDER BY id",
                &[&site],
            )?;
            Ok((fetched, frontier))
        })?;
        let fetched: std::collections::HashSet<&str> =
            fetched.iter().map(|row| row.get(0)).collect();
        let mut unfetched = UnfetchedFrontier::default();
        for row in &frontier {
            let url: &str = row.get(0);
            let done: bool = row.get(1);
            if !done {
                unfetched.waiting.push(url.to_string());
            } else if !fetched.contains(url) {
                unfetched.passed_over.push(url.to_string());
            }
        }
        Ok(unfetched)
    }

    /// Calls `visit` with every fetched page in fetch order, with the bodies `bodies` asks
    /// for and post texts cut to `post_text_chars` characters when given: the pages present
    /// when the reading begins, a round of them at a time.
    pub(crate) fn visit_pages(
        &self,
        bodies: Bodies<'_>,
        post_text_chars: Option<usize>,
        after: i64,
        mut visit: impl FnMut(StoredPage),
    ) -> Result<(), StoreError> {
        let site = self.site;
        let roles: Vec<String> = match bodies {
            Bodies::OfRoles(roles) => roles.iter().map(|role| role.to_string()).collect(),
            Bodies::All | Bodies::None => Vec::new(),
        };
        let body_column = match bodies {
            Bodies::All => "body",
            Bodies::None => "''::bytea",
            Bodies::OfRoles(_) => "CASE WHEN role = ANY($4) THEN body ELSE ''::bytea END",
        };
        // `substr` counts characters, as SQLite's does, and takes a 32-bit length.
        let text_chars =
            post_text_chars.map_or(i32::MAX, |chars| i32::try_from(chars).unwrap_or(i32::MAX));
        let pages_sql = format!(
            "SELECT id, url, depth, status, error, fetched_at, headers, {body_column}, vertex, \
             role, title, signature, post_pattern, plan_generation FROM pages \
             WHERE site = $1 AND id > $2 AND id <= $3 ORDER BY id"
        );
        let last: i64 = self.reading(|client| {
            Ok(client
                .query_one(
                    "SELECT COALESCE(max(id), 0) FROM pages WHERE site = $1",
                    &[&site],
                )?
                .get(0))
        })?;
        let mut after = after.max(0);
        while after < last {
            let until = (after + PAGES_PER_ROUND).min(last);
            let (pages, links, posts, entries) = self.reading(|client| {
                // The roles are a parameter only of the statement that names them: PostgreSQL
                // refuses a parameter whose type nothing in the statement settles.
                let pages = if !matches!(bodies, Bodies::OfRoles(_)) {
                    client.query(pages_sql.as_str(), &[&site, &after, &until])?
                } else {
                    client.query(pages_sql.as_str(), &[&site, &after, &until, &roles])?
                };
                let links = client.query(
                    "SELECT page, url FROM list_links \
                     WHERE site = $1 AND page > $2 AND page <= $3 ORDER BY page, position",
                    &[&site, &after, &until],
                )?;
                let posts = client.query(
                    "SELECT page, author, time, substr(text, 1, $4::integer), permalink FROM posts \
                     WHERE site = $1 AND page > $2 AND page <= $3 ORDER BY page, position",
                    &[&site, &after, &until, &text_chars],
                )?;
                let entries = client.query(
                    "SELECT page, title, url, author, replies, last_reply FROM thread_entries \
                     WHERE site = $1 AND page > $2 AND page <= $3 ORDER BY page, position",
                    &[&site, &after, &until],
                )?;
                Ok((pages, links, posts, entries))
            })?;
            let mut links = by_page(&links).into_iter().peekable();
            let mut posts = by_page(&posts).into_iter().peekable();
            let mut entries = by_page(&entries).into_iter().peekable();
            for row in &pages {
                let id: i64 = row.get(0);
                let mut record = self.page_record(row)?;
                record.list_links = rows_of(&mut links, id)
                    .iter()
                    .map(|row| row.get(1))
                    .collect();
                record.posts = rows_of(&mut posts, id)
                    .iter()
                    .map(|row| PostRecord {
                        author: row.get(1),
                        time: row.get(2),
                        text: row.get(3),
                        permalink: row.get(4),
                    })
                    .collect();
                record.thread_entries = rows_of(&mut entries, id)
                    .iter()
                    .map(|row| ThreadEntryRecord {
                        title: row.get(1),
                        url: row.get(2),
                        author: row.get(3),
                        replies: row.get::<_, Option<i64>>(4).map(|count| count as u64),
                        last_reply: row.get(5),
                    })
                    .collect();
                let plan_generation: i64 = row.get(13);
                visit(StoredPage {
                    id,
                    plan_generation: plan_generation as u32,
                    record,
                });
            }
            after = until;
        }
        Ok(())
    }

    /// The page a row of the pages query holds, without its records.
    fn page_record(&self, row: &Row) -> Result<PageRecord, StoreError> {
        let url: String = row.get(1);
        let fetched_at: String = row.get(5);
        let headers: String = row.get(6);
        let body: Vec<u8> = row.get(7);
        let vertex: Option<i64> = row.get(8);
        let signature: Option<i64> = row.get(11);
        let post_pattern: Option<i64> = row.get(12);
        Ok(PageRecord {
            depth: self.narrow(row.get(2), "page depth")?,
            status: u16::try_from(row.get::<_, i64>(3))
                .map_err(|_| self.damaged(format!("status of {url}")))?,
            error: row.get(4),
            fetched_at: fetched_at
                .parse()
                .map_err(|error| self.damaged(format!("fetch time of {url}: {error}")))?,
            headers: serde_json::from_str(&headers)
                .map_err(|error| self.damaged(format!("headers of {url}: {error}")))?,
            body: inflate(&body)
                .map_err(|error| self.damaged(format!("body of {url}: {error}")))?,
            vertex: vertex
                .map(|vertex| self.narrow(vertex, "vertex"))
                .transpose()?,
            role: row.get(9),
            title: row.get(10),
            signature: signature.map(|signature| signature as u64),
            post_pattern: post_pattern.map(|pattern| pattern as u64),
            list_links: Vec::new(),
            posts: Vec::new(),
            thread_entries: Vec::new(),
            url,
        })
    }

    /// A stored count that the records hold as 32 bits, refused as damage when it does not fit.
    fn narrow(&self, value: i64, what: &str) -> Result<u32, StoreError> {
        u32::try_from(value).map_err(|_| self.damaged(format!("{what} {value} out of range")))
    }
}

/// Rows ordered by page (their first column), grouped into one run per page.
fn by_page(rows: &[Row]) -> Vec<(i64, Vec<&Row>)> {
    let mut groups: Vec<(i64, Vec<&Row>)> = Vec::new();
    for row in rows {
        let page: i64 = row.get(0);
        match groups.last_mut() {
            Some((last, group)) if *last == page => group.push(row),
            _ => groups.push((page, vec![row])),
        }
    }
    groups
}

/// The rows of page `id` from `groups`, which are in page order as the pages are read.
fn rows_of<'rows>(
    groups: &mut std::iter::Peekable<std::vec::IntoIter<(i64, Vec<&'rows Row>)>>,
    id: i64,
) -> Vec<&'rows Row> {
    match groups.peek() {
        Some((page, _)) if *page == id => groups.next().map(|(_, rows)| rows).unwrap_or_default(),
        _ => Vec::new(),
    }
}
