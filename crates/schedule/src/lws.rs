//! The list-wise strategy (LWS) and its bandwidth control (LWS+BC), as the list-wise paper
//! describes them.
//!
//! Per site and per list kind a linear regression F predicts a list's arrival rate from its
//! statistics ([`crate::features`]); the predicted new records of a list last visited at LT are
//! ΔI = (CT − LT)·F(x) (the paper writes (CT − LT)/F(x) with F an interval; predicting the rate
//! keeps lists that got nothing between two visits as ordinary examples, rate 0, where an
//! interval would be infinite). Lists with the most predicted new records are revisited first;
//! an index list only on its first ⌈ΔI / records per page⌉ pages, a post list only on its last
//! page (and the pages its pager shows have appeared). The dead-thread indicator is one of the
//! regression's features, so a quiet thread's predicted rate falls with what the site's own
//! history says about quiet threads. Each model is refitted as examples come: an example is a
//! list's features at an instant of its history the crawl has read completely, and the rate of
//! records in the hour after it. Examples from whole histories rather than from revisits alone
//! keep the model from learning only about the lists it already revisits: a thread first read
//! days after it started still tells how young threads behave.
//!
//! Bandwidth control splits each window's budget between index and post lists in proportion to
//! the updates each kind really showed over the last day, so a mass of active threads cannot
//! starve the board lists that discover new threads.
//!
//! New URLs get the highest weight, as in the paper's adaptation of its baselines: the backlog of
//! never-fetched pages goes first, and a new thread's pages are fetched as soon as a board page
//! shows it.

use std::collections::{BinaryHeap, HashMap, VecDeque};

use crate::lists::{FetchedPage, ListChange, ListId, ListKind, ListState, Lists, SiteId};
use crate::policy::{Allowance, PageRequest, Policy, Window, discovery_follow_ups, spread};
use crate::regression::{NormalEquations, predict};
use crate::stats::{FEATURE_COUNT, ListStatistics, features};

/// The list-wise strategy's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct ListWiseConfig {
    /// LWS+BC when true, LWS when false.
    pub bandwidth_control: bool,
    /// α of the dead-thread indicator.
    pub dead_alpha: f64,
    /// Refit a site's model after this many new examples…
    pub refit_every: u64,
    /// …and no sooner than this many seconds after its last fit. Every fit changes every list's
    /// prediction, so refitting on each batch of examples (several times an hour at forum scale)
    /// would have every plan recompute every list; the site's model changes slowly, the lists'
    /// own statistics, which are recomputed whenever they change, quickly.
    pub refit_interval_seconds: i64,
    /// Bandwidth control counts the updates of the last this many seconds.
    pub control_window_seconds: i64,
    /// The least share of a window either kind gets under bandwidth control, so the kind that
    /// found nothing lately is still looked at.
    pub least_share: f64,
    /// Records per index page assumed until a page has shown its count.
    pub assumed_records_per_page: u32,
}

impl ListWiseConfig {
    pub fn lws() -> Self {
        ListWiseConfig {
            bandwidth_control: false,
            dead_alpha: 2.0,
            refit_every: 50,
            refit_interval_seconds: 86_400,
            control_window_seconds: 86_400,
            least_share: 0.05,
            assumed_records_per_page: 20,
        }
    }

    pub fn lws_bc() -> Self {
        ListWiseConfig {
            bandwidth_control: true,
            ..ListWiseConfig::lws()
        }
    }
}

/// Rates below one record in 30 days are treated as that, so no list is ranked at exactly zero.
const LEAST_RATE_PER_HOUR: f64 = 1.0 / (30.0 * 24.0);

#[derive(Clone, Debug)]
struct SiteModel {
    equations: NormalEquations,
    weights: Option<Vec<f64>>,
    since_fit: u64,
    /// The instant of the last fit.
    fitted_at: i64,
}

/// Training instants are an hour apart, and each example's target is the rate of the hour after.
const EXAMPLE_STEP_SECONDS: i64 = 3600;
const EXAMPLE_HORIZON_SECONDS: i64 = 3600;
/// A list read again after a long absence gives examples for its last two weeks only.
const EXAMPLE_SPAN_SECONDS: i64 = 14 * 86_400;

/// A list's predicted rate as a plan last computed it. Ranking every list anew each window read
/// every list's records every hour, which at forum scale (tens of thousands of threads) was
/// nearly all of a replay's time; a prediction changes only when the list is read, when the
/// site's model is refitted, when the dead-thread indicator flips, and, slowly, as the list's
/// quiet time and age grow, so it is kept until one of those happens.
#[derive(Clone, Copy, Debug)]
struct Prediction {
    list: ListId,
    kind: ListKind,
    last_visit: Option<i64>,
    rate: f64,
    /// The instant from which the prediction is recomputed.
    stale_at: i64,
}

