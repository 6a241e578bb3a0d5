//! Learn a plan from a sample of a simulated forum, crawl the forum with it, and judge every
//! fetch by the simulator's ground truth. The floors are what the current learner reaches with
//! 300 samples on seed 2 (see docs/BENCHMARKS.md, `trawl bench learn`), a little lower, plus a
//! few other seeds that once went wrong: they catch regressions; the bars are higher
//! and not yet met everywhere (Discourse seed 2 still fetches each thread's raw view: 44 %
//! duplicates). Raised on 2026-11-21 after the fixes to first-page spellings, profiles and
//! thread representatives.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use trawl_crawl::lists::{ListPage, assemble_lists};
use trawl_crawl::{CrawlStrategy, Crawler};
use trawl_learn::sample::{NO_DELAY, SampleOptions, sample_site};
use trawl_learn::traverse::Strategy;
use trawl_model::{CookieJarFetcher, FetchRequest, Fetcher, FixedClock};
use trawl_sim::{FamilyName, PageClass, Scale, SimFetcher, Site, SiteConfig};
use url::Url;

const ORIGIN: &str = "http://forum.sim.test";

struct Outcome {
    fetched: usize,
    valuable: usize,
    valuable_total: usize,
    invalid_or_endless: usize,
    duplicate: usize,
    /// Valuable later pages of lists (position 2 on) fetched, and those the crawl's assembled
    /// lists put with their list's first page, judged as `trawl bench crawl` judges them.
    relations_total: usize,
    relations_kept: usize,
    /// Posts read from the portal: a board index's rows (board link, description, counts, the
    /// last post's author and time) are no posts, however much they look like them.
    posts_on_portal: usize,
}

/// What list assembly and the relationship judgement need of one fetched page.
struct FetchedPage {
    url: String,
    role: Option<trawl_learn::sitemap::Role>,
    list_links: Vec<String>,
    title: Option<String>,
    truth: trawl_sim::truth::UrlTruth,
}

/// Counts the valuable later pages of lists, and those whose assembled list also holds the
/// list's first page, into `outcome`.
fn judge_relations(pages: &[FetchedPage], outcome: &mut Outcome) {
    let input: Vec<ListPage<'_>> = pages
        .iter()
        .map(|page| ListPage {
            url: &page.url,
            role: page.role,
            list_links: &page.list_links,
            title: page.title.as_deref(),
        })
        .collect();
    let mut list_of_page: HashMap<usize, usize> = HashMap::new();
    for (list, assembled) in assemble_lists(&input).iter().enumerate() {
        for &page in &assembled.pages {
            list_of_page.insert(page, list);
        }
    }
    let mut lists_of_first_pages: HashMap<&str, HashSet<usize>> = HashMap::new();
    for (index, page) in pages.iter().enumerate() {
        if page.truth.class == PageClass::Valuable
            && page.truth.position == Some(1)
            && let (Some(list), Some(&assembled)) = (&page.truth.list, list_of_page.get(&index))
        {
            lists_of_first_pages
                .entry(list.as_str())
                .or_default()
                .insert(assembled);
        }
    }
    let mut judged: HashSet<&str> = HashSet::new();
    for (index, page) in pages.iter().enumerate() {
        let (Some(list), Some(position)) = (&page.truth.list, page.truth.position) else {
            continue;
        };
        if page.truth.class != PageClass::Valuable
            || position < 2
            || !judged.insert(page.truth.url.as_str())
        {
            continue;
        }
        outcome.relations_total += 1;
        if let (Some(assembled), Some(firsts)) = (
            list_of_page.get(&index),
            lists_of_first_pages.get(list.as_str()),
        ) && firsts.contains(assembled)
        {
            outcome.relations_kept += 1;
        }
    }
}

fn path_and_query(url: &Url) -> String {
    match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_string(),
    }
}

fn learn_and_crawl(family: FamilyName, seed: u64, sample_seed: u64) -> Outcome {
    learn_and_crawl_at_scale(family, seed, sample_seed, Scale::Small, None)
}

/// [`learn_and_crawl`] of a small forum learned from `samples` pages instead of 300.
fn learn_from_samples_and_crawl(family: FamilyName, seed: u64, samples: usize) -> Outcome {
    learn_and_crawl_with(family, seed, seed, Scale::Small, None, samples, None)
}

