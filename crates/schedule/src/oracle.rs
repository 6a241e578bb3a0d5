//! The two oracles: bounds the other policies are measured against, not policies a crawler could
//! run.
//!
//! - [`ArrivalOracle`] (`oracle`) knows every post before the crawl sees it: where it will appear
//!   and when. It fetches that page at the instant the post is written (a new thread's board page,
//!   which brings the thread's pages as follow-ups), so with budget to spare its delay is zero.
//!   This is the list-wise paper's oracle, "every update activity of each page is known exactly";
//!   no polling policy can reach it.
//! - The rate oracle (`rate-oracle`, [`crate::Trawl::rate_oracle`]) knows each list's true arrival
//!   rate for every hour of the day but not the arrivals themselves, and polls at the optimal
//!   square-root densities for those rates: the bound for policies that must poll.
//!
//! Both take their knowledge as an explicit input ([`KnownArrivals`], [`KnownRates`]) built by
//! the driver from its ground truth; nothing here reads global state.

use std::collections::HashMap;

use jiff::Timestamp;

use crate::lists::{FetchedPage, ListChange, ListId, Lists};
use crate::optimal::DAY;
use crate::policy::{
    Allowance, PageRequest, Policy, Window, changed_thread_follow_ups, discovery_follow_ups,
};

/// One post the oracle knows of: when it is written and the page that will show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub at: Timestamp,
    /// The thread's post list; for a thread's first post, the list it will be registered as.
    pub list: ListId,
    /// The page of the thread the post lands on.
    pub page: u32,
    /// The board whose list shows the thread: where a thread not yet known is found.
    pub board: ListId,
}

/// Every arrival of a forum, in time order.
#[derive(Clone, Debug, Default)]
pub struct KnownArrivals {
    arrivals: Vec<Arrival>,
}

impl KnownArrivals {
    pub fn new(arrivals: impl IntoIterator<Item = Arrival>) -> Self {
        let mut arrivals: Vec<Arrival> = arrivals.into_iter().collect();
        arrivals.sort_by_key(|arrival| (arrival.at, arrival.list, arrival.page));
        KnownArrivals { arrivals }
    }

    pub fn len(&self) -> usize {
        self.arrivals.len()
    }

    pub fn is_empty(&self) -> bool {
        self.arrivals.is_empty()
    }

    /// Arrivals with `from <= at < to`.
    fn between(&self, from: Timestamp, to: Timestamp) -> &[Arrival] {
        let start = self.arrivals.partition_point(|arrival| arrival.at < from);
        let end = self.arrivals.partition_point(|arrival| arrival.at < to);
        &self.arrivals[start..end]
    }
}

/// The arrival oracle: fetches each post's page when the post is written.
#[derive(Clone, Debug)]
pub struct ArrivalOracle {
    arrivals: KnownArrivals,
    allowance: Allowance,
    /// Arrivals a window had no budget for (the warm-up takes the first days' budget): served
    /// first in the next window, so the oracle loses nothing a later poll would have found.
    pending: Vec<Arrival>,
}

impl ArrivalOracle {
    pub fn new(arrivals: KnownArrivals) -> Self {
        ArrivalOracle {
            arrivals,
            allowance: Allowance::default(),
            pending: Vec::new(),
        }
    }

    /// The page to fetch for an arrival: the thread's page if the crawl knows the thread, else
    /// the first page of its board, which lists the thread and so brings its pages.
    fn target(lists: &Lists, arrival: &Arrival) -> (ListId, u32) {
        if lists.get(arrival.list).is_some() {
            (arrival.list, arrival.page)
        } else {
            (arrival.board, 1)
        }
    }
}

