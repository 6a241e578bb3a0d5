//! An opening post shown apart whose box also says when the thread was last active ("Last
//! reply by NAME, DATE"): the message is the post's own text, however short, never the line of
//! later activity beside it, which is longer than a message of a few words. Hand-made pages in
//! the style of a topic box with a starter line and a last-reply line under the message.

use jiff::Timestamp;
use trawl_page::analysis::{analyse_text, lone_record_posts};
use trawl_page::regions::single_record_candidates;
use trawl_page::time::DateContext;
use url::Url;

/// Text with runs of white space made one space.
fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reads a handwritten thread page of one reply as the crawler reads a post that did not repeat
/// on its page (a lone record of a pattern whose posts repeat on other pages of the site): the
/// reply, and the opening post shown apart above it in a topic box. Checks the posts as
/// (author, time, text), the time empty where the page shows none (the reply's).
fn check(message: &str, last_reply: &str, expected: &[(&str, &str, &str)]) {
    let html = format!(
        "<html><head><title>Router keeps dropping | Harbour forum</title></head><body>\
         <nav class=top><a href=/>Harbour forum</a> <a href=/categories/>Categories</a> \
         <a href=/login/>Sign in</a></nav>{}<div class=comments><div class=comment><ul><li><a href=#>\
         <img src=/a.png> <span class=label>Reply by<small>heron</small></span></a></li></ul>\
         <p>{REPLY}</p></div></div><footer>Harbour forum, since 2019</footer></body></html>",
        topic_box(message, last_reply)
    );
    let url = Url::parse("http://forum.test/topic/view/router-keeps-dropping/").expect("a URL");
    let fetched_at: Timestamp = "2026-01-01T00:00:00Z".parse().expect("a valid instant");
    let context = DateContext::new(fetched_at, Some(0));
    let analysis = analyse_text(&html, "UTF-8", &url, &context);
    let record = single_record_candidates(&analysis.document)
        .into_iter()
        .find(|candidate| {
            candidate.width == 1
                && analysis.document.attribute(candidate.first, "class") == Some("comment")
        })
        .expect("the reply is a candidate record");
    let got: Vec<(String, String, String)> = lone_record_posts(&analysis, &record, &context)
        .iter()
        .map(|post| {
            (
                post.author.clone().unwrap_or_default(),
                post.time
                    .map_or_else(String::new, |time| time.local.to_string()),
                normalise(&post.text),
            )
        })
        .collect();
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(author, time, text)| (author.to_string(), time.to_string(), text.to_string()))
        .collect();
    assert_eq!(got, expected, "{message} / {last_reply}");
}

/// A topic box: the title as its heading, the message, then a list naming who started the
/// thread and when, and who replied last and when, each name and date in one small element
/// after its label, and a row of the thread's counts beside its board's name (longer together
/// than a short message).
fn topic_box(message: &str, last_reply: &str) -> String {
    format!(
        "<div class=topic><h3 class=topic-title>Router keeps dropping</h3>\
         <span class=votes><a href=#>-</a> 0 votes <a href=#>+</a></span>\
         <p>{message}</p>\
         <ul class=activity>\
         <li><a href=#><img src=/a.png> <span class=label>Started by<small>kestrel, Dec. 2, 2025, 10:15 a.m.</small></span></a></li>\
         <li><a href=#><img src=/a.png> <span class=label>{last_reply}</span></a></li>\
         </ul><div class=counts><span class=board><a href=#>Home networking</a></span> \
         <span>Replies 1</span> <span>Views 40</span> <span>Users <b>2</b></span></div></div>"
    )
}

/// The one reply's message.
const REPLY: &str = "Mine stopped dropping after I turned the wireless power saving off.";

/// The last-reply line as the box prints it.
const LAST_REPLY: &str = "Last reply by<small>marten_the_second, Dec. 3, 2025, 8:40 a.m.</small>";

#[test]
fn a_short_opening_post_beside_a_last_reply_line_is_read() {
    // Shorter than the last-reply line: before, the line was read as the message.
    check(
        "Any idea why it drops?",
        LAST_REPLY,
        &[
            ("kestrel", "2025-12-02T10:15:00", "Any idea why it drops?"),
            ("heron", "", REPLY),
        ],
    );
    // Another label for the thread's later activity.
    check(
        "Any idea why it drops?",
        "Last post by<small>marten_the_second, Dec. 3, 2025, 8:40 a.m.</small>",
        &[
            ("kestrel", "2025-12-02T10:15:00", "Any idea why it drops?"),
            ("heron", "", REPLY),
        ],
    );
    // A message longer than the line was read right before and still is.
    check(
        "It drops every evening at nine, since Monday, whatever cable I use.",
        LAST_REPLY,
        &[
            (
                "kestrel",
                "2025-12-02T10:15:00",
                "It drops every evening at nine, since Monday, whatever cable I use.",
            ),
            ("heron", "", REPLY),
        ],
    );
    // A line saying when the post was last edited is no message either.
    check(
        "Any idea why it drops?",
        "Last edited by<small>kestrel, Dec. 2, 2025, 11:40 a.m.</small>",
        &[
            ("kestrel", "2025-12-02T10:15:00", "Any idea why it drops?"),
            ("heron", "", REPLY),
        ],
    );
}
