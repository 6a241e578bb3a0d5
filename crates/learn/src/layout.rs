//! Layout clustering on repetitive-pattern features (iRobot §5.1).
//!
//! A page is described by the repetitive patterns it holds. iRobot weights each pattern's count
//! share by an inverse document frequency, `f_i = n_i / Σ n_j × log10(|S| / support_i)` (eq. 1),
//! so patterns on every page (navigation menus) weigh nothing, and measures the distance between
//! two pages as the area-weighted Euclidean distance `sqrt(Σ area_i (f_a,i − f_b,i)²)` (eq. 2),
//! where `area_i` is the pattern's average share of the pages it occurs on, renormalised to sum
//! to one, so big regions (thread lists, posts) decide and small ones (a pager) only nudge.
//!
//! trawl keeps the area weights and uses the inverse document frequency to drop patterns found on
//! every page, but describes a page by presence (1 when the pattern occurs on it) rather than by
//! `n_i / Σ n_j × idf_i`. With count shares, a small
//! optional region moves the share of every other region: a board page with a pager and one
//! without differ by a third of the thread list's share, which under eq. 2 weighs as much as the
//! difference between a board and a profile, and the simulated boards of one forum fell into
//! three layouts. With presence, the pager's absence costs only its own small area.
//!
//! As a multiplier the idf shrinks the features of the most common kind of page (thread pages are
//! half of a sample, so their patterns get a small idf: a thread page ended up closer to a
//! profile than two profiles were to each other) and inflates rare small regions (a pager on
//! long threads split the thread layout in two). Each feature is then scaled to unit length under
//! the eq.-2 metric, so distances lie between 0 (the same patterns) and about 1.41 (none in
//! common) and only the *mix* of patterns matters. A page with no known pattern has the zero
//! feature, at distance 1 from every other page.
//!
//! Pages are agglomerated by single linkage. iRobot stops at a fixed distance; trawl picks the
//! threshold per site from the minimum spanning tree of the sample (single linkage is exactly a
//! cut of that tree): the edges are sorted and the cut goes into the widest gap between consecutive
//! edge lengths on a logarithmic scale, within bounds that unit-length features make meaningful
//! (see [`LOWEST_CUT`]).
//!
//! Online, a new page is classified by its nearest sampled page (not the cluster mean: single
//! linkage clusters can be long chains whose mean lies far from every member), and refused when
//! that page is further than the threshold: the template changed, or the page is of a kind the
//! sample never saw.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use trawl_page::regions::PatternId;

use crate::summary::RegionSummary;

/// Features are unit vectors, so distances run from 0 (same patterns) to about 1.41 (no pattern
/// in common). Pages of one template whose optional regions differ stay below [`LOWEST_CUT`];
/// pages sharing no big region are above [`HIGHEST_CUT`]. The cut goes into the widest gap
/// between the two.
const LOWEST_CUT: f64 = 0.3;
/// See [`LOWEST_CUT`].
const HIGHEST_CUT: f64 = 1.2;
/// The cut when no spanning-tree edge falls between the bounds.
const DEFAULT_CUT: f64 = 0.7;
/// Pattern weights in eq. 1 and 2 are computed from at least this many pages' worth of support,
/// so a tiny sample does not give every pattern infinite weight.
const MINIMUM_SAMPLE_FOR_IDF: f64 = 2.0;

/// One repetitive pattern known to the layout model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatternWeight {
    /// The pattern id, as the page analysis computes it (hexadecimal in the plan file).
    #[serde(with = "crate::hex")]
    pub pattern: PatternId,
    /// Normalised average area (eq. 2's weight).
    pub area: f64,
    /// `log10(|S| / support)` (eq. 1's inverse document frequency).
    pub idf: f64,
}

/// A page's layout feature: (pattern index, value) pairs sorted by index, zeros left out.
pub type LayoutFeature = Vec<(u32, f64)>;

