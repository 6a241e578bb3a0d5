//! Opening a crawl: a new one begins with the strategy its caller makes, a stored one is rebuilt
//! exactly where its store says it stood.

use trawl_crawl::{CrawlStrategy, Crawler};
use trawl_learn::plan::Plan;
use trawl_model::{Clock, CookieJarFetcher, Fetcher};
use trawl_store::{CrawlSettings, FrontierEntry, SampledPage, Store};
use trawl_watch::stored::resume_crawler;
use url::Url;

use crate::RunError;
use crate::order::{CrawlOrder, settled_order};

/// Names of the strategies in a store's settings.
pub const PLAN_STRATEGY: &str = "plan";
/// The breadth-first baseline.
pub const BREADTH_FIRST_STRATEGY: &str = "bfs";

/// A crawler ready to go on, and whether it goes on from an earlier run.
#[derive(Debug)]
pub struct OpenedCrawl {
    /// The crawler.
    pub crawler: Crawler,
    /// Pages the store held already.
    pub resumed_pages: usize,
    /// The order the crawl's frontier follows: the one the crawl began with when resumed.
    pub order: CrawlOrder,
    /// The pages kept while sampling to learn the crawl's plan that the crawl has not used yet
    /// (the store lets each go with the page of its URL): offered to a
    /// [`crate::SampledAnswers`], they answer the crawl's first requests for their URLs instead
    /// of the forum, for a new crawl and for one resumed after a kill alike.
    pub sampled: Vec<SampledPage>,
}

/// The strategy the crawl in `store` was started with (`settings` are the store's): breadth-first,
/// or the stored plan.
pub fn stored_strategy(store: &Store, settings: &CrawlSettings) -> Result<CrawlStrategy, RunError> {
    let location = || store.location().to_string();
    Ok(match settings.strategy.as_str() {
        BREADTH_FIRST_STRATEGY => CrawlStrategy::BreadthFirst,
        PLAN_STRATEGY => {
            let text = settings
                .plan_json
                .as_deref()
                .ok_or_else(|| RunError::PlanMissing {
                    location: location(),
                })?;
            let plan = Plan::from_json(text).map_err(|source| RunError::PlanUnusable {
                location: location(),
                source,
            })?;
            CrawlStrategy::Plan(Box::new(plan))
        }
        other => {
            return Err(RunError::UnknownStrategy {
                location: location(),
                name: other.to_string(),
            });
        }
    })
}

/// Builds the crawler for the crawl held in `store`, or begins a new one with the strategy that
/// `new_strategy` makes (called only for a new crawl, so a resumed crawl never learns again).
/// `asked_order` is the frontier order the command names, if any: a new crawl stores it (the
/// queue when none), a resumed one keeps its stored order and refuses another
/// ([`settled_order`]). The crawler comes without its priority; the caller sets it from
/// [`OpenedCrawl::order`].
pub fn open_crawl<F: Fetcher, E: From<RunError>>(
    store: &mut Store,
    portal: &Url,
    fetcher: &CookieJarFetcher<F>,
    clock: &dyn Clock,
    asked_order: Option<CrawlOrder>,
    new_strategy: impl FnOnce() -> Result<CrawlStrategy, E>,
) -> Result<OpenedCrawl, E> {
    if let Some(settings) = store.settings().map_err(RunError::from)? {
        return Ok(resume(store, portal, fetcher, settings, asked_order)?);
    }
    let order = asked_order.unwrap_or(CrawlOrder::Queue);
    let strategy = new_strategy()?;
    let (name, plan_json) = match &strategy {
        CrawlStrategy::BreadthFirst => (BREADTH_FIRST_STRATEGY, None),
        CrawlStrategy::Plan(plan) => (PLAN_STRATEGY, Some(plan.to_json())),
    };
    store
        .begin_crawl(
            &CrawlSettings {
                portal: portal.to_string(),
                strategy: name.to_string(),
                plan_json,
                plan_generation: 0,
                started_at: clock.now(),
                order: Some(order.name().to_string()),
                patterns_json: order.patterns_json().map(str::to_string),
            },
            &FrontierEntry {
                url: portal.to_string(),
                depth: 0,
                redirects: 0,
            },
        )
        .map_err(RunError::from)?;
    // Cookies the sampler collected belong to this crawl from its first fetch on.
    store
        .save_cookies(&fetcher.cookies())
        .map_err(RunError::from)?;
    Ok(OpenedCrawl {
        crawler: Crawler::new(portal.clone(), strategy),
        resumed_pages: 0,
        order,
        sampled: store.samples().map_err(RunError::from)?,
    })
}