/// A prediction is kept while the list's quiet time grows by less than this share: the features
/// that move with time alone (the rate the quiet time allows, the inverse age) then move by less
/// than it.
const PREDICTION_KEPT_SHARE_OF_QUIET: f64 = 0.125;

/// The list-wise strategy, with or without bandwidth control.
#[derive(Clone, Debug)]
pub struct ListWise {
    config: ListWiseConfig,
    models: HashMap<(SiteId, ListKind), SiteModel>,
    trained_until: HashMap<ListId, i64>,
    updates: VecDeque<(i64, ListKind, u32)>,
    allowance: Allowance,
    /// Per list, in the order of [`Lists::iter`], its prediction as of the last plan.
    predictions: Vec<Prediction>,
    /// The position of each list in `predictions`.
    positions: HashMap<ListId, usize>,
    /// Lists read since the last plan, whose predictions must be recomputed.
    read_since_plan: Vec<ListId>,
    /// Fits so far, and the count the kept predictions were computed with.
    fits: u64,
    fits_predicted: u64,
}

impl ListWise {
    pub fn new(config: ListWiseConfig) -> Self {
        ListWise {
            config,
            models: HashMap::new(),
            trained_until: HashMap::new(),
            updates: VecDeque::new(),
            allowance: Allowance::default(),
            predictions: Vec::new(),
            positions: HashMap::new(),
            read_since_plan: Vec::new(),
            fits: 0,
            fits_predicted: 0,
        }
    }

    /// When a prediction made at `now` for `list` goes stale: when its quiet time has grown by
    /// [`PREDICTION_KEPT_SHARE_OF_QUIET`] (at least an hour on), or when the dead-thread indicator
    /// flips, whichever comes first.
    fn stale_at(&self, list: &ListState, now: i64) -> i64 {
        let statistics = ListStatistics::of_list(list, now);
        let Some(newest) = list.newest_record() else {
            // Without records nothing in the prediction moves with time.
            return i64::MAX;
        };
        let quiet = (now - newest).max(0) as f64;
        let mut stale = now + (quiet * PREDICTION_KEPT_SHARE_OF_QUIET).max(3600.0) as i64;
        if let (Some(mean), Some(deviation)) =
            (statistics.mean_interval, statistics.interval_deviation)
            && !statistics.is_dead(self.config.dead_alpha)
        {
            let flips = newest + (mean + self.config.dead_alpha * deviation).floor() as i64 + 1;
            stale = stale.min(flips.max(now + 1));
        }
        stale
    }

    /// Brings every list's kept prediction up to `now`: new lists are added, and the lists read
    /// since the last plan, those whose prediction went stale, or all after a refit, recomputed.
    fn refresh_predictions(&mut self, lists: &Lists, now: i64) {
        for list in lists.iter().skip(self.predictions.len()) {
            self.positions.insert(list.id, self.predictions.len());
            self.predictions.push(Prediction {
                list: list.id,
                kind: list.kind,
                last_visit: None,
                rate: 0.0,
                stale_at: i64::MIN,
            });
        }
        for id in std::mem::take(&mut self.read_since_plan) {
            if let Some(&position) = self.positions.get(&id) {
                self.predictions[position].stale_at = i64::MIN;
            }
        }
        let refitted = self.fits != self.fits_predicted;
        self.fits_predicted = self.fits;
        for position in 0..self.predictions.len() {
            let kept = self.predictions[position];
            if !refitted && kept.stale_at > now {
                continue;
            }
            let Some(list) = lists.get(kept.list) else {
                continue;
            };
            self.predictions[position] = Prediction {
                list: list.id,
                kind: list.kind,
                last_visit: list.last_visit,
                rate: self.predicted_rate(list, now),
                stale_at: self.stale_at(list, now),
            };
        }
    }

    /// The fitted weights of a site's model for a list kind, once it has been fitted.
    pub fn weights(&self, site: SiteId, kind: ListKind) -> Option<&[f64]> {
        self.models
            .get(&(site, kind))
            .and_then(|model| model.weights.as_deref())
    }

    /// The predicted arrival rate of a list (records per hour) as of `now`.
    pub fn predicted_rate(&self, list: &ListState, now: i64) -> f64 {
        let statistics = ListStatistics::of_list(list, now);
        let x = features(&statistics, self.config.dead_alpha);
        let rate = match self.weights(list.site, list.kind) {
            Some(weights) => predict(weights, &x),
            // Before the site's model exists, the list's recent rate is the best guess.
            None => x[2],
        };
        rate.max(LEAST_RATE_PER_HOUR)
    }

    /// Predicted new records ΔI = (CT − LT)·F(x) of a list at `now`.
    pub fn predicted_new_records(&self, list: &ListState, now: i64) -> f64 {
        let last = list.last_visit.unwrap_or(now);
        (now - last).max(0) as f64 / 3600.0 * self.predicted_rate(list, now)
    }

