//! Tests of YaBB's codec (threads named by their start second) and its three-row posts.

use super::*;
use crate::families::test_support::{contains, fixture, served_in, summary};
use crate::{FamilyName, HISTORY_END_SECONDS, Site};

fn site() -> &'static Site {
    fixture(FamilyName::Yabb)
}

/// `{s}` is thread 5's second, `{b}` board 2's short name, `{u}` user 8's name, `{p}` the id of
/// thread 5's second post.
const CASES: &[&str] = &[
    " => Portal",
    "?board={b} => Board { board: 2, page: 1 }",
    "?board={b}/20 => Board { board: 2, page: 2 }",
    "?board={b}/0 => Board { board: 2, page: 1 } explicit",
    "?board={b}/7 => None",
    "?board={b};sort=subject => Board { board: 2, page: 1 } sort=Title",
    "?board={b}/20;sort=replies => Board { board: 2, page: 2 } sort=Replies",
    "?board={b};sort=lastpost => None",
    "?board=nosuchboard => None",
    "?num={s} => Thread { thread: 5, page: 1 }",
    "?num={s}/15 => Thread { thread: 5, page: 2 }",
    "?num={s}/0 => Thread { thread: 5, page: 1 } explicit",
    "?num={s}/3 => None",
    "?num=12 => None",
    "?num={s};r=1 => Post { post: {p} }",
    "?num={s}/15;r=1 => None",
    "?action=print;num={s} => Print { thread: 5 }",
    "?action=archive;num={s} => ArchiveThread { thread: 5 }",
    "?action=archive;board={b} => ArchiveBoard { board: 2 }",
    "?action=next;num={s} => AdjacentThread { thread: 5, newer: true }",
    "?action=prev;num={s} => AdjacentThread { thread: 5, newer: false }",
    "?action=viewprofile;username={u} => Profile { user: 8 }",
    "?action=viewprofile;username=Nobody8 => None",
    "?action=ml => MemberList { page: 1 }",
    "?action=ml;start=25 => MemberList { page: 2 }",
    "?action=eventcal;calmon=3;calyear=2025 => Calendar { year: 2025, month: 3 }",
    "?action=recent;start=10 => Search { page: 2 }",
    "?action=login => Login { next: None }",
    "?action=post;num={s} => Action { kind: Reply, target: 5 }",
    "?action=post;num={s};quote=1 => Action { kind: Quote, target: {p} }",
    "?action=post;board={b} => Action { kind: NewThread, target: 2 }",
    "?action=imsend;to={u} => Action { kind: Message, target: 8 }",
    "?action=dance => None",
];

#[test]
fn urls_decode_to_addresses() {
    let site = site();
    let history = site.history();
    let family = Yabb::new();
    let fill = |text: &str| {
        text.replace("{s}", &family.stamp(history, 5).to_string())
            .replace("{b}", &board_key(history, 2))
            .replace("{u}", &text::user_name(history.seed, 8))
            .replace("{p}", &history.thread_posts(5)[1].to_string())
    };
    for case in CASES {
        let (query, expected) = case.split_once(" => ").expect("url => expected");
        let url = format!("{SCRIPT}{}", fill(query));
        assert_eq!(summary(site.address_of(&url)), fill(expected), "{url}");
    }
    assert_eq!(summary(site.address_of("/index.php?board=x")), "None");
}

/// Threads started in the same second still get seconds of their own, in creation order.
#[test]
fn start_seconds_name_threads_one_to_one() {
    let history = site().history();
    let family = Yabb::new();
    let stamps = family.stamps(history);
    assert!(stamps.windows(2).all(|pair| pair[0] < pair[1]));
    for thread in 1..=history.thread_count() {
        let created = history.thread(thread).expect("thread").created;
        assert!(stamps[thread as usize - 1] >= created);
        let stamp = stamps[thread as usize - 1].to_string();
        assert_eq!(family.thread_of(history, &stamp), Some(thread));
    }
}

#[test]
fn a_post_spans_three_rows_and_names_are_not_links() {
    let site = site();
    let url = site.url_of(&Address::canonical(Route::Thread { thread: 5, page: 1 }));
    let (status, page) = served_in(site, &url, encoding_rs::WINDOWS_1252);
    assert_eq!(status, 200);
    let name = text::user_name(
        site.history().seed,
        site.history().thread(5).expect("5").author,
    );
    contains!(page;
        &format!("<tr><td class=\"windowbg2\" colspan=\"2\"><b>{name}</b>"),
        "<tr><td class=\"windowbg\" colspan=\"2\"><div class=\"message\"><p>",
        "<tr><td class=\"windowbg2 small\">&laquo; Posted on: ",
        "<sup>",
        "charset=windows-1252",
    );
    assert!(
        !page.contains(&format!(">{name}</a>")),
        "names are not links beside posts"
    );
    let missing = site.serve(&format!("{SCRIPT}?num=12"), HISTORY_END_SECONDS, None);
    assert_eq!(missing.status, 200, "soft errors");
}
