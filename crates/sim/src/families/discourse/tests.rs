//! Tests of Discourse's URL codec, dates and crawler-view markup.

use super::templates::{DateStyle, time};
use super::*;
use crate::families::test_support::{fixture, served_canonical, summary};
use crate::html::escape;
use crate::{FamilyName, HISTORY_END_SECONDS, Site};

fn site() -> &'static Site {
    fixture(FamilyName::Discourse)
}

/// `{t}` and `{b}` stand for the slugs of thread 5 and board 2, `{u}` and `{l}` for user 8's
/// name as it is and in lower case, `{p1}` and `{p2}` for the ids of thread 5's first posts.
const CASES: &[&str] = &[
    "/ => Portal",
    "/categories => Portal alias",
    "/c/{b}/2 => Board { board: 2, page: 1 }",
    "/c/{b}/2?page=1 => Board { board: 2, page: 2 }",
    "/c/{b}/2?page=0 => Board { board: 2, page: 1 } explicit",
    "/c/{b}/2?page=-1 => None",
    "/c/2?page=1 => Board { board: 2, page: 2 } alias",
    "/c/{b}/2/ => Board { board: 2, page: 1 } alias",
    "/c/general/2 => Board { board: 2, page: 1 } alias",
    "/c/{b}/2?order=title&ascending=true&page=1 => Board { board: 2, page: 2 } sort=Title",
    "/c/{b}/2?order=posts => Board { board: 2, page: 1 } sort=Replies",
    "/c/{b}/2?order=posts&ascending=false => Board { board: 2, page: 1 } sort=Replies alias",
    "/c/{b}/2?order=activity => Board { board: 2, page: 1 } alias",
    "/c/{b}/2?order=title => None",
    "/c/{b}/2?order=likes => None",
    "/c/{b}/2/l/archive => ArchiveBoard { board: 2 }",
    "/c/{b}/2/l/top => None",
    "/t/{t}/5 => Thread { thread: 5, page: 1 }",
    "/t/{t}/5?page=2&u=someone => Thread { thread: 5, page: 2 }",
    "/t/{t}/5?page=1 => Thread { thread: 5, page: 1 } explicit",
    "/t/{t}/5?page=0 => None",
    "/t/5 => Thread { thread: 5, page: 1 } alias",
    "/t/{t}/5/ => Thread { thread: 5, page: 1 } alias",
    "/t/another-title/5 => Thread { thread: 5, page: 1 } alias",
    "/t/{t}/5/1 => Post { post: {p1} }",
    "/t/{t}/5/2 => Post { post: {p2} }",
    "/t/{t}/5/0 => None",
    "/t/{t}/5/9999 => None",
    "/t/{t}/5/2/quote => Action { kind: Quote, target: {p2} }",
    "/t/{t}/5/print => Print { thread: 5 }",
    "/t/{t}/5/reply => Action { kind: Reply, target: 5 }",
    "/t/{t}/x => None",
    "/p/{p2} => Post { post: {p2} } alias",
    "/raw/5 => ArchiveThread { thread: 5 }",
    "/raw/x => None",
    "/u => MemberList { page: 1 }",
    "/u?page=2 => MemberList { page: 3 }",
    "/u?page=0 => MemberList { page: 1 } explicit",
    "/u/{u} => Profile { user: 8 }",
    "/u/{l} => Profile { user: 8 } alias",
    "/u/{u}0 => None",
    "/u/Nobody8 => None",
    "/u/a/b => None",
    "/calendar?month=2025-03 => Calendar { year: 2025, month: 3 }",
    "/calendar => None",
    "/search?q=in%3Anew => Search { page: 1 }",
    "/search?q=in%3Anew&page=2 => Search { page: 2 }",
    "/search?q=cats => None",
    "/login => Login { next: None }",
    "/login?next=%2Ft%2Fx%2F5%2Freply => Login { next: Some(\"/t/x/5/reply\") }",
    "/new-topic?category_id=3 => Action { kind: NewThread, target: 3 }",
    "/new-topic => None",
    "/new-message?user_id=5 => Action { kind: Message, target: 5 }",
    "/threads/x.5/ => None",
    "/viewtopic.php?t=5 => None",
];

