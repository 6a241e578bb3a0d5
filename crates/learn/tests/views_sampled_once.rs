//! A copy view of which the sample holds one page is still judged a copy.
//!
//! Written by hand after engines that offer a plain view of every thread (a printable or
//! mobile page, a "raw" page) in a layout of its own, its URL carrying the thread's number. The
//! copy test across layouts needed two sampled pages of the view with their threads; a sample
//! of 40 to 60 pages often holds one, and the view was kept beside the threads and crawled in
//! full (the simulator's SMF seed 3 at 44 samples: 42 % duplicate fetches).

use trawl_learn::learn;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Strategy, VertexVerdict};
use url::Url;

mod common;
use common::{ORIGIN, framed_page, post_text, summarise, title_words, written_in_2025};

const THREADS: usize = 8;
const POSTS_PER_THREAD: usize = 3;

fn thread_path(thread: usize) -> String {
    format!("/thread/{}", thread + 1)
}

fn plain_path(thread: usize) -> String {
    format!("/plain/{}", thread + 1)
}

fn title(thread: usize) -> String {
    format!("{} ({})", title_words(thread, 5, (3, 5), 32), thread + 1)
}

fn member_name(member: usize) -> &'static str {
    ["Maren", "Nils", "Oda", "Per", "Ragna"][member % 5]
}

fn written(thread: usize, post: usize) -> String {
    written_in_2025(6, 10, 13, thread, post)
}

fn page(title: &str, body: &str) -> String {
    framed_page("Ferry Talk", title, body)
}

fn board_page() -> String {
    let rows: String = (0..THREADS)
        .map(|thread| {
            format!(
                "<tr class=\"thread\"><td><a href=\"{}\">{}</a></td>\
                 <td><a href=\"/member/{}\">{}</a></td><td>{}</td><td>{}</td></tr>",
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
        "Ferry Talk",
        &format!("<h1>All topics</h1><table class=\"threads\">{rows}</table>"),
    )
}

fn thread_page(thread: usize) -> String {
    let posts: String = (0..POSTS_PER_THREAD)
        .map(|post| {
            format!(
                "<div class=\"post\"><div class=\"head\">\
                 <a class=\"author\" href=\"/member/{}\">{}</a> <span class=\"date\">{}</span></div>\
                 <div class=\"body\"><p>{}</p></div></div>",
                (thread + post) % 5 + 1,
                member_name(thread + post),
                written(thread, post),
                post_text(thread, post, 30)
            )
        })
        .collect();
    page(
        &title(thread),
        &format!(
            "<div class=\"crumbs\"><a href=\"/\">All topics</a></div><h1>{}</h1>{posts}\
             <p class=\"tools\"><a href=\"{}\">Plain view</a></p>",
            title(thread),
            plain_path(thread)
        ),
    )
}

/// The thread again as plain paragraphs, each post's author and time on a line of its own.
fn plain_page(thread: usize) -> String {
    let posts: String = (0..POSTS_PER_THREAD)
        .map(|post| {
            format!(
                "<p><b>{}</b> {}</p><blockquote>{}</blockquote><hr>",
                member_name(thread + post),
                written(thread, post),
                post_text(thread, post, 30)
            )
        })
        .collect();
    format!(
        "<html><head><title>{}</title></head><body><h2>{}</h2>{posts}\
         <a href=\"{}\">Full version</a></body></html>",
        title(thread),
        title(thread),
        thread_path(thread)
    )
}

fn summary(path: &str, depth: u32, html: &str) -> PageSummary {
    summarise(path, depth, html, "2025-07-01T12:00:00Z")
}

/// The board (the portal), the given threads and the plain views of the given threads.
fn sample(threads: &[usize], plain: &[usize]) -> Vec<PageSummary> {
    let mut pages = vec![summary("/", 0, &board_page())];
    for thread in threads {
        pages.push(summary(&thread_path(*thread), 1, &thread_page(*thread)));
    }
    for thread in plain {
        pages.push(summary(&plain_path(*thread), 2, &plain_page(*thread)));
    }
    pages
}

#[track_caller]
fn check(threads: &[usize], plain: &[usize], expected: VertexVerdict) {
    let portal = Url::parse(&format!("{ORIGIN}/")).expect("a URL");
    let learned = learn(&portal, sample(threads, plain), Strategy::Skeleton);
    let sitemap = &learned.sitemap;
    let vertex_of = |path: &str| {
        let page = sitemap
            .pages
            .iter()
            .position(|page| page.url.as_str() == format!("{ORIGIN}{path}"))
            .expect("the page was sampled");
        sitemap.vertex_of_page[page]
    };
    let plain_vertex = vertex_of(&plain_path(plain[0]));
    let thread_vertex = vertex_of(&thread_path(threads[0]));
    assert_ne!(
        plain_vertex, thread_vertex,
        "the plain view is laid out apart"
    );
    assert_eq!(
        learned.traversal.verdicts[plain_vertex], expected,
        "threads {threads:?} and plain views {plain:?} sampled: the plain view's verdict"
    );
    assert_eq!(
        learned.traversal.verdicts[thread_vertex],
        VertexVerdict::Kept,
        "the threads are crawled"
    );
}

#[test]
fn a_view_sampled_once_with_its_thread_is_a_copy() {
    check(&[0, 2, 5, 6], &[5], VertexVerdict::Copy);
    check(&[1, 3, 4, 7], &[3], VertexVerdict::Copy);
}

#[test]
fn views_sampled_twice_with_their_threads_are_copies_as_before() {
    check(&[0, 2, 5, 6], &[5, 2], VertexVerdict::Copy);
}
