//! `trawl fleet add`, `trawl worker` and `trawl fleet status` against simulated forums served
//! over loopback HTTP and a database of the test cluster (`scripts/test-postgres.sh`).

use std::path::Path;

mod support;
use support::{
    add_to_fleet, fleet_pages, json_lines, repeated_paths, scratch, serve, serve_logged, text,
    threads_of_one_crawl, trawl,
};
use trawl_store::test_support::fresh_database;

/// Two forums registered with a fleet, crawled by one worker of two threads in leases of a few
/// pages each (so each crawl is resumed many times, by whichever thread claims it next): each
/// forum's threads are what one uninterrupted crawl of it into a file exports.
#[test]
fn workers_crawl_every_registered_forum_in_leases_as_one_crawl_would() {
    let directory = scratch("fleet", "workers");
    let database = fresh_database();
    let (first_server, first_site) = serve("phpbb", 2);
    let (second_server, second_site) = serve("smf", 1);
    let first = format!("{}{}", first_server.origin(), first_site.portal_path());
    let second = format!("{}{}", second_server.origin(), second_site.portal_path());

    let added = add_to_fleet(&database, &[&first, &second]);
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
        "--no-keep-fresh",
        "--pages-per-lease",
        "25",
        "--samples",
        "200",
        "--delay-ms",
        "0",
    ]);
    assert!(worker.status.success(), "{}", text(&worker.stderr));
    // Each crawl that ran dry was audited and its gaps asked for, as `trawl crawl` does.
    assert_eq!(
        text(&worker.stderr)
            .matches("crawl complete (closing gaps:")
            .count(),
        2,
        "{}",
        text(&worker.stderr)
    );

    let status = json_lines(&["fleet", "status", "--db", &database, "--json"]);
    assert_eq!(status.len(), 2, "{status:?}");
    for site in &status {
        // The audit after each crawl is kept for the status to show.
        assert!(site["audit_gaps"].as_i64().is_some(), "{status:?}");
        assert!(site["posts_missing"].as_i64().is_some(), "{status:?}");
    }
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
        let from_file = threads_of_one_crawl(portal, &directory);
        let from_fleet = json_lines(&["export", "--db", &database, "--site", portal, "threads"]);
        assert!(!from_file.is_empty());
        assert_eq!(from_fleet, from_file, "{portal}");
    }

    // Nothing is due now: another worker finds no work and stops.
    let idle = trawl(&[
        "worker",
        "--db",
        &database,
        "--until-idle",
        "--no-keep-fresh",
        "--delay-ms",
        "0",
    ]);
    assert!(idle.status.success(), "{}", text(&idle.stderr));
    assert!(text(&idle.stderr).is_empty(), "{}", text(&idle.stderr));

    first_server.stop();
    second_server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}

/// A worker learning a forum's plan and crawling it in one lease fetches each page once: the
/// pages it sampled answer the crawl's first requests for them (only the portal is asked twice,
/// by the sampler, as a returning visitor sees it), and the store keeps no sample once the
/// crawl has ended.
#[test]
fn a_worker_fetches_each_page_once_and_keeps_no_samples_once_the_crawl_ended() {
    let database = fresh_database();
    let (server, site, log) = serve_logged("phpbb", 1);
    let portal = format!("{}{}", server.origin(), site.portal_path());
    add_to_fleet(&database, &[&portal]);
    let worker = trawl(&[
        "worker",
        "--db",
        &database,
        "--until-idle",
        "--no-keep-fresh",
        "--pages-per-lease",
        "100000",
        "--samples",
        "60",
        "--delay-ms",
        "0",
    ]);
    assert!(worker.status.success(), "{}", text(&worker.stderr));
    assert!(
        text(&worker.stderr).contains("crawl complete"),
        "{}",
        text(&worker.stderr)
    );
    assert_eq!(repeated_paths(&log), [("/index.php".to_string(), 2)]);
    let mut client = postgres::Client::connect(&database, postgres::NoTls).unwrap();
    let samples: i64 = client
        .query_one("SELECT count(*) FROM samples", &[])
        .unwrap()
        .get(0);
    assert_eq!(samples, 0);
    server.stop();
}

