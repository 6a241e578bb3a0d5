//! `trawl bench fleet`: parses the benchmark's flags, runs `trawl-eval`'s fleet harness with this
//! program as the workers and crawlers it measures, and prints the table for docs/BENCHMARKS.md.
//! With `--faults`, runs the fault benchmark instead (`trawl_eval::fleet::run_fault_bench`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use trawl_eval::fleet::{
    FaultPlan, FaultsReport, FleetBenchConfig, FleetRun, RUN_COLUMNS, run_fault_bench,
    run_fleet_bench,
};
use trawl_sim::{FamilyName, Scale};

#[derive(Debug, Args)]
pub struct FleetBenchArgs {
    /// A PostgreSQL server whose user may create databases; each fleet run makes its own and
    /// drops it. Defaults to TRAWL_TEST_POSTGRES, which `scripts/test-postgres.sh trawl bench
    /// fleet ...` sets to a private cluster of its own.
    #[arg(long)]
    pub postgres: Option<String>,
    /// Simulated forums served on loopback, one server each.
    #[arg(long, default_value_t = 20)]
    pub forums: usize,
    /// Their families, taken in turn (comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "phpbb,vbulletin,smf,xenforo,discourse,tablecraft,discuz,yabb"
    )]
    pub families: Vec<String>,
    /// Their size: small, medium or large.
    #[arg(long, default_value = "small")]
    pub scale: String,
    /// Time each server waits before answering, in milliseconds.
    #[arg(long, default_value_t = 20)]
    pub latency_ms: u64,
    /// The politeness delay given to every crawler, in milliseconds.
    #[arg(long, default_value_t = 50)]
    pub delay_ms: u64,
    /// Pages sampled to learn each forum's plan.
    #[arg(long, default_value_t = 60)]
    pub samples: usize,
    /// Fleet sizes, in worker processes (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [1, 2, 4, 8])]
    pub workers: Vec<usize>,
    /// How many one-process-per-forum crawls run at once for the baseline rows
    /// (comma-separated; 0 alone for no baseline).
    #[arg(long, value_delimiter = ',', default_values_t = [1, 8])]
    pub baseline: Vec<usize>,
    /// Where the baseline's SQLite files and every process's log go.
    #[arg(long, default_value = "target/bench-fleet")]
    pub scratch: PathBuf,
    /// Run the fault benchmark instead: the fleet (of the largest --workers count) once
    /// undisturbed and once with workers killed, the database restarted and a connection
    /// dropped, compared forum by forum.
    #[arg(long)]
    pub faults: bool,
    /// With --faults: workers killed with SIGKILL (each replaced at once).
    #[arg(long, default_value_t = 3)]
    pub kills: usize,
    /// With --faults: worker connections the database drops (pg_terminate_backend).
    #[arg(long, default_value_t = 1)]
    pub dropped_connections: usize,
    /// With --faults: a shell command restarting the database as a crash would, run once.
    /// Defaults to TRAWL_TEST_POSTGRES_RESTART, which scripts/test-postgres.sh sets; without
    /// either, the database is not restarted.
    #[arg(long)]
    pub restart_command: Option<String>,
    /// With --faults: the seed choosing the faults' moments and victims.
    #[arg(long, default_value_t = 1)]
    pub fault_seed: u64,
    /// With --faults: the workers' lease in seconds (a killed worker's sites wait this long).
    #[arg(long, default_value_t = 10)]
    pub lease_seconds: u64,
    /// With --faults: pages a worker crawls under one lease. By default a whole crawl, so that
    /// only the faults end leases and the two runs differ by the faults alone.
    #[arg(long, default_value_t = 1_000_000)]
    pub pages_per_lease: usize,
}

