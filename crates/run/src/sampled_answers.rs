//! The pages learning sampled, answering the crawl's first requests for the same URLs.
//!
//! Learning a plan samples a few hundred pages of the forum, and the crawl that follows asks for
//! many of them again: the portal, the boards' first pages, the threads the sampler walked
//! through. Without this, a polite crawl spends a delay on each of them, and the forum serves
//! them twice. The samples are kept in the store as they arrive ([`crate::kept_samples`]); when
//! the crawl begins, [`crate::open_crawl`] reads them from the store and hands them here, and
//! each answers the crawl's first request for its URL. A sample stays in the store until the
//! page taken from it (or fetched again in its place) is stored, in the same transaction, or
//! until the crawl runs dry; so a crawl killed before it took them all (a `trawl crawl` killed,
//! a fleet worker killed mid-lease) is handed the ones left when it is resumed, by the same
//! process or another, and the forum is not asked for them again.
//!
//! Only fresh samples answer. A crawl that follows its learning at once gets pages minutes old,
//! as old as the pages a crawl fetched itself minutes before; but a learning cut short and gone
//! on with the next day, or a fleet's site leased again after a week, holds samples a user would
//! not take for the forum as it is, and a board page days old lists other threads than today's.
//! Past [`SAMPLE_REUSE_AGE`] a sample is left unused and the page is fetched again. A sample
//! answers once: a second request for the URL (gap closing asking again) goes to the forum.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use jiff::{SignedDuration, Timestamp};
use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher};
use trawl_store::SampledPage;

/// The oldest a sampled page may be to answer the crawl, against the instant the crawl asks at.
/// An hour covers sampling at a polite pace (300 pages a second apart take five minutes, ten
/// seconds apart almost an hour) and a lease cut short and taken up again at once; it is short
/// beside the hours a crawl of a large forum takes, over which its own pages age as much.
pub const SAMPLE_REUSE_AGE: SignedDuration = SignedDuration::from_hours(1);

/// A fetcher answering from sampled pages first, each once while fresh, and from `inner`
/// otherwise.
pub struct SampledAnswers<F> {
    inner: F,
    waiting: Mutex<HashMap<String, SampledPage>>,
    answered: AtomicUsize,
}

impl<F> std::fmt::Debug for SampledAnswers<F> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SampledAnswers")
            .field("waiting", &self.waiting())
            .field("answered", &self.answered())
            .finish_non_exhaustive()
    }
}

impl<F> SampledAnswers<F> {
    /// Wraps `inner`, with no sampled pages yet.
    pub fn new(inner: F) -> Self {
        SampledAnswers {
            inner,
            waiting: Mutex::new(HashMap::new()),
            answered: AtomicUsize::new(0),
        }
    }

    /// The fetcher behind the sampled pages.
    pub fn inner(&self) -> &F {
        &self.inner
    }

    /// Takes `pages` (in the order they were fetched) to answer with. Of pages sharing a URL the
    /// last answers: the sampler asks for a page again only to see it as a returning visitor
    /// does (the portal, once its session cookie is set), which is how the crawl sees it too.
    /// Pages without a fetch time are left out, as too old to tell.
    pub fn offer(&self, pages: impl IntoIterator<Item = SampledPage>) {
        let mut waiting = lock(&self.waiting);
        for page in pages {
            if page.fetched_at.is_some() {
                waiting.insert(page.url.clone(), page);
            }
        }
    }

    /// Lets go of the sampled pages not used yet. A plan learned again because the forum's
    /// templates changed must see the forum as it is now, not pages of the old templates.
    pub fn let_go(&self) {
        lock(&self.waiting).clear();
    }

    /// Sampled pages that have not answered yet.
    pub fn waiting(&self) -> usize {
        lock(&self.waiting).len()
    }

    /// Requests answered from sampled pages so far.
    pub fn answered(&self) -> usize {
        self.answered.load(Ordering::Relaxed)
    }

    /// The sampled page for `request`, taken out, when one is waiting and fresh at the instant
    /// asked.
    fn take_fresh(&self, request: &FetchRequest) -> Option<(SampledPage, Timestamp)> {
        let mut waiting = lock(&self.waiting);
        let fetched_at = waiting.get(&request.url)?.fetched_at?;
        let age = request.at.duration_since(fetched_at);
        if age > SAMPLE_REUSE_AGE {
            return None;
        }
        waiting.remove(&request.url).map(|page| (page, fetched_at))
    }
}

