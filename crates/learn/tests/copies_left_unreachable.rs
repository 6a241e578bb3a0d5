//! Of a board and its archive view, the one the plan can reach is kept.
//!
//! Written by hand after the shape of a classic board engine with a low-fidelity archive: each
//! board links its archive listing (the board's thread titles alone), as do the board's
//! threads and the archive's own index, while nothing the portal leads to links the archive
//! but the boards. The copy test across layouts keeps the one of the two that more kinds of
//! page link, the archive here; the boards were dropped as its copies, the archive could only
//! be reached through them, and the plan reached no thread (the simulator's vBulletin seed 3
//! with 45 samples: 6.9 % coverage).

use trawl_learn::learn;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Strategy, VertexVerdict};
use url::Url;

mod common;
use common::{ORIGIN, framed_page, post_text, summarise, title_words, written_in_2025};

const BOARDS: usize = 3;
const THREADS_PER_BOARD: usize = 6;
const POSTS_PER_THREAD: usize = 3;

fn board_path(board: usize) -> String {
    format!("/board.php?f={}", board + 1)
}

fn archive_path(board: usize) -> String {
    format!("/archive/f-{}.html", board + 1)
}

fn thread_path(thread: usize) -> String {
    format!("/topic.php?t={}", thread + 1)
}

fn board_of(thread: usize) -> usize {
    thread / THREADS_PER_BOARD
}

fn board_name(board: usize) -> &'static str {
    ["Workshop", "Touring", "Classifieds"][board]
}

fn title(thread: usize) -> String {
    format!("{} ({})", title_words(thread, 5, (7, 3), 32), thread + 1)
}

fn member_name(member: usize) -> &'static str {
    ["Halvard", "Ingrid", "Jory", "Kasimir", "Liesel"][member % 5]
}

fn written(thread: usize, post: usize) -> String {
    written_in_2025(4, 8, 11, thread, post)
}

fn page(title: &str, body: &str) -> String {
    framed_page("Spoke and Chain", title, body)
}

fn threads_of(board: usize) -> std::ops::Range<usize> {
    board * THREADS_PER_BOARD..(board + 1) * THREADS_PER_BOARD
}

fn portal_page() -> String {
    let rows: String = (0..BOARDS)
        .map(|board| {
            format!(
                "<tr class=\"board\"><td><a href=\"{}\">{}</a></td><td>{} threads</td></tr>",
                board_path(board),
                board_name(board),
                THREADS_PER_BOARD
            )
        })
        .collect();
    page("Spoke and Chain", &format!("<table>{rows}</table>"))
}

fn board_page(board: usize) -> String {
    let rows: String = threads_of(board)
        .map(|thread| {
            format!(
                "<tr class=\"thread\"><td><a href=\"{}\">{}</a></td>\
                 <td><a href=\"/member.php?u={}\">{}</a></td><td>{}</td><td>{}</td></tr>",
                thread_path(thread),
                title(thread),
                thread % 5 + 1,
                member_name(thread),
                POSTS_PER_THREAD - 1,
                written(thread, POSTS_PER_THREAD - 1)
            )
        })
        .collect();
    page(
        board_name(board),
        &format!(
            "<h1>{}</h1><table class=\"threads\">{rows}</table>\
             <p class=\"foot\"><a href=\"{}\">Archive</a></p>",
            board_name(board),
            archive_path(board)
        ),
    )
}

fn archive_page(board: usize) -> String {
    let rows: String = threads_of(board)
        .map(|thread| {
            format!(
                "<li><a href=\"{}\">{}</a> <span>{} replies</span> <span>{}</span></li>",
                thread_path(thread),
                title(thread),
                POSTS_PER_THREAD - 1,
                written(thread, POSTS_PER_THREAD - 1)
            )
        })
        .collect();
    page(
        &format!("{} (archive)", board_name(board)),
        &format!(
            "<p><a href=\"/archive/\">Archive index</a></p><h2>{}</h2><ol>{rows}</ol>",
            board_name(board)
        ),
    )
}

fn archive_index_page() -> String {
    let rows: String = (0..BOARDS)
        .map(|board| {
            format!(
                "<li><a href=\"{}\">{}</a></li>",
                archive_path(board),
                board_name(board)
            )
        })
        .collect();
    page("Archive", &format!("<ul class=\"archive\">{rows}</ul>"))
}

fn thread_page(thread: usize) -> String {
    let posts: String = (0..POSTS_PER_THREAD)
        .map(|post| {
            format!(
                "<div class=\"post\"><div class=\"head\">\
                 <a class=\"author\" href=\"/member.php?u={}\">{}</a> <span class=\"date\">{}</span></div>\
                 <div class=\"body\"><p>{}</p></div></div>",
                (thread + post) % 5 + 1,
                member_name(thread + post),
                written(thread, post),
                post_text(thread, post, 30)
            )
        })
        .collect();
    let board = board_of(thread);
    page(
        &title(thread),
        &format!(
            "<div class=\"crumbs\"><a href=\"{}\">{}</a></div><h1>{}</h1>{posts}\
             <p class=\"foot\"><a href=\"{}\">Archive</a></p>",
            board_path(board),
            board_name(board),
            title(thread),
            archive_path(board)
        ),
    )
}

fn summary(path: &str, depth: u32, html: &str) -> PageSummary {
    summarise(path, depth, html, "2025-05-01T12:00:00Z")
}

/// The portal, the given boards with their archive views, the archive's index and the given
/// threads.
fn sample(boards: &[usize], threads: &[usize]) -> Vec<PageSummary> {
    let mut pages = vec![summary("/", 0, &portal_page())];
    for board in boards {
        pages.push(summary(&board_path(*board), 1, &board_page(*board)));
    }
    for board in boards {
        pages.push(summary(&archive_path(*board), 2, &archive_page(*board)));
    }
    pages.push(summary("/archive/", 3, &archive_index_page()));
    for thread in threads {
        pages.push(summary(&thread_path(*thread), 2, &thread_page(*thread)));
    }
    pages
}

/// Learns from the sample and checks that the boards are crawled and the threads reached.
#[track_caller]
fn check(boards: &[usize], threads: &[usize], expected_board: VertexVerdict) {
    let portal = Url::parse(&format!("{ORIGIN}/")).expect("a URL");
    let learned = learn(&portal, sample(boards, threads), Strategy::Skeleton);
    let sitemap = &learned.sitemap;
    let vertex_of = |path: &str| {
        let page = sitemap
            .pages
            .iter()
            .position(|page| page.url.as_str() == format!("{ORIGIN}{path}"))
            .expect("the page was sampled");
        sitemap.vertex_of_page[page]
    };
    let verdicts = &learned.traversal.verdicts;
    assert_eq!(
        verdicts[vertex_of(&board_path(boards[0]))],
        expected_board,
        "boards {boards:?} and threads {threads:?} sampled: the boards' verdict"
    );
    assert_eq!(
        verdicts[vertex_of(&thread_path(threads[0]))],
        VertexVerdict::Kept,
        "the threads are crawled"
    );
}

#[test]
fn boards_are_kept_when_their_archive_views_could_not_be_reached() {
    check(&[0, 1], &[0, 3, 7, 8], VertexVerdict::Kept);
    check(&[0, 1, 2], &[1, 7, 13], VertexVerdict::Kept);
}
