//! Duplicate fetches on small simulated forums: learn a plan from 300 samples (sample seed 1,
//! as `trawl bench crawl` does), or from the 100 issue 18 asks every family to be learned from,
//! crawl with it, and list every fetch the simulator's truth calls a duplicate (or invalid). Before the session ids were dropped from the portal's links and the sampler
//! settled pairs of spellings for the plan, these crawls fetched 4-8 duplicates each (the
//! portal twice, and the pages that taught the crawler `&start=0`, `?page=1`, `-1.html` and
//! SMF's `/board,1.0.html`).

use std::sync::Arc;

use trawl_crawl::{CrawlStrategy, Crawler};
use trawl_learn::sample::{NO_DELAY, SampleOptions, sample_site};
use trawl_learn::traverse::Strategy;
use trawl_model::{CookieJarFetcher, FetchRequest, Fetcher, FixedClock};
use trawl_sim::{FamilyName, PageClass, Scale, SimFetcher, Site, SiteConfig};
use url::Url;

const ORIGIN: &str = "http://forum.sim.test";
const SAMPLES: usize = 300;
/// The sample issue 18 asks every family to be learned from.
const FEW_SAMPLES: usize = 100;

struct Crawled {
    /// Pages the sample fetched, the checks of pairs of spellings included.
    sampled: usize,
    /// URLs fetched, in order.
    fetched: Vec<String>,
    /// Fetched URLs the truth calls duplicates (or valuable pages fetched again).
    duplicates: Vec<String>,
    /// Fetched URLs the truth calls invalid (login walls, missing pages) or endless.
    invalid: Vec<String>,
    valuable: usize,
    valuable_total: usize,
}

fn path_and_query(url: &Url) -> String {
    match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_string(),
    }
}

fn learn_and_crawl(family: FamilyName, seed: u64, samples: usize) -> Crawled {
    let site = Arc::new(Site::build(SiteConfig::new(family, seed, Scale::Small)));
    let end = site.history().end;
    let at = jiff::Timestamp::from_second(end).unwrap();
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let options = SampleOptions {
        max_pages: samples,
        seed: 1,
        delay: NO_DELAY,
        ..SampleOptions::default()
    };
    let pages = sample_site(
        &CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), ORIGIN)),
        &FixedClock::new(at),
        portal.clone(),
        &options,
        |_| {},
    )
    .unwrap();
    let sampled = pages.len();
    let plan = trawl_learn::learn(&portal, pages, Strategy::Skeleton).plan;
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), ORIGIN));
    let mut crawler = Crawler::new(portal, CrawlStrategy::Plan(Box::new(plan)));
    let mut crawled = Crawled {
        sampled,
        fetched: Vec::new(),
        duplicates: Vec::new(),
        invalid: Vec::new(),
        valuable: 0,
        valuable_total: 0,
    };
    site.for_each_url_truth(end, |truth| {
        crawled.valuable_total += usize::from(truth.class == PageClass::Valuable)
    });
    let mut valuable_seen = std::collections::HashSet::new();
    while let Some(queued) = crawler.next_request() {
        assert!(
            crawled.fetched.len() < 3_000,
            "the crawl of a small forum must end"
        );
        let response = fetcher
            .fetch(&FetchRequest::new(queued.url.as_str(), at))
            .unwrap();
        let page = crawler.record(&queued, &response);
        crawled.fetched.push(page.url.to_string());
        let truth = site.classify(&path_and_query(&page.url), end);
        match truth.class {
            PageClass::Valuable if valuable_seen.insert(truth.url.clone()) => crawled.valuable += 1,
            PageClass::Valuable | PageClass::Duplicate => {
                crawled.duplicates.push(page.url.to_string())
            }
            PageClass::Invalid | PageClass::Endless => crawled.invalid.push(page.url.to_string()),
        }
    }
    crawled
}

/// Crawls `family` seed `seed` with a plan learned from [`SAMPLES`] pages and checks that no
/// fetch was a duplicate, that every valuable page was fetched, and that the checks after the
/// sample cost at most what their budgets allow.
fn check(family: FamilyName, seed: u64) {
    check_with(family, seed, SAMPLES);
}

