//! Pairs of URLs that may spell one page, found among sampled links and settled while sampling.
//!
//! The crawler learns a forum's redundant spellings (`&start=0`, `?page=1`, `-1.html`, SMF's
//! `/index.php/board,1.0.html` beside `?board=1.0`) from pages it fetched under both spellings,
//! and needs [`SPELLING_EVIDENCE`] agreeing pages per rule: each rule learned while crawling
//! costs that many duplicate fetches. A small forum of 300-450 pages has two or three such rules,
//! so those fetches alone kept the crawl's duplicate share at 1-2 % on the simulator's phpBB,
//! vBulletin, SMF, Discourse and tablecraft (`trawl bench crawl`, seeds 1-3).
//!
//! The same evidence is cheaper while sampling, where a fetch costs learning time and no
//! duplicate in the crawl. After the sample, [`spelling_checks`] looks through every URL the
//! sample fetched or saw linked for pairs that differ the way two spellings of one page differ,
//! groups them by the rule they would teach, and names the missing members of at most
//! [`SPELLING_EVIDENCE`] pairs per rule for the sampler to fetch (rules that many links would
//! use first, within a budget). [`sampled_spellings`] then lists every such pair among the
//! sampled pages with whether their texts were near-duplicates, and the plan carries that list
//! to the crawler, which weighs it exactly as it weighs pairs met while crawling, by its own
//! rules (scoped by first path segment, withdrawn on the first contradiction).
//!
//! Kinds of pair, each keyed with the first path segment of the longer URL (its scope):
//! - one URL is the other with one more query pair, whose value, when it is a number, is the
//!   smallest that key takes among the URLs seen (a list's first page is `start=0`, never
//!   `start=15`);
//! - one URL is the other with one more trailing path segment holding a letter (`page-1`);
//! - one URL's file name is the other's with a separator and the smallest number of that
//!   separator seen (`5a3f-1.html` and `5a3f.html`);
//! - two URLs of one scope carry the same numbers in two shapes that share a word other than a
//!   file extension (`?board=1.0` and `/board,1.0.html`, never `?board=1.0` and `?topic=1.0`);
//! - one URL is the other with default arguments ([`crate::default_arguments`]): a query value
//!   ending with a separator and the smallest number written there (`?board=NAME/0` beside
//!   `?board=NAME`), or a numbered pair, the smallest of its key, with one or two word-valued
//!   pairs (`?sort=active&page=1` beside the plain list URL). Such pairs are settled like the
//!   others, by their pages' content: page 1 of another sort order differs from the plain URL's
//!   page, its pairs disagree, and its rule never comes into force.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use url::Url;

use crate::default_arguments::{DefaultArguments, counted_numbers, shorter_default_spellings};
use crate::duplicates::DuplicateGroups;
use crate::rewrites::{UrlRewrite, difference, shorter_name_spelling, shorter_spellings};

/// Agreeing pairs a rule learned from spellings needs, while sampling as while crawling (the
/// crawler's `REWRITE_EVIDENCE` is this constant).
pub const SPELLING_EVIDENCE: usize = 2;

/// Two sampled URLs that may spell one page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellingPair {
    /// The spelling that would be rewritten: the longer URL, or the shape met later.
    pub url: String,
    /// The spelling it would be rewritten to.
    pub same_as: String,
    /// Whether the two pages were near-duplicates.
    pub same: bool,
}

/// The rule a pair of spellings would teach, within a scope.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum SpellingRule {
    Part(UrlRewrite),
    NameSuffix(String),
    /// URLs of the first shape spell the URL of the second shape carrying the same numbers.
    Shapes(String, String),
    /// URLs carrying these default arguments spell the URL without them.
    Defaults(DefaultArguments),
}

/// A candidate pair: indices into the URL list it was found in, the longer (or later-shaped)
/// URL first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CandidatePair {
    url: usize,
    same_as: usize,
}

/// The first path segment of `url`, the scope rules learned from spellings hold in.
pub fn spelling_scope(url: &Url) -> &str {
    url.path()
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or("")
}

/// The mark standing for a run of digits in a shape: a control character, which a URL's text
/// never holds, so a shape cannot be confused with a URL.
pub const DIGITS_MARK: &str = "\u{1}";

