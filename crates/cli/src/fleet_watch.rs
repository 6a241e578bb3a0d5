//! Keeping a fleet's sites fresh: once a site's crawl is complete (`trawl worker`, unless
//! `--no-keep-fresh`), each lease of it runs the site's watch for a slice of the clock, through the same
//! `trawl_watch::Watch` as `trawl watch`, into the site's store fenced by the lease.
//!
//! The watch keeps its plan and its policy's state beside the site's pages, so whichever worker
//! claims the site next goes on where the last holder stood. Opening a watch reads the site's
//! stored pages again, which takes longer the more there are, so a lease keeps its site as long
//! as no other site waits for a worker. When one does, the lease makes way once its slice is
//! over or the watch's next fetch is further away than `--watch-wait-minutes`: the site is given
//! back due at that fetch, which the claim's `next_due <= now()` picks. A lease also ends when
//! its pages are spent (due at once, for any worker to go on), and at `--until`. Under
//! `--until-idle` a lease waits for no planned fetch: it gives the site back due at it, and the
//! worker stops once no site is due.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use jiff::{SignedDuration, Timestamp};
use trawl_fleet::{Heartbeat, Lease};
use trawl_model::{Clock, CookieJarFetcher};
use trawl_store::Store;
use trawl_watch::{Watch, WatchConfig, WatchHooks, WatchStatus};

use crate::crawl::parse_portal;
use crate::fleet::WorkerArgs;
use crate::freshness::parse_budget;
use crate::shared_clock::{ClockArgs, Lag, RunClock};

#[derive(Debug, Args)]
pub struct FreshArgs {
    /// Keep every site fresh once its crawl is complete, as a worker does by default (this
    /// flag only names the default): the site's later leases run its watch, as `trawl watch`
    /// does.
    #[arg(long, conflicts_with = "no_keep_fresh")]
    pub keep_fresh: bool,
    /// Crawl each site once and keep it as it was: a complete site is due again only after
    /// --revisit-hours, to be audited and have its gaps closed, and no new post is looked for.
    #[arg(long)]
    pub no_keep_fresh: bool,
    /// The watch's fetches a day per site, as 3000/day.
    #[arg(long, default_value = "3000/day", value_parser = parse_budget)]
    pub watch_budget: u32,
    /// The watch's revisit policy (see `trawl watch --policy`).
    #[arg(long, default_value = "trawl")]
    pub watch_policy: String,
    /// Minutes of the clock a lease watches a site before making way for sites waiting for a
    /// worker (it keeps the site while none waits).
    #[arg(long, default_value_t = 60)]
    pub watch_minutes: u64,
    /// While sites wait for a worker, the longest a lease waits, in minutes of the clock, for
    /// its site's next fetch; a site whose next fetch is later is given back due then.
    #[arg(long, default_value_t = 10)]
    pub watch_wait_minutes: u64,
    /// Stop at this instant of the worker's clock (RFC 3339), the leases held given back.
    #[arg(long)]
    pub until: Option<String>,
    #[command(flatten)]
    pub clock: ClockArgs,
}

impl FreshArgs {
    /// Whether complete sites are kept fresh: unless `--no-keep-fresh` says otherwise. Someone
    /// who registers forums with a fleet means to keep an archive of them, and a complete
    /// crawl resumed every --revisit-hours finds nothing new (its frontier is empty): only the
    /// watch looks for the posts written since.
    pub fn keeps_fresh(&self) -> bool {
        !self.no_keep_fresh
    }

    /// The instant to stop at, when given.
    pub fn until(&self) -> Result<Option<Timestamp>> {
        self.until
            .as_deref()
            .map(|text| {
                text.parse::<Timestamp>()
                    .with_context(|| format!("--until is an RFC 3339 instant, not {text:?}"))
            })
            .transpose()
    }

    /// Whether the worker's clock has reached `--until`.
    pub fn past_until(&self, clock: &RunClock) -> Result<bool> {
        Ok(self.until()?.is_some_and(|until| clock.now() >= until))
    }

    /// How long an idle worker waits before asking for due sites again: `usual` on the wall
    /// clock, shorter on an accelerated one, so that a site is not claimed later in simulated
    /// time than a minute after it is due.
    pub fn idle_wait(&self, clock: &RunClock, usual: Duration) -> Duration {
        clock
            .wall_duration(SignedDuration::from_mins(1))
            .clamp(Duration::from_millis(10), usual)
    }
}

