//! [`RobotsFetcher`]: robots.txt fetched once per origin and obeyed, as RFC 9309 describes.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use jiff::Timestamp;
use url::Url;

use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher};

use crate::http::ROBOTS_TOKEN;
use crate::polite::{HostDelays, host_key};
use crate::redirect::follow_redirects;

/// How robots.txt is fetched, kept and read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotsOptions {
    /// The product token matched against `User-agent` lines, [`ROBOTS_TOKEN`] by default.
    pub agent: String,
    /// How long a robots.txt that was read (or found absent) is trusted, measured in request
    /// instants. RFC 9309 §2.4 asks for no more than a day.
    pub cache_for: Duration,
    /// How long "everything disallowed" stands after robots.txt could not be read (a server
    /// error, an unreachable host) before it is asked for again.
    pub retry_unreachable_after: Duration,
    /// Redirects followed to reach robots.txt; RFC 9309 §2.3.1.2 asks for at least five.
    pub max_redirects: u32,
    /// Bytes of robots.txt parsed; the rest is ignored. RFC 9309 §2.5 asks for at least 500 KiB.
    pub max_bytes: usize,
}

impl Default for RobotsOptions {
    fn default() -> Self {
        RobotsOptions {
            agent: ROBOTS_TOKEN.to_string(),
            cache_for: Duration::from_secs(24 * 60 * 60),
            retry_unreachable_after: Duration::from_secs(10 * 60),
            max_redirects: 5,
            max_bytes: 500 * 1024,
        }
    }
}

/// What one origin's robots.txt says to this crawler.
#[derive(Debug)]
pub struct RobotsTxt {
    robots_url: String,
    agent: String,
    rules: Rules,
}

#[derive(Debug)]
enum Rules {
    /// A robots.txt was read; its rules for our agent apply.
    Parsed(texting_robots::Robot),
    /// No robots.txt applies (absent, unreadable as text, or not found through its redirects):
    /// everything is allowed.
    AllowAll { why: String },
    /// robots.txt could not be fetched: everything is disallowed until it can.
    DisallowAll { why: String },
}

impl RobotsTxt {
    /// Reads the answer to a robots.txt request (after redirects) for `agent`.
    ///
    /// RFC 9309 §2.3.1: a 2xx body is parsed (its first `max_bytes`); 4xx, 429 excepted, means
    /// there is no robots.txt and everything is allowed; 429, 5xx and anything else unexpected
    /// mean it is unreachable and everything is disallowed. A body the parser rejects allows
    /// everything, as a file with no valid rule would.
    pub fn from_response(
        robots_url: &str,
        agent: &str,
        response: &FetchResponse,
        max_bytes: usize,
    ) -> RobotsTxt {
        let rules = match response.status {
            200..=299 => {
                let text = &response.body[..response.body.len().min(max_bytes)];
                match texting_robots::Robot::new(agent, text) {
                    Ok(robot) => Rules::Parsed(robot),
                    Err(error) => Rules::AllowAll {
                        why: format!("its robots.txt could not be parsed ({error})"),
                    },
                }
            }
            429 => Rules::DisallowAll {
                why: "its robots.txt answered 429 Too Many Requests".to_string(),
            },
            400..=499 => Rules::AllowAll {
                why: format!("its robots.txt answered {}", response.status),
            },
            status => Rules::DisallowAll {
                why: format!("its robots.txt answered {status}"),
            },
        };
        RobotsTxt {
            robots_url: robots_url.to_string(),
            agent: agent.to_string(),
            rules,
        }
    }

    /// Reads a failure to fetch robots.txt. Redirect trouble means there is no robots.txt to be
    /// found (RFC 9309 §2.3.1.2 allows treating it as absent); a connection failure, a timeout or
    /// an oversized file means it is unreachable and everything is disallowed.
    pub fn from_error(robots_url: &str, agent: &str, error: &FetchError) -> RobotsTxt {
        let rules = match error {
            FetchError::TooManyRedirects { .. }
            | FetchError::RedirectLoop { .. }
            | FetchError::InvalidUrl { .. }
            | FetchError::ForeignHost { .. } => Rules::AllowAll {
                why: format!("no robots.txt could be reached: {error}"),
            },
            _ => Rules::DisallowAll {
                why: format!("its robots.txt could not be fetched: {error}"),
            },
        };
        RobotsTxt {
            robots_url: robots_url.to_string(),
            agent: agent.to_string(),
            rules,
        }
    }

    /// Where this robots.txt was asked for.
    pub fn robots_url(&self) -> &str {
        &self.robots_url
    }

