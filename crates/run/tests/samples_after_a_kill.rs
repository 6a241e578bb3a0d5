//! A crawl killed after its plan was stored, before it took every page sampled to learn the
//! plan, is resumed from its store (a `trawl crawl` run again after kill -9, a fleet worker's
//! successor) and asks the forum for none of the sampled pages it had not taken: the samples
//! left wait in the store and answer the resumed crawl as they would have answered the killed
//! one. Run on both store backends: `scripts/test-postgres.sh cargo test -p trawl-run`.
//!
//! The kill is made exact rather than timed: the first run's crawl is driven to a page limit
//! (none, or a few pages) and then everything the process held in memory is dropped, as a
//! kill drops it, before a new fetcher and crawler open the same store.

use std::sync::{Arc, Mutex};

use jiff::Timestamp;
use trawl_crawl::CrawlStrategy;
use trawl_learn::sample::{SampleOptions, sample_site};
use trawl_learn::traverse::Strategy;
use trawl_model::{CookieJarFetcher, FetchError, FetchRequest, FetchResponse, Fetcher, FixedClock};
use trawl_run::{
    CrawlEnd, DriveOptions, RunError, SampledAnswers, close_gaps, drive, open_crawl,
    sample_resumably,
};
use trawl_sim::{FamilyName, Scale, SimFetcher, Site, SiteConfig};
use trawl_store::{Store, StoreLocation};
use url::Url;

const ORIGIN: &str = "http://forum.sim.test";
const SAMPLES: usize = 60;

/// The simulator behind a list of every URL the forum was asked for.
struct Forum {
    inner: SimFetcher,
    asked: Mutex<Vec<String>>,
}

impl Forum {
    fn asked_since(&self, start: usize) -> Vec<String> {
        self.asked.lock().unwrap()[start..].to_vec()
    }

    fn asked_so_far(&self) -> usize {
        self.asked.lock().unwrap().len()
    }
}

impl Fetcher for &Forum {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        self.asked.lock().unwrap().push(request.url.clone());
        self.inner.fetch(request)
    }
}

/// What one crawl of the forum asked it for, from the plan's storing to the crawl's end.
struct CrawlRequests {
    /// URLs the sampling asked for.
    sampled: Vec<String>,
    /// URLs asked for after the plan was stored, by every run of the crawl.
    after_plan: Vec<String>,
    /// URLs the resumed run asked for.
    resumed: Vec<String>,
    /// Samples the store handed the resumed run.
    handed_to_resumed: usize,
    /// Samples the store still keeps at the end.
    kept_at_the_end: usize,
}

/// Learns the forum's plan keeping the samples in `location`'s store and crawls it; with
/// `killed_after`, the first run stops after that many pages and is dropped, and a second run
/// resumes from the store to the end.
fn crawl(site: &Arc<Site>, location: &StoreLocation, killed_after: Option<usize>) -> CrawlRequests {
    let forum = Forum {
        inner: SimFetcher::new(Arc::clone(site), ORIGIN),
        asked: Mutex::new(Vec::new()),
    };
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let clock = FixedClock::new(Timestamp::from_second(site.history().end).unwrap());
    let open = || Store::open_at(location, portal.as_str()).unwrap();
    let options = |max_pages| DriveOptions {
        max_pages,
        workers: 2,
        paced: false,
    };

    let mut store = open();
    let fetcher = CookieJarFetcher::new(SampledAnswers::new(&forum));
    let opened = open_crawl(&mut store, &portal, &fetcher, &clock, None, || {
        let sampled = sample_resumably(&fetcher, open(), |through, _| {
            let options = SampleOptions {
                max_pages: SAMPLES,
                seed: 3,
                ..SampleOptions::default()
            };
            let pages = sample_site(through, &clock, portal.clone(), &options, |_| {})
                .expect("the simulated forum is sampled");
            Ok::<_, RunError>(pages)
        })?;
        let learned = trawl_learn::learn(&portal, sampled.pages, Strategy::Skeleton);
        Ok::<_, RunError>(CrawlStrategy::Plan(Box::new(learned.plan)))
    })
    .unwrap();
    let plan_stored = forum.asked_so_far();
    let sampled = forum.asked_since(0);
    fetcher.inner().offer(opened.sampled);
    let mut crawler = opened.crawler;
    let (end, _) = drive(
        &mut store,
        &mut crawler,
        &fetcher,
        &clock,
        options(killed_after),
        |_| {},
    )
    .unwrap();

    let mut resumed = Vec::new();
    let mut handed_to_resumed = 0;
    let (mut store, fetcher, mut crawler) = match killed_after {
        None => (store, fetcher, crawler),
        Some(_) => {
            assert_eq!(end, CrawlEnd::PageLimit, "the first run was cut short");
            // The kill: the process's fetcher, its samples in memory and its crawler are gone.
            drop((store, fetcher, crawler));
            let resumed_from = forum.asked_so_far();
            let mut store = open();
            let fetcher = CookieJarFetcher::new(SampledAnswers::new(&forum));
            let opened = open_crawl(&mut store, &portal, &fetcher, &clock, None, || {
                Err::<CrawlStrategy, _>(RunError::NoCrawl {
                    location: "a resumed crawl learns nothing".into(),
                })
            })
            .unwrap();
            handed_to_resumed = opened.sampled.len();
            fetcher.inner().offer(opened.sampled);
            let mut crawler = opened.crawler;
            drive(
                &mut store,
                &mut crawler,
                &fetcher,
                &clock,
                options(None),
                |_| {},
            )
            .unwrap();
            resumed = forum.asked_since(resumed_from);
            (store, fetcher, crawler)
        }
    };
    close_gaps(
        &mut store,
        &mut crawler,
        &portal,
        &fetcher,
        &clock,
        options(None),
        |_| {},
    )
    .unwrap();
    if killed_after.is_none() {
        resumed = Vec::new();
    }
    CrawlRequests {
        sampled,
        after_plan: forum.asked_since(plan_stored),
        resumed,
        handed_to_resumed,
        kept_at_the_end: store.samples().unwrap().len(),
    }
}

