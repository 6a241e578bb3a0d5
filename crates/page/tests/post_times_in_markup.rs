//! Post times that pages state only in markup or split by inline elements, read by the whole
//! analysis: the `title` of an empty permalink after an author's join date shown the same way,
//! schema.org microdata (`datePublished`, `dateCreated`) beside relative text, and dates with
//! ordinal suffixes in `<sup>` ("Mar 30<sup>th</sup>, 2025, 10:11pm"). Each page is written
//! here in the layout of an engine family, with several variants.

use jiff::Timestamp;
use trawl_page::analysis::analyse_text;
use trawl_page::time::DateContext;
use url::Url;

/// Analyses `html` fetched on 2 January 2026 at 12:00 UTC from a forum one hour east, and
/// checks the authors and times (ISO 8601, with the offset when the page states one) of its
/// posts.
#[track_caller]
fn check(html: &str, expected: &[(&str, &str)]) {
    let fetched_at: Timestamp = "2026-01-02T12:00:00Z".parse().expect("a valid instant");
    let url = Url::parse("http://forum.test/topic/7/router-keeps-dropping").expect("a valid URL");
    let analysis = analyse_text(
        html,
        "UTF-8",
        &url,
        &DateContext::new(fetched_at, Some(3600)),
    );
    let got: Vec<(String, String)> = analysis
        .posts
        .iter()
        .map(|post| {
            (
                post.author.clone().unwrap_or_default(),
                post.time.map_or_else(String::new, |time| time.to_iso8601()),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(author, time)| (author.to_string(), time.to_string()))
        .collect();
    assert_eq!(got, expected, "{html}");
}

const MESSAGES: [&str; 3] = [
    "My router drops the connection every evening around nine, any idea why that happens?",
    "Check the channel it uses: a neighbour's network on the same channel does exactly that.",
    "Moving to channel eleven fixed it here, thanks a lot for the hint about the neighbours.",
];

const AUTHORS: [&str; 3] = ["ann_walker", "bob_ferris", "ann_walker"];

fn page(title: &str, posts: &str) -> String {
    format!(
        "<html><head><title>{title}</title></head><body><nav><a href=\"/\">Home</a> \
         <a href=\"/users\">Users</a> <a href=\"/login\">Login</a></nav><h1>{title}</h1>\
         {posts}<footer>Powered by a forum</footer></body></html>"
    )
}

/// A post in the layout NodeBB prints: the author's join date and the post's time, both only
/// in `title` attributes of empty elements, the post's time on its permalink; `microdata`
/// adds the time as `<meta itemprop=datePublished>` too.
fn timeago_post(index: usize, joined: &str, posted: &str, label: &str, microdata: bool) -> String {
    let (author, message) = (AUTHORS[index], MESSAGES[index]);
    let meta = if microdata {
        format!("<meta itemprop=\"datePublished\" content=\"{posted}\">")
    } else {
        String::new()
    };
    format!(
        "<li component=\"post\" data-index=\"{index}\" itemscope>{meta}<div class=\"post-header\">\
         <a href=\"/user/{author}\" itemprop=\"author\">{author}</a> <span class=\"text-muted\">\
         {label} <span class=\"timeago\" title=\"{joined}\"></span></span> \
         <a href=\"/post/{index}\" class=\"timeago\" title=\"{posted}\"></a></div>\
         <div class=\"content\" itemprop=\"text\"><p>{message}</p></div>\
         <div><a href=\"/compose?pid={index}\">Quote</a></div></li>"
    )
}

fn timeago_page(label: &str, microdata: bool) -> String {
    let posts: String = [
        ("2025-09-24T06:28:23.000Z", "2025-11-17T00:04:52.000Z"),
        ("2025-10-16T08:41:11.000Z", "2025-11-20T03:09:49.000Z"),
        ("2025-09-24T06:28:23.000Z", "2025-11-20T12:36:48.000Z"),
    ]
    .iter()
    .enumerate()
    .map(|(index, (joined, posted))| timeago_post(index, joined, posted, label, microdata))
    .collect();
    page(
        "Router keeps dropping",
        &format!("<ul class=\"posts\">{posts}</ul>"),
    )
}

const TIMEAGO_TIMES: [(&str, &str); 3] = [
    ("ann_walker", "2025-11-17T00:04:52+00:00"),
    ("bob_ferris", "2025-11-20T03:09:49+00:00"),
    ("ann_walker", "2025-11-20T12:36:48+00:00"),
];

#[test]
fn a_post_time_in_a_title_after_a_join_date_shown_the_same_way() {
    for label in ["joined", "Joined:", "Member since", "registered"] {
        check(&timeago_page(label, false), &TIMEAGO_TIMES);
        check(&timeago_page(label, true), &TIMEAGO_TIMES);
    }
}

/// A post in the layout of engines that print relative text and state the time in microdata
/// (XenForo 2, Invision, Discourse), with the `itemprop` named `name`.
fn microdata_post(index: usize, name: &str, content: &str, shown: &str) -> String {
    let (author, message) = (AUTHORS[index], MESSAGES[index]);
    format!(
        "<article class=\"message\" itemscope itemtype=\"https://schema.org/Comment\">\
         <div class=\"message-user\"><a href=\"/members/{author}.{index}/\" class=\"username\">{author}</a>\
         <div class=\"userTitle\">Member</div></div>\
         <div class=\"message-main\"><header><meta itemprop=\"{name}\" content=\"{content}\">\
         <span class=\"u-dt\">{shown}</span></header>\
         <div class=\"bbWrapper\" itemprop=\"text\">{message}</div></div></article>"
    )
}

#[test]
fn post_times_stated_in_schema_org_microdata() {
    let contents = [
        "2025-11-17T01:04:52+01:00",
        "2025-11-20T04:09:49+01:00",
        "2025-11-20T13:36:48+01:00",
    ];
    // The visible text: none, the day alone, or a day name the reader does not know.
    let shown_days = ["Nov 17, 2025", "Nov 20, 2025", "Nov 20, 2025"];
    for (name, shown) in [
        ("datePublished", ["", "", ""]),
        ("dateCreated", ["", "", ""]),
        ("datePublished dateCreated", ["", "", ""]),
        ("datePublished", shown_days),
        ("dateCreated", ["Mon", "Thu", "Thu"]),
    ] {
        let posts: String = (0..3)
            .map(|index| microdata_post(index, name, contents[index], shown[index]))
            .collect();
        check(
            &page("Router keeps dropping", &posts),
            &[
                ("ann_walker", "2025-11-17T01:04:52+01:00"),
                ("bob_ferris", "2025-11-20T04:09:49+01:00"),
                ("ann_walker", "2025-11-20T13:36:48+01:00"),
            ],
        );
    }
}

/// A post in the table layout YaBB prints: the author with a registration date in one row,
/// "Posted on" with an ordinal suffix in `<sup>` in the next, then the message.
fn sup_post(index: usize, registered: &str, posted: &str) -> String {
    let (author, message) = (AUTHORS[index], MESSAGES[index]);
    format!(
        "<table class=\"bordercolor\" width=\"100%\">\
         <tr><td class=\"windowbg2\" colspan=\"2\"><b>{author}</b> <span class=\"small\">Posts: 12<br>\
         Registered: {registered}</span></td></tr>\
         <tr><td class=\"windowbg2 small\">&laquo; Posted on: {posted} &raquo;</td>\
         <td class=\"windowbg2 small\" align=\"right\"><a href=\"/YaBB.pl?num=7/{index}\">Link</a></td></tr>\
         <tr><td class=\"windowbg\" colspan=\"2\"><div class=\"message\">{message}</div></td></tr></table>"
    )
}

#[test]
fn dates_with_ordinal_suffixes_in_sup_keep_their_clock() {
    let header = "<table><tr><td class=\"small\">Welcome, Guest. Please login or register. \
                  Jan 2<sup>nd</sup>, 2026, 1:00pm</td></tr>\
                  <tr><td class=\"small\">Your last visit: Dec 29<sup>th</sup>, 2025, 2:11am</td></tr></table>";
    let cases: [([&str; 3], [&str; 3]); 2] = [
        (
            [
                "Nov 17<sup>th</sup>, 2025, 12:04am",
                "Nov 20<sup>th</sup>, 2025, 3:09am",
                "Nov 21<sup>st</sup>, 2025, 12:36pm",
            ],
            ["2025-11-17T00:04", "2025-11-20T03:09", "2025-11-21T12:36"],
        ),
        (
            [
                "Mar 1<sup>st</sup>, 2025 at 9:05 PM",
                "Mar 2<sup>nd</sup>, 2025 at 10:11 PM",
                "Mar 3<sup>rd</sup>, 2025 at 8:00 AM",
            ],
            ["2025-03-01T21:05", "2025-03-02T22:11", "2025-03-03T08:00"],
        ),
    ];
    for (posted, expected) in cases {
        let posts: String = (0..3)
            .map(|index| sup_post(index, "Nov 9<sup>th</sup>, 2024, 8:52am", posted[index]))
            .collect();
        let expected: Vec<(&str, &str)> = AUTHORS.into_iter().zip(expected).collect();
        check(
            &page("Router keeps dropping", &format!("{header}{posts}")),
            &expected,
        );
    }
}
