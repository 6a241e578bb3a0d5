use super::*;

fn at(second: i64) -> Timestamp {
    Timestamp::from_second(second).unwrap()
}

fn entry(thread: u64, last_post: i64, replies: u32) -> ThreadEntry {
    ThreadEntry {
        thread: ListId(thread),
        started_at: None,
        last_post_at: Some(at(last_post)),
        replies: Some(replies),
        pages: None,
        pinned: false,
    }
}

fn board_page(page: u32, when: i64, pages: u32, entries: Vec<ThreadEntry>) -> FetchedPage {
    FetchedPage {
        list: ListId(1),
        page,
        fetched_at: at(when),
        page_count: Some(pages),
        content: PageContent::Entries(entries),
    }
}

fn thread_page(thread: u64, page: u32, when: i64, pages: u32, posts: &[i64]) -> FetchedPage {
    FetchedPage {
        list: ListId(thread),
        page,
        fetched_at: at(when),
        page_count: Some(pages),
        content: PageContent::Posts(posts.iter().map(|&second| at(second)).collect()),
    }
}

fn board() -> Lists {
    let mut lists = Lists::new();
    lists.add_index_list(ListId(1), SiteId(0));
    lists
}

/// Records `pages` in order and checks the change of the last one.
fn check(lists: &mut Lists, pages: &[FetchedPage], expected: ListChange) {
    let mut last = None;
    for page in pages {
        last = Some(lists.record(page).expect("recordable"));
    }
    assert_eq!(last.expect("at least one page"), expected);
}

#[test]
fn first_board_visit_finds_every_thread_new_and_moves_past_the_page() {
    let mut lists = board();
    check(
        &mut lists,
        &[board_page(
            1,
            1000,
            3,
            vec![entry(10, 900, 4), entry(11, 800, 0)],
        )],
        ListChange {
            new_records: 2,
            new_record_times: vec![900, 800],
            new_threads: vec![ListId(10), ListId(11)],
            changed_threads: vec![],
            page_modified: true,
            moved_past_page: true,
            pages_grew: true,
        },
    );
    let board_state = lists.get(ListId(1)).unwrap();
    assert_eq!(board_state.page_count, 3);
    assert_eq!(board_state.records_per_page, 2);
    assert_eq!(board_state.record_times, vec![800, 900]);
    // Pages 2 and 3 of the board and page 1 of each thread wait in the backlog.
    let backlog: Vec<(ListId, u32)> = lists.backlog().collect();
    assert_eq!(
        backlog,
        vec![
            (ListId(10), 1),
            (ListId(11), 1),
            (ListId(1), 2),
            (ListId(1), 3)
        ]
    );
}

#[test]
fn a_bumped_thread_is_changed_and_an_unchanged_one_stops_the_walk() {
    let mut lists = board();
    let first = board_page(1, 1000, 1, vec![entry(10, 900, 4), entry(11, 800, 0)]);
    let bumped = board_page(1, 2000, 1, vec![entry(11, 1500, 1), entry(10, 900, 4)]);
    check(
        &mut lists,
        &[first, bumped],
        ListChange {
            new_records: 1,
            new_record_times: vec![1500],
            new_threads: vec![],
            changed_threads: vec![ListId(11)],
            page_modified: true,
            moved_past_page: false,
            pages_grew: false,
        },
    );
    assert_eq!(
        lists.get(ListId(11)).unwrap().unseen_activity_since,
        Some(1500)
    );
}

#[test]
fn reply_counts_reveal_activity_when_no_time_is_shown() {
    let mut lists = board();
    let mut quiet = entry(10, 0, 3);
    quiet.last_post_at = None;
    let mut grown = quiet.clone();
    grown.replies = Some(5);
    check(
        &mut lists,
        &[
            board_page(1, 100, 1, vec![quiet.clone()]),
            board_page(1, 200, 1, vec![quiet]),
        ],
        ListChange {
            page_modified: false,
            ..ListChange::default()
        },
    );
    let change = lists.record(&board_page(1, 300, 1, vec![grown])).unwrap();
    assert_eq!(change.changed_threads, vec![ListId(10)]);
    assert!(change.moved_past_page);
}