/// `text`'s shape (each run of digits replaced by [`DIGITS_MARK`]) and the numbers it carries,
/// in order, as written (leading zeros kept, so a shape filled with them gives the text back).
pub fn shape_and_numbers(text: &str) -> (String, Vec<String>) {
    let mut shape = String::with_capacity(text.len());
    let mut numbers = Vec::new();
    let mut digits = String::new();
    for character in text.chars() {
        if character.is_ascii_digit() {
            digits.push(character);
            continue;
        }
        if !digits.is_empty() {
            numbers.push(std::mem::take(&mut digits));
            shape.push_str(DIGITS_MARK);
        }
        shape.push(character);
    }
    if !digits.is_empty() {
        numbers.push(digits);
        shape.push_str(DIGITS_MARK);
    }
    (shape, numbers)
}

/// Words of a URL's path and query after its scope (runs of letters) that may name what a page
/// is: file extensions say nothing about it, and the scope is the same for both URLs of a pair.
fn naming_words(url: &Url) -> BTreeSet<String> {
    const EXTENSIONS: [&str; 7] = ["html", "htm", "php", "asp", "aspx", "jsp", "cgi"];
    let path = url.path().trim_start_matches('/');
    let mut text = path
        .get(spelling_scope(url).len()..)
        .unwrap_or("")
        .to_string();
    if let Some(query) = url.query() {
        text.push('?');
        text.push_str(query);
    }
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|word| word.len() >= 2)
        .map(str::to_ascii_lowercase)
        .filter(|word| !EXTENSIONS.contains(&word.as_str()))
        .collect()
}

/// The keys of a URL's query, `None` when it has no query. Keys are names however short:
/// phpBB's `?t=2` (a thread) and `?p=2` (the page holding post 2, of whichever thread) carry
/// the same number in one file's query, and a forum's first threads often begin with posts of
/// their own numbers, so that the two answer the same page in a sample while naming different
/// things; [`naming_words`] passes over one-letter words.
fn query_keys(url: &Url) -> Option<BTreeSet<String>> {
    url.query()?;
    Some(
        url.query_pairs()
            .map(|(key, _)| key.to_ascii_lowercase())
            .collect(),
    )
}

/// Per scope and query key (or name-suffix separator), the smallest number it takes among
/// `urls`. Scoped, because one forum may number a thread's pages from 1 and a board's from 0
/// (the simulator's Discourse): `page=1` is a thread's first page but a board's second.
struct SmallestNumbers {
    of_key: HashMap<(String, String), u64>,
    of_separator: HashMap<(String, String), u64>,
    /// Per scope and counter of [`DefaultArguments::counter`] (a key, or a key and the
    /// separator before a value's number).
    of_counter: HashMap<(String, String), u64>,
}

impl SmallestNumbers {
    fn of(urls: &[Url]) -> SmallestNumbers {
        let mut of_key: HashMap<(String, String), u64> = HashMap::new();
        let mut of_separator: HashMap<(String, String), u64> = HashMap::new();
        let mut of_counter: HashMap<(String, String), u64> = HashMap::new();
        for url in urls {
            let scope = spelling_scope(url);
            for (counter, number) in counted_numbers(url) {
                let smallest = of_counter
                    .entry((scope.to_string(), counter))
                    .or_insert(number);
                *smallest = (*smallest).min(number);
            }
            for (key, value) in url.query_pairs() {
                if let Ok(number) = value.parse::<u64>() {
                    let smallest = of_key
                        .entry((scope.to_string(), key.into_owned()))
                        .or_insert(number);
                    *smallest = (*smallest).min(number);
                }
            }
            if let Some((suffix, _)) = shorter_name_spelling(url)
                && let Some((separator, number)) = split_suffix(&suffix)
            {
                let smallest = of_separator
                    .entry((scope.to_string(), separator.to_string()))
                    .or_insert(number);
                *smallest = (*smallest).min(number);
            }
        }
        SmallestNumbers {
            of_key,
            of_separator,
            of_counter,
        }
    }

