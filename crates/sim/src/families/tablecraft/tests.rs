//! Tests of Tablecraft's id scrambling, URL codec and page markup.

use super::templates::TABLE;
use super::*;
use crate::families::test_support::address::{at, board, explicit, thread, with};
use crate::families::test_support::{check_round_trips, fixture, served_in};
use crate::html::escape;
use crate::{FamilyName, HISTORY_END_SECONDS, Site};

fn site() -> &'static Site {
    fixture(FamilyName::Tablecraft)
}

/// Asserts that `url` decodes to `expected` and, unless that is an alias, encodes back.
fn check(url: &str, expected: Option<Address>) {
    check_round_trips(site(), url, expected);
}

fn sorted(route: Route, sort: SortOrder) -> Option<Address> {
    with(route, |variant| variant.sort = sort)
}

#[test]
fn ids_scramble_reversibly() {
    for kind in [Kind::Board, Kind::Thread, Kind::Post, Kind::User] {
        for id in (1..5_000).chain([u32::MAX, 0x8000_0000, 123_456_789]) {
            let text = kind.hide(id);
            assert_eq!(text.len(), 8);
            assert_eq!(kind.reveal(&text), Some(id), "{kind:?} {id} {text}");
        }
        assert_eq!(kind.reveal(&kind.hide(0)), None, "{kind:?}: 0 is no id");
    }
    assert_ne!(Kind::Board.hide(7), Kind::Thread.hide(7));
    assert_ne!(Kind::Post.hide(1)[..4], Kind::Post.hide(2)[..4]);
}

#[test]
fn urls_decode_to_their_routes() {
    let (b3, t9) = (Kind::Board.hide(3), Kind::Thread.hide(9));
    let (p40, u5) = (Kind::Post.hide(40), Kind::User.hide(5));
    check("/", at(Route::Portal));
    check(&format!("/b/{b3}/"), at(board(3, 1)));
    check(&format!("/b/{b3}/2.html"), at(board(3, 2)));
    check(&format!("/b/{b3}/1.html"), explicit(board(3, 1)));
    check(
        &format!("/b/{b3}/?sort=title"),
        sorted(board(3, 1), SortOrder::Title),
    );
    check(
        &format!("/b/{b3}/3.html?sort=created"),
        sorted(board(3, 3), SortOrder::Created),
    );
    let explicit_by_author = with(board(3, 1), |variant| {
        (variant.sort, variant.explicit_first_page) = (SortOrder::Author, true);
    });
    check(&format!("/b/{b3}/1.html?sort=author"), explicit_by_author);
    let default_named = with(board(3, 1), |variant| variant.alias = true);
    check(&format!("/b/{b3}/?sort=lastpost"), default_named);
    check(&format!("/t/{t9}.html"), at(thread(9, 1)));
    check(&format!("/t/{t9}-2.html"), at(thread(9, 2)));
    check(&format!("/t/{t9}-1.html"), explicit(thread(9, 1)));
    check(
        &format!("/t/{t9}.html?print=1"),
        at(Route::Print { thread: 9 }),
    );
    check(&format!("/p/{p40}"), at(Route::Post { post: 40 }));
    check(&format!("/u/{u5}.html"), at(Route::Profile { user: 5 }));
    check("/old/b3.htm", at(Route::ArchiveBoard { board: 3 }));
    check("/old/t123.htm", at(Route::ArchiveThread { thread: 123 }));
    check("/members/", at(Route::MemberList { page: 1 }));
    check("/members/1.html", explicit(Route::MemberList { page: 1 }));
    check("/members/3.html", at(Route::MemberList { page: 3 }));
    check(
        "/cal/202503.html",
        at(Route::Calendar {
            year: 2025,
            month: 3,
        }),
    );
    check("/new/", at(Route::Search { page: 1 }));
    check("/new/4.html", at(Route::Search { page: 4 }));
    check("/login.html", at(Route::Login { next: None }));
    let next = Some(format!("/reply/{t9}.html"));
    check(
        &format!("/login.html?back=/reply/{t9}.html"),
        at(Route::Login { next }),
    );
    let action = |kind, target| at(Route::Action { kind, target });
    check(&format!("/reply/{t9}.html"), action(ActionKind::Reply, 9));
    check(
        &format!("/post/{b3}.html"),
        action(ActionKind::NewThread, 3),
    );
    check(&format!("/quote/{p40}.html"), action(ActionKind::Quote, 40));
    check(&format!("/msg/{u5}.html"), action(ActionKind::Message, 5));
    // Unknown parameters are ignored.
    assert_eq!(
        site().address_of(&format!("/t/{t9}-2.html?from=new")),
        at(thread(9, 2))
    );
}

