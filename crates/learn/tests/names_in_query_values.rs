//! Boards named by a word in a query value (`?board=hardware`, later pages `?board=hardware/20`):
//! URL learning alone reads the names as a vocabulary of page kinds, so once layouts are known
//! the sitemap makes them free (`sitemap::slug_levels`). Before, every board was a pattern and a
//! vertex of its own, one layout kept a single board's vertex, and the crawl followed that one
//! board from the portal (the simulator's YaBB seed 2 with 100 samples: 16.8 % coverage).

use std::sync::Arc;

use trawl_learn::sample::{NO_DELAY, SampleOptions, sample_site};
use trawl_learn::sitemap::Role;
use trawl_learn::traverse::{Strategy, VertexVerdict};
use trawl_model::{CookieJarFetcher, FixedClock};
use trawl_sim::{FamilyName, Scale, SimFetcher, Site, SiteConfig};
use url::Url;

const ORIGIN: &str = "http://forum.sim.test";

/// The URL patterns of the kept thread-list vertices learned from `samples` pages of a small
/// forum of `family` built from `seed` (sampled with the same seed).
fn kept_list_patterns(family: FamilyName, seed: u64, samples: usize) -> Vec<String> {
    let site = Arc::new(Site::build(SiteConfig::new(family, seed, Scale::Small)));
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), ORIGIN));
    let clock = FixedClock::new(jiff::Timestamp::from_second(site.history().end).unwrap());
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let options = SampleOptions {
        max_pages: samples,
        seed,
        delay: NO_DELAY,
        ..SampleOptions::default()
    };
    let pages = sample_site(&fetcher, &clock, portal.clone(), &options, |_| {}).unwrap();
    let learned = trawl_learn::learn(&portal, pages, Strategy::Skeleton);
    let mut patterns: Vec<String> = learned
        .sitemap
        .vertices
        .iter()
        .filter(|vertex| vertex.role == Role::ThreadList)
        .filter(|vertex| learned.traversal.verdicts[vertex.id] == VertexVerdict::Kept)
        .filter_map(|vertex| learned.sitemap.url_patterns.get(vertex.url_pattern))
        .map(|pattern| pattern.text().to_string())
        .collect();
    patterns.sort();
    patterns
}

fn check(family: FamilyName, seed: u64, samples: usize, expected: &[&str]) {
    assert_eq!(
        kept_list_patterns(family, seed, samples),
        expected,
        "{family:?} seed {seed}, {samples} samples"
    );
}

#[test]
fn boards_named_in_query_values_share_one_pattern() {
    let boards = [
        "/cgi-bin/yabb{n}/YaBB.pl?board={*}",
        "/cgi-bin/yabb{n}/YaBB.pl?board={*}/{n}",
    ];
    for seed in [1, 2, 3] {
        check(FamilyName::Yabb, seed, 100, &boards);
    }
}

#[test]
fn boards_named_by_numbers_are_left_as_they_were() {
    check(
        FamilyName::Phpbb,
        1,
        100,
        &["/viewforum.php?f={n}", "/viewforum.php?f={n}&start={n}"],
    );
}
