//! Lists whose first page is reachable both without and with an explicit first-page argument
//! of a kind one query pair cannot express: a start offset written at the end of a query value
//! (YaBB-like `?board=NAME/0` beside `?board=NAME`, later pages `?board=NAME/20`), or a page
//! number written with the default view it belongs to (a question-and-answer site's
//! `/q/tagged/TAG/?sort=active&page=1` beside `/q/tagged/TAG/`). A sampled pair showing the same
//! page is listed in the plan as one (`Plan::spelling_pairs`), so the crawler folds the
//! spellings from its first page; a pair showing different pages (page 1 of a sort order that is
//! not the list's default) is listed as different, which keeps the rule out of force (the
//! crawler's side: `online_rewrites` tests). The forum is written by hand.

use trawl_learn::spellings::SpellingPair;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::Strategy;
use url::Url;

mod common;
use common::{ORIGIN, framed_page, post_text, summarise, title_words};

const FETCHED_AT: &str = "2026-03-01T12:00:00Z";
const FORUM: &str = "Riders' Forum";
const BOARDS: [&str; 3] = ["touring", "repairs", "commuting"];

/// Thread rows for the threads `threads` of the forum, each linking its thread.
fn thread_rows(threads: impl Iterator<Item = usize>) -> String {
    threads
        .map(|thread| {
            format!(
                "<tr><td><a href=\"/YaBB.pl?num={}\">{}</a></td><td>{}</td></tr>",
                1_700_000_000 + thread,
                title_words(thread, 5, (3, 5), 32),
                thread % 9
            )
        })
        .collect()
}

/// Board `board`'s page `page` (from 0) spelled `path`: its threads and a pager whose links
/// spell the first page with its offset, as the pager of every page does.
fn board_page(board: usize, page: usize, path: &str) -> PageSummary {
    let name = BOARDS[board];
    let first_thread = board * 100 + page * 20;
    let pager: String = (0..3)
        .map(|number| {
            if number == page {
                format!("<b>{}</b> ", number + 1)
            } else {
                format!(
                    "<a href=\"/YaBB.pl?board={name}/{}\">{}</a> ",
                    number * 20,
                    number + 1
                )
            }
        })
        .collect();
    let body = format!(
        "<h1>Board {name}</h1><table class=\"threads\">{}</table>\
         <div class=\"pager\">{pager}</div>",
        thread_rows(first_thread..first_thread + 8)
    );
    summarise(
        path,
        1,
        &framed_page(FORUM, &format!("Board {name}"), &body),
        FETCHED_AT,
    )
}

/// The list of questions at `list` (`/q/` for all, `/q/tagged/TAG/` for a tag, numbered
/// `number`) in the sort order `sort`, page `page` (from 1), spelled `path`. Each order of each
/// list shows questions of its own.
fn question_list(list: &str, number: usize, sort: &str, page: usize, path: &str) -> PageSummary {
    let first = 500 + number * 200 + if sort == "active" { 0 } else { 100 } + (page - 1) * 20;
    let rows: String = (first..first + 8)
        .map(|question| {
            format!(
                "<tr><td><a href=\"/q/{question}/\">{}</a></td><td>{}</td></tr>",
                title_words(question, 6, (5, 3), 32),
                question % 7
            )
        })
        .collect();
    let pager: String = (1..=3)
        .map(|number| format!("<a href=\"{list}?sort={sort}&page={number}\">{number}</a> "))
        .collect();
    let body = format!(
        "<h1>Questions {list}</h1><p><a href=\"{list}?sort=newest&page=1\">Newest</a> \
         <a href=\"{list}?sort=active&page=1\">Active</a></p>\
         <table class=\"questions\">{rows}</table><div class=\"pager\">{pager}</div>"
    );
    summarise(
        path,
        1,
        &framed_page(FORUM, &format!("Questions {list}"), &body),
        FETCHED_AT,
    )
}

fn thread_page(thread: usize) -> PageSummary {
    let posts: String = (0..3)
        .map(|post| {
            format!(
                "<div class=\"post\"><span class=\"author\">rider{post}</span> \
                 <span class=\"date\">2026-02-0{} 10:00</span><p>{}</p></div>",
                post + 1,
                post_text(thread, post, 25)
            )
        })
        .collect();
    summarise(
        &format!("/YaBB.pl?num={}", 1_700_000_000 + thread),
        2,
        &framed_page(FORUM, &title_words(thread, 5, (3, 5), 32), &posts),
        FETCHED_AT,
    )
}

