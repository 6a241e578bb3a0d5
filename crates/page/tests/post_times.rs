//! Post times and texts read by the whole analysis when the caller knows only the fetch instant,
//! as a crawler does: the forum's offset read from the page, one field spread over an element
//! and its child, a thread's first post carrying the title, signatures, and lone posts.

use std::collections::HashMap;

use jiff::Timestamp;
use trawl_page::analysis::{PageAnalysis, analyse, analyse_text, lone_record_posts};
use trawl_page::regions::single_record_candidates;
use trawl_page::time::DateContext;
use trawl_sim::{FamilyName, Route, Scale, Site, SiteConfig};
use url::Url;

/// The fetch instant of the handwritten pages: 03:40 UTC on the first of January 2026, which is
/// still the 31st of December on a forum five hours west.
const FETCHED_AT: &str = "2026-01-01T03:40:00Z";

fn context(offset: Option<i32>) -> DateContext {
    let fetched_at: Timestamp = FETCHED_AT.parse().expect("a valid instant");
    DateContext::new(fetched_at, offset)
}

fn analysed(html: &str, offset: Option<i32>) -> PageAnalysis {
    let url = Url::parse("http://forum.test/showthread.php?t=7").expect("a valid URL");
    analyse_text(html, "UTF-8", &url, &context(offset))
}

/// The minutes of the posts' times, in page order.
fn post_minutes(analysis: &PageAnalysis) -> Vec<String> {
    analysis
        .posts
        .iter()
        .map(|post| post.time.map_or_else(String::new, |time| time.to_iso8601()))
        .collect()
}

fn post_texts(analysis: &PageAnalysis) -> Vec<String> {
    analysis
        .posts
        .iter()
        .map(|post| post.text.clone())
        .collect()
}

/// One post of a table-layout thread page (the shape vBulletin 3 prints): a header row with the
/// date and the post number, the author cell with a join date, the message cell with an optional
/// subject above the message and an optional signature below it.
fn table_post(
    id: u32,
    date: &str,
    author: &str,
    subject: Option<&str>,
    message: &str,
    signature: Option<&str>,
) -> String {
    let subject = subject.map_or_else(String::new, |subject| {
        format!("<div class=\"smallfont\"><strong>{subject}</strong></div><hr />")
    });
    let signature = signature.map_or_else(String::new, |signature| {
        format!("<div>__________________<br />{signature}</div>")
    });
    format!(
        "<div id=\"edit{id}\"><table id=\"post{id}\" class=\"tborder\">\
         <tr><td class=\"thead\"><a name=\"post{id}\"></a> {date}</td>\
         <td class=\"thead\">#<a href=\"/showpost.php?p={id}\" id=\"postcount{id}\">{id}</a></td></tr>\
         <tr><td class=\"alt2\"><a href=\"/member.php?u={id}\" class=\"bigusername\">{author}</a>\
         <div class=\"smallfont\">Member</div><div class=\"smallfont\"><div>Join Date: Oct 2025</div>\
         <div>Posts: {id}</div></div></td>\
         <td class=\"alt1\" id=\"td_post_{id}\">{subject}<div id=\"post_message_{id}\">{message}</div>\
         {signature}</td></tr>\
         <tr><td class=\"alt2\">offline</td><td class=\"alt1\">\
         <a href=\"/newreply.php?do=newreply&amp;p={id}\">Quote</a></td></tr></table></div>\n"
    )
}

fn table_page(posts: &[String], footer: &str) -> String {
    format!(
        "<html><head><title>Router keeps dropping - Northwind Forums</title></head><body>\
         <div class=\"navbar\"><a href=\"/\">Northwind Forums</a> &gt; <strong>Router keeps dropping</strong></div>\
         <div id=\"posts\">{}</div>\
         <div class=\"smallfont\" align=\"center\">{footer}</div></body></html>",
        posts.concat()
    )
}

const MESSAGES: [&str; 3] = [
    "My router drops the connection every evening around ten, and only a restart helps.",
    "Have you tried another channel? Mine did the same until I moved off channel six.",
    "Firmware 2.1 fixed it here, the old one leaked memory until the box gave up.",
];

fn relative_dates_page(footer: &str) -> String {
    let dates = [
        "12-30-2025, 09:00 PM",
        "Yesterday, 08:11 AM",
        "Today, 10:32 PM",
    ];
    let authors = ["Oakwen", "Dilen", "Maxko"];
    let posts: Vec<String> = (0..3)
        .map(|index| {
            table_post(
                index as u32 + 1,
                dates[index],
                authors[index],
                None,
                MESSAGES[index],
                None,
            )
        })
        .collect();
    table_page(&posts, footer)
}

