//! Ours, the default policy (`trawl`): poll the lists that reveal activity at the rates that
//! minimise mean delay over the day, and fetch what each poll shows has changed.
//!
//! A board's first list page shows, sorted by last post, every thread that received a post since
//! the page was last read. Polling that page and fetching the newest page of each thread it shows
//! as new or bumped stores a post at the first poll of its board after it was written, for one
//! fetch per poll plus one per changed thread: the changed threads cost the same whoever finds
//! them, so the choice that matters is how often to poll each board, and when. For a board whose
//! posts arrive at rate λᵢ(t), polls at density fᵢ(t) give a total delay of
//! Σᵢ∫λᵢ/(2fᵢ) dt, least when fᵢ(t) = √(λᵢ(t)/(2μ)) ([`crate::optimal`]): square-root
//! allocation across boards and across the hours of the day at once, μ found by bisection so the
//! polls fill the budget left after the follow-ups (whose share of spending is measured as the
//! crawl goes; it is the bandwidth control between discovery and refresh, set by what the forum
//! really does rather than by a ratio).
//!
//! λᵢ(t) is read from the board's stored posts of the last 20 days, in 24 hourly bins, shrunk
//! towards the whole site's daily shape (a board with few posts has a noisy histogram but shares
//! the site's day) and given half a post of prior so no board is ever written off. Every board is
//! polled at least once a day. A poll walks on to the next list page while every entry on the
//! page is new or bumped, so a burst that pushes threads past the first page loses nothing.
//!
//! Boards whose entries show neither a last-post time nor a reply count cannot reveal which
//! threads grew; their threads (and threads found outside any board) are then polled themselves,
//! on their last page, as units of the same allocation with their own rates.

use std::collections::HashMap;

use crate::ScheduleError;
use crate::lists::{FetchedPage, ListChange, ListId, ListKind, ListState, Lists, PageContent};
use crate::optimal::{self, DAY, FrequencyBounds, time_varying_allocation};
use crate::oracle::KnownRates;
use crate::policy::{
    Allowance, Credit, PageRequest, Policy, Window, changed_thread_follow_ups,
    discovery_follow_ups, phase_of,
};
use crate::saved::{Fields, StateWriter, float_field, state_lines};

/// Our policy's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct TrawlConfig {
    /// Days of stored posts the rates are read from.
    pub history_days: i64,
    /// Bins of the day.
    pub bins: usize,
    /// Every board is polled at least this often a day.
    pub least_board_polls_per_day: f64,
    /// Every board is polled, at every hour, at least this share of the density an even split
    /// of the polls over all units would give it. Square-root polling minimises the mean delay
    /// by polling the quietest boards in the quietest hours several times less often than the
    /// busiest, and the few posts written there made the 95th percentile of delay 3.3 to 3.5
    /// times the mean; the floor bounds the longest gap between polls at 1/share times the
    /// even gap, for a mean delay no worse (estimated rates of quiet boards are the noisiest).
    pub least_share_of_even_polls: f64,
    /// The share of the even density is raised from `least_share_of_even_polls` towards 1, in
    /// steps of `share_of_even_polls_step`, until the allocation's predicted 95th percentile of
    /// delay is at most this many times its predicted mean. A forum whose posts crowd into one
    /// board (a third of them on one board of 24 on the simulator's nodebb/8) has its mean set
    /// by that board's frequent polls and its tail by the quiet boards' floor: the fixed share
    /// left its 95th percentile at 3.01 times the mean. The prediction reads each post's wait
    /// as uniform up to its board's gap in its hour ([`optimal::delay_quantile`]); measured
    /// ratios run above it, as follow-ups and deferrals add to every wait.
    pub most_predicted_tail_ratio: f64,
    pub share_of_even_polls_step: f64,
    /// No list is polled more often than this an hour (politeness towards one page).
    pub most_polls_per_hour: f64,
    /// Posts of prior given to every unit over the history window.
    pub prior_posts: f64,
    /// Weight, in posts, of the site's daily shape in a unit's histogram.
    pub shape_weight: f64,
    /// The share of the budget polls keep while more pages wait than a window can fetch (the
    /// warm-up of a forum larger than the budget, see `Trawl::plan_warm_up`).
    pub share_of_polls_in_warm_up: f64,
}