/// The layout model: pattern weights, the threshold, and the features of the sampled pages by
/// cluster, which is everything needed to classify a new page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LayoutModel {
    /// Known patterns; a feature's indices point into this list.
    pub patterns: Vec<PatternWeight>,
    /// The single-linkage cut: pages closer than this are one layout.
    pub threshold: f64,
    /// Distinct features of the sampled pages of each cluster.
    pub exemplars: Vec<Vec<LayoutFeature>>,
    /// Position of each pattern in `patterns`, built on first use (classification runs once per
    /// crawled page, and the list does not change once learned).
    #[serde(skip)]
    index: PatternIndex,
}

/// A lazily built pattern → position map. It is derived from `patterns`, so it takes no part in
/// equality.
#[derive(Debug, Clone, Default)]
struct PatternIndex(std::sync::OnceLock<HashMap<PatternId, usize>>);

impl PartialEq for PatternIndex {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

/// The result of clustering a sample.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutClustering {
    /// The model, for classifying pages online.
    pub model: LayoutModel,
    /// The cluster of every sampled page, in sample order.
    pub cluster_of_page: Vec<usize>,
    /// The lengths of the minimum spanning tree's edges, sorted, for inspection.
    pub spanning_tree_lengths: Vec<f64>,
}

impl LayoutModel {
    /// The feature of a page with these regions (eq. 1). Patterns the model does not know are
    /// left out: they were never seen in the sample, so they cannot help place the page.
    pub fn feature(&self, regions: &[RegionSummary]) -> LayoutFeature {
        feature_with_index(regions, self.pattern_index(), &self.patterns)
    }

    /// Whether the model knows `pattern` (it repeated on some sampled page and is not on all).
    pub fn knows(&self, pattern: PatternId) -> bool {
        self.pattern_index().contains_key(&pattern)
    }

    fn pattern_index(&self) -> &HashMap<PatternId, usize> {
        self.index
            .0
            .get_or_init(|| position_of_patterns(&self.patterns))
    }

    /// The area-weighted distance between two features (eq. 2).
    pub fn distance(&self, a: &LayoutFeature, b: &LayoutFeature) -> f64 {
        weighted_distance(a, b, &self.patterns)
    }

    /// The cluster of a page with these regions and the distance to its nearest exemplar, or
    /// `None` when no exemplar is within the threshold.
    pub fn classify(&self, regions: &[RegionSummary]) -> Option<(usize, f64)> {
        let feature = self.feature(regions);
        let (cluster, distance) = self.nearest(&feature)?;
        (distance <= self.threshold).then_some((cluster, distance))
    }

    /// The nearest cluster whatever the distance.
    pub fn nearest(&self, feature: &LayoutFeature) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for (cluster, exemplars) in self.exemplars.iter().enumerate() {
            for exemplar in exemplars {
                let distance = self.distance(feature, exemplar);
                if best.is_none_or(|(_, best_distance)| distance < best_distance) {
                    best = Some((cluster, distance));
                }
            }
        }
        best
    }
}

