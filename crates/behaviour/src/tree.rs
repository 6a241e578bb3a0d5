//! The pattern tree: URLs split top down on their keys, with splits users do not tell apart
//! undone. See the crate essay for the criterion and the agreement test.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::frequencies::{Frequencies, UrlId};
use crate::ranking::exposure;
use crate::url_parts::{
    DecomposedUrl, Key, compare_numbers_in, is_number, number_form, segments_to_split,
};

mod forms;
mod text;
mod value_sets;
pub use forms::KeyForms;
use forms::closed_key_forms;
use text::pattern_text;
use value_sets::value_sets;

/// What stands for values no literal names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wildcard {
    /// Any decimal number.
    Number,
    /// Any value.
    Any,
}

impl Wildcard {
    fn matches(self, value: &str) -> bool {
        match self {
            Wildcard::Number => is_number(value),
            Wildcard::Any => true,
        }
    }
}

/// The values of one key a node admits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueSet {
    /// Values named literally, sorted.
    pub literals: Vec<String>,
    /// Whether URLs lacking the key belong.
    pub absent: bool,
    /// What other values belong.
    pub other: Option<Wildcard>,
    /// Unseen values belong when, digits masked, they read as one of these (`page-{n}`, `{n}`):
    /// a page number or offset beyond any a user reached still finds its pattern.
    pub number_forms: Vec<String>,
    /// The newest literal of each *growing* form this set holds: the greatest value of its
    /// form (digit runs read as numbers, left to right), when users first met it after the
    /// log's warm-up. An unseen value of the same form greater than it is newer still (the
    /// next month's folder, a page beyond the last) and belongs here, with the young values,
    /// not with the form's most common values. Absent from files written before it existed.
    #[serde(default)]
    pub newest: Vec<String>,
}

impl ValueSet {
    fn matches_literally(&self, value: Option<&str>) -> bool {
        match value {
            None => self.absent,
            Some(value) => self
                .literals
                .binary_search_by(|literal| literal.as_str().cmp(value))
                .is_ok(),
        }
    }

    /// Whether `value` is of the form of one of the set's newest literals and greater.
    fn succeeds_newest(&self, value: Option<&str>) -> bool {
        let Some(value) = value else { return false };
        self.newest.iter().any(|newest| {
            number_form(newest) == number_form(value)
                && compare_numbers_in(value, newest) == std::cmp::Ordering::Greater
        })
    }

    fn takes_by_wildcard_only(&self, value: Option<&str>) -> bool {
        value.is_some_and(|value| self.other.is_some_and(|wildcard| wildcard.matches(value)))
    }

    fn matches_by_wildcard(&self, value: Option<&str>) -> bool {
        let Some(value) = value else { return false };
        self.other.is_some_and(|wildcard| wildcard.matches(value))
            || (!self.number_forms.is_empty() && self.number_forms.contains(&number_form(value)))
    }

    /// How the set reads in the pattern of a node whose URLs show `present` values: the
    /// literals they show (`x`, `{a|b}`), a literal of a form the set takes for unseen values
    /// as the form (`page-{n}`), and the wildcard (`{n}`, `{*}`) when they show other values;
    /// `None` when they show none.
    fn render_present(&self, present: &BTreeSet<&str>) -> Option<String> {
        let shown_literals: Vec<&String> = self
            .literals
            .iter()
            .filter(|literal| present.contains(literal.as_str()))
            .collect();
        let shows_others = present.len() > shown_literals.len();
        let mut parts: Vec<String> = Vec::new();
        for literal in shown_literals {
            let form = number_form(literal);
            let shown = if self.number_forms.contains(&form) {
                form
            } else {
                literal.clone()
            };
            if !parts.contains(&shown) {
                parts.push(shown);
            }
        }
        match self.other {
            Some(Wildcard::Number) if shows_others => parts.push("{n}".to_string()),
            Some(Wildcard::Any) if shows_others => parts.push("{*}".to_string()),
            _ => {}
        }
        match parts.len() {
            0 => None,
            1 => Some(parts.remove(0)),
            _ if parts.len() > 4 => {
                let shown = parts[..3].join("|");
                Some(format!("{{{shown}|…{} more}}", parts.len() - 3))
            }
            _ => Some(format!("{{{}}}", parts.join("|"))),
        }
    }
}

