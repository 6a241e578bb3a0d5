//! Browse logs: what a forum's web server would have logged of its human visitors.
//!
//! The behaviour-driven crawl order (`trawl-behaviour`) learns from the logs a forum owner has;
//! to measure it, the simulator writes such logs for any of its forums, in the combined log
//! format Apache and nginx write (client address, time, request, status, size, referrer, user
//! agent). Every URL is the site's own spelling of a route existing at that instant, and every
//! status and size is what [`Site::serve`] answers then, so a log never names a page the
//! server would not have shown.
//!
//! Visitors are modelled on how people read forums, by our own judgement (the paper gives no
//! model): each user has a daily habit (some come several times a day, most now and then) and
//! starts sessions at hours drawn from the simulator's daily cycle ([`HOURLY_ACTIVITY`], in the
//! forum's local time). A session enters at the portal, or, one time in four, at a thread page
//! from a search engine (old threads as much as new ones: search engines index everything).
//! From the portal a reader opens a board (busier boards more), from a board's list a thread
//! (near the top of the list much more often: threads with new posts, which is reading new
//! threads more than old), now and then the next list page; in a thread the next page, or on
//! the first page of a long thread a jump to the last page, sometimes a poster's profile (and
//! back, which the browser's cache answers without a request), then back to the board. The "new posts" search page leads to recently active threads, the login
//! page back to the page the reader came from. Each page holds the reader 10 seconds to a few
//! minutes; a session ends after each page with a fixed chance.

use jiff::Timestamp;
use jiff::tz::{Offset, TimeZone};

use crate::history::HOURLY_ACTIVITY;
use crate::random::{Random, cumulative};
use crate::route::{Address, Route, SortOrder};
use crate::site::Site;

/// Seconds in a day.
const DAY: i64 = 86_400;

/// Chance a session ends after any page.
const SESSION_END_CHANCE: f64 = 0.15;

/// Share of sessions entering at a thread from a search engine.
const SEARCH_ENGINE_ENTRY_CHANCE: f64 = 0.25;

/// Browsers of the simulated visitors; the user is told apart by address and agent.
const USER_AGENTS: [&str; 5] = [
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
];

/// What to log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrowseLogConfig {
    /// Seed of the visitors' behaviour (the forum has its own).
    pub seed: u64,
    /// Number of distinct visitors.
    pub users: u32,
    /// Number of days logged.
    pub days: u32,
    /// Start of the first day logged (Unix seconds).
    pub from: i64,
    /// Scheme and host the referrers name, e.g. `http://forum.test`.
    pub origin: String,
}

impl BrowseLogConfig {
    /// The last `days` days of the site's history, logged for `users` visitors.
    pub fn last_days(site: &Site, seed: u64, users: u32, days: u32) -> BrowseLogConfig {
        let end = site.history().end;
        BrowseLogConfig {
            seed,
            users,
            days,
            from: (end - i64::from(days) * DAY).max(site.history().start),
            origin: "http://forum.test".to_string(),
        }
    }
}

/// One logged request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedRequest {
    /// When it was made (Unix seconds).
    pub at: i64,
    /// The line in the combined log format.
    pub line: String,
}

/// Where a reader is.
#[derive(Debug, Clone)]
struct Place {
    route: Route,
    path: String,
}

/// The browse log of `config.users` visitors over `config.days` days, in time order.
pub fn browse_log(site: &Site, config: &BrowseLogConfig) -> Vec<LoggedRequest> {
    let mut requests = Vec::new();
    let hours = cumulative(&HOURLY_ACTIVITY);
    let offset = site.history().utc_offset_seconds;
    for user in 0..config.users {
        let mut habit = Random::for_item(config.seed, "browse-habit", u64::from(user));
        // Visits per day: most readers come now and then, a few several times a day.
        let sessions_per_day = habit.log_normal(0.5, 1.0).min(6.0);
        let agent = *habit.pick(&USER_AGENTS);
        let address = format!(
            "10.{}.{}.{}",
            (user >> 16) & 255,
            (user >> 8) & 255,
            (user & 255) + 1
        );
        for day in 0..config.days {
            let mut random = Random::for_item(
                config.seed,
                "browse-day",
                (u64::from(user) << 20) | u64::from(day),
            );
            let day_start = config.from + i64::from(day) * DAY;
            let mut sessions = sessions_per_day.floor() as u32;
            if random.chance(sessions_per_day.fract()) {
                sessions += 1;
            }
            for _ in 0..sessions {
                let hour = random.weighted(&hours) as i64;
                // The hour is the forum's local hour; the log is kept in UTC.
                let start = day_start + hour * 3_600 + random.between(0, 3_599) - i64::from(offset);
                // A local hour before the window's first UTC instant is not logged.
                if start < config.from {
                    continue;
                }
                let visitor = Visitor {
                    site,
                    config,
                    address: &address,
                    agent,
                };
                visitor.session(start, &mut random, &mut requests);
            }
        }
    }
    requests.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.line.cmp(&b.line)));
    requests
}

