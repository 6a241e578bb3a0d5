//! 5-word shingles and one-permutation MinHash signatures.

use super::words::mix64;

/// Words per shingle, as in iRobot §5.3.
pub(super) const SHINGLE_WORDS: usize = 5;

/// Bins of a MinHash signature. 128 bins estimate a Jaccard similarity near the 0.6 threshold
/// with a standard deviation of about 0.043, small beside the gap between copies and distinct
/// pages on the simulator (see the module documentation).
pub(super) const SIGNATURE_BINS: usize = 128;

/// A page's MinHash signature: for each bin, the least shingle hash that fell into it.
pub(super) type Signature = [u64; SIGNATURE_BINS];

/// The multiplier of the polynomial shingle hash (odd, so that multiplying loses nothing).
const SHINGLE_MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

/// The hash of a run of word hashes (a shingle, or all the words of a block shorter than a
/// shingle) as a polynomial Σ wᵢ·M^(n−1−i), so that the order of the words matters and the next
/// shingle of a block follows from this one by one subtraction and one multiplication; the run's
/// length is folded in before mixing, so that a short block never collides with a shingle that
/// starts with the same words.
fn polynomial(words: &[u64]) -> u64 {
    words.iter().fold(0u64, |hash, &word| {
        hash.wrapping_mul(SHINGLE_MULTIPLIER).wrapping_add(word)
    })
}

fn finish_shingle(polynomial: u64, length: usize) -> u64 {
    mix64(polynomial ^ (length as u64).rotate_left(59))
}

/// Calls `visit` with the hash of every shingle of a block given by the hashes of its words:
/// each run of [`SHINGLE_WORDS`] consecutive words, or one shingle of all its words when the
/// block is shorter.
///
/// Shingles stay inside their block rather than running over the page's text as one stream:
/// a board list under another sort order then has exactly the shingles of the original (only
/// the order of its rows changed), and a block that changes on every request spoils only its own
/// shingles, not those of its neighbours.
pub(super) fn for_each_shingle(words: &[u64], mut visit: impl FnMut(u64)) {
    if words.is_empty() {
        return;
    }
    if words.len() < SHINGLE_WORDS {
        visit(finish_shingle(polynomial(words), words.len()));
        return;
    }
    // M^(SHINGLE_WORDS − 1): the weight of the word that leaves the window.
    let leaving_weight =
        (1..SHINGLE_WORDS).fold(1u64, |weight, _| weight.wrapping_mul(SHINGLE_MULTIPLIER));
    let mut hash = polynomial(&words[..SHINGLE_WORDS]);
    visit(finish_shingle(hash, SHINGLE_WORDS));
    for (leaving, &entering) in words.iter().zip(&words[SHINGLE_WORDS..]) {
        hash = hash
            .wrapping_sub(leaving.wrapping_mul(leaving_weight))
            .wrapping_mul(SHINGLE_MULTIPLIER)
            .wrapping_add(entering);
        visit(finish_shingle(hash, SHINGLE_WORDS));
    }
}

/// Builds a one-permutation MinHash signature from shingle hashes (Li, Owen and Zhang 2012): the
/// top bits of a hash pick its bin and the bin keeps the least value, so one hash per shingle
/// replaces the 128 hash functions of classic MinHash. Bins that no shingle reached borrow the
/// value of the next filled bin to the right, shifted by the distance ("rotation" densification,
/// Shrivastava and Li 2014), which keeps the probability that two signatures agree in a bin close
/// to the Jaccard similarity of the shingle sets. Returns `None` when there is no shingle.
#[derive(Debug, Clone)]
pub(super) struct SignatureBuilder {
    bins: Signature,
    filled: bool,
}

const BIN_BITS: u32 = SIGNATURE_BINS.trailing_zeros();
const EMPTY_BIN: u64 = u64::MAX;

impl SignatureBuilder {
    pub(super) fn new() -> Self {
        SignatureBuilder {
            bins: [EMPTY_BIN; SIGNATURE_BINS],
            filled: false,
        }
    }

    pub(super) fn add(&mut self, shingle: u64) {
        let bin = (shingle >> (64 - BIN_BITS)) as usize;
        // The value drops the bin bits so that it never equals the empty marker.
        let value = shingle & (u64::MAX >> BIN_BITS);
        if value < self.bins[bin] {
            self.bins[bin] = value;
        }
        self.filled = true;
    }

    pub(super) fn finish(mut self) -> Option<Signature> {
        if !self.filled {
            return None;
        }
        let first_filled = self.bins.iter().position(|&value| value != EMPTY_BIN)?;
        // Walk leftwards from a filled bin, so that each empty bin finds its right neighbour
        // already settled; the distance shift keeps borrowed values apart from real ones.
        let mut source = self.bins[first_filled];
        let mut distance = 0u64;
        for step in 1..=SIGNATURE_BINS {
            let bin = (first_filled + SIGNATURE_BINS - step) % SIGNATURE_BINS;
            if self.bins[bin] == EMPTY_BIN {
                distance += 1;
                self.bins[bin] = mix64(source.wrapping_add(distance));
            } else {
                source = self.bins[bin];
                distance = 0;
            }
        }
        Some(self.bins)
    }
}

