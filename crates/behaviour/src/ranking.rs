//! The behaviour graph over patterns and its two rankings (our design; see the crate essay).

use serde::{Deserialize, Serialize};

use crate::frequencies::Frequencies;
use crate::tree::PatternTree;

/// Probability that the simulated user follows a link rather than entering the site afresh.
pub const FOLLOW_PROBABILITY: f64 = 0.85;

/// Share of the log, from its start, whose URLs count as already known for discovery: a URL
/// first named after it is a new page, and the page it was first reached from found it.
pub const DISCOVERY_WARM_UP: f64 = 0.25;

/// A pattern's exposure is never counted below this share of the log: a pattern first met in
/// the log's last records would otherwise have its few visits multiplied without bound.
pub const EXPOSURE_FLOOR: f64 = 1.0 / 32.0;

/// Records (F_in + F_out) a pattern needs before its exposure counts; below, it is taken as
/// exposed the whole log, since a handful of visits says nothing about when its pages appeared.
pub const EXPOSURE_MIN_RECORDS: u32 = 8;

/// The share of the log a pattern (or a part of a split) was known: from the record that
/// first named one of its URLs to the end, at least [`EXPOSURE_FLOOR`]. Visits per URL divided
/// by it are visits per URL per log's length, which a month folder opened three days before
/// the log ended can be compared by with one open all along.
///
/// A pattern is young only when users first met it after the warm-up ([`DISCOVERY_WARM_UP`])
/// and it has at least [`EXPOSURE_MIN_RECORDS`] records; otherwise it counts as known the whole
/// log. The first visit of a rarely read kind of page (the fifth page of long threads) comes
/// late even when its pages existed all along; with a few records, it comes in the warm-up
/// mostly, while a kind of page that did not exist then cannot.
pub fn exposure(first_record: usize, records: usize, evidence: u32) -> f64 {
    let warm_up = (records as f64 * DISCOVERY_WARM_UP).ceil() as usize;
    if evidence < EXPOSURE_MIN_RECORDS || records == 0 || first_record < warm_up {
        return 1.0;
    }
    let records = records as f64;
    ((records - first_record.min(records as usize) as f64) / records).max(EXPOSURE_FLOOR)
}

/// The two crawling goals the paper ranks patterns for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Goal {
    /// Fetching a site comprehensively, the pages users value first.
    Fetch,
    /// Discovering new pages soon after they appear.
    Discovery,
}

/// Transitions between two patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PatternEdge {
    /// The referrers' pattern (a node id).
    pub from: usize,
    /// The targets' pattern.
    pub to: usize,
    /// Sum of F_trans over their URL pairs.
    pub count: u32,
}

/// The scores of one pattern.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct PatternScores {
    /// Share of the random user's attention on the pattern's URLs (stationary distribution).
    pub attention: f64,
    /// Attention per URL per share of the log the pattern was known: the comprehensive-fetch
    /// score.
    pub fetch: f64,
    /// Share of the log, from the first record naming one of the pattern's URLs to the end,
    /// averaged over the URLs of an inner node's subtree (see [`EXPOSURE_FLOOR`] and
    /// [`EXPOSURE_MIN_RECORDS`]). Absent from files written before it existed: 1.
    #[serde(default = "whole_log")]
    pub exposure: f64,
    /// New URLs first reached from the pattern's URLs.
    pub new_pages_found: u32,
    /// New URLs found per URL of the pattern: the discovery score.
    pub discovery: f64,
}

fn whole_log() -> f64 {
    1.0
}

/// The behaviour graph and the scores of every tree node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BehaviourGraph {
    /// Pattern-to-pattern transitions, largest first.
    pub edges: Vec<PatternEdge>,
    /// Scores by node id; an inner node's are its subtree's (for URLs that stop there).
    pub scores: Vec<PatternScores>,
}

