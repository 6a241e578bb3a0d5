//! What the binary's test files share: running `trawl`, a simulated forum on loopback, and
//! scratch directories. Each test file uses part of it, so what one file leaves unused is no
//! dead code.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

/// Runs the `trawl` binary as a user would and waits for it.
pub fn trawl(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trawl"))
        .args(arguments)
        .output()
        .expect("trawl runs")
}

/// A small simulated forum frozen at the end of its history, served on loopback for the
/// duration of a test, with the site it serves.
pub fn serve(family: &str, seed: u64) -> (trawl_sim_server::SimServer, Arc<trawl_sim::Site>) {
    let (server, site, _) = serve_logged(family, seed);
    (server, site)
}

/// [`serve`], with the log of every request the server receives.
pub fn serve_logged(
    family: &str,
    seed: u64,
) -> (
    trawl_sim_server::SimServer,
    Arc<trawl_sim::Site>,
    Arc<trawl_sim_server::RequestLog>,
) {
    let family = trawl_sim::FamilyName::parse(family).expect("a known family");
    serve_site(trawl_sim::Site::build(trawl_sim::SiteConfig::new(
        family,
        seed,
        trawl_sim::Scale::Small,
    )))
}

/// [`serve_logged`] of a site built with options beyond its family.
pub fn serve_site(
    site: trawl_sim::Site,
) -> (
    trawl_sim_server::SimServer,
    Arc<trawl_sim::Site>,
    Arc<trawl_sim_server::RequestLog>,
) {
    let site = Arc::new(site);
    let at = jiff::Timestamp::from_second(site.history().end).expect("a valid instant");
    let clock = trawl_sim_server::ServerClock::Fixed(at).into_clock();
    let log = Arc::new(trawl_sim_server::RequestLog::default());
    let options = trawl_sim_server::ServeOptions {
        log: Some(Arc::clone(&log)),
        ..trawl_sim_server::ServeOptions::default()
    };
    let server = trawl_sim_server::SimServer::start_with(
        Arc::clone(&site),
        clock,
        "127.0.0.1:0",
        2,
        options,
    )
    .expect("the server starts");
    (server, site, log)
}

/// Paths the server was asked for more than once (robots.txt aside), each with how often.
pub fn repeated_paths(log: &trawl_sim_server::RequestLog) -> Vec<(String, usize)> {
    let mut times: std::collections::BTreeMap<String, usize> = Default::default();
    for request in log.requests() {
        if request.path_and_query != "/robots.txt" {
            *times.entry(request.path_and_query).or_default() += 1;
        }
    }
    times.into_iter().filter(|(_, times)| *times > 1).collect()
}

/// The JSON lines a successful `trawl` run printed.
pub fn json_lines(arguments: &[&str]) -> Vec<serde_json::Value> {
    let output = trawl(arguments);
    assert!(output.status.success(), "{}", text(&output.stderr));
    text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// Registers `portals` with the fleet in `database`.
pub fn add_to_fleet(database: &str, portals: &[&str]) -> Output {
    let mut arguments = vec!["fleet", "add"];
    arguments.extend_from_slice(portals);
    arguments.extend(["--db", database]);
    let added = trawl(&arguments);
    assert!(added.status.success(), "{}", text(&added.stderr));
    added
}

/// The pages `trawl fleet status` shows for the only site of `database`; `None` while the
/// database does not answer.
pub fn fleet_pages(database: &str) -> Option<i64> {
    let output = trawl(&["fleet", "status", "--db", database, "--json"]);
    if !output.status.success() {
        return None;
    }
    let line = text(&output.stdout);
    let status: serde_json::Value = serde_json::from_str(line.lines().next()?).ok()?;
    status["pages"].as_i64()
}

/// The threads one uninterrupted `trawl crawl` of `portal` into a file under `directory`
/// exports: what a fleet's crawl of the same forum must export too.
pub fn threads_of_one_crawl(portal: &str, directory: &Path) -> Vec<serde_json::Value> {
    let file = directory.join("one.db");
    trawl_store::remove_database_files(&file);
    let crawled = trawl(&[
        "crawl",
        portal,
        "--db",
        path(&file),
        "--samples",
        "200",
        "--delay-ms",
        "0",
    ]);
    assert!(crawled.status.success(), "{}", text(&crawled.stderr));
    let threads = json_lines(&["export", "--db", path(&file), "threads"]);
    trawl_store::remove_database_files(&file);
    threads
}

/// The text of a process's output.
/// Learns a plan of `portal` from `samples` pages, without delay, into the file `plan`, and
/// fails the test when learning fails.
pub fn learn_plan(portal: &str, samples: u32, plan: &Path) {
    let samples = samples.to_string();
    let learned = trawl(&[
        "learn",
        portal,
        "--samples",
        &samples,
        "--delay-ms",
        "0",
        "--out",
        path(plan),
    ]);
    assert!(learned.status.success(), "{}", text(&learned.stderr));
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A path as the `&str` a command line takes.
pub fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// A directory of its own for test `name` of test file `file`, emptied first.
pub fn scratch(file: &str, name: &str) -> PathBuf {
    let directory =
        std::env::temp_dir().join(format!("trawl-{file}-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}
