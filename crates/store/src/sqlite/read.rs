//! Reading back: what a resumed crawl needs, and every page with its records for export.

use rusqlite::{OptionalExtension, params};

use super::SqliteStore;
use crate::compression::inflate;
use crate::{
    Bodies, FrontierEntry, PageRecord, PostRecord, ResumeState, StoreError, StoredPage,
    ThreadEntryRecord, UnfetchedFrontier,
};

impl SqliteStore {
    /// The frontier, the seen set and the fetched pages' signatures, as the last committed
    /// fetch left them.
    pub fn resume_state(&self) -> Result<ResumeState, StoreError> {
        let mut state = ResumeState::default();
        let database = |error| self.database_error(error);
        let mut frontier = self
            .connection
            .prepare("SELECT url, depth, redirects, done FROM frontier ORDER BY id")
            .map_err(database)?;
        let mut rows = frontier.query([]).map_err(database)?;
        while let Some(row) = rows.next().map_err(database)? {
            let url: String = row.get(0).map_err(database)?;
            let depth: u32 = row.get(1).map_err(database)?;
            let redirects: u32 = row.get(2).map_err(database)?;
            let done: bool = row.get(3).map_err(database)?;
            if !done {
                state.pending.push(FrontierEntry {
                    url: url.clone(),
                    depth,
                    redirects,
                });
            }
            state.seen.push(url);
        }
        let mut pages = self
            .connection
            .prepare(
                "SELECT url, signature, vertex, status, post_pattern, \
                 plan_generation = (SELECT CAST(value AS INTEGER) FROM meta \
                 WHERE key = 'plan_generation') FROM pages ORDER BY id",
            )
            .map_err(database)?;
        let mut rows = pages.query([]).map_err(database)?;
        while let Some(row) = rows.next().map_err(database)? {
            let url: String = row.get(0).map_err(database)?;
            let signature: Option<i64> = row.get(1).map_err(database)?;
            let vertex: Option<i64> = row.get(2).map_err(database)?;
            let status: u16 = row.get(3).map_err(database)?;
            let post_pattern: Option<i64> = row.get(4).map_err(database)?;
            // Vertex numbers of an earlier plan name other vertices in the current one.
            let current_plan: bool = row.get(5).map_err(database)?;
            if let (Some(vertex), Some(pattern), true) = (vertex, post_pattern, current_plan) {
                state.post_patterns.push((vertex as u32, pattern as u64));
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

    /// The stored session cookies.
    pub fn cookies(&self) -> Result<Vec<(String, String)>, StoreError> {
        let database = |error| self.database_error(error);
        let mut statement = self
            .connection
            .prepare("SELECT name, value FROM cookies ORDER BY name")
            .map_err(database)?;
        let cookies = statement
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .map_err(database)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(database)?;
        Ok(cookies)
    }

    /// Pages fetched so far.
    pub fn page_count(&self) -> Result<usize, StoreError> {
        self.connection
            .query_row("SELECT count(*) FROM pages", [], |row| row.get::<_, i64>(0))
            .map(|count| count as usize)
            .map_err(|error| self.database_error(error))
    }

    /// See [`crate::Store::page_body`].
    pub fn page_body(&self, id: i64) -> Result<Option<Vec<u8>>, StoreError> {
        let body: Option<Vec<u8>> = self
            .connection
            .query_row("SELECT body FROM pages WHERE id = ?1", [id], |row| {
                row.get(0)
            })
            .optional()
            .map_err(|error| self.database_error(error))?;
        body.map(|body| {
            inflate(&body).map_err(|error| self.damaged(format!("body of page {id}: {error}")))
        })
        .transpose()
    }

    /// Posts stored so far.
    pub fn post_count(&self) -> Result<usize, StoreError> {
        self.connection
            .query_row("SELECT count(*) FROM posts", [], |row| row.get::<_, i64>(0))
            .map(|count| count as usize)
            .map_err(|error| self.database_error(error))
    }

    /// The frontier's URLs that were not fetched: those waiting (queued, the crawl stopped
    /// before them) and those passed over (queued, then found to be another spelling of a URL
    /// already queued).
    pub fn unfetched_frontier(&self) -> Result<UnfetchedFrontier, StoreError> {
        let database = |error| self.database_error(error);
        // Page URLs carry no index (nothing else looks pages up by URL), so the fetched ones
        // are gathered once rather than looked up per frontier entry. The set removes
        // duplicates itself: `DISTINCT` would have SQLite sort every URL first. Frontier URLs
        // are read in place and copied only when they are kept (a few in a finished crawl).
        let mut fetched_urls = std::collections::HashSet::new();
        let mut pages = self
            .connection
            .prepare("SELECT url FROM pages")
            .map_err(database)?;
        let mut rows = pages.query([]).map_err(database)?;
        while let Some(row) = rows.next().map_err(database)? {
            fetched_urls.insert(row.get::<_, String>(0).map_err(database)?);
        }
        let mut frontier = self
            .connection
            .prepare("SELECT url, done FROM frontier ORDER BY id")
            .map_err(database)?;
        let mut rows = frontier.query([]).map_err(database)?;
        let mut unfetched = UnfetchedFrontier::default();
        while let Some(row) = rows.next().map_err(database)? {
            let done: bool = row.get(1).map_err(database)?;
            let url = row
                .get_ref(0)
                .and_then(|value| Ok(value.as_str()?))
                .map_err(database)?;
            if !done {
                unfetched.waiting.push(url.to_string());
            } else if !fetched_urls.contains(url) {
                unfetched.passed_over.push(url.to_string());
            }
        }
        Ok(unfetched)
    }

    /// What the file keeps as [`crate::Store::plan_vertices_since`], when it keeps it.
    pub(crate) fn kept_plan_vertices_since(&self) -> Result<Option<u32>, StoreError> {
        let kept: Option<String> = self
            .connection
            .query_row(
                "SELECT value FROM meta WHERE key = ?1",
                [crate::records::PLAN_VERTICES_SINCE],
                |row| row.get(0),
            )
            .optional()
            .map_err(|error| self.database_error(error))?;
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

    /// Calls `visit` with every fetched page in fetch order, with the bodies `bodies` asks
    /// for and post texts cut to `post_text_chars` characters when given.
    pub(crate) fn visit_pages(
        &self,
        bodies: Bodies<'_>,
        post_text_chars: Option<usize>,
        after: i64,
        mut visit: impl FnMut(StoredPage),
    ) -> Result<(), StoreError> {
        let database = |error| self.database_error(error);
        let body_column = match bodies {
            Bodies::All => "body".to_string(),
            Bodies::None => "x''".to_string(),
            Bodies::OfRoles(roles) => {
                // Role names are the crawler's own words; quoting keeps any name a literal.
                let names: Vec<String> = roles
                    .iter()
                    .map(|role| format!("'{}'", role.replace('\'', "''")))
                    .collect();
                format!(
                    "CASE WHEN role IN ({}) THEN body ELSE x'' END",
                    names.join(", ")
                )
            }
        };
        let text_column = match post_text_chars {
            Some(chars) => format!("substr(text, 1, {chars})"),
            None => "text".to_string(),
        };
        let mut pages = self
            .connection
            .prepare(&format!(
                "SELECT id, url, depth, status, error, fetched_at, headers, {body_column}, \
                 vertex, role, title, signature, post_pattern, plan_generation FROM pages \
                 WHERE id > ?1 ORDER BY id"
            ))
            .map_err(database)?;
        let mut links = self
            .connection
            .prepare("SELECT url FROM list_links WHERE page = ?1 ORDER BY position")
            .map_err(database)?;
        let mut posts = self
            .connection
            .prepare(&format!(
                "SELECT author, time, {text_column}, permalink FROM posts WHERE page = ?1 \
                 ORDER BY position"
            ))
            .map_err(database)?;
        let mut entries = self
            .connection
            .prepare(
                "SELECT title, url, author, replies, last_reply FROM thread_entries \
                 WHERE page = ?1 ORDER BY position",
            )
            .map_err(database)?;
        let mut rows = pages.query([after]).map_err(database)?;
        while let Some(row) = rows.next().map_err(database)? {
            let id: i64 = row.get(0).map_err(database)?;
            let url: String = row.get(1).map_err(database)?;
            let fetched_at: String = row.get(5).map_err(database)?;
            let headers: String = row.get(6).map_err(database)?;
            let body: Vec<u8> = row.get(7).map_err(database)?;
            let signature: Option<i64> = row.get(11).map_err(database)?;
            let plan_generation: u32 = row.get(13).map_err(database)?;
            let record = PageRecord {
                depth: row.get(2).map_err(database)?,
                status: row.get(3).map_err(database)?,
                error: row.get(4).map_err(database)?,
                fetched_at: fetched_at
                    .parse()
                    .map_err(|error| self.damaged(format!("fetch time of {url}: {error}")))?,
                headers: serde_json::from_str(&headers)
                    .map_err(|error| self.damaged(format!("headers of {url}: {error}")))?,
                body: inflate(&body)
                    .map_err(|error| self.damaged(format!("body of {url}: {error}")))?,
                vertex: row.get(8).map_err(database)?,
                role: row.get(9).map_err(database)?,
                title: row.get(10).map_err(database)?,
                signature: signature.map(|signature| signature as u64),
                post_pattern: row
                    .get::<_, Option<i64>>(12)
                    .map_err(database)?
                    .map(|pattern| pattern as u64),
                list_links: links
                    .query_map([id], |row| row.get(0))
                    .map_err(database)?
                    .collect::<Result<_, _>>()
                    .map_err(database)?,
                posts: posts
                    .query_map(params![id], |row| {
                        Ok(PostRecord {
                            author: row.get(0)?,
                            time: row.get(1)?,
                            text: row.get(2)?,
                            permalink: row.get(3)?,
                        })
                    })
                    .map_err(database)?
                    .collect::<Result<_, _>>()
                    .map_err(database)?,
                thread_entries: entries
                    .query_map(params![id], |row| {
                        Ok(ThreadEntryRecord {
                            title: row.get(0)?,
                            url: row.get(1)?,
                            author: row.get(2)?,
                            replies: row.get::<_, Option<i64>>(3)?.map(|count| count as u64),
                            last_reply: row.get(4)?,
                        })
                    })
                    .map_err(database)?
                    .collect::<Result<_, _>>()
                    .map_err(database)?,
                url,
            };
            visit(StoredPage {
                id,
                plan_generation,
                record,
            });
        }
        Ok(())
    }
}