/// [`learn_and_crawl`] on a forum of any scale; with `fetch_limit`, the crawl stops after that
/// many fetches (a medium forum takes minutes to crawl whole in a debug build), without it a
/// small forum's crawl must end by itself.
fn learn_and_crawl_at_scale(
    family: FamilyName,
    seed: u64,
    sample_seed: u64,
    scale: Scale,
    fetch_limit: Option<usize>,
) -> Outcome {
    learn_and_crawl_with(family, seed, sample_seed, scale, fetch_limit, 300, None)
}

fn learn_and_crawl_with(
    family: FamilyName,
    seed: u64,
    sample_seed: u64,
    scale: Scale,
    fetch_limit: Option<usize>,
    samples: usize,
    day: Option<i64>,
) -> Outcome {
    let site = Site::build(SiteConfig::new(family, seed, scale));
    learn_and_crawl_site(site, sample_seed, fetch_limit, samples, day)
}

/// [`learn_and_crawl_with`] on a site built with options beyond its family.
fn learn_and_crawl_site(
    site: Site,
    sample_seed: u64,
    fetch_limit: Option<usize>,
    samples: usize,
    day: Option<i64>,
) -> Outcome {
    let site = Arc::new(site);
    // The forum as of `day` days into its history, or as of its end.
    let instant = match day {
        Some(day) => site.history().start + day * 86_400,
        None => site.history().end,
    };
    let at = jiff::Timestamp::from_second(instant).unwrap();
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let sampler = CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), ORIGIN));
    let options = SampleOptions {
        max_pages: samples,
        seed: sample_seed,
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
    let learned = trawl_learn::learn(&portal, pages, Strategy::Skeleton);
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), ORIGIN));
    let mut crawler = Crawler::new(portal, CrawlStrategy::Plan(Box::new(learned.plan)));
    let mut outcome = Outcome {
        fetched: 0,
        valuable: 0,
        valuable_total: 0,
        invalid_or_endless: 0,
        duplicate: 0,
        relations_total: 0,
        relations_kept: 0,
        posts_on_portal: 0,
    };
    let mut fetched_pages: Vec<FetchedPage> = Vec::new();
    site.for_each_url_truth(instant, |truth| {
        outcome.valuable_total += usize::from(truth.class == PageClass::Valuable)
    });
    let mut seen = HashSet::new();
    while let Some(queued) = crawler.next_request() {
        match fetch_limit {
            Some(limit) if outcome.fetched >= limit => break,
            Some(_) => {}
            None => assert!(
                outcome.fetched < 5_000,
                "the crawl of a small forum must end"
            ),
        }
        let response = fetcher
            .fetch(&FetchRequest::new(queued.url.as_str(), at))
            .unwrap();
        let page = crawler.record(&queued, &response);
        outcome.fetched += 1;
        let truth = site.classify(&path_and_query(&page.url), instant);
        match truth.class {
            PageClass::Valuable if seen.insert(truth.url.clone()) => outcome.valuable += 1,
            PageClass::Valuable | PageClass::Duplicate => outcome.duplicate += 1,
            PageClass::Invalid | PageClass::Endless => outcome.invalid_or_endless += 1,
        }
        if truth.role == trawl_sim::Role::Portal {
            outcome.posts_on_portal += page.analysis.posts.len();
        }
        fetched_pages.push(FetchedPage {
            url: page.url.to_string(),
            role: page.role,
            list_links: page.list_links.iter().map(Url::to_string).collect(),
            title: page.title(),
            truth,
        });
    }
    judge_relations(&fetched_pages, &mut outcome);
    outcome
}

fn check(family: FamilyName, minimum_coverage: f64, maximum_invalid: f64, maximum_duplicate: f64) {
    check_seed(
        family,
        2,
        minimum_coverage,
        maximum_invalid,
        maximum_duplicate,
    );
}

fn check_seed(
    family: FamilyName,
    seed: u64,
    minimum_coverage: f64,
    maximum_invalid: f64,
    maximum_duplicate: f64,
) {
    check_sampled(
        family,
        seed,
        seed,
        minimum_coverage,
        maximum_invalid,
        maximum_duplicate,
    );
}

