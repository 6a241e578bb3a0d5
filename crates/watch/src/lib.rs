//! Keeping a crawl's store fresh: a revisit policy of `trawl-schedule` driven live, through the
//! [`Fetcher`] seam and on a [`Clock`], into the store the crawl wrote.
//!
//! After `trawl crawl` the store holds the forum as it was. [`Watch`] continues it: the
//! scheduler plans each hour's fetches for its share of the day's budget, the watch fetches each
//! page at its instant, classifies it with the crawl's plan and stores it exactly as the crawl
//! stores a page (the crawler resumed from the store reads it, [`stored`] maps it to the
//! store's records), and hands what it showed back to the scheduler, fetching at once the
//! follow-ups that asks for (a new thread's pages, the last page of a thread whose board entry
//! shows a reply). New threads found on a board are new lists from then on; a thread's new last
//! page is found in the pager of the page before.
//!
//! # Nothing lost after a kill
//!
//! Everything the scheduler knows is rebuilt from the store: the lists are those `trawl export`
//! assembles from the stored pages (`list_urls`), and every stored page, the crawl's and the
//! watch's, is recorded into the scheduler's lists again in fetch order, through the same
//! functions that read a live page (`pages`). Each live page is written in a transaction of
//! its own as soon as it is read, and the scheduler learns of it only after that, so the store
//! is always at least as far as the scheduler. What a kill can take away is the page in flight
//! (fetched again, if the plan still wants it) and the follow-ups granted and not yet fetched:
//! those are derived again from the rebuilt lists (threads whose board showed news the store
//! lacks, board pages a burst pushed news onto, thread pages read before they filled) and
//! fetched first. What is not rebuilt is short-lived policy state, the budget carried between
//! windows and the phases of the polls, which a new run starts afresh.
//!
//! # Where the loop is
//!
//! Here, not in the command-line program: the library never sleeps on its own, reads no clock
//! but the one it is given, and touches the disk only through the store, so a test drives it
//! over loopback HTTP on an accelerated clock exactly as `trawl watch` drives it live.
//! [`WatchHooks`] is how the caller waits, reports and stops.

mod list_urls;
mod pages;
pub mod stored;

use std::collections::VecDeque;
use std::ops::ControlFlow;

use jiff::Timestamp;
use trawl_crawl::{AnalysedPage, CrawlStrategy, Crawler, Queued};
use trawl_learn::plan::{Plan, PlanError};
use trawl_learn::sitemap::Role;
use trawl_model::{Clock, CookieJarFetcher, FetchRequest, Fetcher};
use trawl_page::analysis::analyse;
use trawl_page::time::DateContext;
use trawl_schedule::{
    FetchedPage, ListChange, ListId, ListKind, PageContent, PageRequest, ScheduleError, Scheduler,
    SiteId, Window, policy_named,
};
use trawl_store::{PageRecord, Store, StoreError, StoreLocation, StoredPage};
use url::Url;

use list_urls::ListUrls;
use pages::{fetched_page, thread_entry};

const DAY: i64 = 86_400;

/// The strategy name a plan crawl's store records (as `trawl crawl` writes it).
const PLAN_STRATEGY: &str = "plan";

/// Why a watch cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// The store holds no crawl to continue.
    #[error(
        "{path} holds no crawl; run `trawl crawl URL --db {path}` first, then watch that database"
    )]
    NoCrawl { path: StoreLocation },
    /// The crawl was breadth-first: there is no plan to classify new pages with.
    #[error(
        "{path} holds a breadth-first crawl, which has no plan to read new pages with; run \
         `trawl crawl URL --db NEW.db` (it learns a plan) first and watch that database"
    )]
    NoPlan { path: StoreLocation },
    /// The stored plan cannot be read.
    #[error("the plan stored in {path} is not usable; run `trawl crawl` into a new database")]
    Plan {
        path: StoreLocation,
        #[source]
        source: PlanError,
    },
    /// The store is a crawl of another forum.
    #[error("{path} holds a crawl of {stored}, not of {asked}; watch it with that URL")]
    OtherPortal {
        path: StoreLocation,
        stored: String,
        asked: String,
    },
    /// No policy has that name.
    #[error(
        "there is no revisit policy called {0:?} that can run live (the oracles need the \
         simulator's truth)"
    )]
    UnknownPolicy(String),
    #[error(
        "cannot read or write the crawl database; rerun the same command to go on where it stopped"
    )]
    Store(#[from] StoreError),
    #[error("the scheduler refused a page")]
    Schedule(#[from] ScheduleError),
}

/// How to watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchConfig {
    /// The revisit policy's name (`trawl_schedule::POLICY_NAMES`, oracles aside).
    pub policy: String,
    /// Fetches a day.
    pub budget_per_day: u32,
    /// The planning window, in seconds.
    pub window_seconds: i64,
}

