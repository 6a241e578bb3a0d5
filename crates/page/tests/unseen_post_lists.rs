//! The post list of handwritten thread pages that also show a longer list of dated records made
//! of other threads: "similar threads", "related topics", "you may also like" teasers with a
//! title linking to another thread, a reply count, a short excerpt, a date and often the
//! starter's name. The teaser list has more records than a short thread has posts; the posts
//! are told by what they are, not by their number.

use jiff::Timestamp;
use trawl_page::analysis::analyse_text;
use trawl_page::time::DateContext;
use url::Url;

/// (author, first words of the text) of every post read from `html` fetched from `address`.
fn read_posts(html: &str, address: &str) -> Vec<(String, String)> {
    let url = Url::parse(address).expect("a valid URL");
    let fetched_at: Timestamp = "2024-06-01T12:00:00Z".parse().expect("a valid instant");
    let analysis = analyse_text(html, "UTF-8", &url, &DateContext::new(fetched_at, Some(0)));
    analysis
        .posts
        .iter()
        .map(|post| {
            let words: Vec<&str> = post.text.split_whitespace().take(4).collect();
            (post.author.clone().unwrap_or_default(), words.join(" "))
        })
        .collect()
}

/// A thread page in language `lang`: the posts, then the teaser block.
struct Fixture {
    lang: &'static str,
    /// The page's own address.
    address: &'static str,
    /// Formats one post: (index, author, profile URL, message).
    post: fn(usize, &str, &str, &str) -> String,
    /// Formats one teaser: (index, thread URL, title, excerpt, starter).
    teaser: fn(usize, &str, &str, &str, &str) -> String,
    /// The teaser block's heading.
    heading: &'static str,
    /// Thread URL of teaser `index`.
    thread_url: fn(usize) -> String,
    /// Profile URL of member `name`.
    profile_url: fn(&str) -> String,
}

const AUTHORS: [&str; 3] = ["helga_m", "Tobias", "helga_m"];

const MESSAGES: [&str; 3] = [
    "Since yesterday my router drops the connection every evening at about eight o'clock, and \
     only unplugging it helps. The provider says the line is fine and their test shows nothing. \
     Has anyone seen this before with the same model?",
    "Look at the channel your wireless uses: in the evening the neighbours come home and the \
     channel gets crowded. Switching to a fixed channel on five gigahertz solved it for me after \
     weeks of the same trouble.",
    "Thank you, the fixed channel did it. Three evenings without a single drop now, so I am \
     marking this as solved for anyone who finds the thread later.",
];

const TITLES: [&str; 7] = [
    "Router reboots at night",
    "Wireless slow in the evening",
    "Which channel for five gigahertz",
    "Provider line test explained",
    "Mesh system keeps disconnecting",
    "Firmware update broke my router",
    "Best router under a hundred",
];

const EXCERPTS: [&str; 7] = [
    "Every night at three the router restarts by itself, is that normal?",
    "Speed drops to a tenth after six in the evening, daytime is fine.",
    "I read that some channels are reserved for radar, which should I pick?",
    "What does the line test of the provider actually measure?",
    "The satellites of my mesh drop every few hours and come back.",
    "After the last firmware the router does not keep its settings.",
    "Looking for a router for a small flat, budget about a hundred.",
];

const STARTERS: [&str; 7] = ["ingo", "Mara", "ingo", "pjotr", "Mara", "lisa_b", "Tomek"];

fn check(fixture: &Fixture, expected: &[(&str, &str)]) {
    let posts: String = (0..3)
        .map(|index| {
            (fixture.post)(
                index,
                AUTHORS[index],
                &(fixture.profile_url)(AUTHORS[index]),
                MESSAGES[index],
            )
        })
        .collect();
    let teasers: String = (0..7)
        .map(|index| {
            (fixture.teaser)(
                index,
                &(fixture.thread_url)(index),
                TITLES[index],
                EXCERPTS[index],
                STARTERS[index],
            )
        })
        .collect();
    let html = format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <title>Router drops - Example Forum</title></head><body>\
         <div id=\"nav\"><a href=\"/\">Forum</a> <a href=\"/search\">Search</a></div>\
         <h1>Router drops</h1><div id=\"content\"><div class=\"posts\">{posts}</div>\
         <div class=\"related\"><h2>{heading}</h2><ul class=\"related-list\">{teasers}</ul></div>\
         </div><div id=\"footer\"><a href=\"/rules\">Rules</a></div></body></html>",
        lang = fixture.lang,
        heading = fixture.heading,
    );
    let read = read_posts(&html, fixture.address);
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(author, words)| (author.to_string(), words.to_string()))
        .collect();
    assert_eq!(read, expected, "posts of:\n{html}");
}

