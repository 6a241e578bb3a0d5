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
use trawl_learn::later_pages::later_page_number;
use trawl_learn::sitemap::Role;
use trawl_schedule::{ListId, ListKind};
use trawl_store::PageRecord;
use url::Url;

/// What assembling the lists needs of a stored page of a list: far less than the page's records,
/// which a big forum's store could not hold in memory at once.
#[derive(Debug, Clone)]
pub(crate) struct ListOutline {
    url: String,
    role: Role,
    list_links: Vec<String>,
    /// The page's title: list assembly joins two pages by a list link only when their titles
    /// agree (a mail archive's "Thread Next" under a thread's last message leads into the next
    /// thread).
    title: Option<String>,
}

impl ListOutline {
    /// The outline of a stored page, `None` for a page of no list (the portal, a member page),
    /// which no list assembly looks at.
    pub(crate) fn of(record: &PageRecord) -> Option<ListOutline> {
        let role = record.role.as_deref().and_then(Role::from_name)?;
        kind_of_role(role)?;
        Some(ListOutline {
            url: record.url.clone(),
            role,
            list_links: record.list_links.clone(),
            title: record.title.clone(),
        })
    }
}

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
    /// The lists the pages outlined make, with the pages their page-flipping links name.
    pub(crate) fn from_outlines(pages: &[ListOutline]) -> ListUrls {
        let input: Vec<ListPage<'_>> = pages
            .iter()
            .map(|page| ListPage {
                url: &page.url,
                role: Some(page.role),
                list_links: &page.list_links,
                title: page.title.as_deref(),
            })
            .collect();
        let mut known = ListUrls::default();
        for list in assemble_lists(&input) {
            let Some(kind) = kind_of_role(pages[list.pages[0]].role) else {
                continue;
            };
            let urls: Vec<String> = list
                .pages
                .iter()
                .map(|&page| pages[page].url.clone())
                .collect();
            known.insert(kind, urls);
        }
        // Pages a pager names and the crawl never fetched, taken in fetch order.
        for page in pages {
            if let Some((list, _)) = known.page_of(&page.url) {
                known.extend(list, &page.list_links);
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

    /// Registers a list found after the crawl (a new board's first page, a thread reached from
    /// the portal) as a list of one page; `None` when `url` is a page of a known list.
    pub(crate) fn add_list(&mut self, kind: ListKind, url: &str) -> Option<ListId> {
        if self.page_of_url.contains_key(url) {
            return None;
        }
        self.insert(kind, vec![url.to_string()])
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

    /// Pages of `list` known (fetched or named by a pager).
    pub(crate) fn page_count(&self, list: ListId) -> usize {
        self.lists.get(&list).map_or(0, |known| known.urls.len())
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
                let added = without_skipped_pages(&known.urls, added);
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

/// Of the URLs `added` after a list's `known` pages (in page order), those that continue it
/// with no page left out. A pager that elides pages ("1 2 3 … 6") names a last page whose
/// predecessors it does not name; taken as the next page, the last page would stand where the
/// first page left out belongs, and the pages between would later fall between known pages
/// and never be fetched (measured: a thread grown from one page to six while a watch was
/// stopped lost the posts of its fourth and fifth pages). So when the URLs number their pages,
/// by page numbers (`page=2`) or by offsets (`start=15`), a URL more than one step past the
/// last page kept is held back, with those after it, until a pager names the pages between.
/// URLs that number nothing this way (paths, cursors) are kept as they come.
fn without_skipped_pages(known: &[String], added: Vec<String>) -> Vec<String> {
    let Some(first) = known.first().and_then(|url| Url::parse(url).ok()) else {
        return added;
    };
    let number = |url: &str| {
        Url::parse(url)
            .ok()
            .and_then(|url| later_page_number(&first, &url))
    };
    // Page 2's number tells the numbering: 2 for page numbers, one page's length for offsets.
    let mut numbers: Vec<u64> = known[1..].iter().filter_map(|url| number(url)).collect();
    numbers.extend(added.iter().filter_map(|url| number(url)));
    let Some(&second) = numbers.iter().min() else {
        return added;
    };
    let (first_number, step) = if second == 2 { (1, 1) } else { (0, second) };
    let mut last = known[1..]
        .iter()
        .filter_map(|url| number(url))
        .max()
        .unwrap_or(first_number);
    let mut kept = Vec::with_capacity(added.len());
    for url in added {
        match number(&url) {
            Some(page) if page > last + step => break,
            Some(page) => last = last.max(page),
            None => {}
        }
        kept.push(url);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(url: &str, role: Role, links: &[&str]) -> PageRecord {
        PageRecord {
            url: url.to_string(),
            role: Some(role.name().to_string()),
            list_links: links.iter().map(|link| link.to_string()).collect(),
            ..PageRecord::default()
        }
    }

    fn from_stored(pages: &[PageRecord]) -> ListUrls {
        let outlines: Vec<ListOutline> = pages.iter().filter_map(ListOutline::of).collect();
        ListUrls::from_outlines(&outlines)
    }

    /// Builds the lists of `pages`, then checks each expected list (its first URL, kind, and
    /// URLs in page order).
    fn check(pages: &[PageRecord], expected: &[(ListKind, &[&str])]) {
        let known = from_stored(pages);
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
        let mut known = from_stored(&[stored(T1, Role::Thread, &[])]);
        let list = list_id_of(T1);
        assert_eq!(known.extend(list, &[T1P2.to_string()]), 2);
        assert_eq!(known.url_of(list, 2), Some(T1P2));
        // Page 3 named before page 2 is still page 3.
        let mut out_of_order = from_stored(&[stored(T1, Role::Thread, &[])]);
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
        let mut with_board = from_stored(&[
            stored(B1, Role::ThreadList, &[]),
            stored(T1, Role::Thread, &[]),
        ]);
        assert_eq!(with_board.extend(list_id_of(B1), &[T1.to_string()]), 0);
        assert_eq!(with_board.url_of(list_id_of(B1), 2), None);
    }

    /// A list of `first` alone, extended by each pager in turn, gives these pages in order.
    fn check_pagers(first: &str, pagers: &[&[&str]], expected: &[&str]) {
        let mut known = from_stored(&[stored(first, Role::Thread, &[])]);
        let list = list_id_of(first);
        for pager in pagers {
            let links: Vec<String> = pager.iter().map(|link| link.to_string()).collect();
            known.extend(list, &links);
        }
        let got: Vec<&str> = (1..).map_while(|page| known.url_of(list, page)).collect();
        assert_eq!(got, expected, "{pagers:?}");
    }

    #[test]
    fn a_page_an_eliding_pager_names_waits_for_the_pages_before_it() {
        let t = "http://f.test/t?id=1";
        let offset = |start: u32| format!("{t}&start={start}");
        let (o15, o30, o45, o60, o75) =
            (offset(15), offset(30), offset(45), offset(60), offset(75));
        // "1 2 3 … 6" by offsets: the sixth page waits until pages 4 and 5 are named.
        check_pagers(t, &[&[&o15, &o30, &o75]], &[t, &o15, &o30]);
        check_pagers(
            t,
            &[
                &[&o15, &o30, &o75],
                &[&o30, &o45, &o75],
                &[&o45, &o60, &o75],
            ],
            &[t, &o15, &o30, &o45, &o60, &o75],
        );
        // The same by page numbers.
        let page = |number: u32| format!("{t}&page={number}");
        let (p2, p3, p4, p9) = (page(2), page(3), page(4), page(9));
        check_pagers(t, &[&[&p2, &p3, &p9]], &[t, &p2, &p3]);
        check_pagers(t, &[&[&p2, &p3, &p9], &[&p4]], &[t, &p2, &p3, &p4]);
        // Pages numbered by path are kept as they come.
        let path = "http://f.test/threads/a.1/";
        check_pagers(
            path,
            &[&[
                "http://f.test/threads/a.1/page-2",
                "http://f.test/threads/a.1/page-6",
            ]],
            &[
                path,
                "http://f.test/threads/a.1/page-2",
                "http://f.test/threads/a.1/page-6",
            ],
        );
    }

    #[test]
    fn threads_are_found_by_their_first_page() {
        let mut known = from_stored(&[
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
