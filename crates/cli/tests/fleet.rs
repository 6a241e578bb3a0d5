//! `trawl fleet add`, `trawl worker` and `trawl fleet status` against simulated forums served
//! over loopback HTTP and a database of the test cluster (`scripts/test-postgres.sh`).

use std::path::{Path, PathBuf};

mod support;
use support::{serve, trawl};
use trawl_store::test_support::fresh_database;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// A directory of its own for one test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let directory =
        std::env::temp_dir().join(format!("trawl-fleet-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

/// The JSON lines a successful `trawl` run printed.
fn json_lines(arguments: &[&str]) -> Vec<serde_json::Value> {
    let output = trawl(arguments);
    assert!(output.status.success(), "{}", text(&output.stderr));
    text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// Two forums registered with a fleet, crawled by one worker of two threads in leases of a few
/// pages each (so each crawl is resumed many times, by whichever thread claims it next): each
/// forum's threads are what one uninterrupted crawl of it into a file exports.
#[test]
fn workers_crawl_every_registered_forum_in_leases_as_one_crawl_would() {
    let directory = scratch("workers");
    let database = fresh_database();
    let (first_server, first_site) = serve("phpbb", 2);
    let (second_server, second_site) = serve("smf", 1);
    let first = format!("{}{}", first_server.origin(), first_site.portal_path());
    let second = format!("{}{}", second_server.origin(), second_site.portal_path());

    let added = trawl(&["fleet", "add", &first, &second, "--db", &database]);
    assert!(added.status.success(), "{}", text(&added.stderr));
    assert!(
        text(&added.stdout).contains("added 2 of 2"),
        "{}",
        text(&added.stdout)
    );
    let again = trawl(&["fleet", "add", &first, "--db", &database]);
    assert!(
        text(&again.stdout).contains("added 0 of 1"),
        "{}",
        text(&again.stdout)
    );

    let worker = trawl(&[
        "worker",
        "--db",
        &database,
        "--concurrency",
        "2",
        "--until-idle",
        "--pages-per-lease",
        "25",
        "--samples",
        "200",
        "--delay-ms",
        "0",
    ]);
    assert!(worker.status.success(), "{}", text(&worker.stderr));

    let status = json_lines(&["fleet", "status", "--db", &database, "--json"]);
    assert_eq!(status.len(), 2, "{status:?}");
    for site in &status {
        assert!(site["pages"].as_i64().unwrap() > 25, "{site}");
        assert!(site["lease_holder"].is_null(), "{site}");
        assert!(site["due_in_seconds"].as_f64().unwrap() > 3600.0, "{site}");
        assert!(site["lease_epoch"].as_i64().unwrap() > 1, "{site}");
        assert_eq!(site["strategy"], "plan", "{site}");
    }
    let shown = trawl(&["fleet", "status", "--db", &database]);
    for portal in [&first, &second] {
        assert!(
            text(&shown.stdout).contains(portal.as_str()),
            "{}",
            text(&shown.stdout)
        );
    }

    for portal in [&first, &second] {
        let file = directory.join("one.db");
        let _ = std::fs::remove_file(&file);
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
        let from_file = json_lines(&["export", "--db", path(&file), "threads"]);
        let from_fleet = json_lines(&["export", "--db", &database, "--site", portal, "threads"]);
        assert!(!from_file.is_empty());
        assert_eq!(from_fleet, from_file, "{portal}");
        trawl_store::remove_database_files(&file);
    }

    // Nothing is due now: another worker finds no work and stops.
    let idle = trawl(&[
        "worker",
        "--db",
        &database,
        "--until-idle",
        "--delay-ms",
        "0",
    ]);
    assert!(idle.status.success(), "{}", text(&idle.stderr));
    assert!(text(&idle.stderr).is_empty(), "{}", text(&idle.stderr));

    first_server.stop();
    second_server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_fleet_is_refused_a_file() {
    for arguments in [
        &["fleet", "add", "http://forum.test/", "--db", "forums.db"][..],
        &["fleet", "status", "--db", "forums.db"][..],
        &["worker", "--db", "forums.db"][..],
    ] {
        let output = trawl(arguments);
        assert_eq!(output.status.code(), Some(1), "{arguments:?}");
        assert!(
            text(&output.stderr).contains("a fleet lives in PostgreSQL"),
            "{arguments:?}: {}",
            text(&output.stderr)
        );
        assert!(!Path::new("forums.db").exists());
    }
}
