//! Writing: the crawl's settings once, then each batch of fetches in one transaction. Records
//! and frontier changes go in as arrays (`UNNEST`), and a page with its records, its frontier
//! URL marked done and the document written with it go in as one statement, as each statement
//! is a round trip to the server: a page the watch fetches under a lease is written in four
//! (begin, the page ids with the lease's check, the page, commit), plus one when it queues new
//! URLs.

use postgres::Transaction;

use super::{Connection, PostgresStore, Statements, prepared};
use crate::audit_pages::Digest;
use crate::compression::deflate;
use crate::records::{PLAN_VERTICES_SINCE, PlanChange, vertices_since_after};
use crate::{CrawlSettings, FetchOutcome, FrontierEntry, StoreError};

const INSERT_META: &str = "INSERT INTO meta (site, key, value) VALUES ($1, $2, $3)";
const UPSERT_META: &str = "INSERT INTO meta (site, key, value) VALUES ($1, $2, $3) \
     ON CONFLICT (site, key) DO UPDATE SET value = EXCLUDED.value";
/// Queues URLs in the order given; a URL the site's frontier holds already is left where it is.
const QUEUE: &str = "INSERT INTO frontier (site, url, depth, redirects) \
     SELECT $1, url, depth, redirects \
     FROM UNNEST($2::text[], $3::bigint[], $4::bigint[]) WITH ORDINALITY \
     AS queued (url, depth, redirects, position) \
     ORDER BY position \
     ON CONFLICT (site, url) DO NOTHING";
const MARK_DONE: &str = "UPDATE frontier SET done = TRUE WHERE site = $1 AND url = ANY($2)";
/// Takes `$2` page ids for the site, returning the last; the row stays locked until commit.
const TAKE_PAGE_IDS: &str =
    "UPDATE sites SET pages_written = pages_written + $2 WHERE id = $1 RETURNING pages_written";
/// [`TAKE_PAGE_IDS`] and [`FENCE`] in one statement, for pages written under a lease of epoch
/// `$3`: no row when the lease is lost. Each statement is a round trip to the server, and a
/// fleet writes every page it fetches this way.
const TAKE_PAGE_IDS_FENCED: &str = "UPDATE sites SET pages_written = pages_written + $2, \
     last_request_end = now() WHERE id = $1 AND lease_epoch = $3 RETURNING pages_written";
/// A page, its records (list links, posts, thread entries), the frontier's URL it answers marked
/// done (`$25`, unless it was requeued, `$26`), when given a named document (`$27`, `$28`), and
/// its audit digest (`$29` to `$32`, `crate::audit_pages`) in one statement, as each statement is a round trip to the server. The sub-statements run
/// whatever the final query reads, on tables apart from one another, and the records'
/// references to the page are checked at the statement's end, when the page is in. Empty
/// arrays insert nothing.
const INSERT_PAGE_WITH_RECORDS: &str = "WITH page AS (\
     INSERT INTO pages (site, id, url, depth, status, error, fetched_at, \
     headers, body, vertex, role, title, signature, post_pattern, plan_generation) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, \
     (SELECT value::bigint FROM meta WHERE site = $1 AND key = 'plan_generation')) \
     RETURNING id), \
     links AS (INSERT INTO list_links (site, page, position, url) \
     SELECT $1, $2, position - 1, url FROM UNNEST($15::text[]) WITH ORDINALITY \
     AS links (url, position)), \
     posts AS (INSERT INTO posts (site, page, position, author, time, text, permalink) \
     SELECT $1, $2, position - 1, author, time, text, permalink \
     FROM UNNEST($16::text[], $17::text[], $18::text[], $19::text[]) WITH ORDINALITY \
     AS posts (author, time, text, permalink, position)), \
     entries AS (INSERT INTO thread_entries (site, page, position, title, url, \
     author, replies, last_reply) \
     SELECT $1, $2, position - 1, title, url, author, replies, last_reply \
     FROM UNNEST($20::text[], $21::text[], $22::text[], $23::bigint[], $24::text[]) \
     WITH ORDINALITY AS entries (title, url, author, replies, last_reply, position)), \
     done AS (UPDATE frontier SET done = TRUE WHERE site = $1 AND url = $25 AND NOT $26), \
     document AS (INSERT INTO meta (site, key, value) SELECT $1, $27::text, $28::text \
     WHERE $27::text IS NOT NULL \
     ON CONFLICT (site, key) DO UPDATE SET value = EXCLUDED.value), \
     audit AS (INSERT INTO audit_pages (site, page, list_links, links, posts, newest_post) \
     VALUES ($1, $2, $29, $30, $31, $32)) \
     SELECT id FROM page";