impl WatchConfig {
    /// `policy` at `budget_per_day` fetches a day, planned hour by hour as the replay plans.
    pub fn new(policy: &str, budget_per_day: u32) -> WatchConfig {
        WatchConfig {
            policy: policy.to_string(),
            budget_per_day,
            window_seconds: 3600,
        }
    }
}

/// What the caller does between the watch's steps: wait, report, stop. Returning
/// [`ControlFlow::Break`] from any of them ends [`Watch::run`] where it stands.
pub trait WatchHooks {
    /// Waits until `at` on `clock` (the watch never sleeps on its own).
    fn wait_until(&mut self, clock: &dyn Clock, at: Timestamp) -> ControlFlow<()>;

    /// A page was fetched and is about to be read and stored. Breaking here drops it unstored,
    /// as a kill with the page in flight would.
    fn fetched(&mut self, _url: &str) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A page was stored and the scheduler has learned from it.
    fn stored(&mut self, _status: &WatchStatus) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// Where a watch stands, for its status line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WatchStatus {
    /// Fetches this run, and how many of them got no answer or an error status.
    pub fetched: usize,
    pub failed: usize,
    /// Posts this run stored that the store did not hold before.
    pub new_posts: usize,
    /// Σ of their delays (stored − written), seconds.
    pub delay_seconds: f64,
    /// Fetches planned and not yet made, and when the next one is due.
    pub next_fetches: usize,
    pub next_at: Option<Timestamp>,
    /// Pages known and never fetched (new threads, new last pages), and threads whose board
    /// shows news the store lacks: the work the schedule has before it.
    pub backlog_pages: usize,
    pub threads_with_news: usize,
    /// Lists watched (boards and threads).
    pub lists: usize,
}

impl WatchStatus {
    /// The mean delay of the posts this run stored, seconds.
    pub fn mean_delay_seconds(&self) -> Option<f64> {
        (self.new_posts > 0).then(|| self.delay_seconds / self.new_posts as f64)
    }
}

/// A watch of one crawl's store.
#[derive(Debug)]
pub struct Watch<'run, F: Fetcher> {
    store: &'run mut Store,
    fetcher: &'run CookieJarFetcher<F>,
    clock: &'run dyn Clock,
    config: WatchConfig,
    crawler: Crawler,
    scheduler: Scheduler,
    urls: ListUrls,
    /// The forum's offset from UTC, read once from the stored portal (see `pages::instant_of`).
    forum_offset: Option<i32>,
    /// Fetches owed from before a restart, fetched first.
    owed: Vec<(ListId, u32)>,
    cookies: Vec<(String, String)>,
    status: WatchStatus,
}

