//! Sampling a forum with a double-ended queue (iRobot §4, the skeleton paper §4).
//!
//! Both papers sample a few hundred pages before learning anything. A pure breadth-first walk
//! spends its whole budget on the first two levels (the portal's hundreds of links), and a pure
//! depth-first walk falls down one chain of "next page" links; popping the queue at a random end
//! each time mixes the two and reaches deep pages within a few steps. New links are pushed at the
//! back, so popping the back goes deep and popping the front goes wide.
//!
//! [`Sampler`] is the pure state machine: it hands out the next URL, takes back what the fetch
//! produced, and decides when to stop. [`sample_site`] drives it through any [`Fetcher`], so the
//! same sampling runs in process against the simulator, over loopback HTTP and on the live web.
//! The sampler stays on the portal's host, never asks for a URL twice, and records redirects as
//! pages of their own (a redirect to the login page is exactly what the learner must see).
//!
//! After the sample proper, [`Sampler::partner_checks`] names the few pages the test for copies
//! across layouts needs to judge a view whose items the sample did not hold (at most
//! [`SampleOptions::partner_checks`] and a twentieth of the sample, see [`crate::partners`]),
//! [`Sampler::unjudged_place_checks`] names links of the places the crawler would follow
//! without the plan having judged them (at most a twentieth of the sample, see
//! [`crate::unjudged_places`]), and [`Sampler::spelling_checks`] names a few more URLs: the missing
//! members of pairs of linked URLs that may spell one page (`?t=5` and `?t=5&start=0`, see
//! [`crate::spellings`]), so the plan carries the evidence the crawler would otherwise gather
//! with duplicate fetches. This costs at most [`SampleOptions::spelling_checks`] fetches and a
//! tenth of the sample (on the simulator's small forums with 300 samples, seeds 1-3: 0-12
//! fetches, `trawl bench learn`).

use std::collections::{HashMap, HashSet, VecDeque};

use trawl_model::{Clock, FetchError, FetchRequest, Fetcher};
use url::Url;

use crate::summary::PageSummary;

/// How to sample.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleOptions {
    /// Stop after this many pages (iRobot used 500; trawl needs fewer, see docs/BENCHMARKS.md).
    pub max_pages: usize,
    /// Seed of the front-or-back coin, so a sample can be repeated exactly.
    pub seed: u64,
    /// Pause between two requests. Politeness is a real-time matter, so the driver sleeps on the
    /// wall clock; zero in tests and against the in-process simulator.
    pub delay: std::time::Duration,
    /// Share of picks spread over URL shapes rather than taken from the ends of the queue (0 is
    /// the papers' plain double-ended queue).
    pub balance: f64,
    /// Most fetches spent after the sample on completing pairs of spellings (see
    /// [`Sampler::spelling_checks`]); a tenth of `max_pages` bounds it as well.
    pub spelling_checks: usize,
    /// Most fetches spent after the sample on partners for the test for copies across layouts
    /// (see [`Sampler::partner_checks`]); a twentieth of `max_pages` bounds it as well.
    pub partner_checks: usize,
    /// Most fetches spent after the sample on later pages of lists that the sample met only
    /// as links (see [`Sampler::later_page_checks`]); a tenth of `max_pages` bounds it as
    /// well, since each kind of list has the later pages of two lists fetched.
    pub later_page_checks: usize,
}

impl Default for SampleOptions {
    fn default() -> Self {
        SampleOptions {
            max_pages: 500,
            seed: 1,
            delay: std::time::Duration::from_millis(500),
            balance: 0.5,
            spelling_checks: 24,
            partner_checks: 12,
            later_page_checks: 16,
        }
    }
}

/// A URL waiting in the queue, with the sampling level it was found at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleRequest {
    /// What to fetch.
    pub url: Url,
    /// Links followed from the portal to find it (the portal is level 0).
    pub depth: u32,
}

