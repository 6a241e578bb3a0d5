//! URL rewrites learned while crawling, from pages whose records repeat those of a page
//! fetched under another spelling.

use std::collections::HashMap;

use trawl_learn::default_arguments::{
    DefaultArguments, default_arguments_between, shorter_default_spellings,
};
use trawl_learn::rewrites::{
    UrlRewrite, difference as rewrite_between, drop_name_suffix, shorter_name_spelling,
    shorter_spellings,
};
// Online rules are scoped as the sampler scopes its pairs (the first path segment), so a rule
// the sample settled and one learned while crawling hold in the same place.
use trawl_learn::spellings::spelling_scope;
use url::Url;

use crate::slug_shapes::{slugs_where_marked, with_slugs, without_shared_slugs};
use crate::url_numbers::{fill_shape, shape_and_numbers};

/// Rewrites learned while crawling: when a fetched page shows exactly the records of a page
/// fetched before under a URL one part shorter (`?t=5&start=0` and `?t=5`), that part is taken
/// as redundant after [`REWRITE_EVIDENCE`] such pages, unless some page ever showed other records
/// than its shorter spelling. The plan's rewrites come from the sample; these catch the ones
/// the sample held no pair for, at the cost of a couple of duplicate fetches each.
///
/// Rules hold only within the scope they were learned in, the URLs' first path segment
/// (`viewtopic.php`, `t`, `c`): one forum may number a thread's pages from 1 and a board's from
/// 0, so `?page=1` is page 1 of a thread but page 2 of a board. Unscoped, the boards'
/// contradictions withdrew the threads' rule on the simulator's Discourse seeds 2 and 3 (36
/// duplicate fetches each).
///
/// A second kind of rule joins two URL *shapes* (the URL with each run of digits replaced by a
/// mark, see [`crate::url_numbers`]) that carry the same numbers: `/index.php?topic=8.0` and
/// `/index.php/topic,8.0.html`. When pages fetched under both shapes with the same numbers show
/// the same records on [`REWRITE_EVIDENCE`] occasions, and never other records, the later
/// shape is read as a spelling of the earlier one. No part is dropped, so the rules above
/// cannot see it. Measured on the simulator's SMF seeds 1-3, whose pagers link each thread's
/// first page in the "search engine friendly" spelling: 40-60 duplicate fetches before,
/// 5-8 duplicate fetches of any kind after (`trawl bench crawl`).
///
/// Two shapes may also differ by one number that one spelling carries and the other leaves
/// out: Discuz!'s `/thread-8-1-1.html` names the board page a thread was listed on in its last
/// number, which its dynamic spelling `?mod=viewthread&tid=8&page=1` does not carry. Such twins
/// are weighed like the others, the rule naming where the extra number sits and its value, so
/// `thread-8-1-3.html` (listed on the board's third page) is not taken for the same spelling.
/// Measured on the simulator's Discuz! seed 1 at medium scale, whose thread pagers link page 1
/// in the dynamic spelling: 1,299 duplicate fetches (15.9 % of the crawl) before.
#[derive(Debug, Clone, Default)]
pub(crate) struct OnlineRewrites {
    /// Record signature of every fetched page that had records.
    pub(crate) signature_of_url: HashMap<String, u64>,
    /// Per scoped rule: (agreeing pages, contradicting pages).
    evidence: HashMap<ScopedRewrite, (usize, usize)>,
    /// Rules in force.
    pub(crate) rules: Vec<ScopedRewrite>,
    /// Per tuple of numbers, the shapes fetched with it and their pages' signatures.
    shapes_of_numbers: HashMap<Vec<String>, Vec<(String, u64)>>,
    /// Per tuple of numbers with one number left out, the shapes fetched with it, their pages'
    /// signatures, and where the left-out number sat and what it was.
    shapes_of_fewer_numbers: HashMap<Vec<String>, Vec<(String, u64, NumberChange)>>,
    /// Per shape rule: (agreeing pages, contradicting pages).
    twin_evidence: HashMap<ShapeTwin, (usize, usize)>,
    /// Shape rules in force.
    pub(crate) twins: Vec<ShapeTwin>,
}

/// A shape rule: URLs of shape `from` are spellings of the URL of shape `to` carrying their
/// numbers changed by `change`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ShapeTwin {
    pub(crate) from: String,
    pub(crate) to: String,
    pub(crate) change: NumberChange,
}

/// How a shape rule changes the numbers a URL carries.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum NumberChange {
    /// The same numbers in the same order.
    Same,
    /// This number is put in at this position.
    Insert(usize, String),
    /// The number at this position is left out; the rule holds only when it has this value.
    Drop(usize, String),
}

