//! URL rewrites learned from duplicates ("different URLs, similar text", after Bar-Yossef, Keidar
//! and Schonfeld's DUST rules).
//!
//! Many duplicates differ from their canonical URL by one redundant part: `&start=0` or
//! `?page=1` on a list's first page, a trailing `page-1` segment. Such links sit in the pager
//! beside the real page-flipping links, with the same URL pattern and the same location, so no
//! arc decision can tell them apart. What does tell them apart is the URL itself: when two
//! sampled pages in one near-duplicate group differ only by one query pair (or one trailing path
//! segment), and no pair of sampled pages that differ by the same part is ever in two groups,
//! that part is redundant. The crawler drops it before deciding whether it has seen a URL.
//!
//! A rule needs [`MINIMUM_EVIDENCE`] agreeing pair and no contradicting pair, and a dropped path
//! segment must hold a letter: a segment of digits is an id, and dropping it would rename pages.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use url::Url;

use crate::duplicates::DuplicateGroups;

/// Agreeing pairs of sampled pages a rule needs (and no contradicting pair at all).
pub const MINIMUM_EVIDENCE: usize = 1;

/// One redundant part of URLs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UrlRewrite {
    /// Remove the query pair `key=value`.
    DropQueryPair {
        /// The key.
        key: String,
        /// The value it must have.
        value: String,
    },
    /// Remove a trailing path segment equal to `segment` (keeping the slash before it).
    DropLastSegment {
        /// The segment.
        segment: String,
    },
}

/// The last path segment of `path` split into (directory with its slash, name stem, extension
/// with its dot or empty).
fn split_last_segment(path: &str) -> Option<(&str, &str, &str)> {
    let slash = path.rfind('/')?;
    let (directory, name) = path.split_at(slash + 1);
    let (stem, extension) = match name.rfind('.') {
        Some(dot) if dot > 0 => name.split_at(dot),
        _ => (name, ""),
    };
    Some((directory, stem, extension))
}

/// The separator-and-number suffix of a name stem (`-1` of `5a3f-1`), when the stem has one and
/// something before it.
fn numbered_suffix(stem: &str) -> Option<&str> {
    let digits_start = stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits_start == stem.len() || digits_start < 2 {
        return None;
    }
    let separator = stem[..digits_start].chars().next_back()?;
    if !matches!(separator, '-' | '_' | ',' | '.') {
        return None;
    }
    Some(&stem[digits_start - separator.len_utf8()..])
}

impl UrlRewrite {
    /// The URL without the redundant part, or `None` when the rule does not apply.
    pub fn apply(&self, url: &Url) -> Option<Url> {
        match self {
            UrlRewrite::DropQueryPair { key, value } => {
                // Most links carry no pair a rule drops: asking first, on borrowed pairs, spares
                // them the owned copy of every pair the rewrite needs (the crawler asks this of
                // every link of every page).
                if !url
                    .query_pairs()
                    .any(|(k, v)| k == key.as_str() && v == value.as_str())
                {
                    return None;
                }
                let pairs: Vec<(String, String)> = url
                    .query_pairs()
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect();
                let kept: Vec<&(String, String)> = pairs
                    .iter()
                    .filter(|(k, v)| !(k == key && v == value))
                    .collect();
                if kept.len() == pairs.len() {
                    return None;
                }
                let mut rewritten = url.clone();
                if kept.is_empty() {
                    rewritten.set_query(None);
                } else {
                    rewritten
                        .query_pairs_mut()
                        .clear()
                        .extend_pairs(kept.iter().map(|(k, v)| (k.as_str(), v.as_str())));
                }
                Some(rewritten)
            }
            UrlRewrite::DropLastSegment { segment } => {
                let path = url.path();
                let trimmed = path.strip_suffix('/').unwrap_or(path);
                let parent = trimmed.strip_suffix(segment.as_str())?;
                if !parent.ends_with('/') {
                    return None;
                }
                let mut rewritten = url.clone();
                rewritten.set_path(parent);
                Some(rewritten)
            }
        }
    }
}

