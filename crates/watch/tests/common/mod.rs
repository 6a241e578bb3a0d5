//! What the watch's tests share: a crawl of a simulated forum into a store, as `trawl crawl`
//! would make it, for a watch to continue, and reading back which posts it stored.

// Each test file compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use std::ops::ControlFlow;
use std::sync::Arc;

use jiff::Timestamp;
use trawl_crawl::{CrawlStrategy, Crawler};
use trawl_learn::sample::{NO_DELAY, SampleOptions, sample_site};
use trawl_learn::traverse::Strategy;
use trawl_model::{Clock, CookieJarFetcher, FetchRequest, Fetcher, ManualClock};
use trawl_sim::{SimFetcher, Site};
use trawl_store::{CrawlSettings, FrontierEntry, Store};
use trawl_watch::WatchHooks;
use trawl_watch::stored::{failed_outcome, stored_outcome};
use url::Url;

/// Learns the forum's plan in process and crawls it into `store`, as `trawl crawl` would,
/// on the shared clock; returns the instant the crawl ended.
pub fn crawl_into(store: &mut Store, site: &Arc<Site>, origin: &str, clock: &dyn Clock) -> i64 {
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(site), origin));
    let portal = Url::parse(&format!("{origin}{}", site.portal_path())).unwrap();
    let options = SampleOptions {
        max_pages: 150,
        seed: 1,
        delay: NO_DELAY,
        ..SampleOptions::default()
    };
    let sample = sample_site(&fetcher, clock, portal.clone(), &options, |_| {}).unwrap();
    let plan = trawl_learn::learn(&portal, sample, Strategy::Skeleton).plan;
    store
        .begin_crawl(
            &CrawlSettings {
                portal: portal.to_string(),
                strategy: "plan".to_string(),
                plan_json: Some(plan.to_json()),
                plan_generation: 0,
                started_at: clock.now(),
                order: Some("queue".to_string()),
                patterns_json: None,
            },
            &FrontierEntry {
                url: portal.to_string(),
                depth: 0,
                redirects: 0,
            },
        )
        .unwrap();
    let mut crawler = Crawler::new(portal, CrawlStrategy::Plan(Box::new(plan)));
    while let Some(queued) = crawler.next_request() {
        let mut outcome = match fetcher.fetch(&FetchRequest::new(queued.url.as_str(), clock.now()))
        {
            Ok(response) => {
                let page = crawler.record(&queued, &response);
                stored_outcome(&queued, response, page)
            }
            Err(error) => {
                crawler.record_failure();
                failed_outcome(&queued, &error, clock.now())
            }
        };
        outcome.skipped = crawler.take_skipped();
        store.record_fetch(&outcome).unwrap();
    }
    store.save_cookies(&fetcher.cookies()).unwrap();
    clock.now().as_second()
}

/// The post a stored permalink names: the number after `#p` (phpBB) or `/post/` (NodeBB).
pub fn post_of_permalink(link: &str) -> Option<u32> {
    let (_, id) = link
        .rsplit_once("#p")
        .or_else(|| link.rsplit_once("/post/"))?;
    id.parse().ok()
}

/// When each stored post (by its permalink) was first stored.
pub fn stored_posts(store: &Store) -> std::collections::HashMap<u32, i64> {
    let mut first_stored = std::collections::HashMap::new();
    store
        .for_each_page_outline(0, &[], |page| {
            for post in &page.record.posts {
                if let Some(id) = post.permalink.as_deref().and_then(post_of_permalink) {
                    first_stored
                        .entry(id)
                        .or_insert(page.record.fetched_at.as_second());
                }
            }
        })
        .unwrap();
    first_stored
}

/// Moves the manual clock to each instant waited for and stops the run at `end`.
pub struct Until {
    pub clock: Arc<ManualClock>,
    pub end: i64,
}

impl WatchHooks for Until {
    fn wait_until(&mut self, _clock: &dyn Clock, at: Timestamp) -> ControlFlow<()> {
        if at.as_second() >= self.end {
            return ControlFlow::Break(());
        }
        if at > self.clock.now() {
            self.clock.set(at);
        }
        ControlFlow::Continue(())
    }
}
