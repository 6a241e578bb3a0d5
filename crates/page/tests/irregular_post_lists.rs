//! Posts read by the whole analysis on handwritten thread pages whose post lists are irregular
//! the way real templates make them: advertisements made like posts between the posts, a page
//! marker before the last post, a first post rendered apart with its author's join date above
//! its time, one member writing the whole thread, a "thread starter" badge that shifts the date
//! of some posts, dates of the last edit beside the post times, and names linked to
//! `javascript:` because the member's profile is hidden.

use jiff::Timestamp;
use trawl_page::analysis::analyse_text;
use trawl_page::time::DateContext;
use url::Url;

/// Each post of `html` as "author | time | first words of the text", in page order.
fn posts(html: &str) -> Vec<String> {
    let url = Url::parse("http://forum.test/showthread.php?t=7").expect("a valid URL");
    let fetched_at: Timestamp = "2026-01-01T12:00:00Z".parse().expect("a valid instant");
    let analysis = analyse_text(html, "UTF-8", &url, &DateContext::new(fetched_at, Some(0)));
    analysis
        .posts
        .iter()
        .map(|post| {
            let time = post
                .time
                .map_or_else(String::new, |time| time.local.to_string());
            let words: Vec<&str> = post.text.split_whitespace().take(3).collect();
            format!(
                "{} | {} | {}",
                post.author.clone().unwrap_or_default(),
                time,
                words.join(" ")
            )
        })
        .collect()
}

#[track_caller]
fn check(html: &str, expected: &[String]) {
    assert_eq!(posts(html), expected, "posts of:\n{html}");
}

/// A page around the posts' container, with navigation so that the posts are not the page.
fn page(container: &str) -> String {
    page_titled("Topic", container)
}

/// [`page`] with the thread's title `title`.
fn page_titled(title: &str, container: &str) -> String {
    format!(
        "<html><head><title>{title} - Forum</title></head><body>\
         <div class=\"nav\"><a href=\"/index.php\">Index</a> <a href=\"/search.php\">Search</a></div>\
         {container}\
         <div class=\"footer\"><a href=\"/faq.php\">FAQ</a> <a href=\"/rules.php\">Rules</a></div>\
         </body></html>"
    )
}

const MESSAGES: [&str; 8] = [
    "Welcome everyone, this thread lists the new moderators of the board as they join us.",
    "Anna joins the team and will look after the garden section from next week on.",
    "Bruno joins the team as well and takes care of the electronics section from now.",
    "Carla will moderate the astronomy section, many thanks to her for accepting this.",
    "David takes over the chemistry section while Emil moves to the physics section.",
    "Fatima joins to help with the health section, which has grown a lot this year.",
    "Georg will moderate the history section, a warm welcome to him from all of us.",
    "Hana joins the team for the mathematics section, thanks to her for the help.",
];

/// The expected line of a post.
fn line(author: &str, time: &str, message: usize) -> String {
    let words: Vec<&str> = MESSAGES[message].split_whitespace().take(3).collect();
    format!("{author} | {time} | {}", words.join(" "))
}

/// A post of a vBulletin 4 style list: the date in the header, the name in a bold span marked
/// `username` (no link), a rank, and the message below a title; `opening` adds the subject icon
/// and separator line that set the first post apart.
fn announcement_post(index: usize, day: usize, opening: bool) -> String {
    let title = if opening {
        "<h2 class=\"title icon\"><img src=\"/i/bulb.png\" alt=\"Bulb\"> New moderators</h2>\
         <br><div class=\"ad-slot\"></div><hr>"
    } else {
        "<h2 class=\"title icon\">Re: New moderators</h2>"
    };
    format!(
        "<li class=\"postcontainer\" id=\"post_{index}\"><div class=\"posthead\">\
         <span class=\"date\">2008-03-{day:02} 13:{index:02}</span> <span class=\"nodecontrols\">#{index}</span></div>\
         <div class=\"userinfo\"><span class=\"username\"><b>Yolanda</b></span>\
         <span class=\"rank\"><b>team lead</b></span><dl class=\"userinfo_extra\"><dt>Joined</dt>\
         <dd>January 2003</dd><dt>Posts</dt><dd>15 861</dd></dl></div>\
         <div class=\"postbody\">{title}<div class=\"content\"><blockquote class=\"postcontent\">{message}\
         </blockquote></div></div><div class=\"postfoot\"><span class=\"postcontrols\">\
         <img src=\"/progress.gif\" alt=\"\"></span><span class=\"postlinking\"></span></div><hr></li>",
        message = MESSAGES[index],
    )
}