/// Politeness holds across lease hand-offs: two workers take a forum from each other every few
/// pages, each lease with a fetch stack of its own, and the forum never gets a request sooner
/// than the delay after it answered the previous one, a new lease's first request included.
#[test]
fn a_new_lease_keeps_the_delay_from_the_previous_holder_s_last_request() {
    const DELAY_MS: u64 = 500;
    let database = fresh_database();
    let (server, site, log) = serve_logged("phpbb", 2);
    let portal = format!("{}{}", server.origin(), site.portal_path());
    add_to_fleet(&database, &[&portal]);
    // Four leases of four pages, then the day's budget is spent.
    let budget = trawl(&[
        "fleet",
        "budget",
        "--db",
        &database,
        "--pages-per-day",
        "16",
    ]);
    assert!(budget.status.success(), "{}", text(&budget.stderr));
    let delay = DELAY_MS.to_string();
    let worker_arguments = [
        "worker",
        "--db",
        &database,
        "--until-idle",
        "--pages-per-lease",
        "4",
        "--samples",
        "12",
        "--delay-ms",
        &delay,
    ];
    let workers: Vec<_> = (0..2)
        .map(|_| {
            std::process::Command::new(env!("CARGO_BIN_EXE_trawl"))
                .args(worker_arguments)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for worker in workers {
        let output = worker.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", text(&output.stderr));
    }
    let status = json_lines(&["fleet", "status", "--db", &database, "--json"]);
    assert_eq!(status[0]["pages"], 16, "{status:?}");
    assert!(
        status[0]["lease_epoch"].as_i64().unwrap() >= 4,
        "the site changed hands fewer than four times: {status:?}"
    );
    let requests = log.requests();
    assert!(requests.len() > 16 + 12, "{} requests", requests.len());
    let delay = std::time::Duration::from_millis(DELAY_MS);
    let too_soon: Vec<String> = requests
        .windows(2)
        .filter_map(|pair| {
            let quiet = pair[1].arrived.saturating_duration_since(pair[0].answered);
            (quiet < delay).then(|| {
                format!(
                    "{} {:?} after {}",
                    pair[1].path_and_query, quiet, pair[0].path_and_query
                )
            })
        })
        .collect();
    assert!(
        too_soon.is_empty(),
        "requests sooner than the delay: {too_soon:?}"
    );
    server.stop();
}

/// A worker keeps a complete site fresh unless told not to: with the default, the site's next
/// lease runs its watch (under `--until-idle`, until the watch would wait for a later fetch);
/// with `--no-keep-fresh`, the site is due again only after `--revisit-hours`.
#[test]
fn a_worker_keeps_complete_sites_fresh_unless_told_not_to() {
    for keep_fresh in [true, false] {
        let database = fresh_database();
        let (server, site) = serve("smf", 2);
        let portal = format!("{}{}", server.origin(), site.portal_path());
        add_to_fleet(&database, &[&portal]);
        let mut arguments = vec![
            "worker",
            "--db",
            &database,
            "--until-idle",
            "--samples",
            "60",
            "--delay-ms",
            "0",
        ];
        if !keep_fresh {
            arguments.push("--no-keep-fresh");
        }
        let worker = trawl(&arguments);
        let said = text(&worker.stderr);
        assert!(worker.status.success(), "{said}");
        assert!(said.contains("crawl complete"), "{said}");
        assert_eq!(
            said.contains("kept fresh from now on"),
            keep_fresh,
            "{said}"
        );
        assert_eq!(said.contains(": watched "), keep_fresh, "{said}");
        let status = json_lines(&["fleet", "status", "--db", &database, "--json"]);
        let due_in = status[0]["due_in_seconds"].as_f64().unwrap();
        if keep_fresh {
            assert!(due_in < 3600.0, "due in {due_in} s: {status:?}");
        } else {
            assert!(due_in > 23.0 * 3600.0, "due in {due_in} s: {status:?}");
        }
        server.stop();
    }
}

/// The pages `trawl fleet status` shows for the only site of `database`.
fn stored_pages(database: &str) -> i64 {
    fleet_pages(database).expect("the fleet's status")
}

/// A worker killed (SIGKILL) in the middle of its lease holds the site until the lease expires;
/// then another worker takes the site over and finishes its crawl, which exports what an
/// uninterrupted crawl into a file exports: nothing stored was lost or stored twice. (A worker
/// started while the lease is held waits for it, even with `--until-idle`.)
#[test]
fn a_worker_killed_mid_lease_is_succeeded_by_another_when_its_lease_expires() {
    let directory = scratch("fleet", "killed");
    let database = fresh_database();
    let (server, site) = serve("vbulletin", 3);
    let portal = format!("{}{}", server.origin(), site.portal_path());
    add_to_fleet(&database, &[&portal]);

    let worker = |lease_seconds: &str| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_trawl"));
        command
            .args([
                "worker",
                "--db",
                &database,
                "--until-idle",
                "--no-keep-fresh",
                "--samples",
                "200",
            ])
            .args(["--lease-seconds", lease_seconds, "--delay-ms", "0"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        command
    };
    // Heartbeats every third of the ten seconds keep at least six of them left at the kill.
    let mut doomed = worker("10").spawn().unwrap();
    let started = std::time::Instant::now();
    while stored_pages(&database) < 40 {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "the first worker stored no pages"
        );
        assert!(
            doomed.try_wait().unwrap().is_none(),
            "the first worker ended before it was killed"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    doomed.kill().unwrap();
    doomed.wait().unwrap();
    let at_kill = stored_pages(&database);
    let status = json_lines(&["fleet", "status", "--db", &database, "--json"]);
    assert!(!status[0]["lease_holder"].is_null(), "{status:?}");
    let successor = worker("60").output().unwrap();
    assert!(successor.status.success(), "{}", text(&successor.stderr));
    let status = json_lines(&["fleet", "status", "--db", &database, "--json"]);
    assert!(
        status[0]["lease_epoch"].as_i64().unwrap() >= 2,
        "{status:?}"
    );
    assert!(stored_pages(&database) > at_kill);

    assert_eq!(
        json_lines(&["export", "--db", &database, "threads"]),
        threads_of_one_crawl(&portal, &directory)
    );
    server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}

/// A forum that does not answer fails its own crawl, not the worker: the site is given back
/// to be tried again later, and the worker goes on (here, finds nothing more and stops).
#[test]
fn a_forum_that_does_not_answer_is_tried_again_later_and_stops_no_worker() {
    let database = fresh_database();
    let added = trawl(&["fleet", "add", "http://127.0.0.1:9/", "--db", &database]);
    assert!(added.status.success(), "{}", text(&added.stderr));
    let worker = trawl(&[
        "worker",
        "--db",
        &database,
        "--until-idle",
        "--retry-minutes",
        "30",
        "--delay-ms",
        "0",
    ]);
    assert!(worker.status.success(), "{}", text(&worker.stderr));
    assert!(
        text(&worker.stderr).contains("http://127.0.0.1:9/: ")
            && text(&worker.stderr).contains("tried again in 30 minutes"),
        "{}",
        text(&worker.stderr)
    );
    let status = json_lines(&["fleet", "status", "--db", &database, "--json"]);
    assert_eq!(status[0]["pages"], 0, "{status:?}");
    assert!(status[0]["lease_holder"].is_null(), "{status:?}");
    let due_in = status[0]["due_in_seconds"].as_f64().unwrap();
    assert!((1700.0..=1800.0).contains(&due_in), "{status:?}");
}

/// Budgets hold across worker processes: two workers crawling two forums stop at the fleet's
/// budget for the day and at each site's own, and give the sites back due tomorrow.
#[test]
fn two_workers_stop_at_the_fleets_and_the_sites_budgets() {
    let database = fresh_database();
    let (first_server, first_site) = serve("phpbb", 1);
    let (second_server, second_site) = serve("smf", 1);
    let first = format!("{}{}", first_server.origin(), first_site.portal_path());
    let second = format!("{}{}", second_server.origin(), second_site.portal_path());
    let added = trawl(&["fleet", "add", &first, &second, "--db", &database]);
    assert!(added.status.success(), "{}", text(&added.stderr));
    let budgets: [&[&str]; 2] = [
        &["--pages-per-day", "50"],
        &["--pages-per-day", "20", "--site", &first],
    ];
    for budget in budgets {
        let mut arguments = vec!["fleet", "budget", "--db", &database];
        arguments.extend_from_slice(budget);
        let set = trawl(&arguments);
        assert!(set.status.success(), "{}", text(&set.stderr));
    }
    let worker_arguments = [
        "worker",
        "--db",
        &database,
        "--until-idle",
        "--no-keep-fresh",
        "--pages-per-lease",
        "15",
        "--samples",
        "100",
        "--delay-ms",
        "0",
    ];
    let workers: Vec<_> = (0..2)
        .map(|_| {
            std::process::Command::new(env!("CARGO_BIN_EXE_trawl"))
                .args(worker_arguments)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for worker in workers {
        let output = worker.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", text(&output.stderr));
    }
    let status = json_lines(&["fleet", "status", "--db", &database, "--json"]);
    let pages: Vec<i64> = status
        .iter()
        .map(|site| site["pages"].as_i64().unwrap())
        .collect();
    // Which worker claims which site when is a race; the budgets hold whatever its outcome.
    assert_eq!(pages.iter().sum::<i64>(), 50, "{status:?}");
    assert!(pages[0] <= 20, "{status:?}");
    for site in &status {
        assert_eq!(site["fleet_reserved_today"], 50, "{status:?}");
        assert_eq!(site["reserved_today"], site["pages"], "{status:?}");
        assert!(site["due_in_seconds"].as_f64().unwrap() > 0.0, "{status:?}");
    }
    assert_eq!(status[0]["pages_per_day"], 20, "{status:?}");
    let shown = text(&trawl(&["fleet", "status", "--db", &database]).stdout);
    assert!(shown.contains("fleet budget: 50/50"), "{shown}");
    assert!(shown.contains(&format!("{}/20", pages[0])), "{shown}");
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
