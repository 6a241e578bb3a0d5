//! The baselines: what a crawler does without the papers' methods.
//!
//! - [`RoundRobin`] revisits every list's newest page in turn, the same share for all.
//! - [`BreadthFirst`] re-crawls the whole forum in breadth-first order, over and over.
//! - [`PoissonRate`] estimates each list's change rate with Cho and Garcia-Molina's estimator
//!   for a Poisson process seen only through "changed or not" at each visit,
//!   λ̂ = −ln((n − X + 0.5)/(n + 0.5)) / Ī (n visits, X of them finding a change, Ī the mean
//!   interval between visits), and polls lists in proportion to it, the policy such an
//!   estimate usually feeds.
//! - [`AdaptiveRevisit`] is the per-URL adaptive interval of the crawlers in use, with their
//!   default settings: Apache Nutch's `AdaptiveFetchSchedule` (interval ×(1 − 0.2) when the page
//!   changed, ×(1 + 0.4) when not, bounds 1 minute and 365 days, and the sync delta: when the last change is older than the interval the interval becomes that age,
//!   and the next fetch is reckoned from 0.3 of it before the fetch) and StormCrawler's
//!   `AdaptiveScheduler` (interval halved towards 1 hour on a change, ×1.5 up to 2 weeks
//!   without, starting from 1 day). Nutch's own first interval is 30 days
//!   (`db.fetch.interval.default`), which would leave a month-long crawl with one visit per page;
//!   the `nutch` policy starts from 1 day like StormCrawler, the one setting changed
//!   ([`NutchSettings::default`] keeps Nutch's 30 days). They see pages, not lists: every fetched page of a board or
//!   thread has its own interval, and "changed" is the page's content signature.
//!
//! All of them fetch newly discovered pages first (the backlog, new threads' pages, pages a
//! thread's pager shows have appeared), as any crawler does with URLs it has not seen.

use std::collections::{BTreeSet, HashMap};

use crate::lists::{FetchedPage, ListChange, ListId, Lists};
use crate::policy::{
    Allowance, Credit, PageRequest, Policy, Window, discovery_follow_ups, phase_of, spread,
};

/// Uniform round-robin over every list's newest page.
#[derive(Clone, Debug, Default)]
pub struct RoundRobin {
    allowance: Allowance,
    cursor: usize,
}

impl RoundRobin {
    pub fn new() -> Self {
        RoundRobin::default()
    }
}

impl Policy for RoundRobin {
    fn name(&self) -> &'static str {
        "uniform"
    }

    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let (mut requests, slots) = self.allowance.begin_with_backlog(lists, window, budget);
        let visited: Vec<(ListId, u32)> = lists
            .iter()
            .filter(|list| list.last_visit.is_some())
            .map(|list| (list.id, list.front_page()))
            .collect();
        if !visited.is_empty() {
            let instants = spread(window, slots);
            for (slot, at) in instants.into_iter().enumerate() {
                let (list, page) = visited[(self.cursor + slot) % visited.len()];
                requests.push(PageRequest { at, list, page });
            }
            self.cursor = (self.cursor + slots) % visited.len();
        }
        self.allowance.charge_plan(requests.len());
        requests
    }

    fn observe(
        &mut self,
        lists: &Lists,
        fetched: &FetchedPage,
        change: &ListChange,
    ) -> Vec<PageRequest> {
        let wanted = discovery_follow_ups(lists, fetched, change);
        self.allowance.follow_ups(fetched.fetched_at, wanted)
    }
}

/// Breadth-first re-crawl: what a generic crawler does when it is simply run again. It walks every
/// known page of every list (boards first, as the portal reaches them, then threads in the order
/// boards listed them; each list from its first page) and starts over when it reaches the end, so
/// every page is refreshed once a cycle whether it can change or not.
#[derive(Clone, Debug, Default)]
pub struct BreadthFirst {
    allowance: Allowance,
    /// The next list (by position in [`Lists::iter`]) and page of the walk.
    cursor: (usize, u32),
}

impl BreadthFirst {
    pub fn new() -> Self {
        BreadthFirst::default()
    }
}

