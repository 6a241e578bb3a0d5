//! The first six engine layouts, in English with four posts by four authors: Invision
//! Community, MyBB, Khoros (Lithium), vBulletin 5, phpBB 2 and Discourse's page for crawlers.

use crate::check::{EnginePage, Wanted, check as check_page};

/// The four authors: a display name and a user id.
const AUTHORS: [(&str, u32); 4] = [("Alice", 11), ("bob_k", 22), ("Carol D", 33), ("dave", 44)];

/// The posts' times: ISO 8601 in UTC, US numeric with a twelve-hour clock, and words.
const TIMES: [(&str, &str, &str); 4] = [
    (
        "2020-03-12T10:15:00Z",
        "03/12/2020 10:15 AM",
        "March 12, 2020",
    ),
    (
        "2020-03-13T11:20:00Z",
        "03/13/2020 11:20 AM",
        "March 13, 2020",
    ),
    (
        "2020-03-14T09:05:00Z",
        "03/14/2020 09:05 AM",
        "March 14, 2020",
    ),
    (
        "2020-03-15T22:40:00Z",
        "03/15/2020 10:40 PM",
        "March 15, 2020",
    ),
];

const MESSAGES: [&str; 4] = [
    "The router drops the connection every evening at about eight, and only a restart helps.",
    "Same here since the last firmware. Did you try turning off the power saving mode?",
    "Power saving was the culprit for me too; after switching it off it has run for a week.",
    "Thanks, that fixed it. Marking this as solved for anyone who finds it later.",
];

/// Reads the four posts of `layout` through the shared check, each with its whole message.
fn check(layout: &str, posts: String, expected: [Wanted; 4]) {
    check_page(
        EnginePage {
            engine: layout,
            url: "https://forum.example/topic/9/",
            language: "en",
            title: "Router drops - Example Forum",
            body: format!("<h1>Router drops</h1>{posts}"),
        },
        &expected,
    );
}

fn expected(author: impl Fn(usize) -> String, time: impl Fn(usize) -> String) -> [Wanted; 4] {
    [0, 1, 2, 3].map(|index| Wanted::new(author(index), time(index), MESSAGES[index]))
}

#[test]
fn invision_community() {
    let posts: String = (0..4)
        .map(|index| {
            let ((name, id), (iso, shown, words)) = (AUTHORS[index], TIMES[index]);
            format!(
                "<article id=\"elComment_{index}\" class=\"cPost ipsBox ipsComment ipsClearfix\">\
                 <aside class=\"ipsComment_author cAuthorPane\"><h3 class=\"cAuthorPane_author\">\
                 <strong><a href=\"https://forum.example/profile/{id}-{name}/\" class=\"ipsType_break\">{name}</a>\
                 </strong></h3><ul class=\"cAuthorPane_info\"><li>Members</li><li>{id} posts</li></ul></aside>\
                 <div class=\"ipsColumn_fluid\"><div class=\"ipsComment_meta\">\
                 <a href=\"https://forum.example/topic/9/?do=findComment&amp;comment={index}\">Posted \
                 <time datetime=\"{iso}\" title=\"{shown}\">{words}</time></a></div>\
                 <div data-role=\"commentContent\" class=\"ipsType_richText\"><p>{}</p></div>\
                 <ul class=\"ipsComment_controls\"><li><a href=\"#\">Quote</a></li></ul></div></article>",
                MESSAGES[index]
            )
        })
        .collect();
    check(
        "Invision",
        format!("<div id=\"comments\">{posts}</div>"),
        expected(
            |index| {
                let (name, id) = AUTHORS[index];
                format!("https://forum.example/profile/{id}-{name}/")
            },
            |index| TIMES[index].0.replace('Z', "+00:00"),
        ),
    );
}

