//! Partners: pages fetched after the sample so that the test for copies across layouts has
//! the pairs it needs.
//!
//! A forum shows one thread as its pages and again as a "raw", print or archive view, each URL
//! carrying the thread's number (`/t/slug/190` and `/raw/190`). The traversal drops such a view
//! as a copy when most of its sampled pages show the content of sampled pages of another kept
//! vertex of the same role whose URLs carry the same number (`traverse`, copies by content).
//! A sampler that reaches the view from an index seldom holds the pages of the very items it
//! sampled the view of: on the simulator's Discourse seed 2 with 300 samples, three of the
//! four raw pages had been reached from the boards' archive lists and none of their threads
//! was sampled, so the raw view was kept and the crawl fetched every thread twice (43.99 %
//! duplicate fetches).
//!
//! [`partner_checks`] learns the sample once, finds the pairs of vertices the copy test could
//! still judge (both kept, one role, two layouts), and names, for the pages of the smaller
//! vertex that have no partner, an unsampled URL some sampled page links to, of the larger
//! vertex's URL pattern, carrying exactly the page's numbers. It asks only for as many as
//! could tip the test, and none for a pair that [`PARTNERS_PER_VERTEX_PAIR`] fetches cannot
//! tip. The learner then sees the partners like any sampled page: if they show the same
//! content the view is dropped, if not it stays.
//!
//! Measured with `trawl bench learn --seeds 1,2,3 --samples 300` (21 runs, seven families):
//! one partner in all, for Discourse seed 2, whose crawl went from 582 fetches (43.99 %
//! duplicates) to 326 (none); every other run sampled and crawled exactly as before.
//!
//! # Cost
//!
//! Choosing partners learns the sample once (sitemap and traversal), so sampling costs about
//! one learning run more: a few tenths of a second for 300 pages. The alternative of asking
//! for partners while sampling, before any layout is known, cannot tell a view of another
//! layout from a spelling of one layout (below).
//!
//! # Alternative rejected
//!
//! Fetching partners for *every* sampled page (any unsampled link with the page's numbers
//! under another sampled URL shape) also fixed Discourse seed 2, but took the simulator's
//! phpBB seed 1 from 100 % to 23.1 % coverage. Its partners included `viewtopic.php?t=1` for
//! the sampled post view `viewtopic.php?p=1` and `?t=5` for `?p=5`: the forum's first threads
//! began with posts of their own numbers, so both pairs were the same page, and the plan's
//! sampled spelling pairs taught the crawler that `?p=N` and `?t=N` spell one page. The crawl
//! then took every thread link for a post link and fetched 77 pages. Partners between vertices
//! of one layout are never asked for here (the copy test does not compare them), and the
//! pages of the vertices the test compares already differ in layout, so a spelling rule
//! drawn from them is one the learner itself would draw.

use std::collections::{BTreeSet, HashMap, HashSet};

use url::Url;

use crate::sitemap::Sitemap;
use crate::summary::PageSummary;
use crate::traverse::{Strategy, choose_traversal};

/// Most partners fetched for one pair of vertices. The copy test needs most pages of the
/// smaller vertex to have a partner; a vertex that needs more than this many is left as the
/// sample shows it, since a sample that holds many pages of a view and few of their items
/// says something of its own.
pub const PARTNERS_PER_VERTEX_PAIR: usize = 3;