/// Locks the site's row if its lease epoch is still the one given, and notes the instant as the
/// site's last request's end: every write under a lease comes after the responses it stores
/// (or, for a sample or the plan, after the requests that brought them), so the next holder,
/// which reads the instant when it claims the site, keeps the politeness delay from it.
const FENCE: &str = "UPDATE sites SET last_request_end = now() \
     WHERE id = $1 AND lease_epoch = $2 RETURNING 1";
/// Lets go of a site's kept samples.
pub(super) const DELETE_SAMPLES: &str = "DELETE FROM samples WHERE site = $1";
/// Lets go of the kept samples of the URLs given.
const DELETE_USED_SAMPLES: &str = "DELETE FROM samples WHERE site = $1 AND url = ANY($2)";
const DELETE_COOKIES: &str = "DELETE FROM cookies WHERE site = $1";
const INSERT_COOKIES: &str = "INSERT INTO cookies (site, name, value) \
     SELECT $1, name, value FROM UNNEST($2::text[], $3::text[]) AS cookies (name, value)";

impl PostgresStore {
    /// See [`crate::Store::begin_crawl`].
    pub fn begin_crawl(
        &mut self,
        settings: &CrawlSettings,
        portal: &FrontierEntry,
    ) -> Result<(), StoreError> {
        if self.settings()?.is_some() {
            return Err(self.damaged("begin_crawl on a site that already holds a crawl"));
        }
        let site = self.site;
        let mut rows = vec![
            ("portal", settings.portal.clone()),
            ("strategy", settings.strategy.clone()),
            ("started_at", settings.started_at.to_string()),
            ("plan_generation", settings.plan_generation.to_string()),
        ];
        if let Some(plan) = &settings.plan_json {
            rows.push(("plan", plan.clone()));
        }
        rows.extend(order_rows(
            settings.order.as_deref(),
            settings.patterns_json.as_deref(),
        ));
        self.in_transaction(|transaction, statements| {
            let insert = prepared(statements, transaction, INSERT_META)?;
            for (key, value) in &rows {
                transaction.execute(&insert, &[&site, key, value])?;
            }
            queue(transaction, statements, site, std::slice::from_ref(portal))?;
            // The pages sampled to learn the plan stay until the crawl stores a page of their
            // URL (see `crate::waiting_samples`), so that a crawl whose worker was killed before
            // it took them answers from them when resumed, by this worker or another.
            Ok(())
        })
    }

    /// See [`crate::Store::record_order`].
    pub fn record_order(
        &mut self,
        order: &str,
        patterns_json: Option<&str>,
    ) -> Result<(), StoreError> {
        let settings = self
            .settings()?
            .ok_or_else(|| self.damaged("record_order on a site that holds no crawl"))?;
        if settings.order.is_some() {
            return Err(self.damaged("record_order on a crawl that already names its order"));
        }
        let site = self.site;
        let rows = order_rows(Some(order), patterns_json);
        self.in_transaction(|transaction, statements| {
            let insert = prepared(statements, transaction, INSERT_META)?;
            for (key, value) in &rows {
                transaction.execute(&insert, &[&site, key, value])?;
            }
            Ok(())
        })
    }

