//! A board's pager is a pager even when its pages share no distinctive text.
//!
//! Pages of one list are told from pages of two lists by a distinctive text block they share (a
//! thread's title, a board's name). A board whose name is short, or named on so many sampled
//! pages that it distinguishes nothing, shows no such block on its first and second pages,
//! whose thread rows differ; and where a later page links back to the first under another URL
//! pattern (`/forums/tyres.1/` beside `/forums/tyres.1/page-2`), the pager's own links join the
//! sampled pages one way only, so connectivity says nothing either. What the URLs say holds
//! anyway: a first page linking `page-2` under the number 2 names its own second page. The
//! fixture is written by hand, in the manner of engines that write page numbers into the path.

use trawl_learn::sitemap::Sitemap;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Strategy, choose_traversal};

mod common;
use common::{framed_page, post_text, summarise, title_words};

const FETCHED_AT: &str = "2026-03-01T12:00:00Z";
const FORUM: &str = "Cycling forum";

/// Short board names, as many forums have: too short to be distinctive text.
const BOARDS: [&str; 3] = ["Tyres", "Racing", "Lights"];

fn board_path(board: usize) -> String {
    format!("/forums/{}.{}/", BOARDS[board].to_lowercase(), board + 1)
}

fn board_page_path(board: usize, page: usize) -> String {
    match page {
        1 => board_path(board),
        _ => format!("{}page-{page}", board_path(board)),
    }
}

fn thread_path(thread: usize) -> String {
    format!("/threads/topic.{thread}/")
}

/// The portal listing the boards.
fn portal() -> PageSummary {
    let rows: String = (0..BOARDS.len())
        .map(|board| {
            format!(
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td></tr>",
                board_path(board),
                BOARDS[board],
                board * 10 + 30
            )
        })
        .collect();
    let html = framed_page(FORUM, FORUM, &format!("<table>{rows}</table>"));
    summarise("/", 0, &html, FETCHED_AT)
}

/// Page `page` of three of `board`: its thread rows and a numbered pager whose first page is
/// the board's own URL.
fn board_page(board: usize, page: usize) -> PageSummary {
    let rows: String = (0..5)
        .map(|row| {
            let thread = 100 * board + 10 * page + row;
            format!(
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td></tr>",
                thread_path(thread),
                title_words(thread, 5, (3, 7), 32),
                thread % 9
            )
        })
        .collect();
    let pager: String = (1..=3)
        .map(|number| {
            if number == page {
                format!("<b>{number}</b> ")
            } else {
                format!(
                    "<a href=\"{}\">{number}</a> ",
                    board_page_path(board, number)
                )
            }
        })
        .collect();
    let next = if page < 3 {
        format!("<a href=\"{}\">Next</a>", board_page_path(board, page + 1))
    } else {
        String::new()
    };
    let body = format!(
        "<h1>{}</h1><table>{rows}</table><div class=\"pager\">{pager}{next}</div>",
        BOARDS[board]
    );
    let html = framed_page(FORUM, BOARDS[board], &body);
    summarise(&board_page_path(board, page), 1, &html, FETCHED_AT)
}

/// A thread's one page.
fn thread_page(thread: usize) -> PageSummary {
    let title = title_words(thread, 5, (3, 7), 32);
    let posts: String = (0..3)
        .map(|post| {
            format!(
                "<div class=\"post\"><span class=\"author\">member{post}</span><p>{}</p></div>",
                post_text(thread, post, 30)
            )
        })
        .collect();
    let html = framed_page(FORUM, &title, &format!("<h1>{title}</h1>{posts}"));
    summarise(&thread_path(thread), 2, &html, FETCHED_AT)
}

#[test]
fn numbered_links_to_a_first_pages_later_page_flip_pages() {
    let mut pages = vec![portal()];
    for board in 0..BOARDS.len() {
        pages.push(board_page(board, 1));
        pages.push(board_page(board, 2));
        pages.push(thread_page(100 * board + 10));
    }
    let sitemap = Sitemap::build(pages);
    let traversal = choose_traversal(&sitemap, Strategy::Skeleton);
    let first_pages = sitemap.vertex_of_page[1];
    let pager_arcs: Vec<usize> = sitemap
        .arcs
        .iter()
        .enumerate()
        .filter(|(_, arc)| {
            arc.key.source == first_pages
                && sitemap
                    .url_patterns
                    .get(arc.key.url_pattern)
                    .is_some_and(|pattern| pattern.text().ends_with("page-{n}"))
        })
        .map(|(index, _)| index)
        .collect();
    // The numbered links and "Next" sit in one place.
    assert_eq!(pager_arcs.len(), 1, "the pager's kinds of link");
    for arc in pager_arcs {
        assert_eq!(sitemap.arcs[arc].same_list_share, 1.0, "arc {arc}");
        assert!(traversal.flipping[arc], "arc {arc} flips pages");
    }
}
