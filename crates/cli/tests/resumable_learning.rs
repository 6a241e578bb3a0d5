//! Learning cut short goes on from the pages it sampled: `trawl crawl` killed while sampling,
//! then run again, asks the forum for no sampled page twice (but the one in flight at the kill).

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use trawl_sim_server::{RequestLog, ServeOptions, ServerClock, SimServer};

/// A small simulated forum whose server writes every request down.
fn logged_forum(family: &str) -> (SimServer, Arc<RequestLog>, String) {
    let site = Arc::new(trawl_sim::Site::build(trawl_sim::SiteConfig::new(
        trawl_sim::FamilyName::parse(family).expect("a known family"),
        1,
        trawl_sim::Scale::Small,
    )));
    let at = jiff::Timestamp::from_second(site.history().end).expect("a valid instant");
    let log = Arc::new(RequestLog::default());
    let portal_path = site.portal_path();
    let server = SimServer::start_with(
        site,
        ServerClock::Fixed(at).into_clock(),
        "127.0.0.1:0",
        2,
        ServeOptions {
            latency: Duration::ZERO,
            log: Some(Arc::clone(&log)),
        },
    )
    .expect("the server starts");
    let portal = format!("{}{portal_path}", server.origin());
    (server, log, portal)
}

fn crawl_arguments<'a>(portal: &'a str, database: &'a str) -> Vec<&'a str> {
    vec![
        "crawl",
        portal,
        "--db",
        database,
        "--samples",
        "150",
        "--delay-ms",
        "10",
        "--max-pages",
        "10",
        "--workers",
        "1",
    ]
}

fn paths(log: &RequestLog) -> Vec<String> {
    log.requests()
        .into_iter()
        .map(|request| request.path_and_query)
        .collect()
}

fn run_to_the_end(arguments: &[&str]) {
    let output = Command::new(env!("CARGO_BIN_EXE_trawl"))
        .args(arguments)
        .output()
        .expect("trawl runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn check(family: &str, kill_after_requests: usize) {
    let directory = std::env::temp_dir().join(format!(
        "trawl-resumable-learning-{family}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let (_server, log, portal) = logged_forum(family);

    // The same crawl once without interruption: what the forum is asked for.
    let whole = directory.join("whole.db");
    let whole = whole.to_str().unwrap();
    run_to_the_end(&crawl_arguments(&portal, whole));
    let uninterrupted_paths = paths(&log);
    let uninterrupted = uninterrupted_paths.len();
    log.clear();

    // Killed while sampling, once enough requests have arrived, then run again to the end.
    let cut = directory.join("cut.db");
    let cut = cut.to_str().unwrap();
    let mut first = Command::new(env!("CARGO_BIN_EXE_trawl"))
        .args(crawl_arguments(&portal, cut))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("trawl runs");
    let started = Instant::now();
    while log.requests().len() < kill_after_requests {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the crawl never reached {kill_after_requests} requests"
        );
        assert!(
            first.try_wait().unwrap().is_none(),
            "it ended before the kill"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let before_kill = log.requests().len();
    assert!(
        before_kill < 150,
        "the kill came after sampling ended ({before_kill} requests)"
    );
    run_to_the_end(&crawl_arguments(&portal, cut));
    let interrupted_paths = paths(&log);
    let interrupted = interrupted_paths.len();
    let mut extra = interrupted_paths;
    for path in &uninterrupted_paths {
        if let Some(at) = extra.iter().position(|asked| asked == path) {
            extra.remove(at);
        }
    }

    // The second run reads robots.txt again and may fetch again the one page whose answer the
    // kill cut off; nothing else is asked for twice.
    assert!(
        interrupted <= uninterrupted + 2,
        "{family}: {interrupted} requests with a kill at {before_kill}, {uninterrupted} \
         without; asked for more: {extra:?}"
    );
    assert!(
        interrupted >= uninterrupted,
        "{family}: {interrupted} requests with a kill, fewer than {uninterrupted} without"
    );
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_crawl_killed_while_sampling_goes_on_from_the_pages_it_kept() {
    check("phpbb", 40);
    check("smf", 90);
}
