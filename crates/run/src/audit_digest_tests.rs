//! The audit read from the store's digests of pages (`Store::audit_pages`) against the audit
//! read from the pages themselves (`crate::audit_of_stored_pages`, as `audit_store` read them
//! before the digests: every list page's body scanned for its links, every post's text): on
//! simulated forums of several families crawled in process through the real driver and store,
//! with pages failing, the two reports must be the same.

use std::sync::Arc;

use trawl_crawl::CrawlStrategy;
use trawl_eval::learning::{SIM_ORIGIN, learn_in_process};
use trawl_learn::traverse::Strategy;
use trawl_model::{FetchError, FetchRequest, FetchResponse, FixedClock};
use trawl_sim::{FamilyName, Scale, SimFetcher, Site, SiteConfig};

use super::*;
use crate::open_crawl;

/// Fails every seventh request it is asked: threads, boards and their later pages go missing
/// alike, and the audit has gaps of every kind to name.
struct EverySeventhFails {
    inner: SimFetcher,
    asked: std::sync::atomic::AtomicUsize,
}

impl Fetcher for EverySeventhFails {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let asked = self
            .asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if asked % 7 == 6 {
            return Err(FetchError::Connection {
                url: request.url.clone(),
                reason: "failed on purpose".into(),
            });
        }
        self.inner.fetch(request)
    }
}

/// Crawls `family` (seed 2) through a fetcher failing every seventh request, stopped after
/// `max_pages` when given, and checks the two audits agree.
fn check(family: FamilyName, max_pages: Option<usize>) {
    let site = Arc::new(Site::build(SiteConfig::new(family, 2, Scale::Small)));
    let (learned, _, _) = learn_in_process(&site, 300, 2, Strategy::Skeleton).unwrap();
    let db = std::env::temp_dir().join(format!(
        "trawl-audit-digests-{}-{}.db",
        family.name(),
        std::process::id()
    ));
    trawl_store::remove_database_files(&db);
    let mut store = Store::open(&db).unwrap();
    let fetcher = CookieJarFetcher::new(EverySeventhFails {
        inner: SimFetcher::new(Arc::clone(&site), SIM_ORIGIN),
        asked: Default::default(),
    });
    let clock = FixedClock::new(jiff::Timestamp::from_second(site.history().end).unwrap());
    let portal = Url::parse(&format!("{SIM_ORIGIN}{}", site.portal_path())).unwrap();
    let mut crawler = open_crawl(&mut store, &portal, &fetcher, &clock, None, || {
        Ok::<_, RunError>(CrawlStrategy::Plan(Box::new(learned.plan)))
    })
    .unwrap()
    .crawler;
    let options = DriveOptions {
        max_pages,
        workers: 1,
        paced: false,
    };
    drive(&mut store, &mut crawler, &fetcher, &clock, options, |_| {}).unwrap();
    // The audit reads the frontier's unfetched URLs from the crawler's resume state.
    assert_eq!(
        unfetched_frontier_of(&store.resume_state().unwrap()),
        store.unfetched_frontier().unwrap(),
        "{}",
        family.name()
    );
    let from_digests = audit_store(&store).unwrap();
    let from_pages = crate::audit_of_stored_pages(&store).unwrap();
    drop(store);
    trawl_store::remove_database_files(&db);
    let name = family.name();
    assert!(
        !from_pages.gaps.is_empty(),
        "{name}: the failures must leave gaps to compare"
    );
    assert_eq!(from_digests, from_pages, "{name}");
}

#[test]
fn the_audit_from_the_digests_is_the_audit_from_the_pages() {
    for family in [
        FamilyName::Phpbb,
        FamilyName::Xenforo,
        FamilyName::Discourse,
        FamilyName::Vbulletin,
    ] {
        check(family, None);
    }
    check(FamilyName::Smf, Some(150));
}
