//! A toy forum and a toy replay driver for the policies' tests: boards sorted by last post,
//! threads paginated, every page served as of any instant, and a driver that runs a policy
//! through [`Scheduler`] and measures each post's delay (written → stored) and the posts never
//! stored. It exists so the tests drive the policies the way the real replay harness will, on
//! hand-made or seeded arrival sequences; it is not the simulator and models no markup.

use std::collections::{BTreeMap, HashSet};

use jiff::Timestamp;

use crate::lists::{FetchedPage, ListId, PageContent, SiteId, ThreadEntry};
use crate::policy::{PageRequest, Policy, Scheduler, Window};
use crate::random::SplitMix64;

pub(crate) fn at(second: i64) -> Timestamp {
    Timestamp::from_second(second).unwrap()
}

#[derive(Clone, Debug)]
pub(crate) struct ToyThread {
    pub id: ListId,
    pub board: ListId,
    /// Post times, ascending; the first post starts the thread.
    pub posts: Vec<i64>,
}

#[derive(Clone, Debug)]
pub(crate) struct ToyForum {
    pub boards: Vec<ListId>,
    pub threads: Vec<ToyThread>,
    pub entries_per_page: usize,
    pub posts_per_page: usize,
}

fn pages_for(count: usize, per_page: usize) -> u32 {
    count.div_ceil(per_page).max(1) as u32
}

impl ToyForum {
    /// A seeded forum: `boards` boards whose thread start rates fall off as 1/k, each thread
    /// replied to at a rate that halves every `reply_half_life` seconds (threads die), with
    /// quiet nights (a quarter of the day's rate from 00:00 to 08:00).
    pub fn generate(seed: u64, boards: usize, threads_per_day: f64, horizon: i64) -> ToyForum {
        let mut random = SplitMix64::new(seed);
        let weights: Vec<f64> = (1..=boards).map(|k| 1.0 / k as f64).collect();
        let total: f64 = weights.iter().sum();
        let mut threads = Vec::new();
        let day_shape = |second: f64| {
            if second.rem_euclid(86_400.0) < 8.0 * 3600.0 {
                0.25
            } else {
                1.375
            }
        };
        for (board_index, weight) in weights.iter().enumerate() {
            let board = ListId(board_index as u64 + 1);
            let rate = threads_per_day * weight / total / 86_400.0 * 1.375;
            for start in random.poisson_arrivals(rate, horizon as f64) {
                if random.unit() > day_shape(start) / 1.375 {
                    continue;
                }
                let mut posts = vec![start as i64];
                // Replies: a few quick ones, slowing down; about 40 % of threads get none
                // after a day.
                let replies = (random.exponential(1.0 / 6.0)) as usize;
                let mut time = start;
                let mut mean_gap = 1800.0;
                for _ in 0..replies {
                    time += random.exponential(1.0 / mean_gap);
                    mean_gap *= 1.6;
                    if time >= horizon as f64 {
                        break;
                    }
                    posts.push(time as i64);
                }
                let id = ListId(1000 + threads.len() as u64);
                threads.push(ToyThread { id, board, posts });
            }
        }
        ToyForum {
            boards: (1..=boards as u64).map(ListId).collect(),
            threads,
            entries_per_page: 10,
            posts_per_page: 10,
        }
    }

    fn thread(&self, id: ListId) -> Option<&ToyThread> {
        id.0.checked_sub(1000)
            .and_then(|index| self.threads.get(index as usize))
    }

    /// The page as the forum shows it at `when`.
    pub fn page(&self, list: ListId, page: u32, when: i64) -> FetchedPage {
        let fetched_at = at(when);
        if let Some(thread) = self.thread(list) {
            let visible: Vec<i64> = thread
                .posts
                .iter()
                .copied()
                .filter(|&t| t <= when)
                .collect();
            let pages = pages_for(visible.len(), self.posts_per_page);
            let start = (page as usize - 1) * self.posts_per_page;
            let posts = visible
                .iter()
                .skip(start)
                .take(self.posts_per_page)
                .map(|&t| at(t))
                .collect();
            return FetchedPage {
                list,
                page,
                fetched_at,
                page_count: Some(pages),
                content: PageContent::Posts(posts),
            };
        }
        let mut listed: Vec<(i64, &ToyThread, usize)> = self
            .threads
            .iter()
            .filter(|thread| thread.board == list && thread.posts[0] <= when)
            .map(|thread| {
                let visible = thread.posts.partition_point(|&t| t <= when);
                (thread.posts[visible - 1], thread, visible)
            })
            .collect();
        listed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.id.cmp(&b.1.id)));
        let pages = pages_for(listed.len(), self.entries_per_page);
        let start = (page as usize - 1) * self.entries_per_page;
        let entries = listed
            .iter()
            .skip(start)
            .take(self.entries_per_page)
            .map(|&(last, thread, visible)| ThreadEntry {
                thread: thread.id,
                started_at: Some(at(thread.posts[0])),
                last_post_at: Some(at(last)),
                replies: Some(visible as u32 - 1),
                pages: Some(pages_for(visible, self.posts_per_page)),
                pinned: false,
            })
            .collect();
        FetchedPage {
            list,
            page,
            fetched_at,
            page_count: Some(pages),
            content: PageContent::Entries(entries),
        }
    }
}

