//! Hand-made crawls, each with the gaps its audit must name and no others.

use super::*;

const F: &str = "http://f.test";

fn url(path: &str) -> String {
    format!("{F}{path}")
}

/// A thread page holding posts named `posts` (their identities), with page-flipping links.
fn thread_page(path: &str, posts: &[&str], links: &[&str]) -> FetchedPage {
    FetchedPage {
        url: url(path),
        status: 200,
        role: Some(Role::Thread),
        list_links: links.iter().map(|link| url(link)).collect(),
        posts: PostsSeen::of(posts.iter().map(|identity| (identity_key(identity), None))),
        ..FetchedPage::default()
    }
}

/// `count` posts named `prefix1`, `prefix2`, ...
fn posts(prefix: &str, from: usize, count: usize) -> Vec<String> {
    (from..from + count)
        .map(|number| format!("{prefix}{number}"))
        .collect()
}

fn thread_page_of(path: &str, posts: &[String], links: &[&str]) -> FetchedPage {
    let posts: Vec<&str> = posts.iter().map(String::as_str).collect();
    thread_page(path, &posts, links)
}

/// A board page listing threads (path, replies) with page-flipping links.
fn board_page(path: &str, entries: &[(&str, Option<u64>)], links: &[&str]) -> FetchedPage {
    FetchedPage {
        url: url(path),
        status: 200,
        role: Some(Role::ThreadList),
        list_links: links.iter().map(|link| url(link)).collect(),
        thread_entries: entries
            .iter()
            .map(|(path, replies)| EntrySeen {
                title: format!("thread {path}"),
                url: url(path),
                replies: *replies,
                last_reply: None,
            })
            .collect(),
        ..FetchedPage::default()
    }
}

fn failed(path: &str, status: u16) -> FetchedPage {
    FetchedPage {
        url: url(path),
        status,
        error: (status == 0).then(|| "connection refused".to_string()),
        ..FetchedPage::default()
    }
}

fn record(pages: Vec<FetchedPage>) -> CrawlRecord {
    CrawlRecord {
        pages,
        ..CrawlRecord::default()
    }
}

/// A gap as the cases write it: kind, missing page's path, and why.
type Expected<'a> = (GapKind, &'a str, Missing);

