//! Following redirects, only where it is asked for: robots.txt, and an opt-in wrapper.
//!
//! The crawler does not use this: a fetcher answers a redirect with the 3xx response itself (see
//! `trawl_model`), and the crawler and the sampler follow `Location`s as links of their own,
//! never asking for a URL twice, which bounds every chain and makes loops impossible. The limit
//! on redirect chains for crawling therefore lives in the crawler's frontier. Fetching
//! robots.txt is different: RFC 9309 asks crawlers to follow at least five redirects for it, and
//! there is no frontier. [`RedirectFollowingFetcher`] offers the same to callers that just want a
//! final page, such as a command fetching one URL.

use url::Url;

use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher, Header};

/// Request headers that belong to the URL first asked for and must not travel to a redirect's
/// target: validators name a version of *that* resource.
const HEADERS_FOR_FIRST_URL_ONLY: [&str; 2] = ["if-none-match", "if-modified-since"];

/// Request headers carrying credentials, kept only while the chain stays on the first host.
const CREDENTIAL_HEADERS: [&str; 2] = ["cookie", "authorization"];

/// Fetches `request` through `inner`, following up to `max_hops` redirects.
///
/// Returns the first answer that is not a redirect, with `url` set to the URL that gave it. A
/// chain longer than `max_hops` fails with [`FetchError::TooManyRedirects`], one that comes back
/// to a URL already visited fails with [`FetchError::RedirectLoop`] (at once, rather than after
/// using up the limit, so the error says what happened). A redirect whose `Location` cannot be
/// resolved against its URL is handed back as it is: there is nothing to follow. Every hop is
/// asked at the request's instant; validators are dropped after the first hop and credentials
/// (`Cookie`, `Authorization`) once the chain leaves the first host.
pub fn follow_redirects<F: Fetcher + ?Sized>(
    inner: &F,
    request: &FetchRequest,
    max_hops: u32,
) -> Result<FetchResponse, FetchError> {
    let first_host = Url::parse(&request.url)
        .ok()
        .and_then(|url| url.host_str().map(str::to_ascii_lowercase));
    let mut visited = vec![request.url.clone()];
    let mut current = request.clone();
    let mut hops = 0;
    loop {
        let response = inner.fetch(&current)?;
        if !response.is_redirect() {
            return Ok(response);
        }
        let Some(target) = redirect_target(&current.url, &response) else {
            return Ok(response);
        };
        if hops == max_hops {
            return Err(FetchError::TooManyRedirects {
                url: request.url.clone(),
                limit: max_hops,
            });
        }
        if visited.contains(&target.to_string()) {
            return Err(FetchError::RedirectLoop {
                url: request.url.clone(),
                target: target.to_string(),
            });
        }
        let same_host =
            first_host.is_some() && target.host_str().map(str::to_ascii_lowercase) == first_host;
        let headers: Vec<Header> = request
            .headers
            .iter()
            .filter(|(name, _)| {
                let name = name.to_ascii_lowercase();
                !HEADERS_FOR_FIRST_URL_ONLY.contains(&name.as_str())
                    && (same_host || !CREDENTIAL_HEADERS.contains(&name.as_str()))
            })
            .cloned()
            .collect();
        visited.push(target.to_string());
        current = FetchRequest {
            url: target.to_string(),
            at: request.at,
            headers,
        };
        hops += 1;
    }
}

/// The absolute URL a redirect points to, without its fragment (never sent to a server).
fn redirect_target(from: &str, response: &FetchResponse) -> Option<Url> {
    let location = response.header("location")?.trim();
    let mut target = Url::parse(from).ok()?.join(location).ok()?;
    target.set_fragment(None);
    matches!(target.scheme(), "http" | "https").then_some(target)
}

/// A fetcher that follows redirects, for callers that want the final page and not the hops.
///
/// Opt-in only: the crawling stack never includes it (see the module notes). The response's
/// `url` is the URL that finally answered, which is what such a caller needs to resolve the
/// page's relative links.
#[derive(Debug)]
pub struct RedirectFollowingFetcher<F> {
    inner: F,
    max_hops: u32,
}

impl<F: Fetcher> RedirectFollowingFetcher<F> {
    /// Wraps `inner`, following at most `max_hops` redirects per request.
    pub fn new(inner: F, max_hops: u32) -> Self {
        RedirectFollowingFetcher { inner, max_hops }
    }

    /// The wrapped fetcher.
    pub fn inner(&self) -> &F {
        &self.inner
    }
}

