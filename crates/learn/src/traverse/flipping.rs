//! Page-flipping links among the loop-backs of a layout (the skeleton paper, §5.2).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{MINIMUM_PAIRS_FOR_CONNECTIVITY, SELF_DUPLICATE_LIMIT};

/// An arc whose links show no text is taken for page flipping from this many sampled pairs on:
/// one pair of pages of one list can be chance, two of two are a pattern.
const MINIMUM_PAIRS_FOR_WORDLESS: usize = 2;
use crate::sitemap::{LocationKey, Sitemap};
use crate::url_patterns::UrlPatternId;

/// Finds the page-flipping arcs. Returns a flag per arc and the connectivity of each loop-back
/// arc's group.
///
/// A *kind* of loop-back link is every link from a layout to one URL pattern of that layout,
/// wherever it sits (the pager above the posts, the one below, "Next" and "Previous" are one
/// kind: links to other pages of the list). Its connectivity is the skeleton paper's eq. 3 over
/// the sampled pages those links join. An arc is page flipping when its anchors read like a
/// pager, it does not lead to copies of its own page, and its kind is connected (at least 0.5 and
/// at least the mean of the layout's loop-back kinds). A sample seldom holds many pages of one
/// list, so when a kind joins fewer than [`MINIMUM_PAIRS_FOR_CONNECTIVITY`] pairs, sharing the
/// list's distinctive text (a thread's title) stands in for connectivity.
pub(super) fn find_page_flipping(sitemap: &Sitemap) -> (Vec<bool>, Vec<Option<f64>>) {
    let layout_of = |vertex: usize| sitemap.vertices[vertex].layout;
    let mut kinds: BTreeMap<(usize, UrlPatternId), Vec<usize>> = BTreeMap::new();
    for (index, arc) in sitemap.arcs.iter().enumerate() {
        if let Some(target) = arc.main_target()
            && layout_of(target) == layout_of(arc.key.source)
        {
            kinds
                .entry((layout_of(arc.key.source), arc.key.url_pattern))
                .or_default()
                .push(index);
        }
    }
    let mut connectivity = vec![None; sitemap.arcs.len()];
    let mut scores: BTreeMap<(usize, UrlPatternId), (f64, usize)> = BTreeMap::new();
    for (kind, arcs) in &kinds {
        // Pages are taken up to near-duplication: `?start=0` and the plain URL of a thread's
        // first page are one page for the question "can I get back from here".
        let group = |page: usize| sitemap.duplicate_groups.group_of(page);
        let pairs: BTreeSet<(usize, usize)> = arcs
            .iter()
            .flat_map(|arc| sitemap.arcs[*arc].sampled_pairs.iter().copied())
            .filter(|(source, target)| {
                layout_of(sitemap.vertex_of_page[*target]) == kind.0
                    && layout_of(sitemap.vertex_of_page[*source]) == kind.0
            })
            .map(|(source, target)| (group(source), group(target)))
            .filter(|(source, target)| source != target)
            .collect();
        if pairs.is_empty() {
            continue;
        }
        let score = pair_connectivity(&pairs);
        for arc in arcs {
            connectivity[*arc] = Some(score);
        }
        scores.insert(*kind, (score, pairs.len()));
    }
    let mut mean_of_layout: HashMap<usize, (f64, usize)> = HashMap::new();
    for ((layout, _), (score, _)) in &scores {
        let entry = mean_of_layout.entry(*layout).or_default();
        entry.0 += score;
        entry.1 += 1;
    }
    let flipping = sitemap
        .arcs
        .iter()
        .map(|arc| {
            let Some(target) = arc.main_target() else {
                return false;
            };
            let layout = layout_of(arc.key.source);
            if layout_of(target) != layout || arc.self_duplicate_share >= SELF_DUPLICATE_LIMIT {
                return false;
            }
            // Links with no visible text (Discuz!'s "previous page" is `&nbsp;&nbsp;` over a
            // CSS arrow) cannot be read as a pager, nor as "Next topic". When none of an arc's
            // links has words, the arc is judged by what its own sampled links join: at least
            // two pairs, nearly all of them sharing their list's distinctive text (a thread's
            // title). The kind's connectivity is not asked for, as it is not for pager-worded
            // arcs passing the same test below: a kind mixes the pager with "next thread"
            // links, which pull it down (0.4 on the simulator's Discuz! seed 3). Before, such
            // arcs were never flipping, and the "previous" link of Discuz! threads was skipped
            // (two false negatives per Discuz! run of `trawl bench learn`).
            //
            // Pages of one list also share their title (page numbers aside), which neighbouring
            // threads of one board do not, though they share the board's name: SMF names them
            // in `<link rel="prev">` and `<link rel="next">` in the head, which are a pager's
            // only links on other forums (a cursor-paged board list whose visible pager sits
            // in `<noscript>`).
            if arc.wordless_links == arc.links {
                return arc.sampled_pairs.len() >= MINIMUM_PAIRS_FOR_WORDLESS
                    && arc.same_list_share >= 0.8
                    && arc.same_title_share >= 0.8;
            }
            // A link stepping through a named series ("Thread Next" beside "Date Next" over a
            // mail archive's message, "Next topic »" under a thread) flips the pages of one list
            // only when the pages it joins share their list's distinctive text and their title
            // (a thread's subject), as links without words must: a thread's next message does,
            // the next message by date and the next topic do not (neighbouring threads share
            // their board's name, not their title). Before, mail archives' threads of one
            // message a page were never lists, and their relations were lost (0.24 % kept).
            if arc.series_step_share >= 0.5 {
                return arc.sampled_pairs.len() >= MINIMUM_PAIRS_FOR_WORDLESS
                    && arc.same_list_share >= 0.8
                    && arc.same_title_share >= 0.8;
            }
            if arc.flipping_text_share < 0.5 {
                return false;
            }
            if arc.sampled_pairs.is_empty() {
                // Never sampled: a pager-worded link to the source's own URL pattern.
                return target == arc.key.source;
            }
            match scores.get(&(layout, arc.key.url_pattern)) {
                Some((score, pairs)) if *pairs >= MINIMUM_PAIRS_FOR_CONNECTIVITY => {
                    let (sum, count) = mean_of_layout[&layout];
                    (*score >= 0.5 && *score >= sum / count as f64)
                        // A kind can mix pager links with links to other lists of the same
                        // spelling (a board's "jump to" list); pager-worded links whose pages
                        // nearly always share their list's distinctive text are still flipping.
                        || arc.same_list_share >= 0.8
                }
                _ => arc.same_list_share >= 0.5,
            }
        })
        .collect();
    let flipping = spread_over_layout(sitemap, flipping);
    (flipping, connectivity)
}