impl NumberChange {
    fn apply(&self, numbers: &[String]) -> Option<Vec<String>> {
        let mut changed = numbers.to_vec();
        match self {
            NumberChange::Same => {}
            NumberChange::Insert(position, value) => {
                if *position > changed.len() {
                    return None;
                }
                changed.insert(*position, value.clone());
            }
            NumberChange::Drop(position, value) => {
                if changed.get(*position) != Some(value) {
                    return None;
                }
                changed.remove(*position);
            }
        }
        Some(changed)
    }
}

/// The tuples `numbers` gives with one number left out, with the change that leaves it out.
/// A tuple left empty is not given: a URL without numbers names one page.
fn with_one_number_left_out(numbers: &[String]) -> Vec<(Vec<String>, usize, &String)> {
    if numbers.len() < 2 {
        return Vec::new();
    }
    (0..numbers.len())
        .map(|position| {
            let mut fewer = numbers.to_vec();
            fewer.remove(position);
            (fewer, position, &numbers[position])
        })
        .collect()
}

/// A rewrite learned while crawling, with the URLs it holds for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScopedRewrite {
    /// The first path segment of the URLs the rule applies to (empty for the root).
    pub scope: String,
    /// The rule.
    pub rule: OnlineRule,
}

/// What a rewrite learned while crawling drops.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OnlineRule {
    /// A query pair or a trailing path segment, as the plan's rewrites do.
    Part(UrlRewrite),
    /// A separator and a number at the end of the last segment's name (`-1` of
    /// `/t/5a3f-1.html`; see [`drop_name_suffix`]). Measured on the simulator's tablecraft
    /// seeds 1-3, whose pagers spell every thread's first page `-1.html`: 11-31 duplicate fetches
    /// before, 2 after.
    NameSuffix(String),
    /// A list's first page's default arguments: a start offset at the end of a query value
    /// (YaBB's `?board=NAME/0`), or a first page's number with the default view it belongs to
    /// (`?sort=active&page=1`); see [`trawl_learn::default_arguments`]. Measured on the
    /// simulator's yabb and qa with plans from 100 samples, whose pagers name every list's
    /// first page so: 1.4-1.9 % of the crawl fetched again before.
    Defaults(DefaultArguments),
}

impl OnlineRule {
    fn apply(&self, url: &Url) -> Option<Url> {
        match self {
            OnlineRule::Part(rule) => rule.apply(url),
            OnlineRule::NameSuffix(suffix) => drop_name_suffix(url, suffix),
            OnlineRule::Defaults(arguments) => arguments.apply(url),
        }
    }
}

/// Whether `rule` drops a part carrying one number above 1 (`&page=3`, `/page-4`): a list's
/// first page is spelled with 0 or 1 when it is spelled with a number at all (`&start=0`,
/// `&page=1`), and a page under a larger number that shows the first page's records is a page
/// past the list's end, which forums answer with the first page again. Taken as evidence, two
/// such pages put in force a rule that takes every list's real page of that number for its
/// first page, and the crawl skipped them (`&page=3` of every board with three pages, once two
/// boards of two pages had answered their `&page=3` with their first page).
fn drops_a_later_page_number(rule: &OnlineRule) -> bool {
    let dropped = match rule {
        OnlineRule::Part(UrlRewrite::DropQueryPair { value, .. }) => value,
        OnlineRule::Part(UrlRewrite::DropLastSegment { segment }) => segment,
        // Only arguments naming a first page are ever candidates (see
        // `trawl_learn::default_arguments::shorter_default_spellings`).
        OnlineRule::NameSuffix(_) | OnlineRule::Defaults(_) => return false,
    };
    let (_, numbers) = shape_and_numbers(dropped);
    matches!(numbers.as_slice(), [number] if number.parse::<u64>().map_or(true, |value| value > 1))
}

/// Whether `longer`, spelled as `shorter` with one number more whose value is `page_number`,
/// names a later page of `shorter`'s list ([`crate::lists::pages_of_one_list`]) past its first:
/// its records agreeing with the first page's make it a page past the end, not another spelling
/// (see [`drops_a_later_page_number`]; the shape rules met the same pages as `&page=3` beside
/// `?id=3`).
fn past_a_lists_end(longer: &str, shorter: &str, page_number: &str) -> bool {
    page_number.parse::<u64>().map_or(true, |value| value > 1)
        && crate::lists::pages_of_one_list(longer, shorter)
}

/// Agreeing pages an online rewrite needs (the same as the sampler's pairs, so a rule the
/// sample settled is in force from the crawl's first page).
pub const REWRITE_EVIDENCE: usize = trawl_learn::spellings::SPELLING_EVIDENCE;

