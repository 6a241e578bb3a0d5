//! A cookie jar around any fetcher.
//!
//! Forum engines that keep sessions put a session id into every URL for clients that send no
//! cookie back (`?sid=…`, `;PHPSESSID=…`), which multiplies every page's URL. Browsers, and
//! well-behaved crawlers, return the session cookie and never see those URLs. The jar keeps the
//! last value of each cookie name a response sets and sends them all with every request; it
//! ignores paths, expiry and domains because one crawler talks to one site at a time.

use std::sync::Mutex;

use crate::fetch::{FetchError, FetchRequest, FetchResponse, Fetcher};

/// The (name, value) of every cookie `response` sets, trimmed, in header order: each
/// `Set-Cookie: name=value; Path=/; HttpOnly` up to its first `;`. Attributes are not read (see
/// the module's note on paths and expiry).
pub fn cookies_set_by(response: &FetchResponse) -> impl Iterator<Item = (&str, &str)> {
    response.headers.iter().filter_map(|(name, value)| {
        if !name.eq_ignore_ascii_case("set-cookie") {
            return None;
        }
        let (cookie_name, cookie_value) = value.split(';').next()?.split_once('=')?;
        Some((cookie_name.trim(), cookie_value.trim()))
    })
}

/// A fetcher that keeps and returns the cookies its inner fetcher's responses set.
#[derive(Debug)]
pub struct CookieJarFetcher<F> {
    inner: F,
    jar: Mutex<Vec<(String, String)>>,
}

impl<F: Fetcher> CookieJarFetcher<F> {
    /// Wraps `inner` with an empty jar.
    pub fn new(inner: F) -> Self {
        CookieJarFetcher {
            inner,
            jar: Mutex::new(Vec::new()),
        }
    }

    /// The wrapped fetcher.
    pub fn inner(&self) -> &F {
        &self.inner
    }

    /// The cookies held, as (name, value) in the order they were last set. A crawl stores
    /// them so that, resumed, it is the same returning visitor and sees the same links.
    pub fn cookies(&self) -> Vec<(String, String)> {
        self.jar
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Replaces the cookies held (a resumed crawl puts back the ones it stored).
    pub fn set_cookies(&self, cookies: Vec<(String, String)>) {
        *self
            .jar
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = cookies;
    }
}

impl<F: Fetcher> Fetcher for CookieJarFetcher<F> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let mut request = request.clone();
        {
            let jar = self
                .jar
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if !jar.is_empty()
                && !request
                    .headers
                    .iter()
                    .any(|(name, _)| name.eq_ignore_ascii_case("cookie"))
            {
                let value = jar
                    .iter()
                    .map(|(name, value)| format!("{name}={value}"))
                    .collect::<Vec<_>>()
                    .join("; ");
                request.headers.push(("Cookie".to_string(), value));
            }
        }
        let response = self.inner.fetch(&request)?;
        let mut jar = self
            .jar
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for (cookie_name, cookie_value) in cookies_set_by(&response) {
            jar.retain(|(kept, _)| kept != cookie_name);
            jar.push((cookie_name.to_string(), cookie_value.to_string()));
        }
        Ok(response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::Timestamp;

    /// Answers with a cookie and echoes the cookie header it received in the body.
    #[derive(Debug)]
    struct Echo;

    impl Fetcher for Echo {
        fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
            let received = request
                .headers
                .iter()
                .find(|(name, _)| name == "Cookie")
                .map(|(_, value)| value.clone())
                .unwrap_or_default();
            Ok(FetchResponse {
                url: request.url.clone(),
                status: 200,
                headers: vec![(
                    "Set-Cookie".to_string(),
                    format!("sid={}; Path=/; HttpOnly", request.url.len()),
                )],
                body: received.into_bytes(),
                fetched_at: request.at,
            })
        }
    }

    #[test]
    fn cookies_set_are_sent_back_and_replaced() {
        let fetcher = CookieJarFetcher::new(Echo);
        let ask = |url: &str| {
            String::from_utf8(
                fetcher
                    .fetch(&FetchRequest::new(url, Timestamp::UNIX_EPOCH))
                    .unwrap()
                    .body,
            )
            .unwrap()
        };
        assert_eq!(ask("http://a.test/"), "");
        assert_eq!(ask("http://a.test/xy"), "sid=14");
        assert_eq!(ask("http://a.test/"), "sid=16");
    }
}