fn portal() -> PageSummary {
    let links: String = BOARDS
        .iter()
        .map(|name| format!("<li><a href=\"/YaBB.pl?board={name}\">{name}</a></li>"))
        .collect();
    summarise(
        "/",
        0,
        &framed_page(
            FORUM,
            FORUM,
            &format!(
                "<ul class=\"boards\">{links}</ul><a href=\"/q/\">Questions</a> \
                 <a href=\"/q/tagged/brakes/\">brakes</a> <a href=\"/q/tagged/wheels/\">wheels</a> \
                 <a href=\"/q/tagged/lights/\">lights</a>"
            ),
        ),
        FETCHED_AT,
    )
}

/// The sample: the portal, every board under both spellings of its first page and its second
/// page, the lists of questions (three tags' and the list of all) under both spellings and
/// their second pages, and a few threads.
fn sample() -> Vec<PageSummary> {
    let mut pages = vec![portal()];
    for (board, name) in BOARDS.iter().enumerate() {
        pages.push(board_page(board, 0, &format!("/YaBB.pl?board={name}")));
        pages.push(board_page(board, 0, &format!("/YaBB.pl?board={name}/0")));
        pages.push(board_page(board, 1, &format!("/YaBB.pl?board={name}/20")));
    }
    // Tags list their questions most active first by default ...
    for (number, tag) in ["brakes", "wheels", "lights"].iter().enumerate() {
        let list = format!("/q/tagged/{tag}/");
        pages.push(question_list(&list, number, "active", 1, &list));
        let first = format!("{list}?sort=active&page=1");
        pages.push(question_list(&list, number, "active", 1, &first));
        let second = format!("{list}?sort=active&page=2");
        pages.push(question_list(&list, number, "active", 2, &second));
    }
    // ... while the list of all questions shows the newest first: its page 1 of the active
    // order is another page.
    pages.push(question_list("/q/", 3, "newest", 1, "/q/"));
    pages.push(question_list(
        "/q/",
        3,
        "active",
        1,
        "/q/?sort=active&page=1",
    ));
    pages.push(question_list(
        "/q/",
        3,
        "active",
        2,
        "/q/?sort=active&page=2",
    ));
    pages.extend([3, 104, 207].map(thread_page));
    pages
}

fn pair(url: &str, same_as: &str, same: bool) -> SpellingPair {
    let absolute = |path: &str| Url::parse(&format!("{ORIGIN}{path}")).unwrap().to_string();
    SpellingPair {
        url: absolute(url),
        same_as: absolute(same_as),
        same,
    }
}

#[test]
fn first_pages_with_default_arguments_are_paired_by_their_content() {
    let portal = Url::parse(&format!("{ORIGIN}/")).unwrap();
    let plan = trawl_learn::learn(&portal, sample(), Strategy::Skeleton).plan;
    let expected = [
        pair("/YaBB.pl?board=touring/0", "/YaBB.pl?board=touring", true),
        pair("/YaBB.pl?board=repairs/0", "/YaBB.pl?board=repairs", true),
        pair(
            "/YaBB.pl?board=commuting/0",
            "/YaBB.pl?board=commuting",
            true,
        ),
        pair(
            "/q/tagged/brakes/?sort=active&page=1",
            "/q/tagged/brakes/",
            true,
        ),
        pair(
            "/q/tagged/wheels/?sort=active&page=1",
            "/q/tagged/wheels/",
            true,
        ),
        pair(
            "/q/tagged/lights/?sort=active&page=1",
            "/q/tagged/lights/",
            true,
        ),
        // Page 1 of another sort order than the list's own shows other questions: the pair is
        // listed as different, and the crawler never puts the rule in force.
        pair("/q/?sort=active&page=1", "/q/", false),
    ];
    for wanted in &expected {
        assert!(
            plan.spelling_pairs.contains(wanted),
            "{wanted:?} missing from {:#?}",
            plan.spelling_pairs
        );
    }
    // A later page is never a first page's spelling.
    assert!(
        !plan
            .spelling_pairs
            .iter()
            .any(|pair| pair.url.ends_with("/20") || pair.url.ends_with("page=2")),
        "{:#?}",
        plan.spelling_pairs
    );
}
