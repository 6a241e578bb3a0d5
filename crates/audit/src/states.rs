//! What the crawl did with each URL: fetched (after redirects), failed, passed over as another
//! spelling, waiting, or never queued.

use foldhash::{HashMap, HashMapExt, HashSet};

use crate::{CrawlRecord, FetchedPage, Missing};

/// Redirects followed to find the page a URL leads to, as the crawler follows them.
pub(crate) const MOST_REDIRECTS: usize = 10;

pub(crate) fn answered(page: &FetchedPage) -> bool {
    (200..300).contains(&page.status)
}

pub(crate) fn without_fragment(url: &str) -> &str {
    url.split('#').next().unwrap_or(url)
}

/// What the crawl did with one URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UrlState {
    /// Fetched with an answer, at this page (after redirects).
    Fetched(usize),
    /// Fetched, and the last answer was this page, not a usable one.
    Failed(usize),
    /// Passed over as another spelling of a queued URL.
    PassedOver,
    /// In the frontier.
    Waiting,
    /// Never queued.
    NeverQueued,
}

impl UrlState {
    /// Why the page is missing, for a state that is not fetched.
    pub(crate) fn missing_of(self, record: &CrawlRecord) -> Missing {
        match self {
            UrlState::Failed(page) => Missing::Failed {
                status: record.pages[page].status,
                error: record.pages[page].error.clone(),
            },
            UrlState::Waiting => Missing::Waiting,
            _ => Missing::NeverQueued,
        }
    }
}

/// [`UrlState`]s, with the record they were read from.
pub(crate) struct UrlStates<'a> {
    record: &'a CrawlRecord,
    /// Per URL, its answered fetch, or else its last fetch.
    page_of_url: HashMap<&'a str, usize>,
    waiting: HashSet<&'a str>,
    passed_over: HashSet<&'a str>,
}

impl<'a> UrlStates<'a> {
    pub(crate) fn of(record: &'a CrawlRecord) -> UrlStates<'a> {
        let mut page_of_url: HashMap<&str, usize> = HashMap::with_capacity(record.pages.len());
        for (index, page) in record.pages.iter().enumerate() {
            let url = without_fragment(&page.url);
            match page_of_url.get(url) {
                // An answer stands; a later failure (a gap closed, then asked again) does not
                // undo it.
                Some(&earlier) if answered(&record.pages[earlier]) => {}
                _ => {
                    page_of_url.insert(url, index);
                }
            }
        }
        UrlStates {
            record,
            page_of_url,
            waiting: record.waiting.iter().map(|url| url.as_str()).collect(),
            passed_over: record.passed_over.iter().map(|url| url.as_str()).collect(),
        }
    }

    pub(crate) fn resolve(&self, url: &str) -> UrlState {
        // Borrowed all along: a redirect's target is a string of the record.
        let mut url = without_fragment(url);
        let mut state = UrlState::NeverQueued;
        for _ in 0..=MOST_REDIRECTS {
            state = match self.page_of_url.get(url) {
                Some(&page) => {
                    let fetched = &self.record.pages[page];
                    if let (300..400, Some(target)) = (fetched.status, &fetched.redirect_to) {
                        url = without_fragment(target);
                        continue;
                    }
                    if answered(fetched) {
                        UrlState::Fetched(page)
                    } else {
                        UrlState::Failed(page)
                    }
                }
                None if self.waiting.contains(url) => UrlState::Waiting,
                None if self.passed_over.contains(url) => UrlState::PassedOver,
                None => UrlState::NeverQueued,
            };
            break;
        }
        state
    }
}
