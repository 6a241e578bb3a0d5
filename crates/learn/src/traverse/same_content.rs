//! Whether two sampled pages show one content: the page-level question behind the test for
//! copies across layouts, shared by the traversal and by the sampler's partner checks
//! ([`crate::partners`]).

use std::collections::BTreeSet;

use super::VertexVerdict;
use crate::sitemap::{Role, Sitemap};

/// The numbers every sampled page's URL carries, by page (see [`url_numbers`]).
pub(crate) fn numbers_of_pages(sitemap: &Sitemap) -> Vec<BTreeSet<u64>> {
    sitemap
        .pages
        .iter()
        .map(|page| url_numbers(&page.url))
        .collect()
}

/// Whether sampled pages `a` and `b` show one content under two spellings: near-duplicates, or
/// one holding the other's text, and URLs naming one item.
///
/// Two pages are one content only when their URLs also name one item: a copy view is a view
/// *of something*, and its URL carries that thing's number (`/raw/190` beside `/t/slug/190`,
/// `archiver/fid-2.html` beside `forum-2-1.html`). Containment alone also pairs a page with
/// any small page made of lines it lists: a Discuz! profile shows its member's name and recent
/// thread titles, all of which the board listing those threads shows too. Measured on the
/// simulator's Discuz! seed 1 with 1,000 samples: 4 of the 8 sampled board pages each
/// contained some profile, the profiles (linked from more kinds of page) stood higher, and the
/// boards were dropped as their copy; threads were then reached only through profiles and the
/// portal (97.5 % coverage, 15.1 % invalid fetches).
pub(crate) fn same_content(
    sitemap: &Sitemap,
    numbers: &[BTreeSet<u64>],
    a: usize,
    b: usize,
) -> bool {
    let groups = &sitemap.duplicate_groups;
    (groups.group_of(a) == groups.group_of(b)
        || groups.containment(a, b) >= crate::sitemap::CONTAINED_SHARE
        || groups.containment(b, a) >= crate::sitemap::CONTAINED_SHARE)
        && !numbers[a].is_disjoint(&numbers[b])
}

/// The numbers a URL's path and query carry (runs of ASCII digits), which name the items a
/// page shows: a thread, a board, a member, a page of a list.
pub(crate) fn url_numbers(url: &url::Url) -> BTreeSet<u64> {
    let mut text = url.path().to_string();
    if let Some(query) = url.query() {
        text.push('?');
        text.push_str(query);
    }
    // The host and port are left out: on one site they are the same in every URL.
    let (_, numbers) = crate::spellings::shape_and_numbers(&text);
    numbers
        .iter()
        .filter_map(|number| number.parse().ok())
        .collect()
}

/// The vertices the copy test across layouts compares: kept thread and thread-list vertices
/// other than the portal's. Both the traversal's test and the sampler's partner checks ask it,
/// and must agree, or partners would be fetched for pairs the test never judges.
pub(crate) fn copy_test_candidates(sitemap: &Sitemap, verdicts: &[VertexVerdict]) -> Vec<usize> {
    let portal = sitemap.portal_vertex();
    sitemap
        .vertices
        .iter()
        .filter(|vertex| {
            vertex.id != portal
                && matches!(vertex.role, Role::Thread | Role::ThreadList)
                && verdicts[vertex.id] == VertexVerdict::Kept
        })
        .map(|vertex| vertex.id)
        .collect()
}

/// Whether the sampled pairs of a link arc lead from several different pages to one page
/// whose URL carries none of the numbers of their URLs: a view every page links (a "new
/// posts" list in the navigation bar), not a spelling of each linking page. One page cannot
/// be the copy of two pages that differ, and a copy names the item it copies (a thread's
/// print or archive view carries the thread's number). On a young forum the "new posts" list
/// shows the same threads as each small board, so every board read as a copy of it and was
/// dropped (the simulator's vBulletin seed 3 with 45 samples: no board crawled, 6.9 %
/// coverage, or with a calendar kept in their place, 20,000 calendar fetches).
pub(super) fn one_view_linked_by_many(sitemap: &Sitemap, arc: &crate::sitemap::Arc) -> bool {
    let sources: BTreeSet<usize> = arc
        .sampled_pairs
        .iter()
        .map(|(source, _)| *source)
        .collect();
    let targets: BTreeSet<usize> = arc
        .sampled_pairs
        .iter()
        .map(|(_, target)| *target)
        .collect();
    let [target] = targets.into_iter().collect::<Vec<usize>>()[..] else {
        return false;
    };
    if sources.len() < 2 {
        return false;
    }
    let numbers_of = |page: usize| -> BTreeSet<String> {
        let url = &sitemap.pages[page].url;
        let text = match url.query() {
            Some(query) => format!("{}?{query}", url.path()),
            None => url.path().to_string(),
        };
        crate::spellings::shape_and_numbers(&text)
            .1
            .into_iter()
            .collect()
    };
    let target_numbers = numbers_of(target);
    sources
        .iter()
        .all(|source| numbers_of(*source).is_disjoint(&target_numbers))
}

#[cfg(test)]
mod tests {
    use super::url_numbers;

    fn check(url: &str, expected: &[u64]) {
        let url = url::Url::parse(url).unwrap();
        let found: Vec<u64> = url_numbers(&url).into_iter().collect();
        assert_eq!(found, expected, "{url}");
    }

    #[test]
    fn url_numbers_name_the_items_of_path_and_query() {
        check("http://forum.test/raw/190", &[190]);
        check(
            "http://forum.test/t/still-kernel-makes/190?page=2",
            &[2, 190],
        );
        check("http://forum.test/forum-2-1.html", &[1, 2]);
        check("http://forum.test/archiver/fid-2.html", &[2]);
        check("http://forum.test/space-uid-61.html", &[61]);
        check(
            "http://forum.test/viewtopic.php?f=1&t=5&start=15",
            &[1, 5, 15],
        );
        check("http://forum.test/index.php", &[]);
        // The fragment names no item of its own, and the host is not part of the page's name.
        check("http://forum2.test/viewtopic.php?p=7#p7", &[7]);
        // Runs too long for 64 bits are no item number anyone links by.
        check(
            "http://forum.test/session/123456789012345678901234567890/4",
            &[4],
        );
    }
}
