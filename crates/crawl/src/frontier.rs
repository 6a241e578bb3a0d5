//! The frontier: first in, first out, unless the caller orders it.
//!
//! Without a priority the frontier is the breadth-first queue the crawler always had. With a
//! [`FrontierPriority`] (a function from a URL and its depth, the links followed from the portal
//! to it, to a score, such as the behaviour ranking of `trawl-behaviour`, whose patterns give
//! every URL, even one never seen, a value), the URL with the highest score leaves first, and
//! URLs of equal score leave in the order they came. The crawler does not know where scores
//! come from: the plan decides what is followed, the priority only in what order.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::sync::Arc;

use crate::WaitingUrl;

/// A score of a URL and its depth.
type UrlScore = dyn Fn(&str, u32) -> f64 + Send + Sync;

/// A score for each URL at its depth; higher leaves the frontier first.
#[derive(Clone)]
pub struct FrontierPriority(Arc<UrlScore>);

impl FrontierPriority {
    /// A priority scoring URLs by `score` of the URL and its depth, the links followed from the
    /// portal to reach it (NaN and negative scores count as zero).
    pub fn new(score: impl Fn(&str, u32) -> f64 + Send + Sync + 'static) -> FrontierPriority {
        FrontierPriority(Arc::new(score))
    }

    /// The order key of `url` at `depth`: a score's bits order like the score for non-negative
    /// numbers.
    fn key_of(&self, url: &str, depth: u32) -> u64 {
        let score = (self.0)(url, depth);
        if score.is_finite() && score > 0.0 {
            score.to_bits()
        } else {
            0
        }
    }
}

impl fmt::Debug for FrontierPriority {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("FrontierPriority(..)")
    }
}

/// URLs waiting, by priority then arrival.
#[derive(Debug, Clone, Default)]
pub(crate) struct Frontier {
    /// URLs put back to be fetched before anything else (the portal asked for again).
    front: VecDeque<WaitingUrl>,
    /// Queues by order key, highest first; without a priority there is one queue, key 0.
    queues: BTreeMap<std::cmp::Reverse<u64>, VecDeque<WaitingUrl>>,
    priority: Option<FrontierPriority>,
    len: usize,
}

impl Frontier {
    pub(crate) fn push_back(&mut self, waiting: WaitingUrl) {
        let key = self
            .priority
            .as_ref()
            .map_or(0, |priority| priority.key_of(&waiting.url, waiting.depth));
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
    /// its place among URLs of equal score).
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

    /// A waiting URL; a depth other than 1 is written after a `@` (`/a=4@2`).
    fn waiting(url: &str) -> WaitingUrl {
        let depth = url
            .split_once('@')
            .and_then(|(_, depth)| depth.parse().ok())
            .unwrap_or(1);
        WaitingUrl {
            url: url.into(),
            depth,
            redirects: 0,
        }
    }

    /// Queues `urls`, with `front` put back in front after them, and checks the order they
    /// leave in under a priority scoring a URL by the number after its last `=` (none: 0)
    /// divided by its depth.
    fn check(prioritised: bool, urls: &[&str], front: Option<&str>, expected: &[&str]) {
        let mut frontier: Frontier = urls.iter().map(|url| waiting(url)).collect();
        if prioritised {
            frontier.set_priority(Some(FrontierPriority::new(|url: &str, depth: u32| {
                let number: f64 = url
                    .split('@')
                    .next()
                    .and_then(|url| url.rsplit('=').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0.0);
                number / f64::from(depth)
            })));
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
        // The depth is the priority's to weigh: 6 at depth 3 scores 2, below 3 at depth 1.
        check(
            true,
            &["/a=6@3", "/b=3", "/c=4@2"],
            None,
            &["/b=3", "/a=6@3", "/c=4@2"],
        );
    }
}