/// `url` without `suffix` (a separator and a number, such as `-1`) at the end of its last path
/// segment's name, before the extension: `/t/5a3f-1.html` becomes `/t/5a3f.html`; `None` when
/// the name does not end so. Sites that spell a list's pages inside the file name (`-2.html`)
/// write page 1 both with and without the number. This kind of rule is learned while crawling
/// only: plans keep [`UrlRewrite`]s, whose set the plan format fixes.
pub fn drop_name_suffix(url: &Url, suffix: &str) -> Option<Url> {
    let (directory, stem, extension) = split_last_segment(url.path())?;
    if numbered_suffix(stem) != Some(suffix) {
        return None;
    }
    let shortened = &stem[..stem.len() - suffix.len()];
    let mut rewritten = url.clone();
    rewritten.set_path(&format!("{directory}{shortened}{extension}"));
    Some(rewritten)
}

/// The numbered suffix of `url`'s last segment name with the URL without it (see
/// [`drop_name_suffix`]).
pub fn shorter_name_spelling(url: &Url) -> Option<(String, Url)> {
    let (_, stem, _) = split_last_segment(url.path())?;
    let suffix = numbered_suffix(stem)?;
    Some((suffix.to_string(), drop_name_suffix(url, suffix)?))
}

/// Every URL one redundant-looking part shorter than `url`: without one of its query pairs, or
/// without its last path segment when that segment holds a letter. These are the URLs a crawler
/// compares a page with to learn rewrites while it crawls.
pub fn shorter_spellings(url: &Url) -> Vec<Url> {
    let mut spellings = Vec::new();
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    for (key, value) in &pairs {
        let rule = UrlRewrite::DropQueryPair {
            key: key.clone(),
            value: value.clone(),
        };
        spellings.extend(rule.apply(url));
    }
    let path = url.path().trim_end_matches('/');
    // A segment right under the root is the page's name (`/viewtopic.php`), never a suffix.
    if let Some((parent, last)) = path.rsplit_once('/')
        && !parent.is_empty()
        && last.chars().any(char::is_alphabetic)
    {
        let rule = UrlRewrite::DropLastSegment {
            segment: last.to_string(),
        };
        spellings.extend(rule.apply(url));
    }
    spellings
}