    /// See [`crate::Store::replace_plan`].
    pub(crate) fn replace_plan(
        &mut self,
        plan_json: &str,
        change: PlanChange,
    ) -> Result<u32, StoreError> {
        let generation = self
            .settings()?
            .ok_or_else(|| self.damaged("replace_plan on a site that holds no crawl"))?
            .plan_generation
            + 1;
        let vertices_since =
            vertices_since_after(change, generation, self.kept_plan_vertices_since()?);
        let site = self.site;
        self.in_transaction(|transaction, statements| {
            let upsert = prepared(statements, transaction, UPSERT_META)?;
            transaction.execute(&upsert, &[&site, &"plan", &plan_json])?;
            transaction.execute(
                &upsert,
                &[&site, &"plan_generation", &generation.to_string()],
            )?;
            transaction.execute(
                &upsert,
                &[&site, &PLAN_VERTICES_SINCE, &vertices_since.to_string()],
            )?;
            transaction.execute(
                "UPDATE frontier SET done = FALSE WHERE site = $1 AND url IN \
                 (SELECT url FROM pages WHERE site = $1 AND vertex IS NULL AND status = 200 \
                 AND plan_generation < $2)",
                &[&site, &i64::from(generation)],
            )?;
            // Samples left from the first learning show the templates that changed.
            transaction.execute(DELETE_SAMPLES, &[&site])?;
            Ok(())
        })?;
        self.waiting_samples.let_go_of_all();
        Ok(generation)
    }

    /// See [`crate::Store::record_fetches`].
    pub fn record_fetches(&mut self, outcomes: &[FetchOutcome]) -> Result<Vec<i64>, StoreError> {
        self.record_fetches_and_document(outcomes, None)
    }