    /// Whether a pair dropping `rule` in `scope` can be a first page's spelling: a numeric
    /// value must be the smallest its key or separator takes there.
    fn allows(&self, scope: &str, rule: &SpellingRule) -> bool {
        let smallest_is = |map: &HashMap<(String, String), u64>, name: &str, number: u64| {
            map.get(&(scope.to_string(), name.to_string())) == Some(&number)
        };
        match rule {
            SpellingRule::Part(UrlRewrite::DropQueryPair { key, value }) => {
                match value.parse::<u64>() {
                    Ok(number) => smallest_is(&self.of_key, key, number),
                    Err(_) => true,
                }
            }
            SpellingRule::NameSuffix(suffix) => {
                split_suffix(suffix).is_some_and(|(separator, number)| {
                    smallest_is(&self.of_separator, separator, number)
                })
            }
            SpellingRule::Defaults(arguments) => arguments
                .counter()
                .zip(arguments.page_number())
                .is_some_and(|(counter, number)| smallest_is(&self.of_counter, &counter, number)),
            _ => true,
        }
    }
}

/// `-12` as (`-`, 12).
fn split_suffix(suffix: &str) -> Option<(&str, u64)> {
    let separator_length = suffix.chars().next()?.len_utf8();
    let (separator, digits) = suffix.split_at(separator_length);
    Some((separator, digits.parse().ok()?))
}

/// `url` without only the numbered pair of `arguments`, when they are a first page's number with
/// its view's options: the view's own spelling.
fn view_spelled_without_its_number(url: &Url, arguments: &DefaultArguments) -> Option<Url> {
    let DefaultArguments::Pairs { pairs } = arguments else {
        return None;
    };
    let counter = arguments.counter()?;
    let number = pairs.iter().find(|(key, _)| *key == counter)?;
    DefaultArguments::Pairs {
        pairs: vec![number.clone()],
    }
    .apply(url)
}

/// Every candidate pair among `urls` (distinct URLs, in the order they were met), by the scoped
/// rule it would teach.
fn candidate_pairs(urls: &[Url]) -> BTreeMap<(String, SpellingRule), Vec<CandidatePair>> {
    let index_of: HashMap<&str, usize> = urls
        .iter()
        .enumerate()
        .map(|(index, url)| (url.as_str(), index))
        .collect();
    let smallest = SmallestNumbers::of(urls);
    let mut pairs: BTreeMap<(String, SpellingRule), Vec<CandidatePair>> = BTreeMap::new();
    let mut add = |scope: &str, rule: SpellingRule, pair: CandidatePair| {
        if smallest.allows(scope, &rule) {
            pairs
                .entry((scope.to_string(), rule))
                .or_default()
                .push(pair);
        }
    };
    let mut by_numbers: BTreeMap<Vec<String>, Vec<(usize, String)>> = BTreeMap::new();
    for (index, url) in urls.iter().enumerate() {
        let scope = spelling_scope(url);
        for shorter in shorter_spellings(url) {
            if let (Some(&other), Some(rule)) =
                (index_of.get(shorter.as_str()), difference(url, &shorter))
            {
                let pair = CandidatePair {
                    url: index,
                    same_as: other,
                };
                add(scope, SpellingRule::Part(rule), pair);
            }
        }
        if let Some((suffix, shorter)) = shorter_name_spelling(url)
            && let Some(&other) = index_of.get(shorter.as_str())
        {
            let pair = CandidatePair {
                url: index,
                same_as: other,
            };
            add(scope, SpellingRule::NameSuffix(suffix), pair);
        }
        for (arguments, shorter) in shorter_default_spellings(url) {
            // A view linked without its page number (`?f=2&sk=a&sd=a` beside
            // `?f=2&sk=a&sd=a&start=0`) is a view of its own, not a default one: its first
            // page's number is the simple kinds' question (`start=0` dropped), and checking it
            // against the plain list would spend the budget on every sort order a board links.
            if view_spelled_without_its_number(url, &arguments)
                .is_some_and(|view| index_of.contains_key(view.as_str()))
            {
                continue;
            }
            if let Some(&other) = index_of.get(shorter.as_str()) {
                let pair = CandidatePair {
                    url: index,
                    same_as: other,
                };
                add(scope, SpellingRule::Defaults(arguments), pair);
            }
        }
        let (shape, numbers) = shape_and_numbers(url.as_str());
        if !numbers.is_empty() {
            by_numbers.entry(numbers).or_default().push((index, shape));
        }
    }
    // Shapes: the shape met first is the one the other is read as, so every pair of two shapes
    // teaches the same rule whichever of its URLs came first.
    let mut first_met: HashMap<&str, usize> = HashMap::new();
    for members in by_numbers.values() {
        for (index, shape) in members {
            let first = first_met.entry(shape.as_str()).or_insert(*index);
            *first = (*first).min(*index);
        }
    }
    for members in by_numbers.values() {
        for (position, (a, shape_a)) in members.iter().enumerate() {
            for (b, shape_b) in &members[position + 1..] {
                if shape_a == shape_b || spelling_scope(&urls[*a]) != spelling_scope(&urls[*b]) {
                    continue;
                }
                // Two spellings of one page name it with the same words (`board` in
                // `?board=1.0` and `/board,1.0.html`); a sort order or another view adds words
                // (`?board=1.0;sort=subject`), and another kind of page has others (`?topic=1.0`).
                if naming_words(&urls[*a]) != naming_words(&urls[*b]) {
                    continue;
                }
                // Two queries naming their numbers by different keys name different things.
                if let (Some(keys_a), Some(keys_b)) = (query_keys(&urls[*a]), query_keys(&urls[*b]))
                    && keys_a != keys_b
                {
                    continue;
                }
                let (later, earlier) = if first_met[shape_a.as_str()] < first_met[shape_b.as_str()]
                {
                    (*b, *a)
                } else {
                    (*a, *b)
                };
                let (later_shape, earlier_shape) = if later == *a {
                    (shape_a, shape_b)
                } else {
                    (shape_b, shape_a)
                };
                add(
                    spelling_scope(&urls[later]),
                    SpellingRule::Shapes(later_shape.clone(), earlier_shape.clone()),
                    CandidatePair {
                        url: later,
                        same_as: earlier,
                    },
                );
            }
        }
    }
    pairs
}

