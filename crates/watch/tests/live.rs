//! The watch live: a simulated forum served over loopback HTTP on an accelerated clock, crawled
//! into a store, then watched through the real fetch stack (robots.txt read, no pacing) for a
//! simulated 30 hours, killed once with a page in flight and started again on the same
//! store. Every post the forum's truth says was written is checked against the store: when it
//! was written, when the watch stored it.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use trawl_fetch::{FetchConfig, PolitenessOptions};
use trawl_model::{AcceleratedClock, Clock, CookieJarFetcher};
use trawl_schedule::Lists;
use trawl_sim::{FamilyName, Scale, Site, SiteConfig};
use trawl_sim_server::SimServer;
use trawl_store::Store;
use trawl_watch::{Watch, WatchConfig, WatchHooks, WatchStatus};

mod common;
use common::{crawl_into, stored_posts};
use url::Url;

const DAY: i64 = 86_400;
const HOUR: i64 = 3600;

/// Simulated seconds per real second: a simulated day in 20 s.
const FACTOR: f64 = 4320.0;

/// Fetches a day: a small forum writes about a hundred posts a day on five boards.
const BUDGET: u32 = 1000;

fn timestamp(second: i64) -> Timestamp {
    Timestamp::from_second(second).unwrap()
}

/// Waits on the accelerated clock and stops the run at an instant.
struct Until {
    factor: f64,
    end: i64,
}

impl WatchHooks for Until {
    fn wait_until(&mut self, clock: &dyn Clock, at: Timestamp) -> ControlFlow<()> {
        loop {
            let now = clock.now().as_second();
            if now >= self.end {
                return ControlFlow::Break(());
            }
            let left = at.as_second().min(self.end) - now;
            if left <= 0 {
                return ControlFlow::Continue(());
            }
            std::thread::sleep(
                Duration::from_secs_f64(left as f64 / self.factor).min(Duration::from_millis(200)),
            );
        }
    }
}

/// Waits as [`Until`], but stops the run only at the first fetch past the end, dropping that
/// page unstored: a kill with a page in flight.
struct KillPastEnd<'clock> {
    inner: Until,
    clock: &'clock dyn Clock,
    killed_url: Option<String>,
}

