//! Later pages of lists the sample met only as links: after the sample proper, one page of
//! each kind of "next page" link the sampled pages show and the sample never fetched.
//!
//! A sample of a few hundred pages of a large forum can hold no page of a long thread past its
//! first: most threads fit on one page, and a thread's later pages are linked only from its own
//! pager, which the sampler meets late and among hundreds of links of other kinds. The plan then
//! knows no pattern for those pages and no pager to follow, and the crawl stops every long
//! thread at its first page. Measured on the simulator's question-and-answer family at medium
//! scale (300 samples, seed 1): the 40 sampled question pages all fit on one page, two of them
//! linked `?sort=oldest&page=2`, and the crawl reached 62.74 % of the forum.
//!
//! A later page of a page's own list is spelled as the page itself (same path, every query
//! pair of the page kept) plus one pair whose value is a page number of 2 or more, and maybe
//! pairs naming the list's order (`?sort=oldest&page=2`, `&start=15`). Of each kind of such link
//! (its URL shape, [`crate::sample::url_shape`]) that no sampled page has, the lowest page
//! number linked is fetched, within [`SampleOptions::later_page_checks`] fetches and a
//! tenth of the sample.
//!
//! Of each kind, the later pages of two lists are fetched when the sample links them, every
//! kind's first before any kind's second. A later page's pager links the list's first page,
//! often spelled with its number (`/b/7/1.html` beside `/b/7/`, `thread-1.html` beside
//! `thread.html`, `?page=1`), and a rule that such a spelling is the list's own needs two
//! agreeing pairs ([`crate::spellings::SPELLING_EVIDENCE`]) before the crawler trusts it: with
//! one list's second page sampled the sample held one pair, and the crawler paid for the rule
//! with two duplicate fetches per kind of list. Measured with `trawl bench learn --samples 100`
//! (seeds 1-3): 0.5-1.9 % duplicate fetches on six of the simulator's families, all of them
//! first pages spelled with their number.
//!
//! [`SampleOptions::later_page_checks`]: crate::sample::SampleOptions::later_page_checks

use std::collections::{BTreeMap, HashMap, HashSet};

use url::Url;

use crate::sample::url_shape;
use crate::summary::PageSummary;

/// The page number a link names when it is spelled as a later page of `page`'s own list, else
/// `None`; always `None` from a page that is a worded view of a list ([`names_a_view`]), and
/// `None` for a post's permalink spelled as the page with the post's number added, which its
/// fragment gives away by naming the same number (`?post=2#2`, `?p=2#p2`): a thread's first
/// posts have numbers as small as a pager's.
pub fn later_page_number(page: &Url, link: &Url) -> Option<u64> {
    if link.host_str() != page.host_str() || link.path() != page.path() || names_a_view(page) {
        return None;
    }
    let own: Vec<(String, String)> = page.query_pairs().into_owned().collect();
    let linked: Vec<(String, String)> = link.query_pairs().into_owned().collect();
    if !own.iter().all(|pair| linked.contains(pair)) {
        return None;
    }
    let mut numbers = linked
        .iter()
        .filter(|pair| !own.contains(pair))
        .filter_map(|(_, value)| value.parse::<u64>().ok());
    let number = numbers.next()?;
    let names_a_post = link.fragment().is_some_and(|fragment| {
        fragment
            .split(|character: char| !character.is_ascii_digit())
            .any(|digits| digits.parse::<u64>() == Ok(number))
    });
    (numbers.next().is_none() && number >= 2 && !names_a_post).then_some(number)
}

