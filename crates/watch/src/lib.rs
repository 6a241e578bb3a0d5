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
//! page is found in the pager of the page before; boards created after the crawl are found by
//! reading the portal again a few times a day (`discovery`).
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
//! fetched first.
//!
//! What no page tells is kept beside the pages (`state`): where the run stood in its plan (the
//! window it plans next and its place in the day's budget, the fetches planned and not yet made,
//! when the portal is next read and the pages its last read found)
//! and the policy's own state (the budget it carried, the follow-ups waiting for budget, when
//! each list is next due), written in the transaction of each page the watch stores. A
//! restarted watch of a policy that keeps its state ([`trawl_schedule::Policy::saved_state`],
//! ours does) goes on exactly where the killed one stood: the page in flight is the first
//! fetched, the day's budget is the one left, and no list is polled before it is due. For a
//! policy that keeps none the run starts afresh with the follow-ups owed.
//!
//! # Startup
//!
//! The store is read twice, page by page, never whole: once for the pages' URLs, roles and
//! page-flipping links, from which the lists are assembled, and once for their record times,
//! each page handed to the scheduler and dropped. Only the lists' own statistics stay.
//!
//! # Where the loop is
//!
//! Here, not in the command-line program: the library never sleeps on its own, reads no clock
//! but the one it is given, and touches the disk only through the store, so a test drives it
//! over loopback HTTP on an accelerated clock exactly as `trawl watch` drives it live.
//! [`WatchHooks`] is how the caller waits, reports and stops.

mod discovery;
mod list_urls;
mod pages;
mod reader;
pub mod snapshot;
mod state;
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
    FetchedPage, ListId, ListKind, PageContent, PageRequest, ScheduleError, Scheduler, SiteId,
    Window, policy_named,
};
use trawl_store::{FetchOutcome, PageRecord, Store, StoreError, StoreLocation};
use url::Url;

use list_urls::{ListOutline, ListUrls};
use reader::StoredReader;
use state::{DOCUMENT_NAME, WatchState};

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
    /// Reads a day of the portal, for boards created after the crawl.
    pub portal_reads_per_day: u32,
}