/// The double-ended-queue sampler.
#[derive(Debug, Clone)]
pub struct Sampler {
    host: Option<String>,
    port: Option<u16>,
    /// Every URL ever queued; `None` once handed out.
    entries: Vec<Option<SampleRequest>>,
    /// Entry ids in queue order (handed-out ones are skipped lazily).
    queue: VecDeque<usize>,
    /// Entry ids by URL shape, oldest first, and how many pages of each shape were sampled.
    by_shape: HashMap<String, VecDeque<usize>>,
    shape_order: Vec<String>,
    sampled_by_shape: HashMap<String, usize>,
    shape_of_entry: Vec<String>,
    waiting: usize,
    seen: HashSet<String>,
    pages: Vec<PageSummary>,
    max_pages: usize,
    balance: f64,
    spelling_budget: usize,
    partner_budget: usize,
    later_page_budget: usize,
    unjudged_budget: usize,
    random_state: u64,
}

impl Sampler {
    /// A sampler starting at `portal`.
    pub fn new(portal: Url, options: &SampleOptions) -> Sampler {
        let mut seen = HashSet::new();
        seen.insert(without_fragment(&portal));
        let mut sampler = Sampler {
            host: portal.host_str().map(str::to_ascii_lowercase),
            port: portal.port_or_known_default(),
            entries: Vec::new(),
            queue: VecDeque::new(),
            by_shape: HashMap::new(),
            shape_order: Vec::new(),
            sampled_by_shape: HashMap::new(),
            shape_of_entry: Vec::new(),
            waiting: 0,
            seen,
            pages: Vec::new(),
            max_pages: options.max_pages,
            balance: options.balance,
            spelling_budget: options.spelling_checks.min(options.max_pages / 10),
            partner_budget: options.partner_checks.min(options.max_pages / 20),
            later_page_budget: options.later_page_checks.min(options.max_pages / 10),
            unjudged_budget: crate::unjudged_places::MOST_UNJUDGED_CHECKS
                .min(options.max_pages / 20),
            // SplitMix64 needs a non-trivial start; mixing the seed once keeps seeds 0 and 1 apart.
            random_state: options.seed ^ 0x9E37_79B9_7F4A_7C15,
        };
        sampler.enqueue(SampleRequest {
            url: portal,
            depth: 0,
        });
        sampler
    }

    /// The next URL to fetch. `None` when the sample is complete or nothing is left to fetch.
    ///
    /// With probability `1 − balance` the front or the back of the queue at random, as in the
    /// papers; otherwise the oldest waiting URL of the *shape* (URL with digits and long or
    /// opaque parts generalised) sampled least so far. The papers' deque alone samples what is
    /// linked most: three hundred samples of a small forum held every board's first page and
    /// none of their second pages, so the learner never saw a board's page flipping. Balancing
    /// over shapes gives every kind of URL a few samples early.
    pub fn next_request(&mut self) -> Option<SampleRequest> {
        if self.pages.len() >= self.max_pages || self.waiting == 0 {
            return None;
        }
        let draw = self.next_random();
        let unit = (draw >> 11) as f64 / (1u64 << 53) as f64;
        let balanced = unit < self.balance;
        let entry = if balanced {
            self.least_sampled_shape_entry()
        } else {
            self.deque_entry(draw & 1 == 0)
        }?;
        let request = self.entries[entry].take()?;
        self.waiting -= 1;
        *self
            .sampled_by_shape
            .entry(self.shape_of_entry[entry].clone())
            .or_default() += 1;
        Some(request)
    }

    fn deque_entry(&mut self, front: bool) -> Option<usize> {
        loop {
            let entry = if front {
                self.queue.pop_front()
            } else {
                self.queue.pop_back()
            }?;
            if self.entries[entry].is_some() {
                return Some(entry);
            }
        }
    }