/// The later pages to fetch: of each URL shape of later-page links the sampled `pages` show
/// and none of them has, the one naming the lowest page, first met first, and then, of each
/// such shape again, one of another list (linked from other sampled pages), at most `budget`.
pub fn later_page_checks(
    pages: &[PageSummary],
    budget: usize,
    is_same_site: impl Fn(&Url) -> bool,
) -> Vec<Url> {
    // Sampled pages per shape: a kind the sample holds a page of needs one list fewer.
    let mut sampled_of_shape: HashMap<String, usize> = HashMap::new();
    for page in pages {
        *sampled_of_shape.entry(url_shape(&page.url)).or_default() += 1;
    }
    // Per shape: per list (its first page's URL), the lowest page number linked with its URL;
    // the order each shape was first met in; and the sampled pages linking it.
    let mut wanted: BTreeMap<String, Wanted> = BTreeMap::new();
    for (index, page) in pages.iter().enumerate() {
        let linked: HashSet<&str> = page.links.iter().map(|link| link.url.as_str()).collect();
        for link in &page.links {
            if !is_same_site(&link.url) {
                continue;
            }
            let Some((number, list)) = later_page_number(&page.url, &link.url)
                .or_else(|| later_page_in_path(&page.url, &link.url, &link.text))
                .map(|number| (number, page.url.to_string()))
                .or_else(|| later_page_in_name(&page.url, &link.url, &link.text, &linked))
            else {
                continue;
            };
            let shape = url_shape(&link.url);
            let have = sampled_of_shape.get(&shape).copied().unwrap_or(0);
            if have >= LISTS_PER_KIND {
                continue;
            }
            let met = wanted.len();
            let entry = wanted.entry(shape).or_insert_with(|| Wanted {
                lists: Vec::new(),
                have,
                met,
                linking: HashSet::new(),
            });
            entry.linking.insert(index);
            match entry.lists.iter_mut().find(|(own, _, _)| *own == list) {
                Some((_, lowest, url)) if number < *lowest => {
                    *lowest = number;
                    *url = link.url.clone();
                }
                Some(_) => {}
                None => entry.lists.push((list, number, link.url.clone())),
            }
        }
    }
    // The kinds most sampled pages link first (a kind of list the site has many of, such as
    // threads, before one sort order of one board's list), then the order they were met in,
    // so the checks repeat exactly. Within a kind, the list naming the lowest page first, then
    // the list met first. A kind the sample holds one page of takes its one list in the
    // second round.
    let mut kinds: Vec<Wanted> = wanted.into_values().collect();
    kinds.sort_by_key(|wanted| (std::cmp::Reverse(wanted.linking.len()), wanted.met));
    // A list whose later page the sample holds is one the kind already has (counted in `have`),
    // not a candidate: choosing it again fetched a page the sample held.
    let sampled: HashSet<String> = pages
        .iter()
        .map(|page| without_fragment(&page.url))
        .collect();
    for kind in &mut kinds {
        kind.lists
            .retain(|(_, _, url)| !sampled.contains(&without_fragment(url)));
        kind.lists.sort_by_key(|(_, number, _)| *number);
    }
    let mut checks: Vec<Url> = Vec::new();
    let mut taken: HashSet<String> = HashSet::new();
    for round in 0..LISTS_PER_KIND {
        for kind in &kinds {
            let Some((_, _, url)) = round
                .checked_sub(kind.have)
                .and_then(|index| kind.lists.get(index))
            else {
                continue;
            };
            let mut url = url.clone();
            url.set_fragment(None);
            if checks.len() < budget && taken.insert(url.to_string()) {
                checks.push(url);
            }
        }
    }
    checks
}

/// For every sampled page, a representative page of the list its URL places it in: two sampled
/// pages have the same one when a pager's numbered link spells one as a later page of the
/// other's list ([`later_page_number`], [`later_page_in_path`], [`later_page_in_name`],
/// [`later_page_in_last_number`]), however
/// many such links apart, and every other page stands for itself.
///
/// Whether two pages are pages of one list is otherwise read from their texts: they share a
/// distinctive block (a thread's title, a board's name). A small sample can hold the one
/// board most of its thread pages belong to, and each of them names that board in its
/// breadcrumb, so the name is on too many pages of the layout to distinguish anything, and
/// the board's pages seem to share nothing. What their URLs say holds however many pages the
/// sample has: a board's first page linking `page-2` under the number 2 names its own second
/// page. Measured on the simulator's XenForo seed 1 with 100 samples: one pair of four board
/// pages shared no distinctive text, the boards' pager was judged no pager, and the boards'
/// later pages were never fetched (96.8 % coverage).
pub fn lists_by_page_numbers(pages: &[PageSummary]) -> Vec<usize> {
    let page_of_url: HashMap<String, usize> = pages
        .iter()
        .enumerate()
        .map(|(index, page)| (without_fragment(&page.url), index))
        .collect();
    let mut representative: Vec<usize> = (0..pages.len()).collect();
    for (index, page) in pages.iter().enumerate() {
        let linked: HashSet<&str> = page.links.iter().map(|link| link.url.as_str()).collect();
        for link in &page.links {
            let Some(&later) = page_of_url.get(&without_fragment(&link.url)) else {
                continue;
            };
            let list = if later_page_number(&page.url, &link.url)
                .or_else(|| later_page_in_path(&page.url, &link.url, &link.text))
                .or_else(|| later_page_in_last_number(&page.url, &link.url, &link.text))
                .is_some()
            {
                Some(index)
            } else {
                later_page_in_name(&page.url, &link.url, &link.text, &linked)
                    .and_then(|(_, list)| page_of_url.get(&list).copied())
            };
            if let Some(list) = list
                && list != later
            {
                let (first, second) = (
                    find(&mut representative, list),
                    find(&mut representative, later),
                );
                representative[first.max(second)] = first.min(second);
            }
        }
    }
    (0..pages.len())
        .map(|page| find(&mut representative, page))
        .collect()
}

