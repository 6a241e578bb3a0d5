//! A fault test of the fleet, alone in its test binary because it restarts the test cluster
//! (`scripts/test-postgres.sh` names the command in `TRAWL_TEST_POSTGRES_RESTART`), which would
//! break the connections of any test running beside it.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::{add_to_fleet, fleet_pages, json_lines, scratch, serve, text, threads_of_one_crawl};
use trawl_store::test_support::fresh_database;

/// PostgreSQL restarted as after a crash while a worker crawls: the worker connects again,
/// takes its site back when its own lease (lost with the connection) expires, and finishes a
/// crawl that exports what an uninterrupted crawl into a file exports.
#[test]
fn a_worker_goes_on_after_the_database_restarts_mid_crawl() {
    let restart = std::env::var("TRAWL_TEST_POSTGRES_RESTART").unwrap_or_else(|_| {
        panic!(
            "TRAWL_TEST_POSTGRES_RESTART is not set: run the tests through \
             scripts/test-postgres.sh"
        )
    });
    let database = fresh_database();
    let (server, site) = serve("vbulletin", 3);
    let portal = format!("{}{}", server.origin(), site.portal_path());
    add_to_fleet(&database, &[&portal]);

    // Ten milliseconds between requests keep the crawl going for seconds after the restart.
    let mut worker = Command::new(env!("CARGO_BIN_EXE_trawl"))
        .args([
            "worker",
            "--db",
            &database,
            "--until-idle",
            "--no-keep-fresh",
            "--samples",
            "200",
        ])
        .args(["--lease-seconds", "4", "--delay-ms", "10"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while fleet_pages(&database).unwrap_or(0) < 40 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the worker stored no pages"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        worker.try_wait().unwrap().is_none(),
        "the worker ended before the restart"
    );
    let restarted = Command::new("sh").args(["-c", &restart]).output().unwrap();
    assert!(restarted.status.success(), "{}", text(&restarted.stderr));

    let finished = worker.wait_with_output().unwrap();
    let log = text(&finished.stderr);
    assert!(finished.status.success(), "{log}");
    assert!(
        log.contains("connecting again"),
        "the restart went unnoticed: {log}"
    );
    let status = json_lines(&["fleet", "status", "--db", &database, "--json"]);
    assert!(
        status[0]["lease_epoch"].as_i64().unwrap() >= 2,
        "{status:?}"
    );

    let directory = scratch("fleet-restart", "restart");
    assert_eq!(
        json_lines(&["export", "--db", &database, "threads"]),
        threads_of_one_crawl(&portal, &directory)
    );
    server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}