/// The crawl `store` holds (whose `settings` are read), rebuilt where it stood.
fn resume<F: Fetcher>(
    store: &mut Store,
    portal: &Url,
    fetcher: &CookieJarFetcher<F>,
    settings: CrawlSettings,
    asked_order: Option<CrawlOrder>,
) -> Result<OpenedCrawl, RunError> {
    let location = store.location();
    if settings.portal != portal.as_str() {
        return Err(RunError::OtherPortal {
            location: location.to_string(),
            stored: settings.portal,
            asked: portal.to_string(),
        });
    }
    let strategy = stored_strategy(store, &settings)?;
    let stored_order = settings
        .order
        .as_deref()
        .map(|name| CrawlOrder::from_stored(&location, name, settings.patterns_json.as_deref()))
        .transpose()?;
    let (order, record) = settled_order(&location, stored_order, asked_order)?;
    if record {
        store.record_order(order.name(), order.patterns_json())?;
    }
    fetcher.set_cookies(store.cookies()?);
    let crawler = resume_crawler(store, portal, strategy)?;
    // A run killed before its crawl took every sample leaves the rest in the store; the
    // resumed crawl answers from them as the killed one would have.
    Ok(OpenedCrawl {
        resumed_pages: crawler.fetched(),
        crawler,
        order,
        sampled: store.samples()?,
    })
}

#[cfg(test)]
mod tests {
    use jiff::Timestamp;
    use trawl_model::{FetchError, FetchRequest, FetchResponse, FixedClock};

    use super::*;

    /// A forum that never answers: opening a crawl fetches nothing.
    struct Unreachable;

    impl Fetcher for Unreachable {
        fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
            Err(FetchError::Connection {
                url: request.url.clone(),
                reason: "no forum here".into(),
            })
        }
    }

    fn sampled(url: &str) -> SampledPage {
        SampledPage {
            url: url.into(),
            status: 200,
            headers: Vec::new(),
            body: url.as_bytes().to_vec(),
            fetched_at: Some(Timestamp::from_second(1_700_000_000).unwrap()),
        }
    }

    /// Opens the crawl of `http://forum.test/` in a new file holding `kept` samples, then once
    /// more (as after a kill before any page was stored); returns the samples each opening
    /// handed over and the samples left in the store.
    fn open_twice(kept: &[&str]) -> (Vec<SampledPage>, Vec<SampledPage>, Vec<SampledPage>) {
        let path = std::env::temp_dir().join(format!(
            "trawl-run-open-{}-{}.db",
            kept.len(),
            std::process::id()
        ));
        trawl_store::remove_database_files(&path);
        let mut store = Store::open(&path).unwrap();
        for url in kept {
            store.save_sample(&sampled(url)).unwrap();
        }
        let portal = Url::parse("http://forum.test/").unwrap();
        let fetcher = CookieJarFetcher::new(Unreachable);
        let clock = FixedClock::new(Timestamp::from_second(1_700_000_100).unwrap());
        let mut open = || {
            open_crawl(&mut store, &portal, &fetcher, &clock, None, || {
                Ok::<_, RunError>(CrawlStrategy::BreadthFirst)
            })
            .unwrap()
            .sampled
        };
        let first = open();
        let second = open();
        let left = store.samples().unwrap();
        drop(store);
        trawl_store::remove_database_files(&path);
        (first, second, left)
    }

    #[test]
    fn a_new_crawl_and_a_resumed_one_are_handed_the_samples_no_page_has_used() {
        let (first, second, left) = open_twice(&["http://forum.test/", "http://forum.test/b/1"]);
        let kept = [
            sampled("http://forum.test/"),
            sampled("http://forum.test/b/1"),
        ];
        assert_eq!(first, kept);
        assert_eq!(
            second, kept,
            "a crawl resumed before storing a page takes them all"
        );
        assert_eq!(left, kept, "they stay until pages of their URLs are stored");
    }

    #[test]
    fn a_crawl_that_never_sampled_takes_nothing() {
        let (first, second, left) = open_twice(&[]);
        assert!(first.is_empty() && second.is_empty() && left.is_empty());
    }
}