impl WatchConfig {
    /// `policy` at `budget_per_day` fetches a day, planned hour by hour as the replay plans.
    pub fn new(policy: &str, budget_per_day: u32) -> WatchConfig {
        WatchConfig {
            policy: policy.to_string(),
            budget_per_day,
            window_seconds: 3600,
            // A hundredth of the budget, at least daily and at most hourly: a new board is
            // rare, and what is written in it meanwhile is lost to no one, only late.
            portal_reads_per_day: (budget_per_day / 100).clamp(1, 24),
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

    /// A page was read and the scheduler has learned from it; its write to the store begins.
    /// Nothing to decide here: it tells a caller timing the run's steps where reading a page
    /// ends and writing it begins.
    fn writing(&mut self) {}

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
    /// Lists this run found by reading the portal (boards created after the crawl).
    pub lists_found: usize,
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
    /// Fetches planned or granted and not yet made, in order.
    queue: VecDeque<PageRequest>,
    /// The start of the next window to plan (Unix seconds; `None` until the run starts), and how
    /// many windows were planned before it.
    window_start: Option<i64>,
    window_index: u64,
    /// Pages the store holds, for the state written with each page.
    pages_stored: usize,
    /// The portal, read again for new boards (see `discovery`), when next, the pages its reads
    /// found and not yet fetched, and the fetches those took and no window's budget has paid.
    portal: Url,
    next_portal_read: Option<i64>,
    discoveries: VecDeque<String>,
    spent_outside_plan: u32,
    cookies: Vec<(String, String)>,
    status: WatchStatus,
    /// Pages the store held when the first watch of it began, kept in the state for the
    /// freshness views; `None` when a state written before it was kept does not say.
    crawl_pages: Option<usize>,
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
        // The first reading keeps of each page only what assembles the lists, and reads the
        // forum's clock from the portal's body (the only body read); post texts are cut to
        // nothing, since scheduling needs only their times.
        let mut outlines: Vec<ListOutline> = Vec::new();
        let mut forum_offset = None;
        store.for_each_page_outline(0, &[Role::Portal.name()], |page| {
            let role = page.record.role.as_deref().and_then(Role::from_name);
            if role == Some(Role::Portal) && forum_offset.is_none() {
                forum_offset = offset_stated_by(&page.record);
            }
            if let Some(outline) = ListOutline::of(&page.record) {
                outlines.push(outline);
            }
        })?;
        let urls = ListUrls::from_outlines(&outlines);
        drop(outlines);
        let pages_stored = store.page_count()?;
        let document = store.document(DOCUMENT_NAME)?;
        // Where the crawl ended is known from the first watch on, even from a state too old
        // to resume from; a store no watch wrote ends its crawl here.
        let crawl_pages = match &document {
            Some(text) => WatchState::from_text(text).and_then(|state| state.crawl_pages),
            None => Some(pages_stored),
        };
        let saved = document
            .and_then(|text| WatchState::from_text(&text))
            .filter(|state| state.pages == pages_stored);
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
            queue: VecDeque::new(),
            window_start: None,
            window_index: 0,
            pages_stored,
            portal: portal.clone(),
            next_portal_read: None,
            discoveries: VecDeque::new(),
            spent_outside_plan: 0,
            status: WatchStatus::default(),
            crawl_pages,
        };
        let boards: Vec<ListId> = watch.urls.index_lists().collect();
        for board in boards {
            watch.scheduler.lists_mut().add_index_list(board, SiteId(0));
        }
        // The second reading hands each page to the scheduler as it comes and keeps nothing of
        // it. The store cannot be borrowed for the reading and by the watch at once, so the
        // watch's parts the reading needs are lent to it.
        let mut reading_error = None;
        {
            let Watch {
                store,
                crawler,
                urls,
                scheduler,
                owed,
                forum_offset,
                ..
            } = &mut watch;
            let mut reader = StoredReader {
                crawler,
                urls,
                scheduler,
                owed,
                forum_offset: *forum_offset,
            };
            store.for_each_page_outline(0, &[], |page| {
                if reading_error.is_some() {
                    return;
                }
                let Some(fetched) = reader.read(&page.record) else {
                    return;
                };
                match reader.scheduler.lists_mut().record(&fetched) {
                    Ok(change) => reader.owe_after(&fetched, &change),
                    Err(error) => reading_error = Some(error),
                }
            })?;
        }
        if let Some(error) = reading_error {
            return Err(error.into());
        }
        let restored =
            saved.filter(|state| watch.scheduler.restore_policy_state(&state.policy).is_ok());
        match restored {
            Some(state) => {
                // The killed run's plan goes on: what it owed is in its queue already.
                watch.owed.clear();
                watch.queue = state.queue.into();
                watch.window_start = Some(state.window_start);
                watch.window_index = state.window_index;
                watch.next_portal_read = Some(state.next_portal_read);
                watch.spent_outside_plan = state.spent_outside_plan;
                watch.discoveries = state.discoveries.into();
            }
            None => watch.settle_owed(),
        }
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
        if self.window_start.is_none() {
            let start = self.clock.now();
            self.queue = self
                .owed
                .iter()
                .map(|&(list, page)| PageRequest {
                    at: start,
                    list,
                    page,
                })
                .collect();
            self.window_start = Some(start.as_second());
            self.window_index = 0;
            // The crawl has just read the portal.
            self.next_portal_read = Some(start.as_second() + self.portal_read_interval());
        }
        loop {
            // Pages a read of the portal found come before anything planned.
            if !self.discoveries.is_empty() {
                if !self.discover(hooks)? {
                    return Ok(self.status.clone());
                }
                self.refresh_status(self.queue.len(), self.queue.front().map(|next| next.at));
                if hooks.stored(&self.status).is_break() {
                    return Ok(self.status.clone());
                }
                continue;
            }
            if self.queue.is_empty() {
                let now = self.clock.now().as_second();
                let mut window_start = self.window_start.unwrap_or(now);
                // A run that fell a whole window behind (a slow forum, a machine asleep, a
                // watch stopped for a while) plans from now rather than for windows past.
                if now >= window_start + window_seconds {
                    window_start = now;
                }
                let window_end = window_start + window_seconds;
                // The day's budget split over its windows without losing the fractions.
                let in_day = self.window_index % windows_per_day;
                let share = (budget * (in_day + 1) / windows_per_day
                    - budget * in_day / windows_per_day) as u32;
                let paid = self.spent_outside_plan.min(share);
                self.spent_outside_plan -= paid;
                let window_budget = share - paid;
                let window = Window::new(timestamp(window_start), timestamp(window_end))?;
                self.queue
                    .extend(self.scheduler.plan(window, window_budget));
                self.window_start = Some(window_end);
                self.window_index += 1;
                if self.queue.is_empty() {
                    self.refresh_status(0, None);
                    let wake = self.portal_due_by(window_end).unwrap_or(window_end);
                    if hooks.wait_until(self.clock, timestamp(wake)).is_break() {
                        return Ok(self.status.clone());
                    }
                    if self.portal_due_by(wake).is_some() && !self.read_portal(hooks)? {
                        return Ok(self.status.clone());
                    }
                    continue;
                }
            }
            let Some(&request) = self.queue.front() else {
                continue;
            };
            if let Some(due) = self.portal_due_by(request.at.as_second()) {
                if hooks.wait_until(self.clock, timestamp(due)).is_break()
                    || !self.read_portal(hooks)?
                {
                    return Ok(self.status.clone());
                }
                self.refresh_status(self.queue.len(), Some(request.at));
                if hooks.stored(&self.status).is_break() {
                    return Ok(self.status.clone());
                }
                continue;
            }
            self.refresh_status(self.queue.len(), Some(request.at));
            if hooks.wait_until(self.clock, request.at).is_break() {
                return Ok(self.status.clone());
            }
            if !self.visit(request, hooks)? {
                return Ok(self.status.clone());
            }
            self.owed
                .retain(|&owed| owed != (request.list, request.page));
            self.refresh_status(self.queue.len(), self.queue.front().map(|next| next.at));
            if hooks.stored(&self.status).is_break() {
                return Ok(self.status.clone());
            }
        }
    }

