//! A list's first page spelled with its default arguments, in kinds one query pair or one path
//! segment cannot express.
//!
//! Many forums reach a list's first page both without and with an explicit first-page argument:
//! the board's own link names no page, while the pager of its second page names the first by
//! its start offset or page number. [`crate::rewrites`] holds the simple kinds (`&start=0`,
//! `?page=1`, `/page-1`, `-1.html`). Two more kinds are common:
//! - the start offset written inside another query value, after a separator: YaBB's
//!   `?board=NAME/0` and `?num=ID/0` beside `?board=NAME` and `?num=ID` (the pager writes
//!   `?num=ID/15` for the second page);
//! - the page number written together with the default view it belongs to, several query pairs
//!   at once: a question-and-answer site's `?sort=active&page=1` beside the plain list URL, whose
//!   later pages are `?sort=active&page=2`.
//!
//! A URL so spelled is the shorter URL only when the forum says so: pages under both spellings
//! must show the same content, and one pair showing different content (page 1 of another sort
//! order) keeps the spellings apart. The evidence is weighed where every spelling rule is
//! weighed, in [`crate::spellings`] while sampling and by the crawler's online rewrites; this
//! module only says which pairs of URLs such a rule could join, and rewrites URLs by it.
//!
//! Query text is edited as written, pair by pair, so a URL keeps its own separators and
//! escapes: YaBB's `;`-joined options stay inside their pair, and a value's `/` is not escaped.

use serde::{Deserialize, Serialize};
use url::Url;

/// Separators that may stand between a query value and a start offset or page number
/// written at its end.
const VALUE_SEPARATORS: [char; 5] = ['/', '-', '_', ',', '.'];

/// Default arguments a list's first page may be spelled with.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DefaultArguments {
    /// The value of the query key `key` ends with `suffix`, a separator and a number
    /// (`board=NAME/0` beside `board=NAME`).
    ValueSuffix {
        /// The query key, as written.
        key: String,
        /// The separator and the number, as written (`/0`).
        suffix: String,
    },
    /// The query holds all of `pairs`, one a number and the others words (`sort=active` and
    /// `page=1` beside no query at all). Sorted, so one rule has one spelling.
    Pairs {
        /// The pairs (key, value), as written.
        pairs: Vec<(String, String)>,
    },
}

/// A query split into its pairs as written: (key, value), the value empty when the pair has no
/// `=`.
fn raw_pairs(url: &Url) -> Vec<(&str, &str)> {
    raw_segments(url)
        .into_iter()
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .collect()
}

/// A query's pairs as written, each whole (`key=value`, or `key` alone).
fn raw_segments(url: &Url) -> Vec<&str> {
    url.query()
        .map(|query| query.split('&').filter(|pair| !pair.is_empty()).collect())
        .unwrap_or_default()
}

/// `url` with its query made of `pairs` (each written whole), or none when they are none.
fn with_raw_segments(url: &Url, pairs: &[String]) -> Url {
    let mut rewritten = url.clone();
    if pairs.is_empty() {
        rewritten.set_query(None);
    } else {
        rewritten.set_query(Some(&pairs.join("&")));
    }
    rewritten
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())
}

/// The separator-and-number suffix of a query value (`/0` of `NAME/0`), when something other
/// than a separator stands before it. The value's own option list, when it has one (YaBB's
/// `NAME/0;sort=subject`), ends the value first, so it has no such suffix.
pub fn value_suffix(value: &str) -> Option<&str> {
    let digits_start = value.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits_start == value.len() {
        return None;
    }
    let separator = value[..digits_start].chars().next_back()?;
    if !VALUE_SEPARATORS.contains(&separator) {
        return None;
    }
    let stem = &value[..digits_start - separator.len_utf8()];
    if stem.is_empty() || stem.ends_with(VALUE_SEPARATORS) {
        return None;
    }
    Some(&value[digits_start - separator.len_utf8()..])
}

