//! Olston and Pandey's refresh policies (WWW 2008, "Recrawl scheduling based on information
//! longevity") as the list-wise paper adapted them to forums: `curve-fitting` and `bound-based`.
//!
//! Both see pages, not lists. Each page has a *divergence* from the stored copy that grows with
//! the time τ since its last refresh, and refreshing it at τ is worth the utility
//! U(τ) = τ·D(τ) − ∫₀^τ D(s) ds (the divergence the refresh removes, less what was paid while it
//! grew). A page is refreshed when its utility reaches a threshold T shared by all pages, and T
//! is set so the refreshes fill the budget. The two differ in how D is known:
//!
//! - *Curve-fitting* fits D to the divergence each refresh of the page measured (here the number
//!   of new records the page showed) against the time since the refresh before, a line through
//!   the origin D(τ) = a·τ by least squares over the last [`SAMPLES_KEPT`] refreshes. Then
//!   U(τ) = a·τ²/2 and the page is due after τ* = √(2T/a).
//! - *Bound-based* bounds the divergence by the chance that the page changed at all, under a
//!   Poisson change rate λ estimated from the page's visits with Cho and Garcia-Molina's
//!   estimator: D(τ) = 1 − e^(−λτ), so U(τ) = (1 − e^(−λτ)(1 + λτ))/λ. A page with λT ≥ 1 never
//!   reaches the threshold: it waits the longest interval.
//!
//! The list-wise paper adapted both to forums by giving newly discovered URLs the highest
//! priority (here: the backlog and the discovery follow-ups every policy makes) and by relaxing
//! the conditions under which the refresh period and reference time are adjusted, so the
//! policies keep up with a forum's fast updates; here the threshold is set again every day by
//! bisection so that the next day's refreshes match the budget, and each page's next refresh is
//! reckoned from its last with the current estimate, after every fetch.

use std::collections::{BTreeSet, HashMap, VecDeque};

use crate::baselines::cho_garcia_molina_rate;
use crate::lists::{FetchedPage, ListChange, ListId, Lists};
use crate::optimal::DAY;
use crate::policy::{Allowance, PageRequest, Policy, Window, discovery_follow_ups};

/// How many refreshes of a page the curve is fitted to.
pub const SAMPLES_KEPT: usize = 8;

/// No page is refreshed more often than this (seconds).
const SHORTEST_INTERVAL: f64 = 60.0;

/// No page waits longer than this (seconds) while the budget allows it: the pages the threshold
/// would never refresh are still looked at now and then, so an estimate made on few visits can
/// correct itself.
const LONGEST_INTERVAL: f64 = 30.0 * DAY;

/// The share of a day's refreshes the longest interval may take when every page waits it. On a
/// large forum under a small budget a fixed longest interval took them all: at 1,000 fetches a
/// day, 30,000 pages each looked at every 30 days are the whole day's refreshes, the threshold
/// was pushed to the top of its range, every page waited the longest interval and the two
/// models made the same fetches (identical figures at 1,000 a day on the corpus). The longest
/// interval is stretched until it leaves the rest of the budget to the threshold.
const LONGEST_INTERVAL_SHARE: f64 = 0.1;

/// Which of Olston and Pandey's policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LongevityModel {
    CurveFitting,
    BoundBased,
}

/// What the policy keeps of one page.
#[derive(Clone, Debug)]
struct PageHistory {
    first_fetch: i64,
    last_fetch: i64,
    visits: u32,
    changes: u32,
    /// (time since the previous refresh, divergence found), newest last.
    samples: VecDeque<(f64, f64)>,
    due: i64,
}

/// Olston and Pandey's threshold policies over pages.
#[derive(Clone, Debug)]
pub struct Longevity {
    model: LongevityModel,
    allowance: Allowance,
    pages: HashMap<(ListId, u32), PageHistory>,
    queue: BTreeSet<(i64, ListId, u32)>,
    threshold: f64,
    /// The start of the day the threshold was last set for.
    threshold_set_at: Option<i64>,
    /// The longest interval for the day's budget and pages (see [`LONGEST_INTERVAL_SHARE`]).
    longest_interval: f64,
    /// g⁻¹ for the bound-based utility, tabulated on √y (see [`inverse_table`]).
    inverse: Vec<f64>,
}

/// Points of the tabulated inverse.
const INVERSE_POINTS: usize = 4096;

/// g(x) = 1 − e^(−x)(1 + x): the bound-based utility of a refresh at τ, times λ, at x = λτ.
fn utility_shape(x: f64) -> f64 {
    1.0 - (-x).exp() * (1.0 + x)
}

