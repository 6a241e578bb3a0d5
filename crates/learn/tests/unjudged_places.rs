//! Places whose links the crawler would follow on trust are judged from the sample.
//!
//! On forums whose URLs hold slugs and no ids, a board's "Start a thread" button
//! (`/f/BOARD/new/`) matches the pattern of the board's threads (`/f/BOARD/{*}/`) and answers
//! with a redirect to the login page. A sample that fetched none of the buttons leaves their
//! place without a target, and the crawler follows such a place when most sampled links of the
//! pattern from the vertex were followed: every board's button was fetched. The sampler now
//! fetches a link of each such place, and the learner judges it like any other. The forum is
//! written by hand, in the manner of Django forum applications' slug hierarchies.
//!
//! The button's redirect must not stand for the layout of the board's threads: when the sample
//! held none of that board's threads, the redirect was the only sampled page of their pattern,
//! which then never folded with the other boards' thread patterns.

use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Decision, Strategy};
use trawl_learn::unjudged_places::{followed_on_trust, unjudged_place_checks};
use trawl_page::analysis::analyse;
use trawl_page::time::DateContext;
use url::Url;

mod common;
use common::{ORIGIN, framed_page, post_text, summarise, title_words};

const FETCHED_AT: &str = "2026-03-01T12:00:00Z";
const FORUM: &str = "Workshop Forum";
const BOARDS: [&str; 3] = ["frames", "wheels", "drivetrain"];
const THREADS_PER_BOARD: usize = 5;

fn slug(thread: usize) -> String {
    title_words(thread, 4, (3, 7), 32).replace(' ', "-")
}

fn board_page(board: usize) -> PageSummary {
    let name = BOARDS[board];
    let rows: String = (0..THREADS_PER_BOARD)
        .map(|index| {
            let thread = board * 10 + index;
            format!(
                "<tr><td><a href=\"/f/{name}/{}/\">{}</a></td><td>{}</td></tr>",
                slug(thread),
                title_words(thread, 4, (3, 7), 32),
                thread % 5
            )
        })
        .collect();
    let body = format!(
        "<h1>{name}</h1><div class=\"board-actions\">\
         <a href=\"/f/{name}/new/\" class=\"button\" rel=\"nofollow\">Start a thread</a></div>\
         <table class=\"threads\">{rows}</table>"
    );
    summarise(
        &format!("/f/{name}/"),
        1,
        &framed_page(FORUM, name, &body),
        FETCHED_AT,
    )
}

fn thread_page(board: usize, index: usize) -> PageSummary {
    let thread = board * 10 + index;
    let posts: String = (0..3)
        .map(|post| {
            format!(
                "<div class=\"post\"><span class=\"author\">fitter{post}</span> \
                 <span class=\"date\">2026-02-0{} 10:00</span><p>{}</p></div>",
                post + 1,
                post_text(thread, post, 25)
            )
        })
        .collect();
    summarise(
        &format!("/f/{}/{}/", BOARDS[board], slug(thread)),
        2,
        &framed_page(FORUM, &title_words(thread, 4, (3, 7), 32), &posts),
        FETCHED_AT,
    )
}

fn portal() -> PageSummary {
    let links: String = BOARDS
        .iter()
        .map(|name| format!("<li><a href=\"/f/{name}/\">{name}</a></li>"))
        .collect();
    summarise(
        "/",
        0,
        &framed_page(FORUM, FORUM, &format!("<ul class=\"boards\">{links}</ul>")),
        FETCHED_AT,
    )
}

/// A redirect to the login page, as the sampler records it.
fn login_redirect(path: &str) -> PageSummary {
    let url = Url::parse(&format!("{ORIGIN}{path}")).unwrap();
    let login = Url::parse(&format!("{ORIGIN}/accounts/login/?next={path}")).unwrap();
    let fetched_at: jiff::Timestamp = FETCHED_AT.parse().unwrap();
    let analysis = analyse(
        b"",
        Some("text/html"),
        &url,
        &DateContext::new(fetched_at, None),
    );
    PageSummary::from_analysis(&analysis, 2, 302, Some(login), 0)
}