#[test]
fn relative_dates_are_resolved_on_the_clock_the_page_states() {
    let on_forum_clock = ["2025-12-30T21:00", "2025-12-30T08:11", "2025-12-31T22:32"];
    let on_utc = ["2025-12-30T21:00", "2025-12-31T08:11", "2026-01-01T22:32"];
    // (footer, offset the caller knows, expected post times, offset the analysis used)
    type Case<'a> = (&'a str, Option<i32>, [&'a str; 3], Option<i32>);
    let cases: [Case<'_>; 6] = [
        (
            "All times are GMT -5. The time now is 10:40 PM.",
            None,
            on_forum_clock,
            Some(-5 * 3600),
        ),
        (
            "All times are GMT -5.",
            None,
            on_forum_clock,
            Some(-5 * 3600),
        ),
        // vBulletin's clock alone: 22:40 shown at 03:40 UTC is five hours west.
        (
            "The time now is 10:40 PM.",
            None,
            on_forum_clock,
            Some(-5 * 3600),
        ),
        // A page that says nothing is read on UTC, as before.
        ("Powered by vBulletin", None, on_utc, None),
        // A caller that knows the offset is trusted over the page.
        (
            "All times are GMT.",
            Some(-5 * 3600),
            on_forum_clock,
            Some(-5 * 3600),
        ),
        ("All times are GMT -5.", Some(0), on_utc, Some(0)),
    ];
    for (footer, known, expected, used) in cases {
        let analysis = analysed(&relative_dates_page(footer), known);
        assert_eq!(post_minutes(&analysis), expected, "footer {footer:?}");
        assert_eq!(
            analysis.date_context.utc_offset_seconds, used,
            "footer {footer:?}"
        );
        assert_eq!(post_texts(&analysis), MESSAGES, "footer {footer:?}");
    }
}

/// One post of a Discuz!-like page: the author's join date in a side column, the post time as
/// text for old posts and as a relative phrase in an element titled with the exact time for
/// recent ones.
fn discuz_post(id: u32, joined: &str, posted: &str, message: &str) -> String {
    format!(
        "<div id=\"post_{id}\"><table id=\"pid{id}\" class=\"plhin\"><tr>\
         <td class=\"pls\"><div class=\"authi\"><a href=\"/space-uid-{id}.html\" class=\"xw1\">user{id}</a></div>\
         <dl class=\"pil\"><dt>注册时间</dt><dd>{joined}</dd></dl></td>\
         <td class=\"plc\"><div class=\"pi\"><strong><a href=\"/forum.php?mod=redirect&amp;pid={id}\">#{id}</a></strong>\
         <div class=\"authi\"><em id=\"authorposton{id}\">发表于 {posted}</em></div></div>\
         <div class=\"pct\"><table><tr><td class=\"t_f\" id=\"postmessage_{id}\">{message}</td></tr></table></div>\
         </td></tr></table></div>\n"
    )
}

#[test]
fn one_time_field_spread_over_an_element_and_its_child_is_one_column() {
    let recent = "<span title=\"2025-12-27 16:42:01\">5&nbsp;天前</span>";
    // (posts as (join date, post time), expected post times)
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str]);
    let cases: [Case<'_>; 3] = [
        (
            &[("2025-11-4", "2025-11-20 13:37"), ("2025-10-24", recent)],
            &["2025-11-20T13:37", "2025-12-27T16:42:01"],
        ),
        (
            &[
                ("2025-11-4", "2025-11-20 13:37"),
                ("2025-10-24", "2025-11-21 09:05"),
                ("2025-9-2", recent),
            ],
            &[
                "2025-11-20T13:37",
                "2025-11-21T09:05",
                "2025-12-27T16:42:01",
            ],
        ),
        (
            &[("2025-11-4", recent), ("2025-10-24", recent)],
            &["2025-12-27T16:42:01", "2025-12-27T16:42:01"],
        ),
    ];
    let messages = [
        "可以问题还是充电一直旅游还是工作已经网络真的。一直运动可以硬盘。",
        "没有系统所以鼠标有点汽车没有学习还是升级你们。怎么服务大家？",
        "你们内存希望时间不能老师那个问题这个足球你们城市比较天气。",
    ];
    for (posts, expected) in cases {
        let records: Vec<String> = posts
            .iter()
            .enumerate()
            .map(|(index, (joined, posted))| {
                discuz_post(index as u32 + 1, joined, posted, messages[index])
            })
            .collect();
        let html = format!(
            "<html><head><title>问题 - 论坛</title></head><body><div id=\"postlist\">{}</div>\
             <div id=\"ft\">GMT+8, 2026-1-1 11:40</div></body></html>",
            records.concat()
        );
        let analysis = analysed(&html, Some(8 * 3600));
        assert_eq!(post_minutes(&analysis), expected);
    }
}

