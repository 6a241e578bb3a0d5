//! Tests of SMF's URL codec, dates and page markup.

use super::templates::{absolute, date, grouped};
use super::*;
use crate::families::FamilyName;
use crate::families::test_support::table::{act, board, explicit, session, thread};
use crate::families::test_support::{cases, check_decodes, contains, fixture};
use crate::html::escape;
use crate::site::Site;

fn site() -> &'static Site {
    fixture(FamilyName::Smf)
}

/// Decodes `url` and compares the whole address (`None`: the engine has no such page).
fn check(url: &str, expected: Option<Address>) {
    check_decodes(site(), url, expected);
}

fn sorted(sort: SortOrder, explicit_first_page: bool) -> Variant {
    Variant {
        sort,
        explicit_first_page,
        ..Variant::default()
    }
}

#[test]
fn canonical_urls_decode() {
    let next = Some("/index.php?topic=5.0".to_string());
    cases! {
        "/index.php" => Some(Route::Portal);
        "/" => Some(Route::Portal);
        "/index.php?board=3.0" => board(3, 1);
        "/index.php?board=3.20" => board(3, 2);
        "/index.php?board=3" => board(3, 1);
        "/index.php?topic=123.0" => thread(123, 1);
        "/index.php?topic=123.45" => thread(123, 4);
        "/index.php?topic=123.msg456" => Some(Route::Post { post: 456 });
        "/index.php?topic=123.msg456#msg456" => Some(Route::Post { post: 456 });
        "/index.php?action=printpage;topic=12.0" => Some(Route::Print { thread: 12 });
        "/index.php?board=3.0;wap2" => Some(Route::ArchiveBoard { board: 3 });
        "/index.php?topic=123.0;wap2" => Some(Route::ArchiveThread { thread: 123 });
        "/index.php?topic=9.0;prev_next=next" => Some(Route::AdjacentThread { thread: 9, newer: true });
        "/index.php?topic=9.0;prev_next=prev" => Some(Route::AdjacentThread { thread: 9, newer: false });
        "/index.php?action=profile;u=5" => Some(Route::Profile { user: 5 });
        "/index.php?action=mlist" => Some(Route::MemberList { page: 1 });
        "/index.php?action=mlist;start=60" => Some(Route::MemberList { page: 3 });
        "/index.php?action=calendar;year=2025;month=3" => Some(Route::Calendar { year: 2025, month: 3 });
        "/index.php?action=recent" => Some(Route::Search { page: 1 });
        "/index.php?action=recent;start=60" => Some(Route::Search { page: 7 });
        "/index.php?action=login" => Some(Route::Login { next: None });
        "/index.php?action=login;redirect=%2Findex.php%3Ftopic%3D5.0" => Some(Route::Login { next: next.clone() });
        "/index.php?action=post;topic=12.0" => act(ActionKind::Reply, 12);
        "/index.php?action=post;board=3.0" => act(ActionKind::NewThread, 3);
        "/index.php?action=post;quote=456;topic=12.0" => act(ActionKind::Quote, 456);
        "/index.php?action=pm;sa=send;u=5" => act(ActionKind::Message, 5);
        // Real engines ignore parameters they do not know; `&` separates as well as `;`.
        "/index.php?topic=5.0;all" => thread(5, 1);
        "/index.php?topic=5.15&highlight=Motor" => thread(5, 2);
        "/index.php?action=profile;u=4;area=summary" => Some(Route::Profile { user: 4 });
    }
}

#[test]
fn variants_decode() {
    let token = 0x0123_4567_89ab_cdef;
    let hex = session_hex(token);
    cases! {
        "/index.php/board,3.0.html" => board(3, 1), explicit();
        "/index.php/topic,8.0.html" => thread(8, 1), explicit();
        "/index.php/topic,8.30.html" => thread(8, 3), Variant { alias: true, ..Variant::default() };
        "/index.php?action=mlist;start=0" => Some(Route::MemberList { page: 1 }), explicit();
        "/index.php?board=3.0;sort=subject" => board(3, 1), sorted(SortOrder::Title, false);
        "/index.php?board=3.20;sort=starter" => board(3, 2), sorted(SortOrder::Author, false);
        "/index.php?board=3.0;sort=replies;desc" => board(3, 1), sorted(SortOrder::Replies, false);
        "/index.php?board=3.0;sort=first_post;desc" => board(3, 1), sorted(SortOrder::Created, false);
        "/index.php/board,3.0/sort,replies/desc.html" => board(3, 1), sorted(SortOrder::Replies, true);
        &format!("/index.php?topic=5.0;PHPSESSID={hex}") => thread(5, 1), session(token);
        &format!("/index.php?PHPSESSID={hex}") => Some(Route::Portal), session(token);
        &format!("/index.php/topic,5.0.html?PHPSESSID={hex}") => thread(5, 1), Variant { session: Some(token), explicit_first_page: true, ..Variant::default() };
        "/index.php?PHPSESSID=" => Some(Route::Portal);
    }
}