pub fn run(args: FleetBenchArgs) -> Result<()> {
    let postgres = match args.postgres.clone() {
        Some(url) => url,
        None => std::env::var("TRAWL_TEST_POSTGRES").context(
            "give --postgres a server URL, or run the benchmark through \
             scripts/test-postgres.sh, which starts a private PostgreSQL and sets \
             TRAWL_TEST_POSTGRES",
        )?,
    };
    let mut families = Vec::with_capacity(args.families.len());
    for name in &args.families {
        let Some(family) = FamilyName::parse(name.trim()) else {
            bail!("unknown family {name:?} (see `trawl sim families`)");
        };
        families.push(family);
    }
    let Some(scale) = Scale::parse(&args.scale) else {
        bail!("--scale is small, medium or large, not {:?}", args.scale);
    };
    if args.workers.contains(&0) {
        bail!("--workers counts worker processes: each at least 1");
    }
    let config = FleetBenchConfig {
        program: std::env::current_exe().context("cannot find this program's own path")?,
        postgres,
        scratch: args.scratch.clone(),
        forums: args.forums,
        families,
        scale,
        latency: Duration::from_millis(args.latency_ms),
        delay: Duration::from_millis(args.delay_ms),
        samples: args.samples,
        worker_counts: args.workers.clone(),
        baseline_counts: args
            .baseline
            .iter()
            .copied()
            .filter(|&count| count > 0)
            .collect(),
    };
    if args.faults {
        let plan = FaultPlan {
            workers: args.workers.iter().copied().max().unwrap_or(1),
            kills: args.kills,
            restart_command: args
                .restart_command
                .clone()
                .or_else(|| std::env::var("TRAWL_TEST_POSTGRES_RESTART").ok()),
            dropped_connections: args.dropped_connections,
            seed: args.fault_seed,
            lease_seconds: args.lease_seconds,
            pages_per_lease: args.pages_per_lease,
        };
        let report = run_fault_bench(&config, &plan, |line| eprintln!("{line}"))?;
        print_faults(&args, &plan, &report);
        if !report.passes() {
            bail!("the fleet did not come through the faults intact (see above)");
        }
        return Ok(());
    }
    let runs = run_fleet_bench(&config, |line| eprintln!("{line}"))?;
    println!(
        "{} {} forums, {} ms latency, {} ms delay, {} samples",
        args.forums, args.scale, args.latency_ms, args.delay_ms, args.samples
    );
    println!();
    print_table(&runs);
    Ok(())
}

/// The runs as docs/BENCHMARKS.md's table, in the columns `trawl-eval` names and formats.
fn print_table(runs: &[FleetRun]) {
    println!("| {} |", RUN_COLUMNS.join(" | "));
    println!("|{}", "---|".repeat(RUN_COLUMNS.len()));
    for run in runs {
        println!("| {} |", run.cells().join(" | "));
    }
}

fn print_faults(args: &FleetBenchArgs, plan: &FaultPlan, report: &FaultsReport) {
    println!(
        "{} {} forums, {} ms latency, {} ms delay, {} samples; {} workers, leases of {} s and {} \
         pages, fault seed {}",
        args.forums,
        args.scale,
        args.latency_ms,
        args.delay_ms,
        args.samples,
        plan.workers,
        plan.lease_seconds,
        plan.pages_per_lease,
        plan.seed
    );
    println!();
    print_table(&[report.undisturbed.clone(), report.faulty.clone()]);
    println!();
    println!("| | undisturbed | with faults |");
    println!("|---|---|---|");
    println!(
        "| faults | - | {} workers killed, {} database restart(s), {} connection(s) dropped |",
        report.workers_killed, report.database_restarts, report.connections_dropped
    );
    println!(
        "| forums complete | {}/{} | {}/{} |",
        report.undisturbed.forums_complete,
        report.undisturbed.forums,
        report.faulty.forums_complete,
        report.faulty.forums
    );
    println!(
        "| forums stored as undisturbed (export and pages) | - | {}/{} |",
        report.forums_matching, report.faulty.forums
    );
    println!(
        "| posts exported | {} | {} |",
        report.posts_undisturbed, report.posts_faulty
    );
    println!(
        "| pages stored | {} | {} |",
        report.pages_undisturbed, report.pages_faulty
    );
    println!(
        "| requests repeated beyond the undisturbed run's | - | {} (leases interrupted: {}) |",
        report.extra_repeated_requests, report.leases_interrupted
    );
    for difference in &report.differences {
        println!("- {difference}");
    }
    for extra in &report.extra_repeated_paths {
        println!("- asked again: {extra}");
    }
    println!(
        "{}",
        if report.passes() {
            "passed: nothing lost, nothing stored twice, no page asked again beyond one per \
             interrupted lease"
        } else {
            "FAILED"
        }
    );
}
