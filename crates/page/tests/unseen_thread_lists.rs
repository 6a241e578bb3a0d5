//! Lists of threads made like posts, and opening posts made unlike their replies, on handwritten
//! pages in several languages and templates (no engine's names):
//!
//! - a board's thread list whose entries each show the starter's avatar and name, the title
//!   linking to the thread, a view count, "last post <date> by <name>" and a reply count
//!   linking to the thread again: authored and dated, but thread entries, never posts;
//! - "suggested topics" under a thread, more of them than the thread has posts, each a title
//!   link and an "updated on <date>" line: the posts are read, not the suggestions;
//! - a thread's opening post rendered apart above the replies, under a header "By <name> at
//!   <date>" whose date is when the thread was last active (the last reply's time): the opening
//!   post is read first, without that date, then every reply.

use jiff::Timestamp;
use trawl_page::analysis::{PageAnalysis, analyse_text};
use trawl_page::time::DateContext;
use url::Url;

fn analyse(html: &str, address: &str) -> PageAnalysis {
    let url = Url::parse(address).expect("a valid URL");
    let fetched_at: Timestamp = "2025-06-01T12:00:00Z".parse().expect("a valid instant");
    analyse_text(html, "UTF-8", &url, &DateContext::new(fetched_at, Some(0)))
}

fn page(body: &str) -> String {
    format!(
        "<html><head><title>Forum</title></head><body><div id=\"top\"><a href=\"/\">Home</a> \
         <a href=\"/login/\">Log in</a></div><div id=\"main\">{body}</div>\
         <div id=\"foot\">Powered by a forum</div></body></html>"
    )
}

const NAMES: [&str; 5] = ["helga_m", "Tobias", "marie.l", "Quentin", "sam_k"];

const TITLES: [&str; 5] = [
    "Router drops the line every evening",
    "Which channel for five gigahertz",
    "Mesh or repeater for an old house",
    "Firmware update failed halfway",
    "Cable modem keeps rebooting at night",
];

