//! Writing: the crawl's settings once, then each fetch in a transaction of whole fetches.

use rusqlite::{OptionalExtension, params};

use super::SqliteStore;
use crate::audit_pages::Digest;
use crate::compression::deflate;
use crate::records::{PLAN_VERTICES_SINCE, PlanChange, vertices_since_after};
use crate::{CrawlSettings, FetchOutcome, FrontierEntry, PostRecord, StoreError};

impl SqliteStore {
    /// Records what a new crawl starts with and queues its portal. Refused when the file already
    /// holds a crawl (read [`SqliteStore::settings`] first and resume instead).
    pub fn begin_crawl(
        &mut self,
        settings: &CrawlSettings,
        portal: &FrontierEntry,
    ) -> Result<(), StoreError> {
        if self.settings()?.is_some() {
            return Err(self.damaged("begin_crawl on a file that already holds a crawl"));
        }
        let transaction = self
            .connection
            .transaction()
            .map_err(|error| database_error(&self.path, error))?;
        let write = || -> rusqlite::Result<()> {
            let mut insert =
                transaction.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)")?;
            insert.execute(params!["portal", settings.portal])?;
            insert.execute(params!["strategy", settings.strategy])?;
            insert.execute(params!["started_at", settings.started_at.to_string()])?;
            insert.execute(params![
                "plan_generation",
                settings.plan_generation.to_string()
            ])?;
            if let Some(plan) = &settings.plan_json {
                insert.execute(params!["plan", plan])?;
            }
            insert_order_rows(
                &mut insert,
                settings.order.as_deref(),
                settings.patterns_json.as_deref(),
            )?;
            transaction.execute(
                "INSERT INTO frontier (url, depth, redirects) VALUES (?1, ?2, ?3)",
                params![portal.url, portal.depth, portal.redirects],
            )?;
            // The pages sampled to learn the plan stay until the crawl stores a page of their
            // URL (see `crate::waiting_samples`), so that a crawl killed before it took them
            // answers from them when resumed.
            Ok(())
        };
        write().map_err(|error| database_error(&self.path, error))?;
        transaction
            .commit()
            .map_err(|error| database_error(&self.path, error))
    }

    /// The settings of the crawl this file holds, or `None` for a new file.
    pub fn settings(&self) -> Result<Option<CrawlSettings>, StoreError> {
        let value = |key: &str| -> Result<Option<String>, StoreError> {
            self.connection
                .query_row("SELECT value FROM meta WHERE key = ?1", [key], |row| {
                    row.get(0)
                })
                .optional()
                .map_err(|error| self.database_error(error))
        };
        let Some(portal) = value("portal")? else {
            return Ok(None);
        };
        let strategy = value("strategy")?.ok_or_else(|| self.damaged("no strategy"))?;
        let started_at = value("started_at")?
            .ok_or_else(|| self.damaged("no start time"))?
            .parse()
            .map_err(|error| self.damaged(format!("start time: {error}")))?;
        let plan_generation = value("plan_generation")?
            .ok_or_else(|| self.damaged("no plan generation"))?
            .parse()
            .map_err(|error| self.damaged(format!("plan generation: {error}")))?;
        Ok(Some(CrawlSettings {
            portal,
            strategy,
            plan_json: value("plan")?,
            plan_generation,
            started_at,
            order: value("order")?,
            patterns_json: value("patterns")?,
        }))
    }

    /// Records the frontier order of a crawl begun before orders were stored (with its patterns,
    /// or none), so that later resumes keep it. Refused on a file that holds no crawl or that
    /// already names an order: a crawl's order is chosen once.
    pub fn record_order(
        &mut self,
        order: &str,
        patterns_json: Option<&str>,
    ) -> Result<(), StoreError> {
        let settings = self
            .settings()?
            .ok_or_else(|| self.damaged("record_order on a file that holds no crawl"))?;
        if settings.order.is_some() {
            return Err(self.damaged("record_order on a crawl that already names its order"));
        }
        let transaction = self
            .connection
            .transaction()
            .map_err(|error| database_error(&self.path, error))?;
        let write = || -> rusqlite::Result<()> {
            let mut insert =
                transaction.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)")?;
            insert_order_rows(&mut insert, Some(order), patterns_json)?;
            Ok(())
        };
        write().map_err(|error| database_error(&self.path, error))?;
        transaction
            .commit()
            .map_err(|error| database_error(&self.path, error))
    }

    /// Replaces the crawl's plan with one learned again (the forum's templates changed) and
    /// returns the new generation. Pages fetched from now on carry it. Pages the old plan could
    /// not place (answered, but matching no vertex) go back into the frontier, at their old
    /// places in it, so the new plan reads them and follows their links.
    pub(crate) fn replace_plan(
        &mut self,
        plan_json: &str,
        change: PlanChange,
    ) -> Result<u32, StoreError> {
        let generation = self
            .settings()?
            .ok_or_else(|| self.damaged("replace_plan on a file that holds no crawl"))?
            .plan_generation
            + 1;
        let vertices_since =
            vertices_since_after(change, generation, self.kept_plan_vertices_since()?);
        let transaction = self
            .connection
            .transaction()
            .map_err(|error| database_error(&self.path, error))?;
        let write = || -> rusqlite::Result<()> {
            let mut update =
                transaction.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")?;
            update.execute(params!["plan", plan_json])?;
            update.execute(params!["plan_generation", generation.to_string()])?;
            update.execute(params![PLAN_VERTICES_SINCE, vertices_since.to_string()])?;
            transaction.execute(
                "UPDATE frontier SET done = 0 WHERE url IN \
                 (SELECT url FROM pages WHERE vertex IS NULL AND status = 200 \
                 AND plan_generation < ?1)",
                [generation],
            )?;
            // Samples left from the first learning show the templates that changed.
            SqliteStore::delete_samples(&transaction)?;
            Ok(())
        };
        write().map_err(|error| database_error(&self.path, error))?;
        transaction
            .commit()
            .map_err(|error| database_error(&self.path, error))?;
        self.waiting_samples.let_go_of_all();
        Ok(generation)
    }

    /// Writes one fetch, its records, and its frontier changes in one transaction. Returns the
    /// page's id (its place in fetch order).
    pub fn record_fetch(&mut self, outcome: &FetchOutcome) -> Result<i64, StoreError> {
        let ids = self.record_fetches(std::slice::from_ref(outcome))?;
        Ok(ids[0])
    }

    /// Writes several fetches, in order, in one transaction: all of them or none. Returns their
    /// pages' ids.
    ///
    /// A transaction per page rewrites the same last pages of every table and index into the
    /// write-ahead log each time, and a commit costs about as much again; a crawl driver that
    /// has several pages ready at once writes them together. The store is still always the
    /// state after a whole number of fetches.
    pub fn record_fetches(&mut self, outcomes: &[FetchOutcome]) -> Result<Vec<i64>, StoreError> {
        self.record_fetches_and_document(outcomes, None)
    }

    /// Writes one fetch as [`Store::record_fetch`] does and, in the same transaction, the named
    /// document `name` (replacing the one of that name): a driver's state that changes with each
    /// page it stores (`trawl watch` keeps its revisit policy's budget and timing so), which
    /// therefore never stands before or after the pages. Returns the page's id.
    pub fn record_fetch_with_document(
        &mut self,
        outcome: &FetchOutcome,
        name: &str,
        document: &str,
    ) -> Result<i64, StoreError> {
        let ids = self
            .record_fetches_and_document(std::slice::from_ref(outcome), Some((name, document)))?;
        Ok(ids[0])
    }

    /// Writes `outcomes` and, when given, the named document `(name, text)` in one transaction.
    fn record_fetches_and_document(
        &mut self,
        outcomes: &[FetchOutcome],
        document: Option<(&str, &str)>,
    ) -> Result<Vec<i64>, StoreError> {
        let mut encoded = Vec::with_capacity(outcomes.len());
        for outcome in outcomes {
            let page = &outcome.page;
            let headers = serde_json::to_string(&page.headers)
                .map_err(|error| self.damaged(format!("headers of {}: {error}", page.url)))?;
            // The audit's digest is made before the transaction, as the body is compressed:
            // the write lock is held for the writing alone.
            encoded.push((
                headers,
                deflate(&mut self.body_compressor, &page.body),
                Digest::of(page),
            ));
        }
        if !self.waiting_samples.known() {
            let urls = self.sample_urls()?;
            self.waiting_samples.read(urls);
        }
        let used_samples = self.waiting_samples.used_by(outcomes);
        let transaction = self
            .connection
            .transaction()
            .map_err(|error| database_error(&self.path, error))?;
        let write = || -> rusqlite::Result<Vec<i64>> {
            let ids = outcomes
                .iter()
                .zip(&encoded)
                .map(|(outcome, (headers, body, digest))| {
                    write_fetch(&transaction, outcome, headers, body, digest)
                })
                .collect::<rusqlite::Result<Vec<i64>>>()?;
            // A sample is let go with the page of its URL, taken from it or not.
            for url in &used_samples {
                transaction.execute("DELETE FROM samples WHERE url = ?1", [url])?;
            }
            if let Some((name, text)) = document {
                transaction.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                    params![crate::document_key(name), text],
                )?;
            }
            Ok(ids)
        };
        let ids = write().map_err(|error| database_error(&self.path, error))?;
        transaction
            .commit()
            .map_err(|error| database_error(&self.path, error))?;
        self.waiting_samples.let_go(&used_samples);
        Ok(ids)
    }

    /// The document last written under `name` by [`Store::record_fetch_with_document`], if any.
    pub fn document(&self, name: &str) -> Result<Option<String>, StoreError> {
        self.connection
            .query_row(
                "SELECT value FROM meta WHERE key = ?1",
                [crate::document_key(name)],
                |row| row.get(0),
            )
            .optional()
            .map_err(|error| self.database_error(error))
    }

    /// Puts `entries` back into the frontier to be fetched: URLs never queued are queued at
    /// its end, and URLs already fetched or passed over wait again (a failed page asked for a
    /// second time). Returns how many now wait that did not before. A crawler resumed from the
    /// store afterwards fetches them; the pages they bring are stored as any fetch is.
    pub fn requeue(&mut self, entries: &[FrontierEntry]) -> Result<usize, StoreError> {
        let transaction = self
            .connection
            .transaction()
            .map_err(|error| database_error(&self.path, error))?;
        let write = || -> rusqlite::Result<usize> {
            let mut insert = transaction.prepare_cached(
                "INSERT OR IGNORE INTO frontier (url, depth, redirects) VALUES (?1, ?2, ?3)",
            )?;
            let mut wait_again = transaction
                .prepare_cached("UPDATE frontier SET done = 0 WHERE url = ?1 AND done = 1")?;
            let mut waiting = 0;
            for entry in entries {
                waiting += insert.execute(params![entry.url, entry.depth, entry.redirects])?;
                waiting += wait_again.execute([&entry.url])?;
            }
            Ok(waiting)
        };
        let waiting = write().map_err(|error| database_error(&self.path, error))?;
        transaction
            .commit()
            .map_err(|error| database_error(&self.path, error))?;
        Ok(waiting)
    }

    /// Replaces the stored session cookies.
    pub fn save_cookies(&mut self, cookies: &[(String, String)]) -> Result<(), StoreError> {
        let transaction = self
            .connection
            .transaction()
            .map_err(|error| database_error(&self.path, error))?;
        replace_cookies(&transaction, cookies)
            .map_err(|error| database_error(&self.path, error))?;
        transaction
            .commit()
            .map_err(|error| database_error(&self.path, error))
    }
}