/// What a toy replay measured.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Outcome {
    pub fetches: u64,
    /// Mean delay (seconds) of the posts written in the measured span and stored.
    pub mean_delay: f64,
    /// Posts written in the measured span (which ends two days before the run) never stored.
    pub lost: usize,
    pub measured_posts: usize,
    /// Mean delay (seconds) of the stored first posts of the threads started in the measured
    /// span: how soon new threads were discovered, since a policy fetches a thread as soon as a
    /// board page shows it.
    pub first_post_mean_delay: f64,
}

/// Runs `policy` on `forum` from `start` to `end` in windows of `window_seconds` with
/// `budget_per_window` fetches each, measuring posts written from `measure_from`. Panics if the
/// policy spends more than the budget allows (a window's budget plus the carry): that is the
/// contract the tests check.
pub(crate) fn replay(
    policy: Box<dyn Policy>,
    forum: &ToyForum,
    start: i64,
    end: i64,
    window_seconds: i64,
    budget_per_window: u32,
    measure_from: i64,
) -> Outcome {
    let mut scheduler = Scheduler::new(policy);
    for &board in &forum.boards {
        scheduler.lists_mut().add_index_list(board, SiteId(0));
    }
    // Stored posts: (thread, position) → when first stored.
    let mut stored: BTreeMap<(ListId, usize), i64> = BTreeMap::new();
    let mut fetches = 0u64;
    let mut granted = 0u64;
    let carry_limit = (f64::from(budget_per_window) * 86_400.0 / window_seconds as f64
        * crate::policy::CARRY_LIMIT_DAYS)
        .floor() as u32;
    let mut window_start = start;
    while window_start < end {
        let window = Window::new(at(window_start), at(window_start + window_seconds)).unwrap();
        let plan = scheduler.plan(window, budget_per_window);
        granted += u64::from(budget_per_window);
        let mut spent = 0u32;
        for request in plan {
            let mut queue = vec![request];
            while let Some(PageRequest {
                at: when,
                list,
                page,
            }) = queue.pop()
            {
                let when = when.as_second().max(window_start);
                spent += 1;
                assert!(
                    spent <= budget_per_window + carry_limit && fetches < granted,
                    "{} spent more than its budget",
                    scheduler.policy_name()
                );
                fetches += 1;
                let fetched = forum.page(list, page, when);
                if let PageContent::Posts(posts) = &fetched.content {
                    let first = (page as usize - 1) * forum.posts_per_page;
                    for offset in 0..posts.len() {
                        stored.entry((list, first + offset)).or_insert(when);
                    }
                }
                let mut follow_ups = scheduler.observe(&fetched).expect("known lists");
                follow_ups.reverse();
                queue.extend(follow_ups);
            }
        }
        window_start += window_seconds;
    }
    // Posts of the last two days may still be waiting for their visit: they are not judged.
    let measure_to = end - 2 * 86_400;
    let mut delay_sum = 0.0;
    let mut delayed = 0usize;
    let mut lost = 0usize;
    let mut first_delay_sum = 0.0;
    let mut first_delayed = 0usize;
    let mut seen = HashSet::new();
    for thread in &forum.threads {
        for (position, &written) in thread.posts.iter().enumerate() {
            if written < measure_from || written >= measure_to {
                continue;
            }
            seen.insert((thread.id, position));
            match stored.get(&(thread.id, position)) {
                Some(&when) => {
                    delay_sum += (when - written) as f64;
                    delayed += 1;
                    if position == 0 {
                        first_delay_sum += (when - written) as f64;
                        first_delayed += 1;
                    }
                }
                None => lost += 1,
            }
        }
    }
    Outcome {
        fetches,
        mean_delay: if delayed == 0 {
            0.0
        } else {
            delay_sum / delayed as f64
        },
        lost,
        measured_posts: seen.len(),
        first_post_mean_delay: if first_delayed == 0 {
            0.0
        } else {
            first_delay_sum / first_delayed as f64
        },
    }
}
