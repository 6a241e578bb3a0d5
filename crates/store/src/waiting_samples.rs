//! Which kept samples a store handle still has to let go of as the crawl writes their pages.
//!
//! A sampled page stays in the store until the crawl has stored a page of its URL (taken from
//! the sample, or fetched again when the sample was too old to stand for it): then it is
//! deleted in the same transaction as that page, so that a crawl killed at any moment leaves
//! exactly the samples it has not yet used, for the crawl resumed from the store to answer
//! from. Asking the database about samples at every write would cost a statement per batch
//! for the whole of a crawl whose samples are long gone; each handle reads the sampled URLs
//! once, at its first write, and asks no more once none is left.

use std::collections::HashSet;

use crate::FetchOutcome;

/// The URLs of the samples a store handle knows to be waiting; unread until the first write.
#[derive(Debug, Default)]
pub(crate) struct WaitingSamples {
    urls: Option<HashSet<String>>,
}

impl WaitingSamples {
    /// Whether the waiting URLs have been read from the database yet.
    pub(crate) fn known(&self) -> bool {
        self.urls.is_some()
    }

    /// Sets the waiting URLs, as read from the database.
    pub(crate) fn read(&mut self, urls: HashSet<String>) {
        self.urls = Some(urls);
    }

    /// The URLs of `outcomes`' pages that have a sample waiting, each once: the samples their
    /// transaction lets go. Call [`WaitingSamples::let_go`] with them once it has committed.
    pub(crate) fn used_by(&self, outcomes: &[FetchOutcome]) -> Vec<String> {
        let Some(urls) = &self.urls else {
            return Vec::new();
        };
        let mut used: Vec<String> = Vec::new();
        for outcome in outcomes {
            let url = &outcome.page.url;
            if urls.contains(url) && !used.contains(url) {
                used.push(url.clone());
            }
        }
        used
    }

    /// Forgets `used`, whose samples a committed transaction deleted.
    pub(crate) fn let_go(&mut self, used: &[String]) {
        if let Some(urls) = &mut self.urls {
            for url in used {
                urls.remove(url);
            }
        }
    }

    /// A sample of `url` was saved through this handle.
    pub(crate) fn saved(&mut self, url: &str) {
        if let Some(urls) = &mut self.urls {
            urls.insert(url.to_string());
        }
    }

    /// Every sample was deleted.
    pub(crate) fn let_go_of_all(&mut self) {
        self.urls = Some(HashSet::new());
    }
}
