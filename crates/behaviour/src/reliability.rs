//! Whether patterns learned from one period still rank the next: the paper's "temporally
//! reliable". Patterns learned from the first period's log score the URLs of the second;
//! Spearman's rank correlation between those scores and how often users really visited the
//! URLs then says how well they rank pages the patterns never saw.

use std::collections::HashSet;

use crate::PatternModel;
use crate::frequencies::Frequencies;
use crate::log::BrowseLog;
use crate::ranking::Goal;

/// Spearman's rank correlation of two equally long series (ties take their average rank);
/// `None` when fewer than two pairs or either series is constant.
pub fn spearman(first: &[f64], second: &[f64]) -> Option<f64> {
    if first.len() != second.len() || first.len() < 2 {
        return None;
    }
    let first = average_ranks(first);
    let second = average_ranks(second);
    let count = first.len() as f64;
    let mean = (count + 1.0) / 2.0;
    let mut covariance = 0.0;
    let mut first_variance = 0.0;
    let mut second_variance = 0.0;
    for (a, b) in first.iter().zip(&second) {
        covariance += (a - mean) * (b - mean);
        first_variance += (a - mean) * (a - mean);
        second_variance += (b - mean) * (b - mean);
    }
    if first_variance == 0.0 || second_variance == 0.0 {
        return None;
    }
    Some(covariance / (first_variance * second_variance).sqrt())
}

fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end + 1 < order.len() && values[order[end + 1]] == values[order[start]] {
            end += 1;
        }
        let rank = (start + end) as f64 / 2.0 + 1.0;
        for &index in &order[start..=end] {
            ranks[index] = rank;
        }
        start = end + 1;
    }
    ranks
}

/// How well `model` ranks the URLs of `log` by `goal`: Spearman's correlation between each
/// URL's priority and its F_in in the log, over the URLs `only_new_beside` does not name (all
/// URLs when it is `None`), with the number of URLs compared.
pub fn rank_correlation(
    model: &PatternModel,
    log: &BrowseLog,
    goal: Goal,
    only_new_beside: Option<&BrowseLog>,
) -> (Option<f64>, usize) {
    let known: HashSet<&str> = only_new_beside
        .map(|earlier| {
            earlier
                .transitions
                .iter()
                .flat_map(|transition| {
                    std::iter::once(transition.target.as_str())
                        .chain(transition.referrer.as_deref())
                })
                .collect()
        })
        .unwrap_or_default();
    let frequencies = Frequencies::of(log);
    let mut scores = Vec::new();
    let mut visits = Vec::new();
    for (id, url) in frequencies.urls().iter().enumerate() {
        if known.contains(url.as_str()) {
            continue;
        }
        scores.push(model.priority(url, goal));
        visits.push(f64::from(frequencies.f_in_of(id as u32)));
    }
    (spearman(&scores, &visits), scores.len())
}
