//! The replay driver: one simulated forum from an empty store, a policy choosing fetches under a
//! budget per day, simulated time moving only forward.
//!
//! The run starts at the portal (one fetch, which names the boards) with nothing stored, so the
//! warm-up stage, when the backlog of a forum's existing pages takes the budget, is part of it.
//! Time goes in windows of an hour: the scheduler plans each window for its share of the day's
//! budget, the driver fetches every planned page at its instant and hands the result back,
//! fetching the follow-ups the policy asks for at once. Instants never go back: a request for
//! an instant already passed is fetched now. After the judged days the crawl runs one more day
//! (not judged) so that the posts of the last evening get their chance to be stored; the stable
//! stage is the last `stable_days` judged days.

use std::sync::Arc;

use trawl_schedule::{
    CARRY_LIMIT_DAYS, Knowledge, PageRequest, Policy, Scheduler, SiteId, Window, knowledge_needed,
    policy_with_knowledge,
};
use trawl_sim::Site;

use super::FreshnessError;
use super::figures::{DayFigures, Delays, StageData, StageFigures, Tally};
use super::forum::{ListName, Listings, known_arrivals, known_rates, list_name, timestamp};
use super::read_ahead::ReadAheadPool;
use super::source::{PagePath, PageReader, board_ids, fast_page, fast_portal};

const DAY: i64 = 86_400;

/// What to replay.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayConfig {
    /// The policy's name (see `trawl_schedule::POLICY_NAMES`).
    pub policy: String,
    /// Fetches a day, per forum.
    pub budget_per_day: u32,
    /// Judged days; the run ends where the forum's history ends, or earlier if `start` says.
    pub days: u32,
    /// The last days judged as the stable stage.
    pub stable_days: u32,
    /// The planning window.
    pub window_seconds: i64,
    pub path: PagePath,
    /// The first instant of the run (Unix seconds); by default `days` before the history's end.
    pub start: Option<i64>,
    /// The date the first day is labelled with, `YYYY-MM-DD`; by default the run's own date.
    pub label_from: Option<jiff::civil::Date>,
    /// Threads the page path renders and reads pages on, the replay's own among them. A page
    /// shows what the forum showed at its instant, which the plan fixes for the planned pages
    /// before any is fetched and a poll for its follow-ups (due at once), so the pages are read
    /// ahead in parallel and the run is the same as on one thread (see `read_ahead`).
    pub page_workers: usize,
}

impl ReplayConfig {
    pub fn new(policy: &str, budget_per_day: u32, days: u32) -> Self {
        ReplayConfig {
            policy: policy.to_string(),
            budget_per_day,
            days,
            stable_days: 90,
            window_seconds: 3600,
            path: PagePath::Fast,
            start: None,
            label_from: None,
            page_workers: 1,
        }
    }
}

/// One forum's replay.
#[derive(Clone, Debug)]
pub struct ForumReplay {
    /// `family/seed/scale`.
    pub forum: String,
    pub days: Vec<DayFigures>,
    pub stage: StageFigures,
    /// The first judged instant and the number of judged days (fewer than asked for when the
    /// history is shorter).
    pub start: i64,
    pub judged_days: u32,
    /// The ids of the stage's posts never stored, for telling why they were lost.
    pub lost_posts: Vec<u32>,
    /// The stage's stored posts with their delays (seconds), for telling what makes the tail.
    pub stage_delays: Vec<(u32, i64)>,
    /// The pages the page path read before the replay's turn came to them (on a helper thread,
    /// or on the replay's own while it waited for another) and used; none on one thread or on
    /// the fast path.
    pub pages_read_ahead: PagesReadAhead,
    pub(crate) stage_data: StageData,
    pub(crate) day_data: DayData,
}