/// g⁻¹(y) by bisection, for y in [0, 1).
fn inverse_by_bisection(y: f64) -> f64 {
    let (mut low, mut high) = (0.0_f64, 80.0_f64);
    for _ in 0..80 {
        let middle = 0.5 * (low + high);
        if utility_shape(middle) < y {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

/// x such that g(x) = 1 − e^(−x)(1 + x) equals y, tabulated at y = (k / (N − 1))² for k < N − 1,
/// so the table is fine where g is flat (g(x) ≈ x²/2 near 0). The last point stands for y = 1,
/// which no finite x reaches.
fn inverse_table() -> Vec<f64> {
    (0..INVERSE_POINTS)
        .map(|k| {
            let root = k as f64 / (INVERSE_POINTS - 1) as f64;
            if k == INVERSE_POINTS - 1 {
                return f64::INFINITY;
            }
            inverse_by_bisection(root * root)
        })
        .collect()
}

impl Longevity {
    pub fn new(model: LongevityModel) -> Self {
        Longevity {
            model,
            allowance: Allowance::default(),
            pages: HashMap::new(),
            queue: BTreeSet::new(),
            threshold: 1.0,
            threshold_set_at: None,
            longest_interval: LONGEST_INTERVAL,
            inverse: if model == LongevityModel::BoundBased {
                inverse_table()
            } else {
                Vec::new()
            },
        }
    }

    pub fn curve_fitting() -> Self {
        Longevity::new(LongevityModel::CurveFitting)
    }

    pub fn bound_based() -> Self {
        Longevity::new(LongevityModel::BoundBased)
    }

    /// The fitted slope a of D(τ) = a·τ (records per second) by least squares through the
    /// origin over the kept refreshes. A page refreshed once is assumed to gain a record a day,
    /// and no slope falls below half a record over the time observed plus a day, so a page that
    /// has shown nothing yet is still looked at, less and less often.
    fn slope(history: &PageHistory) -> f64 {
        if history.samples.is_empty() {
            return 1.0 / DAY;
        }
        let (mut cross, mut squares, mut observed) = (0.0, 0.0, DAY);
        for &(interval, divergence) in &history.samples {
            cross += divergence * interval;
            squares += interval * interval;
            observed += interval;
        }
        (cross / squares).max(0.5 / observed)
    }

    /// The page's change rate as the bound-based policy estimates it (per second).
    fn change_rate(history: &PageHistory) -> f64 {
        if history.visits >= 2 {
            let intervals = history.visits - 1;
            let mean =
                (history.last_fetch - history.first_fetch).max(1) as f64 / f64::from(intervals);
            cho_garcia_molina_rate(intervals, history.changes, mean)
        } else {
            1.0 / DAY
        }
    }

    /// g⁻¹(y) by the table, linear between points in √y. Past the last finite point (y above
    /// 0.9995, x above about 10) g⁻¹ grows without bound as y nears 1 and no interpolation
    /// towards the infinite last point is meaningful, so it is found by bisection: a page there
    /// changes only a little slower than 1/T and is due after some 10 to 30 times 1/λ. Before,
    /// this branch gave back the position in the table (about 4,094) as if it were x, and such
    /// pages waited the longest interval instead.
    fn inverse_of(&self, y: f64) -> f64 {
        if y >= 1.0 {
            return f64::INFINITY;
        }
        let position = y.max(0.0).sqrt() * (INVERSE_POINTS - 1) as f64;
        let index = position.floor() as usize;
        if index + 1 >= INVERSE_POINTS - 1 {
            return inverse_by_bisection(y);
        }
        let fraction = position - index as f64;
        self.inverse[index] * (1.0 - fraction) + self.inverse[index + 1] * fraction
    }

    /// The refresh interval of a page under `threshold`: when its utility reaches it. A page
    /// whose utility never reaches it waits [`LONGEST_INTERVAL`], never the stretched longest
    /// interval: the bound-based utility of a page changing faster than 1/T stays below T, and
    /// those pages are a forum's boards, whose polls find every new thread (stretched to
    /// months, they were read no more in the stable stage, which then stored no post at all at
    /// 1,000 a day on the corpus).
    fn interval(&self, history: &PageHistory, threshold: f64) -> f64 {
        // A page seen never to change is worth least and waits the stretched interval.
        let reached = match self.model {
            LongevityModel::CurveFitting => {
                let slope = Self::slope(history);
                Some(if slope > 0.0 {
                    (2.0 * threshold / slope).sqrt()
                } else {
                    f64::INFINITY
                })
            }
            LongevityModel::BoundBased => {
                let rate = Self::change_rate(history);
                if rate > 0.0 {
                    Some(self.inverse_of(rate * threshold) / rate).filter(|time| time.is_finite())
                } else {
                    Some(f64::INFINITY)
                }
            }
        };
        match reached {
            Some(interval) => interval.clamp(SHORTEST_INTERVAL, self.longest_interval),
            None => LONGEST_INTERVAL,
        }
    }

    /// The longest interval for `pages` pages and `per_day` refreshes a day: 30 days, or longer
    /// when all pages waiting 30 days would take more than [`LONGEST_INTERVAL_SHARE`] of them.
    fn longest_interval_for(pages: usize, per_day: f64) -> f64 {
        let stretched = pages as f64 * DAY / (LONGEST_INTERVAL_SHARE * per_day.max(1.0));
        stretched.max(LONGEST_INTERVAL)
    }

    /// Refreshes a day under `threshold`, over every page.
    fn refreshes_per_day(&self, threshold: f64) -> f64 {
        self.pages
            .values()
            .map(|history| DAY / self.interval(history, threshold))
            .sum()
    }

    /// Sets the threshold by bisection (in its logarithm) so a day's refreshes are `per_day`,
    /// and reckons every page's next refresh again.
    fn set_threshold(&mut self, per_day: f64) {
        if self.pages.is_empty() {
            return;
        }
        self.longest_interval = Self::longest_interval_for(self.pages.len(), per_day);
        let (mut low, mut high) = ((1e-6_f64).ln(), (1e12_f64).ln());
        for _ in 0..40 {
            let middle = 0.5 * (low + high);
            // A higher threshold means longer intervals and fewer refreshes.
            if self.refreshes_per_day(middle.exp()) > per_day {
                low = middle;
            } else {
                high = middle;
            }
        }
        self.threshold = (0.5 * (low + high)).exp();
        self.queue.clear();
        let threshold = self.threshold;
        let keys: Vec<(ListId, u32)> = self.pages.keys().copied().collect();
        for key in keys {
            let history = &self.pages[&key];
            let due = history.last_fetch + self.interval(history, threshold) as i64;
            self.pages.get_mut(&key).expect("listed above").due = due;
            self.queue.insert((due, key.0, key.1));
        }
    }
}

impl Policy for Longevity {
    fn name(&self) -> &'static str {
        match self.model {
            LongevityModel::CurveFitting => "curve-fitting",
            LongevityModel::BoundBased => "bound-based",
        }
    }

    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let (mut requests, slots) = self.allowance.begin_with_backlog(lists, window, budget);
        let (start, end) = (window.start_second(), window.end_second());
        if self
            .threshold_set_at
            .is_none_or(|set_at| start >= set_at + DAY as i64)
        {
            let per_day = window.per_day(budget) * (1.0 - self.allowance.follow_up_share());
            self.set_threshold(per_day);
            self.threshold_set_at = Some(start);
        }
        let mut due: Vec<(i64, ListId, u32)> = Vec::new();
        for &(second, list, page) in &self.queue {
            if second >= end || due.len() >= slots {
                break;
            }
            if lists
                .get(list)
                .is_some_and(|state| page <= state.page_count)
            {
                due.push((second, list, page));
            }
        }
        requests.extend(due.into_iter().map(|(second, list, page)| {
            PageRequest::at_second(second.max(start) as f64, list, page)
        }));
        self.allowance.charge_plan(requests.len());
        requests
    }

    fn observe(
        &mut self,
        lists: &Lists,
        fetched: &FetchedPage,
        change: &ListChange,
    ) -> Vec<PageRequest> {
        let at = fetched.fetched_at.as_second();
        let key = (fetched.list, fetched.page);
        let history = self.pages.entry(key).or_insert(PageHistory {
            first_fetch: at,
            last_fetch: at,
            visits: 0,
            changes: 0,
            samples: VecDeque::new(),
            due: at,
        });
        self.queue.remove(&(history.due, key.0, key.1));
        if history.visits > 0 {
            let since = (at - history.last_fetch).max(1) as f64;
            if change.new_records > 0 {
                history.changes += 1;
            }
            history
                .samples
                .push_back((since, f64::from(change.new_records)));
            if history.samples.len() > SAMPLES_KEPT {
                history.samples.pop_front();
            }
        }
        history.visits += 1;
        history.last_fetch = at;
        let history = history.clone();
        let due = at + self.interval(&history, self.threshold) as i64;
        if let Some(kept) = self.pages.get_mut(&key) {
            kept.due = due;
        }
        self.queue.insert((due, key.0, key.1));
        let wanted = discovery_follow_ups(lists, fetched, change);
        self.allowance.follow_ups(fetched.fetched_at, wanted)
    }
}

#[cfg(test)]
mod tests;
