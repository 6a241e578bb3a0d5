//! Views that show the same records under every page number: "what's new", activity feeds,
//! search results computed on request. Their pager always offers one page more, and a crawl
//! that follows it never ends.

use std::collections::HashSet;

use super::VertexVerdict;
use crate::sitemap::{Role, Sitemap};

/// Drops (as [`VertexVerdict::AllDuplicates`]) the kept list and thread vertices that are one
/// endless view. A vertex is one when sampled pages of it whose URLs differ in a single number
/// (`?page=2` and `?page=3`) show the same records (near-duplicates, or the same thread entries
/// in the same order), every such pair of them: a board's or a thread's pages each show records
/// of their own. The vertices whose every sampled page shows the records of such a view's pages
/// go with it (the view's first page, under a URL without the page number).
///
/// Measured on the simulator's XenForo seed 2 at medium scale sampled with seed 1 (300 pages):
/// the "what's new" view and its `?page=N` pages were kept as thread lists, and the crawl
/// fetched three pages of it before the crawler's own guard (`Crawler::list_has_ended`) saw a
/// page repeat. The guard stays for views the sample met only once.
pub(super) fn drop_endless_views(sitemap: &Sitemap, verdicts: &mut [VertexVerdict]) {
    let portal = sitemap.portal_vertex();
    let candidates: Vec<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| {
            vertex.id != portal
                && matches!(vertex.role, Role::Thread | Role::ThreadList)
                && verdicts[vertex.id] == VertexVerdict::Kept
        })
        .map(|vertex| vertex.id)
        .collect();
    let groups = &sitemap.duplicate_groups;
    // What a page shows, to compare pages by: its near-duplicate group, and its thread entries
    // when it lists any (a feed's pages differ in their pager and "page N" text, which can keep
    // them out of one near-duplicate group, but list the same threads).
    let entries_of = |page: usize| -> Vec<&str> {
        sitemap.pages[page]
            .thread_entry_urls
            .iter()
            .map(url::Url::as_str)
            .collect()
    };
    let same_records = |a: usize, b: usize| {
        let entries = entries_of(a);
        groups.group_of(a) == groups.group_of(b)
            || (!entries.is_empty() && entries == entries_of(b))
    };
    let mut endless_pages: Vec<usize> = Vec::new();
    let mut endless: Vec<usize> = Vec::new();
    for &vertex in &candidates {
        let pages = &sitemap.vertices[vertex].pages;
        let shapes: Vec<(String, Vec<String>)> = pages
            .iter()
            .map(|page| {
                let url = &sitemap.pages[*page].url;
                let text = match url.query() {
                    Some(query) => format!("{}?{query}", url.path()),
                    None => url.path().to_string(),
                };
                crate::spellings::shape_and_numbers(&text)
            })
            .collect();
        let (mut repeating, mut differing) = (0usize, 0usize);
        for first in 0..pages.len() {
            for second in first + 1..pages.len() {
                let (shape_a, numbers_a) = &shapes[first];
                let (shape_b, numbers_b) = &shapes[second];
                let changed = numbers_a
                    .iter()
                    .zip(numbers_b)
                    .filter(|(a, b)| a != b)
                    .count();
                if shape_a != shape_b || changed != 1 {
                    continue;
                }
                if same_records(pages[first], pages[second]) {
                    repeating += 1;
                } else {
                    differing += 1;
                }
            }
        }
        if repeating > 0 && differing == 0 {
            endless.push(vertex);
            endless_pages.extend(pages.iter().copied());
        }
    }
    if endless.is_empty() {
        return;
    }
    let endless_groups: HashSet<usize> = endless_pages
        .iter()
        .map(|page| groups.group_of(*page))
        .collect();
    for &vertex in &candidates {
        let pages = &sitemap.vertices[vertex].pages;
        let same_view = !pages.is_empty()
            && pages.iter().all(|page| {
                endless_groups.contains(&groups.group_of(*page))
                    || endless_pages
                        .iter()
                        .any(|other| same_records(*page, *other))
            });
        if endless.contains(&vertex) || same_view {
            verdicts[vertex] = VertexVerdict::AllDuplicates;
        }
    }
}
