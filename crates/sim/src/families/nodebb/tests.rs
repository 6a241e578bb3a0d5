//! Tests of NodeBB's URL codec, its cursor-paged lists and its script-free markup.

use super::*;
use crate::families::test_support::{contains, fixture, served_canonical, summary};
use crate::{FamilyName, HISTORY_END_SECONDS, Site};

fn site() -> &'static Site {
    fixture(FamilyName::Nodebb)
}

/// `{t}` and `{b}` stand for the slugs of thread 5 and board 2, `{u}` for user 8's slug, `{U}`
/// for user 8's name as written, `{h}` for the first members-only thread and `{hs}` its slug.
const CASES: &[&str] = &[
    "/ => Portal",
    "/categories => Portal alias",
    "/category/2/{b} => Board { board: 2, page: 1 }",
    "/category/2 => Board { board: 2, page: 1 } alias",
    "/category/2/general => Board { board: 2, page: 1 } alias",
    "/category/2/{b}?after=17 => BoardAfter { board: 2, after: 17 }",
    "/category/2/{b}?after=x => None",
    "/category/2/{b}?page=3 => Board { board: 2, page: 1 } ignored-page=3",
    "/category/2/{b}?page=1 => Board { board: 2, page: 1 } alias",
    "/category/2/{b}?page=03 => None",
    "/category/2/{b}?sort=alphabetical => Board { board: 2, page: 1 } sort=Title",
    "/category/2/{b}?sort=most_posts&after=9 => BoardAfter { board: 2, after: 9 } sort=Replies",
    "/category/2/{b}?sort=most_posts&page=2 => Board { board: 2, page: 1 } sort=Replies ignored-page=2",
    "/category/2/{b}?sort=recently_replied => Board { board: 2, page: 1 } alias",
    "/category/2/{b}?sort=hot => None",
    "/category/2.rss => ArchiveBoard { board: 2 }",
    "/topic/5/{t} => Thread { thread: 5, page: 1 }",
    "/topic/5/{t}?page=2 => Thread { thread: 5, page: 2 }",
    "/topic/5/{t}?page=1 => Thread { thread: 5, page: 1 } explicit",
    "/topic/5/{t}?page=0 => None",
    "/topic/5 => Thread { thread: 5, page: 1 } alias",
    "/topic/5/wrong-slug => Thread { thread: 5, page: 1 } alias",
    "/topic/5/{t}/print => Print { thread: 5 }",
    "/topic/5/{t}/next => AdjacentThread { thread: 5, newer: true }",
    "/topic/5/{t}/7 => None",
    "/topic/5.rss => ArchiveThread { thread: 5 }",
    "/topic/{h}/{hs} => HiddenThread { thread: {h} }",
    "/topic/{h}/{hs}/print => None",
    "/post/77 => Post { post: 77 }",
    "/users => MemberList { page: 1 }",
    "/users?page=2 => MemberList { page: 2 }",
    "/users?page=1 => MemberList { page: 1 } explicit",
    "/user/{u} => Profile { user: 8 }",
    "/user/{U} => Profile { user: 8 } alias",
    "/user/nobody8 => None",
    "/calendar/2025/03 => Calendar { year: 2025, month: 3 }",
    "/calendar/2025/3 => None",
    "/search?term=new&page=2 => Search { page: 2 }",
    "/search?term=cats => None",
    "/login => Login { next: None }",
    "/login?next=%2Fcompose%3Ftid%3D5 => Login { next: Some(\"/compose?tid=5\") }",
    "/compose?tid=5 => Action { kind: Reply, target: 5 }",
    "/compose?cid=3 => Action { kind: NewThread, target: 3 }",
    "/compose?pid=9 => Action { kind: Quote, target: 9 }",
    "/compose => None",
    "/chats?uid=4 => Action { kind: Message, target: 4 }",
    "/t/x/5 => None",
];

#[test]
fn urls_decode_to_addresses() {
    let site = site();
    let history = site.history();
    let hidden = *history.hidden_threads().start();
    let fill = |text: &str| {
        let user = text::user_name(history.seed, 8);
        text.replace("{t}", &thread_slug(history, 5))
            .replace("{b}", &board_slug(history, 2))
            .replace("{u}", &user.to_lowercase())
            .replace("{U}", &user)
            .replace("{hs}", &any_thread_slug(history, hidden))
            .replace("{h}", &hidden.to_string())
    };
    for case in CASES {
        let (url, expected) = case.split_once(" => ").expect("url => expected");
        let url = fill(url);
        assert_eq!(summary(site.address_of(&url)), fill(expected), "{url}");
    }
}