fn check(case: &str, record: &CrawlRecord, expected: &[Expected<'_>]) -> AuditReport {
    let report = audit(record);
    let found: Vec<(GapKind, String, Missing)> = report
        .gaps
        .iter()
        .map(|gap| (gap.kind, gap.url.clone(), gap.missing.clone()))
        .collect();
    let expected: Vec<(GapKind, String, Missing)> = expected
        .iter()
        .map(|(kind, path, missing)| (*kind, url(path), missing.clone()))
        .collect();
    assert_eq!(found, expected, "{case}");
    report
}

/// Two threads of 10 and 3 posts on one board: the forum as the other cases change it.
fn whole_forum() -> Vec<FetchedPage> {
    vec![
        board_page(
            "/b?id=1",
            &[("/t?id=1", Some(9)), ("/t?id=2", Some(2))],
            &[],
        ),
        thread_page_of("/t?id=1", &posts("a", 1, 10), &[]),
        thread_page_of("/t?id=2", &posts("b", 1, 3), &[]),
    ]
}

#[test]
fn a_crawl_whole_by_the_forums_counts_has_no_gap() {
    let report = check("whole", &record(whole_forum()), &[]);
    assert!(!report.is_incomplete());
    assert_eq!(report.totals.threads_listed, 2);
    assert_eq!(report.totals.posts_counted, 13);
    assert_eq!(report.totals.posts_stored_of_counted, 13);
    assert!(report.totals.counts_are_replies);
}

#[test]
fn threads_listed_and_not_fetched_are_named_with_the_reason() {
    let mut pages = whole_forum();
    pages[0].thread_entries.push(EntrySeen {
        url: url("/t?id=3#unread"),
        replies: Some(4),
        ..EntrySeen::default()
    });
    let report = check(
        "never queued",
        &record(pages.clone()),
        &[(GapKind::ListedThread, "/t?id=3", Missing::NeverQueued)],
    );
    assert_eq!(report.gaps[0].posts_missing, 5);
    assert_eq!(
        report.gaps[0].list.as_deref(),
        Some(url("/b?id=1").as_str())
    );
    assert_eq!(report.urls_to_fetch(), vec![url("/t?id=3")]);

    pages.push(failed("/t?id=3", 0));
    check(
        "no answer",
        &record(pages.clone()),
        &[(
            GapKind::ListedThread,
            "/t?id=3",
            Missing::Failed {
                status: 0,
                error: Some("connection refused".into()),
            },
        )],
    );
    // Asked again while closing gaps, and answered: the earlier failure no longer counts.
    pages.push(thread_page_of("/t?id=3", &posts("c", 1, 5), &[]));
    check("answered the second time", &record(pages), &[]);
}

#[test]
fn entries_never_followed_under_another_kind_of_link_or_a_fetched_title_are_not_gaps() {
    let mut pages = whole_forum();
    let mut entry = |title: &str, path: &str| {
        pages[0].thread_entries.push(EntrySeen {
            title: title.into(),
            url: url(path),
            replies: Some(3),
            ..EntrySeen::default()
        })
    };
    // A latest-posts box: the same thread under a link to its last post.
    entry("thread /t?id=1", "/t?id=1&post=10");
    // The same kind of link, and a title the crawl has: the thread shown again.
    entry("thread /t?id=2", "/t?id=2&view=unread");
    // A last-post date read as the entry's link.
    entry("2026-03-01 10:15", "/redirect.php?goto=lastpost&tid=2");
    // The kind of link threads are reached by, under a title the crawl lacks: a thread the
    // plan did not follow.
    entry("thread /t?id=7", "/t?id=7");
    let report = check(
        "not followed",
        &record(pages),
        &[(GapKind::ListedThread, "/t?id=7", Missing::NeverQueued)],
    );
    assert_eq!(report.totals.entries_not_followed, 3);
    assert_eq!(report.totals.threads_listed, 3);
}

#[test]
fn entries_of_a_crawl_that_reached_no_thread_are_all_gaps() {
    // Regression: a plan that followed nothing from the portal fetched one page; the audit
    // forgave every entry as "a kind of link the crawl does not follow" and called the crawl
    // complete.
    let board = board_page(
        "/b?id=1",
        &[("/t?id=1", Some(4)), ("/t?id=2", Some(0))],
        &[],
    );
    let report = check(
        "no thread reached",
        &record(vec![board]),
        &[
            (GapKind::ListedThread, "/t?id=1", Missing::NeverQueued),
            (GapKind::ListedThread, "/t?id=2", Missing::NeverQueued),
        ],
    );
    assert_eq!(report.totals.entries_not_followed, 0);
    assert!(report.is_incomplete());
}

#[test]
fn boards_a_board_index_lists_are_not_counted_as_threads() {
    let mut pages = whole_forum();
    let mut index = board_page("/", &[("/b?id=1", Some(40))], &[]);
    index.role = Some(Role::Portal);
    pages.insert(0, index);
    let report = check("board index", &record(pages), &[]);
    assert_eq!(report.totals.threads_listed, 2);
}

#[test]
fn counts_are_read_from_boards_not_from_boxes_elsewhere() {
    let mut pages = whole_forum();
    let mut portal = board_page("/", &[("/t?id=2", Some(480))], &[]);
    portal.role = Some(Role::Portal);
    pages.insert(0, portal);
    check("a box of views", &record(pages), &[]);
}

#[test]
fn where_two_boards_count_one_thread_differently_the_smaller_count_stands() {
    let mut pages = whole_forum();
    pages.push(board_page("/latest", &[("/t?id=2", Some(480))], &[]));
    check("a column of views read as replies", &record(pages), &[]);
}

#[test]
fn threads_reached_by_redirect_or_under_another_spelling_are_not_gaps() {
    let mut pages = whole_forum();
    pages[0].thread_entries.push(EntrySeen {
        url: url("/t?id=3"),
        ..EntrySeen::default()
    });
    pages[0].thread_entries.push(EntrySeen {
        url: url("/t?id=4&start=0"),
        ..EntrySeen::default()
    });
    let mut moved = failed("/t?id=3", 301);
    moved.redirect_to = Some(url("/thread/3"));
    pages.push(moved);
    pages.push(thread_page_of("/thread/3", &posts("c", 1, 2), &[]));
    let mut crawl = record(pages.clone());
    crawl.passed_over.push(url("/t?id=4&start=0"));
    check("redirected, passed over", &crawl, &[]);

    // A redirect to a page that failed is the failure's gap.
    pages.pop();
    pages.push(failed("/thread/3", 500));
    let mut crawl = record(pages);
    crawl.passed_over.push(url("/t?id=4&start=0"));
    check(
        "redirected to a failure",
        &crawl,
        &[(
            GapKind::ListedThread,
            "/t?id=3",
            Missing::Failed {
                status: 500,
                error: None,
            },
        )],
    );
}

#[test]
fn list_pages_linked_or_within_the_pagers_numbers_are_named() {
    let ten = |from| posts("a", from, 10);
    let pages = vec![
        board_page("/b?id=1", &[("/t?id=1", Some(59))], &[]),
        thread_page_of(
            "/t?id=1",
            &ten(1),
            &["/t?id=1&page=2", "/t?id=1&page=3", "/t?id=1&page=6"],
        ),
        thread_page_of(
            "/t?id=1&page=2",
            &ten(11),
            &["/t?id=1", "/t?id=1&page=3", "/t?id=1&page=6"],
        ),
        failed("/t?id=1&page=3", 404),
    ];
    let mut crawl = record(pages);
    crawl.waiting.push(url("/t?id=1&page=6"));
    let report = check(
        "window pager",
        &crawl,
        &[
            (
                GapKind::LinkedListPage,
                "/t?id=1&page=3",
                Missing::Failed {
                    status: 404,
                    error: None,
                },
            ),
            (GapKind::LinkedListPage, "/t?id=1&page=6", Missing::Waiting),
            (
                GapKind::NumberedListPage,
                "/t?id=1&page=4",
                Missing::NeverQueued,
            ),
            (
                GapKind::NumberedListPage,
                "/t?id=1&page=5",
                Missing::NeverQueued,
            ),
            (
                GapKind::ShortThread,
                "/t?id=1",
                Missing::PagesMissing {
                    pages_fetched: 2,
                    pages_needed: 6,
                },
            ),
        ],
    );
    assert!(report.is_incomplete());
    assert_eq!(report.totals.urls_waiting, 1);
    // The waiting page is fetched by the crawl going on; the others may be closed by asking.
    assert_eq!(
        report.urls_to_fetch(),
        vec![
            url("/t?id=1&page=3"),
            url("/t?id=1&page=4"),
            url("/t?id=1&page=5")
        ]
    );
    let worst = report.worst_lists(1);
    assert_eq!(worst[0].list, url("/t?id=1"));
    assert_eq!((worst[0].gaps, worst[0].posts_missing), (5, 40));

    let boards = vec![
        board_page("/b?id=1", &[], &["/b?id=1&start=20", "/b?id=1&start=60"]),
        board_page("/b?id=1&start=20", &[], &["/b?id=1", "/b?id=1&start=40"]),
        board_page(
            "/b?id=1&start=40",
            &[],
            &["/b?id=1&start=20", "/b?id=1&start=60"],
        ),
    ];
    check(
        "a board's last page never fetched",
        &record(boards),
        &[(
            GapKind::LinkedListPage,
            "/b?id=1&start=60",
            Missing::NeverQueued,
        )],
    );
}

#[test]
fn a_thread_holding_fewer_posts_than_counted_is_short_only_when_pages_are_missing() {
    let mut pages = whole_forum();
    // The board counts 25 posts; ten fit on a page (thread 1 shows ten), and one page is there.
    pages[0].thread_entries[1].replies = Some(24);
    let report = check(
        "cut short",
        &record(pages),
        &[(
            GapKind::ShortThread,
            "/t?id=2",
            Missing::PagesMissing {
                pages_fetched: 1,
                pages_needed: 3,
            },
        )],
    );
    assert_eq!(report.gaps[0].posts_missing, 22);
    assert!(report.urls_to_fetch().is_empty());

    // Eight of ten counted posts read from the one page ten posts fit on: not a crawl gap.
    let mut pages = whole_forum();
    pages[0].thread_entries[1].replies = Some(9);
    pages[2] = thread_page_of("/t?id=2", &posts("b", 1, 8), &[]);
    pages.push(board_page("/b?id=2", &[("/t?id=5", Some(4))], &[]));
    pages.push(thread_page_of("/t?id=5", &posts("e", 1, 5), &[]));
    let report = check("unread", &record(pages), &[]);
    assert_eq!(
        report.unread,
        vec![UnreadPosts {
            thread: url("/t?id=2"),
            counted: 10,
            stored: 8,
        }]
    );
    assert!(!report.is_incomplete());
}

#[test]
fn a_post_shown_again_on_the_next_page_counts_once() {
    // The last post of page 1 opens page 2; 19 distinct posts, 18 replies.
    let mut second = posts("a", 10, 10);
    second[0] = "a10".into();
    let pages = vec![
        board_page("/b?id=1", &[("/t?id=1", Some(18))], &[]),
        thread_page_of("/t?id=1", &posts("a", 1, 10), &["/t?id=1&page=2"]),
        thread_page_of("/t?id=1&page=2", &second, &["/t?id=1"]),
    ];
    let report = check("repeated post", &record(pages), &[]);
    assert_eq!(report.totals.posts_counted, 19);
    assert_eq!(report.totals.posts_stored_of_counted, 19);
}

#[test]
fn boards_counting_posts_rather_than_replies_are_read_so() {
    let pages = vec![
        board_page(
            "/b?id=1",
            &[
                ("/t?id=1", Some(10)),
                ("/t?id=2", Some(3)),
                ("/t?id=3", Some(4)),
                ("/t?id=4", Some(12)),
            ],
            &[],
        ),
        thread_page_of("/t?id=1", &posts("a", 1, 10), &[]),
        thread_page_of("/t?id=2", &posts("b", 1, 3), &[]),
        thread_page_of("/t?id=3", &posts("c", 1, 4), &[]),
        // Two of twelve posts on a second page never found.
        thread_page_of("/t?id=4", &posts("d", 1, 10), &[]),
    ];
    let report = check(
        "counts of posts",
        &record(pages),
        &[(
            GapKind::ShortThread,
            "/t?id=4",
            Missing::PagesMissing {
                pages_fetched: 1,
                pages_needed: 2,
            },
        )],
    );
    assert!(!report.totals.counts_are_replies);
    assert_eq!(report.gaps[0].posts_missing, 2);
}

#[test]
fn a_last_reply_later_than_every_post_held_shows_a_missing_page_when_no_count_is_shown() {
    let timed = |path: &str, count: usize, last: &str| {
        let mut page = thread_page_of(path, &posts(path, 1, count), &[]);
        // Every post but the last at one time, the last at `last`.
        page.posts.note_time(Some("2026-03-01T10:00"));
        page.posts.note_time(Some(last));
        page
    };
    let board = |last_reply: &str| {
        let mut board = board_page("/b?id=1", &[("/t?id=1", None), ("/t?id=2", None)], &[]);
        for entry in &mut board.thread_entries {
            entry.last_reply = Some(last_reply.into());
        }
        board
    };
    let pages = vec![
        board("2026-03-04T09:30"),
        timed("/t?id=1", 10, "2026-03-02T12:00"),
        timed("/t?id=2", 4, "2026-03-02T12:00"),
    ];
    check(
        "full last page, later reply",
        &record(pages),
        &[(
            GapKind::ShortThread,
            "/t?id=1",
            Missing::PagesMissing {
                pages_fetched: 1,
                pages_needed: 2,
            },
        )],
    );
    let pages = vec![
        board("2026-03-02T12:00+01:00"),
        timed("/t?id=1", 10, "2026-03-02T12:00"),
        timed("/t?id=2", 4, "2026-03-02T12:00"),
    ];
    check("last reply held", &record(pages), &[]);
}

#[test]
fn a_crawl_stopped_with_urls_waiting_is_incomplete() {
    let mut crawl = record(whole_forum());
    crawl.waiting.push(url("/member?id=4"));
    let report = check("waiting", &crawl, &[]);
    assert!(report.is_incomplete());
}

#[test]
fn a_crawl_without_roles_is_audited_by_what_it_waits_for_alone() {
    let mut pages = whole_forum();
    for page in &mut pages {
        page.role = None;
        page.list_links.clear();
    }
    // A count no single page of the thread can hold, and a thread never fetched: without
    // roles neither the pages of a thread nor a board's entries are known.
    pages[0].thread_entries[0].replies = Some(30);
    pages[0].thread_entries.push(EntrySeen {
        url: url("/t?id=9"),
        ..EntrySeen::default()
    });
    let report = check("no roles", &record(pages.clone()), &[]);
    assert!(report.totals.without_roles);
    assert!(!report.is_incomplete());
    let mut crawl = record(pages);
    crawl.waiting.push(url("/t?id=9"));
    assert!(check("no roles, waiting", &crawl, &[]).is_incomplete());
}

#[test]
fn a_page_read_with_one_post_too_many_does_not_set_the_posts_per_page() {
    let pages = vec![
        board_page(
            "/b?id=1",
            &[
                ("/t?id=1", Some(22)),
                ("/t?id=2", Some(10)),
                ("/t?id=3", Some(10)),
            ],
            &[],
        ),
        thread_page_of("/t?id=1", &posts("a", 1, 10), &["/t?id=1&page=2"]),
        thread_page_of("/t?id=1&page=2", &posts("a", 11, 10), &["/t?id=1&page=3"]),
        thread_page_of("/t?id=1&page=3", &posts("a", 21, 3), &["/t?id=1&page=2"]),
        // Eleven posts and a quoted box read as a twelfth.
        thread_page_of("/t?id=2", &posts("b", 1, 12), &[]),
        // Eleven counted, ten on the one page fetched: a second page is missing.
        thread_page_of("/t?id=3", &posts("c", 1, 10), &[]),
    ];
    let report = check(
        "over-read page",
        &record(pages),
        &[(
            GapKind::ShortThread,
            "/t?id=3",
            Missing::PagesMissing {
                pages_fetched: 1,
                pages_needed: 2,
            },
        )],
    );
    assert_eq!(report.totals.posts_per_page, 10);
}

#[test]
fn a_pager_link_the_crawler_did_not_take_for_page_flipping_is_a_page_of_the_list() {
    let mut pages = vec![
        board_page("/b/7/1.html", &[], &["/b/7/2.html"]),
        board_page("/b/7/2.html", &[], &["/b/7/1.html", "/b/7/3.html"]),
        board_page("/b/7/3.html", &[], &["/b/7/2.html"]),
    ];
    let links = |spellings: &[(&str, &str)]| -> Vec<LinkSeen> {
        spellings
            .iter()
            .map(|(path, queued_as)| LinkSeen {
                url: url(path),
                queued_as: url(queued_as),
            })
            .collect()
    };
    pages[2].links = links(&[
        ("/b/7/2.html", "/b/7/2.html"),
        ("/b/7/4.html", "/b/7/4.html"),
        ("/b/8/4.html", "/b/8/4.html"),
        ("/t/5.html", "/t/5.html"),
    ]);
    check(
        "pager link not taken",
        &record(pages.clone()),
        &[(GapKind::LinkedListPage, "/b/7/4.html", Missing::NeverQueued)],
    );
    // A rewrite takes page 4 for the first page: named, with what it was taken for; the first
    // page spelled with its number, rewritten the same way, is no gap.
    pages[2].links = links(&[("/b/7/4.html", "/b/7/"), ("/b/7/1.html", "/b/7/")]);
    pages[0].url = url("/b/7/");
    pages[1].list_links[0] = url("/b/7/");
    let report = check(
        "page taken for another",
        &record(pages),
        &[(
            GapKind::LinkedListPage,
            "/b/7/4.html",
            Missing::TakenForAnother {
                queued_as: url("/b/7/"),
            },
        )],
    );
    assert!(report.urls_to_fetch().is_empty());
}

#[test]
fn a_thread_of_one_fetched_page_is_short_of_its_second_page_only_when_a_pager_names_it() {
    // A list the crawl fetched one page of shows no template of page numbers; a link spelled as
    // the page with a page number 2 added names its second page. A post's permalink spelled the
    // same way (`?post=2#2`, the second post of the forum's first thread: django-machina) is no
    // page, and was once fetched to close a gap that was not there.
    let check_links = |case: &str, written: &[&str], expected: &[Expected<'_>]| {
        let mut pages = vec![thread_page_of("/topic/first-1/", &posts("a", 1, 4), &[])];
        pages[0].links = written
            .iter()
            .map(|path| LinkSeen {
                url: url(path),
                queued_as: url(path.split('#').next().unwrap()),
            })
            .collect();
        check(case, &record(pages), expected);
    };
    check_links(
        "pager",
        &["/topic/first-1/?page=2"],
        &[(
            GapKind::LinkedListPage,
            "/topic/first-1/?page=2",
            Missing::NeverQueued,
        )],
    );
    check_links(
        "permalinks",
        &[
            "/topic/first-1/?post=2#2",
            "/topic/first-1/?post=3#3",
            "/topic/first-1/?post=4#4",
        ],
        &[],
    );
}