/// The share of bins in which two signatures agree: an estimate of the Jaccard similarity of the
/// two pages' shingle sets.
pub(super) fn estimated_jaccard(left: &Signature, right: &Signature) -> f64 {
    let agreeing = left
        .iter()
        .zip(right.iter())
        .filter(|(left, right)| left == right)
        .count();
    agreeing as f64 / SIGNATURE_BINS as f64
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::super::words::{Token, for_each_token};
    use super::*;

    fn shingles(block: &str) -> Vec<u64> {
        let mut words = Vec::new();
        for_each_token(block, &mut Vec::new(), |token| {
            if let Token::Word { hash, .. } = token {
                words.push(hash);
            }
        });
        let mut out = Vec::new();
        for_each_shingle(&words, |shingle| out.push(shingle));
        out
    }

    fn signature(blocks: &[&str]) -> Option<Signature> {
        let mut builder = SignatureBuilder::new();
        for block in blocks {
            for shingle in shingles(block) {
                builder.add(shingle);
            }
        }
        builder.finish()
    }

    #[test]
    fn shingles_are_five_word_windows_or_the_whole_short_block() {
        for (block, count) in [
            ("one two three four five", 1),
            ("one two three four five six seven", 3),
            ("one two", 1),
            ("", 0),
            ("!!", 0),
            ("一二三四五六", 2),
        ] {
            assert_eq!(shingles(block).len(), count, "{block:?}");
        }
        assert_eq!(shingles("One, two; THREE"), shingles("one two three"));
        assert_ne!(shingles("one two three"), shingles("three two one"));
        assert_ne!(shingles("one two"), shingles("one two three")[..]);
    }

    #[test]
    fn rolling_shingles_equal_shingles_hashed_afresh() {
        let block = "one two three four five six seven eight nine ten eleven";
        let mut words = Vec::new();
        for_each_token(block, &mut Vec::new(), |token| {
            if let Token::Word { hash, .. } = token {
                words.push(hash);
            }
        });
        let afresh: Vec<u64> = words
            .windows(SHINGLE_WORDS)
            .map(|window| finish_shingle(polynomial(window), SHINGLE_WORDS))
            .collect();
        assert_eq!(shingles(block), afresh);
        let unique: HashSet<u64> = afresh.iter().copied().collect();
        assert_eq!(unique.len(), afresh.len());
    }

    #[test]
    fn a_short_block_differs_from_a_shingle_starting_with_its_words() {
        let short = shingles("alpha beta gamma delta");
        let long = shingles("alpha beta gamma delta epsilon");
        assert_ne!(short, long);
    }

    #[test]
    fn signatures_of_equal_sets_agree_everywhere_and_ignore_block_order() {
        let page = [
            "the quick brown fox jumps over the lazy dog",
            "second block of words",
        ];
        let reordered = [page[1], page[0]];
        let left = signature(&page).expect("words");
        let right = signature(&reordered).expect("words");
        assert_eq!(estimated_jaccard(&left, &right), 1.0);
        assert!(signature(&["", "  "]).is_none());
    }

    /// Builds two shingle sets with a known Jaccard similarity from distinct synthetic shingles
    /// and checks the estimate is within four standard deviations.
    fn check_estimate(shared: u64, only_left: u64, only_right: u64) {
        let mut left = SignatureBuilder::new();
        let mut right = SignatureBuilder::new();
        for index in 0..shared {
            let shingle = mix64(index);
            left.add(shingle);
            right.add(shingle);
        }
        for index in 0..only_left {
            left.add(mix64(1_000_000 + index));
        }
        for index in 0..only_right {
            right.add(mix64(2_000_000 + index));
        }
        let truth = shared as f64 / (shared + only_left + only_right) as f64;
        let estimate = estimated_jaccard(&left.finish().unwrap(), &right.finish().unwrap());
        let deviation = (truth * (1.0 - truth) / SIGNATURE_BINS as f64).sqrt();
        assert!(
            (estimate - truth).abs() <= 4.0 * deviation + 0.02,
            "shared {shared}, left {only_left}, right {only_right}: \
             estimate {estimate:.3}, truth {truth:.3}"
        );
    }

    #[test]
    fn signatures_estimate_jaccard_similarity() {
        check_estimate(1000, 0, 0);
        check_estimate(900, 50, 50);
        check_estimate(500, 250, 250);
        check_estimate(200, 400, 400);
        check_estimate(0, 500, 500);
        check_estimate(40, 10, 10);
        check_estimate(5000, 2000, 3000);
    }

    #[test]
    fn signatures_of_unrelated_short_pages_rarely_agree() {
        let left = signature(&["kettle boils slowly"]).unwrap();
        let right = signature(&["printer jams again"]).unwrap();
        assert!(estimated_jaccard(&left, &right) < 0.1);
    }
}
