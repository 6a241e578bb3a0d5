//! The seam every policy fits: plan a window's fetches, learn from each fetch.
//!
//! A driver (the replay harness in simulated time, `trawl watch` live) owns the clock and the
//! fetcher. It repeatedly asks [`Scheduler::plan`] for a window (its start, its end, a budget of
//! fetches), fetches each [`PageRequest`] at its instant, hands every result to
//! [`Scheduler::observe`], and fetches the follow-up requests that returns right away, at the
//! instant of the observation. A policy spends no more than the window's budget on its plan and
//! its follow-ups together, plus what it left unspent in earlier windows, up to a quarter of a
//! day's budget ([`CARRY_LIMIT_DAYS`]): policies that follow the day's activity save at night
//! what they spend at the peak, and over any day the total stays within the day's budget plus
//! that quarter. Follow-ups it has no budget left for wait for the next window.

use std::collections::VecDeque;

use jiff::{SignedDuration, Timestamp};

use crate::ScheduleError;
use crate::lists::{FetchedPage, ListChange, ListId, ListKind, Lists};
use crate::saved::{Fields, StateWriter, float_field};

/// One page to fetch, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageRequest {
    pub at: Timestamp,
    pub list: ListId,
    /// 1-based page number within the list.
    pub page: u32,
}

impl PageRequest {
    /// The request for page `page` of `list` at `seconds` after the Unix epoch, the time scale
    /// policies plan on (fractions of a second dropped past the clock's resolution).
    pub(crate) fn at_second(seconds: f64, list: ListId, page: u32) -> PageRequest {
        PageRequest {
            at: offset(timestamp_of(0), seconds),
            list,
            page,
        }
    }
}

/// A span of time the driver plans for, `start <= t < end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub start: Timestamp,
    pub end: Timestamp,
}

impl Window {
    pub fn new(start: Timestamp, end: Timestamp) -> Result<Self, ScheduleError> {
        if end <= start {
            return Err(ScheduleError::EmptyWindow);
        }
        Ok(Window { start, end })
    }

    pub fn start_second(&self) -> i64 {
        self.start.as_second()
    }

    pub fn end_second(&self) -> i64 {
        self.end.as_second()
    }

    pub fn seconds(&self) -> f64 {
        (self.end_second() - self.start_second()) as f64
    }

    /// How many fetches a day this window's budget amounts to.
    pub fn per_day(&self, budget: u32) -> f64 {
        f64::from(budget) * 86_400.0 / self.seconds().max(1.0)
    }
}

/// A revisit policy. See the module documentation for the contract with the driver.
pub trait Policy: std::fmt::Debug + Send {
    /// The policy's name as the command line spells it (`trawl`, `lws-bc`, `bic-bra`, …).
    fn name(&self) -> &'static str;

    /// The fetches for `window`, at most `budget` of them (fewer if a policy reserves some of the
    /// budget for the follow-ups its observations will ask for), in time order.
    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest>;

    /// Learns from one fetched page, already recorded in `lists` (`change` is what it changed),
    /// and returns the pages to fetch right away because of it (a new thread's pages, the next
    /// list page when the news reach further). These count against the current window's budget.
    fn observe(
        &mut self,
        lists: &Lists,
        fetched: &FetchedPage,
        change: &ListChange,
    ) -> Vec<PageRequest>;

    /// What the policy knows that the pages it was shown cannot tell again (how it spent its
    /// budget, when each list is next due), as text for a driver that restarts; `None` for a
    /// policy that does not keep it, which a restarted driver runs afresh.
    fn saved_state(&self) -> Option<String> {
        None
    }

    /// Takes back a state [`Policy::saved_state`] gave, on a policy built the same way and shown
    /// the same pages again.
    fn restore_state(&mut self, _saved: &str) -> Result<(), ScheduleError> {
        Err(ScheduleError::SavedState(format!(
            "policy {:?} keeps no state",
            self.name()
        )))
    }
}

