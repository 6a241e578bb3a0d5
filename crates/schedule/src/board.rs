//! The board-based method of the board paper: BIC to read a board, BRA to schedule boards, and
//! the paper's ablations ERA, WRA and LRA.
//!
//! BIC (board-based incremental crawling) reads a board's list pages in order: a thread the store
//! lacks is new and is fetched whole, a thread whose last-reply time changed has new replies and
//! its newest page is fetched, and the walk stops at the first list page that shows nothing new
//! or updated. BRA (board-based revisit allocation) decides when boards are read. A board's weight
//! is WP = Ws·Wp·(Ng + θ·Nr), Ng and Nr its new threads and new replies a day over the last ~20
//! days, θ = 0.5, site and board importance Ws = Wp = 1 as in the paper; a day's M board visits are
//! shared mᵢ = M·WPᵢ/ΣWP; and a board's mᵢ visits are placed where its 24-hour activity histogram
//! (creations plus θ·replies per hour over the same days) splits into mᵢ + 1 equal areas, so busy
//! hours get more visits. ERA gives every board the same number of visits at evenly spaced times,
//! WRA only weights boards, LRA only places visits by the histogram.
//!
//! Three choices the paper leaves open are made here. A board with no activity in the window still
//! gets one visit a day when the budget has room for every board, since a weight of zero would
//! never look at the board again; the day starts at 00:00 UTC, which moves nothing but the
//! labels, because the histogram is learned on the same clock it is applied on; and M is the
//! room the day is expected to leave the visits (the last day's budget less its follow-ups and
//! the pages never fetched it read), shared out and placed once as the day's first window is planned,
//! each visit made in the window holding its point or, when that window has no slot left for it,
//! in the next one (`VisitCalendar`).

use crate::lists::{ActivityKind, BoardActivity, FetchedPage, ListChange, ListKind, Lists};
use crate::policy::{
    Allowance, PageRequest, Policy, Window, changed_thread_follow_ups, discovery_follow_ups,
};
use crate::trawl::filled_after;

const DAY: i64 = 86_400;

/// Which of the paper's four schedules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardAllocation {
    /// Weights and the activity histogram (the paper's method).
    Bra,
    /// Equal visits per board at evenly spaced times.
    Era,
    /// Weighted visits at evenly spaced times.
    Wra,
    /// Equal visits placed by the histogram.
    Lra,
}

/// The board-based method's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardConfig {
    pub allocation: BoardAllocation,
    /// θ, the weight of a reply against a new thread.
    pub theta: f64,
    /// How many days of activity the weights and histograms are computed from.
    pub history_days: i64,
    /// Bins of the daily histogram (24: the paper's granularity of one hour).
    pub bins: usize,
}

impl BoardConfig {
    pub fn new(allocation: BoardAllocation) -> Self {
        BoardConfig {
            allocation,
            theta: 0.5,
            history_days: 20,
            bins: 24,
        }
    }
}

/// WP = Ws·Wp·(Ng + θ·Nr).
pub fn board_weight(
    site_importance: f64,
    board_importance: f64,
    new_threads_per_day: f64,
    replies_per_day: f64,
    theta: f64,
) -> f64 {
    site_importance * board_importance * (new_threads_per_day + theta * replies_per_day)
}

/// mᵢ = M·WPᵢ/ΣWP in whole visits (largest remainders get the visits rounding leaves, ties to
/// the earlier board). All weights zero shares equally.
pub fn visits_per_board(weights: &[f64], total: u32) -> Vec<u32> {
    let sum: f64 = weights.iter().sum();
    let shares: Vec<f64> = if sum > 0.0 {
        weights
            .iter()
            .map(|weight| f64::from(total) * weight / sum)
            .collect()
    } else {
        vec![f64::from(total) / weights.len().max(1) as f64; weights.len()]
    };
    let mut visits: Vec<u32> = shares.iter().map(|share| share.floor() as u32).collect();
    let given: u32 = visits.iter().sum();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| {
        (shares[b] - shares[b].floor())
            .total_cmp(&(shares[a] - shares[a].floor()))
            .then(a.cmp(&b))
    });
    for &index in order.iter().take(total.saturating_sub(given) as usize) {
        visits[index] += 1;
    }
    visits
}

/// A board's new threads and replies a day over the `days` before `now`.
pub fn daily_activity(activity: &BoardActivity, now: i64, days: i64) -> (f64, f64) {
    let (mut threads, mut replies) = (0u64, 0u64);
    for (_, kind) in activity.between(now - days * DAY, now) {
        match kind {
            ActivityKind::NewThread => threads += 1,
            ActivityKind::Reply => replies += 1,
        }
    }
    (threads as f64 / days as f64, replies as f64 / days as f64)
}

