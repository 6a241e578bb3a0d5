//! The paper's three measures of browsing behaviour, over deduplicated transitions.
//!
//! F_in(u) is the number of records whose target is u, F_out(u) the number whose referrer is u,
//! F_trans(u, v) the number whose referrer is u and target v. We also keep, per URL, how many of
//! its visits were entries (no referrer on the site) and the position of the record that first
//! named it, which the discovery ranking needs.

use std::collections::HashMap;

use crate::log::BrowseLog;

/// Index of a URL in [`Frequencies::urls`].
pub type UrlId = u32;

/// F_in, F_out and F_trans of every URL a log names.
#[derive(Debug, Clone, Default)]
pub struct Frequencies {
    urls: Vec<String>,
    index: HashMap<String, UrlId>,
    f_in: Vec<u32>,
    f_out: Vec<u32>,
    entries: Vec<u32>,
    first_seen: Vec<usize>,
    first_referrer: Vec<Option<UrlId>>,
    f_trans: HashMap<(UrlId, UrlId), u32>,
    records: usize,
}

impl Frequencies {
    /// Counts the measures over a log's transitions.
    pub fn of(log: &BrowseLog) -> Frequencies {
        let mut frequencies = Frequencies {
            records: log.transitions.len(),
            ..Frequencies::default()
        };
        for (position, transition) in log.transitions.iter().enumerate() {
            let referrer = transition
                .referrer
                .as_deref()
                .map(|url| frequencies.intern(url, position, None));
            let target = frequencies.intern(&transition.target, position, referrer);
            frequencies.f_in[target as usize] += 1;
            match referrer {
                Some(referrer) => {
                    frequencies.f_out[referrer as usize] += 1;
                    *frequencies.f_trans.entry((referrer, target)).or_default() += 1;
                }
                None => frequencies.entries[target as usize] += 1,
            }
        }
        frequencies
    }

    fn intern(&mut self, url: &str, position: usize, referrer: Option<UrlId>) -> UrlId {
        if let Some(&id) = self.index.get(url) {
            return id;
        }
        let id = self.urls.len() as UrlId;
        self.urls.push(url.to_string());
        self.index.insert(url.to_string(), id);
        self.f_in.push(0);
        self.f_out.push(0);
        self.entries.push(0);
        self.first_seen.push(position);
        self.first_referrer.push(referrer);
        id
    }

    /// Every URL named, in order of first appearance.
    pub fn urls(&self) -> &[String] {
        &self.urls
    }

    /// Number of deduplicated records counted.
    pub fn records(&self) -> usize {
        self.records
    }

    /// The id of `url`, if the log names it.
    pub fn id(&self, url: &str) -> Option<UrlId> {
        self.index.get(url).copied()
    }

    /// F_in(u): records whose target is `url`.
    pub fn f_in(&self, url: &str) -> u32 {
        self.id(url).map_or(0, |id| self.f_in[id as usize])
    }

    /// F_out(u): records whose referrer is `url`.
    pub fn f_out(&self, url: &str) -> u32 {
        self.id(url).map_or(0, |id| self.f_out[id as usize])
    }

    /// F_trans(u, v): records going from `from` to `to`.
    pub fn f_trans(&self, from: &str, to: &str) -> u32 {
        match (self.id(from), self.id(to)) {
            (Some(from), Some(to)) => self.f_trans.get(&(from, to)).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// F_in by id.
    pub fn f_in_of(&self, id: UrlId) -> u32 {
        self.f_in[id as usize]
    }

    /// F_out by id.
    pub fn f_out_of(&self, id: UrlId) -> u32 {
        self.f_out[id as usize]
    }

    /// Visits of the URL that entered the site (no referrer on it).
    pub fn entries_of(&self, id: UrlId) -> u32 {
        self.entries[id as usize]
    }

    /// Position of the record that first named the URL (as target or referrer).
    pub fn first_seen_of(&self, id: UrlId) -> usize {
        self.first_seen[id as usize]
    }

    /// The referrer of the record that first named the URL as a target, when that record was
    /// also the URL's first appearance: the page on which a user found it first.
    pub fn first_referrer_of(&self, id: UrlId) -> Option<UrlId> {
        self.first_referrer[id as usize]
    }

    /// Every transition with its count, in no particular order.
    pub fn transitions(&self) -> impl Iterator<Item = ((UrlId, UrlId), u32)> + '_ {
        self.f_trans.iter().map(|(&pair, &count)| (pair, count))
    }
}
