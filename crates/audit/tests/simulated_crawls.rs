//! The audit of crawls of simulated forums, judged by the simulator's truth: a crawl of each
//! family learned and run in process, whole, with pages removed on purpose (a fetcher that
//! fails chosen thread and board pages), and stopped by a page limit.
//!
//! Every gap the audit names must be one the truth has (a valuable page of a board or thread
//! that no fetched page is), and every page the crawl asked for and was refused on purpose must
//! be named. The figures (`AUDIT` lines, printed with `--nocapture`) are the ones in the report
//! to the lead: false gaps on whole crawls, gaps found against gaps made.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use trawl_audit::{
    CrawlRecord, EntrySeen, FetchedPage, GapKind, LinkSeen, PostsSeen, anchor_links, audit,
    links_for_audit, post_identity,
};
use trawl_crawl::{CrawlStrategy, Crawler};
use trawl_learn::plan::Plan;
use trawl_learn::sample::{NO_DELAY, SampleOptions, sample_site};
use trawl_learn::sitemap::Role;
use trawl_learn::traverse::Strategy;
use trawl_model::{CookieJarFetcher, FetchError, FetchRequest, FetchResponse, Fetcher, FixedClock};
use trawl_sim::truth::UrlTruth;
use trawl_sim::{FamilyName, PageClass, Scale, SimFetcher, Site, SiteConfig};
use url::Url;

const ORIGIN: &str = "http://forum.sim.test";
const SEED: u64 = 2;

fn path_and_query(url: &str) -> String {
    let url = Url::parse(url).expect("a URL");
    match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_string(),
    }
}

/// The forum of `family` and `seed`, and the plan learned from 300 of its pages (learned once
/// per forum for all the crawls of a test).
fn forum(family: FamilyName, seed: u64) -> (Arc<Site>, Plan) {
    forum_of(family, seed, false)
}

/// What a learned plan is kept under: the family's name, the seed, and whether its cursors
/// count down.
type PlanKey = (&'static str, u64, bool);

/// [`forum`], its cursor-paged lists counting their cursors down when `counting_down`
/// ([`Site::with_cursors_counting_down`]).
fn forum_of(family: FamilyName, seed: u64, counting_down: bool) -> (Arc<Site>, Plan) {
    static PLANS: OnceLock<Mutex<HashMap<PlanKey, Plan>>> = OnceLock::new();
    let site = Site::build(SiteConfig::new(family, seed, Scale::Small));
    let site = Arc::new(if counting_down {
        site.with_cursors_counting_down()
    } else {
        site
    });
    let plans = PLANS.get_or_init(Mutex::default);
    if let Some(plan) = plans
        .lock()
        .unwrap()
        .get(&(family.name(), seed, counting_down))
    {
        return (site, plan.clone());
    }
    let at = jiff::Timestamp::from_second(site.history().end).unwrap();
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let sampler = CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), ORIGIN));
    let options = SampleOptions {
        max_pages: 300,
        seed,
        delay: NO_DELAY,
        ..SampleOptions::default()
    };
    let pages = sample_site(
        &sampler,
        &FixedClock::new(at),
        portal.clone(),
        &options,
        |_| {},
    )
    .unwrap();
    let plan = trawl_learn::learn(&portal, pages, Strategy::Skeleton).plan;
    plans
        .lock()
        .unwrap()
        .insert((family.name(), seed, counting_down), plan.clone());
    (site, plan)
}

/// How a removed page fails.
#[derive(Debug, Clone, Copy)]
enum Removal {
    /// No answer at all.
    NoAnswer,
    /// A server error.
    ServerError,
}

/// A fetcher that fails the pages `remove` chooses (by their truth) and keeps the URLs it
/// failed.
struct RemovingFetcher<'a> {
    inner: SimFetcher,
    site: &'a Site,
    remove: &'a (dyn Fn(&UrlTruth) -> Option<Removal> + Sync),
    removed: Mutex<Vec<String>>,
}

impl Fetcher for RemovingFetcher<'_> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let truth = self
            .site
            .classify(&path_and_query(&request.url), self.site.history().end);
        match (self.remove)(&truth) {
            None => self.inner.fetch(request),
            Some(removal) => {
                self.removed.lock().unwrap().push(request.url.clone());
                match removal {
                    Removal::NoAnswer => Err(FetchError::Connection {
                        url: request.url.clone(),
                        reason: "removed by the test".into(),
                    }),
                    Removal::ServerError => Ok(FetchResponse {
                        url: request.url.clone(),
                        status: 503,
                        headers: vec![("Content-Type".into(), "text/html".into())],
                        body: b"<html><body>busy</body></html>".to_vec(),
                        fetched_at: request.at,
                    }),
                }
            }
        }
    }
}

