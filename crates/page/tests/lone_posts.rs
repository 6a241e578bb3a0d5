//! Pages read alone whose thread shows one post: the post is found by what a post is made of
//! (an author, its date, a message that is most of its text), on every simulated engine family
//! and on handwritten pages; a login wall, a profile and a member list give no post.

mod common;

use jiff::Timestamp;
use trawl_page::analysis::analyse_text;
use trawl_page::time::DateContext;
use trawl_sim::truth::PostTruth;
use trawl_sim::{FamilyName, Route, Scale, Site, SiteConfig};
use url::Url;

use common::analyse_page;

/// Text with runs of white space made one space.
fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every thread page of `family` (seed 41) that holds exactly one post, with that post.
fn one_post_pages(family: FamilyName) -> (Site, Vec<(String, PostTruth)>) {
    let site = Site::build(SiteConfig::new(family, 41, Scale::Small));
    let at = site.history().end;
    let mut by_page: Vec<(String, Vec<PostTruth>)> = Vec::new();
    site.for_each_post_truth(at, |post| {
        match by_page.iter_mut().find(|(page, _)| *page == post.page) {
            Some((_, posts)) => posts.push(post),
            None => by_page.push((post.page.clone(), vec![post])),
        }
    });
    let pages = by_page
        .into_iter()
        .filter(|(_, posts)| posts.len() == 1)
        .map(|(page, mut posts)| (page, posts.remove(0)))
        .collect();
    (site, pages)
}

/// On the one-post pages of `family`, the page alone must give exactly its post, with the text,
/// author and minute the truth has, on at least `expected_right` pages (the figures measured
/// when the lone-post reading came; before it, none); `expected_pages` pins how many such pages
/// the seed makes, so that a change in the simulator cannot empty the test. The pages missed are
/// short messages beside a post's fields: a lone record gives no other post to tell fields
/// from message, and a looser share would take profile pages for posts.
fn check_family(family: FamilyName, expected_pages: usize, expected_right: usize) {
    let (site, pages) = one_post_pages(family);
    assert_eq!(pages.len(), expected_pages, "{family:?}: one-post pages");
    let mut right = 0;
    let mut wrong = Vec::new();
    for (path, truth) in &pages {
        let analysis = analyse_page(&site, path);
        let found = match analysis.posts.as_slice() {
            [post] => {
                normalise(&post.text) == normalise(&truth.text)
                    && post.author.as_deref() == Some(truth.author.as_str())
                    && post
                        .time
                        .map(|time| time.local.to_string())
                        .as_deref()
                        .and_then(|s| s.get(..16))
                        == truth.created.get(..16)
            }
            _ => false,
        };
        if found {
            right += 1;
        } else {
            wrong.push(path.clone());
        }
    }
    assert!(
        right >= expected_right,
        "{family:?}: {right} of {} one-post pages read right, {expected_right} expected; wrong: {wrong:?}",
        pages.len()
    );
}

#[test]
fn one_post_pages_give_their_post_on_every_family() {
    let cases = [
        (FamilyName::Phpbb, 36, 34),
        (FamilyName::Vbulletin, 46, 34),
        (FamilyName::Discuz, 45, 41),
        (FamilyName::Smf, 36, 31),
        (FamilyName::Xenforo, 34, 33),
        (FamilyName::Discourse, 36, 35),
        (FamilyName::Tablecraft, 31, 31),
    ];
    for (family, expected_pages, expected_right) in cases {
        check_family(family, expected_pages, expected_right);
    }
}

/// Pages of kinds that hold no post and show a notice beside the header's clock and menus (login
/// walls and the login form) must give none.
#[test]
fn pages_holding_no_post_give_none_on_every_family() {
    for family in FamilyName::ALL {
        let site = Site::build(SiteConfig::new(family, 41, Scale::Small));
        let at = site.history().end;
        let mut paths: Vec<String> = Vec::new();
        site.for_each_address(at, |address| {
            let wanted = matches!(address.route, Route::Action { .. } | Route::Login { .. });
            if wanted && address.variant.is_canonical() {
                paths.push(site.url_of(&address));
            }
        });
        assert!(paths.len() >= 10, "{family:?}: {} pages", paths.len());
        for path in paths.iter().step_by(paths.len() / 10) {
            let analysis = analyse_page(&site, path);
            assert!(
                analysis.posts.is_empty(),
                "{family:?} {path}: {:?}",
                analysis.posts.first().map(|post| &post.text)
            );
        }
    }
}