#[test]
fn mybb() {
    let posts: String = (0..4)
        .map(|index| {
            let ((name, id), (_, shown, _)) = (AUTHORS[index], TIMES[index]);
            // MyBB prints "03-12-2020, 10:15 AM".
            let (day, clock) = shown.split_once(' ').expect("a date and a clock");
            let date = format!("{}, {clock}", day.replace('/', "-"));
            format!(
                "<div class=\"post\" id=\"post_{index}\"><div class=\"post_author\">\
                 <div class=\"author_avatar\"><a href=\"member.php?action=profile&amp;uid={id}\"><img src=\"a.png\" alt=\"\"></a></div>\
                 <div class=\"author_information\"><strong><span class=\"largetext\">\
                 <a href=\"member.php?action=profile&amp;uid={id}\">{name}</a></span></strong><br>\
                 <span class=\"smalltext\">Junior Member</span></div>\
                 <div class=\"author_statistics\">Posts: {id}<br>Joined: Jan 2019<br>Reputation: 0</div></div>\
                 <div class=\"post_content\"><div class=\"post_head\"><div class=\"float_right\"><strong>\
                 <a href=\"showthread.php?tid=9&amp;pid={index}#pid{index}\">#{}</a></strong></div>\
                 <span class=\"post_date\">{date} <span class=\"post_edit\" id=\"edited_by_{index}\"></span></span></div>\
                 <div class=\"post_body\" id=\"pid_{index}\">{}</div></div>\
                 <div class=\"post_controls\"><a href=\"search.php?action=finduser&amp;uid={id}\" class=\"postbit_find\">Find</a>\
                 <a href=\"newreply.php?tid=9&amp;replyto={index}\" class=\"postbit_quote\">Reply</a></div></div>",
                index + 1,
                MESSAGES[index]
            )
        })
        .collect();
    check(
        "MyBB",
        format!("<div id=\"posts\">{posts}</div>"),
        expected(
            |index| format!("member.php?action=profile&uid={}", AUTHORS[index].1),
            |index| TIMES[index].0[..16].to_string(),
        ),
    );
}

#[test]
fn khoros() {
    let posts: String = (0..4)
        .map(|index| {
            let ((name, id), (_, shown, _)) = (AUTHORS[index], TIMES[index]);
            let (day, clock) = shown.split_once(' ').expect("a date and a clock");
            // Khoros names the element of every post's date "post-date-last-edited", since the
            // same component adds the edit time when there is one.
            format!(
                "<div class=\"lia-message-view-display\" id=\"M{index}\">\
                 <div class=\"lia-message-author-avatar\"><a class=\"UserAvatar\" href=\"/t5/user/viewprofilepage/user-id/{id}\">\
                 <img src=\"/a.png\"></a></div><div class=\"lia-message-author-with-avatar\"><span class=\"UserName\">\
                 <a class=\"lia-user-name-link\" href=\"/t5/user/viewprofilepage/user-id/{id}\"><span>{name}</span></a></span></div>\
                 <div class=\"lia-message-author-rank\">Regular Contributor</div>\
                 <div class=\"lia-message-post-date lia-component-post-date-last-edited\"><span class=\"DateTime\">\
                 <span class=\"local-date\">&lrm;{}</span> <span class=\"local-time\">{clock}</span></span></div>\
                 <div class=\"lia-message-body-content\"><p>{}</p></div>\
                 <div class=\"lia-message-footer\"><a href=\"/topic/9/m-p/{index}#M{index}\">Message {} of 4</a></div></div>",
                day.replace('/', "-"),
                MESSAGES[index],
                index + 1
            )
        })
        .collect();
    check(
        "Khoros",
        format!("<div class=\"lia-thread\">{posts}</div>"),
        expected(
            |index| format!("/t5/user/viewprofilepage/user-id/{}", AUTHORS[index].1),
            |index| TIMES[index].0[..16].to_string(),
        ),
    );
}

#[test]
fn vbulletin_5() {
    let posts: String = (0..4)
        .map(|index| {
            let ((name, id), (iso, _, words)) = (AUTHORS[index], TIMES[index]);
            format!(
                "<li class=\"b-post js-post\" data-node-id=\"{index}\"><div class=\"b-userinfo\" data-userid=\"{id}\">\
                 <div class=\"b-avatar\"><a href=\"https://forum.example/member/{id}-{name}\"><img src=\"/a.png\"></a></div>\
                 <div class=\"author\"><strong><a href=\"https://forum.example/member/{id}-{name}\">{name}</a></strong></div>\
                 <ul><li><label>Join Date:</label> <span>Jan 2019</span></li><li><label>Posts:</label> <span>{id}</span></li></ul></div>\
                 <div class=\"b-post__body\"><div class=\"b-post__timestamp\"><time datetime=\"{iso}\">{words}</time></div>\
                 <div class=\"b-post__count\"><a href=\"https://forum.example/topic/9/?p={index}#post{index}\">#{}</a></div>\
                 <div class=\"js-post__content-text\">{}</div></div></li>",
                index + 1,
                MESSAGES[index]
            )
        })
        .collect();
    check(
        "vBulletin 5",
        format!("<ul class=\"conversation-list\">{posts}</ul>"),
        expected(
            |index| {
                let (name, id) = AUTHORS[index];
                format!("https://forum.example/member/{id}-{name}")
            },
            |index| TIMES[index].0.replace('Z', "+00:00"),
        ),
    );
}