/// The page number a link names when its URL is `page`'s own with the last number raised and
/// nothing else changed, and it reads as a number of 2 or more, as a pager's numbered links
/// do, else `None`. Engines that write a list's offset into its id (SMF's `?board=1.0` and
/// `?board=1.20`, `/board,1.40.html`) give the other spellings nothing to find. Several
/// numbers changed, or an earlier one, name another item (`?topic=2.0` beside `?topic=1.0`).
pub fn later_page_in_last_number(page: &Url, link: &Url, text: &str) -> Option<u64> {
    if link.host_str() != page.host_str() || names_a_view(page) {
        return None;
    }
    let page_number: u64 = text.trim().parse().ok()?;
    let spelled = |url: &Url| format!("{}?{}", url.path(), url.query().unwrap_or(""));
    let (shape, numbers) = crate::spellings::shape_and_numbers(&spelled(page));
    let (link_shape, link_numbers) = crate::spellings::shape_and_numbers(&spelled(link));
    if shape != link_shape {
        return None;
    }
    let value = |number: &String| number.parse::<u64>().ok();
    let changed: Vec<usize> = (0..numbers.len())
        .filter(|position| value(&numbers[*position]) != value(&link_numbers[*position]))
        .collect();
    let [position] = changed.as_slice() else {
        return None;
    };
    let raised = value(&link_numbers[*position]) > value(&numbers[*position]);
    (*position + 1 == numbers.len() && raised && page_number >= 2).then_some(page_number)
}

/// The root of `page`'s tree in a union-find forest, each page on the way hung from the root.
fn find(representative: &mut [usize], page: usize) -> usize {
    let mut root = page;
    while representative[root] != root {
        root = representative[root];
    }
    let mut current = page;
    while representative[current] != root {
        let next = representative[current];
        representative[current] = root;
        current = next;
    }
    root
}

/// `url` as text without its fragment, which names a place in the page and not another page.
fn without_fragment(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.to_string()
}

/// Lists of each kind whose later page is fetched: two, the evidence a rule learned from
/// spellings needs (see the module essay).
const LISTS_PER_KIND: usize = crate::spellings::SPELLING_EVIDENCE;

/// The page number a link names when it is spelled as a later page in its file name, with
/// the URL of the list it is a page of, else `None`: the list's own URL with a separator and a
/// number of 2 or more before the extension (`/t/5a3f.html` and `/t/5a3f-2.html`,
/// `thread-9.html` and `thread-9_3.html`), the query kept, the link reading as that number
/// alone, as a pager's numbered links do, and the list being `page` itself or a page `page`
/// links to (`linked`): a board's thread entry links the thread's later pages beside its
/// title. Engines that write a thread's later pages so gave [`later_page_number`] and
/// [`later_page_in_path`] nothing to find, and a sample holding one thread's second page or
/// none learned neither the pager nor the rule that a thread's first page spelled with its
/// number (`-1.html`) is the thread's own.
pub fn later_page_in_name(
    page: &Url,
    link: &Url,
    text: &str,
    linked: &HashSet<&str>,
) -> Option<(u64, String)> {
    if link.host_str() != page.host_str() || names_a_view(page) {
        return None;
    }
    let (suffix, list) = crate::rewrites::shorter_name_spelling(link)?;
    let is_the_page = list.path() == page.path() && link.query() == page.query();
    if !is_the_page && !linked.contains(list.as_str()) {
        return None;
    }
    let number: u64 = suffix.get(1..)?.parse().ok()?;
    let reads_as_the_number = text.trim().parse::<u64>() == Ok(number);
    (number >= 2 && reads_as_the_number).then(|| (number, list.to_string()))
}