impl<F: Fetcher> Fetcher for SampledAnswers<F> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let Some((page, fetched_at)) = self.take_fresh(request) else {
            return self.inner.fetch(request);
        };
        self.answered.fetch_add(1, Ordering::Relaxed);
        // The page is stored as what it is: the forum as of the instant it was sampled.
        Ok(FetchResponse {
            url: page.url,
            status: page.status,
            headers: page.headers,
            body: page.body,
            fetched_at,
        })
    }
}

/// The map is left whole between statements, so a poisoned lock is still sound to read.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers every request with a body naming the URL, and counts the requests.
    #[derive(Default)]
    struct Live {
        asked: Mutex<Vec<String>>,
    }

    impl Fetcher for Live {
        fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
            lock(&self.asked).push(request.url.clone());
            Ok(FetchResponse {
                url: request.url.clone(),
                status: 200,
                headers: Vec::new(),
                body: format!("live {}", request.url).into_bytes(),
                fetched_at: request.at,
            })
        }
    }

    const SAMPLED_AT: i64 = 1_700_000_000;

    fn sampled(url: &str, body: &str, fetched_at: Option<i64>) -> SampledPage {
        SampledPage {
            url: url.into(),
            status: 200,
            headers: vec![("content-type".into(), "text/html".into())],
            body: body.as_bytes().to_vec(),
            fetched_at: fetched_at.map(|second| Timestamp::from_second(second).unwrap()),
        }
    }

    /// Offers `pages`, asks for each of `asked` (URL, seconds after `SAMPLED_AT`) in turn, and
    /// checks the bodies answered.
    fn check(pages: Vec<SampledPage>, asked: &[(&str, i64)], expected: &[&str]) {
        let answers = SampledAnswers::new(Live::default());
        answers.offer(pages);
        let bodies: Vec<String> = asked
            .iter()
            .map(|(url, after)| {
                let at = Timestamp::from_second(SAMPLED_AT + after).unwrap();
                let response = answers.fetch(&FetchRequest::new(*url, at)).unwrap();
                String::from_utf8(response.body).unwrap()
            })
            .collect();
        assert_eq!(bodies, expected, "asked {asked:?}");
        let from_samples = expected
            .iter()
            .filter(|body| !body.starts_with("live "))
            .count();
        assert_eq!(answers.answered(), from_samples);
        assert_eq!(
            lock(&answers.inner().asked).len(),
            asked.len() - from_samples
        );
    }

    #[test]
    fn a_fresh_sample_answers_its_url_once() {
        let page = || sampled("http://f.test/b/1", "board", Some(SAMPLED_AT));
        check(
            vec![page()],
            &[("http://f.test/b/1", 60), ("http://f.test/b/1", 61)],
            &["board", "live http://f.test/b/1"],
        );
        check(
            vec![page()],
            &[("http://f.test/b/2", 60), ("http://f.test/b/1", 3600)],
            &["live http://f.test/b/2", "board"],
        );
    }

    #[test]
    fn a_stale_sample_or_one_without_a_time_is_fetched_again() {
        check(
            vec![sampled("http://f.test/b/1", "board", Some(SAMPLED_AT))],
            &[("http://f.test/b/1", 3601)],
            &["live http://f.test/b/1"],
        );
        check(
            vec![sampled("http://f.test/b/1", "board", None)],
            &[("http://f.test/b/1", 0)],
            &["live http://f.test/b/1"],
        );
    }

    #[test]
    fn of_a_url_sampled_twice_the_later_answer_is_taken() {
        check(
            vec![
                sampled("http://f.test/", "first visit", Some(SAMPLED_AT)),
                sampled("http://f.test/", "returning visitor", Some(SAMPLED_AT + 1)),
            ],
            &[("http://f.test/", 10)],
            &["returning visitor"],
        );
    }

    #[test]
    fn the_answer_keeps_the_instant_it_was_sampled_at() {
        let answers = SampledAnswers::new(Live::default());
        answers.offer([sampled("http://f.test/", "portal", Some(SAMPLED_AT))]);
        let at = Timestamp::from_second(SAMPLED_AT + 30).unwrap();
        let response = answers
            .fetch(&FetchRequest::new("http://f.test/", at))
            .unwrap();
        assert_eq!(response.fetched_at.as_second(), SAMPLED_AT);
    }

    #[test]
    fn pages_let_go_answer_no_more() {
        let answers = SampledAnswers::new(Live::default());
        answers.offer([sampled("http://f.test/", "portal", Some(SAMPLED_AT))]);
        answers.let_go();
        let at = Timestamp::from_second(SAMPLED_AT).unwrap();
        let response = answers
            .fetch(&FetchRequest::new("http://f.test/", at))
            .unwrap();
        assert_eq!(response.body, b"live http://f.test/");
        assert_eq!(answers.waiting(), 0);
    }
}