/// Reads a handwritten page and gives its posts as (author, time, text).
fn check(body: &str, expected: &[(&str, &str, &str)]) {
    let html = format!(
        "<html><head><title>Router keeps dropping - Northwind</title></head><body>\
         <div id=header><a href=/index.php>Northwind</a> <span>It is currently Thu Jan 1, 2026 1:00 am</span>\
         <ul class=menu><li><a href=/memberlist.php>Members</a></li><li><a href=/search.php>Search</a></li>\
         <li><a href=/faq.php>FAQ</a></li></ul></div>{body}<div id=footer>Powered by nothing</div></body></html>"
    );
    let url = Url::parse("http://forum.test/topic.php?t=5").expect("a valid URL");
    let fetched_at: Timestamp = "2026-01-01T00:00:00Z".parse().expect("a valid instant");
    let analysis = analyse_text(&html, "UTF-8", &url, &DateContext::new(fetched_at, Some(0)));
    let got: Vec<(String, String, String)> = analysis
        .posts
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
    assert_eq!(got, expected, "{body}");
}

#[test]
fn a_lone_post_is_read_and_page_sections_are_not() {
    // A post with its author's join date: the post time is the later date, the message the
    // text.
    check(
        "<h2>Router keeps dropping</h2><div class=post><div class=profile>\
         <a href=/profile.php?u=7 class=username>kestrel</a><dd>Joined: Mar 3, 2021</dd></div>\
         <div class=body><p class=date>Sat Nov 29, 2025 9:40 pm</p>\
         <div class=content>The router drops the line every evening at nine. I changed the cable \
         and the power supply already.</div></div></div>",
        &[(
            "kestrel",
            "2025-11-29T21:40:00",
            "The router drops the line every evening at nine. I changed the cable and the power supply already.",
        )],
    );
    // A symbol linking to the post is no name: the profile link is the author.
    check(
        "<div class=post><p class=author><a href=/topic.php?p=9#p9>\u{25a0}</a> by \
         <a href=/profile.php?u=3>marten</a> \u{bb} Mon Dec 1, 2025 8:05 am</p>\
         <div class=content>Same here since the last firmware update, twice a day.</div></div>",
        &[(
            "marten",
            "2025-12-01T08:05:00",
            "Same here since the last firmware update, twice a day.",
        )],
    );
    // A login wall: the header's clock, the menu's member link and a notice meet only in the
    // page's container, whose other text is more than the notice.
    check(
        "<div class=notice>You are not logged in or you do not have permission to access this \
         page. Log in below.</div><form><input name=user><input name=password></form>\
         <p>Last visited: Tue Dec 30, 2025 9:57 am</p>",
        &[],
    );
    // A profile: a name, two dates and short fields, no message.
    check(
        "<div class=profile><h3 class=username>kestrel</h3><dl><dt>Joined</dt><dd>Mar 3, 2021</dd>\
         <dt>Last visit</dt><dd>Dec 30, 2025 9:57 am</dd><dt>Posts</dt><dd>412</dd>\
         <dt>Location</dt><dd>Harbour town</dd></dl></div>",
        &[],
    );
}

