//! Candidate pairs by banding MinHash signatures, verification, and union-find.

use super::fingerprint::{SIGNATURE_BINS, Signature, estimated_jaccard};
use super::words::mix64;

/// Bands the signature is cut into; a pair becomes a candidate when any band agrees whole. With
/// 32 bands of 4 bins a pair is a candidate with probability 1 − (1 − J⁴)³²: 0.99 at the
/// threshold's J = 0.6, 0.24 at J = 0.3 (rejected by verification), 0.003 at J = 0.1.
pub(super) const BANDS: usize = 32;

/// Signature bins per band.
pub(super) const ROWS_PER_BAND: usize = SIGNATURE_BINS / BANDS;

/// Two pages are near-duplicates when their estimated Jaccard similarity reaches this. It is above
/// one half so that a page holding two others (a print view of a two-page thread) cannot join
/// both into one group: it would need more than half of its shingles from each.
pub(super) const SIMILARITY_THRESHOLD: f64 = 0.6;

/// Pages of one bucket that others in the bucket are verified against. Comparing every pair in a
/// bucket would be quadratic when hundreds of copies of one page share it; comparing each page
/// with the bucket's first few members keeps the work linear, and a page whose copy is not among
/// them usually meets it in one of the other bands, or through a third page in the same group.
const REPRESENTATIVES_PER_BUCKET: usize = 4;

/// Disjoint sets over page indexes, with union by size and path halving, so that any sequence of
/// unions and finds takes near-linear time.
#[derive(Debug, Clone)]
pub(super) struct DisjointSets {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl DisjointSets {
    pub(super) fn new(count: usize) -> Self {
        DisjointSets {
            parent: (0..count).collect(),
            size: vec![1; count],
        }
    }

    pub(super) fn find(&mut self, mut item: usize) -> usize {
        while self.parent[item] != item {
            self.parent[item] = self.parent[self.parent[item]];
            item = self.parent[item];
        }
        item
    }

    /// Merges the sets of `left` and `right`; returns whether they were apart.
    pub(super) fn union(&mut self, left: usize, right: usize) -> bool {
        let (mut left, mut right) = (self.find(left), self.find(right));
        if left == right {
            return false;
        }
        if self.size[left] < self.size[right] {
            std::mem::swap(&mut left, &mut right);
        }
        self.parent[right] = left;
        self.size[left] += self.size[right];
        true
    }

