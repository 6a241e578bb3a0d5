//! What the console's integration tests share: crawls of simulated forums stored in process
//! through the real learner, driver and store, a console serving them, and plain HTTP.

#![allow(dead_code)]

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

use trawl_console::{ConsoleOptions, RunningConsole};
use trawl_crawl::CrawlStrategy;
use trawl_eval::learning::{SIM_ORIGIN, learn_in_process};
use trawl_learn::traverse::Strategy;
use trawl_model::{Clock, CookieJarFetcher, FixedClock, ManualClock};
use trawl_run::{DriveOptions, RunError, drive, open_crawl};
use trawl_sim::{FamilyName, Scale, SimFetcher, Site, SiteConfig};
use trawl_store::{Store, StoreLocation};
use trawl_watch::{Watch, WatchConfig, WatchHooks};
use url::Url;

/// Pages a test crawl stops at: enough for threads of several pages, boards and gaps (the
/// frontier still holds URLs), few enough for a test.
pub const CRAWL_PAGES: usize = 250;

/// Learns `family`'s plan (seed `seed`, small scale) and crawls it into `store`, stopping at
/// [`CRAWL_PAGES`]; returns the crawl's portal URL.
pub fn crawl_into(store: &mut Store, family: FamilyName, seed: u64) -> String {
    let site = Arc::new(Site::build(SiteConfig::new(family, seed, Scale::Small)));
    let clock = FixedClock::new(jiff::Timestamp::from_second(site.history().end).unwrap());
    crawl_site_into(store, &site, seed, &clock)
}

/// Learns the site's plan and crawls it into `store` at the clock's instants, stopping at
/// [`CRAWL_PAGES`]; returns the crawl's portal URL.
fn crawl_site_into(store: &mut Store, site: &Arc<Site>, seed: u64, clock: &dyn Clock) -> String {
    let (learned, _, _) = learn_in_process(site, 200, seed, Strategy::Skeleton).unwrap();
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(site), SIM_ORIGIN));
    let portal = Url::parse(&format!("{SIM_ORIGIN}{}", site.portal_path())).unwrap();
    let mut crawler = open_crawl(store, &portal, &fetcher, clock, None, || {
        Ok::<_, RunError>(CrawlStrategy::Plan(Box::new(learned.plan)))
    })
    .unwrap()
    .crawler;
    let options = DriveOptions {
        max_pages: Some(CRAWL_PAGES),
        workers: 2,
        // The in-process fetcher keeps no delay, so nothing is gained by waiting for the
        // writes before asking for more.
        paced: false,
    };
    drive(store, &mut crawler, &fetcher, clock, options, |_| {}).unwrap();
    portal.to_string()
}

/// Hours a test watch runs: past a day, so the freshness views have two days to show.
pub const WATCH_HOURS: i64 = 30;

/// Moves the manual clock to each instant the watch waits for and stops it after
/// [`WATCH_HOURS`].
struct Until {
    clock: Arc<ManualClock>,
    end: i64,
}

impl WatchHooks for Until {
    fn wait_until(&mut self, _clock: &dyn Clock, at: jiff::Timestamp) -> ControlFlow<()> {
        if at.as_second() >= self.end {
            return ControlFlow::Break(());
        }
        if at > self.clock.now() {
            self.clock.set(at);
        }
        ControlFlow::Continue(())
    }
}

/// A crawl database file of its own for `name`: phpBB crawled 25 days into its history, while
/// people still write, then watched for [`WATCH_HOURS`] by the `trawl` policy at 1,000 fetches
/// a day, all on a manual clock.
pub fn watched_file(name: &str) -> PathBuf {
    const DAY: i64 = 86_400;
    let path = std::env::temp_dir().join(format!("trawl-console-{name}-{}.db", std::process::id()));
    trawl_store::remove_database_files(&path);
    let mut store = Store::open(&path).unwrap();
    let site = Site::build(SiteConfig::new(FamilyName::Phpbb, 3, Scale::Small));
    let start = site.history().start + 25 * DAY;
    let site = Arc::new(site);
    let clock = Arc::new(ManualClock::new(
        jiff::Timestamp::from_second(start).unwrap(),
    ));
    let portal = crawl_site_into(&mut store, &site, 3, clock.as_ref());
    let portal = Url::parse(&portal).unwrap();
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(&site), SIM_ORIGIN));
    let mut watch = Watch::open(
        &mut store,
        &fetcher,
        clock.as_ref(),
        &portal,
        WatchConfig::new("trawl", 1000),
    )
    .unwrap();
    let mut hooks = Until {
        clock: Arc::clone(&clock),
        end: start + WATCH_HOURS * 3600,
    };
    watch.run(&mut hooks).unwrap();
    path
}

/// A crawl database file of its own for `name`, crawled from phpBB once per test process.
pub fn crawled_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("trawl-console-{name}-{}.db", std::process::id()));
    trawl_store::remove_database_files(&path);
    let mut store = Store::open(&path).unwrap();
    crawl_into(&mut store, FamilyName::Phpbb, 3);
    path
}

/// A console over `location` on a free loopback port.
pub fn serve(location: StoreLocation) -> RunningConsole {
    trawl_console::start(ConsoleOptions {
        location,
        address: "127.0.0.1:0".parse().unwrap(),
        token: None,
    })
    .unwrap()
}

/// An HTTP client that follows redirects and hands back every status as an answer.
pub fn client() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// GETs `url`: (status, body).
pub fn get(agent: &ureq::Agent, url: &str) -> (u16, String) {
    let mut response = agent.get(url).call().unwrap();
    let status = response.status().as_u16();
    (status, response.body_mut().read_to_string().unwrap())
}

/// POSTs a form to `url`: (status, body).
pub fn post_form(agent: &ureq::Agent, url: &str, form: &[(&str, &str)]) -> (u16, String) {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form)
        .finish();
    let mut response = agent
        .post(url)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send(body)
        .unwrap();
    let status = response.status().as_u16();
    (status, response.body_mut().read_to_string().unwrap())
}
