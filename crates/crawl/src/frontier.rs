//! The frontier: first in, first out, unless the caller orders it.
//!
//! Without a priority the frontier is the breadth-first queue the crawler always had. With a
//! [`FrontierPriority`] (a function from a URL to its kind and a score, such as the behaviour
//! ranking of `trawl-behaviour`, whose patterns give every URL, even one never seen, a value),
//! the URL with the highest score leaves first, and URLs of equal score leave in the order they
//! came. The crawler does not know where scores come from: the plan decides what is followed,
//! the priority only in what order.
//!
//! *Chains.* A URL linked from a page of its own kind continues that page's chain (a list's
//! next page, the next page of search results); its score is multiplied by the priority's
//! chain factor once for each link of the chain. A kind scored above the others would
//! otherwise be walked down as far as it goes before anything else, and some lists (search
//! results) never end; breadth-first lets each chain advance one link per level, and so does
//! a factor below one, after a number of links set by how far the kind is scored above the
//! rest. The chain of each URL waiting is kept only while it is longer than zero; a crawl
//! resumed from its store starts every chain again at the URLs waiting.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;
use std::sync::Arc;

use crate::{WaitingUrl, url_key};

/// A URL's kind (URLs of one kind linked one from another form a chain; `None` for a URL of
/// no kind, which never chains) and its score.
type UrlRank = dyn Fn(&str) -> (Option<usize>, f64) + Send + Sync;

/// A kind and a score for each URL; higher leaves the frontier first, each link of a chain of
/// one kind multiplying the score by the chain factor.
#[derive(Clone)]
pub struct FrontierPriority {
    rank: Arc<UrlRank>,
    chain_factor: f64,
}

impl FrontierPriority {
    /// A priority ranking URLs by `rank` (their kind and score; NaN and negative scores count
    /// as zero), with no discount along chains.
    pub fn new(rank: impl Fn(&str) -> (Option<usize>, f64) + Send + Sync + 'static) -> Self {
        FrontierPriority {
            rank: Arc::new(rank),
            chain_factor: 1.0,
        }
    }

    /// The same priority, multiplying a URL's score by `factor` for each link of the chain of
    /// its kind it was reached by.
    pub fn with_chain_factor(mut self, factor: f64) -> FrontierPriority {
        self.chain_factor = factor;
        self
    }

    /// The order key of a score: a score's bits order like the score for non-negative numbers.
    fn key_of(score: f64) -> u64 {
        if score.is_finite() && score > 0.0 {
            score.to_bits()
        } else {
            0
        }
    }
}

impl fmt::Debug for FrontierPriority {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "FrontierPriority(chain factor {})",
            self.chain_factor
        )
    }
}

/// The page links were found on, as the frontier needs it: its kind and the chain it is on.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct LinkSource {
    kind: Option<usize>,
    chain: u32,
}

/// URLs waiting, by priority then arrival.
#[derive(Debug, Clone, Default)]
pub(crate) struct Frontier {
    /// URLs put back to be fetched before anything else (the portal asked for again).
    front: VecDeque<WaitingUrl>,
    /// Queues by order key, highest first; without a priority there is one queue, key 0.
    queues: BTreeMap<std::cmp::Reverse<u64>, VecDeque<WaitingUrl>>,
    priority: Option<FrontierPriority>,
    /// The chain of each URL waiting at a chain longer than zero, by URL key (the links of its
    /// kind followed in a row to reach it), until its page is recorded.
    chains: HashMap<u64, u32>,
    len: usize,
}

impl Frontier {
    /// Queues a URL found on no page of a chain (the portal, a URL waiting when the crawl
    /// resumed) or whose chain is already kept.
    pub(crate) fn push_back(&mut self, waiting: WaitingUrl) {
        let key = match &self.priority {
            None => 0,
            Some(priority) => {
                let (_, score) = (priority.rank)(&waiting.url);
                let chain = self
                    .chains
                    .get(&url_key(&waiting.url))
                    .copied()
                    .unwrap_or(0);
                FrontierPriority::key_of(score * priority.chain_factor.powi(chain as i32))
            }
        };
        self.queue(key, waiting);
    }

    /// What the frontier needs to know of the page at `url`, fetched, to queue the links found
    /// on it. The page's chain is forgotten: nothing asks for it again.
    pub(crate) fn take_source(&mut self, url: &str) -> LinkSource {
        match &self.priority {
            None => LinkSource::default(),
            Some(priority) => LinkSource {
                kind: (priority.rank)(url).0,
                chain: self.chains.remove(&url_key(url)).unwrap_or(0),
            },
        }
    }

    /// Queues a URL found on the page `source` describes: a URL of the page's kind continues
    /// its chain.
    pub(crate) fn push_link(&mut self, waiting: WaitingUrl, source: LinkSource) {
        let Some(priority) = &self.priority else {
            self.queue(0, waiting);
            return;
        };
        let (kind, score) = (priority.rank)(&waiting.url);
        let chain = if kind.is_some() && kind == source.kind {
            source.chain.saturating_add(1)
        } else {
            0
        };
        if chain > 0 {
            self.chains.insert(url_key(&waiting.url), chain);
        }
        let key = FrontierPriority::key_of(score * priority.chain_factor.powi(chain as i32));
        self.queue(key, waiting);
    }

    fn queue(&mut self, key: u64, waiting: WaitingUrl) {
        self.queues
            .entry(std::cmp::Reverse(key))
            .or_default()
            .push_back(waiting);
        self.len += 1;
    }

    pub(crate) fn push_front(&mut self, waiting: WaitingUrl) {
        self.front.push_front(waiting);
        self.len += 1;
    }

