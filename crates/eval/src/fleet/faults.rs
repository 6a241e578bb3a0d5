//! The fleet's fault tests as a benchmark (issue 22): the same forums crawled twice by a fleet
//! of workers, once undisturbed and once while workers are killed with SIGKILL at random
//! moments, the database server is restarted as after a crash, and a worker's connection is
//! dropped by the server; then the two runs are compared forum by forum.
//!
//! The undisturbed run is the reference rather than the simulator's truth, because the question
//! is whether faults lose or double anything, not how well a crawl covers a forum: every forum's
//! export (its threads and their posts) and its stored page count must be what the undisturbed
//! run stored. The servers count the requests of both runs, and the faulty run may ask again
//! only for what a fault interrupted: one page in flight for each lease a fault broke (a killed
//! worker's, every lease held when the database restarted, the lease of the dropped connection).
//! Requests a run repeats by itself (the undisturbed run's own repeats) are not charged to the
//! faults.
//!
//! The moments of the faults are drawn from a seed, as fractions of the undisturbed run's
//! duration, so that two runs with one seed strike at comparable points of the work.

use std::collections::HashMap;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use super::{
    CrawlMode, Database, FleetBenchConfig, FleetRun, ServedForum, complete_sites, connect,
    database_error, fleet_error, measure, spawn, worker_arguments,
};
use crate::{EvalError, Result};

/// The faults to inflict, and the fleet to inflict them on.
#[derive(Debug, Clone)]
pub struct FaultPlan {
    /// Worker processes running at once (a killed one is replaced at once).
    pub workers: usize,
    /// Workers killed with SIGKILL, each at a moment of its own.
    pub kills: usize,
    /// A shell command restarting the database server as a crash would (`pg_ctl restart -m
    /// immediate`), run once mid-run; `None` for no restart.
    pub restart_command: Option<String>,
    /// Worker connections the server drops (`pg_terminate_backend`), each at a moment of its own.
    pub dropped_connections: usize,
    /// Chooses the moments and the victims.
    pub seed: u64,
    /// The workers' `--lease-seconds`: how long a killed worker's sites wait for a successor.
    pub lease_seconds: u64,
    /// The workers' `--pages-per-lease`.
    pub pages_per_lease: usize,
}

/// What the two runs measured and how they compare.
#[derive(Debug, Clone, PartialEq)]
pub struct FaultsReport {
    /// The run without faults.
    pub undisturbed: FleetRun,
    /// The run with faults.
    pub faulty: FleetRun,
    /// Workers killed with SIGKILL.
    pub workers_killed: usize,
    /// Times the database server was restarted.
    pub database_restarts: usize,
    /// Connections the database server dropped.
    pub connections_dropped: usize,
    /// Leases a fault broke: the killed workers' leases, every lease held when the database
    /// restarted, and one for each dropped connection.
    pub leases_interrupted: usize,
    /// Forums whose export and stored page count equal the undisturbed run's.
    pub forums_matching: usize,
    /// The forums that differ, with what differs, for the log.
    pub differences: Vec<String>,
    /// Posts in the exports of the undisturbed run, summed over forums.
    pub posts_undisturbed: usize,
    /// The same for the faulty run.
    pub posts_faulty: usize,
    /// Pages stored by the undisturbed run, summed over forums.
    pub pages_undisturbed: i64,
    /// The same for the faulty run.
    pub pages_faulty: i64,
    /// Requests the faulty run made for a URL it had asked for before, beyond the repeats of
    /// that URL in the undisturbed run, summed over forums (robots.txt aside).
    pub extra_repeated_requests: usize,
    /// Those requests, as `forum N: PATH xK` (K extra) with the seconds into the faulty run
    /// each request for the path arrived at and the forum's plan was stored at, for the log:
    /// set beside the moments of the faults, they tell what each repeat followed.
    pub extra_repeated_paths: Vec<String>,
}

impl FaultsReport {
    /// Whether the faulty run lost nothing, stored nothing twice, and asked again for no more
    /// pages than the faults interrupted.
    pub fn passes(&self) -> bool {
        self.forums_matching == self.faulty.forums
            && self.faulty.forums_complete == self.faulty.forums
            && self.extra_repeated_requests <= self.leases_interrupted
    }
}