impl<'run, F: Fetcher> Watch<'run, F> {
    /// Continues the crawl held in `store`, whose portal must be `portal`: rebuilds the crawler,
    /// the lists and the scheduler's knowledge from every stored page.
    pub fn open(
        store: &'run mut Store,
        fetcher: &'run CookieJarFetcher<F>,
        clock: &'run dyn Clock,
        portal: &Url,
        config: WatchConfig,
    ) -> Result<Watch<'run, F>, WatchError> {
        let policy = policy_named(&config.policy)
            .ok_or_else(|| WatchError::UnknownPolicy(config.policy.clone()))?;
        let path = store.location();
        let settings = store
            .settings()?
            .ok_or_else(|| WatchError::NoCrawl { path: path.clone() })?;
        if settings.portal != portal.as_str() {
            return Err(WatchError::OtherPortal {
                path,
                stored: settings.portal,
                asked: portal.to_string(),
            });
        }
        let plan_json = match (settings.strategy.as_str(), settings.plan_json) {
            (PLAN_STRATEGY, Some(json)) => json,
            _ => return Err(WatchError::NoPlan { path }),
        };
        let plan = Plan::from_json(&plan_json).map_err(|source| WatchError::Plan {
            path: path.clone(),
            source,
        })?;
        fetcher.set_cookies(store.cookies()?);
        let crawler = stored::resume_crawler(store, portal, CrawlStrategy::Plan(Box::new(plan)))?;
        // Post texts are not needed to schedule, only their times; bodies only of the portal,
        // which tells the forum's clock.
        let mut stored_pages: Vec<StoredPage> = Vec::new();
        store.for_each_page_outline(0, &[Role::Portal.name()], |page| stored_pages.push(page))?;
        let forum_offset = stored_pages
            .iter()
            .filter(|page| page.record.role.as_deref() == Some(Role::Portal.name()))
            .find_map(|page| offset_stated_by(&page.record));
        let urls = ListUrls::from_stored(&stored_pages);
        let mut watch = Watch {
            store,
            fetcher,
            clock,
            cookies: fetcher.cookies(),
            config,
            crawler,
            scheduler: Scheduler::new(policy),
            urls,
            forum_offset,
            owed: Vec::new(),
            status: WatchStatus::default(),
        };
        let boards: Vec<ListId> = watch.urls.index_lists().collect();
        for board in boards {
            watch.scheduler.lists_mut().add_index_list(board, SiteId(0));
        }
        for page in &stored_pages {
            let Some(fetched) = watch.read(&page.record) else {
                continue;
            };
            let change = watch.scheduler.lists_mut().record(&fetched)?;
            watch.owe_after(&fetched, &change);
        }
        watch.settle_owed();
        watch.refresh_status(0, None);
        Ok(watch)
    }

    /// The scheduler, as rebuilt and as the run has taught it.
    pub fn scheduler(&self) -> &Scheduler {
        &self.scheduler
    }

    /// Fetches owed from before a restart, not yet made.
    pub fn owed(&self) -> &[(ListId, u32)] {
        &self.owed
    }

    /// Where the run stands.
    pub fn status(&self) -> &WatchStatus {
        &self.status
    }

    /// Watches until a hook says stop, and returns where the run stood.
    pub fn run(&mut self, hooks: &mut dyn WatchHooks) -> Result<WatchStatus, WatchError> {
        let window_seconds = self.config.window_seconds.max(1);
        let budget = u64::from(self.config.budget_per_day);
        let windows_per_day = (DAY / window_seconds).max(1) as u64;
        let start = self.clock.now();
        let mut queue: VecDeque<PageRequest> = self
            .owed
            .iter()
            .map(|&(list, page)| PageRequest {
                at: start,
                list,
                page,
            })
            .collect();
        let mut window_start = start.as_second();
        let mut window_index: u64 = 0;
        loop {
            if queue.is_empty() {
                let now = self.clock.now().as_second();
                // A run that fell a whole window behind (a slow forum, a machine asleep) plans
                // from now rather than for windows already past.
                if now >= window_start + window_seconds {
                    window_start = now;
                }
                let window_end = window_start + window_seconds;
                // The day's budget split over its windows without losing the fractions.
                let in_day = window_index % windows_per_day;
                let window_budget = (budget * (in_day + 1) / windows_per_day
                    - budget * in_day / windows_per_day) as u32;
                let window = Window::new(timestamp(window_start), timestamp(window_end))?;
                queue.extend(self.scheduler.plan(window, window_budget));
                window_start = window_end;
                window_index += 1;
                if queue.is_empty() {
                    self.refresh_status(0, None);
                    if hooks
                        .wait_until(self.clock, timestamp(window_start))
                        .is_break()
                    {
                        return Ok(self.status.clone());
                    }
                    continue;
                }
            }
            let Some(request) = queue.pop_front() else {
                continue;
            };
            self.refresh_status(queue.len() + 1, Some(request.at));
            if hooks.wait_until(self.clock, request.at).is_break() {
                return Ok(self.status.clone());
            }
            let Some(follow_ups) = self.visit(request, hooks)? else {
                return Ok(self.status.clone());
            };
            for follow_up in follow_ups.into_iter().rev() {
                queue.push_front(follow_up);
            }
            self.owed
                .retain(|&owed| owed != (request.list, request.page));
            self.refresh_status(queue.len(), queue.front().map(|next| next.at));
            if hooks.stored(&self.status).is_break() {
                return Ok(self.status.clone());
            }
        }
    }

    /// Fetches, stores and observes one requested page; returns the follow-ups, or `None` when
    /// a hook stopped the run with the page in flight.
    fn visit(
        &mut self,
        request: PageRequest,
        hooks: &mut dyn WatchHooks,
    ) -> Result<Option<Vec<PageRequest>>, WatchError> {
        let url = self
            .urls
            .url_of(request.list, request.page)
            .and_then(|url| Url::parse(url).ok());
        let Some(url) = url else {
            // A page no stored pager names. The scheduler knows only pages the store's pagers
            // name, so this does not happen; were it to, nothing is fetched and nothing learned,
            // since a visit the store does not hold would be one the rebuilt scheduler lacks.
            return Ok(Some(Vec::new()));
        };
        // A revisit is reached from the schedule, not by a link: one step from the portal, so
        // that the crawler does not take its redirects for the portal's.
        let queued = Queued {
            url,
            depth: 1,
            redirects: 0,
        };
        let answer = self
            .fetcher
            .fetch(&FetchRequest::new(queued.url.as_str(), self.clock.now()));
        if hooks.fetched(queued.url.as_str()).is_break() {
            return Ok(None);
        }
        let mut outcome = match answer {
            Ok(response) => {
                let analysed = AnalysedPage::of(&queued, &response, self.crawler.plan());
                let page = self.crawler.record_analysed(&queued, &response, analysed);
                stored::stored_outcome(&queued, response, page)
            }
            Err(error) => {
                self.crawler.record_failure();
                stored::failed_outcome(&queued, &error, self.clock.now())
            }
        };
        outcome.skipped = self.crawler.take_skipped();
        let cookies = self.fetcher.cookies();
        if cookies != self.cookies {
            outcome.cookies = Some(cookies.clone());
            self.cookies = cookies;
        }
        self.store.record_fetch(&outcome)?;
        self.status.fetched += 1;
        let page = &outcome.page;
        if page.status != 200 || page.error.is_some() {
            self.status.failed += 1;
        }
        let newest_before = self
            .scheduler
            .lists()
            .get(request.list)
            .and_then(|list| list.newest_record());
        let fetched = self.read(page).unwrap_or(FetchedPage {
            list: request.list,
            page: request.page,
            fetched_at: page.fetched_at,
            page_count: None,
            content: PageContent::Failed,
        });
        if let PageContent::Posts(times) = &fetched.content {
            for time in times {
                if newest_before.is_none_or(|newest| time.as_second() > newest) {
                    self.status.new_posts += 1;
                    self.status.delay_seconds +=
                        (fetched.fetched_at.as_second() - time.as_second()).max(0) as f64;
                }
            }
        }
        Ok(Some(self.scheduler.observe(&fetched)?))
    }

    /// What a stored page tells the scheduler, or `None` for a page of no list (the portal, a
    /// member page). Both live pages and pages read back after a restart come through here.
    fn read(&mut self, record: &PageRecord) -> Option<FetchedPage> {
        let (list, page) = self.urls.page_of(&record.url)?;
        let kind = self.urls.kind(list)?;
        let page_count = self.urls.extend(list, &record.list_links).max(page);
        let mut entries = Vec::new();
        if kind == ListKind::Index {
            for entry in &record.thread_entries {
                let Ok(mut url) = Url::parse(&entry.url) else {
                    continue;
                };
                url.set_fragment(None);
                let spelling = self.crawler.queued_spelling(&url);
                let Some(thread) = self.urls.thread_at(spelling.as_str()) else {
                    continue;
                };
                if entries
                    .iter()
                    .any(|known: &trawl_schedule::ThreadEntry| known.thread == thread)
                {
                    continue;
                }
                entries.push(thread_entry(
                    thread,
                    entry.last_reply.as_deref(),
                    entry.replies,
                    self.forum_offset,
                ));
            }
        }
        let lists = self.scheduler.lists_mut();
        if lists.get(list).is_none() {
            match kind {
                ListKind::Index => lists.add_index_list(list, SiteId(0)),
                // A thread reached other than from a board's list (a portal's latest threads).
                ListKind::Post => lists.add_post_list(list, SiteId(0), None),
            }
        }
        Some(fetched_page(
            record,
            list,
            kind,
            page,
            page_count,
            entries,
            self.forum_offset,
        ))
    }

    /// Notes what a page read back from the store would have had fetched at once, and settles
    /// what it fetched itself. Follow-ups the interrupted run was granted and never fetched are
    /// owed to the next; pages never fetched at all are in the scheduler's backlog already.
    fn owe_after(&mut self, fetched: &FetchedPage, change: &ListChange) {
        self.owed
            .retain(|&owed| owed != (fetched.list, fetched.page));
        let lists = self.scheduler.lists();
        let mut owe = Vec::new();
        for &thread in &change.changed_threads {
            if let Some(state) = lists.get(thread) {
                owe.push((thread, state.page_count));
            }
        }
        if let Some(state) = lists.get(fetched.list) {
            let has_next = fetched.page < state.page_count;
            match state.kind {
                ListKind::Index if change.moved_past_page && has_next => {
                    owe.push((fetched.list, fetched.page + 1));
                }
                // The next page of a thread, unless it was read full (the policies' discovery
                // rule): the posts added since it was read are there.
                ListKind::Post if has_next => {
                    let next_read_full = state.page_seen(fetched.page + 1).is_some_and(|seen| {
                        seen.fetched_at.is_some() && seen.records >= state.records_per_page.max(1)
                    });
                    if !next_read_full {
                        owe.push((fetched.list, fetched.page + 1));
                    }
                }
                _ => {}
            }
        }
        for page in owe {
            if !self.owed.contains(&page) {
                self.owed.push(page);
            }
        }
    }

    /// Keeps of what is owed only pages fetched before (the backlog has the others) and adds
    /// the threads whose board's news the store still lacks, and thread pages read before they
    /// filled, now that a later page exists.
    fn settle_owed(&mut self) {
        let lists = self.scheduler.lists();
        let mut owed: Vec<(ListId, u32)> = self
            .owed
            .iter()
            .copied()
            .filter(|&(list, page)| {
                lists
                    .get(list)
                    .is_some_and(|state| state.page_fetched(page))
            })
            .collect();
        for state in lists.iter().filter(|state| state.kind == ListKind::Post) {
            if state.unseen_activity_since.is_some() {
                owed.push((state.id, state.page_count));
            }
            // A page read while it was the thread's last, short of full, and a later page
            // read after it: the posts that filled it since are on no page the schedule reads.
            for page in 1..state.page_count {
                let read_at = |page: u32| state.page_seen(page).and_then(|seen| seen.fetched_at);
                let unfilled = state
                    .page_seen(page)
                    .is_some_and(|seen| seen.records < state.records_per_page);
                if let (Some(read), Some(next_read)) = (read_at(page), read_at(page + 1))
                    && unfilled
                    && next_read > read
                {
                    owed.push((state.id, page));
                }
            }
        }
        let mut unique = Vec::with_capacity(owed.len());
        for page in owed {
            if !unique.contains(&page) {
                unique.push(page);
            }
        }
        self.owed = unique;
    }

    fn refresh_status(&mut self, next_fetches: usize, next_at: Option<Timestamp>) {
        let lists = self.scheduler.lists();
        self.status.next_fetches = next_fetches;
        self.status.next_at = next_at;
        self.status.backlog_pages = lists.backlog().count();
        self.status.threads_with_news = lists
            .iter()
            .filter(|state| state.unseen_activity_since.is_some())
            .count();
        self.status.lists = lists.len();
    }
}

/// The offset from UTC a stored page states (a zone statement or a clock), read by page
/// analysis from its body.
fn offset_stated_by(record: &PageRecord) -> Option<i32> {
    if record.body.is_empty() {
        return None;
    }
    let url = Url::parse(&record.url).ok()?;
    let content_type = record
        .headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
        .map(|(_, value)| value.as_str());
    let context = DateContext::new(record.fetched_at, None);
    analyse(&record.body, content_type, &url, &context)
        .date_context
        .utc_offset_seconds
}

fn timestamp(second: i64) -> Timestamp {
    Timestamp::from_second(second).unwrap_or(Timestamp::UNIX_EPOCH)
}
