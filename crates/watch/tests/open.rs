//! What `Watch::open` refuses, and why: each store it cannot continue gets the error that says
//! what to run first.

use std::sync::Arc;

use trawl_model::{CookieJarFetcher, FixedClock, Timestamp};
use trawl_sim::{FamilyName, Scale, SimFetcher, Site, SiteConfig};
use trawl_store::{CrawlSettings, FrontierEntry, Store};
use trawl_watch::{Watch, WatchConfig, WatchError};
use url::Url;

const PORTAL: &str = "http://forum.test/";

/// A store holding a crawl begun with a strategy and a plan (no crawl at all for `None`), opened
/// for a watch of `portal` with `policy`, is refused with a message saying `expected`.
fn check(crawl: Option<(&str, Option<&str>)>, portal: &str, policy: &str, expected: &str) {
    let directory = std::env::temp_dir().join(format!("trawl-watch-open-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let mut store = Store::open(&directory.join("crawl.db")).unwrap();
    if let Some((strategy, plan)) = crawl {
        store
            .begin_crawl(
                &CrawlSettings {
                    portal: PORTAL.to_string(),
                    strategy: strategy.to_string(),
                    plan_json: plan.map(str::to_string),
                    plan_generation: 0,
                    started_at: Timestamp::UNIX_EPOCH,
                    order: Some("queue".to_string()),
                    patterns_json: None,
                },
                &FrontierEntry {
                    url: PORTAL.to_string(),
                    depth: 0,
                    redirects: 0,
                },
            )
            .unwrap();
    }
    let site = Arc::new(Site::build(SiteConfig::new(
        FamilyName::parse("phpbb").unwrap(),
        1,
        Scale::Small,
    )));
    let fetcher = CookieJarFetcher::new(SimFetcher::new(site, "http://forum.test"));
    let clock = FixedClock::new(Timestamp::UNIX_EPOCH);
    let opened = Watch::open(
        &mut store,
        &fetcher,
        &clock,
        &Url::parse(portal).unwrap(),
        WatchConfig::new(policy, 3000),
    );
    let Err(error) = opened else {
        panic!("the watch of {portal} with {policy} was not refused");
    };
    let error: WatchError = error;
    let message = error.to_string();
    assert!(message.contains(expected), "{message}");
    drop(store);
    let _ = std::fs::remove_dir_all(&directory);
}

#[test]
fn stores_a_watch_cannot_continue_are_refused_with_what_to_do() {
    check(
        None,
        PORTAL,
        "trawl",
        "holds no crawl; run `trawl crawl URL --db",
    );
    check(
        Some(("bfs", None)),
        PORTAL,
        "trawl",
        "breadth-first crawl, which has no plan",
    );
    check(
        Some(("plan", Some("{}"))),
        "http://other.test/",
        "trawl",
        "holds a crawl of http://forum.test/, not of http://other.test/",
    );
    check(
        Some(("plan", Some("{\"format_version\": 999}"))),
        PORTAL,
        "trawl",
        "the plan stored in",
    );
    check(
        None,
        PORTAL,
        "oracle",
        "no revisit policy called \"oracle\" that can run live",
    );
    check(
        None,
        PORTAL,
        "fastest",
        "no revisit policy called \"fastest\"",
    );
}
