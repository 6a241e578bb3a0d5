//! A fault test of the fleet, alone in its test binary because it restarts the test cluster
//! (`scripts/test-postgres.sh` names the command in `TRAWL_TEST_POSTGRES_RESTART`), which would
//! break the connections of any test running beside it.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::{serve, text, trawl};
use trawl_store::test_support::fresh_database;

fn json_lines(arguments: &[&str]) -> Vec<serde_json::Value> {
    let output = trawl(arguments);
    assert!(output.status.success(), "{}", text(&output.stderr));
    text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// The pages `trawl fleet status` shows for the only site of `database`; `None` while the
/// server does not answer.
fn stored_pages(database: &str) -> Option<i64> {
    let output = trawl(&["fleet", "status", "--db", database, "--json"]);
    if !output.status.success() {
        return None;
    }
    let line = text(&output.stdout);
    let status: serde_json::Value = serde_json::from_str(line.lines().next()?).ok()?;
    status["pages"].as_i64()
}

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
    let added = trawl(&["fleet", "add", &portal, "--db", &database]);
    assert!(added.status.success(), "{}", text(&added.stderr));

    // Ten milliseconds between requests keep the crawl going for seconds after the restart.
    let mut worker = Command::new(env!("CARGO_BIN_EXE_trawl"))
        .args([
            "worker",
            "--db",
            &database,
            "--until-idle",
            "--samples",
            "200",
        ])
        .args(["--lease-seconds", "4", "--delay-ms", "10"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while stored_pages(&database).unwrap_or(0) < 40 {
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

    let directory =
        std::env::temp_dir().join(format!("trawl-fleet-restart-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let file = directory.join("one.db");
    let file = file.to_str().unwrap();
    let crawled = trawl(&[
        "crawl",
        &portal,
        "--db",
        file,
        "--samples",
        "200",
        "--delay-ms",
        "0",
    ]);
    assert!(crawled.status.success(), "{}", text(&crawled.stderr));
    assert_eq!(
        json_lines(&["export", "--db", &database, "threads"]),
        json_lines(&["export", "--db", file, "threads"])
    );
    assert!(Path::new(file).exists());
    server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}
