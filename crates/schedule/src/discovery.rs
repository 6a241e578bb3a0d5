//! Re-crawling where people find new pages: the discovery ranking of browse behaviour (issue 21)
//! turned into a revisit policy.
//!
//! The behaviour crate scores each URL pattern for *timely discovery*: how many pages, new when
//! users reached them, were first reached from a page of the pattern, per URL of the pattern. A
//! board's first page scores far above a thread page, a "new posts" view above a member profile.
//! This crate knows nothing of URLs or patterns, so the driver hands the policy a plain score per
//! page of a list ([`PageScores`]), computed from whatever ranking it has; the policy keeps no
//! other knowledge of the site.
//!
//! What the policy does with the scores is our design. Read as it is defined, a discovery score
//! is a rate: new pages reached from one URL of the pattern over the logged period. Polling a
//! page at frequency fᵢ leaves a new page reachable from it waiting half a gap on average, and
//! the mean wait over all new pages, Σλᵢ/(2fᵢ) / Σλᵢ under a budget Σfᵢ = B, is least for
//! fᵢ ∝ √λᵢ (the derivation in [`crate::optimal`]). So every page the crawl has fetched is
//! re-crawled at a frequency proportional to the square root of its score, its polls falling
//! where its visiting credit crosses a whole number, as the other rate-driven policies here do;
//! within a window the polls come in time order, the better scored page first at one instant,
//! so plans are deterministic.
//!
//! A page scored zero (no user reached anything new from its kind, or no user visited its kind
//! at all) is not dropped: it weighs a tenth of the least positive weight, so the archive still
//! refreshes it, after everything users show new pages appear on. Like every baseline, the
//! policy fetches the backlog of pages known and never fetched first and the pages of newly
//! discovered threads at once, so against breadth-first re-crawling (`bfs`) at the same budget
//! the one difference is which known pages the re-crawl visits, and how often.

use std::collections::HashMap;

use crate::lists::{FetchedPage, ListChange, ListId, Lists};
use crate::policy::{Allowance, Credit, PageRequest, Policy, Window, discovery_follow_ups};

/// The driver's discovery score of page `page` (1-based) of a list: how likely new pages are to
/// appear linked from it. Any non-negative scale; only ratios matter.
pub struct PageScores {
    score: Box<dyn Fn(ListId, u32) -> f64 + Send>,
}

impl PageScores {
    pub fn new(score: impl Fn(ListId, u32) -> f64 + Send + 'static) -> Self {
        PageScores {
            score: Box::new(score),
        }
    }

    /// The score of a page; a negative or non-finite answer counts as zero.
    pub fn of(&self, list: ListId, page: u32) -> f64 {
        let score = (self.score)(list, page);
        if score.is_finite() {
            score.max(0.0)
        } else {
            0.0
        }
    }
}

impl std::fmt::Debug for PageScores {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("PageScores(..)")
    }
}

/// Share of the least positive weight a page scored zero is given.
const UNSCORED_SHARE: f64 = 0.1;

/// One page the re-crawl revisits: its weight (the square root of its score) and its credit.
#[derive(Clone, Copy, Debug)]
struct Unit {
    weight: f64,
    credit: Credit,
}

impl Unit {
    /// The weight the re-crawl gives the page: its own, or `floor` when it is scored zero.
    fn weight_or(&self, floor: f64) -> f64 {
        if self.weight > 0.0 {
            self.weight
        } else {
            floor
        }
    }
}

/// Re-crawls every fetched page at a frequency proportional to the square root of its discovery
/// score (`behaviour`). See the module documentation.
#[derive(Debug)]
pub struct DiscoveryRanked {
    allowance: Allowance,
    scores: PageScores,
    /// Every page scored so far; a page's address does not change, so neither does its score.
    units: HashMap<(ListId, u32), Unit>,
}

impl DiscoveryRanked {
    pub fn new(scores: PageScores) -> Self {
        DiscoveryRanked {
            allowance: Allowance::default(),
            scores,
            units: HashMap::new(),
        }
    }

    /// The weight the re-crawl gives a page it has scored (`None` before its first plan).
    pub fn weight(&self, list: ListId, page: u32) -> Option<f64> {
        self.units.get(&(list, page)).map(|unit| unit.weight)
    }
}

/// A phase in [0, 1) for one page of a list, so that pages polled at the same rate do not all
/// come due at once (SplitMix64's finaliser over list and page).
fn page_phase(list: ListId, page: u32) -> f64 {
    let mut z = list
        .0
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(page).wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

impl Policy for DiscoveryRanked {
    fn name(&self) -> &'static str {
        "behaviour"
    }

    fn plan(&mut self, lists: &Lists, window: Window, budget: u32) -> Vec<PageRequest> {
        let (mut requests, slots) = self.allowance.begin_with_backlog(lists, window, budget);
        let mut pages: Vec<(ListId, u32)> = Vec::new();
        for list in lists.iter() {
            for page in 1..=list.page_count {
                if list.page_fetched(page) {
                    pages.push((list.id, page));
                }
            }
        }
        for &(list, page) in &pages {
            let scores = &self.scores;
            self.units.entry((list, page)).or_insert_with(|| Unit {
                weight: scores.of(list, page).sqrt(),
                credit: Credit::with_phase(page_phase(list, page)),
            });
        }
        let least_positive = pages
            .iter()
            .map(|key| self.units[key].weight)
            .filter(|&weight| weight > 0.0)
            .fold(f64::INFINITY, f64::min);
        let floor = if least_positive.is_finite() {
            least_positive * UNSCORED_SHARE
        } else {
            // Nothing is scored: every page alike, a plain cyclic re-crawl.
            1.0
        };
        let total: f64 = pages
            .iter()
            .map(|key| self.units[key].weight_or(floor))
            .sum();
        let mut polls: Vec<(f64, f64, ListId, u32)> = Vec::new();
        if total > 0.0 && slots > 0 {
            let pool = slots as f64 / window.seconds();
            let start = window.start_second() as f64;
            let mut instants = Vec::new();
            for &(list, page) in &pages {
                let unit = self
                    .units
                    .get_mut(&(list, page))
                    .expect("every page was scored above");
                let weight = unit.weight_or(floor);
                instants.clear();
                unit.credit.advance(
                    start,
                    window.seconds(),
                    pool * weight / total,
                    &mut instants,
                );
                polls.extend(
                    instants
                        .iter()
                        .map(|&instant| (instant, weight, list, page)),
                );
            }
        }
        polls.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(b.1.total_cmp(&a.1))
                .then((a.2, a.3).cmp(&(b.2, b.3)))
        });
        polls.truncate(slots);
        requests.extend(
            polls
                .into_iter()
                .map(|(instant, _, list, page)| PageRequest::at_second(instant, list, page)),
        );
        self.allowance.charge_plan(requests.len());
        requests
    }

    fn observe(
        &mut self,
        lists: &Lists,
        fetched: &FetchedPage,
        change: &ListChange,
    ) -> Vec<PageRequest> {
        let wanted = discovery_follow_ups(lists, fetched, change);
        self.allowance.follow_ups(fetched.fetched_at, wanted)
    }
}

#[cfg(test)]
mod tests;
