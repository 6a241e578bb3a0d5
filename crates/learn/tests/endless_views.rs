//! Views that show the same records under every page number ("what's new", activity feeds) are
//! not lists: learning drops them, so a crawl never follows their endless pager.

use std::sync::Arc;

use trawl_learn::sample::{NO_DELAY, SampleOptions, sample_site};
use trawl_learn::traverse::{Strategy, VertexVerdict};
use trawl_model::{CookieJarFetcher, FixedClock};
use trawl_sim::{FamilyName, PageClass, Scale, SimFetcher, Site, SiteConfig};
use url::Url;

const ORIGIN: &str = "http://forum.sim.test";

fn path_and_query(url: &Url) -> String {
    match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_string(),
    }
}

/// The sampled URLs of kept vertices most of whose sampled pages the truth calls endless, for a
/// forum of `family` built from `seed` at `scale`, learned from 300 pages sampled with seed 1.
fn kept_endless_views(family: FamilyName, seed: u64, scale: Scale) -> Vec<String> {
    let site = Arc::new(Site::build(SiteConfig::new(family, seed, scale)));
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), ORIGIN));
    let at = site.history().end;
    let clock = FixedClock::new(jiff::Timestamp::from_second(at).unwrap());
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let options = SampleOptions {
        max_pages: 300,
        seed: 1,
        delay: NO_DELAY,
        ..SampleOptions::default()
    };
    let pages = sample_site(&fetcher, &clock, portal.clone(), &options, |_| {}).unwrap();
    let learned = trawl_learn::learn(&portal, pages, Strategy::Skeleton);
    learned
        .sitemap
        .vertices
        .iter()
        .filter(|vertex| learned.traversal.verdicts[vertex.id] == VertexVerdict::Kept)
        .filter(|vertex| {
            let endless = vertex
                .pages
                .iter()
                .filter(|page| {
                    let url = &learned.sitemap.pages[**page].url;
                    site.classify(&path_and_query(url), at).class == PageClass::Endless
                })
                .count();
            2 * endless > vertex.pages.len()
        })
        .map(|vertex| path_and_query(&learned.sitemap.pages[vertex.pages[0]].url))
        .collect()
}

/// XenForo seed 2 at medium scale: the sample held "what's new" and its pages 2 and 3, all
/// listing the same latest threads. They were kept as thread lists, and the crawl fetched three
/// pages of the view before the crawler's guard saw a page repeat (the first 400 fetches of
/// `crawl_with_learned_plans::medium_xenforo_with_archive_views...` were not all valuable).
#[test]
fn a_view_listing_the_same_threads_under_every_page_number_is_dropped() {
    assert_eq!(
        kept_endless_views(FamilyName::Xenforo, 2, Scale::Medium),
        Vec::<String>::new()
    );
}

/// Small forums of three families whose samples meet their search and calendar views keep none.
#[test]
fn no_endless_view_is_kept_on_small_forums() {
    for family in [FamilyName::Phpbb, FamilyName::Smf, FamilyName::Xenforo] {
        assert_eq!(
            kept_endless_views(family, 3, Scale::Small),
            Vec::<String>::new(),
            "{family:?}"
        );
    }
}