    /// Fetches, stores and observes the request at the front of the queue, putting the
    /// follow-ups in its place; `false` when a hook stopped the run with the page in flight,
    /// which then stays first in the queue.
    fn visit(
        &mut self,
        request: PageRequest,
        hooks: &mut dyn WatchHooks,
    ) -> Result<bool, WatchError> {
        let url = self
            .urls
            .url_of(request.list, request.page)
            .and_then(|url| Url::parse(url).ok());
        let Some(url) = url else {
            // A page no stored pager names. The scheduler knows only pages the store's pagers
            // name, so this does not happen; were it to, nothing is fetched and nothing learned,
            // since a visit the store does not hold would be one the rebuilt scheduler lacks.
            self.queue.pop_front();
            return Ok(true);
        };
        let Some(outcome) = self.fetch(url, hooks) else {
            return Ok(false);
        };
        let page = &outcome.page;
        let newest_before = self
            .scheduler
            .lists()
            .get(request.list)
            .and_then(|list| list.newest_record());
        let fetched = self.reader().read(page).unwrap_or(FetchedPage {
            list: request.list,
            page: request.page,
            fetched_at: page.fetched_at,
            page_count: None,
            content: PageContent::Failed,
        });
        // The scheduler learns of the page before it is stored, so that its state after the
        // page is written with the page; a store that then fails ends the run, and the next
        // one rebuilds the scheduler from what the store holds.
        let follow_ups = self.scheduler.observe(&fetched)?;
        self.queue.pop_front();
        for follow_up in follow_ups.into_iter().rev() {
            self.queue.push_front(follow_up);
        }
        self.store_page(&outcome, hooks)?;
        if let PageContent::Posts(times) = &fetched.content {
            for time in times {
                if newest_before.is_none_or(|newest| time.as_second() > newest) {
                    self.status.new_posts += 1;
                    self.status.delay_seconds +=
                        (fetched.fetched_at.as_second() - time.as_second()).max(0) as f64;
                }
            }
        }
        Ok(true)
    }

    /// Fetches `url` now and reads it as the crawl reads a page, ready to be stored; `None` when
    /// a hook stopped the run with the page in flight.
    fn fetch(&mut self, url: Url, hooks: &mut dyn WatchHooks) -> Option<FetchOutcome> {
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
            return None;
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
        Some(outcome)
    }

    /// Stores a fetched page with the run's state after it.
    fn store_page(
        &mut self,
        outcome: &FetchOutcome,
        hooks: &mut dyn WatchHooks,
    ) -> Result<(), WatchError> {
        hooks.writing();
        match self.saved_state(1) {
            Some(state) => {
                self.store
                    .record_fetch_with_document(outcome, DOCUMENT_NAME, &state)?;
            }
            None => {
                self.store.record_fetch(outcome)?;
            }
        }
        self.pages_stored += 1;
        self.status.fetched += 1;
        let page = &outcome.page;
        if page.status != 200 || page.error.is_some() {
            self.status.failed += 1;
        }
        Ok(())
    }

    /// The run's state as text once `pages_to_come` more pages are stored, or `None` for a
    /// policy that keeps no state of its own (restoring the plan without the policy's budget
    /// would be half a state).
    fn saved_state(&self, pages_to_come: usize) -> Option<String> {
        let policy = self.scheduler.saved_policy_state()?;
        let state = WatchState {
            pages: self.pages_stored + pages_to_come,
            window_start: self.window_start.unwrap_or_default(),
            window_index: self.window_index,
            queue: self.queue.iter().copied().collect(),
            next_portal_read: self.next_portal_read.unwrap_or_default(),
            spent_outside_plan: self.spent_outside_plan,
            discoveries: self.discoveries.iter().cloned().collect(),
            crawl_pages: self.crawl_pages,
            forum_offset: self.forum_offset,
            policy,
        };
        Some(state.to_text())
    }

    /// The watch's parts that read a page into the scheduler.
    fn reader(&mut self) -> StoredReader<'_> {
        StoredReader {
            crawler: &self.crawler,
            urls: &mut self.urls,
            scheduler: &mut self.scheduler,
            owed: &mut self.owed,
            forum_offset: self.forum_offset,
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
