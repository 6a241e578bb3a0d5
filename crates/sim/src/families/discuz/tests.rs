//! Tests of Discuz!'s URL codec and page markup.

use super::*;
use crate::families::common::action;
use crate::families::test_support::address::{at, board, explicit, thread, with};
use crate::families::test_support::{check_round_trips, fixture, served_in};
use crate::html::escape;
use crate::{FamilyName, Site};

fn site() -> &'static Site {
    fixture(FamilyName::Discuz)
}

/// Asserts that `url` decodes to `expected` and, unless that is an alias, encodes back.
fn check(url: &str, expected: Option<Address>) {
    check_round_trips(site(), url, expected);
}

fn alias(route: Route) -> Option<Address> {
    with(route, |variant| variant.alias = true)
}

#[test]
fn list_pages_and_their_spellings() {
    check("/forum.php", at(Route::Portal));
    check("/forum-3-1.html", at(board(3, 1)));
    check("/forum-3-2.html", at(board(3, 2)));
    check(
        "/forum.php?mod=forumdisplay&fid=3&page=1",
        explicit(board(3, 1)),
    );
    check("/forum.php?mod=forumdisplay&fid=3", alias(board(3, 1)));
    check(
        "/forum.php?mod=forumdisplay&fid=3&page=2",
        alias(board(3, 2)),
    );
    let by_date = with(board(3, 2), |variant| variant.sort = SortOrder::Created);
    check(
        "/forum.php?mod=forumdisplay&fid=3&orderby=dateline&page=2",
        by_date,
    );
    let by_title = with(board(3, 1), |variant| variant.sort = SortOrder::Title);
    check(
        "/forum.php?mod=forumdisplay&fid=3&orderby=subject",
        by_title,
    );
    let explicit_by_author = with(board(3, 1), |variant| {
        (variant.sort, variant.explicit_first_page) = (SortOrder::Author, true);
    });
    check(
        "/forum.php?mod=forumdisplay&fid=3&orderby=author&page=1",
        explicit_by_author,
    );
    check("/thread-123-1-1.html", at(thread(123, 1)));
    check("/thread-123-4-1.html", at(thread(123, 4)));
    check("/thread-123-1-3.html", alias(thread(123, 1)));
    check(
        "/forum.php?mod=viewthread&tid=123&page=1",
        explicit(thread(123, 1)),
    );
    check(
        "/forum.php?mod=viewthread&tid=123&page=2",
        alias(thread(123, 2)),
    );
    check(
        "/home.php?mod=space&do=list",
        at(Route::MemberList { page: 1 }),
    );
    check(
        "/home.php?mod=space&do=list&page=1",
        explicit(Route::MemberList { page: 1 }),
    );
    check(
        "/home.php?mod=space&do=list&page=2",
        at(Route::MemberList { page: 2 }),
    );
    check(
        "/search.php?mod=forum&srchtype=new",
        at(Route::Search { page: 1 }),
    );
    check(
        "/search.php?mod=forum&srchtype=new&page=3",
        at(Route::Search { page: 3 }),
    );
}

#[test]
fn other_pages_and_sessions() {
    let post = 40;
    let owner = site().history().post(post).expect("post 40 exists").thread;
    let permalink = format!("/forum.php?mod=redirect&goto=findpost&ptid={owner}&pid={post}");
    check(&permalink, at(Route::Post { post }));
    check(
        "/forum.php?mod=viewthread&action=printable&tid=9",
        at(Route::Print { thread: 9 }),
    );
    check("/archiver/fid-3.html", at(Route::ArchiveBoard { board: 3 }));
    check(
        "/archiver/tid-12.html",
        at(Route::ArchiveThread { thread: 12 }),
    );
    check("/space-uid-5.html", at(Route::Profile { user: 5 }));
    check(
        "/plugin.php?id=calendar&ym=202503",
        at(Route::Calendar {
            year: 2025,
            month: 3,
        }),
    );
    check(
        "/member.php?mod=logging&action=login",
        at(Route::Login { next: None }),
    );
    let next = Some("/thread-1-1-1.html".to_string());
    check(
        "/member.php?mod=logging&action=login&referer=%2Fthread-1-1-1.html",
        at(Route::Login { next }),
    );
    check(
        "/forum.php?mod=post&action=reply&tid=12",
        at(action(ActionKind::Reply, 12)),
    );
    check(
        "/forum.php?mod=post&action=newthread&fid=3",
        at(action(ActionKind::NewThread, 3)),
    );
    check(
        "/forum.php?mod=post&action=reply&repquote=45",
        at(action(ActionKind::Quote, 45)),
    );
    check(
        "/home.php?mod=spacecp&ac=pm&touid=5",
        at(action(ActionKind::Message, 5)),
    );
    let sid = session_hex(0xabc);
    let session = |route| with(route, |variant| variant.session = Some(0xabc));
    check(
        &format!("/thread-7-2-1.html?sid={sid}"),
        session(thread(7, 2)),
    );
    check(&format!("/forum.php?sid={sid}"), session(Route::Portal));
    check(
        &format!("/space-uid-5.html?sid={sid}"),
        session(Route::Profile { user: 5 }),
    );
    let explicit_with_session = with(thread(7, 1), |variant| {
        (variant.explicit_first_page, variant.session) = (true, Some(0xabc));
    });
    check(
        &format!("/forum.php?mod=viewthread&tid=7&page=1&sid={sid}"),
        explicit_with_session,
    );
    // The permalink needs only the post; unknown parameters are ignored.
    let without_thread = site().address_of("/forum.php?mod=redirect&goto=findpost&pid=40");
    assert_eq!(without_thread, at(Route::Post { post }));
    assert_eq!(
        site().address_of("/forum-3-2.html?from=portal"),
        at(board(3, 2))
    );
}

