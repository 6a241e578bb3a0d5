//! Boards are crawled even when the portal lists every thread.
//!
//! Shaped after django-spirit, which the simulator has no family like: the portal lists the
//! latest topics of the whole forum with paging, so every thread a category lists is listed
//! there too, and the categories looked like views of the portal ("what's new", a search) and
//! were never crawled. What tells a board from a view is that each thread's breadcrumb names
//! the one board that holds it. The fixture is written by hand.

use trawl_learn::learn;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Strategy, VertexVerdict};
use url::Url;

mod common;
use common::{ORIGIN, framed_page, post_text, summarise, title_words};

const THREADS: usize = 24;
const CATEGORIES: usize = 3;
const TOPICS_PER_PAGE: usize = 6;
const TOPICS_PER_CATEGORY_PAGE: usize = 4;
const POSTS_PER_THREAD: usize = 4;

fn category_path(category: usize) -> String {
    let slugs = ["general-discussion", "help-and-support", "off-topic"];
    format!("/category/{}/{}/", category + 1, slugs[category])
}

fn category_name(category: usize) -> &'static str {
    ["General Discussion", "Help and Support", "Off Topic"][category]
}

fn category_of(thread: usize) -> usize {
    thread % CATEGORIES
}

fn thread_path(thread: usize) -> String {
    format!("/topic/{}/question-number-{}/", thread + 1, thread + 1)
}

fn title(thread: usize) -> String {
    format!("{}? ({})", title_words(thread, 5, (5, 7), 32), thread + 1)
}

fn member_name(member: usize) -> &'static str {
    ["Breallouck", "Zoomzail", "Cysbor", "Lurtaig", "Neastcoo"][member % 5]
}

fn written(thread: usize, post: usize) -> String {
    format!(
        "Dec {} '24, {}:{:02}",
        1 + (thread + post) % 27,
        10 + post,
        (thread * 3 + post) % 60
    )
}

fn page(title: &str, body: &str) -> String {
    framed_page("Loopback Community", title, body)
}

/// One row of a topic list, as the portal and the categories show it.
fn topic_row(thread: usize) -> String {
    format!(
        "<li class=\"row topic\"><a class=\"topic-title\" href=\"{}\">{}</a>\
         <a class=\"topic-category\" href=\"{}\">{}</a>\
         <span class=\"comments\">{}</span><span class=\"last\">{}</span></li>",
        thread_path(thread),
        title(thread),
        category_path(category_of(thread)),
        category_name(category_of(thread)),
        POSTS_PER_THREAD - 1,
        written(thread, POSTS_PER_THREAD - 1)
    )
}

fn pager(pages: usize, path: &str) -> String {
    let links: String = (1..=pages)
        .map(|number| format!("<a class=\"page\" href=\"{path}?page={number}\">{number}</a> "))
        .collect();
    format!("<div class=\"pagination\">{links}</div>")
}

/// Page `number` (from 1) of the portal's list of every topic.
fn portal_page(number: usize) -> String {
    let rows: String = (0..THREADS)
        .skip((number - 1) * TOPICS_PER_PAGE)
        .take(TOPICS_PER_PAGE)
        .map(topic_row)
        .collect();
    let pages = THREADS.div_ceil(TOPICS_PER_PAGE);
    page(
        "Latest topics",
        &format!(
            "<h1>Latest topics</h1><ul class=\"topics\">{rows}</ul>{}",
            pager(pages, "/")
        ),
    )
}

fn category_page(category: usize) -> String {
    let topics = THREADS / CATEGORIES;
    let rows: String = (0..THREADS)
        .filter(|thread| category_of(*thread) == category)
        .take(TOPICS_PER_CATEGORY_PAGE)
        .map(topic_row)
        .collect();
    page(
        category_name(category),
        &format!(
            "<h1>{}</h1><ul class=\"topics\">{rows}</ul>{}",
            category_name(category),
            pager(
                topics.div_ceil(TOPICS_PER_CATEGORY_PAGE),
                &category_path(category)
            )
        ),
    )
}

fn thread_page(thread: usize) -> String {
    let posts: String = (0..POSTS_PER_THREAD)
        .map(|post| {
            let member = thread + post;
            format!(
                "<div class=\"comment\"><div class=\"comment-head\">\
                 <a class=\"username\" href=\"/user/{}/\">{}</a> <span class=\"date\">{}</span></div>\
                 <div class=\"comment-body\"><p>{}</p></div></div>",
                member % 5 + 1,
                member_name(member),
                written(thread, post),
                post_text(thread, post, 30)
            )
        })
        .collect();
    let category = category_of(thread);
    page(
        &title(thread),
        &format!(
            "<ol class=\"breadcrumb\"><li><a href=\"/\">Home</a></li>\
             <li><a href=\"{}\">{}</a></li></ol><h1>{}</h1><div class=\"comments\">{posts}</div>",
            category_path(category),
            category_name(category),
            title(thread)
        ),
    )
}

fn summary(path: &str, depth: u32, html: &str) -> PageSummary {
    summarise(path, depth, html, "2025-01-10T12:00:00Z")
}

/// A sample as a sampler might draw it: the portal and its later pages, every thread, and of
/// the categories only those named in `sampled_categories`.
fn sample(sampled_categories: &[usize]) -> Vec<PageSummary> {
    let mut pages = vec![summary("/", 0, &portal_page(1))];
    for number in 2..=THREADS.div_ceil(TOPICS_PER_PAGE) {
        pages.push(summary(
            &format!("/?page={number}"),
            1,
            &portal_page(number),
        ));
    }
    for category in sampled_categories {
        pages.push(summary(
            &category_path(*category),
            1,
            &category_page(*category),
        ));
    }
    for thread in 0..THREADS {
        pages.push(summary(&thread_path(thread), 1, &thread_page(thread)));
    }
    pages
}

fn check(sampled_categories: &[usize], expected: VertexVerdict) {
    let portal = Url::parse(&format!("{ORIGIN}/")).expect("a URL");
    let learned = learn(&portal, sample(sampled_categories), Strategy::Skeleton);
    let sitemap = &learned.sitemap;
    let page = sitemap
        .pages
        .iter()
        .position(|page| page.url.path() == category_path(sampled_categories[0]))
        .expect("the category was sampled");
    let vertex = sitemap.vertex_of_page[page];
    assert_eq!(
        learned.traversal.verdicts[vertex], expected,
        "verdict of the category vertex with categories {sampled_categories:?} sampled"
    );
}

#[test]
fn categories_named_by_their_threads_are_crawled_beside_a_portal_listing_every_topic() {
    check(&[0, 1, 2], VertexVerdict::Kept);
}