impl Policy for ArrivalOracle {
    fn name(&self) -> &'static str {
        "oracle"
    }

    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let (mut requests, slots) = self.allowance.begin_with_backlog(lists, window, budget);
        let mut wanted: Vec<(Timestamp, ListId, u32)> = Vec::new();
        for arrival in std::mem::take(&mut self.pending) {
            let (list, page) = Self::target(lists, &arrival);
            wanted.push((window.start, list, page));
        }
        let fresh = self.arrivals.between(window.start, window.end);
        for arrival in fresh {
            let (list, page) = Self::target(lists, arrival);
            wanted.push((arrival.at, list, page));
        }
        // One fetch of a page at the last arrival on it stores all the earlier ones too: when
        // the budget is short, each page is fetched once, at its last arrival in the window.
        if wanted.len() > slots {
            let mut last: HashMap<(ListId, u32), Timestamp> = HashMap::new();
            for &(at, list, page) in &wanted {
                let entry = last.entry((list, page)).or_insert(at);
                *entry = (*entry).max(at);
            }
            wanted.retain(|&(at, list, page)| last.get(&(list, page)) == Some(&at));
        }
        wanted.sort();
        wanted.dedup();
        if wanted.len() > slots {
            // What does not fit waits for the next window, where it comes first.
            let left_out: Vec<(Timestamp, ListId, u32)> = wanted.split_off(slots);
            self.pending
                .extend(left_out.into_iter().map(|(at, list, page)| Arrival {
                    at,
                    list,
                    page,
                    board: list,
                }));
        }
        requests.extend(
            wanted
                .into_iter()
                .map(|(at, list, page)| PageRequest { at, list, page }),
        );
        self.allowance.charge_plan(requests.len());
        requests
    }

    fn observe(
        &mut self,
        lists: &Lists,
        fetched: &FetchedPage,
        change: &ListChange,
    ) -> Vec<PageRequest> {
        let mut wanted = discovery_follow_ups(lists, fetched, change);
        wanted.extend(changed_thread_follow_ups(lists, change));
        wanted.dedup();
        self.allowance.follow_ups(fetched.fetched_at, wanted)
    }
}

/// Each list's true arrival rate (posts per second) in every hour of the day, in blocks of days:
/// the rate oracle's knowledge. Rates change as a forum grows or quietens, so they are given per
/// block (`block_seconds` long, counted from `origin`); an instant before the first block reads
/// the first, one after the last reads the last.
#[derive(Clone, Debug, Default)]
pub struct KnownRates {
    origin: i64,
    block_seconds: i64,
    rates: HashMap<ListId, Vec<[f64; 24]>>,
}

impl KnownRates {
    /// `rates[list][block][hour]` in posts per second.
    pub fn new(origin: Timestamp, block_days: u32, rates: HashMap<ListId, Vec<[f64; 24]>>) -> Self {
        KnownRates {
            origin: origin.as_second(),
            block_seconds: i64::from(block_days.max(1)) * DAY as i64,
            rates,
        }
    }

    /// Counts arrivals into rates: `arrivals` are (list, instant in seconds) pairs, blocks start
    /// at `origin`, hours are of the UTC day (the scheduler's day). With `shared_shape`, a list's
    /// rate in a block is its count spread over the hours as all lists' arrivals of the block
    /// are: the truth when every list follows the site's daily cycle (as simulated forums do),
    /// and far less noisy than a few posts counted per hour of one board.
    pub fn from_arrivals(
        origin: Timestamp,
        block_days: u32,
        blocks: usize,
        shared_shape: bool,
        arrivals: impl IntoIterator<Item = (ListId, i64)>,
    ) -> Self {
        let block_seconds = i64::from(block_days.max(1)) * DAY as i64;
        let start = origin.as_second();
        let mut counts: HashMap<ListId, Vec<[f64; 24]>> = HashMap::new();
        let mut site = vec![[0.0; 24]; blocks];
        for (list, second) in arrivals {
            let block = (second - start).div_euclid(block_seconds);
            if block < 0 || block as usize >= blocks {
                continue;
            }
            let hour = (second.rem_euclid(DAY as i64) / 3600) as usize;
            counts
                .entry(list)
                .or_insert_with(|| vec![[0.0; 24]; blocks])[block as usize][hour] += 1.0;
            site[block as usize][hour] += 1.0;
        }
        if shared_shape {
            for blocks in counts.values_mut() {
                for (block, shape) in blocks.iter_mut().zip(&site) {
                    let total: f64 = block.iter().sum();
                    let site_total: f64 = shape.iter().sum::<f64>().max(1.0);
                    for (count, share) in block.iter_mut().zip(shape) {
                        *count = total * share / site_total;
                    }
                }
            }
        }
        // A count over a block of days in one hour bin is a rate per (days × 3600) seconds.
        let bin_seconds = block_seconds as f64 / 24.0;
        for blocks in counts.values_mut() {
            for block in blocks.iter_mut() {
                block.iter_mut().for_each(|count| *count /= bin_seconds);
            }
        }
        KnownRates::new(origin, block_days, counts)
    }

    /// The hourly rates of `list` as of `second`, if known.
    pub fn hourly(&self, list: ListId, second: i64) -> Option<&[f64; 24]> {
        let blocks = self.rates.get(&list)?;
        let block = (second - self.origin).div_euclid(self.block_seconds.max(1));
        let index = block.clamp(0, blocks.len() as i64 - 1) as usize;
        blocks.get(index)
    }
}

#[cfg(test)]
mod tests;
