use std::collections::HashMap;

use std::time::{Duration, Instant};

use trawl_sim_server::LoggedRequest;

use trawl_sim::{Address, FamilyName, Route, Scale, Site, SiteConfig};

use super::{
    MissedPosts, QuickRepeat, delays_of, mean_and_p95, missed_posts, post_of_permalink,
    quick_repeats, repeats_within, written_between,
};

/// Posts written at the given instants, stored at the given ones (`None`: never), judged over
/// `judged`: the delays and the posts missing.
fn check(
    posts: &[(i64, Option<i64>)],
    judged: std::ops::Range<i64>,
    delays: &[i64],
    missing: usize,
) {
    let written = posts
        .iter()
        .enumerate()
        .map(|(index, &(at, _))| (index as u32 + 1, at));
    let stored: HashMap<u32, i64> = posts
        .iter()
        .enumerate()
        .filter_map(|(index, &(_, stored))| stored.map(|stored| (index as u32 + 1, stored)))
        .collect();
    let (found, found_missing) = delays_of(written, &stored, judged);
    assert_eq!(found, delays, "{posts:?}");
    assert_eq!(found_missing, missing, "{posts:?}");
}

#[test]
fn a_post_stored_counts_its_delay() {
    check(&[(100, Some(160))], 0..1000, &[60], 0);
}

#[test]
fn a_post_not_stored_is_missing() {
    check(&[(100, None), (200, Some(200))], 0..1000, &[0], 1);
}

#[test]
fn posts_written_outside_the_judged_span_do_not_count() {
    check(
        &[(50, None), (100, Some(130)), (1000, None)],
        100..1000,
        &[30],
        0,
    );
}

#[test]
fn a_post_stored_before_it_was_written_counts_no_delay() {
    // The crawl's page and the truth's instant may differ by the page's rounding of times.
    check(&[(100, Some(90))], 0..1000, &[0], 0);
}

fn check_summary(delays: &[i64], mean: f64, p95: f64) {
    let mut delays = delays.to_vec();
    assert_eq!(mean_and_p95(&mut delays), (mean, p95), "{delays:?}");
}

#[test]
fn the_mean_and_p95_of_delays() {
    check_summary(&[], 0.0, 0.0);
    check_summary(&[10], 10.0, 10.0);
    check_summary(&[30, 10, 20], 20.0, 30.0);
    let twenty: Vec<i64> = (1..=20).collect();
    // The 19th of 20 by nearest rank.
    check_summary(&twenty, 10.5, 19.0);
}

fn check_permalink(link: &str, post: Option<u32>) {
    assert_eq!(post_of_permalink(link), post, "{link}");
}

#[test]
fn permalinks_name_their_post() {
    check_permalink("http://127.0.0.1:80/viewtopic.php?p=12#p12", Some(12));
    check_permalink("http://127.0.0.1:80/viewtopic.php?t=3", None);
    check_permalink("http://127.0.0.1:80/viewtopic.php#pages", None);
}

/// Requests arriving at the given milliseconds, out of order as a log may hold them: how many
/// ask again for a URL less than `gap_ms` after it was asked for.
fn check_repeats(arrivals: &[(&str, u64)], gap_ms: u64, repeats: usize) {
    let origin = Instant::now();
    let requests: Vec<LoggedRequest> = arrivals
        .iter()
        .map(|&(path, at)| LoggedRequest {
            path_and_query: path.to_string(),
            arrived: origin + Duration::from_millis(at),
            answered: origin + Duration::from_millis(at + 1),
        })
        .collect();
    assert_eq!(
        repeats_within(&requests, Duration::from_millis(gap_ms), origin),
        repeats,
        "{arrivals:?}"
    );
}

#[test]
fn a_url_asked_again_soon_is_a_quick_repeat() {
    check_repeats(&[("/t/1", 0), ("/t/1", 50)], 100, 1);
    check_repeats(&[("/t/1", 50), ("/b/2", 10), ("/t/1", 0)], 100, 1);
}

#[test]
fn a_url_asked_again_later_or_robots_txt_is_no_quick_repeat() {
    check_repeats(&[("/t/1", 0), ("/t/1", 150), ("/t/1", 300)], 100, 0);
    check_repeats(&[("/robots.txt", 0), ("/robots.txt", 10)], 100, 0);
    check_repeats(&[("/t/1", 0), ("/t/2", 10)], 100, 0);
}

#[test]
fn requests_before_the_judged_span_are_no_quick_repeats() {
    let origin = Instant::now();
    let requests: Vec<LoggedRequest> = [0, 10, 200, 210]
        .iter()
        .map(|&at| LoggedRequest {
            path_and_query: "/t/1".to_string(),
            arrived: origin + Duration::from_millis(at),
            answered: origin + Duration::from_millis(at + 1),
        })
        .collect();
    let from = origin + Duration::from_millis(100);
    assert_eq!(
        repeats_within(&requests, Duration::from_millis(50), from),
        1
    );
}