    /// `Ok` if `url` may be fetched, else the reason it may not, as text for
    /// [`FetchError::Disallowed`]. robots.txt itself is always allowed.
    pub fn check(&self, url: &str) -> Result<(), String> {
        let is_robots_txt = Url::parse(url).is_ok_and(|parsed| parsed.path() == "/robots.txt");
        if is_robots_txt {
            return Ok(());
        }
        match &self.rules {
            Rules::Parsed(robot) if robot.allowed(url) => Ok(()),
            Rules::Parsed(_) => Err(format!(
                "{} disallows it for {}",
                self.robots_url, self.agent
            )),
            Rules::AllowAll { .. } => Ok(()),
            Rules::DisallowAll { why } => Err(format!(
                "{why}, so everything on {} is off limits until it can be read (RFC 9309)",
                origin_of(&self.robots_url).unwrap_or_default()
            )),
        }
    }

    /// Whether `url` may be fetched.
    pub fn allows(&self, url: &str) -> bool {
        self.check(url).is_ok()
    }

    /// The `Crawl-delay` for this agent, if the file names a usable one.
    pub fn crawl_delay(&self) -> Option<Duration> {
        match &self.rules {
            Rules::Parsed(robot) => robot
                .delay
                .and_then(|seconds| Duration::try_from_secs_f32(seconds).ok()),
            _ => None,
        }
    }

    /// The sitemaps the file lists.
    pub fn sitemaps(&self) -> &[String] {
        match &self.rules {
            Rules::Parsed(robot) => &robot.sitemaps,
            _ => &[],
        }
    }

    /// True when robots.txt was unreachable and everything is disallowed for now.
    pub fn is_unreachable(&self) -> bool {
        matches!(self.rules, Rules::DisallowAll { .. })
    }

    /// Why no rules apply, when none do (allow-all or disallow-all); `None` for a parsed file.
    pub fn why_no_rules(&self) -> Option<&str> {
        match &self.rules {
            Rules::Parsed(_) => None,
            Rules::AllowAll { why } | Rules::DisallowAll { why } => Some(why),
        }
    }
}