#[test]
fn pinned_entries_do_not_count_for_moving_past_a_page() {
    let mut lists = board();
    let mut sticky = entry(9, 10, 0);
    sticky.pinned = true;
    lists
        .record(&board_page(
            1,
            100,
            1,
            vec![sticky.clone(), entry(10, 50, 0)],
        ))
        .unwrap();
    let change = lists
        .record(&board_page(
            1,
            200,
            1,
            vec![sticky, entry(11, 150, 0), entry(10, 50, 0)],
        ))
        .unwrap();
    assert_eq!(change.new_threads, vec![ListId(11)]);
    assert!(!change.moved_past_page);
    let change = lists
        .record(&board_page(
            1,
            300,
            1,
            vec![entry(9, 10, 0), entry(12, 250, 0)],
        ))
        .unwrap();
    // Without the pin, the unchanged sticky thread would stop the walk; it is unpinned here.
    assert!(!change.moved_past_page);
}

#[test]
fn posts_past_the_count_seen_before_are_new() {
    let mut lists = board();
    lists
        .record(&board_page(1, 100, 1, vec![entry(10, 90, 2)]))
        .unwrap();
    check(
        &mut lists,
        &[
            thread_page(10, 1, 100, 1, &[10, 50, 90]),
            thread_page(10, 1, 300, 1, &[10, 50, 90, 200, 250]),
        ],
        ListChange {
            new_records: 2,
            new_record_times: vec![200, 250],
            page_modified: true,
            ..ListChange::default()
        },
    );
    let state = lists.get(ListId(10)).unwrap();
    assert_eq!(state.record_times, vec![10, 50, 90, 200, 250]);
    // The board's activity holds the thread start and the four replies.
    let events: Vec<(i64, ActivityKind)> = lists
        .activity(ListId(1))
        .unwrap()
        .between(0, 1000)
        .collect();
    assert_eq!(events[0], (10, ActivityKind::NewThread));
    assert_eq!(events.len(), 5);
    assert!(
        events[1..]
            .iter()
            .all(|&(_, kind)| kind == ActivityKind::Reply)
    );
}

#[test]
fn an_unchanged_post_page_is_not_modified() {
    let mut lists = board();
    lists
        .record(&board_page(1, 100, 1, vec![entry(10, 90, 0)]))
        .unwrap();
    check(
        &mut lists,
        &[
            thread_page(10, 1, 100, 1, &[90]),
            thread_page(10, 1, 200, 1, &[90]),
        ],
        ListChange::default(),
    );
}

#[test]
fn a_grown_thread_puts_its_new_pages_in_the_backlog_and_clears_its_news_when_read() {
    let mut lists = board();
    lists
        .record(&board_page(1, 100, 1, vec![entry(10, 90, 1)]))
        .unwrap();
    lists
        .record(&thread_page(10, 1, 100, 1, &[80, 90]))
        .unwrap();
    lists
        .record(&board_page(1, 500, 1, vec![entry(10, 400, 3)]))
        .unwrap();
    assert_eq!(
        lists.get(ListId(10)).unwrap().unseen_activity_since,
        Some(400)
    );
    let change = lists
        .record(&thread_page(10, 1, 600, 2, &[80, 90]))
        .unwrap();
    assert!(change.pages_grew);
    assert_eq!(lists.backlog().collect::<Vec<_>>(), vec![(ListId(10), 2)]);
    // Still unseen: page 1 was not the last page.
    assert!(
        lists
            .get(ListId(10))
            .unwrap()
            .unseen_activity_since
            .is_some()
    );
    lists
        .record(&thread_page(10, 2, 600, 2, &[300, 400]))
        .unwrap();
    let state = lists.get(ListId(10)).unwrap();
    assert_eq!(state.unseen_activity_since, None);
    assert_eq!(state.record_times, vec![80, 90, 300, 400]);
    assert_eq!(lists.backlog().count(), 0);
}

#[test]
fn refuses_what_does_not_fit() {
    let mut lists = board();
    let unknown = thread_page(99, 1, 0, 1, &[]);
    assert_eq!(
        lists.record(&unknown),
        Err(ScheduleError::UnknownList(ListId(99)))
    );
    let posts_on_board = FetchedPage {
        list: ListId(1),
        ..thread_page(1, 1, 0, 1, &[5])
    };
    assert_eq!(
        lists.record(&posts_on_board),
        Err(ScheduleError::ContentKind(ListId(1)))
    );
    let page_zero = board_page(0, 0, 1, vec![]);
    assert_eq!(
        lists.record(&page_zero),
        Err(ScheduleError::PageZero(ListId(1)))
    );
}

