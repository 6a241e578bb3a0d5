//! Which URL is which page of which list: the scheduler speaks of lists and page numbers, the
//! fetcher and the store of URLs.
//!
//! The lists are those `trawl export` shows: pages of a thread or a board's thread list joined by
//! the page-flipping links the crawl kept, in the page order their URLs say
//! ([`trawl_crawl::lists`]). A list's identity is a hash of its first page's URL, which neither a
//! new last page nor a restart changes, so a list keeps its [`ListId`] for as long as the store
//! lives. Pages known only from a pager (linked, never fetched) are part of their list too: they
//! are the pages a revisit fetches next when a thread grows.

use std::collections::HashMap;

use trawl_crawl::lists::{ListPage, assemble_lists, in_page_order};
use trawl_learn::sitemap::Role;
use trawl_schedule::{ListId, ListKind};
use trawl_store::StoredPage;

/// One list's pages.
#[derive(Debug, Clone)]
struct KnownList {
    kind: ListKind,
    /// URLs in page order (page 1 first).
    urls: Vec<String>,
}

/// Every list the store shows, with the URL of each page.
#[derive(Debug, Clone, Default)]
pub(crate) struct ListUrls {
    lists: HashMap<ListId, KnownList>,
    /// Lists in the order they became known, so that registering them is deterministic.
    order: Vec<ListId>,
    page_of_url: HashMap<String, (ListId, u32)>,
}

/// The identity of the list whose first page is `url`: FNV-1a over its bytes, a hash whose
/// values no library update can change, since the scheduler's state rebuilt after a restart must
/// name the lists as the run before did.
pub(crate) fn list_id_of(url: &str) -> ListId {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in url.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    ListId(hash)
}

/// The list kind a page's role stands for.
pub(crate) fn kind_of_role(role: Role) -> Option<ListKind> {
    match role {
        Role::Thread => Some(ListKind::Post),
        Role::ThreadList => Some(ListKind::Index),
        _ => None,
    }
}

impl ListUrls {
    /// The lists the stored pages make, with the pages their page-flipping links name.
    pub(crate) fn from_stored(pages: &[StoredPage]) -> ListUrls {
        let roles: Vec<Option<Role>> = pages
            .iter()
            .map(|page| {
                page.record
                    .role
                    .as_deref()
                    .and_then(Role::from_name)
                    .filter(|&role| kind_of_role(role).is_some())
            })
            .collect();
        let input: Vec<ListPage<'_>> = pages
            .iter()
            .zip(&roles)
            .map(|(page, role)| ListPage {
                url: &page.record.url,
                role: *role,
                list_links: &page.record.list_links,
                title: page.record.title.as_deref(),
            })
            .collect();
        let mut known = ListUrls::default();
        for list in assemble_lists(&input) {
            let Some(kind) = roles[list.pages[0]].and_then(kind_of_role) else {
                continue;
            };
            let urls: Vec<String> = list
                .pages
                .iter()
                .map(|&page| pages[page].record.url.clone())
                .collect();
            known.insert(kind, urls);
        }
        // Pages a pager names and the crawl never fetched, taken in fetch order.
        for page in pages {
            if let Some((list, _)) = known.page_of(&page.record.url) {
                known.extend(list, &page.record.list_links);
            }
        }
        known
    }

    /// Registers a list of these pages, unless its first page is known already.
    fn insert(&mut self, kind: ListKind, urls: Vec<String>) -> Option<ListId> {
        let first = urls.first()?;
        if self.page_of_url.contains_key(first) {
            return None;
        }
        let id = list_id_of(first);
        if self.lists.contains_key(&id) {
            return None;
        }
        for (index, url) in urls.iter().enumerate() {
            self.page_of_url
                .entry(url.clone())
                .or_insert((id, index as u32 + 1));
        }
        self.lists.insert(id, KnownList { kind, urls });
        self.order.push(id);
        Some(id)
    }

    /// The thread whose first page is `url`, registered as a list of one page when it is new.
    /// `None` when `url` is a page of a board list (a board linking a sub-board).
    pub(crate) fn thread_at(&mut self, url: &str) -> Option<ListId> {
        if let Some(&(list, _)) = self.page_of_url.get(url) {
            return (self.lists[&list].kind == ListKind::Post).then_some(list);
        }
        self.insert(ListKind::Post, vec![url.to_string()])
    }

    /// The list and page number of a URL.
    pub(crate) fn page_of(&self, url: &str) -> Option<(ListId, u32)> {
        self.page_of_url.get(url).copied()
    }

    /// The URL of page `page` of `list`.
    pub(crate) fn url_of(&self, list: ListId, page: u32) -> Option<&str> {
        let index = page.checked_sub(1)? as usize;
        self.lists.get(&list)?.urls.get(index).map(String::as_str)
    }

    pub(crate) fn kind(&self, list: ListId) -> Option<ListKind> {
        self.lists.get(&list).map(|known| known.kind)
    }

