//! `trawl audit`: what a crawl missed, by the forum's own statements (see `trawl_audit`), and
//! the step that ends `trawl crawl`: audit, fetch what may close the gaps, audit again.
//!
//! The audit reads the store through a crawler rebuilt from it, so a thread entry's link is
//! read under the spelling the crawler would have queued it by (`Crawler::queued_spelling`);
//! a thread fetched as `?t=5` is then not taken for the `?t=5&start=0` a board links.

use std::collections::HashSet;

use anyhow::{Context, Result, bail};
use clap::Args;
use trawl_audit::{
    AuditReport, CrawlRecord, EntrySeen, FetchedPage, GapKind, LinkSeen, Missing, PostSeen,
    anchor_links,
};
use trawl_crawl::Crawler;
use trawl_learn::sitemap::Role;
use trawl_model::{Clock, CookieJarFetcher, Fetcher};
use trawl_store::{FrontierEntry, Store, StoreError, StoreLocation, StoredPage};
use url::Url;

use crate::crawl_run::{
    CrawlEnd, CrawlProgress, DriveOptions, drive, resume_crawler, stored_strategy,
};

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The crawl database: a file, or a `postgres://` URL.
    #[arg(long)]
    pub db: StoreLocation,
    /// The site to audit, by the URL its crawl was started with, in a PostgreSQL database
    /// holding several (a file holds one crawl).
    #[arg(long)]
    pub site: Option<String>,
    /// Lists shown among the worst, and gaps listed one by one.
    #[arg(long, default_value_t = 10)]
    pub worst: usize,
}

/// The error `trawl audit` ends with when the crawl is known to be incomplete, so `main` can
/// exit with its own status (2) rather than the status of a failure to audit (1).
#[derive(Debug)]
pub struct Incomplete(pub String);

impl std::fmt::Display for Incomplete {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(&self.0)
    }
}

impl std::error::Error for Incomplete {}

pub fn run(args: AuditArgs) -> Result<()> {
    let store = open_crawl_to_read(&args.db, args.site.as_deref(), true)
        .with_context(|| format!("cannot audit {}", args.db))?;
    let portal = store
        .settings()?
        .map(|settings| settings.portal)
        .with_context(|| {
            format!(
                "{} holds no crawl yet; start one with `trawl crawl URL --db {}`",
                args.db, args.db
            )
        })?;
    let report = audit_store(&store)?;
    print!("{}", describe(&report, args.worst));
    if report.is_incomplete() {
        return Err(Incomplete(format!(
            "the crawl in {} is incomplete ({}); rerun `trawl crawl {portal} --db {}` to go on \
             and close its gaps",
            args.db,
            gaps_in_words(&report),
            args.db
        ))
        .into());
    }
    Ok(())
}

/// Opens the crawl at `db` that a reading command (audit, export) reads: a missing file or site
/// is told with the command that makes it.
pub fn open_crawl_to_read(
    db: &StoreLocation,
    site: Option<&str>,
    read_only: bool,
) -> Result<Store> {
    match Store::open_existing(db, site, read_only) {
        Ok(store) => Ok(store),
        Err(StoreError::Missing { .. }) if matches!(db, StoreLocation::File(_)) => {
            bail!("{db} does not exist; crawl first with `trawl crawl URL --db {db}`")
        }
        Err(error @ (StoreError::Missing { .. } | StoreError::NoSuchSite { .. })) => {
            Err(anyhow::Error::new(error)
                .context(format!("crawl first with `trawl crawl URL --db {db}`")))
        }
        Err(error) => Err(error.into()),
    }
}

/// The crawler the crawl in `store` would go on with (its plan and the spellings it learned).
fn stored_crawler(store: &Store) -> Result<Crawler> {
    let settings = store
        .settings()?
        .with_context(|| format!("{} holds no crawl", store.location()))?;
    let portal = Url::parse(&settings.portal).with_context(|| {
        format!(
            "{} names a portal that is not a URL: {}",
            store.location(),
            settings.portal
        )
    })?;
    let strategy = stored_strategy(store, &settings)?;
    Ok(resume_crawler(store, &portal, strategy)?)
}

/// The audit of the crawl `store` holds.
pub fn audit_store(store: &Store) -> Result<AuditReport> {
    let crawler = stored_crawler(store)?;
    let mut record = CrawlRecord::default();
    // Only list pages' bodies are read: their links are what the audit reads bodies for.
    let list_roles = [Role::Thread.name(), Role::ThreadList.name()];
    store.for_each_page_outline(PostSeen::TEXT_IN_IDENTITY, &list_roles, |page| {
        record.pages.push(fetched_page(&crawler, page));
    })?;
    let frontier = store.unfetched_frontier()?;
    record.waiting = frontier.waiting;
    record.passed_over = frontier.passed_over;
    Ok(trawl_audit::audit(&record))
}

/// A stored page as the audit reads it.
fn fetched_page(crawler: &Crawler, page: StoredPage) -> FetchedPage {
    let record = page.record;
    let redirect_to = (300..400)
        .contains(&record.status)
        .then(|| {
            let location = record
                .headers
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case("location"))?;
            Url::parse(&record.url).ok()?.join(&location.1).ok()
        })
        .flatten()
        .map(String::from);
    let posts = record
        .posts
        .into_iter()
        .map(|post| PostSeen {
            identity: PostSeen::identity_of(
                post.permalink.as_deref(),
                post.author.as_deref(),
                post.time.as_deref(),
                &post.text,
            ),
            time: post.time,
        })
        .collect();
    let thread_entries = record
        .thread_entries
        .into_iter()
        .map(|entry| EntrySeen {
            url: Url::parse(&entry.url)
                .map(|url| crawler.queued_spelling(&url).to_string())
                .unwrap_or(entry.url),
            title: entry.title,
            replies: entry.replies,
            last_reply: entry.last_reply,
        })
        .collect();
    let links = anchor_links(&record.body, &record.url)
        .into_iter()
        .filter_map(|link| {
            let mut target = Url::parse(&link).ok()?;
            target.set_fragment(None);
            Some(LinkSeen {
                queued_as: crawler.queued_spelling(&target).to_string(),
                url: link,
            })
        })
        .collect();
    FetchedPage {
        links,
        role: record.role.as_deref().and_then(Role::from_name),
        url: record.url,
        status: record.status,
        error: record.error,
        redirect_to,
        list_links: record.list_links,
        title: record.title,
        posts,
        thread_entries,
    }
}