#[test]
fn a_first_post_with_the_thread_title_above_its_message_gives_the_message() {
    let title = "Router keeps dropping";
    let signature = "Slow idea needs cooler is patch this tab, and more words of it.";
    // (posts as (subject, signature), for the three messages in order)
    type Shape<'a> = &'a [(Option<&'a str>, Option<&'a str>)];
    let cases: [Shape<'_>; 5] = [
        &[(Some(title), Some(signature)), (None, Some(signature))],
        &[(Some(title), None), (None, None), (None, None)],
        &[
            (Some(title), Some(signature)),
            (None, None),
            (None, Some(signature)),
        ],
        // Replies may repeat the subject with "Re: ".
        &[
            (Some(title), None),
            (Some("Re: Router keeps dropping"), None),
        ],
        &[
            (None, Some(signature)),
            (None, Some(signature)),
            (None, None),
        ],
    ];
    for shape in cases {
        let posts: Vec<String> = shape
            .iter()
            .enumerate()
            .map(|(index, (subject, signature))| {
                table_post(
                    index as u32 + 1,
                    "12-30-2025, 09:00 PM",
                    ["Oakwen", "Dilen", "Maxko"][index],
                    *subject,
                    MESSAGES[index],
                    *signature,
                )
            })
            .collect();
        let analysis = analysed(&table_page(&posts, "All times are GMT -5."), None);
        assert_eq!(
            post_texts(&analysis),
            MESSAGES[..shape.len()],
            "shape {shape:?}"
        );
    }
}

/// A thread page of one post in the SMF layout: a profile column with the join date as a full
/// date, the subject and post time above the message, and a bar below it with a "saved" label
/// and a signature marked by its class.
fn lone_post_page(message: &str) -> String {
    format!(
        "<html><head><title>Wird Sommer funktioniert</title></head><body><div id=\"forumposts\">\
         <h3 class=\"catbg\">Thema: Wird Sommer funktioniert</h3>\
         <div class=\"windowbg\" id=\"msg974\"><div class=\"post_wrapper\">\
         <div class=\"poster\"><h4><a href=\"/index.php?action=profile;u=56\">Oakwen56</a></h4>\
         <ul class=\"reset smalltext\"><li class=\"postcount\">Beiträge: 240</li>\
         <li class=\"joined\">Registriert: 10. August 2025</li></ul></div>\
         <div class=\"postarea\"><div class=\"keyinfo\">\
         <h5 id=\"subject_974\"><a href=\"/index.php?topic=106.msg974#msg974\">Wird Sommer funktioniert</a></h5>\
         <div class=\"smalltext\">&#171; <strong>am:</strong> 04. Dezember 2025, 20:16:39 &#187;</div></div>\
         <div class=\"post\"><div class=\"inner\" id=\"msg_974\">{message}</div></div></div>\
         <div class=\"moderatorbar\"><div class=\"smalltext reportlinks\">Gespeichert</div>\
         <div class=\"signature\" id=\"msg_974_signature\">Leise Frage startet Konto war Speicher ein \
         Einstellung, und noch mehr Worte der Signatur.</div></div></div></div></div>\
         <div class=\"footer\">Alle Zeiten sind UTC+01:00</div></body></html>"
    )
}