    /// Board lists, in the order they became known.
    pub(crate) fn index_lists(&self) -> impl Iterator<Item = ListId> + '_ {
        self.order
            .iter()
            .copied()
            .filter(|list| self.lists[list].kind == ListKind::Index)
    }

    /// Every list, in the order it became known.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    /// Adds the pages `links` name to `list` when they continue it (their URLs put them after
    /// every page it has), and returns the highest page number the links name: the page count
    /// the page's pager shows. A link that would fall between known pages is another spelling
    /// of one of them, and a link to another list's page is the plan's mistake; neither is added.
    pub(crate) fn extend(&mut self, list: ListId, links: &[String]) -> u32 {
        if let Some(known) = self.lists.get_mut(&list) {
            let mut unknown: Vec<&str> = Vec::new();
            for link in links {
                if !self.page_of_url.contains_key(link) && !unknown.contains(&link.as_str()) {
                    unknown.push(link);
                }
            }
            if !unknown.is_empty() {
                // All new links are ordered at once: a pager may name page 3 before page 2.
                let known_count = known.urls.len();
                let mut urls: Vec<&str> = known.urls.iter().map(String::as_str).collect();
                urls.extend(&unknown);
                let order = in_page_order(&urls);
                let after_known = order
                    .iter()
                    .rposition(|&index| index < known_count)
                    .map_or(0, |position| position + 1);
                let added: Vec<String> = order[after_known..]
                    .iter()
                    .map(|&index| urls[index].to_string())
                    .collect();
                for url in added {
                    known.urls.push(url.clone());
                    self.page_of_url
                        .insert(url, (list, known.urls.len() as u32));
                }
            }
        }
        links
            .iter()
            .filter_map(|link| self.page_of_url.get(link))
            .filter(|(other, _)| *other == list)
            .map(|&(_, page)| page)
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use trawl_store::PageRecord;

    fn stored(url: &str, role: Role, links: &[&str]) -> StoredPage {
        StoredPage {
            id: 0,
            record: PageRecord {
                url: url.to_string(),
                role: Some(role.name().to_string()),
                list_links: links.iter().map(|link| link.to_string()).collect(),
                ..PageRecord::default()
            },
        }
    }

    /// Builds the lists of `pages`, then checks each expected list (its first URL, kind, and
    /// URLs in page order).
    fn check(pages: &[StoredPage], expected: &[(ListKind, &[&str])]) {
        let known = ListUrls::from_stored(pages);
        assert_eq!(known.len(), expected.len(), "{known:?}");
        for (kind, urls) in expected {
            let list = list_id_of(urls[0]);
            assert_eq!(known.kind(list), Some(*kind), "{}", urls[0]);
            for (index, url) in urls.iter().enumerate() {
                assert_eq!(known.url_of(list, index as u32 + 1), Some(*url));
                assert_eq!(known.page_of(url), Some((list, index as u32 + 1)));
            }
            assert_eq!(known.url_of(list, urls.len() as u32 + 1), None);
        }
    }

    const T1: &str = "http://f.test/t?id=1";
    const T1P2: &str = "http://f.test/t?id=1&start=10";
    const T1P3: &str = "http://f.test/t?id=1&start=20";
    const B1: &str = "http://f.test/b?id=1";
    const B1P2: &str = "http://f.test/b?id=1&start=25";

    #[test]
    fn stored_pages_make_lists_with_the_pages_their_pagers_name() {
        // A thread fetched on two pages whose pager names a third never fetched.
        check(
            &[
                stored(T1P2, Role::Thread, &[T1, T1P3]),
                stored(T1, Role::Thread, &[T1P2]),
            ],
            &[(ListKind::Post, &[T1, T1P2, T1P3])],
        );
        // A board and a thread side by side; the portal is no list.
        check(
            &[
                stored("http://f.test/", Role::Portal, &[]),
                stored(B1, Role::ThreadList, &[B1P2]),
                stored(T1, Role::Thread, &[]),
            ],
            &[(ListKind::Index, &[B1, B1P2]), (ListKind::Post, &[T1])],
        );
        // A page fetched twice is one page.
        check(
            &[
                stored(T1, Role::Thread, &[]),
                stored(T1, Role::Thread, &[T1P2]),
            ],
            &[(ListKind::Post, &[T1, T1P2])],
        );
    }

    #[test]
    fn a_new_last_page_is_added_and_another_spelling_is_not() {
        let mut known = ListUrls::from_stored(&[stored(T1, Role::Thread, &[])]);
        let list = list_id_of(T1);
        assert_eq!(known.extend(list, &[T1P2.to_string()]), 2);
        assert_eq!(known.url_of(list, 2), Some(T1P2));
        // Page 3 named before page 2 is still page 3.
        let mut out_of_order = ListUrls::from_stored(&[stored(T1, Role::Thread, &[])]);
        assert_eq!(
            out_of_order.extend(list, &[T1P3.to_string(), T1P2.to_string()]),
            3
        );
        assert_eq!(out_of_order.url_of(list, 2), Some(T1P2));
        // A spelling that would stand before the known pages is not a new page.
        assert_eq!(
            known.extend(list, &["http://f.test/t?id=1&start=0".to_string()]),
            0
        );
        assert_eq!(known.url_of(list, 3), None);
        // The pager of page 2 naming pages 1 and 3: the count is the highest page named.
        assert_eq!(known.extend(list, &[T1.to_string(), T1P3.to_string()]), 3);
        // A board's link to a known thread names none of the board's pages.
        let mut with_board = ListUrls::from_stored(&[
            stored(B1, Role::ThreadList, &[]),
            stored(T1, Role::Thread, &[]),
        ]);
        assert_eq!(with_board.extend(list_id_of(B1), &[T1.to_string()]), 0);
        assert_eq!(with_board.url_of(list_id_of(B1), 2), None);
    }

    #[test]
    fn threads_are_found_by_their_first_page() {
        let mut known = ListUrls::from_stored(&[
            stored(B1, Role::ThreadList, &[B1P2]),
            stored(T1, Role::Thread, &[]),
        ]);
        assert_eq!(known.thread_at(T1), Some(list_id_of(T1)));
        // A board's page is no thread.
        assert_eq!(known.thread_at(B1P2), None);
        // A new thread is a list of one page from now on.
        let new = "http://f.test/t?id=2";
        assert_eq!(known.thread_at(new), Some(list_id_of(new)));
        assert_eq!(known.page_of(new), Some((list_id_of(new), 1)));
        assert_eq!(known.kind(list_id_of(new)), Some(ListKind::Post));
    }
}
