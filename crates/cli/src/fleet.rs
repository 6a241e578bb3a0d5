//! `trawl fleet add`, `trawl fleet status` and `trawl worker`: many forums crawled by workers
//! sharing one PostgreSQL database. Leasing is `trawl-fleet`'s; this module parses, prints, and
//! runs the crawl of a leased site with the same driver as `trawl crawl`.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use serde_json::json;
use trawl_crawl::CrawlStrategy;
use trawl_fleet::{
    AuditSummary, Budget, Fleet, Heartbeat, Lease, SiteStatus, WorkerOptions, work_round,
};
use trawl_learn::traverse::Strategy;
use trawl_model::CookieJarFetcher;
use trawl_store::{PostgresStore, Store, StoreLocation};

use crate::crawl::{FetchArgs, parse_portal};
use trawl_run::{
    CrawlEnd, DriveOptions, SampledAnswers, close_gaps, drive_with_relearning, open_crawl,
};

#[derive(Debug, Subcommand)]
pub enum FleetCommand {
    /// Register forums (portal URLs) with a fleet's database; each learns its plan on its
    /// first lease.
    Add(AddArgs),
    /// Show the fleet's sites: pages stored, lease holder and time left, when each is due,
    /// and the fleet's and each site's budget of pages a day.
    Status(StatusArgs),
    /// Set the fleet's budget of pages a day over every site, or one site's own with --site;
    /// workers reserve a lease's pages within both, so they hold however many workers run.
    Budget(BudgetArgs),
}

#[derive(Debug, Args)]
pub struct BudgetArgs {
    /// The fleet's database, a `postgres://` URL.
    #[arg(long)]
    pub db: StoreLocation,
    /// Pages a day; leave out (or give --unlimited) to lift the budget.
    #[arg(long, conflicts_with = "unlimited")]
    pub pages_per_day: Option<u64>,
    /// Lift the budget.
    #[arg(long)]
    pub unlimited: bool,
    /// The site (portal URL) whose own budget to set, instead of the fleet's.
    #[arg(long)]
    pub site: Option<String>,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The forums' portal URLs.
    #[arg(required = true)]
    pub urls: Vec<String>,
    /// The fleet's database, a `postgres://` URL.
    #[arg(long)]
    pub db: StoreLocation,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The fleet's database, a `postgres://` URL.
    #[arg(long)]
    pub db: StoreLocation,
    /// One JSON object a site, for scripts.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The fleet's database, a `postgres://` URL.
    #[arg(long)]
    pub db: StoreLocation,
    /// Sites crawled at once (one thread and one database connection each).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// How long a lease lasts unless renewed, in seconds. Learning a new site's plan must end
    /// within it (at the polite default, 300 samples take five minutes).
    #[arg(long, default_value_t = 900)]
    pub lease_seconds: u64,
    /// Pages fetched under one lease before the site is given back for any worker to go on
    /// (fewer when the fleet's or the site's budget for the day has less left; see `trawl fleet
    /// budget`).
    #[arg(long, default_value_t = 500)]
    pub pages_per_lease: usize,
    /// With --no-keep-fresh: hours after its crawl ends before a site is due again (to be
    /// audited and have its gaps closed).
    #[arg(long, default_value_t = 24)]
    pub revisit_hours: u64,
    /// Minutes before a site whose crawl failed (a forum that does not answer, say) is tried
    /// again.
    #[arg(long, default_value_t = 60)]
    pub retry_minutes: u64,
    /// Stop when no site is due, instead of waiting for one; a site kept fresh is given back
    /// as soon as its watch would wait for a later fetch.
    #[arg(long)]
    pub until_idle: bool,
    /// Pages to sample when learning a site's plan.
    #[arg(long, default_value_t = 300)]
    pub samples: usize,
    /// Seed of the sampler's choices when learning.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub fetching: FetchArgs,
    #[command(flatten)]
    pub fresh: crate::fleet_watch::FreshArgs,
}

/// How long an idle worker waits before asking for due sites again.
const IDLE_WAIT: Duration = Duration::from_secs(5);