/// One crawl: what the store would hold, and the URLs the fetcher refused.
struct Crawled {
    record: CrawlRecord,
    /// The same crawl with only the links the store keeps for the audit (of list pages).
    digested: CrawlRecord,
    removed: Vec<String>,
}

/// Crawls `site` with `strategy` through a fetcher removing what `remove` chooses, for at most
/// `limit` fetches, and reads the crawl as the store keeps it.
fn crawl(
    site: &Arc<Site>,
    strategy: &CrawlStrategy,
    remove: &(dyn Fn(&UrlTruth) -> Option<Removal> + Sync),
    limit: Option<usize>,
) -> Crawled {
    let at = jiff::Timestamp::from_second(site.history().end).unwrap();
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let fetcher = CookieJarFetcher::new(RemovingFetcher {
        inner: SimFetcher::new(Arc::clone(site), ORIGIN),
        site,
        remove,
        removed: Mutex::new(Vec::new()),
    });
    let mut queued_urls: Vec<String> = vec![portal.to_string()];
    let mut crawler = Crawler::new(portal, strategy.clone());
    let mut record = CrawlRecord::default();
    let mut fetched_urls: HashSet<String> = HashSet::new();
    let mut kept_links: Vec<Vec<LinkSeen>> = Vec::new();
    loop {
        if limit.is_some_and(|limit| record.pages.len() >= limit) {
            break;
        }
        let Some(queued) = crawler.next_request() else {
            break;
        };
        for url in crawler.take_skipped() {
            record.passed_over.push(url);
        }
        assert!(
            record.pages.len() < 5_000,
            "the crawl of a small forum must end"
        );
        fetched_urls.insert(queued.url.to_string());
        let request = FetchRequest::new(queued.url.as_str(), at);
        let response = match fetcher.fetch(&request) {
            Ok(response) => response,
            Err(error) => {
                crawler.record_failure();
                record.pages.push(FetchedPage {
                    url: queued.url.to_string(),
                    error: Some(error.to_string()),
                    ..FetchedPage::default()
                });
                kept_links.push(Vec::new());
                continue;
            }
        };
        let redirect_to = response
            .header("location")
            .and_then(|location| queued.url.join(location).ok())
            .map(String::from);
        let page = crawler.record(&queued, &response);
        let links: Vec<LinkSeen> = anchor_links(&response.body, queued.url.as_str())
            .iter()
            .filter_map(|link| {
                Some(LinkSeen {
                    queued_as: crawler.queued_spelling(&Url::parse(link).ok()?).to_string(),
                    url: link.clone(),
                })
            })
            .collect();
        queued_urls.extend(page.queued.iter().map(|entry| entry.url.to_string()));
        let entries = page
            .analysis
            .thread_entries
            .iter()
            .map(|entry| EntrySeen {
                title: entry.title.clone(),
                url: Url::parse(&entry.url)
                    .map(|url| crawler.queued_spelling(&url).to_string())
                    .unwrap_or_else(|_| entry.url.clone()),
                replies: entry.replies,
                last_reply: entry.last_reply.map(|time| time.to_iso8601()),
            })
            .collect();
        let times: Vec<Option<String>> = page
            .analysis
            .posts
            .iter()
            .map(|post| post.time.map(|time| time.to_iso8601()))
            .collect();
        let posts = PostsSeen::of(page.analysis.posts.iter().zip(&times).map(|(post, time)| {
            (
                post_identity(
                    post.permalink.as_deref(),
                    post.author.as_deref(),
                    time.as_deref(),
                    &post.text,
                ),
                time.as_deref(),
            )
        }));
        // The links the store keeps for the audit of a list page (the rest are of no use to
        // it): `judge` checks that the audit reads the same from them.
        let list_links: Vec<String> = page.list_links.iter().map(Url::to_string).collect();
        let kept: HashSet<String> = if matches!(page.role, Some(Role::Thread | Role::ThreadList)) {
            links_for_audit(queued.url.as_str(), &list_links, &response.body)
                .into_iter()
                .collect()
        } else {
            HashSet::new()
        };
        kept_links.push(
            links
                .iter()
                .filter(|link| kept.contains(&link.url))
                .cloned()
                .collect(),
        );
        record.pages.push(FetchedPage {
            url: page.url.to_string(),
            status: page.status,
            error: None,
            redirect_to,
            role: page.role,
            list_links,
            title: page.title(),
            links,
            posts,
            thread_entries: entries,
        });
    }
    record.passed_over.extend(crawler.take_skipped());
    let passed: HashSet<&String> = record.passed_over.iter().collect();
    record.waiting = queued_urls
        .iter()
        .filter(|url| !fetched_urls.contains(*url) && !passed.contains(url))
        .cloned()
        .collect();
    let removed = fetcher.inner().removed.lock().unwrap().clone();
    let mut digested = record.clone();
    for (page, links) in digested.pages.iter_mut().zip(kept_links) {
        page.links = links;
    }
    Crawled {
        record,
        digested,
        removed,
    }
}