impl Default for TrawlConfig {
    fn default() -> Self {
        TrawlConfig {
            history_days: 20,
            bins: 24,
            least_board_polls_per_day: 1.0,
            least_share_of_even_polls: 0.75,
            most_predicted_tail_ratio: 2.8,
            share_of_even_polls_step: 0.05,
            most_polls_per_hour: 60.0,
            prior_posts: 0.5,
            shape_weight: 24.0,
            share_of_polls_in_warm_up: 0.4,
        }
    }
}

/// A follow-up is news when its list is a board (a walk down it) or a thread with activity this
/// recent, and waits for budget before the others.
const NEWS_AGE_SECONDS: i64 = 86_400;

/// One polled unit: a board's first page or a thread's last page.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Unit {
    list: ListId,
    kind: ListKind,
}

/// Ours: square-root polling of boards over the day, reading what changed.
#[derive(Clone, Debug, Default)]
pub struct Trawl {
    config: TrawlConfig,
    allowance: Allowance,
    credits: HashMap<ListId, Credit>,
    /// The rate oracle's knowledge: true hourly rates replacing the estimates where given.
    known_rates: Option<KnownRates>,
    /// The share of the even density chosen for a day (the day's number, the share): rates
    /// move slowly, so the search for it runs once a day.
    share_of_even_polls: Option<(i64, f64)>,
}

impl Trawl {
    pub fn new(config: TrawlConfig) -> Self {
        Trawl {
            config,
            allowance: Allowance::with_margin(),
            credits: HashMap::new(),
            known_rates: None,
            share_of_even_polls: None,
        }
    }

    /// The rate oracle (`rate-oracle`): the same square-root allocation over boards and hours,
    /// from each list's true hourly arrival rates instead of rates read from stored posts. It
    /// knows how often posts come, not when, so it still has to poll; that makes it the bound
    /// for polling policies. Lists the knowledge does not cover fall back to estimates.
    pub fn rate_oracle(known_rates: KnownRates) -> Self {
        // With the same floors as ours: the square-root optimum assumes a post waits half
        // the gap between polls of its board, which ignores the follow-ups a poll sets off
        // and the deferrals of a busy window, and with true rates too the floor lowers the
        // mean delay measured (on the toy forum of the oracle's tests, 9,140 s against
        // 10,010 s without it).
        Trawl::rate_oracle_with(known_rates, TrawlConfig::default())
    }

    /// The rate oracle with other settings (the closed forms are checked without the floor).
    pub fn rate_oracle_with(known_rates: KnownRates, config: TrawlConfig) -> Self {
        Trawl {
            known_rates: Some(known_rates),
            ..Trawl::new(config)
        }
    }

    /// The polled units, in the order their lists became known: every board read once, and the
    /// threads read once of boards whose entries show no activity and of no known board.
    fn units(lists: &Lists) -> Vec<Unit> {
        let visited = |list: &&ListState| list.last_visit.is_some();
        let mut polled: Vec<&ListState> = Vec::new();
        for board in lists.index_lists().filter(visited) {
            polled.push(board);
            if !board.entries_show_activity {
                polled.extend(lists.threads_of(Some(board.id)).filter(visited));
            }
        }
        for board in lists.boards_not_registered() {
            polled.extend(lists.threads_of(board).filter(visited));
        }
        polled.sort_by_key(|list| lists.position_of(list.id));
        polled
            .into_iter()
            .map(|list| Unit {
                list: list.id,
                kind: list.kind,
            })
            .collect()
    }

    /// Post times (seconds) of a unit in `[from, to)`: a board's stored posts, a thread's posts.
    fn events(lists: &Lists, unit: Unit, from: i64, to: i64) -> Vec<i64> {
        match unit.kind {
            ListKind::Index => lists
                .activity(unit.list)
                .map(|activity| activity.between(from, to).map(|(time, _)| time).collect())
                .unwrap_or_default(),
            ListKind::Post => lists
                .get(unit.list)
                .map(|list| {
                    let start = list.record_times.partition_point(|&time| time < from);
                    let end = list.record_times.partition_point(|&time| time < to);
                    list.record_times[start..end].to_vec()
                })
                .unwrap_or_default(),
        }
    }

