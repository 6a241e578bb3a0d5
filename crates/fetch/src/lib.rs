//! Fetching for trawl: a real HTTP client, and the layers that make any fetcher a polite one.
//!
//! Everything here speaks the [`trawl_model::Fetcher`] seam: one request in, one response (or a
//! [`trawl_model::FetchError`]) out, redirects handed back rather than followed. The HTTP client
//! is one implementation; every other type is a wrapper around *any* fetcher, so the same stack
//! runs over the network and over the in-process forum simulator.
//!
//! - [`HttpFetcher`] is the client: ureq over rustls (ring provider, built-in Mozilla roots, no
//!   system OpenSSL), `Accept-Encoding: gzip, br` with the body decoded, a whole-exchange and a
//!   connect timeout, a size cap counted on the *decoded* body so a compressed bomb is refused,
//!   and a clear [`USER_AGENT`]. Response headers describe the body handed back (no stale
//!   `Content-Encoding`); the body keeps the server's charset, for `trawl_page::charset` to
//!   decode with the `<meta>` tags it can see and a transport cannot. Request headers pass
//!   through, so conditional requests work: build them with
//!   [`trawl_model::FetchRequest::with_validators_from`] and a 304 comes back as a response.
//! - [`RetryingFetcher`] asks again after connection failures, timeouts, 429 and 502–504, with
//!   exponential backoff, seeded jitter and `Retry-After` honoured up to a cap ([`RetryPolicy`]).
//! - [`RobotsFetcher`] reads each origin's robots.txt once (RFC 9309: redirects followed, 4xx
//!   means allowed, unreachable means disallowed for a while, a day's cache measured in request
//!   instants) and refuses what it forbids with [`trawl_model::FetchError::Disallowed`]. It posts
//!   each host's `Crawl-delay` on a [`HostDelays`] board.
//! - [`PoliteFetcher`] paces each host: a minimum delay of quiet between the end of one response
//!   and the start of the next request (so arrivals at the server are the delay apart whatever
//!   the network's jitter), raised to the host's `Crawl-delay`, and a cap on requests in flight
//!   ([`PolitenessOptions`], one request at a time and a second of quiet per host by default,
//!   [`PolitenessOptions::off`] for benchmarks).
//! - [`DefaultHeadersFetcher`] adds configured headers (a logged-in session's cookie) to every
//!   request; [`trawl_model::CookieJarFetcher`] keeps the cookies sites set.
//! - [`RedirectFollowingFetcher`] follows redirects with a hop limit and loop detection, for
//!   callers that want a final page. Crawlers do not use it: they see every hop, and their
//!   frontier (which never asks for a URL twice) is what bounds redirect chains when crawling.
//! - [`FetchConfig`] assembles the usual stack in one call ([`FetchConfig::build`] over HTTP,
//!   [`FetchConfig::build_over`] over any fetcher) and documents the order of the layers.
//!
//! All waiting goes through a [`Sleeper`]: [`ThreadSleeper`] really sleeps, [`VirtualSleeper`]
//! moves a virtual clock and records each wait, which is how the tests check pacing and backoff
//! without sleeping or timing anything.

mod config;
mod headers;
mod http;
mod polite;
mod redirect;
mod retry;
mod robots;
mod sleep;

pub use config::{FetchConfig, FetchStack};
pub use headers::DefaultHeadersFetcher;
pub use http::{HttpFetcher, HttpOptions, ROBOTS_TOKEN, USER_AGENT};
pub use polite::{HostDelays, PoliteFetcher, PolitenessOptions, host_key};
pub use redirect::{RedirectFollowingFetcher, follow_redirects};
pub use retry::{RetryPolicy, RetryingFetcher, retry_after};
pub use robots::{RobotsFetcher, RobotsOptions, RobotsTxt};
pub use sleep::{Sleeper, ThreadSleeper, VirtualSleeper};
