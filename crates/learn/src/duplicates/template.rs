//! Removing the text a page's template prints, so that only the page's own content is compared.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

use super::PageText;
use super::words::{Token, fnv_start, fnv_step, for_each_token, mix64};

/// A block is template text when it occurs on more than this share of the pages it is compared
/// with; a position is a template position when it holds text on more than this share.
pub(super) const TEMPLATE_SHARE: f64 = 0.5;

/// A block is template text only when it occurs on at least this many pages. Two pages sharing
/// a block are as likely a page and its copy (a thread and its `&start=0` spelling) as two pages
/// of one template, and stripping the content of a copied page would move both copies into the
/// group of pages without text.
pub(super) const TEMPLATE_MIN_PAGES: u32 = 3;

/// A template position (see [`TEMPLATE_SHARE`]) whose blocks take at most this many distinct
/// texts per page holding it is template text whatever it says: a rotating advertisement, a
/// "last visit" line or the board name over a thread list takes a handful of values over many
/// pages, while the post bodies, thread titles and list rows that make a page's content take
/// about one value per distinct page, and more when a page has many rows.
pub(super) const TEMPLATE_VALUES_PER_PAGE: f64 = 1.0 / 3.0;

/// A page read once: the hash of each of its words, in order, and its blocks.
#[derive(Debug, Clone, Default)]
pub(super) struct ReadPage {
    pub(super) words: Vec<u64>,
    pub(super) blocks: Vec<ReadBlock>,
}

/// A block of a [`ReadPage`]: its index among the page's blocks, the key its text is counted
/// under (see [`read_block`]) and the range of its words in the page's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ReadBlock {
    pub(super) index: usize,
    pub(super) key: u64,
    pub(super) words: Range<usize>,
}

impl ReadPage {
    /// Reads every block of `page`. Tokenizing is the costliest step of the whole search, so
    /// each block is read once for both its key and its words.
    fn read(page: &PageText, scratch: &mut Vec<u8>) -> ReadPage {
        // Reserving for a word every four bytes spares regrowing (and copying) the words of a
        // long page a dozen times; CJK text has a word every three bytes and may grow once.
        let bytes: usize = page.blocks.iter().map(|block| block.text.len()).sum();
        let mut read = ReadPage {
            words: Vec::with_capacity(bytes / 4),
            blocks: Vec::with_capacity(page.blocks.len()),
        };
        for (index, block) in page.blocks.iter().enumerate() {
            let start = read.words.len();
            let key = read_block(&block.text, &mut read.words, scratch);
            read.blocks.push(ReadBlock {
                index,
                key,
                words: start..read.words.len(),
            });
        }
        read
    }
}

/// Reads a block's text: appends the hash of each of its words to `words`, and returns the key
/// the block is counted under, which is its tokens with every changing word (one holding a
/// digit, or an ASCII word of at most three letters) replaced by one marker. So "Page 3 of 7",
/// "Total posts 2374" and "Last visit was: Mon Dec 29, 2025 10:14 pm" count as the same line on
/// every page whatever the numbers, weekday, month or am/pm say, while two blocks of prose still
/// differ by their longer words. Case and whitespace do not matter.
fn read_block(text: &str, words: &mut Vec<u64>, scratch: &mut Vec<u8>) -> u64 {
    const MARKER: u64 = 0x23;
    const SYMBOL: u64 = 1 << 40;
    let mut state = fnv_start();
    for_each_token(text, scratch, |token| {
        let value = match token {
            Token::Word { hash, changing } => {
                words.push(hash);
                if changing { MARKER } else { hash }
            }
            Token::Symbol(character) => SYMBOL | u64::from(character),
        };
        state = (state ^ value).wrapping_mul(0x0000_0100_0000_01b3);
    });
    mix64(state)
}

/// How often something occurs: on how many pages, and with how many distinct texts.
#[derive(Debug, Clone, Copy, Default)]
struct Occurrence {
    pages: u32,
    values: u32,
}

