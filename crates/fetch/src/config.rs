//! [`FetchConfig`]: the usual stack of layers, assembled in one call.

use std::fmt;
use std::sync::Arc;

use trawl_model::{CookieJarFetcher, FetchError, FetchRequest, FetchResponse, Fetcher, Header};

use crate::headers::DefaultHeadersFetcher;
use crate::http::{HttpFetcher, HttpOptions};
use crate::polite::{HostDelays, PoliteFetcher, PolitenessOptions};
use crate::redirect::RedirectFollowingFetcher;
use crate::retry::{RetryPolicy, RetryingFetcher};
use crate::robots::{RobotsFetcher, RobotsOptions};
use crate::sleep::{Sleeper, ThreadSleeper};

/// Everything that shapes how trawl fetches, with defaults fit for someone else's server.
///
/// [`FetchConfig::build`] stacks the layers over an [`HttpFetcher`];
/// [`FetchConfig::build_over`] stacks them over any fetcher (the in-process simulator, a replay).
/// From the outside in:
///
/// 1. [`RedirectFollowingFetcher`], only when [`FetchConfig::follow_redirects`] asks for it. Off
///    by default: crawlers follow redirects themselves. Outermost so that every hop passes every
///    layer below, robots.txt included.
/// 2. [`CookieJarFetcher`], when [`FetchConfig::cookie_jar`] is on: it must see the responses
///    the crawler sees, so it sits above the layers that may refuse or repeat a request.
/// 3. [`RobotsFetcher`]: a disallowed URL is refused here, before it waits for its turn or costs
///    a retry. Its own robots.txt requests go down through the layers below, so they are paced
///    and retried like any other.
/// 4. [`DefaultHeadersFetcher`], when [`FetchConfig::default_headers`] names any: a login
///    session's cookie or credentials.
/// 5. [`RetryingFetcher`]: each attempt is a separate request to the layer below, so retries are
///    paced too, and a host's slot is free while its retry backs off.
/// 6. [`PoliteFetcher`], innermost: every exchange that reaches the network passes it (pages,
///    robots.txt, each retry), so the per-host delay and in-flight limit hold for all traffic,
///    not only for the requests the crawler made.
/// 7. The inner fetcher.
///
/// The robots layer tells the politeness layer each host's `Crawl-delay` through a shared
/// [`HostDelays`], because the layer that reads robots.txt sits above the one that paces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchConfig {
    /// The HTTP client's limits and User-Agent (used by [`FetchConfig::build`] only).
    pub http: HttpOptions,
    /// Retrying passing failures; `None` to hand every failure back at once.
    pub retry: Option<RetryPolicy>,
    /// Obeying robots.txt; `None` to ignore it, which only the local simulator deserves.
    pub robots: Option<RobotsOptions>,
    /// Per-host pacing; [`PolitenessOptions::off`] for benchmarks.
    pub politeness: PolitenessOptions,
    /// Keeping and returning the cookies sites set (forum sessions).
    pub cookie_jar: bool,
    /// Headers sent with every request, for example `Cookie` with a logged-in session.
    pub default_headers: Vec<Header>,
    /// Follow up to this many redirects per request instead of returning them. `None` (the
    /// default) returns every 3xx, which is what crawlers want.
    pub follow_redirects: Option<u32>,
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            http: HttpOptions::default(),
            retry: Some(RetryPolicy::default()),
            robots: Some(RobotsOptions::default()),
            politeness: PolitenessOptions::default(),
            cookie_jar: true,
            default_headers: Vec::new(),
            follow_redirects: None,
        }
    }
}

impl FetchConfig {
    /// As fast as possible against a local server: no pacing, no retries, no robots.txt; cookies
    /// kept. Never for someone else's server.
    pub fn local_benchmark() -> Self {
        FetchConfig {
            retry: None,
            robots: None,
            politeness: PolitenessOptions::off(),
            ..FetchConfig::default()
        }
    }

    /// The stack over a real HTTP client, waiting with real sleeps.
    pub fn build(&self) -> FetchStack {
        self.build_over(
            HttpFetcher::new(self.http.clone()),
            Arc::new(ThreadSleeper::new()),
        )
    }

    /// The stack over `inner`, waiting through `sleeper`.
    pub fn build_over<F: Fetcher + 'static>(
        &self,
        inner: F,
        sleeper: Arc<dyn Sleeper>,
    ) -> FetchStack {
        let crawl_delays = Arc::new(HostDelays::new());
        let mut layers = vec!["polite"];
        let mut stack: Box<dyn Fetcher> = Box::new(PoliteFetcher::new(
            inner,
            self.politeness.clone(),
            sleeper.clone(),
            crawl_delays.clone(),
        ));
        if let Some(policy) = &self.retry {
            stack = Box::new(RetryingFetcher::new(stack, policy.clone(), sleeper));
            layers.push("retry");
        }
        if !self.default_headers.is_empty() {
            stack = Box::new(DefaultHeadersFetcher::new(
                stack,
                self.default_headers.clone(),
            ));
            layers.push("default headers");
        }
        if let Some(options) = &self.robots {
            stack = Box::new(RobotsFetcher::new(
                stack,
                options.clone(),
                crawl_delays.clone(),
            ));
            layers.push("robots");
        }
        if self.cookie_jar {
            stack = Box::new(CookieJarFetcher::new(stack));
            layers.push("cookie jar");
        }
        if let Some(max_hops) = self.follow_redirects {
            stack = Box::new(RedirectFollowingFetcher::new(stack, max_hops));
            layers.push("redirects");
        }
        layers.reverse();
        FetchStack {
            top: stack,
            crawl_delays,
            layers,
        }
    }
}

/// The assembled stack: a [`Fetcher`] shareable between crawler threads.
pub struct FetchStack {
    top: Box<dyn Fetcher>,
    crawl_delays: Arc<HostDelays>,
    layers: Vec<&'static str>,
}

impl FetchStack {
    /// The `Crawl-delay`s read from robots.txt so far, by host.
    pub fn crawl_delays(&self) -> &HostDelays {
        &self.crawl_delays
    }

    /// The layers, outermost first, inner fetcher not named (for logs).
    pub fn layers(&self) -> &[&'static str] {
        &self.layers
    }
}

impl fmt::Debug for FetchStack {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("FetchStack")
            .field("layers", &self.layers)
            .field("crawl_delays", &self.crawl_delays)
            .finish_non_exhaustive()
    }
}

impl Fetcher for FetchStack {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        self.top.fetch(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_stack_in_the_documented_order() {
        let check = |config: FetchConfig, expected: &[&str]| {
            let stack = config.build();
            assert_eq!(stack.layers(), expected, "{config:?}");
        };
        check(
            FetchConfig::default(),
            &["cookie jar", "robots", "retry", "polite"],
        );
        check(
            FetchConfig {
                default_headers: vec![("Cookie".into(), "login=1".into())],
                follow_redirects: Some(5),
                ..FetchConfig::default()
            },
            &[
                "redirects",
                "cookie jar",
                "robots",
                "default headers",
                "retry",
                "polite",
            ],
        );
        check(FetchConfig::local_benchmark(), &["cookie jar", "polite"]);
        check(
            FetchConfig {
                cookie_jar: false,
                ..FetchConfig::local_benchmark()
            },
            &["polite"],
        );
    }
}
