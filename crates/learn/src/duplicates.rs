//! Near-duplicate groups among sampled pages: which sampled pages show the same content under
//! different URLs, and which carry no content of their own.
//!
//! iRobot (§5.3) penalises a sitemap vertex by its share of near-duplicates, found with 5-word
//! shingles and locality-sensitive hashing in linear time; the skeleton-link paper (§5.1.1) cleans
//! pages of tags, fingerprints them by shingles or SimHash, and scores a vertex by the entropy of
//! its duplicate groups Dᵢ ([`entropy_informativeness`]). [`DuplicateGroups::find`] gives every
//! sampled page a group id for both.
//!
//! # Method
//!
//! 1. **Text blocks.** [`text_blocks`] reads a page's visible text as blocks (the text of each
//!    block-level element, inline markup flowing into it), each with a hash of its element path
//!    (tags, classes and ids from the root, digits generalised, no sibling positions).
//! 2. **Template removal**, within each template group (the layout cluster a page belongs to)
//!    and within the whole sample. A block is template text when its text is on more than half of
//!    the pages (and on at least three), or when its *position* is on more than half of the pages
//!    and holds at most one distinct text per three pages holding it. Texts are compared with
//!    their changing words (holding a digit, or ASCII words of at most three letters) replaced by
//!    a marker, so "Page 3 of 7" or "Last visit was: Mon Dec 29, 2025 10:14 pm" is the same line
//!    on every page. The position rule catches what text frequency cannot: an advertisement
//!    rotating through a pool, a "last visit" line that reads "Yesterday at 7:37 PM" on one page
//!    and "21 minutes ago" on the next, the board name over a thread list. Post bodies, list rows
//!    and titles take about one text per distinct page and stay. A group of one or two pages is
//!    judged by the whole sample only.
//! 3. **Shingles.** Words are runs of letters and digits, lower-cased, and every CJK character
//!    is a word of its own (Chinese has no spaces). Each block gives its 5-word shingles, or one
//!    shingle of all its words when shorter, hashed to 64 bits by hand-written hashes that do not
//!    change between Rust versions. Shingles do not cross blocks, so a board list under another
//!    sort order has exactly the shingles of the original.
//! 4. **Signatures.** A 128-bin one-permutation MinHash signature per page, with rotation
//!    densification for pages with few shingles; the share of agreeing bins estimates the Jaccard
//!    similarity of two pages' shingle sets (standard deviation ≤ 0.044).
//! 5. **Groups.** LSH cuts signatures into 32 bands of 4 bins; pages sharing a band are
//!    candidates (found by sorting band keys, each page compared with at most four earlier pages
//!    of a bucket, so the work is linear in the sample), a candidate pair is joined when its
//!    estimated Jaccard similarity is at least **0.6**, and union-find closes the groups. Every
//!    page left without any word after template removal (login walls, error prompts: the fixed
//!    pages iRobot's third factor is about) falls in one group,
//!    [`DuplicateGroups::group_without_text`].
//!
//! # Measured on the simulator
//!
//! `tests/duplicates.rs` samples a small forum of each of the seven families (425 to 921 pages:
//! the valuable pages of every board and of a quarter of the threads, their duplicate spellings,
//! 40 login walls, login forms and error pages), with the page role as template group. With the
//! thresholds above, recall of (duplicate, canonical) pairs that are genuine near-copies is 0.98
//! to 1.00 per family, no two valuable pages share a group (precision 1.000), and all login walls
//! fall in one group.
//!
//! **MinHash, not SimHash.** Over those samples (74,249 pairs of distinct valuable pages of one
//! template group, 1,985 genuine copy pairs), the MinHash estimate for distinct pages has a 99th
//! percentile of at most 0.06 per family and a maximum of 0.12 (0.37 among vBulletin's one-line
//! threads), while the 1st percentile of copies is 0.38 to 0.88; no distinct pair reaches the
//! 0.6 threshold. A 64-bit SimHash of the same shingles puts distinct pages as close as 16
//! differing bits (99th percentile 22) and the 1st percentile of copies at 10 to 19 bits: any
//! Hamming threshold that keeps 99 % of copies also joins hundreds of distinct pairs. SimHash
//! compresses a page to one direction and loses the set structure that tells a shared line from
//! shared content.
//!
//! # Alternatives rejected
//!
//! - **Threshold 0.5 or lower.** A print view of a two-page thread holds both pages, so its
//!   similarity to each is about one half; at 0.5 it can join both into one group, and at 0.4,
//!   2 to 9 % of valuable pages were merged with another. Above 0.5 one page cannot be that close
//!   to two disjoint ones, and 0.6 leaves room for the estimate's error. The price is a few print
//!   views whose per-post headers differ from the thread's (SMF: Jaccard 0.53 to 0.59).
//! - **Text frequency alone** for the template left every login wall with its rotating
//!   advertisement and its own "last visit" time, so the walls split by advertisement, and the
//!   copies of a short thread fell to a Jaccard similarity near one half.
//! - **Blocks spread over many duplicate groups as boilerplate** (a second pass after a first
//!   grouping) also caught advertisements, but thread titles too: a title is on the board list
//!   under each sort order, on the thread's pages and on its print view, and board pages lost all
//!   their text.
//! - **Verifying candidates by exact Jaccard** needs every page's sorted shingle set: 40 MB and a
//!   sort of five million hashes for 1,000 pages of 5,000 words, several times the rest of the
//!   search; the estimate's error is far smaller than the gap between copies and distinct pages.
//!
//! # Limits
//!
//! A template group made mostly of copies of one page loses that page's text as template, and
//! its pages fall in the group without text. Pages with a handful of words of their own (a
//! one-line thread) are at the noise floor: two of them in one board share the board name in a
//! table cell and may reach the threshold.
//!
//! # Cost
//!
//! Nearly all the time goes into reading the text (tokenizing and hashing every word), which
//! runs eight bytes at a time and on all cores. Grouping 1,000 pages of 5,000 words each takes
//! about 0.9 billion instructions, 0.15 s of one core of a busy two-core machine; the 804 pages
//! of the phpBB sample (630,000 words) take 0.02 to 0.04 s, and [`text_blocks`] 0.05 s more.

