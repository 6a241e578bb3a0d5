//! Putting boards and threads that span many pages back together.
//!
//! During the crawl every page keeps its page-flipping links ([`crate::CrawledPage::list_links`]),
//! whether or not their targets were queued from it. Afterwards, pages joined by such links are
//! one list: a thread's pages, or a board's thread-list pages. [`assemble_lists`] finds the lists
//! among fetched pages and puts each in page order.
//!
//! The order comes from the URLs, not from the order of fetching (a crawl may meet page 3 before
//! page 2) nor from following "next" links (a pager shows a window of numbers, and a missing page
//! breaks a chain). The pages of one list are spelled by one template that differs only in a page
//! number or offset (`&start=40`, `/page-3`, `-3-1.html`), so the numbers that vary between the
//! list's URLs are its page key. A list's first page is often spelled without the number at all
//! (`viewtopic.php?t=5`), so a URL that does not follow the template of the others comes first.

use std::collections::HashMap;

use trawl_learn::sitemap::Role;

use crate::url_numbers::shape_and_numbers;

/// A fetched page, as far as list assembly needs it.
#[derive(Debug, Clone, Copy)]
pub struct ListPage<'a> {
    /// The URL fetched.
    pub url: &'a str,
    /// The role of its vertex; pages join a list only with pages of the same role.
    pub role: Option<Role>,
    /// Its page-flipping links.
    pub list_links: &'a [String],
}

/// One list: indices into the pages given to [`assemble_lists`], first page first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssembledList {
    /// Page indices in page order.
    pub pages: Vec<usize>,
}

/// Groups thread and thread-list pages joined by page-flipping links into lists, each in page
/// order. A page with no such link in or out is a list of one. Pages of other roles, and second
/// fetches of a URL, belong to no list. Lists come out in the order their first-fetched page was
/// fetched.
pub fn assemble_lists(pages: &[ListPage<'_>]) -> Vec<AssembledList> {
    let mut index_of_url: HashMap<&str, usize> = HashMap::new();
    let mut members: Vec<usize> = Vec::new();
    for (index, page) in pages.iter().enumerate() {
        if !matches!(page.role, Some(Role::Thread | Role::ThreadList)) {
            continue;
        }
        // The first fetch of a URL is its page; a second fetch (the portal asked for again)
        // adds nothing to a list.
        if let std::collections::hash_map::Entry::Vacant(slot) = index_of_url.entry(page.url) {
            slot.insert(index);
            members.push(index);
        }
    }
    let mut groups = UnionFind::new(pages.len());
    for &index in &members {
        for link in pages[index].list_links {
            if let Some(&target) = index_of_url.get(link.as_str())
                && pages[target].role == pages[index].role
            {
                groups.union(index, target);
            }
        }
    }
    let mut lists_by_root: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut root_order: Vec<usize> = Vec::new();
    for &index in &members {
        let root = groups.find(index);
        let list = lists_by_root.entry(root).or_insert_with(|| {
            root_order.push(root);
            Vec::new()
        });
        list.push(index);
    }
    root_order
        .into_iter()
        .filter_map(|root| lists_by_root.remove(&root))
        .map(|mut list| {
            order_by_page_key(pages, &mut list);
            AssembledList { pages: list }
        })
        .collect()
}

/// A URL's shape and its numbers as values ([`crate::url_numbers`]); a number too long for
/// 64 bits counts as the largest.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SplitUrl {
    template: String,
    numbers: Vec<u64>,
}

fn split_url(url: &str) -> SplitUrl {
    let without_fragment = url.split('#').next().unwrap_or(url);
    let (template, numbers) = shape_and_numbers(without_fragment);
    SplitUrl {
        template,
        numbers: numbers
            .iter()
            .map(|number| number.parse().unwrap_or(u64::MAX))
            .collect(),
    }
}

