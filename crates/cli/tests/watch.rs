//! `trawl watch` run as a user runs it: after `trawl crawl` of a simulated forum served over
//! loopback, it opens the crawl's database, says what it watches and prints its status line.
//! (The watch's fetching, storing and resuming are tested in `trawl-watch`, on an accelerated
//! clock; here the wall clock would make a test wait for the schedule.) It runs with the crawl
//! in a file and in PostgreSQL.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

mod support;
use support::{serve, trawl};
use trawl_store::test_support::fresh_database;

#[test]
fn watch_opens_a_crawls_database_and_prints_its_status() {
    let directory =
        std::env::temp_dir().join(format!("trawl-cli-watch-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let file = directory.join("crawl.db");
    check_watch(file.to_str().unwrap());
    check_watch(&fresh_database());
    let _ = std::fs::remove_dir_all(&directory);
}

/// Crawls a simulated forum into `db`, then watches it until the first status line.
fn check_watch(db: &str) {
    let (server, site) = serve("phpbb", 2);
    let portal = format!("{}{}", server.origin(), site.portal_path());
    let output = trawl(&[
        "crawl",
        &portal,
        "--db",
        db,
        "--samples",
        "150",
        "--delay-ms",
        "0",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let mut child = Command::new(env!("CARGO_BIN_EXE_trawl"))
        .args([
            "watch",
            &portal,
            "--db",
            db,
            "--budget",
            "3000/day",
            "--delay-ms",
            "0",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (lines_sender, lines) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if lines_sender.send(line).is_err() {
                return;
            }
        }
    });
    let mut seen: Vec<String> = Vec::new();
    while !seen.iter().any(|line| line.contains(" fetched (")) {
        match lines.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => seen.push(line),
            Err(_) => break,
        }
    }
    // The watch runs until it is stopped; stopping it is a kill, which it is made for.
    child.kill().unwrap();
    child.wait().unwrap();
    let boards = site.history().board_count() as usize;
    let opening = seen
        .iter()
        .find(|line| line.starts_with("watching "))
        .unwrap_or_else(|| panic!("no opening line: {seen:?}"));
    let lists: usize = opening["watching ".len()..]
        .split(' ')
        .next()
        .and_then(|count| count.parse().ok())
        .unwrap();
    assert!(lists > boards, "{opening}");
    assert!(
        opening.contains("at 3000/day with the trawl policy"),
        "{opening}"
    );
    let status = seen
        .iter()
        .find(|line| line.contains(" fetched ("))
        .unwrap_or_else(|| panic!("no status line: {seen:?}"));
    for part in ["new posts", "next:", "backlog", "threads with news"] {
        assert!(status.contains(part), "{part}: {status}");
    }
    // The database is still a crawl that exports.
    let output = trawl(&["export", "--db", db, "threads"]);
    assert!(output.status.success());
    assert!(!output.stdout.is_empty(), "{db}");
    server.stop();
}
