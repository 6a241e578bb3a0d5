//! Closing a crawl's gaps, on simulated forums crawled in process through the real driver and
//! store: pages that failed once are asked for again and the audit comes out complete; pages
//! that fail every time are asked for once and stay named.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use trawl_crawl::CrawlStrategy;
use trawl_learn::traverse::Strategy;
use trawl_model::{FetchRequest, FetchResponse, FixedClock};
use trawl_sim::truth::UrlTruth;
use trawl_sim::{FamilyName, PageClass, Scale, SimFetcher, Site, SiteConfig};

use trawl_audit::GapKind;
use trawl_model::FetchError;

use super::*;
use crate::open_crawl;
use trawl_eval::learning::{SIM_ORIGIN, learn_in_process};

/// Fails the pages `fails` chooses for their first `times` requests.
struct FailingFetcher {
    inner: SimFetcher,
    site: Arc<Site>,
    fails: fn(&UrlTruth) -> bool,
    times: usize,
    asked: Mutex<HashMap<String, usize>>,
}

impl Fetcher for FailingFetcher {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let path = request
            .url
            .strip_prefix(SIM_ORIGIN)
            .unwrap_or(&request.url)
            .to_string();
        let truth = self.site.classify(&path, self.site.history().end);
        if (self.fails)(&truth) {
            let mut asked = self.asked.lock().unwrap();
            let times = asked.entry(request.url.clone()).or_default();
            *times += 1;
            if *times <= self.times {
                return Err(FetchError::Connection {
                    url: request.url.clone(),
                    reason: "failed on purpose".into(),
                });
            }
        }
        self.inner.fetch(request)
    }
}

fn list_place(truth: &UrlTruth, kind: &str) -> Option<(u32, u32)> {
    if truth.class != PageClass::Valuable {
        return None;
    }
    let number = truth
        .list
        .as_deref()?
        .strip_prefix(kind)?
        .strip_prefix(':')?;
    Some((number.parse().ok()?, truth.position?))
}

/// The first page of every fourth thread, the second page of every board.
fn chosen_pages(truth: &UrlTruth) -> bool {
    matches!(list_place(truth, "thread"), Some((thread, 1)) if thread % 4 == 1)
        || matches!(list_place(truth, "board"), Some((_, 2)))
}

/// Valuable pages of the forum that the store holds no answered page of.
fn truly_missing(site: &Site, store: &Store) -> usize {
    let at = site.history().end;
    let mut fetched = std::collections::HashSet::new();
    store
        .for_each_page(false, |page| {
            if page.record.status == 200 {
                let path = page.record.url.strip_prefix(SIM_ORIGIN).unwrap_or("");
                fetched.insert(site.classify(path, at).url);
            }
        })
        .unwrap();
    let mut missing = 0;
    site.for_each_url_truth(at, |truth| {
        missing += usize::from(truth.class == PageClass::Valuable && !fetched.contains(&truth.url));
    });
    missing
}

/// Crawls `family` through a fetcher failing the chosen pages `times` times each, then closes
/// gaps; returns the gaps named before closing, what closing did, the pages failed on purpose
/// before closing, and the valuable pages truly missing at the end.
fn crawl_and_close(family: FamilyName, times: usize) -> (usize, GapClosing, usize, usize) {
    let site = Arc::new(Site::build(SiteConfig::new(family, 2, Scale::Small)));
    let (learned, _, _) = learn_in_process(&site, 300, 2, Strategy::Skeleton).unwrap();
    let db = std::env::temp_dir().join(format!(
        "trawl-close-gaps-{}-{times}-{}.db",
        family.name(),
        std::process::id()
    ));
    trawl_store::remove_database_files(&db);
    let mut store = Store::open(&db).unwrap();
    let fetcher = CookieJarFetcher::new(FailingFetcher {
        inner: SimFetcher::new(Arc::clone(&site), SIM_ORIGIN),
        site: Arc::clone(&site),
        fails: chosen_pages,
        times,
        asked: Mutex::new(HashMap::new()),
    });
    let clock = FixedClock::new(jiff::Timestamp::from_second(site.history().end).unwrap());
    let portal = Url::parse(&format!("{SIM_ORIGIN}{}", site.portal_path())).unwrap();
    let mut crawler = open_crawl(&mut store, &portal, &fetcher, &clock, None, || {
        Ok::<_, RunError>(CrawlStrategy::Plan(Box::new(learned.plan)))
    })
    .unwrap()
    .crawler;
    let options = DriveOptions {
        max_pages: None,
        workers: 2,
        paced: false,
    };
    let (end, _) = drive(&mut store, &mut crawler, &fetcher, &clock, options, |_| {}).unwrap();
    assert_eq!(end, CrawlEnd::FrontierEmpty);
    let gaps_before = audit_store(&store).unwrap().gaps.len();
    let failed_before = fetcher.inner().asked.lock().unwrap().len();
    let closing = close_gaps(
        &mut store,
        &mut crawler,
        &portal,
        &fetcher,
        &clock,
        options,
        |_| {},
    )
    .unwrap();
    let missing = truly_missing(&site, &store);
    drop(store);
    trawl_store::remove_database_files(&db);
    (gaps_before, closing, failed_before, missing)
}

#[test]
fn pages_that_failed_once_are_fetched_again_and_the_crawl_ends_whole() {
    for family in [FamilyName::Phpbb, FamilyName::Xenforo] {
        let (gaps_before, closing, failed, missing) = crawl_and_close(family, 1);
        let name = family.name();
        assert!(failed >= 10, "{name}: only {failed} pages failed");
        // A thread page that failed is named when a page the crawl has states it; one listed
        // only on a board page that failed too is named once closing brings the board page.
        assert!(gaps_before > 0, "{name}: no gap for {failed} failures");
        assert!(closing.rounds >= 1, "{name}");
        assert!(
            !closing.report.is_incomplete(),
            "{name}: {:?}",
            closing.report.gaps
        );
        assert_eq!(missing, 0, "{name}: valuable pages still missing");
    }
}

#[test]
fn pages_that_always_fail_are_asked_for_once_and_stay_named() {
    let (_, closing, failed, missing) = crawl_and_close(FamilyName::Phpbb, usize::MAX);
    assert_eq!(
        closing.asked, failed,
        "each failed page asked for once more"
    );
    assert_eq!(closing.fetched, failed, "and nothing else fetched");
    assert!(closing.report.is_incomplete());
    let named: usize = [GapKind::ListedThread, GapKind::LinkedListPage]
        .iter()
        .map(|&kind| closing.report.count(kind))
        .sum();
    assert_eq!(named, failed, "{:?}", closing.report.gaps);
    assert!(missing >= failed);
}
