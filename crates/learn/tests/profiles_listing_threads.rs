//! Boards are crawled even when the profiles they link list a part of them.
//!
//! Some engines show, on a member's profile, the threads the member started, in rows that say
//! what the board's rows say (title, replies, last post). A member who starts threads in one
//! board then has a profile whose text is all on that board's page, and the board links the
//! profile from its author column: the copy test across layouts read the board as a spelling of
//! the profiles (which more kinds of page link to) and dropped it, so the crawl never reached the
//! boards. A page that shows only a part of the page linking to it is no spelling of it. The
//! fixture is written by hand, in the manner of many engines.

use trawl_learn::learn;
use trawl_learn::sitemap::Role;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Strategy, VertexVerdict};
use url::Url;

mod common;
use common::{ORIGIN, framed_page, post_text, summarise, title_words};

const BOARDS: usize = 4;
const MEMBERS: usize = 24;
const THREADS: usize = 48;
const POSTS_PER_THREAD: usize = 4;

fn board_of(thread: usize) -> usize {
    thread % BOARDS
}

/// The member who started `thread`: every member starts two threads, both in one board, so
/// the threads a profile lists are a sixth of the rows of that one board.
fn starter_of(thread: usize) -> usize {
    thread % BOARDS + BOARDS * ((thread / BOARDS) % (MEMBERS / BOARDS))
}

/// A made-up name, different for every member.
fn member_name(member: usize) -> String {
    let syllables = ["brea", "zoom", "cys", "lurt", "neast", "pes", "quil", "vos"];
    format!(
        "{}{}{}",
        syllables[member % syllables.len()],
        syllables[(member / syllables.len() + 3) % syllables.len()],
        10 + member
    )
}

fn board_name(board: usize) -> &'static str {
    [
        "General talk",
        "Repairs and tools",
        "Rides and routes",
        "Marketplace",
    ][board]
}

fn title(thread: usize) -> String {
    format!("{} ({})", title_words(thread, 6, (7, 11), 31), thread + 1)
}

fn written(thread: usize, post: usize) -> String {
    format!(
        "March {}, 2025, {}:{:02}",
        1 + (thread + post) % 27,
        9 + post,
        (thread * 5 + post) % 60
    )
}

fn page(title: &str, body: &str) -> String {
    framed_page("Loopback Riders", title, body)
}

/// What a thread's row says on a board and on its starter's profile alike.
fn row_text(thread: usize) -> String {
    format!(
        "<a class=\"topic-title\" href=\"/thread/{}/\">{}</a>\
         <span class=\"replies\">{} replies</span><span class=\"last\">{}</span>",
        thread + 1,
        title(thread),
        POSTS_PER_THREAD - 1,
        written(thread, POSTS_PER_THREAD - 1)
    )
}

fn portal_page() -> String {
    let boards: String = (0..BOARDS)
        .map(|board| {
            format!(
                "<tr class=\"forum\"><td><a href=\"/board/{}/\">{}</a></td><td>{} topics</td></tr>",
                board + 1,
                board_name(board),
                THREADS / BOARDS
            )
        })
        .collect();
    let members: String = (0..MEMBERS)
        .map(|member| {
            format!(
                "<li><a href=\"/member/{}/\">{}</a></li>",
                member + 1,
                member_name(member)
            )
        })
        .collect();
    page(
        "Loopback Riders",
        &format!(
            "<table class=\"forums\">{boards}</table>\
             <div class=\"online\"><h3>Members online</h3><ul>{members}</ul></div>"
        ),
    )
}

fn board_page(board: usize) -> String {
    let rows: String = (0..THREADS)
        .filter(|thread| board_of(*thread) == board)
        .map(|thread| {
            let starter = starter_of(thread);
            format!(
                "<tr class=\"topic\"><td>{}</td><td><a class=\"starter\" href=\"/member/{}/\">{}</a></td></tr>",
                row_text(thread),
                starter + 1,
                member_name(starter)
            )
        })
        .collect();
    page(
        board_name(board),
        &format!(
            "<h1>{}</h1><table class=\"topics\">{rows}</table>",
            board_name(board)
        ),
    )
}

fn member_page(member: usize) -> String {
    let started: String = (0..THREADS)
        .filter(|thread| starter_of(*thread) == member)
        .map(|thread| format!("<li class=\"started\">{}</li>", row_text(thread)))
        .collect();
    page(
        &member_name(member),
        &format!(
            "<div class=\"profile\"><h2>{}</h2></div>\
             <div class=\"started-topics\"><h3>Topics started</h3><ul>{started}</ul></div>",
            member_name(member)
        ),
    )
}

fn thread_page(thread: usize) -> String {
    let posts: String = (0..POSTS_PER_THREAD)
        .map(|post| {
            let author = if post == 0 {
                starter_of(thread)
            } else {
                (thread + post * 3) % MEMBERS
            };
            format!(
                "<div class=\"post\"><div class=\"post-head\">\
                 <a class=\"username\" href=\"/member/{}/\">{}</a> <span class=\"date\">{}</span></div>\
                 <div class=\"post-body\"><p>{}</p></div></div>",
                author + 1,
                member_name(author),
                written(thread, post),
                post_text(thread, post, 30)
            )
        })
        .collect();
    let board = board_of(thread);
    page(
        &title(thread),
        &format!(
            "<ol class=\"breadcrumb\"><li><a href=\"/\">Home</a></li>\
             <li><a href=\"/board/{}/\">{}</a></li></ol><h1>{}</h1><div class=\"posts\">{posts}</div>",
            board + 1,
            board_name(board),
            title(thread)
        ),
    )
}

fn summary(path: &str, depth: u32, html: &str) -> PageSummary {
    summarise(path, depth, html, "2025-04-01T12:00:00Z")
}

/// The whole forum, as a sample of it large enough would hold it.
fn sample() -> Vec<PageSummary> {
    let mut pages = vec![summary("/", 0, &portal_page())];
    for board in 0..BOARDS {
        pages.push(summary(
            &format!("/board/{}/", board + 1),
            1,
            &board_page(board),
        ));
    }
    for member in 0..MEMBERS {
        pages.push(summary(
            &format!("/member/{}/", member + 1),
            1,
            &member_page(member),
        ));
    }
    for thread in 0..THREADS {
        pages.push(summary(
            &format!("/thread/{}/", thread + 1),
            2,
            &thread_page(thread),
        ));
    }
    pages
}

/// Checks the verdict on the vertex holding the page at `path`, and that it has `role`.
fn check(path: &str, role: Role, expected: VertexVerdict) {
    let portal = Url::parse(&format!("{ORIGIN}/")).expect("a URL");
    let learned = learn(&portal, sample(), Strategy::Skeleton);
    let sitemap = &learned.sitemap;
    let page = sitemap
        .pages
        .iter()
        .position(|page| page.url.path() == path)
        .expect("the page was sampled");
    let vertex = sitemap.vertex_of_page[page];
    assert_eq!(sitemap.vertices[vertex].role, role, "role of {path}");
    assert_eq!(
        learned.traversal.verdicts[vertex], expected,
        "verdict of the vertex of {path}"
    );
}

#[test]
fn boards_stay_crawled_beside_profiles_listing_a_part_of_them() {
    check("/board/1/", Role::ThreadList, VertexVerdict::Kept);
    check("/board/3/", Role::ThreadList, VertexVerdict::Kept);
}

#[test]
fn threads_stay_crawled() {
    check("/thread/1/", Role::Thread, VertexVerdict::Kept);
}