/// Serves the forums, runs the fleet undisturbed and then with the faults of `plan`, and
/// compares the two. `progress` hears what starts and each fault as it strikes.
pub fn run_fault_bench(
    config: &FleetBenchConfig,
    plan: &FaultPlan,
    mut progress: impl FnMut(&str),
) -> Result<FaultsReport> {
    if config.families.is_empty() || config.forums == 0 || plan.workers == 0 {
        return Err(EvalError::Server(
            "the fault benchmark needs at least one forum, one family and one worker".to_string(),
        ));
    }
    let forums = super::serve_in_scratch(config, &mut progress)?;
    progress(&format!("undisturbed fleet of {} workers", plan.workers));
    let undisturbed = run_with_faults(config, &forums, plan, None, &mut progress)?;
    progress(&super::describe(&undisturbed.run));
    let moments = fault_moments(plan, Duration::from_secs_f64(undisturbed.run.seconds));
    progress(&format!("the same fleet with {} faults", moments.len()));
    let faulty = run_with_faults(config, &forums, plan, Some(moments), &mut progress)?;
    progress(&super::describe(&faulty.run));
    for forum in forums {
        forum.server.stop();
    }
    Ok(compare(undisturbed, faulty))
}

/// One fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    KillWorker,
    RestartDatabase,
    DropConnection,
}

