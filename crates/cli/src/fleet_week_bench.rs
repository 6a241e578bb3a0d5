//! `trawl bench fleet-week`: parses the flags, runs `trawl-eval`'s fleet-week harness with this
//! program as the workers, crawls and watches it measures, and prints the table for
//! docs/BENCHMARKS.md.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use trawl_eval::fleet::week::{WEEK_COLUMNS, WeekComparison, WeekConfig, WeekRun, run_week};
use trawl_sim::{FamilyName, Scale};

use crate::freshness::parse_budget;

#[derive(Debug, Args)]
pub struct FleetWeekArgs {
    /// A PostgreSQL server whose user may create databases (defaults to TRAWL_TEST_POSTGRES, as
    /// `scripts/test-postgres.sh` sets it).
    #[arg(long)]
    pub postgres: Option<String>,
    /// Simulated forums served on loopback, one server each.
    #[arg(long, default_value_t = 50)]
    pub forums: usize,
    /// Their family: one whose permalinks name the post (phpbb).
    #[arg(long, default_value = "phpbb")]
    pub family: String,
    /// Their size: small, medium or large.
    #[arg(long, default_value = "small")]
    pub scale: String,
    /// Days into the forums' histories at which the clock starts.
    #[arg(long, default_value_t = 20)]
    pub start_day: i64,
    /// Simulated days kept fresh, the first crawl included.
    #[arg(long, default_value_t = 7.0)]
    pub days: f64,
    /// Simulated seconds per wall-clock second.
    #[arg(long, default_value_t = 1440.0)]
    pub speed: f64,
    /// Hours after the start before posts are judged (the crawl and first watch come first),
    /// and hours before the end after which they are not (they may wait for their next visit).
    #[arg(long, default_value_t = 12.0)]
    pub judge_from_hours: f64,
    #[arg(long, default_value_t = 2.0)]
    pub settle_hours: f64,
    /// The revisit policy.
    #[arg(long, default_value = "trawl")]
    pub policy: String,
    /// Fetches a day per forum, as 1000/day.
    #[arg(long, default_value = "1000/day", value_parser = parse_budget)]
    pub budget: u32,
    /// Worker processes of the fleet, and sites each holds at once.
    #[arg(long, default_value_t = 2)]
    pub workers: usize,
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
    /// Minutes of the clock a lease watches a site, and the longest it waits for the next fetch.
    #[arg(long, default_value_t = 60)]
    pub watch_minutes: u64,
    #[arg(long, default_value_t = 10)]
    pub watch_wait_minutes: u64,
    /// Wall seconds a lease lasts unless renewed.
    #[arg(long, default_value_t = 30)]
    pub lease_seconds: u64,
    /// Pages sampled to learn each forum's plan.
    #[arg(long, default_value_t = 150)]
    pub samples: usize,
    /// Server latency and politeness delay, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub latency_ms: u64,
    #[arg(long, default_value_t = 0)]
    pub delay_ms: u64,
    /// Kill the fleet's first worker this many wall seconds into its run (a new one takes its
    /// place), to see its sites taken up.
    #[arg(long)]
    pub kill_after_seconds: Option<u64>,
    /// Run the fleet alone, without the forum-by-forum comparison.
    #[arg(long)]
    pub fleet_only: bool,
    /// Where the SQLite files and the processes' logs go.
    #[arg(long, default_value = "target/bench-fleet-week")]
    pub scratch: PathBuf,
}

pub fn run(args: FleetWeekArgs) -> Result<()> {
    let postgres = match args.postgres.clone() {
        Some(url) => url,
        None => std::env::var("TRAWL_TEST_POSTGRES").context(
            "give --postgres a server URL, or run the benchmark through \
             scripts/test-postgres.sh, which starts a private PostgreSQL and sets \
             TRAWL_TEST_POSTGRES",
        )?,
    };
    let Some(family) = FamilyName::parse(&args.family) else {
        bail!(
            "unknown family {:?} (see `trawl sim families`)",
            args.family
        );
    };
    let Some(scale) = Scale::parse(&args.scale) else {
        bail!("--scale is small, medium or large, not {:?}", args.scale);
    };
    let positive = |value: f64| value.is_finite() && value > 0.0;
    if !positive(args.days) || !positive(args.speed) {
        bail!("--days and --speed must be positive");
    }
    let hours = |hours: f64| (hours * 3600.0).round() as i64;
    let config = WeekConfig {
        program: std::env::current_exe().context("cannot find this program's own path")?,
        postgres,
        scratch: args.scratch.clone(),
        forums: args.forums,
        family,
        scale,
        start_day: args.start_day,
        speed: args.speed,
        span_seconds: hours(args.days * 24.0),
        judge_from_seconds: hours(args.judge_from_hours),
        settle_seconds: hours(args.settle_hours),
        policy: args.policy.clone(),
        budget_per_day: args.budget,
        workers: args.workers,
        concurrency: args.concurrency,
        watch_minutes: args.watch_minutes,
        watch_wait_minutes: args.watch_wait_minutes,
        lease_seconds: args.lease_seconds,
        samples: args.samples,
        latency: Duration::from_millis(args.latency_ms),
        delay: Duration::from_millis(args.delay_ms),
        kill_first_worker_after: args.kill_after_seconds.map(Duration::from_secs),
        forum_by_forum: !args.fleet_only,
    };
    let comparison = run_week(&config, |line| eprintln!("{line}"))?;
    println!(
        "{} {} {} forums, {} simulated days at {}x, policy {} at {}/day, posts judged from {} h \
         to {} h before the end",
        args.forums,
        args.scale,
        args.family,
        args.days,
        args.speed,
        args.policy,
        args.budget,
        args.judge_from_hours,
        args.settle_hours
    );
    println!();
    print_table(&comparison);
    Ok(())
}

fn print_table(comparison: &WeekComparison) {
    println!("| {} |", WEEK_COLUMNS.join(" | "));
    println!("|{}", "---|".repeat(WEEK_COLUMNS.len()));
    let row = |run: &WeekRun| println!("| {} |", run.cells().join(" | "));
    row(&comparison.fleet);
    if let Some(other) = &comparison.forum_by_forum {
        row(other);
    }
    println!();
    let runs = std::iter::once(&comparison.fleet).chain(&comparison.forum_by_forum);
    for run in runs {
        let missed = run.missed;
        println!(
            "{}: posts missing in threads never stored {} (started before the run) + {} (started \
             during it), in threads stored {}; posts written before the run not stored {}",
            run.mode.name(),
            missed.in_old_threads_never_stored,
            missed.in_new_threads_never_stored,
            missed.in_threads_stored,
            missed.written_before_the_run_not_stored
        );
        for line in &run.quick_repeat_lines {
            println!("{}: quick repeat: {line}", run.mode.name());
        }
    }
    if let Some((mean, p95, fetches)) = comparison.ratios() {
        println!();
        println!(
            "fleet / forum by forum: mean delay {mean:.3}, p95 delay {p95:.3}, fetches {fetches:.3}"
        );
    }
}