/// The cursor of page 2 follows the last thread of page 1; a cursor that closes no page, or the
/// numbered pager's links, are not pages of their own.
#[test]
fn later_board_pages_are_named_by_cursor() {
    let site = site();
    let at = HISTORY_END_SECONDS;
    let (board, listing) = (1..=site.history().board_count())
        .map(|board| (board, site.board_listing(board, SortOrder::LastPost, at)))
        .find(|(_, listing)| listing.len() > 2 * 20)
        .expect("a board with three pages");
    let check = |route: Route, expected: Option<(u32, PageClass)>| {
        let judgement = site.judge(&Address::canonical(route.clone()), at);
        let got = (judgement.class == PageClass::Valuable)
            .then(|| (judgement.position.unwrap_or(0), judgement.class));
        assert_eq!(got, expected, "{route:?}");
    };
    use crate::PageClass;
    check(
        Route::BoardAfter {
            board,
            after: listing[19],
        },
        Some((2, PageClass::Valuable)),
    );
    check(
        Route::BoardAfter {
            board,
            after: listing[39],
        },
        Some((3, PageClass::Valuable)),
    );
    check(
        Route::BoardAfter {
            board,
            after: listing[18],
        },
        None,
    );
    check(Route::Board { board, page: 2 }, None);
    let page = served_canonical(site, Route::Board { board, page: 1 });
    let next = site.url_of(&Address::canonical(Route::BoardAfter {
        board,
        after: listing[19],
    }));
    let head = page.split("</head>").next().unwrap_or("");
    assert!(
        head.contains(&format!("<link rel=\"next\" href=\"{next}\" />")),
        "{head}"
    );
    let body = page.split("</head>").nth(1).unwrap_or("");
    assert!(
        !body.contains(&next),
        "the next page is linked only from the head"
    );
    let noscript = body.split("<noscript>").nth(1).unwrap_or("");
    let ignored = format!(
        "/category/{board}/{}?page=2",
        board_slug(site.history(), board)
    );
    assert!(noscript.contains(&ignored), "{noscript}");
    let truth = site.classify(&ignored, at);
    assert_eq!(truth.class, crate::PageClass::Duplicate);
    let first = site.url_of(&Address::canonical(Route::Board { board, page: 1 }));
    assert_eq!(truth.canonical.as_deref(), Some(first.as_str()));
}

#[test]
fn thread_pages_repeat_the_last_post_of_the_page_before() {
    let site = site();
    let history = site.history();
    let thread = (1..=history.thread_count())
        .find(|&thread| history.thread_posts(thread).len() > 20)
        .expect("a long thread");
    let posts = history.thread_posts(thread);
    let second = served_canonical(site, Route::Thread { thread, page: 2 });
    let pids: Vec<&str> = second
        .split("data-pid=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert_eq!(pids.first(), Some(&posts[19].to_string().as_str()));
    assert_eq!(pids.get(1), Some(&posts[20].to_string().as_str()));
    let first = served_canonical(site, Route::Thread { thread, page: 1 });
    contains!(first;
        "<li component=\"post\" class=\"topic-post\" data-index=\"0\"",
        "<span class=\"timeago\" title=\"",
        "itemprop=\"text\">",
        "<link rel=\"next\" href=\"/topic/",
    );
}

#[test]
fn post_texts_link_threads_some_members_only() {
    let site = site();
    let at = HISTORY_END_SECONDS;
    let history = site.history();
    let links: Vec<_> = (1..=history.post_count())
        .filter_map(|post| site.body_link(post))
        .collect();
    let hidden = links
        .iter()
        .filter(|link| matches!(link.target, Route::HiddenThread { .. }))
        .count();
    assert!(
        hidden > 0 && hidden < links.len(),
        "{hidden} of {}",
        links.len()
    );
    let link = links
        .iter()
        .find(|link| matches!(link.target, Route::HiddenThread { .. }))
        .expect("a members-only link");
    let url = site.url_of(&Address::canonical(link.target.clone()));
    let answer = site.serve(&url, at, None);
    assert_eq!(answer.status, 404, "{url}");
    assert_eq!(site.classify(&url, at).class, crate::PageClass::Invalid);
    let robots = site.serve("/robots.txt", at, None);
    let robots = String::from_utf8(robots.body).expect("utf-8");
    contains!(robots; "Disallow: /user/", "Disallow: /users");
}
