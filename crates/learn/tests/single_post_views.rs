//! Pages showing one post alone are not crawled as threads.
//!
//! Written by hand after the shape of a classic board engine: every post on a thread page
//! carries its number, linking the post's own page (`/showpost.php?p=N`, the post alone in a
//! layout of its own), and boards link the last post of each thread the same way. A small
//! sample holds a few such pages and seldom the thread page showing the same post, so the copy
//! test across layouts has no pair to judge; the single-post pages stood for their layout, were
//! a goal of the plan, and the crawl fetched the last post of every thread a second time (the
//! simulator's vBulletin seeds 1 and 2 with 46 to 66 samples: 35 to 42 % duplicate fetches).

use trawl_learn::learn;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Strategy, VertexVerdict};
use url::Url;

mod common;
use common::{ORIGIN, framed_page, post_text, summarise, title_words, written_in_2025};

const BOARDS: usize = 2;
const THREADS_PER_BOARD: usize = 6;
const POSTS_PER_THREAD: usize = 4;

fn board_path(board: usize) -> String {
    format!("/forumdisplay.php?f={}", board + 1)
}

fn thread_path(thread: usize) -> String {
    format!("/showthread.php?t={}", thread + 1)
}

/// Posts are numbered across the forum, thread by thread.
fn post_id(thread: usize, post: usize) -> usize {
    1000 + thread * POSTS_PER_THREAD + post
}

fn post_path(thread: usize, post: usize) -> String {
    format!("/showpost.php?p={}", post_id(thread, post))
}

fn title(thread: usize) -> String {
    format!("{} ({})", title_words(thread, 5, (5, 3), 32), thread + 1)
}

fn member_name(member: usize) -> &'static str {
    ["Ansgar", "Brisa", "Caelum", "Dagny", "Eirik"][member % 5]
}

fn written(thread: usize, post: usize) -> String {
    written_in_2025(2, 9, 7, thread, post)
}

fn page(title: &str, body: &str) -> String {
    framed_page("Quayside Boards", title, body)
}

/// A post as thread pages and single-post pages both show it.
fn post(thread: usize, post: usize) -> String {
    format!(
        "<div class=\"post\" id=\"post{id}\"><div class=\"head\">\
         <a class=\"number\" href=\"/showpost.php?p={id}\">#{number}</a> \
         <a class=\"author\" href=\"/member.php?u={member}\">{name}</a> \
         <span class=\"date\">{date}</span></div>\
         <div class=\"body\"><p>{text}</p></div></div>",
        id = post_id(thread, post),
        number = post + 1,
        member = (thread + post) % 5 + 1,
        name = member_name(thread + post),
        date = written(thread, post),
        text = post_text(thread, post, 30)
    )
}

fn portal_page() -> String {
    let boards: String = (0..BOARDS)
        .map(|board| {
            format!(
                "<tr class=\"board\"><td><a href=\"{}\">Board {}</a></td><td>{} threads</td></tr>",
                board_path(board),
                ["north", "south"][board],
                THREADS_PER_BOARD
            )
        })
        .collect();
    page("Quayside Boards", &format!("<table>{boards}</table>"))
}

fn board_page(board: usize) -> String {
    let rows: String = (board * THREADS_PER_BOARD..(board + 1) * THREADS_PER_BOARD)
        .map(|thread| {
            format!(
                "<tr class=\"thread\"><td><a href=\"{}\">{}</a></td>\
                 <td><a href=\"/member.php?u={}\">{}</a></td><td>{}</td>\
                 <td>{} <a href=\"{}\">&rarr;</a></td></tr>",
                thread_path(thread),
                title(thread),
                thread % 5 + 1,
                member_name(thread),
                POSTS_PER_THREAD - 1,
                written(thread, POSTS_PER_THREAD - 1),
                post_path(thread, POSTS_PER_THREAD - 1)
            )
        })
        .collect();
    let name = ["north", "south"][board];
    page(
        &format!("Board {name}"),
        &format!("<h1>Board {name}</h1><table class=\"threads\">{rows}</table>"),
    )
}

fn thread_page(thread: usize) -> String {
    let posts: String = (0..POSTS_PER_THREAD)
        .map(|number| post(thread, number))
        .collect();
    page(
        &title(thread),
        &format!(
            "<div class=\"crumbs\"><a href=\"{}\">Board</a></div><h1>{}</h1>{posts}",
            board_path(thread / THREADS_PER_BOARD),
            title(thread)
        ),
    )
}

fn single_post_page(thread: usize, number: usize) -> String {
    page(
        &format!("View Single Post - {}", title(thread)),
        &format!(
            "<table class=\"single\"><tr><td class=\"caption\">View Single Post: \
             <a href=\"{}#post{}\">{}</a></td></tr><tr><td>{}</td></tr></table>",
            thread_path(thread),
            post_id(thread, number),
            title(thread),
            post(thread, number)
        ),
    )
}

fn summary(path: &str, depth: u32, html: &str) -> PageSummary {
    summarise(path, depth, html, "2025-03-01T12:00:00Z")
}

/// The portal, both boards, the given threads, and the given posts shown alone as (thread,
/// post number).
fn sample(threads: &[usize], single_posts: &[(usize, usize)]) -> Vec<PageSummary> {
    let mut pages = vec![summary("/", 0, &portal_page())];
    for board in 0..BOARDS {
        pages.push(summary(&board_path(board), 1, &board_page(board)));
    }
    for thread in threads {
        pages.push(summary(&thread_path(*thread), 2, &thread_page(*thread)));
    }
    for (thread, number) in single_posts {
        pages.push(summary(
            &post_path(*thread, *number),
            2,
            &single_post_page(*thread, *number),
        ));
    }
    pages
}

/// Learns from the sample and checks the verdicts of the single-post vertex and the threads'.
#[track_caller]
fn check(threads: &[usize], single_posts: &[(usize, usize)], expected: VertexVerdict) {
    let portal = Url::parse(&format!("{ORIGIN}/")).expect("a URL");
    let learned = learn(&portal, sample(threads, single_posts), Strategy::Skeleton);
    let sitemap = &learned.sitemap;
    let vertex_of = |path: &str| {
        let page = sitemap
            .pages
            .iter()
            .position(|page| page.url.as_str() == format!("{ORIGIN}{path}"))
            .expect("the page was sampled");
        sitemap.vertex_of_page[page]
    };
    let (thread, number) = single_posts[0];
    let single = vertex_of(&post_path(thread, number));
    let threads_vertex = vertex_of(&thread_path(threads[0]));
    assert_ne!(single, threads_vertex, "single posts are laid out apart");
    assert_eq!(
        learned.traversal.verdicts[single], expected,
        "single-post vertex with threads {threads:?} and posts {single_posts:?} sampled"
    );
    assert_eq!(
        learned.traversal.verdicts[threads_vertex],
        VertexVerdict::Kept,
        "the threads are crawled"
    );
}

#[test]
fn posts_shown_alone_are_copies_of_the_threads_that_name_them_as_permalinks() {
    let last = POSTS_PER_THREAD - 1;
    // The boards' last-post column led the sampler to the single posts; none of the sampled
    // threads is the thread of a sampled single post.
    check(
        &[0, 7, 9],
        &[(2, last), (4, last), (8, last)],
        VertexVerdict::Copy,
    );
    check(&[1, 8], &[(3, last), (10, last)], VertexVerdict::Copy);
    // Posts met through the threads' own post numbers.
    check(&[0, 1, 7], &[(0, 1), (1, 2), (7, 0)], VertexVerdict::Copy);
}