struct Visitor<'a> {
    site: &'a Site,
    config: &'a BrowseLogConfig,
    address: &'a str,
    agent: &'a str,
}

impl Visitor<'_> {
    fn place(&self, route: Route) -> Place {
        Place {
            path: self.site.url_of(&Address::canonical(route.clone())),
            route,
        }
    }

    fn session(&self, start: i64, random: &mut Random, requests: &mut Vec<LoggedRequest>) {
        let mut at = start;
        let mut referrer: Option<String> = None;
        let mut current = self.place(Route::Portal);
        if random.chance(SEARCH_ENGINE_ENTRY_CHANCE)
            && let Some(thread) = self.any_thread(at, random)
        {
            current = self.place(Route::Thread { thread, page: 1 });
            referrer = Some(format!(
                "https://www.search.example/search?q={}",
                crate::text::slugify(&self.site.thread_title(thread)).replace('-', "+")
            ));
        }
        let mut previous = current.clone();
        loop {
            self.log(at, &current.path, referrer.as_deref(), requests);
            if random.chance(SESSION_END_CHANCE) {
                break;
            }
            // From a profile or the member list, readers mostly go back, which a browser
            // answers from its cache (no request, so no line), and go on from the page before.
            let goes_back = matches!(
                current.route,
                Route::Profile { .. } | Route::MemberList { .. }
            ) && !matches!(
                previous.route,
                Route::Profile { .. } | Route::MemberList { .. } | Route::Login { .. }
            ) && random.chance(0.7);
            if goes_back {
                current = previous.clone();
            }
            let Some(next) = self.next_place(&current, &previous, at, random) else {
                break;
            };
            referrer = Some(format!("{}{}", self.config.origin, current.path));
            previous = current;
            current = next;
            at += random.between(10, 240);
        }
    }

    /// Logs a request as the server answers it; a redirect is followed, as browsers do, with
    /// the same referrer.
    fn log(&self, at: i64, path: &str, referrer: Option<&str>, requests: &mut Vec<LoggedRequest>) {
        let mut path = path.to_string();
        for _ in 0..3 {
            let response = self.site.serve(&path, at, None);
            let stamp = Timestamp::from_second(at)
                .unwrap_or(Timestamp::UNIX_EPOCH)
                .to_zoned(TimeZone::fixed(
                    Offset::from_seconds(self.site.history().utc_offset_seconds)
                        .unwrap_or(Offset::UTC),
                ))
                .strftime("%d/%b/%Y:%H:%M:%S %z")
                .to_string();
            requests.push(LoggedRequest {
                at,
                line: format!(
                    "{} - - [{stamp}] \"GET {path} HTTP/1.1\" {} {} \"{}\" \"{}\"",
                    self.address,
                    response.status,
                    response.body.len(),
                    referrer.unwrap_or("-"),
                    self.agent
                ),
            });
            let location = response
                .header("Location")
                .filter(|_| (300..400).contains(&response.status))
                .map(|location| {
                    location
                        .strip_prefix(&self.config.origin)
                        .unwrap_or(location)
                        .to_string()
                });
            match location {
                Some(location) if location.starts_with('/') => path = location,
                _ => break,
            }
        }
    }

    fn next_place(
        &self,
        current: &Place,
        previous: &Place,
        at: i64,
        random: &mut Random,
    ) -> Option<Place> {
        let history = self.site.history();
        match current.route {
            Route::Portal => {
                let roll = random.unit();
                if roll < 0.08 {
                    Some(self.place(Route::Search { page: 1 }))
                } else if roll < 0.12 {
                    Some(self.place(Route::Login { next: None }))
                } else if roll < 0.14 {
                    Some(self.place(Route::MemberList { page: 1 }))
                } else {
                    self.busy_board(at, random)
                        .map(|board| self.place(Route::Board { board, page: 1 }))
                }
            }
            Route::Board { board, page } => {
                let pages = self.site.board_pages(board, at);
                let roll = random.unit();
                if roll < 0.12 && page < pages {
                    let route =
                        self.site
                            .board_page_route(board, page + 1, SortOrder::LastPost, at);
                    Some(Place {
                        path: self.site.url_of(&Address::canonical(route)),
                        route: Route::Board {
                            board,
                            page: page + 1,
                        },
                    })
                } else if roll < 0.16 {
                    Some(self.place(Route::Portal))
                } else if roll < 0.18 {
                    Some(self.place(Route::Login { next: None }))
                } else {
                    self.thread_on_board_page(board, page, at, random)
                        .map(|thread| self.place(Route::Thread { thread, page: 1 }))
                }
            }
            Route::Thread { thread, page } => {
                let pages = self.site.thread_pages(thread, at).max(1);
                if random.chance(0.05) {
                    let per_page = self.site.posts_per_page() as usize;
                    let posts = history.thread_posts_at(thread, at);
                    let shown = posts
                        .iter()
                        .skip((page as usize - 1) * per_page)
                        .take(per_page)
                        .copied()
                        .collect::<Vec<u32>>();
                    let post = *random.pick(if shown.is_empty() { posts } else { &shown });
                    let user = history.post(post)?.author;
                    Some(self.place(Route::Profile { user }))
                } else if page < pages && random.chance(0.5) {
                    Some(self.place(Route::Thread {
                        thread,
                        page: page + 1,
                    }))
                } else if page == 1 && pages > 2 && random.chance(0.3) {
                    Some(self.place(Route::Thread {
                        thread,
                        page: pages,
                    }))
                } else {
                    let board = history.thread(thread)?.board;
                    Some(self.place(Route::Board { board, page: 1 }))
                }
            }
            Route::Search { page } => {
                if random.chance(0.2) {
                    Some(self.place(Route::Search { page: page + 1 }))
                } else {
                    self.recently_active_thread(at, random)
                        .map(|thread| self.place(Route::Thread { thread, page: 1 }))
                }
            }
            // Logging in returns to the page the reader was on.
            Route::Login { .. } => Some(previous.clone()),
            Route::Profile { .. } | Route::MemberList { .. } => Some(self.place(Route::Portal)),
            _ => None,
        }
    }

    /// A board, busier boards (more threads listed) more often.
    fn busy_board(&self, at: i64, random: &mut Random) -> Option<u32> {
        let boards = self.site.history().board_count();
        let weights: Vec<f64> = (1..=boards)
            .map(|board| {
                1.0 + self
                    .site
                    .board_listing(board, SortOrder::LastPost, at)
                    .len() as f64
            })
            .collect();
        (boards > 0).then(|| random.weighted(&cumulative(&weights)) as u32 + 1)
    }

    /// A thread listed on a board page, the top of the list (the latest activity) much more
    /// often than the bottom.
    fn thread_on_board_page(
        &self,
        board: u32,
        page: u32,
        at: i64,
        random: &mut Random,
    ) -> Option<u32> {
        let per_page = self.site.family().profile().threads_per_page as usize;
        let listing = self.site.board_listing(board, SortOrder::LastPost, at);
        let mut shown: Vec<u32> = listing
            .iter()
            .skip((page as usize - 1) * per_page)
            .take(per_page)
            .copied()
            .collect();
        if page == 1 {
            shown.extend(self.site.board_stickies(board, at));
        }
        if shown.is_empty() {
            return None;
        }
        let weights: Vec<f64> = (0..shown.len())
            .map(|position| 1.0 / (1.0 + position as f64))
            .collect();
        Some(shown[random.weighted(&cumulative(&weights))])
    }

    /// One of the twenty threads with the latest posts across the forum.
    fn recently_active_thread(&self, at: i64, random: &mut Random) -> Option<u32> {
        let mut latest: Vec<(i64, u32)> = (1..=self.site.history().board_count())
            .flat_map(|board| {
                self.site
                    .board_listing(board, SortOrder::LastPost, at)
                    .iter()
                    .take(20)
                    .copied()
                    .collect::<Vec<u32>>()
            })
            .filter_map(|thread| Some((self.site.last_post_at(thread, at)?.1, thread)))
            .collect();
        latest.sort_unstable_by(|a, b| b.cmp(a));
        latest.truncate(20);
        (!latest.is_empty()).then(|| random.pick(&latest).1)
    }

    /// Any thread existing at `at`, as a search engine would send a reader to it.
    fn any_thread(&self, at: i64, random: &mut Random) -> Option<u32> {
        let count = self.site.history().threads_up_to(at);
        (count > 0).then(|| random.below(u64::from(count)) as u32 + 1)
    }
}