/// [`check_seed`] with the sampler's seed chosen apart from the forum's (`trawl bench crawl`
/// samples every forum with seed 1).
fn check_sampled(
    family: FamilyName,
    seed: u64,
    sample_seed: u64,
    minimum_coverage: f64,
    maximum_invalid: f64,
    maximum_duplicate: f64,
) {
    let outcome = learn_and_crawl(family, seed, sample_seed);
    let coverage = outcome.valuable as f64 / outcome.valuable_total as f64;
    let invalid = outcome.invalid_or_endless as f64 / outcome.fetched as f64;
    let duplicate = outcome.duplicate as f64 / outcome.fetched as f64;
    assert_eq!(
        outcome.posts_on_portal,
        0,
        "{} seed {seed}: the portal's rows were stored as posts",
        family.name()
    );
    assert!(
        coverage >= minimum_coverage
            && invalid <= maximum_invalid
            && duplicate <= maximum_duplicate,
        "{} seed {seed} (sampled with seed {sample_seed}): coverage {coverage:.3} (floor {minimum_coverage}), invalid {invalid:.3} \
         (ceiling {maximum_invalid}), duplicate {duplicate:.3} (ceiling {maximum_duplicate}) over \
         {} fetches",
        family.name(),
        outcome.fetched
    );
}

#[test]
fn phpbb_is_crawled_through_its_learned_plan() {
    check(FamilyName::Phpbb, 0.98, 0.01, 0.03);
}

#[test]
fn vbulletin_is_crawled_through_its_learned_plan() {
    check(FamilyName::Vbulletin, 0.97, 0.01, 0.01);
}

#[test]
fn discuz_is_crawled_through_its_learned_plan() {
    check(FamilyName::Discuz, 0.99, 0.01, 0.01);
}

#[test]
fn smf_is_crawled_through_its_learned_plan() {
    check(FamilyName::Smf, 0.99, 0.01, 0.03);
}

#[test]
fn xenforo_is_crawled_through_its_learned_plan() {
    check(FamilyName::Xenforo, 0.98, 0.01, 0.01);
}

#[test]
fn discourse_is_crawled_through_its_learned_plan() {
    check(FamilyName::Discourse, 0.99, 0.01, 0.50);
}

#[test]
fn tablecraft_is_crawled_through_its_learned_plan() {
    check(FamilyName::Tablecraft, 0.99, 0.01, 0.02);
}

/// Seeds whose plans once lost whole boards or fetched every thread twice: boards reached only
/// through the breadcrumbs of deeper pages (Discourse seed 1, 49.7 % coverage; Discuz! seed 1,
/// 61.5 %; vBulletin seed 1, 41.8 % duplicates through single-post views) and a thread layout
/// represented by its later pages, which kept the archive spelling too (XenForo seed 3, 45.5 %
/// duplicates). Measured with 300 samples on 2026-11-22: 99.7 %, 100 %, 96.2 % / 8.4 % and
/// 100 % / 0 %.
#[test]
fn seeds_that_once_lost_boards_or_fetched_copies_are_crawled_through_their_plans() {
    check_seed(FamilyName::Discourse, 1, 0.99, 0.01, 0.03);
    check_seed(FamilyName::Discuz, 1, 0.99, 0.01, 0.01);
    check_seed(FamilyName::Vbulletin, 1, 0.95, 0.01, 0.03);
    check_seed(FamilyName::Xenforo, 3, 0.99, 0.01, 0.01);
}

/// Forums sampled with seed 1, as `trawl bench crawl` samples them. SMF seed 3's plan once
/// represented threads by their "last post" spelling and crawled 10 pages (0.3 % coverage);
/// explicit first-page spellings (`&start=0`, `?page=1` of threads only, `-1.html`) cost phpBB,
/// Discourse and tablecraft 24-52 duplicate fetches each before rewrites learned while crawling
/// were scoped to a path and checked again as URLs leave the frontier (after: 2-5 each); and
/// vBulletin seed 2 lost thread pages 8-13 to rules learned from a "new posts" view (95.4 % →
/// 98.4 % coverage). Measured on 2026-11-21.
#[test]
fn forums_sampled_with_seed_one_are_crawled_without_first_page_copies() {
    check_sampled(FamilyName::Smf, 3, 1, 0.99, 0.01, 0.03);
    check_sampled(FamilyName::Phpbb, 2, 1, 0.98, 0.01, 0.02);
    check_sampled(FamilyName::Discourse, 2, 1, 0.99, 0.01, 0.01);
    check_sampled(FamilyName::Tablecraft, 2, 1, 0.99, 0.01, 0.01);
    check_sampled(FamilyName::Vbulletin, 2, 1, 0.98, 0.01, 0.01);
}

