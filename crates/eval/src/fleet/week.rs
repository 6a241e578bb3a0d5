//! The fleet's week (issue 22's third bar): simulated forums served on loopback on one
//! accelerated clock, kept fresh for a simulated span by a fleet of `trawl worker --keep-fresh`
//! processes on one PostgreSQL database, and the same forums kept fresh forum by forum, one
//! `trawl crawl` then one `trawl watch` process each with its own SQLite file, with the same
//! policy, budget and clock.
//!
//! # One clock for every process
//!
//! Each run picks a wall-clock epoch a moment ahead and hands every process (the servers in
//! this one, each worker, crawl and watch process) the same origin, epoch and speed, so that
//! all read `origin + speed × (wall now − epoch)` (`trawl_model::SharedAcceleratedClock`). The
//! fleet's database keeps its lease times on the wall clock; a worker turns the watch's next
//! planned fetch into a wall-clock due time by dividing by the speed. Both runs start at the same
//! simulated origin, so the forums write the same posts at the same simulated instants in both.
//!
//! # What is judged
//!
//! Every post the forum's truth says was written from `judge_from` after the origin until
//! `settle` before the end: when it was first stored (the fetch time of the first stored page
//! showing it), and whether it was stored at all. Posts are matched to the truth by their
//! permalinks, which name the post (`#pN`), so the forums are of families that write such
//! permalinks. The fetches are counted at the servers.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Child;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jiff::{SignedDuration, Timestamp};
use trawl_model::{Clock, SharedAcceleratedClock};
use trawl_sim::{FamilyName, Route, Scale, Site, SiteConfig, Traps};
use trawl_sim_server::{LoggedRequest, RequestLog, ServeOptions, SimServer};
use trawl_store::{Store, StoreLocation};

use super::{Database, empty_directory, fleet_error, spawn};
use crate::{EvalError, Result};

const DAY: i64 = 86_400;

/// What to run.
#[derive(Debug, Clone)]
pub struct WeekConfig {
    /// The `trawl` program whose `worker`, `crawl` and `watch` commands are measured.
    pub program: PathBuf,
    /// A PostgreSQL server URL whose user may create databases.
    pub postgres: String,
    /// A directory for the forum-by-forum run's SQLite files and every process's log.
    pub scratch: PathBuf,
    /// How many forums; their seeds count up from 1.
    pub forums: usize,
    /// Their family (one whose permalinks name the post, as phpBB's `#pN`).
    pub family: FamilyName,
    /// Their size.
    pub scale: Scale,
    /// Days into each forum's history at which the clock starts.
    pub start_day: i64,
    /// Simulated seconds per wall-clock second.
    pub speed: f64,
    /// The simulated span kept fresh, crawl included, in seconds.
    pub span_seconds: i64,
    /// Posts written this long after the start are the first judged (the crawl and the first
    /// watch come before).
    pub judge_from_seconds: i64,
    /// Posts written this long before the end are the last judged (those later may still wait
    /// for their list's next visit).
    pub settle_seconds: i64,
    /// The revisit policy and its fetches a day per forum.
    pub policy: String,
    pub budget_per_day: u32,
    /// Worker processes of the fleet, and sites each holds at once.
    pub workers: usize,
    pub concurrency: usize,
    /// Minutes of the clock a worker's lease watches a site, and the longest it waits in a
    /// lease for the site's next fetch.
    pub watch_minutes: u64,
    pub watch_wait_minutes: u64,
    /// Wall seconds a lease lasts unless renewed.
    pub lease_seconds: u64,
    /// Pages sampled to learn each forum's plan.
    pub samples: usize,
    /// Server latency and the politeness delay every crawler is given.
    pub latency: Duration,
    pub delay: Duration,
    /// Kill (SIGKILL) the fleet's first worker this long after its run starts, for the fault
    /// test; a worker started in its place after a lease's time takes up its sites.
    pub kill_first_worker_after: Option<Duration>,
    /// Run the forum-by-forum comparison too.
    pub forum_by_forum: bool,
}