fn sample() -> Vec<PageSummary> {
    let mut pages = vec![portal()];
    for board in 0..BOARDS.len() {
        pages.push(board_page(board));
        for index in 0..THREADS_PER_BOARD {
            pages.push(thread_page(board, index));
        }
    }
    pages
}

#[test]
fn a_button_spelled_like_a_thread_is_fetched_once_and_then_skipped() {
    let pages = sample();
    let checks: Vec<String> = unjudged_place_checks(&pages, 8, |_| true)
        .iter()
        .map(|url| url.path().to_string())
        .collect();
    // One button judges the place of every board's button.
    assert_eq!(checks, ["/f/frames/new/"]);
    // Nothing else in this forum is followed on trust, and nothing is fetched without budget.
    assert!(unjudged_place_checks(&pages, 0, |_| true).is_empty());

    let portal = Url::parse(&format!("{ORIGIN}/")).unwrap();
    let mut judged = pages.clone();
    judged.push(login_redirect("/f/frames/new/"));
    let plan = trawl_learn::learn(&portal, judged.clone(), Strategy::Skeleton).plan;
    assert_eq!(followed_on_trust(&plan), []);
    assert!(unjudged_place_checks(&judged, 8, |_| true).is_empty());
}

#[test]
fn without_the_check_the_buttons_place_is_followed_on_trust() {
    // The regression the check removes: the learned plan leaves the buttons' place without a
    // target while the board's thread links of the same pattern are followed.
    let portal = Url::parse(&format!("{ORIGIN}/")).unwrap();
    let plan = trawl_learn::learn(&portal, sample(), Strategy::Skeleton).plan;
    assert_eq!(followed_on_trust(&plan).len(), 1, "{:#?}", plan.arcs);
}

/// Learns from the portal, every board, the threads of `boards_with_threads` and the buttons of
/// `buttons_fetched` (their login redirects), and checks that the threads of every board share
/// one URL pattern and that the plan follows every board's thread links.
#[track_caller]
fn check_threads_of_every_board(boards_with_threads: &[usize], buttons_fetched: &[usize]) {
    let mut pages = vec![portal()];
    for board in 0..BOARDS.len() {
        pages.push(board_page(board));
    }
    for board in boards_with_threads {
        for index in 0..THREADS_PER_BOARD {
            pages.push(thread_page(*board, index));
        }
    }
    for board in buttons_fetched {
        pages.push(login_redirect(&format!("/f/{}/new/", BOARDS[*board])));
    }
    let portal = Url::parse(&format!("{ORIGIN}/")).unwrap();
    let learned = trawl_learn::learn(&portal, pages, Strategy::Skeleton);
    let sitemap = &learned.sitemap;
    let first_threads: Vec<String> = (0..BOARDS.len())
        .map(|board| format!("{ORIGIN}/f/{}/{}/", BOARDS[board], slug(board * 10)))
        .collect();
    let patterns: std::collections::BTreeSet<_> = first_threads
        .iter()
        .map(|url| sitemap.url_patterns.classify(&Url::parse(url).unwrap()))
        .collect();
    let followed = first_threads.iter().all(|url| {
        sitemap.arcs.iter().enumerate().any(|(index, arc)| {
            arc.target_urls.contains(url) && learned.traversal.decisions[index] != Decision::Skip
        })
    });
    assert!(
        patterns.len() == 1 && followed,
        "threads of boards {boards_with_threads:?} and buttons of {buttons_fetched:?} sampled: \
         patterns {patterns:?}, title links followed: {followed}"
    );
}

#[test]
fn a_board_whose_threads_were_not_sampled_keeps_their_pattern_beside_its_button() {
    // The button's login redirect was the only sampled page under the third board's thread
    // pattern; it used to give that pattern the redirects' layout, so it never folded with
    // the other boards' threads and the board's threads were never crawled.
    check_threads_of_every_board(&[0, 1], &[2]);
    check_threads_of_every_board(&[0, 1], &[0, 2]);
    check_threads_of_every_board(&[0, 1], &[]);
    check_threads_of_every_board(&[0, 1, 2], &[0]);
}
