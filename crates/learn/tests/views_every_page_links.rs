//! A view every page links is no copy of each board that links it.
//!
//! Written by hand after the shape of a young classic board engine: the navigation bar of
//! every page links one "new posts" list, and with a handful of threads per board that list
//! shows every row of every board. The copy test across layouts saw each board's rows again on
//! the list its "new posts" link leads to, kept the list (linked from every kind of page) and
//! dropped the boards as its copies (the simulator's vBulletin seed 3 with 45 samples: no
//! board crawled, 6.9 % coverage, or a calendar kept in their place and followed month after
//! month). One page cannot be the copy of two boards that differ.

use trawl_learn::learn;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Strategy, VertexVerdict};
use url::Url;

mod common;
use common::{ORIGIN, post_text, summarise, title_words, written_in_2025};

const BOARDS: usize = 2;
const THREADS_PER_BOARD: usize = 4;
const POSTS_PER_THREAD: usize = 3;
const NEW_POSTS_PATH: &str = "/search.php?do=getnew";

fn board_path(board: usize) -> String {
    format!("/forumdisplay.php?f={}", board + 1)
}

fn thread_path(thread: usize) -> String {
    format!("/showthread.php?t={}", thread + 1)
}

fn board_name(board: usize) -> &'static str {
    ["Darkroom", "Lenses", "Marketplace"][board]
}

fn title(thread: usize) -> String {
    format!("{} ({})", title_words(thread, 5, (5, 3), 32), thread + 1)
}

fn member_name(member: usize) -> &'static str {
    ["Aurelio", "Brigid", "Casimir", "Dagny", "Evander"][member % 5]
}

fn written(thread: usize, post: usize) -> String {
    written_in_2025(6, 8, 13, thread, post)
}

/// The engine's frame, with a navigation bar naming the one "new posts" list.
fn page(title: &str, body: &str) -> String {
    format!(
        "<html><head><title>{title}</title></head><body>\
         <nav class=\"menu\"><a href=\"/\">Silver Halide</a> \
         <a href=\"{NEW_POSTS_PATH}\">New Posts</a></nav>\
         <div class=\"container\">{body}</div>\
         <footer>Powered by a forum engine</footer></body></html>"
    )
}

fn threads_of(board: usize) -> std::ops::Range<usize> {
    board * THREADS_PER_BOARD..(board + 1) * THREADS_PER_BOARD
}

fn thread_row(thread: usize) -> String {
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
    page("Silver Halide", &format!("<table>{rows}</table>"))
}

fn board_page(board: usize) -> String {
    let rows: String = threads_of(board).map(thread_row).collect();
    page(
        board_name(board),
        &format!(
            "<h1>{}</h1><table class=\"threads\">{rows}</table>",
            board_name(board)
        ),
    )
}

/// Every thread of the forum, board by board: a young forum's "new posts" list shows them all,
/// its rows as the boards show them, below a search form the boards do not have.
fn new_posts_page() -> String {
    let rows: String = (0..BOARDS * THREADS_PER_BOARD).map(thread_row).collect();
    page(
        "New Posts",
        &format!(
            "<div class=\"search\"><form action=\"/search.php\"><label>Keywords</label>\
             <input name=\"q\"><select name=\"within\"><option>titles</option>\
             <option>posts</option></select><button>Search</button></form>\
             <ul class=\"tips\"><li>Showing threads with new posts</li>\
             <li>since your last visit</li></ul></div>{}\
             <table class=\"threads\">{rows}</table>",
            "<div class=\"filters\"><span><b>Sort</b></span><span><i>Order</i></span>\
             <span><em>Period</em></span></div>"
                .repeat(12)
        ),
    )
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
    let board = thread / THREADS_PER_BOARD;
    page(
        &title(thread),
        &format!(
            "<div class=\"crumbs\"><a href=\"{}\">{}</a></div><h1>{}</h1>{posts}",
            board_path(board),
            board_name(board),
            title(thread)
        ),
    )
}

fn summary(path: &str, depth: u32, html: &str) -> PageSummary {
    summarise(path, depth, html, "2025-07-01T12:00:00Z")
}

/// The portal, the "new posts" list, the given boards and the given threads.
fn sample(boards: &[usize], threads: &[usize]) -> Vec<PageSummary> {
    let mut pages = vec![
        summary("/", 0, &portal_page()),
        summary(NEW_POSTS_PATH, 1, &new_posts_page()),
    ];
    for board in boards {
        pages.push(summary(&board_path(*board), 1, &board_page(*board)));
    }
    for thread in threads {
        pages.push(summary(&thread_path(*thread), 2, &thread_page(*thread)));
    }
    pages
}

/// Learns from the sample and checks the boards' verdict and that the threads are crawled.
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
    for board in boards {
        assert_eq!(
            verdicts[vertex_of(&board_path(*board))],
            expected_board,
            "boards {boards:?} and threads {threads:?} sampled: the verdict of board {board}"
        );
    }
    assert_eq!(
        verdicts[vertex_of(&thread_path(threads[0]))],
        VertexVerdict::Kept,
        "the threads are crawled"
    );
}

#[test]
fn boards_are_no_copies_of_the_new_posts_list_every_page_links() {
    check(&[0, 1], &[0, 1, 4, 5, 6], VertexVerdict::Kept);
    check(&[0, 1], &[1, 2, 3, 5, 7], VertexVerdict::Kept);
}
