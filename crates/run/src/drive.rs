//! Driving a [`Crawler`] through a fetcher into a [`Store`].
//!
//! Each fetch is stored in the same transaction as the frontier entries it adds and the cookies
//! it changed (the pages ready at once share one), so the store is always the state after some
//! whole number of fetches; a crawl killed at any moment loses at most the pages in flight or not
//! yet written, and [`crate::open_crawl`] rebuilds the crawler from the store exactly as it was.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use trawl_crawl::{AnalysedPage, CrawlStrategy, Crawler, Placement, Queued};
use trawl_learn::plan::Plan;
use trawl_model::{Clock, CookieJarFetcher, FetchError, FetchRequest, FetchResponse, Fetcher};
use trawl_store::{FetchOutcome, Store};
use trawl_watch::stored::{failed_outcome, resume_crawler, stored_outcome};
use url::Url;

use crate::RunError;
use crate::read_again::read_again_pages_before_post_patterns;

/// Where a crawl stands, for progress displays.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CrawlProgress {
    /// Pages in the store, this run's and earlier runs'.
    pub pages: usize,
    /// Pages fetched by this run.
    pub pages_this_run: usize,
    /// This run's pages with posts or thread entries.
    pub valuable_this_run: usize,
    /// Posts stored by this run, those gained by pages read again included.
    pub posts_this_run: usize,
    /// Stored pages read again once the post patterns of their vertex were known, which gave
    /// more posts than they were stored with (this run; see `read_again`).
    pub pages_read_again_this_run: usize,
    /// Fetches that got no answer (this run).
    pub failures_this_run: usize,
    /// Pages the plan could not classify, placed by their nearest layout or URL pattern and
    /// crawled from there (this run; see [`trawl_crawl::Placement`]).
    pub placed_by_nearest_this_run: usize,
    /// URLs waiting.
    pub frontier: usize,
    /// Seconds since this run began.
    pub elapsed_seconds: f64,
    /// The page limit, when there is one.
    pub max_pages: Option<usize>,
}

impl CrawlProgress {
    /// Pages per second this run.
    pub fn rate(&self) -> f64 {
        if self.elapsed_seconds > 0.0 {
            self.pages_this_run as f64 / self.elapsed_seconds
        } else {
            0.0
        }
    }

    /// Seconds left at the current rate, when the crawl is bounded.
    pub fn eta_seconds(&self) -> Option<f64> {
        let remaining = self.max_pages?.saturating_sub(self.pages);
        let rate = self.rate();
        (rate > 0.0).then(|| remaining as f64 / rate)
    }

    /// Share of this run's pages that held posts or thread entries.
    pub fn valuable_share(&self) -> f64 {
        if self.pages_this_run == 0 {
            0.0
        } else {
            self.valuable_this_run as f64 / self.pages_this_run as f64
        }
    }
}

/// Why a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrawlEnd {
    /// Nothing left to fetch.
    FrontierEmpty,
    /// The page limit was reached; rerunning with a higher limit goes on.
    PageLimit,
    /// Most recent pages matched no vertex of the plan: the forum's templates changed.
    TemplateChanged {
        /// Unclassified pages among the last [`TEMPLATE_CHANGE_WINDOW`] (or fewer, when the
        /// crawl ran dry first).
        unclassified: usize,
    },
}

/// Pages looked at to tell a template change: the last this many answered with 200.
pub const TEMPLATE_CHANGE_WINDOW: usize = 100;

/// Share of those pages matching no vertex that means the templates changed. Below it, a few
/// pages of kinds the sample never met (a rare error page, a new board layout) do not cost a
/// new sample; above it, the plan is steering blind.
pub const TEMPLATE_CHANGE_SHARE: f64 = 0.5;

/// Times one run learns the plan again before it gives up on a site whose templates keep
/// changing under it.
pub const MAX_RELEARNS_PER_RUN: usize = 3;

/// What [`drive_with_relearning`] tells `relearn` when the forum's templates changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TemplateChange {
    /// Recent pages that matched no vertex of the plan.
    pub unclassified: usize,
    /// The generation the plan learned now will be stored as.
    pub generation: u32,
}