/// Clusters the sampled pages, given the regions of each.
pub fn cluster_layouts(pages: &[&[RegionSummary]]) -> LayoutClustering {
    let patterns = pattern_weights(pages);
    let index = position_of_patterns(&patterns);
    let features: Vec<LayoutFeature> = pages
        .iter()
        .map(|regions| feature_with_index(regions, &index, &patterns))
        .collect();
    // Identical features are one point: the spanning tree runs over distinct features only, which
    // turns hundreds of thread pages into a handful of points.
    let mut distinct: Vec<LayoutFeature> = Vec::new();
    let mut point_of_page = Vec::with_capacity(features.len());
    let mut point_of_feature: HashMap<Vec<(u32, u64)>, usize> = HashMap::new();
    for feature in &features {
        let key: Vec<(u32, u64)> = feature
            .iter()
            .map(|(index, value)| (*index, value.to_bits()))
            .collect();
        let point = *point_of_feature.entry(key).or_insert_with(|| {
            distinct.push(feature.clone());
            distinct.len() - 1
        });
        point_of_page.push(point);
    }
    let edges = minimum_spanning_tree(&distinct, &patterns);
    let mut lengths: Vec<f64> = edges.iter().map(|edge| edge.2).collect();
    lengths.sort_by(f64::total_cmp);
    let threshold = choose_threshold(&lengths);
    let mut union_find = UnionFind::new(distinct.len());
    for (a, b, length) in &edges {
        if *length <= threshold {
            union_find.union(*a, *b);
        }
    }
    // Clusters are numbered in order of their first page in the sample, so the portal's layout
    // is cluster 0 and numbering is stable for one sample.
    let mut cluster_of_root: BTreeMap<usize, usize> = BTreeMap::new();
    let mut cluster_of_page = Vec::with_capacity(pages.len());
    for point in &point_of_page {
        let root = union_find.find(*point);
        let next = cluster_of_root.len();
        cluster_of_page.push(*cluster_of_root.entry(root).or_insert(next));
    }
    let mut exemplars: Vec<Vec<LayoutFeature>> = vec![Vec::new(); cluster_of_root.len()];
    for (point, feature) in distinct.iter().enumerate() {
        let cluster = cluster_of_root[&union_find.find(point)];
        exemplars[cluster].push(feature.clone());
    }
    LayoutClustering {
        model: LayoutModel {
            patterns,
            threshold,
            exemplars,
            index: PatternIndex::default(),
        },
        cluster_of_page,
        spanning_tree_lengths: lengths,
    }
}

fn position_of_patterns(patterns: &[PatternWeight]) -> HashMap<PatternId, usize> {
    patterns
        .iter()
        .enumerate()
        .map(|(position, weight)| (weight.pattern, position))
        .collect()
}

fn pattern_weights(pages: &[&[RegionSummary]]) -> Vec<PatternWeight> {
    // pattern → (pages holding it, summed area share over those pages)
    let mut support: BTreeMap<PatternId, (usize, f64)> = BTreeMap::new();
    for regions in pages {
        let mut on_this_page: BTreeMap<PatternId, f64> = BTreeMap::new();
        for region in regions.iter() {
            *on_this_page.entry(region.pattern).or_default() += region.area;
        }
        for (pattern, area) in on_this_page {
            let entry = support.entry(pattern).or_default();
            entry.0 += 1;
            entry.1 += area;
        }
    }
    let sample_size = (pages.len() as f64).max(MINIMUM_SAMPLE_FOR_IDF);
    let mut weights: Vec<PatternWeight> = support
        .into_iter()
        .map(|(pattern, (pages_holding, area_sum))| PatternWeight {
            pattern,
            area: area_sum / pages_holding as f64,
            idf: (sample_size / pages_holding as f64).log10(),
        })
        // Patterns on every page are removed before clustering, as in iRobot: they say nothing
        // about the kind of page.
        .filter(|weight| weight.idf > 0.0)
        .collect();
    let total_area: f64 = weights.iter().map(|weight| weight.area).sum();
    if total_area > 0.0 {
        for weight in &mut weights {
            weight.area /= total_area;
        }
    }
    weights
}

fn feature_with_index(
    regions: &[RegionSummary],
    index: &HashMap<PatternId, usize>,
    patterns: &[PatternWeight],
) -> LayoutFeature {
    // Presence, not count share, and scaled to unit length: see the module documentation.
    let mut present: BTreeMap<u32, f64> = BTreeMap::new();
    for region in regions {
        if let Some(position) = index.get(&region.pattern) {
            // Presence only: the inverse document frequency has already removed the patterns
            // on (nearly) every page, and as a multiplier it would let a rare small region (a
            // pager on long threads) outweigh the big region every page of the kind shares.
            present.insert(*position as u32, 1.0);
        }
    }
    let length = present
        .iter()
        .map(|(position, value)| patterns[*position as usize].area * value * value)
        .sum::<f64>()
        .sqrt();
    if length == 0.0 {
        return Vec::new();
    }
    present
        .into_iter()
        .filter(|(_, value)| *value > 0.0)
        .map(|(position, value)| (position, value / length))
        .collect()
}

