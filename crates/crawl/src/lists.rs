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
//! Pages named by cursors that are no numbers (`?after=GgdQDeNvt6`) share no template at all;
//! they are ordered by their distance along the list's links from the page spelled shortest.
//! Cursors that are numbers share a template, but their values need not rise along the list
//! (ids counting down as `?before=180`, `?before=152` on a list showing its newest entries
//! first): a list whose pages form one chain along its links from a first page spelled apart is
//! ordered along the chain, numbers or not.

// Lists are put together from every page of a crawl (100,000 URLs and more in an audit): a
// faster hasher than the standard library's, whose resistance to hash flooding a crawl's own
// URLs do not need.
use foldhash::{HashMap, HashMapExt};

use trawl_learn::sitemap::Role;

use crate::url_numbers::{DIGITS_MARK, shape_and_numbers};

/// A fetched page, as far as list assembly needs it.
#[derive(Debug, Clone, Copy)]
pub struct ListPage<'a> {
    /// The URL fetched.
    pub url: &'a str,
    /// The role of its vertex; pages join a list only with pages of the same role.
    pub role: Option<Role>,
    /// Its page-flipping links.
    pub list_links: &'a [String],
    /// Its document title, when known: a link joins two pages only when their titles agree
    /// ([`trawl_learn::titles::titles_agree`]).
    pub title: Option<&'a str>,
}

/// One list: indices into the pages given to [`assemble_lists`], first page first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssembledList {
    /// Page indices in page order.
    pub pages: Vec<usize>,
}

/// Groups thread and thread-list pages joined by page-flipping links into lists, each in page
/// order. A page with no such link in or out is a list of one. Pages of other roles belong to no
/// list. A URL fetched again (a revisit) is one page of its list, the first fetch's index
/// standing for it, and the links of every fetch of it count. Lists come out in the order their
/// first-fetched page was fetched.
pub fn assemble_lists(pages: &[ListPage<'_>]) -> Vec<AssembledList> {
    let mut index_of_url: HashMap<&str, usize> = HashMap::with_capacity(pages.len());
    let mut members: Vec<usize> = Vec::new();
    for (index, page) in pages.iter().enumerate() {
        if !matches!(page.role, Some(Role::Thread | Role::ThreadList)) {
            continue;
        }
        // The first fetch of a URL stands for its page in the list.
        if let std::collections::hash_map::Entry::Vacant(slot) = index_of_url.entry(page.url) {
            slot.insert(index);
            members.push(index);
        }
    }
    let mut groups = UnionFind::new(pages.len());
    // Each page's links resolved once to the fetches they lead to, by page index: ordering a
    // list walks them again, and an index needs no hashing where a URL did (a crawl's audit
    // puts together lists of 100,000 pages).
    let mut link_targets = LinkTargets::with_capacity(pages.len());
    // Every fetch's links join lists, a later fetch's on behalf of the URL's first: a revisit of
    // a thread's last page names the page the thread has grown since.
    for page in pages {
        let Some(&first) = index_of_url.get(page.url) else {
            link_targets.end_page();
            continue;
        };
        if page.role != pages[first].role {
            link_targets.end_page();
            continue;
        }
        for link in page.list_links {
            let Some(&target) = index_of_url.get(link.as_str()) else {
                continue;
            };
            link_targets.push(target);
            if pages[target].role == page.role
                && titles_allow_joining(pages[first].title, pages[target].title)
            {
                groups.union(first, target);
            }
        }
        link_targets.end_page();
    }
    let mut lists_by_root: HashMap<usize, Vec<usize>> = HashMap::with_capacity(members.len());
    let mut root_order: Vec<usize> = Vec::new();
    for &index in &members {
        let root = groups.find(index);
        let list = lists_by_root.entry(root).or_insert_with(|| {
            root_order.push(root);
            Vec::new()
        });
        list.push(index);
    }
    let mut ordering = Ordering {
        pages,
        link_targets: &link_targets,
        position_in_list: vec![NOT_IN_LIST; pages.len()],
    };
    root_order
        .into_iter()
        .filter_map(|root| lists_by_root.remove(&root))
        .map(|mut list| {
            ordering.order_by_page_key(&mut list);
            AssembledList { pages: list }
        })
        .collect()
}

/// The fetches each page's page-flipping links lead to, as page indices of the URLs' first
/// fetches, in the page's order of links, one run per page in page order (links to URLs never
/// fetched left out).
struct LinkTargets {
    targets: Vec<usize>,
    /// Where each page's run ends in `targets`.
    ends: Vec<usize>,
}

impl LinkTargets {
    fn with_capacity(pages: usize) -> LinkTargets {
        LinkTargets {
            targets: Vec::with_capacity(2 * pages),
            ends: Vec::with_capacity(pages),
        }
    }

    fn push(&mut self, target: usize) {
        self.targets.push(target);
    }

    fn end_page(&mut self) {
        self.ends.push(self.targets.len());
    }

    fn of(&self, page: usize) -> &[usize] {
        let start = if page == 0 { 0 } else { self.ends[page - 1] };
        &self.targets[start..self.ends[page]]
    }
}

/// Marks a page of no list in [`Ordering::position_in_list`].
const NOT_IN_LIST: usize = usize::MAX;

/// What ordering lists reads, with one table for every list: a page's position in the list
/// being ordered, which tells whether a link stays in the list without a set made per list.
struct Ordering<'p, 'a> {
    pages: &'p [ListPage<'a>],
    link_targets: &'p LinkTargets,
    /// Set for the list being ordered, and cleared after it.
    position_in_list: Vec<usize>,
}

