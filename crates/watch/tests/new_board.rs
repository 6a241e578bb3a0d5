//! A board opened after the crawl: the watch finds it on the portal, which it reads again a few
//! times a day, and stores everything written in it, as soon after the board opened (or the
//! post was written, whichever is later) as a read of the portal and the board's next poll allow.

use std::sync::Arc;

use jiff::Timestamp;
use trawl_model::{CookieJarFetcher, ManualClock};
use trawl_sim::{FamilyName, Scale, SimFetcher, Site, SiteConfig};
use trawl_store::Store;
use trawl_watch::{Watch, WatchConfig};
use url::Url;

mod common;
use common::{Until, crawl_into, stored_posts};

const DAY: i64 = 86_400;
const HOUR: i64 = 3600;
const ORIGIN: &str = "http://forum.test";
const BUDGET: u32 = 1000;

#[test]
fn a_board_opened_after_the_crawl_is_found_on_the_portal_and_watched() {
    let late_board = 4;
    let site = Site::build(SiteConfig::new(
        FamilyName::parse("phpbb").unwrap(),
        3,
        Scale::Small,
    ));
    let crawl_at = site.history().start + 25 * DAY;
    let opens = crawl_at + 6 * HOUR;
    let site = Arc::new(site.with_board_opened_at(late_board, opens));
    let history = site.history();
    let clock = Arc::new(ManualClock::new(Timestamp::from_second(crawl_at).unwrap()));
    let directory =
        std::env::temp_dir().join(format!("trawl-watch-new-board-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let mut store = Store::open(&directory.join("crawl.db")).unwrap();
    crawl_into(&mut store, &site, ORIGIN, clock.as_ref());
    let end = crawl_at + 30 * HOUR;
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), ORIGIN));
    let config = WatchConfig::new("trawl", BUDGET);
    let portal_interval = DAY / i64::from(config.portal_reads_per_day);
    let mut watch = Watch::open(&mut store, &fetcher, clock.as_ref(), &portal, config).unwrap();
    let status = watch
        .run(&mut Until {
            clock: Arc::clone(&clock),
            end,
        })
        .unwrap();
    drop(watch);
    assert!(status.lists_found >= 1, "{status:?}");
    let stored = stored_posts(&store);
    let mut late_delays = Vec::new();
    let mut missing = Vec::new();
    for post in 1..=history.post_count() {
        let record = history.post(post).unwrap();
        let board = history.thread(record.thread).unwrap().board;
        let in_late_board = board == late_board;
        // Every post of the late board written before the end (its older ones were hidden
        // from the crawl), and every other post written after the crawl.
        let judged = record.created < end - HOUR && (in_late_board || record.created >= crawl_at);
        if !judged {
            continue;
        }
        match stored.get(&post) {
            Some(&at) if in_late_board => late_delays.push(at - record.created.max(opens)),
            Some(_) => {}
            None => missing.push(post),
        }
    }
    drop(store);
    let _ = std::fs::remove_dir_all(&directory);
    assert!(missing.is_empty(), "posts never stored: {missing:?}");
    assert!(
        late_delays.len() > 20,
        "{} posts in the late board",
        late_delays.len()
    );
    let latest = late_delays.iter().max().copied().unwrap_or(0);
    // Found at the first read of the portal after it opened; its threads fetched at once.
    assert!(
        latest <= portal_interval + HOUR,
        "a post of the late board stored {latest} s after it could be"
    );
}