/// Applies every rule that matches, repeatedly, so a URL carrying two redundant parts loses both.
pub fn canonical_url(url: &Url, rewrites: &[UrlRewrite]) -> Url {
    let mut current = url.clone();
    for _ in 0..4 {
        let mut changed = false;
        for rule in rewrites {
            if let Some(rewritten) = rule.apply(&current) {
                current = rewritten;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    current
}

/// The rule that turns `longer` into `shorter`, when they differ by exactly one query pair or one
/// trailing path segment holding a letter.
pub fn difference(longer: &Url, shorter: &Url) -> Option<UrlRewrite> {
    let pairs = |url: &Url| -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        pairs.sort();
        pairs
    };
    let (long_pairs, short_pairs) = (pairs(longer), pairs(shorter));
    if longer.path() == shorter.path() && long_pairs.len() == short_pairs.len() + 1 {
        let extra: Vec<&(String, String)> = long_pairs
            .iter()
            .filter(|pair| !short_pairs.contains(pair))
            .collect();
        if let [(key, value)] = extra.as_slice()
            && short_pairs.iter().all(|pair| long_pairs.contains(pair))
        {
            return Some(UrlRewrite::DropQueryPair {
                key: key.clone(),
                value: value.clone(),
            });
        }
    }
    if long_pairs == short_pairs {
        let long_path = longer.path().trim_end_matches('/');
        let short_path = shorter.path().trim_end_matches('/');
        if let Some(segment) = long_path
            .strip_prefix(short_path)
            .and_then(|rest| rest.strip_prefix('/'))
            && !segment.is_empty()
            && !segment.contains('/')
            // A segment of digits alone is an id (`/t/slug/123/4` is post 4 of thread 123), and
            // dropping it from other URLs would name other pages.
            && segment.chars().any(char::is_alphabetic)
        {
            return Some(UrlRewrite::DropLastSegment {
                segment: segment.to_string(),
            });
        }
    }
    None
}

/// Learns rewrites from sampled URLs and their near-duplicate groups.
pub fn learn_rewrites(urls: &[&Url], groups: &DuplicateGroups) -> Vec<UrlRewrite> {
    // Compare every sampled URL with the others of its path; a few hundred URLs make this cheap.
    let mut by_path_root: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, url) in urls.iter().enumerate() {
        let root = url.path().split('/').nth(1).unwrap_or("");
        by_path_root.entry(root).or_default().push(index);
    }
    // rule → (agreeing pairs, contradicting pairs)
    let mut evidence: BTreeMap<UrlRewrite, (usize, usize)> = BTreeMap::new();
    for members in by_path_root.values() {
        for &a in members {
            for &b in members {
                if a == b {
                    continue;
                }
                let Some(rule) = difference(urls[a], urls[b]) else {
                    continue;
                };
                // Only the emptiest pages cannot vouch for anything: prompts with no text of
                // their own are all one group.
                let same = groups.group_of(a) == groups.group_of(b)
                    && groups.group_without_text() != Some(groups.group_of(a));
                let entry = evidence.entry(rule).or_default();
                if same {
                    entry.0 += 1;
                } else {
                    entry.1 += 1;
                }
            }
        }
    }
    // A redundant number is a list's first page (`start=0`, `page=1`), never a later one. A
    // paged view that shows the same few entries on every page (a "new posts" search whose
    // pages beyond the first repeat it) otherwise yields rules such as `page=8`, which would
    // fold page 8 of every thread into its first page. Measured on the simulator: vBulletin
    // seed 2 learned `page=8` to `page=13`, Discuz! seeds 1-2 `page=6` to `page=26` and phpBB
    // seeds 2-3 `start=300`, from such views.
    let mut smallest_number: HashMap<String, u64> = HashMap::new();
    for url in urls {
        for (key, value) in url.query_pairs() {
            if let Ok(number) = value.parse::<u64>() {
                let smallest = smallest_number.entry(key.into_owned()).or_insert(number);
                *smallest = (*smallest).min(number);
            }
        }
    }
    evidence
        .into_iter()
        .filter(|(_, (agreeing, contradicting))| {
            *agreeing >= MINIMUM_EVIDENCE && *contradicting == 0
        })
        .map(|(rule, _)| rule)
        .filter(|rule| match rule {
            UrlRewrite::DropQueryPair { key, value } => match value.parse::<u64>() {
                Ok(number) => smallest_number.get(key) == Some(&number),
                Err(_) => true,
            },
            _ => true,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    fn check(rule: UrlRewrite, before: &str, after: Option<&str>) {
        assert_eq!(
            rule.apply(&url(before)).map(String::from),
            after.map(str::to_string),
            "{rule:?} on {before}"
        );
    }

    #[test]
    fn query_pairs_are_dropped_only_with_their_value() {
        let rule = UrlRewrite::DropQueryPair {
            key: "start".into(),
            value: "0".into(),
        };
        check(
            rule.clone(),
            "http://f.test/viewtopic.php?t=5&start=0",
            Some("http://f.test/viewtopic.php?t=5"),
        );
        check(
            rule.clone(),
            "http://f.test/viewtopic.php?t=5&start=15",
            None,
        );
        check(rule, "http://f.test/x?start=0", Some("http://f.test/x"));
    }

    #[test]
    fn trailing_segments_are_dropped_whole() {
        let rule = UrlRewrite::DropLastSegment {
            segment: "page-1".into(),
        };
        check(
            rule.clone(),
            "http://f.test/threads/a.5/page-1",
            Some("http://f.test/threads/a.5/"),
        );
        check(rule.clone(), "http://f.test/threads/a.5/page-11", None);
        check(rule, "http://f.test/threads/a.5/xpage-1", None);
    }

    #[test]
    fn differences_of_one_part_make_rules() {
        assert_eq!(
            difference(
                &url("http://f.test/v?t=5&start=0"),
                &url("http://f.test/v?t=5")
            ),
            Some(UrlRewrite::DropQueryPair {
                key: "start".into(),
                value: "0".into()
            })
        );
        assert_eq!(
            difference(
                &url("http://f.test/t/a.5/page-1"),
                &url("http://f.test/t/a.5/")
            ),
            Some(UrlRewrite::DropLastSegment {
                segment: "page-1".into()
            })
        );
        assert_eq!(
            difference(
                &url("http://f.test/v?t=5&start=0"),
                &url("http://f.test/v?t=6")
            ),
            None
        );
        assert_eq!(
            difference(
                &url("http://f.test/t/a/123/4"),
                &url("http://f.test/t/a/123")
            ),
            None,
            "a number alone is an id, never redundant"
        );
    }

    #[test]
    fn shorter_spellings_drop_one_pair_or_a_worded_last_segment() {
        let spellings: Vec<String> = shorter_spellings(&url("http://f.test/v?t=5&start=0"))
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(
            spellings,
            ["http://f.test/v?start=0", "http://f.test/v?t=5"]
        );
        let spellings: Vec<String> = shorter_spellings(&url("http://f.test/threads/a.5/page-2"))
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(spellings, ["http://f.test/threads/a.5/"]);
        assert!(shorter_spellings(&url("http://f.test/t/a/123")).is_empty());
        assert!(shorter_spellings(&url("http://f.test/viewtopic.php")).is_empty());
    }

    #[test]
    fn numbered_name_suffixes_are_dropped_before_the_extension() {
        let cases = [
            (
                "http://f.test/t/5a3f-1.html",
                "-1",
                Some("http://f.test/t/5a3f.html"),
            ),
            ("http://f.test/t/5a3f-1", "-1", Some("http://f.test/t/5a3f")),
            (
                "http://f.test/t/5a3f_1.htm?x=2",
                "_1",
                Some("http://f.test/t/5a3f.htm?x=2"),
            ),
            ("http://f.test/t/5a3f-11.html", "-1", None),
            ("http://f.test/t/5a3f-2.html", "-1", None),
            ("http://f.test/t/-1.html", "-1", None),
            ("http://f.test/t/5a3f.html", "-1", None),
            ("http://f.test/t/5a3f1.html", "1", None),
        ];
        for (before, suffix, after) in cases {
            assert_eq!(
                drop_name_suffix(&url(before), suffix).map(String::from),
                after.map(str::to_string),
                "{before} without {suffix}"
            );
        }
        assert_eq!(
            shorter_name_spelling(&url("http://f.test/t/5a3f-2.html"))
                .map(|(suffix, shorter)| (suffix, shorter.to_string())),
            Some(("-2".to_string(), "http://f.test/t/5a3f.html".to_string()))
        );
        assert_eq!(
            shorter_name_spelling(&url("http://f.test/t/5a3f.html")),
            None
        );
    }

    #[test]
    fn canonical_urls_lose_every_redundant_part() {
        let rules = [
            UrlRewrite::DropQueryPair {
                key: "start".into(),
                value: "0".into(),
            },
            UrlRewrite::DropQueryPair {
                key: "sort".into(),
                value: "default".into(),
            },
        ];
        assert_eq!(
            canonical_url(&url("http://f.test/v?sort=default&t=5&start=0"), &rules).as_str(),
            "http://f.test/v?t=5"
        );
    }
}
