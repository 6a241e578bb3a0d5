//! Tests of the slug-only codec: names in, ids out, and back.

use super::*;
use crate::families::test_support::{contains, fixture, served_canonical, summary};
use crate::{FamilyName, HISTORY_END_SECONDS, Site};

fn site() -> &'static Site {
    fixture(FamilyName::Slugtree)
}

/// `{b}` stands for board 2's path without slashes around it (`c/<category>/<board>`), `{t}`
/// for thread 5's slug (thread 5 is in board 2 for these cases), `{u}` for user 8's name.
const CASES: &[&str] = &[
    "/ => Portal",
    "/{b}/ => Board { board: 2, page: 1 }",
    "/{b} => Board { board: 2, page: 1 } alias",
    "/{b}/?page=2 => Board { board: 2, page: 2 }",
    "/{b}/?page=1 => Board { board: 2, page: 1 } explicit",
    "/{b}/?page=0 => None",
    "/{b}/?ordering=title => Board { board: 2, page: 1 } sort=Title",
    "/{b}/?ordering=-replies&page=2 => Board { board: 2, page: 2 } sort=Replies",
    "/{b}/?ordering=-last_post => None",
    "/{b}/new/ => Action { kind: NewThread, target: 2 }",
    "/c/no-such/board/ => None",
    "/{b}/{t}/ => Thread { thread: {T}, page: 1 }",
    "/{b}/{t} => Thread { thread: {T}, page: 1 } alias",
    "/{b}/{t}/?page=2 => Thread { thread: {T}, page: 2 }",
    "/{b}/{t}/print/ => Print { thread: {T} }",
    "/{b}/{t}/reply/ => Action { kind: Reply, target: {T} }",
    "/{b}/{t}/next/ => AdjacentThread { thread: {T}, newer: true }",
    "/{b}/{t}/post-1/ => Post { post: {P} }",
    "/{b}/{t}/post-1/quote/ => Action { kind: Quote, target: {P} }",
    "/{b}/{t}/post-0/ => None",
    "/{b}/{t}/post-01/ => None",
    "/{b}/no-such-thread/ => None",
    "/archive/{a}/ => ArchiveBoard { board: 2 }",
    "/archive/{a}/{t}/ => ArchiveThread { thread: {T} }",
    "/members/ => MemberList { page: 1 }",
    "/members/?page=3 => MemberList { page: 3 }",
    "/members/{u}/ => Profile { user: 8 }",
    "/members/Nobody8/ => None",
    "/calendar/2025-03/ => Calendar { year: 2025, month: 3 }",
    "/search/?q=new&page=2 => Search { page: 2 }",
    "/accounts/login/ => Login { next: None }",
    "/messages/new/{u}/ => Action { kind: Message, target: 8 }",
    "/topic/5 => None",
];

#[test]
fn urls_decode_to_addresses() {
    let site = site();
    let history = site.history();
    let thread = history.board(2).expect("board 2").threads[0];
    let index = SlugIndex::new(history);
    let board = index.board_path(2);
    let board = board.trim_matches('/');
    let fill = |text: &str| {
        text.replace("{b}", board)
            .replace("{a}", board.trim_start_matches("c/"))
            .replace("{t}", &index.threads[thread as usize - 1])
            .replace("{T}", &thread.to_string())
            .replace("{P}", &history.thread_posts(thread)[0].to_string())
            .replace("{u}", &text::user_name(history.seed, 8))
    };
    for case in CASES {
        let (url, expected) = case.split_once(" => ").expect("url => expected");
        let url = fill(url);
        assert_eq!(summary(site.address_of(&url)), fill(expected), "{url}");
    }
}

/// Threads of one board with the same title keep apart by a numbered suffix, and every URL
/// of the forum carries no number but page numbers and dates.
#[test]
fn equal_titles_get_numbered_slugs_and_urls_carry_no_ids() {
    let site = site();
    let history = site.history();
    let index = SlugIndex::new(history);
    let mut seen = std::collections::HashSet::new();
    for thread in 1..=history.thread_count() {
        let board = history.thread(thread).expect("thread").board;
        assert!(seen.insert((board, index.threads[thread as usize - 1].clone())));
    }
    let thread = history.thread_count() / 2;
    let url = site.url_of(&Address::canonical(Route::Thread { thread, page: 2 }));
    let path = url.split('?').next().unwrap_or("");
    let numeric =
        |segment: &str| !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
    assert!(!path.split('/').any(numeric), "{url}");
    let page = served_canonical(site, Route::Thread { thread, page: 1 });
    contains!(page; "<article class=\"post\" id=\"post-1\">", "<time datetime=\"", "<div class=\"post-body\">");
    let wall = site.url_of(&Address::canonical(action(ActionKind::Reply, thread)));
    let answer = site.serve(&wall, HISTORY_END_SECONDS, None);
    let location = answer.header("Location").unwrap_or("");
    assert!(location.starts_with("/accounts/login/?next="), "{location}");
}