/// Runs the watch of the site `lease` holds through its fenced `store` for one slice, within the
/// pages the budgets grant; returns when the site is due again (wall time from now).
pub fn watch_leased_site(
    args: &WorkerArgs,
    clock: &RunClock,
    lease: &Lease,
    store: &mut Store,
    heartbeat: &mut Heartbeat<'_>,
) -> Result<Duration> {
    let portal = parse_portal(&lease.site)?;
    let granted = match crate::fleet::pages_granted(args, lease, heartbeat)? {
        Ok(granted) => granted,
        Err(due_tomorrow) => return Ok(due_tomorrow),
    };
    let fetcher = CookieJarFetcher::new(args.fetching.config()?.build());
    let config = WatchConfig::new(&args.fresh.watch_policy, args.fresh.watch_budget);
    let started = clock.now();
    let slice_end = started
        .saturating_add(SignedDuration::from_mins(args.fresh.watch_minutes as i64))
        .unwrap_or(started);
    let mut hooks = LeaseHooks {
        clock,
        slice_end,
        until: args.fresh.until()?,
        longest_wait: SignedDuration::from_mins(args.fresh.watch_wait_minutes as i64),
        granted,
        next_due: None,
        heartbeat,
        // A third of the lease between heartbeats leaves two chances to renew before it ends.
        beat_every: Duration::from_secs(args.lease_seconds) / 3,
        last_beat: Instant::now(),
        last_asked: Instant::now(),
        lag: Lag::default(),
        until_idle: args.until_idle,
        costs: LeaseCosts::default(),
    };
    let opening = Instant::now();
    let (status, opened_in) = {
        let mut watch = Watch::open(store, &fetcher, clock, &portal, config)?;
        let opened_in = opening.elapsed();
        (watch.run(&mut hooks)?, opened_in)
    };
    let LeaseHooks {
        next_due,
        heartbeat,
        lag,
        costs,
        ..
    } = hooks;
    heartbeat.return_pages(granted.saturating_sub(status.fetched))?;
    let now = clock.now();
    let due_in = next_due.map_or(Duration::ZERO, |due| {
        clock.wall_duration(due.duration_since(now))
    });
    eprintln!(
        "{}: watched {} fetches this lease ({} new posts; the watch opened in {} ms), due again \
         at {}; {}; {}",
        lease.site,
        status.fetched,
        status.new_posts,
        opened_in.as_millis(),
        next_due.map_or("once".to_string(), |due| due.to_string()),
        lag.describe(),
        costs.describe()
    );
    Ok(due_in)
}

/// Waits on the worker's clock while the lease lasts and ends it when its slice, its pages or
/// the run are over, keeping the instant the watch wanted next.
struct LeaseHooks<'lease, 'fleet> {
    clock: &'lease RunClock,
    slice_end: Timestamp,
    until: Option<Timestamp>,
    longest_wait: SignedDuration,
    granted: usize,
    /// The instant the watch's next fetch is due, once the lease ends waiting for it; `None`
    /// when the lease ends with work due at once.
    next_due: Option<Timestamp>,
    heartbeat: &'lease mut Heartbeat<'fleet>,
    beat_every: Duration,
    last_beat: Instant,
    /// When the lease last asked whether other sites wait for a worker.
    last_asked: Instant,
    /// How far behind its plan the lease's watch ran (its first wait counts the hand-over).
    lag: Lag,
    /// The worker stops once nothing is due (`--until-idle`): the lease never waits for a
    /// fetch planned later, and gives the site back due then.
    until_idle: bool,
    /// Where the lease's wall time went, for its closing line.
    costs: LeaseCosts,
}

/// Where a lease's wall time went between its waits, to tell a slow database from a slow
/// forum or a busy machine when a fleet falls behind its clock: the fetch (from the end of a
/// wait to the answer), the reading of a page (its analysis and the scheduler), its write
/// (the store's transaction), and what comes before the next wait (the scheduler's next plan);
/// and the questions to the fleet's database the lease asked on its own connection (whether
/// sites wait for a worker, heartbeats), with their time.
#[derive(Debug, Default)]
struct LeaseCosts {
    fetches: usize,
    fetching: Duration,
    reading: Duration,
    writing: Duration,
    slowest_write: Duration,
    before_wait: Duration,
    questions: usize,
    asking: Duration,
    /// Where the lease stands: since when, and in which of the three steps.
    step: Option<(LeaseStep, Instant)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LeaseStep {
    Fetching,
    Reading,
    Writing,
    BeforeWait,
}

impl LeaseCosts {
    /// Closes the step under way (its time added to its sum) and opens `next`.
    fn step_to(&mut self, next: Option<LeaseStep>) {
        let now = Instant::now();
        if let Some((step, since)) = self.step {
            let spent = now.saturating_duration_since(since);
            match step {
                LeaseStep::Fetching => self.fetching += spent,
                LeaseStep::Reading => self.reading += spent,
                LeaseStep::Writing => {
                    self.fetches += 1;
                    self.writing += spent;
                    self.slowest_write = self.slowest_write.max(spent);
                }
                LeaseStep::BeforeWait => self.before_wait += spent,
            }
        }
        self.step = next.map(|step| (step, now));
    }

