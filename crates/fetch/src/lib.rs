//! The HTTP [`Fetcher`]: one GET per request, redirects handed back to the caller.
//!
//! [`HttpFetcher`] sends a clear User-Agent and the request's headers, gives up after a timeout, refuses bodies over
//! a size cap and never follows a redirect itself: the crawler decides whether a `Location` is
//! worth following, and sees every hop. Wrap it in [`trawl_model::CookieJarFetcher`] to keep the
//! session cookies a site sets. Requests carry the instant they are asked at; a response
//! records the fetcher's clock, which is the request's instant for a live fetch.

use std::time::Duration;

use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher};

/// The User-Agent trawl announces.
pub const USER_AGENT: &str = concat!(
    "trawl/",
    env!("CARGO_PKG_VERSION"),
    " (forum crawler; +https://example.invalid/trawl)"
);

/// Limits of one fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// Whole-exchange timeout.
    pub timeout: Duration,
    /// Bodies larger than this are refused.
    pub max_body_bytes: u64,
    /// Sent as `User-Agent`.
    pub user_agent: String,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            timeout: Duration::from_secs(30),
            max_body_bytes: 16 * 1024 * 1024,
            user_agent: USER_AGENT.to_string(),
        }
    }
}

/// A blocking HTTP client behind the [`Fetcher`] seam.
#[derive(Debug)]
pub struct HttpFetcher {
    agent: ureq::Agent,
    options: HttpOptions,
}

impl HttpFetcher {
    /// A fetcher with these limits.
    pub fn new(options: HttpOptions) -> HttpFetcher {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_global(Some(options.timeout))
            .user_agent(options.user_agent.as_str())
            .build()
            .into();
        HttpFetcher { agent, options }
    }
}

impl Fetcher for HttpFetcher {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let mut call = self.agent.get(&request.url);
        for (name, value) in &request.headers {
            call = call.header(name.as_str(), value.as_str());
        }
        let mut response = call
            .call()
            .map_err(|error| transport_error(&request.url, error, self.options.max_body_bytes))?;
        let status = response.status().as_u16();
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .filter_map(|(name, value)| {
                Some((name.as_str().to_string(), value.to_str().ok()?.to_string()))
            })
            .collect();
        let body = response
            .body_mut()
            .with_config()
            .limit(self.options.max_body_bytes)
            .read_to_vec()
            .map_err(|error| transport_error(&request.url, error, self.options.max_body_bytes))?;
        Ok(FetchResponse {
            url: request.url.clone(),
            status,
            headers,
            body,
            fetched_at: request.at,
        })
    }
}

fn transport_error(url: &str, error: ureq::Error, limit_bytes: u64) -> FetchError {
    match error {
        ureq::Error::BadUri(reason) => FetchError::InvalidUrl {
            url: url.to_string(),
            reason,
        },
        ureq::Error::Timeout(_) => FetchError::Timeout {
            url: url.to_string(),
        },
        ureq::Error::BodyExceedsLimit(_) => FetchError::TooLarge {
            url: url.to_string(),
            limit_bytes,
        },
        other => FetchError::Connection {
            url: url.to_string(),
            reason: other.to_string(),
        },
    }
}