fn weighted_distance(a: &LayoutFeature, b: &LayoutFeature, patterns: &[PatternWeight]) -> f64 {
    let mut sum = 0.0;
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let (position, difference) = match (a.get(i), b.get(j)) {
            (Some(&(pa, va)), Some(&(pb, vb))) if pa == pb => {
                i += 1;
                j += 1;
                (pa, va - vb)
            }
            (Some(&(pa, va)), Some(&(pb, _))) if pa < pb => {
                i += 1;
                (pa, va)
            }
            (Some(_), Some(&(pb, vb))) => {
                j += 1;
                (pb, -vb)
            }
            (Some(&(pa, va)), None) => {
                i += 1;
                (pa, va)
            }
            (None, Some(&(pb, vb))) => {
                j += 1;
                (pb, -vb)
            }
            (None, None) => break,
        };
        sum += patterns[position as usize].area * difference * difference;
    }
    sum.sqrt()
}

/// Prim's algorithm on the complete graph of points; quadratic, which is fine for a few hundred
/// distinct layouts.
fn minimum_spanning_tree(
    points: &[LayoutFeature],
    patterns: &[PatternWeight],
) -> Vec<(usize, usize, f64)> {
    let count = points.len();
    if count < 2 {
        return Vec::new();
    }
    let mut in_tree = vec![false; count];
    let mut best_distance = vec![f64::INFINITY; count];
    let mut best_parent = vec![0usize; count];
    let mut edges = Vec::with_capacity(count - 1);
    let mut current = 0;
    in_tree[0] = true;
    for _ in 1..count {
        for other in 0..count {
            if !in_tree[other] {
                let distance = weighted_distance(&points[current], &points[other], patterns);
                if distance < best_distance[other] {
                    best_distance[other] = distance;
                    best_parent[other] = current;
                }
            }
        }
        let next = (0..count)
            .filter(|point| !in_tree[*point])
            .min_by(|a, b| best_distance[*a].total_cmp(&best_distance[*b]))
            .expect("a point outside the tree remains");
        in_tree[next] = true;
        edges.push((best_parent[next], next, best_distance[next]));
        current = next;
    }
    edges
}

/// The single-linkage cut for sorted spanning-tree edge lengths: inside the widest gap (on a
/// log scale) between consecutive lengths, among cuts between [`LOWEST_CUT`] and
/// [`HIGHEST_CUT`]; [`DEFAULT_CUT`] when no edge length falls in that range to cut between.
fn choose_threshold(sorted_lengths: &[f64]) -> f64 {
    // Candidate cuts lie between consecutive distinct lengths; the range ends count as lengths
    // so a cut can fall below the shortest or above the longest edge in range.
    let mut points: Vec<f64> = vec![LOWEST_CUT];
    points.extend(
        sorted_lengths
            .iter()
            .copied()
            .filter(|length| *length > LOWEST_CUT && *length < HIGHEST_CUT),
    );
    points.push(HIGHEST_CUT);
    let mut best: Option<(f64, f64)> = None;
    for pair in points.windows(2) {
        let (low, high) = (pair[0], pair[1]);
        let gap = (high / low).ln();
        if best.is_none_or(|(best_gap, _)| gap > best_gap) {
            best = Some((gap, (low * high).sqrt()));
        }
    }
    match best {
        Some((gap, cut)) if gap > 0.0 && points.len() > 2 => cut,
        _ => DEFAULT_CUT,
    }
}

