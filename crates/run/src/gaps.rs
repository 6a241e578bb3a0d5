//! Auditing a crawl from its store, and the step that ends a crawl that ran dry: audit, fetch
//! what may close the gaps, audit again.
//!
//! The audit reads the store through a crawler rebuilt from it, so a thread entry's link is
//! read under the spelling the crawler would have queued it by (`Crawler::queued_spelling`);
//! a thread fetched as `?t=5` is then not taken for the `?t=5&start=0` a board links.

use std::collections::HashSet;

use trawl_audit::{AuditReport, CrawlRecord, EntrySeen, FetchedPage, LinkSeen};
use trawl_crawl::Crawler;
use trawl_learn::sitemap::Role;
use trawl_model::{Clock, CookieJarFetcher, Fetcher};
use trawl_store::{
    AuditPage, FrontierEntry, ResumeState, Store, ThreadEntryRecord, UnfetchedFrontier,
};
use trawl_watch::stored::{resume_crawler, resume_crawler_from};
use url::Url;

use crate::open::stored_strategy;
use crate::{CrawlEnd, CrawlProgress, DriveOptions, RunError, drive};

/// The crawler the crawl in `store` would go on with (its plan and the spellings it learned).
pub fn stored_crawler(store: &Store) -> Result<Crawler, RunError> {
    Ok(stored_crawler_and_frontier(store)?.0)
}

/// [`stored_crawler`], and the frontier's URLs no fetch answered, read from the same reading of
/// the store's frontier and pages that rebuilds the crawler.
fn stored_crawler_and_frontier(store: &Store) -> Result<(Crawler, UnfetchedFrontier), RunError> {
    let settings = store.settings()?.ok_or_else(|| RunError::NoCrawl {
        location: store.location().to_string(),
    })?;
    let portal = Url::parse(&settings.portal).map_err(|_| RunError::PortalNotUrl {
        location: store.location().to_string(),
        portal: settings.portal.clone(),
    })?;
    let strategy = stored_strategy(store, &settings)?;
    let state = store.resume_state()?;
    let frontier = unfetched_frontier_of(&state);
    Ok((resume_crawler_from(state, &portal, strategy), frontier))
}

/// The frontier's URLs no fetch answered, as [`Store::unfetched_frontier`] reads them, from a
/// crawl's resume state, which holds the frontier (every URL queued, in queue order, and those
/// still waiting) and every fetched page's URL already: reading them again from the store was a
/// fifth of an audit of 100,000 pages.
fn unfetched_frontier_of(state: &ResumeState) -> UnfetchedFrontier {
    let waiting: HashSet<&str> = state
        .pending
        .iter()
        .map(|entry| entry.url.as_str())
        .collect();
    let fetched: HashSet<&str> = state
        .signatures
        .iter()
        .map(|(url, _)| url.as_str())
        .collect();
    UnfetchedFrontier {
        waiting: state
            .pending
            .iter()
            .map(|entry| entry.url.clone())
            .collect(),
        // A frontier URL is queued once: one not waiting is done, fetched or passed over.
        passed_over: state
            .seen
            .iter()
            .filter(|url| !waiting.contains(url.as_str()) && !fetched.contains(url.as_str()))
            .cloned()
            .collect(),
    }
}

/// The audit of the crawl `store` holds, read from the digests the store keeps of its pages
/// (`Store::audit_pages`: no body, no post's text).
pub fn audit_store(store: &Store) -> Result<AuditReport, RunError> {
    let (crawler, frontier) = stored_crawler_and_frontier(store)?;
    let pages = store
        .audit_pages()?
        .into_iter()
        .map(|page| fetched_page(&crawler, page))
        .collect();
    let record = CrawlRecord {
        pages,
        waiting: frontier.waiting,
        passed_over: frontier.passed_over,
    };
    Ok(trawl_audit::audit(&record))
}

/// A URL as the crawler would queue it (its spelling rewrites applied), or as written when it
/// does not parse.
pub(crate) fn queued_spelling(crawler: &Crawler, url: &str) -> Option<String> {
    let mut target = Url::parse(url).ok()?;
    target.set_fragment(None);
    Some(crawler.queued_spelling(&target).to_string())
}

/// A stored page as the audit reads it.
pub(crate) fn fetched_page(crawler: &Crawler, page: AuditPage) -> FetchedPage {
    let redirect_to = page
        .location
        .as_deref()
        .and_then(|location| Url::parse(&page.url).ok()?.join(location).ok())
        .map(String::from);
    let thread_entries = page
        .thread_entries
        .into_iter()
        .map(|entry| entry_seen(crawler, entry))
        .collect();
    let links = page
        .links
        .into_iter()
        .filter_map(|link| {
            Some(LinkSeen {
                queued_as: queued_spelling(crawler, &link)?,
                url: link,
            })
        })
        .collect();
    FetchedPage {
        links,
        role: page.role.as_deref().and_then(Role::from_name),
        url: page.url,
        status: page.status,
        error: page.error,
        redirect_to,
        list_links: page.list_links,
        title: page.title,
        posts: page.posts,
        thread_entries,
    }
}