/// What users did on a node's URLs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct NodeFigures {
    /// Distinct URLs of the log under the node.
    pub urls: u32,
    /// Sum of F_in over them.
    pub f_in: u32,
    /// Sum of F_out over them.
    pub f_out: u32,
    /// Visits that entered the site at them.
    pub entries: u32,
    /// URLs that were a referrer at least once.
    pub referrers: u32,
    /// Share of the log the URLs were known ([`crate::ranking::exposure`]): a part of young
    /// URLs is compared by its visits per URL per share of the log. Absent from files written
    /// before it existed: 1.
    #[serde(default = "whole_log")]
    pub exposure: f64,
    /// Position of the record that first named one of the URLs.
    #[serde(default)]
    pub first_record: usize,
    /// Records of the whole log the figures are counted in.
    #[serde(default)]
    pub records: usize,
}

fn whole_log() -> f64 {
    1.0
}

impl NodeFigures {
    fn of(urls: &[UrlId], frequencies: &Frequencies) -> NodeFigures {
        let mut figures = NodeFigures {
            urls: urls.len() as u32,
            ..NodeFigures::default()
        };
        figures.first_record = usize::MAX;
        for &url in urls {
            figures.f_in += frequencies.f_in_of(url);
            figures.f_out += frequencies.f_out_of(url);
            figures.entries += frequencies.entries_of(url);
            figures.referrers += u32::from(frequencies.f_out_of(url) > 0);
            figures.first_record = figures.first_record.min(frequencies.first_seen_of(url));
        }
        figures.exposure = exposure(
            figures.first_record,
            frequencies.records(),
            figures.evidence(),
        );
        figures.records = frequencies.records();
        figures
    }

    fn add(&mut self, other: &NodeFigures) {
        self.urls += other.urls;
        self.f_in += other.f_in;
        self.f_out += other.f_out;
        self.entries += other.entries;
        self.referrers += other.referrers;
        self.first_record = self.first_record.min(other.first_record);
        self.records = self.records.max(other.records);
        self.exposure = exposure(self.first_record, self.records, self.evidence());
    }

    /// Records that speak about the URLs: visits to them and visits from them.
    pub fn evidence(&self) -> u32 {
        self.f_in + self.f_out
    }

    /// The behaviour vector the agreement test compares: share of URLs users went on from,
    /// visits in and out per URL per share of the log the URLs were known (log2 of one plus),
    /// share of visits that entered the site. Without the exposure, a month folder opened just
    /// before the log ended looks as little read as the oldest months and joins them.
    fn behaviour(&self) -> [f64; 4] {
        let urls = f64::from(self.urls.max(1)) * self.exposure;
        let referrer_share = f64::from(self.referrers) / f64::from(self.urls.max(1));
        [
            referrer_share,
            (1.0 + f64::from(self.f_in) / urls).log2(),
            (1.0 + f64::from(self.f_out) / urls).log2(),
            f64::from(self.entries) / f64::from(self.f_in.max(1)),
        ]
    }
}

/// One pattern of the tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatternNode {
    /// Index in [`PatternTree::nodes`].
    pub id: usize,
    /// The node it was split from; `None` for the root.
    pub parent: Option<usize>,
    /// The values of the parent's split key this node takes; `None` for the root.
    pub constraint: Option<ValueSet>,
    /// The key its children differ by; `None` for a leaf.
    pub split: Option<Key>,
    /// Children, in the order their values were first met.
    pub children: Vec<usize>,
    /// Keys whose values split the node's URLs but whose parts users did not tell apart.
    pub generalised: Vec<Key>,
    /// The pattern as text, e.g. `/viewtopic.php?t={n}[&start={n}]`.
    pub pattern: String,
    /// Every key its URLs have: a URL with another key (a sort option, a view no user opened)
    /// is not of the pattern.
    pub keys: Vec<Key>,
    /// The keys whose values take a few forms (`{n}`, `threads{n}.html`), sorted by key: a URL
    /// with a value of another form under such a key (`date3.html`, `2317.rss`) is of a kind no
    /// user visited. Absent from files written before it existed: every value admitted.
    #[serde(default)]
    pub value_forms: Vec<KeyForms>,
    /// What users did on its URLs.
    pub figures: NodeFigures,
}