/// A lone post on an engine whose words are its own: no class says "author" or "post", and the
/// profile URL holds no "user" or "member", only the member's number and name. The name is the
/// one-word link whose URL spells it; a link to the thread spells a title, not a name.
#[test]
fn a_lone_post_whose_profile_url_spells_the_name_is_read_without_words() {
    check(
        "<div class=kavomel><div class=tirafu><a href=/zobu/7/kestrel/>kestrel</a></div>\
         <div class=lusepo><p class=mirato>Sat Nov 29, 2025 9:40 pm</p>\
         <div class=bosuvi>The router drops the line every evening at nine. I changed the cable \
         and the power supply already.</div></div></div>",
        &[(
            "kestrel",
            "2025-11-29T21:40:00",
            "The router drops the line every evening at nine. I changed the cable and the power supply already.",
        )],
    );
    check(
        "<div class=kavomel><div class=tirafu><a href=/fipa/kestrel.7/>kestrel</a></div>\
         <div class=lusepo><p class=mirato>Sat Nov 29, 2025 9:40 pm</p>\
         <div class=bosuvi>The router drops the line every evening at nine. I changed the cable \
         and the power supply already.</div></div></div>",
        &[(
            "kestrel",
            "2025-11-29T21:40:00",
            "The router drops the line every evening at nine. I changed the cable and the power supply already.",
        )],
    );
    // A name-like link whose URL does not spell it names nothing: no author, no post.
    check(
        "<div class=kavomel><div class=tirafu><a href=/zobu/7/>kestrel</a></div>\
         <div class=lusepo><p class=mirato>Sat Nov 29, 2025 9:40 pm</p>\
         <div class=bosuvi>The router drops the line every evening at nine. I changed the cable \
         and the power supply already.</div></div></div>",
        &[],
    );
}

/// An opening post shown apart in one box with the board's breadcrumb, the thread's title as
/// the page's heading, a line naming its starter and date, and a row of buttons, above a
/// message shorter than the heading and the breadcrumb together. Alone on its page, a message
/// shorter than twice its buttons is still missed: with one record, nothing tells buttons from
/// a message, and counting short links as fields took a question's tags for them.
fn opening_post_box(message: &str) -> String {
    format!(
        "<div class=topic><div class=topic-head><div class=crumbs><a href=/>Index</a> &rsaquo; \
         <a href=/board/networking/>Home networking</a></div>\
         <h1>Router keeps dropping</h1><p class=meta>Started by <a href=/member/7/>kestrel</a> \
         on Dec 2, 2025 10:15 am, 12 views</p></div>\
         <div class=topic-body><p>{message}</p></div>\
         <div class=topic-tools><a href=/reply/5/?quote=1>Quote</a> <a href=/reply/5/>Post reply</a></div></div>"
    )
}

#[test]
fn a_short_opening_post_beside_its_title_heading_and_breadcrumb_is_read() {
    // Alone on its page: the heading and the breadcrumb are fields of the box, not the message,
    // and not so much other text that the box would be a page section.
    check(
        &format!(
            "{}<div class=note>No replies yet</div>",
            opening_post_box("Any idea why it drops every evening?")
        ),
        &[(
            "kestrel",
            "2025-12-02T10:15:00",
            "Any idea why it drops every evening?",
        )],
    );
    // A message a little longer than the heading alone.
    check(
        &opening_post_box("It drops every evening at nine, since Monday."),
        &[(
            "kestrel",
            "2025-12-02T10:15:00",
            "It drops every evening at nine, since Monday.",
        )],
    );
    // Above a list of replies, read before them as the post shown apart.
    let reply = |id: u32, name: &str, when: &str, text: &str| {
        format!(
            "<div class=reply id=r{id}><div class=who><a href=/member/{id}/>{name}</a> \
             <span class=when>{when}</span></div><div class=text>{text}</div></div>"
        )
    };
    check(
        &format!(
            "{}<div class=replies>{}{}</div>",
            opening_post_box("Any idea why it drops?"),
            reply(
                9,
                "marten",
                "Dec 2, 2025 11:02 am",
                "Same here since the last firmware update, twice a day at least."
            ),
            reply(
                12,
                "heron",
                "Dec 3, 2025 8:40 am",
                "Mine stopped dropping after I turned the wireless power saving off."
            ),
        ),
        &[
            ("kestrel", "2025-12-02T10:15:00", "Any idea why it drops?"),
            (
                "marten",
                "2025-12-02T11:02:00",
                "Same here since the last firmware update, twice a day at least.",
            ),
            (
                "heron",
                "2025-12-03T08:40:00",
                "Mine stopped dropping after I turned the wireless power saving off.",
            ),
        ],
    );
}

