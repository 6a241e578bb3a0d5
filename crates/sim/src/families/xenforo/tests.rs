//! Tests of XenForo's URL codec, relative dates and page markup.

use super::templates::{TimeText, short_number, time};
use super::*;
use crate::families::test_support::{fixture, served_canonical, summary};
use crate::html::escape;
use crate::{FamilyName, HISTORY_END_SECONDS, Site};

fn site() -> &'static Site {
    fixture(FamilyName::Xenforo)
}

/// `{t}`, `{b}` and `{m}` in a URL stand for the right slugs of thread 5, board 2 and user 8.
const CASES: &[&str] = &[
    "/ => Portal",
    "/index.php => Portal alias",
    "/threads/{t}.5/ => Thread { thread: 5, page: 1 }",
    "/threads/{t}.5/?utm_source=x => Thread { thread: 5, page: 1 }",
    "/threads/{t}.5/page-3 => Thread { thread: 5, page: 3 }",
    "/threads/{t}.5/page-1 => Thread { thread: 5, page: 1 } explicit",
    "/threads/wrong-slug.5/ => Thread { thread: 5, page: 1 } alias",
    "/threads/5/page-2 => Thread { thread: 5, page: 2 } alias",
    "/threads/{t}.5 => Thread { thread: 5, page: 1 } alias",
    "/threads/{t}.5/page-0 => None",
    "/threads/{t}.5/page-02 => None",
    "/threads/{t}.5/page-2/x => None",
    "/threads/{t}.5/print => Print { thread: 5 }",
    "/threads/{t}.5/reply => Action { kind: Reply, target: 5 }",
    "/forums/{b}.2/ => Board { board: 2, page: 1 }",
    "/forums/{b}.2/page-2 => Board { board: 2, page: 2 }",
    "/forums/{b}.2/page-2?order=title&direction=asc => Board { board: 2, page: 2 } sort=Title",
    "/forums/{b}.2/?order=reply_count => Board { board: 2, page: 1 } sort=Replies alias",
    "/forums/{b}.2/?order=last_post_date&direction=desc => Board { board: 2, page: 1 } alias",
    "/forums/{b}.2/?order=title => None",
    "/forums/{b}.2/?order=title&direction=desc => None",
    "/forums/{b}.2/?order=view_count => None",
    "/forums/{b}.2/post-thread => Action { kind: NewThread, target: 2 }",
    "/forums/x.y/ => None",
    "/posts/456/ => Post { post: 456 }",
    "/posts/456/quote => Action { kind: Quote, target: 456 }",
    "/posts/456/edit => None",
    "/posts/x/ => None",
    "/archive/forums/2/ => ArchiveBoard { board: 2 }",
    "/archive/threads/5/ => ArchiveThread { thread: 5 }",
    "/members/{m}.8/ => Profile { user: 8 }",
    "/members/someone-else.8/ => Profile { user: 8 } alias",
    "/members/list/ => MemberList { page: 1 }",
    "/members/list/?page=3 => MemberList { page: 3 }",
    "/members/list/?page=1 => MemberList { page: 1 } explicit",
    "/members/list/?page=0 => None",
    "/members/list/?page=x => None",
    "/events/2025-03/ => Calendar { year: 2025, month: 3 }",
    "/events/2025-3/ => None",
    "/events/ => None",
    "/whats-new/posts/?page=2 => Search { page: 2 }",
    "/login/ => Login { next: None }",
    "/login/?_xfRedirect=%2Fposts%2F4%2Fquote => Login { next: Some(\"/posts/4/quote\") }",
    "/conversations/add?to=12 => Action { kind: Message, target: 12 }",
    "/conversations/add => None",
    "/viewtopic.php?t=5 => None",
    "/threads/ => None",
    "/t/slug/5 => None",
];

