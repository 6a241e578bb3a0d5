//! How every policy charges its budget when follow-ups had to wait: a deferred follow-up served
//! at the start of the next window is one fetch and must cost one unit of that window's budget,
//! and must be planned once, not once as a deferred follow-up and again as a page of the
//! backlog. The policies share that path ([`crate::policy::Allowance`]), so one case per policy
//! and budget checks it through the [`Scheduler`] a driver uses.

use std::collections::HashSet;

use crate::lists::{FetchedPage, ListId, PageContent, SiteId, ThreadEntry};
use crate::oracle::{KnownArrivals, KnownRates};
use crate::policy::{PageRequest, Scheduler, Window};
use crate::toy::at;
use crate::{Knowledge, POLICY_NAMES, knowledge_needed, policy_with_knowledge};

const BOARD: ListId = ListId(1);
const HOUR: i64 = 3600;

/// A board's first page at `when` listing `threads` threads started just before, each with
/// `pages` pages of posts, the newest first; thread ids start at `first_id`.
fn board_page(when: i64, first_id: u64, threads: u64, pages: u32) -> FetchedPage {
    let entries = (0..threads)
        .map(|index| {
            let written = at(when - 1 - index as i64);
            ThreadEntry {
                thread: ListId(first_id + index),
                started_at: Some(written),
                last_post_at: Some(written),
                replies: Some(pages * 10 - 1),
                pages: Some(pages),
                pinned: false,
            }
        })
        .collect();
    FetchedPage {
        list: BOARD,
        page: 1,
        fetched_at: at(when),
        page_count: Some(1),
        content: PageContent::Entries(entries),
    }
}

/// Runs `policy` for two hourly windows. In the first (budget `first_budget`) the board shows
/// `waiting_threads` new threads of `pages` pages, more follow-ups than the window can pay for,
/// so some wait. The second (budget `second_budget`) starts by serving them; then the board shows
/// far more new threads than any budget covers, so the policy grants follow-ups until the window
/// is spent. Every fetch of the second window, planned or followed up, must have cost exactly one
/// unit: the plan and the follow-ups granted add up to the window's budget (the first window
/// left nothing to carry), and no page of a waiting thread is planned twice.
fn check_charged_once(
    policy: &str,
    first_budget: u32,
    waiting_threads: u64,
    pages: u32,
    second_budget: u32,
) {
    let knowledge = match knowledge_needed(policy) {
        Some("arrivals") => Some(Knowledge::Arrivals(KnownArrivals::default())),
        Some(_) => Some(Knowledge::Rates(KnownRates::default())),
        None => None,
    };
    let mut scheduler =
        Scheduler::new(policy_with_knowledge(policy, knowledge).expect("a known policy"));
    scheduler.lists_mut().add_index_list(BOARD, SiteId(0));

    let first = Window::new(at(0), at(HOUR)).unwrap();
    let first_plan = scheduler.plan(first, first_budget);
    let first_follow_ups = scheduler
        .observe(&board_page(HOUR / 2, 100, waiting_threads, pages))
        .expect("a known board");
    // Nothing of the first window's budget may be left to carry, or the sum below is off.
    let asked_in_first = first_plan.len() + first_follow_ups.len();
    assert_eq!(
        asked_in_first, first_budget as usize,
        "{policy}: the first window must spend its budget to leave follow-ups waiting"
    );

    let second = Window::new(at(HOUR), at(2 * HOUR)).unwrap();
    let second_plan = scheduler.plan(second, second_budget);
    // A board may be polled at several instants of a window; a page of a thread the first
    // window found, which no poll has shown to change since, is fetched once.
    let waiting = |request: &&PageRequest| (100..100 + waiting_threads).contains(&request.list.0);
    let mut planned = HashSet::new();
    for request in second_plan.iter().filter(waiting) {
        assert!(
            planned.insert((request.list, request.page)),
            "{policy}: page {} of {:?} planned twice in one window: {second_plan:?}",
            request.page,
            request.list
        );
    }
    let served_waiting = second_plan.iter().filter(waiting).count();
    assert!(
        served_waiting > 0,
        "{policy}: the second window should serve some of the waiting follow-ups"
    );
    let burst = board_page(HOUR + 60, 10_000, 200, 2);
    let granted: Vec<PageRequest> = scheduler.observe(&burst).expect("a known board");
    assert_eq!(
        second_plan.len() + granted.len(),
        second_budget as usize,
        "{policy}: {} planned ({served_waiting} of them waiting follow-ups) and {} granted \
         against a budget of {second_budget}",
        second_plan.len(),
        granted.len()
    );
}

#[test]
fn every_policy_charges_a_deferred_follow_up_once() {
    for policy in POLICY_NAMES {
        // Few waiting follow-ups and a roomy window; many and a tight one; threads of one page.
        check_charged_once(policy, 2, 6, 3, 40);
        check_charged_once(policy, 3, 12, 2, 25);
        check_charged_once(policy, 1, 8, 1, 60);
    }
}