/// Which way the forums were kept fresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeekMode {
    /// `trawl worker --keep-fresh` processes on one PostgreSQL database.
    Fleet,
    /// One `trawl crawl`, then one `trawl watch`, per forum, each on its own SQLite file.
    ForumByForum,
}

impl WeekMode {
    /// How the table names it.
    pub fn name(self) -> &'static str {
        match self {
            WeekMode::Fleet => "fleet (trawl worker --keep-fresh, PostgreSQL)",
            WeekMode::ForumByForum => "forum by forum (trawl crawl + trawl watch, SQLite)",
        }
    }
}

/// What one run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct WeekRun {
    pub mode: WeekMode,
    /// Worker processes (fleet), or forums each with its own processes.
    pub processes: usize,
    pub forums: usize,
    /// Posts written in the judged span, stored ones, and their delays (stored − written).
    pub posts_judged: usize,
    pub posts_missing: usize,
    pub mean_delay_seconds: f64,
    pub p95_delay_seconds: f64,
    /// Requests the servers received in all, and the most one server answered at once.
    pub fetches: usize,
    pub most_in_flight_per_forum: usize,
    /// Requests of the judged span for a URL (robots.txt aside) the same forum was asked for
    /// less than a simulated minute before: what two holders of one site fetching the same page
    /// would show, and no policy asks for. (A crawl's audit may fetch a page again at once;
    /// the crawls come before the judged span.)
    pub quick_repeats: usize,
    /// Each of them: the forum, the URL and when (simulated) it was asked for both times, so
    /// that the processes' logs can tell whose they were.
    pub quick_repeat_lines: Vec<String>,
    /// Requests of the judged span (robots.txt aside) beyond the pages the store holds from
    /// that span: fetches whose page was never stored, as a worker killed with a page in flight
    /// leaves, or a holder whose lease was taken over and whose write was refused. (A request
    /// made just before the span starts may arrive just after: one more for each forum at most.)
    pub fetches_not_stored: usize,
    /// Processes that exited with a failure (the killed worker aside).
    pub processes_failed: usize,
    /// Forums that received a request after the killed worker's leases had expired (all of
    /// them when no worker was killed and every forum was kept fresh to the end).
    pub forums_served_after_kill: usize,
    /// Wall time of the run.
    pub wall_seconds: f64,
    /// Where the missing posts were, as far as the stores tell.
    pub missed: MissedPosts,
}

/// Where the posts a run missed were: which threads the stores never knew, which they knew but
/// were not fetched again after the post was written, and what the first crawls left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MissedPosts {
    /// Posts of the judged span missing from threads started before the run, of which no post
    /// was ever stored: threads the first crawl never reached, and no watch found since.
    pub in_old_threads_never_stored: usize,
    /// The same in threads started during the run: new threads no watch found.
    pub in_new_threads_never_stored: usize,
    /// Posts of the judged span missing from threads of which other posts were stored: pages
    /// not fetched again after the post was written.
    pub in_threads_stored: usize,
    /// Posts written before the run began that no stored page shows: what the first crawls
    /// left out (not judged, but where the watch starts from).
    pub written_before_the_run_not_stored: usize,
}

impl MissedPosts {
    fn add(&mut self, other: MissedPosts) {
        self.in_old_threads_never_stored += other.in_old_threads_never_stored;
        self.in_new_threads_never_stored += other.in_new_threads_never_stored;
        self.in_threads_stored += other.in_threads_stored;
        self.written_before_the_run_not_stored += other.written_before_the_run_not_stored;
    }
}