#[test]
fn urls_decode_to_addresses() {
    let site = site();
    let thread = slugify(&site.thread_title(5));
    let board = slugify(&site.history().board(2).expect("board 2").name);
    let member = slugify(&text::user_name(7, 8));
    let check = |url: &str, expected: &str| {
        let url = url.replace("{t}", &thread).replace("{b}", &board);
        let url = url.replace("{m}", &member);
        assert_eq!(summary(site.address_of(&url)), expected, "{url}");
    };
    for case in CASES {
        let (url, expected) = case.split_once(" => ").expect("url => expected");
        check(url, expected);
    }
}

#[test]
fn canonical_spellings() {
    let site = site();
    let url = |route| site.url_of(&Address::canonical(route));
    let thread = slugify(&site.thread_title(5));
    assert_eq!(
        url(Route::Thread { thread: 5, page: 2 }),
        format!("/threads/{thread}.5/page-2")
    );
    assert_eq!(url(Route::Post { post: 9 }), "/posts/9/");
    assert_eq!(
        url(Route::Calendar {
            year: 2025,
            month: 3
        }),
        "/events/2025-03/"
    );
    let next = Some("/a b?c".to_string());
    assert_eq!(url(Route::Login { next }), "/login/?_xfRedirect=/a%20b%3Fc");
}

#[test]
fn relative_dates_follow_xenforo() {
    let site = site();
    let now = HISTORY_END_SECONDS - 3_600;
    let (history, family) = (site.history(), site.family());
    let context = RenderContext {
        history,
        family,
        now,
        session: None,
        opaque_cursor_seed: None,
        cursors_count_down: false,
    };
    let shown = |age: i64| time(&context, now - age, "", TimeText::Relative);
    assert!(shown(30).ends_with(">A moment ago</time>"));
    assert!(shown(90).ends_with(">1 minute ago</time>"));
    assert!(shown(600).ends_with(">10 minutes ago</time>"));
    assert!(shown(7_200).ends_with(">Today at 9:00 PM</time>"));
    assert!(shown(7_200).contains("datetime=\"2025-12-31T21:00:00+0000\""));
    assert!(shown(86_400).ends_with(">Yesterday at 11:00 PM</time>"));
    assert!(shown(3 * 86_400).ends_with(">Sunday at 11:00 PM</time>"));
    assert!(shown(10 * 86_400).ends_with(">Dec 21, 2025</time>"));
    assert!(shown(10 * 86_400).contains("title=\"Dec 21, 2025 at 11:00 PM\""));
    assert_eq!(
        [short_number(999), short_number(1_250), short_number(3_000)],
        ["999", "1.2K", "3K"]
    );
}

#[test]
fn pages_render_xenforo_markup() {
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
    let escaped: Vec<String> = paragraphs
        .iter()
        .map(|paragraph| escape(paragraph))
        .collect();
    let body = format!(
        "<div class=\"bbWrapper\">{}</div>",
        escaped.join("<br />\n")
    );
    assert!(page.contains(&body), "{body}");
    let post = format!("data-content=\"post-{first}\" id=\"js-post-{first}\"");
    let permalink = format!("<a href=\"/posts/{first}/\" class=\"u-concealed\"");
    for landmark in [
        "<article class=\"message message--post js-post",
        "<h4 class=\"message-name\"><a href=\"/members/",
        "<dt>Joined</dt>",
        "<time class=\"u-dt\" dir=\"auto\" datetime=\"",
        "class=\"pageNav-jump pageNav-jump--next\"",
        &post,
        &permalink,
    ] {
        assert!(page.contains(landmark), "{landmark}");
    }
    let board = serve(Route::Board { board: 1, page: 1 });
    for landmark in [
        "<div class=\"structItem structItem--thread js-inlineModContainer",
        "<div class=\"structItem-title\"><a href=\"/threads/",
        "<dl class=\"pairs pairs--justified\"><dt>Replies</dt><dd>",
        "<time class=\"structItem-latestDate u-dt\"",
        "data-widget-key=\"forum_overview_new_posts\"",
        "?order=title&amp;direction=asc",
    ] {
        assert!(board.contains(landmark), "{landmark}");
    }
}