/// Sorts one list's page indices into page order (see the module essay).
fn order_by_page_key(pages: &[ListPage<'_>], list: &mut [usize]) {
    if list.len() < 2 {
        return;
    }
    let split: HashMap<usize, SplitUrl> = list
        .iter()
        .map(|&index| (index, split_url(pages[index].url)))
        .collect();
    // The template most of the list's URLs follow; on a tie, the longer one, since a first page
    // spelled without its number is the shorter spelling.
    let mut template_counts: HashMap<&String, usize> = HashMap::new();
    for parts in split.values() {
        *template_counts.entry(&parts.template).or_default() += 1;
    }
    let Some(main_template) = template_counts
        .iter()
        .max_by_key(|(template, count)| (**count, template.len()))
        .map(|(template, _)| (*template).clone())
    else {
        return;
    };
    let following: Vec<&SplitUrl> = split
        .values()
        .filter(|parts| parts.template == main_template)
        .collect();
    let varying: Vec<usize> = (0..following[0].numbers.len())
        .filter(|&position| {
            let first = following[0].numbers[position];
            following
                .iter()
                .any(|parts| parts.numbers[position] != first)
        })
        .collect();
    let key = |index: usize| -> (bool, usize, Vec<u64>, usize) {
        let parts = &split[&index];
        if parts.template == main_template {
            let numbers = varying
                .iter()
                .map(|&position| parts.numbers[position])
                .collect();
            (true, 0, numbers, index)
        } else {
            (false, pages[index].url.len(), Vec::new(), index)
        }
    };
    list.sort_by_cached_key(|&index| key(index));
}

/// Disjoint sets over page indices.
#[derive(Debug)]
struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(size: usize) -> UnionFind {
        UnionFind {
            parent: (0..size).collect(),
        }
    }

    fn find(&mut self, mut item: usize) -> usize {
        while self.parent[item] != item {
            self.parent[item] = self.parent[self.parent[item]];
            item = self.parent[item];
        }
        item
    }

    fn union(&mut self, first: usize, second: usize) {
        let (first, second) = (self.find(first), self.find(second));
        if first != second {
            // The smaller index stays the root, so a list's root is its first-fetched page.
            let (root, child) = (first.min(second), first.max(second));
            self.parent[child] = root;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pages`: (url, role, list links); `expected`: each list as its URLs in page order.
    fn check(pages: &[(&str, Option<Role>, &[&str])], expected: &[&[&str]]) {
        let links: Vec<Vec<String>> = pages
            .iter()
            .map(|(_, _, links)| links.iter().map(|link| link.to_string()).collect())
            .collect();
        let input: Vec<ListPage<'_>> = pages
            .iter()
            .zip(&links)
            .map(|((url, role, _), list_links)| ListPage {
                url,
                role: *role,
                list_links,
            })
            .collect();
        let lists: Vec<Vec<&str>> = assemble_lists(&input)
            .into_iter()
            .map(|list| list.pages.iter().map(|&index| pages[index].0).collect())
            .collect();
        let expected: Vec<Vec<&str>> = expected.iter().map(|list| list.to_vec()).collect();
        assert_eq!(lists, expected);
    }

    const THREAD: Option<Role> = Some(Role::Thread);
    const BOARD: Option<Role> = Some(Role::ThreadList);

    #[test]
    fn offsets_order_a_thread_whose_first_page_has_no_offset() {
        check(
            &[
                ("/t?id=5&start=40", THREAD, &["/t?id=5", "/t?id=5&start=20"]),
                ("/t?id=5", THREAD, &["/t?id=5&start=20", "/t?id=5&start=40"]),
                ("/t?id=5&start=20", THREAD, &["/t?id=5"]),
            ],
            &[&["/t?id=5", "/t?id=5&start=20", "/t?id=5&start=40"]],
        );
    }

    #[test]
    fn numbers_compare_as_numbers_not_text() {
        check(
            &[
                ("/thread-7-10-1.html", THREAD, &["/thread-7-9-1.html"]),
                ("/thread-7-9-1.html", THREAD, &["/thread-7-10-1.html"]),
                ("/thread-7-1-1.html", THREAD, &["/thread-7-9-1.html"]),
            ],
            &[&[
                "/thread-7-1-1.html",
                "/thread-7-9-1.html",
                "/thread-7-10-1.html",
            ]],
        );
    }

    #[test]
    fn two_pages_put_the_shorter_spelling_first() {
        check(
            &[
                ("/threads/slug.12/page-2", THREAD, &["/threads/slug.12/"]),
                ("/threads/slug.12/", THREAD, &["/threads/slug.12/page-2"]),
            ],
            &[&["/threads/slug.12/", "/threads/slug.12/page-2"]],
        );
    }

    #[test]
    fn separate_threads_stay_separate_and_keep_fetch_order() {
        check(
            &[
                ("/t?id=1", THREAD, &["/t?id=1&p=2"]),
                ("/t?id=2", THREAD, &[]),
                ("/t?id=1&p=2", THREAD, &["/t?id=1"]),
            ],
            &[&["/t?id=1", "/t?id=1&p=2"], &["/t?id=2"]],
        );
    }

    #[test]
    fn pages_join_only_pages_of_their_own_role() {
        check(
            &[
                ("/f?id=1", BOARD, &["/t?id=1"]),
                ("/t?id=1", THREAD, &[]),
                ("/profile?u=3", Some(Role::Other), &["/t?id=1"]),
                ("/unknown", None, &[]),
            ],
            &[&["/f?id=1"], &["/t?id=1"]],
        );
    }

    #[test]
    fn a_url_fetched_twice_counts_once() {
        check(
            &[
                ("/f?id=1", BOARD, &["/f?id=1&page=2"]),
                ("/f?id=1&page=2", BOARD, &["/f?id=1"]),
                ("/f?id=1", BOARD, &["/f?id=1&page=2"]),
            ],
            &[&["/f?id=1", "/f?id=1&page=2"]],
        );
    }

    #[test]
    fn links_to_pages_never_fetched_are_ignored() {
        check(
            &[("/t?id=1&p=2", THREAD, &["/t?id=1", "/t?id=1&p=3"])],
            &[&["/t?id=1&p=2"]],
        );
    }
}
