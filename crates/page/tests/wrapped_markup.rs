//! Thread pages of themes that wrap everything in extra elements ("div soup"): each post, each
//! of its parts and each paragraph of its message sits in one or more wrappers, and the
//! wrappers' classes name kinds of boxes (`para`, `box-inner`) rather than fields. The pages are
//! of our own making; they imitate what a theme layered on any engine adds, and what the
//! `wrappers` perturbation of `trawl bench extract` measures on the development pages.
//!
//! A message is read whole whatever wraps its paragraphs: a class that every paragraph of one
//! message shares is a kind of block, not the message's field, so the first paragraph alone is
//! never taken for the text.

mod common;

use common::{PostRead as Read, assert_posts, posts_read};

fn read(html: &str) -> Vec<Read> {
    posts_read(
        html,
        "https://boards.example/t/fan-noise/51",
        "2024-06-01T12:00:00Z",
    )
}

#[track_caller]
fn check(html: &str, expected: &[(&str, &str, &str)]) {
    assert_posts(read(html), expected, html);
}

fn page(posts: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Fan noise - Boards</title></head><body>\
         <div class=\"box\"><div class=\"box-inner\"><a href=\"/\">Boards</a> \
         <a href=\"/search\">Search</a></div></div>\
         <div class=\"box\"><div class=\"box-inner\"><h1>Fan noise</h1></div></div>\
         <div class=\"box\"><div class=\"box-inner\">{posts}</div></div>\
         <div class=\"box\"><div class=\"box-inner\"><a href=\"/rules\">Rules</a></div></div>\
         </body></html>"
    )
}

/// The posts of the thread: author, minute, paragraphs. Most messages are one paragraph, as on
/// most forums; one runs to three.
const THREAD: [(&str, &str, &[&str]); 6] = [
    (
        "mira",
        "2024-05-10T08:30",
        &["My laptop fan is loud all day long."],
    ),
    (
        "tobias",
        "2024-05-10T09:02",
        &["Clean the vents with compressed air first."],
    ),
    (
        "mira",
        "2024-05-10T10:15",
        &[
            "Did that, still loud.",
            "It spins up even when the machine is idle and nothing runs.",
            "The BIOS is from last year, if that matters at all.",
        ],
    ),
    (
        "kenji",
        "2024-05-10T11:40",
        &["Then update the BIOS, the new one fixed mine."],
    ),
    (
        "tobias",
        "2024-05-10T12:05",
        &["Same here, the update helped a lot."],
    ),
    (
        "mira",
        "2024-05-11T07:55",
        &["Updated it and the fan is quiet now, thank you all!"],
    ),
];

/// The thread with every paragraph in `paragraph` (a format with `{}` for the words), each post
/// part in `part_wrappers` nested wrappers and each post in `post_wrappers`.
fn wrapped_thread(paragraph: &str, part_wrappers: usize, post_wrappers: usize) -> String {
    let wrap = |depth: usize, class: &str, inner: String| -> String {
        let mut out = inner;
        for level in 0..depth {
            out = format!("<div class=\"{class}-{level}\">{out}</div>");
        }
        out
    };
    THREAD
        .iter()
        .enumerate()
        .map(|(index, (author, minute, paragraphs))| {
            let (date, clock) = minute.split_once('T').expect("a minute");
            let body: String = paragraphs
                .iter()
                .map(|words| paragraph.replace("{}", words))
                .collect();
            let header = format!(
                "{}{}",
                wrap(
                    part_wrappers,
                    "cell",
                    format!("<a href=\"/u/{author}\">{author}</a>")
                ),
                wrap(
                    part_wrappers,
                    "cell",
                    format!("<span class=\"when\">{date} {clock}</span>")
                ),
            );
            let post = format!(
                "<div class=\"entry\" id=\"e{index}\">{}{}</div>",
                wrap(
                    part_wrappers,
                    "box",
                    format!("<div class=\"head\">{header}</div>")
                ),
                wrap(
                    part_wrappers,
                    "box",
                    format!("<div class=\"content\">{body}</div>")
                ),
            );
            wrap(post_wrappers, "frame", post)
        })
        .collect()
}

fn expected_thread() -> Vec<(&'static str, &'static str, String)> {
    THREAD
        .iter()
        .map(|(author, minute, paragraphs)| (*author, *minute, paragraphs.join(" ")))
        .collect()
}

#[test]
fn messages_whose_paragraphs_share_one_wrapper_class_are_read_whole() {
    let paragraphs = [
        "<div class=\"para\">{}</div>",
        "<div class=\"para\"><p>{}</p></div>",
        "<p class=\"text-block\">{}</p>",
        "<div class=\"box-inner\"><div class=\"para\">{}</div></div>",
        "<p>{}</p>",
    ];
    let expected = expected_thread();
    let expected: Vec<(&str, &str, &str)> = expected
        .iter()
        .map(|(author, minute, text)| (*author, *minute, text.as_str()))
        .collect();
    for paragraph in paragraphs {
        for (part_wrappers, post_wrappers) in [(0, 0), (1, 0), (1, 2), (2, 1)] {
            check(
                &page(&wrapped_thread(paragraph, part_wrappers, post_wrappers)),
                &expected,
            );
        }
    }
}