/// Posts (thread, written, stored) of threads started at `threads[thread - 1]`, the run
/// beginning at 100 and judged over 200..1000: where the missing ones were.
fn check_missed(threads: &[i64], posts: &[(u32, i64, bool)], expected: MissedPosts) {
    let listed: Vec<(u32, u32, i64)> = posts
        .iter()
        .enumerate()
        .map(|(index, &(thread, written, _))| (index as u32 + 1, thread, written))
        .collect();
    let stored: HashMap<u32, i64> = posts
        .iter()
        .enumerate()
        .filter(|(_, (_, _, stored))| *stored)
        .map(|(index, &(_, written, _))| (index as u32 + 1, written))
        .collect();
    let started = |thread: u32| threads[thread as usize - 1];
    assert_eq!(
        missed_posts(&listed, started, &stored, 100, 200..1000),
        expected,
        "{posts:?}"
    );
}

#[test]
fn missing_posts_are_told_apart_by_what_the_store_knew_of_their_thread() {
    // An old thread stored, its new reply missed; an old thread never stored; a new one.
    check_missed(
        &[10, 20, 300],
        &[
            (1, 10, true),
            (1, 250, false),
            (2, 20, false),
            (2, 260, false),
            (3, 300, false),
            (3, 310, false),
        ],
        MissedPosts {
            in_old_threads_never_stored: 1,
            in_new_threads_never_stored: 2,
            in_threads_stored: 1,
            written_before_the_run_not_stored: 1,
        },
    );
    // Posts stored, or written after the judged span, are not missed.
    check_missed(
        &[10],
        &[
            (1, 10, true),
            (1, 500, true),
            (1, 1500, false),
            (1, 150, false),
        ],
        MissedPosts::default(),
    );
}

#[test]
fn each_quick_repeat_names_its_url_and_both_arrivals() {
    let origin = Instant::now();
    let requests: Vec<LoggedRequest> = [("/t/1", 0), ("/t/2", 5), ("/t/1", 20), ("/t/2", 500)]
        .iter()
        .map(|&(path, at)| LoggedRequest {
            path_and_query: path.to_string(),
            arrived: origin + Duration::from_millis(at),
            answered: origin + Duration::from_millis(at + 1),
        })
        .collect();
    assert_eq!(
        quick_repeats(&requests, Duration::from_millis(100), origin),
        vec![QuickRepeat {
            path_and_query: "/t/1".to_string(),
            before: origin,
            arrived: origin + Duration::from_millis(20),
        }]
    );
}

/// What `written_between` finds for `route` of a small phpBB forum over `[from, to)`, against
/// `expected`.
fn check_written_between(
    site: &Site,
    route: Route,
    from: i64,
    to: i64,
    expected: Option<(&str, usize)>,
) {
    let path = site.url_of(&Address::canonical(route.clone()));
    assert_eq!(
        written_between(site, &path, from, to),
        expected,
        "{route:?} ({path}) over {from}..{to}"
    );
}

#[test]
fn a_repeated_page_is_told_what_its_list_took_between_the_two_requests() {
    let site = Site::build(SiteConfig::new(
        FamilyName::parse("phpbb").unwrap(),
        1,
        Scale::Small,
    ));
    let history = site.history();
    // A thread whose third post came after its second: the window from the second to the third
    // holds its second alone, and the board's count is every post of its threads in it.
    let created = |post: u32| history.post(post).unwrap().created;
    let thread = (1..)
        .take_while(|&thread| history.thread(thread).is_some())
        .find(|&thread| {
            let posts = history.thread_posts(thread);
            posts.len() >= 3 && created(posts[1]) < created(posts[2])
        })
        .expect("a thread of three posts");
    let posts = history.thread_posts(thread);
    let (second, third) = (created(posts[1]), created(posts[2]));
    let board = history.thread(thread).unwrap().board;
    let on_board = (1..=history.post_count())
        .filter_map(|post| history.post(post))
        .filter(|post| (second..third).contains(&post.created))
        .filter(|post| history.thread(post.thread).unwrap().board == board)
        .count();
    assert!(on_board >= 1);
    check_written_between(
        &site,
        Route::Thread { thread, page: 1 },
        second,
        third,
        Some(("thread", 1)),
    );
    check_written_between(
        &site,
        Route::Thread { thread, page: 1 },
        third + 1,
        third + 1,
        Some(("thread", 0)),
    );
    check_written_between(
        &site,
        Route::Board { board, page: 1 },
        second,
        third,
        Some(("board", on_board)),
    );
    check_written_between(&site, Route::Portal, second, third, None);
}
