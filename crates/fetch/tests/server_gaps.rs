//! Politeness judged at the server: a simulated forum served over real loopback HTTP writes down
//! when each request arrived, and no two arrivals may be closer than the delay the fetcher was
//! given, whatever the threads sharing the fetcher and the machine's load do.

use std::sync::Arc;
use std::time::Duration;

use trawl_fetch::{FetchConfig, PolitenessOptions};
use trawl_model::{FetchRequest, Fetcher, Timestamp};
use trawl_sim::{FamilyName, Scale, Site, SiteConfig};
use trawl_sim_server::{RequestLog, ServeOptions, ServerClock, SimServer};

/// Fetches `per_thread` pages of a forum from each of `threads` threads sharing one polite
/// stack (robots.txt read through it too) with `delay_ms` of politeness, from a server that
/// takes `latency_ms` to answer; then checks at the server that one request at a time came
/// and that consecutive arrivals were at least the delay plus the server's latency apart: the
/// delay is quiet time after each response, so it adds to the time the server took.
fn check(delay_ms: u64, latency_ms: u64, threads: usize, per_thread: usize) {
    let site = Arc::new(Site::build(SiteConfig::new(
        FamilyName::parse("phpbb").expect("phpbb is a family"),
        1,
        Scale::Small,
    )));
    let end = Timestamp::from_second(site.history().end).expect("a valid instant");
    let portal_path = site.portal_path();
    let log = Arc::new(RequestLog::default());
    let latency = Duration::from_millis(latency_ms);
    let server = SimServer::start_with(
        site,
        ServerClock::Fixed(end).into_clock(),
        "127.0.0.1:0",
        2,
        ServeOptions {
            latency,
            log: Some(log.clone()),
        },
    )
    .expect("a loopback server");
    let delay = Duration::from_millis(delay_ms);
    let config = FetchConfig {
        retry: None,
        politeness: PolitenessOptions {
            min_delay: delay,
            ..PolitenessOptions::default()
        },
        ..FetchConfig::default()
    };
    let stack = config.build();
    let origin = server.origin();
    std::thread::scope(|scope| {
        for thread in 0..threads {
            let stack = &stack;
            let origin = &origin;
            let portal_path = &portal_path;
            scope.spawn(move || {
                for page in 0..per_thread {
                    let url = format!("{origin}{portal_path}?thread={thread}&page={page}");
                    stack
                        .fetch(&FetchRequest::new(&url, end))
                        .expect("the loopback forum answers");
                }
            });
        }
    });
    server.stop();

    let mut arrivals: Vec<_> = log
        .requests()
        .iter()
        .map(|request| request.arrived)
        .collect();
    arrivals.sort();
    // The pages asked for, and robots.txt once before them.
    assert_eq!(arrivals.len(), threads * per_thread + 1);
    assert_eq!(log.most_in_flight(), 1);
    let gaps: Vec<Duration> = arrivals.windows(2).map(|pair| pair[1] - pair[0]).collect();
    let shortest = gaps.iter().min().copied().unwrap_or(Duration::MAX);
    assert!(
        shortest >= delay + latency,
        "delay {delay_ms} ms, latency {latency_ms} ms, {threads} thread(s): arrivals only \
         {shortest:?} apart (gaps {gaps:?})"
    );
}

#[test]
fn one_thread_with_a_delay_longer_than_the_answer() {
    check(40, 20, 1, 6);
}

#[test]
fn threads_sharing_the_fetcher_with_a_delay_longer_than_the_answer() {
    check(40, 20, 3, 3);
}

#[test]
fn a_delay_shorter_than_the_answer() {
    check(10, 60, 1, 5);
}

#[test]
fn threads_sharing_the_fetcher_with_a_delay_shorter_than_the_answer() {
    check(10, 60, 2, 3);
}