    /// See [`crate::Store::record_fetch_with_document`].
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
            // The audit's digest is made before the transaction, as the body is compressed.
            encoded.push((
                headers,
                deflate(&mut self.body_compressor, &page.body),
                Digest::of(page),
            ));
        }
        let site = self.site;
        let document = document.map(|(name, text)| (crate::document_key(name), text));
        if !self.waiting_samples.known() {
            let urls = self.sample_urls()?;
            self.waiting_samples.read(urls);
        }
        let used_samples = self.waiting_samples.used_by(outcomes);
        let pages = outcomes.len() as i64;
        let ids = self.in_page_transaction(pages, |transaction, statements, last| {
            let first = last - pages + 1;
            let mut ids = Vec::with_capacity(outcomes.len());
            let last_id = first + pages - 1;
            for ((outcome, (headers, body, digest)), id) in
                outcomes.iter().zip(&encoded).zip(first..)
            {
                // The document goes in with the last page's statement.
                let document = document
                    .as_ref()
                    .filter(|_| id == last_id)
                    .map(|(key, text)| (key.as_str(), *text));
                let page = EncodedPage {
                    id,
                    headers,
                    body,
                    digest,
                };
                write_fetch(transaction, statements, site, outcome, &page, document)?;
                ids.push(id);
            }
            if outcomes.is_empty()
                && let Some((key, text)) = &document
            {
                let upsert = prepared(statements, transaction, UPSERT_META)?;
                transaction.execute(&upsert, &[&site, key, text])?;
            }
            // A sample is let go with the page of its URL, taken from it or not.
            if !used_samples.is_empty() {
                transaction.execute(DELETE_USED_SAMPLES, &[&site, &used_samples])?;
            }
            Ok(ids)
        })?;
        self.waiting_samples.let_go(&used_samples);
        Ok(ids)
    }

    /// See [`crate::Store::requeue`].
    pub fn requeue(&mut self, entries: &[FrontierEntry]) -> Result<usize, StoreError> {
        let site = self.site;
        self.in_transaction(|transaction, statements| {
            let insert = prepared(
                statements,
                transaction,
                "INSERT INTO frontier (site, url, depth, redirects) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (site, url) DO NOTHING",
            )?;
            let wait_again = prepared(
                statements,
                transaction,
                "UPDATE frontier SET done = FALSE WHERE site = $1 AND url = $2 AND done",
            )?;
            let mut waiting = 0;
            for entry in entries {
                let depth = i64::from(entry.depth);
                let redirects = i64::from(entry.redirects);
                waiting +=
                    transaction.execute(&insert, &[&site, &entry.url, &depth, &redirects])?;
                waiting += transaction.execute(&wait_again, &[&site, &entry.url])?;
            }
            Ok(waiting as usize)
        })
    }

    /// See [`crate::Store::save_cookies`].
    pub fn save_cookies(&mut self, cookies: &[(String, String)]) -> Result<(), StoreError> {
        let site = self.site;
        self.in_transaction(|transaction, statements| {
            replace_cookies(transaction, statements, site, cookies)
        })
    }

    /// Runs `write` in one transaction, as [`Self::in_transaction`], after taking `pages` page
    /// ids from the site's row; `write` is given the last of them. Under a lease, taking the ids
    /// also checks the epoch and notes the instant, one statement instead of two.
    fn in_page_transaction<T>(
        &self,
        pages: i64,
        write: impl FnOnce(&mut Transaction<'_>, &mut Statements, i64) -> Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        let mut connection = self.connection.borrow_mut();
        let Connection { client, statements } = &mut *connection;
        let database = |error| self.database_error(error);
        let mut transaction = client.transaction().map_err(database)?;
        let taken = match self.lease_epoch {
            Some(epoch) => {
                let take = prepared(statements, &mut transaction, TAKE_PAGE_IDS_FENCED)
                    .map_err(database)?;
                transaction
                    .query_opt(&take, &[&self.site, &pages, &epoch])
                    .map_err(database)?
            }
            None => {
                let take =
                    prepared(statements, &mut transaction, TAKE_PAGE_IDS).map_err(database)?;
                Some(
                    transaction
                        .query_one(&take, &[&self.site, &pages])
                        .map_err(database)?,
                )
            }
        };
        let Some(taken) = taken else {
            return Err(StoreError::LeaseLost {
                database: self.shown_url.clone(),
                site: self.site_url.clone(),
                epoch: self.lease_epoch.unwrap_or_default(),
            });
        };
        let value = write(&mut transaction, statements, taken.get(0)).map_err(database)?;
        transaction.commit().map_err(database)?;
        Ok(value)
    }

    /// Runs `write` in one transaction on this store's connection and commits it; an error
    /// rolls everything back. Under a lease, the transaction first locks the site's row and
    /// checks the lease's epoch: a claim by another worker either came before (and the write is
    /// refused) or waits for the commit.
    pub(super) fn in_transaction<T>(
        &self,
        write: impl FnOnce(&mut Transaction<'_>, &mut Statements) -> Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        let mut connection = self.connection.borrow_mut();
        let Connection { client, statements } = &mut *connection;
        let database = |error| self.database_error(error);
        let mut transaction = client.transaction().map_err(database)?;
        if let Some(epoch) = self.lease_epoch {
            let fence = prepared(statements, &mut transaction, FENCE).map_err(database)?;
            let held = transaction
                .query_opt(&fence, &[&self.site, &epoch])
                .map_err(database)?;
            if held.is_none() {
                return Err(StoreError::LeaseLost {
                    database: self.shown_url.clone(),
                    site: self.site_url.clone(),
                    epoch,
                });
            }
        }
        let value = write(&mut transaction, statements).map_err(database)?;
        transaction.commit().map_err(database)?;
        Ok(value)
    }
}

/// A page's id and its encoded parts: the headers as JSON, the compressed body and the audit's
/// digest.
struct EncodedPage<'encoded> {
    id: i64,
    headers: &'encoded str,
    body: &'encoded [u8],
    digest: &'encoded Digest,
}

