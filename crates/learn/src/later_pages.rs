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
//! twentieth of the sample.
//!
//! [`SampleOptions::later_page_checks`]: crate::sample::SampleOptions::later_page_checks

use std::collections::{BTreeMap, HashSet};

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
/// and none of them has, the one naming the lowest page, first met first, at most `budget`.
pub fn later_page_checks(
    pages: &[PageSummary],
    budget: usize,
    is_same_site: impl Fn(&Url) -> bool,
) -> Vec<Url> {
    let sampled_shapes: HashSet<String> = pages.iter().map(|page| url_shape(&page.url)).collect();
    // Per shape: the lowest page number linked with its URL, the order it was first met in, and
    // the sampled pages linking it.
    let mut wanted: BTreeMap<String, Wanted> = BTreeMap::new();
    for (index, page) in pages.iter().enumerate() {
        for link in &page.links {
            if !is_same_site(&link.url) {
                continue;
            }
            let Some(number) = later_page_number(&page.url, &link.url)
                .or_else(|| later_page_in_path(&page.url, &link.url, &link.text))
            else {
                continue;
            };
            let shape = url_shape(&link.url);
            if sampled_shapes.contains(&shape) {
                continue;
            }
            let met = wanted.len();
            let entry = wanted.entry(shape).or_insert_with(|| Wanted {
                number,
                url: link.url.clone(),
                met,
                linking: HashSet::new(),
            });
            entry.linking.insert(index);
            if number < entry.number {
                entry.number = number;
                entry.url = link.url.clone();
            }
        }
    }
    // The kinds most sampled pages link first (a kind of list the site has many of, such as
    // threads, before one sort order of one board's list), then the order they were met in,
    // so the checks repeat exactly.
    let mut checks: Vec<Wanted> = wanted.into_values().collect();
    checks.sort_by_key(|wanted| (std::cmp::Reverse(wanted.linking.len()), wanted.met));
    checks
        .into_iter()
        .take(budget)
        .map(|wanted| {
            let mut url = wanted.url;
            url.set_fragment(None);
            url
        })
        .collect()
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
    /// The lowest page number linked.
    number: u64,
    /// The link naming it.
    url: Url,
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
