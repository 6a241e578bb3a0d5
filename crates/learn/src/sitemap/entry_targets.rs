//! Where a list's entries lead when the sample holds none of the pages they name.
//!
//! An arc's target is read from the sampled pages its links reach. A small sample can hold a
//! board page whose listed threads were all left out (the sampler spreads its picks over URL
//! shapes, and reaches the threads it does fetch through the portal's "latest topics" box or
//! another board). The board's title column then leads "nowhere", is no candidate for the
//! plan, and the boards' threads are reached only through whatever other box names a few of
//! them. Measured with 60 to 66 samples of the simulator: one phpBB forum crawled 5.9 % of its
//! posts, one Discuz! forum 61.5 %, and an SMF forum at 44 samples followed the boards' mobile
//! view instead (7.7 % coverage, 91 % duplicate fetches).
//!
//! The page analysis already says which links of a list are its entries. When most of an
//! unsampled arc's URLs are entries of its source pages, and the entries' URL pattern is the
//! pattern of a thread vertex, the arc leads to that vertex: the sampled threads of the same
//! spelling show what such pages are.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Role, Sitemap};
use crate::url_patterns::UrlPatternId;

/// Share of an arc's distinct URLs that must be entries of its source pages for the arc to be
/// read as the list's entry links.
const ENTRY_URL_SHARE: f64 = 0.5;

/// Gives arcs that carry a list's entries, and reached no sampled page, the thread vertex of
/// their URL pattern as target (see the module documentation). Runs after the roles are known.
pub(super) fn infer_entry_targets(sitemap: &mut Sitemap) {
    // The thread vertex standing for each URL pattern: the one with the most sampled pages,
    // then the lower id.
    let mut thread_vertex_of_pattern: HashMap<UrlPatternId, usize> = HashMap::new();
    for vertex in &sitemap.vertices {
        if vertex.role != Role::Thread {
            continue;
        }
        let best = thread_vertex_of_pattern
            .entry(vertex.url_pattern)
            .or_insert(vertex.id);
        if sitemap.vertices[*best].pages.len() < vertex.pages.len() {
            *best = vertex.id;
        }
    }
    if thread_vertex_of_pattern.is_empty() {
        return;
    }
    let without_fragment = |url: &url::Url| -> String {
        let mut url = url.clone();
        url.set_fragment(None);
        url.to_string()
    };
    // Entry URLs per list vertex (the portal lists threads too).
    let mut entries_of_vertex: BTreeMap<usize, HashSet<String>> = BTreeMap::new();
    for vertex in &sitemap.vertices {
        if !matches!(vertex.role, Role::ThreadList | Role::Portal) {
            continue;
        }
        let entries: HashSet<String> = vertex
            .pages
            .iter()
            .flat_map(|page| sitemap.pages[*page].thread_entry_urls.iter())
            .map(without_fragment)
            .collect();
        if !entries.is_empty() {
            entries_of_vertex.insert(vertex.id, entries);
        }
    }
    for arc in &mut sitemap.arcs {
        if !arc.targets.is_empty() || arc.target_urls.is_empty() {
            continue;
        }
        let Some(entries) = entries_of_vertex.get(&arc.key.source) else {
            continue;
        };
        let Some(&target) = thread_vertex_of_pattern.get(&arc.key.url_pattern) else {
            continue;
        };
        let entry_urls = arc
            .target_urls
            .iter()
            .filter(|url| {
                url::Url::parse(url).is_ok_and(|url| entries.contains(&without_fragment(&url)))
            })
            .count();
        if entry_urls as f64 >= ENTRY_URL_SHARE * arc.target_urls.len() as f64 {
            arc.targets.insert(target, 0);
        }
    }
}