#[test]
fn urls_the_engine_does_not_have() {
    let junk = "/ /index.php /forum-3.html /forum-3-0.html /forum-03-1.html /forum-+3-1.html \
        /thread-1-1.html /thread-a-1-1.html /thread-1-1-1-1.html /thread-1-0-1.html \
        /forum.php?mod=nothing /forum.php?mod=forumdisplay \
        /forum.php?mod=forumdisplay&fid=3&orderby=heats \
        /forum.php?mod=forumdisplay&fid=3&page=0 /forum.php?mod=viewthread&tid=1&action=edit \
        /forum.php?mod=redirect&goto=lastpost&tid=1 \
        /forum.php?mod=redirect&goto=findpost&ptid=99999&pid=40 /home.php?mod=space&do=friend \
        /plugin.php?id=calendar&ym=2025 /search.php?mod=portal \
        /archiver/ /archiver/tid-x.html /space-uid-.html /viewtopic.php?t=1";
    for url in junk.split_whitespace() {
        assert_eq!(site().address_of(url), None, "{url}");
    }
}

/// Serves `url` and reads it back from GBK, asserting every character was representable.
fn served(url: &str) -> (u16, String) {
    served_in(site(), url, encoding_rs::GBK)
}

#[test]
fn thread_page_shows_posts_in_gbk() {
    let history = site().history();
    let id = (1..=history.thread_count())
        .find(|&thread| history.thread_posts(thread).len() > 4)
        .expect("a thread with replies");
    let (status, page) = served(&format!("/thread-{id}-1-1.html"));
    assert_eq!(status, 200);
    assert!(page.contains(
        "<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset=gbk\" />"
    ));
    let first = history.thread_posts(id)[0];
    for landmark in [
        format!("<table id=\"pid{first}\" class=\"plhin\""),
        format!("<td class=\"t_f\" id=\"postmessage_{first}\">"),
        format!("<em id=\"authorposton{first}\">发表于 "),
        "楼主".to_string(),
        "沙发".to_string(),
        "<div class=\"authi\"><a href=\"/space-uid-".to_string(),
    ] {
        assert!(page.contains(&landmark), "missing {landmark}");
    }
    let text = crate::text::post_paragraphs(7, Language::SimplifiedChinese, first);
    let paragraphs: Vec<String> = text.iter().map(|paragraph| escape(paragraph)).collect();
    assert!(page.contains(&paragraphs.join("<br />\n")), "{text:?}");
}

#[test]
fn lists_walls_and_soft_errors() {
    let (_, page) = served("/forum-1-1.html");
    let table = "<table summary=\"forum_1\" cellspacing=\"0\" cellpadding=\"0\" \
                 id=\"threadlisttableid\">";
    assert!(page.contains(table));
    assert!(page.contains("<tbody id=\"normalthread_") && page.contains("class=\"s xst\""));
    let (status, page) = served("/thread-999999-1-1.html");
    assert!(status == 200 && page.contains("抱歉，指定的主题不存在或已被删除或正在被审核"));
    let (status, page) = served("/forum.php?mod=post&action=reply&tid=1");
    assert!(status == 200 && page.contains("抱歉，您尚未登录"));
    assert!(page.contains("referer=%2Fforum.php%3Fmod%3Dpost%26action%3Dreply%26tid%3D1"));
    for url in [
        "/forum.php",
        "/space-uid-3.html",
        "/home.php?mod=space&do=list",
    ] {
        assert_eq!(served(url).0, 200, "{url}");
    }
}