pub fn run(command: FleetCommand) -> Result<()> {
    match command {
        FleetCommand::Add(args) => {
            let mut fleet = connect(&args.db)?;
            let mut sites = Vec::with_capacity(args.urls.len());
            for url in &args.urls {
                sites.push(parse_portal(url)?.to_string());
            }
            let added = fleet.add_sites(&sites)?;
            println!(
                "added {added} of {} forums to {}; start workers with `trawl worker --db {}`",
                sites.len(),
                args.db,
                args.db
            );
            Ok(())
        }
        FleetCommand::Budget(args) => {
            if args.pages_per_day.is_none() && !args.unlimited {
                bail!("give --pages-per-day N, or --unlimited to lift the budget");
            }
            let pages_per_day = args.pages_per_day.map(|pages| pages as i64);
            let mut fleet = connect(&args.db)?;
            let shown = pages_per_day.map_or("no limit".to_string(), |pages| {
                format!("{pages} pages a day")
            });
            match &args.site {
                Some(site) => {
                    let site = parse_portal(site)?.to_string();
                    if !fleet.set_site_budget(&site, pages_per_day)? {
                        bail!(
                            "{site} is not one of the fleet's sites (add it with `trawl fleet add`)"
                        );
                    }
                    println!("{site}: {shown}");
                }
                None => {
                    fleet.set_fleet_budget(pages_per_day)?;
                    println!("the fleet: {shown}");
                }
            }
            Ok(())
        }
        FleetCommand::Status(args) => {
            let mut fleet = connect(&args.db)?;
            let sites = fleet.status()?;
            let budget = fleet.fleet_budget()?;
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            print_status(&mut out, &sites, budget, args.json)?;
            std::io::Write::flush(&mut out)?;
            Ok(())
        }
    }
}

fn connect(db: &StoreLocation) -> Result<Fleet> {
    let StoreLocation::Postgres(url) = db else {
        bail!("a fleet lives in PostgreSQL: give --db a postgres:// URL, not the file {db}");
    };
    Fleet::connect(url).with_context(|| format!("cannot open the fleet database {db}"))
}

fn print_status(
    out: &mut impl std::io::Write,
    sites: &[SiteStatus],
    budget: Budget,
    as_json: bool,
) -> Result<()> {
    if as_json {
        // One object a site, as scripts read it; the fleet's budget is repeated in each so that
        // every line stands alone.
        for site in sites {
            let line = json!({
                "site": site.site,
                "strategy": site.strategy,
                "pages": site.pages,
                "due_in_seconds": site.due_in_seconds,
                "lease_holder": site.lease_holder,
                "lease_left_seconds": site.lease_left_seconds,
                "lease_epoch": site.lease_epoch,
                "pages_per_day": site.budget.pages_per_day,
                "reserved_today": site.budget.reserved_today,
                "audit_gaps": site.audit.map(|audit| audit.gaps),
                "posts_missing": site.audit.map(|audit| audit.posts_missing),
                "fleet_pages_per_day": budget.pages_per_day,
                "fleet_reserved_today": budget.reserved_today,
            });
            writeln!(out, "{line}")?;
        }
        return Ok(());
    }
    writeln!(out, "fleet budget: {}", shown_budget(budget))?;
    writeln!(
        out,
        "{:>8}  {:<8}  {:<24}  {:>12}  {:>16}  {:>12}  site",
        "pages", "crawl", "lease", "due", "today/budget", "audit gaps"
    )?;
    for site in sites {
        let lease = match (&site.lease_holder, site.lease_left_seconds) {
            (Some(holder), Some(left)) => format!("{holder} ({left:.0} s)"),
            _ => "-".to_string(),
        };
        // A site past its due time shows how late it is: the delay the fleet's work runs behind.
        let due = if site.due_in_seconds <= 0.0 {
            format!("{:.0} s late", -site.due_in_seconds)
        } else {
            format!("in {:.0} s", site.due_in_seconds)
        };
        let crawl = site.strategy.as_deref().unwrap_or("new");
        writeln!(
            out,
            "{:>8}  {crawl:<8}  {lease:<24}  {due:>12}  {:>16}  {:>12}  {}",
            site.pages,
            shown_budget(site.budget),
            site.audit.map_or("-".to_string(), |audit| format!(
                "{} ({} posts)",
                audit.gaps, audit.posts_missing
            )),
            site.site
        )?;
    }
    Ok(())
}

