//! [`DefaultHeadersFetcher`]: headers every request carries, such as a login session's cookie.

use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher, Header};

/// Adds configured headers to every request that does not already carry them.
///
/// This is how a crawl logs in: the `Fetcher` seam only knows GET, so a login form cannot be
/// posted through it; instead the session cookie a browser got after logging in (or an
/// `Authorization` header) is configured once and sent with every request. A header the request
/// already names wins over the configured one. `Cookie` is merged instead, pair by pair, because
/// the cookie jar and the configuration each know different cookies of the same session: the
/// request's cookies stay, and each configured cookie whose name the request lacks is appended.
#[derive(Debug)]
pub struct DefaultHeadersFetcher<F> {
    inner: F,
    headers: Vec<Header>,
}

impl<F: Fetcher> DefaultHeadersFetcher<F> {
    /// Wraps `inner`, adding `headers` to each request.
    pub fn new(inner: F, headers: Vec<Header>) -> Self {
        DefaultHeadersFetcher { inner, headers }
    }

    /// The wrapped fetcher.
    pub fn inner(&self) -> &F {
        &self.inner
    }

    /// `request` with the configured headers added.
    pub fn complete(&self, request: &FetchRequest) -> FetchRequest {
        let mut request = request.clone();
        for (name, value) in &self.headers {
            let present = request
                .headers
                .iter_mut()
                .find(|(present, _)| present.eq_ignore_ascii_case(name));
            match present {
                None => request.headers.push((name.clone(), value.clone())),
                Some((_, present)) if name.eq_ignore_ascii_case("cookie") => {
                    *present = merge_cookies(present, value);
                }
                Some(_) => {}
            }
        }
        request
    }
}

impl<F: Fetcher> Fetcher for DefaultHeadersFetcher<F> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        self.inner.fetch(&self.complete(request))
    }
}

/// `present` with the pairs of `configured` whose names it lacks appended.
fn merge_cookies(present: &str, configured: &str) -> String {
    let name_of = |pair: &str| pair.split('=').next().unwrap_or("").trim().to_string();
    let present_names: Vec<String> = present.split(';').map(name_of).collect();
    let mut pairs: Vec<String> = present
        .split(';')
        .map(str::trim)
        .filter(|pair| !pair.is_empty())
        .map(str::to_string)
        .collect();
    for pair in configured.split(';').map(str::trim) {
        if !pair.is_empty() && !present_names.contains(&name_of(pair)) {
            pairs.push(pair.to_string());
        }
    }
    pairs.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use trawl_model::Timestamp;

    fn check(configured: &[(&str, &str)], sent: &[(&str, &str)], expected: &[(&str, &str)]) {
        let owned = |pairs: &[(&str, &str)]| -> Vec<Header> {
            pairs
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect()
        };
        struct Nothing;
        impl Fetcher for Nothing {
            fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
                Err(FetchError::ForeignHost {
                    url: request.url.clone(),
                })
            }
        }
        let fetcher = DefaultHeadersFetcher::new(Nothing, owned(configured));
        let request = FetchRequest {
            url: "http://forum.test/".into(),
            at: Timestamp::UNIX_EPOCH,
            headers: owned(sent),
        };
        assert_eq!(
            fetcher.complete(&request).headers,
            owned(expected),
            "configured {configured:?}, sent {sent:?}"
        );
    }

    #[test]
    fn configured_headers_fill_in_and_cookies_merge() {
        check(&[], &[("Accept", "*/*")], &[("Accept", "*/*")]);
        check(
            &[("Authorization", "Basic dTpw")],
            &[],
            &[("Authorization", "Basic dTpw")],
        );
        check(
            &[("Accept-Language", "de")],
            &[("accept-language", "fr")],
            &[("accept-language", "fr")],
        );
        check(
            &[("Cookie", "login=abc; theme=dark")],
            &[],
            &[("Cookie", "login=abc; theme=dark")],
        );
        check(
            &[("Cookie", "login=abc; sid=old")],
            &[("cookie", "sid=new")],
            &[("cookie", "sid=new; login=abc")],
        );
        check(
            &[("Cookie", "login=abc")],
            &[("Cookie", "login=xyz;")],
            &[("Cookie", "login=xyz")],
        );
    }
}