#[test]
fn junk_urls_are_not_pages() {
    cases! {
        "/index.php?topic=abc.0" => None; "/index.php?topic=5.7" => None;
        "/index.php?topic=5.new" => None; "/index.php?topic=5.15;wap2" => None;
        "/index.php?topic=5.0;prev_next=later" => None; "/index.php?board=3.5" => None;
        "/index.php?board=3.msg4" => None; "/index.php?board=3.0;sort=subject;desc" => None;
        "/index.php?board=3.0;sort=views" => None;
        "/index.php?board=3.0;sort=replies" => None;
        "/index.php?action=printpage;topic=5.15" => None; "/index.php?action=profile" => None;
        "/index.php?action=mlist;start=7" => None;
        "/index.php?action=calendar;year=2025" => None; "/index.php?action=post" => None;
        "/index.php?action=pm;sa=show;u=3" => None; "/index.php?action=register" => None;
        "/index.php/board,3.0" => None; "/index.php/action,profile/u,5.html" => None;
        "/index.php/topic,5.msg9.html" => None; "/index.php/.html" => None;
        "/forum/index.php?topic=5.0" => None; "/viewtopic.php?t=5" => None;
    }
}

#[test]
fn every_enumerated_address_round_trips() {
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
    let next = Some("/index.php?topic=5.15;prev_next=next".to_string());
    let login = Address::canonical(Route::Login { next });
    let url = site.url_of(&login);
    assert_eq!(
        url,
        "/index.php?action=login;redirect=/index.php%3Ftopic%3D5.15%3Bprev_next%3Dnext"
    );
    assert_eq!(site.address_of(&url), Some(login));
    let alias = Address {
        route: Route::Thread { thread: 4, page: 3 },
        variant: Variant {
            alias: true,
            ..Variant::default()
        },
    };
    assert_eq!(site.url_of(&alias), "/index.php/topic,4.30.html");
    assert_eq!(site.address_of(&site.url_of(&alias)), Some(alias));
}

#[test]
fn numbers_and_dates_look_like_smf() {
    let numbers = [
        (0, "0"),
        (999, "999"),
        (1_234, "1.234"),
        (1_234_567, "1.234.567"),
    ];
    for (number, text) in numbers {
        assert_eq!(grouped(number), text);
    }
    let history = site().history();
    let context = RenderContext {
        history,
        family: site().family(),
        now: 1_743_458_460,
        session: None,
        opaque_cursor_seed: None,
        cursors_count_down: false,
    };
    // 2025-03-31 22:01:00 UTC is 23:01 on the 31st in the forum's zone (UTC+1).
    assert_eq!(absolute(&context, 1_743_458_460), "31. März 2025, 23:01:00");
    assert_eq!(
        date(&context, 1_743_458_460 - 3_600),
        "<strong>Heute</strong> um 22:01:00"
    );
    assert_eq!(
        date(&context, 1_743_458_460 - 86_400),
        "<strong>Gestern</strong> um 23:01:00"
    );
    assert_eq!(date(&context, 1_743_112_800), "27. März 2025, 23:00:00");
    assert_eq!(date(&context, 1_741_000_000), "03. März 2025, 12:06:40");
}

fn serve(url: &str) -> (u16, String) {
    let response = site().serve(url, crate::HISTORY_END_SECONDS, None);
    (
        response.status,
        String::from_utf8(response.body).expect("UTF-8 pages"),
    )
}

#[test]
fn topic_page_renders_messages_in_smf_markup() {
    let history = site().history();
    let at = crate::HISTORY_END_SECONDS;
    let id = (1..=history.thread_count())
        .find(|&id| history.thread_posts_at(id, at).len() > 15)
        .expect("a thread with two pages");
    let (status, page) = serve(&format!("/index.php?topic={id}.0"));
    assert_eq!(status, 200);
    let first = history.thread_posts(id)[0];
    let paragraphs = crate::text::post_paragraphs(7, history.language, first);
    let escaped: Vec<String> = paragraphs.iter().map(|text| escape(text)).collect();
    let body = format!(
        "<div class=\"inner\" id=\"msg_{first}\">{}</div>",
        escaped.join("<br />\n")
    );
    assert!(page.contains(&body));
    contains! { page;
        &format!("<div class=\"windowbg\" id=\"msg{first}\">"),
        &format!("<h5 id=\"subject_{first}\"><a href=\"/index.php?topic={id}.msg{first};PHPSESSID="),
        &format!("<link rel=\"canonical\" href=\"/index.php?topic={id}.0;PHPSESSID="),
        "<div class=\"post_wrapper\">", "<li class=\"postcount\">Beiträge: ",
        "<strong>am:</strong> ", "<strong>Antwort #1 am:</strong> ",
        "Seiten: [<strong>1</strong>] <a class=\"navPages\"", ".15;PHPSESSID=",
        "Hallo <span>Gast</span>", "Letzter Besuch: ", "Zitieren</a>", "Drucken</span>",
        "prev_next=", ";wap2",
    }
}

#[test]
fn boards_walls_and_errors_render() {
    let (status, page) = serve("/index.php?board=1.0");
    assert_eq!(status, 200);
    contains! { page;
        "<table class=\"table_grid\"", "<span id=\"msg_",
        "Gestartet von <a href=\"/index.php?action=profile;u=", " Antworten<br />",
        " Aufrufe</td>", "alt=\"Letzter Beitrag\"", "sort=first_post;desc", "Neues Thema",
    }
    let (status, missing) = serve("/index.php?topic=999999.0");
    assert!(status == 404 && missing.contains(NOT_FOUND));
    let (status, wall) = serve("/index.php?action=profile;u=1");
    assert!(status == 403 && wall.contains(MEMBERS_ONLY));
    let (status, wall) = serve("/index.php?action=post;topic=1.0");
    assert!(status == 403 && wall.contains("action=login;redirect="));
}
