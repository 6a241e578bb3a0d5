//! Vertices that stand for one kind of page: what one of them learned is lent to the others.
//!
//! A vertex is a (layout, URL pattern) pair, so one kind of page can be split over several
//! vertices: a thread's first page and its `?page=N` pages share a layout under two URL
//! patterns, and a board that shows a sub-forum table above its topics gets a layout of its own
//! under the boards' URL pattern. What the sample teaches about one of them (its pager, the
//! links worth following on it) holds for the others, but the sample may have shown it on one
//! only. Three rules carry it over:
//!
//! - [`keep_later_pages`]: when a crawled vertex showed no pager in the sample, the target of
//!   a page-flipping arc inside its layout holds the later pages of its lists, whichever vertex
//!   of the layout the arc starts from;
//! - [`copy_flipping_rows`]: every crawled vertex of a layout gets the page-flipping rows any
//!   vertex of that layout has, as new plan rows when the sample never showed such a link on
//!   its pages;
//! - [`adopt_twins`]: a vertex the crawl will land on (its URL pattern is followed) that is left
//!   out only because its layout differs from a crawled vertex of the same role and URL pattern
//!   is crawled like that twin, arc for arc.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::{Decision, SELF_DUPLICATE_LIMIT, VertexVerdict};
use crate::sitemap::{ArcKey, Role, Sitemap};

/// A plan row the sample did not show: a page-flipping kind of link seen on another vertex of
/// the same layout, lent to a crawled vertex whose sampled pages never held it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopiedArc {
    /// The row's key: the crawled vertex, the links' URL pattern and their location.
    pub key: ArcKey,
    /// The vertex the copied arc leads to.
    pub target: usize,
    /// The index of the sitemap arc it was copied from.
    pub copied_from: usize,
}

/// Keeps the targets of page-flipping arcs inside a layout whose crawled vertices have no
/// page-flipping arc of their own.
///
/// The targets of a crawled vertex's own flipping arcs are kept by the caller. When no sampled
/// page of the crawled vertex showed a pager, though, its lists' later pages stayed unwanted,
/// and that is common: a sampler reaches a forum's newest threads first, and those are short.
/// Measured on FlaskBB 2.2.0 at seed 7: none of the 23 sampled first pages of threads had a
/// pager (15 of 200 threads have two pages or more), the `?page=N` vertex of the same layout
/// held all the flipping arcs, and no thread's second page was fetched (coverage 83.5 %).
///
/// Only such layouts are helped. Where the crawled vertex has flipping arcs, the other vertices
/// of its layout with pagers are other views of its lists: keeping the ascending-order view of
/// phpBB boards (`&sd=a&sk=a&start=N`, a self-looping pager of the boards' layout) was measured
/// to derail the simulator's phpBB crawls (4.8 % coverage at seed 1). The source itself is never
/// kept by its flipping links: every spelling of a thread page (permalinks, "next thread"
/// views) carries the thread's pager, and keeping them would fetch threads twice.
pub(super) fn keep_later_pages(
    sitemap: &Sitemap,
    flipping: &[bool],
    verdicts: &mut [VertexVerdict],
) {
    let layout_of = |vertex: usize| sitemap.vertices[vertex].layout;
    let usable = |index: usize| -> Option<(usize, usize)> {
        let arc = &sitemap.arcs[index];
        let target = arc.main_target()?;
        (flipping[index]
            && arc.self_duplicate_share < SELF_DUPLICATE_LIMIT
            && layout_of(target) == layout_of(arc.key.source))
        .then_some((arc.key.source, target))
    };
    let crawled_layouts: HashSet<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| verdicts[vertex.id] == VertexVerdict::Kept)
        .map(|vertex| vertex.layout)
        .collect();
    let layouts_with_pagers: HashSet<usize> = (0..sitemap.arcs.len())
        .filter_map(usable)
        .filter(|(source, _)| verdicts[*source] == VertexVerdict::Kept)
        .map(|(source, _)| layout_of(source))
        .collect();
    for index in 0..sitemap.arcs.len() {
        let Some((source, target)) = usable(index) else {
            continue;
        };
        let layout = layout_of(source);
        if crawled_layouts.contains(&layout)
            && !layouts_with_pagers.contains(&layout)
            && verdicts[target] == VertexVerdict::NotRepresentative
        {
            verdicts[target] = VertexVerdict::Kept;
        }
    }
}

