//! Authors shown as plain text in templates whose markup says nothing of authors: class names
//! that are words of the theme's own (or none), no profile links, the name in a `<span>` or a
//! `<div>` beside the post time, sometimes beside a rank badge. Pages of our own making, in the
//! shapes the `names` perturbation of `trawl bench extract` gives the development pages (where
//! such a page lost every author). The name is the column of short texts that vary from post
//! to post and come back for the same person; a badge that different persons share is not.

mod common;
use common::authors_read;

fn authors(html: &str) -> Vec<String> {
    authors_read(
        html,
        "https://talk.example/t/siblings/88",
        "2024-06-01T12:00:00Z",
    )
}

#[track_caller]
fn check(html: &str, expected: &[&str]) {
    assert_eq!(authors(html), expected, "authors of:\n{html}");
}

const POSTS: [(&str, &str, &str); 5] = [
    (
        "ac73",
        "Tue 16-Jun-20 16:12:14",
        "We are almost four years in with siblings and the rivalry is huge.",
    ),
    (
        "Jellycatspyjamas",
        "Tue 16-Jun-20 23:12:23",
        "Lots of reassurance works here, my eldest needs positive words every day.",
    ),
    (
        "caringcarer",
        "Wed 17-Jun-20 08:01:40",
        "Try one to one time with each child, even ten minutes makes a difference.",
    ),
    (
        "ac73",
        "Wed 17-Jun-20 09:30:02",
        "Thank you both, we will try the one to one time this week and see.",
    ),
    (
        "Jellycatspyjamas",
        "Wed 17-Jun-20 12:45:51",
        "Good luck, it does get easier as they grow and settle into it.",
    ),
];

/// A thread whose header shows the name in `name` (a format with `{}`) and the time, and
/// optionally a rank badge between them.
fn thread(name: &str, badge: Option<&[&str]>) -> String {
    let posts: String = POSTS
        .iter()
        .enumerate()
        .map(|(index, (author, time, text))| {
            let badge = badge.map_or_else(String::new, |badges| {
                format!("<span class=\"zu\">{}</span>", badges[index % badges.len()])
            });
            format!(
                "<div class=\"ka\" id=\"k{index}\"><div class=\"mo\">\
                 <div class=\"ri\"><a href=\"/signin?next=add\" rel=\"nofollow\">Add message</a> | \
                 <a href=\"/report?msg={index}\" rel=\"nofollow\">Report</a></div>\
                 {name_element}{badge}<span class=\"ve\">{time}</span></div>\
                 <div class=\"pa\"><p>{text}</p></div></div>",
                name_element = name.replace("{}", author),
            )
        })
        .collect();
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Siblings - Talk</title></head><body>\
         <div class=\"na\"><a href=\"/\">Talk</a> <a href=\"/search\">Search</a></div>\
         <h1>Siblings</h1><div class=\"li\">{posts}</div>\
         <div class=\"fo\"><a href=\"/rules\">Rules</a></div></body></html>"
    )
}

#[test]
fn names_in_elements_that_say_nothing_are_the_authors() {
    let expected: Vec<&str> = POSTS.iter().map(|(author, _, _)| *author).collect();
    let names = [
        "<span class=\"be\"><span title=\"{}\" class=\"ga\">{}</span></span>",
        "<span>{}</span>",
        "<div class=\"ta\">{}</div>",
        "<span class=\"be\"><em>{}</em></span>",
    ];
    for name in names {
        check(&thread(name, None), &expected);
        check(
            &thread(name, Some(&["Member", "Member", "Regular"])),
            &expected,
        );
    }
}