/// Writes one fetch into `transaction`: the page with its `headers` (JSON) and compressed
/// `body`, its audit digest, its records, and its frontier changes. Returns the page's id.
fn write_fetch(
    transaction: &rusqlite::Transaction<'_>,
    outcome: &FetchOutcome,
    headers: &str,
    body: &[u8],
    digest: &Digest,
) -> rusqlite::Result<i64> {
    let page = &outcome.page;
    transaction
        .prepare_cached(
            "INSERT INTO pages (url, depth, status, error, fetched_at, headers, body, \
             vertex, role, title, signature, post_pattern, plan_generation) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, \
             (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'plan_generation'))",
        )?
        .execute(params![
            page.url,
            page.depth,
            page.status,
            page.error,
            page.fetched_at.to_string(),
            headers,
            body,
            page.vertex,
            page.role,
            page.title,
            // SQLite integers are signed; the hash's bits are kept as they are.
            page.signature.map(|signature| signature as i64),
            page.post_pattern.map(|pattern| pattern as i64),
        ])?;
    let page_id = transaction.last_insert_rowid();
    super::audit_pages::write_digest(transaction, page_id, digest)?;
    let mut insert_link = transaction
        .prepare_cached("INSERT INTO list_links (page, position, url) VALUES (?1, ?2, ?3)")?;
    for (position, url) in page.list_links.iter().enumerate() {
        insert_link.execute(params![page_id, position as i64, url])?;
    }
    insert_posts(transaction, page_id, &page.posts)?;
    let mut insert_entry = transaction.prepare_cached(
        "INSERT INTO thread_entries (page, position, title, url, author, replies, \
         last_reply) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for (position, entry) in page.thread_entries.iter().enumerate() {
        insert_entry.execute(params![
            page_id,
            position as i64,
            entry.title,
            entry.url,
            entry.author,
            entry
                .replies
                .map(|replies| replies.min(i64::MAX as u64) as i64),
            entry.last_reply
        ])?;
    }
    if !outcome.requeued {
        transaction
            .prepare_cached("UPDATE frontier SET done = 1 WHERE url = ?1")?
            .execute([&outcome.frontier_url])?;
    }
    // The crawler never queues a URL twice; the store holds to that on its own too, so a driver
    // mistake cannot put a page in the frontier twice.
    let mut insert_queued = transaction.prepare_cached(
        "INSERT OR IGNORE INTO frontier (url, depth, redirects) VALUES (?1, ?2, ?3)",
    )?;
    for entry in &outcome.queued {
        insert_queued.execute(params![entry.url, entry.depth, entry.redirects])?;
    }
    if let Some(cookies) = &outcome.cookies {
        replace_cookies(transaction, cookies)?;
    }
    let mut mark_skipped =
        transaction.prepare_cached("UPDATE frontier SET done = 1 WHERE url = ?1")?;
    for url in &outcome.skipped {
        mark_skipped.execute([url])?;
    }
    Ok(page_id)
}