/// Writes one fetch into `transaction` as `page` of `site`: the page, its records, its
/// frontier changes and, when given, a named document `(key, text)`, in the order the file's
/// backend writes them.
fn write_fetch(
    transaction: &mut Transaction<'_>,
    statements: &mut Statements,
    site: i64,
    outcome: &FetchOutcome,
    page_parts: &EncodedPage<'_>,
    document: Option<(&str, &str)>,
) -> Result<(), postgres::Error> {
    let EncodedPage {
        id,
        headers,
        body,
        digest,
    } = *page_parts;
    let page = &outcome.page;
    let posts = &page.posts;
    let authors: Vec<Option<&str>> = posts.iter().map(|p| p.author.as_deref()).collect();
    let times: Vec<Option<&str>> = posts.iter().map(|p| p.time.as_deref()).collect();
    let texts: Vec<&str> = posts.iter().map(|p| p.text.as_str()).collect();
    let permalinks: Vec<Option<&str>> = posts.iter().map(|p| p.permalink.as_deref()).collect();
    let entries = &page.thread_entries;
    let titles: Vec<&str> = entries.iter().map(|e| e.title.as_str()).collect();
    let urls: Vec<&str> = entries.iter().map(|e| e.url.as_str()).collect();
    let entry_authors: Vec<Option<&str>> = entries.iter().map(|e| e.author.as_deref()).collect();
    let replies: Vec<Option<i64>> = entries
        .iter()
        .map(|e| e.replies.map(|replies| replies.min(i64::MAX as u64) as i64))
        .collect();
    let last_replies: Vec<Option<&str>> = entries.iter().map(|e| e.last_reply.as_deref()).collect();
    let insert = prepared(statements, transaction, INSERT_PAGE_WITH_RECORDS)?;
    transaction.query_one(
        &insert,
        &[
            &site,
            &id,
            &page.url,
            &i64::from(page.depth),
            &i64::from(page.status),
            &page.error,
            &page.fetched_at.to_string(),
            &headers,
            &body,
            &page.vertex.map(i64::from),
            &page.role,
            &page.title,
            // The hash's bits are kept as they are in a signed column, as in the file.
            &page.signature.map(|signature| signature as i64),
            &page.post_pattern.map(|pattern| pattern as i64),
            &page.list_links,
            &authors,
            &times,
            &texts,
            &permalinks,
            &titles,
            &urls,
            &entry_authors,
            &replies,
            &last_replies,
            &outcome.frontier_url,
            &outcome.requeued,
            &document.map(|(key, _)| key),
            &document.map(|(_, text)| text),
            &digest.list_links,
            &digest.links,
            &digest.posts,
            &digest.newest_post,
        ],
    )?;
    queue(transaction, statements, site, &outcome.queued)?;
    if let Some(cookies) = &outcome.cookies {
        replace_cookies(transaction, statements, site, cookies)?;
    }
    if !outcome.skipped.is_empty() {
        let mark_done = prepared(statements, transaction, MARK_DONE)?;
        transaction.execute(&mark_done, &[&site, &outcome.skipped])?;
    }
    Ok(())
}

/// Queues `entries` at the end of `site`'s frontier, in order; URLs already there stay where
/// they are, so a driver mistake cannot put a page in the frontier twice.
fn queue(
    transaction: &mut Transaction<'_>,
    statements: &mut Statements,
    site: i64,
    entries: &[FrontierEntry],
) -> Result<(), postgres::Error> {
    if entries.is_empty() {
        return Ok(());
    }
    let urls: Vec<&str> = entries.iter().map(|entry| entry.url.as_str()).collect();
    let depths: Vec<i64> = entries.iter().map(|entry| i64::from(entry.depth)).collect();
    let redirects: Vec<i64> = entries
        .iter()
        .map(|entry| i64::from(entry.redirects))
        .collect();
    let insert = prepared(statements, transaction, QUEUE)?;
    transaction.execute(&insert, &[&site, &urls, &depths, &redirects])?;
    Ok(())
}

fn replace_cookies(
    transaction: &mut Transaction<'_>,
    statements: &mut Statements,
    site: i64,
    cookies: &[(String, String)],
) -> Result<(), postgres::Error> {
    let delete = prepared(statements, transaction, DELETE_COOKIES)?;
    transaction.execute(&delete, &[&site])?;
    if cookies.is_empty() {
        return Ok(());
    }
    let names: Vec<&str> = cookies.iter().map(|(name, _)| name.as_str()).collect();
    let values: Vec<&str> = cookies.iter().map(|(_, value)| value.as_str()).collect();
    let insert = prepared(statements, transaction, INSERT_COOKIES)?;
    transaction.execute(&insert, &[&site, &names, &values])?;
    Ok(())
}

/// The `meta` rows that name a crawl's frontier order and its patterns, each when given.
fn order_rows(order: Option<&str>, patterns_json: Option<&str>) -> Vec<(&'static str, String)> {
    let mut rows = Vec::new();
    if let Some(order) = order {
        rows.push(("order", order.to_string()));
    }
    if let Some(patterns) = patterns_json {
        rows.push(("patterns", patterns.to_string()));
    }
    rows
}