    /// A dense id per set, numbered by each set's first member in index order, so that the
    /// numbering does not depend on the order in which unions happened.
    pub(super) fn dense_ids(&mut self) -> Vec<usize> {
        let mut id_of_root = vec![usize::MAX; self.parent.len()];
        let mut next = 0;
        (0..self.parent.len())
            .map(|item| {
                let root = self.find(item);
                if id_of_root[root] == usize::MAX {
                    id_of_root[root] = next;
                    next += 1;
                }
                id_of_root[root]
            })
            .collect()
    }
}

/// The key of one band of a signature; the band's index is folded in so that equal values in
/// different bands do not meet.
fn band_key(band: usize, signature: &Signature) -> u64 {
    let rows = &signature[band * ROWS_PER_BAND..(band + 1) * ROWS_PER_BAND];
    rows.iter()
        .fold(mix64(band as u64 ^ 0x9e37_79b9_7f4a_7c15), |key, &row| {
            mix64(key ^ row)
        })
}

/// Pairs of pages that share at least one band, each pair listed once, in a deterministic order.
/// Pages without a signature take no part. Within a bucket each page is paired with up to
/// [`REPRESENTATIVES_PER_BUCKET`] earlier members (see there why not with all).
pub(super) fn candidate_pairs(signatures: &[Option<Signature>]) -> Vec<(usize, usize)> {
    let mut entries: Vec<(u64, usize)> = Vec::with_capacity(signatures.len() * BANDS);
    for (page, signature) in signatures.iter().enumerate() {
        if let Some(signature) = signature {
            entries.extend((0..BANDS).map(|band| (band_key(band, signature), page)));
        }
    }
    // Sorting instead of a hash map keeps the candidate order, and so the work, reproducible.
    entries.sort_unstable();
    let mut pairs = Vec::new();
    for bucket in entries.chunk_by(|left, right| left.0 == right.0) {
        let representatives = &bucket[..bucket.len().min(REPRESENTATIVES_PER_BUCKET)];
        for (position, &(_, page)) in bucket.iter().enumerate().skip(1) {
            let earlier = &representatives[..position.min(representatives.len())];
            pairs.extend(
                earlier
                    .iter()
                    .map(|&(_, representative)| (representative, page)),
            );
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Unions every candidate pair whose signatures are similar enough. A pair already in one set
/// is not verified again, which keeps identical pages (all in one bucket of every band) cheap.
pub(super) fn join_similar(signatures: &[Option<Signature>], sets: &mut DisjointSets) {
    for (left, right) in candidate_pairs(signatures) {
        if sets.find(left) == sets.find(right) {
            continue;
        }
        if let (Some(left_signature), Some(right_signature)) =
            (&signatures[left], &signatures[right])
            && estimated_jaccard(left_signature, right_signature) >= SIMILARITY_THRESHOLD
        {
            sets.union(left, right);
        }
    }
}

/// Groups pages by their signatures: every page without a signature (no text of its own) in one
/// group, the others joined by verified candidate pairs. Returns a dense group id per page,
/// numbered by each group's first page.
pub(super) fn group(signatures: &[Option<Signature>]) -> Vec<usize> {
    let mut sets = DisjointSets::new(signatures.len());
    let mut without_text = (0..signatures.len()).filter(|&page| signatures[page].is_none());
    if let Some(first) = without_text.next() {
        for page in without_text {
            sets.union(first, page);
        }
    }
    join_similar(signatures, &mut sets);
    sets.dense_ids()
}

#[cfg(test)]
mod tests {
    use super::super::fingerprint::SignatureBuilder;
    use super::*;

    /// A signature of `count` synthetic shingles starting at `first`: ranges that overlap give
    /// signatures with the overlap's Jaccard similarity.
    fn signature(first: u64, count: u64) -> Signature {
        let mut builder = SignatureBuilder::new();
        for shingle in first..first + count {
            builder.add(mix64(shingle));
        }
        builder.finish().expect("shingles")
    }

    #[test]
    fn disjoint_sets_merge_and_number_by_first_member() {
        let mut sets = DisjointSets::new(6);
        assert!(sets.union(4, 2));
        assert!(sets.union(5, 1));
        assert!(sets.union(2, 0));
        assert!(!sets.union(0, 4));
        assert_eq!(sets.dense_ids(), vec![0, 1, 0, 2, 0, 1]);
        assert_eq!(DisjointSets::new(3).dense_ids(), vec![0, 1, 2]);
        assert!(DisjointSets::new(0).dense_ids().is_empty());
    }

    #[test]
    fn long_chains_stay_shallow() {
        let count = 100_000;
        let mut sets = DisjointSets::new(count);
        for item in 1..count {
            sets.union(item - 1, item);
        }
        assert!(sets.dense_ids().iter().all(|&id| id == 0));
    }

    /// Measures how often a pair with the given overlap becomes a candidate, over many
    /// independent pairs, and checks it against the banding curve 1 − (1 − J^r)^b.
    fn check_candidate_rate(shared: u64, own: u64, at_least: f64, at_most: f64) {
        let trials = 200;
        let mut found = 0;
        for trial in 0..trials {
            let base = trial * 1_000_000;
            let signatures = vec![
                Some(signature(base, shared + own)),
                Some(signature(base + own, shared + own)),
            ];
            if candidate_pairs(&signatures) == vec![(0, 1)] {
                found += 1;
            }
        }
        let rate = f64::from(found) / f64::from(trials as u32);
        let jaccard = shared as f64 / (shared + 2 * own) as f64;
        assert!(
            (at_least..=at_most).contains(&rate),
            "Jaccard {jaccard:.2}: candidate rate {rate:.2} not in {at_least}..={at_most}"
        );
    }

    #[test]
    fn banding_finds_similar_pairs_and_few_dissimilar_ones() {
        // 1 − (1 − J⁴)³² with sets of 450 shingles: 1.00 at J = 0.8, 0.99 at 0.6, 0.87 at 0.5,
        // 0.24 at 0.3 and 0.003 at 0.1; the bounds allow for 200 trials.
        check_candidate_rate(400, 50, 0.99, 1.0);
        check_candidate_rate(360, 120, 0.95, 1.0);
        check_candidate_rate(300, 150, 0.78, 0.95);
        check_candidate_rate(210, 240, 0.12, 0.38);
        check_candidate_rate(82, 368, 0.0, 0.03);
        check_candidate_rate(0, 400, 0.0, 0.0);
    }

    #[test]
    fn many_identical_pages_give_linearly_many_pairs() {
        let copy = Some(signature(0, 300));
        let signatures = vec![copy; 1000];
        let pairs = candidate_pairs(&signatures);
        assert!(pairs.len() < 4 * 1000, "{} pairs", pairs.len());
        let mut sets = DisjointSets::new(signatures.len());
        join_similar(&signatures, &mut sets);
        assert!(sets.dense_ids().iter().all(|&id| id == 0));
    }

    #[test]
    fn verification_rejects_candidates_below_the_threshold() {
        // Pages 0 and 1 overlap by a third (Jaccard 0.2), 2 is a near-copy of 0, 3 is missing.
        let signatures = vec![
            Some(signature(0, 600)),
            Some(signature(400, 600)),
            Some(signature(10, 600)),
            None,
        ];
        let mut sets = DisjointSets::new(signatures.len());
        join_similar(&signatures, &mut sets);
        assert_eq!(sets.dense_ids(), vec![0, 1, 0, 2]);
    }
}