/// An advertisement made like a post: a header with "today", a name box, and no message.
fn advertisement() -> String {
    "<li class=\"postcontainer\"><div class=\"posthead\"><span class=\"date\">today</span></div>\
     <div class=\"userinfo\"><span class=\"username\">Advertising</span></div>\
     <div class=\"postbody\"><div class=\"content\"><blockquote class=\"postcontent\">\
     <div class=\"ad-slot\"></div></blockquote></div></div></li>"
        .to_string()
}

#[test]
fn a_post_list_broken_by_advertisements_is_read_whole_with_its_one_author() {
    let mut items = vec![announcement_post(0, 1, true), advertisement()];
    items.extend((1..4).map(|index| announcement_post(index, index + 1, false)));
    items.push(advertisement());
    items.extend((4..8).map(|index| announcement_post(index, index + 1, false)));
    let html = page_titled(
        "New moderators",
        &format!("<ol id=\"posts\">{}</ol>", items.concat()),
    );
    let expected: Vec<String> = (0..8)
        .map(|index| {
            line(
                "Yolanda",
                &format!("2008-03-{:02}T13:{index:02}:00", index + 1),
                index,
            )
        })
        .collect();
    check(&html, &expected);
}

/// A reply of a question-and-answer page whose container's class numbers the post.
fn numbered_reply(index: usize, name: &str) -> String {
    format!(
        "<div class=\"resp_ctn post_ctn_{id}\"><div class=\"resp_header\">\
         <a href=\"/user/{user}\"><span itemprop=\"name\">{name}</span></a> \
         <time class=\"stamp\" datetime=\"2000-0{month}-1{index}T00:00:00Z\"></time></div>\
         <div class=\"resp_body\">{message}</div></div>",
        id = 700 + index,
        user = 40 + index,
        month = index + 1,
        message = MESSAGES[index],
    )
}

#[test]
fn a_post_made_like_the_others_after_a_page_marker_is_still_a_post() {
    let names = ["ann", "bob", "cid", "dee", "eve"];
    let mut items: Vec<String> = (0..4)
        .map(|index| numbered_reply(index, names[index]))
        .collect();
    items.push("<span class=\"pv_marker\" data-page=\"2\"></span>".to_string());
    items.push(numbered_reply(4, names[4]));
    let html = page(&format!("<div class=\"answers\">{}</div>", items.concat()));
    let expected: Vec<String> = (0..5)
        .map(|index| {
            line(
                names[index],
                &format!("2000-0{}-1{index}T00:00:00", index + 1),
                index,
            )
        })
        .collect();
    check(&html, &expected);
}

/// A phpBB 3 style post: the profile with the join date first, then the post time.
fn profile_first_post(index: usize, name: &str) -> String {
    format!(
        "<div class=\"post has-profile\"><div class=\"inner\"><dl class=\"postprofile\">\
         <dt><a href=\"./memberlist.php?mode=viewprofile&amp;u={user}\" class=\"username\">{name}</a></dt>\
         <dd class=\"profile-joined\"><strong>Joined:</strong> <span class=\"timestamp\">Thu Nov 17, 2011 6:12 am</span></dd>\
         </dl><div class=\"postbody\"><div id=\"post_content{index}\">\
         <p class=\"author\"><span class=\"timestamp\">Wed Aug 0{day}, 2019 6:5{index} am</span></p>\
         <div class=\"content\">{message}</div></div></div></div></div>",
        user = 300 + index,
        day = index + 1,
        message = MESSAGES[index],
    )
}

#[test]
fn a_first_post_rendered_apart_takes_its_time_from_the_records_time_column() {
    let names = ["pilot", "crew", "tower", "ramp", "gate"];
    let replies: String = (1..5)
        .map(|index| profile_first_post(index, names[index]))
        .collect();
    let html = page(&format!(
        "<div class=\"postlist\">{}<section class=\"banner\"><div id=\"ad\">Advertisement</div></section>\
         <div class=\"replies\">{replies}</div></div>",
        profile_first_post(0, names[0])
    ));
    let expected: Vec<String> = (0..5)
        .map(|index| {
            line(
                names[index],
                &format!("2019-08-0{}T06:5{index}:00", index + 1),
                index,
            )
        })
        .collect();
    check(&html, &expected);
}

