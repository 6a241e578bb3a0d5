//! The later pages of a board are crawled as its first pages are, whatever role their own
//! sampled pages gave them, and however few boards' later pages the sample held.
//!
//! Written by hand after the shape of a classic board engine: boards list their topics a page
//! at a time, each row a title, its starter and a reply count, later pages spelled with a
//! query (`/board.php?b=N&page=P`) or, as static archives do, with a number added to the first
//! page's file name under a level of board names (`/boards/NAME/topics2.html`).
//!
//! A board's last page can hold a single row, which repeats nothing, so the page analysis
//! reads no entries there; when that page was one of the two sampled later pages, the vertex of
//! later pages was no thread list, the plan judged that its title links led nowhere, skipped
//! the boards' pager too, and the topics listed past each board's first page were never crawled
//! (the simulator's mail archive seed 3 from 60 samples: 77 % coverage). In that sample only one
//! list's later pages were sampled, and under names their pattern kept that list's name too, so
//! the other lists' later pages were never crawled either.

use trawl_learn::learn;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Decision, Strategy};
use url::Url;

mod common;
use common::{ORIGIN, framed_page, post_text, summarise, title_words};

const BOARDS: usize = 4;
const TOPICS_PER_PAGE: usize = 8;
/// Topics per board: two full pages and a last page of one row.
const TOPICS_PER_BOARD: usize = 2 * TOPICS_PER_PAGE + 1;
const POSTS_PER_TOPIC: usize = 3;
const BOARD_NAMES: [&str; BOARDS] = ["Workshop", "Touring", "Racing", "Commuting"];

fn pages_of_board() -> usize {
    TOPICS_PER_BOARD.div_ceil(TOPICS_PER_PAGE)
}

/// How a board's pages are spelled.
#[derive(Debug, Clone, Copy)]
enum Spelling {
    /// `/board.php?b=N`, later pages `&page=P`.
    Query,
    /// `/boards/NAME/topics.html`, later pages `topicsP.html`.
    FileName,
}

fn board_path(spelling: Spelling, board: usize, page: usize) -> String {
    let name = BOARD_NAMES[board].to_lowercase();
    match (spelling, page) {
        (Spelling::Query, 1) => format!("/board.php?b={}", board + 1),
        (Spelling::Query, _) => format!("/board.php?b={}&page={page}", board + 1),
        (Spelling::FileName, 1) => format!("/boards/{name}/topics.html"),
        (Spelling::FileName, _) => format!("/boards/{name}/topics{page}.html"),
    }
}

fn topic_path(topic: usize) -> String {
    format!("/topic.php?t={}", topic + 1)
}

/// The number of the `index`-th topic of `board`, newest first.
fn topic_of(board: usize, index: usize) -> usize {
    board * TOPICS_PER_BOARD + index
}

fn title(topic: usize) -> String {
    title_words(topic, 5, (3, 7), 32)
}

fn member_name(member: usize) -> &'static str {
    ["Orvald", "Kestrin", "Mabelle", "Tuomas", "Ysolde"][member % 5]
}

fn written(topic: usize, post: usize) -> String {
    format!(
        "2025-02-{:02} {}:{:02}",
        1 + (topic + post) % 27,
        10 + post,
        (topic * 7 + post) % 60
    )
}

/// The menu of boards every page shows beside its content.
fn board_menu(spelling: Spelling) -> String {
    let items: String = BOARD_NAMES
        .iter()
        .enumerate()
        .map(|(board, name)| {
            format!(
                "<li class=\"board\"><a href=\"{}\">{name}</a></li>",
                board_path(spelling, board, 1)
            )
        })
        .collect();
    format!("<ul class=\"boards-menu\">{items}</ul>")
}

fn pager(spelling: Spelling, board: usize, page: usize) -> String {
    let mut links = String::new();
    if page > 1 {
        links.push_str(&format!(
            "<a class=\"prev\" href=\"{}\">Previous</a> ",
            board_path(spelling, board, page - 1)
        ));
    }
    for other in 1..=pages_of_board() {
        if other == page {
            links.push_str(&format!("<strong>{other}</strong> "));
        } else {
            links.push_str(&format!(
                "<a href=\"{}\">{other}</a> ",
                board_path(spelling, board, other)
            ));
        }
    }
    if page < pages_of_board() {
        links.push_str(&format!(
            "<a class=\"next\" href=\"{}\">Next</a>",
            board_path(spelling, board, page + 1)
        ));
    }
    format!("<div class=\"pagination\">{links}</div>")
}

fn board_page(spelling: Spelling, board: usize, page: usize) -> String {
    let first = (page - 1) * TOPICS_PER_PAGE;
    let last = (first + TOPICS_PER_PAGE).min(TOPICS_PER_BOARD);
    let rows: String = (first..last)
        .map(|index| {
            let topic = topic_of(board, index);
            format!(
                "<tr class=\"topic\"><td class=\"title\"><a href=\"{}\">{}</a></td>\
                 <td class=\"starter\"><a href=\"/member.php?u={}\">{}</a></td>\
                 <td class=\"replies\">{}</td><td class=\"last\">{}</td></tr>",
                topic_path(topic),
                title(topic),
                topic % 5 + 1,
                member_name(topic),
                POSTS_PER_TOPIC - 1,
                written(topic, POSTS_PER_TOPIC - 1)
            )
        })
        .collect();
    let name = BOARD_NAMES[board];
    framed_page(
        "Chainring Forums",
        &format!("{name} - page {page}"),
        &format!(
            "{}<h1>{name}</h1>{}<table class=\"topics\">{rows}</table>{}",
            board_menu(spelling),
            pager(spelling, board, page),
            pager(spelling, board, page)
        ),
    )
}