/// Sorts a forum's missing posts by where they were (see [`MissedPosts`]): `posts` are the
/// forum's posts as (post, thread, written), `thread_started` gives a thread's start, `stored`
/// the posts stored, `origin` the run's start and `judged` the span judged.
pub fn missed_posts(
    posts: &[(u32, u32, i64)],
    thread_started: impl Fn(u32) -> i64,
    stored: &HashMap<u32, i64>,
    origin: i64,
    judged: std::ops::Range<i64>,
) -> MissedPosts {
    let threads_stored: std::collections::HashSet<u32> = posts
        .iter()
        .filter(|(post, _, _)| stored.contains_key(post))
        .map(|(_, thread, _)| *thread)
        .collect();
    let mut missed = MissedPosts::default();
    for &(post, thread, written) in posts {
        if stored.contains_key(&post) {
            continue;
        }
        if written < origin {
            missed.written_before_the_run_not_stored += 1;
        } else if !judged.contains(&written) {
            continue;
        } else if threads_stored.contains(&thread) {
            missed.in_threads_stored += 1;
        } else if thread_started(thread) < origin {
            missed.in_old_threads_never_stored += 1;
        } else {
            missed.in_new_threads_never_stored += 1;
        }
    }
    missed
}

/// The two runs and how the fleet's figures compare with the forum-by-forum ones.
#[derive(Debug, Clone, PartialEq)]
pub struct WeekComparison {
    pub fleet: WeekRun,
    pub forum_by_forum: Option<WeekRun>,
}

impl WeekComparison {
    /// Fleet over forum by forum: mean delay, p95 delay, fetches.
    pub fn ratios(&self) -> Option<(f64, f64, f64)> {
        let other = self.forum_by_forum.as_ref()?;
        Some((
            self.fleet.mean_delay_seconds / other.mean_delay_seconds.max(f64::MIN_POSITIVE),
            self.fleet.p95_delay_seconds / other.p95_delay_seconds.max(f64::MIN_POSITIVE),
            self.fleet.fetches as f64 / other.fetches.max(1) as f64,
        ))
    }
}

/// A forum served on the run's clock.
struct ServedForum {
    site: Arc<Site>,
    server: SimServer,
    log: Arc<RequestLog>,
    portal: String,
}

/// Runs the fleet, then (when asked) the same forums forum by forum, each from the same
/// simulated origin.
pub fn run_week(config: &WeekConfig, mut progress: impl FnMut(&str)) -> Result<WeekComparison> {
    if config.forums == 0 || config.workers == 0 || config.speed <= 0.0 {
        return Err(EvalError::Server(
            "the fleet's week needs forums, workers and a positive speed".to_string(),
        ));
    }
    std::fs::create_dir_all(&config.scratch).map_err(|source| EvalError::File {
        action: "create",
        path: config.scratch.clone(),
        source,
    })?;
    let sites: Vec<Arc<Site>> = (0..config.forums)
        .map(|index| {
            Arc::new(Site::build(SiteConfig {
                family: config.family,
                seed: 1 + index as u64,
                scale: config.scale,
                traps: Traps::all(),
            }))
        })
        .collect();
    let origin = sites
        .iter()
        .map(|site| site.history().start)
        .max()
        .unwrap_or_default()
        + config.start_day * DAY;
    let last_written = sites
        .iter()
        .map(|site| site.history().end)
        .min()
        .unwrap_or_default();
    if origin + config.span_seconds > last_written {
        return Err(EvalError::Server(format!(
            "the forums' histories end {} days after the start; ask for a shorter span or an \
             earlier start day",
            (last_written - origin) / DAY
        )));
    }
    progress(&format!(
        "fleet of {} workers x {} keeping {} forums fresh for {:.1} simulated days at {}x",
        config.workers,
        config.concurrency,
        config.forums,
        config.span_seconds as f64 / DAY as f64,
        config.speed
    ));
    let fleet = run_fleet_week(config, &sites, origin)?;
    progress(&describe(&fleet));
    let forum_by_forum = if config.forum_by_forum {
        progress("the same forums forum by forum");
        let run = run_forum_by_forum(config, &sites, origin)?;
        progress(&describe(&run));
        Some(run)
    } else {
        None
    };
    Ok(WeekComparison {
        fleet,
        forum_by_forum,
    })
}

