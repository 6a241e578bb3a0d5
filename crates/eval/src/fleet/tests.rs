use std::time::{Duration, Instant};

use trawl_sim_server::LoggedRequest;

use super::{CrawlMode, FleetRun, ServerTally, describe, with_database};

/// Requests arriving the given milliseconds after one instant, for the paths given.
fn requests(arrivals: &[(&str, u64)]) -> Vec<LoggedRequest> {
    let origin = Instant::now();
    arrivals
        .iter()
        .map(|(path, offset_ms)| {
            let arrived = origin + Duration::from_millis(*offset_ms);
            LoggedRequest {
                path_and_query: path.to_string(),
                arrived,
                answered: arrived + Duration::from_millis(1),
            }
        })
        .collect()
}

fn check(
    arrivals: &[(&str, u64)],
    delay_ms: u64,
    repeated: usize,
    shortest_gap_ms: Option<u64>,
    below_delay: usize,
) {
    let mut tally = ServerTally::default();
    tally.add(&requests(arrivals), 1, Duration::from_millis(delay_ms));
    assert_eq!(tally.requests, arrivals.len(), "{arrivals:?}");
    assert_eq!(tally.repeated_requests, repeated, "{arrivals:?}");
    assert_eq!(
        tally.shortest_gap,
        shortest_gap_ms.map(Duration::from_millis),
        "{arrivals:?}"
    );
    assert_eq!(tally.gaps_below_delay, below_delay, "{arrivals:?}");
}

#[test]
fn distinct_urls_far_apart_are_neither_repeated_nor_too_close() {
    check(
        &[("/", 0), ("/board/1", 100), ("/t/2", 250)],
        100,
        0,
        Some(100),
        0,
    );
}

#[test]
fn a_url_asked_twice_is_one_repeat() {
    check(
        &[("/", 0), ("/t/2", 100), ("/t/2", 200)],
        100,
        1,
        Some(100),
        0,
    );
}

#[test]
fn robots_txt_read_again_is_not_a_repeat() {
    check(
        &[("/robots.txt", 0), ("/", 100), ("/robots.txt", 200)],
        50,
        0,
        Some(100),
        0,
    );
}

#[test]
fn the_query_tells_urls_apart() {
    check(
        &[("/b?page=1", 0), ("/b?page=2", 100)],
        100,
        0,
        Some(100),
        0,
    );
}

#[test]
fn arrivals_closer_than_the_delay_are_counted_whatever_order_they_are_logged_in() {
    check(&[("/c", 130), ("/a", 0), ("/b", 100)], 50, 0, Some(30), 1);
}

#[test]
fn one_request_has_no_gap() {
    check(&[("/", 0)], 1000, 0, None, 0);
}

#[test]
fn the_most_in_flight_is_the_largest_over_forums() {
    let mut tally = ServerTally::default();
    tally.add(&requests(&[("/", 0)]), 1, Duration::ZERO);
    tally.add(&requests(&[("/", 0)]), 2, Duration::ZERO);
    tally.add(&requests(&[("/", 0)]), 1, Duration::ZERO);
    assert_eq!(tally.most_in_flight, 2);
    assert_eq!(tally.requests, 3);
    assert_eq!(tally.repeated_requests, 0, "forums are counted apart");
}

#[test]
fn a_run_database_replaces_the_server_urls_own() {
    assert_eq!(
        with_database("postgres://u@127.0.0.1:5432/postgres", "run"),
        "postgres://u@127.0.0.1:5432/run"
    );
    assert_eq!(
        with_database("postgres://u@host/postgres?sslmode=disable", "run"),
        "postgres://u@host/run?sslmode=disable"
    );
    assert_eq!(
        with_database("postgres://u@host", "run"),
        "postgres://u@host/run"
    );
}

fn run(shortest_gap_ms: Option<f64>) -> FleetRun {
    FleetRun {
        mode: CrawlMode::Fleet,
        processes: 4,
        forums: 24,
        forums_complete: 23,
        processes_failed: 1,
        seconds: 193.06,
        forums_per_hour: 447.4,
        requests: 12028,
        repeated_requests: 24,
        most_in_flight_per_forum: 1,
        shortest_gap_ms,
        gaps_below_delay: 2112,
    }
}

#[test]
fn a_run_is_written_out_once_for_the_table_and_the_progress_line() {
    let cells = run(Some(40.46)).cells();
    assert_eq!(
        cells,
        [
            "fleet (trawl worker, PostgreSQL)",
            "4",
            "23/24",
            "193.1",
            "447",
            "12028",
            "24",
            "1",
            "40.5 ms",
            "2112",
            "1"
        ]
    );
    assert_eq!(run(None).cells()[8], "-");
    let line = describe(&run(Some(40.46)));
    assert!(
        line.starts_with("crawled by: fleet (trawl worker, PostgreSQL), processes: 4, "),
        "{line}"
    );
    assert!(
        line.ends_with("gaps below delay: 2112, processes failed: 1"),
        "{line}"
    );
}
