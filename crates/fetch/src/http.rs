//! [`HttpFetcher`]: one GET over real HTTP or HTTPS, nothing followed, nothing retried.

use std::io::Read;
use std::time::Duration;

use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher, Header};

/// The User-Agent trawl announces: product token, version, what it is and where to read more.
pub const USER_AGENT: &str = concat!(
    "trawl/",
    env!("CARGO_PKG_VERSION"),
    " (forum crawler; +https://example.invalid/trawl)"
);

/// The product token robots.txt groups are matched against (RFC 9309 §2.2.1): the User-Agent's
/// first word without its version.
pub const ROBOTS_TOKEN: &str = "trawl";

/// Limits of one exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// Whole-exchange timeout: resolving, connecting, sending and receiving the whole body.
    pub timeout: Duration,
    /// Timeout for opening the connection (TCP and TLS), shorter than the whole exchange so a
    /// dead host is given up on quickly while a slow large page still has time to arrive.
    pub connect_timeout: Duration,
    /// Bodies larger than this, counted after gzip or brotli decoding and also on the wire, are
    /// refused with [`FetchError::TooLarge`].
    pub max_body_bytes: u64,
    /// Sent as `User-Agent` unless a request names its own.
    pub user_agent: String,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_body_bytes: 16 * 1024 * 1024,
            user_agent: USER_AGENT.to_string(),
        }
    }
}

/// A blocking HTTP/1.1 client behind the [`Fetcher`] seam.
///
/// It speaks HTTPS through rustls (ring provider, Mozilla's root certificates built in), asks for
/// `gzip, br` and decodes either, and keeps connections alive between requests to one host.
/// Each call is exactly one exchange: a 3xx comes back as a response with its `Location`, and
/// every status (404, 503, ...) is a response, never an error.
///
/// The response's headers describe the body handed back: when the body was decoded from gzip
/// or brotli, `Content-Encoding` and `Content-Length` (which describe the compressed bytes) are
/// removed, and `Transfer-Encoding` is always removed because the body is de-chunked. Every other
/// header, `Content-Type` with its `charset` parameter included, is passed on untouched, and the
/// body's bytes are left in the server's charset: charset decoding needs the `<meta>` tags and
/// a detector as well as the header, which is `trawl_page::charset`'s work, not a transport's.
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
            .timeout_connect(Some(options.connect_timeout))
            .user_agent(options.user_agent.as_str())
            .build()
            .into();
        HttpFetcher { agent, options }
    }

    /// The limits it was made with.
    pub fn options(&self) -> &HttpOptions {
        &self.options
    }

    fn read_body(
        &self,
        url: &str,
        response: &mut ureq::http::Response<ureq::Body>,
    ) -> Result<Vec<u8>, FetchError> {
        let cap = self.options.max_body_bytes;
        let too_large = || FetchError::TooLarge {
            url: url.to_string(),
            limit_bytes: cap,
        };
        // ureq's own limit counts the bytes *before* decompression, so on its own it would let a
        // small gzip bomb expand to gigabytes. It stays on as a cap on the wire (one byte over
        // the cap, because ureq refuses the read that finds the end of a body exactly at its
        // limit), and the decoded stream is cut one byte past the cap so that an oversized body
        // is detected without ever holding more than the cap plus one byte.
        let reader = response
            .body_mut()
            .with_config()
            .limit(cap.saturating_add(1))
            .reader();
        let mut body = Vec::new();
        match reader.take(cap.saturating_add(1)).read_to_end(&mut body) {
            Ok(_) if body.len() as u64 > cap => Err(too_large()),
            Ok(_) => Ok(body),
            Err(error) => Err(transport_error(url, ureq::Error::from(error), cap)),
        }
    }
}

impl Default for HttpFetcher {
    fn default() -> Self {
        HttpFetcher::new(HttpOptions::default())
    }
}