/// The faults of `plan` at seeded moments between a tenth and seven tenths of `duration` (the
/// undisturbed run's), in the order they strike, with a seeded number for choosing a victim.
fn fault_moments(plan: &FaultPlan, duration: Duration) -> Vec<(Duration, Fault, u64)> {
    let mut random = SplitMix(plan.seed);
    let mut faults = Vec::new();
    faults.extend(std::iter::repeat_n(Fault::KillWorker, plan.kills));
    if plan.restart_command.is_some() {
        faults.push(Fault::RestartDatabase);
    }
    faults.extend(std::iter::repeat_n(
        Fault::DropConnection,
        plan.dropped_connections,
    ));
    let mut moments: Vec<(Duration, Fault, u64)> = faults
        .into_iter()
        .map(|fault| {
            let fraction = 0.1 + 0.6 * random.unit();
            (duration.mul_f64(fraction), fault, random.next())
        })
        .collect();
    moments.sort_by_key(|(at, _, _)| *at);
    moments
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a fixed function of its state, so a seed names the
/// same faults in every build.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A fleet run, with what it stored, and the faults it suffered.
struct RunOutcome {
    run: FleetRun,
    /// Per forum (in serving order): the export's lines and the pages stored.
    stored: Vec<(Vec<String>, i64)>,
    /// Per forum: how many times each path was asked for.
    asked: Vec<HashMap<String, usize>>,
    /// Per forum: the seconds into the run each request for a path arrived at.
    arrivals: Vec<HashMap<String, Vec<f64>>>,
    /// Per forum: the seconds into the run its crawl began (its plan stored), when it did.
    plan_stored: Vec<Option<f64>>,
    struck: Struck,
}

/// The faults that struck a run, counted as they strike.
#[derive(Debug, Default)]
struct Struck {
    workers_killed: usize,
    database_restarts: usize,
    connections_dropped: usize,
    leases_interrupted: usize,
}

/// How long a run may take at most: a run whose workers hang is stopped, its workers counted as
/// failed, and reported incomplete rather than waited for for ever.
const LONGEST_RUN: Duration = Duration::from_secs(4 * 3600);

fn run_with_faults(
    config: &FleetBenchConfig,
    forums: &[ServedForum],
    plan: &FaultPlan,
    faults: Option<Vec<(Duration, Fault, u64)>>,
    progress: &mut impl FnMut(&str),
) -> Result<RunOutcome> {
    for forum in forums {
        forum.log.clear();
    }
    let disturbed = faults.is_some();
    let purpose = if disturbed { "faults" } else { "undisturbed" };
    let database = Database::create(&config.postgres, purpose)?;
    let mut fleet =
        trawl_fleet::Fleet::connect(&database.url).map_err(|error| fleet_error(&error))?;
    let portals: Vec<String> = forums.iter().map(|forum| forum.portal.clone()).collect();
    fleet
        .add_sites(&portals)
        .map_err(|error| fleet_error(&error))?;
    // The harness's own connection would break at the restart; each look opens a new one.
    drop(fleet);
    let arguments = worker_arguments(
        config,
        &database.url,
        plan.lease_seconds,
        plan.pages_per_lease,
    );
    let mut spawned = 0;
    let mut start_worker = || -> Result<Child> {
        let log = config
            .scratch
            .join(format!("faults-{purpose}-worker-{spawned}.log"));
        spawned += 1;
        spawn(&config.program, &arguments, &log)
    };
    let started = Instant::now();
    // The crawl's start instant is stored on the wall clock; this pairs it with `started`.
    let started_on_the_wall = trawl_model::Clock::now(&trawl_model::SystemClock);
    let mut running = Vec::with_capacity(plan.workers);
    for _ in 0..plan.workers {
        running.push(start_worker()?);
    }
    let mut pending = faults.unwrap_or_default().into_iter().peekable();
    let mut struck = Struck::default();
    let mut processes_failed = 0;
    while !running.is_empty() {
        if started.elapsed() > LONGEST_RUN {
            for mut child in running.drain(..) {
                let _ = child.kill();
                let _ = child.wait();
                processes_failed += 1;
            }
            break;
        }
        while let Some(&(at, fault, choice)) = pending.peek() {
            if started.elapsed() < at {
                break;
            }
            pending.next();
            let happened = strike(fault, choice, &database, plan, &mut running, &mut struck)?;
            if fault == Fault::KillWorker && happened {
                running.push(start_worker()?);
            }
            progress(&format!(
                "{:.1} s: {} ({} leases interrupted so far)",
                started.elapsed().as_secs_f64(),
                match fault {
                    Fault::KillWorker if happened => "killed a worker with SIGKILL",
                    Fault::RestartDatabase if happened => "restarted the database server",
                    Fault::DropConnection if happened => "dropped a worker's connection",
                    _ => "nothing to strike",
                },
                struck.leases_interrupted
            ));
        }
        let mut still_running = Vec::with_capacity(running.len());
        for mut child in running {
            match child.try_wait().map_err(|source| EvalError::File {
                action: "wait for a worker of",
                path: config.program.clone(),
                source,
            })? {
                Some(status) if !status.success() => processes_failed += 1,
                Some(_) => {}
                None => still_running.push(child),
            }
        }
        running = still_running;
        std::thread::sleep(Duration::from_millis(20));
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut fleet =
        trawl_fleet::Fleet::connect(&database.url).map_err(|error| fleet_error(&error))?;
    let sites = fleet.status().map_err(|error| fleet_error(&error))?;
    drop(fleet);
    let forums_complete = complete_sites(&sites);
    let pages: HashMap<&str, i64> = sites
        .iter()
        .map(|site| (site.site.as_str(), site.pages))
        .collect();
    let crawls_begun = crawl_start_instants(&database)?;
    let mut stored = Vec::with_capacity(forums.len());
    let mut asked_by_forum = Vec::with_capacity(forums.len());
    let mut arrivals_by_forum = Vec::with_capacity(forums.len());
    let mut plan_stored = Vec::with_capacity(forums.len());
    for forum in forums {
        let export = export_threads(config, &database.url, &forum.portal)?;
        stored.push((
            export,
            pages.get(forum.portal.as_str()).copied().unwrap_or(0),
        ));
        let mut asked: HashMap<String, usize> = HashMap::new();
        let mut arrivals: HashMap<String, Vec<f64>> = HashMap::new();
        for request in forum.log.requests() {
            let second = request
                .arrived
                .saturating_duration_since(started)
                .as_secs_f64();
            arrivals
                .entry(request.path_and_query.clone())
                .or_default()
                .push(second);
            *asked.entry(request.path_and_query).or_default() += 1;
        }
        asked_by_forum.push(asked);
        arrivals_by_forum.push(arrivals);
        plan_stored.push(
            crawls_begun
                .get(&forum.portal)
                .map(|begun| begun.duration_since(started_on_the_wall).as_secs_f64()),
        );
    }
    database.drop_it()?;
    let run = measure(
        config,
        forums,
        CrawlMode::Fleet,
        plan.workers,
        forums_complete,
        processes_failed,
        seconds,
    );
    Ok(RunOutcome {
        run,
        stored,
        asked: asked_by_forum,
        arrivals: arrivals_by_forum,
        plan_stored,
        struck,
    })
}

/// The instant each site's crawl began (its plan stored), by portal, as the store keeps it.
fn crawl_start_instants(database: &Database) -> Result<HashMap<String, jiff::Timestamp>> {
    let mut client = connect(&database.url)?;
    let rows = client
        .query(
            "SELECT sites.url, meta.value FROM meta JOIN sites ON sites.id = meta.site \
             WHERE meta.key = 'started_at'",
            &[],
        )
        .map_err(|error| database_error(&database.url, &error))?;
    Ok(rows
        .iter()
        .filter_map(|row| {
            let portal: String = row.get(0);
            let begun: String = row.get(1);
            Some((portal, begun.parse().ok()?))
        })
        .collect())
}

/// Inflicts one fault; false when there was nothing to strike (no worker left, no connection).
fn strike(
    fault: Fault,
    choice: u64,
    database: &Database,
    plan: &FaultPlan,
    running: &mut Vec<Child>,
    outcome: &mut Struck,
) -> Result<bool> {
    match fault {
        Fault::KillWorker => {
            if running.is_empty() {
                return Ok(false);
            }
            let mut victim = running.remove((choice % running.len() as u64) as usize);
            // The leases it holds are read just before the kill: a worker holds a lease from
            // its claim until it gives it back, and a SIGKILL gives nothing back.
            let holder = format!("worker-{}-", victim.id());
            let held = leases_held(database, |name| name.starts_with(&holder));
            let _ = victim.kill();
            let _ = victim.wait();
            outcome.workers_killed += 1;
            outcome.leases_interrupted += held;
            Ok(true)
        }
        Fault::RestartDatabase => {
            let Some(command) = &plan.restart_command else {
                return Ok(false);
            };
            let held = leases_held(database, |_| true);
            let restarted =
                Command::new("sh")
                    .args(["-c", command])
                    .output()
                    .map_err(|source| EvalError::File {
                        action: "run the restart command",
                        path: "sh".into(),
                        source,
                    })?;
            if !restarted.status.success() {
                return Err(EvalError::Server(format!(
                    "the database restart command failed: {}",
                    String::from_utf8_lossy(&restarted.stderr)
                )));
            }
            outcome.database_restarts += 1;
            outcome.leases_interrupted += held;
            Ok(true)
        }
        Fault::DropConnection => {
            // Right after the restart the server may still be recovering; a refused look is
            // nothing to strike.
            let Ok(mut client) = connect(&database.server) else {
                return Ok(false);
            };
            let backends: Vec<i32> = client
                .query(
                    "SELECT pid FROM pg_stat_activity WHERE datname = $1 \
                     AND backend_type = 'client backend' AND pid <> pg_backend_pid() \
                     ORDER BY pid",
                    &[&database.name],
                )
                .map_err(|error| database_error(&database.server, &error))?
                .iter()
                .map(|row| row.get(0))
                .collect();
            if backends.is_empty() {
                return Ok(false);
            }
            let victim = backends[(choice % backends.len() as u64) as usize];
            client
                .execute("SELECT pg_terminate_backend($1)", &[&victim])
                .map_err(|error| database_error(&database.server, &error))?;
            outcome.connections_dropped += 1;
            // A connection serves one worker thread, which holds one lease at a time.
            outcome.leases_interrupted += 1;
            Ok(true)
        }
    }
}

/// Leases held by the holders `chosen` names, as the database says at this moment (none when
/// it cannot be asked, as while it restarts).
fn leases_held(database: &Database, chosen: impl Fn(&str) -> bool) -> usize {
    let Ok(mut fleet) = trawl_fleet::Fleet::connect(&database.url) else {
        return 0;
    };
    fleet.status().map_or(0, |sites| {
        sites
            .iter()
            .filter(|site| site.lease_holder.as_deref().is_some_and(&chosen))
            .count()
    })
}

/// The lines of `trawl export --db DATABASE --site PORTAL threads`.
fn export_threads(config: &FleetBenchConfig, database: &str, portal: &str) -> Result<Vec<String>> {
    let output = Command::new(&config.program)
        .args(["export", "--db", database, "--site", portal, "threads"])
        .output()
        .map_err(|source| EvalError::File {
            action: "run",
            path: config.program.clone(),
            source,
        })?;
    if !output.status.success() {
        return Err(EvalError::Server(format!(
            "exporting {portal} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect())
}

/// Posts in an export's lines (one thread a line, its posts in a `posts` array).
fn posts_in(export: &[String]) -> usize {
    export
        .iter()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .map(|thread| thread["posts"].as_array().map_or(0, Vec::len))
        .sum()
}

/// Requests for a path beyond its first, beyond those the reference run made too, summed over
/// paths (robots.txt aside: each process and each lease reads it once).
pub(super) fn extra_repeats(
    reference: &HashMap<String, usize>,
    disturbed: &HashMap<String, usize>,
) -> usize {
    extra_repeats_by_path(reference, disturbed)
        .iter()
        .map(|(_, extra)| extra)
        .sum()
}

/// The paths behind [`extra_repeats`], with how many extra requests each got, sorted by path.
fn extra_repeats_by_path<'a>(
    reference: &HashMap<String, usize>,
    disturbed: &'a HashMap<String, usize>,
) -> Vec<(&'a str, usize)> {
    let mut extra: Vec<(&str, usize)> = disturbed
        .iter()
        .filter(|(path, _)| path.as_str() != "/robots.txt")
        .map(|(path, &times)| {
            let repeats = times.saturating_sub(1);
            let reference_repeats = reference
                .get(path)
                .map_or(0, |times| times.saturating_sub(1));
            (path.as_str(), repeats.saturating_sub(reference_repeats))
        })
        .filter(|(_, extra)| *extra > 0)
        .collect();
    extra.sort();
    extra
}

fn compare(undisturbed: RunOutcome, faulty: RunOutcome) -> FaultsReport {
    let mut forums_matching = 0;
    let mut differences = Vec::new();
    for (index, (reference, disturbed)) in undisturbed.stored.iter().zip(&faulty.stored).enumerate()
    {
        if reference == disturbed {
            forums_matching += 1;
            continue;
        }
        differences.push(format!(
            "forum {index}: {} threads, {} posts, {} pages undisturbed; {} threads, {} posts, {} \
             pages with faults",
            reference.0.len(),
            posts_in(&reference.0),
            reference.1,
            disturbed.0.len(),
            posts_in(&disturbed.0),
            disturbed.1
        ));
    }
    let extra_repeated_requests = undisturbed
        .asked
        .iter()
        .zip(&faulty.asked)
        .map(|(reference, disturbed)| extra_repeats(reference, disturbed))
        .sum();
    let mut extra_repeated_paths = Vec::new();
    for (index, (reference, disturbed)) in undisturbed.asked.iter().zip(&faulty.asked).enumerate() {
        for (path, extra) in extra_repeats_by_path(reference, disturbed) {
            let arrivals = faulty.arrivals[index]
                .get(path)
                .map_or(String::new(), |seconds| {
                    let seconds: Vec<String> = seconds
                        .iter()
                        .map(|second| format!("{second:.1}"))
                        .collect();
                    seconds.join(", ")
                });
            let plan_stored = faulty.plan_stored[index]
                .map_or("never".to_string(), |second| format!("at {second:.1} s"));
            extra_repeated_paths.push(format!(
                "forum {index}: {path} x{extra} (asked at {arrivals} s; plan stored {plan_stored})"
            ));
        }
    }
    FaultsReport {
        posts_undisturbed: undisturbed
            .stored
            .iter()
            .map(|(export, _)| posts_in(export))
            .sum(),
        posts_faulty: faulty
            .stored
            .iter()
            .map(|(export, _)| posts_in(export))
            .sum(),
        pages_undisturbed: undisturbed.stored.iter().map(|(_, pages)| pages).sum(),
        pages_faulty: faulty.stored.iter().map(|(_, pages)| pages).sum(),
        undisturbed: undisturbed.run,
        workers_killed: faulty.struck.workers_killed,
        database_restarts: faulty.struck.database_restarts,
        connections_dropped: faulty.struck.connections_dropped,
        leases_interrupted: faulty.struck.leases_interrupted,
        forums_matching,
        differences,
        faulty: faulty.run,
        extra_repeated_requests,
        extra_repeated_paths,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::time::Duration;

    use super::{Fault, FaultPlan, extra_repeats, fault_moments};

    fn asked(paths: &[(&str, usize)]) -> HashMap<String, usize> {
        paths
            .iter()
            .map(|(path, times)| (path.to_string(), *times))
            .collect()
    }

    fn check_extra(reference: &[(&str, usize)], disturbed: &[(&str, usize)], expected: usize) {
        assert_eq!(
            extra_repeats(&asked(reference), &asked(disturbed)),
            expected,
            "{reference:?} against {disturbed:?}"
        );
    }

    #[test]
    fn only_repeats_beyond_the_reference_runs_are_extra() {
        check_extra(&[("/", 1), ("/t/1", 1)], &[("/", 1), ("/t/1", 1)], 0);
        check_extra(&[("/", 1), ("/t/1", 1)], &[("/", 1), ("/t/1", 2)], 1);
        check_extra(&[("/t/1", 2)], &[("/t/1", 2)], 0);
        check_extra(&[("/t/1", 2)], &[("/t/1", 4)], 2);
        // Fewer repeats than the reference made are no credit for another page's.
        check_extra(&[("/a", 3), ("/b", 1)], &[("/a", 1), ("/b", 2)], 1);
        // A page the reference never asked for, asked twice, is one extra.
        check_extra(&[], &[("/new", 2)], 1);
        check_extra(&[("/robots.txt", 1)], &[("/robots.txt", 5)], 0);
    }

    fn plan(kills: usize, restart: bool, dropped: usize, seed: u64) -> FaultPlan {
        FaultPlan {
            workers: 2,
            kills,
            restart_command: restart.then(|| "true".to_string()),
            dropped_connections: dropped,
            seed,
            lease_seconds: 10,
            pages_per_lease: 100,
        }
    }

    #[test]
    fn faults_strike_in_order_within_the_middle_of_the_run() {
        let duration = Duration::from_secs(100);
        for (kills, restart, dropped) in [(0, false, 0), (3, true, 1), (1, false, 2), (5, true, 0)]
        {
            let moments = fault_moments(&plan(kills, restart, dropped, 7), duration);
            assert_eq!(moments.len(), kills + usize::from(restart) + dropped);
            let count = |wanted: Fault| moments.iter().filter(|(_, f, _)| *f == wanted).count();
            assert_eq!(count(Fault::KillWorker), kills);
            assert_eq!(count(Fault::RestartDatabase), usize::from(restart));
            assert_eq!(count(Fault::DropConnection), dropped);
            for pair in moments.windows(2) {
                assert!(pair[0].0 <= pair[1].0, "{moments:?}");
            }
            for (at, _, _) in &moments {
                assert!(
                    (Duration::from_secs(10)..=Duration::from_secs(70)).contains(at),
                    "{moments:?}"
                );
            }
        }
    }

    #[test]
    fn a_seed_names_the_same_moments_and_another_seed_others() {
        let duration = Duration::from_secs(100);
        let first = fault_moments(&plan(3, true, 1, 1), duration);
        assert_eq!(first, fault_moments(&plan(3, true, 1, 1), duration));
        assert_ne!(first, fault_moments(&plan(3, true, 1, 2), duration));
    }
}
