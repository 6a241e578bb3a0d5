//! Freshness: replays revisit policies on simulated forums in simulated time and
//! measures how fresh they keep an archive.
//!
//! The papers on incremental forum crawling judge a revisit policy by replaying a year of a
//! forum: a crawler starts at the portal with an empty store, is allowed B fetches a day, and
//! every post is judged by when it was stored against when it was written. A year cannot be
//! repeated on the live web, so this crate replays it on the simulator (`trawl-sim`): the
//! forum's history says what every page shows as of any instant, the policy (`trawl-schedule`)
//! chooses the fetches, and the truth says which posts each fetch stored.
//!
//! - [`replay_site`] runs one forum; [`replay_sites`] runs several (the papers' 18-forum corpus)
//!   on worker threads and pools their figures.
//! - Two paths give the scheduler what a page shows ([`PagePath`]): the fast path reads the
//!   records straight from the history, for sweeps; the page path renders each page, fetches it
//!   through the [`trawl_model::Fetcher`] seam (the in-process `SimFetcher`) and reads it with
//!   page analysis (`trawl-page`), as a live crawl would. On a forum whose pages analysis reads
//!   right they give the same figures; a test checks it.
//! - [`figures`] defines what is measured: bandwidth utilisation, coverage, mean and 95th
//!   percentile delay, total delay, posts lost, per day and over the stable stage, for index and
//!   post lists apart too.
//! - [`bench`] runs every policy at several budgets and writes the table and the plots.
//! - [`discovery`] compares the re-crawl ranked by browse behaviour with breadth-first
//!   re-crawling by how soon each finds new threads in a simulated month.
//!
//! Simulated time comes in as arguments (the driver's clock is the replay's own counter of
//! seconds); nothing here reads the wall clock or touches the network. The crate writes no file
//! either: [`bench`] returns the SVG text and the table, the command line writes them.

pub mod bench;
pub mod discovery;
pub mod figures;
mod forum;
mod read_ahead;
mod replay;
mod source;

pub use figures::{DayFigures, ListFigures, StageFigures};
pub use forum::{ListName, board_list, known_arrivals, known_rates, list_name, thread_list};
pub use replay::{ForumReplay, PagesReadAhead, ReplayConfig, replay_site, replay_site_with_policy};
pub use source::PagePath;

use std::sync::Arc;

use serde::Serialize;
use trawl_sim::Site;

use figures::StageData;

/// What a replay refuses.
#[derive(Debug, thiserror::Error)]
pub enum FreshnessError {
    #[error(transparent)]
    Schedule(#[from] trawl_schedule::ScheduleError),
    #[error("the forum's history has no day to judge after the start")]
    NothingToJudge,
    #[error("policy {policy} fetched {fetches} pages on day {day}, more than its budget allows")]
    OverBudget {
        policy: String,
        day: u32,
        fetches: u64,
    },
    #[error("cannot draw the plot: {0}")]
    Plot(String),
}

/// The replay of one policy on one or several forums.
#[derive(Clone, Debug)]
pub struct Replay {
    pub policy: String,
    pub budget_per_day: u32,
    pub path: PagePath,
    pub forums: Vec<ForumReplay>,
    /// The stable stage of all forums pooled: every post of every forum counts once.
    pub overall: StageFigures,
    /// The days of all forums pooled.
    pub days: Vec<DayFigures>,
}

/// The stable-stage summary `trawl sim replay --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub policy: String,
    pub budget_per_day: u32,
    pub path: &'static str,
    pub forums: usize,
    pub mean_delay_s: f64,
    pub p95_delay_s: f64,
    pub total_delay_s: f64,
    pub coverage: f64,
    pub posts_lost: u64,
    pub posts_written: u64,
    pub utilisation: f64,
    pub fetches: u64,
    pub index: ListFigures,
    pub post: ListFigures,
}

impl Replay {
    pub fn summary(&self) -> Summary {
        let stage = &self.overall;
        Summary {
            policy: self.policy.clone(),
            budget_per_day: self.budget_per_day,
            path: self.path.name(),
            forums: self.forums.len(),
            mean_delay_s: stage.mean_delay_s,
            p95_delay_s: stage.p95_delay_s,
            total_delay_s: stage.total_delay_s,
            coverage: stage.coverage,
            posts_lost: stage.posts_lost,
            posts_written: stage.posts_written,
            utilisation: stage.utilisation,
            fetches: stage.fetches,
            index: stage.index.clone(),
            post: stage.post.clone(),
        }
    }
}

/// Replays `config` on every site, on up to `workers` threads, and pools the figures.
pub fn replay_sites(
    sites: &[Arc<Site>],
    config: &ReplayConfig,
    workers: usize,
) -> Result<Replay, FreshnessError> {
    let threads = workers.max(1);
    let workers = threads.min(sites.len().max(1));
    // Threads the forums leave over read each forum's planned pages on the page path.
    let config = &ReplayConfig {
        page_workers: config.page_workers.max(threads / workers),
        ..config.clone()
    };
    let mut results: Vec<Option<Result<ForumReplay, FreshnessError>>> =
        (0..sites.len()).map(|_| None).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<Result<ForumReplay, FreshnessError>>>> = (0..sites
        .len())
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(site) = sites.get(index) else {
                        break;
                    };
                    let result = replay_site(Arc::clone(site), config);
                    *slots[index].lock().expect("no worker panics holding it") = Some(result);
                }
            });
        }
    });
    for (slot, result) in slots.into_iter().zip(results.iter_mut()) {
        *result = slot.into_inner().expect("no worker panicked");
    }
    let mut forums = Vec::with_capacity(sites.len());
    for result in results {
        forums.push(result.expect("every site was replayed")?);
    }
    let mut stage = StageData::default();
    let mut days: Option<replay::DayData> = None;
    for forum in &forums {
        stage.merge(&forum.stage_data);
        match &mut days {
            Some(days) => days.merge(&forum.day_data),
            None => days = Some(forum.day_data.clone()),
        }
    }
    Ok(Replay {
        policy: config.policy.clone(),
        budget_per_day: config.budget_per_day,
        path: config.path,
        overall: stage.figures(),
        days: days.map(|days| days.figures()).unwrap_or_default(),
        forums,
    })
}