impl<F: Fetcher> Fetcher for RedirectFollowingFetcher<F> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        follow_redirects(&self.inner, request, self.max_hops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::sync::Mutex;
    use trawl_model::Timestamp;

    /// Answers from a table of URL → (status, Location) and logs the requests it saw.
    #[derive(Debug)]
    struct Table {
        answers: HashMap<String, (u16, Option<String>)>,
        seen: Mutex<Vec<FetchRequest>>,
    }

    impl Table {
        fn new(rows: &[(&str, u16, Option<&str>)]) -> Self {
            Table {
                answers: rows
                    .iter()
                    .map(|(url, status, location)| {
                        (
                            url.to_string(),
                            (*status, location.map(|location| location.to_string())),
                        )
                    })
                    .collect(),
                seen: Mutex::new(Vec::new()),
            }
        }
    }

    impl Fetcher for Table {
        fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
            self.seen.lock().unwrap().push(request.clone());
            let (status, location) = self
                .answers
                .get(&request.url)
                .cloned()
                .unwrap_or((404, None));
            Ok(FetchResponse {
                url: request.url.clone(),
                status,
                headers: location
                    .map(|location| vec![("Location".to_string(), location)])
                    .unwrap_or_default(),
                body: Vec::new(),
                fetched_at: request.at,
            })
        }
    }

    /// Follows from `http://a.test/start` through `rows` with `max_hops` and compares the
    /// outcome: the final URL and status, or the error's text.
    fn check(
        rows: &[(&str, u16, Option<&str>)],
        max_hops: u32,
        expected: Result<(&str, u16), &str>,
    ) {
        let table = Table::new(rows);
        let request = FetchRequest::new("http://a.test/start", Timestamp::UNIX_EPOCH);
        let got = follow_redirects(&table, &request, max_hops);
        match (got, expected) {
            (Ok(response), Ok((url, status))) => {
                assert_eq!((response.url.as_str(), response.status), (url, status));
            }
            (Err(error), Err(text)) => assert_eq!(error.to_string(), text),
            (got, expected) => panic!("got {got:?}, expected {expected:?}"),
        }
    }

    #[test]
    fn chains_are_followed_within_their_limit() {
        check(
            &[("http://a.test/start", 200, None)],
            5,
            Ok(("http://a.test/start", 200)),
        );
        check(
            &[
                ("http://a.test/start", 301, Some("/next")),
                ("http://a.test/next", 302, Some("https://b.test/final#top")),
                ("https://b.test/final", 200, None),
            ],
            5,
            Ok(("https://b.test/final", 200)),
        );
        // A 3xx without Location, or with one that is not http(s), is an answer, not a hop.
        check(
            &[("http://a.test/start", 302, None)],
            5,
            Ok(("http://a.test/start", 302)),
        );
        check(
            &[("http://a.test/start", 302, Some("mailto:x@a.test"))],
            5,
            Ok(("http://a.test/start", 302)),
        );
        check(
            &[
                ("http://a.test/start", 302, Some("/1")),
                ("http://a.test/1", 302, Some("/2")),
                ("http://a.test/2", 200, None),
            ],
            2,
            Ok(("http://a.test/2", 200)),
        );
        check(
            &[
                ("http://a.test/start", 302, Some("/1")),
                ("http://a.test/1", 302, Some("/2")),
                ("http://a.test/2", 200, None),
            ],
            1,
            Err("http://a.test/start redirects more than 1 times in a row"),
        );
        check(
            &[("http://a.test/start", 302, Some("/1"))],
            0,
            Err("http://a.test/start redirects more than 0 times in a row"),
        );
        check(
            &[
                ("http://a.test/start", 302, Some("/1")),
                ("http://a.test/1", 302, Some("/start")),
            ],
            10,
            Err("http://a.test/start redirects in a loop back to http://a.test/start"),
        );
    }

    #[test]
    fn validators_stay_behind_and_credentials_stay_home() {
        let table = Table::new(&[
            ("http://a.test/start", 302, Some("/same")),
            ("http://a.test/same", 302, Some("http://b.test/other")),
            ("http://b.test/other", 200, None),
        ]);
        let request = FetchRequest::new("http://a.test/start", Timestamp::UNIX_EPOCH)
            .with_header("If-None-Match", "\"v1\"")
            .with_header("Cookie", "sid=1")
            .with_header("Accept-Language", "en");
        follow_redirects(&table, &request, 5).unwrap();
        let names: Vec<Vec<String>> = table
            .seen
            .lock()
            .unwrap()
            .iter()
            .map(|seen| seen.headers.iter().map(|(name, _)| name.clone()).collect())
            .collect();
        assert_eq!(
            names,
            vec![
                vec!["If-None-Match", "Cookie", "Accept-Language"],
                vec!["Cookie", "Accept-Language"],
                vec!["Accept-Language"],
            ]
        );
    }
}
