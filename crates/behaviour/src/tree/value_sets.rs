//! The value sets a split's clusters take: their literals, absence, the pooled values'
//! wildcard, and where unseen values with digits go.

use std::collections::BTreeMap;

use super::{Bucket, Part, ValueSet, Wildcard};
use crate::frequencies::{Frequencies, UrlId};
use crate::ranking::DISCOVERY_WARM_UP;
use crate::url_parts::{DecomposedUrl, Key, compare_numbers_in, is_number, number_form};

/// The value set of each cluster. The rare pool's wildcard goes with the cluster holding it;
/// an unseen value with digits goes to the cluster holding the most URLs whose literal has its
/// form (page numbers and offsets beyond any seen), so pages never visited still find their
/// pattern.
///
/// A form is *growing* when its greatest literal was first met after the log's warm-up
/// ([`DISCOVERY_WARM_UP`]): the value appeared while users were browsing (the month that began
/// during the log). Its cluster then also takes unseen values greater than it
/// ([`ValueSet::newest`]): the values that appear next are younger still, and users treat young
/// values alike, whatever the form's most common values were.
pub(super) fn value_sets(
    clusters: &[Part],
    urls: &[UrlId],
    key: &Key,
    decomposed: &[DecomposedUrl],
    frequencies: &Frequencies,
) -> Vec<ValueSet> {
    let pooled_kind = {
        let rare_values: Vec<&str> = clusters
            .iter()
            .filter(|cluster| cluster.buckets.contains(&Bucket::Rare))
            .flat_map(|cluster| cluster.urls.iter())
            .filter_map(|&url| decomposed[url as usize].value(key))
            .collect();
        if rare_values.iter().all(|value| is_number(value)) {
            Wildcard::Number
        } else {
            Wildcard::Any
        }
    };
    // Each form of literal values with digits (`page-{n}`) goes to the cluster whose URLs
    // have literals of that form most often.
    let mut form_counts: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, cluster) in clusters.iter().enumerate() {
        for bucket in &cluster.buckets {
            if let Bucket::Literal(value) = bucket
                && value.bytes().any(|byte| byte.is_ascii_digit())
            {
                let count = urls
                    .iter()
                    .filter(|&&url| decomposed[url as usize].value(key) == Some(value.as_str()))
                    .count();
                let counts = form_counts
                    .entry(number_form(value))
                    .or_insert_with(|| vec![0; clusters.len()]);
                counts[index] += count;
            }
        }
    }
    let form_homes: Vec<(String, usize)> = form_counts
        .into_iter()
        .filter_map(|(form, counts)| {
            let (best, _) = counts
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))?;
            Some((form, best))
        })
        .collect();
    let newest_homes = growing_forms(clusters, urls, key, decomposed, frequencies);
    clusters
        .iter()
        .enumerate()
        .map(|(index, cluster)| {
            let mut literals: Vec<String> = cluster
                .buckets
                .iter()
                .filter_map(|bucket| match bucket {
                    Bucket::Literal(value) => Some(value.clone()),
                    _ => None,
                })
                .collect();
            literals.sort();
            let other = cluster
                .buckets
                .contains(&Bucket::Rare)
                .then_some(pooled_kind);
            let number_forms = form_homes
                .iter()
                .filter(|(_, home)| *home == index)
                .map(|(form, _)| form.clone())
                .collect();
            let newest = newest_homes
                .iter()
                .filter(|(_, home)| *home == index)
                .map(|(newest, _)| newest.clone())
                .collect();
            ValueSet {
                literals,
                absent: cluster.buckets.contains(&Bucket::Absent),
                other,
                number_forms,
                newest,
            }
        })
        .collect()
}

/// The newest literal of each growing form with the index of the cluster holding it: for each
/// form of literals with digits, the greatest literal (digit runs compared as numbers), kept
/// when the first record naming a URL with it came after the log's warm-up.
fn growing_forms(
    clusters: &[Part],
    urls: &[UrlId],
    key: &Key,
    decomposed: &[DecomposedUrl],
    frequencies: &Frequencies,
) -> Vec<(String, usize)> {
    let mut greatest: BTreeMap<String, (&str, usize)> = BTreeMap::new();
    for (index, cluster) in clusters.iter().enumerate() {
        for bucket in &cluster.buckets {
            let Bucket::Literal(value) = bucket else {
                continue;
            };
            if !value.bytes().any(|byte| byte.is_ascii_digit()) {
                continue;
            }
            let entry = greatest
                .entry(number_form(value))
                .or_insert((value.as_str(), index));
            if compare_numbers_in(value, entry.0) == std::cmp::Ordering::Greater {
                *entry = (value.as_str(), index);
            }
        }
    }
    let warm_up = (frequencies.records() as f64 * DISCOVERY_WARM_UP).ceil() as usize;
    greatest
        .into_values()
        .filter(|(value, _)| {
            urls.iter()
                .filter(|&&url| decomposed[url as usize].value(key) == Some(*value))
                .map(|&url| frequencies.first_seen_of(url))
                .min()
                .is_some_and(|first| first >= warm_up)
        })
        .map(|(value, index)| (value.to_string(), index))
        .collect()
}