/// Settings of tree building; [`TreeSettings::default`] is what the CLI uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreeSettings {
    /// A key whose distinct values number at most this (and at most the square root of the
    /// node's URLs) names kinds of pages: each value is its own part.
    pub enumerable_values: usize,
    /// Otherwise a value is its own part when at least this share of the node's URLs has it.
    pub frequent_share: f64,
    /// ... and at least this many URLs: in a small node, a handful of pages of one thread is
    /// no kind of page.
    pub min_literal_urls: u32,
    /// Records (F_in + F_out) a part needs before its behaviour is compared.
    pub min_evidence: u32,
    /// Largest difference of the shares in the behaviour vector for agreement.
    pub share_tolerance: f64,
    /// Largest difference of the log2 rates in the behaviour vector for agreement.
    pub rate_tolerance: f64,
}

impl Default for TreeSettings {
    fn default() -> Self {
        TreeSettings {
            enumerable_values: 16,
            frequent_share: 0.05,
            min_literal_urls: 5,
            min_evidence: 8,
            share_tolerance: 0.25,
            rate_tolerance: 1.0,
        }
    }
}

/// The tree of URL patterns learned from a log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatternTree {
    /// Nodes; the root is node 0.
    pub nodes: Vec<PatternNode>,
    /// Path positions whose segments are split into runs of letters and digits as keys of
    /// their own (`thread-123-2-1.html`), chosen from the log ([`segments_to_split`]); URLs
    /// never seen are split the same way. Absent from files written before it existed.
    #[serde(default)]
    pub run_segments: Vec<u32>,
}

/// One part of a split before merging: a value, absence, or the values pooled as rare.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Bucket {
    Absent,
    Literal(String),
    Rare,
}

struct Part {
    buckets: Vec<Bucket>,
    urls: Vec<UrlId>,
    figures: NodeFigures,
}

struct Builder<'a> {
    frequencies: &'a Frequencies,
    decomposed: Vec<DecomposedUrl>,
    settings: TreeSettings,
    nodes: Vec<PatternNode>,
}

impl PatternTree {
    /// Builds the tree over every URL `frequencies` names.
    pub fn build(frequencies: &Frequencies, settings: TreeSettings) -> PatternTree {
        let run_segments = segments_to_split(frequencies.urls().iter().map(String::as_str));
        let decomposed: Vec<DecomposedUrl> = frequencies
            .urls()
            .iter()
            .map(|url| DecomposedUrl::with_runs(url, &run_segments))
            .collect();
        let mut builder = Builder {
            frequencies,
            decomposed,
            settings,
            nodes: Vec::new(),
        };
        let all: Vec<UrlId> = (0..frequencies.urls().len() as UrlId).collect();
        builder.grow(None, None, all, BTreeMap::new());
        PatternTree {
            nodes: builder.nodes,
            run_segments,
        }
    }

    /// The most specific pattern `url` matches: down from the root, at each split the child
    /// naming the URL's value, else the child whose wildcard takes it, else the node reached.
    pub fn classify(&self, url: &str) -> usize {
        let decomposed = DecomposedUrl::with_runs(url, &self.run_segments);
        let mut node = 0;
        while let Some(key) = &self.nodes[node].split {
            let value = decomposed.value(key);
            let children = &self.nodes[node].children;
            let literal = children.iter().find(|&&child| {
                self.nodes[child]
                    .constraint
                    .as_ref()
                    .is_some_and(|set| set.matches_literally(value))
            });
            // An unseen value newer than a growing form's newest goes with the newest, unless
            // a wildcard takes it: where ids are pooled, a new id is one more of the pool.
            let constraint = |child: usize| self.nodes[child].constraint.as_ref();
            let newer = || {
                if children.iter().any(|&child| {
                    constraint(child).is_some_and(|set| set.takes_by_wildcard_only(value))
                }) {
                    return None;
                }
                children
                    .iter()
                    .find(|&&child| constraint(child).is_some_and(|set| set.succeeds_newest(value)))
            };
            let chosen = literal.or_else(newer).or_else(|| {
                children.iter().find(|&&child| {
                    self.nodes[child]
                        .constraint
                        .as_ref()
                        .is_some_and(|set| set.matches_by_wildcard(value))
                })
            });
            match chosen {
                Some(&child) => node = child,
                None => break,
            }
        }
        node
    }