/// The URLs a sampler should fetch to settle candidate spellings: `sampled` are the URLs it
/// fetched (in fetch order), `linked` every same-site URL their pages link to (in the order
/// met). For each rule that at least [`SPELLING_EVIDENCE`] candidate pairs would teach, the
/// cheapest [`SPELLING_EVIDENCE`] pairs are completed (a pair with both members sampled costs
/// nothing), rules with more candidate pairs first, until `budget` fetches are named. Rules
/// fewer pairs would teach are left alone: they could not come into force on the sample's
/// evidence.
pub fn spelling_checks(sampled: &[Url], linked: &[Url], budget: usize) -> Vec<Url> {
    let mut urls: Vec<Url> = Vec::new();
    let mut known: HashSet<String> = HashSet::new();
    for url in sampled.iter().chain(linked) {
        let mut url = url.clone();
        url.set_fragment(None);
        if known.insert(url.to_string()) {
            urls.push(url);
        }
    }
    let sampled_set: HashSet<String> = sampled
        .iter()
        .map(|url| {
            let mut url = url.clone();
            url.set_fragment(None);
            url.to_string()
        })
        .collect();
    let is_sampled = |index: usize| sampled_set.contains(urls[index].as_str());
    let mut rules: Vec<((String, SpellingRule), Vec<CandidatePair>)> =
        candidate_pairs(&urls).into_iter().collect();
    // Rules naming lists' first pages by their numbers first, then most candidate pairs; the
    // map's order breaks ties, so checks repeat exactly. A list's first page spelled with its
    // number is linked from the pager of every later page of every list, so each such rule
    // the sample leaves unsettled costs the crawl duplicate fetches, while a view's rule
    // (`?sort=author`) has more candidate pairs (every board links its sort orders) and
    // concerns pages the plan skips anyway. Before, on the simulator's tablecraft with 100
    // samples, the views' rules took the whole budget and the boards' `/b/ID/1.html` and the
    // threads' `-1.html` were each fetched twice while crawling.
    let sequences = NumberedSequences::of(&urls);
    rules.sort_by_key(|(_, pairs)| {
        let names_first_pages = pairs
            .iter()
            .any(|pair| sequences.names_a_first_page(&urls[pair.url], &urls[pair.same_as]));
        (!names_first_pages, std::cmp::Reverse(pairs.len()))
    });
    let mut checks: Vec<Url> = Vec::new();
    let mut named: HashSet<usize> = HashSet::new();
    for (_, mut pairs) in rules {
        if pairs.len() < SPELLING_EVIDENCE {
            continue;
        }
        let missing = |pair: &CandidatePair| -> Vec<usize> {
            [pair.same_as, pair.url]
                .into_iter()
                .filter(|member| !is_sampled(*member))
                .collect()
        };
        pairs.sort_by_key(|pair| missing(pair).len());
        let wanted: Vec<usize> = pairs
            .iter()
            .take(SPELLING_EVIDENCE)
            .flat_map(missing)
            .filter(|member| !named.contains(member))
            .collect();
        if checks.len() + wanted.len() > budget {
            continue;
        }
        for member in wanted {
            if named.insert(member) {
                checks.push(urls[member].clone());
            }
        }
    }
    checks
}

