//! A minimal loopback HTTP client for the demo and the server benchmark.
//!
//! It speaks plain HTTP only (the simulator serves no TLS) and follows no redirects, so every hop
//! is visible. The crawler's own fetcher, with TLS, compression, robots.txt and politeness, is a
//! separate concern.

use std::time::Duration;

use anyhow::{Context, Result};

/// One answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub location: Option<String>,
    pub body: Vec<u8>,
}

/// A keep-alive client that keeps the cookies the server sets, as generic crawlers do; engines
/// that put session ids in URLs stop doing so once their cookie comes back.
#[derive(Debug, Clone)]
pub struct LoopbackClient {
    agent: ureq::Agent,
    cookies: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl LoopbackClient {
    pub fn new() -> Self {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into();
        LoopbackClient {
            agent,
            cookies: Default::default(),
        }
    }

    pub fn get(&self, url: &str) -> Result<Answer> {
        let cookie_header = self
            .cookies
            .lock()
            .map(|jar| jar.join("; "))
            .unwrap_or_default();
        let mut request = self.agent.get(url);
        if !cookie_header.is_empty() {
            request = request.header("Cookie", &cookie_header);
        }
        let mut response = request
            .call()
            .with_context(|| format!("GET {url} failed"))?;
        let status = response.status().as_u16();
        for value in response.headers().get_all("set-cookie") {
            let Some(pair) = value.to_str().ok().and_then(|text| text.split(';').next()) else {
                continue;
            };
            let name = pair.split('=').next().unwrap_or("");
            if let Ok(mut jar) = self.cookies.lock() {
                jar.retain(|kept| kept.split('=').next() != Some(name));
                jar.push(pair.trim().to_string());
            }
        }
        let location = response
            .headers()
            .get("location")
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        let body = response
            .body_mut()
            .with_config()
            .limit(64 * 1024 * 1024)
            .read_to_vec()
            .with_context(|| format!("reading the body of {url} failed"))?;
        Ok(Answer {
            status,
            location,
            body,
        })
    }
}