impl WatchHooks for KillPastEnd<'_> {
    fn wait_until(&mut self, clock: &dyn Clock, at: Timestamp) -> ControlFlow<()> {
        // Never stops while waiting: the run must be stopped with a page in flight.
        let end = self.inner.end;
        self.inner.end = i64::MAX;
        let flow = self.inner.wait_until(clock, at);
        self.inner.end = end;
        flow
    }

    fn fetched(&mut self, url: &str) -> ControlFlow<()> {
        if self.clock.now().as_second() >= self.inner.end {
            self.killed_url = Some(url.to_string());
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// What the scheduler knows of every list, in an order that does not depend on how it was
/// built, for comparing a scheduler rebuilt from the store with the one that was killed.
fn digest(lists: &Lists) -> Vec<String> {
    let mut lines: Vec<String> = lists
        .iter()
        .map(|state| {
            format!(
                "{:?} {:?} board {:?} pages {} per page {} seen {:?} times {:?} visits {} \
                 news {} last visit {:?} listed {:?}/{:?} unseen {:?}",
                state.id,
                state.kind,
                state.board,
                state.page_count,
                state.records_per_page,
                state.pages,
                state.record_times,
                state.visits,
                state.visits_with_news,
                state.last_visit,
                state.listed_last_post_at,
                state.listed_replies,
                state.unseen_activity_since,
            )
        })
        .collect();
    lines.sort();
    lines
}

#[test]
fn a_watch_over_http_stores_new_posts_soon_loses_none_and_resumes_after_a_kill() {
    let site = Arc::new(Site::build(SiteConfig::new(
        FamilyName::parse("phpbb").unwrap(),
        3,
        Scale::Small,
    )));
    let history = site.history();
    // The middle of the forum's 45 days, where it writes about 60 posts a day.
    let origin_instant = history.start + 25 * DAY;
    let clock: Arc<dyn Clock> = Arc::new(AcceleratedClock::new(timestamp(origin_instant), FACTOR));
    let server = SimServer::start(Arc::clone(&site), Arc::clone(&clock), "127.0.0.1:0", 2)
        .expect("the server starts");
    let origin = server.origin();
    let portal = Url::parse(&format!("{origin}{}", site.portal_path())).unwrap();
    let directory = std::env::temp_dir().join(format!("trawl-watch-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let db = directory.join("crawl.db");
    let mut store = Store::open(&db).unwrap();
    let crawl_start = clock.now().as_second();
    let crawl_end = crawl_into(&mut store, &site, &origin, clock.as_ref());
    let crawled_pages = store.page_count().unwrap();

    let config = FetchConfig {
        politeness: PolitenessOptions::off(),
        ..FetchConfig::default()
    };
    let kill_at = crawl_end + 12 * HOUR;
    let end = kill_at + 18 * HOUR;

    // The first run, killed with a page in flight.
    let fetcher = CookieJarFetcher::new(config.build());
    let (killed_digest, killed_status, killed_url, owed_at_open) = {
        let mut watch = Watch::open(
            &mut store,
            &fetcher,
            clock.as_ref(),
            &portal,
            WatchConfig::new("trawl", BUDGET),
        )
        .unwrap();
        assert!(
            watch.owed().len() < 20,
            "a complete crawl owes little: {:?}",
            watch.owed()
        );
        let owed_at_open = watch.owed().len();
        let mut hooks = KillPastEnd {
            inner: Until {
                factor: FACTOR,
                end: kill_at,
            },
            clock: clock.as_ref(),
            killed_url: None,
        };
        let status = watch.run(&mut hooks).unwrap();
        (
            digest(watch.scheduler().lists()),
            status,
            hooks.killed_url.expect("the run was killed in flight"),
            owed_at_open,
        )
    };
    // Every fetch but the one in flight is in the store.
    assert_eq!(
        store.page_count().unwrap(),
        crawled_pages + killed_status.fetched,
        "the page in flight ({killed_url}) alone is not stored"
    );

    // The second run, on the same store: the scheduler rebuilt from it knows what the killed
    // one knew.
    let fetcher = CookieJarFetcher::new(config.build());
    let mut watch = Watch::open(
        &mut store,
        &fetcher,
        clock.as_ref(),
        &portal,
        WatchConfig::new("trawl", BUDGET),
    )
    .unwrap();
    let rebuilt_digest = digest(watch.scheduler().lists());
    let only_killed: Vec<&String> = killed_digest
        .iter()
        .filter(|line| !rebuilt_digest.contains(line))
        .collect();
    let only_rebuilt: Vec<&String> = rebuilt_digest
        .iter()
        .filter(|line| !killed_digest.contains(line))
        .collect();
    assert!(
        only_killed.is_empty() && only_rebuilt.is_empty(),
        "the killed run knew {only_killed:#?}\nthe rebuilt one {only_rebuilt:#?}"
    );
    let owed_after_kill = watch.owed().len();
    let mut hooks = Until {
        factor: FACTOR,
        end,
    };
    let resumed_status: WatchStatus = watch.run(&mut hooks).unwrap();
    drop(watch);

    // Against the truth: every post written from the crawl's start on, when it was stored.
    let stored = stored_posts(&store);
    // Posts of the last hour may still wait for their board's next poll.
    let settle = HOUR;
    let mut delays: Vec<i64> = Vec::new();
    let mut missing: Vec<(u32, i64)> = Vec::new();
    for post in 1..=history.post_count() {
        let written = history.post(post).unwrap().created;
        if written < crawl_start || written >= end - settle {
            continue;
        }
        match stored.get(&post) {
            Some(&at) => delays.push(at - written),
            None => missing.push((post, written)),
        }
    }
    // Posts written before the crawl: the crawl and the watch together hold every one.
    let older_missing = (1..=history.post_count())
        .filter(|&post| history.post(post).unwrap().created < crawl_start)
        .filter(|post| !stored.contains_key(post))
        .count();
    delays.sort_unstable();
    let mean = delays.iter().sum::<i64>() as f64 / delays.len().max(1) as f64;
    let p95 = delays
        .get((delays.len() * 95 / 100).min(delays.len().saturating_sub(1)))
        .copied()
        .unwrap_or(0);
    eprintln!(
        "crawl {crawled_pages} pages ({} simulated min); watch: {} + {} fetches, {} posts \
         written after the crawl began stored with mean delay {:.1} min, p95 {:.1} min, max \
         {:.1} min; {} missing; {} older missing; {owed_after_kill} owed after the kill",
        (crawl_end - crawl_start) / 60,
        killed_status.fetched,
        resumed_status.fetched,
        delays.len(),
        mean / 60.0,
        p95 as f64 / 60.0,
        delays.last().copied().unwrap_or(0) as f64 / 60.0,
        missing.len(),
        older_missing,
    );
    assert!(delays.len() >= 50, "the forum wrote posts to watch");
    assert!(missing.is_empty(), "posts never stored: {missing:?}");
    assert_eq!(older_missing, 0);
    // The restarted run took the killed one's plan back: it owes nothing of its own.
    assert_eq!(owed_after_kill, 0);
    // The budget, across the kill: at most 31 hourly windows planned in 30 hours (the kill
    // starts none afresh), each with its share of 1,000 a day, and the fetches the crawl owed.
    let fetches = killed_status.fetched + resumed_status.fetched;
    let allowed = f64::from(BUDGET) * 31.0 / 24.0 + owed_at_open as f64;
    assert!(
        fetches as f64 <= allowed,
        "{fetches} fetches, {allowed} allowed"
    );
    // Measured: a mean of about 5 minutes and a 95th percentile of about 16 (a simulated day
    // at 1,000 fetches); the bounds leave room for a slow machine falling behind the clock.
    assert!(mean <= 30.0 * 60.0, "mean delay {mean} s");
    assert!(p95 <= 90 * 60, "95th percentile delay {p95} s");
    server.stop();
    let _ = std::fs::remove_dir_all(&directory);
}