/// A valuable page's place: its list and position.
type Place = (String, u32);

/// The place of the page `url` shows, a duplicate's through its canonical URL.
fn place_of(site: &Site, url: &str) -> Option<Place> {
    let at = site.history().end;
    let mut truth = site.classify(&path_and_query(url), at);
    if truth.class == PageClass::Duplicate
        && let Some(canonical) = &truth.canonical
    {
        truth = site.classify(canonical, at);
    }
    match (truth.class, truth.list, truth.position) {
        (PageClass::Valuable, Some(list), Some(position)) => Some((list, position)),
        _ => None,
    }
}

/// What the truth says the crawl lacks: the valuable list pages no answered fetch shows.
fn truly_missing(site: &Site, record: &CrawlRecord) -> HashSet<Place> {
    let fetched: HashSet<Place> = record
        .pages
        .iter()
        .filter(|page| page.status == 200)
        .filter_map(|page| place_of(site, &page.url))
        .collect();
    let mut missing = HashSet::new();
    site.for_each_url_truth(site.history().end, |truth| {
        if let (PageClass::Valuable, Some(list), Some(position)) =
            (truth.class, truth.list, truth.position)
            && !fetched.contains(&(list.clone(), position))
        {
            missing.insert((list, position));
        }
    });
    missing
}

/// The audit's figures on one crawl, judged by the truth.
#[derive(Debug)]
struct Judged {
    gaps: usize,
    false_gaps: Vec<String>,
    made: usize,
    found: usize,
    not_found: Vec<String>,
    truly_missing: usize,
    incomplete: bool,
    unread_threads: usize,
}

fn judge(site: &Site, crawled: &Crawled) -> Judged {
    let report = audit(&crawled.record);
    // The store reads the bodies of list pages alone (boards and threads): of the others it
    // keeps no link, before the digest as after.
    let mut of_list_pages = crawled.record.clone();
    for page in &mut of_list_pages.pages {
        if !matches!(page.role, Some(Role::Thread | Role::ThreadList)) {
            page.links.clear();
        }
    }
    assert_eq!(
        audit(&crawled.digested),
        audit(&of_list_pages),
        "the audit of the links the store keeps differs from the audit of every link"
    );
    let missing = truly_missing(site, &crawled.record);
    let missing_lists: HashSet<&str> = missing.iter().map(|(list, _)| list.as_str()).collect();
    let false_gaps: Vec<String> = report
        .gaps
        .iter()
        .filter(|gap| {
            let place = place_of(site, &gap.url);
            let true_gap = match gap.kind {
                GapKind::ShortThread => place
                    .as_ref()
                    .is_some_and(|(list, _)| missing_lists.contains(list.as_str())),
                _ => place.as_ref().is_some_and(|place| missing.contains(place)),
            };
            !true_gap
        })
        .map(|gap| format!("{:?} {} ({:?})", gap.kind, gap.url, gap.missing))
        .collect();
    let named: HashSet<&str> = report
        .gaps
        .iter()
        .filter(|gap| gap.kind != GapKind::ShortThread)
        .map(|gap| gap.url.as_str())
        .collect();
    let made: HashSet<&str> = crawled.removed.iter().map(String::as_str).collect();
    let not_found: Vec<String> = made
        .iter()
        .filter(|url| !named.contains(**url))
        .map(|url| url.to_string())
        .collect();
    Judged {
        gaps: report.gaps.len(),
        made: made.len(),
        found: made.len() - not_found.len(),
        not_found,
        false_gaps,
        truly_missing: missing.len(),
        incomplete: report.is_incomplete(),
        unread_threads: report.unread.len(),
    }
}

