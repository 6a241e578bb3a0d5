//! Tests of the list archive's codec (lists as path segments, messages in month folders) and
//! of its message pages and indexes.

use super::*;
use crate::families::test_support::{contains, fixture, served_canonical, summary};
use crate::{FamilyName, HISTORY_END_SECONDS, Site};

fn site() -> &'static Site {
    fixture(FamilyName::Mailarchive)
}

/// `{l}` is board 2's list, `{m}` the month folder and `{n}` the number of thread 5's second
/// message `{p}`, `{f}` the folder and number of thread 5's first, `{s}` the Message-ID stamp
/// of `{p}`, `{u}` user 8's name, `{o}` another list.
const CASES: &[&str] = &[
    "/ => Portal alias",
    "/archives/ => Portal",
    "/archives/{l}/threads.html => Board { board: 2, page: 1 }",
    "/archives/{l}/threads2.html => Board { board: 2, page: 2 }",
    "/archives/{l}/threads1.html => Board { board: 2, page: 1 } explicit",
    "/archives/{l}/threads02.html => None",
    "/archives/{l}/date.html => Board { board: 2, page: 1 } sort=Created",
    "/archives/{l}/date3.html => Board { board: 2, page: 3 } sort=Created",
    "/archives/{l}/author.html => Board { board: 2, page: 1 } sort=Author",
    "/archives/{l}/subject.html => Board { board: 2, page: 1 } sort=Title",
    "/archives/{l}/activity.html => Board { board: 2, page: 1 } sort=Replies",
    "/archives/nosuchlist/threads.html => None",
    "/archives/{t}/{f}.html => Thread { thread: 5, page: 1 }",
    "/archives/{t}/{f}.html?part=1 => Thread { thread: 5, page: 1 } explicit",
    "/archives/{t}/{m}/msg{n}.html => Thread { thread: 5, page: 2 }",
    "/archives/{t}/{m}/msg{n}.html?part=1 => None",
    "/archives/{t}/{m}/msg{n}.html?part=2 => None",
    "/archives/{o}/{m}/msg{n}.html => None",
    "/archives/{t}/1999-01/msg{n}.html => None",
    "/archives/{t}/{m}/msg{p}.html => None",
    "/msgid/{t}/{s}.{p} => Post { post: {p} }",
    "/msgid/{t}/19990101000000.{p} => None",
    "/archives/{t}/print/thread5.html => Print { thread: 5 }",
    "/archives/{t}/flat/thread5.html => ArchiveThread { thread: 5 }",
    "/archives/{l}/flat/ => ArchiveBoard { board: 2 }",
    "/archives/{t}/nextthread5.html => AdjacentThread { thread: 5, newer: true }",
    "/archives/authors/{u}.html => Profile { user: 8 }",
    "/archives/authors/ => MemberList { page: 1 }",
    "/archives/authors/?page=2 => MemberList { page: 2 }",
    "/archives/calendar/2025-03.html => Calendar { year: 2025, month: 3 }",
    "/archives/search?page=2 => Search { page: 2 }",
    "/mailman/login => Login { next: None }",
    "/mailman/post/{t}?thread=5 => Action { kind: Reply, target: 5 }",
    "/mailman/post/{o}?thread=5 => None",
    "/mailman/post/{t}?quote={p} => Action { kind: Quote, target: {p} }",
    "/mailman/post/{l} => Action { kind: NewThread, target: 2 }",
    "/mailman/contact/{u} => Action { kind: Message, target: 8 }",
    "/archives/{l}/dance.html => None",
];

#[test]
fn urls_decode_to_addresses() {
    let site = site();
    let history = site.history();
    let family = Mailarchive::new();
    let posts = history.thread_posts(5);
    assert!(posts.len() >= 2, "thread 5 has a reply");
    let (first, second) = (posts[0], posts[1]);
    let folder = |post: u32| {
        let path = family.message_path(history, post);
        let (_, rest) = path
            .rsplit_once(&format!("{}/", family.list_of_thread(history, 5)))
            .unwrap();
        rest.trim_end_matches(".html").to_string()
    };
    let second_folder = folder(second);
    let (month, number) = second_folder.split_once("/msg").expect("month/msgN");
    let thread_list = family.list_of_thread(history, 5);
    let other = (1..=history.board_count())
        .map(|board| family.list(history, board))
        .find(|list| *list != thread_list)
        .expect("two lists");
    let fill = |text: &str| {
        text.replace("{l}", &family.list(history, 2))
            .replace("{t}", &thread_list)
            .replace("{o}", &other)
            .replace("{m}", month)
            .replace("{n}", number)
            .replace("{f}", &folder(first))
            .replace("{s}", &stamp(history.post(second).unwrap().created))
            .replace("{u}", &text::user_name(history.seed, 8))
            .replace("{p}", &second.to_string())
    };
    for case in CASES {
        let (url, expected) = case.split_once(" => ").expect("url => expected");
        let url = fill(url);
        assert_eq!(summary(site.address_of(&url)), fill(expected), "{url}");
    }
}