    fn least_sampled_shape_entry(&mut self) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None; // (sampled count, shape index)
        for (index, shape) in self.shape_order.iter().enumerate() {
            let queue = self
                .by_shape
                .get_mut(shape)
                .expect("every shape has a queue");
            while queue
                .front()
                .is_some_and(|entry| self.entries[*entry].is_none())
            {
                queue.pop_front();
            }
            if queue.is_empty() {
                continue;
            }
            let sampled = self.sampled_by_shape.get(shape).copied().unwrap_or(0);
            if best.is_none_or(|(best_sampled, _)| sampled < best_sampled) {
                best = Some((sampled, index));
            }
        }
        let (_, index) = best?;
        let shape = &self.shape_order[index];
        self.by_shape.get_mut(shape)?.pop_front()
    }

    fn enqueue(&mut self, request: SampleRequest) {
        let entry = self.entries.len();
        let shape = url_shape(&request.url);
        if !self.by_shape.contains_key(&shape) {
            self.shape_order.push(shape.clone());
        }
        self.by_shape
            .entry(shape.clone())
            .or_default()
            .push_back(entry);
        self.shape_of_entry.push(shape);
        self.entries.push(Some(request));
        self.queue.push_back(entry);
        self.waiting += 1;
    }

    /// Takes back the page fetched for a request and queues its unseen same-site links (and its
    /// redirect target). Links are queued in page order.
    pub fn record(&mut self, page: PageSummary) {
        let depth = page.depth + 1;
        let mut targets: Vec<Url> = page.links.iter().map(|link| link.url.clone()).collect();
        targets.extend(page.redirect.clone());
        for url in targets {
            if !self.is_same_site(&url) {
                continue;
            }
            if self.seen.insert(without_fragment(&url)) {
                self.enqueue(SampleRequest { url, depth });
            }
        }
        self.pages.push(page);
    }

    /// The URLs to fetch once the sample is complete, to settle pairs of linked URLs that may
    /// spell one page (see [`crate::spellings::spelling_checks`]), each at the level of the
    /// first page that linked it. Record their pages with [`Sampler::record`] like any other.
    pub fn spelling_checks(&self) -> Vec<SampleRequest> {
        let sampled: Vec<Url> = self.pages.iter().map(|page| page.url.clone()).collect();
        let mut depth_of: HashMap<String, u32> = HashMap::new();
        let mut linked: Vec<Url> = Vec::new();
        for page in &self.pages {
            for link in &page.links {
                if !self.is_same_site(&link.url) {
                    continue;
                }
                let key = without_fragment(&link.url);
                if let std::collections::hash_map::Entry::Vacant(entry) = depth_of.entry(key) {
                    entry.insert(page.depth + 1);
                    linked.push(link.url.clone());
                }
            }
        }
        crate::spellings::spelling_checks(&sampled, &linked, self.spelling_budget)
            .into_iter()
            .map(|url| SampleRequest {
                depth: depth_of.get(url.as_str()).copied().unwrap_or(1),
                url,
            })
            .collect()
    }

    /// The URLs to fetch once the sample is complete, so that lists whose later pages the
    /// sample met only as links have one sampled page of each kind (see
    /// [`crate::later_pages`]), each a level below the page that linked it. Record their pages
    /// with [`Sampler::record`] like any other.
    pub fn later_page_checks(&self) -> Vec<SampleRequest> {
        let urls =
            crate::later_pages::later_page_checks(&self.pages, self.later_page_budget, |url| {
                self.is_same_site(url)
            });
        self.requests_below_their_first_link(urls)
    }

    /// The URLs to fetch once the sample is complete, so that the test for copies across
    /// layouts has the pairs of pages it needs (see [`crate::partners`]), each at the level of
    /// the first page that linked it. This learns the sample once, so it costs about one
    /// learning run. Record their pages with [`Sampler::record`] like any other.
    pub fn partner_checks(&self) -> Vec<SampleRequest> {
        let urls = crate::partners::partner_checks(&self.pages, self.partner_budget, |url| {
            self.is_same_site(url)
        });
        if urls.is_empty() {
            return Vec::new();
        }
        self.requests_below_their_first_link(urls)
    }

    /// The URLs to fetch once the sample is complete, so that the plan judges the places whose
    /// links the crawler would otherwise follow on trust (see [`crate::unjudged_places`]), each
    /// a level below the page that linked it. This learns the sample once, so it costs about
    /// one learning run. Record their pages with [`Sampler::record`] like any other.
    pub fn unjudged_place_checks(&self) -> Vec<SampleRequest> {
        let urls = crate::unjudged_places::unjudged_place_checks(
            &self.pages,
            self.unjudged_budget,
            |url| self.is_same_site(url),
        );
        self.requests_below_their_first_link(urls)
    }

    /// Requests for `urls`, each a level below the first sampled page that linked it (level 1
    /// for a URL no sampled page links). The checks after the sample are fetched at the level
    /// a walk would have met them.
    fn requests_below_their_first_link(&self, urls: Vec<Url>) -> Vec<SampleRequest> {
        let mut depth_of: HashMap<String, u32> = HashMap::new();
        for page in &self.pages {
            for link in &page.links {
                depth_of
                    .entry(without_fragment(&link.url))
                    .or_insert(page.depth + 1);
            }
        }
        urls.into_iter()
            .map(|url| SampleRequest {
                depth: depth_of.get(&without_fragment(&url)).copied().unwrap_or(1),
                url,
            })
            .collect()
    }

    /// Pages sampled so far.
    pub fn pages(&self) -> &[PageSummary] {
        &self.pages
    }

    /// URLs queued and not yet fetched.
    pub fn queued(&self) -> usize {
        self.waiting
    }

    /// The sample.
    pub fn into_pages(self) -> Vec<PageSummary> {
        self.pages
    }

    fn is_same_site(&self, url: &Url) -> bool {
        matches!(url.scheme(), "http" | "https")
            && url.host_str().map(str::to_ascii_lowercase) == self.host
            && url.port_or_known_default() == self.port
    }

    fn next_random(&mut self) -> u64 {
        self.random_state = self.random_state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut mixed = self.random_state;
        mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        mixed ^ (mixed >> 31)
    }
}