    /// The leaf pattern `url` belongs to: the node [`PatternTree::classify`] reaches, when it
    /// is a leaf, knows every key of the URL and, under each key whose values took a few forms,
    /// sees one of them ([`PatternNode::value_forms`]). `None` for a URL of a kind no user
    /// visited (a value no split takes, a key no URL of the leaf has, a value of a form no URL
    /// of the leaf showed), which is worth nothing to the users the log shows.
    pub fn matching_leaf(&self, url: &str) -> Option<usize> {
        let node = &self.nodes[self.classify(url)];
        if node.split.is_some() {
            return None;
        }
        let decomposed = DecomposedUrl::with_runs(url, &self.run_segments);
        let keys_known = decomposed
            .keys()
            .all(|key| node.keys.binary_search(&key).is_ok());
        let forms_seen = node.value_forms.iter().all(|forms| {
            decomposed
                .value(&forms.key)
                .is_none_or(|value| forms.admits(value))
        });
        (keys_known && forms_seen).then_some(node.id)
    }

    /// The leaves: nodes no split divides further.
    pub fn leaves(&self) -> impl Iterator<Item = &PatternNode> {
        self.nodes.iter().filter(|node| node.split.is_none())
    }

    /// The tree as indented text, one pattern a line with its figures.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_node(0, 0, &mut out);
        out
    }

    fn render_node(&self, id: usize, depth: usize, out: &mut String) {
        let node = &self.nodes[id];
        let figures = &node.figures;
        out.push_str(&format!(
            "{}{}  urls={} in={} out={} entries={}\n",
            "  ".repeat(depth),
            node.pattern,
            figures.urls,
            figures.f_in,
            figures.f_out,
            figures.entries
        ));
        for &child in &node.children {
            self.render_node(child, depth + 1, out);
        }
    }
}

