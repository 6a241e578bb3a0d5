//! The `Fetcher` seam: one request at one instant, one response.

use jiff::Timestamp;

/// One HTTP-like header, name as sent (matching is case-insensitive).
pub type Header = (String, String);

/// A request for one URL, asked at one instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchRequest {
    /// The absolute URL to fetch.
    pub url: String,
    /// When the request is made. Fetchers answer with the resource as of this instant.
    pub at: Timestamp,
    /// Extra request headers, such as `If-None-Match` for conditional requests.
    pub headers: Vec<Header>,
}

impl FetchRequest {
    /// A plain GET of `url` at instant `at`.
    pub fn new(url: impl Into<String>, at: Timestamp) -> Self {
        FetchRequest {
            url: url.into(),
            at,
            headers: Vec::new(),
        }
    }

    /// Adds a request header.
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Makes this a conditional request revalidating `previous`, an earlier answer for the same URL.
    ///
    /// The previous `ETag` becomes `If-None-Match` and the previous `Last-Modified` becomes
    /// `If-Modified-Since`, both copied verbatim: a validator is an opaque token the server minted,
    /// and re-formatting a date could make a strict server miss the match. A server that still
    /// holds the same version answers 304 with no body; the caller keeps the body it has. Headers
    /// the request already carries under either name are replaced, so revalidating twice does not
    /// send two conflicting validators. A previous answer without validators leaves the request
    /// unconditional.
    pub fn with_validators_from(mut self, previous: &FetchResponse) -> Self {
        let pairs = [
            ("etag", "If-None-Match"),
            ("last-modified", "If-Modified-Since"),
        ];
        for (response_header, request_header) in pairs {
            if let Some(value) = previous.header(response_header) {
                self.headers
                    .retain(|(name, _)| !name.eq_ignore_ascii_case(request_header));
                self.headers
                    .push((request_header.to_string(), value.to_string()));
            }
        }
        self
    }
}

/// The answer to one [`FetchRequest`]: one exchange, redirects not followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchResponse {
    /// The URL that was requested (equal to the request's URL).
    pub url: String,
    /// HTTP status code.
    pub status: u16,
    /// Response headers in the order received. A fetcher that decodes a compressed body drops
    /// the headers describing the compressed form (`Content-Encoding`, `Content-Length`), so the
    /// headers always describe [`FetchResponse::body`] as handed back.
    pub headers: Vec<Header>,
    /// The body as received after transfer decoding (and content decoding, when the fetcher asked
    /// for gzip or brotli), in whatever charset the server used.
    pub body: Vec<u8>,
    /// When the response was produced, by the fetcher's clock or the request's instant.
    pub fetched_at: Timestamp,
}

impl FetchResponse {
    /// The first header called `name`, compared without regard to ASCII case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header_name, _)| header_name.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// True for 301, 302, 303, 307 and 308 answers that name a `Location`.
    pub fn is_redirect(&self) -> bool {
        matches!(self.status, 301 | 302 | 303 | 307 | 308) && self.header("location").is_some()
    }

    /// True for a 304 answer: the version named by the request's validators is still current.
    pub fn is_not_modified(&self) -> bool {
        self.status == 304
    }
}

/// Why a fetch produced no response at all. HTTP error statuses are responses, not errors.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum FetchError {
    /// The URL could not be parsed or uses a scheme the fetcher does not speak.
    #[error("cannot fetch {url:?}: {reason}")]
    InvalidUrl {
        /// The offending URL.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The URL belongs to a host this fetcher does not serve (the simulator serves one site).
    #[error("{url} is not on a host this fetcher serves")]
    ForeignHost {
        /// The offending URL.
        url: String,
    },
    /// The connection could not be made or broke off.
    #[error("connection to {url} failed: {reason}")]
    Connection {
        /// The URL being fetched.
        url: String,
        /// The underlying cause, as text.
        reason: String,
    },
    /// No complete answer arrived in time.
    #[error("fetching {url} timed out")]
    Timeout {
        /// The URL being fetched.
        url: String,
    },
    /// The body exceeded the configured size cap.
    #[error("{url} is larger than the {limit_bytes}-byte cap")]
    TooLarge {
        /// The URL being fetched.
        url: String,
        /// The configured cap.
        limit_bytes: u64,
    },
    /// The site's robots.txt forbids this URL to this crawler, or robots.txt could not be read
    /// and the crawler must therefore assume everything is forbidden (RFC 9309). No request for
    /// the URL itself was sent.
    #[error("{url} is off limits: {reason}")]
    Disallowed {
        /// The URL that was not fetched.
        url: String,
        /// Which rule or which robots.txt failure forbids it, as text.
        reason: String,
    },
    /// A fetcher that follows redirects (only ever by explicit choice) met a longer chain than
    /// its limit allows.
    #[error("{url} redirects more than {limit} times in a row")]
    TooManyRedirects {
        /// The URL first asked for.
        url: String,
        /// The configured number of hops.
        limit: u32,
    },
    /// A fetcher that follows redirects was sent back to a URL it had already visited in the same
    /// chain.
    #[error("{url} redirects in a loop back to {target}")]
    RedirectLoop {
        /// The URL first asked for.
        url: String,
        /// The URL that came round a second time.
        target: String,
    },
}