mod fingerprint;
mod grouping;
mod template;
mod text;
mod words;

pub use text::{TextBlock, text_blocks};

use fingerprint::{Signature, SignatureBuilder};
use template::ReadPage;

/// One sampled page as the duplicate search sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageText {
    /// The page's visible text blocks in document order (see [`text_blocks`]).
    pub blocks: Vec<TextBlock>,
    /// The template (layout cluster) the page was rendered with: pages of one group share the
    /// text their template prints, which is removed before pages are compared.
    pub template_group: u32,
}

/// A partition of sampled pages into groups of near-duplicates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateGroups {
    group_of_page: Vec<usize>,
    members: Vec<Vec<usize>>,
    empty_group: Option<usize>,
    /// Each page's content shingles, sorted and distinct, for containment questions.
    shingles: Vec<Vec<u64>>,
}

impl DuplicateGroups {
    /// Groups `pages` (see the module documentation for the method and its thresholds).
    pub fn find(pages: &[PageText]) -> DuplicateGroups {
        let content = template::content_blocks(pages);
        let signatures: Vec<Option<Signature>> = map_in_parallel(&content, signature_of);
        let group_of_page = grouping::group(&signatures);
        let group_count = group_of_page.iter().max().map_or(0, |&last| last + 1);
        let mut members = vec![Vec::new(); group_count];
        for (page, &group) in group_of_page.iter().enumerate() {
            members[group].push(page);
        }
        let empty_group = signatures
            .iter()
            .position(Option::is_none)
            .map(|page| group_of_page[page]);
        let shingles = map_in_parallel(&content, shingles_of);
        DuplicateGroups {
            group_of_page,
            members,
            empty_group,
            shingles,
        }
    }

    /// The share of page `part`'s content shingles that page `whole` also holds: 1 when all of
    /// `part`'s own text (template removed) is found on `whole`, as for a single-post view and
    /// the thread page holding that post. 0 when `part` has no content of its own.
    pub fn containment(&self, part: usize, whole: usize) -> f64 {
        let (part, whole) = (&self.shingles[part], &self.shingles[whole]);
        if part.is_empty() {
            return 0.0;
        }
        let found = part
            .iter()
            .filter(|shingle| whole.binary_search(shingle).is_ok())
            .count();
        found as f64 / part.len() as f64
    }