    /// The share of a window's revisits bandwidth control gives index lists.
    pub fn index_share(&self) -> f64 {
        let (index, post) =
            self.updates
                .iter()
                .fold((0u64, 0u64), |(index, post), &(_, kind, n)| match kind {
                    ListKind::Index => (index + u64::from(n), post),
                    ListKind::Post => (index, post + u64::from(n)),
                });
        if index + post == 0 {
            return 0.5;
        }
        let share = index as f64 / (index + post) as f64;
        share.clamp(self.config.least_share, 1.0 - self.config.least_share)
    }

    /// Adds the examples a list's history now offers. A list is known completely up to the
    /// instant its newest page was read (the last page of a thread, the first of a board), so
    /// every instant s on an hourly grid before then gives an example: the list's features as of
    /// s, and the rate of records it really received in the hour after s. Spans never read
    /// completely give no example, so the model never learns that unvisited lists are quiet.
    fn learn(&mut self, list: &ListState, known_until: i64) {
        let Some(&first) = list.record_times.first() else {
            return;
        };
        let trained = self.trained_until.get(&list.id).copied().unwrap_or(first);
        let mut instant = trained.max(known_until - EXAMPLE_SPAN_SECONDS);
        let model = self
            .models
            .entry((list.site, list.kind))
            .or_insert_with(|| SiteModel {
                equations: NormalEquations::new(FEATURE_COUNT),
                weights: None,
                since_fit: 0,
                fitted_at: i64::MIN / 2,
            });
        let mut added = 0;
        while instant + EXAMPLE_HORIZON_SECONDS <= known_until {
            // Every list gives examples, the quiet ones too: the model predicts the rates of all
            // lists, most of them threads long quiet, and a model fitted on the lively ones
            // alone predicts every dead thread the living's rate, which spread the revisits
            // over thousands of dead threads and starved the ones with news.
            let statistics = ListStatistics::as_of(&list.record_times, instant);
            let upcoming = list.record_times.partition_point(|&time| time <= instant);
            let until = list
                .record_times
                .partition_point(|&time| time <= instant + EXAMPLE_HORIZON_SECONDS);
            let rate = (until - upcoming) as f64 * 3600.0 / EXAMPLE_HORIZON_SECONDS as f64;
            model
                .equations
                .add(&features(&statistics, self.config.dead_alpha), rate);
            added += 1;
            instant += EXAMPLE_STEP_SECONDS;
        }
        self.trained_until.insert(list.id, instant);
        model.since_fit += added;
        let enough = model.equations.samples() >= 2 * FEATURE_COUNT as u64;
        let due = model.since_fit >= self.config.refit_every
            && known_until - model.fitted_at >= self.config.refit_interval_seconds;
        if enough && (model.weights.is_none() || due) {
            if let Ok(weights) = model.equations.fit() {
                model.weights = Some(weights);
                self.fits += 1;
            }
            model.since_fit = 0;
            model.fitted_at = known_until;
        }
    }