/// Crawls `family` once without a kill and once killed after each of `kills` pages of its
/// crawl, each in a new store `place` makes, and checks that no resumed run asked for a sampled
/// URL the uninterrupted crawl did not ask for after its plan too.
fn check(family: FamilyName, kills: &[usize], place: &dyn Fn() -> StoreLocation) {
    let site = Arc::new(Site::build(SiteConfig::new(family, 1, Scale::Small)));
    let in_a_new_store = |killed_after| {
        let location = place();
        let requests = crawl(&site, &location, killed_after);
        if let StoreLocation::File(path) = &location {
            trawl_store::remove_database_files(path);
        }
        requests
    };
    let name = family.name();
    let whole = in_a_new_store(None);
    assert_eq!(whole.kept_at_the_end, 0, "{name}: samples left at the end");
    let asked_again_by_whole: Vec<&String> = whole
        .after_plan
        .iter()
        .filter(|url| whole.sampled.contains(url))
        .collect();
    // Two workers fetch at once, so the forum hears the same requests in either order.
    let sorted = |urls: &[String]| {
        let mut urls = urls.to_vec();
        urls.sort();
        urls
    };
    for &killed_after in kills {
        let cut = in_a_new_store(Some(killed_after));
        assert_eq!(whole.sampled, cut.sampled, "{name}: one sampling");
        assert!(
            cut.handed_to_resumed > 0,
            "{name}, killed after {killed_after} pages: the resumed run was handed no sample"
        );
        let asked_again_by_resumed: Vec<&String> = cut
            .resumed
            .iter()
            .filter(|url| cut.sampled.contains(url) && !asked_again_by_whole.contains(url))
            .collect();
        assert!(
            asked_again_by_resumed.is_empty(),
            "{name}, killed after {killed_after} pages: the resumed crawl asked again for \
             sampled pages {asked_again_by_resumed:?}"
        );
        assert_eq!(
            sorted(&cut.after_plan),
            sorted(&whole.after_plan),
            "{name}, killed after {killed_after} pages: the crawl asked for other pages"
        );
        assert_eq!(cut.kept_at_the_end, 0, "{name}: samples left at the end");
    }
}

fn sqlite_place() -> StoreLocation {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "trawl-samples-after-a-kill-{}-{}.db",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    trawl_store::remove_database_files(&path);
    StoreLocation::File(path)
}

fn postgres_place() -> StoreLocation {
    StoreLocation::Postgres(trawl_store::test_support::fresh_database())
}

#[test]
fn a_crawl_killed_before_it_took_its_samples_answers_from_them_when_resumed_sqlite() {
    check(FamilyName::Phpbb, &[0, 3], &sqlite_place);
    check(FamilyName::Smf, &[3], &sqlite_place);
}

#[test]
fn a_crawl_killed_before_it_took_its_samples_answers_from_them_when_resumed_postgres() {
    check(FamilyName::Phpbb, &[0, 3], &postgres_place);
}