/// `-12` as (`-`, 12).
pub fn split_value_suffix(suffix: &str) -> Option<(char, u64)> {
    let separator = suffix.chars().next()?;
    Some((separator, suffix[separator.len_utf8()..].parse().ok()?))
}

impl DefaultArguments {
    /// The URL with these arguments left out, or `None` when it does not carry them. Pairs
    /// the arguments do not touch are kept as written.
    pub fn apply(&self, url: &Url) -> Option<Url> {
        let segments = raw_segments(url);
        let split = |segment: &str| -> (String, String) {
            let (key, value) = segment.split_once('=').unwrap_or((segment, ""));
            (key.to_string(), value.to_string())
        };
        match self {
            DefaultArguments::ValueSuffix { key, suffix } => {
                let mut changed = false;
                let kept: Vec<String> = segments
                    .iter()
                    .map(|segment| {
                        let (pair_key, value) = split(segment);
                        if pair_key == *key && value_suffix(&value) == Some(suffix.as_str()) {
                            changed = true;
                            format!("{pair_key}={}", &value[..value.len() - suffix.len()])
                        } else {
                            segment.to_string()
                        }
                    })
                    .collect();
                changed.then(|| with_raw_segments(url, &kept))
            }
            DefaultArguments::Pairs { pairs: dropped } => {
                let split_segments: Vec<(String, String)> =
                    segments.iter().map(|segment| split(segment)).collect();
                if !dropped.iter().all(|pair| split_segments.contains(pair)) {
                    return None;
                }
                let kept: Vec<String> = segments
                    .iter()
                    .zip(&split_segments)
                    .filter(|(_, pair)| !dropped.contains(pair))
                    .map(|(segment, _)| segment.to_string())
                    .collect();
                Some(with_raw_segments(url, &kept))
            }
        }
    }

    /// The number these arguments name the first page by (0 of `/0`, 1 of `page=1`).
    pub fn page_number(&self) -> Option<u64> {
        match self {
            DefaultArguments::ValueSuffix { suffix, .. } => {
                split_value_suffix(suffix).map(|(_, number)| number)
            }
            DefaultArguments::Pairs { pairs } => pairs
                .iter()
                .find(|(_, value)| is_number(value))
                .and_then(|(_, value)| value.parse().ok()),
        }
    }

    /// The name the number is counted under, for telling a list's smallest number: the key and
    /// the separator of a value suffix (`board/`), the key of the numbered pair (`page`).
    pub fn counter(&self) -> Option<String> {
        match self {
            DefaultArguments::ValueSuffix { key, suffix } => {
                let (separator, _) = split_value_suffix(suffix)?;
                Some(format!("{key}{separator}"))
            }
            DefaultArguments::Pairs { pairs } => pairs
                .iter()
                .find(|(_, value)| is_number(value))
                .map(|(key, _)| key.clone()),
        }
    }
}

/// Every counter ([`DefaultArguments::counter`]) a URL's query writes a number under, with the
/// number: each pair whose value is a number, and each value ending with a separator and a
/// number.
pub fn counted_numbers(url: &Url) -> Vec<(String, u64)> {
    let mut counted = Vec::new();
    for (key, value) in raw_pairs(url) {
        if is_number(value) {
            if let Ok(number) = value.parse() {
                counted.push((key.to_string(), number));
            }
        } else if let Some((separator, number)) = value_suffix(value).and_then(split_value_suffix) {
            counted.push((format!("{key}{separator}"), number));
        }
    }
    counted
}

/// Whether a number written as `text` can name a list's first page: a start offset of 0 or a
/// page number of 1. A larger number names a later page, and one that shows the first page's
/// content is a page past the list's end, which many forums answer with the first page.
fn names_a_first_page(text: &str) -> bool {
    is_number(text) && text.parse::<u64>().is_ok_and(|number| number <= 1)
}

