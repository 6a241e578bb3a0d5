//! The fleet benchmark (issue 22's first bar): many simulated forums served on loopback, crawled
//! by 1, 2, 4, 8 `trawl worker` processes sharing one PostgreSQL database, against today's way,
//! one `trawl crawl` process per forum with as many running at once.
//!
//! Every forum is its own server with a per-request latency, so that a run waits on the network
//! as a real one does rather than on this machine's cores. The figures are counted at the
//! servers, not taken from the crawlers' word: how many requests each forum received, how many
//! asked again for a URL already asked for, the most requests one forum was answering at once,
//! and the shortest time between two requests arriving at one forum, to be held against the
//! politeness delay the crawlers were given.
//!
//! The harness runs the crawlers as separate processes of the program it is given (the
//! command-line program passes its own path), as a fleet runs on many machines: a worker shares
//! nothing with another but the database. It needs a PostgreSQL server whose user may create
//! databases (`scripts/test-postgres.sh` starts a private one); each fleet run gets a new
//! database, dropped afterwards.

pub mod week;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use trawl_sim::{FamilyName, Scale, Site, SiteConfig, Traps};
use trawl_sim_server::{LoggedRequest, RequestLog, ServeOptions, ServerClock, SimServer};

use crate::{EvalError, Result};

mod faults;
pub use faults::{FaultPlan, FaultsReport, run_fault_bench};

/// What to run.
#[derive(Debug, Clone)]
pub struct FleetBenchConfig {
    /// The `trawl` program whose `worker` and `crawl` commands are measured.
    pub program: PathBuf,
    /// A PostgreSQL server URL whose user may create databases (the database it names is only
    /// connected to, to create and drop the runs' own).
    pub postgres: String,
    /// A directory for the baseline's SQLite files and every process's log.
    pub scratch: PathBuf,
    /// How many forums.
    pub forums: usize,
    /// Their families, taken in turn; the seed goes up by one each round of families.
    pub families: Vec<FamilyName>,
    /// Their size.
    pub scale: Scale,
    /// Time each server waits before answering.
    pub latency: Duration,
    /// The politeness delay the crawlers are given (`--delay-ms`).
    pub delay: Duration,
    /// Pages sampled to learn each forum's plan (`--samples`).
    pub samples: usize,
    /// Fleet sizes to run, in worker processes.
    pub worker_counts: Vec<usize>,
    /// How many one-process-per-forum crawls run at once, for the baseline rows (none: no
    /// baseline).
    pub baseline_counts: Vec<usize>,
}

/// Which way the forums were crawled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrawlMode {
    /// `trawl worker` processes on one PostgreSQL database.
    Fleet,
    /// One `trawl crawl` process per forum, each with its own SQLite file.
    ProcessPerForum,
}

impl CrawlMode {
    /// How the table names it.
    pub fn name(self) -> &'static str {
        match self {
            CrawlMode::Fleet => "fleet (trawl worker, PostgreSQL)",
            CrawlMode::ProcessPerForum => "one trawl crawl per forum (SQLite)",
        }
    }
}

/// What one run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetRun {
    /// How the forums were crawled.
    pub mode: CrawlMode,
    /// Worker processes, or crawl processes running at once.
    pub processes: usize,
    /// Forums in the run.
    pub forums: usize,
    /// Forums whose crawl ended complete (a fleet's site given back as done, a crawl process
    /// that exited successfully).
    pub forums_complete: usize,
    /// Processes that exited with a failure.
    pub processes_failed: usize,
    /// Wall time from the first process started to the last one ended.
    pub seconds: f64,
    /// Complete forums per hour of wall time.
    pub forums_per_hour: f64,
    /// Requests the servers received, in all.
    pub requests: usize,
    /// Requests for a URL the same server had been asked for before in this run, robots.txt
    /// aside (each process, and each lease, reads it once).
    pub repeated_requests: usize,
    /// The most requests one server was answering at the same moment.
    pub most_in_flight_per_forum: usize,
    /// The shortest time between two requests arriving at one server, in milliseconds.
    pub shortest_gap_ms: Option<f64>,
    /// Pairs of consecutive requests to one server that arrived less than the delay apart.
    pub gaps_below_delay: usize,
}