/// The origin of a URL, the unit robots.txt applies to (RFC 9309 §2.3): scheme, host and port,
/// serialised as `http://forum.test` or `http://127.0.0.1:8080` (default ports left out). `None`
/// for URLs with no such origin (no host, or a scheme other than http and https).
fn origin_of(url: &str) -> Option<String> {
    let parsed = Url::parse(url).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    let origin = parsed.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// A cached robots.txt and the request instant until which it is trusted.
#[derive(Debug)]
struct Kept {
    robots: Arc<RobotsTxt>,
    until: Timestamp,
}

#[derive(Debug)]
enum Slot {
    /// A thread is fetching this origin's robots.txt; others wait for it.
    Fetching,
    Known(Kept),
}

/// Refuses requests that robots.txt disallows, with [`FetchError::Disallowed`], and passes the
/// rest to the inner fetcher.
///
/// The first request to an origin fetches its `/robots.txt` through the inner fetcher (so it is
/// paced and retried like any request when the inner fetcher is the polite stack), following up
/// to [`RobotsOptions::max_redirects`] redirects. Other threads asking about the same origin
/// meanwhile wait for that one fetch. The answer is kept for [`RobotsOptions::cache_for`] of
/// request time ([`FetchRequest::at`], so a simulated year re-reads robots.txt as a real one
/// would); an unreachable robots.txt disallows everything for
/// [`RobotsOptions::retry_unreachable_after`], unless an earlier copy was read, in which case that
/// copy goes on being obeyed (RFC 9309 §2.4). Each read posts the file's `Crawl-delay` for the
/// host on the shared [`HostDelays`], where the politeness layer picks it up.
#[derive(Debug)]
pub struct RobotsFetcher<F> {
    inner: F,
    options: RobotsOptions,
    crawl_delays: Arc<HostDelays>,
    origins: Mutex<HashMap<String, Slot>>,
    fetched: Condvar,
}

impl<F: Fetcher> RobotsFetcher<F> {
    /// Wraps `inner`, posting crawl delays to `crawl_delays`.
    pub fn new(inner: F, options: RobotsOptions, crawl_delays: Arc<HostDelays>) -> Self {
        RobotsFetcher {
            inner,
            options,
            crawl_delays,
            origins: Mutex::new(HashMap::new()),
            fetched: Condvar::new(),
        }
    }

    /// The wrapped fetcher.
    pub fn inner(&self) -> &F {
        &self.inner
    }

    /// The robots.txt that governs `url` as of `at`, fetched if it is not known or has expired.
    /// `None` for a URL without an origin (no host, or a scheme with no default port), which
    /// robots.txt cannot govern.
    pub fn robots_for(&self, url: &str, at: Timestamp) -> Option<Arc<RobotsTxt>> {
        let origin = origin_of(url)?;
        let stale = {
            let mut origins = self.lock_origins();
            loop {
                match origins.get(&origin) {
                    Some(Slot::Known(kept)) if at < kept.until => {
                        return Some(kept.robots.clone());
                    }
                    Some(Slot::Fetching) => {
                        origins = self
                            .fetched
                            .wait(origins)
                            .unwrap_or_else(|poisoned| poisoned.into_inner());
                    }
                    _ => break,
                }
            }
            let stale = match origins.remove(&origin) {
                Some(Slot::Known(kept)) => Some(kept),
                _ => None,
            };
            // Only a copy that was actually read is worth falling back on; an old "unreachable"
            // verdict is not.
            let stale = stale.filter(|kept| !kept.robots.is_unreachable());
            origins.insert(origin.clone(), Slot::Fetching);
            stale
        };
        let mut pending = PendingFetch {
            fetcher: self,
            origin: origin.clone(),
            stale,
        };
        let robots = Arc::new(self.fetch_robots(&origin, at));
        let kept = if robots.is_unreachable() {
            match pending.stale.take() {
                Some(stale) => Kept {
                    robots: stale.robots,
                    until: later(at, self.options.retry_unreachable_after),
                },
                None => Kept {
                    robots,
                    until: later(at, self.options.retry_unreachable_after),
                },
            }
        } else {
            if let Some(host) = host_key(&origin) {
                self.crawl_delays.set(&host, robots.crawl_delay());
            }
            Kept {
                robots,
                until: later(at, self.options.cache_for),
            }
        };
        let answer = kept.robots.clone();
        pending.finish(kept);
        Some(answer)
    }

    /// The `Crawl-delay` known for `url`'s origin, without fetching anything.
    pub fn crawl_delay(&self, url: &str) -> Option<Duration> {
        let origin = origin_of(url)?;
        match self.lock_origins().get(&origin)? {
            Slot::Known(kept) => kept.robots.crawl_delay(),
            Slot::Fetching => None,
        }
    }

    fn fetch_robots(&self, origin: &str, at: Timestamp) -> RobotsTxt {
        let robots_url = format!("{origin}/robots.txt");
        let request = FetchRequest::new(robots_url.clone(), at);
        match follow_redirects(&self.inner, &request, self.options.max_redirects) {
            Ok(response) => RobotsTxt::from_response(
                &robots_url,
                &self.options.agent,
                &response,
                self.options.max_bytes,
            ),
            Err(error) => RobotsTxt::from_error(&robots_url, &self.options.agent, &error),
        }
    }

    fn lock_origins(&self) -> MutexGuard<'_, HashMap<String, Slot>> {
        // Slots are replaced whole, never left half written, so a poisoned lock is still sound.
        self.origins
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn later(at: Timestamp, after: Duration) -> Timestamp {
    at.checked_add(after).unwrap_or(Timestamp::MAX)
}

/// The claim of one thread on an origin's robots.txt fetch. Finishing it stores the result;
/// dropping it unfinished (the inner fetcher panicked) puts back the stale copy or nothing, so the
/// threads waiting for the fetch try again instead of waiting forever.
struct PendingFetch<'fetcher, F: Fetcher> {
    fetcher: &'fetcher RobotsFetcher<F>,
    origin: String,
    stale: Option<Kept>,
}

impl<F: Fetcher> PendingFetch<'_, F> {
    fn finish(mut self, kept: Kept) {
        self.stale = Some(kept);
    }
}

impl<F: Fetcher> Drop for PendingFetch<'_, F> {
    fn drop(&mut self) {
        let mut origins = self.fetcher.lock_origins();
        match self.stale.take() {
            Some(kept) => origins.insert(self.origin.clone(), Slot::Known(kept)),
            None => origins.remove(&self.origin),
        };
        drop(origins);
        self.fetcher.fetched.notify_all();
    }
}

impl<F: Fetcher> Fetcher for RobotsFetcher<F> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        if let Some(robots) = self.robots_for(&request.url, request.at) {
            robots
                .check(&request.url)
                .map_err(|reason| FetchError::Disallowed {
                    url: request.url.clone(),
                    reason,
                })?;
        }
        self.inner.fetch(request)
    }
}

#[cfg(test)]
mod tests;