/// What the run measured of each post and each fetch, before it becomes figures.
struct Record {
    /// Per post (index = id − 1): when it was first stored.
    stored: Vec<Option<i64>>,
    /// Per thread: when a board page first listed it.
    listed: Vec<Option<i64>>,
    /// Per day of the run (judged days and the settling day): index and post page fetches.
    index_days: Vec<Tally>,
    post_days: Vec<Tally>,
}

/// Replays `config` on `site`.
pub fn replay_site(site: Arc<Site>, config: &ReplayConfig) -> Result<ForumReplay, FreshnessError> {
    replay_with(site, config, None)
}

/// Replays a policy the caller built, for one that needs more than a name to be made (the
/// discovery-ranked re-crawl, given scores from browse logs); `config.policy` names it.
pub fn replay_site_with_policy(
    site: Arc<Site>,
    config: &ReplayConfig,
    policy: Box<dyn Policy>,
) -> Result<ForumReplay, FreshnessError> {
    replay_with(site, config, Some(policy))
}

fn replay_with(
    site: Arc<Site>,
    config: &ReplayConfig,
    given: Option<Box<dyn Policy>>,
) -> Result<ForumReplay, FreshnessError> {
    let history = site.history();
    let end_of_history = history.end;
    let mut start = config
        .start
        .unwrap_or(end_of_history - i64::from(config.days) * DAY);
    start = start.max(history.start);
    let judged_days = ((end_of_history - start) / DAY).clamp(0, i64::from(config.days)) as u32;
    if judged_days == 0 {
        return Err(FreshnessError::NothingToJudge);
    }
    let judged_end = start + i64::from(judged_days) * DAY;
    let run_end = judged_end + DAY;
    let knowledge = match knowledge_needed(&config.policy) {
        Some("arrivals") => Some(Knowledge::Arrivals(known_arrivals(&site))),
        Some(_) => {
            let blocks = (run_end - start).div_euclid(28 * DAY) as usize + 1;
            Some(Knowledge::Rates(known_rates(&site, start, 28, blocks)))
        }
        None => None,
    };
    let policy = match given {
        Some(policy) => policy,
        None => policy_with_knowledge(&config.policy, knowledge)?,
    };
    let mut scheduler = Scheduler::new(policy);
    let mut listings = Listings::new(&site);
    let stickies: Vec<Vec<u32>> = (1..=history.board_count())
        .map(|board| {
            history
                .board(board)
                .map(|record| {
                    record
                        .threads
                        .iter()
                        .copied()
                        .filter(|&thread| history.thread(thread).is_some_and(|t| t.sticky))
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect();
    let reader = (config.path == PagePath::Full).then(|| PageReader::new(Arc::clone(&site)));
    let run_days = judged_days as usize + 1;
    let mut record = Record {
        stored: vec![None; history.post_count() as usize],
        listed: vec![None; history.thread_count() as usize],
        index_days: vec![Tally::default(); run_days],
        post_days: vec![Tally::default(); run_days],
    };
    let per_page = site.family().profile().posts_per_page.max(1) as usize;
    let repeats_last_post = site.family().profile().quirks.repeat_last_post;

    // The portal: one fetch, which names the boards.
    let boards = match &reader {
        Some(reader) => reader.portal(start),
        None => fast_portal(&site),
    };
    record.index_days[0].add(true);
    for board in board_ids(&boards) {
        scheduler.lists_mut().add_index_list(board, SiteId(0));
    }

    let budget = u64::from(config.budget_per_day);
    let windows_per_day = (DAY / config.window_seconds.max(1)).max(1);
    let most_per_day = (budget as f64 * (1.0 + CARRY_LIMIT_DAYS)).ceil() as u64 + 1;
    let mut now = start;
    let mut window_start = start;
    let mut window_index: i64 = 0;
    // Requests to fetch, the next last, each with its job in the window's read-ahead pool and
    // whether the plan asked for it (else a poll did, as a follow-up).
    let mut queue: Vec<(PageRequest, Option<usize>, bool)> = Vec::new();
    let mut pages_read_ahead = PagesReadAhead::default();
    let pool_reader = reader.as_ref().filter(|_| config.page_workers > 1);
    while window_start < run_end {
        let window_end = (window_start + config.window_seconds).min(run_end);
        // The day's budget split over its windows without losing the fractions.
        let in_day = window_index % windows_per_day;
        let window_budget = (budget * (in_day as u64 + 1) / windows_per_day as u64
            - budget * in_day as u64 / windows_per_day as u64) as u32;
        let window = Window::new(timestamp(window_start), timestamp(window_end))?;
        let plan = scheduler.plan(window, window_budget);
        // The page path reads the window's pages ahead on `page_workers` threads, the replay's
        // own among them (see `read_ahead`).
        let pool = pool_reader.map(ReadAheadPool::new);
        let jobs = match &pool {
            Some(pool) => pool.add_plan(&plan, now, window_start),
            None => vec![None; plan.len()],
        };
        queue.clear();
        queue.extend(
            plan.into_iter()
                .zip(jobs)
                .map(|(request, job)| (request, job, true))
                .rev(),
        );
        std::thread::scope(|scope| {
            if let Some(pool) = &pool {
                for _ in 1..config.page_workers {
                    scope.spawn(|| pool.help());
                }
            }
            let mut run_window = || -> Result<(), FreshnessError> {
                while let Some((request, job, planned)) = queue.pop() {
                    now = now.max(request.at.as_second()).max(window_start);
                    listings.advance(&site, now);
                    let fetched = match (&pool, job, &reader) {
                        (Some(pool), Some(job), _) => {
                            let taken = pool.take(job, request, now);
                            if taken.read_ahead {
                                pages_read_ahead.count(planned);
                            }
                            taken.page
                        }
                        (_, _, Some(reader)) => reader.page(request.list, request.page, now),
                        (_, _, None) => {
                            fast_page(&site, &listings, &stickies, request.list, request.page, now)
                        }
                    };
                    let day = ((now - start) / DAY) as usize;
                    let useful = judge_fetch(
                        &site,
                        &listings,
                        &mut record,
                        request,
                        now,
                        per_page,
                        repeats_last_post,
                        &stickies,
                    );
                    if let Some(tally) = match list_name(request.list) {
                        ListName::Board(_) => record.index_days.get_mut(day),
                        ListName::Thread(_) => record.post_days.get_mut(day),
                    } {
                        tally.add(useful);
                    }
                    let spent = record.index_days[day.min(run_days - 1)].fetches
                        + record.post_days[day.min(run_days - 1)].fetches;
                    if spent > most_per_day {
                        return Err(FreshnessError::OverBudget {
                            policy: config.policy.clone(),
                            day: day as u32 + 1,
                            fetches: spent,
                        });
                    }
                    let follow_ups = scheduler.observe(&fetched)?;
                    // The follow-ups a poll sets off (the threads a board page showed changed,
                    // the next pages of a list) are due now and read ahead like the plan,
                    // before it; the scheduler still observes them one by one in the order it
                    // asked for them.
                    let jobs = match &pool {
                        Some(pool) => pool.add_follow_ups(&follow_ups, now, window_start),
                        None => vec![None; follow_ups.len()],
                    };
                    queue.extend(
                        follow_ups
                            .into_iter()
                            .zip(jobs)
                            .map(|(request, job)| (request, job, false))
                            .rev(),
                    );
                }
                Ok(())
            };
            let result = run_window();
            // The helpers stop whether the window ended or failed.
            if let Some(pool) = &pool {
                pool.close();
            }
            result
        })?;
        window_start = window_end;
        window_index += 1;
    }
    let mut replay = figures_of(&site, config, start, judged_days, run_end, &record);
    replay.pages_read_ahead = pages_read_ahead;
    Ok(replay)
}

/// How many pages the page path read before the replay's turn came to them and then used (see
/// [`ReplayConfig::page_workers`] and `read_ahead`); a page read ahead for an instant the
/// replay did not reach is read again and not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PagesReadAhead {
    /// Pages a window's plan asked for.
    pub planned: u64,
    /// Follow-ups that polls set off.
    pub follow_ups: u64,
}

impl PagesReadAhead {
    fn count(&mut self, planned: bool) {
        if planned {
            self.planned += 1;
        } else {
            self.follow_ups += 1;
        }
    }
}

/// Stores what the fetched page shows by the truth and says whether it brought anything new.
#[allow(clippy::too_many_arguments)]
fn judge_fetch(
    site: &Site,
    listings: &Listings,
    record: &mut Record,
    request: PageRequest,
    now: i64,
    per_page: usize,
    repeats_last_post: bool,
    stickies: &[Vec<u32>],
) -> bool {
    let history = site.history();
    match list_name(request.list) {
        ListName::Thread(thread) => {
            let posts = listings.posts(site, thread);
            let mut start = (request.page as usize - 1) * per_page;
            if repeats_last_post && request.page > 1 {
                start -= 1;
            }
            let end = ((request.page as usize) * per_page).min(posts.len());
            let mut useful = false;
            for &post in posts.get(start.min(end)..end).unwrap_or(&[]) {
                let slot = &mut record.stored[post as usize - 1];
                if slot.is_none() {
                    *slot = Some(now);
                    useful = true;
                }
            }
            useful
        }
        ListName::Board(board) => {
            let threads_per_page = site.family().profile().threads_per_page.max(1) as usize;
            let mut shown = listings.page(board, request.page, threads_per_page);
            if request.page == 1 {
                shown.extend(
                    stickies
                        .get(board as usize - 1)
                        .into_iter()
                        .flatten()
                        .filter(|&&thread| {
                            history.thread(thread).is_some_and(|t| t.created <= now)
                        }),
                );
            }
            let mut useful = false;
            for thread in shown {
                let slot = &mut record.listed[thread as usize - 1];
                if slot.is_none() {
                    *slot = Some(now);
                    useful = true;
                }
                let newest_unstored = listings
                    .posts(site, thread)
                    .last()
                    .is_some_and(|&post| record.stored[post as usize - 1].is_none());
                useful |= newest_unstored;
            }
            useful
        }
    }
}

fn figures_of(
    site: &Site,
    config: &ReplayConfig,
    start: i64,
    judged_days: u32,
    run_end: i64,
    record: &Record,
) -> ForumReplay {
    let history = site.history();
    let days = judged_days as usize;
    let stage_from = start + i64::from(judged_days.saturating_sub(config.stable_days)) * DAY;
    let judged_end = start + i64::from(judged_days) * DAY;
    let mut per_day: Vec<Delays> = vec![Delays::default(); days];
    let mut existing = vec![0u64; days + 1];
    let mut stored_by = vec![0u64; days + 1];
    let mut stage = StageData::default();
    let mut lost_posts = Vec::new();
    let mut stage_delays = Vec::new();
    let day_of = |second: i64| ((second - start).max(0) / DAY) as usize;
    for post in 1..=history.post_count() {
        let Some(written) = history.post(post).map(|post| post.created) else {
            continue;
        };
        if written >= judged_end {
            continue;
        }
        let stored = record.stored[post as usize - 1];
        existing[day_of(written).min(days)] += 1;
        if let Some(stored) = stored {
            stored_by[day_of(stored.max(written)).min(days)] += 1;
        }
        if written < start {
            continue;
        }
        let delay = stored.map(|stored| (stored - written) as f64);
        let day = day_of(written);
        match delay {
            Some(delay) => per_day[day].stored(delay),
            None => per_day[day].missing((run_end - written) as f64),
        }
        if written >= stage_from {
            let thread = history.post(post).map_or(0, |post| post.thread);
            let first = history.thread_posts(thread).first() == Some(&post);
            match delay {
                Some(delay) => {
                    stage.posts.stored(delay);
                    stage_delays.push((post, delay as i64));
                }
                None => {
                    stage.posts.missing((run_end - written) as f64);
                    lost_posts.push(post);
                }
            }
            if first {
                match record.listed[thread as usize - 1] {
                    Some(listed) => stage.threads.stored((listed - written).max(0) as f64),
                    None => stage.threads.missing((run_end - written) as f64),
                }
            } else {
                match delay {
                    Some(delay) => stage.replies.stored(delay),
                    None => stage.replies.missing((run_end - written) as f64),
                }
            }
        }
    }
    let stage_first_day = day_of(stage_from);
    for day in stage_first_day..days {
        stage.index.merge(record.index_days[day]);
        stage.post.merge(record.post_days[day]);
    }
    let label = config
        .label_from
        .unwrap_or_else(|| timestamp(start).to_zoned(jiff::tz::TimeZone::UTC).date());
    let day_data = DayData {
        label,
        index: record.index_days[..days].to_vec(),
        post: record.post_days[..days].to_vec(),
        delays: per_day,
        existing: existing[..days].to_vec(),
        stored: stored_by[..days].to_vec(),
    };
    let config_of_site = site.config();
    ForumReplay {
        forum: format!(
            "{}/{}/{}",
            config_of_site.family.name(),
            config_of_site.seed,
            config_of_site.scale.name()
        ),
        days: day_data.figures(),
        stage: stage.figures(),
        start,
        judged_days,
        lost_posts,
        stage_delays,
        pages_read_ahead: PagesReadAhead::default(),
        stage_data: stage,
        day_data,
    }
}

/// What the day figures are made from, kept so several forums pool into one.
#[derive(Clone, Debug)]
pub(crate) struct DayData {
    label: jiff::civil::Date,
    index: Vec<Tally>,
    post: Vec<Tally>,
    delays: Vec<Delays>,
    /// Posts written (posts from before the run count on its first day) and posts stored, by
    /// day.
    existing: Vec<u64>,
    stored: Vec<u64>,
}

impl DayData {
    /// Adds another forum's days, day by day (the shorter run's missing days add nothing).
    pub(crate) fn merge(&mut self, other: &DayData) {
        let days = self.index.len().max(other.index.len());
        self.index.resize(days, Tally::default());
        self.post.resize(days, Tally::default());
        self.delays.resize(days, Delays::default());
        self.existing.resize(days, 0);
        self.stored.resize(days, 0);
        for day in 0..other.index.len() {
            self.index[day].merge(other.index[day]);
            self.post[day].merge(other.post[day]);
            self.delays[day].extend(&other.delays[day]);
            self.existing[day] += other.existing[day];
            self.stored[day] += other.stored[day];
        }
    }

    pub(crate) fn figures(&self) -> Vec<DayFigures> {
        let mut cumulative_existing = 0u64;
        let mut cumulative_stored = 0u64;
        let mut figures = Vec::with_capacity(self.index.len());
        for day in 0..self.index.len() {
            cumulative_existing += self.existing[day];
            cumulative_stored += self.stored[day];
            let index = self.index[day];
            let post = self.post[day];
            let mut all = index;
            all.merge(post);
            let delays = &self.delays[day];
            figures.push(DayFigures {
                day: day as u32 + 1,
                date: self
                    .label
                    .checked_add(jiff::Span::new().days(day as i64))
                    .map(|date| date.to_string())
                    .unwrap_or_default(),
                fetches: all.fetches,
                index_fetches: index.fetches,
                post_fetches: post.fetches,
                utilisation: all.share(),
                index_utilisation: index.share(),
                post_utilisation: post.share(),
                coverage: if cumulative_existing == 0 {
                    1.0
                } else {
                    cumulative_stored as f64 / cumulative_existing as f64
                },
                posts_written: delays.count() + delays.lost(),
                mean_delay_s: delays.mean(),
                p95_delay_s: delays.percentile(0.95),
                total_delay_s: delays.total(),
            });
        }
        figures
    }
}