/// The first fetches of medium forums (a year, twelve boards) sampled with seed 1, as `trawl
/// bench crawl --scale medium` samples them. Discuz!'s thread pagers link page 1 in the dynamic
/// spelling `?mod=viewthread&tid=N&page=1`, which carries one number fewer than the static
/// `thread-N-1-1.html` and was fetched again for nearly every thread of two pages or more
/// (15.9 % duplicate fetches over the whole crawl) until rewrites learned while crawling joined
/// shapes differing by one number. SMF and tablecraft seed 1 are the forums whose boards once
/// followed no thread link (3.9 % and 15.3 % coverage): their first 1,500 fetches must be
/// nearly all valuable and new.
#[test]
fn medium_forums_are_crawled_without_copies_of_first_pages() {
    let cases = [
        (FamilyName::Discuz, 1, 0.01),
        (FamilyName::Smf, 1, 0.01),
        (FamilyName::Tablecraft, 1, 0.01),
    ];
    for (family, seed, maximum_duplicate) in cases {
        let fetches = 1_500;
        let outcome = learn_and_crawl_at_scale(family, seed, 1, Scale::Medium, Some(fetches));
        let duplicate = outcome.duplicate as f64 / outcome.fetched as f64;
        assert!(
            outcome.fetched == fetches
                && outcome.valuable + outcome.duplicate == fetches
                && duplicate <= maximum_duplicate,
            "{} seed {seed} at medium scale: {} fetches, {} valuable, {} duplicate (ceiling {maximum_duplicate})",
            family.name(),
            outcome.fetched,
            outcome.valuable,
            outcome.duplicate
        );
    }
}

#[test]
fn breadth_first_crawls_every_same_site_link_once() {
    let site = Arc::new(Site::build(SiteConfig::new(
        FamilyName::Smf,
        3,
        Scale::Small,
    )));
    let at = jiff::Timestamp::from_second(site.history().end).unwrap();
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), ORIGIN));
    let portal_url = portal.clone();
    let mut crawler = Crawler::new(portal, CrawlStrategy::BreadthFirst);
    let mut fetched = HashSet::new();
    for round in 0..400 {
        let Some(queued) = crawler.next_request() else {
            break;
        };
        // The portal is asked for twice when the site opens a session on the first visit.
        let session_refetch = round == 1 && queued.url == portal_url;
        assert!(
            fetched.insert(queued.url.to_string()) || session_refetch,
            "{} fetched twice",
            queued.url
        );
        let response = fetcher
            .fetch(&FetchRequest::new(queued.url.as_str(), at))
            .unwrap();
        let page = crawler.record(&queued, &response);
        assert_eq!(page.vertex, None);
        assert!(page.list_links.is_empty());
    }
    assert!(crawler.frontier_len() > 0, "a forum has more than 400 URLs");
}

/// Medium forums whose plans once followed a trap view instead of the boards and threads,
/// sampled with seed 1 as `trawl bench crawl --scale medium` samples them. On phpBB seeds 2 and
/// 3 the archive view, which lists every thread of a board on one page, out-counted the boards'
/// entries, so the archive spelling of threads became their representative and the crawl
/// fetched 4,040 archive pages (0.23 % coverage, 99.68 % duplicates); on XenForo seed 2 the
/// boards were dropped as copies of their larger archive view, which nothing reachable linked,
/// and the crawl stopped after 7 fetches. Measured on 2026-11-21 after the fix over whole
/// crawls: 99.82 % coverage with 0.12-0.14 % duplicates, and 100 % with 0.10 %.
fn check_medium_forum_with_archive_views(family: FamilyName, seed: u64) {
    let fetches = 400;
    let outcome = learn_and_crawl_at_scale(family, seed, 1, Scale::Medium, Some(fetches));
    let duplicate = outcome.duplicate as f64 / outcome.fetched.max(1) as f64;
    assert!(
        outcome.fetched == fetches && outcome.invalid_or_endless == 0 && duplicate <= 0.01,
        "{} seed {seed} at medium scale: {} fetches (wanted {fetches}), {} valuable, {} duplicate, {} invalid",
        family.name(),
        outcome.fetched,
        outcome.valuable,
        outcome.duplicate,
        outcome.invalid_or_endless
    );
}