/// Lends every crawled vertex the page-flipping kinds of link of the other crawled vertices of
/// its layout. Where the vertex has a sitemap arc of that kind which is a candidate, the arc
/// is selected; where it has one none of whose links was sampled, that arc is selected and
/// takes the lent arc's target (returned as a map from arc index to vertex, as
/// `follow_alike_on_pages_of_the_same_lists` does); where it has none, a [`CopiedArc`] row is
/// returned. Sitemap arcs of the kind whose sampled links led somewhere unwanted are left
/// alone.
///
/// Why rows the sample never showed: the crawler looks links up by (vertex, URL pattern,
/// location), and a vertex whose sampled pages had no pager has no row for it, so the pager
/// on its other pages is skipped. A pager's region pattern can also change with the pager's
/// length (vBulletin numbers a few pages, or many with "First" and "Last"), so first pages
/// show some of a layout's pager locations and later pages others.
pub(super) fn copy_flipping_rows(
    sitemap: &Sitemap,
    flipping: &[bool],
    candidate: &[bool],
    verdicts: &[VertexVerdict],
    selected: &mut BTreeSet<usize>,
) -> (Vec<CopiedArc>, HashMap<usize, usize>) {
    let index_of_key = sitemap.arc_index_by_key();
    let mut crawled_of_layout: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for vertex in &sitemap.vertices {
        if verdicts[vertex.id] == VertexVerdict::Kept {
            crawled_of_layout
                .entry(vertex.layout)
                .or_default()
                .push(vertex.id);
        }
    }
    let mut copied: BTreeMap<ArcKey, CopiedArc> = BTreeMap::new();
    let mut lent_targets: HashMap<usize, usize> = HashMap::new();
    for (index, arc) in sitemap.arcs.iter().enumerate() {
        // Only arcs the crawl would follow are lent: a flipping kind on a vertex left out, or
        // into one, says nothing the crawl can use.
        if !flipping[index] || !candidate[index] {
            continue;
        }
        let Some(target) = arc.main_target() else {
            continue;
        };
        let layout = sitemap.vertices[arc.key.source].layout;
        for vertex in crawled_of_layout.get(&layout).into_iter().flatten() {
            if *vertex == arc.key.source {
                continue;
            }
            let key = ArcKey {
                source: *vertex,
                ..arc.key
            };
            match index_of_key.get(&key) {
                Some(own) => {
                    let never_sampled = sitemap.arcs[*own].main_target().is_none();
                    if flipping[*own] && (candidate[*own] || never_sampled) {
                        selected.insert(*own);
                    }
                    if flipping[*own] && never_sampled {
                        lent_targets.entry(*own).or_insert(target);
                    }
                }
                None => {
                    copied.entry(key).or_insert(CopiedArc {
                        key,
                        target,
                        copied_from: index,
                    });
                }
            }
        }
    }
    (copied.into_values().collect(), lent_targets)
}

/// Verdicts a vertex can have and still be crawled like its twin: it was left out for its
/// layout or its place in the selection, not for being a copy or a prompt.
fn may_adopt(verdict: VertexVerdict) -> bool {
    matches!(
        verdict,
        VertexVerdict::Unreached
            | VertexVerdict::LeadsNowhere
            | VertexVerdict::LowInformativeness
            | VertexVerdict::NotRepresentative
    )
}