/// The URLs to fetch so that the copy test has partners to compare (see the module
/// documentation): at most `budget`, only links `is_wanted` accepts (the sampler's own site).
/// `pages` is the sample, its first page the portal.
pub fn partner_checks(
    pages: &[PageSummary],
    budget: usize,
    is_wanted: impl Fn(&Url) -> bool,
) -> Vec<Url> {
    if budget == 0 || pages.is_empty() {
        return Vec::new();
    }
    let sitemap = Sitemap::build(pages.to_vec());
    let traversal = choose_traversal(&sitemap, Strategy::Skeleton);
    let numbers = crate::traverse::numbers_of_pages(&sitemap);
    let same_content = |a: usize, b: usize| crate::traverse::same_content(&sitemap, &numbers, a, b);

    // Every unsampled same-site URL the sample links to, by its numbers, in the order first
    // linked. The partner need not be linked from the page itself: a view reached from an
    // index links its item, but the item's other pages may not.
    let sampled: HashSet<String> = pages
        .iter()
        .map(|page| without_fragment(&page.url))
        .collect();
    let mut linked_by_numbers: HashMap<BTreeSet<u64>, Vec<Url>> = HashMap::new();
    let mut linked_keys: HashSet<String> = HashSet::new();
    for page in pages {
        for link in &page.links {
            let key = without_fragment(&link.url);
            if sampled.contains(&key) || !is_wanted(&link.url) || !linked_keys.insert(key) {
                continue;
            }
            let link_numbers = crate::traverse::url_numbers(&link.url);
            if !link_numbers.is_empty() {
                linked_by_numbers
                    .entry(link_numbers)
                    .or_default()
                    .push(link.url.clone());
            }
        }
    }

    let content_vertices = crate::traverse::copy_test_candidates(&sitemap, &traversal.verdicts);
    let mut chosen: Vec<Url> = Vec::new();
    let mut chosen_keys: HashSet<String> = HashSet::new();
    for (position, &first) in content_vertices.iter().enumerate() {
        for &second in &content_vertices[position + 1..] {
            let (a, b) = (&sitemap.vertices[first], &sitemap.vertices[second]);
            if a.role != b.role || a.layout == b.layout {
                continue;
            }
            let (small, large) = if a.pages.len() <= b.pages.len() {
                (a, b)
            } else {
                (b, a)
            };
            let without_partner: Vec<usize> = small
                .pages
                .iter()
                .copied()
                .filter(|page| !large.pages.iter().any(|other| same_content(*page, *other)))
                .collect();
            let with_partner = small.pages.len() - without_partner.len();
            let needed =
                crate::traverse::partners_needed(small.pages.len()).saturating_sub(with_partner);
            if needed == 0 || needed > PARTNERS_PER_VERTEX_PAIR {
                continue;
            }
            // One partner per page, for as many pages as could tip the test. Asking for fewer
            // than could tip it would spend fetches on a verdict that cannot change.
            let mut partners: Vec<Url> = Vec::new();
            let small_constants = pattern_constants(&sitemap, small.url_pattern);
            for page in &without_partner {
                // The page's own numbers first, then without the numbers its pattern writes
                // literally (the `2` of a `;wap2` view names no item).
                let item_numbers = &numbers[*page] - &small_constants;
                let candidates = [&numbers[*page], &item_numbers]
                    .into_iter()
                    .filter_map(|key| linked_by_numbers.get(key))
                    .flatten();
                if let Some(url) = candidates.into_iter().find(|url| {
                    sitemap.url_patterns.classify(url) == Some(large.url_pattern)
                        && !chosen_keys.contains(&without_fragment(url))
                }) {
                    partners.push(url.clone());
                }
                if partners.len() == needed {
                    break;
                }
            }
            if partners.len() < needed || chosen.len() + needed > budget {
                continue;
            }
            for url in partners {
                chosen_keys.insert(without_fragment(&url));
                chosen.push(url);
            }
        }
    }
    chosen
}

/// The numbers a URL pattern writes literally, outside its wildcards: a copy view's marker may
/// carry digits (SMF's `;wap2`, a `/m2/` mobile path) that every URL of the view shows and that
/// name no item. Measured on the simulator's SMF seed 1 with 100 samples: the printable WAP2
/// copies of threads (`?topic=N.0;wap2`) never found their thread (`?topic=N.0`) as a partner,
/// since the `2` made their numbers differ; both copies stayed in the plan and the crawl
/// fetched 256 copies for 7.7 % coverage.
fn pattern_constants(
    sitemap: &Sitemap,
    pattern: crate::url_patterns::UrlPatternId,
) -> BTreeSet<u64> {
    let Some(pattern) = sitemap.url_patterns.get(pattern) else {
        return BTreeSet::new();
    };
    let literal = pattern.text().replace("{n}", "/").replace("{*}", "/");
    let (_, numbers) = crate::spellings::shape_and_numbers(&literal);
    numbers
        .iter()
        .filter_map(|number| number.parse().ok())
        .collect()
}

fn without_fragment(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.to_string()
}