impl Builder<'_> {
    /// Makes a node of `urls` and splits it while some key splits its URLs into parts users
    /// tell apart. `fixed` holds the keys ancestors split or generalised, with the values this
    /// node takes (`None`: generalised, any value).
    fn grow(
        &mut self,
        parent: Option<usize>,
        constraint: Option<(Key, ValueSet)>,
        urls: Vec<UrlId>,
        mut fixed: BTreeMap<Key, Option<ValueSet>>,
    ) -> usize {
        let id = self.nodes.len();
        if let Some((key, set)) = &constraint {
            fixed.insert(key.clone(), Some(set.clone()));
        }
        self.nodes.push(PatternNode {
            id,
            parent,
            constraint: constraint.map(|(_, set)| set),
            split: None,
            children: Vec::new(),
            generalised: Vec::new(),
            pattern: String::new(),
            keys: urls
                .iter()
                .flat_map(|&url| self.decomposed[url as usize].keys())
                .collect::<BTreeSet<Key>>()
                .into_iter()
                .collect(),
            value_forms: closed_key_forms(&urls, &self.decomposed, self.settings.enumerable_values),
            figures: NodeFigures::of(&urls, self.frequencies),
        });
        // Keys are tried until one splits the node into parts users tell apart; each key users
        // do not tell apart is generalised and the next best is tried.
        //
        // A key generalised here is tried again below the split: once the node is split by
        // another key, its values may well matter to users within one part.
        let mut generalised_here: BTreeSet<Key> = BTreeSet::new();
        while let Some((key, parts)) = self.best_split(&urls, &fixed, &generalised_here) {
            let clusters = self.agreeing_clusters(parts);
            if clusters.len() < 2 {
                self.nodes[id].generalised.push(key.clone());
                generalised_here.insert(key);
                continue;
            }
            self.nodes[id].split = Some(key.clone());
            let sets = value_sets(&clusters, &urls, &key, &self.decomposed, self.frequencies);
            for (cluster, set) in clusters.into_iter().zip(sets) {
                let child = self.grow(
                    Some(id),
                    Some((key.clone(), set)),
                    cluster.urls,
                    fixed.clone(),
                );
                self.nodes[id].children.push(child);
            }
            break;
        }
        self.nodes[id].pattern = pattern_text(&urls, &fixed, &self.decomposed);
        id
    }

    /// The key to split on, C4.5's way with the URL's shape as the class: of the keys not yet
    /// fixed that cut the node into at least two parts, those whose information gain about the
    /// URL's *other* keys (which further path segments and query parameters it has) is at
    /// least the average gain, and of them the one with the highest gain ratio (gain over the
    /// entropy of its parts). A key naming the kind of page (the script, the section) tells
    /// which other keys follow; an optional decoration (a page offset, a session id) tells
    /// little beyond its own presence, which is why the key itself is left out of the class.
    /// When no key tells anything (every URL has the same keys), the key whose parts have the
    /// highest entropy.
    fn best_split(
        &self,
        urls: &[UrlId],
        fixed: &BTreeMap<Key, Option<ValueSet>>,
        generalised_here: &BTreeSet<Key>,
    ) -> Option<(Key, Vec<Part>)> {
        let keys: BTreeSet<Key> = urls
            .iter()
            .flat_map(|&url| self.decomposed[url as usize].keys())
            .filter(|key| !generalised_here.contains(key))
            // A key an ancestor split on is tried again when this node took several of its
            // values (parts users were not told apart by there may be here).
            .filter(|key| match fixed.get(key) {
                None => true,
                Some(None) => false,
                Some(Some(set)) => set.literals.len() + usize::from(set.absent) > 1,
            })
            .collect();
        let mut candidates: Vec<(f64, f64, Key, Vec<Part>)> = Vec::new();
        for key in keys {
            let parts = self.parts(urls, &key);
            if parts.len() < 2 {
                continue;
            }
            let total = urls.len() as f64;
            let shape_entropy = self.shape_entropy(urls, &key);
            let mut part_entropy = 0.0;
            let mut remaining_shape_entropy = 0.0;
            for part in &parts {
                let share = part.urls.len() as f64 / total;
                part_entropy -= share * share.log2();
                remaining_shape_entropy += share * self.shape_entropy(&part.urls, &key);
            }
            let gain = (shape_entropy - remaining_shape_entropy).max(0.0);
            candidates.push((gain, part_entropy, key, parts));
        }
        if candidates.is_empty() {
            return None;
        }
        let average_gain =
            candidates.iter().map(|candidate| candidate.0).sum::<f64>() / candidates.len() as f64;
        let score = |gain: f64, part_entropy: f64| {
            if average_gain > 1e-9 {
                if gain + 1e-9 < average_gain {
                    f64::NEG_INFINITY
                } else {
                    gain / part_entropy
                }
            } else {
                part_entropy
            }
        };
        // Strictly greater: among equal scores the first key in order (path segments before
        // query keys, then by position and name) wins, so the tree never depends on iteration
        // order.
        let mut best: Option<(f64, Key, Vec<Part>)> = None;
        for (gain, part_entropy, key, parts) in candidates {
            let value = score(gain, part_entropy);
            if best.as_ref().is_none_or(|(top, _, _)| value > *top + 1e-12) {
                best = Some((value, key, parts));
            }
        }
        best.map(|(_, key, parts)| (key, parts))
    }

    /// Entropy of the URLs' shapes, `left_out` left out of each.
    fn shape_entropy(&self, urls: &[UrlId], left_out: &Key) -> f64 {
        let mut counts: BTreeMap<u64, usize> = BTreeMap::new();
        for &url in urls {
            *counts
                .entry(shape_of(&self.decomposed[url as usize], left_out))
                .or_default() += 1;
        }
        let total = urls.len() as f64;
        counts
            .values()
            .map(|&count| {
                let share = count as f64 / total;
                -share * share.log2()
            })
            .sum()
    }

    /// The parts `key` cuts `urls` into: absence, each value kept literal, and the rare values
    /// pooled.
    fn parts(&self, urls: &[UrlId], key: &Key) -> Vec<Part> {
        let mut counts: BTreeMap<Option<&str>, usize> = BTreeMap::new();
        for &url in urls {
            *counts
                .entry(self.decomposed[url as usize].value(key))
                .or_default() += 1;
        }
        let distinct_present = counts.keys().filter(|value| value.is_some()).count();
        let enumerable_limit = self
            .settings
            .enumerable_values
            .min((urls.len() as f64).sqrt().floor() as usize)
            .max(2);
        let enumerable = distinct_present <= enumerable_limit;
        let frequent = (self.settings.frequent_share * urls.len() as f64)
            .max(f64::from(self.settings.min_literal_urls));
        // Where most values are numbers (ids), a word shared by a few URLs names another kind
        // of page, however few they are beside the ids: `/questions/tagged/X` beside
        // `/questions/123/title`, `/threads/recent` beside `/threads/418`.
        let numbered_urls: usize = counts
            .iter()
            .filter(|(value, _)| value.is_some_and(is_number))
            .map(|(_, &count)| count)
            .sum();
        let among_ids = numbered_urls * 2 > urls.len();
        let word_among_ids = |value: &str| {
            among_ids
                && value.chars().all(char::is_alphabetic)
                && counts[&Some(value)] as u32 >= self.settings.min_literal_urls
        };
        let bucket_of = |value: Option<&str>| match value {
            None => Bucket::Absent,
            Some(value)
                if enumerable
                    || counts[&Some(value)] as f64 >= frequent
                    || word_among_ids(value) =>
            {
                Bucket::Literal(value.to_string())
            }
            Some(_) => Bucket::Rare,
        };
        let mut parts: BTreeMap<Bucket, Vec<UrlId>> = BTreeMap::new();
        for &url in urls {
            parts
                .entry(bucket_of(self.decomposed[url as usize].value(key)))
                .or_default()
                .push(url);
        }
        parts
            .into_iter()
            .map(|(bucket, urls)| Part {
                figures: NodeFigures::of(&urls, self.frequencies),
                buckets: vec![bucket],
                urls,
            })
            .collect()
    }

    /// Joins parts whose behaviour agrees. Parts with enough evidence are taken, most evidence
    /// first, each joining the first cluster it agrees with or starting one; parts with too
    /// little evidence to judge then join the cluster nearest in behaviour (or, when no part
    /// could be judged, all form one cluster: nothing says users tell them apart).
    fn agreeing_clusters(&self, mut parts: Vec<Part>) -> Vec<Part> {
        parts.sort_by(|a, b| {
            b.figures
                .evidence()
                .cmp(&a.figures.evidence())
                .then_with(|| a.buckets.cmp(&b.buckets))
        });
        let mut clusters: Vec<Part> = Vec::new();
        let mut unjudged: Vec<Part> = Vec::new();
        for part in parts {
            if part.figures.evidence() < self.settings.min_evidence {
                unjudged.push(part);
                continue;
            }
            let behaviour = part.figures.behaviour();
            match clusters
                .iter_mut()
                .find(|cluster| self.agree(&cluster.figures.behaviour(), &behaviour))
            {
                Some(cluster) => join(cluster, part),
                None => clusters.push(part),
            }
        }
        for part in unjudged {
            if clusters.is_empty() {
                clusters.push(part);
                continue;
            }
            let behaviour = part.figures.behaviour();
            let nearest = clusters
                .iter()
                .enumerate()
                .map(|(index, cluster)| {
                    (
                        self.distance(&cluster.figures.behaviour(), &behaviour),
                        index,
                    )
                })
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map_or(0, |(_, index)| index);
            join(&mut clusters[nearest], part);
        }
        clusters
    }

    fn agree(&self, a: &[f64; 4], b: &[f64; 4]) -> bool {
        self.distance(a, b) <= 1.0
    }

    /// Largest difference of the behaviour vectors, each measured in its tolerance.
    fn distance(&self, a: &[f64; 4], b: &[f64; 4]) -> f64 {
        let tolerances = [
            self.settings.share_tolerance,
            self.settings.rate_tolerance,
            self.settings.rate_tolerance,
            self.settings.share_tolerance,
        ];
        (0..4)
            .map(|index| (a[index] - b[index]).abs() / tolerances[index])
            .fold(0.0, f64::max)
    }
}

/// A URL's shape, the keys it has (path positions, query parameter names) but `left_out`,
/// as one stable hash. The runs of a segment split into runs are keys like the others: the
/// number of runs tells templates apart (`thread-{n}-{n}-{n}.html` from `forum-{n}-{n}.html`).
fn shape_of(url: &DecomposedUrl, left_out: &Key) -> u64 {
    let mut text = String::new();
    for key in url.keys() {
        if key == *left_out {
            continue;
        }
        match key {
            Key::Segment(position) => text.push_str(&format!("/{position}")),
            Key::Run { segment, run } => text.push_str(&format!("/{segment}.{run}")),
            Key::Query(_) => {}
        }
    }
    let mut names: Vec<&str> = url
        .query
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| !matches!(left_out, Key::Query(left) if left == name))
        .collect();
    names.sort_unstable();
    text.push('?');
    text.push_str(&names.join("&"));
    crate::log::fnv1a(&text)
}

fn join(cluster: &mut Part, part: Part) {
    cluster.buckets.extend(part.buckets);
    cluster.urls.extend(part.urls);
    cluster.figures.add(&part.figures);
}