    /// Revisits for `slots` fetches over the window among `candidates`: at each slot, the list
    /// with the most predicted new records at that instant. Lists not yet revisited in the window
    /// wait in a heap ranked at the window's end (their last visit is before the window, so the
    /// ranking barely moves within it, and the top is judged at the slot's instant); the few
    /// revisited in the window are judged exactly at each slot, since just after a revisit a
    /// list's prediction starts again from zero.
    fn revisits(
        &self,
        lists: &Lists,
        kind: Option<ListKind>,
        window: Window,
        slots: usize,
    ) -> Vec<PageRequest> {
        if slots == 0 {
            return Vec::new();
        }
        let end = window.end_second();
        let mut keyed: Vec<(RankKey, usize)> = self
            .predictions
            .iter()
            .enumerate()
            .filter(|(_, prediction)| kind.is_none_or(|kind| prediction.kind == kind))
            .filter_map(|(position, prediction)| {
                let last = prediction.last_visit?;
                Some((RankKey((end - last) as f64 * prediction.rate), position))
            })
            .collect();
        // At most `slots` lists leave the heap, the best ranked first, so only the best `slots`
        // need to enter it.
        if keyed.len() > slots {
            let cut = keyed.len() - slots;
            keyed.select_nth_unstable(cut);
            keyed.drain(..cut);
        }
        // In list order, so that ties break as they always have, by list order.
        keyed.sort_unstable_by_key(|&(_, position)| position);
        let mut candidates: Vec<&ListState> = Vec::with_capacity(keyed.len());
        let mut rates = Vec::with_capacity(keyed.len());
        let mut last_visits = Vec::with_capacity(keyed.len());
        let mut heap: BinaryHeap<(RankKey, usize)> = BinaryHeap::with_capacity(keyed.len());
        for (key, position) in keyed {
            let prediction = self.predictions[position];
            let Some(list) = lists.get(prediction.list) else {
                continue;
            };
            heap.push((key, candidates.len()));
            candidates.push(list);
            rates.push(prediction.rate);
            last_visits.push(list.last_visit.unwrap_or(window.start_second()));
        }
        let expected_at =
            |index: usize, last: i64, now: i64| (now - last).max(0) as f64 / 3600.0 * rates[index];
        let instants = spread(window, slots);
        let mut revisited: Vec<usize> = Vec::new();
        let mut requests = Vec::with_capacity(slots);
        let mut slot = 0;
        while slot < slots {
            let at = instants[slot];
            let now = at.as_second();
            let from_heap = heap
                .peek()
                .map(|&(_, index)| (expected_at(index, last_visits[index], now), index));
            let from_revisited = revisited
                .iter()
                .map(|&index| (expected_at(index, last_visits[index], now), index))
                .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
            let index = match (from_heap, from_revisited) {
                (Some(heap_best), Some(revisit_best)) if revisit_best.0 > heap_best.0 => {
                    revisit_best.1
                }
                (Some((_, index)), _) => {
                    heap.pop();
                    revisited.push(index);
                    index
                }
                (None, Some((_, index))) => index,
                (None, None) => break,
            };
            let list = candidates[index];
            let expected = expected_at(index, last_visits[index], now);
            let pages = match list.kind {
                ListKind::Index => {
                    let per_page = list.records_per_page_or(self.config.assumed_records_per_page);
                    let wanted = (expected / f64::from(per_page.max(1))).ceil().max(1.0) as u32;
                    wanted.min(list.page_count).max(1)
                }
                ListKind::Post => 1,
            };
            for page_offset in 0..pages {
                if slot >= slots {
                    break;
                }
                let page = match list.kind {
                    ListKind::Index => 1 + page_offset,
                    ListKind::Post => list.page_count,
                };
                requests.push(PageRequest {
                    at,
                    list: list.id,
                    page,
                });
                slot += 1;
            }
            last_visits[index] = now;
        }
        requests
    }
}

/// A ranking key ordered by `total_cmp`, ties broken by the candidate's position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RankKey(pub(crate) f64);

impl Eq for RankKey {}

impl PartialOrd for RankKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RankKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Policy for ListWise {
    fn name(&self) -> &'static str {
        if self.config.bandwidth_control {
            "lws-bc"
        } else {
            "lws"
        }
    }

    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let cutoff = window.start_second() - self.config.control_window_seconds;
        while self.updates.front().is_some_and(|&(at, _, _)| at < cutoff) {
            self.updates.pop_front();
        }
        let (mut requests, slots) = self.allowance.begin_with_backlog(lists, window, budget);
        self.refresh_predictions(lists, window.start_second());
        if self.config.bandwidth_control {
            let index_slots = (slots as f64 * self.index_share()).round() as usize;
            let index_requests = self.revisits(lists, Some(ListKind::Index), window, index_slots);
            let post_slots = slots - index_requests.len();
            requests.extend(index_requests);
            requests.extend(self.revisits(lists, Some(ListKind::Post), window, post_slots));
        } else {
            requests.extend(self.revisits(lists, None, window, slots));
        }
        self.allowance.charge_plan(requests.len());
        requests.sort_by_key(|request| request.at);
        requests
    }

    fn observe(
        &mut self,
        lists: &Lists,
        fetched: &FetchedPage,
        change: &ListChange,
    ) -> Vec<PageRequest> {
        let at = fetched.fetched_at.as_second();
        self.read_since_plan.push(fetched.list);
        if let Some(list) = lists.get(fetched.list) {
            if change.new_records > 0 {
                self.updates.push_back((at, list.kind, change.new_records));
            }
            let newest_page = match list.kind {
                ListKind::Index => 1,
                ListKind::Post => list.page_count,
            };
            if fetched.page == newest_page {
                self.learn(list, at);
            }
        }
        let mut wanted = discovery_follow_ups(lists, fetched, change);
        if let Some(list) = lists.get(fetched.list)
            && list.kind == ListKind::Index
            && change.moved_past_page
            && fetched.page < list.page_count
        {
            // Every entry of the page was new or bumped: ΔI was at least a page's worth, more
            // than predicted, and by the paper's own rule (revisit the first ⌈ΔI / records per
            // page⌉ pages) the next page is due too. Stopping at the predicted page count lost
            // every thread a burst pushed below it on boards the model thought quiet.
            wanted.push((fetched.list, fetched.page + 1));
        }
        self.allowance.follow_ups(fetched.fetched_at, wanted)
    }
}

#[cfg(test)]
mod tests;