/// A URL's shape: path segments and query values with digits, long parts and opaque parts
/// generalised, query keys sorted. It only needs to be good enough to spread a sample over kinds
/// of URL; the sitemap's own URL patterns are learned later from everything sampled.
pub fn url_shape(url: &Url) -> String {
    let path: Vec<String> = url.path().split('/').map(shape_of_part).collect();
    let mut query: Vec<String> = url
        .query_pairs()
        .map(|(key, value)| format!("{key}={}", shape_of_part(&value)))
        .collect();
    query.sort();
    format!("{}?{}", path.join("/"), query.join("&"))
}

/// One path segment or query value of [`url_shape`]: `*` for a title slug (two hyphens or more
/// between at least two worded pieces) and for a long or opaque part, else the part with each
/// run of digits written `0`.
///
/// A part whose hyphens join numbers to one word is a page kind with its ids, not a slug:
/// `forum-2-1.html` (a board's first page) and `thread-185-3-1.html` (a thread's third page)
/// keep their word, so boards and threads are two shapes. Taken for slugs, they and the
/// members' `space-uid-7.html` were one shape, which the sampler's picks spread over shapes
/// counted as one kind of page: it had sampled that shape many times over before it fetched a
/// board, and 64 pages of the simulator's Discuz! seed 2 held no board at all (97.7 %
/// coverage, every board page missed).
fn shape_of_part(part: &str) -> String {
    let stem = part.split('.').next().unwrap_or(part);
    let pieces: Vec<&str> = stem.split('-').collect();
    let worded = pieces
        .iter()
        .filter(|piece| piece.chars().any(|character| character.is_alphabetic()))
        .count();
    let numbered = pieces.len() >= 3 && worded <= 1;
    if pieces.len() >= 3 && !numbered {
        return "*".to_string();
    }
    if part.len() >= 16 && !numbered {
        return "*".to_string();
    }
    let mut shape = String::new();
    let mut in_digits = false;
    for character in part.chars() {
        if character.is_ascii_digit() {
            if !in_digits {
                shape.push('0');
            }
            in_digits = true;
        } else {
            shape.push(character);
            in_digits = false;
        }
    }
    shape
}

fn without_fragment(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.to_string()
}

/// Why sampling stopped before it began.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    /// The portal itself could not be fetched: nothing can be learned.
    #[error("cannot fetch the portal {url}")]
    Portal {
        /// The portal URL.
        url: String,
        /// What the fetcher said.
        source: FetchError,
    },
}