/// One forum served for the benchmark.
struct ServedForum {
    server: SimServer,
    log: Arc<RequestLog>,
    portal: String,
}

/// Serves the forums, then runs the fleet at each size and the baseline at each count, one run
/// after another on the same servers (their logs cleared between runs). `progress` hears what
/// starts and what each run measured.
pub fn run_fleet_bench(
    config: &FleetBenchConfig,
    mut progress: impl FnMut(&str),
) -> Result<Vec<FleetRun>> {
    if config.families.is_empty() || config.forums == 0 {
        return Err(EvalError::Server(
            "the fleet benchmark needs at least one forum and one family".to_string(),
        ));
    }
    let forums = serve_in_scratch(config, &mut progress)?;
    let mut runs = Vec::new();
    for &workers in &config.worker_counts {
        progress(&format!("fleet of {workers} worker processes"));
        let run = run_fleet(config, &forums, workers)?;
        progress(&describe(&run));
        runs.push(run);
    }
    for &at_once in &config.baseline_counts {
        progress(&format!("one crawl process per forum, {at_once} at once"));
        let run = run_process_per_forum(config, &forums, at_once)?;
        progress(&describe(&run));
        runs.push(run);
    }
    for forum in forums {
        forum.server.stop();
    }
    Ok(runs)
}

/// The names of a run's figures, in the order of [`FleetRun::cells`]: the columns of
/// docs/BENCHMARKS.md's table.
pub const RUN_COLUMNS: [&str; 11] = [
    "crawled by",
    "processes",
    "forums complete",
    "seconds",
    "forums/hour",
    "requests",
    "repeated requests",
    "most in flight on a forum",
    "shortest gap",
    "gaps below delay",
    "processes failed",
];

impl FleetRun {
    /// The run's figures written out, in the order of [`RUN_COLUMNS`]: the one place they are
    /// formatted, for the progress lines and the table alike.
    pub fn cells(&self) -> [String; 11] {
        [
            self.mode.name().to_string(),
            self.processes.to_string(),
            format!("{}/{}", self.forums_complete, self.forums),
            format!("{:.1}", self.seconds),
            format!("{:.0}", self.forums_per_hour),
            self.requests.to_string(),
            self.repeated_requests.to_string(),
            self.most_in_flight_per_forum.to_string(),
            self.shortest_gap_ms
                .map_or("-".to_string(), |gap| format!("{gap:.1} ms")),
            self.gaps_below_delay.to_string(),
            self.processes_failed.to_string(),
        ]
    }
}