/// The lists of a crawl together with the policy revisiting them: the narrow API a driver uses.
#[derive(Debug)]
pub struct Scheduler {
    lists: Lists,
    policy: Box<dyn Policy>,
}

impl Scheduler {
    pub fn new(policy: Box<dyn Policy>) -> Self {
        Scheduler {
            lists: Lists::new(),
            policy,
        }
    }

    pub fn policy_name(&self) -> &'static str {
        self.policy.name()
    }

    pub fn lists(&self) -> &Lists {
        &self.lists
    }

    /// For registering boards (and threads found outside boards) as the crawl finds them.
    pub fn lists_mut(&mut self) -> &mut Lists {
        &mut self.lists
    }

    pub fn plan(&mut self, window: Window, budget: u32) -> Vec<PageRequest> {
        let mut plan = self.policy.plan(&self.lists, window, budget);
        plan.sort_by_key(|request| request.at);
        plan
    }

    /// The policy's state the lists cannot rebuild, for a driver that restarts
    /// ([`Policy::saved_state`]).
    pub fn saved_policy_state(&self) -> Option<String> {
        self.policy.saved_state()
    }

    /// Restores what [`Scheduler::saved_policy_state`] gave, once the lists are rebuilt.
    pub fn restore_policy_state(&mut self, saved: &str) -> Result<(), ScheduleError> {
        self.policy.restore_state(saved)
    }

    /// Records a fetched page and returns the follow-up fetches the policy asks for.
    pub fn observe(&mut self, fetched: &FetchedPage) -> Result<Vec<PageRequest>, ScheduleError> {
        let change = self.lists.record(fetched)?;
        Ok(self.policy.observe(&self.lists, fetched, &change))
    }
}

/// A window's budget as a policy spends it: what is left, the follow-ups that found no budget
/// and wait for the next window, and how large a share of spending follow-ups have taken lately
/// (so a plan can leave them room).
#[derive(Clone, Debug)]
pub(crate) struct Allowance {
    left: u32,
    window_end: i64,
    planned: u32,
    followed: u32,
    follow_up_share: f64,
    deferred: VecDeque<(ListId, u32)>,
    /// Deferred follow-ups a policy marked as news (see [`Allowance::follow_ups_marked`]),
    /// served before the others.
    deferred_news: VecDeque<(ListId, u32)>,
    /// Budget carried into the current window from earlier ones.
    carried: u32,
    /// Deferred follow-ups served as the current window began: charged then, and at the head of
    /// the plan [`Allowance::charge_plan`] is given, which must not charge them again.
    served_at_start: u32,
    /// Whether the share kept for follow-ups has a margin for their chance fluctuations (see
    /// [`Allowance::with_margin`]).
    margin: bool,
}

impl Default for Allowance {
    fn default() -> Self {
        // Before any window has shown how many follow-ups a policy asks for, half the budget is
        // kept for them: a first window spent entirely on its plan would defer every new
        // thread the crawl discovers.
        Allowance {
            left: 0,
            window_end: 0,
            planned: 0,
            followed: 0,
            follow_up_share: 0.5,
            deferred: VecDeque::new(),
            deferred_news: VecDeque::new(),
            carried: 0,
            served_at_start: 0,
            margin: false,
        }
    }
}

/// How much unspent budget may be carried into later windows, in days of budget.
pub const CARRY_LIMIT_DAYS: f64 = 0.25;

/// The most of a window's budget kept back for follow-ups.
const MOST_KEPT_FOR_FOLLOW_UPS: f64 = 0.8;