#[test]
fn a_lone_post_gets_its_own_time_and_message_not_the_join_date_or_signature() {
    let messages = [
        "Ein Ofen gleich Gitarre nach Lieferung die Lösung nie Wand immer.",
        "Danke, das hat bei mir geholfen.",
        "Ein längerer Beitrag über den Router, der jeden Abend die Verbindung verliert, \
         und erst ein Neustart hilft wieder.",
    ];
    for message in messages {
        let analysis = analysed(&lone_post_page(message), None);
        let record = single_record_candidates(&analysis.document)
            .into_iter()
            .find(|candidate| {
                candidate.width == 1
                    && analysis.document.attribute(candidate.first, "id") == Some("msg974")
            })
            .expect("the post is a candidate record");
        let posts = lone_record_posts(&analysis, &record, &context(None));
        let read: Vec<(Option<String>, String, Option<String>)> = posts
            .iter()
            .map(|post| {
                (
                    post.time.map(|time| time.to_iso8601()),
                    post.text.clone(),
                    post.author.clone(),
                )
            })
            .collect();
        assert_eq!(
            read,
            [(
                Some("2025-12-04T20:16:39".to_string()),
                message.to_string(),
                Some("Oakwen56".to_string())
            )],
            "message {message:?}"
        );
    }
}