/// [`drive`], learning the plan again (with `relearn`) when the forum's templates change, and
/// going on with the new plan where the crawl stood.
#[allow(clippy::too_many_arguments)]
pub fn drive_with_relearning<F: Fetcher, E: From<RunError>>(
    store: &mut Store,
    crawler: &mut Crawler,
    portal: &Url,
    fetcher: &CookieJarFetcher<F>,
    clock: &dyn Clock,
    options: DriveOptions,
    mut relearn: impl FnMut(TemplateChange) -> Result<Plan, E>,
    mut progress: impl FnMut(&CrawlProgress),
) -> Result<(CrawlEnd, CrawlProgress), E> {
    let mut total: Option<CrawlProgress> = None;
    let mut relearned = 0;
    loop {
        let (end, status) = drive(store, crawler, fetcher, clock, options, &mut progress)?;
        let merged = match total {
            None => status,
            Some(before) => CrawlProgress {
                pages_this_run: before.pages_this_run + status.pages_this_run,
                valuable_this_run: before.valuable_this_run + status.valuable_this_run,
                posts_this_run: before.posts_this_run + status.posts_this_run,
                pages_read_again_this_run: before.pages_read_again_this_run
                    + status.pages_read_again_this_run,
                failures_this_run: before.failures_this_run + status.failures_this_run,
                placed_by_nearest_this_run: before.placed_by_nearest_this_run
                    + status.placed_by_nearest_this_run,
                elapsed_seconds: before.elapsed_seconds + status.elapsed_seconds,
                ..status
            },
        };
        total = Some(merged);
        let CrawlEnd::TemplateChanged { unclassified } = end else {
            return Ok((end, merged));
        };
        if relearned == MAX_RELEARNS_PER_RUN {
            return Ok((end, merged));
        }
        let generation = store
            .settings()
            .map_err(RunError::from)?
            .map_or(0, |settings| settings.plan_generation)
            + 1;
        let plan = relearn(TemplateChange {
            unclassified,
            generation,
        })?;
        store
            .replace_plan(&plan.to_json())
            .map_err(RunError::from)?;
        *crawler = resume_crawler(store, portal, CrawlStrategy::Plan(Box::new(plan)))
            .map_err(RunError::from)?
            .with_priority(crawler.priority().cloned());
        relearned += 1;
    }
}

/// How a crawl run is driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DriveOptions {
    /// Stop when the store holds this many pages.
    pub max_pages: Option<usize>,
    /// Threads fetching and analysing pages (at least 1).
    pub workers: usize,
    /// The fetcher waits out a delay between requests to the forum (a polite crawl): then each
    /// worker is handed one request at a time instead of [`IN_FLIGHT_PER_WORKER`], and only
    /// once the pages answered before are stored, since fetching ahead gains nothing when
    /// every request waits for its turn anyway, and a worker killed (or a write refused, the
    /// database gone) loses only the page in flight rather than every page fetched ahead of
    /// the writes.
    pub paced: bool,
}

/// Requests handed out per worker beyond those already applied. Pages are applied in the order
/// they were asked for, so one slow page (a long thread, a big list) holds back every later
/// answer; with only two requests per worker the other workers ran out of work behind it, and
/// both cores of the crawl benchmark sat idle a fifth of the time (phpBB medium, in process:
/// about 780 pages/s with 2 per worker, about 940 with 16). More than 16 gained nothing
/// measurable. The price is paid after a crash: every request in flight is asked for again, at
/// most `16 × workers` pages, which a crawl of thousands of pages does not notice.
const IN_FLIGHT_PER_WORKER: usize = 16;

/// Tells the workers to stop when the driving loop returns, however it returns (the frontier
/// ran dry, a limit, a template change, a store error). A crawl that stops early leaves up to a
/// window of requests handed out; without the flag the workers would fetch every one of them,
/// and a polite live crawl would wait out their delays, only to drop the answers.
struct StopWorkersOnReturn<'flag>(&'flag AtomicBool);

impl Drop for StopWorkersOnReturn<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What a worker hands back for one request.
type WorkerAnswer = (
    u64,
    Queued,
    Result<(FetchResponse, AnalysedPage), (FetchError, jiff::Timestamp)>,
);

