//! One simulated forum as the replay sees it: the identities the scheduler knows its lists by,
//! the truth the figures are judged against, and a board listing kept up to date as simulated
//! time goes forward, so the fast path answers a board page without sorting the board again.

use std::collections::BTreeSet;

use jiff::Timestamp;
use trawl_schedule::{Arrival, KnownArrivals, KnownRates, ListId};
use trawl_sim::Site;

/// The tag that sets thread ids apart from board ids in [`ListId`]s.
const THREAD_TAG: u64 = 1 << 32;

/// The scheduler's id of a board.
pub fn board_list(board: u32) -> ListId {
    ListId(u64::from(board))
}

/// The scheduler's id of a thread.
pub fn thread_list(thread: u32) -> ListId {
    ListId(THREAD_TAG | u64::from(thread))
}

/// What a scheduler id names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListName {
    Board(u32),
    Thread(u32),
}

pub fn list_name(list: ListId) -> ListName {
    if list.0 & THREAD_TAG != 0 {
        ListName::Thread((list.0 & !THREAD_TAG) as u32)
    } else {
        ListName::Board(list.0 as u32)
    }
}

pub(crate) fn timestamp(second: i64) -> Timestamp {
    Timestamp::from_second(second).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// Every post of the site as the arrival oracle is told it: the page of its thread it lands on
/// and the board whose list shows the thread.
pub fn known_arrivals(site: &Site) -> KnownArrivals {
    let history = site.history();
    let per_page = site.family().profile().posts_per_page.max(1) as usize;
    let mut arrivals = Vec::with_capacity(history.post_count() as usize);
    for thread in 1..=history.thread_count() {
        let Some(record) = history.thread(thread) else {
            continue;
        };
        for (position, &post) in history.thread_posts(thread).iter().enumerate() {
            let Some(post) = history.post(post) else {
                continue;
            };
            arrivals.push(Arrival {
                at: timestamp(post.created),
                list: thread_list(thread),
                page: (position / per_page) as u32 + 1,
                board: board_list(record.board),
            });
        }
    }
    KnownArrivals::new(arrivals)
}

/// Each board's true hourly rate of posts in blocks of `block_days` from `origin`: the rate
/// oracle's knowledge. The simulator draws every board's activity from one daily cycle, so a
/// board's count in a block is spread over the hours as the whole site's are.
pub fn known_rates(site: &Site, origin: i64, block_days: u32, blocks: usize) -> KnownRates {
    let history = site.history();
    let arrivals = (1..=history.post_count()).filter_map(|post| {
        let post = history.post(post)?;
        let board = history.thread(post.thread)?.board;
        Some((board_list(board), post.created))
    });
    KnownRates::from_arrivals(timestamp(origin), block_days, blocks, true, arrivals)
}

/// Every board's non-sticky threads ordered by last post, as of the instant the replay has
/// reached. Posts are applied in creation order (their ids are), so moving forward costs one
/// set update per post.
#[derive(Debug)]
pub(crate) struct Listings {
    /// Per board (index = id − 1): (last post instant, thread), iterated from the back for the
    /// engines' order (newest activity first, the higher id first on a tie).
    order: Vec<BTreeSet<(i64, u32)>>,
    /// Per thread (index = id − 1): its last post instant so far, if it exists yet.
    last_post: Vec<Option<i64>>,
    /// Per thread (index = id − 1): how many of its posts are written so far. Every page the
    /// replay serves or judges needs a thread's posts as of the instant reached, and counting
    /// them here as posts are applied saves a search of the thread's posts for each entry of
    /// every board page.
    written: Vec<u32>,
    /// Posts `1..=applied` are applied.
    applied: u32,
    reached: i64,
}

impl Listings {
    pub(crate) fn new(site: &Site) -> Self {
        let history = site.history();
        Listings {
            order: vec![BTreeSet::new(); history.board_count() as usize],
            last_post: vec![None; history.thread_count() as usize],
            written: vec![0; history.thread_count() as usize],
            applied: 0,
            reached: i64::MIN,
        }
    }

    /// Applies every post written at or before `at`. Instants never go back.
    pub(crate) fn advance(&mut self, site: &Site, at: i64) {
        let history = site.history();
        self.reached = self.reached.max(at);
        while self.applied < history.post_count() {
            let Some(post) = history.post(self.applied + 1) else {
                break;
            };
            if post.created > at {
                break;
            }
            self.applied += 1;
            let Some(thread) = history.thread(post.thread) else {
                continue;
            };
            let index = post.thread as usize - 1;
            if !thread.sticky {
                let board = &mut self.order[thread.board as usize - 1];
                if let Some(before) = self.last_post[index] {
                    board.remove(&(before, post.thread));
                }
                board.insert((post.created, post.thread));
            }
            self.last_post[index] = Some(post.created);
            self.written[index] += 1;
        }
    }

    /// The non-sticky threads of `board` shown on list page `page` (`per_page` a page).
    pub(crate) fn page(&self, board: u32, page: u32, per_page: usize) -> Vec<u32> {
        self.order
            .get(board as usize - 1)
            .map(|threads| {
                threads
                    .iter()
                    .rev()
                    .skip((page as usize - 1) * per_page)
                    .take(per_page)
                    .map(|&(_, thread)| thread)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The non-sticky threads of a board so far.
    pub(crate) fn count(&self, board: u32) -> usize {
        self.order.get(board as usize - 1).map_or(0, BTreeSet::len)
    }

    /// The thread's posts written so far (those `history.thread_posts_at` gives for the
    /// instant reached).
    pub(crate) fn posts<'a>(&self, site: &'a Site, thread: u32) -> &'a [u32] {
        let all = site.history().thread_posts(thread);
        let written = self
            .written
            .get((thread as usize).wrapping_sub(1))
            .map_or(0, |&count| count as usize);
        &all[..written.min(all.len())]
    }

    /// The thread's last post instant so far.
    pub(crate) fn last_post(&self, thread: u32) -> Option<i64> {
        self.last_post.get(thread as usize - 1).copied().flatten()
    }
}
