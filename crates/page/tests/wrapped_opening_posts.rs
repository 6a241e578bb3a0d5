//! Thread pages whose opening post is rendered apart above the list of replies (a question box,
//! a "discussion" block), in themes that wrap the reply list, its box and its heading in extra
//! elements. The pages are of our own making, in the shape of engines that show the opener
//! apart (Vanilla, Invision, Q&A sites); the wrappers are what a theme layered on them adds, and
//! what the `wrappers` perturbation of `trawl bench extract` adds to the development pages.
//!
//! The opening post is read whatever number of single-child wrappers stands between it and the
//! replies: such a wrapper separates nothing.

mod common;

use common::{PostRead as Read, assert_posts, posts_read};

fn read(html: &str) -> Vec<Read> {
    posts_read(
        html,
        "https://talk.example/discussion/88/slow-boot",
        "2024-06-01T12:00:00Z",
    )
}

#[track_caller]
fn check(html: &str, expected: &[(&str, &str, &str)]) {
    assert_posts(read(html), expected, html);
}

/// `inner` inside `depth` nested `<div>`s of class `class-N`.
fn wrapped(depth: usize, class: &str, inner: String) -> String {
    (0..depth).fold(inner, |inner, level| {
        format!("<div class=\"{class}-{level}\">{inner}</div>")
    })
}

/// The posts of the thread: author, minute, text; the first is the opening post.
const THREAD: [(&str, &str, &str); 5] = [
    (
        "noor",
        "2024-05-20T07:45",
        "My desktop takes four minutes to boot since the last update. What can I check?",
    ),
    (
        "henrik",
        "2024-05-20T08:10",
        "Look at the startup programs first, one of them may hang.",
    ),
    (
        "noor",
        "2024-05-20T09:30",
        "I disabled all of them and it still takes as long as before.",
    ),
    (
        "paola",
        "2024-05-20T11:05",
        "Then run a disk check, a failing drive slows the boot like that.",
    ),
    (
        "noor",
        "2024-05-21T06:20",
        "The disk check found bad sectors, a new drive fixed it. Thank you!",
    ),
];

/// One post's header (profile link and time) and message, each part in `part_wrappers`
/// wrappers.
fn post_parts(author: &str, minute: &str, text: &str, part_wrappers: usize) -> String {
    let (date, clock) = minute.split_once('T').expect("a minute");
    format!(
        "{}{}",
        wrapped(
            part_wrappers,
            "head",
            format!(
                "<div class=\"header\"><a class=\"who\" href=\"/profile/{author}\">{author}</a> \
                 <a class=\"link\" href=\"/discussion/88/slow-boot#{author}{clock}\">\
                 <time datetime=\"{date}T{clock}:00+00:00\">{date}</time></a></div>"
            )
        ),
        wrapped(
            part_wrappers,
            "body",
            format!("<div class=\"message\">{text}</div>")
        ),
    )
}

/// The thread page: the opening post in a block of its own, then a box with a heading and the
/// list of replies, with `list_wrappers` wrappers around the list, `box_wrappers` around the
/// box and its heading, and `part_wrappers` around each part of every post.
fn thread_page(list_wrappers: usize, box_wrappers: usize, part_wrappers: usize) -> String {
    let (author, minute, text) = THREAD[0];
    let opening = format!(
        "<div class=\"opener\" id=\"discussion-88\">{}</div>",
        post_parts(author, minute, text, part_wrappers)
    );
    let replies: String = THREAD[1..]
        .iter()
        .enumerate()
        .map(|(index, (author, minute, text))| {
            format!(
                "<li class=\"reply\" id=\"comment-{}\">{}</li>",
                400 + index,
                post_parts(author, minute, text, part_wrappers)
            )
        })
        .collect();
    let list = wrapped(
        list_wrappers,
        "list",
        format!("<ul class=\"replies\">{replies}</ul>"),
    );
    let heading = wrapped(box_wrappers, "heading", "<h2>Comments</h2>".to_string());
    let replies_box = wrapped(
        box_wrappers,
        "frame",
        format!("<div class=\"comments\">{heading}{list}</div>"),
    );
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Slow boot - Talk</title></head><body>\
         <div class=\"top\"><a href=\"/\">Talk</a> <a href=\"/search\">Search</a></div>\
         <div class=\"main\"><h1>Slow boot</h1>{opening}{replies_box}</div>\
         <div class=\"bottom\"><a href=\"/terms\">Terms</a></div></body></html>"
    )
}

#[test]
fn an_opening_post_apart_is_read_through_any_number_of_wrappers_around_the_replies() {
    // The page states each time with its offset, which the reading keeps.
    let times: Vec<String> = THREAD
        .iter()
        .map(|(_, minute, _)| format!("{minute}:00+00:00"))
        .collect();
    let expected: Vec<(&str, &str, &str)> = THREAD
        .iter()
        .zip(&times)
        .map(|((author, _, text), time)| (*author, time.as_str(), *text))
        .collect();
    for (list_wrappers, box_wrappers, part_wrappers) in [
        (0, 0, 0),
        (1, 0, 0),
        (2, 0, 0),
        (0, 1, 0),
        (0, 2, 1),
        (2, 2, 0),
        (3, 2, 2),
    ] {
        check(
            &thread_page(list_wrappers, box_wrappers, part_wrappers),
            &expected,
        );
    }
}

/// A thread page whose replies list holds the opening post too, under a thread header that
/// repeats the opener's name and time beside the thread's tags (XenForo's "Discussion started
/// by ..."), with `wrappers` wrappers around the list.
fn page_with_thread_header(wrappers: usize) -> String {
    let (author, minute, _) = THREAD[0];
    let (date, clock) = minute.split_once('T').expect("a minute");
    let header = format!(
        "<div class=\"title-box\"><h1>Slow boot</h1><div class=\"started\">\
         <a href=\"/profile/{author}\">{author}</a> \
         <time datetime=\"{date}T{clock}:00+00:00\">{date}</time></div>\
         <ul class=\"tags\"><li><a href=\"/tags/boot\">boot</a></li>\
         <li><a href=\"/tags/windows\">windows update</a></li>\
         <li><a href=\"/tags/disk\">disk check and repair</a></li></ul></div>"
    );
    let posts: String = THREAD
        .iter()
        .enumerate()
        .map(|(index, (author, minute, text))| {
            format!(
                "<article class=\"reply\" id=\"post-{}\">{}</article>",
                300 + index,
                post_parts(author, minute, text, 1)
            )
        })
        .collect();
    let list = wrapped(
        wrappers,
        "list",
        format!("<div class=\"posts\">{posts}</div>"),
    );
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Slow boot - Talk</title></head><body>\
         <div class=\"top\"><a href=\"/\">Talk</a> <a href=\"/search\">Search</a></div>\
         {header}<div class=\"main\">{list}</div>\
         <div class=\"bottom\"><a href=\"/terms\">Terms</a></div></body></html>"
    )
}

#[test]
fn a_thread_header_repeating_the_first_posts_author_and_time_is_no_post() {
    let times: Vec<String> = THREAD
        .iter()
        .map(|(_, minute, _)| format!("{minute}:00+00:00"))
        .collect();
    let expected: Vec<(&str, &str, &str)> = THREAD
        .iter()
        .zip(&times)
        .map(|((author, _, text), time)| (*author, time.as_str(), *text))
        .collect();
    for wrappers in [0, 1, 3, 5] {
        check(&page_with_thread_header(wrappers), &expected);
    }
}