    /// The group of page `page` (its index in the input).
    ///
    /// # Panics
    ///
    /// When `page` is not an index of the input.
    pub fn group_of(&self, page: usize) -> usize {
        self.group_of_page[page]
    }

    /// The group of every page, in input order.
    pub fn group_of_each_page(&self) -> &[usize] {
        &self.group_of_page
    }

    /// Number of groups.
    pub fn group_count(&self) -> usize {
        self.members.len()
    }

    /// The pages of each group, groups numbered from 0 by their first page, pages ascending.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = &[usize]> {
        self.members.iter().map(Vec::as_slice)
    }

    /// The pages of group `group`, ascending.
    ///
    /// # Panics
    ///
    /// When `group` is not below [`DuplicateGroups::group_count`].
    pub fn members_of(&self, group: usize) -> &[usize] {
        &self.members[group]
    }

    /// The group of the pages left without text once their template was removed (login walls,
    /// error pages and other fixed prompts), if there is any such page.
    pub fn group_without_text(&self) -> Option<usize> {
        self.empty_group
    }
}

/// The MinHash signature of a page's content blocks, `None` when they hold no word.
fn signature_of(page: &ReadPage) -> Option<Signature> {
    let mut builder = SignatureBuilder::new();
    for block in &page.blocks {
        fingerprint::for_each_shingle(&page.words[block.words.clone()], |shingle| {
            builder.add(shingle)
        });
    }
    builder.finish()
}

/// A page's content shingles, sorted and distinct.
fn shingles_of(page: &ReadPage) -> Vec<u64> {
    let mut shingles = Vec::new();
    for block in &page.blocks {
        fingerprint::for_each_shingle(&page.words[block.words.clone()], |shingle| {
            shingles.push(shingle)
        });
    }
    shingles.sort_unstable();
    shingles.dedup();
    shingles
}