/// A post of a community whose header lists the name, a badge for the thread's starter (so the
/// date of the starter's posts moves one item down), a rank and the date.
fn badge_post(index: usize, name: &str, starter: bool) -> String {
    let badge = if starter {
        "<li class=\"no-dot\"><span class=\"pill\">Author</span></li>"
    } else {
        ""
    };
    format!(
        "<div class=\"post box\" id=\"post{id}\"><ul class=\"meta\">\
         <li><a href=\"/members/{name}-{id}\" class=\"username\">{name}</a></li>{badge}\
         <li class=\"no-dot\"><span class=\"usertitle\">Bronze Theorist</span></li>\
         <li class=\"float-right\"><a href=\"#post{id}\" class=\"post__date\">\
         <time class=\"trigger\" datetime=\"2020-04-1{index}\">1 month ago</time></a></li></ul>\
         <div class=\"post__content\">{message}</div></div>",
        id = 41650 + index,
        message = MESSAGES[index],
    )
}

#[test]
fn a_badge_that_shifts_some_dates_does_not_lose_their_times() {
    let names = ["david", "flood", "david", "flood", "david", "flood"];
    let items: String = (0..6)
        .map(|index| badge_post(index, names[index], names[index] == "david"))
        .collect();
    let html = page(&format!("<div class=\"topic\">{items}</div>"));
    let expected: Vec<String> = (0..6)
        .map(|index| line(names[index], &format!("2020-04-1{index}T00:00:00"), index))
        .collect();
    check(&html, &expected);
}

/// A XenForo 2 style post with its time in the header and the time of its last edit by a
/// moderator below the message, years later: both columns are full and in order, and the edits
/// are the later ones.
fn edited_post(index: usize, name: &str) -> String {
    format!(
        "<article class=\"message\" id=\"js-post-{id}\"><div class=\"message-user\">\
         <a href=\"/members/{name}.{id}/\" class=\"username\">{name}</a></div>\
         <div class=\"message-main\"><ul class=\"message-attribution\"><li>\
         <a href=\"/threads/t.7/post-{id}\"><time class=\"u-dt\" datetime=\"2007-06-22T20:4{index}:00+0000\">Jun 22, 2007</time></a>\
         </li></ul><div class=\"message-body\">{message}</div>\
         <div class=\"message-lastEdit\">Last edited by a moderator: \
         <time class=\"u-dt\" datetime=\"2019-08-28T14:3{index}:00+0000\">Aug 28, 2019</time></div></div></article>",
        id = 5570 + index,
        message = MESSAGES[index],
    )
}

#[test]
fn the_time_of_the_last_edit_is_not_the_post_time() {
    let names = ["team", "lukas", "team", "team", "team"];
    let items: String = (0..5)
        .map(|index| edited_post(index, names[index]))
        .collect();
    let html = page(&format!("<div class=\"block-body\">{items}</div>"));
    let expected: Vec<String> = (0..5)
        .map(|index| line(names[index], &format!("2007-06-22T20:4{index}:00"), index))
        .collect();
    check(&html, &expected);
}

/// A post whose name links to the profile, or to `javascript:` when the member hides it.
fn hidden_profile_post(index: usize, name: &str, hidden: bool) -> String {
    let href = if hidden {
        "javascript:site.profileUnavailable();".to_string()
    } else {
        format!("/User-Dashboard/{name}")
    };
    format!(
        "<li class=\"discussion-post\" id=\"discussion-post-{id}\"><header>\
         <div class=\"meta-info\"><a href=\"{href}\" title=\"{name}\" class=\"PostUser\">{name}</a><br>\
         Nov 2{index}, 2019 8:1{index} AM</div></header>\
         <div class=\"discussion-post-body\">{message}</div></li>",
        id = 77360 + index,
        message = MESSAGES[index],
    )
}

#[test]
fn a_name_linked_nowhere_is_still_the_author() {
    let names = [
        "mechelles",
        "anywhere",
        "ErinNicole",
        "Navigator",
        "mechelles",
    ];
    let items: String = (0..5)
        .map(|index| hidden_profile_post(index, names[index], names[index] == "mechelles"))
        .collect();
    let html = page(&format!("<ul class=\"discussion-posts\">{items}</ul>"));
    let expected: Vec<String> = (0..5)
        .map(|index| {
            line(
                names[index],
                &format!("2019-11-2{index}T08:1{index}:00"),
                index,
            )
        })
        .collect();
    check(&html, &expected);
}

/// A short entry of a "similar threads" list: a title link, its starter and a date.
fn similar_thread(index: usize) -> String {
    format!(
        "<div class=\"similar\"><a href=\"/threads/other-{index}\">Printer queue {index}</a> \
         <span>by <a href=\"/members/m{index}\">m{index}</a></span> <span>2021-0{month}-02 10:00</span></div>",
        month = index + 1,
    )
}

/// A post of a plain list whose container also holds the "similar threads" entries.
fn plain_post(index: usize, name: &str) -> String {
    format!(
        "<div class=\"post\" id=\"p{index}\"><div class=\"head\"><a href=\"/members/{name}\" class=\"username\">{name}</a> \
         <span class=\"date\">2020-05-0{day} 09:1{index}</span></div>\
         <div class=\"body\"><p>{message}</p><p>{message}</p></div></div>",
        day = index + 1,
        message = MESSAGES[index],
    )
}

