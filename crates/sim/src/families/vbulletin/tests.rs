//! Tests of vBulletin's URL codec, dates and page markup.

use super::templates::{grouped, zone_label};
use super::*;
use crate::families::FamilyName;
use crate::families::test_support::table::{act, board, explicit, session, thread};
use crate::families::test_support::{cases, check_decodes, contains, fixture};
use crate::html::escape;
use crate::site::Site;

fn site() -> &'static Site {
    fixture(FamilyName::Vbulletin)
}

/// Decodes `url` and compares the whole address (`None`: the engine has no such page).
fn check(url: &str, expected: Option<Address>) {
    check_decodes(site(), url, expected);
}

fn sorted(sort: SortOrder) -> Variant {
    Variant {
        sort,
        ..Variant::default()
    }
}

#[test]
fn canonical_urls_decode() {
    let next = Some("/showthread.php?t=5".to_string());
    cases! {
        "/index.php" => Some(Route::Portal);
        "/" => Some(Route::Portal);
        "/forumdisplay.php?f=3" => board(3, 1);
        "/forumdisplay.php?f=3&page=2" => board(3, 2);
        "/showthread.php?t=123" => thread(123, 1);
        "/showthread.php?t=123&page=4" => thread(123, 4);
        "/showpost.php?p=456&postcount=7" => Some(Route::Post { post: 456 });
        "/showpost.php?p=456" => Some(Route::Post { post: 456 });
        "/printthread.php?t=12" => Some(Route::Print { thread: 12 });
        "/archive/index.php/f-3.html" => Some(Route::ArchiveBoard { board: 3 });
        "/archive/index.php/t-123.html" => Some(Route::ArchiveThread { thread: 123 });
        "/showthread.php?t=9&goto=nextnewest" => Some(Route::AdjacentThread { thread: 9, newer: true });
        "/showthread.php?t=9&goto=nextoldest" => Some(Route::AdjacentThread { thread: 9, newer: false });
        "/member.php?u=5" => Some(Route::Profile { user: 5 });
        "/memberlist.php" => Some(Route::MemberList { page: 1 });
        "/memberlist.php?page=3" => Some(Route::MemberList { page: 3 });
        "/calendar.php?month=3&year=2025" => Some(Route::Calendar { year: 2025, month: 3 });
        "/search.php?do=getnew" => Some(Route::Search { page: 1 });
        "/search.php?do=getnew&page=7" => Some(Route::Search { page: 7 });
        "/login.php" => Some(Route::Login { next: None });
        "/login.php?url=%2Fshowthread.php%3Ft%3D5" => Some(Route::Login { next: next.clone() });
        "/newreply.php?do=newreply&t=12" => act(ActionKind::Reply, 12);
        "/newreply.php?do=newreply&p=456" => act(ActionKind::Quote, 456);
        "/newthread.php?do=newthread&f=3" => act(ActionKind::NewThread, 3);
        "/private.php?do=newpm&u=5" => act(ActionKind::Message, 5);
        // Real engines ignore parameters they do not know.
        "/showthread.php?t=5&highlight=brake" => thread(5, 1);
        "/forumdisplay.php?f=2&daysprune=-1" => board(2, 1);
        "/member.php?u=4&tab=stats" => Some(Route::Profile { user: 4 });
    }
}

#[test]
fn variants_decode() {
    let hex = session_hex(0x0123_4567_89ab_cdef);
    cases! {
        "/forumdisplay.php?f=3&page=1" => board(3, 1), explicit();
        "/showthread.php?t=8&page=1" => thread(8, 1), explicit();
        "/memberlist.php?page=1" => Some(Route::MemberList { page: 1 }), explicit();
        "/forumdisplay.php?f=3&sort=title&order=asc" => board(3, 1), sorted(SortOrder::Title);
        "/forumdisplay.php?f=3&sort=postusername&order=asc" => board(3, 1), sorted(SortOrder::Author);
        "/forumdisplay.php?f=3&sort=replycount&order=desc" => board(3, 1), sorted(SortOrder::Replies);
        "/forumdisplay.php?f=3&sort=dateline&order=desc&page=2" => board(3, 2), sorted(SortOrder::Created);
        &format!("/showthread.php?s={hex}&t=5") => thread(5, 1), session(0x0123_4567_89ab_cdef);
        &format!("/index.php?s={hex}") => Some(Route::Portal), session(0x0123_4567_89ab_cdef);
        "/index.php?s=" => Some(Route::Portal);
    }
}