/// Whether a page-flipping link may join two pages with these titles. Some links that step
/// through a list run on past its end: a mail archive's "Thread Next" under a thread's last
/// message leads to the first message of the next thread, and its "Thread Prev" above a
/// thread's first message to the last of the one before (MHonArc and pipermail both do). The
/// learner takes such a link for page flipping because most pages it joins are of one thread;
/// the pages it joins across the threads' border are told by their titles, which then name two
/// subjects. Titles not known (a page recorded without one) say nothing.
fn titles_allow_joining(first: Option<&str>, second: Option<&str>) -> bool {
    match (first, second) {
        // One title agrees with itself, without reading its words: most pages of a list and
        // the pages they link share theirs.
        (Some(first), Some(second)) if first == second => true,
        (Some(first), Some(second)) => trawl_learn::titles::titles_agree(first, second),
        _ => true,
    }
}

/// Whether `first` and `second` can be two pages of one list, read from their URLs alone: both
/// spelled by one template that differs in a single number (`&page=3` and `&page=9`,
/// `thread-7-2-1.html` and `thread-7-5-1.html`), or one spelled as the other with one number
/// more (a list's first page spelled without its page number, `?t=5` and `?t=5&page=9`, and
/// `/threads/slug.12/` and `/threads/slug.12/page-3`). The numbers left once the page number is
/// set aside are the list's identity, and there must be at least one: two URLs that share no
/// number (`?t=5` and `?t=6`, a thread and the next) name two lists, not two pages of one.
///
/// This reads spellings only; whether the link is a pager's is for the caller to know.
pub(crate) fn pages_of_one_list(first: &str, second: &str) -> bool {
    let strip = |url: &'_ str| url.split('#').next().unwrap_or(url).to_string();
    let (first_shape, first_numbers) = shape_and_numbers(&strip(first));
    let (second_shape, second_numbers) = shape_and_numbers(&strip(second));
    if first_shape == second_shape {
        let differing = first_numbers
            .iter()
            .zip(&second_numbers)
            .filter(|(one, other)| one != other)
            .count();
        return differing == 1 && first_numbers.len() >= 2;
    }
    let ((short_shape, short_numbers), (long_shape, long_numbers)) =
        if first_numbers.len() < second_numbers.len() {
            ((first_shape, first_numbers), (second_shape, second_numbers))
        } else {
            ((second_shape, second_numbers), (first_shape, first_numbers))
        };
    if short_numbers.is_empty() || long_numbers.len() != short_numbers.len() + 1 {
        return false;
    }
    let short_pieces: Vec<&str> = short_shape.split(DIGITS_MARK).collect();
    let long_pieces: Vec<&str> = long_shape.split(DIGITS_MARK).collect();
    (0..long_numbers.len()).any(|extra| {
        let numbers_agree = long_numbers
            .iter()
            .enumerate()
            .filter(|(position, _)| *position != extra)
            .map(|(_, number)| number)
            .eq(short_numbers.iter());
        // The long spelling's pieces around the extra number, `before` and `after`, stand in
        // the short one as a single piece: a head of `before` followed by a tail of `after`
        // (`?t=` + "" against `?t=` + `&page=` + "").
        let (before, after) = (long_pieces[extra], long_pieces[extra + 1]);
        let merged = short_pieces[extra];
        let pieces_agree = long_pieces[..extra] == short_pieces[..extra]
            && long_pieces[extra + 2..] == short_pieces[extra + 1..]
            && (0..=merged.len()).any(|split| {
                merged.is_char_boundary(split)
                    && before.starts_with(&merged[..split])
                    && after.ends_with(&merged[split..])
            });
        numbers_agree && pieces_agree
    })
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

impl Ordering<'_, '_> {
    /// Sorts one list's page indices into page order (see the module essay).
    fn order_by_page_key(&mut self, list: &mut [usize]) {
        if list.len() < 2 {
            return;
        }
        for (position, &index) in list.iter().enumerate() {
            self.position_in_list[index] = position;
        }
        self.order_members(list);
        for &index in list.iter() {
            self.position_in_list[index] = NOT_IN_LIST;
        }
    }

    fn order_members(&self, list: &mut [usize]) {
        let pages = self.pages;
        // By position in the list as given.
        let split: Vec<SplitUrl> = list
            .iter()
            .map(|&index| split_url(pages[index].url))
            .collect();
        // The template most of the list's URLs follow; on a tie, the longer one, since a first
        // page spelled without its number is the shorter spelling.
        let mut template_counts: HashMap<&String, usize> = HashMap::new();
        for parts in &split {
            *template_counts.entry(&parts.template).or_default() += 1;
        }
        let Some((main_template, main_count)) = template_counts
            .iter()
            .max_by_key(|(template, count)| (**count, template.len()))
            .map(|(template, count)| ((*template).clone(), *count))
        else {
            return;
        };
        if main_count == 1 {
            self.order_along_links(list);
            return;
        }
        // Cursors that are numbers (`?before=180`, `?after=17`) share a template like page
        // numbers, but their values need not rise along the list: ids counting down as a list
        // shows its newest entries first, or the ids of whatever entries closed each page. Such
        // pages are reached one from the next, so a list whose pages form one chain from its
        // first page is ordered along it.
        if let Some(chain) = self.chain_from_first_page(list, &split, &main_template) {
            list.copy_from_slice(&chain);
            return;
        }
        let following: Vec<&SplitUrl> = split
            .iter()
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
            let parts = &split[self.position_in_list[index]];
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

    /// The list's pages in order along its links, when they form one chain from its first
    /// page: exactly one page is spelled apart from the template the others follow (the first
    /// page, which carries no cursor), and every other page is reached from it along the list's
    /// links, each at a distance of its own. A numbered pager showing more than the next page (a
    /// window of numbers, a link to the last page) puts two pages at one distance and is ordered
    /// by its numbers; so is a list with a page no link reaches.
    fn chain_from_first_page(
        &self,
        list: &[usize],
        split: &[SplitUrl],
        main_template: &str,
    ) -> Option<Vec<usize>> {
        let mut apart =
            (0..list.len()).filter(|&position| split[position].template != main_template);
        let first = apart.next()?;
        if apart.next().is_some() || list.len() < 3 {
            return None;
        }
        let distance = self.link_distances(list, first);
        let mut distances: Vec<usize> = distance.iter().flatten().copied().collect();
        distances.sort_unstable();
        distances.dedup();
        if distances.len() != list.len() {
            return None;
        }
        let mut chain = list.to_vec();
        chain.sort_by_key(|&index| distance[self.position_in_list[index]]);
        Some(chain)
    }

    /// How many list links each page of `list` stands from the page at position `first`, by
    /// position, walking the links the pages show to other pages of the same list, breadth
    /// first; `None` for a page no link reaches.
    fn link_distances(&self, list: &[usize], first: usize) -> Vec<Option<usize>> {
        let mut distance: Vec<Option<usize>> = vec![None; list.len()];
        distance[first] = Some(0);
        let mut queue = std::collections::VecDeque::from([first]);
        while let Some(position) = queue.pop_front() {
            let next_distance = distance[position].map_or(0, |known| known + 1);
            for &target in self.link_targets.of(list[position]) {
                let target = self.position_in_list[target];
                if target != NOT_IN_LIST && distance[target].is_none() {
                    distance[target] = Some(next_distance);
                    queue.push_back(target);
                }
            }
        }
        distance
    }

    /// Orders a list whose URLs share no template: pages named by cursors that are no numbers
    /// (`?after=GgdQDeNvt6`, `/page/9f3c21ab/`), whose digits, where they have any, order
    /// nothing. Such pages are reached one from the next ("Load more", `rel="next"`), so their
    /// order is their distance along the list's links from its first page, the one spelled
    /// shortest (a cursor list's first page carries no cursor), earlier fetched on a tie. Pages
    /// no link reaches from it come last, shortest first. Before, the longest spelling was taken
    /// for the template and put last, the others by length, which put a board's third page
    /// before its second.
    fn order_along_links(&self, list: &mut [usize]) {
        let pages = self.pages;
        let Some(first) = (0..list.len())
            .min_by_key(|&position| (pages[list[position]].url.len(), list[position]))
        else {
            return;
        };
        let distance = self.link_distances(list, first);
        list.sort_by_key(|&index| {
            (
                distance[self.position_in_list[index]].unwrap_or(usize::MAX),
                pages[index].url.len(),
                index,
            )
        });
    }
}

/// The URLs of one list in page order, as indices into `urls`: the order [`assemble_lists`]
/// gives a list's pages, for a driver that learns of a list's pages one at a time (a revisit
/// finds a thread's new last page in the pager of the page before) and must tell where a new
/// URL stands among those it knows.
pub fn in_page_order(urls: &[&str]) -> Vec<usize> {
    let pages: Vec<ListPage<'_>> = urls
        .iter()
        .map(|url| ListPage {
            url,
            role: None,
            list_links: &[],
            title: None,
        })
        .collect();
    // No links: every page's run of link targets is empty.
    let mut link_targets = LinkTargets::with_capacity(urls.len());
    for _ in urls {
        link_targets.end_page();
    }
    let mut ordering = Ordering {
        pages: &pages,
        link_targets: &link_targets,
        position_in_list: vec![NOT_IN_LIST; urls.len()],
    };
    let mut order: Vec<usize> = (0..urls.len()).collect();
    ordering.order_by_page_key(&mut order);
    order
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

    /// `urls` in the order given; `expected`: the same URLs in page order.
    fn check_order(urls: &[&str], expected: &[&str]) {
        let order = in_page_order(urls);
        let got: Vec<&str> = order.iter().map(|&index| urls[index]).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn urls_learned_one_at_a_time_are_put_in_page_order() {
        // A first page spelled without its number comes first.
        check_order(
            &["http://f.test/t?id=5&start=20", "http://f.test/t?id=5"],
            &["http://f.test/t?id=5", "http://f.test/t?id=5&start=20"],
        );
        // Numbers, not text, order the pages.
        check_order(
            &[
                "http://f.test/t-5-10.html",
                "http://f.test/t-5-9.html",
                "http://f.test/t-5-2.html",
            ],
            &[
                "http://f.test/t-5-2.html",
                "http://f.test/t-5-9.html",
                "http://f.test/t-5-10.html",
            ],
        );
        // One URL is its own order.
        check_order(&["http://f.test/t?id=5"], &["http://f.test/t?id=5"]);
    }

    /// A page as the checks give it: URL, role, list links and title.
    type TitledPage<'a> = (&'a str, Option<Role>, &'a [&'a str], Option<&'a str>);

    /// `pages`: (url, role, list links); `expected`: each list as its URLs in page order.
    fn check(pages: &[(&str, Option<Role>, &[&str])], expected: &[&[&str]]) {
        let titled: Vec<TitledPage<'_>> = pages
            .iter()
            .map(|&(url, role, links)| (url, role, links, None))
            .collect();
        check_titled(&titled, expected);
    }

    /// [`check`] of pages with their titles: (url, role, list links, title).
    fn check_titled(pages: &[TitledPage<'_>], expected: &[&[&str]]) {
        let links: Vec<Vec<String>> = pages
            .iter()
            .map(|(_, _, links, _)| links.iter().map(|link| link.to_string()).collect())
            .collect();
        let input: Vec<ListPage<'_>> = pages
            .iter()
            .zip(&links)
            .map(|((url, role, _, title), list_links)| ListPage {
                url,
                role: *role,
                list_links,
                title: *title,
            })
            .collect();
        let lists: Vec<Vec<&str>> = assemble_lists(&input)
            .into_iter()
            .map(|list| list.pages.iter().map(|&index| pages[index].0).collect())
            .collect();
        let expected: Vec<Vec<&str>> = expected.iter().map(|list| list.to_vec()).collect();
        assert_eq!(lists, expected);
    }

    /// Boards paged by cursors that are ids counting down (`?before=180`, newest entries first)
    /// keep their page order along their links, whatever order their pages were fetched in:
    /// ordered by their numbers they ran backwards. A numbered pager with a window of pages, or
    /// a list with a page no link reaches, is still ordered by its numbers.
    #[test]
    fn pages_named_by_cursors_counting_down_are_ordered_along_their_links() {
        let first = "/category/2/news";
        let second = "/category/2/news?before=180";
        let third = "/category/2/news?before=152";
        let fourth = "/category/2/news?before=97";
        // Next links only.
        check(
            &[
                (first, BOARD, &[second]),
                (third, BOARD, &[fourth]),
                (fourth, BOARD, &[]),
                (second, BOARD, &[third]),
            ],
            &[&[first, second, third, fourth]],
        );
        // Next and previous links.
        check(
            &[
                (fourth, BOARD, &[third]),
                (first, BOARD, &[second]),
                (second, BOARD, &[first, third]),
                (third, BOARD, &[second, fourth]),
            ],
            &[&[first, second, third, fourth]],
        );
        // Ids counting up along a chain keep their order too.
        let up = ["/c/2", "/c/2?after=17", "/c/2?after=40", "/c/2?after=41"];
        check(
            &[
                (up[2], BOARD, &[up[3]]),
                (up[0], BOARD, &[up[1]]),
                (up[1], BOARD, &[up[2]]),
                (up[3], BOARD, &[]),
            ],
            &[&up],
        );
        // A window of page numbers (the first page links every other page) is ordered by
        // number.
        let numbered = [
            "/f?id=3",
            "/f?id=3&page=2",
            "/f?id=3&page=3",
            "/f?id=3&page=4",
        ];
        check(
            &[
                (numbered[0], BOARD, &[numbered[1], numbered[2], numbered[3]]),
                (numbered[3], BOARD, &[numbered[2]]),
                (numbered[2], BOARD, &[numbered[1], numbered[3]]),
                (numbered[1], BOARD, &[numbered[0], numbered[2]]),
            ],
            &[&numbered],
        );
    }

    /// Boards paged by cursors that are no numbers keep their page order, whatever order their
    /// pages were fetched in and whatever digits the cursors hold: "Load more" links chain the
    /// pages one way, `rel="next"` and `rel="prev"` both ways. Before, the spelling of the
    /// longest shape was put last (`8qXJlz6OXD`, the second page, after the third).
    #[test]
    fn pages_named_by_opaque_cursors_are_ordered_along_their_links() {
        let first = "/board.php?id=1";
        let second = "/board.php?id=1&after=8qXJlz6OXD";
        let third = "/board.php?id=1&after=GgdQDeNvt6";
        let fourth = "/board.php?id=1&after=CJJNdhstkb";
        // Load more: each page links the next only.
        check(
            &[
                (first, BOARD, &[second]),
                (third, BOARD, &[fourth]),
                (second, BOARD, &[third]),
                (fourth, BOARD, &[]),
            ],
            &[&[first, second, third, fourth]],
        );
        // Head links both ways.
        check(
            &[
                (first, BOARD, &[second]),
                (second, BOARD, &[first, third]),
                (third, BOARD, &[second]),
            ],
            &[&[first, second, third]],
        );
        // Cursors as path segments.
        let path = "/b/1/";
        let (hashed, later) = ("/b/1/page/9f3c21ab/", "/b/1/page/0c77e1d2/");
        check(
            &[
                (later, BOARD, &[hashed]),
                (path, BOARD, &[hashed]),
                (hashed, BOARD, &[path, later]),
            ],
            &[&[path, hashed, later]],
        );
    }

    /// A mail archive's "Thread Next" under a thread's last message leads to the next thread's
    /// first message, and "Thread Prev" back; the subjects tell the threads apart.
    #[test]
    fn thread_steps_past_a_thread_end_do_not_join_the_next_thread() {
        check_titled(
            &[
                ("/l/msg1.html", THREAD, &["/l/msg2.html"], Some("Drivers?")),
                (
                    "/l/msg2.html",
                    THREAD,
                    &["/l/msg1.html", "/l/msg4.html"],
                    Some("Re: Drivers?"),
                ),
                (
                    "/l/msg4.html",
                    THREAD,
                    &["/l/msg2.html", "/l/msg3.html"],
                    Some("Re: Drivers?"),
                ),
                (
                    "/l/msg3.html",
                    THREAD,
                    &["/l/msg4.html", "/l/msg5.html"],
                    Some("New board"),
                ),
                (
                    "/l/msg5.html",
                    THREAD,
                    &["/l/msg3.html"],
                    Some("Re: New board"),
                ),
            ],
            &[
                &["/l/msg1.html", "/l/msg2.html", "/l/msg4.html"],
                &["/l/msg3.html", "/l/msg5.html"],
            ],
        );
    }

    /// A later page that adds its number to the title, or a page whose title is unknown, stays
    /// with its list.
    #[test]
    fn page_numbers_in_titles_and_missing_titles_keep_a_list_whole() {
        check_titled(
            &[
                (
                    "/t?id=5",
                    THREAD,
                    &["/t?id=5&page=2"],
                    Some("Topic - Forum"),
                ),
                (
                    "/t?id=5&page=2",
                    THREAD,
                    &["/t?id=5", "/t?id=5&page=3"],
                    Some("Topic - Page 2 - Forum"),
                ),
                ("/t?id=5&page=3", THREAD, &["/t?id=5&page=2"], None),
            ],
            &[&["/t?id=5", "/t?id=5&page=2", "/t?id=5&page=3"]],
        );
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
    fn a_revisits_pager_joins_the_page_the_list_grew() {
        // A thread of one page, fetched again once a second page exists, which is fetched
        // next and links back to a spelling the crawl never fetched.
        check(
            &[
                ("/t?id=1", THREAD, &[]),
                ("/t?id=1", THREAD, &["/t?id=1&page=2"]),
                ("/t?id=1&page=2", THREAD, &["/t?id=1&page=1"]),
            ],
            &[&["/t?id=1", "/t?id=1&page=2"]],
        );
        // A later fetch under another role (an error page) joins nothing.
        check(
            &[
                ("/t?id=1", THREAD, &[]),
                ("/t?id=1", None, &["/t?id=1&page=2"]),
                ("/t?id=1&page=2", THREAD, &[]),
            ],
            &[&["/t?id=1"], &["/t?id=1&page=2"]],
        );
    }

    /// `cases`: (one URL, another, whether they can be two pages of one list).
    fn check_pages_of_one_list(cases: &[(&str, &str, bool)]) {
        for (first, second, expected) in cases {
            assert_eq!(
                pages_of_one_list(first, second),
                *expected,
                "{first} and {second}"
            );
            assert_eq!(
                pages_of_one_list(second, first),
                *expected,
                "{second} and {first}"
            );
        }
    }

    #[test]
    fn pages_of_one_list_differ_in_their_page_number_only() {
        check_pages_of_one_list(&[
            (
                "/showthread.php?t=5&page=3",
                "/showthread.php?t=5&page=9",
                true,
            ),
            ("/showthread.php?t=5", "/showthread.php?t=5&page=9", true),
            (
                "/showthread.php?t=5#post3",
                "/showthread.php?t=5&page=2",
                true,
            ),
            ("/thread-7-2-1.html", "/thread-7-15-1.html", true),
            ("/index.php?topic=8.0", "/index.php?topic=8.40", true),
            ("/threads/slug.12/", "/threads/slug.12/page-3", true),
            (
                "/viewtopic.php?f=2&t=5",
                "/viewtopic.php?f=2&t=5&start=20",
                true,
            ),
            ("/t/a-title/123", "/t/a-title/123?page=4", true),
            // A pager that names the order of the list beside the page number.
            (
                "/questions/4002/a-title/",
                "/questions/4002/a-title/?sort=oldest&page=2",
                true,
            ),
            // Another list: a thread and the next one share no number.
            ("/showthread.php?t=5", "/showthread.php?t=6", false),
            // Spelling alone cannot tell a page number from a list's id when both URLs carry
            // both (page 3 of two threads): the caller's pager-like kind of link must.
            (
                "/showthread.php?t=5&page=3",
                "/showthread.php?t=6&page=3",
                true,
            ),
            ("/showthread.php?t=5&page=3", "/showthread.php?t=6", false),
            (
                "/showthread.php?t=5&page=3",
                "/showthread.php?t=6&page=4",
                false,
            ),
            ("/thread-7-2-1.html", "/thread-8-3-1.html", false),
            // Another template around the extra number.
            ("/showthread.php?t=5", "/forumdisplay.php?f=5&page=2", false),
            ("/threads/slug.12/", "/members/slug.12/page-3", false),
            // No number to tell the list by.
            ("/memberlist.php", "/memberlist.php?page=2", false),
            ("/showthread.php?t=5", "/showthread.php?t=5", false),
        ]);
    }

    #[test]
    fn links_to_pages_never_fetched_are_ignored() {
        check(
            &[("/t?id=1&p=2", THREAD, &["/t?id=1", "/t?id=1&p=3"])],
            &[&["/t?id=1&p=2"]],
        );
    }
}
