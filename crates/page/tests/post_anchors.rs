//! Posts repeated from one page to the next: some engines show the last post of a thread's
//! page again at the top of the next page, as context. Page analysis reads one page at a time
//! and cannot tell such a repeat from a post, but it gives every post an anchor, the name the
//! page gives the post's element, the same on both pages, so that a crawl keeps one of the two.
//! Each layout below is my own markup in a common way of naming posts: a post number in a
//! `data-` attribute, an element id, an empty named anchor before the post, and none at all
//! but a permalink.

use jiff::Timestamp;
use trawl_page::analysis::analyse_text;
use trawl_page::time::DateContext;
use url::Url;

/// Messages of one thread, long enough to be posts, each written by its own member.
const MESSAGES: [(&str, &str); 6] = [
    (
        "anna",
        "The pump in the garden stops after ten minutes of running.",
    ),
    (
        "ben",
        "Check the float switch, it sticks when the water is low.",
    ),
    (
        "chris",
        "Mine did the same until I cleaned the intake filter.",
    ),
    (
        "dora",
        "The filter was clogged with sand, cleaning it helped a lot.",
    ),
    (
        "emil",
        "Put a sock over the intake, it keeps most of the sand out.",
    ),
    (
        "fritz",
        "A finer mesh filter from the hardware store works as well.",
    ),
];

/// One way of printing post `number` (1-based) of the thread.
type Layout = fn(usize) -> String;

fn numbered_in_data_attribute(number: usize) -> String {
    let (name, message) = MESSAGES[number - 1];
    format!(
        "<li class=\"post\" data-index=\"{index}\" data-pid=\"{pid}\"><div class=\"post-header\">\
         <a href=\"/user/{name}\">{name}</a> <span class=\"ago\" title=\"2024-05-0{day}T10:{minute:02}:00Z\"></span></div>\
         <div class=\"content\"><p>{message}</p></div></li>",
        index = number - 1,
        pid = 500 + number * 3,
        day = 1 + number / 4,
        minute = number * 7,
    )
}

fn element_id(number: usize) -> String {
    let (name, message) = MESSAGES[number - 1];
    format!(
        "<div class=\"post\" id=\"p{id}\"><dl class=\"profile\"><dt><a href=\"/member.php?u={number}\">{name}</a></dt></dl>\
         <div class=\"postbody\"><p class=\"when\">2024-05-0{day} 10:{minute:02}</p><div class=\"text\">{message}</div></div></div>",
        id = 9000 + number,
        day = 1 + number / 4,
        minute = number * 7,
    )
}

fn anchor_before_the_post(number: usize) -> String {
    let (name, message) = MESSAGES[number - 1];
    format!(
        "<a name=\"msg{id}\"></a><table class=\"post\" width=\"100%\"><tr><td class=\"poster\"><a href=\"/profile/{name}\">{name}</a></td>\
         <td class=\"date\">05/0{day}/2024 10:{minute:02}</td></tr><tr><td colspan=\"2\">{message}</td></tr></table>",
        id = 700 + number,
        day = 1 + number / 4,
        minute = number * 7,
    )
}

fn permalink_only(number: usize) -> String {
    let (name, message) = MESSAGES[number - 1];
    format!(
        "<div class=\"entry\"><span class=\"by\"><a href=\"/people/{name}\">{name}</a></span> \
         <a class=\"when\" href=\"/thread/31/post/{id}\">2024-05-0{day} 10:{minute:02}</a>\
         <div class=\"body\">{message}</div></div>",
        id = 40 + number,
        day = 1 + number / 4,
        minute = number * 7,
    )
}

/// The anchors of the posts of a thread page holding posts `numbers`.
fn anchors(layout: Layout, page: usize, numbers: &[usize]) -> Vec<Option<String>> {
    let posts: String = numbers.iter().map(|&number| layout(number)).collect();
    let html = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Pump stops - Garden Forum</title></head>\
         <body><div id=\"nav\"><a href=\"/\">Forum</a> <a href=\"/search\">Search</a></div><h1>Pump stops</h1>\
         <div id=\"posts\">{posts}</div><div class=\"pager\"><a href=\"/thread/31?page=1\">1</a> <a href=\"/thread/31?page=2\">2</a></div>\
         <div id=\"footer\"><a href=\"/rules\">Rules</a></div></body></html>"
    );
    let url = Url::parse(&format!("https://garden.example/thread/31?page={page}")).expect("a URL");
    let fetched_at: Timestamp = "2024-06-01T12:00:00Z".parse().expect("an instant");
    let analysis = analyse_text(&html, "UTF-8", &url, &DateContext::new(fetched_at, Some(0)));
    assert_eq!(
        analysis.posts.len(),
        numbers.len(),
        "posts of page {page}:\n{html}"
    );
    analysis
        .posts
        .iter()
        .map(|post| post.anchor.clone())
        .collect()
}

/// Page 1 shows posts 1 to 4, page 2 shows post 4 again and then 5 and 6: post 4 has one
/// anchor on both pages, and every post on a page has an anchor of its own.
#[track_caller]
fn check(layout: Layout, expected_repeat: &str) {
    let first = anchors(layout, 1, &[1, 2, 3, 4]);
    let second = anchors(layout, 2, &[4, 5, 6]);
    assert_eq!(first[3].as_deref(), Some(expected_repeat));
    assert_eq!(second[0], first[3], "the repeated post");
    let mut all: Vec<&String> = first.iter().chain(&second[1..]).flatten().collect();
    assert_eq!(
        all.len(),
        6,
        "every post has an anchor: {first:?} {second:?}"
    );
    all.sort_unstable();
    all.dedup();
    assert_eq!(
        all.len(),
        6,
        "anchors are the posts' own: {first:?} {second:?}"
    );
}

#[test]
fn a_post_repeated_on_the_next_page_keeps_its_anchor() {
    let cases: [(Layout, &str); 4] = [
        (numbered_in_data_attribute, "data-pid=512"),
        (element_id, "id=p9004"),
        (anchor_before_the_post, "name=msg704"),
        (permalink_only, "https://garden.example/thread/31/post/44"),
    ];
    for (layout, expected_repeat) in cases {
        check(layout, expected_repeat);
    }
}