/// The number in a truth list name (`thread:12`).
fn list_number(list: &str, kind: &str) -> Option<u32> {
    list.strip_prefix(kind)?.strip_prefix(':')?.parse().ok()
}

/// Which pages a removal case fails, by their truth.
type Removals = fn(&UrlTruth) -> Option<Removal>;

/// The valuable page's list number of kind `kind` and its position.
fn place_in(truth: &UrlTruth, kind: &str) -> Option<(u32, u32)> {
    if truth.class != PageClass::Valuable {
        return None;
    }
    Some((list_number(truth.list.as_deref()?, kind)?, truth.position?))
}

/// The first page of every fifth thread (no answer) and the second page of others (a server
/// error).
fn thread_pages(truth: &UrlTruth) -> Option<Removal> {
    match place_in(truth, "thread")? {
        (thread, 1) if thread % 5 == 0 => Some(Removal::NoAnswer),
        (thread, 2) if thread % 5 == 2 => Some(Removal::ServerError),
        _ => None,
    }
}

/// Every even-numbered page of a board after the first: a server error on odd boards, no
/// answer on even ones. The threads listed only there are lost with them, and no page the
/// crawl has states them: the audit names the board pages.
fn board_pages(truth: &UrlTruth) -> Option<Removal> {
    match place_in(truth, "board")? {
        (board, page) if page % 2 == 0 && board % 2 == 1 => Some(Removal::ServerError),
        (_, page) if page % 2 == 0 => Some(Removal::NoAnswer),
        _ => None,
    }
}

/// The removal cases every family is crawled with.
const REMOVAL_CASES: [(&str, Removals); 2] =
    [("thread pages", thread_pages), ("board pages", board_pages)];

/// Crawls `family` whole, with pages removed, and stopped at a page limit, and checks the
/// audit of each against the truth.
fn check(family: FamilyName) {
    let (site, plan) = forum(family, SEED);
    let plan = CrawlStrategy::Plan(Box::new(plan));
    let name = family.name();

    let whole = crawl(&site, &plan, &|_| None, None);
    let judged = judge(&site, &whole);
    println!(
        "AUDIT {name} whole: {} fetches, {} gaps ({} false), truly missing {}, {} threads with unread posts",
        whole.record.pages.len(),
        judged.gaps,
        judged.false_gaps.len(),
        judged.truly_missing,
        judged.unread_threads
    );
    assert!(
        judged.false_gaps.is_empty(),
        "{name} whole: {:#?}",
        judged.false_gaps
    );
    assert_eq!(
        judged.incomplete,
        judged.truly_missing > 0,
        "{name} whole: the audit says the crawl is incomplete exactly when it is: {judged:?}"
    );

    for (case, removals) in REMOVAL_CASES {
        let removed = crawl(&site, &plan, &removals, None);
        let judged = judge(&site, &removed);
        println!(
            "AUDIT {name} {case} removed: {} fetches, gaps made {}, found {}, {} gaps named ({} false), truly missing {}",
            removed.record.pages.len(),
            judged.made,
            judged.found,
            judged.gaps,
            judged.false_gaps.len(),
            judged.truly_missing
        );
        assert!(
            judged.made >= 3,
            "{name} {case}: too few removals to prove anything: {judged:?}"
        );
        assert!(
            judged.false_gaps.is_empty(),
            "{name} {case}: {:#?}",
            judged.false_gaps
        );
        assert!(
            judged.not_found.is_empty(),
            "{name} {case}, not named: {:#?}",
            judged.not_found
        );
        assert!(judged.incomplete);
    }

    let limit = whole.record.pages.len() / 3;
    let stopped = crawl(&site, &plan, &|_| None, Some(limit));
    let judged = judge(&site, &stopped);
    println!(
        "AUDIT {name} stopped at {limit}: {} waiting, {} gaps named ({} false), truly missing {}",
        stopped.record.waiting.len(),
        judged.gaps,
        judged.false_gaps.len(),
        judged.truly_missing
    );
    assert!(
        judged.false_gaps.is_empty(),
        "{name} stopped: {:#?}",
        judged.false_gaps
    );
    assert!(
        judged.incomplete,
        "{name}: a crawl stopped early is incomplete"
    );

    // Breadth first: no roles and no list links, only entries and pages with posts to go by,
    // stopped at three times the plan's fetches (its calendars and searches have no end).
    let limit = 3 * whole.record.pages.len();
    let breadth_first = crawl(&site, &CrawlStrategy::BreadthFirst, &|_| None, Some(limit));
    let judged = judge(&site, &breadth_first);
    println!(
        "AUDIT {name} breadth first, {} fetches: {} gaps named ({} false), truly missing {}",
        breadth_first.record.pages.len(),
        judged.gaps,
        judged.false_gaps.len(),
        judged.truly_missing
    );
    assert!(
        judged.false_gaps.is_empty(),
        "{name} breadth first: {:#?}",
        judged.false_gaps
    );
}