impl Policy for BreadthFirst {
    fn name(&self) -> &'static str {
        "bfs"
    }

    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let (mut requests, slots) = self.allowance.begin_with_backlog(lists, window, budget);
        let states: Vec<_> = lists.iter().collect();
        let mut pages = Vec::with_capacity(slots);
        // One pass over the lists at most per window: a forum with fewer pages than the window's
        // budget is walked once, not twice.
        let mut lists_seen = 0usize;
        while pages.len() < slots && !states.is_empty() && lists_seen <= states.len() {
            let (index, page) = self.cursor;
            let Some(state) = states.get(index) else {
                self.cursor = (0, 1);
                lists_seen += 1;
                continue;
            };
            if page > state.page_count {
                self.cursor = (index + 1, 1);
                lists_seen += 1;
                continue;
            }
            if state.page_fetched(page) {
                pages.push((state.id, page));
            }
            self.cursor = (index, page + 1);
        }
        let instants = spread(window, pages.len());
        requests.extend(
            pages
                .into_iter()
                .zip(instants)
                .map(|((list, page), at)| PageRequest { at, list, page }),
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
        let wanted = discovery_follow_ups(lists, fetched, change);
        self.allowance.follow_ups(fetched.fetched_at, wanted)
    }
}

/// Cho and Garcia-Molina's estimator of a Poisson change rate from `visits` regular visits
/// `mean_interval` seconds apart, `changes` of which found the page changed:
/// λ̂ = −ln((n − X + 0.5)/(n + 0.5)) / Ī, per second. Unlike X/(n·Ī), it stays finite when every
/// visit found a change and is nearly unbiased for rates up to a few changes per interval.
pub fn cho_garcia_molina_rate(visits: u32, changes: u32, mean_interval: f64) -> f64 {
    let n = f64::from(visits);
    let x = f64::from(changes.min(visits));
    -((n - x + 0.5) / (n + 0.5)).ln() / mean_interval
}

#[derive(Clone, Copy, Debug)]
struct ChangeHistory {
    first_visit: i64,
    last_visit: i64,
    visits: u32,
    changes: u32,
    credit: Credit,
}

/// Polls every list in proportion to its estimated change rate.
#[derive(Clone, Debug, Default)]
pub struct PoissonRate {
    allowance: Allowance,
    histories: HashMap<ListId, ChangeHistory>,
}

/// The rate assumed for a list visited only once: one change a day.
const PRIOR_RATE: f64 = 1.0 / 86_400.0;

impl PoissonRate {
    pub fn new() -> Self {
        PoissonRate::default()
    }

    /// The estimated change rate of a list, per second.
    pub fn estimated_rate(&self, list: ListId) -> f64 {
        match self.histories.get(&list) {
            Some(history) if history.visits >= 2 => {
                let intervals = history.visits - 1;
                let mean =
                    (history.last_visit - history.first_visit).max(1) as f64 / f64::from(intervals);
                cho_garcia_molina_rate(intervals, history.changes, mean).max(PRIOR_RATE / 30.0)
            }
            _ => PRIOR_RATE,
        }
    }
}

