//! The behaviour graph over patterns and its two rankings (our design; see the crate essay).

use serde::{Deserialize, Serialize};

use crate::frequencies::Frequencies;
use crate::tree::PatternTree;

/// Probability that the simulated user follows a link rather than entering the site afresh.
pub const FOLLOW_PROBABILITY: f64 = 0.85;

/// Share of the log, from its start, whose URLs count as already known for discovery: a URL
/// first named after it is a new page, and the page it was first reached from found it.
pub const DISCOVERY_WARM_UP: f64 = 0.25;

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
    /// Attention per URL: the comprehensive-fetch score.
    pub fetch: f64,
    /// New URLs first reached from the pattern's URLs.
    pub new_pages_found: u32,
    /// New URLs found per URL of the pattern: the discovery score.
    pub discovery: f64,
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
        let warm_up = (frequencies.records() as f64 * DISCOVERY_WARM_UP).ceil() as usize;
        for (id, &pattern) in pattern_of.iter().enumerate() {
            let id = id as u32;
            urls[pattern] += 1;
            entries[pattern] += f64::from(frequencies.entries_of(id));
            visits[pattern] += f64::from(frequencies.f_in_of(id));
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
        let mut subtree_attention = attention;
        let mut subtree_found: Vec<u32> = new_pages_found;
        for id in (1..node_count).rev() {
            if let Some(parent) = tree.nodes[id].parent {
                subtree_urls[parent] += subtree_urls[id];
                subtree_attention[parent] += subtree_attention[id];
                subtree_found[parent] += subtree_found[id];
            }
        }
        let scores = (0..node_count)
            .map(|id| {
                let urls = subtree_urls[id].max(1.0);
                PatternScores {
                    attention: subtree_attention[id],
                    fetch: subtree_attention[id] / urls,
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