/// A hasher for keys that are already well-mixed 64-bit hashes: hashing them again with SipHash
/// took most of the time of template removal.
#[derive(Debug, Default, Clone, Copy)]
struct PrehashedKey(u64);

impl Hasher for PrehashedKey {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = fnv_step(self.0, u32::from(byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

type PrehashedMap<V> = HashMap<u64, V, BuildHasherDefault<PrehashedKey>>;

/// Where something is counted: within a template group or over the whole sample.
#[derive(Debug, Clone, Copy)]
enum Scope {
    Group(u32),
    Sample,
}

impl Scope {
    /// `hash` (a text key or a position) counted within this scope, as one mixed key.
    fn key(self, hash: u64) -> u64 {
        let scope = match self {
            Scope::Group(group) => u64::from(group) + 1,
            Scope::Sample => 0,
        };
        mix64(hash ^ scope.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
}

/// Counts of texts and positions, per template group and over the whole sample.
#[derive(Debug, Default)]
struct Counts {
    group_sizes: HashMap<u32, u32>,
    texts: PrehashedMap<u32>,
    positions: PrehashedMap<Occurrence>,
}

impl Counts {
    fn gather(pages: &[PageText], read: &[ReadPage]) -> Counts {
        let mut counts = Counts::default();
        let mut seen_values: HashSet<u64, BuildHasherDefault<PrehashedKey>> = HashSet::default();
        let mut page_texts = Vec::new();
        let mut page_positions = Vec::new();
        let mut page_values = Vec::new();
        for (page, read) in pages.iter().zip(read) {
            let group = page.template_group;
            *counts.group_sizes.entry(group).or_default() += 1;
            // A block repeated on one page (the thread title over every post) counts once.
            page_texts.clear();
            page_texts.extend(read.blocks.iter().map(|block| block.key));
            page_texts.sort_unstable();
            page_texts.dedup();
            page_positions.clear();
            page_positions.extend(page.blocks.iter().map(|block| block.element_path));
            page_positions.sort_unstable();
            page_positions.dedup();
            page_values.clear();
            page_values.extend(page.blocks.iter().zip(&read.blocks).map(|(block, read)| {
                let path = block.element_path;
                (path, mix64(path ^ read.key.rotate_left(29)))
            }));
            page_values.sort_unstable();
            page_values.dedup();
            for scope in [Scope::Group(group), Scope::Sample] {
                for &key in &page_texts {
                    *counts.texts.entry(scope.key(key)).or_default() += 1;
                }
                for &path in &page_positions {
                    counts.positions.entry(scope.key(path)).or_default().pages += 1;
                }
                for &(path, value) in &page_values {
                    if seen_values.insert(scope.key(value)) {
                        counts.positions.entry(scope.key(path)).or_default().values += 1;
                    }
                }
            }
        }
        counts
    }

    /// Whether a block at `path` with text `key` on a page of `group` is template text, judged
    /// within the group and within the whole sample. Groups of one or two pages never reach
    /// [`TEMPLATE_MIN_PAGES`], so their template is judged by the whole sample alone.
    fn is_template(&self, group: u32, path: u64, key: u64, sample_size: u32) -> bool {
        [
            (Scope::Group(group), self.group_sizes[&group]),
            (Scope::Sample, sample_size),
        ]
        .into_iter()
        .any(|(scope, size)| {
            let frequent = |pages: u32| {
                pages >= TEMPLATE_MIN_PAGES && f64::from(pages) > TEMPLATE_SHARE * f64::from(size)
            };
            if frequent(self.texts[&scope.key(key)]) {
                return true;
            }
            let position = self.positions[&scope.key(path)];
            path != 0
                && frequent(position.pages)
                && f64::from(position.values)
                    <= TEMPLATE_VALUES_PER_PAGE * f64::from(position.pages)
        })
    }
}

/// The blocks of each page that are not template text, in the page's order. A block is template
/// text when, within its template group or within the whole sample, its text (as
/// [`read_block`] sees it) is on more than half of the pages, or its position is on more than
/// half of the pages and holds few distinct texts (see [`TEMPLATE_VALUES_PER_PAGE`]).
pub(super) fn content_blocks(pages: &[PageText]) -> Vec<ReadPage> {
    let mut read: Vec<ReadPage> =
        super::map_in_parallel(pages, |page| ReadPage::read(page, &mut Vec::new()));
    let counts = Counts::gather(pages, &read);
    let sample_size = pages.len() as u32;
    for (page, read) in pages.iter().zip(&mut read) {
        read.blocks.retain(|block| {
            let path = page.blocks[block.index].element_path;
            !counts.is_template(page.template_group, path, block.key, sample_size)
        });
    }
    read
}

#[cfg(test)]
mod tests {
    use super::super::TextBlock;
    use super::*;

    fn key(text: &str) -> u64 {
        read_block(text, &mut Vec::new(), &mut Vec::new())
    }

    #[test]
    fn template_keys_ignore_case_numbers_and_short_words() {
        let same = [
            ("Page 1 of 3", "page 12 of 40"),
            ("It is currently 10:14 pm", "It is currently 9:02 am"),
            (
                "Last visit was: Mon Dec 29, 2025 10:14 pm",
                "Last visit was: Tue Nov 4, 2025 6:41 am",
            ),
            ("第3页", "第12页"),
            ("现在时间 2026-1-1 08:00", "现在时间 2025-12-31 23:59"),
            ("Posted by Redoldi45", "Posted by Nikashta5"),
        ];
        for (left, right) in same {
            assert_eq!(key(left), key(right), "{left:?} {right:?}");
        }
        let different = [
            ("Total posts 12", "Total topics 12"),
            ("Posts 1", "Posts"),
            ("abcd efgh", "abcdefgh"),
            ("我有3个孩子", "我有3个朋友"),
            ("Schön Handy leise", "Schön Handy laut"),
        ];
        for (left, right) in different {
            assert_ne!(key(left), key(right), "{left:?} {right:?}");
        }
    }

    /// A page of `group` whose blocks are (text, position) pairs; position 0 is unknown.
    fn page(group: u32, blocks: &[(&str, u64)]) -> PageText {
        PageText {
            blocks: blocks
                .iter()
                .map(|&(text, element_path)| TextBlock {
                    text: text.to_string(),
                    element_path,
                })
                .collect(),
            template_group: group,
        }
    }

    /// A page of `group` whose blocks have unknown positions.
    fn plain(group: u32, texts: &[&str]) -> PageText {
        let blocks: Vec<(&str, u64)> = texts.iter().map(|&text| (text, 0)).collect();
        page(group, &blocks)
    }

    /// Removes the template from `pages` and compares what is left page by page.
    fn check_content(pages: &[PageText], expected: &[&[&str]]) {
        let content: Vec<Vec<&str>> = content_blocks(pages)
            .iter()
            .zip(pages)
            .map(|(read, page)| {
                read.blocks
                    .iter()
                    .map(|block| page.blocks[block.index].text.as_str())
                    .collect()
            })
            .collect();
        let expected: Vec<Vec<&str>> = expected.iter().map(|blocks| blocks.to_vec()).collect();
        assert_eq!(content, expected);
    }

    #[test]
    fn texts_on_most_pages_of_a_group_are_template() {
        check_content(
            &[
                plain(0, &["Header", "Page 1 of 2", "first post"]),
                plain(0, &["Header", "Page 2 of 2", "second post"]),
                plain(0, &["Header", "Page 1 of 1", "third post", "Header"]),
                plain(0, &["Header", "fourth post"]),
            ],
            &[
                &["first post"],
                &["second post"],
                &["third post"],
                &["fourth post"],
            ],
        );
    }

    #[test]
    fn texts_on_half_the_pages_or_fewer_stay() {
        check_content(
            &[
                plain(0, &["Header", "shared"]),
                plain(0, &["Header", "shared"]),
                plain(0, &["Header", "own"]),
                plain(0, &["Header", "other"]),
            ],
            &[&["shared"], &["shared"], &["own"], &["other"]],
        );
    }

    #[test]
    fn a_page_and_its_copy_in_a_small_group_keep_their_text() {
        // Two of three pages share every block, but two pages are not enough to call it a
        // template.
        check_content(
            &[
                plain(0, &["post text"]),
                plain(0, &["post text"]),
                plain(0, &["other text"]),
            ],
            &[&["post text"], &["post text"], &["other text"]],
        );
    }

    #[test]
    fn groups_are_judged_apart() {
        // "Quote" is template in group 0; in group 1 it occurs once and is content there (four
        // pages of eight is not most of the sample), but the site-wide "Menu" is template
        // everywhere because it fills most of the sample.
        check_content(
            &[
                plain(0, &["Menu", "Quote", "alpha"]),
                plain(0, &["Menu", "Quote", "bravo"]),
                plain(0, &["Menu", "Quote", "charlie"]),
                plain(1, &["Menu", "Quote", "victor"]),
                plain(1, &["Menu", "whiskey"]),
                plain(1, &["Menu", "xray"]),
                plain(1, &["Menu", "yankee"]),
                plain(1, &["Menu", "zulu"]),
            ],
            &[
                &["alpha"],
                &["bravo"],
                &["charlie"],
                &["Quote", "victor"],
                &["whiskey"],
                &["xray"],
                &["yankee"],
                &["zulu"],
            ],
        );
    }

    #[test]
    fn small_groups_use_the_whole_sample() {
        check_content(
            &[
                plain(0, &["Menu", "alpha"]),
                plain(0, &["Menu", "bravo"]),
                plain(0, &["Menu", "charlie"]),
                plain(1, &["Menu", "Print", "delta"]),
                plain(2, &["Print", "echo"]),
            ],
            &[
                &["alpha"],
                &["bravo"],
                &["charlie"],
                &["Print", "delta"],
                &["Print", "echo"],
            ],
        );
    }

    #[test]
    fn identical_pages_of_a_group_lose_all_their_text() {
        let wall = ["Menu", "You must log in", "Username", "Password"];
        let pages: Vec<PageText> = (0..4).map(|_| plain(7, &wall)).collect();
        check_content(&pages, &[&[], &[], &[], &[]]);
    }

    #[test]
    fn a_sample_of_two_keeps_everything() {
        check_content(
            &[plain(0, &["Menu", "alpha"]), plain(0, &["Menu", "alpha"])],
            &[&["Menu", "alpha"], &["Menu", "alpha"]],
        );
    }

    #[test]
    fn positions_with_few_texts_are_template() {
        // Position 5 holds one of two advertisements on every page; position 6 holds each
        // page's own post, position 7 a title that two copies share.
        let ads = ["Cheap flights", "Fresh coffee beans"];
        let posts = ["about apples", "about bananas", "about cherries"];
        let pages: Vec<PageText> = (0..6)
            .map(|index| {
                page(
                    0,
                    &[(ads[index % 2], 5), (posts[index / 2], 6), ("Title", 7)],
                )
            })
            .collect();
        check_content(
            &pages,
            &[
                &["about apples"],
                &["about apples"],
                &["about bananas"],
                &["about bananas"],
                &["about cherries"],
                &["about cherries"],
            ],
        );
    }

    #[test]
    fn positions_with_a_text_per_page_stay() {
        let pages: Vec<PageText> = ["alpha", "bravo", "charlie", "delta"]
            .iter()
            .map(|&text| page(0, &[(text, 5)]))
            .collect();
        check_content(&pages, &[&["alpha"], &["bravo"], &["charlie"], &["delta"]]);
    }
}