/// A stored thread entry as the audit reads it: its link under the crawler's spelling.
pub(crate) fn entry_seen(crawler: &Crawler, entry: ThreadEntryRecord) -> EntrySeen {
    EntrySeen {
        url: Url::parse(&entry.url)
            .map(|url| crawler.queued_spelling(&url).to_string())
            .unwrap_or(entry.url),
        title: entry.title,
        replies: entry.replies,
        last_reply: entry.last_reply,
    }
}

/// Most fetches the gap-closing step may spend: a quarter of the pages the crawl holds, and at
/// least [`LEAST_CLOSING_FETCHES`]. Closing follows the links of the pages it brings (a board
/// page brings its threads and their pages, 25 threads of about five pages each on a small
/// simulated forum), so its cost is bounded here, not by the number of gaps; the bound is
/// there for a page that leads somewhere endless. A crawl stopped by it keeps the rest waiting
/// in its store, and a rerun goes on.
const CLOSING_SHARE: f64 = 0.25;
/// See [`CLOSING_SHARE`].
const LEAST_CLOSING_FETCHES: usize = 500;
/// Rounds of audit and fetch: a page a round brings can show gaps of its own (a board page's
/// threads with their pagers).
const CLOSING_ROUNDS: usize = 3;

/// What closing a crawl's gaps did.
#[derive(Debug)]
pub struct GapClosing {
    /// Rounds that fetched anything.
    pub rounds: usize,
    /// URLs asked for to close gaps.
    pub asked: usize,
    /// Pages fetched in all, the asked-for ones and those their links led to.
    pub fetched: usize,
    /// The audit after the last round.
    pub report: AuditReport,
}

/// Audits the crawl in `store` and, while the audit names pages that may be fetched (never
/// queued, or failed), queues them, rebuilds `crawler` from the store and drives it, within a
/// budget of fetches and [`CLOSING_ROUNDS`] rounds. A URL is asked for once per run: a page
/// that fails again is left to the audit. `max_pages` (the crawl's own limit) bounds it too.
///
/// The crawl ran dry, so the learning samples still kept in the store are of pages it never
/// asked for; they are let go first, so that a store of hundreds of forums does not keep them
/// for ever.
pub fn close_gaps<F: Fetcher>(
    store: &mut Store,
    crawler: &mut Crawler,
    portal: &Url,
    fetcher: &CookieJarFetcher<F>,
    clock: &dyn Clock,
    options: DriveOptions,
    mut progress: impl FnMut(&CrawlProgress),
) -> Result<GapClosing, RunError> {
    store.let_samples_go()?;
    let start_pages = store.page_count()?;
    let budget = ((start_pages as f64 * CLOSING_SHARE) as usize).max(LEAST_CLOSING_FETCHES);
    let limit = options
        .max_pages
        .map_or(start_pages + budget, |max| max.min(start_pages + budget));
    let mut asked: HashSet<String> = HashSet::new();
    let mut rounds = 0;
    loop {
        let report = audit_store(store)?;
        let pages = store.page_count()?;
        let to_fetch: Vec<String> = report
            .urls_to_fetch()
            .into_iter()
            .filter(|url| !asked.contains(url))
            .take(limit.saturating_sub(pages))
            .collect();
        if rounds == CLOSING_ROUNDS || to_fetch.is_empty() || report.totals.urls_waiting > 0 {
            return Ok(GapClosing {
                rounds,
                asked: asked.len(),
                fetched: pages - start_pages,
                report,
            });
        }
        rounds += 1;
        let entries: Vec<FrontierEntry> = to_fetch
            .iter()
            .map(|url| FrontierEntry {
                url: url.clone(),
                depth: 1,
                redirects: 0,
            })
            .collect();
        asked.extend(to_fetch);
        store.requeue(&entries)?;
        *crawler = resume_crawler(store, portal, crawler.strategy().clone())?
            .with_priority(crawler.priority().cloned());
        let (end, _) = drive(
            store,
            crawler,
            fetcher,
            clock,
            DriveOptions {
                max_pages: Some(limit),
                ..options
            },
            &mut progress,
        )?;
        if end != CrawlEnd::FrontierEmpty {
            let report = audit_store(store)?;
            return Ok(GapClosing {
                rounds,
                asked: asked.len(),
                fetched: store.page_count()? - start_pages,
                report,
            });
        }
    }
}

#[cfg(test)]
#[path = "gaps_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "audit_digest_tests.rs"]
mod audit_digest_tests;