/// Whole crawls of other forums of `family`: no gap the truth does not have.
fn check_whole(family: FamilyName, seed: u64) {
    let (site, plan) = forum(family, seed);
    let whole = crawl(&site, &CrawlStrategy::Plan(Box::new(plan)), &|_| None, None);
    let judged = judge(&site, &whole);
    println!(
        "AUDIT {} seed {seed} whole: {} fetches, {} gaps ({} false), truly missing {}, {} threads with unread posts",
        family.name(),
        whole.record.pages.len(),
        judged.gaps,
        judged.false_gaps.len(),
        judged.truly_missing,
        judged.unread_threads
    );
    assert!(
        judged.false_gaps.is_empty(),
        "{} seed {seed}: {:#?}",
        family.name(),
        judged.false_gaps
    );
    assert_eq!(
        judged.incomplete,
        judged.truly_missing > 0,
        "{} seed {seed}: the audit says the crawl is incomplete exactly when it is: {judged:?}",
        family.name()
    );
}

#[test]
fn phpbb() {
    check(FamilyName::Phpbb);
}

#[test]
fn vbulletin() {
    check(FamilyName::Vbulletin);
}

#[test]
fn smf() {
    check(FamilyName::Smf);
}

#[test]
fn discuz() {
    check(FamilyName::Discuz);
}

#[test]
fn xenforo() {
    check(FamilyName::Xenforo);
}

#[test]
fn discourse() {
    check(FamilyName::Discourse);
}

#[test]
fn tablecraft() {
    check(FamilyName::Tablecraft);
}

#[test]
fn whole_crawls_of_other_forums_show_no_false_gap() {
    for family in FamilyName::ALL {
        for seed in [7, 41] {
            check_whole(family, seed);
        }
    }
}

/// Boards that list their newest thread first and page by cursors counting down
/// (`?before=<id>`): a whole crawl shows no gap the truth does not have and is incomplete
/// exactly when the truth misses a page, and every board page removed on purpose (a cursor page,
/// so the pages after it are never linked) is named.
#[test]
fn boards_paged_by_cursors_counting_down() {
    for seed in [SEED, 7] {
        let (site, plan) = forum_of(FamilyName::Nodebb, seed, true);
        let plan = CrawlStrategy::Plan(Box::new(plan));
        let whole = crawl(&site, &plan, &|_| None, None);
        let judged = judge(&site, &whole);
        println!(
            "AUDIT nodebb counting down seed {seed} whole: {} fetches, {} gaps ({} false), truly missing {}",
            whole.record.pages.len(),
            judged.gaps,
            judged.false_gaps.len(),
            judged.truly_missing
        );
        assert!(
            judged.false_gaps.is_empty(),
            "seed {seed}: {:#?}",
            judged.false_gaps
        );
        assert_eq!(
            judged.incomplete,
            judged.truly_missing > 0,
            "seed {seed}: the audit says the crawl is incomplete exactly when it is: {judged:?}"
        );
        let removed = crawl(&site, &plan, &board_pages, None);
        let judged = judge(&site, &removed);
        println!(
            "AUDIT nodebb counting down seed {seed} board pages removed: gaps made {}, found {}, {} false",
            judged.made,
            judged.found,
            judged.false_gaps.len()
        );
        assert!(
            judged.made >= 1,
            "seed {seed}: no board page removed: {judged:?}"
        );
        assert!(
            judged.false_gaps.is_empty(),
            "seed {seed}: {:#?}",
            judged.false_gaps
        );
        assert!(
            judged.not_found.is_empty(),
            "seed {seed}, not named: {:#?}",
            judged.not_found
        );
        assert!(judged.incomplete);
    }
}