/// Samples the site at `portal` through `fetcher`, asking each page at the clock's instant, and
/// calls `progress` after every page with the pages sampled so far. Pages that fail to fetch are
/// skipped; only a portal that cannot be fetched at all is an error.
pub fn sample_site(
    fetcher: &dyn Fetcher,
    clock: &dyn Clock,
    portal: Url,
    options: &SampleOptions,
    mut progress: impl FnMut(&Sampler),
) -> Result<Vec<PageSummary>, SampleError> {
    let mut sampler = Sampler::new(portal, options);
    let mut first = true;
    while let Some(request) = sampler.next_request() {
        if !first && !options.delay.is_zero() {
            std::thread::sleep(options.delay);
        }
        let asked_at = clock.now();
        let mut outcome = fetcher.fetch(&FetchRequest::new(request.url.as_str(), asked_at));
        // A site that opens a session on the first visit writes its session id into every link
        // of the page that opened it (until the cookie comes back). The portal is asked for once
        // more, as a returning visitor sees it, so the sample starts from the links everyone
        // else sees. Only the second answer is kept.
        if first
            && outcome
                .as_ref()
                .is_ok_and(|response| response.header("set-cookie").is_some())
        {
            outcome = fetcher.fetch(&FetchRequest::new(request.url.as_str(), clock.now()));
        }
        match outcome {
            Ok(response) => {
                let page = PageSummary::from_response(&request, &response);
                sampler.record(page);
            }
            Err(source) if first => {
                return Err(SampleError::Portal {
                    url: request.url.to_string(),
                    source,
                });
            }
            // A request that produced no page at all (connection refused, timeout) is dropped,
            // not retried: a sample needs breadth more than any one page.
            Err(_) => {}
        }
        first = false;
        progress(&sampler);
    }
    for request in sampler.later_page_checks() {
        if !options.delay.is_zero() {
            std::thread::sleep(options.delay);
        }
        // A later page that cannot be fetched leaves the plan as the sample alone made it.
        if let Ok(response) = fetcher.fetch(&FetchRequest::new(request.url.as_str(), clock.now())) {
            sampler.record(PageSummary::from_response(&request, &response));
            progress(&sampler);
        }
    }
    for request in sampler.partner_checks() {
        if !options.delay.is_zero() {
            std::thread::sleep(options.delay);
        }
        // A partner that cannot be fetched is one piece of evidence fewer: the copy test then
        // judges on what the sample holds, as it would have without partners.
        if let Ok(response) = fetcher.fetch(&FetchRequest::new(request.url.as_str(), clock.now())) {
            sampler.record(PageSummary::from_response(&request, &response));
            progress(&sampler);
        }
    }
    for request in sampler.unjudged_place_checks() {
        if !options.delay.is_zero() {
            std::thread::sleep(options.delay);
        }
        // A place whose link cannot be fetched stays unjudged, as it was without the check.
        if let Ok(response) = fetcher.fetch(&FetchRequest::new(request.url.as_str(), clock.now())) {
            sampler.record(PageSummary::from_response(&request, &response));
            progress(&sampler);
        }
    }
    for request in sampler.spelling_checks() {
        if !options.delay.is_zero() {
            std::thread::sleep(options.delay);
        }
        // A check that fails is one pair fewer; the crawler can still learn the rule itself.
        if let Ok(response) = fetcher.fetch(&FetchRequest::new(request.url.as_str(), clock.now())) {
            sampler.record(PageSummary::from_response(&request, &response));
            progress(&sampler);
        }
    }
    Ok(sampler.into_pages())
}

/// A zero-length pause: kept as a named constant so tests read as intended.
pub const NO_DELAY: std::time::Duration = std::time::Duration::ZERO;

#[cfg(test)]
mod tests {
    use super::url_shape;

    #[track_caller]
    fn check(url: &str, expected: &str) {
        let url = url::Url::parse(url).expect("a URL");
        assert_eq!(url_shape(&url), expected, "{url}");
    }

    #[test]
    fn slugs_long_parts_and_opaque_parts_are_one_shape() {
        check(
            "http://f.test/c/tech/my-laptop-fails-to-boot/",
            "/c/tech/*/?",
        );
        check("http://f.test/t/123-my-laptop-fails/", "/t/*/?");
        check("http://f.test/space-uid-7.html", "/*?");
        check("http://f.test/s/0123456789abcdefXYZ/", "/s/*/?");
        check("http://f.test/?sid=0123456789abcdef0123", "/?sid=*");
    }

    #[test]
    fn page_kinds_with_numbers_keep_their_word() {
        check("http://f.test/forum-2-1.html", "/forum-0-0.html?");
        check("http://f.test/thread-185-3-1.html", "/thread-0-0-0.html?");
        check(
            "http://f.test/viewtopic.php?t=12&start=20",
            "/viewtopic.php?start=0&t=0",
        );
        check("http://f.test/2025-11/msg00012.html", "/0-0/msg0.html?");
        check("http://f.test/t/slow-boot/4", "/t/slow-boot/0?");
    }
}
