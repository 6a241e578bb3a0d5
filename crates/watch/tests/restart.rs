//! Nothing lost on a kill, budget and timing included: a watch killed again and again with a
//! page in flight and started again on the same store makes exactly the fetches, at exactly the
//! instants, of a watch never killed, a board opened meanwhile included. The forum is simulated in process on a manual clock, so
//! both runs see the same forum at the same instants and the comparison is exact.

use std::ops::ControlFlow;
use std::sync::Arc;

use jiff::Timestamp;
use trawl_model::{Clock, CookieJarFetcher, ManualClock};
use trawl_sim::{FamilyName, Scale, SimFetcher, Site, SiteConfig};
use trawl_store::Store;
use trawl_watch::{Watch, WatchConfig, WatchHooks};
use url::Url;

mod common;
use common::crawl_into;

const DAY: i64 = 86_400;
const HOUR: i64 = 3600;
const BUDGET: u32 = 1000;
const ORIGIN: &str = "http://forum.test";

/// Moves the manual clock to each instant waited for, stops the run at `end`, and kills it
/// with a page in flight at every `kill_every`-th fetch.
struct Hooks {
    clock: Arc<ManualClock>,
    end: i64,
    kill_every: usize,
    fetches: usize,
    killed: bool,
}

impl WatchHooks for Hooks {
    fn wait_until(&mut self, _clock: &dyn Clock, at: Timestamp) -> ControlFlow<()> {
        if at.as_second() >= self.end {
            return ControlFlow::Break(());
        }
        if at > self.clock.now() {
            self.clock.set(at);
        }
        ControlFlow::Continue(())
    }

    fn fetched(&mut self, _url: &str) -> ControlFlow<()> {
        self.fetches += 1;
        if self.fetches.is_multiple_of(self.kill_every) {
            self.killed = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// Crawls the forum into a new store at the clock's instant and watches it for `hours`, killed
/// at every `kill_every`-th fetch; returns the URL and instant of every page the watch stored
/// and how many runs it took.
fn watch_with_kills(
    site: &Arc<Site>,
    start: i64,
    hours: i64,
    kill_every: usize,
    name: &str,
) -> (Vec<(String, i64)>, usize) {
    let clock = Arc::new(ManualClock::new(Timestamp::from_second(start).unwrap()));
    let directory =
        std::env::temp_dir().join(format!("trawl-watch-restart-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let mut store = Store::open(&directory.join("crawl.db")).unwrap();
    crawl_into(&mut store, site, ORIGIN, clock.as_ref());
    let crawled = store.page_count().unwrap();
    let portal = Url::parse(&format!("{ORIGIN}{}", site.portal_path())).unwrap();
    let end = clock.now().as_second() + hours * HOUR;
    let mut hooks = Hooks {
        clock: Arc::clone(&clock),
        end,
        kill_every,
        fetches: 0,
        killed: false,
    };
    let mut runs = 0;
    loop {
        let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(site), ORIGIN));
        let mut watch = Watch::open(
            &mut store,
            &fetcher,
            clock.as_ref(),
            &portal,
            WatchConfig::new("trawl", BUDGET),
        )
        .unwrap();
        runs += 1;
        hooks.killed = false;
        watch.run(&mut hooks).unwrap();
        if !hooks.killed {
            break;
        }
    }
    let mut stored = Vec::new();
    store
        .for_each_page_outline(0, &[], |page| {
            stored.push((page.record.url, page.record.fetched_at.as_second()));
        })
        .unwrap();
    drop(store);
    let _ = std::fs::remove_dir_all(&directory);
    (stored.split_off(crawled), runs)
}

#[test]
fn a_watch_killed_and_restarted_fetches_what_an_uninterrupted_one_fetches_when_it_does() {
    let site = Site::build(SiteConfig::new(
        FamilyName::parse("phpbb").unwrap(),
        3,
        Scale::Small,
    ));
    let start = site.history().start + 25 * DAY;
    // A board opens during the watch, so that the reads of the portal and the pages they
    // find are among what a restart must take back.
    let site = Arc::new(site.with_board_opened_at(4, start + 6 * HOUR));
    let (uninterrupted, runs) = watch_with_kills(&site, start, 30, usize::MAX, "whole");
    assert_eq!(runs, 1);
    // Kills 97 fetches apart fall anywhere in a window: at its start, amid its polls, amid
    // the follow-ups of a poll.
    let (killed, runs) = watch_with_kills(&site, start, 30, 97, "killed");
    assert!(runs >= 10, "{runs} runs");
    // The day's budget holds across the runs: the first day's fetches stay within it.
    let first_day = killed
        .iter()
        .filter(|(_, at)| *at < killed[0].1 + DAY)
        .count();
    assert!(
        first_day <= BUDGET as usize,
        "{first_day} fetches on the first day"
    );
    assert!(
        first_day >= BUDGET as usize * 3 / 4,
        "{first_day} fetches on the first day"
    );
    // And the restarted runs go on exactly where each killed one stood: the page in flight
    // first, every poll when it was due, no board polled again for starting afresh.
    let first_difference = uninterrupted
        .iter()
        .zip(&killed)
        .position(|(whole, killed)| whole != killed);
    assert_eq!(
        first_difference,
        None,
        "the runs part at fetch {first_difference:?}: {:?}",
        first_difference.map(|at| (&uninterrupted[at], &killed[at]))
    );
    assert_eq!(killed.len(), uninterrupted.len());
}