/// A disjoint-set forest with path halving.
#[derive(Debug, Clone)]
pub(crate) struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    pub(crate) fn new(size: usize) -> UnionFind {
        UnionFind {
            parent: (0..size).collect(),
        }
    }

    pub(crate) fn find(&mut self, mut element: usize) -> usize {
        while self.parent[element] != element {
            self.parent[element] = self.parent[self.parent[element]];
            element = self.parent[element];
        }
        element
    }

    pub(crate) fn union(&mut self, a: usize, b: usize) {
        let (root_a, root_b) = (self.find(a), self.find(b));
        if root_a != root_b {
            // The smaller index becomes the root so results do not depend on union order.
            let (low, high) = (root_a.min(root_b), root_a.max(root_b));
            self.parent[high] = low;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(pattern: u64, records: usize, area: f64) -> RegionSummary {
        RegionSummary {
            pattern,
            records,
            area,
        }
    }

    /// Clusters pages given as lists of (pattern, area) and checks which pages end together.
    fn check(pages: &[Vec<(u64, f64)>], expected_groups: &[usize]) {
        let regions: Vec<Vec<RegionSummary>> = pages
            .iter()
            .map(|page| {
                page.iter()
                    .map(|(pattern, area)| region(*pattern, 10, *area))
                    .collect()
            })
            .collect();
        let slices: Vec<&[RegionSummary]> = regions.iter().map(Vec::as_slice).collect();
        let clustering = cluster_layouts(&slices);
        for a in 0..pages.len() {
            for b in 0..pages.len() {
                assert_eq!(
                    clustering.cluster_of_page[a] == clustering.cluster_of_page[b],
                    expected_groups[a] == expected_groups[b],
                    "pages {a} and {b}: clusters {:?}, lengths {:?}",
                    clustering.cluster_of_page,
                    clustering.spanning_tree_lengths
                );
            }
        }
    }

    #[test]
    fn pages_of_one_template_cluster_together() {
        let thread = vec![(1, 0.1), (2, 0.7)];
        let thread_with_pager = vec![(1, 0.1), (2, 0.7), (5, 0.01)];
        let board = vec![(1, 0.1), (3, 0.6)];
        let login = vec![(1, 0.1)];
        check(
            &[
                thread.clone(),
                board.clone(),
                thread_with_pager.clone(),
                login.clone(),
                thread,
                board,
                login,
                thread_with_pager,
            ],
            &[0, 1, 0, 2, 0, 1, 2, 0],
        );
    }

    #[test]
    fn one_page_is_one_cluster() {
        check(&[vec![(1, 0.5)]], &[0]);
    }

    #[test]
    fn identical_pages_are_one_cluster() {
        check(&[vec![], vec![], vec![]], &[0, 0, 0]);
    }

    #[test]
    fn patterns_on_every_page_weigh_nothing() {
        let regions = [
            vec![region(1, 5, 0.2), region(2, 5, 0.5)],
            vec![region(1, 5, 0.2), region(3, 5, 0.5)],
        ];
        let slices: Vec<&[RegionSummary]> = regions.iter().map(Vec::as_slice).collect();
        let clustering = cluster_layouts(&slices);
        assert!(
            clustering
                .model
                .patterns
                .iter()
                .all(|weight| weight.pattern != 1)
        );
    }

    #[test]
    fn classification_refuses_unknown_layouts() {
        let regions = [
            vec![region(2, 5, 0.5)],
            vec![region(2, 5, 0.5)],
            vec![region(3, 5, 0.5)],
            vec![region(3, 5, 0.5)],
        ];
        let slices: Vec<&[RegionSummary]> = regions.iter().map(Vec::as_slice).collect();
        let clustering = cluster_layouts(&slices);
        let model = &clustering.model;
        assert_eq!(
            model.classify(&[region(2, 9, 0.4)]).map(|found| found.0),
            Some(clustering.cluster_of_page[0])
        );
        assert_eq!(
            model.classify(&[region(3, 9, 0.4)]).map(|found| found.0),
            Some(clustering.cluster_of_page[2])
        );
    }

    #[test]
    fn the_model_survives_json() {
        let regions = [vec![region(u64::MAX, 5, 0.5)], vec![region(7, 5, 0.5)]];
        let slices: Vec<&[RegionSummary]> = regions.iter().map(Vec::as_slice).collect();
        let model = cluster_layouts(&slices).model;
        let text = serde_json::to_string(&model).unwrap();
        assert!(text.contains("ffffffffffffffff"), "{text}");
        let back: LayoutModel = serde_json::from_str(&text).unwrap();
        assert_eq!(back, model);
    }
}