#[test]
fn urls_the_site_does_not_have() {
    let (b3, t9, u5) = (
        Kind::Board.hide(3),
        Kind::Thread.hide(9),
        Kind::User.hide(5),
    );
    let zero = Kind::Thread.hide(0);
    let upper = t9.to_uppercase();
    let junk = [
        format!("/b/{b3}"),
        format!("/b/{b3}/0.html"),
        format!("/b/{b3}/01.html"),
        format!("/b/{b3}/?sort=views"),
        format!("/b/{t9}x/"),
        format!("/t/{upper}.html"),
        format!("/t/{zero}.html"),
        format!("/t/{t9}-0.html"),
        format!("/t/{}.html", &t9[1..]),
        format!("/t/{t9}"),
        format!("/u/{u5}"),
        format!("/x/{u5}.html"),
        "/index.html".to_string(),
        "/old/b3.html".to_string(),
        "/old/x3.htm".to_string(),
        "/old/b03.htm".to_string(),
        "/members/0.html".to_string(),
        "/cal/2025.html".to_string(),
        "/cal/20253.html".to_string(),
        "/new/x.html".to_string(),
        "/viewtopic.php?t=1".to_string(),
    ];
    for url in junk {
        assert_eq!(site().address_of(&url), None, "{url}");
    }
}

/// Serves `url` and reads it back from Big5, asserting every character was representable.
fn served(url: &str) -> (u16, String) {
    served_in(site(), url, encoding_rs::BIG5)
}

#[test]
fn thread_page_is_nested_tables_in_big5() {
    let history = site().history();
    let id = (1..=history.thread_count())
        .find(|&thread| history.thread_posts(thread).len() > 3)
        .expect("a thread with replies");
    let (status, page) = served(&format!("/t/{}.html", Kind::Thread.hide(id)));
    assert_eq!(status, 200);
    let meta = "<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset=big5\">";
    assert!(page.contains(meta));
    assert!(page.contains(TABLE.trim_end()) && page.contains("</a>作者：<a href=\"/u/"));
    assert!(!page.contains("class=") && !page.contains(" id="));
    let first = history.thread_posts(id)[0];
    let created = history.post(first).expect("first post").created;
    let local = crate::dates::local_time(created, 8 * 3_600);
    let (month, day, hour) = (local.month, local.day, local.hour);
    let date = format!("發表時間：{}/{month:02}/{day:02} {hour:02}:", local.year);
    assert!(page.contains(&date), "{date}");
    let text = crate::text::post_paragraphs(7, Language::TraditionalChinese, first);
    let paragraphs: Vec<String> = text.iter().map(|paragraph| escape(paragraph)).collect();
    let body = format!(
        "<td valign=\"top\"><font size=\"2\">{}</font>",
        paragraphs.join("<br>\n")
    );
    assert!(page.contains(&body), "{body}");
    assert!(page.contains("註冊日期：") && page.contains("文章數："));
}

#[test]
fn walls_soft_errors_and_other_pages() {
    let reply = format!("/reply/{}.html", Kind::Thread.hide(1));
    let response = site().serve(&reply, HISTORY_END_SECONDS, None);
    assert_eq!(response.status, 301);
    let location = format!("/login.html?back={reply}");
    assert!(
        response
            .headers
            .contains(&("Location".to_string(), location))
    );
    let (status, page) = served(&format!("/t/{}.html", Kind::Thread.hide(999_999)));
    assert!(status == 200 && page.contains("找不到此頁面"));
    let (_, page) = served(&format!("/b/{}/", Kind::Board.hide(1)));
    assert!(page.contains("<b>回覆</b>") && page.contains("<b>最後回覆</b>"));
    for url in [
        "/",
        "/members/",
        "/new/",
        "/old/b1.htm",
        "/old/t1.htm",
        "/login.html",
    ] {
        assert_eq!(served(url).0, 200, "{url}");
    }
    let (_, page) = served(&format!("/p/{}", Kind::Post.hide(1)));
    assert!(page.contains("回到主題"));
}