/// Pages reserved today against the budget: `120/500`, or `120/-` without a limit.
fn shown_budget(budget: Budget) -> String {
    match budget.pages_per_day {
        Some(limit) => format!("{}/{limit}", budget.reserved_today),
        None => format!("{}/-", budget.reserved_today),
    }
}

pub fn run_worker(args: WorkerArgs) -> Result<()> {
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    if args.samples == 0 {
        bail!("--samples must be at least 1 to learn the plans of new sites");
    }
    args.fetching.config()?;
    args.fresh.clock.clock()?;
    args.fresh.until()?;
    // Checked once here, so that every thread connects to a database known to answer.
    drop(connect(&args.db)?);
    let args = &args;
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..args.concurrency)
            .map(|index| scope.spawn(move || work_thread(args, index)))
            .collect();
        for thread in threads {
            match thread.join() {
                Ok(outcome) => outcome?,
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        Ok(())
    })
}

/// How long a worker that lost its database keeps trying to connect again (a restart of the
/// server takes seconds; a failover, tens of seconds).
const RECONNECT_FOR: Duration = Duration::from_secs(120);

/// Rounds failing one after another, each after connecting again, that make a worker give up:
/// the database answers, but something else is wrong.
const FAILED_ROUNDS_AT_MOST: usize = 5;

/// One thread of a worker: rounds of claims until no site is due or held (with
/// `--until-idle`) or for ever. A round that fails on the database (the server restarted, the
/// connection dropped) is followed by a new connection and the next round; the sites the
/// failed round held come back when their leases expire.
fn work_thread(args: &WorkerArgs, index: usize) -> Result<()> {
    let mut fleet = connect(&args.db)?;
    let clock = args.fresh.clock.clock()?;
    let mut failed_rounds = 0;
    let options = WorkerOptions {
        worker: format!("worker-{}-{index}", std::process::id()),
        sites_at_once: 1,
        slice: Duration::from_secs(args.lease_seconds),
        retry_after: Duration::from_secs(args.retry_minutes * 60),
    };
    loop {
        if args.fresh.past_until(&clock)? {
            return Ok(());
        }
        let outcome = work_round(&mut fleet, &options, |lease, store, heartbeat| {
            // The lease's fetch stack is new and knows nothing of the requests the site's
            // previous holder made; the delay is kept from the last of them as the database
            // says (another worker's clock is not this one's).
            let delay = Duration::from_millis(args.fetching.delay_ms);
            std::thread::sleep(hand_off_wait(delay, lease.quiet_for));
            if args.fresh.keeps_fresh() && heartbeat.is_watched()? {
                crate::fleet_watch::watch_leased_site(args, &clock, lease, store, heartbeat)
            } else {
                crawl_leased_site(args, &clock, lease, store, heartbeat)
            }
        });
        let round = match outcome {
            Ok(round) => {
                failed_rounds = 0;
                round
            }
            Err(error) if failed_rounds < FAILED_ROUNDS_AT_MOST => {
                failed_rounds += 1;
                eprintln!("{}: {error:#}; connecting again", options.worker);
                fleet = reconnect(&args.db)?;
                continue;
            }
            Err(error) => return Err(error.into()),
        };
        for (lease, failure) in &round.failed {
            eprintln!(
                "{}: {failure:#}; tried again in {} minutes",
                lease.site, args.retry_minutes
            );
        }
        if round.found_nothing() {
            if args.until_idle {
                // A site still leased (by another thread, or by a worker that died and whose
                // lease has yet to expire) is work to come, not idleness.
                let leased = fleet
                    .status()?
                    .iter()
                    .any(|site| site.lease_holder.is_some());
                if !leased {
                    return Ok(());
                }
                std::thread::sleep(Duration::from_secs(1));
            } else {
                std::thread::sleep(args.fresh.idle_wait(&clock, IDLE_WAIT));
            }
        }
    }
}