/// Every URL `url` may spell with default arguments, with the arguments: each query value's
/// separator-and-number suffix naming a first page left out (`/0`), and each pair whose number
/// names a first page left out together with one or two pairs holding words (a default sort
/// order, perhaps with its direction). A lone numbered pair is [`crate::rewrites`]' kind
/// (`&page=1`) and is not repeated here.
pub fn shorter_default_spellings(url: &Url) -> Vec<(DefaultArguments, Url)> {
    let pairs = raw_pairs(url);
    let mut spellings = Vec::new();
    for (key, value) in &pairs {
        if let Some(suffix) = value_suffix(value)
            && names_a_first_page(&suffix[1..])
        {
            let arguments = DefaultArguments::ValueSuffix {
                key: key.to_string(),
                suffix: suffix.to_string(),
            };
            if let Some(shorter) = arguments.apply(url) {
                spellings.push((arguments, shorter));
            }
        }
    }
    let worded: Vec<&(&str, &str)> = pairs
        .iter()
        .filter(|(_, value)| value.chars().any(|c| c.is_ascii_alphabetic()))
        .collect();
    // Every set of one or two worded pairs: a view is a sort order, perhaps with its
    // direction; more options would name a search more than a list.
    let mut word_sets: Vec<Vec<&(&str, &str)>> = Vec::new();
    for (position, first) in worded.iter().enumerate() {
        word_sets.push(vec![*first]);
        for second in &worded[position + 1..] {
            word_sets.push(vec![*first, *second]);
        }
    }
    for number in pairs.iter().filter(|(_, value)| names_a_first_page(value)) {
        for set in &word_sets {
            let mut dropped: Vec<(String, String)> = set
                .iter()
                .copied()
                .chain(std::iter::once(number))
                .map(|(key, value)| (key.to_string(), value.to_string()))
                .collect();
            dropped.sort();
            let arguments = DefaultArguments::Pairs { pairs: dropped };
            if let Some(shorter) = arguments.apply(url) {
                spellings.push((arguments, shorter));
            }
        }
    }
    spellings
}

