//! A big crawl is read on a thread of its own while views answer: the cache says how far the
//! reading is, then hands over every page. The threshold is lowered so that a small crawl
//! stands for a big one.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use trawl_console::data::{Cache, PagesNow, open_site};
use trawl_store::StoreLocation;

use support::{CRAWL_PAGES, crawled_file};

/// Asks `cache` for the site's pages until they are read; returns the answers seen before.
fn read_until_done(cache: &Arc<Cache>, location: &StoreLocation, site: &str) -> Vec<PagesNow> {
    let store = open_site(location, site, true).unwrap();
    let started = Instant::now();
    let mut before = Vec::new();
    loop {
        match cache.pages_now(location, site, &store).unwrap() {
            PagesNow::Read(loaded) => {
                assert_eq!(loaded.count, CRAWL_PAGES);
                assert_eq!(loaded.pages.len(), CRAWL_PAGES);
                return before;
            }
            other => before.push(other),
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{before:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_crawl_above_the_threshold_is_read_in_the_background() {
    let path = crawled_file("reading");
    let location = StoreLocation::File(path.clone());
    let site = trawl_console::data::list_sites(&location)
        .unwrap()
        .remove(0);
    let cache = Arc::new(Cache::reading_in_background_above(CRAWL_PAGES - 1));
    let before = read_until_done(&cache, &location, &site);
    // The first answer says the reading began, of every page, and none says anything else.
    assert!(
        matches!(before.first(), Some(PagesNow::Reading { read: 0, total }) if *total == CRAWL_PAGES),
        "{before:?}"
    );
    for answer in &before {
        match answer {
            PagesNow::Reading { read, total } => assert!(read <= total, "{answer:?}"),
            other => panic!("{other:?}"),
        }
    }
    trawl_store::remove_database_files(&path);
}

#[test]
fn a_crawl_at_the_threshold_is_read_at_once() {
    let path = crawled_file("reading-at-once");
    let location = StoreLocation::File(path.clone());
    let site = trawl_console::data::list_sites(&location)
        .unwrap()
        .remove(0);
    let cache = Arc::new(Cache::reading_in_background_above(CRAWL_PAGES));
    assert!(read_until_done(&cache, &location, &site).is_empty());
    trawl_store::remove_database_files(&path);
}