/// What is left of the politeness `delay` when a lease begins, the site having had no request
/// from the fleet for `quiet_for` (see `trawl_fleet::Lease::quiet_for`; `None` for a site no
/// lease has written to). The delay is the worker's own `--delay-ms`: a `Crawl-delay` the
/// previous holder read from robots.txt is read again by this lease's first request, which is
/// robots.txt itself.
fn hand_off_wait(delay: Duration, quiet_for: Option<Duration>) -> Duration {
    quiet_for.map_or(Duration::ZERO, |quiet| delay.saturating_sub(quiet))
}

/// A new connection to the fleet's database, tried once a second for [`RECONNECT_FOR`].
fn reconnect(db: &StoreLocation) -> Result<Fleet> {
    let started = Instant::now();
    loop {
        match connect(db) {
            Ok(fleet) => return Ok(fleet),
            Err(_) if started.elapsed() < RECONNECT_FOR => {
                std::thread::sleep(Duration::from_secs(1));
            }
            Err(error) => return Err(error),
        }
    }
}

/// The pages the budgets grant a lease, reserved before anything is fetched, or, when the
/// site's budget (or the fleet's) is spent for today, the time until it is due again tomorrow:
/// such a site waits without learning, crawling or watching.
pub(crate) fn pages_granted(
    args: &WorkerArgs,
    lease: &Lease,
    heartbeat: &mut Heartbeat<'_>,
) -> Result<std::result::Result<usize, Duration>> {
    let granted = heartbeat.reserve_pages(args.pages_per_lease)?;
    if granted == 0 {
        eprintln!(
            "{}: today's budget is spent; due again tomorrow",
            lease.site
        );
        return Ok(Err(heartbeat.until_tomorrow()?));
    }
    Ok(Ok(granted))
}

