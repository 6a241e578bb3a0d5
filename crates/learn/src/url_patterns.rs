//! URL patterns: every same-site URL seen while sampling a forum maps to a pattern, so that URLs
//! of one kind (all thread pages, all page-2+ of threads, all session-id spellings of a board)
//! share a pattern and different kinds do not. This is iRobot's URL-based sub-clustering
//! (section 5.2), hardened for the URL formats real engines use (`DESIGN.md`, "URL formats").
//!
//! # Pattern text
//!
//! A pattern is a path and query without scheme, host or fragment, with two wildcards:
//! `{n}` stands for a run of digits and `{*}` for any non-empty text, as in
//! `/viewtopic.php?start={n}&t={n}`, `/threads/{*}.{n}/page-{n}` or `/t/{*}/{n}`. Query keys are
//! always literal, sorted, and joined with `&` even where the site writes `;`; a key written
//! without `=` (SMF's `;wap2`) stays without it. Literal braces are doubled. A URL matches when
//! it has the same number of path segments, the same trailing slash and the same query keys
//! (iRobot's rule), and every segment and value fits its pieces.
//!
//! # Learning
//!
//! URLs are cut into path segments (by `/`) and query pairs (by `&` and `;`); a URL seen several
//! times counts once, so that navigation links do not outweigh the site. Every digit run becomes
//! `{n}` (`thread-123-1-1.html` → `thread-{n}-{n}-{n}.html`, `board=1.20` → `board={n}.{n}`),
//! except inside percent escapes. Two kinds of value are wildcarded whatever their position,
//! because one of them in a sample says nothing about the next: opaque ids (an alphanumeric run
//! of eight or more characters that switches between letters and digits three times or mixes
//! digits with hex letters only: hex ids, session hashes) and query values holding a path or
//! URL (`next=/t/5/reply`).
//!
//! Then each position is decided *literal* (its generalised values split URLs into different
//! patterns) or *free* (its values become `{*}`):
//!
//! - Path segments are decided left to right in a trie: position `i` is decided over all URLs
//!   that share the pieces chosen for positions `0..i`, whatever their length or query. Pooling
//!   lengths lets `/t/{slug}/{n}`, `/t/{slug}/{n}/print` and `/t/{slug}/{n}?page={n}` vote
//!   together on the slug, so a rare page kind does not keep one pattern per thread.
//! - Query values are decided per key, over all URLs with the same path pattern.
//!
//! A position with one distinct value is literal. Otherwise it is free when any of these holds:
//!
//! 1. *Free-text values*: more than half of the distinct values are slug-shaped (three or more
//!    words between `-`, `+` or spaces, like `how-to-fix-it`, or 24 characters besides digits)
//!    or opaque, or more than half of the URLs have opaque values. This settles samples of two.
//! 2. *Too many values*: 32 or more distinct values, as many as half the URLs, as user names
//!    without digits have. Page-kind vocabularies are smaller.
//! 3. *Values one to one with entities*: at least three distinct values (two if both carry
//!    digits); at least three quarters of them seen with a single entity, and at least three
//!    quarters of the entities seen with a single value; and at least half as many entities as
//!    values. A URL's entity is the first digit run, in written order, of a slot (path position
//!    or query key) whose digits vary among the URLs decided, so constant digits (`/api/v2/`)
//!    do not count. A title slug comes with one thread id and the thread with one slug;
//!    `print`, `page-{n}` or `sort=title` come with many ids, `action=login` with none, and in
//!    a thin sample some board shows up with two sort orders. An entity's values are compared
//!    by their variable part, so `c578a13f.html` and `c578a13f-2.html` are one name.
//!
//! A free path segment keeps its structure around the wildcard: an id head (`{n}-{*}`), else an
//! id tail after a separator (`{*}.{n}`, `{*}-{n}`), and an extension (`{*}.html`), so that
//! `/t/{*}.html` and `/t/{*}-{n}.html` (an explicit page) stay apart. When the variable part is
//! all digits (a hex id without letters) the value joins the most specific `{*}` form that
//! matches it and is four times as common, and keeps its `{n}` form otherwise. A free query
//! value is plain `{*}`.
//!
//! Pattern ids are the positions of the learned patterns sorted by text, so they depend on the
//! set of URLs only, not on their order (every statistic above is order-free too). The site is
//! the host named most often in the input (ties to the smallest name); URLs of other hosts are
//! ignored when learning and get no pattern when classifying.
//!
//! # Classifying
//!
//! Patterns are indexed by segment count, trailing slash and key list; among those matching a
//! URL the most specific wins: most literal characters, then fewest `{*}`, then most `{n}`, then
//! the smallest id. A URL of a shape never seen has no pattern.
//!
//! # Alternatives rejected
//!
//! - *Digits only* (the paper's rule): every title slug (`/threads/how-to-fix-it.{n}/`), hex id
//!   and session id becomes its own pattern.
//! - *A ratio of distinct values to URLs* alone: a board slug seen with five boards has five
//!   values in five URLs, exactly like `action=login`, `action=help`, ... in SMF; only the
//!   entities tell them apart. A thread slug seen mostly with page 2 and print views of the same
//!   threads falls below any fixed ratio, and a 50,000-URL sample and a 2-URL one need
//!   different thresholds.
//! - *Deciding positions per URL shape* (segment count and key set), as the paper groups URLs:
//!   rare shapes (`/c/{slug}/{n}?page={n}` for the few boards with two pages) then have too few
//!   URLs to recognise their slugs and keep one pattern per board.
//! - *Whole-URL clustering by edit distance*: neither deterministic nor explainable, and
//!   `sort=title` versus `sort=author` is one edit while separating them is the point.
//! - *Regular expressions as the stored form*: harder to read and edit in a plan file; two
//!   wildcards keep matching to a few string comparisons.