    /// Counts a question to the database that took `spent`.
    fn asked(&mut self, spent: Duration) {
        self.questions += 1;
        self.asking += spent;
    }

    fn describe(&self) -> String {
        let per_fetch = |total: Duration| {
            if self.fetches == 0 {
                0.0
            } else {
                total.as_secs_f64() * 1000.0 / self.fetches as f64
            }
        };
        format!(
            "wall ms a fetch: fetching {:.1}, reading {:.1}, writing {:.1} (slowest {:.0}), before \
             the next wait {:.1}; {} database questions ({:.1} ms a fetch)",
            per_fetch(self.fetching),
            per_fetch(self.reading),
            per_fetch(self.writing),
            self.slowest_write.as_secs_f64() * 1000.0,
            per_fetch(self.before_wait),
            self.questions,
            per_fetch(self.asking),
        )
    }
}

/// How often, in wall time, a lease asks whether other sites wait for a worker.
const ASK_EVERY: Duration = Duration::from_secs(1);

impl LeaseHooks<'_, '_> {
    /// Whether the lease should make way, its next fetch due `at` (`None`: at once): its slice
    /// is over or the fetch is further than the longest wait, and other sites wait for a
    /// worker. The database is asked at most once every [`ASK_EVERY`]; a failed question keeps
    /// the lease, whose next write shows whether it is still held.
    fn make_way(&mut self, at: Option<Timestamp>) -> bool {
        let now = self.clock.now();
        if self.until_idle {
            return at.is_some_and(|at| at > now);
        }
        let over = match at {
            Some(at) => at > self.slice_end || at.duration_since(now) > self.longest_wait,
            None => now >= self.slice_end,
        };
        if !over || self.last_asked.elapsed() < ASK_EVERY {
            return false;
        }
        self.last_asked = Instant::now();
        let waiting = self.heartbeat.sites_waiting();
        self.costs.asked(self.last_asked.elapsed());
        waiting.is_ok_and(|waiting| waiting > 0)
    }

    fn keep_lease(&mut self) {
        if self.last_beat.elapsed() >= self.beat_every {
            let beating = Instant::now();
            // A lost lease shows itself at the next write, which the store refuses.
            let _ = self.heartbeat.beat();
            self.costs.asked(beating.elapsed());
            self.last_beat = Instant::now();
        }
    }
}

impl WatchHooks for LeaseHooks<'_, '_> {
    fn wait_until(&mut self, _clock: &dyn Clock, at: Timestamp) -> ControlFlow<()> {
        self.costs.step_to(None);
        let clock = self.clock;
        self.lag.wait_for(at, clock.now());
        // A run behind its plan waits for instants already past; the end still comes.
        let stop = self
            .until
            .is_some_and(|until| at >= until || clock.now() >= until);
        // The question is asked at most once every ASK_EVERY, waits or not: asked at every
        // wait, it was one more round trip to the database for every fetch once the slice was
        // over (every fetch waits, if only for an instant already past), while the answer
        // matters within a second.
        if stop || self.make_way(Some(at)) {
            self.next_due = Some(at);
            return ControlFlow::Break(());
        }
        let until = self.until;
        let mut made_way = false;
        let waited = clock.sleep_until(at, Duration::from_millis(200), || {
            self.keep_lease();
            made_way = until.is_some_and(|until| clock.now() >= until) || self.make_way(Some(at));
            !made_way
        });
        if !waited && made_way {
            self.next_due = Some(at);
            return ControlFlow::Break(());
        }
        self.costs.step_to(Some(LeaseStep::Fetching));
        ControlFlow::Continue(())
    }

    fn fetched(&mut self, _url: &str) -> ControlFlow<()> {
        self.costs.step_to(Some(LeaseStep::Reading));
        ControlFlow::Continue(())
    }

    fn writing(&mut self) {
        self.costs.step_to(Some(LeaseStep::Writing));
    }

    fn stored(&mut self, status: &WatchStatus) -> ControlFlow<()> {
        self.costs.step_to(Some(LeaseStep::BeforeWait));
        self.keep_lease();
        let over = self.until.is_some_and(|until| self.clock.now() >= until);
        if status.fetched >= self.granted || over || self.make_way(None) {
            self.next_due = None;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}