#[test]
fn phpbb_2_with_posts_over_three_table_rows() {
    const SHOWN: [&str; 4] = [
        "Thu Mar 12, 2020 10:15 am",
        "Fri Mar 13, 2020 11:20 am",
        "Sat Mar 14, 2020 9:05 am",
        "Sun Mar 15, 2020 10:40 pm",
    ];
    let posts: String = (0..4)
        .map(|index| {
            let (name, id) = AUTHORS[index];
            let row = 1 + index % 2;
            // The name is bold text; the profile link is an image button in the post's last row.
            format!(
                "<tr><td class=\"row{row}\" valign=\"top\"><span class=\"name\"><a name=\"{index}\"></a><b>{name}</b></span><br>\
                 <span class=\"postdetails\">Joined: 12 Jan 2019<br>Posts: {id}</span></td>\
                 <td class=\"row{row}\"><table width=\"100%\"><tr><td width=\"100%\">\
                 <a href=\"viewtopic.php?p={index}#{index}\"><img src=\"icon_minipost.gif\" alt=\"Post\"></a>\
                 <span class=\"postdetails\">Posted: {}&nbsp; &nbsp;Post subject: Re: Router drops</span></td>\
                 <td nowrap><a href=\"posting.php?mode=quote&amp;p={index}\"><img src=\"q.gif\" alt=\"Reply with quote\"></a></td></tr>\
                 <tr><td colspan=\"2\"><hr></td></tr><tr><td colspan=\"2\"><span class=\"postbody\">{}</span></td></tr></table></td></tr>\
                 <tr><td class=\"row{row}\"><a href=\"#top\" class=\"nav\">Back to top</a></td>\
                 <td class=\"row{row}\"><a href=\"profile.php?mode=viewprofile&amp;u={id}\"><img src=\"p.gif\" alt=\"View user's profile\"></a></td></tr>\
                 <tr><td class=\"spaceRow\" colspan=\"2\"><img src=\"spacer.gif\" alt=\"\"></td></tr>",
                SHOWN[index],
                MESSAGES[index]
            )
        })
        .collect();
    check(
        "phpBB 2",
        format!("<table class=\"forumline\">{posts}</table>"),
        expected(
            |index| AUTHORS[index].0.to_string(),
            |index| TIMES[index].0[..16].to_string(),
        ),
    );
}

#[test]
fn discourse_page_for_crawlers() {
    let posts: String = (0..4)
        .map(|index| {
            let ((name, _), (iso, _, words)) = (AUTHORS[index], TIMES[index]);
            format!(
                "<div id=\"post_{}\" itemprop=\"comment\" itemscope itemtype=\"http://schema.org/Comment\" class=\"topic-body crawler-post\">\
                 <div class=\"crawler-post-meta\"><span class=\"creator\" itemprop=\"author\" itemscope itemtype=\"http://schema.org/Person\">\
                 <a itemprop=\"url\" href=\"https://forum.example/u/{name}\"><span itemprop=\"name\">{name}</span></a></span>\
                 <span class=\"crawler-post-infos\"><time itemprop=\"datePublished\" datetime=\"{iso}\" class=\"post-time\">{words}</time>\
                 <meta itemprop=\"position\" content=\"{}\"></span></div>\
                 <div class=\"post\" itemprop=\"text\"><p>{}</p></div>\
                 <span class=\"post-likes\">{index} Likes</span></div>",
                index + 1,
                index + 1,
                MESSAGES[index]
            )
        })
        .collect();
    check(
        "Discourse",
        format!("<div class=\"post-stream\">{posts}</div>"),
        expected(
            |index| format!("https://forum.example/u/{}", AUTHORS[index].0),
            |index| TIMES[index].0.replace('Z', "+00:00"),
        ),
    );
}