impl OnlineRewrites {
    pub(crate) fn observe(&mut self, url: &Url, signature: Option<u64>) {
        let Some(signature) = signature else {
            return;
        };
        let mut candidates: Vec<(OnlineRule, Url)> = shorter_spellings(url)
            .into_iter()
            .filter_map(|shorter| {
                Some((OnlineRule::Part(rewrite_between(url, &shorter)?), shorter))
            })
            .filter(|(rule, _)| !drops_a_later_page_number(rule))
            .collect();
        if let Some((suffix, shorter)) = shorter_name_spelling(url) {
            candidates.push((OnlineRule::NameSuffix(suffix), shorter));
        }
        candidates.extend(
            shorter_default_spellings(url)
                .into_iter()
                .map(|(arguments, shorter)| (OnlineRule::Defaults(arguments), shorter)),
        );
        for (rule, shorter) in candidates {
            let Some(known) = self.signature_of_url.get(shorter.as_str()) else {
                continue;
            };
            let agrees = *known == signature;
            let rule = ScopedRewrite {
                scope: spelling_scope(url).to_string(),
                rule,
            };
            self.weigh_rule(rule, agrees);
        }
        self.signature_of_url.insert(url.to_string(), signature);
        self.observe_shape(url, signature);
    }

    /// Weighs a pair of spellings the sampler fetched (see [`trawl_learn::spellings`]): `url`
    /// one part longer than `same_as`, or `same_as` with default arguments, or carrying the
    /// same numbers in a shape met later.
    /// `same` says whether their pages were near-duplicates. The pair counts as one page of
    /// evidence, as a pair met while crawling does; pairs that fit no rule are ignored, since
    /// a hand-edited plan may hold anything.
    pub(crate) fn weigh_sampled(&mut self, url: &Url, same_as: &Url, same: bool) {
        let scope = spelling_scope(url).to_string();
        if let Some(rule) = rewrite_between(url, same_as) {
            self.weigh_rule(
                ScopedRewrite {
                    scope,
                    rule: OnlineRule::Part(rule),
                },
                same,
            );
            return;
        }
        if let Some((suffix, shorter)) = shorter_name_spelling(url)
            && shorter == *same_as
        {
            self.weigh_rule(
                ScopedRewrite {
                    scope,
                    rule: OnlineRule::NameSuffix(suffix),
                },
                same,
            );
            return;
        }
        if let Some(arguments) = default_arguments_between(url, same_as) {
            self.weigh_rule(
                ScopedRewrite {
                    scope,
                    rule: OnlineRule::Defaults(arguments),
                },
                same,
            );
            return;
        }
        let (from, numbers) = shape_and_numbers(url.as_str());
        let (to, other_numbers) = shape_and_numbers(same_as.as_str());
        if !numbers.is_empty() && numbers == other_numbers && from != to {
            let twin = ShapeTwin {
                from,
                to,
                change: NumberChange::Same,
            };
            self.weigh_twin(twin, same);
        }
    }