#[test]
fn urls_decode_to_addresses() {
    let site = site();
    let history = site.history();
    let posts = history.thread_posts(5);
    assert!(posts.len() >= 2, "thread 5 has replies");
    let thread = slugify(&site.thread_title(5));
    let board = slugify(&history.board(2).expect("board 2").name);
    let user = text::user_name(7, 8);
    let fill = |text: &str| {
        let text = text.replace("{t}", &thread).replace("{b}", &board);
        let text = text
            .replace("{u}", &user)
            .replace("{l}", &user.to_lowercase());
        text.replace("{p1}", &posts[0].to_string())
            .replace("{p2}", &posts[1].to_string())
    };
    let check = |url: &str, expected: &str| {
        assert_eq!(summary(site.address_of(url)), expected, "{url}");
    };
    for case in CASES {
        let (url, expected) = case.split_once(" => ").expect("url => expected");
        check(&fill(url), &fill(expected));
    }
}

#[test]
fn canonical_spellings() {
    let site = site();
    let history = site.history();
    let url = |route| site.url_of(&Address::canonical(route));
    let thread = slugify(&site.thread_title(5));
    let board = slugify(&history.board(2).expect("board 2").name);
    assert_eq!(
        url(Route::Thread { thread: 5, page: 2 }),
        format!("/t/{thread}/5?page=2")
    );
    assert_eq!(
        url(Route::Board { board: 2, page: 2 }),
        format!("/c/{board}/2?page=1")
    );
    let second = history.thread_posts(5)[1];
    assert_eq!(
        url(Route::Post { post: second }),
        format!("/t/{thread}/5/2")
    );
    assert_eq!(
        url(Route::Profile { user: 8 }),
        format!("/u/{}", text::user_name(7, 8))
    );
    assert_eq!(
        url(Route::Calendar {
            year: 2025,
            month: 3
        }),
        "/calendar?month=2025-03"
    );
}

#[test]
fn dates_are_absolute_in_forum_time() {
    let site = site();
    let (history, family) = (site.history(), site.family());
    let context = RenderContext {
        history,
        family,
        now: HISTORY_END_SECONDS,
        session: None,
        opaque_cursor_seed: None,
        cursors_count_down: false,
    };
    let instant = 1_743_372_665;
    assert_eq!(
        time(&context, instant, "", DateStyle::Long),
        "<time datetime=\"2025-03-30T14:11:05-08:00\">March 30, 2025, 2:11pm</time>"
    );
    assert_eq!(
        time(&context, instant, "", DateStyle::RawUtc),
        "<time datetime=\"2025-03-30T22:11:05+00:00\">2025-03-30 22:11:05 UTC</time>"
    );
}

#[test]
fn pages_render_the_crawler_view() {
    let site = site();
    let history = site.history();
    let serve = |route| served_canonical(site, route);
    let mut threads = 1..=history.thread_count();
    let thread = threads
        .find(|&thread| history.thread_posts(thread).len() > 20)
        .expect("long");
    let page = serve(Route::Thread { thread, page: 1 });
    let first = history.thread_posts(thread)[0];
    let paragraphs = text::post_paragraphs(history.seed, history.language, first);
    let text: String = paragraphs
        .iter()
        .map(|text| format!("<p>{}</p>", escape(text)))
        .collect();
    let body = format!("<div class=\"post\" itemprop=\"text\">{text}</div>");
    assert!(page.contains(&body), "{body}");
    for landmark in [
        "<div id=\"post_1\" class=\"topic-body crawler-post\">",
        "<div id=\"post_2\" itemprop=\"comment\" itemscope",
        "<span class=\"creator\" itemprop=\"author\" itemscope",
        "-08:00\" itemprop=\"datePublished\" class=\"post-time\">",
        "<a rel=\"next\" itemprop=\"url\" href=\"/t/",
        "<div id=\"suggested-topics\"",
    ] {
        assert!(page.contains(landmark), "{landmark}");
    }
    let board = serve(Route::Board { board: 1, page: 1 });
    for landmark in [
        "<table class=\"topic-list\">",
        "<tr class=\"topic-list-item",
        "class=\"title raw-link raw-topic-link\"",
        "<span class=\"posts\" title=\"posts\">",
        "?order=title&amp;ascending=true",
        "<div class=\"latest-topic-list\">",
    ] {
        assert!(board.contains(landmark), "{landmark}");
    }
    let reply = site.url_of(&Address::canonical(action(ActionKind::Reply, thread)));
    let wall = site.serve(&reply, HISTORY_END_SECONDS, None);
    let location = format!("/login?next={}", percent_encode(&reply));
    assert_eq!(
        (wall.status, wall.headers.last().map(|h| h.1.clone())),
        (301, Some(location))
    );
}