impl Policy for PoissonRate {
    fn name(&self) -> &'static str {
        "poisson"
    }

    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let (mut requests, slots) = self.allowance.begin_with_backlog(lists, window, budget);
        let visited: Vec<(ListId, u32, f64)> = lists
            .iter()
            .filter(|list| list.last_visit.is_some())
            .map(|list| (list.id, list.front_page(), self.estimated_rate(list.id)))
            .collect();
        let total: f64 = visited.iter().map(|&(_, _, rate)| rate).sum();
        let mut polls: Vec<(f64, ListId, u32)> = Vec::new();
        if total > 0.0 {
            let pool = slots as f64 / window.seconds();
            let start = window.start_second() as f64;
            for &(list, page, rate) in &visited {
                let history = self.histories.get_mut(&list);
                let mut scratch = Credit::with_phase(phase_of(list));
                let credit = history.map_or(&mut scratch, |history| &mut history.credit);
                let mut instants = Vec::new();
                credit.advance(start, window.seconds(), pool * rate / total, &mut instants);
                polls.extend(instants.into_iter().map(|instant| (instant, list, page)));
            }
        }
        polls.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        polls.truncate(slots);
        requests.extend(
            polls
                .into_iter()
                .map(|(instant, list, page)| PageRequest::at_second(instant, list, page)),
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
        if let Some(list) = lists.get(fetched.list)
            && fetched.page == list.front_page()
        {
            let at = fetched.fetched_at.as_second();
            let history = self.histories.entry(list.id).or_insert(ChangeHistory {
                first_visit: at,
                last_visit: at,
                visits: 0,
                changes: 0,
                credit: Credit::with_phase(phase_of(list.id)),
            });
            if history.visits > 0 && change.new_records > 0 {
                history.changes += 1;
            }
            history.visits += 1;
            history.last_visit = at;
        }
        let wanted = discovery_follow_ups(lists, fetched, change);
        self.allowance.follow_ups(fetched.fetched_at, wanted)
    }
}

/// Apache Nutch's `AdaptiveFetchSchedule` settings (nutch-default.xml's values by default).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NutchSettings {
    pub default_interval: f64,
    pub increase_rate: f64,
    pub decrease_rate: f64,
    pub min_interval: f64,
    pub max_interval: f64,
    pub sync_delta: bool,
    pub sync_delta_rate: f64,
}

impl Default for NutchSettings {
    fn default() -> Self {
        NutchSettings {
            default_interval: 30.0 * 86_400.0,
            increase_rate: 0.4,
            decrease_rate: 0.2,
            min_interval: 60.0,
            max_interval: 365.0 * 86_400.0,
            sync_delta: true,
            sync_delta_rate: 0.3,
        }
    }
}

/// StormCrawler's `AdaptiveScheduler` settings (its defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StormCrawlerSettings {
    pub default_interval: f64,
    pub min_interval: f64,
    pub max_interval: f64,
    pub increase_rate: f64,
    pub decrease_rate: f64,
}

impl Default for StormCrawlerSettings {
    fn default() -> Self {
        StormCrawlerSettings {
            default_interval: 86_400.0,
            min_interval: 3600.0,
            max_interval: 14.0 * 86_400.0,
            increase_rate: 0.5,
            decrease_rate: 0.5,
        }
    }
}

/// One page's schedule: its interval, when it is due, when it last changed (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageTimer {
    pub interval: f64,
    pub due: f64,
    pub modified: f64,
}

/// Nutch's update after a fetch at `fetched` that found the page `changed` (or `None` when it
/// cannot tell, as on a first fetch).
pub fn nutch_update(
    settings: &NutchSettings,
    timer: PageTimer,
    fetched: f64,
    changed: Option<bool>,
) -> PageTimer {
    let mut interval = timer.interval;
    let mut modified = timer.modified;
    match changed {
        Some(true) => {
            interval *= 1.0 - settings.decrease_rate;
            // Without a Last-Modified header the change is dated at the fetch that saw it.
            modified = fetched;
        }
        Some(false) => interval *= 1.0 + settings.increase_rate,
        None => {}
    }
    let mut reference = fetched;
    if settings.sync_delta {
        let delta = fetched - modified;
        if delta > interval {
            interval = delta;
        }
        reference = fetched - (delta * settings.sync_delta_rate).round();
    }
    interval = interval.clamp(settings.min_interval, settings.max_interval);
    PageTimer {
        interval,
        due: reference + interval,
        modified,
    }
}

/// StormCrawler's update after a fetch (whole minutes, as it keeps them).
pub fn stormcrawler_update(
    settings: &StormCrawlerSettings,
    timer: PageTimer,
    fetched: f64,
    changed: Option<bool>,
) -> PageTimer {
    let minutes = |seconds: f64| (seconds / 60.0).floor();
    let mut interval = minutes(timer.interval);
    let mut modified = timer.modified;
    match changed {
        Some(true) => {
            interval = ((1.0 - settings.decrease_rate) * interval
                + settings.decrease_rate * minutes(settings.min_interval))
            .floor();
            modified = fetched;
        }
        Some(false) => {
            interval = (interval * (1.0 + settings.increase_rate))
                .floor()
                .min(minutes(settings.max_interval));
        }
        None => interval = minutes(settings.default_interval),
    }
    PageTimer {
        interval: interval * 60.0,
        due: fetched + interval * 60.0,
        modified,
    }
}