impl BehaviourGraph {
    /// Places every URL of the log in its pattern, sums the transitions between patterns and
    /// scores each pattern for both goals.
    pub fn build(tree: &PatternTree, frequencies: &Frequencies) -> BehaviourGraph {
        let node_count = tree.nodes.len();
        let pattern_of: Vec<usize> = frequencies
            .urls()
            .iter()
            .map(|url| tree.classify(url))
            .collect();
        let mut edge_counts: std::collections::BTreeMap<(usize, usize), u32> = Default::default();
        for ((from, to), count) in frequencies.transitions() {
            *edge_counts
                .entry((pattern_of[from as usize], pattern_of[to as usize]))
                .or_default() += count;
        }
        let mut edges: Vec<PatternEdge> = edge_counts
            .into_iter()
            .map(|((from, to), count)| PatternEdge { from, to, count })
            .collect();
        edges.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then((a.from, a.to).cmp(&(b.from, b.to)))
        });

        let mut urls = vec![0u32; node_count];
        let mut entries = vec![0.0; node_count];
        let mut visits = vec![0.0; node_count];
        let mut new_pages_found = vec![0u32; node_count];
        let mut first_record = vec![usize::MAX; node_count];
        let mut evidence = vec![0u32; node_count];
        let warm_up = (frequencies.records() as f64 * DISCOVERY_WARM_UP).ceil() as usize;
        for (id, &pattern) in pattern_of.iter().enumerate() {
            let id = id as u32;
            urls[pattern] += 1;
            entries[pattern] += f64::from(frequencies.entries_of(id));
            visits[pattern] += f64::from(frequencies.f_in_of(id));
            first_record[pattern] = first_record[pattern].min(frequencies.first_seen_of(id));
            evidence[pattern] += frequencies.f_in_of(id) + frequencies.f_out_of(id);
            if frequencies.first_seen_of(id) >= warm_up
                && let Some(referrer) = frequencies.first_referrer_of(id)
            {
                new_pages_found[pattern_of[referrer as usize]] += 1;
            }
        }
        let attention = stationary_attention(node_count, &edges, &entries, &visits);

        // Inner nodes take their subtree's sums, so a URL that stops at an inner node (no child
        // takes its value) is scored as an average URL under it. Children have larger ids than
        // their parents, so one pass from the last node up adds every subtree.
        let mut subtree_urls: Vec<f64> = urls.iter().map(|&count| f64::from(count)).collect();
        // URLs weighted by the share of the log their pattern was known: see `exposure`.
        let mut subtree_exposed_urls: Vec<f64> = (0..node_count)
            .map(|id| {
                f64::from(urls[id])
                    * exposure(first_record[id], frequencies.records(), evidence[id])
            })
            .collect();
        let mut subtree_attention = attention;
        let mut subtree_found: Vec<u32> = new_pages_found;
        for id in (1..node_count).rev() {
            if let Some(parent) = tree.nodes[id].parent {
                subtree_urls[parent] += subtree_urls[id];
                subtree_exposed_urls[parent] += subtree_exposed_urls[id];
                subtree_attention[parent] += subtree_attention[id];
                subtree_found[parent] += subtree_found[id];
            }
        }
        let scores = (0..node_count)
            .map(|id| {
                let exposed_urls = subtree_exposed_urls[id];
                let urls = subtree_urls[id].max(1.0);
                PatternScores {
                    attention: subtree_attention[id],
                    fetch: if exposed_urls > 0.0 {
                        subtree_attention[id] / exposed_urls
                    } else {
                        0.0
                    },
                    exposure: if subtree_urls[id] > 0.0 {
                        exposed_urls / subtree_urls[id]
                    } else {
                        1.0
                    },
                    new_pages_found: subtree_found[id],
                    discovery: f64::from(subtree_found[id]) / urls,
                }
            })
            .collect();
        BehaviourGraph { edges, scores }
    }
}

/// The stationary distribution of a user who, on a page of pattern p, follows a link to
/// pattern q with the share of p's transitions going to q (with [`FOLLOW_PROBABILITY`]), or
/// enters the site afresh where users enter it (the entries; where a log records none, where
/// users arrive). Power iteration until the change is negligible.
fn stationary_attention(
    node_count: usize,
    edges: &[PatternEdge],
    entries: &[f64],
    visits: &[f64],
) -> Vec<f64> {
    let restart_weights = if entries.iter().sum::<f64>() > 0.0 {
        entries
    } else {
        visits
    };
    let restart_total: f64 = restart_weights.iter().sum();
    if restart_total <= 0.0 {
        return vec![0.0; node_count];
    }
    let restart: Vec<f64> = restart_weights
        .iter()
        .map(|weight| weight / restart_total)
        .collect();
    let mut out_total = vec![0.0; node_count];
    for edge in edges {
        out_total[edge.from] += f64::from(edge.count);
    }
    let mut attention = restart.clone();
    for _ in 0..200 {
        let mut next = vec![0.0; node_count];
        let mut restarting = 1.0 - FOLLOW_PROBABILITY;
        for (node, &share) in attention.iter().enumerate() {
            if out_total[node] == 0.0 {
                restarting += FOLLOW_PROBABILITY * share;
            }
        }
        for edge in edges {
            next[edge.to] += FOLLOW_PROBABILITY * attention[edge.from] * f64::from(edge.count)
                / out_total[edge.from];
        }
        // Mass on nodes without outgoing transitions restarts; the rest of the restart share
        // is the users who leave and come back.
        let mut change = 0.0;
        for node in 0..node_count {
            next[node] += restarting * restart[node];
            change += (next[node] - attention[node]).abs();
        }
        attention = next;
        if change < 1e-12 {
            break;
        }
    }
    attention
}