    /// Each unit's arrival rate per bin (per second) as of `now`.
    fn rates(&self, lists: &Lists, units: &[Unit], now: i64) -> Vec<Vec<f64>> {
        let bins = self.config.bins;
        let bin_seconds = DAY / bins as f64;
        let from = now - self.config.history_days * DAY as i64;
        let counts: Vec<Vec<f64>> = units
            .iter()
            .map(|&unit| {
                let mut histogram = vec![0.0; bins];
                for time in Self::events(lists, unit, from, now) {
                    let bin = (time.rem_euclid(DAY as i64) as f64 / bin_seconds) as usize;
                    histogram[bin.min(bins - 1)] += 1.0;
                }
                histogram
            })
            .collect();
        // The site's shape, with a little even mass so no hour is thought impossible.
        let mut shape = vec![1.0 / bins as f64; bins];
        for histogram in &counts {
            for (bin, count) in histogram.iter().enumerate() {
                shape[bin] += count;
            }
        }
        let total: f64 = shape.iter().sum();
        shape.iter_mut().for_each(|value| *value /= total);
        let days = self.config.history_days as f64;
        counts
            .iter()
            .zip(units)
            .map(|(histogram, unit)| {
                if let Some(known) = self
                    .known_rates
                    .as_ref()
                    .filter(|_| bins == 24)
                    .and_then(|known| known.hourly(unit.list, now))
                {
                    return known.to_vec();
                }
                let posts: f64 = histogram.iter().sum();
                let per_day = (posts + self.config.prior_posts) / days;
                histogram
                    .iter()
                    .zip(&shape)
                    .map(|(count, share)| {
                        let weight = (count + self.config.shape_weight * share)
                            / (posts + self.config.shape_weight);
                        per_day * weight / bin_seconds
                    })
                    .collect()
            })
            .collect()
    }

    /// The poll densities (per second, per bin) of every polled unit for `polls_per_day`, with
    /// the day's share of the even density (chosen on the day's first call).
    fn allocation(
        &mut self,
        lists: &Lists,
        now: i64,
        polls_per_day: f64,
    ) -> (Vec<Unit>, Vec<Vec<f64>>, Vec<Vec<f64>>) {
        let units = Self::units(lists);
        let rates = self.rates(lists, &units, now);
        let day = now.div_euclid(DAY as i64);
        let share = match self.share_of_even_polls {
            Some((chosen_on, share)) if chosen_on == day => share,
            _ => {
                let share = self.share_bounding_the_tail(&units, &rates, polls_per_day);
                self.share_of_even_polls = Some((day, share));
                share
            }
        };
        let frequencies = self.allocation_with_share(&units, &rates, polls_per_day, share);
        (units, rates, frequencies)
    }

    /// The least share of the even density, from `least_share_of_even_polls` up in steps, whose
    /// allocation's predicted 95th percentile of delay is within `most_predicted_tail_ratio`
    /// times its predicted mean (the whole even split when none is).
    fn share_bounding_the_tail(
        &self,
        units: &[Unit],
        rates: &[Vec<f64>],
        polls_per_day: f64,
    ) -> f64 {
        let least = self.config.least_share_of_even_polls;
        let step = self.config.share_of_even_polls_step;
        if least >= 1.0 || step <= 0.0 {
            return least;
        }
        let steps = ((1.0 - least) / step).ceil() as usize;
        for index in 0..=steps {
            let share = (least + index as f64 * step).min(1.0);
            let frequencies = self.allocation_with_share(units, rates, polls_per_day, share);
            let mean = optimal::time_varying_mean_delay(rates, &frequencies);
            let tail = optimal::delay_quantile(rates, &frequencies, 0.95);
            if !mean.is_finite() {
                // Boards left without polls (a budget all taken by the backlog): no share of
                // nothing bounds anything.
                return least;
            }
            if tail <= self.config.most_predicted_tail_ratio * mean {
                return share;
            }
        }
        1.0
    }

    /// The allocation when every board keeps `share` of the even density at every hour.
    fn allocation_with_share(
        &self,
        units: &[Unit],
        rates: &[Vec<f64>],
        polls_per_day: f64,
        share: f64,
    ) -> Vec<Vec<f64>> {
        let ceiling = self.config.most_polls_per_hour / 3600.0;
        let even_floor = share * polls_per_day / DAY / units.len().max(1) as f64;
        let bounds: Vec<FrequencyBounds> = units
            .iter()
            .map(|unit| FrequencyBounds {
                floor: match unit.kind {
                    ListKind::Index => {
                        (self.config.least_board_polls_per_day / DAY).max(even_floor)
                    }
                    ListKind::Post => 0.0,
                },
                ceiling,
            })
            .collect();
        time_varying_allocation(rates, &bounds, polls_per_day).frequencies
    }