#[test]
fn junk_urls_are_not_pages() {
    cases! {
        "/showthread.php" => None; "/showthread.php?t=abc" => None;
        "/showthread.php?t=5&page=0" => None; "/showthread.php?t=5&page=x" => None;
        "/showthread.php?t=5&goto=newpost" => None;
        "/forumdisplay.php?f=3&sort=title" => None;
        "/forumdisplay.php?f=3&sort=views&order=desc" => None;
        "/forumdisplay.php?f=3&sort=title&order=desc" => None; "/showpost.php" => None;
        "/archive/index.php/t-.html" => None; "/archive/index.php/t-12-p-2.html" => None;
        "/archive/index.php/t-+12.html" => None; "/archive/index.php/x-3.html" => None;
        "/archive/index.php" => None; "/search.php?do=finduser&u=3" => None;
        "/newreply.php?do=newreply" => None; "/newreply.php?t=5" => None;
        "/private.php?do=showpm&pmid=5" => None; "/calendar.php?month=3" => None;
        "/viewtopic.php?t=5" => None; "/register.php" => None;
    }
}

#[test]
fn every_enumerated_address_round_trips_with_sessions_first() {
    let site = site();
    let mut count = 0;
    site.for_each_address(crate::HISTORY_END_SECONDS, |mut address| {
        for session in [None, Some(0xfeed_0000_beef_0001)] {
            address.variant.session = session;
            let url = site.url_of(&address);
            assert!(url.starts_with('/') && !url.contains('#'), "{url}");
            assert_eq!(site.address_of(&url), Some(address.clone()), "{url}");
            count += 1;
        }
    });
    assert!(count > 1_000);
    let next = Some("/showthread.php?t=5&page=2".to_string());
    let login = Address::canonical(Route::Login { next });
    let url = site.url_of(&login);
    assert_eq!(url, "/login.php?url=/showthread.php%3Ft%3D5%26page%3D2");
    assert_eq!(site.address_of(&url), Some(login));
    let address = Address {
        route: Route::Thread { thread: 4, page: 2 },
        variant: session(1),
    };
    let expected = format!("/showthread.php?s={}&t=4&page=2", session_hex(1));
    assert_eq!(site.url_of(&address), expected);
}

#[test]
fn numbers_and_zones_look_like_vbulletin() {
    let numbers = [
        (0, "0"),
        (999, "999"),
        (1_234, "1,234"),
        (1_234_567, "1,234,567"),
    ];
    for (number, text) in numbers {
        assert_eq!(grouped(number), text);
    }
    assert_eq!(zone_label(-5 * 3_600), "GMT -5");
    assert_eq!(zone_label(0), "GMT");
    assert_eq!(zone_label(5 * 3_600 + 1_800), "GMT +5:30");
}

fn serve(url: &str) -> (u16, String) {
    let response = site().serve(url, crate::HISTORY_END_SECONDS, None);
    let (page, _, malformed) = encoding_rs::WINDOWS_1252.decode(&response.body);
    assert!(!malformed, "{url}");
    (response.status, page.into_owned())
}

#[test]
fn thread_page_renders_posts_in_vbulletin_markup() {
    let history = site().history();
    let at = crate::HISTORY_END_SECONDS;
    let id = (1..=history.thread_count())
        .find(|&id| history.thread_posts_at(id, at).len() > 10)
        .expect("a thread with two pages");
    let (status, page) = serve(&format!("/showthread.php?t={id}"));
    assert_eq!(status, 200);
    let first = history.thread_posts(id)[0];
    let paragraphs = crate::text::post_paragraphs(7, history.language, first);
    let escaped: Vec<String> = paragraphs.iter().map(|text| escape(text)).collect();
    let body = format!(
        "<div id=\"post_message_{first}\">{}</div>",
        escaped.join("<br />\n")
    );
    assert!(page.contains(&body));
    contains! { page;
        &format!("<table id=\"post{first}\" class=\"tborder\""),
        &format!("id=\"postcount{first}\" name=\"1\"><strong>1</strong>"),
        "charset=windows-1252", "class=\"bigusername\"", "<td class=\"thead\"",
        "Join Date: ", "Posts: ", "Page 1 of ", "&amp;page=2\">2</a>", "goto=next",
        "Welcome, Guest.", "Last visited: ", "All times are GMT -5. The time now is ",
        "Show Printable Version", "/archive/index.php/t-", "newreply.php?s=",
    }
}

#[test]
fn boards_walls_and_soft_errors_render() {
    let (status, page) = serve("/forumdisplay.php?f=1");
    assert_eq!(status, 200);
    contains! { page;
        "id=\"threadslist\"", "<td class=\"alt1\" id=\"td_threadtitle_",
        "id=\"thread_title_", "Thread Start Time", "by <a href=\"/member.php?s=",
        "Go to last post",
    }
    let (status, missing) = serve("/showthread.php?t=999999");
    assert!(status == 200 && missing.contains(NO_THREAD));
    let (status, wall) = serve("/newreply.php?do=newreply&t=1");
    assert!(status == 200 && wall.contains(NO_PERMISSION));
    assert!(
        serve("/showpost.php?p=1")
            .1
            .contains("<div id=\"post_message_1\">")
    );
}
