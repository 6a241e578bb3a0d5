//! `trawl sim browse-log` and `trawl patterns`, run as a user runs them: a simulated forum's
//! server log in, a pattern tree with its figures and a patterns file out.

use std::process::Output;

mod support;
use support::{serve, trawl};

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A scratch directory of this test process, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("trawl-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&path).expect("scratch directory");
        Scratch(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes a browse log of `family`, learns patterns from it, and checks that the tree names
/// each kind of page in `expected_patterns` and that the patterns file reads back.
fn check(family: &str, expected_patterns: &[&str]) {
    let scratch = Scratch::new(&format!("patterns-{family}"));
    let log = trawl(&[
        "sim",
        "browse-log",
        "--family",
        family,
        "--seed",
        "4",
        "--users",
        "40",
        "--days",
        "8",
    ]);
    assert!(log.status.success(), "{}", stderr(&log));
    let log_path = scratch.0.join("access.log");
    // A tenth of torn lines, as a log rotated mid-write has: counted, never fatal.
    let mut text = String::new();
    let mut torn = 0;
    for (index, line) in stdout(&log).lines().enumerate() {
        text.push_str(line);
        text.push('\n');
        if index % 9 == 8 {
            text.push_str(&line[..line.len() / 2]);
            text.push('\n');
            torn += 1;
        }
    }
    std::fs::write(&log_path, text).expect("log written");
    let out_path = scratch.0.join("patterns.json");
    let output = trawl(&[
        "patterns",
        log_path.to_str().expect("path"),
        "--out",
        out_path.to_str().expect("path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    assert!(
        printed.contains(&format!("{torn} malformed")),
        "{family}: {torn} torn lines not reported:\n{printed}"
    );
    for pattern in expected_patterns {
        assert!(
            printed
                .lines()
                .any(|line| line.trim_start().starts_with(pattern)),
            "{family}: no pattern {pattern} in:\n{printed}"
        );
    }
    let model = trawl_behaviour::PatternModel::from_json(
        &std::fs::read_to_string(&out_path).expect("patterns file"),
    )
    .expect("patterns file reads back");
    assert_eq!(model.report.malformed, torn);
}

#[test]
fn patterns_of_simulated_server_logs() {
    check(
        "phpbb",
        &["/index.php ", "/viewforum.php?f={n} ", "/memberlist.php?"],
    );
    check("xenforo", &["/ "]);
}

#[test]
fn browse_log_refuses_days_outside_the_history() {
    let output = trawl(&[
        "sim",
        "browse-log",
        "--family",
        "phpbb",
        "--days",
        "2",
        "--from",
        "1999-01-01",
    ]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("outside the forum's history"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn behaviour_order_needs_patterns_and_patterns_need_the_order() {
    for arguments in [
        &["--order", "behaviour"][..],
        &["--patterns", "patterns.json"][..],
    ] {
        let mut all = vec!["crawl", "http://127.0.0.1:9/", "--db", "unused.db"];
        all.extend_from_slice(arguments);
        let output = trawl(&all);
        assert!(!output.status.success());
        assert!(
            stderr(&output).contains("--order behaviour"),
            "{}",
            stderr(&output)
        );
        assert!(!std::path::Path::new("unused.db").exists());
    }
}

/// Valuable pages (by the simulator's truth) among the pages a crawl stored.
fn valuable_pages(site: &trawl_sim::Site, db: &std::path::Path) -> usize {
    let output = trawl(&["export", "--db", db.to_str().expect("path"), "pages"]);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("a JSON line"))
        .filter(|page| {
            let url = page["url"].as_str().expect("a url");
            let path = &url[url.find("://").map_or(0, |at| at + 3)..];
            let path = &path[path.find('/').unwrap_or(path.len())..];
            site.classify(path, site.history().end).class == trawl_sim::PageClass::Valuable
        })
        .count()
}

/// Learns patterns from a simulated browse log of phpBB seed 2 into `scratch`; returns the
/// patterns file.
fn phpbb_patterns(scratch: &Scratch) -> std::path::PathBuf {
    let log = trawl(&[
        "sim",
        "browse-log",
        "--family",
        "phpbb",
        "--seed",
        "2",
        "--users",
        "60",
        "--days",
        "20",
    ]);
    assert!(log.status.success(), "{}", stderr(&log));
    let log_path = scratch.0.join("access.log");
    std::fs::write(&log_path, &log.stdout).expect("log written");
    let patterns = scratch.0.join("patterns.json");
    let output = trawl(&[
        "patterns",
        log_path.to_str().expect("path"),
        "--out",
        patterns.to_str().expect("path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    patterns
}

#[test]
fn a_crawl_ordered_by_behaviour_fetches_more_valuable_pages_early() {
    let (server, site) = serve("phpbb", 2);
    let scratch = Scratch::new("behaviour-crawl");
    let patterns = phpbb_patterns(&scratch);
    let portal = format!("{}{}", server.origin(), site.portal_path());
    let mut valuable = Vec::new();
    for order in ["queue", "behaviour"] {
        let db = scratch.0.join(format!("{order}.db"));
        let mut arguments = vec![
            "crawl",
            &portal,
            "--db",
            db.to_str().expect("path"),
            "--strategy",
            "bfs",
            "--max-pages",
            "60",
            "--delay-ms",
            "0",
            "--order",
            order,
        ];
        if order == "behaviour" {
            arguments.extend(["--patterns", patterns.to_str().expect("path")]);
        }
        let output = trawl(&arguments);
        assert!(output.status.success(), "{}", stderr(&output));
        valuable.push(valuable_pages(&site, &db));
    }
    assert!(
        valuable[1] as f64 >= 1.3 * valuable[0] as f64,
        "valuable pages in 60 fetches: queue order {}, behaviour {}",
        valuable[0],
        valuable[1]
    );
}

/// The URLs a crawl stored, in fetch order.
fn fetched_urls(db: &std::path::Path) -> Vec<String> {
    let output = trawl(&["export", "--db", db.to_str().expect("path"), "pages"]);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
        .lines()
        .map(|line| {
            let page: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            page["url"].as_str().expect("a url").to_string()
        })
        .collect()
}

#[test]
fn a_resumed_crawl_keeps_the_order_and_patterns_it_began_with() {
    let (server, site) = serve("phpbb", 2);
    let scratch = Scratch::new("behaviour-resume");
    let patterns = phpbb_patterns(&scratch);
    let portal = format!("{}{}", server.origin(), site.portal_path());
    let crawl = |db: &std::path::Path, pages: &str, order: &[&str]| {
        let mut arguments = vec![
            "crawl",
            &portal,
            "--db",
            db.to_str().expect("path"),
            "--strategy",
            "bfs",
            "--max-pages",
            pages,
            "--delay-ms",
            "0",
            "--workers",
            "1",
        ];
        arguments.extend_from_slice(order);
        trawl(&arguments)
    };
    let ordered = [
        "--order",
        "behaviour",
        "--patterns",
        patterns.to_str().expect("path"),
    ];
    let whole = scratch.0.join("whole.db");
    let output = crawl(&whole, "60", &ordered);
    assert!(output.status.success(), "{}", stderr(&output));

    // The same crawl stopped halfway, its patterns file gone, resumed without naming an order.
    let moved = scratch.0.join("moved.json");
    std::fs::copy(&patterns, &moved).expect("patterns copied");
    let halves = scratch.0.join("halves.db");
    let output = crawl(
        &halves,
        "30",
        &[
            "--order",
            "behaviour",
            "--patterns",
            moved.to_str().expect("path"),
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::remove_file(&moved).expect("patterns removed");
    let output = crawl(&halves, "60", &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("in behaviour order"),
        "{}",
        stderr(&output)
    );
    // The same pages as the crawl never stopped (the order among pages of equal score may
    // differ around the stop: the crawler's list-page grouping in flight is not stored).
    let sorted = |mut urls: Vec<String>| {
        urls.sort();
        urls
    };
    assert_eq!(sorted(fetched_urls(&halves)), sorted(fetched_urls(&whole)));

    // Naming the same order and patterns again is fine; another order or other patterns are
    // refused, saying which order the crawl holds.
    let output = crawl(&halves, "61", &ordered);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = crawl(&halves, "62", &["--order", "queue"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("ordered by behaviour, not by queue"),
        "{}",
        stderr(&output)
    );
    let other = scratch.0.join("other.json");
    let text = std::fs::read_to_string(&patterns).expect("patterns");
    let mut model: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    model["users"] = serde_json::json!(1);
    std::fs::write(&other, model.to_string()).expect("other patterns written");
    let output = crawl(
        &halves,
        "62",
        &[
            "--order",
            "behaviour",
            "--patterns",
            other.to_str().expect("path"),
        ],
    );
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("other patterns"),
        "{}",
        stderr(&output)
    );
    assert_eq!(fetched_urls(&halves).len(), 61);

    // A crawl begun in queue order resumes in it, and fetches other pages than the ordered one
    // (which is what makes the comparison above tell a kept order from a lost one).
    let queued = scratch.0.join("queued.db");
    let output = crawl(&queued, "30", &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = crawl(&queued, "60", &[]);
    assert!(
        stderr(&output).contains("in queue order"),
        "{}",
        stderr(&output)
    );
    assert_ne!(sorted(fetched_urls(&queued)), sorted(fetched_urls(&whole)));
}