    /// A window of the warm-up, when more pages wait (the backlog of pages known and never
    /// fetched, follow-ups deferred for budget) than a day's budget can fetch: a forum larger than
    /// the budget at the start, a mailing-list archive of one page per message at 1,000
    /// fetches a day. Served first, as every policy serves them, the waiting pages left every
    /// board unpolled for most of a simulated year and the posts written meanwhile waited days
    /// behind years of history. So the boards keep a share of the budget for polls, the posts
    /// those polls are expected to find keep room for their follow-ups, and the waiting pages
    /// (deferred follow-ups first, those marked as news before the others, then the backlog)
    /// take the rest.
    fn plan_warm_up(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let (start, end) = (window.start_second(), window.end_second());
        let polls_per_day = window.per_day(budget) * self.config.share_of_polls_in_warm_up;
        let (units, rates, frequencies) = self.allocation(lists, start, polls_per_day);
        let bin_seconds = DAY / self.config.bins as f64;
        let bin = ((start.rem_euclid(DAY as i64) as f64 / bin_seconds) as usize)
            .min(self.config.bins - 1);
        let expected_posts: f64 = rates
            .iter()
            .map(|unit| unit[bin] * (end - start) as f64)
            .sum();
        // Follow-ups for the posts the polls find, with two Poisson deviations to spare.
        let follow_up_room = (expected_posts + 2.0 * expected_posts.sqrt()).ceil() as usize;
        let (mut polls, mut credits) = self.polls_in(&units, &frequencies, start, end, 1.0);
        let reserve = (polls.len() + follow_up_room).min(budget as usize) as u32;
        let (mut requests, _) = self
            .allowance
            .begin_serving_deferred(lists, window, budget, reserve);
        let left = self.allowance.left() as usize;
        if polls.len() > left {
            let scale = left as f64 / polls.len() as f64;
            (polls, credits) = self.polls_in(&units, &frequencies, start, end, scale);
            polls.truncate(left);
        }
        for (unit, credit) in units.iter().zip(credits) {
            self.credits.insert(unit.list, credit);
        }
        let spare = left.saturating_sub(polls.len() + follow_up_room);
        let backlog = self
            .allowance
            .backlog_requests(lists, window, &requests, spare);
        requests.extend(backlog);
        requests.extend(polls.into_iter().map(|(instant, unit)| {
            PageRequest::at_second(instant, unit.list, Self::poll_page(lists, unit))
        }));
        self.allowance.charge_plan(requests.len());
        requests
    }

    /// The polls of every unit in `[start, end)` at `scale` times their allocated densities,
    /// sorted by instant, and each unit's visiting credit after them (the kept credits are not
    /// changed, so a plan may try another scale).
    fn polls_in(
        &self,
        units: &[Unit],
        frequencies: &[Vec<f64>],
        start: i64,
        end: i64,
        scale: f64,
    ) -> (Vec<(f64, Unit)>, Vec<Credit>) {
        let bin_seconds = DAY / self.config.bins as f64;
        let mut polls: Vec<(f64, Unit)> = Vec::new();
        let mut credits = Vec::with_capacity(units.len());
        let mut instants = Vec::new();
        for (unit, unit_frequencies) in units.iter().zip(frequencies) {
            let mut credit = self
                .credits
                .get(&unit.list)
                .copied()
                .unwrap_or_else(|| Credit::with_phase(phase_of(unit.list)));
            // Walk the window bin by bin, since the density changes at bin borders.
            let mut from = start as f64;
            while from < end as f64 {
                let into_day = from.rem_euclid(DAY);
                let bin = ((into_day / bin_seconds) as usize).min(self.config.bins - 1);
                let bin_end = from - into_day + (bin as f64 + 1.0) * bin_seconds;
                let until = bin_end.min(end as f64);
                instants.clear();
                credit.advance(
                    from,
                    until - from,
                    unit_frequencies[bin] * scale,
                    &mut instants,
                );
                polls.extend(instants.iter().map(|&instant| (instant, *unit)));
                from = until;
            }
            credits.push(credit);
        }
        polls.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.list.cmp(&b.1.list)));
        (polls, credits)
    }

    fn poll_page(lists: &Lists, unit: Unit) -> u32 {
        lists.get(unit.list).map_or(1, ListState::front_page)
    }
}

