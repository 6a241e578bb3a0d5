//! `trawl bench fleet`: parses the benchmark's flags, runs `trawl-eval`'s fleet harness with this
//! program as the workers and crawlers it measures, and prints the table for docs/BENCHMARKS.md.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use trawl_eval::fleet::{FleetBenchConfig, FleetRun, RUN_COLUMNS, run_fleet_bench};
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