/// The board's activity histogram over the day: SCₖ ∝ g_numₖ + θ·r_numₖ over the `days` before
/// `now`, normalised to sum 1 (all zero when there was no activity).
pub fn activity_histogram(
    activity: &BoardActivity,
    now: i64,
    days: i64,
    theta: f64,
    bins: usize,
) -> Vec<f64> {
    let mut histogram = vec![0.0; bins];
    let bin_seconds = DAY as f64 / bins as f64;
    for (time, kind) in activity.between(now - days * DAY, now) {
        let bin = ((time.rem_euclid(DAY)) as f64 / bin_seconds) as usize;
        histogram[bin.min(bins - 1)] += match kind {
            ActivityKind::NewThread => 1.0,
            ActivityKind::Reply => theta,
        };
    }
    let total: f64 = histogram.iter().sum();
    if total > 0.0 {
        histogram.iter_mut().for_each(|value| *value /= total);
    }
    histogram
}

/// The `visits` instants (seconds into the day) that split the histogram's area into
/// `visits + 1` equal parts, linear within a bin; evenly spaced when the histogram is empty.
pub fn equal_area_points(histogram: &[f64], visits: u32) -> Vec<f64> {
    let total: f64 = histogram.iter().sum();
    if total <= 0.0 || histogram.is_empty() {
        return even_points(visits);
    }
    let bin_seconds = DAY as f64 / histogram.len() as f64;
    let part = total / f64::from(visits + 1);
    let mut points = Vec::with_capacity(visits as usize);
    let mut before = 0.0;
    let mut target = part;
    for (bin, &area) in histogram.iter().enumerate() {
        while points.len() < visits as usize && area > 0.0 && before + area >= target - 1e-12 {
            let inside = ((target - before) / area).clamp(0.0, 1.0);
            points.push((bin as f64 + inside) * bin_seconds);
            target += part;
        }
        before += area;
    }
    while points.len() < visits as usize {
        points.push(DAY as f64 - 1.0);
    }
    points
}

/// `visits` instants splitting the day evenly: k·24h/(visits + 1).
pub fn even_points(visits: u32) -> Vec<f64> {
    (1..=visits)
        .map(|k| f64::from(k) * DAY as f64 / f64::from(visits + 1))
        .collect()
}

/// BIC with BRA, ERA, WRA or LRA.
#[derive(Clone, Debug)]
pub struct BoardBased {
    config: BoardConfig,
    allowance: Allowance,
    calendar: VisitCalendar,
}

/// The board visits placed for the days planned so far, kept from window to window until made,
/// and what each day spent on other fetches, from which the next day's room is expected.
///
/// A day's visits are shared out and placed once, when its first window is planned. Shared out
/// again at every hourly window from that window's slots, which the follow-ups waiting and the
/// budget carried from quieter hours make swing (13 to 144 an hour at 1,000 fetches a day on the
/// simulator's discuz/3), a quiet board's one or two visits a day moved with the share: its
/// points fell in other hours than the window placing them, and a point is used only by the
/// window whose hour holds it, so the board went up to two days unread and BRA lost 5 posts of
/// it at 1,000 a day. A visit whose point has passed unmade (its window had no slot left) is
/// made in the next window instead of dropped, so every board gets the visits it was given.
#[derive(Clone, Debug, Default)]
struct VisitCalendar {
    /// The end of the last day whose visits are placed (Unix seconds, 00:00 UTC of the next day).
    placed_through: i64,
    /// The visits a day the current day's points were shared out for.
    visits_per_day: u32,
    /// The boards the current day's visits were shared among.
    boards: Vec<crate::ListId>,
    /// Visits placed and not yet made, in time order (Unix seconds, board).
    pending: Vec<(f64, crate::ListId)>,
    /// What the day being planned has spent so far.
    today: DaySpending,
    /// What the last day planned spent, once a day has ended.
    yesterday: Option<DaySpending>,
}

/// One day's budget and the fetches it spent before the board visits the policy plans: on
/// follow-ups (deferred ones included) and on pages never fetched (the backlog).
#[derive(Clone, Copy, Debug, Default)]
struct DaySpending {
    /// The day's start (Unix seconds, 00:00 UTC).
    day: i64,
    /// The seconds of the day the windows planned so far cover.
    seconds: i64,
    budget: u64,
    follow_ups: u64,
    backlog: u64,
}

impl VisitCalendar {
    /// Counts a window's budget, the deferred follow-ups it served first and the pages of the
    /// backlog it planned to the day of its start, closing the previous day when this is a new
    /// one.
    fn count_window(
        &mut self,
        window: Window,
        budget: u32,
        deferred_served: usize,
        backlog: usize,
    ) {
        let day = window.start_second().div_euclid(DAY) * DAY;
        if self.today.day != day {
            if self.today.seconds > 0 {
                self.yesterday = Some(self.today);
            }
            self.today = DaySpending {
                day,
                ..DaySpending::default()
            };
        }
        self.today.seconds += window.end_second() - window.start_second();
        self.today.budget += u64::from(budget);
        self.today.follow_ups += deferred_served as u64;
        self.today.backlog += backlog as u64;
    }