mod learning;
mod pattern;
mod shapes;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

pub use pattern::{UrlPattern, UrlPatternError};

/// Identifies a pattern within its [`UrlPatternSet`].
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct UrlPatternId(pub u32);

/// The patterns of one site, in id order, indexed for classification.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UrlPatternSet {
    site_host: Option<String>,
    patterns: Vec<UrlPattern>,
    /// Shape key (segment count, trailing slash, sorted keys) to pattern indexes, most specific
    /// first.
    index: HashMap<String, Vec<usize>>,
}

impl UrlPatternSet {
    /// Learns patterns from every URL seen (repeats allowed). Pure and deterministic: ids are
    /// assigned in the order of the patterns' texts, so the same URLs in any order give the same
    /// set. URLs of hosts other than the most frequent one are ignored.
    pub fn learn<'a>(urls: impl IntoIterator<Item = &'a url::Url>) -> UrlPatternSet {
        let learned = learning::learn(urls);
        let patterns = learned
            .texts
            .iter()
            .enumerate()
            .filter_map(|(index, text)| {
                let parsed = UrlPattern::parse(UrlPatternId(index as u32), text);
                debug_assert!(parsed.is_ok(), "learned an unreadable pattern {text:?}");
                parsed.ok()
            })
            .collect();
        let set = UrlPatternSet::from_patterns(patterns);
        match learned.host {
            Some(host) => set.with_site_host(host),
            None => set,
        }
    }

    /// Rebuilds a set from patterns (read back from a plan file, say). The set matches URLs of
    /// any host until [`UrlPatternSet::with_site_host`] names one. Patterns are kept in id order;
    /// when two share an id, [`UrlPatternSet::get`] returns the first.
    pub fn from_patterns(mut patterns: Vec<UrlPattern>) -> UrlPatternSet {
        patterns.sort_by_key(UrlPattern::id);
        let mut index: HashMap<String, Vec<usize>> = HashMap::new();
        for (position, pattern) in patterns.iter().enumerate() {
            index.entry(pattern.shape_key()).or_default().push(position);
        }
        for positions in index.values_mut() {
            // Most specific first, then the smaller id (positions are in id order).
            positions.sort_by_key(|&position| {
                (
                    std::cmp::Reverse(patterns[position].specificity()),
                    position,
                )
            });
        }
        UrlPatternSet {
            site_host: None,
            patterns,
            index,
        }
    }

    /// The same set, matching only URLs of `host`.
    pub fn with_site_host(mut self, host: impl Into<String>) -> UrlPatternSet {
        self.site_host = Some(host.into());
        self
    }

    /// The host the set is for, when it knows one.
    pub fn site_host(&self) -> Option<&str> {
        self.site_host.as_deref()
    }

    /// The most specific pattern matching `url`; `None` for another host or a shape never seen.
    pub fn classify(&self, url: &url::Url) -> Option<UrlPatternId> {
        if let Some(host) = &self.site_host
            && url.host_str() != Some(host.as_str())
        {
            return None;
        }
        let parts = pattern::UrlParts::of(url);
        self.index
            .get(&parts.shape_key())?
            .iter()
            .map(|&position| &self.patterns[position])
            .find(|pattern| pattern.matches_parts(&parts))
            .map(UrlPattern::id)
    }

    /// The pattern with id `id`.
    pub fn get(&self, id: UrlPatternId) -> Option<&UrlPattern> {
        let position = self.patterns.partition_point(|pattern| pattern.id() < id);
        self.patterns
            .get(position)
            .filter(|pattern| pattern.id() == id)
    }

    /// All patterns, in id order.
    pub fn patterns(&self) -> &[UrlPattern] {
        &self.patterns
    }
}
