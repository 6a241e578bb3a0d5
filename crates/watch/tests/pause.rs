//! A watch started days after the crawl: threads grew by several pages meanwhile, and the
//! pagers of their pages elide ("1 2 3 … 6"), so the pages between are named only by pagers
//! read later. None of their posts may be lost.

use std::sync::Arc;

use jiff::Timestamp;
use trawl_model::{Clock, CookieJarFetcher, ManualClock};
use trawl_sim::{FamilyName, Scale, SimFetcher, Site, SiteConfig};
use trawl_store::Store;
use trawl_watch::{Watch, WatchConfig};
use url::Url;

mod common;
use common::{Until, crawl_into, stored_posts};

const DAY: i64 = 86_400;
const HOUR: i64 = 3600;
const ORIGIN: &str = "http://forum.test";

/// Crawls `family` at day `crawl_day` of its history, watches it from `pause_days` later for
/// `hours`, and returns the posts written from the crawl to an hour before the end that the
/// store lacks, with how many were written.
fn missing_after_a_pause(
    family: &str,
    seed: u64,
    crawl_day: i64,
    pause_days: i64,
    hours: i64,
) -> (Vec<u32>, usize) {
    missing_after_a_pause_of(small_site(family, seed), crawl_day, pause_days, hours)
}

/// A small forum of `family` from `seed`.
fn small_site(family: &str, seed: u64) -> Site {
    Site::build(SiteConfig::new(
        FamilyName::parse(family).unwrap(),
        seed,
        Scale::Small,
    ))
}

/// [`missing_after_a_pause`] on a site built with options beyond its family.
fn missing_after_a_pause_of(
    site: Site,
    crawl_day: i64,
    pause_days: i64,
    hours: i64,
) -> (Vec<u32>, usize) {
    let site = Arc::new(site);
    let family = site.config().family.name();
    let history = site.history();
    let crawl_at = history.start + crawl_day * DAY;
    let clock = Arc::new(ManualClock::new(Timestamp::from_second(crawl_at).unwrap()));
    // Tests run side by side in one process, some on the same family: each gets a directory of
    // its own.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let directory = std::env::temp_dir().join(format!(
        "trawl-watch-pause-{}-{family}-{run}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let mut store = Store::open(&directory.join("crawl.db")).unwrap();
    crawl_into(&mut store, &site, ORIGIN, clock.as_ref());
    let crawl_start = crawl_at;
    clock.set(Timestamp::from_second(crawl_at + pause_days * DAY).unwrap());
    let end = clock.now().as_second() + hours * HOUR;
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), ORIGIN));
    let mut watch = Watch::open(
        &mut store,
        &fetcher,
        clock.as_ref(),
        &portal,
        WatchConfig::new("trawl", 1000),
    )
    .unwrap();
    watch
        .run(&mut Until {
            clock: Arc::clone(&clock),
            end,
        })
        .unwrap();
    drop(watch);
    let stored = stored_posts(&store);
    let mut written = 0;
    let mut missing = Vec::new();
    for post in 1..=history.post_count() {
        let created = history.post(post).unwrap().created;
        if created < crawl_start || created >= end - HOUR {
            continue;
        }
        written += 1;
        if !stored.contains_key(&post) {
            missing.push(post);
        }
    }
    drop(store);
    let _ = std::fs::remove_dir_all(&directory);
    (missing, written)
}

#[test]
fn threads_grown_past_eliding_pagers_while_the_watch_was_stopped_lose_no_page() {
    let (missing, written) = missing_after_a_pause("phpbb", 2, 15, 4, 36);
    assert!(written > 100, "{written} posts written");
    assert!(
        missing.is_empty(),
        "{} of {written} posts never stored: {missing:?}",
        missing.len()
    );
}

/// Boards paged by a cursor (NodeBB's `?after=<thread id>`, named only by `<link rel="next">`):
/// the threads started while the watch was stopped push the board's first page onto pages whose
/// cursors the crawl never saw, and the walk must go on from page to page, by the links each
/// page shows, while the pages show news.
#[test]
fn threads_started_on_cursor_paged_boards_while_the_watch_was_stopped_are_found() {
    let (family, seed, crawl_day, pause_days, hours) = ("nodebb", 1, 15, 4, 36);
    // The case is only a case when some board's news fill more than its first page: threads
    // started or answered during the pause rise above every older one.
    let site = small_site(family, seed);
    let history = site.history();
    let crawl_at = history.start + crawl_day * DAY;
    let end = crawl_at + pause_days * DAY + hours * HOUR;
    let mut risen: std::collections::HashMap<u32, std::collections::HashSet<u32>> =
        std::collections::HashMap::new();
    for post in 1..=history.post_count() {
        let record = history.post(post).unwrap();
        if record.created >= crawl_at && record.created < end {
            let board = history.thread(record.thread).unwrap().board;
            risen.entry(board).or_default().insert(record.thread);
        }
    }
    let most_risen = risen
        .values()
        .map(|threads| threads.len())
        .max()
        .unwrap_or(0);
    let per_page = site.family().profile().threads_per_page as usize;
    assert!(
        most_risen > per_page,
        "{most_risen} threads risen on the busiest board, {per_page} a page"
    );
    let (missing, written) = missing_after_a_pause(family, seed, crawl_day, pause_days, hours);
    assert!(written > 100, "{written} posts written");
    assert!(
        missing.is_empty(),
        "{} of {written} posts never stored: {missing:?}",
        missing.len()
    );
}

/// The same pause on boards whose cursors are opaque tokens (`?after=Gq7dRvX02bK`): the watch
/// can neither read a position from a cursor nor guess the next one, so the only way past the
/// first page of a board is the `<link rel="next">` each page shows.
#[test]
fn threads_started_on_boards_with_opaque_cursors_while_the_watch_was_stopped_are_found() {
    let site = small_site("nodebb", 1).with_opaque_cursors();
    let (missing, written) = missing_after_a_pause_of(site, 15, 4, 36);
    assert!(written > 100, "{written} posts written");
    assert!(
        missing.is_empty(),
        "{} of {written} posts never stored: {missing:?}",
        missing.len()
    );
}