#[test]
fn short_dated_entries_beside_the_posts_are_not_posts() {
    let names = ["ann", "bob", "cid", "dee", "eve"];
    let mut items: Vec<String> = (0..5)
        .map(|index| plain_post(index, names[index]))
        .collect();
    items.extend((0..3).map(similar_thread));
    let html = page(&format!("<div class=\"thread\">{}</div>", items.concat()));
    let expected: Vec<String> = (0..5)
        .map(|index| {
            line(
                names[index],
                &format!("2020-05-0{}T09:1{index}:00", index + 1),
                index,
            )
        })
        .collect();
    check(&html, &expected);
}

/// Regression: a site header above the posts (the forum's name, menu links to the member list,
/// and "Last visit: <date>") was read as a first post shown apart, with no time, and every post
/// came out shifted by one. An element whose only date is labelled as a visit or join date is no
/// opening post.
#[test]
fn a_site_header_with_the_last_visit_is_no_first_post() {
    for (label, members) in [
        ("Last visit:", "Members"),
        ("Letzter Besuch:", "Mitglieder"),
        ("Dernière visite :", "Membres"),
    ] {
        let posts: String = [("anna", "12"), ("ben", "13"), ("carla", "14")]
            .iter()
            .map(|(name, day)| {
                format!(
                    "<article class=\"post\"><a href=\"/members/{name}/\">{name}</a> \
                     <time datetime=\"2025-03-{day}T10:15:00\">March {day}, 2025</time>\
                     <p>Message of {name} with words enough to be a post of its own here</p>\
                     </article>\n"
                )
            })
            .collect();
        let html = format!(
            "<html><body><header><a class=\"brand\" href=\"/\">Northwind Community Forums</a>\
             <nav><a href=\"/members/\">{members}</a> <a href=\"/search/\">Search</a></nav>\
             <p>{label} <time datetime=\"2025-12-29T12:50:25\">December 29, 2025</time></p>\
             </header><main><h1>A thread</h1>\n{posts}</main></body></html>"
        );
        check(
            &html,
            &[
                "anna | 2025-03-12T10:15:00 | Message of anna".to_string(),
                "ben | 2025-03-13T10:15:00 | Message of ben".to_string(),
                "carla | 2025-03-14T10:15:00 | Message of carla".to_string(),
            ],
        );
    }
}

/// A post over three table rows as old engines print it: the poster row (name in bold, join
/// date), the message row (with a signature under a rule when `signed`) and the footer row
/// (the date and buttons).
fn three_row_post(index: usize, name: &str, signed: bool) -> String {
    let signature = if signed {
        "<hr size=\"1\"><div class=\"signature\">Greetings from the garden.</div>"
    } else {
        ""
    };
    format!(
        "<tr><td class=\"poster\" colspan=\"2\"><b>{name}</b> <span class=\"small\">Posts: {posts}<br>\
         Registered: 2024-0{month}-11 09:00</span></td></tr>\
         <tr><td class=\"message\" colspan=\"2\"><div class=\"text\"><p>{message}</p></div>{signature}</td></tr>\
         <tr><td class=\"footer\">Reply #{index} on: 2025-12-{day:02} 1{index}:30</td><td class=\"footer\" align=\"right\">\
         <a href=\"/t.pl?num=7;r={index}\">Link</a> <a href=\"/t.pl?action=post;num=7;quote={index}\">Quote</a></td></tr>",
        posts = 10 + index * 13,
        month = 1 + index % 8,
        message = MESSAGES[index],
        day = 10 + index,
    )
}

#[test]
fn posts_over_three_rows_signed_every_other_time_are_read_one_by_one() {
    // Posts signed by turns make every other post resemble its predecessor less than the post
    // two before it: two posts, six rows, were taken for one record and every other post lost.
    let names = ["anna", "bruno", "carla", "david", "emil", "fatima"];
    let rows: String = names
        .iter()
        .enumerate()
        .map(|(index, name)| three_row_post(index, name, index % 2 == 0))
        .collect();
    let html = page(&format!(
        "<table class=\"bordercolor\" width=\"100%\"><tr><td class=\"titlebg\" colspan=\"2\">Topic: New moderators</td></tr>{rows}</table>"
    ));
    let expected: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(index, name)| {
            line(
                name,
                &format!("2025-12-{:02}T1{index}:30:00", 10 + index),
                index,
            )
        })
        .collect();
    check(&html, &expected);
}