/// A kind of link that flips pages on one vertex of a layout flips pages on every vertex of
/// that layout: vertices of one layout are one kind of page under several URL spellings (a
/// thread's first page and its `?page=N` pages), and a pager sits in the same region on each.
/// The per-arc tests above can miss it on one of them: django-spirit 0.14.3 shows an
/// arrows-only pager whose "next" and "previous" icons have no text, and on the later pages of
/// a thread too few of its anchors read like a pager, though the same region on first pages
/// passed; the plain follow left there lost page 3 of 4-page threads as a continuation of
/// page 2 (at seed 7, 4 threads exported as pages [1, 2, 4] and [3]). The arc must still lead
/// into its own layout and not to copies of its page, as every flipping arc does.
fn spread_over_layout(sitemap: &Sitemap, mut flipping: Vec<bool>) -> Vec<bool> {
    let layout_of = |vertex: usize| sitemap.vertices[vertex].layout;
    let flipping_kinds: BTreeSet<(usize, UrlPatternId, LocationKey)> = sitemap
        .arcs
        .iter()
        .zip(&flipping)
        .filter(|(_, is_flipping)| **is_flipping)
        .map(|(arc, _)| {
            (
                layout_of(arc.key.source),
                arc.key.url_pattern,
                arc.key.location,
            )
        })
        .collect();
    for (arc, is_flipping) in sitemap.arcs.iter().zip(flipping.iter_mut()) {
        let layout = layout_of(arc.key.source);
        // An arc none of whose links was sampled has no target to check; the kind's URL
        // pattern and location vouch for it.
        if *is_flipping
            || arc.self_duplicate_share >= SELF_DUPLICATE_LIMIT
            || arc
                .main_target()
                .is_some_and(|target| layout_of(target) != layout)
        {
            continue;
        }
        *is_flipping = flipping_kinds.contains(&(layout, arc.key.url_pattern, arc.key.location));
    }
    flipping
}

/// Eq. 3 of the skeleton paper over the sampled pages joined by one group's links:
/// Σ Path(A,B)·Path(B,A) / Σ Path(A,B) over ordered pairs.
fn pair_connectivity(pairs: &BTreeSet<(usize, usize)>) -> f64 {
    let mut adjacency: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (source, target) in pairs {
        adjacency.entry(*source).or_default().push(*target);
    }
    let nodes: BTreeSet<usize> = pairs.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let reach: BTreeMap<usize, BTreeSet<usize>> = nodes
        .iter()
        .map(|start| {
            let mut seen = BTreeSet::new();
            let mut stack = vec![*start];
            while let Some(node) = stack.pop() {
                for next in adjacency.get(&node).into_iter().flatten() {
                    if seen.insert(*next) {
                        stack.push(*next);
                    }
                }
            }
            seen.remove(start);
            (*start, seen)
        })
        .collect();
    let mut one_way = 0usize;
    let mut both_ways = 0usize;
    for (start, reached) in &reach {
        for end in reached {
            one_way += 1;
            if reach[end].contains(start) {
                both_ways += 1;
            }
        }
    }
    both_ways as f64 / one_way.max(1) as f64
}
