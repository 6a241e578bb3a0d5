//! The in-process [`Fetcher`]: a simulated site answering without any socket.

use std::sync::Arc;

use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher};

use crate::site::Site;

/// Answers fetch requests for one simulated site, as of each request's instant.
///
/// The site is reached under `origin` (scheme, host and port, no trailing slash), for example
/// `http://phpbb.sim.test`. Requests for other hosts fail with [`FetchError::ForeignHost`], as a
/// crawler that strays off-site should notice.
#[derive(Debug, Clone)]
pub struct SimFetcher {
    site: Arc<Site>,
    origin: String,
}

impl SimFetcher {
    /// A fetcher serving `site` under `origin`.
    pub fn new(site: Arc<Site>, origin: impl Into<String>) -> Self {
        let mut origin = origin.into();
        while origin.ends_with('/') {
            origin.pop();
        }
        SimFetcher { site, origin }
    }

    /// The origin it answers for.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The absolute URL of the portal.
    pub fn portal_url(&self) -> String {
        format!("{}{}", self.origin, self.site.portal_path())
    }

    /// The site it serves.
    pub fn site(&self) -> &Arc<Site> {
        &self.site
    }
}

impl Fetcher for SimFetcher {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let Some(rest) = request.url.strip_prefix(&self.origin) else {
            return Err(FetchError::ForeignHost {
                url: request.url.clone(),
            });
        };
        let path_and_query = match rest.chars().next() {
            None => "/",
            Some('/') => rest,
            Some('?') => &format!("/{rest}"),
            Some(_) => {
                return Err(FetchError::ForeignHost {
                    url: request.url.clone(),
                });
            }
        };
        let cookie = request
            .headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("cookie"))
            .map(|(_, value)| value.as_str());
        let answer = self
            .site
            .serve(path_and_query, request.at.as_second(), cookie);
        Ok(FetchResponse {
            url: request.url.clone(),
            status: answer.status,
            headers: answer.headers,
            body: answer.body,
            fetched_at: request.at,
        })
    }
}