/// URLs by shape ([`shape_and_numbers`]): the numbers each shape was met with.
struct NumberedSequences {
    numbers_of_shape: HashMap<String, Vec<Vec<u64>>>,
}

impl NumberedSequences {
    fn of(urls: &[Url]) -> NumberedSequences {
        let mut numbers_of_shape: HashMap<String, Vec<Vec<u64>>> = HashMap::new();
        for url in urls {
            let (shape, numbers) = shape_and_numbers(url.as_str());
            if let Some(numbers) = numbers
                .iter()
                .map(|number| number.parse::<u64>().ok())
                .collect::<Option<Vec<u64>>>()
            {
                numbers_of_shape.entry(shape).or_default().push(numbers);
            }
        }
        NumberedSequences { numbers_of_shape }
    }

    /// Whether `longer`, a spelling of `shorter` carrying one number more, names the first
    /// page of a numbered sequence by that number: another URL of its shape differs from it in
    /// that number only and carries a larger one there, and none a smaller (`/b/7/1.html`
    /// beside `/b/7/2.html` spells `/b/7/`; `?t=5&page=1` beside `?t=5&page=3` spells `?t=5`),
    /// as a list's first page spelled with its number is beside the later pages of the same
    /// list. The other numbers, the list's identity, stay the same: `/b/7/3.html` beside
    /// `/b/8/3.html` is the last page of board 7, whichever board has the larger id.
    fn names_a_first_page(&self, longer: &Url, shorter: &Url) -> bool {
        let parse = |url: &Url| {
            let (shape, numbers) = shape_and_numbers(url.as_str());
            numbers
                .iter()
                .map(|number| number.parse::<u64>().ok())
                .collect::<Option<Vec<u64>>>()
                .map(|numbers| (shape, numbers))
        };
        let (Some((shape, numbers)), Some((_, fewer))) = (parse(longer), parse(shorter)) else {
            return false;
        };
        if numbers.len() != fewer.len() + 1 {
            return false;
        }
        // The number the shorter spelling leaves out: the first where the two part ways.
        let dropped = (0..fewer.len())
            .find(|position| numbers[*position] != fewer[*position])
            .unwrap_or(fewer.len());
        let Some(others) = self.numbers_of_shape.get(&shape) else {
            return false;
        };
        let same_list = |other: &&Vec<u64>| {
            (0..numbers.len())
                .all(|position| position == dropped || other[position] == numbers[position])
        };
        let mut later = false;
        for other in others.iter().filter(same_list) {
            if other[dropped] < numbers[dropped] {
                return false;
            }
            later |= other[dropped] > numbers[dropped];
        }
        later
    }
}