/// A one-line account of a run, for progress output: each figure after its name.
pub fn describe(run: &FleetRun) -> String {
    RUN_COLUMNS
        .iter()
        .zip(run.cells())
        .map(|(column, cell)| format!("{column}: {cell}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Makes the benchmark's scratch directory and serves its forums, saying so.
fn serve_in_scratch(
    config: &FleetBenchConfig,
    progress: &mut impl FnMut(&str),
) -> Result<Vec<ServedForum>> {
    std::fs::create_dir_all(&config.scratch).map_err(|source| EvalError::File {
        action: "create",
        path: config.scratch.clone(),
        source,
    })?;
    progress(&format!(
        "building and serving {} {} forums",
        config.forums,
        config.scale.name()
    ));
    serve_forums(config)
}

fn serve_forums(config: &FleetBenchConfig) -> Result<Vec<ServedForum>> {
    let mut forums = Vec::with_capacity(config.forums);
    for index in 0..config.forums {
        let family = config.families[index % config.families.len()];
        let seed = 1 + (index / config.families.len()) as u64;
        let site = Arc::new(Site::build(SiteConfig {
            family,
            seed,
            scale: config.scale,
            traps: Traps::all(),
        }));
        let end = trawl_model::Timestamp::from_second(site.history().end)?;
        let log = Arc::new(RequestLog::default());
        let portal_path = site.portal_path();
        let server = SimServer::start_with(
            site,
            ServerClock::Fixed(end).into_clock(),
            "127.0.0.1:0",
            1,
            ServeOptions {
                latency: config.latency,
                log: Some(log.clone()),
            },
        )
        .map_err(|error| EvalError::Server(error.to_string()))?;
        let portal = url::Url::parse(&format!("{}{portal_path}", server.origin()))?.to_string();
        forums.push(ServedForum {
            server,
            log,
            portal,
        });
    }
    Ok(forums)
}

/// The flags both ways of crawling share, so that they are compared at equal politeness.
fn politeness_arguments(config: &FleetBenchConfig) -> Vec<String> {
    vec![
        "--delay-ms".to_string(),
        config.delay.as_millis().to_string(),
        "--samples".to_string(),
        config.samples.to_string(),
    ]
}

/// The arguments of one `trawl worker --until-idle` of a benchmark run on `database_url`.
fn worker_arguments(
    config: &FleetBenchConfig,
    database_url: &str,
    lease_seconds: u64,
    pages_per_lease: usize,
) -> Vec<String> {
    let mut arguments = vec![
        "worker".to_string(),
        "--db".to_string(),
        database_url.to_string(),
        "--until-idle".to_string(),
        // The benchmark measures crawls: a complete site is given back due after the revisit
        // time, which is how the harness tells it is done, rather than watched.
        "--no-keep-fresh".to_string(),
        "--pages-per-lease".to_string(),
        pages_per_lease.to_string(),
        "--lease-seconds".to_string(),
        lease_seconds.to_string(),
        "--revisit-hours".to_string(),
        "24".to_string(),
        // A crawl that failed (its connection dropped under it) is tried again at once rather
        // than an hour later, so that a run with faults ends when the work is done.
        "--retry-minutes".to_string(),
        "0".to_string(),
    ];
    arguments.extend(politeness_arguments(config));
    arguments
}

/// Sites given back as done: a site whose crawl ended is given back due after the revisit time
/// (a day); one whose crawl failed, at once.
fn complete_sites(sites: &[trawl_fleet::SiteStatus]) -> usize {
    sites
        .iter()
        .filter(|site| site.due_in_seconds > 12.0 * 3600.0)
        .count()
}

fn run_fleet(
    config: &FleetBenchConfig,
    forums: &[ServedForum],
    workers: usize,
) -> Result<FleetRun> {
    for forum in forums {
        forum.log.clear();
    }
    let database = Database::create(&config.postgres, &format!("fleet_{workers}"))?;
    let mut fleet =
        trawl_fleet::Fleet::connect(&database.url).map_err(|error| fleet_error(&error))?;
    let portals: Vec<String> = forums.iter().map(|forum| forum.portal.clone()).collect();
    fleet
        .add_sites(&portals)
        .map_err(|error| fleet_error(&error))?;
    let started = Instant::now();
    let mut children = Vec::with_capacity(workers);
    for index in 0..workers {
        // A whole crawl in one lease, as one process per forum crawls it.
        let arguments = worker_arguments(config, &database.url, 600, 1_000_000);
        let log = config
            .scratch
            .join(format!("fleet-{workers}-worker-{index}.log"));
        children.push(spawn(&config.program, &arguments, &log)?);
    }
    let mut processes_failed = 0;
    for mut child in children {
        let status = child.wait().map_err(|source| EvalError::File {
            action: "wait for a worker of",
            path: config.program.clone(),
            source,
        })?;
        if !status.success() {
            processes_failed += 1;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let forums_complete = complete_sites(&fleet.status().map_err(|error| fleet_error(&error))?);
    drop(fleet);
    database.drop_it()?;
    Ok(measure(
        config,
        forums,
        CrawlMode::Fleet,
        workers,
        forums_complete,
        processes_failed,
        seconds,
    ))
}

fn run_process_per_forum(
    config: &FleetBenchConfig,
    forums: &[ServedForum],
    at_once: usize,
) -> Result<FleetRun> {
    for forum in forums {
        forum.log.clear();
    }
    let directory = config.scratch.join(format!("process-per-forum-{at_once}"));
    empty_directory(&directory)?;
    let started = Instant::now();
    let mut waiting: Vec<(usize, &ServedForum)> = forums.iter().enumerate().rev().collect();
    let mut running: Vec<Child> = Vec::new();
    let mut forums_complete = 0;
    let mut processes_failed = 0;
    while !waiting.is_empty() || !running.is_empty() {
        while running.len() < at_once.max(1) {
            let Some((index, forum)) = waiting.pop() else {
                break;
            };
            let mut arguments = vec![
                "crawl".to_string(),
                forum.portal.clone(),
                "--db".to_string(),
                directory
                    .join(format!("forum-{index}.sqlite"))
                    .display()
                    .to_string(),
                // One page-analysis thread, as a worker's crawl has.
                "--workers".to_string(),
                "1".to_string(),
            ];
            arguments.extend(politeness_arguments(config));
            let log = directory.join(format!("forum-{index}.log"));
            running.push(spawn(&config.program, &arguments, &log)?);
        }
        let mut still_running = Vec::with_capacity(running.len());
        for mut child in running {
            match child.try_wait().map_err(|source| EvalError::File {
                action: "wait for a crawl of",
                path: config.program.clone(),
                source,
            })? {
                Some(status) if status.success() => forums_complete += 1,
                Some(_) => processes_failed += 1,
                None => still_running.push(child),
            }
        }
        running = still_running;
        std::thread::sleep(Duration::from_millis(20));
    }
    let seconds = started.elapsed().as_secs_f64();
    Ok(measure(
        config,
        forums,
        CrawlMode::ProcessPerForum,
        at_once,
        forums_complete,
        processes_failed,
        seconds,
    ))
}

fn spawn(program: &Path, arguments: &[String], log: &Path) -> Result<Child> {
    let log_file = std::fs::File::create(log).map_err(|source| EvalError::File {
        action: "create",
        path: log.to_path_buf(),
        source,
    })?;
    Command::new(program)
        .args(arguments)
        .stdout(Stdio::null())
        .stderr(log_file)
        .spawn()
        .map_err(|source| EvalError::File {
            action: "run",
            path: program.to_path_buf(),
            source,
        })
}

fn measure(
    config: &FleetBenchConfig,
    forums: &[ServedForum],
    mode: CrawlMode,
    processes: usize,
    forums_complete: usize,
    processes_failed: usize,
    seconds: f64,
) -> FleetRun {
    let mut tally = ServerTally::default();
    for forum in forums {
        tally.add(
            &forum.log.requests(),
            forum.log.most_in_flight(),
            config.delay,
        );
    }
    FleetRun {
        mode,
        processes,
        forums: forums.len(),
        forums_complete,
        processes_failed,
        seconds,
        forums_per_hour: forums_complete as f64 / seconds * 3600.0,
        requests: tally.requests,
        repeated_requests: tally.repeated_requests,
        most_in_flight_per_forum: tally.most_in_flight,
        shortest_gap_ms: tally.shortest_gap.map(|gap| gap.as_secs_f64() * 1000.0),
        gaps_below_delay: tally.gaps_below_delay,
    }
}

/// The servers' requests summed over forums.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ServerTally {
    /// Requests in all.
    pub requests: usize,
    /// Requests for a URL asked for before at the same forum, robots.txt aside.
    pub repeated_requests: usize,
    /// The most in flight at one forum.
    pub most_in_flight: usize,
    /// The shortest time between two arrivals at one forum.
    pub shortest_gap: Option<Duration>,
    /// Consecutive arrivals at one forum closer than the delay.
    pub gaps_below_delay: usize,
}

impl ServerTally {
    /// Adds one forum's requests and the most it had in flight.
    pub fn add(&mut self, requests: &[LoggedRequest], most_in_flight: usize, delay: Duration) {
        self.requests += requests.len();
        self.most_in_flight = self.most_in_flight.max(most_in_flight);
        let mut times_asked: HashMap<&str, usize> = HashMap::new();
        for request in requests {
            if request.path_and_query != "/robots.txt" {
                let asked = times_asked.entry(&request.path_and_query).or_default();
                if *asked > 0 {
                    self.repeated_requests += 1;
                }
                *asked += 1;
            }
        }
        let mut arrivals: Vec<Instant> = requests.iter().map(|request| request.arrived).collect();
        arrivals.sort();
        for pair in arrivals.windows(2) {
            let gap = pair[1] - pair[0];
            if gap < delay {
                self.gaps_below_delay += 1;
            }
            self.shortest_gap = Some(self.shortest_gap.map_or(gap, |shortest| shortest.min(gap)));
        }
    }
}

fn fleet_error(error: &trawl_fleet::FleetError) -> EvalError {
    EvalError::Server(format!("the fleet's database: {error}"))
}

/// A database made for one run on the benchmark's PostgreSQL server.
struct Database {
    server: String,
    name: String,
    url: String,
}

impl Database {
    fn create(server: &str, purpose: &str) -> Result<Database> {
        let name = format!("trawl_bench_{purpose}_{}", std::process::id());
        let mut client = connect(server)?;
        // Two statements apart: several in one batch run as one transaction, and PostgreSQL
        // creates and drops databases only outside transactions.
        for statement in [
            format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            format!("CREATE DATABASE {name}"),
        ] {
            client
                .batch_execute(&statement)
                .map_err(|error| database_error(server, &error))?;
        }
        Ok(Database {
            url: with_database(server, &name),
            server: server.to_string(),
            name,
        })
    }

    fn drop_it(self) -> Result<()> {
        let mut client = connect(&self.server)?;
        client
            .batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ))
            .map_err(|error| database_error(&self.server, &error))
    }
}

fn connect(server: &str) -> Result<postgres::Client> {
    postgres::Client::connect(server, postgres::NoTls)
        .map_err(|error| database_error(server, &error))
}

fn database_error(server: &str, error: &postgres::Error) -> EvalError {
    // The client's own message for a refusal is only "db error"; the server's reason is in it.
    let reason = error.as_db_error().map_or_else(
        || error.to_string(),
        |refusal| refusal.message().to_string(),
    );
    EvalError::Server(format!(
        "the PostgreSQL server {} failed: {reason}",
        trawl_store::StoreLocation::parse(server)
    ))
}

/// `url` naming the database `name` instead of its own, query kept.
fn with_database(url: &str, name: &str) -> String {
    let (before_query, query) = match url.split_once('?') {
        Some((before, query)) => (before, Some(query)),
        None => (url, None),
    };
    let scheme_end = before_query.find("://").map_or(0, |at| at + 3);
    let server = match before_query[scheme_end..].find('/') {
        Some(slash) => &before_query[..scheme_end + slash],
        None => before_query,
    };
    match query {
        Some(query) => format!("{server}/{name}?{query}"),
        None => format!("{server}/{name}"),
    }
}

/// Makes `directory` exist and hold nothing, so a run never reads what an earlier one left.
pub(crate) fn empty_directory(directory: &std::path::Path) -> Result<()> {
    if directory.exists() {
        std::fs::remove_dir_all(directory).map_err(|source| EvalError::File {
            action: "empty",
            path: directory.to_path_buf(),
            source,
        })?;
    }
    std::fs::create_dir_all(directory).map_err(|source| EvalError::File {
        action: "create",
        path: directory.to_path_buf(),
        source,
    })?;
    Ok(())
}

#[cfg(test)]
mod tests;