impl Allowance {
    /// An allowance that keeps for follow-ups their expected number plus two standard
    /// deviations of a Poisson count, rather than their expected number alone. A plan that
    /// spends all but the expected follow-ups runs at full load: every window with more news
    /// than usual defers the surplus to the next, where it meets that window's own news, and
    /// the queue of deferred follow-ups grows like any queue at full load (a delay of the order
    /// of the window, measured on stationary Poisson boards). With the margin the surplus fits
    /// and what the margin leaves unspent carries into later windows, where a policy planning
    /// from its slots ([`crate::Trawl`]) spends it on more polls.
    pub(crate) fn with_margin() -> Self {
        Allowance {
            margin: true,
            ..Allowance::default()
        }
    }

    /// Starts a window: returns the deferred follow-ups it serves first and the number of fetches
    /// left for the plan itself once follow-ups have been given their usual share.
    pub(crate) fn begin(
        &mut self,
        lists: &Lists,
        window: Window,
        budget: u32,
    ) -> (Vec<PageRequest>, u32) {
        self.begin_serving_deferred(lists, window, budget, 0)
    }

    /// [`Allowance::begin`] serving deferred follow-ups only while more than `reserve` of the
    /// window's fetches are left, those marked as news first, each kind in order; the others
    /// wait for later windows.
    pub(crate) fn begin_serving_deferred(
        &mut self,
        lists: &Lists,
        window: Window,
        budget: u32,
        reserve: u32,
    ) -> (Vec<PageRequest>, u32) {
        let spent = self.planned + self.followed;
        if spent > 0 {
            let share = f64::from(self.followed) / f64::from(spent);
            self.follow_up_share = 0.7 * self.follow_up_share + 0.3 * share;
        }
        self.planned = 0;
        self.followed = 0;
        let carry_limit = (window.per_day(budget) * CARRY_LIMIT_DAYS).floor() as u32;
        self.carried = self.left.min(carry_limit);
        self.left = budget + self.carried;
        self.window_end = window.end_second();
        let mut first = Vec::new();
        while self.left > reserve {
            let next = self
                .deferred_news
                .pop_front()
                .or_else(|| self.deferred.pop_front());
            let Some((list, page)) = next else {
                break;
            };
            if lists.get(list).is_some() {
                first.push((list, page));
                self.left -= 1;
                self.followed += 1;
            }
        }
        let share = self.follow_up_share.min(MOST_KEPT_FOR_FOLLOW_UPS);
        let most_kept = f64::from(self.left) * MOST_KEPT_FOR_FOLLOW_UPS;
        let keep = if self.margin {
            (f64::from(budget) * share + self.margin(budget)).min(most_kept)
        } else {
            f64::from(self.left) * share
        }
        .round() as u32;
        // With the margin, deferred follow-ups are overdue and fetched as the window opens;
        // without it they are spread over the window as the plain allowance always has.
        let instants = if self.margin {
            vec![window.start; first.len()]
        } else {
            spread(window, first.len())
        };
        self.served_at_start = first.len() as u32;
        let requests = first
            .into_iter()
            .zip(instants)
            .map(|((list, page), at)| PageRequest { at, list, page })
            .collect();
        (requests, self.left - keep.min(self.left))
    }

    /// Starts a window as every policy does: the deferred follow-ups first, then the backlog of
    /// pages known and never fetched, and the number of fetches left for the policy's own plan.
    pub(crate) fn begin_with_backlog(
        &mut self,
        lists: &Lists,
        window: Window,
        budget: u32,
    ) -> (Vec<PageRequest>, usize) {
        let (mut requests, plannable) = self.begin(lists, window, budget);
        let backlog = self.backlog_requests(lists, window, &requests, plannable as usize);
        let slots = plannable as usize - backlog.len();
        requests.extend(backlog);
        (requests, slots)
    }