/// The host's front page sends visitors to the archive index with a temporary redirect.
#[test]
fn the_front_page_answers_302_to_the_archive_index() {
    let site = site();
    assert_eq!(site.portal_path(), "/");
    let response = site.serve("/", HISTORY_END_SECONDS, None);
    assert_eq!(response.status, 302);
    assert_eq!(response.header("Location"), Some("/archives/"));
}

#[test]
fn a_message_page_shows_its_header_list_over_the_body() {
    let site = site();
    let history = site.history();
    let thread = (1..=history.thread_count())
        .find(|&thread| history.thread_posts(thread).len() >= 3)
        .expect("a thread of three messages");
    let page = served_canonical(site, Route::Thread { thread, page: 2 });
    let second = history.thread_posts(thread)[1];
    let author = text::user_name(history.seed, history.post(second).unwrap().author);
    contains!(page;
        &format!("<li><em>From</em>: {author} &lt;"),
        "<li><em>Date</em>: ",
        " +0000</li>",
        "<li><em>Subject</em>: Re: ",
        "<li><em>In-reply-to</em>: <a href=\"/archives/",
        "Thread Prev</a>]",
        "Thread Next</a>]",
        "Date Index</a>]",
        " wrote:",
        "&gt; ",
    );
    let first = served_canonical(site, Route::Thread { thread, page: 1 });
    assert!(
        !first.contains("In-reply-to"),
        "a thread's first message answers none"
    );
    assert!(!first.contains(" wrote:"), "and quotes none");
}

#[test]
fn thread_steps_run_on_into_the_neighbouring_threads_and_replies_are_titled_re() {
    let site = site();
    let history = site.history();
    let board = history.thread(1).unwrap().board;
    let (thread, next) = (1..history.thread_count())
        .filter(|&thread| history.thread(thread).unwrap().board == board)
        .find_map(|thread| {
            let next = (thread + 1..=history.thread_count())
                .find(|&other| history.thread(other).unwrap().board == board)?;
            (history.thread_posts(thread).len() >= 2).then_some((thread, next))
        })
        .expect("a thread of two messages with a later thread on its list");
    let messages = history.thread_posts(thread).len() as u32;
    let last = served_canonical(
        site,
        Route::Thread {
            thread,
            page: messages,
        },
    );
    let next_first = site.url_of(&Address::canonical(Route::Thread {
        thread: next,
        page: 1,
    }));
    contains!(last;
        &format!("[<a href=\"{next_first}\">Thread Next</a>]"),
        "<title>Re: ",
    );
    let first_of_next = served_canonical(
        site,
        Route::Thread {
            thread: next,
            page: 1,
        },
    );
    let back = site.url_of(&Address::canonical(Route::Thread {
        thread,
        page: messages,
    }));
    contains!(first_of_next; &format!("[<a href=\"{back}\">Thread Prev</a>]"));
    assert!(
        !first_of_next.contains("<title>Re: "),
        "a thread's first message is titled by its subject alone"
    );
}

#[test]
fn indexes_show_threads_as_trees_and_dates_flat() {
    let site = site();
    let by_thread = served_canonical(site, Route::Board { board: 1, page: 1 });
    contains!(by_thread; "<ul class=\"bythread\">", "<ul>\n<li><strong><a href=\"/archives/", "[<a href=\"/archives/");
    let url = site.url_of(&Address {
        route: Route::Board { board: 1, page: 1 },
        variant: Variant {
            sort: SortOrder::Created,
            ..Variant::default()
        },
    });
    let response = site.serve(&url, HISTORY_END_SECONDS, None);
    let by_date = String::from_utf8(response.body).expect("utf-8");
    contains!(by_date; "<ul class=\"bydate\">", "archive by date");
    assert!(!by_date.contains("<ul>\n<li>"), "the date view is flat");
}

/// Every reply names an earlier message of its own thread as its parent.
#[test]
fn reply_chains_stay_inside_their_thread() {
    let history = site().history();
    for thread in 1..=history.thread_count() {
        let posts = history.thread_posts(thread);
        for (index, &post) in posts.iter().enumerate() {
            match history.reply_parent(post) {
                None => assert_eq!(index, 0, "post {post}"),
                Some(parent) => assert!(posts[..index].contains(&parent), "post {post}"),
            }
        }
    }
}