    fn weigh_rule(&mut self, rule: ScopedRewrite, agrees: bool) {
        let entry = self.evidence.entry(rule.clone()).or_default();
        if agrees {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
        let (agreeing, contradicting) = *entry;
        let in_force = self.rules.contains(&rule);
        if !in_force && agreeing >= REWRITE_EVIDENCE && contradicting == 0 {
            self.rules.push(rule);
        } else if in_force && contradicting > 0 {
            self.rules.retain(|kept| *kept != rule);
        }
    }

    /// Weighs the page against earlier pages carrying the same numbers under other shapes, or
    /// the same numbers but one.
    fn observe_shape(&mut self, url: &Url, signature: u64) {
        let (shape, numbers) = shape_and_numbers(url.as_str());
        // A URL without numbers names one page, and pairs of such pages say nothing about
        // shapes.
        if numbers.is_empty() {
            return;
        }
        let mut comparisons: Vec<(ShapeTwin, bool)> = Vec::new();
        let mut compare_with =
            |other_shape: &String, other_signature: u64, change: NumberChange| {
                if *other_shape != shape {
                    // A thread's slug, the same in both spellings, is no part of the rule.
                    let twin = ShapeTwin {
                        from: without_shared_slugs(&shape, other_shape),
                        to: without_shared_slugs(other_shape, &shape),
                        change,
                    };
                    comparisons.push((twin, other_signature == signature));
                }
            };
        for (other_shape, other_signature) in
            self.shapes_of_numbers.get(&numbers).into_iter().flatten()
        {
            compare_with(other_shape, *other_signature, NumberChange::Same);
        }
        // Earlier pages whose numbers are this page's with one more.
        for (other_shape, other_signature, change) in self
            .shapes_of_fewer_numbers
            .get(&numbers)
            .into_iter()
            .flatten()
        {
            let later_page = change.apply(&numbers).and_then(|longer| {
                let longer_url = fill_shape(other_shape, &longer)?;
                let NumberChange::Insert(_, value) = change else {
                    return None;
                };
                Some(past_a_lists_end(longer_url.as_str(), url.as_str(), value))
            });
            if later_page != Some(true) {
                compare_with(other_shape, *other_signature, change.clone());
            }
        }
        // Earlier pages whose numbers are this page's with one fewer.
        let fewer = with_one_number_left_out(&numbers);
        for (tuple, position, value) in &fewer {
            for (other_shape, other_signature) in
                self.shapes_of_numbers.get(tuple).into_iter().flatten()
            {
                let shorter = fill_shape(other_shape, tuple);
                if shorter
                    .is_some_and(|shorter| past_a_lists_end(url.as_str(), shorter.as_str(), value))
                {
                    continue;
                }
                compare_with(
                    other_shape,
                    *other_signature,
                    NumberChange::Drop(*position, (*value).clone()),
                );
            }
        }
        for (twin, agrees) in comparisons {
            self.weigh_twin(twin, agrees);
        }
        for (tuple, position, value) in fewer {
            let change = NumberChange::Insert(position, value.clone());
            let earlier = self.shapes_of_fewer_numbers.entry(tuple).or_default();
            if !earlier.iter().any(|(other_shape, _, other_change)| {
                *other_shape == shape && *other_change == change
            }) {
                earlier.push((shape.clone(), signature, change));
            }
        }
        let earlier = self.shapes_of_numbers.entry(numbers).or_default();
        if !earlier.iter().any(|(other_shape, _)| *other_shape == shape) {
            earlier.push((shape, signature));
        }
    }

    fn weigh_twin(&mut self, twin: ShapeTwin, agrees: bool) {
        let entry = self.twin_evidence.entry(twin.clone()).or_default();
        if agrees {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
        let (agreeing, contradicting) = *entry;
        let in_force = self.twins.contains(&twin);
        // A rule in force already joining the two shapes the other way would send URLs back
        // and forth.
        let reverse_in_force = self
            .twins
            .iter()
            .any(|kept| kept.from == twin.to && kept.to == twin.from);
        if !in_force && !reverse_in_force && agreeing >= REWRITE_EVIDENCE && contradicting == 0 {
            self.twins.push(twin);
        } else if in_force && contradicting > 0 {
            self.twins.retain(|kept| *kept != twin);
        }
    }

    /// `url` with every rule in force for its scope applied.
    pub(crate) fn canonical(&self, url: &Url) -> Url {
        let url = self.canonical_by_parts(url);
        if self.twins.is_empty() {
            return url;
        }
        let (shape, numbers) = shape_and_numbers(url.as_str());
        let spellings_by = |narrow: bool| -> Vec<Url> {
            self.twins
                .iter()
                .filter(|twin| !narrow || matches!(twin.change, NumberChange::Drop(..)))
                .filter_map(|twin| {
                    let slugs = slugs_where_marked(&twin.from, &shape)?;
                    let to = with_slugs(&twin.to, &slugs)?;
                    fill_shape(&to, &twin.change.apply(&numbers)?)
                })
                .collect()
        };
        // A rule that leaves out a number of one value (a first page's `/0`) holds for fewer
        // URLs than one that keeps every number, and says more of the URLs it fits: YaBB's
        // `?num=5/0` is the thread's first page `?num=5`, while the rule that spells every
        // later page `?num=5/15` as the permalink `?num=5;r=15` would make it `?num=5;r=0`.
        // The two disagreed, the URL was left as it was, and every thread's first page was
        // fetched again under its pager's spelling (10-14 % of the crawl at 300 samples).
        let narrow = spellings_by(true);
        // Rules in force for one shape can disagree: a `1` put in before or after another `1`
        // gives the same first pages, so both rules gather the same evidence, but they spell a
        // second page differently. A URL they disagree on is left as it is.
        let spellings = if narrow.is_empty() {
            spellings_by(false)
        } else {
            narrow
        };
        match spellings.first() {
            Some(first) if spellings.iter().all(|other| other == first) => first.clone(),
            _ => url,
        }
    }

    fn canonical_by_parts(&self, url: &Url) -> Url {
        if self.rules.is_empty() {
            return url.clone();
        }
        let scope = spelling_scope(url);
        let rules: Vec<&OnlineRule> = self
            .rules
            .iter()
            .filter(|scoped| scoped.scope == scope)
            .map(|scoped| &scoped.rule)
            .collect();
        // Applied repeatedly, as the plan's rules are, so a URL carrying two redundant parts
        // loses both; dropping only shortens the URL, so a few rounds suffice.
        let mut current = url.clone();
        for _ in 0..4 {
            let mut changed = false;
            for rule in &rules {
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
}

#[cfg(test)]
mod tests;