/// Writes `posts` as the posts of page `page_id`, at their positions on it.
pub(super) fn insert_posts(
    connection: &rusqlite::Connection,
    page_id: i64,
    posts: &[PostRecord],
) -> rusqlite::Result<()> {
    let mut insert_post = connection.prepare_cached(
        "INSERT INTO posts (page, position, author, time, text, permalink) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (position, post) in posts.iter().enumerate() {
        insert_post.execute(params![
            page_id,
            position as i64,
            post.author,
            post.time,
            post.text,
            post.permalink
        ])?;
    }
    Ok(())
}

fn replace_cookies(
    connection: &rusqlite::Connection,
    cookies: &[(String, String)],
) -> rusqlite::Result<()> {
    connection.execute("DELETE FROM cookies", [])?;
    let mut insert =
        connection.prepare_cached("INSERT INTO cookies (name, value) VALUES (?1, ?2)")?;
    for (name, value) in cookies {
        insert.execute(params![name, value])?;
    }
    Ok(())
}

fn database_error(path: &std::path::Path, source: rusqlite::Error) -> StoreError {
    StoreError::Sqlite {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes a crawl's frontier order and its patterns into the `meta` table through `insert`
/// (`INSERT INTO meta (key, value) ...`), each when given.
fn insert_order_rows(
    insert: &mut rusqlite::Statement<'_>,
    order: Option<&str>,
    patterns_json: Option<&str>,
) -> rusqlite::Result<()> {
    if let Some(order) = order {
        insert.execute(params!["order", order])?;
    }
    if let Some(patterns) = patterns_json {
        insert.execute(params!["patterns", patterns])?;
    }
    Ok(())
}
