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
}

/// The answer to one [`FetchRequest`]: one exchange, redirects not followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchResponse {
    /// The URL that was requested (equal to the request's URL).
    pub url: String,
    /// HTTP status code.
    pub status: u16,
    /// Response headers in the order received.
    pub headers: Vec<Header>,
    /// The body exactly as received (after transfer decoding), in whatever charset the server used.
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

    #[test]
    fn redirect_needs_status_and_location() {
        assert!(response(301, &[("Location", "/a")]).is_redirect());
        assert!(!response(301, &[]).is_redirect());
        assert!(!response(200, &[("Location", "/a")]).is_redirect());
    }
}