fn normalised(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reads every thread page of a simulated forum as a crawler does (no offset known; a page of
/// one post read through the pattern its other thread pages showed) and returns the share of the
/// forum's posts found with the minute the forum shows.
fn share_with_right_time(family: FamilyName, seed: u64) -> f64 {
    let site = Site::build(SiteConfig::new(family, seed, Scale::Small));
    let at = site.history().end;
    let mut truth: HashMap<String, String> = HashMap::new();
    site.for_each_post_truth(at, |post| {
        let minute = post.created.get(..16).unwrap_or(&post.created).to_string();
        truth.insert(normalised(&post.text), minute);
    });
    let mut paths = Vec::new();
    site.for_each_address(at, |address| {
        if matches!(address.route, Route::Thread { .. }) && address.variant.is_canonical() {
            paths.push(site.url_of(&address));
        }
    });
    let context = DateContext::new(Timestamp::from_second(at).expect("a valid instant"), None);
    let analyses: Vec<PageAnalysis> = paths
        .iter()
        .map(|path| {
            let answer = site.serve(path, at, None);
            let content_type = answer.header("Content-Type");
            let url = Url::parse(&format!("http://forum.test{path}")).expect("a valid URL");
            analyse(&answer.body, content_type, &url, &context)
        })
        .collect();
    let mut post_patterns: Vec<u64> = Vec::new();
    for analysis in &analyses {
        for post in &analysis.posts {
            if let Some(region) = analysis
                .regions
                .iter()
                .find(|region| region.records.contains(&post.node))
                && !post_patterns.contains(&region.pattern)
            {
                post_patterns.push(region.pattern);
            }
        }
    }
    let mut right: Vec<&String> = Vec::new();
    for analysis in &analyses {
        let posts = if analysis.posts.is_empty() {
            single_record_candidates(&analysis.document)
                .into_iter()
                .filter(|candidate| post_patterns.contains(&candidate.pattern))
                .max_by(|first, second| first.text_share.total_cmp(&second.text_share))
                .map(|record| lone_record_posts(analysis, &record, &context))
                .unwrap_or_default()
        } else {
            analysis.posts.clone()
        };
        for post in posts {
            let Some((text, minute)) = truth.get_key_value(&normalised(&post.text)) else {
                continue;
            };
            if post
                .time
                .map(|time| time.to_iso8601())
                .as_deref()
                .and_then(|t| t.get(..16))
                == Some(minute.as_str())
            {
                right.push(text);
            }
        }
    }
    right.sort_unstable();
    right.dedup();
    right.len() as f64 / truth.len().max(1) as f64
}

#[test]
fn simulated_forums_with_relative_dates_are_read_on_their_own_clock() {
    // vBulletin prints "Today" and "Yesterday" five hours west of UTC and the thread title above
    // the first post; Discuz! mixes plain and relative dates in one field. Before the forum's
    // offset was read from the page, 87 % and 98.3 % of their posts had the right minute.
    for family in [FamilyName::Vbulletin, FamilyName::Discuz] {
        let share = share_with_right_time(family, 1);
        assert!(
            share >= 0.995,
            "{}: {:.2} % of posts with the right time",
            family.name(),
            share * 100.0
        );
    }
}

/// The times of three table posts dated `dates`, read by the whole analysis.
fn minutes_of_dated_posts(dates: [&str; 3]) -> Vec<String> {
    let posts: Vec<String> = dates
        .iter()
        .enumerate()
        .map(|(index, date)| {
            table_post(
                index as u32 + 1,
                date,
                ["alice", "bob", "carol"][index],
                None,
                MESSAGES[index],
                None,
            )
        })
        .collect();
    post_minutes(&analysed(
        &table_page(&posts, "Powered by a forum"),
        Some(0),
    ))
}

#[test]
fn one_day_first_date_anywhere_on_the_page_settles_the_order_of_the_others() {
    // "28/02/2007" can only be day first, so the other posts' "06/02/2008" is the 6th of
    // February, though each element alone would read month first.
    assert_eq!(
        minutes_of_dated_posts([
            "28/02/2007, 13:20",
            "06/02/2008, 17:13",
            "11/02/2008, 16:32"
        ]),
        ["2007-02-28T13:20", "2008-02-06T17:13", "2008-02-11T16:32"]
    );
    // Nothing proves the order: the month-first default stands.
    assert_eq!(
        minutes_of_dated_posts([
            "02/01/2008, 13:20",
            "06/02/2008, 17:13",
            "11/02/2008, 16:32"
        ]),
        ["2008-02-01T13:20", "2008-06-02T17:13", "2008-11-02T16:32"]
    );
    // A month-first proof ("12/28/2007") keeps the month-first reading.
    assert_eq!(
        minutes_of_dated_posts([
            "12/28/2007, 13:20",
            "01/02/2008, 17:13",
            "01/03/2008, 16:32"
        ]),
        ["2007-12-28T13:20", "2008-01-02T17:13", "2008-01-03T16:32"]
    );
}

/// One post of a thread page whose author box shows `joined` (markup around a join date, `{}`
/// where the date goes) and whose header shows `posted` (empty for a page that prints no post
/// times, as some archives and printable views do).
fn post_with_author_box(index: usize, joined: &str, posted: &str) -> String {
    let author = ["alice", "bob", "carol"][index];
    let joined = joined.replace("{}", ["04.02.2015", "17.09.2011", "23.06.2019"][index]);
    format!(
        "<div class=\"post\" id=\"p{index}\"><div class=\"author-box\">\
         <a href=\"/members/{author}.{index}/\">{author}</a><div>Posts: {index}2</div>{joined}</div>\
         <div class=\"post-header\"><a href=\"#p{index}\">#{index}</a> {posted}</div>\
         <div class=\"message\">{}</div></div>",
        MESSAGES[index]
    )
}

/// The times the whole analysis gives the three posts of a page made of
/// [`post_with_author_box`] posts, `None` for a post without one.
fn times_beside_join_dates(joined: &str, posted: [&str; 3]) -> Vec<Option<String>> {
    let posts: String = (0..3)
        .map(|index| post_with_author_box(index, joined, posted[index]))
        .collect();
    let html = format!(
        "<html><head><title>Router keeps dropping</title></head><body>\
         <div class=\"nav\"><a href=\"/\">Forum</a> <a href=\"/members/\">Members</a></div>\
         <div id=\"posts\">{posts}</div><div class=\"footer\">Powered by a forum</div></body></html>"
    );
    analysed(&html, Some(0))
        .posts
        .iter()
        .map(|post| post.time.map(|time| time.to_iso8601()))
        .collect()
}

#[test]
fn a_date_labelled_as_the_join_date_is_never_the_post_time() {
    const NO_POST_TIMES: [&str; 3] = ["", "", ""];
    // The page prints no post times: the join dates, in order here, would pass for a time
    // column; the label or class before them says what they are, so the posts have no time.
    for joined in [
        "<div>Joined: {}</div>",
        "<div>Registriert seit {}</div>",
        "<dl><dt>Inscrit le</dt><dd>{}</dd></dl>",
        "<div><strong>Member since:</strong> <span>{}</span></div>",
        "<div class=\"user-joindate\">{}</div>",
    ] {
        assert_eq!(
            times_beside_join_dates(joined, NO_POST_TIMES),
            [None, None, None],
            "{joined}"
        );
    }
    // The same markup without a label is the only date each post shows, and its column is read
    // as the post times.
    assert_eq!(
        times_beside_join_dates("<div>{}</div>", NO_POST_TIMES),
        [
            Some("2015-02-04".to_string()),
            Some("2011-09-17".to_string()),
            Some("2019-06-23".to_string())
        ]
    );
    // Post times beside labelled join dates are found as before.
    assert_eq!(
        times_beside_join_dates(
            "<div>Joined: {}</div>",
            [
                "05.03.2020, 10:15",
                "05.03.2020, 11:20",
                "06.03.2020, 09:05"
            ]
        ),
        [
            Some("2020-03-05T10:15".to_string()),
            Some("2020-03-05T11:20".to_string()),
            Some("2020-03-06T09:05".to_string())
        ]
    );
}