/// `function` applied to every item, in order, spread over the machine's cores in contiguous
/// chunks. Reading the text of a large sample is the one step of the search that costs real time
/// (most of 0.15 s of CPU for 5,000,000 words), and pages are independent; the result does not
/// depend on the number of threads.
fn map_in_parallel<T: Sync, R: Send>(items: &[T], function: impl Fn(&T) -> R + Sync) -> Vec<R> {
    /// Below this many items the threads cost more than they save.
    const ITEMS_PER_THREAD: usize = 32;
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(items.len() / ITEMS_PER_THREAD)
        .max(1);
    if threads == 1 {
        return items.iter().map(function).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let function = &function;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(function).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// The entropy informativeness of a set of pages from their duplicate group ids (skeleton-link
/// paper, equation 2): −1/log N · Σᵢ |Dᵢ|/N · log(|Dᵢ|/N) over the groups Dᵢ present among the
/// N pages. It is 1 when every page is distinct and 0 when all are copies of one page. Ids need
/// not be dense.
///
/// The formula divides by log N, which is 0 for a single page: one page holds no duplicate, so
/// it scores 1 like any other all-distinct set. No page at all holds no information and scores 0.
pub fn entropy_informativeness(group_ids: impl IntoIterator<Item = usize>) -> f64 {
    let mut ids: Vec<usize> = group_ids.into_iter().collect();
    match ids.len() {
        0 => return 0.0,
        1 => return 1.0,
        _ => {}
    }
    ids.sort_unstable();
    let total = ids.len() as f64;
    let entropy: f64 = ids
        .chunk_by(|left, right| left == right)
        .map(|group| {
            let share = group.len() as f64 / total;
            // Written as share · log(1/share) so that one group gives +0, not −0.
            share * (1.0 / share).ln()
        })
        .sum();
    (entropy / total.ln()).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VOCABULARY: [&str; 24] = [
        "kettle",
        "router",
        "garden",
        "printer",
        "season",
        "bicycle",
        "pepper",
        "window",
        "license",
        "antenna",
        "coffee",
        "monitor",
        "tripod",
        "battery",
        "summer",
        "engine",
        "recipe",
        "league",
        "speaker",
        "partition",
        "firmware",
        "cheese",
        "weather",
        "ticket",
    ];

    /// `words` words of made-up prose, the same for the same `seed`.
    fn prose(seed: u64, words: usize) -> String {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..words)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                VOCABULARY[(state % VOCABULARY.len() as u64) as usize]
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn block(text: &str, element_path: u64) -> TextBlock {
        TextBlock {
            text: text.to_string(),
            element_path,
        }
    }

    /// A thread page: the site's menu, a rotating advertisement and posts of made-up prose.
    fn thread_page(posts: &[u64], advertisement: usize) -> PageText {
        let mut blocks = vec![
            block("Board index Members Calendar", 1),
            block(
                ["Cheap flights", "Fresh coffee beans"][advertisement % 2],
                2,
            ),
        ];
        blocks.extend(posts.iter().map(|&post| block(&prose(post, 40), 3)));
        PageText {
            blocks,
            template_group: 0,
        }
    }

    fn login_wall(advertisement: usize) -> PageText {
        PageText {
            blocks: vec![
                block("Board index Members Calendar", 1),
                block(
                    ["Cheap flights", "Fresh coffee beans"][advertisement % 2],
                    2,
                ),
                block("You must be registered and logged in to reply", 4),
                block("Username Password", 5),
            ],
            template_group: 1,
        }
    }

    #[test]
    fn copies_are_grouped_and_distinct_pages_are_not() {
        let pages = vec![
            thread_page(&[1, 2, 3], 0),
            thread_page(&[4, 5], 1),
            // A copy of the first page, another advertisement.
            thread_page(&[1, 2, 3], 1),
            login_wall(0),
            thread_page(&[6], 0),
            login_wall(1),
            // The first page with one more post: still a near-copy (Jaccard 0.75).
            thread_page(&[1, 2, 3, 7], 0),
            login_wall(0),
            // The second page's posts in another order.
            thread_page(&[5, 4], 0),
        ];
        let groups = DuplicateGroups::find(&pages);
        assert_eq!(groups.group_of_each_page(), [0, 1, 0, 2, 3, 2, 0, 2, 1]);
        assert_eq!(groups.group_count(), 4);
        assert_eq!(groups.members_of(2), [3, 5, 7]);
        assert_eq!(groups.group_without_text(), Some(2));
        let members: Vec<&[usize]> = groups.groups().collect();
        assert_eq!(members, [&[0, 2, 6][..], &[1, 8], &[3, 5, 7], &[4]]);
        assert_eq!(DuplicateGroups::find(&pages), groups, "deterministic");
    }

    #[test]
    fn pages_with_text_have_no_group_without_text() {
        let pages = vec![thread_page(&[1], 0), thread_page(&[2], 1)];
        let groups = DuplicateGroups::find(&pages);
        assert_eq!(groups.group_of_each_page(), [0, 1]);
        assert_eq!(groups.group_without_text(), None);
    }

    #[test]
    fn no_pages_give_no_groups() {
        let groups = DuplicateGroups::find(&[]);
        assert_eq!(groups.group_count(), 0);
        assert_eq!(groups.groups().len(), 0);
        assert_eq!(groups.group_without_text(), None);
    }

    #[test]
    fn parallel_mapping_keeps_order() {
        for count in [0, 1, 31, 32, 100, 1_001] {
            let items: Vec<u64> = (0..count).collect();
            let mapped = map_in_parallel(&items, |item| item * 3);
            let expected: Vec<u64> = items.iter().map(|item| item * 3).collect();
            assert_eq!(mapped, expected, "{count} items");
        }
    }

    fn check_entropy(ids: &[usize], expected: f64) {
        let value = entropy_informativeness(ids.iter().copied());
        assert!(
            (value - expected).abs() < 1e-9,
            "{ids:?}: {value} instead of {expected}"
        );
    }

    #[test]
    fn entropy_informativeness_values() {
        check_entropy(&[0, 1, 2, 3], 1.0);
        check_entropy(&[7, 7, 7, 7], 0.0);
        assert!(entropy_informativeness([7, 7]).is_sign_positive());
        check_entropy(&[], 0.0);
        check_entropy(&[5], 1.0);
        check_entropy(&[1, 1], 0.0);
        check_entropy(&[1, 2], 1.0);
        check_entropy(&[9, 100, 9_000_000], 1.0);
        // Two groups of two among four pages: log 2 / log 4.
        check_entropy(&[0, 0, 1, 1], 0.5);
        // Groups of 2, 1, 1: (½ log 2 + 2 · ¼ log 4) / log 4 = 0.75, in any order.
        check_entropy(&[3, 1, 3, 2], 0.75);
    }
}