    pub(crate) fn pop_front(&mut self) -> Option<WaitingUrl> {
        if let Some(waiting) = self.front.pop_front() {
            self.len -= 1;
            return Some(waiting);
        }
        let mut first = self.queues.first_entry()?;
        let waiting = first.get_mut().pop_front();
        if first.get().is_empty() {
            first.remove();
        }
        if waiting.is_some() {
            self.len -= 1;
        }
        waiting
    }

    pub(crate) fn priority(&self) -> Option<&FrontierPriority> {
        self.priority.as_ref()
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Orders the frontier by `priority` from now on, the URLs waiting included (each keeps
    /// its place among URLs of equal score, and its chain).
    pub(crate) fn set_priority(&mut self, priority: Option<FrontierPriority>) {
        let waiting: Vec<WaitingUrl> = std::mem::take(&mut self.queues)
            .into_values()
            .flatten()
            .collect();
        self.len = self.front.len();
        self.priority = priority;
        for url in waiting {
            self.push_back(url);
        }
    }
}

impl FromIterator<WaitingUrl> for Frontier {
    fn from_iter<I: IntoIterator<Item = WaitingUrl>>(urls: I) -> Frontier {
        let mut frontier = Frontier::default();
        for url in urls {
            frontier.push_back(url);
        }
        frontier
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(url: &str) -> WaitingUrl {
        WaitingUrl {
            url: url.into(),
            depth: 1,
            redirects: 0,
        }
    }

    /// Scores a URL by the number after its last `=` (none: 0); its kind is its first letter
    /// after the slash.
    fn by_number(url: &str) -> (Option<usize>, f64) {
        let number = url
            .rsplit('=')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0.0);
        (url.as_bytes().get(1).map(|&byte| usize::from(byte)), number)
    }

    /// Queues `urls`, with `front` put back in front after them, and checks the order they
    /// leave in under [`by_number`].
    fn check(prioritised: bool, urls: &[&str], front: Option<&str>, expected: &[&str]) {
        let mut frontier: Frontier = urls.iter().map(|url| waiting(url)).collect();
        if prioritised {
            frontier.set_priority(Some(FrontierPriority::new(by_number)));
        }
        if let Some(url) = front {
            frontier.push_front(waiting(url));
        }
        assert_eq!(frontier.len(), urls.len() + usize::from(front.is_some()));
        let mut order = Vec::new();
        while let Some(next) = frontier.pop_front() {
            order.push(next.url.to_string());
        }
        assert_eq!(order, expected);
        assert_eq!(frontier.len(), 0);
    }

    /// A crawl of pages each linking the pages `links` names, from `start`, under
    /// [`by_number`] with a chain factor of one half: the order pages are fetched in, up to
    /// `fetches`.
    fn check_chains(
        start: &str,
        links: impl Fn(&str) -> Vec<String>,
        fetches: usize,
        expected: &[&str],
    ) {
        let mut frontier = Frontier::default();
        frontier.set_priority(Some(
            FrontierPriority::new(by_number).with_chain_factor(0.5),
        ));
        frontier.push_back(waiting(start));
        let mut order = Vec::new();
        let mut seen = std::collections::HashSet::new();
        while let Some(page) = frontier.pop_front() {
            order.push(page.url.to_string());
            if order.len() == fetches {
                break;
            }
            let source = frontier.take_source(&page.url);
            for link in links(&page.url) {
                if seen.insert(link.clone()) {
                    frontier.push_link(waiting(&link), source);
                }
            }
        }
        assert_eq!(order, expected);
    }

    #[test]
    fn the_frontier_leaves_by_priority_then_arrival() {
        check(
            false,
            &["/a=1", "/b=3", "/c"],
            None,
            &["/a=1", "/b=3", "/c"],
        );
        check(true, &["/a=1", "/b=3", "/c"], None, &["/b=3", "/a=1", "/c"]);
        check(
            true,
            &["/a=2", "/b=5", "/c=2", "/d=5"],
            None,
            &["/b=5", "/d=5", "/a=2", "/c=2"],
        );
        check(
            true,
            &["/a=1", "/b=3"],
            Some("/portal"),
            &["/portal", "/b=3", "/a=1"],
        );
        check(
            true,
            &["/a=-4", "/b=NaN", "/c=1"],
            None,
            &["/c=1", "/a=-4", "/b=NaN"],
        );
    }

    #[test]
    fn a_chain_of_one_kind_falls_behind_within_a_few_links() {
        // An endless list scored 8 (`/s=8`, each page naming the next) beside messages scored
        // 2: by score alone the list would be walked for ever; halved at each link of its
        // chain, its third page waits behind the messages, which came first.
        let links = |url: &str| -> Vec<String> {
            match url {
                "/p=9" => vec!["/s=8".into(), "/m=2".into(), "/n=2".into()],
                url if url.starts_with("/s") => {
                    let page = url.len();
                    vec![format!("/s{}=8", "x".repeat(page - 3))]
                }
                _ => Vec::new(),
            }
        };
        check_chains(
            "/p=9",
            links,
            6,
            &["/p=9", "/s=8", "/sx=8", "/m=2", "/n=2", "/sxx=8"],
        );
        // Links to other kinds start no chain: `/a2=5`, found on a page of another kind than
        // `/a=5`, keeps its score (discounted, 2.5, it would wait behind `/c=3`).
        let crossing = |url: &str| -> Vec<String> {
            match url {
                "/p=9" => vec!["/a=5".into()],
                "/a=5" => vec!["/b=4".into()],
                "/b=4" => vec!["/c=3".into(), "/a2=5".into()],
                _ => Vec::new(),
            }
        };
        check_chains(
            "/p=9",
            crossing,
            5,
            &["/p=9", "/a=5", "/b=4", "/a2=5", "/c=3"],
        );
    }
}