/// Column names of a week's run, in the order of [`WeekRun::cells`].
pub const WEEK_COLUMNS: [&str; 12] = [
    "kept fresh by",
    "processes",
    "posts judged",
    "mean delay (min)",
    "p95 delay (min)",
    "posts missing",
    "fetches",
    "most in flight on a forum",
    "quick repeats",
    "fetches not stored",
    "processes failed",
    "wall s",
];

impl WeekRun {
    /// The run's figures written out, in the order of [`WEEK_COLUMNS`]: the one place they are
    /// formatted, for the progress lines and the table alike.
    pub fn cells(&self) -> [String; 12] {
        [
            self.mode.name().to_string(),
            self.processes.to_string(),
            self.posts_judged.to_string(),
            format!("{:.1}", self.mean_delay_seconds / 60.0),
            format!("{:.1}", self.p95_delay_seconds / 60.0),
            self.posts_missing.to_string(),
            self.fetches.to_string(),
            self.most_in_flight_per_forum.to_string(),
            self.quick_repeats.to_string(),
            self.fetches_not_stored.to_string(),
            self.processes_failed.to_string(),
            format!("{:.0}", self.wall_seconds),
        ]
    }
}

/// A one-line account of a run, for progress output: each figure after its name.
pub fn describe(run: &WeekRun) -> String {
    WEEK_COLUMNS
        .iter()
        .zip(run.cells())
        .map(|(column, cell)| format!("{column}: {cell}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The run's clock: reading the origin a few seconds from now, so that every process is
/// started before the forums begin to move.
fn run_clock(config: &WeekConfig, origin: i64) -> Result<SharedAcceleratedClock> {
    let epoch = Timestamp::now()
        .saturating_add(SignedDuration::from_secs(3))
        .map_err(|error| EvalError::Server(error.to_string()))?;
    Ok(SharedAcceleratedClock::new(
        Timestamp::from_second(origin)?,
        epoch,
        config.speed,
    ))
}

/// The instant of this process's monotonic clock at which `clock` reads `at` (Unix seconds).
fn wall_instant(clock: &SharedAcceleratedClock, at: i64) -> Instant {
    let simulated = SignedDuration::from_secs(at - clock.now().as_second());
    let now = Instant::now();
    if simulated.is_negative() {
        now.checked_sub(clock.wall_duration(-simulated))
            .unwrap_or(now)
    } else {
        now + clock.wall_duration(simulated)
    }
}

/// The flags that give a process the run's clock.
fn clock_arguments(clock: &SharedAcceleratedClock) -> Vec<String> {
    vec![
        "--clock-speed".to_string(),
        clock.factor().to_string(),
        "--clock-origin".to_string(),
        clock.origin().to_string(),
        "--clock-epoch".to_string(),
        clock.epoch().to_string(),
    ]
}

fn serve(
    config: &WeekConfig,
    sites: &[Arc<Site>],
    clock: SharedAcceleratedClock,
) -> Result<Vec<ServedForum>> {
    let shared: Arc<dyn Clock> = Arc::new(clock);
    let mut forums = Vec::with_capacity(sites.len());
    for site in sites {
        let log = Arc::new(RequestLog::default());
        let server = SimServer::start_with(
            Arc::clone(site),
            Arc::clone(&shared),
            "127.0.0.1:0",
            1,
            ServeOptions {
                latency: config.latency,
                log: Some(log.clone()),
            },
        )
        .map_err(|error| EvalError::Server(error.to_string()))?;
        let portal =
            url::Url::parse(&format!("{}{}", server.origin(), site.portal_path()))?.to_string();
        forums.push(ServedForum {
            site: Arc::clone(site),
            server,
            log,
            portal,
        });
    }
    Ok(forums)
}

fn run_fleet_week(config: &WeekConfig, sites: &[Arc<Site>], origin: i64) -> Result<WeekRun> {
    let database = Database::create(&config.postgres, "week")?;
    let mut fleet =
        trawl_fleet::Fleet::connect(&database.url).map_err(|error| fleet_error(&error))?;
    let clock = run_clock(config, origin)?;
    let forums = serve(config, sites, clock)?;
    let portals: Vec<String> = forums.iter().map(|forum| forum.portal.clone()).collect();
    fleet
        .add_sites(&portals)
        .map_err(|error| fleet_error(&error))?;
    let end = origin + config.span_seconds;
    let until = Timestamp::from_second(end)?.to_string();
    let worker_arguments = || -> Vec<String> {
        let mut arguments = vec![
            "worker".to_string(),
            "--db".to_string(),
            database.url.clone(),
            "--keep-fresh".to_string(),
            "--until".to_string(),
            until.clone(),
            "--concurrency".to_string(),
            config.concurrency.to_string(),
            "--watch-budget".to_string(),
            format!("{}/day", config.budget_per_day),
            "--watch-policy".to_string(),
            config.policy.clone(),
            "--watch-minutes".to_string(),
            config.watch_minutes.to_string(),
            "--watch-wait-minutes".to_string(),
            config.watch_wait_minutes.to_string(),
            "--lease-seconds".to_string(),
            config.lease_seconds.to_string(),
            // A whole crawl in one lease, as the forum-by-forum crawl runs whole.
            "--pages-per-lease".to_string(),
            "1000000".to_string(),
            "--samples".to_string(),
            config.samples.to_string(),
            "--delay-ms".to_string(),
            config.delay.as_millis().to_string(),
        ];
        arguments.extend(clock_arguments(&clock));
        arguments
    };
    let started = Instant::now();
    let log_of = |name: String| config.scratch.join(name);
    let mut children: Vec<Child> = Vec::with_capacity(config.workers);
    for index in 0..config.workers {
        children.push(spawn(
            &config.program,
            &worker_arguments(),
            &log_of(format!("week-worker-{index}.log")),
        )?);
    }
    let mut killed_at = None;
    if let Some(after) = config.kill_first_worker_after {
        std::thread::sleep(after);
        children[0].kill().map_err(|source| EvalError::File {
            action: "kill a worker of",
            path: config.program.clone(),
            source,
        })?;
        let _ = children[0].wait();
        killed_at = Some(Instant::now());
        // A worker in its place, as an operator's supervisor would start one.
        children[0] = spawn(
            &config.program,
            &worker_arguments(),
            &log_of("week-worker-replacement.log".to_string()),
        )?;
    }
    let processes_failed = wait_all(config, children)?;
    let wall_seconds = started.elapsed().as_secs_f64();
    let location = StoreLocation::Postgres(database.url.clone());
    let mut stores = Vec::with_capacity(forums.len());
    for forum in &forums {
        stores.push(first_stored(&location, &forum.portal)?);
    }
    drop(fleet);
    let run = judge(
        config,
        &clock,
        WeekMode::Fleet,
        config.workers,
        &forums,
        &stores,
        origin,
        processes_failed,
        killed_at.map(|killed| killed + Duration::from_secs(config.lease_seconds)),
        wall_seconds,
    );
    for forum in forums {
        forum.server.stop();
    }
    database.drop_it()?;
    Ok(run)
}

fn run_forum_by_forum(config: &WeekConfig, sites: &[Arc<Site>], origin: i64) -> Result<WeekRun> {
    let directory = config.scratch.join("week-forum-by-forum");
    empty_directory(&directory)?;
    let clock = run_clock(config, origin)?;
    let forums = serve(config, sites, clock)?;
    let end = origin + config.span_seconds;
    let until = Timestamp::from_second(end)?.to_string();
    let database_of = |index: usize| directory.join(format!("forum-{index}.sqlite"));
    let started = Instant::now();
    // Each forum's crawl, then its watch when the crawl has ended.
    let mut crawls: Vec<(usize, Child)> = Vec::with_capacity(forums.len());
    for (index, forum) in forums.iter().enumerate() {
        let mut arguments = vec![
            "crawl".to_string(),
            forum.portal.clone(),
            "--db".to_string(),
            database_of(index).display().to_string(),
            "--workers".to_string(),
            "1".to_string(),
            "--samples".to_string(),
            config.samples.to_string(),
            "--delay-ms".to_string(),
            config.delay.as_millis().to_string(),
        ];
        arguments.extend(clock_arguments(&clock));
        let log = directory.join(format!("forum-{index}-crawl.log"));
        crawls.push((index, spawn(&config.program, &arguments, &log)?));
    }
    let mut watches: Vec<Child> = Vec::with_capacity(forums.len());
    let mut processes_failed = 0;
    while !crawls.is_empty() {
        let mut still_crawling = Vec::with_capacity(crawls.len());
        for (index, mut child) in crawls {
            match child.try_wait().map_err(|source| EvalError::File {
                action: "wait for a crawl of",
                path: config.program.clone(),
                source,
            })? {
                Some(status) => {
                    if !status.success() {
                        processes_failed += 1;
                        continue;
                    }
                    let mut arguments = vec![
                        "watch".to_string(),
                        forums[index].portal.clone(),
                        "--db".to_string(),
                        database_of(index).display().to_string(),
                        "--budget".to_string(),
                        format!("{}/day", config.budget_per_day),
                        "--policy".to_string(),
                        config.policy.clone(),
                        "--until".to_string(),
                        until.clone(),
                        "--delay-ms".to_string(),
                        config.delay.as_millis().to_string(),
                    ];
                    arguments.extend(clock_arguments(&clock));
                    let log = directory.join(format!("forum-{index}-watch.log"));
                    watches.push(spawn(&config.program, &arguments, &log)?);
                }
                None => still_crawling.push((index, child)),
            }
        }
        crawls = still_crawling;
        std::thread::sleep(Duration::from_millis(20));
    }
    processes_failed += wait_all(config, watches)?;
    let wall_seconds = started.elapsed().as_secs_f64();
    let mut stores = Vec::with_capacity(forums.len());
    for (index, forum) in forums.iter().enumerate() {
        stores.push(first_stored(
            &StoreLocation::File(database_of(index)),
            &forum.portal,
        )?);
    }
    let run = judge(
        config,
        &clock,
        WeekMode::ForumByForum,
        forums.len(),
        &forums,
        &stores,
        origin,
        processes_failed,
        None,
        wall_seconds,
    );
    for forum in forums {
        forum.server.stop();
    }
    Ok(run)
}

/// Waits for every process; returns how many failed.
fn wait_all(config: &WeekConfig, children: Vec<Child>) -> Result<usize> {
    let mut failed = 0;
    for mut child in children {
        let status = child.wait().map_err(|source| EvalError::File {
            action: "wait for a process of",
            path: config.program.clone(),
            source,
        })?;
        if !status.success() {
            failed += 1;
        }
    }
    Ok(failed)
}

/// What a forum's store holds, for judging.
struct StoredForum {
    /// When each post was first stored (Unix seconds), by the post's number in the truth.
    first: HashMap<u32, i64>,
    /// When each stored page was fetched (Unix seconds).
    fetch_times: Vec<i64>,
}

fn first_stored(location: &StoreLocation, portal: &str) -> Result<StoredForum> {
    let store = Store::open_existing(location, Some(portal), true)
        .map_err(|error| EvalError::Server(format!("the store of {portal}: {error}")))?;
    let mut first = HashMap::new();
    let mut fetch_times = Vec::new();
    store
        .for_each_page_outline(0, &[], |page| {
            fetch_times.push(page.record.fetched_at.as_second());
            for post in &page.record.posts {
                if let Some(number) = post.permalink.as_deref().and_then(post_of_permalink) {
                    let stored = page.record.fetched_at.as_second();
                    let entry = first.entry(number).or_insert(stored);
                    *entry = (*entry).min(stored);
                }
            }
        })
        .map_err(|error| EvalError::Server(format!("the store of {portal}: {error}")))?;
    Ok(StoredForum { first, fetch_times })
}

/// The post a permalink names: the number after `#p`.
pub fn post_of_permalink(link: &str) -> Option<u32> {
    let (_, number) = link.rsplit_once("#p")?;
    number.parse().ok()
}

/// The delays of the posts written in the judged span, and how many of them were not stored.
pub fn delays_of(
    written: impl Iterator<Item = (u32, i64)>,
    first_stored: &HashMap<u32, i64>,
    judged: std::ops::Range<i64>,
) -> (Vec<i64>, usize) {
    let mut delays = Vec::new();
    let mut missing = 0;
    for (post, at) in written {
        if !judged.contains(&at) {
            continue;
        }
        match first_stored.get(&post) {
            Some(&stored) => delays.push((stored - at).max(0)),
            None => missing += 1,
        }
    }
    (delays, missing)
}

/// Mean and 95th percentile of `delays` (nearest rank), zero for none.
pub fn mean_and_p95(delays: &mut [i64]) -> (f64, f64) {
    if delays.is_empty() {
        return (0.0, 0.0);
    }
    delays.sort_unstable();
    let mean = delays.iter().sum::<i64>() as f64 / delays.len() as f64;
    let rank = (delays.len() * 95).div_ceil(100).max(1) - 1;
    (mean, delays[rank] as f64)
}

/// A request for a URL the same forum was asked for shortly before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickRepeat {
    pub path_and_query: String,
    /// When the URL was asked for before, and when again.
    pub before: Instant,
    pub arrived: Instant,
}

/// Requests arriving from `from` on for a URL asked for less than `gap` before, robots.txt
/// aside, in the order they arrived.
pub fn quick_repeats(requests: &[LoggedRequest], gap: Duration, from: Instant) -> Vec<QuickRepeat> {
    let mut sorted: Vec<&LoggedRequest> = requests
        .iter()
        .filter(|request| request.path_and_query != "/robots.txt" && request.arrived >= from)
        .collect();
    sorted.sort_by_key(|request| request.arrived);
    let mut last_asked: HashMap<&str, Instant> = HashMap::new();
    let mut repeats = Vec::new();
    for request in sorted {
        if let Some(before) = last_asked.insert(&request.path_and_query, request.arrived)
            && request.arrived - before < gap
        {
            repeats.push(QuickRepeat {
                path_and_query: request.path_and_query.clone(),
                before,
                arrived: request.arrived,
            });
        }
    }
    repeats
}

/// What the forum wrote from `from` to just before `to` (simulated seconds) where a page asked
/// for twice could show it, by the forum's truth: the posts of the thread a thread page belongs
/// to, or of the board a board page lists, named by which of the two it is; `None` for other
/// pages. A repeat whose list took posts between is the policy reading news as it comes; one
/// whose list took none found nothing it could not have known.
pub fn written_between(
    site: &Site,
    path_and_query: &str,
    from: i64,
    to: i64,
) -> Option<(&'static str, usize)> {
    let history = site.history();
    let written = |post: &u32| {
        history
            .post(*post)
            .is_some_and(|found| (from..to).contains(&found.created))
    };
    match site.address_of(path_and_query)?.route {
        Route::Thread { thread, .. } => Some((
            "thread",
            history
                .thread_posts(thread)
                .iter()
                .filter(|post| written(post))
                .count(),
        )),
        Route::Board { board, .. } => Some((
            "board",
            (1..=history.post_count())
                .filter(|post| written(post))
                .filter(|&post| {
                    history
                        .post(post)
                        .and_then(|found| history.thread(found.thread))
                        .is_some_and(|thread| thread.board == board)
                })
                .count(),
        )),
        _ => None,
    }
}

/// How many [`quick_repeats`] there are.
pub fn repeats_within(requests: &[LoggedRequest], gap: Duration, from: Instant) -> usize {
    quick_repeats(requests, gap, from).len()
}

/// What `clock` read at `instant` of this process's monotonic clock (to the millisecond).
fn simulated_at(clock: &SharedAcceleratedClock, instant: Instant) -> Timestamp {
    let now = Instant::now();
    let now_simulated = clock.now();
    let wall_before = now.saturating_duration_since(instant).as_secs_f64();
    let simulated_before =
        SignedDuration::from_millis((wall_before * clock.factor() * 1000.0) as i64);
    now_simulated
        .checked_sub(simulated_before)
        .unwrap_or(now_simulated)
}

#[allow(clippy::too_many_arguments)]
fn judge(
    config: &WeekConfig,
    clock: &SharedAcceleratedClock,
    mode: WeekMode,
    processes: usize,
    forums: &[ServedForum],
    stores: &[StoredForum],
    origin: i64,
    processes_failed: usize,
    leases_expired_at: Option<Instant>,
    wall_seconds: f64,
) -> WeekRun {
    let judged =
        origin + config.judge_from_seconds..origin + config.span_seconds - config.settle_seconds;
    let mut all_delays = Vec::new();
    let mut posts_missing = 0;
    let mut fetches = 0;
    let mut most_in_flight = 0;
    let mut forums_served_after_kill = 0;
    let mut quick_repeat_lines = Vec::new();
    let mut fetches_not_stored = 0;
    let minute = Duration::from_secs_f64(60.0 / config.speed);
    let judged_from_wall = wall_instant(clock, judged.start);
    let mut missed = MissedPosts::default();
    for (forum, stored) in forums.iter().zip(stores) {
        let history = forum.site.history();
        let posts: Vec<(u32, u32, i64)> = (1..=history.post_count())
            .filter_map(|post| {
                history
                    .post(post)
                    .map(|found| (post, found.thread, found.created))
            })
            .collect();
        missed.add(missed_posts(
            &posts,
            |thread| {
                history
                    .thread(thread)
                    .map_or(i64::MAX, |found| found.created)
            },
            &stored.first,
            origin,
            judged.clone(),
        ));
        let written = (1..=history.post_count())
            .filter_map(|post| history.post(post).map(|found| (post, found.created)));
        let (delays, missing) = delays_of(written, &stored.first, judged.clone());
        all_delays.extend(delays);
        posts_missing += missing;
        let requests = forum.log.requests();
        fetches += requests.len();
        most_in_flight = most_in_flight.max(forum.log.most_in_flight());
        for repeat in quick_repeats(&requests, minute, judged_from_wall) {
            let before = simulated_at(clock, repeat.before);
            let again = simulated_at(clock, repeat.arrived);
            let news = match written_between(
                &forum.site,
                &repeat.path_and_query,
                before.as_second(),
                again.as_second(),
            ) {
                Some((list, posts)) => format!("; {posts} posts written in its {list} between"),
                None => String::new(),
            };
            quick_repeat_lines.push(format!(
                "{} {}: asked at {} and again at {} ({:.1} simulated s later){news}",
                forum.portal,
                repeat.path_and_query,
                before,
                again,
                again.duration_since(before).as_secs_f64()
            ));
        }
        let asked = requests
            .iter()
            .filter(|request| {
                request.arrived >= judged_from_wall && request.path_and_query != "/robots.txt"
            })
            .count();
        let kept = stored
            .fetch_times
            .iter()
            .filter(|&&at| at >= judged.start)
            .count();
        fetches_not_stored += asked.saturating_sub(kept);
        // Without a kill, a forum counts when it was served at all.
        let served_after = match leases_expired_at {
            Some(after) => requests.iter().any(|request| request.arrived > after),
            None => !requests.is_empty(),
        };
        if served_after {
            forums_served_after_kill += 1;
        }
    }
    let posts_judged = all_delays.len() + posts_missing;
    let (mean, p95) = mean_and_p95(&mut all_delays);
    WeekRun {
        mode,
        processes,
        forums: forums.len(),
        posts_judged,
        posts_missing,
        mean_delay_seconds: mean,
        p95_delay_seconds: p95,
        fetches,
        most_in_flight_per_forum: most_in_flight,
        quick_repeats: quick_repeat_lines.len(),
        quick_repeat_lines,
        fetches_not_stored,
        processes_failed,
        forums_served_after_kill,
        wall_seconds,
        missed,
    }
}

#[cfg(test)]
mod tests;
