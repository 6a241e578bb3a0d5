//! A paced drive (a polite crawl, whose fetcher waits between requests) hands each worker one
//! request at a time: with one worker, every request is made only once every page before it is
//! in the store, so a crawl killed at any moment, or whose write the database refused, leaves
//! at most the page in flight to fetch again.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use jiff::Timestamp;
use trawl_crawl::CrawlStrategy;
use trawl_eval::learning::{SIM_ORIGIN, learn_in_process};
use trawl_learn::traverse::Strategy;
use trawl_model::{CookieJarFetcher, FetchError, FetchRequest, FetchResponse, Fetcher, FixedClock};
use trawl_run::{DriveOptions, RunError, drive, open_crawl};
use trawl_sim::{FamilyName, Scale, SimFetcher, Site, SiteConfig};
use trawl_store::Store;
use url::Url;

/// The simulator, noting for each request how many pages the crawl's file held when it came.
struct CountingStored {
    inner: SimFetcher,
    file: PathBuf,
    stored_at_each_request: Mutex<Vec<usize>>,
}

impl Fetcher for CountingStored {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let stored = Store::open_read_only(&self.file)
            .and_then(|store| store.page_count())
            .expect("the crawl's file reads");
        self.stored_at_each_request.lock().unwrap().push(stored);
        self.inner.fetch(request)
    }
}

#[test]
fn a_paced_drive_asks_for_a_page_only_once_every_earlier_page_is_stored() {
    let site = Arc::new(Site::build(SiteConfig::new(
        FamilyName::Phpbb,
        1,
        Scale::Small,
    )));
    let (learned, _, _) = learn_in_process(&site, 150, 1, Strategy::Skeleton).unwrap();
    let file = std::env::temp_dir().join(format!("trawl-paced-drive-{}.db", std::process::id()));
    trawl_store::remove_database_files(&file);
    let mut store = Store::open(&file).unwrap();
    let fetcher = CookieJarFetcher::new(CountingStored {
        inner: SimFetcher::new(Arc::clone(&site), SIM_ORIGIN),
        file: file.clone(),
        stored_at_each_request: Mutex::new(Vec::new()),
    });
    let clock = FixedClock::new(Timestamp::from_second(site.history().end).unwrap());
    let portal = Url::parse(&format!("{SIM_ORIGIN}{}", site.portal_path())).unwrap();
    let mut crawler = open_crawl(&mut store, &portal, &fetcher, &clock, None, || {
        Ok::<_, RunError>(CrawlStrategy::Plan(Box::new(learned.plan)))
    })
    .unwrap()
    .crawler;
    let options = DriveOptions {
        max_pages: Some(60),
        workers: 1,
        paced: true,
    };
    drive(&mut store, &mut crawler, &fetcher, &clock, options, |_| {}).unwrap();
    let stored = fetcher
        .inner()
        .stored_at_each_request
        .lock()
        .unwrap()
        .clone();
    drop(store);
    trawl_store::remove_database_files(&file);
    assert_eq!(stored.len(), 60);
    let ahead: Vec<(usize, usize)> = stored
        .iter()
        .enumerate()
        .filter(|(asked_before, stored)| stored != &asked_before)
        .map(|(asked_before, &stored)| (asked_before, stored))
        .collect();
    assert!(
        ahead.is_empty(),
        "requests made before the pages asked earlier were stored (asked before, stored): \
         {ahead:?}"
    );
}