    /// Up to `most` pages of the backlog spread over the window, leaving out the deferred
    /// follow-ups `first` already serves.
    pub(crate) fn backlog_requests(
        &self,
        lists: &Lists,
        window: Window,
        first: &[PageRequest],
        most: usize,
    ) -> Vec<PageRequest> {
        // A deferred follow-up of a new thread is in the backlog too (its pages are known and
        // not fetched yet): planned again from the backlog it would be fetched twice.
        let deferred: Vec<(ListId, u32)> = first
            .iter()
            .map(|request: &PageRequest| (request.list, request.page))
            .collect();
        let pages: Vec<(ListId, u32)> = lists
            .backlog()
            .filter(|page| !deferred.contains(page))
            .take(most)
            .collect();
        let instants = spread(window, pages.len());
        pages
            .into_iter()
            .zip(instants)
            .map(|((list, page), at)| PageRequest { at, list, page })
            .collect()
    }

    /// The margin kept for follow-ups over their expected number in a window of `budget`.
    /// Two standard deviations of a Poisson count of the expected follow-ups, but never more
    /// than half of what the window leaves for the plan: a small budget must still poll.
    pub(crate) fn margin(&self, budget: u32) -> f64 {
        if self.margin {
            let expected = f64::from(budget) * self.follow_up_share.min(MOST_KEPT_FOR_FOLLOW_UPS);
            (2.0 * expected.sqrt()).min(0.5 * (f64::from(budget) - expected).max(0.0))
        } else {
            0.0
        }
    }

    /// Budget carried into the current window beyond the margin: what a policy may spend on
    /// more than its own share.
    pub(crate) fn carried_beyond_margin(&self, budget: u32) -> f64 {
        (f64::from(self.carried) - self.margin(budget)).max(0.0)
    }

    /// Fetches left in the window.
    pub(crate) fn left(&self) -> u32 {
        self.left
    }

    /// Follow-ups waiting for budget.
    pub(crate) fn deferred_count(&self) -> usize {
        self.deferred.len() + self.deferred_news.len()
    }

    /// The share of recent spending that went to follow-ups (an average over windows).
    pub(crate) fn follow_up_share(&self) -> f64 {
        self.follow_up_share
    }

    /// Charges a window's plan of `planned` fetches: the whole plan as the policy returns it,
    /// beginning with the deferred follow-ups [`Allowance::begin`] served, which were charged
    /// as they were served and are not charged again.
    pub(crate) fn charge_plan(&mut self, planned: usize) {
        let count = (planned as u32)
            .saturating_sub(self.served_at_start)
            .min(self.left);
        self.served_at_start = 0;
        self.left -= count;
        self.planned += count;
    }

    /// Writes the allowance's state: one `allowance` line and a `deferred` line per follow-up
    /// waiting for budget, in their order.
    pub(crate) fn save(&self, writer: &mut StateWriter) {
        writer.line(
            "allowance",
            &[
                &self.left.to_string(),
                &self.window_end.to_string(),
                &self.planned.to_string(),
                &self.followed.to_string(),
                &float_field(self.follow_up_share),
                &self.carried.to_string(),
            ],
        );
        for (list, page) in &self.deferred {
            writer.line("deferred", &[&list.0.to_string(), &page.to_string()]);
        }
        for (list, page) in &self.deferred_news {
            writer.line("deferred-news", &[&list.0.to_string(), &page.to_string()]);
        }
    }

    /// Reads back an `allowance` line (with `deferred` lines to come through
    /// [`Allowance::restore_deferred`]); whether the margin is kept is the policy's setting,
    /// not state.
    pub(crate) fn restore(&mut self, fields: &[&str]) -> Result<(), ScheduleError> {
        let fields = Fields::of("allowance", fields, 6)?;
        self.left = fields.number(0)?;
        self.window_end = fields.number(1)?;
        self.planned = fields.number(2)?;
        self.followed = fields.number(3)?;
        self.follow_up_share = fields.float(4)?;
        self.carried = fields.number(5)?;
        self.deferred.clear();
        self.deferred_news.clear();
        Ok(())
    }

    /// Reads back one `deferred` line, after the `allowance` line.
    pub(crate) fn restore_deferred(&mut self, fields: &[&str]) -> Result<(), ScheduleError> {
        let fields = Fields::of("deferred", fields, 2)?;
        self.deferred
            .push_back((fields.list(0)?, fields.number(1)?));
        Ok(())
    }

