//! Unjudged places: links fetched after the sample so that the plan judges every place whose
//! links the crawler would otherwise follow on trust.
//!
//! A plan decides per kind of link (source vertex, URL pattern, link location). An arc whose
//! links the sample never fetched has no target, and the crawler treats its place as one the
//! plan never judged: it follows the links there when most sampled links of the same URL
//! pattern from the same vertex were followed (`trawl_crawl`'s `unplaced`). That rule is right
//! for a block of sticky threads the sampler happened not to open, and wrong for an action
//! link that only looks like a thread: on forums whose URLs hold slugs and no ids, a board's
//! "Start a thread" button (`/c/<category>/<board>/new/`) matches the thread pattern
//! (`/c/{*}/{*}/{*}/`) and answers with a redirect to the login page. On the simulator's
//! slugtree every board's button was fetched so, 1.36-1.43 % of the crawl invalid at 100
//! samples (`trawl bench learn`).
//!
//! [`unjudged_place_checks`] learns the sample once, finds the arcs the crawler would follow
//! on trust (no target, skipped, and the pattern mostly followed from the vertex, the
//! crawler's own test), and names sampled pages' links of those arcs for the sampler to fetch,
//! a link several such arcs share first, so the learner sees where each place leads and judges
//! it as it judges every other.

use std::collections::{BTreeMap, HashMap, HashSet};

use url::Url;

use crate::plan::Plan;
use crate::sitemap::{LocationKey, Sitemap};
use crate::summary::PageSummary;
use crate::traverse::{Decision, Strategy, choose_traversal};

/// Most links fetched to judge unjudged places, whatever the sample's size.
pub const MOST_UNJUDGED_CHECKS: usize = 8;

/// A kind of link: (source vertex, URL pattern, location), as the plan keys its arcs.
type Place = (usize, u32, LocationKey);

/// The arcs of `plan` the crawler would follow without the plan having judged them: from a
/// vertex the crawl reaches, no target, skipped, and their URL pattern's sampled links from
/// their vertex mostly followed, by the same count the crawler makes (arcs with a target, less
/// skipped arcs into a vertex a followed arc of the same pattern reaches). Keys (source,
/// pattern, location).
pub fn followed_on_trust(plan: &Plan) -> Vec<Place> {
    // Per (source, pattern): sampled links followed (plainly or flipping pages) and skipped.
    let mut weighed: HashMap<(usize, u32), (usize, usize)> = HashMap::new();
    for arc in plan.judged_arcs() {
        let entry = weighed.entry((arc.source, arc.url_pattern)).or_default();
        if arc.decision == Decision::Skip {
            entry.1 += arc.links;
        } else {
            entry.0 += arc.links;
        }
    }
    // Only pages the crawl fetches show their links to it: the portal's and those of vertices
    // a followed arc leads to. A place on a view the plan skips (a sort order's later pages)
    // is never met, and a check spent on it is wasted.
    let reached: HashSet<usize> = std::iter::once(plan.portal_vertex())
        .chain(
            plan.arcs
                .iter()
                .filter(|arc| arc.decision != Decision::Skip)
                .filter_map(|arc| arc.target),
        )
        .collect();
    plan.arcs
        .iter()
        .filter(|arc| reached.contains(&arc.source))
        .filter(|arc| arc.target.is_none() && arc.decision == Decision::Skip)
        .filter(|arc| {
            weighed
                .get(&(arc.source, arc.url_pattern))
                .is_some_and(|(followed, skipped)| followed > skipped)
        })
        .map(|arc| (arc.source, arc.url_pattern, arc.location))
        .collect()
}

/// The URLs to fetch so that the places the crawler would follow on trust are judged (see the
/// module documentation): at most `budget`, only links `is_wanted` accepts (the sampler's own
/// site), never a page the sample holds. `pages` is the sample, its first page the portal.
/// A URL linked from more of those places comes first, then the order links were met in.
pub fn unjudged_place_checks(
    pages: &[PageSummary],
    budget: usize,
    is_wanted: impl Fn(&Url) -> bool,
) -> Vec<Url> {
    if budget == 0 || pages.is_empty() {
        return Vec::new();
    }
    let portal = pages[0].url.clone();
    let sitemap = Sitemap::build(pages.to_vec());
    let traversal = choose_traversal(&sitemap, Strategy::Skeleton);
    let plan = Plan::new(&portal, &sitemap, &traversal);
    let places: HashSet<Place> = followed_on_trust(&plan).into_iter().collect();
    if places.is_empty() {
        return Vec::new();
    }
    let sampled: HashSet<String> = pages
        .iter()
        .map(|page| without_fragment(&page.url))
        .collect();
    // Per unsampled URL: the places linking to it, and when it was first met.
    let mut places_of_url: BTreeMap<String, (HashSet<Place>, usize)> = BTreeMap::new();
    let mut met = 0;
    for (page_index, page) in sitemap.pages.iter().enumerate() {
        let source = sitemap.vertex_of_page[page_index];
        for link in &page.links {
            let Some(pattern) = sitemap.url_patterns.classify(&link.url) else {
                continue;
            };
            let place = (source, pattern.0, LocationKey::from(link.location));
            if !places.contains(&place) || !is_wanted(&link.url) {
                continue;
            }
            let url = without_fragment(&link.url);
            if sampled.contains(&url) {
                continue;
            }
            let entry = places_of_url.entry(url).or_insert_with(|| {
                met += 1;
                (HashSet::new(), met)
            });
            entry.0.insert(place);
        }
    }
    let mut checks = Vec::new();
    let mut judged: HashSet<Place> = HashSet::new();
    while checks.len() < budget {
        let best = places_of_url
            .iter()
            .map(|(url, (linking, first_met))| {
                let new_places = linking.difference(&judged).count();
                (new_places, std::cmp::Reverse(*first_met), url)
            })
            .filter(|(new_places, _, _)| *new_places > 0)
            .max();
        let Some((_, _, url)) = best else {
            break;
        };
        let url = url.clone();
        if let Some((linking, _)) = places_of_url.remove(&url) {
            judged.extend(linking);
        }
        if let Ok(parsed) = Url::parse(&url) {
            checks.push(parsed);
        }
    }
    checks
}

fn without_fragment(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.to_string()
}
