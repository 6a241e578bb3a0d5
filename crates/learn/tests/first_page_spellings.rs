//! Lists whose pagers spell the first page with its number (`/b/7/1.html` beside `/b/7/`,
//! `/t/51-1.html` beside `/t/51.html`) are settled while sampling, however few of their later
//! pages the sample happened to fetch.
//!
//! The crawler trusts a spelling rule after two agreeing pairs. A sample of a hundred pages often
//! holds one list's second page of each kind, or none, so the sampler fetches the second pages of
//! two lists of each kind, including lists whose later pages are written into the file name, and
//! then settles the rules naming first pages before rules of views that every board links (sort
//! orders), which outnumber them. The fixture is written by hand, in the manner of table-layout
//! engines that write every page number into the path.

use std::collections::HashSet;
use trawl_learn::later_pages::{later_page_checks, later_page_in_name};
use trawl_learn::spellings::spelling_checks;
use trawl_learn::summary::PageSummary;

use url::Url;

mod common;
use common::{ORIGIN, post_text, summarise};

const FETCHED_AT: &str = "2026-03-01T12:00:00Z";

fn url(path: &str) -> Url {
    Url::parse(&format!("{ORIGIN}{path}")).expect("a URL")
}

/// A board's first page: thread rows, its sort orders, and a pager to page 2.
fn board_page(board: usize, threads: &[usize]) -> PageSummary {
    let rows: String = threads
        .iter()
        .map(|thread| {
            format!(
                "<tr><td><a href=\"/t/{thread}.html\">Topic number {thread} about tyres</a></td>\
                 <td>{}</td><td>3</td></tr>",
                thread % 7
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Board {board}</title></head><body><h1>Board {board}</h1>\
         <p><a href=\"/b/{board}/?sort=author\">Author</a> <a href=\"/b/{board}/?sort=title\">Title</a></p>\
         <table>{rows}</table>\
         <div class=\"pager\"><b>1</b> <a href=\"/b/{board}/2.html\">2</a> \
         <a href=\"/b/{board}/3.html\">3</a> <a href=\"/b/{board}/2.html\">Next</a></div>\
         </body></html>"
    );
    summarise(&format!("/b/{board}/"), 1, &html, FETCHED_AT)
}

/// A thread's first page: posts and a pager whose later pages add `-N` to the file name.
fn thread_page(thread: usize) -> PageSummary {
    let posts: String = (0..4)
        .map(|post| {
            format!(
                "<div class=\"post\"><span class=\"author\">member{post}</span> \
                 <span class=\"date\">2026-02-0{} 10:00</span><p>{}</p></div>",
                post + 1,
                post_text(thread, post, 30)
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Topic {thread}</title></head><body><h1>Topic {thread}</h1>{posts}\
         <div class=\"pager\"><b>1</b> <a href=\"/t/{thread}-2.html\">2</a> \
         <a href=\"/t/{thread}-2.html\">Next</a></div></body></html>"
    );
    summarise(&format!("/t/{thread}.html"), 2, &html, FETCHED_AT)
}

/// A thread's second page, whose pager links its first page by number.
fn later_thread_page(thread: usize) -> PageSummary {
    let html = format!(
        "<html><head><title>Topic {thread}</title></head><body><h1>Topic {thread}</h1>\
         <div class=\"post\"><p>{}</p></div>\
         <div class=\"pager\"><a href=\"/t/{thread}-1.html\">1</a> <b>2</b></div></body></html>",
        post_text(thread, 9, 30)
    );
    summarise(&format!("/t/{thread}-2.html"), 3, &html, FETCHED_AT)
}

#[track_caller]
fn check_later_pages(pages: &[PageSummary], budget: usize, expected: &[&str]) {
    let checks: Vec<String> = later_page_checks(pages, budget, |_| true)
        .iter()
        .map(|url| url.path().to_string())
        .collect();
    assert_eq!(checks, expected);
}

#[test]
fn later_pages_of_two_lists_of_each_kind_are_fetched() {
    let pages = [
        board_page(7, &[51, 52, 53]),
        board_page(8, &[61, 62]),
        thread_page(51),
        thread_page(61),
    ];
    // Every kind's first list before any kind's second; the thread pages' later pages are
    // written into the file name.
    check_later_pages(
        &pages,
        10,
        &["/b/7/2.html", "/t/51-2.html", "/b/8/2.html", "/t/61-2.html"],
    );
    // A small budget takes one list of each kind first.
    check_later_pages(&pages, 2, &["/b/7/2.html", "/t/51-2.html"]);
    // A kind the sample holds a page of needs one list more, taken after every kind's first.
    let mut with_one_sampled = pages.to_vec();
    with_one_sampled.push(later_thread_page(71));
    check_later_pages(
        &with_one_sampled,
        10,
        &["/b/7/2.html", "/b/8/2.html", "/t/51-2.html"],
    );
    // One list of a kind is all there is to fetch of it.
    check_later_pages(
        &[board_page(7, &[51]), thread_page(51)],
        10,
        &["/b/7/2.html", "/t/51-2.html"],
    );
}

/// Regression: a list whose later page the sample already holds was chosen again for the
/// second round of its kind, so the sampler fetched a page it had (phpBB's
/// `viewforum.php?f=2&start=25`, asked twice by a 60-page sample). The second list of the kind
/// is another list, and a sampled page is never a check.
#[test]
fn a_later_page_the_sample_holds_is_not_fetched_again() {
    let sampled_later_page = summarise(
        "/b/7/2.html",
        2,
        "<html><head><title>Board 7</title></head><body><h1>Board 7</h1>\
         <table><tr><td><a href=\"/t/54.html\">Topic number 54 about tyres</a></td></tr></table>\
         <div class=\"pager\"><a href=\"/b/7/\">1</a> <b>2</b></div></body></html>",
        FETCHED_AT,
    );
    let pages = [
        board_page(7, &[51, 52, 53]),
        sampled_later_page,
        board_page(8, &[61, 62]),
    ];
    check_later_pages(&pages, 10, &["/b/8/2.html"]);
}

#[track_caller]
fn check_in_name(page: &str, link: &str, text: &str, linked: &[&str], expected: Option<u64>) {
    let linked: Vec<String> = linked.iter().map(|path| url(path).to_string()).collect();
    let linked: HashSet<&str> = linked.iter().map(String::as_str).collect();
    let found = later_page_in_name(&url(page), &url(link), text, &linked);
    assert_eq!(
        found.as_ref().map(|(number, _)| *number),
        expected,
        "{page} -> {link} ({text})"
    );
    // The list is the page the number is added to.
    if let Some((_, list)) = found {
        assert_eq!(
            Url::parse(&list).expect("a URL").path(),
            url(link)
                .path()
                .replacen(&format!("-{}", expected.unwrap_or(0)), "", 1)
                .replacen(&format!("_{}", expected.unwrap_or(0)), "", 1)
        );
    }
}

#[test]
fn later_pages_in_the_file_name_are_numbered_links() {
    check_in_name("/t/51.html", "/t/51-2.html", "2", &[], Some(2));
    check_in_name("/t/5a3f.html", "/t/5a3f-3.html", " 3 ", &[], Some(3));
    check_in_name("/thread-9.html", "/thread-9_4.html", "4", &[], Some(4));
    // A board's thread entry links the thread's later pages beside its title.
    check_in_name("/b/7/", "/t/51-2.html", "2", &["/t/51.html"], Some(2));
    // ... but a number-named link to a page the board does not link is nothing known.
    check_in_name("/b/7/", "/t/51-2.html", "2", &["/t/52.html"], None);
    // The first page spelled with its number is no later page.
    check_in_name("/t/51.html", "/t/51-1.html", "1", &[], None);
    // A pager word says nothing about which number is the page.
    check_in_name("/t/51.html", "/t/51-2.html", "Next", &[], None);
    // Another thread's page, or another thread whose name happens to extend this one's.
    check_in_name("/t/51.html", "/t/52-2.html", "2", &[], None);
    check_in_name(
        "/forum-3.html",
        "/forum-3-12.html",
        "Winter tyres",
        &[],
        None,
    );
    // The query must stay as it is, and a worded view's later pages are copies.
    check_in_name("/t/51.html?x=1", "/t/51-2.html", "2", &[], None);
    check_in_name(
        "/t/51.html?sort=old",
        "/t/51-2.html?sort=old",
        "2",
        &[],
        None,
    );
}

#[test]
fn rules_naming_first_pages_are_settled_before_views() {
    let sampled: Vec<Url> = ["/b/7/", "/b/8/", "/b/9/", "/b/7/2.html", "/b/8/2.html"]
        .into_iter()
        .map(url)
        .collect();
    // Three boards link their sort order; two later pages link their board's first page by
    // number (and page 3, the sequence the number 1 begins).
    let linked: Vec<Url> = [
        "/b/7/?sort=author",
        "/b/8/?sort=author",
        "/b/9/?sort=author",
        "/b/7/1.html",
        "/b/7/3.html",
        "/b/8/1.html",
        "/b/8/3.html",
    ]
    .into_iter()
    .map(url)
    .collect();
    let checks: Vec<String> = spelling_checks(&sampled, &linked, 2)
        .iter()
        .map(|url| url.path().to_string())
        .collect();
    assert_eq!(checks, ["/b/7/1.html", "/b/8/1.html"]);
    // With budget for both, the view's pairs come after.
    let checks: Vec<String> = spelling_checks(&sampled, &linked, 4)
        .iter()
        .map(|url| url.as_str().trim_start_matches(ORIGIN).to_string())
        .collect();
    assert_eq!(
        checks,
        [
            "/b/7/1.html",
            "/b/8/1.html",
            "/b/7/?sort=author",
            "/b/8/?sort=author"
        ]
    );
}