/// Fetches until the frontier is empty or the store holds `options.max_pages` pages, storing
/// the fetches as they complete (those ready at once in one transaction). `progress` is called
/// after every write.
///
/// Fetching and page analysis, the costly parts, run on `options.workers` threads; the crawler's
/// state and the store are updated on this thread, one page at a time, in the order the
/// requests were handed out. The frontier is first in, first out, so the order in which URLs
/// are asked for is the order they were queued in, which the in-order updates fix: however the
/// workers' timings fall, a crawl fetches the same pages, and a resumed crawl (whose pages in
/// flight are simply asked for again) ends with the store an uninterrupted one would have.
pub fn drive<F: Fetcher>(
    store: &mut Store,
    crawler: &mut Crawler,
    fetcher: &CookieJarFetcher<F>,
    clock: &dyn Clock,
    options: DriveOptions,
    mut progress: impl FnMut(&CrawlProgress),
) -> Result<(CrawlEnd, CrawlProgress), RunError> {
    let started = Instant::now();
    let max_pages = options.max_pages;
    let mut status = CrawlProgress {
        pages: store.page_count()?,
        max_pages,
        frontier: crawler.frontier_len(),
        ..CrawlProgress::default()
    };
    let mut cookies = fetcher.cookies();
    let workers = options.workers.max(1);
    let window = if options.paced {
        workers
    } else {
        IN_FLIGHT_PER_WORKER * workers
    };
    let (job_sender, job_receiver) = std::sync::mpsc::channel::<(u64, Queued)>();
    let job_receiver = std::sync::Mutex::new(job_receiver);
    let (answer_sender, answer_receiver) = std::sync::mpsc::channel::<WorkerAnswer>();
    let stopping = AtomicBool::new(false);
    // The workers classify each page under the plan before reading its records; the crawler
    // keeps its plan for the whole drive (a new plan means a new drive), so a copy serves them.
    let plan_for_workers = crawler.plan().cloned();
    std::thread::scope(|scope| -> Result<(CrawlEnd, CrawlProgress), RunError> {
        let _stop_workers = StopWorkersOnReturn(&stopping);
        for _ in 0..workers {
            let answer_sender = answer_sender.clone();
            let job_receiver = &job_receiver;
            let stopping = &stopping;
            let plan = plan_for_workers.as_ref();
            scope.spawn(move || {
                loop {
                    let job = job_receiver
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .recv();
                    let Ok((ticket, queued)) = job else {
                        return;
                    };
                    if stopping.load(Ordering::Relaxed) {
                        return;
                    }
                    let request = FetchRequest::new(queued.url.as_str(), clock.now());
                    let answer = match fetcher.fetch(&request) {
                        Ok(response) => {
                            let analysed = AnalysedPage::of(&queued, &response, plan);
                            Ok((response, analysed))
                        }
                        Err(error) => Err((error, clock.now())),
                    };
                    if answer_sender.send((ticket, queued, answer)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(answer_sender);
        let follows_plan = matches!(crawler.strategy(), CrawlStrategy::Plan(_));
        let mut recent_classified: std::collections::VecDeque<bool> =
            std::collections::VecDeque::with_capacity(TEMPLATE_CHANGE_WINDOW);
        let mut next_ticket = 0u64;
        let mut next_to_apply = 0u64;
        let mut waiting: BTreeMap<u64, (Queued, _)> = BTreeMap::new();
        // Applied pages not yet written: they are written together whenever the loop would
        // otherwise wait for a worker, or when the batch is full (see `Store::record_fetches`).
        let mut writer = BatchWriter {
            store: &mut *store,
            unwritten: Vec::new(),
            started,
            progress: &mut progress,
        };
        let end = loop {
            // A paced crawl stores what it has before it asks for more: the write takes less
            // than the delay the next request waits out, and nothing fetched waits unwritten
            // while another request is out.
            if options.paced {
                writer.write(&mut status, crawler)?;
            }
            let in_flight = (next_ticket - next_to_apply) as usize;
            let limit_left = max_pages.map(|limit| {
                limit.saturating_sub(status.pages + writer.unwritten.len() + in_flight)
            });
            if in_flight < window
                && limit_left != Some(0)
                && let Some(queued) = crawler.next_request()
            {
                job_sender
                    .send((next_ticket, queued))
                    .map_err(|_| RunError::WorkersStopped)?;
                next_ticket += 1;
                continue;
            }
            if in_flight == 0 {
                writer.write(&mut status, crawler)?;
                // A crawl whose plan places none of its pages follows no links and runs dry
                // before the window fills; that too is a template change.
                let unclassified = recent_classified.iter().filter(|known| !**known).count();
                if unclassified > 0
                    && unclassified as f64 >= TEMPLATE_CHANGE_SHARE * recent_classified.len() as f64
                {
                    break CrawlEnd::TemplateChanged { unclassified };
                }
                break if max_pages.is_some_and(|limit| status.pages >= limit) {
                    CrawlEnd::PageLimit
                } else {
                    CrawlEnd::FrontierEmpty
                };
            }
            let (ticket, queued, answer) = match answer_receiver.try_recv() {
                Ok(answer) => answer,
                Err(std::sync::mpsc::TryRecvError::Empty) => {
                    writer.write(&mut status, crawler)?;
                    answer_receiver
                        .recv()
                        .map_err(|_| RunError::WorkersStopped)?
                }
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    return Err(RunError::WorkersStopped);
                }
            };
            waiting.insert(ticket, (queued, answer));
            while let Some((queued, answer)) = waiting.remove(&next_to_apply) {
                next_to_apply += 1;
                let mut outcome = match answer {
                    Ok((response, analysed)) => {
                        let page = crawler.record_analysed(&queued, &response, analysed);
                        if follows_plan && page.status == 200 {
                            if recent_classified.len() == TEMPLATE_CHANGE_WINDOW {
                                recent_classified.pop_front();
                            }
                            // A page placed only by its nearest layout still says the
                            // plan does not know the forum's templates.
                            recent_classified.push_back(page.placement == Placement::Classified);
                        }
                        status.placed_by_nearest_this_run +=
                            usize::from(page.placement == Placement::Nearest);
                        status.valuable_this_run += usize::from(
                            !page.analysis.posts.is_empty()
                                || !page.analysis.thread_entries.is_empty(),
                        );
                        status.posts_this_run += page.analysis.posts.len();
                        stored_outcome(&queued, response, page)
                    }
                    Err((error, at)) => {
                        crawler.record_failure();
                        status.failures_this_run += 1;
                        failed_outcome(&queued, &error, at)
                    }
                };
                outcome.skipped = crawler.take_skipped();
                let now_cookies = fetcher.cookies();
                if now_cookies != cookies {
                    outcome.cookies = Some(now_cookies.clone());
                    cookies = now_cookies;
                }
                writer.unwritten.push(outcome);
            }
            if writer.unwritten.len() >= MAX_UNWRITTEN {
                writer.write(&mut status, crawler)?;
            }
            let unclassified = recent_classified.iter().filter(|known| !**known).count();
            if recent_classified.len() == TEMPLATE_CHANGE_WINDOW
                && unclassified as f64 >= TEMPLATE_CHANGE_SHARE * TEMPLATE_CHANGE_WINDOW as f64
            {
                break CrawlEnd::TemplateChanged { unclassified };
            }
        };
        writer.write(&mut status, crawler)?;
        // Closing the job channel lets the workers finish; the scope joins them.
        drop(job_sender);
        // Pages fetched before their vertex's post patterns were known are read again now
        // that every pattern this drive met is, whatever ended the drive (see `read_again`).
        let (pages_read_again, posts_gained) =
            read_again_pages_before_post_patterns(writer.store, crawler)?;
        status.pages_read_again_this_run += pages_read_again;
        status.posts_this_run += posts_gained;
        status.elapsed_seconds = started.elapsed().as_secs_f64();
        Ok((end, status))
    })
}

/// Most pages applied and not yet written. A fast crawl writes a batch whenever it would wait
/// for a worker; this bounds the batch (and what a crash asks for again) when it never waits.
const MAX_UNWRITTEN: usize = 32;

/// The pages a drive has applied and not yet written, and where they go.
struct BatchWriter<'drive, P: FnMut(&CrawlProgress)> {
    store: &'drive mut Store,
    unwritten: Vec<FetchOutcome>,
    started: Instant,
    progress: &'drive mut P,
}

impl<P: FnMut(&CrawlProgress)> BatchWriter<'_, P> {
    /// Writes the pages not yet written in one transaction, then counts them and reports
    /// progress.
    fn write(&mut self, status: &mut CrawlProgress, crawler: &Crawler) -> Result<(), RunError> {
        let (Some(first), Some(last)) = (self.unwritten.first(), self.unwritten.last()) else {
            return Ok(());
        };
        let count = self.unwritten.len();
        self.store
            .record_fetches(&self.unwritten)
            .map_err(|source| RunError::CannotStore {
                pages: if count == 1 {
                    format!("the page {}", first.page.url)
                } else {
                    format!("{count} pages ({} to {})", first.page.url, last.page.url)
                },
                source,
            })?;
        status.pages += count;
        status.pages_this_run += count;
        self.unwritten.clear();
        status.frontier = crawler.frontier_len();
        status.elapsed_seconds = self.started.elapsed().as_secs_f64();
        (self.progress)(status);
        Ok(())
    }
}