    /// The visits due by `end`, the overdue ones first (one a board, however many of its points
    /// passed, made at `start`), at most `slots` of them; the rest stay for the next window.
    fn take_due(&mut self, start: i64, end: i64, slots: usize) -> Vec<(f64, crate::ListId)> {
        let due_count = self
            .pending
            .partition_point(|&(instant, _)| instant < end as f64);
        let mut due: Vec<(f64, crate::ListId)> = Vec::with_capacity(due_count);
        let mut overdue_boards: Vec<crate::ListId> = Vec::new();
        for (instant, board) in self.pending.drain(..due_count) {
            if instant < start as f64 {
                if !overdue_boards.contains(&board) {
                    overdue_boards.push(board);
                    due.push((start as f64, board));
                }
            } else {
                due.push((instant, board));
            }
        }
        let waiting = due.split_off(slots.min(due.len()));
        self.pending.splice(0..0, waiting);
        due
    }
}

impl BoardBased {
    pub fn new(config: BoardConfig) -> Self {
        BoardBased {
            config,
            allowance: Allowance::default(),
            calendar: VisitCalendar::default(),
        }
    }

    /// The board visits a day can be expected to have room for: the budget of the last whole
    /// day less what it spent on follow-ups and on pages never fetched, which every policy
    /// serves before its own plan; those pages counted no higher than the backlog waiting now,
    /// so that the day after the warm-up's last pages has the room they leave. Before a day has
    /// ended, the first window's budget for a day less the share follow-ups are given and less
    /// the backlog. Not one window's slots: they swing with the follow-ups waiting and the
    /// budget carried from quieter hours.
    fn expected_room(&self, lists: &Lists, window: Window, budget: u32) -> u32 {
        let waiting = lists.backlog().count() as f64;
        let (room, backlog) = match self.calendar.yesterday {
            Some(day) if day.seconds > 0 => {
                let per_day = DAY as f64 / day.seconds as f64;
                (
                    day.budget.saturating_sub(day.follow_ups) as f64 * per_day,
                    (day.backlog as f64 * per_day).min(waiting),
                )
            }
            _ => (
                window.per_day(budget) * (1.0 - self.allowance.follow_up_share().min(0.8)),
                waiting,
            ),
        };
        (room - backlog).max(0.0).round() as u32
    }

    /// Places the visits of every day the window reaches that has none placed yet, and those of
    /// boards found since the day's visits were shared out.
    fn place_visits(&mut self, lists: &Lists, window: Window, budget: u32) {
        let (start, end) = (window.start_second(), window.end_second());
        let today = start.div_euclid(DAY) * DAY;
        let mut day = self.calendar.placed_through.max(today);
        if day < end {
            let visits_per_day = self.expected_room(lists, window, budget);
            self.calendar.visits_per_day = visits_per_day;
            self.calendar.boards = lists.index_lists().map(|list| list.id).collect();
            let points = self.daily_points(lists, start, visits_per_day);
            while day < end {
                self.add_points(day, start, &points, |_| true);
                day += DAY;
            }
            self.calendar.placed_through = day;
            return;
        }
        let found_since: Vec<crate::ListId> = lists
            .index_lists()
            .map(|list| list.id)
            .filter(|board| !self.calendar.boards.contains(board))
            .collect();
        if !found_since.is_empty() {
            // A board found after its day was shared out gets the points the day's share would
            // have given it, from now on; the others keep theirs.
            let points = self.daily_points(lists, start, self.calendar.visits_per_day);
            self.add_points(today, start, &points, |board| found_since.contains(&board));
            self.calendar.boards.extend(found_since);
        }
    }

    /// Adds the points of the day starting at `day` from `start` on, for the boards `wanted`
    /// keeps, to the visits pending.
    fn add_points(
        &mut self,
        day: i64,
        start: i64,
        points: &[(crate::ListId, Vec<f64>)],
        wanted: impl Fn(crate::ListId) -> bool,
    ) {
        for (board, board_points) in points {
            if !wanted(*board) {
                continue;
            }
            for &point in board_points {
                let instant = day as f64 + point;
                if instant >= start as f64 {
                    self.calendar.pending.push((instant, *board));
                }
            }
        }
        self.calendar
            .pending
            .sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }

    /// The day's visit instants (seconds into the day) of every board, for `visits_per_day`
    /// visits shared among them as of `now`.
    pub fn daily_points(
        &self,
        lists: &Lists,
        now: i64,
        visits_per_day: u32,
    ) -> Vec<(crate::ListId, Vec<f64>)> {
        let boards: Vec<crate::ListId> = lists
            .iter()
            .filter(|list| list.kind == ListKind::Index)
            .map(|list| list.id)
            .collect();
        let config = &self.config;
        let empty = BoardActivity::default();
        let activity_of = |board| lists.activity(board).unwrap_or(&empty);
        let weighted = matches!(
            config.allocation,
            BoardAllocation::Bra | BoardAllocation::Wra
        );
        let by_histogram = matches!(
            config.allocation,
            BoardAllocation::Bra | BoardAllocation::Lra
        );
        let mut visits = if weighted {
            let weights: Vec<f64> = boards
                .iter()
                .map(|&board| {
                    let (threads, replies) =
                        daily_activity(activity_of(board), now, config.history_days);
                    board_weight(1.0, 1.0, threads, replies, config.theta)
                })
                .collect();
            visits_per_board(&weights, visits_per_day)
        } else {
            visits_per_board(&vec![1.0; boards.len()], visits_per_day)
        };
        if visits_per_day as usize >= boards.len() {
            // One visit a day for boards the weights left out, taken from the most visited.
            for index in 0..visits.len() {
                if visits[index] == 0
                    && let Some(richest) = (0..visits.len()).max_by_key(|&other| visits[other])
                    && visits[richest] > 1
                {
                    visits[richest] -= 1;
                    visits[index] = 1;
                }
            }
        }
        boards
            .into_iter()
            .zip(visits)
            .map(|(board, count)| {
                let points = if by_histogram {
                    let histogram = activity_histogram(
                        activity_of(board),
                        now,
                        config.history_days,
                        config.theta,
                        config.bins,
                    );
                    equal_area_points(&histogram, count)
                } else {
                    even_points(count)
                };
                (board, points)
            })
            .collect()
    }
}

impl Policy for BoardBased {
    fn name(&self) -> &'static str {
        match self.config.allocation {
            BoardAllocation::Bra => "bic-bra",
            BoardAllocation::Era => "era",
            BoardAllocation::Wra => "wra",
            BoardAllocation::Lra => "lra",
        }
    }

    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let (mut requests, plannable) = self.allowance.begin(lists, window, budget);
        let backlog = self
            .allowance
            .backlog_requests(lists, window, &requests, plannable as usize);
        self.calendar
            .count_window(window, budget, requests.len(), backlog.len());
        let slots = plannable as usize - backlog.len();
        requests.extend(backlog);
        self.place_visits(lists, window, budget);
        let visits = self
            .calendar
            .take_due(window.start_second(), window.end_second(), slots);
        requests.extend(
            visits
                .into_iter()
                .map(|(instant, board)| PageRequest::at_second(instant, board, 1)),
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
        wanted.extend(short_page_overtaken(lists, fetched));
        if let Some(list) = lists.get(fetched.list)
            && list.kind == ListKind::Index
        {
            wanted.extend(changed_thread_follow_ups(lists, change));
            // BIC walks on while a list page shows anything new or updated.
            let anything = !change.new_threads.is_empty() || !change.changed_threads.is_empty();
            if anything && fetched.page < list.page_count {
                wanted.push((fetched.list, fetched.page + 1));
            }
        }
        let granted = self.allowance.follow_ups(fetched.fetched_at, wanted);
        self.calendar.today.follow_ups += granted.len() as u64;
        granted
    }
}

/// The page of a thread read short before the page `fetched` just read, if posts filled it after
/// that read: its tail is on no page BIC reads again. BIC reads a changed thread's last page, and
/// the thread's pages between the last one read and the new last one come from the backlog, but
/// the old last page was read and is not in the backlog. A pager seen on any other page (the
/// backlog's read of page 1 of a thread a follow-up had already read) moves the known last page
/// on without reading that one again: ERA lost 12 posts of three threads of the simulator's
/// discuz/3 that way in a year at 3,000 fetches a day (7 of them one burst of replies). Pages fill
/// in order, so the walk down stops at the first page read full.
fn short_page_overtaken(lists: &Lists, fetched: &FetchedPage) -> Option<(crate::ListId, u32)> {
    let list = lists.get(fetched.list)?;
    if list.kind != ListKind::Post {
        return None;
    }
    let page_size = list.records_per_page.max(lists.posts_per_page(list.site));
    for page in (1..fetched.page).rev() {
        let Some(seen) = list.page_seen(page) else {
            continue;
        };
        let Some(read) = seen.fetched_at else {
            continue;
        };
        if seen.records >= page_size {
            return None;
        }
        return filled_after(read, &fetched.content).then_some((fetched.list, page));
    }
    None
}

#[cfg(test)]
mod tests;