#[test]
fn a_short_opening_post_under_its_title_in_a_minor_heading_is_read_for_its_message() {
    // Regression (django-simple-forum): a thread of one post shows its title in an `h3` above
    // a message shorter than the title; the title was read as the post's text.
    check(
        "<div class=topic><div class=description><h3 class=topic-heading>Router keeps dropping \
         every single evening, why?</h3><p>Any idea what to try?</p>\
         <p class=meta>Started by <a href=/member/7/>kestrel</a> on Dec 2, 2025 10:15 am</p>\
         </div></div><div class=note>No replies yet</div>",
        &[("kestrel", "2025-12-02T10:15:00", "Any idea what to try?")],
    );
    // A message longer than the heading is read as before, without the heading.
    check(
        "<div class=topic><div class=description><h3 class=topic-heading>Router keeps dropping \
         every single evening, why?</h3><p>It drops the line at nine every evening since the \
         update on Monday; the cable and the power supply are new.</p>\
         <p class=meta>Started by <a href=/member/7/>kestrel</a> on Dec 2, 2025 10:15 am</p>\
         </div></div><div class=note>No replies yet</div>",
        &[(
            "kestrel",
            "2025-12-02T10:15:00",
            "It drops the line at nine every evening since the update on Monday; the cable and the power supply are new.",
        )],
    );
    // Beside the box, a row of counts names the thread's board in a link to nowhere and labels
    // a count in a class that marks people ("Users 1"): the author is the name glued before
    // the date, not either of them.
    check(
        "<div class=topic><div class=description><h3 class=topic-heading>Router keeps dropping \
         every single evening, why?</h3><p>Any idea what to try?</p>\
         <ul class=posters><li><a href=# title=kestrel><img src=/a.jpg></a></li></ul>\
         <ul><li><a href=#><img src=/a.jpg> <span class=text>Created By<small>kestrel, Dec. 2, \
         2025, 10:15 a.m.</small></span></a></li></ul></div>\
         <div class=counts><span class=board><a href=# class=disclosure>Home networking</a></span>\
         <span class=replies>Replies 0</span> <span class=views>Views 3</span> \
         <span class=users>Users <span class=count>1</span></span></div></div>",
        &[("kestrel", "2025-12-02T10:15:00", "Any idea what to try?")],
    );
    // The counts' row in the post's box, longer than its message, is no message either.
    check(
        "<div class=view><div class=description><h3 class=topic-heading>Router keeps dropping \
         every single evening, why?</h3><p>Any idea what to try?</p>\
         <ul><li><a href=#><img src=/a.jpg> <span class=text>Created By<small>kestrel, Dec. 2, \
         2025, 10:15 a.m.</small></span></a></li></ul></div>\
         <div class=options><div class=counts><span class=board><a href=# class=disclosure>Home \
         networking</a></span> <span class=replies>Replies 0</span> <span class=views>Views \
         3</span> <span class=users>Users <span class=count>1</span></span></div></div></div>",
        &[("kestrel", "2025-12-02T10:15:00", "Any idea what to try?")],
    );
}

/// A question alone on its page beside its author's card, in classes that mean nothing: the
/// card's reputation and badge counts and the question's vote count are numbers standing alone,
/// fields like its date, not other text that would make the box a page section.
#[test]
fn a_short_question_beside_its_authors_counts_is_read() {
    check(
        "<div class=ravuto><div class=kelim><span class=dopa>43</span></div>\
         <div class=sotuz><div class=mebir><p>Why does the router drop the line every evening?</p></div>\
         <div class=fanek><a href=/posts/935/>share</a></div>\
         <div class=lobet><div class=tivan>asked <span>Dec 3, 2025 at 20:02</span></div>\
         <div class=gomul><a href=/zobu/41/kestrel/>kestrel</a><div class=pirak>\
         <span class=nudek>4635</span><span class=bavo>0</span><span class=bavo>10</span>\
         <span class=bavo>244</span></div></div></div>\
         <a href=/posts/935/note/>add a comment</a></div></div>",
        &[(
            "kestrel",
            "2025-12-03T20:02:00",
            "Why does the router drop the line every evening?",
        )],
    );
}