/// Which crawler's adaptive interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AdaptiveRule {
    Nutch(NutchSettings),
    StormCrawler(StormCrawlerSettings),
}

/// Per-page adaptive revisit intervals, as Nutch or StormCrawler apply them: pages that are due
/// are fetched, the longest overdue first, up to the budget.
#[derive(Clone, Debug)]
pub struct AdaptiveRevisit {
    rule: AdaptiveRule,
    allowance: Allowance,
    timers: HashMap<(ListId, u32), PageTimer>,
    /// The same pages ordered by due second, so a plan reads only the pages that are due.
    queue: BTreeSet<(i64, ListId, u32)>,
}

impl AdaptiveRevisit {
    /// Nutch's adaptive schedule with a first interval of one day.
    pub fn nutch() -> Self {
        let settings = NutchSettings {
            default_interval: 86_400.0,
            ..NutchSettings::default()
        };
        AdaptiveRevisit::new(AdaptiveRule::Nutch(settings))
    }

    pub fn stormcrawler() -> Self {
        AdaptiveRevisit::new(AdaptiveRule::StormCrawler(StormCrawlerSettings::default()))
    }

    pub fn new(rule: AdaptiveRule) -> Self {
        AdaptiveRevisit {
            rule,
            allowance: Allowance::default(),
            timers: HashMap::new(),
            queue: BTreeSet::new(),
        }
    }

    pub fn timer(&self, list: ListId, page: u32) -> Option<PageTimer> {
        self.timers.get(&(list, page)).copied()
    }
}

impl Policy for AdaptiveRevisit {
    fn name(&self) -> &'static str {
        match self.rule {
            AdaptiveRule::Nutch(_) => "nutch",
            AdaptiveRule::StormCrawler(_) => "stormcrawler",
        }
    }

    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let (mut requests, slots) = self.allowance.begin_with_backlog(lists, window, budget);
        let (start, end) = (window.start_second() as f64, window.end_second() as f64);
        let mut due: Vec<(f64, ListId, u32)> = Vec::new();
        for &(second, list, page) in &self.queue {
            if second as f64 >= end || due.len() >= slots {
                break;
            }
            // Pages beyond a list's known end (a board that shrank) are not asked for.
            if lists
                .get(list)
                .is_some_and(|state| page <= state.page_count)
            {
                due.push((second as f64, list, page));
            }
        }
        requests.extend(
            due.into_iter().map(|(instant, list, page)| {
                PageRequest::at_second(instant.max(start), list, page)
            }),
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
        let at = fetched.fetched_at.as_second() as f64;
        let key = (fetched.list, fetched.page);
        let previous = self.timers.get(&key).copied();
        let changed = previous.map(|_| change.page_modified);
        let start = |interval: f64| PageTimer {
            interval,
            due: at,
            modified: at,
        };
        if let Some(previous) = previous {
            self.queue
                .remove(&(previous.due.floor() as i64, key.0, key.1));
        }
        let timer = match self.rule {
            AdaptiveRule::Nutch(settings) => nutch_update(
                &settings,
                previous.unwrap_or(start(settings.default_interval)),
                at,
                changed,
            ),
            AdaptiveRule::StormCrawler(settings) => stormcrawler_update(
                &settings,
                previous.unwrap_or(start(settings.default_interval)),
                at,
                changed,
            ),
        };
        self.timers.insert(key, timer);
        self.queue.insert((timer.due.floor() as i64, key.0, key.1));
        let wanted = discovery_follow_ups(lists, fetched, change);
        self.allowance.follow_ups(fetched.fetched_at, wanted)
    }
}

#[cfg(test)]
mod tests;