fn topic_page(spelling: Spelling, topic: usize) -> String {
    let board = topic / TOPICS_PER_BOARD;
    let posts: String = (0..POSTS_PER_TOPIC)
        .map(|post| {
            format!(
                "<div class=\"post\"><div class=\"head\">\
                 <a class=\"author\" href=\"/member.php?u={}\">{}</a> \
                 <span class=\"date\">{}</span></div>\
                 <div class=\"body\"><p>{}</p></div></div>",
                (topic + post) % 5 + 1,
                member_name(topic + post),
                written(topic, post),
                post_text(topic, post, 30)
            )
        })
        .collect();
    framed_page(
        "Chainring Forums",
        &title(topic),
        &format!(
            "<div class=\"crumbs\"><a href=\"{}\">{}</a></div><h1>{}</h1>{posts}",
            board_path(spelling, board, 1),
            BOARD_NAMES[board],
            title(topic)
        ),
    )
}

fn portal_page(spelling: Spelling) -> String {
    framed_page(
        "Chainring Forums",
        "Chainring Forums",
        &format!("<h1>Boards</h1>{}", board_menu(spelling)),
    )
}

fn summary(path: &str, depth: u32, html: &str) -> PageSummary {
    summarise(path, depth, html, "2025-03-01T12:00:00Z")
}

/// The portal, every board's first page, the given later board pages (board, page) and the
/// first topics of every board's first page.
fn sample(spelling: Spelling, later_pages: &[(usize, usize)]) -> Vec<PageSummary> {
    let mut pages = vec![summary("/", 0, &portal_page(spelling))];
    for board in 0..BOARDS {
        pages.push(summary(
            &board_path(spelling, board, 1),
            1,
            &board_page(spelling, board, 1),
        ));
    }
    for (board, page) in later_pages {
        pages.push(summary(
            &board_path(spelling, *board, *page),
            2,
            &board_page(spelling, *board, *page),
        ));
    }
    for board in 0..BOARDS {
        for index in 0..3 {
            let topic = topic_of(board, index);
            pages.push(summary(&topic_path(topic), 2, &topic_page(spelling, topic)));
        }
    }
    pages
}

/// Learns from a sample holding `later_pages` and checks that the plan follows the links to
/// every board's later pages and the title links of the sampled later pages full of rows.
#[track_caller]
fn check(spelling: Spelling, later_pages: &[(usize, usize)]) {
    let portal = Url::parse(&format!("{ORIGIN}/")).expect("a URL");
    let learned = learn(&portal, sample(spelling, later_pages), Strategy::Skeleton);
    let sitemap = &learned.sitemap;
    let follows = |path: &str| {
        let url = format!("{ORIGIN}{path}");
        sitemap.arcs.iter().enumerate().any(|(index, arc)| {
            arc.target_urls.contains(&url) && learned.traversal.decisions[index] != Decision::Skip
        })
    };
    let unfollowed_pages: Vec<String> = (0..BOARDS)
        .flat_map(|board| (2..=pages_of_board()).map(move |page| (board, page)))
        .map(|(board, page)| board_path(spelling, board, page))
        .filter(|path| !follows(path))
        .collect();
    // Topics listed on a sampled later page only, of the pages full of rows: the one row of a
    // last page is a link in a place of its own, which the crawler weighs on trust.
    let unfollowed_topics: Vec<String> = later_pages
        .iter()
        .filter(|(_, page)| *page < pages_of_board())
        .map(|(board, page)| topic_path(topic_of(*board, (page - 1) * TOPICS_PER_PAGE)))
        .filter(|path| !follows(path))
        .collect();
    assert!(
        unfollowed_pages.is_empty() && unfollowed_topics.is_empty(),
        "{spelling:?} spelling, later pages {later_pages:?} sampled: links to later pages \
         skipped {unfollowed_pages:?}, links to their topics skipped {unfollowed_topics:?}"
    );
}

#[test]
fn later_pages_are_crawled_when_one_sampled_later_page_is_a_last_page_of_one_row() {
    check(Spelling::Query, &[(0, 2), (1, 3)]);
    check(Spelling::Query, &[(0, 3), (2, 3)]);
    check(Spelling::FileName, &[(0, 2), (1, 3)]);
}

#[test]
fn later_pages_are_crawled_when_every_sampled_later_page_is_full() {
    check(Spelling::Query, &[(0, 2), (1, 2)]);
    check(Spelling::Query, &[(0, 2), (1, 2), (2, 3)]);
    check(Spelling::FileName, &[(0, 2), (1, 2)]);
}

#[test]
fn later_pages_named_in_the_file_name_are_crawled_when_one_boards_were_sampled() {
    check(Spelling::FileName, &[(0, 2), (0, 3)]);
    check(Spelling::FileName, &[(2, 2)]);
    check(Spelling::FileName, &[(1, 3), (1, 2)]);
}