/// The default arguments that turn `longer` into `shorter`, when they are one of this module's
/// kinds.
pub fn default_arguments_between(longer: &Url, shorter: &Url) -> Option<DefaultArguments> {
    if longer.path() != shorter.path() {
        return None;
    }
    shorter_default_spellings(longer)
        .into_iter()
        .find(|(_, spelling)| spelling == shorter)
        .map(|(arguments, _)| arguments)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    /// Checks the shorter spellings of `longer` (as text) against `expected`.
    fn check_spellings(longer: &str, expected: &[&str]) {
        let spellings: Vec<String> = shorter_default_spellings(&url(longer))
            .into_iter()
            .map(|(_, shorter)| shorter.to_string())
            .collect();
        assert_eq!(spellings, expected, "{longer}");
    }

    #[test]
    fn offsets_at_the_end_of_a_query_value_are_left_out() {
        check_spellings(
            "http://f.test/YaBB.pl?board=news/0",
            &["http://f.test/YaBB.pl?board=news"],
        );
        check_spellings(
            "http://f.test/YaBB.pl?num=1766017026/0",
            &["http://f.test/YaBB.pl?num=1766017026"],
        );
        // An option list after the value ends it first; a value that is a number alone, or a
        // separator without a stem, has no suffix.
        check_spellings("http://f.test/YaBB.pl?board=news/0;sort=subject", &[]);
        check_spellings("http://f.test/v.php?t=12", &[]);
        check_spellings("http://f.test/v.php?t=/0", &[]);
        check_spellings(
            "http://f.test/list?cat=a-b-1",
            &["http://f.test/list?cat=a-b"],
        );
    }

    #[test]
    fn a_number_is_left_out_with_the_view_options_beside_it() {
        check_spellings(
            "http://f.test/questions/?sort=active&page=1",
            &["http://f.test/questions/"],
        );
        check_spellings(
            "http://f.test/q/5/?sort=oldest&order=asc&page=1",
            &[
                "http://f.test/q/5/?order=asc",
                "http://f.test/q/5/",
                "http://f.test/q/5/?sort=oldest",
            ],
        );
        // Other pairs stay as written.
        check_spellings(
            "http://f.test/list.php?f=3&sort=date&start=0",
            &["http://f.test/list.php?f=3"],
        );
        // Only a number naming a first page is left out, a later page's never.
        check_spellings(
            "http://f.test/list.php?f=1&view=new&start=0&x=2",
            &[
                "http://f.test/list.php?start=0&x=2",
                "http://f.test/list.php?f=1&x=2",
            ],
        );
        check_spellings("http://f.test/list.php?f=3&view=new&start=20", &[]);
        check_spellings("http://f.test/YaBB.pl?board=news/20", &[]);
        // A lone number is the simple rewrites' kind.
        check_spellings("http://f.test/list.php?page=1", &[]);
    }

    #[test]
    fn arguments_apply_only_where_every_part_is_carried() {
        let board_offset = DefaultArguments::ValueSuffix {
            key: "board".into(),
            suffix: "/0".into(),
        };
        let cases = [
            (
                "http://f.test/Y.pl?board=x/0",
                Some("http://f.test/Y.pl?board=x"),
            ),
            ("http://f.test/Y.pl?board=x/20", None),
            ("http://f.test/Y.pl?num=5/0", None),
        ];
        for (before, after) in cases {
            assert_eq!(
                board_offset
                    .apply(&url(before))
                    .map(String::from)
                    .as_deref(),
                after,
                "{before}"
            );
        }
        let active_first = DefaultArguments::Pairs {
            pairs: vec![
                ("page".into(), "1".into()),
                ("sort".into(), "active".into()),
            ],
        };
        let cases = [
            (
                "http://f.test/q/?sort=active&page=1",
                Some("http://f.test/q/"),
            ),
            (
                "http://f.test/q/?page=1&tag=a&sort=active",
                Some("http://f.test/q/?tag=a"),
            ),
            ("http://f.test/q/?sort=active&page=2", None),
            // A pair without a value stays as written.
            (
                "http://f.test/q/?print&sort=active&page=1",
                Some("http://f.test/q/?print"),
            ),
            ("http://f.test/q/?sort=newest&page=1", None),
        ];
        for (before, after) in cases {
            assert_eq!(
                active_first
                    .apply(&url(before))
                    .map(String::from)
                    .as_deref(),
                after,
                "{before}"
            );
        }
        assert_eq!(board_offset.page_number(), Some(0));
        assert_eq!(board_offset.counter().as_deref(), Some("board/"));
        assert_eq!(active_first.page_number(), Some(1));
        assert_eq!(active_first.counter().as_deref(), Some("page"));
    }

    #[test]
    fn arguments_between_two_urls() {
        let cases = [
            (
                "http://f.test/Y.pl?num=5/0",
                "http://f.test/Y.pl?num=5",
                Some(DefaultArguments::ValueSuffix {
                    key: "num".into(),
                    suffix: "/0".into(),
                }),
            ),
            (
                "http://f.test/q/?sort=active&page=1",
                "http://f.test/q/",
                Some(DefaultArguments::Pairs {
                    pairs: vec![
                        ("page".into(), "1".into()),
                        ("sort".into(), "active".into()),
                    ],
                }),
            ),
            (
                "http://f.test/q/?sort=active&page=1",
                "http://f.test/r/",
                None,
            ),
            (
                "http://f.test/Y.pl?num=5/0",
                "http://f.test/Y.pl?num=6",
                None,
            ),
        ];
        for (longer, shorter, expected) in cases {
            assert_eq!(
                default_arguments_between(&url(longer), &url(shorter)),
                expected,
                "{longer} {shorter}"
            );
        }
    }

    #[test]
    fn numbers_are_counted_by_key_and_by_value_suffix() {
        assert_eq!(
            counted_numbers(&url("http://f.test/Y.pl?num=5/15&page=2&sort=x")),
            [("num/".to_string(), 15), ("page".to_string(), 2)]
        );
    }
}