/// Anything that can answer fetch requests: the HTTP client, the in-process simulator, a replay.
///
/// Implementations must be shareable between crawler threads.
pub trait Fetcher: Send + Sync {
    /// Performs one exchange for `request`, as of `request.at`.
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError>;
}

impl<F: Fetcher + ?Sized> Fetcher for std::sync::Arc<F> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        (**self).fetch(request)
    }
}

impl<F: Fetcher + ?Sized> Fetcher for Box<F> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        (**self).fetch(request)
    }
}

impl<F: Fetcher + ?Sized> Fetcher for &F {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        (**self).fetch(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(status: u16, headers: &[(&str, &str)]) -> FetchResponse {
        FetchResponse {
            url: "http://forum.test/".into(),
            status,
            headers: headers
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
            body: Vec::new(),
            fetched_at: Timestamp::UNIX_EPOCH,
        }
    }

    #[test]
    fn headers_match_without_case() {
        let answer = response(200, &[("Content-Type", "text/html; charset=gbk")]);
        assert_eq!(
            answer.header("content-type"),
            Some("text/html; charset=gbk")
        );
        assert_eq!(answer.header("location"), None);
    }

    /// Revalidates a previous answer with `previous_headers` from a request that already carries
    /// `request_headers`, and compares the resulting request headers.
    fn check_validators(
        previous_headers: &[(&str, &str)],
        request_headers: &[(&str, &str)],
        expected: &[(&str, &str)],
    ) {
        let previous = response(200, previous_headers);
        let mut request = FetchRequest::new("http://forum.test/", Timestamp::UNIX_EPOCH);
        for (name, value) in request_headers {
            request = request.with_header(*name, *value);
        }
        let request = request.with_validators_from(&previous);
        let got: Vec<(&str, &str)> = request
            .headers
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_str()))
            .collect();
        assert_eq!(got, expected, "previous {previous_headers:?}");
    }

    #[test]
    fn validators_come_from_the_previous_answer() {
        let date = "Wed, 21 Oct 2015 07:28:00 GMT";
        check_validators(&[], &[], &[]);
        check_validators(&[("ETag", "\"v1\"")], &[], &[("If-None-Match", "\"v1\"")]);
        check_validators(
            &[("Last-Modified", date)],
            &[],
            &[("If-Modified-Since", date)],
        );
        check_validators(
            &[("etag", "W/\"7\""), ("last-modified", date)],
            &[("Accept", "text/html")],
            &[
                ("Accept", "text/html"),
                ("If-None-Match", "W/\"7\""),
                ("If-Modified-Since", date),
            ],
        );
        check_validators(
            &[("ETag", "\"new\"")],
            &[("if-none-match", "\"old\"")],
            &[("If-None-Match", "\"new\"")],
        );
        check_validators(
            &[("Content-Type", "text/html")],
            &[("If-None-Match", "\"kept\"")],
            &[("If-None-Match", "\"kept\"")],
        );
    }

    #[test]
    fn not_modified_is_status_304() {
        assert!(response(304, &[]).is_not_modified());
        assert!(!response(200, &[]).is_not_modified());
    }

    #[test]
    fn redirect_needs_status_and_location() {
        assert!(response(301, &[("Location", "/a")]).is_redirect());
        assert!(!response(301, &[]).is_redirect());
        assert!(!response(200, &[("Location", "/a")]).is_redirect());
    }
}
