//! Resumable learning: every page fetched while sampling a forum is kept in the crawl's store
//! as it arrives, and a learning that was cut short (a killed `trawl crawl`, a worker's lease
//! that ended) goes on from the pages kept instead of fetching them again.
//!
//! The sampler is deterministic: from the same seed and the same answers it asks for the same
//! URLs in the same order. So resuming needs no change to the sampler at all: it runs again from
//! the start through a fetcher that answers from the kept pages, URL by URL in the order they
//! were fetched, and reaches the network only past them. The fresh pages it fetches there are
//! kept in turn.
//!
//! Only the first learning of a crawl resumes. A plan learned again because the forum's pages
//! changed must see the forum as it is now, not the pages kept from before.
//!
//! The kept pages outlive the learning: [`crate::open_crawl`] hands them to the crawl
//! ([`crate::SampledAnswers`]), and each stays in the store until the crawl stores a page of
//! its URL, or runs dry, or learns its plan again.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use trawl_learn::summary::PageSummary;
use trawl_model::{CookieJarFetcher, FetchError, FetchRequest, FetchResponse, Fetcher};
use trawl_store::{SampledPage, Store, StoreError};

use crate::RunError;

/// A fetcher for sampling that answers from the kept pages first and keeps every page it
/// fetches.
pub struct KeptSamples<'fetcher> {
    inner: &'fetcher dyn Fetcher,
    store: Mutex<Store>,
    kept: Mutex<HashMap<String, VecDeque<SampledPage>>>,
    replayed: AtomicUsize,
    /// The first failure to keep a page: sampling goes on (the page is in hand), and the
    /// caller reports it afterwards, so that a lost lease stops the work.
    failure: Mutex<Option<StoreError>>,
}

impl std::fmt::Debug for KeptSamples<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("KeptSamples")
            .field("waiting", &self.waiting())
            .field("replayed", &self.replayed())
            .finish_non_exhaustive()
    }
}

impl<'fetcher> KeptSamples<'fetcher> {
    /// Wraps `inner`, keeping pages in `store` (a handle of its own on the crawl's store) and
    /// answering first from the pages it already keeps.
    pub fn new(inner: &'fetcher dyn Fetcher, store: Store) -> Result<Self, StoreError> {
        let mut kept: HashMap<String, VecDeque<SampledPage>> = HashMap::new();
        for page in store.samples()? {
            kept.entry(page.url.clone()).or_default().push_back(page);
        }
        Ok(KeptSamples {
            inner,
            store: Mutex::new(store),
            kept: Mutex::new(kept),
            replayed: AtomicUsize::new(0),
            failure: Mutex::new(None),
        })
    }

    /// Pages kept from before, waiting to answer the sampler.
    pub fn waiting(&self) -> usize {
        lock(&self.kept).values().map(VecDeque::len).sum()
    }

    /// Pages answered from the kept ones so far.
    pub fn replayed(&self) -> usize {
        self.replayed.load(Ordering::Relaxed)
    }

    /// Ends the sampling: the first failure to keep a page, if any.
    pub fn finish(&self) -> Result<(), StoreError> {
        lock(&self.failure).take().map_or(Ok(()), Err)
    }
}

impl Fetcher for KeptSamples<'_> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let kept = lock(&self.kept)
            .get_mut(&request.url)
            .and_then(VecDeque::pop_front);
        if let Some(page) = kept {
            self.replayed.fetch_add(1, Ordering::Relaxed);
            return Ok(FetchResponse {
                url: page.url,
                status: page.status,
                headers: page.headers,
                body: page.body,
                // The page is the forum as of its first fetch, which a relative date on it
                // ("5 minutes ago") is read against.
                fetched_at: page.fetched_at.unwrap_or(request.at),
            });
        }
        let response = self.inner.fetch(request)?;
        let page = SampledPage {
            url: request.url.clone(),
            status: response.status,
            headers: response.headers.clone(),
            body: response.body.clone(),
            fetched_at: Some(response.fetched_at),
        };
        if let Err(error) = lock(&self.store).save_sample(&page) {
            lock(&self.failure).get_or_insert(error);
        }
        Ok(response)
    }
}

/// Every lock here guards data left whole between statements, so a poisoned one is still
/// sound to read.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What a resumable sampling did, besides its pages.
#[derive(Debug, Clone)]
pub struct ResumedSampling {
    /// The pages sampled.
    pub pages: Vec<PageSummary>,
    /// Pages kept by earlier runs when the sampling began.
    pub kept_before: usize,
    /// Pages answered from the kept ones rather than fetched.
    pub replayed: usize,
}

/// Samples a forum with `sample`, keeping every page in `store` and going on from the pages it
/// kept before. `sample` gets the fetcher to sample through and the number of kept pages waiting
/// to answer it (so that it can say a learning goes on).
///
/// The kept pages answer inside a cookie jar of their own, so that the session cookies they set
/// are sent on with the pages fetched after them, as they were when the pages were first
/// fetched: a forum that writes a session id into the links of a visitor without its cookie
/// would otherwise lead the sample elsewhere. The crawl's fetcher gets the jar's cookies after,
/// as if it had sampled itself.
pub fn sample_resumably<F: Fetcher, E: From<RunError>>(
    fetcher: &CookieJarFetcher<F>,
    store: Store,
    sample: impl FnOnce(&dyn Fetcher, usize) -> Result<Vec<PageSummary>, E>,
) -> Result<ResumedSampling, E> {
    let kept =
        CookieJarFetcher::new(KeptSamples::new(fetcher.inner(), store).map_err(RunError::from)?);
    kept.set_cookies(fetcher.cookies());
    let kept_before = kept.inner().waiting();
    let pages = sample(&kept, kept_before)?;
    let replayed = kept.inner().replayed();
    kept.inner().finish().map_err(RunError::from)?;
    fetcher.set_cookies(kept.cookies());
    Ok(ResumedSampling {
        pages,
        kept_before,
        replayed,
    })
}