    /// Reads back one `deferred-news` line, after the `allowance` line.
    pub(crate) fn restore_deferred_news(&mut self, fields: &[&str]) -> Result<(), ScheduleError> {
        let fields = Fields::of("deferred-news", fields, 2)?;
        self.deferred_news
            .push_back((fields.list(0)?, fields.number(1)?));
        Ok(())
    }

    /// Grants as many of `wanted` follow-ups as the window allows, at `at`; the rest wait.
    pub(crate) fn follow_ups(
        &mut self,
        at: Timestamp,
        wanted: Vec<(ListId, u32)>,
    ) -> Vec<PageRequest> {
        self.follow_ups_marked(at, wanted.into_iter().map(|page| (page, false)))
    }

    /// [`Allowance::follow_ups`] for follow-ups each marked as news or not: news that waits
    /// for budget is served before the other waiting follow-ups.
    pub(crate) fn follow_ups_marked(
        &mut self,
        at: Timestamp,
        wanted: impl IntoIterator<Item = ((ListId, u32), bool)>,
    ) -> Vec<PageRequest> {
        let mut granted = Vec::new();
        for ((list, page), news) in wanted {
            if self.left > 0 && at.as_second() < self.window_end {
                self.left -= 1;
                self.followed += 1;
                granted.push(PageRequest { at, list, page });
            } else if !self.deferred.contains(&(list, page))
                && !self.deferred_news.contains(&(list, page))
            {
                if news {
                    self.deferred_news.push_back((list, page));
                } else {
                    self.deferred.push_back((list, page));
                }
            }
        }
        granted
    }
}

/// `count` instants spread evenly over the window, each in the middle of its share.
pub(crate) fn spread(window: Window, count: usize) -> Vec<Timestamp> {
    let step = window.seconds() / count.max(1) as f64;
    (0..count)
        .map(|index| offset(window.start, step * (index as f64 + 0.5)))
        .collect()
}

pub(crate) fn offset(start: Timestamp, seconds: f64) -> Timestamp {
    start
        .saturating_add(SignedDuration::from_secs_f64(seconds.max(0.0)))
        .unwrap_or(start)
}

pub(crate) fn timestamp_of(second: i64) -> Timestamp {
    Timestamp::from_second(second).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// The follow-ups every policy here makes, because any crawler fetches a URL it has just
/// discovered: the pages of new threads, and the next page of a thread whose pager shows it has
/// grown past the page just read ("the last page or the newly discovered pages").
pub(crate) fn discovery_follow_ups(
    lists: &Lists,
    fetched: &FetchedPage,
    change: &ListChange,
) -> Vec<(ListId, u32)> {
    let mut wanted = Vec::new();
    for &thread in &change.new_threads {
        if let Some(state) = lists.get(thread) {
            wanted.extend((1..=state.page_count).map(|page| (thread, page)));
        }
    }
    if let Some(state) = lists.get(fetched.list)
        && state.kind == ListKind::Post
        && fetched.page < state.page_count
    {
        let next = fetched.page + 1;
        let next_is_full = state.page_seen(next).is_some_and(|seen| {
            seen.fetched_at.is_some() && seen.records >= state.records_per_page.max(1)
        });
        if !next_is_full {
            wanted.push((fetched.list, next));
        }
    }
    wanted
}

/// The follow-ups of the board-driven policies (BIC and ours): the last page of every thread the
/// board shows activity for.
pub(crate) fn changed_thread_follow_ups(lists: &Lists, change: &ListChange) -> Vec<(ListId, u32)> {
    change
        .changed_threads
        .iter()
        .filter_map(|&thread| lists.get(thread).map(|state| (thread, state.page_count)))
        .collect()
}

/// The visiting credit of a unit polled at a rate: polls fall where the accumulated credit
/// crosses a whole number, so a rate that changes from window to window (or hour to hour) still
/// gives evenly spaced polls where it is constant, and no poll is lost or doubled at window
/// borders.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Credit {
    value: f64,
}