/// Entries with these last-post instants, top to bottom, are read as pinned where `expected`
/// says.
fn check_pins(last_posts: &[i64], expected: &[bool]) {
    let mut entries: Vec<ThreadEntry> = last_posts
        .iter()
        .enumerate()
        .map(|(index, &last)| entry(index as u64 + 10, last, 0))
        .collect();
    infer_pins(&mut entries);
    let pinned: Vec<bool> = entries.iter().map(|entry| entry.pinned).collect();
    assert_eq!(pinned, expected, "{last_posts:?}");
}

#[test]
fn entries_standing_out_of_the_last_post_order_are_pinned() {
    check_pins(&[500, 400, 300], &[false, false, false]);
    // An old announcement above newer threads.
    check_pins(&[100, 500, 400], &[true, false, false]);
    check_pins(&[100, 50, 500, 400], &[true, true, false, false]);
    // A pinned thread with the newest activity cannot be told apart, and need not be.
    check_pins(&[900, 500, 400], &[false, false, false]);
    check_pins(&[], &[]);
}

#[test]
fn boards_and_threads_by_board_are_indexed_in_the_order_they_became_known() {
    let mut lists = Lists::new();
    lists.add_index_list(ListId(1), SiteId(0));
    lists.add_post_list(ListId(30), SiteId(0), None);
    lists.add_index_list(ListId(2), SiteId(0));
    lists.add_post_list(ListId(20), SiteId(0), Some(ListId(2)));
    lists.add_post_list(ListId(10), SiteId(0), Some(ListId(2)));
    lists.add_post_list(ListId(40), SiteId(0), Some(ListId(9)));
    let ids = |lists: Vec<&ListState>| lists.iter().map(|list| list.id.0).collect::<Vec<_>>();
    assert_eq!(ids(lists.index_lists().collect()), vec![1, 2]);
    assert_eq!(
        ids(lists.threads_of(Some(ListId(2))).collect()),
        vec![20, 10]
    );
    assert_eq!(ids(lists.threads_of(None).collect()), vec![30]);
    assert!(lists.threads_of(Some(ListId(1))).next().is_none());
    assert_eq!(lists.boards_not_registered(), vec![None, Some(ListId(9))]);
    assert_eq!(lists.position_of(ListId(20)), Some(3));
}

#[test]
fn a_walk_goes_on_past_a_thread_stored_another_way_while_its_page_is_newer_than_the_last_walk() {
    // A walk at 1000 lists the board through its end; by 5000 thread 12 was stored from its
    // own page (a backlog fetch), and the board moved: 13 is new, 12 sits unchanged above 14,
    // which was written after the last walk and is on page 2.
    let mut lists = board();
    lists
        .record(&board_page(1, 1000, 1, vec![entry(10, 900, 0)]))
        .unwrap();
    assert_eq!(lists.get(ListId(1)).unwrap().listed_through, Some(1000));
    lists.add_post_list(ListId(12), SiteId(0), Some(ListId(1)));
    lists.record(&thread_page(12, 1, 4000, 1, &[3500])).unwrap();
    let change = lists
        .record(&board_page(
            1,
            5000,
            2,
            vec![entry(13, 4500, 0), entry(12, 3500, 0)],
        ))
        .unwrap();
    assert_eq!(change.new_threads, vec![ListId(13)]);
    assert!(change.changed_threads.is_empty());
    assert!(change.moved_past_page, "{change:?}");
    // Page 2 shows thread 10, untouched since the last walk: the walk is complete.
    let change = lists
        .record(&board_page(
            2,
            5100,
            2,
            vec![entry(14, 2000, 0), entry(10, 900, 0)],
        ))
        .unwrap();
    assert!(!change.moved_past_page, "{change:?}");
    assert_eq!(lists.get(ListId(1)).unwrap().listed_through, Some(5000));
}

#[test]
fn a_page_read_out_of_walk_order_neither_walks_on_by_time_nor_completes_a_walk() {
    let mut lists = board();
    lists
        .record(&board_page(1, 1000, 5, vec![entry(10, 900, 0)]))
        .unwrap();
    lists
        .record(&board_page(
            1,
            5000,
            5,
            vec![entry(11, 4900, 0), entry(10, 900, 0)],
        ))
        .unwrap();
    // Page 4 read from the backlog while the walk of 5000 is at page 1: it is not the walk's
    // next page, so its old entries say nothing about where the walk may stop.
    let listed = lists.get(ListId(1)).unwrap().listed_through;
    let change = lists
        .record(&board_page(
            4,
            5200,
            5,
            vec![entry(20, 4000, 0), entry(21, 100, 0)],
        ))
        .unwrap();
    assert!(change.moved_past_page);
    assert_eq!(lists.get(ListId(1)).unwrap().listed_through, listed);
}