/// Crawls the site `lease` holds through its fenced `store`, for at most `--pages-per-lease`
/// pages, renewing the lease as it goes; returns when the site is due again.
fn crawl_leased_site(
    args: &WorkerArgs,
    clock: &crate::shared_clock::RunClock,
    lease: &Lease,
    store: &mut Store,
    heartbeat: &mut Heartbeat<'_>,
) -> Result<Duration> {
    let portal = parse_portal(&lease.site)?;
    let granted = match pages_granted(args, lease, heartbeat)? {
        Ok(granted) => granted,
        Err(due_tomorrow) => return Ok(due_tomorrow),
    };
    // As in `trawl crawl`, the pages sampled to learn the plan answer the crawl's first
    // requests for them.
    let fetcher = CookieJarFetcher::new(SampledAnswers::new(args.fetching.config()?.build()));
    let learn = |change: trawl_run::TemplateChange| -> Result<trawl_learn::plan::Plan> {
        eprintln!(
            "{}: {} of the recent pages matched no vertex of the plan: the forum's templates \
             seem to have changed; learning the plan again",
            lease.site, change.unclassified
        );
        fetcher.inner().let_go();
        let pages = crate::learn::sample_with_progress(&fetcher, &portal, args.samples, args.seed)?;
        let plan = trawl_learn::learn(&portal, pages, Strategy::Skeleton).plan;
        eprintln!(
            "{}: learned plan {}; the crawl goes on with it",
            lease.site, change.generation
        );
        Ok(plan)
    };
    // The first learning keeps its sampled pages in the site's store as they arrive, through a
    // fenced handle of its own (the opening holds the lease's store), so that a lease that ends
    // while sampling leaves them for the next holder to go on from.
    let first_learning = || -> Result<CrawlStrategy> {
        let StoreLocation::Postgres(url) = &args.db else {
            bail!("a fleet lives in PostgreSQL");
        };
        let kept = Store::postgres(PostgresStore::open_leased(url, &lease.site, lease.epoch)?);
        let pages = crate::learn::sample_keeping(&fetcher, kept, &portal, args.samples, args.seed)?;
        let plan = trawl_learn::learn(&portal, pages, Strategy::Skeleton).plan;
        Ok(CrawlStrategy::Plan(Box::new(plan)))
    };
    let opened = open_crawl(store, &portal, &fetcher, clock, None, first_learning)?;
    fetcher.inner().offer(opened.sampled);
    let priority = opened.order.priority()?;
    let mut crawler = opened.crawler.with_priority(priority);
    heartbeat.beat()?;
    let pages_before = store.page_count()?;
    let budget = pages_before + granted;
    // A third of the slice between heartbeats leaves two chances to renew before it ends.
    let beat_every = Duration::from_secs(args.lease_seconds) / 3;
    let mut last_beat = Instant::now();
    let mut keep_lease = || {
        if last_beat.elapsed() >= beat_every {
            // A lost lease shows itself at the next write, which the store refuses.
            let _ = heartbeat.beat();
            last_beat = Instant::now();
        }
    };
    let options = DriveOptions {
        max_pages: Some(budget),
        workers: 1,
        paced: args.fetching.delay_ms > 0,
    };
    let (end, _) = drive_with_relearning(
        store,
        &mut crawler,
        &portal,
        &fetcher,
        clock,
        options,
        learn,
        |_| keep_lease(),
    )?;
    // As `trawl crawl` does, a crawl that ran dry is audited against the forum's own counts and
    // what the audit names as missing and fetchable is asked for, within the lease's pages.
    let closing = if end == CrawlEnd::FrontierEmpty {
        Some(close_gaps(
            store,
            &mut crawler,
            &portal,
            &fetcher,
            clock,
            options,
            |_| keep_lease(),
        )?)
    } else {
        None
    };
    if let Some(closing) = &closing {
        let totals = &closing.report.totals;
        heartbeat.record_audit(AuditSummary {
            gaps: closing.report.gaps.len() as i64,
            posts_missing: totals
                .posts_counted
                .saturating_sub(totals.posts_stored_of_counted) as i64,
        })?;
    }
    let pages_after = store.page_count()?;
    let fetched = pages_after - pages_before;
    heartbeat.return_pages(granted.saturating_sub(fetched))?;
    let revisit = Duration::from_secs(args.revisit_hours * 3600);
    let (due_in, ended) = match end {
        CrawlEnd::PageLimit => (Duration::ZERO, "lease budget spent"),
        // A site kept fresh is watched from now on, its first watch due at once.
        CrawlEnd::FrontierEmpty if args.fresh.keeps_fresh() => {
            heartbeat.start_watching()?;
            (Duration::ZERO, "crawl complete, kept fresh from now on")
        }
        CrawlEnd::FrontierEmpty => (revisit, "crawl complete"),
        CrawlEnd::TemplateChanged { .. } => (revisit, "its pages match no plan learned"),
    };
    let gaps = closing.map_or(String::new(), |closing| {
        format!(
            " (closing gaps: {} URLs asked for, {} pages fetched in {} round(s))",
            closing.asked, closing.fetched, closing.rounds
        )
    });
    eprintln!(
        "{}: {fetched} pages this lease, {pages_after} stored; {ended}{gaps}",
        lease.site
    );
    Ok(due_in)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::hand_off_wait;

    fn check(delay_ms: u64, quiet_ms: Option<u64>, expected_ms: u64) {
        assert_eq!(
            hand_off_wait(
                Duration::from_millis(delay_ms),
                quiet_ms.map(Duration::from_millis)
            ),
            Duration::from_millis(expected_ms),
            "delay {delay_ms} ms, quiet for {quiet_ms:?} ms"
        );
    }

    #[test]
    fn a_lease_waits_out_what_is_left_of_the_delay() {
        check(1000, Some(300), 700);
        check(1000, Some(0), 1000);
        check(1000, Some(1000), 0);
        check(1000, Some(5000), 0);
        check(0, Some(10), 0);
        // No lease has written to the site: nothing of the fleet's to wait out.
        check(1000, None, 0);
    }
}