#[test]
fn medium_phpbb_with_archive_views_is_crawled_through_boards_and_threads() {
    check_medium_forum_with_archive_views(FamilyName::Phpbb, 2);
}

#[test]
fn medium_xenforo_with_archive_views_is_crawled_through_boards_and_threads() {
    check_medium_forum_with_archive_views(FamilyName::Xenforo, 2);
}

/// Forums whose plans never judged some places thread links sit in, sampled with seed 1 as
/// `trawl bench crawl` samples them: phpBB seed 1 shows each board's sticky thread in a block
/// whose links the sampler saw but never fetched (the crawl missed 4 threads: 98.80 %
/// coverage), vBulletin seed 1 put thread links in places no sampled page had (96.21 %), and
/// vBulletin seed 2 listed a thread where the only arc was skipped as redundant with the boards'
/// title links (98.41 %). Links of a kind mostly followed from the same vertex are now followed
/// from such places too. Measured on 2026-11-22: 100 % for all three.
#[test]
fn thread_links_in_places_the_plan_never_judged_are_followed() {
    check_sampled(FamilyName::Phpbb, 1, 1, 0.999, 0.01, 0.03);
    check_sampled(FamilyName::Vbulletin, 1, 1, 0.999, 0.01, 0.03);
}

/// See [`thread_links_in_places_the_plan_never_judged_are_followed`]: the arc skipped as
/// redundant.
#[test]
fn thread_links_whose_arc_was_skipped_as_redundant_are_followed() {
    check_sampled(FamilyName::Vbulletin, 2, 1, 0.999, 0.01, 0.03);
}

/// vBulletin names a pager row's repetitive pattern by its cell count, so a pager longer than
/// any sampled one sits in a place the plan never judged; its links were followed as plain
/// links, and the later pages reached only through them were lost from their threads (seed 1
/// sampled with seed 1: 93.75 % of later pages kept with their first page, 10 pages lost).
/// Such links now flip pages when their kind mostly flips pages and they name another page of
/// the same thread. Measured on 2026-11-22: 100 %.
#[test]
fn pagers_longer_than_any_sampled_one_keep_their_pages_in_their_thread() {
    let outcome = learn_and_crawl(FamilyName::Vbulletin, 1, 1);
    assert!(outcome.relations_total > 100, "{}", outcome.relations_total);
    assert_eq!(
        outcome.relations_kept, outcome.relations_total,
        "later list pages kept with their first page"
    );
}

/// Forums learned from 100 samples. YaBB names a thread's later pages `?num=ID/15`, which show
/// what the permalink of a post on them (`?num=ID;r=15`) shows; the sample paired the two
/// spellings, the crawl rewrote every later page into the permalink the plan skips, and each
/// thread was cut to its first page (seed 2: 99 pages missed, 73.2 % coverage). Measured on
/// 2026-11-25 after the fix: 99.1-100 % coverage on seeds 1-3; the explicit first pages
/// (`?num=ID/0`, `?board=NAME/0`) are still fetched as duplicates (10-14 %).
#[test]
fn later_pages_spelled_like_skipped_permalinks_are_followed_as_written() {
    for seed in [1, 2, 3] {
        let outcome = learn_from_samples_and_crawl(FamilyName::Yabb, seed, 100);
        let coverage = outcome.valuable as f64 / outcome.valuable_total as f64;
        assert!(
            coverage >= 0.99 && outcome.invalid_or_endless == 0,
            "yabb seed {seed} learned from 100 samples: coverage {coverage:.3}, {} invalid",
            outcome.invalid_or_endless
        );
    }
}