impl Policy for Trawl {
    fn name(&self) -> &'static str {
        if self.known_rates.is_some() {
            "rate-oracle"
        } else {
            "trawl"
        }
    }

    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let day_budget = window.per_day(budget).ceil() as usize;
        let waiting =
            self.allowance.deferred_count() + lists.backlog().take(day_budget + 1).count();
        if waiting > day_budget {
            return self.plan_warm_up(lists, window, budget);
        }
        let (mut requests, slots) = self.allowance.begin_with_backlog(lists, window, budget);
        // The day's polls: its budget less the follow-ups' share and their margin, plus what
        // earlier windows left unspent beyond the margin, spent over the next day (the
        // allocation then puts it where the day's activity is).
        let windows_per_day = optimal::DAY / window.seconds();
        let polls_per_day = (window.per_day(budget) * (1.0 - self.allowance.follow_up_share())
            - self.allowance.margin(budget) * windows_per_day
            + self.allowance.carried_beyond_margin(budget))
        .max(0.0);
        let (start, end) = (window.start_second(), window.end_second());
        let (units, _, frequencies) = self.allocation(lists, start, polls_per_day);
        let (mut polls, mut credits) = self.polls_in(&units, &frequencies, start, end, 1.0);
        if polls.len() > slots {
            // At the evening peak the follow-ups take more of a window than their share of the
            // day, and the allocation asks for more polls than the window has left. Dropping
            // the polls past the last one paid left every board unpolled for the window's last
            // quarter hour on most evenings, which made most of the 95th percentile of delay;
            // every unit is polled less often in the window instead, evenly, which is also what
            // the allocation would do for the window with its budget as a bound (a bound on a
            // bin's polls scales that bin's square-root densities by one factor).
            let scale = slots as f64 / polls.len() as f64;
            (polls, credits) = self.polls_in(&units, &frequencies, start, end, scale);
            polls.truncate(slots);
        }
        for (unit, credit) in units.iter().zip(credits) {
            self.credits.insert(unit.list, credit);
        }
        requests.extend(polls.into_iter().map(|(instant, unit)| {
            PageRequest::at_second(instant, unit.list, Self::poll_page(lists, unit))
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
        let mut wanted = discovery_follow_ups(lists, fetched, change);
        if let Some(list) = lists.get(fetched.list)
            && list.kind == ListKind::Post
            && read_since_its_last_news(list, fetched.page + 1)
        {
            // The next page is the thread's last and was read after every post the thread is
            // known to have: the page just fetched cannot show it changed since. This is the
            // page read again because its last read found the thread grown past it (the rule
            // below): asked again, the watch fetched the page it had fetched a second before
            // (5 such repeats among 50 forums watched for a simulated week).
            wanted.retain(|&page| page != (fetched.list, fetched.page + 1));
        }
        if let Some(list) = lists.get(fetched.list)
            && list.kind == ListKind::Post
            && let Some(unread) = (fetched.page + 2..=list.page_count).find(|&page| {
                !list.page_seen(page).is_some_and(|seen| {
                    seen.fetched_at.is_some() && seen.records >= list.records_per_page.max(1)
                })
            })
            && list
                .page_seen(fetched.page + 1)
                .is_some_and(|seen| seen.fetched_at.is_some())
        {
            // The next page was read full, but a page past it was not: the thread grew by
            // several pages since one was last read, and the changed-thread follow-up read only
            // its new last page. Asked for here, the page is read now rather than from the
            // backlog, which in a warm-up holds years of history before it (a thread of one
            // message a page lost its twelfth of 18 that way on the simulator's mailarchive/12).
            wanted.push((fetched.list, unread));
        }
        if let Some(list) = lists.get(fetched.list)
            && list.kind == ListKind::Post
            && let Some(before) = fetched.page.checked_sub(1).filter(|&page| page > 0)
            && list.page_seen(before).is_some_and(|seen| {
                let page_size = list.records_per_page.max(lists.posts_per_page(list.site));
                seen.records < page_size
                    && seen
                        .fetched_at
                        .is_some_and(|read| filled_after(read, &fetched.content))
            })
        {
            // A thread that outgrew the page last read as its end: the posts that filled that
            // page after it was read are on no page the revisit reads, so it is read again. The
            // page is judged short against the site's page size: a thread's own largest page is
            // short of it while the thread has never shown a full page (a one-page thread whose
            // board lists its second page lost the posts that filled its first).
            wanted.push((fetched.list, before));
        }
        if let Some(list) = lists.get(fetched.list)
            && list.kind == ListKind::Index
        {
            wanted.extend(changed_thread_follow_ups(lists, change));
            // Entries below an unchanged one are unchanged (the list is sorted by last post),
            // so only a page that moved entirely can hide news on the next page.
            if change.moved_past_page && fetched.page < list.page_count {
                wanted.push((fetched.list, fetched.page + 1));
            }
        }
        let mut asked = std::collections::HashSet::new();
        wanted.retain(|page| asked.insert(*page));
        // Follow-ups waiting for budget are served news first: in a warm-up the queue holds
        // days of history (every page of each thread a first walk down a board lists), and the
        // new posts a poll found waited behind it (a mean delay of 1,000 minutes on replies on
        // the simulator's mailarchive/12 at 1,000 fetches a day, against 32 for new threads).
        let recent = fetched.fetched_at.as_second() - NEWS_AGE_SECONDS;
        let marked: Vec<((ListId, u32), bool)> = wanted
            .into_iter()
            .map(|(list, page)| {
                let news = lists.get(list).is_some_and(|state| {
                    state.kind == ListKind::Index
                        || state
                            .listed_last_post_at
                            .max(state.newest_record())
                            .is_some_and(|newest| newest >= recent)
                });
                ((list, page), news)
            })
            .collect();
        self.allowance.follow_ups_marked(fetched.fetched_at, marked)
    }

    /// The allowance and every unit's visiting credit, in list order so that the text of a
    /// state does not depend on a hash map's order.
    fn saved_state(&self) -> Option<String> {
        let mut writer = StateWriter::new(self.name());
        self.allowance.save(&mut writer);
        let mut credits: Vec<(&ListId, &Credit)> = self.credits.iter().collect();
        credits.sort_by_key(|(list, _)| **list);
        for (list, credit) in credits {
            writer.line(
                "credit",
                &[&list.0.to_string(), &float_field(credit.value())],
            );
        }
        Some(writer.finish())
    }

    fn restore_state(&mut self, saved: &str) -> Result<(), ScheduleError> {
        let mut allowance = self.allowance.clone();
        let mut credits = HashMap::new();
        let mut allowance_read = false;
        for (keyword, fields) in state_lines(saved, self.name())? {
            match keyword {
                "allowance" => {
                    allowance.restore(&fields)?;
                    allowance_read = true;
                }
                "deferred" if allowance_read => allowance.restore_deferred(&fields)?,
                "deferred-news" if allowance_read => allowance.restore_deferred_news(&fields)?,
                "credit" => {
                    let fields = Fields::of(keyword, &fields, 2)?;
                    credits.insert(fields.list(0)?, Credit::at_value(fields.float(1)?));
                }
                other => {
                    return Err(ScheduleError::SavedState(format!(
                        "a line {other:?} out of place"
                    )));
                }
            }
        }
        if !allowance_read {
            return Err(ScheduleError::SavedState(
                "the state has no allowance".to_string(),
            ));
        }
        self.allowance = allowance;
        self.credits = credits;
        Ok(())
    }
}

/// Whether `page` is the thread's last page known and was read after all the thread is known to
/// hold: no board has shown activity since a read of its last page
/// (`ListState::unseen_activity_since`), and no post stored of it was written after that page's
/// read. Whatever was written since is on no page anyone has seen, and the thread's next poll
/// (its board's, or its own when its board shows no activity) finds it, as for any thread.
fn read_since_its_last_news(list: &ListState, page: u32) -> bool {
    page == list.page_count
        && list.unseen_activity_since.is_none()
        && list
            .page_seen(page)
            .and_then(|seen| seen.fetched_at)
            .is_some_and(|read| list.newest_record().is_none_or(|newest| newest <= read))
}

/// Whether the page before a thread page showing `content` can have filled after `read`, the
/// instant it was last read: posts land in the order they are written, so the page before was
/// already full when read if this page's first post was written before that (forums show
/// minutes, so a first post shown in the minute of the read counts as written after it). A short
/// page whose shortfall is no later post (a post page analysis read without a time, one post
/// deleted) is then not read again: read again on every fetch of the next page, and that page on
/// every read of it (the discovery rule, since the last page is never full), the two took a whole
/// day's budget in turns (measured live on the simulator's phpBB, `trawl-watch`'s test run for a
/// simulated week: 610 fetches of two pages of one thread in 14 hours).
pub(crate) fn filled_after(read: i64, content: &PageContent) -> bool {
    let first_written = match content {
        PageContent::Posts(times) => times.iter().map(|time| time.as_second()).min(),
        _ => None,
    };
    first_written.is_none_or(|first| read < first + 60)
}

#[cfg(test)]
mod tests;
