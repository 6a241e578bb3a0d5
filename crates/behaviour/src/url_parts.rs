//! URLs as key-value pairs: path segments by position, query parameters by name.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One key of a decomposed URL.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Key {
    /// The path segment at this 0-based position.
    Segment(u32),
    /// The query parameter of this name.
    Query(String),
}

impl fmt::Display for Key {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Segment(position) => write!(formatter, "/[{position}]"),
            Key::Query(name) => write!(formatter, "?{name}"),
        }
    }
}

/// A path and query split into its keys' values. Empty path segments (a doubled or trailing
/// slash) are dropped: engines serve `/t/12/` and `/t/12` alike far more often than not, and
/// keeping them would make two patterns of one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecomposedUrl {
    /// Path segments in order.
    pub segments: Vec<String>,
    /// Query parameters in order; a repeated name keeps its first value.
    pub query: Vec<(String, String)>,
}

impl DecomposedUrl {
    /// Splits a path and query (an absolute URL loses its scheme and host first).
    pub fn of(url: &str) -> DecomposedUrl {
        let path_and_query = path_and_query_of(url);
        let (path, query) = path_and_query
            .split_once('?')
            .unwrap_or((path_and_query, ""));
        let segments = path
            .split('/')
            .filter(|segment| !segment.is_empty())
            .map(str::to_string)
            .collect();
        let mut pairs: Vec<(String, String)> = Vec::new();
        for pair in query.split(['&', ';']).filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            if !pairs.iter().any(|(seen, _)| seen == name) {
                pairs.push((name.to_string(), value.to_string()));
            }
        }
        DecomposedUrl {
            segments,
            query: pairs,
        }
    }

    /// The value under `key`, `None` when the URL lacks the key.
    pub fn value(&self, key: &Key) -> Option<&str> {
        match key {
            Key::Segment(position) => self.segments.get(*position as usize).map(String::as_str),
            Key::Query(name) => self
                .query
                .iter()
                .find(|(seen, _)| seen == name)
                .map(|(_, value)| value.as_str()),
        }
    }

    /// Every key the URL has.
    pub fn keys(&self) -> impl Iterator<Item = Key> + '_ {
        (0..self.segments.len() as u32)
            .map(Key::Segment)
            .chain(self.query.iter().map(|(name, _)| Key::Query(name.clone())))
    }
}

/// The path and query of a URL: an absolute http(s) URL loses scheme and host, a fragment is
/// dropped, a bare path is kept as it is.
pub fn path_and_query_of(url: &str) -> &str {
    let url = url.split('#').next().unwrap_or("");
    let lower_start = url
        .get(..8)
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let after_scheme = if lower_start.starts_with("http://") {
        &url[7..]
    } else if lower_start.starts_with("https://") {
        &url[8..]
    } else {
        return url;
    };
    match after_scheme.find(['/', '?']) {
        Some(start) => &after_scheme[start..],
        None => "/",
    }
}

/// Whether a value is a plain decimal number (identifiers and page numbers).
pub fn is_number(value: &str) -> bool {
    !value.is_empty() && value.bytes().all(|byte| byte.is_ascii_digit())
}