/// Every candidate pair of spellings among the sampled `urls`, with whether their pages fell
/// into one near-duplicate group, for the rules at least one pair agreed with. Pairs involving a
/// page without text (a redirect, an empty prompt) are left out: such pages are all alike and
/// vouch for nothing.
pub fn sampled_spellings(urls: &[&Url], groups: &DuplicateGroups) -> Vec<SpellingPair> {
    let mut distinct: Vec<Url> = Vec::new();
    let mut page_of: Vec<usize> = Vec::new();
    let mut known: HashSet<&str> = HashSet::new();
    for (page, url) in urls.iter().enumerate() {
        if known.insert(url.as_str()) {
            distinct.push((*url).clone());
            page_of.push(page);
        }
    }
    let textless = groups.group_without_text();
    let mut spellings = Vec::new();
    for pairs in candidate_pairs(&distinct).into_values() {
        let weighed: Vec<SpellingPair> = pairs
            .into_iter()
            .filter_map(|pair| {
                let (group, other_group) = (
                    groups.group_of(page_of[pair.url]),
                    groups.group_of(page_of[pair.same_as]),
                );
                if textless.is_some_and(|textless| textless == group || textless == other_group) {
                    return None;
                }
                Some(SpellingPair {
                    url: distinct[pair.url].to_string(),
                    same_as: distinct[pair.same_as].to_string(),
                    same: group == other_group,
                })
            })
            .collect();
        // A rule no pair agreed with would never come into force on the sample's evidence, and
        // the crawler weighs the pages it meets itself: listing its pairs would only fill the
        // plan (SMF's `?topic=8.0` is one pair shorter than the portal for every topic).
        if weighed.iter().any(|pair| pair.same) {
            spellings.extend(weighed);
        }
    }
    spellings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(texts: &[&str]) -> Vec<Url> {
        texts.iter().map(|text| Url::parse(text).unwrap()).collect()
    }

    fn check_checks(sampled: &[&str], linked: &[&str], budget: usize, expected: &[&str]) {
        let checks: Vec<String> = spelling_checks(&urls(sampled), &urls(linked), budget)
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(checks, expected, "sampled {sampled:?}, linked {linked:?}");
    }

    #[test]
    fn first_page_spellings_are_completed_two_pairs_per_rule() {
        // Two threads sampled, their pagers' `start=0` links seen: one fetch per pair.
        check_checks(
            &["http://f.test/v.php?t=1", "http://f.test/v.php?t=2"],
            &[
                "http://f.test/v.php?t=1&start=0",
                "http://f.test/v.php?t=1&start=15",
                "http://f.test/v.php?t=2&start=0",
                "http://f.test/v.php?t=3&start=0",
                "http://f.test/v.php?t=3",
            ],
            10,
            &[
                "http://f.test/v.php?t=1&start=0",
                "http://f.test/v.php?t=2&start=0",
            ],
        );
    }

    #[test]
    fn later_pages_and_lone_pairs_are_not_checked() {
        // `start=15` is not the smallest start, and one pair alone cannot make a rule.
        check_checks(
            &["http://f.test/v.php?t=1", "http://f.test/v.php?t=2"],
            &[
                "http://f.test/v.php?t=1&start=15",
                "http://f.test/v.php?t=2&start=15",
                "http://f.test/v.php?t=1&start=0",
                "http://f.test/ucp.php?mode=login",
                "http://f.test/ucp.php",
            ],
            10,
            &[],
        );
    }

    #[test]
    fn shapes_sharing_a_word_are_checked_and_others_are_not() {
        check_checks(
            &[
                "http://f.test/index.php?board=1.0",
                "http://f.test/index.php?board=2.0",
            ],
            &[
                "http://f.test/index.php/board,1.0.html",
                "http://f.test/index.php/board,2.0.html",
                "http://f.test/index.php?topic=1.0",
                "http://f.test/index.php?topic=2.0",
            ],
            10,
            &[
                "http://f.test/index.php/board,1.0.html",
                "http://f.test/index.php/board,2.0.html",
            ],
        );
    }

    #[test]
    fn one_letter_query_keys_name_different_pages() {
        // The first threads of a phpBB forum begin with posts of their own numbers: `?t=1` and
        // `?p=1` show the same page, but `?p=N` is the page holding post N of any thread.
        check_checks(
            &[
                "http://f.test/viewtopic.php?t=1",
                "http://f.test/viewtopic.php?t=2",
            ],
            &[
                "http://f.test/viewtopic.php?p=1",
                "http://f.test/viewtopic.php?p=2",
            ],
            10,
            &[],
        );
        // A key spelled as a path segment is still one name.
        check_checks(
            &["http://f.test/show.php?t=1", "http://f.test/show.php?t=2"],
            &[
                "http://f.test/show.php/t,1.html",
                "http://f.test/show.php/t,2.html",
            ],
            10,
            &[
                "http://f.test/show.php/t,1.html",
                "http://f.test/show.php/t,2.html",
            ],
        );
    }

    #[test]
    fn name_suffixes_of_first_pages_are_checked() {
        check_checks(
            &["http://f.test/t/5a3f.html", "http://f.test/t/9b1c.html"],
            &[
                "http://f.test/t/5a3f-1.html",
                "http://f.test/t/5a3f-2.html",
                "http://f.test/t/9b1c-1.html",
                "http://f.test/t/9b1c-2.html",
            ],
            10,
            &["http://f.test/t/5a3f-1.html", "http://f.test/t/9b1c-1.html"],
        );
    }

    #[test]
    fn checks_stay_within_the_budget_and_pairs_already_sampled_cost_nothing() {
        let sampled = [
            "http://f.test/v.php?t=1",
            "http://f.test/v.php?t=1&start=0",
            "http://f.test/v.php?t=2",
            "http://f.test/f.php?f=1",
        ];
        let linked = [
            "http://f.test/v.php?t=2&start=0",
            "http://f.test/v.php?t=3&start=0",
            "http://f.test/f.php?f=1&start=0",
            "http://f.test/f.php?f=2&start=0",
            "http://f.test/f.php?f=2",
        ];
        // The `v.php` rule needs one fetch, the `f.php` rule three; both have two candidate
        // pairs, so the rules' order puts `f.php` first.
        check_checks(&sampled, &linked, 1, &["http://f.test/v.php?t=2&start=0"]);
        check_checks(
            &sampled,
            &linked,
            4,
            &[
                "http://f.test/f.php?f=1&start=0",
                "http://f.test/f.php?f=2",
                "http://f.test/f.php?f=2&start=0",
                "http://f.test/v.php?t=2&start=0",
            ],
        );
    }

    #[test]
    fn first_pages_with_default_arguments_are_checked_unless_the_view_has_its_own_spelling() {
        // Offsets at the end of a query value, the smallest of their key only.
        check_checks(
            &[
                "http://f.test/Y.pl?board=touring",
                "http://f.test/Y.pl?board=repairs",
            ],
            &[
                "http://f.test/Y.pl?board=touring/0",
                "http://f.test/Y.pl?board=touring/20",
                "http://f.test/Y.pl?board=repairs/0",
                "http://f.test/Y.pl?board=repairs/20",
            ],
            10,
            &[
                "http://f.test/Y.pl?board=touring/0",
                "http://f.test/Y.pl?board=repairs/0",
            ],
        );
        // A first page's number with the default sort order, which no page links without it.
        check_checks(
            &[
                "http://f.test/q/tagged/brakes/",
                "http://f.test/q/tagged/wheels/",
            ],
            &[
                "http://f.test/q/tagged/brakes/?sort=active&page=1",
                "http://f.test/q/tagged/brakes/?sort=active&page=2",
                "http://f.test/q/tagged/wheels/?sort=active&page=1",
                "http://f.test/q/tagged/wheels/?sort=active&page=2",
            ],
            10,
            &[
                "http://f.test/q/tagged/brakes/?sort=active&page=1",
                "http://f.test/q/tagged/wheels/?sort=active&page=1",
            ],
        );
        // A sort order every board links on its own is a view, whose first page is the simple
        // kind's pair (`start=0` dropped), never the plain board's.
        check_checks(
            &[
                "http://f.test/f.php?f=1",
                "http://f.test/f.php?f=2",
                "http://f.test/f.php?f=1&sk=a",
                "http://f.test/f.php?f=2&sk=a",
            ],
            &[
                "http://f.test/f.php?f=1&sk=a&start=0",
                "http://f.test/f.php?f=1&sk=a&start=25",
                "http://f.test/f.php?f=2&sk=a&start=0",
                "http://f.test/f.php?f=2&sk=a&start=25",
            ],
            10,
            &[
                "http://f.test/f.php?f=1&sk=a&start=0",
                "http://f.test/f.php?f=2&sk=a&start=0",
            ],
        );
        // No rule of default arguments is even a candidate there; without the view's own
        // spelling it is.
        let defaults_rules = |texts: &[&str]| {
            candidate_pairs(&urls(texts))
                .into_keys()
                .filter(|(_, rule)| matches!(rule, SpellingRule::Defaults(_)))
                .count()
        };
        let view_links = [
            "http://f.test/f.php?f=1",
            "http://f.test/f.php?f=1&sk=a&start=0",
            "http://f.test/f.php?f=1&sk=a&start=25",
        ];
        assert_eq!(defaults_rules(&view_links), 1);
        let mut with_the_view = view_links.to_vec();
        with_the_view.push("http://f.test/f.php?f=1&sk=a");
        assert_eq!(defaults_rules(&with_the_view), 0);
    }

    #[test]
    fn shapes_and_numbers_round_trip() {
        let (shape, numbers) = shape_and_numbers("http://f.test/index.php?topic=8.015");
        assert_eq!(numbers, ["8", "015"]);
        assert_eq!(
            shape,
            format!("http://f.test/index.php?topic={DIGITS_MARK}.{DIGITS_MARK}")
        );
        assert_eq!(shape_and_numbers("http://f.test/").1, Vec::<String>::new());
    }
}