/// A board's thread list in one template and language.
struct BoardTemplate {
    /// Formats one entry: (thread number, title, starter, views, replies, last date, last poster).
    entry: fn(usize, &str, &str, usize, usize, &str, &str) -> String,
    /// Dates of the last posts, one per entry.
    dates: [&'static str; 5],
}

fn check_board(template: &BoardTemplate) {
    let entries: String = (0..5)
        .map(|index| {
            (template.entry)(
                200 - index,
                TITLES[index],
                NAMES[index],
                7 + index * 3,
                index + 1,
                template.dates[index],
                NAMES[(index + 2) % 5],
            )
        })
        .collect();
    let html = page(&format!(
        "<div class=\"box\"><h2>General</h2>{entries}</div>"
    ));
    let analysis = analyse(&html, "http://127.0.0.1:8000/forum/general/");
    assert!(
        analysis.posts.is_empty(),
        "thread entries read as posts: {:?}",
        analysis.posts
    );
    let titles: Vec<&str> = analysis
        .thread_entries
        .iter()
        .map(|entry| entry.title.as_str())
        .collect();
    assert_eq!(titles, TITLES.to_vec());
}

#[test]
fn an_authored_dated_thread_list_in_english_is_thread_entries() {
    check_board(&BoardTemplate {
        entry: |number, title, starter, views, replies, last, last_poster| {
            format!(
                "<div class=\"item\"><table><tr><td class=\"pic\"><a href=\"/member/{starter}/\">\
                 <img src=\"/a.png\" alt=\"\"></a></td><td><div class=\"right\">\
                 <a class=\"count\" href=\"/topic/{number}/\">{replies}</a></div>\
                 <span class=\"big\"><a href=\"/topic/{number}/\">{title}</a></span>\
                 <span class=\"meta\"><strong><a href=\"/member/{starter}/\">{starter}</a></strong> \
                 &bull; {views} views &bull; Last post {last} by {last_poster}</span>\
                 </td></tr></table></div>"
            )
        },
        dates: [
            "April 26, 2025, 1:12 a.m.",
            "April 23, 2025, 5:12 p.m.",
            "April 22, 2025, 9:40 a.m.",
            "April 19, 2025, 11:05 p.m.",
            "April 14, 2025, 8:30 a.m.",
        ],
    });
}

#[test]
fn an_authored_dated_thread_list_in_german_is_thread_entries() {
    check_board(&BoardTemplate {
        entry: |number, title, starter, views, replies, last, last_poster| {
            format!(
                "<li class=\"thema\"><a class=\"bild\" href=\"/benutzer/{starter}\"><img src=\"/b.png\"></a>\
                 <div class=\"kopf\"><a href=\"/thema/{number}-eintrag\">{title}</a></div>\
                 <div class=\"info\">von <a href=\"/benutzer/{starter}\">{starter}</a> · {views} Aufrufe · \
                 Letzter Beitrag {last} von {last_poster}</div>\
                 <div class=\"zahl\"><a href=\"/thema/{number}-eintrag\">{replies}</a> Antworten</div></li>"
            )
        },
        dates: [
            "26.04.2025 01:12",
            "23.04.2025 17:12",
            "22.04.2025 09:40",
            "19.04.2025 23:05",
            "14.04.2025 08:30",
        ],
    });
}

#[test]
fn an_authored_dated_thread_list_in_french_is_thread_entries() {
    check_board(&BoardTemplate {
        entry: |number, title, starter, views, replies, last, last_poster| {
            format!(
                "<article class=\"sujet\"><header><img src=\"/c.png\"> \
                 <a rel=\"author\" href=\"/profil.php?id={number}7\">{starter}</a></header>\
                 <h3><a href=\"/sujet.php?id={number}\">{title}</a></h3>\
                 <p class=\"stats\">{views} vues — dernier message le {last} par {last_poster} — \
                 <a href=\"/sujet.php?id={number}\">{replies}</a> réponses</p></article>"
            )
        },
        dates: [
            "2025-04-26 01:12",
            "2025-04-23 17:12",
            "2025-04-22 09:40",
            "2025-04-19 23:05",
            "2025-04-14 08:30",
        ],
    });
}

/// A thread page: the posts (each author, date, message), then a longer "suggested topics"
/// block, in one template and language.
struct SuggestionTemplate {
    post: fn(&str, &str, &str) -> String,
    suggestion: fn(usize, &str, &str) -> String,
    heading: &'static str,
    post_dates: [&'static str; 3],
    suggestion_dates: [&'static str; 5],
}

const MESSAGES: [&str; 3] = [
    "Since yesterday my router drops the connection every evening at about eight o'clock, and \
     only unplugging it helps. The provider says the line is fine.",
    "Look at the channel your wireless uses: in the evening the neighbours come home and the \
     channel gets crowded. A fixed channel solved it for me.",
    "Thank you, the fixed channel did it. Three evenings without a single drop now, so I am \
     marking this as solved.",
];

fn check_suggestions(template: &SuggestionTemplate) {
    let posts: String = (0..3)
        .map(|index| (template.post)(NAMES[index], template.post_dates[index], MESSAGES[index]))
        .collect();
    let suggestions: String = (0..10)
        .map(|index| {
            (template.suggestion)(
                300 + index,
                &format!("{} again, part {}", TITLES[index % 5], index + 2),
                template.suggestion_dates[index % 5],
            )
        })
        .collect();
    let html = page(&format!(
        "<h1>Router drops the line</h1><div class=\"thread\">{posts}</div>\
         <h4>{}</h4><div class=\"more\">{suggestions}</div>",
        template.heading
    ));
    let analysis = analyse(
        &html,
        "http://127.0.0.1:8000/topic/view/router-drops-the-line/",
    );
    let read: Vec<(Option<&str>, String)> = analysis
        .posts
        .iter()
        .map(|post| {
            (
                post.author.as_deref(),
                post.text
                    .split_whitespace()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })
        .collect();
    let expected: Vec<(Option<&str>, String)> = (0..3)
        .map(|index| {
            (
                Some(NAMES[index]),
                MESSAGES[index]
                    .split_whitespace()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })
        .collect();
    assert_eq!(read, expected);
}

#[test]
fn suggested_topics_in_english_are_not_the_posts() {
    check_suggestions(&SuggestionTemplate {
        post: |name, date, message| {
            format!(
                "<div class=\"reply\"><div class=\"by\"><a href=\"/user/{name}/\">{name}</a> \
                 <span>{date}</span></div><p>{message}</p></div>"
            )
        },
        suggestion: |number, title, date| {
            format!(
                "<div class=\"block\"><div class=\"t\"><a href=\"/topic/view/thread-{number}/\">{title}</a></div>\
                 <span class=\"act\">Updated on {date}</span> <span>Replies 4</span> <span>Views 12</span></div>"
            )
        },
        heading: "Suggested Topics",
        post_dates: [
            "April 25, 2025, 7:44 a.m.",
            "April 25, 2025, 1:57 p.m.",
            "April 26, 2025, 1:12 a.m.",
        ],
        suggestion_dates: [
            "Nov. 3, 2024, 12:46 p.m.",
            "Nov. 5, 2024, 10:17 a.m.",
            "Nov. 7, 2024, 7:25 a.m.",
            "Dec. 1, 2024, 3:42 a.m.",
            "Jan. 14, 2025, 2:10 p.m.",
        ],
    });
}

#[test]
fn suggested_topics_in_spanish_are_not_the_posts() {
    check_suggestions(&SuggestionTemplate {
        post: |name, date, message| {
            format!(
                "<article class=\"mensaje\"><a class=\"autor\" href=\"/usuario/{name}\">{name}</a> \
                 <time>{date}</time><div class=\"cuerpo\">{message}</div></article>"
            )
        },
        suggestion: |number, title, date| {
            format!(
                "<li><a href=\"/tema/{number}/otro-tema\">{title}</a> <small>actualizado {date}</small> \
                 <span>7 respuestas</span></li>"
            )
        },
        heading: "Temas sugeridos",
        post_dates: ["2025-04-25 07:44", "2025-04-25 13:57", "2025-04-26 01:12"],
        suggestion_dates: [
            "2024-11-03 12:46",
            "2024-11-05 10:17",
            "2024-11-07 07:25",
            "2024-12-01 03:42",
            "2025-01-14 14:10",
        ],
    });
}

/// A thread page whose opening post stands apart above the replies, in one template: the
/// opening post's header holds the thread's last-activity date.
struct OpenerTemplate {
    opener: fn(&str, &str, &str) -> String,
    reply: fn(usize, &str, &str, &str) -> String,
    /// The last-activity date shown in the opener's header, then the replies' dates.
    dates: [&'static str; 4],
}

fn check_opener(template: &OpenerTemplate, replies: usize) {
    let last = template.dates[replies];
    let opener = (template.opener)(NAMES[4], last, MESSAGES[0]);
    let list: String = (0..replies)
        .map(|index| {
            (template.reply)(
                index + 1,
                NAMES[index],
                template.dates[index + 1],
                MESSAGES[(index + 1) % 3],
            )
        })
        .collect();
    let html = page(&format!(
        "{opener}<div class=\"sep\"></div><div class=\"box\"><div class=\"cell\">Posts [ {replies} ] | \
         Last post {last}</div><div id=\"replies\">{list}</div></div>"
    ));
    let analysis = analyse(&html, "http://127.0.0.1:8000/topic/77/");
    let read: Vec<(Option<&str>, bool, String)> = analysis
        .posts
        .iter()
        .map(|post| {
            (
                post.author.as_deref(),
                post.time.is_some(),
                post.text
                    .split_whitespace()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })
        .collect();
    let first_words = |text: &str| {
        text.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut expected = vec![(Some(NAMES[4]), false, first_words(MESSAGES[0]))];
    expected.extend((0..replies).map(|index| {
        (
            Some(NAMES[index]),
            true,
            first_words(MESSAGES[(index + 1) % 3]),
        )
    }));
    assert_eq!(read, expected);
}

fn english_opener() -> OpenerTemplate {
    OpenerTemplate {
        opener: |name, date, message| {
            format!(
                "<div class=\"box\"><div class=\"cell\"><h1>Router drops the line</h1>\
                 <small>By <a href=\"/profile/9/\">{name}</a> at {date}, 6 hits</small></div>\
                 <div class=\"inner\"><div class=\"content\"><p>{message}</p></div></div>\
                 <div class=\"inner\"><a href=\"/reply/new/77/\">Post reply</a></div></div>"
            )
        },
        reply: |number, name, date, message| {
            format!(
                "<div class=\"cell reply\" id=\"p{number}\"><table><tr><td><a href=\"/profile/{number}/\">\
                 <img src=\"/a.png\"></a></td><td><small>#{number} - {date}</small> \
                 <strong><a href=\"/profile/{number}/\">{name}</a></strong>\
                 <div class=\"content\"><p>{message}</p></div></td></tr></table></div>"
            )
        },
        dates: [
            "April 26, 2025, 9:00 a.m.",
            "April 26, 2025, 10 a.m.",
            "April 26, 2025, 4:35 p.m.",
            "April 26, 2025, 9:42 p.m.",
        ],
    }
}

fn german_opener() -> OpenerTemplate {
    OpenerTemplate {
        opener: |name, date, message| {
            format!(
                "<section class=\"eroeffnung\"><header><h1>Router trennt die Leitung</h1>\
                 Von <a href=\"/mitglied/9\">{name}</a> am {date}</header>\
                 <div class=\"text\">{message}</div></section>"
            )
        },
        reply: |number, name, date, message| {
            format!(
                "<div class=\"antwort\" id=\"a{number}\"><div class=\"kopf\"><a href=\"/mitglied/{number}\">{name}</a> \
                 schrieb am {date}</div><div class=\"text\">{message}</div></div>"
            )
        },
        dates: [
            "26.04.2025 09:00",
            "26.04.2025 10:00",
            "26.04.2025 16:35",
            "26.04.2025 21:42",
        ],
    }
}

#[test]
fn an_opening_post_apart_with_the_last_activity_date_in_english_is_read_first() {
    check_opener(&english_opener(), 2);
    check_opener(&english_opener(), 3);
}

#[test]
fn an_opening_post_apart_with_the_last_activity_date_in_german_is_read_first() {
    check_opener(&german_opener(), 2);
    check_opener(&german_opener(), 3);
}

/// A board's last page holding one thread, beside a box of the latest threads whose records
/// each show a title link, the last poster and time, and a line of fields naming the starter
/// and counting replies and views (`line` formats it from the starter and the reply count),
/// longer than the title, as a widget of the latest threads prints it.
fn last_board_page_beside_latest_threads(line: fn(&str, usize) -> String) -> String {
    let latest: String = (0..5)
        .map(|index| {
            format!(
                "<li class=\"widget_post_bit\"><h5 class=\"widget_post_header\">\
                 <a href=\"/showthread.php?t={thread}\" class=\"title\">{title}</a></h5>\
                 <div class=\"meta\">{line}</div><div class=\"widget_post_content\">Last post by \
                 <a href=\"/member.php?u={last}\">{last_name}</a>, <span class=\"date\">05-2{index}-2025, \
                 0{index}:15 PM</span></div></li>",
                thread = 400 + index,
                title = TITLES[index],
                last = 20 + index,
                last_name = NAMES[(index + 1) % 5],
                line = line(NAMES[index], index * 3 + 1),
            )
        })
        .collect();
    page(&format!(
        "<div class=\"threadlist\"><h2>Hardware</h2><table><tr class=\"threadbit\">\
         <td><a href=\"/showthread.php?t=77\">Old keyboard question</a><br>\
         <a href=\"/member.php?u=3\">Quentin</a></td><td><a href=\"/misc.php?do=whoposted&amp;t=77\">3</a></td>\
         <td>41</td><td>04-11-2025, 05:30 PM<br>by <a href=\"/member.php?u=4\">sam_k</a></td></tr></table></div>\
         <div class=\"sidebar\"><h3>Latest Threads</h3><ul class=\"widget\">{latest}</ul></div>"
    ))
}

/// Checks that a board page beside a box of the latest threads, each with a line of fields,
/// gives its one thread entry and no post.
#[track_caller]
fn check_latest_threads_box(line: fn(&str, usize) -> String, case: &str) {
    let html = last_board_page_beside_latest_threads(line);
    let analysis = analyse(&html, "http://127.0.0.1:8000/forumdisplay.php?f=2&page=3");
    assert!(
        analysis.posts.is_empty(),
        "{case}: the latest threads read as posts: {:?}",
        analysis.posts
    );
    let titles: Vec<&str> = analysis
        .thread_entries
        .iter()
        .map(|entry| entry.title.as_str())
        .collect();
    assert_eq!(titles, ["Old keyboard question"], "{case}");
}

/// Records whose text is a line naming the starter and counting the replies, beside a title
/// link to another thread, are thread entries in a box, never posts; whether the starter's name
/// is a link or not, and in whatever words the template puts it.
#[test]
fn a_box_of_latest_threads_with_starter_and_reply_lines_is_no_post_list() {
    check_latest_threads_box(
        |starter, replies| {
            format!(
                "Started by <a href=\"/member.php?username={starter}\">{starter}</a> &middot; \
                 Replies: {replies} &middot; Views: {}",
                replies * 10 + 7
            )
        },
        "linked starter, English",
    );
    check_latest_threads_box(
        |starter, replies| {
            format!(
                "Started by {starter}, {replies} replies and {} views so far",
                replies * 10 + 7
            )
        },
        "starter without a link",
    );
    check_latest_threads_box(
        |starter, replies| {
            format!(
                "Gestartet von <a href=\"/benutzer/{starter}\">{starter}</a> · Antworten: \
                 {replies} · Hits: {}",
                replies * 10 + 7
            )
        },
        "German",
    );
}

/// Short replies that each name a member and a number are messages: their words differ from
/// post to post, so they are no line of fields, and the thread's posts are read.
#[test]
fn short_replies_naming_members_and_numbers_are_still_posts() {
    let replies = [
        "Thanks <a href=\"/user/Tobias/\">Tobias</a>, channel 6 did it.",
        "Same for me with firmware 2.4 on the older box.",
        "<a href=\"/user/helga_m/\">helga_m</a> it took me 3 tries.",
        "Mine drops at 8 too, every single evening.",
    ];
    let posts: String = replies
        .iter()
        .enumerate()
        .map(|(index, text)| {
            format!(
                "<div class=\"reply\"><div class=\"by\"><a href=\"/user/{name}/\">{name}</a> \
                 <span>2025-04-2{index} 10:1{index}</span></div><p>{text}</p>\
                 <div class=\"foot\"><a href=\"/topic/view/router-drops-the-line/?quote={index}\">Quote this post now</a></div></div>",
                name = NAMES[index]
            )
        })
        .collect();
    let html = page(&format!(
        "<h1>Router drops the line</h1><div class=\"thread\">{posts}</div>"
    ));
    let analysis = analyse(
        &html,
        "http://127.0.0.1:8000/topic/view/router-drops-the-line/",
    );
    let authors: Vec<Option<&str>> = analysis
        .posts
        .iter()
        .map(|post| post.author.as_deref())
        .collect();
    assert_eq!(
        authors,
        NAMES[..4]
            .iter()
            .map(|name| Some(*name))
            .collect::<Vec<_>>()
    );
}
