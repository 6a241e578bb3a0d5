//! `trawl watch`: keeps a crawl's database fresh, live. The loop is `trawl_watch::Watch`; this
//! module parses the arguments, builds the same fetch stack as `trawl crawl`, waits on the wall
//! clock and prints the status line.

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use jiff::Timestamp;
use trawl_model::{Clock, CookieJarFetcher};
use trawl_store::{Store, StoreError, StoreLocation};
use trawl_watch::{Watch, WatchConfig, WatchHooks, WatchStatus};

use crate::crawl::{FetchArgs, parse_portal};
use crate::freshness::parse_budget;
use crate::progress::human_duration;
use crate::shared_clock::{ClockArgs, Lag, RunClock};

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// The forum's portal URL, as `trawl crawl` was given it.
    pub url: String,
    /// The crawl database `trawl crawl` wrote (a file or a `postgres://` URL); the watch adds
    /// its pages to it.
    #[arg(long)]
    pub db: StoreLocation,
    /// Fetches a day, as 3000/day.
    #[arg(long, default_value = "3000/day", value_parser = parse_budget)]
    pub budget: u32,
    /// The revisit policy: trawl (ours, the default), lws, lws-bc, bic-bra, era, wra, lra,
    /// uniform, bfs, poisson, curve-fitting, bound-based, nutch, stormcrawler.
    #[arg(long, default_value = "trawl")]
    pub policy: String,
    /// Stop at this instant of the clock (RFC 3339) instead of watching for ever.
    #[arg(long)]
    pub until: Option<Timestamp>,
    #[command(flatten)]
    pub fetching: FetchArgs,
    #[command(flatten)]
    pub clock: ClockArgs,
}

pub fn run(args: WatchArgs) -> Result<()> {
    let portal = parse_portal(&args.url)?;
    // Only an existing crawl is opened: a watch of nothing would leave an empty database (or
    // site) behind.
    let mut store = match Store::open_existing(&args.db, Some(portal.as_str()), false) {
        Ok(store) => store,
        Err(StoreError::Missing { .. } | StoreError::NoSuchSite { .. }) => bail!(
            "there is no crawl of {portal} in {db}; run `trawl crawl {portal} --db {db}` first, \
             then watch it",
            db = args.db
        ),
        Err(error) => {
            return Err(error)
                .with_context(|| format!("cannot open the crawl database {}", args.db));
        }
    };
    let fetcher = CookieJarFetcher::new(args.fetching.config()?.build());
    let clock = args.clock.clock()?;
    let config = WatchConfig::new(&args.policy, args.budget);
    let mut watch = Watch::open(&mut store, &fetcher, &clock, &portal, config)?;
    let status = watch.status().clone();
    eprintln!(
        "watching {} lists of {portal} in {} at {}/day with the {} policy{}",
        status.lists,
        args.db,
        args.budget,
        args.policy,
        match watch.owed().len() {
            0 => String::new(),
            owed => format!("; {owed} fetches owed from before come first"),
        }
    );
    let mut hooks = StatusLine::new(Duration::from_secs(1), clock, args.until);
    let status = watch.run(&mut hooks)?;
    hooks.finish(&status);
    // The last line says how far behind its plan the watch ran, which tells whether the machine
    // kept up with the clock (the fleet-week benchmark reads it).
    eprintln!(
        "watch ended: {} fetched, {} new posts; {}",
        status.fetched,
        status.new_posts,
        hooks.lag.describe()
    );
    Ok(())
}

/// Waits on the wall clock and prints the status line at most once per interval, in place on a
/// terminal and one line per update elsewhere (a log file).
struct StatusLine {
    interval: Duration,
    clock: RunClock,
    until: Option<Timestamp>,
    last: Option<Instant>,
    in_place: bool,
    latest: WatchStatus,
    lag: Lag,
}

impl StatusLine {
    fn new(interval: Duration, clock: RunClock, until: Option<Timestamp>) -> StatusLine {
        StatusLine {
            interval,
            clock,
            until,
            last: None,
            in_place: std::io::stderr().is_terminal(),
            latest: WatchStatus::default(),
            lag: Lag::default(),
        }
    }

    fn print(&mut self, force: bool) {
        if !force && self.last.is_some_and(|last| last.elapsed() < self.interval) {
            return;
        }
        self.last = Some(Instant::now());
        let line = status_line(&self.latest);
        if self.in_place {
            eprint!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    }

    fn finish(&mut self, status: &WatchStatus) {
        self.latest = status.clone();
        if self.in_place {
            self.print(true);
            eprintln!();
        }
    }
}

impl WatchHooks for StatusLine {
    fn wait_until(&mut self, _clock: &dyn Clock, at: Timestamp) -> ControlFlow<()> {
        self.lag.wait_for(at, self.clock.now());
        if let Some(until) = self.until
            && (at >= until || self.clock.now() >= until)
        {
            // The run ends before the fetch it waits for; the clock is let reach the end so
            // that what the watch reports covers the whole span asked for.
            let clock = self.clock;
            clock.sleep_until(until, Duration::from_secs(1), || true);
            return ControlFlow::Break(());
        }
        // Waits in steps of at most a second of the wall clock, so the line keeps saying when
        // the next fetch is.
        self.print(false);
        let clock = self.clock;
        clock.sleep_until(at, Duration::from_secs(1), || {
            self.print(false);
            true
        });
        ControlFlow::Continue(())
    }

    fn stored(&mut self, status: &WatchStatus) -> ControlFlow<()> {
        self.latest = status.clone();
        self.print(false);
        // A run behind its plan fetches without waiting; the end still comes.
        if self.until.is_some_and(|until| self.clock.now() >= until) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// One line: fetches, new posts and their mean delay, what comes next, the backlog.
pub fn status_line(status: &WatchStatus) -> String {
    let delay = status
        .mean_delay_seconds()
        .map(|seconds| format!(", mean delay {}", human_duration(seconds)))
        .unwrap_or_default();
    let next = match status.next_at {
        Some(at) => format!(
            "next: {} fetches from {}",
            status.next_fetches,
            at.strftime("%H:%M:%S UTC")
        ),
        None => "next: none planned yet".to_string(),
    };
    format!(
        "{} fetched ({} failed), {} new posts{delay}; {next}; backlog {} pages, {} threads with news",
        status.fetched,
        status.failed,
        status.new_posts,
        status.backlog_pages,
        status.threads_with_news
    )
}