/// The page number a link names when it is spelled as a later page of `page`'s own list one
/// path segment further down (`/b/7/` linking `/b/7/2.html`, `/forums/bikes/` linking
/// `/forums/bikes/page-2`), else `None`. The segment must carry one number of 2 or more and
/// the link must read as that number alone, as a pager's numbered links do: a board whose
/// threads live below its own path (`/forum/3/1234.html`) names them by title, not by number.
///
/// Engines that write a list's later pages into the path give [`later_page_number`] nothing to
/// find, so a sample that happened to fetch no later page of a board learned no pager for the
/// boards, and the crawl read every board's first page only. Measured on the simulator's
/// tablecraft seed 2 with 100 samples (boards at `/b/ID/`, later pages `/b/ID/2.html`): 64.5 %
/// coverage.
pub fn later_page_in_path(page: &Url, link: &Url, text: &str) -> Option<u64> {
    if link.host_str() != page.host_str()
        || link.query() != page.query()
        || names_a_view(page)
        || !page.path().ends_with('/')
    {
        return None;
    }
    let rest = link.path().strip_prefix(page.path())?;
    let segment = rest.strip_suffix('/').unwrap_or(rest);
    if segment.is_empty() || segment.contains('/') {
        return None;
    }
    let mut runs = segment
        .split(|character: char| !character.is_ascii_digit())
        .filter(|run| !run.is_empty());
    let number: u64 = runs.next()?.parse().ok()?;
    let reads_as_the_number = text.trim().parse::<u64>() == Ok(number);
    (runs.next().is_none() && number >= 2 && reads_as_the_number).then_some(number)
}

/// Whether a page's URL names a view of a list by a word (`?order=posters`, `&sort=title`):
/// the later pages of a list in another order are copies, and fetching them taught the learner
/// to follow those orders' pagers instead of the list's own (the simulator's Discourse seed 1
/// from 100 samples: 98.4 % coverage, the boards' later pages skipped). Ids and page numbers
/// are digits.
fn names_a_view(url: &Url) -> bool {
    url.query_pairs().any(|(_, value)| {
        !value
            .chars()
            .all(|character| character.is_ascii_digit() || character == '.')
    })
}

/// A kind of later-page link the sample never fetched.
struct Wanted {
    /// Per list (the sampled page linking this kind), the lowest page number linked and the
    /// link naming it, in the order the lists were met.
    lists: Vec<(String, u64, Url)>,
    /// Sampled pages of this kind.
    have: usize,
    /// How many kinds were met before this one.
    met: usize,
    /// The sampled pages linking this kind.
    linking: HashSet<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(page: &str, link: &str, expected: Option<u64>) {
        let page = Url::parse(page).expect("a URL");
        let link = Url::parse(link).expect("a URL");
        assert_eq!(
            later_page_number(&page, &link),
            expected,
            "{page} -> {link}"
        );
    }

    #[track_caller]
    fn check_in_path(page: &str, link: &str, text: &str, expected: Option<u64>) {
        let page = Url::parse(page).expect("a URL");
        let link = Url::parse(link).expect("a URL");
        assert_eq!(
            later_page_in_path(&page, &link, text),
            expected,
            "{page} -> {link} ({text})"
        );
    }

    #[track_caller]
    fn check_in_last_number(page: &str, link: &str, text: &str, expected: Option<u64>) {
        let page = Url::parse(page).expect("a URL");
        let link = Url::parse(link).expect("a URL");
        assert_eq!(
            later_page_in_last_number(&page, &link, text),
            expected,
            "{page} -> {link} ({text})"
        );
    }

    #[test]
    fn later_pages_raising_the_last_number_are_numbered_links() {
        let cases = [
            (
                "http://f/i.php?board=1.0",
                "http://f/i.php?board=1.20",
                "2",
                Some(2),
            ),
            (
                "http://f/i.php?board=1.20",
                "http://f/i.php?board=1.40",
                " 3 ",
                Some(3),
            ),
            (
                "http://f/i.php/board,1.0.html",
                "http://f/i.php/board,1.60.html",
                "4",
                Some(4),
            ),
            // The first page, a page before this one, a pager word: nothing known.
            (
                "http://f/i.php?board=1.20",
                "http://f/i.php?board=1.0",
                "1",
                None,
            ),
            (
                "http://f/i.php?board=1.40",
                "http://f/i.php?board=1.20",
                "2",
                None,
            ),
            (
                "http://f/i.php?board=1.0",
                "http://f/i.php?board=1.20",
                "Next",
                None,
            ),
            // Another board, two numbers changed, another shape: another list.
            (
                "http://f/i.php?board=1.0",
                "http://f/i.php?board=2.0",
                "2",
                None,
            ),
            (
                "http://f/i.php?board=1.0",
                "http://f/i.php?board=2.20",
                "2",
                None,
            ),
            (
                "http://f/i.php?board=1.0",
                "http://f/i.php?topic=1.20",
                "2",
                None,
            ),
            // A worded view's later pages are copies.
            (
                "http://f/i.php?board=1.0;sort=subject",
                "http://f/i.php?board=1.20;sort=subject",
                "2",
                None,
            ),
        ];
        for (page, link, text, expected) in cases {
            check_in_last_number(page, link, text, expected);
        }
    }