/// [`check`] with a plan learned from `samples` pages.
fn check_with(family: FamilyName, seed: u64, samples: usize) {
    let crawled = learn_and_crawl(family, seed, samples);
    assert_eq!(
        crawled.duplicates,
        Vec::<String>::new(),
        "{family:?} seed {seed}: duplicate fetches"
    );
    assert_eq!(
        crawled.valuable, crawled.valuable_total,
        "{family:?} seed {seed}: valuable pages missed"
    );
    // The checks after the sample proper: spellings and later pages a tenth of it each,
    // partners and unjudged places a twentieth each.
    assert!(
        crawled.sampled <= samples + 3 * samples / 10,
        "{family:?} seed {seed}: {} pages sampled of {samples}",
        crawled.sampled
    );
    let portal = &crawled.fetched[0];
    assert_eq!(
        crawled.fetched.iter().filter(|url| *url == portal).count(),
        1,
        "{family:?} seed {seed}: the portal is fetched once"
    );
}

#[test]
fn phpbb_session_ids_and_start_zero_cost_no_fetch() {
    // The portal sets `phpbb3_sid` and writes `sid=` into its links; pagers link `&start=0`.
    check(FamilyName::Phpbb, 1);
}

#[test]
fn smf_session_ids_after_semicolons_and_friendly_spellings_cost_no_fetch() {
    // SMF appends `;PHPSESSID=` to its links and pagers link `/index.php/board,1.0.html`.
    check(FamilyName::Smf, 1);
}

#[test]
fn tablecraft_first_pages_spelled_with_their_number_cost_no_fetch() {
    check(FamilyName::Tablecraft, 1);
}

#[test]
fn discourse_thread_page_one_costs_no_fetch_while_board_page_one_stays_a_page() {
    // Threads number pages from 1 and boards from 0: `?page=1` is redundant only under `/t/`.
    check(FamilyName::Discourse, 1);
}

#[test]
fn qa_first_pages_linked_in_the_default_answer_order_cost_no_fetch() {
    // Later pages of a question's answers are `?sort=oldest&page=N`; page 2's pager names
    // page 1 as `?sort=oldest&page=1`, which `page=1` dropped leaves in the answer orders the
    // plan skips as copies of the question's page.
    check(FamilyName::Qa, 1);
}

#[test]
fn yabb_first_pages_spelled_with_their_offset_cost_no_fetch() {
    // Pagers name a board's and a thread's first page `?board=NAME/0` and `?num=5/0`, and later
    // pages `?num=5/15` show what the permalinks `?num=5;r=15` show: the rule for the first
    // page must win over the one for later pages (40 duplicate fetches before). The sample
    // settles the offsets' rules (`trawl_learn::default_arguments`): 6 duplicate fetches
    // before, the pages that taught the crawler the rules.
    check(FamilyName::Yabb, 1);
    check_with(FamilyName::Yabb, 1, FEW_SAMPLES);
}

#[test]
fn qa_first_pages_spelled_with_their_default_sort_cost_no_fetch_from_a_small_sample() {
    // Pagers name a tag's first page `?sort=active&page=1`: two query pairs more than the
    // tag's own URL (5-8 duplicate fetches with plans from 100 samples before).
    check_with(FamilyName::Qa, 1, FEW_SAMPLES);
    check_with(FamilyName::Qa, 2, FEW_SAMPLES);
}

#[test]
fn slugtree_start_a_thread_buttons_are_not_fetched() {
    // Each board's "Start a thread" button (`/c/CATEGORY/BOARD/new/`) matches the thread
    // pattern and answers with a redirect to the login page; a sample of 100 pages fetched
    // none, so the crawler followed the unjudged place on trust (5 invalid fetches before,
    // `trawl_learn::unjudged_places`).
    for seed in [1, 2] {
        let crawled = learn_and_crawl(FamilyName::Slugtree, seed, FEW_SAMPLES);
        assert_eq!(
            crawled.invalid,
            Vec::<String>::new(),
            "slugtree seed {seed}: invalid fetches"
        );
        assert_eq!(
            crawled.valuable, crawled.valuable_total,
            "slugtree seed {seed}: valuable pages missed"
        );
    }
}