/// NodeBB's board lists page by a cursor named only by `<link rel="next">`. Crawled at day 10 of
/// seed 2's history, one board of five has a second page, so the sample holds one pair of board
/// pages, joined by the head's `next` and answered by its `prev`, and the second page is short.
/// Before, that pair was too few to take the link for a pager and the short page's vertex was
/// taken for a secondary list: the board's second page and the threads only it lists were never
/// fetched, and the stored board pages held no list link, so a watch could not walk on either.
#[test]
fn the_one_cursor_paged_board_of_a_young_forum_is_crawled_whole() {
    for samples in [150, 300] {
        let outcome = learn_and_crawl_with(
            FamilyName::Nodebb,
            2,
            1,
            Scale::Small,
            None,
            samples,
            Some(10),
        );
        assert!(
            outcome.valuable == outcome.valuable_total && outcome.relations_total > 0,
            "nodebb seed 2 at day 10 from {samples} samples: {} of {} valuable pages, {} of {} \
             later list pages kept with their first page",
            outcome.valuable,
            outcome.valuable_total,
            outcome.relations_kept,
            outcome.relations_total
        );
        assert_eq!(outcome.relations_kept, outcome.relations_total);
    }
}

/// Boards whose cursors are opaque tokens (`?after=Gq7dRvX02bK`, as engines spell a position
/// wrapped in a base64 or signed blob): no two cursors share a template digit for digit, so the
/// plan must take them for one kind of page by their shape and follow them by the link each
/// page shows. Every valuable page is fetched, no copy, every later board page is kept with its
/// board, and no fetch is wasted beyond those of the same forum with numbered cursors (links in
/// post texts into members-only threads). Seed 3 once fetched two threads' first pages again
/// as `?page=1`: its sample (the sampler's choices depend on the URLs it meets) never saw that
/// spelling beside the thread's own URL; the sampler now checks first pages named by number.
#[test]
fn boards_paged_by_opaque_cursors_are_crawled_whole() {
    for seed in [1, 2, 3] {
        let numbered = learn_and_crawl(FamilyName::Nodebb, seed, seed);
        let site = Site::build(SiteConfig::new(FamilyName::Nodebb, seed, Scale::Small))
            .with_opaque_cursors();
        let outcome = learn_and_crawl_site(site, seed, None, 300, None);
        assert!(
            outcome.valuable == outcome.valuable_total
                && outcome.duplicate == 0
                && outcome.invalid_or_endless <= numbered.invalid_or_endless,
            "nodebb seed {seed} with opaque cursors: {} of {} valuable pages, {} copies, {} \
             invalid ({} with numbered cursors)",
            outcome.valuable,
            outcome.valuable_total,
            outcome.duplicate,
            outcome.invalid_or_endless,
            numbered.invalid_or_endless
        );
        assert!(
            outcome.relations_total > 0,
            "seed {seed}: no later board page"
        );
        assert_eq!(
            outcome.relations_kept, outcome.relations_total,
            "seed {seed}: later board pages kept with their board"
        );
    }
}

/// Boards that list their newest thread first and name each later page by the id of the last
/// thread shown before it (`?before=180`, then `?before=152`, ...): cursors that count down, so
/// a list's pages ordered by their numbers run backwards, and a word like "before" names the
/// next page, not the previous one. Every valuable page is fetched, no copy, every later board
/// page is kept with its board, and no fetch is wasted beyond those of the same forum with
/// cursors counting up; spelled as opaque tokens, the same.
#[test]
fn boards_paged_by_cursors_counting_down_are_crawled_whole() {
    for seed in [1, 2, 3] {
        let numbered = learn_and_crawl(FamilyName::Nodebb, seed, seed);
        for opaque in [false, true] {
            let site = Site::build(SiteConfig::new(FamilyName::Nodebb, seed, Scale::Small))
                .with_cursors_counting_down();
            let site = if opaque {
                site.with_opaque_cursors()
            } else {
                site
            };
            let outcome = learn_and_crawl_site(site, seed, None, 300, None);
            assert!(
                outcome.valuable == outcome.valuable_total
                    && outcome.duplicate == 0
                    && outcome.invalid_or_endless <= numbered.invalid_or_endless,
                "nodebb seed {seed} with cursors counting down (opaque {opaque}): {} of {} \
                 valuable pages, {} copies, {} invalid ({} with cursors counting up)",
                outcome.valuable,
                outcome.valuable_total,
                outcome.duplicate,
                outcome.invalid_or_endless,
                numbered.invalid_or_endless
            );
            assert!(
                outcome.relations_total > 0,
                "seed {seed}: no later board page"
            );
            assert_eq!(
                outcome.relations_kept, outcome.relations_total,
                "seed {seed} (opaque {opaque}): later board pages kept with their board"
            );
        }
    }
}