impl Credit {
    /// Starts at a phase in [0, 1), so units polled at the same rate do not all poll at once.
    pub(crate) fn with_phase(phase: f64) -> Self {
        Credit {
            value: phase.rem_euclid(1.0),
        }
    }

    /// The credit accumulated so far (its fractional part is the phase of the next poll).
    pub(crate) fn value(&self) -> f64 {
        self.value
    }

    /// A credit at an accumulated value read back from a saved state.
    pub(crate) fn at_value(value: f64) -> Self {
        Credit { value }
    }

    /// Advances over `[from, from + seconds)` at `rate` polls per second; returns the instants
    /// (seconds) of the polls that fall inside.
    pub(crate) fn advance(&mut self, from: f64, seconds: f64, rate: f64, polls: &mut Vec<f64>) {
        if rate <= 0.0 || seconds <= 0.0 {
            return;
        }
        let end_value = self.value + rate * seconds;
        let mut next = self.value.floor() + 1.0;
        while next <= end_value {
            polls.push(from + (next - self.value) / rate);
            next += 1.0;
        }
        self.value = end_value;
    }
}

/// A fixed per-unit phase in [0, 1) from its id (SplitMix64's finaliser), so that plans are
/// deterministic and units do not poll in lockstep.
pub(crate) fn phase_of(id: ListId) -> f64 {
    let mut z = id.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credit_polls_evenly_and_continues_across_windows() {
        let mut credit = Credit::with_phase(0.0);
        let mut polls = Vec::new();
        credit.advance(0.0, 10.0, 0.5, &mut polls);
        credit.advance(10.0, 10.0, 0.5, &mut polls);
        assert_eq!(
            polls,
            vec![2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 20.0]
        );
        // A rate that halves in the second window spaces its polls twice as far.
        let mut credit = Credit::with_phase(0.5);
        let mut polls = Vec::new();
        credit.advance(0.0, 4.0, 0.5, &mut polls);
        credit.advance(4.0, 8.0, 0.25, &mut polls);
        assert_eq!(polls, vec![1.0, 3.0, 6.0, 10.0]);
    }

    #[test]
    fn follow_ups_marked_as_news_wait_before_the_others() {
        let mut lists = Lists::new();
        for board in 1..=4 {
            lists.add_index_list(ListId(board), crate::lists::SiteId(0));
        }
        let mut allowance = Allowance::with_margin();
        let window = Window::new(timestamp_of(0), timestamp_of(3600)).unwrap();
        allowance.begin(&lists, window, 0);
        let late = timestamp_of(10);
        let granted = allowance.follow_ups_marked(
            late,
            [
                ((ListId(1), 2), false),
                ((ListId(2), 2), true),
                ((ListId(3), 2), false),
                ((ListId(4), 2), true),
            ],
        );
        assert!(granted.is_empty());
        assert_eq!(allowance.deferred_count(), 4);
        let next = Window::new(timestamp_of(3600), timestamp_of(7200)).unwrap();
        let (served, _) = allowance.begin_serving_deferred(&lists, next, 10, 7);
        let served: Vec<u64> = served.iter().map(|request| request.list.0).collect();
        // Ten fetches, seven kept: three served, the news first, then the oldest other.
        assert_eq!(served, vec![2, 4, 1]);
        assert_eq!(allowance.deferred_count(), 1);
    }

    #[test]
    fn spread_puts_instants_in_the_middle_of_equal_shares() {
        let window = Window::new(timestamp_of(0), timestamp_of(100)).unwrap();
        let got: Vec<i64> = spread(window, 4).iter().map(|at| at.as_second()).collect();
        assert_eq!(got, vec![12, 37, 62, 87]);
    }
}