/// Crawls like their twins the vertices the crawler will land on but would do nothing with.
///
/// Online, a fetched page is classified by its layout and URL pattern. When a followed arc's
/// URL pattern is also the pattern of a vertex left out, pages of that vertex are fetched and
/// then ignored. If that vertex has a crawled *twin* (same role, same URL pattern, another
/// layout), the two are one kind of page whose layouts differ by some optional part; the left
/// out one is kept, and each of its arcs gets the decision of the twin's arc of the same URL
/// pattern and location (when that one is followed and leads to a crawled vertex or to one
/// adopted in turn). Measured on django-machina 1.3.1 at seed 7: a board that shows a
/// sub-forum table above its topics had its own layout, and the whole board's 52 threads were
/// never fetched.
///
/// Returns the decisions of the arcs it selected, to override the ones derived from
/// selection and page flipping.
pub(super) fn adopt_twins(
    sitemap: &Sitemap,
    verdicts: &mut [VertexVerdict],
    selected: &mut BTreeSet<usize>,
    decisions: &[Decision],
) -> HashMap<usize, Decision> {
    let index_of_key = sitemap.arc_index_by_key();
    let twin_of = |vertex: usize, verdicts: &[VertexVerdict]| -> Option<usize> {
        let data = &sitemap.vertices[vertex];
        if !matches!(data.role, Role::Thread | Role::ThreadList) {
            return None;
        }
        sitemap
            .vertices
            .iter()
            .filter(|other| {
                other.id != vertex
                    && other.role == data.role
                    && other.url_pattern == data.url_pattern
                    && other.layout != data.layout
                    && verdicts[other.id] == VertexVerdict::Kept
            })
            .max_by_key(|other| (other.pages.len(), std::cmp::Reverse(other.id)))
            .map(|other| other.id)
    };
    let mut adopted: BTreeMap<usize, usize> = BTreeMap::new();
    let mut overrides: HashMap<usize, Decision> = HashMap::new();
    loop {
        let followed_patterns: HashSet<crate::url_patterns::UrlPatternId> = selected
            .iter()
            .map(|index| &sitemap.arcs[*index])
            .filter(|arc| verdicts[arc.key.source] == VertexVerdict::Kept)
            .map(|arc| arc.key.url_pattern)
            .collect();
        let newcomers: Vec<(usize, usize)> = sitemap
            .vertices
            .iter()
            .filter(|vertex| {
                may_adopt(verdicts[vertex.id]) && followed_patterns.contains(&vertex.url_pattern)
            })
            .filter_map(|vertex| Some((vertex.id, twin_of(vertex.id, verdicts)?)))
            .collect();
        for (vertex, twin) in &newcomers {
            verdicts[*vertex] = VertexVerdict::Kept;
            adopted.insert(*vertex, *twin);
        }
        let mut changed = !newcomers.is_empty();
        for (vertex, twin) in &adopted {
            for (index, arc) in sitemap.arcs.iter().enumerate() {
                if arc.key.source != *vertex || selected.contains(&index) {
                    continue;
                }
                let twin_key = ArcKey {
                    source: *twin,
                    ..arc.key
                };
                let Some(twin_arc) = index_of_key.get(&twin_key) else {
                    continue;
                };
                let decision = overrides
                    .get(twin_arc)
                    .copied()
                    .unwrap_or(decisions[*twin_arc]);
                if decision == Decision::Skip {
                    continue;
                }
                let leads_somewhere = arc.main_target().is_some_and(|target| {
                    verdicts[target] == VertexVerdict::Kept
                        || (may_adopt(verdicts[target]) && twin_of(target, verdicts).is_some())
                });
                if leads_somewhere {
                    selected.insert(index);
                    overrides.insert(index, decision);
                    changed = true;
                }
            }
        }
        if !changed {
            return overrides;
        }
    }
}

/// Whether two URL patterns spell pages of one kind of list: the same first path segment (a
/// script name such as `viewtopic.php`, or a section such as `threads` or `c`). A list's later
/// pages add a parameter or a trailing segment to its first page's spelling
/// (`?t={n}&start={n}`, `/page-{n}`, `?page={n}`), never move to another section.
pub(super) fn spelled_alike(
    sitemap: &Sitemap,
    first: crate::url_patterns::UrlPatternId,
    second: crate::url_patterns::UrlPatternId,
) -> bool {
    let first_segment = |pattern| {
        sitemap.url_patterns.get(pattern).map(|pattern| {
            let path = pattern.text().split('?').next().unwrap_or_default();
            path.trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or_default()
                .to_string()
        })
    };
    match (first_segment(first), first_segment(second)) {
        (Some(first), Some(second)) => first == second,
        _ => false,
    }
}