/// The gaps in a few words: how many of each kind, and the URLs waiting.
fn gaps_in_words(report: &AuditReport) -> String {
    let mut parts: Vec<String> = GapKind::ALL
        .iter()
        .filter_map(|&kind| {
            let count = report.count(kind);
            (count > 0).then(|| format!("{count} {}", plural_of(kind, count)))
        })
        .collect();
    if report.totals.urls_waiting > 0 {
        parts.push(format!("{} URLs waiting", report.totals.urls_waiting));
    }
    parts.join(", ")
}

fn plural_of(kind: GapKind, count: usize) -> &'static str {
    match (kind, count == 1) {
        (GapKind::ListedThread, true) => "thread listed and never fetched",
        (GapKind::ListedThread, false) => "threads listed and never fetched",
        (GapKind::LinkedListPage, true) => "list page linked and never fetched",
        (GapKind::LinkedListPage, false) => "list pages linked and never fetched",
        (GapKind::NumberedListPage, true) => "list page within a pager's numbers, never fetched",
        (GapKind::NumberedListPage, false) => "list pages within pagers' numbers, never fetched",
        (GapKind::ShortThread, true) => "thread cut short",
        (GapKind::ShortThread, false) => "threads cut short",
    }
}

fn missing_in_words(missing: &Missing) -> String {
    match missing {
        Missing::NeverQueued => "never queued".into(),
        Missing::Waiting => "waiting".into(),
        Missing::Failed {
            status: 0,
            error: Some(error),
        } => format!("no answer: {error}"),
        Missing::Failed { status, .. } => format!("answered {status}"),
        Missing::TakenForAnother { queued_as } => {
            format!("the crawler takes it for {queued_as}")
        }
        Missing::PagesMissing {
            pages_fetched,
            pages_needed,
        } => format!("{pages_fetched} of {pages_needed} pages"),
    }
}

/// The report as `trawl audit` prints it: totals, the verdict, then the worst lists and the
/// first gaps (`worst` of each).
pub fn describe(report: &AuditReport, worst: usize) -> String {
    let totals = &report.totals;
    let mut text = String::new();
    let mut line = |line: String| {
        text.push_str(&line);
        text.push('\n');
    };
    line(format!(
        "pages: {} fetched, {} without a usable answer, {} URLs waiting",
        totals.pages_fetched, totals.pages_failed, totals.urls_waiting
    ));
    line(format!(
        "threads: {} listed by the boards, {} of them fetched ({} entries under links the \
         crawl does not follow to threads)",
        totals.threads_listed, totals.threads_listed_fetched, totals.entries_not_followed
    ));
    line(format!(
        "lists: {} boards and threads, {} of their pages known, {} fetched",
        totals.lists, totals.list_pages_known, totals.list_pages_fetched
    ));
    line(format!(
        "posts: {} counted by the boards for threads fetched, {} of them held ({} posts per \
         page; counts read as {})",
        totals.posts_counted,
        totals.posts_stored_of_counted,
        totals.posts_per_page,
        if totals.counts_are_replies {
            "replies"
        } else {
            "posts"
        }
    ));
    if totals.without_roles {
        line(
            "roles: none (a crawl without a plan): the forum's counts cannot be read, only the \
             URLs waiting"
                .into(),
        );
    }
    if !report.unread.is_empty() {
        let posts: u64 = report
            .unread
            .iter()
            .map(|thread| thread.counted - thread.stored)
            .sum();
        line(format!(
            "unread: {} threads hold {posts} posts fewer than counted though all their pages \
             were fetched (page analysis, not the crawl)",
            report.unread.len()
        ));
    }
    if !report.is_incomplete() {
        line("complete: no gap against the forum's own counts".into());
        return text;
    }
    line(format!(
        "incomplete: {}; {} posts counted and missing",
        gaps_in_words(report),
        report.posts_missing()
    ));
    let lists = report.worst_lists(worst);
    if !lists.is_empty() {
        line("worst lists:".into());
        for list in lists {
            line(format!(
                "  {} gaps, {} posts missing: {}",
                list.gaps, list.posts_missing, list.list
            ));
        }
    }
    if !report.gaps.is_empty() {
        line(format!(
            "gaps ({} shown of {}):",
            worst.min(report.gaps.len()),
            report.gaps.len()
        ));
        for gap in report.gaps.iter().take(worst) {
            line(format!(
                "  {} ({}): {}",
                gap.kind.name(),
                missing_in_words(&gap.missing),
                gap.url
            ));
        }
    }
    text
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
pub fn close_gaps<F: Fetcher>(
    store: &mut Store,
    crawler: &mut Crawler,
    portal: &Url,
    fetcher: &CookieJarFetcher<F>,
    clock: &dyn Clock,
    options: DriveOptions,
    mut progress: impl FnMut(&CrawlProgress),
) -> Result<GapClosing> {
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
#[path = "audit_tests.rs"]
mod tests;