    #[test]
    fn later_pages_one_path_segment_down_are_numbered_links() {
        let cases = [
            ("http://f/b/7/", "http://f/b/7/2.html", "2", Some(2)),
            ("http://f/b/7/", "http://f/b/7/3.html", " 3 ", Some(3)),
            (
                "http://f/forums/bikes/",
                "http://f/forums/bikes/page-2",
                "2",
                Some(2),
            ),
            (
                "http://f/forums/bikes/",
                "http://f/forums/bikes/page2/",
                "2",
                Some(2),
            ),
            // The first page spelled with its number is no later page.
            ("http://f/b/7/", "http://f/b/7/1.html", "1", None),
            // A thread living below its board's path is named by its title.
            (
                "http://f/forum/3/",
                "http://f/forum/3/1234.html",
                "Winter tyres",
                None,
            ),
            // A pager word says nothing about which number is the page.
            ("http://f/b/7/", "http://f/b/7/2.html", "Next", None),
            // Two segments down, or another list, or two numbers: no later page of this list.
            ("http://f/b/7/", "http://f/b/7/t/2.html", "2", None),
            ("http://f/b/7/", "http://f/b/8/2.html", "2", None),
            ("http://f/b/7/", "http://f/b/7/2-5.html", "2", None),
            // A page whose path names a file has no pages below it.
            ("http://f/b/7.html", "http://f/b/7.html/2", "2", None),
            // The query must stay as it is.
            ("http://f/b/7/?x=1", "http://f/b/7/2.html", "2", None),
            // A worded view's later pages are copies.
            (
                "http://f/b/7/?sort=title",
                "http://f/b/7/2.html?sort=title",
                "2",
                None,
            ),
        ];
        for (page, link, text, expected) in cases {
            check_in_path(page, link, text, expected);
        }
    }

    #[test]
    fn later_pages_are_the_page_with_one_page_number_more() {
        let cases = [
            (
                "http://f/q/5/t/",
                "http://f/q/5/t/?sort=oldest&page=2",
                Some(2),
            ),
            ("http://f/q/5/t/", "http://f/q/5/t/?page=3", Some(3)),
            (
                "http://f/v.php?t=5",
                "http://f/v.php?t=5&start=15",
                Some(15),
            ),
            // The first page spelled with its number is no later page.
            (
                "http://f/q/5/t/",
                "http://f/q/5/t/?sort=oldest&page=1",
                None,
            ),
            // Another order's first page: no number.
            ("http://f/q/5/t/", "http://f/q/5/t/?sort=votes", None),
            // Another thread, another path.
            ("http://f/q/5/t/", "http://f/q/6/u/?page=2", None),
            // A pair of the page dropped: another list.
            ("http://f/v.php?t=5", "http://f/v.php?f=2&start=15", None),
            // A worded view's later pages are copies.
            (
                "http://f/b/2?order=title",
                "http://f/b/2?order=title&page=2",
                None,
            ),
            // A post's permalink: the fragment names the post the number names.
            ("http://f/t/first-1/", "http://f/t/first-1/?post=2#2", None),
            ("http://f/v.php?t=5", "http://f/v.php?t=5&p=3#p3", None),
            // A fragment naming something else leaves a page number a page number.
            ("http://f/q/5/t/", "http://f/q/5/t/?page=2#answers", Some(2)),
            ("http://f/q/5/t/", "http://f/q/5/t/?page=2#post-41", Some(2)),
            // Two numbers added: no single page number.
            (
                "http://f/v.php?t=5",
                "http://f/v.php?t=5&p=9&start=15",
                None,
            ),
        ];
        for (page, link, expected) in cases {
            check(page, link, expected);
        }
    }
}