/// What every fixture should read: the three posts.
const EXPECTED: [(&str, &str); 3] = [
    ("helga_m", "Since yesterday my router"),
    ("Tobias", "Look at the channel"),
    ("helga_m", "Thank you, the fixed"),
];

/// Posts in a list of `<article>`s with a `<time>`, XenForo-like.
fn article_post(index: usize, author: &str, profile: &str, message: &str) -> String {
    format!(
        "<article class=\"message\" id=\"post-{id}\"><div class=\"message-user\">\
         <a href=\"{profile}\" class=\"avatar\"><img src=\"/a/{index}.png\" alt=\"\"></a>\
         <h4><a href=\"{profile}\">{author}</a></h4></div><div class=\"message-main\">\
         <time datetime=\"2024-05-0{day}T19:{minute:02}:00+0000\">0{day}.05.2024</time>\
         <div class=\"message-body\"><div class=\"bbWrapper\">{message}</div></div></div></article>",
        id = 3000 + index,
        day = index + 2,
        minute = 10 * index,
    )
}

/// A teaser as a list item: title link, excerpt, starter, date and reply count.
fn list_teaser(index: usize, url: &str, title: &str, excerpt: &str, starter: &str) -> String {
    format!(
        "<li class=\"related-item\"><a class=\"related-title\" href=\"{url}\">{title}</a>\
         <p class=\"related-excerpt\">{excerpt}</p><span class=\"related-meta\">\
         <a href=\"/members/{starter}.{index}/\">{starter}</a> · \
         <time datetime=\"2023-1{month}-0{day}T08:00:00+0000\">0{day}.1{month}.2023</time> · \
         Replies: {replies}</span></li>",
        month = index % 3,
        day = index + 1,
        replies = 3 + 2 * index,
    )
}

/// Posts as rows of a table with the profile beside the message, phpBB 2 or SMF-like.
fn table_post(index: usize, author: &str, profile: &str, message: &str) -> String {
    format!(
        "<div class=\"windowbg{parity}\" id=\"msg{id}\"><table><tr><td class=\"poster\">\
         <a href=\"{profile}\">{author}</a></td><td class=\"postarea\">\
         <div class=\"smalltext\">« Antwort #{index} am: 0{day}. Mai 2024, 19:{minute:02} »</div>\
         <div class=\"inner\">{message}</div></td></tr></table></div>",
        parity = index % 2 + 1,
        id = 812 + index,
        day = index + 2,
        minute = 10 * index,
    )
}

/// A teaser with its title and a "read more" link, a short excerpt and a date, no starter.
fn read_more_teaser(index: usize, url: &str, title: &str, excerpt: &str, _starter: &str) -> String {
    format!(
        "<li><div class=\"teaser\"><h3><a href=\"{url}\">{title}</a></h3>\
         <div class=\"teaser-text\">{excerpt} <a href=\"{url}\">weiterlesen</a></div>\
         <div class=\"teaser-info\">{day}. Dezember 2023 · {replies} Antworten</div></div></li>",
        day = index + 10,
        replies = 1 + index,
    )
}

#[test]
fn teasers_of_other_threads_are_not_the_posts() {
    let cases = [
        Fixture {
            lang: "en",
            address: "https://forum.example/threads/router-drops.418/",
            post: article_post,
            teaser: list_teaser,
            heading: "Similar threads",
            thread_url: |index| {
                format!(
                    "https://forum.example/threads/topic-{index}.{}/",
                    500 + index
                )
            },
            profile_url: |name| format!("https://forum.example/members/{name}.7/"),
        },
        Fixture {
            lang: "de",
            address: "https://forum.example/index.php?topic=418.0",
            post: table_post,
            teaser: read_more_teaser,
            heading: "Ähnliche Themen",
            thread_url: |index| format!("https://forum.example/index.php?topic={}.0", 500 + index),
            profile_url: |name| format!("https://forum.example/index.php?action=profile;u={name}"),
        },
        Fixture {
            lang: "es",
            address: "https://foro.example/tema/418/router-se-cae",
            post: article_post,
            teaser: read_more_teaser,
            heading: "Temas similares",
            thread_url: |index| format!("https://foro.example/tema/{}/otro-tema", 500 + index),
            profile_url: |name| format!("https://foro.example/usuario/{name}"),
        },
        Fixture {
            lang: "fr",
            address: "https://forum.example/viewtopic.php?f=3&t=418",
            post: table_post,
            teaser: list_teaser,
            heading: "Sujets similaires",
            thread_url: |index| {
                format!("https://forum.example/viewtopic.php?f=3&t={}", 500 + index)
            },
            profile_url: |name| {
                format!("https://forum.example/memberlist.php?mode=viewprofile&un={name}")
            },
        },
    ];
    for fixture in &cases {
        check(fixture, &EXPECTED);
    }
}
