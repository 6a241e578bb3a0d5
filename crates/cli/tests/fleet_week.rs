//! A fleet keeping forums fresh on an accelerated clock (`trawl worker --keep-fresh`), on the
//! test cluster (`scripts/test-postgres.sh`): two worker processes keep three small simulated
//! forums fresh for half a simulated day after crawling them, and one of them is killed in the
//! middle and replaced, as a supervisor would.

use std::time::Duration;

use trawl_eval::fleet::week::{WeekConfig, run_week};
use trawl_sim::{FamilyName, Scale};
use trawl_store::test_support::server_url;

mod support;
use support::scratch;

const HOUR: i64 = 3600;

#[test]
fn two_workers_keep_three_forums_fresh_and_take_up_a_killed_workers_sites() {
    let config = WeekConfig {
        program: env!("CARGO_BIN_EXE_trawl").into(),
        postgres: server_url(),
        scratch: scratch("fleet_week", "two-workers"),
        forums: 3,
        family: FamilyName::parse("phpbb").unwrap(),
        scale: Scale::Small,
        start_day: 25,
        // A simulated hour in five seconds.
        speed: 720.0,
        span_seconds: 12 * HOUR,
        // The crawls end within the first simulated hours; posts written after are the
        // watch's to find.
        judge_from_seconds: 4 * HOUR,
        settle_seconds: HOUR,
        policy: "trawl".to_string(),
        budget_per_day: 1000,
        workers: 2,
        // Two sites at a time each, four threads for three sites: the killed worker's sites are
        // taken up by the other's free thread and by the worker started in its place.
        concurrency: 2,
        watch_minutes: 30,
        watch_wait_minutes: 5,
        // A killed worker's sites are taken up a simulated hour and a half later.
        lease_seconds: 8,
        samples: 150,
        latency: Duration::ZERO,
        delay: Duration::ZERO,
        // Half-way through the span: after the crawls, while the sites are watched.
        kill_first_worker_after: Some(Duration::from_secs(33)),
        forum_by_forum: false,
    };
    let comparison = run_week(&config, |line| eprintln!("{line}")).unwrap();
    let run = comparison.fleet;
    eprintln!("{run:?}");
    assert!(
        run.posts_judged >= 20,
        "the forums write posts in the judged span: {run:?}"
    );
    assert_eq!(run.posts_missing, 0, "every new post is found: {run:?}");
    assert_eq!(
        run.most_in_flight_per_forum, 1,
        "no two workers fetch from one forum at once: {run:?}"
    );
    // No page fetched twice by two workers: every fetch of the watched span is stored, but
    // for the page the killed worker had in flight on each site it held (refetched by its
    // successor), and a request made just before the span that arrived just after (one a
    // forum at most).
    assert!(
        run.fetches_not_stored <= config.concurrency + config.forums,
        "a page is fetched by two holders of its site: {run:?}"
    );
    assert_eq!(
        run.forums_served_after_kill, 3,
        "every forum, the killed worker's too, is watched after its leases expired: {run:?}"
    );
    assert_eq!(run.processes_failed, 0, "{run:?}");
    // The policy polls each forum at most its budget a day; the crawls come on top.
    assert!(run.mean_delay_seconds < 2.0 * HOUR as f64, "{run:?}");
}