impl Fetcher for HttpFetcher {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let target = url_to_send(&request.url)?;
        let mut call = self.agent.get(target.as_str());
        for (name, value) in &request.headers {
            call = call.header(name.as_str(), value.as_str());
        }
        let mut response = call
            .call()
            .map_err(|error| transport_error(&request.url, error, self.options.max_body_bytes))?;
        let status = response.status().as_u16();
        let decoded = is_decoded_by_ureq(
            response
                .headers()
                .get("content-encoding")
                .and_then(|value| value.to_str().ok()),
        );
        let received: Vec<Header> = response
            .headers()
            .iter()
            .filter_map(|(name, value)| {
                Some((name.as_str().to_string(), value.to_str().ok()?.to_string()))
            })
            .collect();
        let headers = headers_for_decoded_body(received, decoded);
        let body = self.read_body(&request.url, &mut response)?;
        Ok(FetchResponse {
            url: request.url.clone(),
            status,
            headers,
            body,
            fetched_at: request.at,
        })
    }
}

/// The URL as sent: parsed the way browsers parse it (WHATWG), with characters a request line
/// cannot carry percent-encoded and the fragment (never sent to a server) dropped.
///
/// URLs that are not absolute http or https URLs with a host are refused here, before ureq sees
/// them: ureq's stricter parser reports some of them (an empty host) as connection failures,
/// which a retrying layer would then try again, and rejects others (a space in a path) that a
/// browser would fetch.
fn url_to_send(url: &str) -> Result<url::Url, FetchError> {
    let invalid = |reason: String| FetchError::InvalidUrl {
        url: url.to_string(),
        reason,
    };
    let mut parsed = url::Url::parse(url).map_err(|error| invalid(error.to_string()))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(invalid(format!(
            "the scheme {:?} is not http or https",
            parsed.scheme()
        )));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(invalid("there is no host".to_string()));
    }
    parsed.set_fragment(None);
    Ok(parsed)
}

/// Whether ureq decodes a body with this `Content-Encoding`. It compares the first header's value
/// exactly with `gzip` and `br` (the two codings it asks for); anything else, including a list of
/// codings, is passed through still encoded, and then the header must stay to say so.
fn is_decoded_by_ureq(content_encoding: Option<&str>) -> bool {
    matches!(content_encoding, Some("gzip" | "br"))
}

/// Drops the headers that would misdescribe the body after transfer and content decoding.
fn headers_for_decoded_body(received: Vec<Header>, decoded: bool) -> Vec<Header> {
    received
        .into_iter()
        .filter(|(name, _)| {
            let describes_the_wire = name.eq_ignore_ascii_case("transfer-encoding");
            let describes_the_encoded_body = name.eq_ignore_ascii_case("content-encoding")
                || name.eq_ignore_ascii_case("content-length");
            let stale = describes_the_wire || (decoded && describes_the_encoded_body);
            !stale
        })
        .collect()
}

fn transport_error(url: &str, error: ureq::Error, limit_bytes: u64) -> FetchError {
    let url = url.to_string();
    match error {
        ureq::Error::BadUri(reason) => FetchError::InvalidUrl { url, reason },
        ureq::Error::Timeout(_) => FetchError::Timeout { url },
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
            FetchError::Timeout { url }
        }
        ureq::Error::BodyExceedsLimit(_) => FetchError::TooLarge { url, limit_bytes },
        other => FetchError::Connection {
            url,
            reason: other.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(received: &[(&str, &str)], expected: &[&str]) {
        let received: Vec<Header> = received
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect();
        let encoding = received
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("content-encoding"))
            .map(|(_, value)| value.as_str());
        let decoded = is_decoded_by_ureq(encoding);
        let kept: Vec<String> = headers_for_decoded_body(received.clone(), decoded)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(kept, expected, "received {received:?}");
    }

    #[test]
    fn headers_describe_the_body_handed_back() {
        check(
            &[("content-type", "text/html"), ("content-length", "12")],
            &["content-type", "content-length"],
        );
        check(
            &[
                ("content-encoding", "gzip"),
                ("content-length", "12"),
                ("etag", "\"a\""),
            ],
            &["etag"],
        );
        check(&[("content-encoding", "br"), ("content-length", "12")], &[]);
        check(
            &[("content-encoding", "zstd"), ("content-length", "12")],
            &["content-encoding", "content-length"],
        );
        check(
            &[("content-encoding", "gzip, br"), ("content-length", "12")],
            &["content-encoding", "content-length"],
        );
        check(
            &[
                ("transfer-encoding", "chunked"),
                ("content-type", "text/html"),
            ],
            &["content-type"],
        );
    }
}
