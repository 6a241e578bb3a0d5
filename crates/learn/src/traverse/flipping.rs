//! Page-flipping links among the loop-backs of a layout (the skeleton paper, §5.2).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::{MINIMUM_PAIRS_FOR_CONNECTIVITY, SELF_DUPLICATE_LIMIT};

/// An arc whose links show no text is taken for page flipping from this many sampled pairs on:
/// one pair of pages of one list can be chance, two of two are a pattern. One pair is enough
/// when the second page links back to the first from the same place (see
/// [`linked_back_from_the_same_place`]).
const MINIMUM_PAIRS_FOR_WORDLESS: usize = 2;
/// A link stepping through a named series flips pages when at least this share of the pairs it
/// joins share their list's text, and this share of its source pages step to a page of their
/// own title (see [`find_page_flipping`]).
const SERIES_SHARED_SHARE: f64 = 0.5;
use crate::sitemap::{LocationKey, Role, Sitemap};
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
    // The highest title share among the series-stepping arcs from one vertex into one URL
    // pattern (see below).
    let mut best_series_title_share: HashMap<(usize, UrlPatternId), f64> = HashMap::new();
    for arc in &sitemap.arcs {
        if arc.series_step_share >= 0.5 && arc.sampled_pairs.len() >= MINIMUM_PAIRS_FOR_WORDLESS {
            let best = best_series_title_share
                .entry((arc.key.source, arc.key.url_pattern))
                .or_insert(0.0);
            *best = best.max(arc.same_title_source_share);
        }
    }
    let linked_back = links_back_by_place(sitemap);
    // Whether the pages an arc joins are pages of one list: two pairs or more, nearly all
    // sharing the list's distinctive text (`least_shared` of them), or one pair whose second
    // page links back to the first from the same place. The one pair is not asked to share
    // distinctive text: a sample holding many views of the one long board (its sort orders)
    // finds the board's name on most pages of the layout, where it distinguishes nothing (the
    // simulator's NodeBB seed 2 at day 10 from 150 samples).
    let one_list = |arc: &crate::sitemap::Arc, least_shared: f64| {
        (arc.sampled_pairs.len() >= MINIMUM_PAIRS_FOR_WORDLESS
            && arc.same_list_share >= least_shared)
            || linked_back_from_the_same_place(sitemap, &linked_back, arc)
    };
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
            //
            // A young forum, or a small sample, may hold a single pair: when only one board has
            // a second page, its `rel="next"` joins one pair in the whole sample. That pair is
            // enough when the second page links back to the first from the same place (its
            // `rel="prev"`), as a list's pages do and a page's unrelated icons seldom do; the
            // title test still tells a list's next page from the next thread. Before, the
            // cursor-paged boards of the simulator's NodeBB family crawled at day 10 of its
            // history (one board of five with a second page) kept no pager, and the board's
            // later pages were never fetched.
            if arc.wordless_links == arc.links {
                return one_list(arc, 0.8) && arc.same_title_share >= 0.8;
            }
            // A link stepping through a named series ("Thread Next" beside "Date Next" over a
            // mail archive's message, "Next topic »" under a thread) flips the pages of one list
            // only when most pages it joins share their list's distinctive text and their title
            // (a thread's subject, a reply's "Re: " aside), as links without words must: a
            // thread's next message does, the next topic does not (neighbouring threads share
            // their board's name, not their title). Before, mail archives' threads of one
            // message a page were never lists, and their relations were lost (0.24 % kept).
            //
            // Not every pair: an archive's thread steps run on past a thread's last message
            // into the next thread (MHonArc, pipermail), so a list of short threads joins many
            // pairs of two subjects (at seed 7 the real MHonArc's sample shares the title on
            // 78 % of its "Thread Next" pairs, and refusing it left 27 of 200 threads whole);
            // list assembly keeps those pairs apart by their titles (`trawl_crawl::lists`).
            // What is asked instead is that most source pages step to a neighbour of their own
            // title, which every message of a thread of two or more does. The next message by
            // date of a busy thread often shares the subject too (70 % of the pairs on the real
            // MHonArc, more than the thread steps on the simulator's seed 41), so of the series
            // stepping from one vertex into one URL pattern only the one whose source pages
            // most often step to their own subject is the list's.
            //
            // One pair answered from the same place is enough here too, for the reason given
            // above: "Older topics" on the only board with a second page, and "Newer topics"
            // on that page leading back.
            if arc.series_step_share >= 0.5 {
                return one_list(arc, SERIES_SHARED_SHARE)
                    && arc.same_title_source_share >= SERIES_SHARED_SHARE
                    && best_series_title_share
                        .get(&(arc.key.source, arc.key.url_pattern))
                        .is_none_or(|best| arc.same_title_source_share >= *best);
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

/// Every sampled link as (source page's group, target page's group, location), pages taken up to
/// near-duplication: what [`linked_back_from_the_same_place`] looks a link's way back up in.
fn links_back_by_place(sitemap: &Sitemap) -> HashSet<(usize, usize, LocationKey)> {
    let group = |page: usize| sitemap.duplicate_groups.group_of(page);
    sitemap
        .arcs
        .iter()
        .flat_map(|arc| {
            arc.sampled_pairs
                .iter()
                .map(move |(source, target)| (group(*source), group(*target), arc.key.location))
        })
        .collect()
}

/// Whether `arc` joins exactly one sampled pair of pages and the second page links back to the
/// first from the place the arc's links sit in: a list's "next" answered by the next page's
/// "previous" (`<link rel="next">` and `<link rel="prev">` in the head share their place, as
/// "Older topics" and "Newer topics" do in one pager bar). Two pairs need no such answer.
fn linked_back_from_the_same_place(
    sitemap: &Sitemap,
    linked_back: &HashSet<(usize, usize, LocationKey)>,
    arc: &crate::sitemap::Arc,
) -> bool {
    let [(source, target)] = arc.sampled_pairs.as_slice() else {
        return false;
    };
    let group = |page: usize| sitemap.duplicate_groups.group_of(page);
    group(*source) != group(*target)
        && linked_back.contains(&(group(*target), group(*source), arc.key.location))
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
///
/// The same holds between twin vertices, the pages of one URL pattern and role that fall into
/// two layouts: a mail archive's message that has follow-ups shows their list and one that has
/// none does not, so a thread's last messages are laid out apart from the others. Their "Thread
/// Prev" leads into the other layout, where it cannot be a loop-back; when the same link kind
/// loops back on the twin (one URL pattern, one location), it flips pages here too. Before,
/// the last messages of threads kept no list link, and a thread whose last two messages were
/// both leaves came out one message short (at seed 7, 40 threads of the simulator's archive).
fn spread_over_layout(sitemap: &Sitemap, mut flipping: Vec<bool>) -> Vec<bool> {
    // A kind lent within one layout can make a twin's kind, and the other way round, so the
    // lending goes on until it changes nothing (each round turns at least one arc, so it ends).
    while spread_once(sitemap, &mut flipping) {}
    flipping
}

/// One round of [`spread_over_layout`]; whether it turned any arc.
fn spread_once(sitemap: &Sitemap, flipping: &mut [bool]) -> bool {
    let layout_of = |vertex: usize| sitemap.vertices[vertex].layout;
    let vertex_kind = |vertex: usize| {
        let vertex = &sitemap.vertices[vertex];
        (vertex.url_pattern, vertex.role)
    };
    // Flipping kinds that loop from a vertex onto its own URL pattern, by the vertex's pattern
    // and role, the link's location.
    let twin_kinds: BTreeSet<(UrlPatternId, Role, LocationKey)> = sitemap
        .arcs
        .iter()
        .zip(flipping.iter())
        .filter(|(arc, is_flipping)| {
            **is_flipping && sitemap.vertices[arc.key.source].url_pattern == arc.key.url_pattern
        })
        .map(|(arc, _)| {
            let (pattern, role) = vertex_kind(arc.key.source);
            (pattern, role, arc.key.location)
        })
        .collect();
    let flipping_kinds: BTreeSet<(usize, UrlPatternId, LocationKey)> = sitemap
        .arcs
        .iter()
        .zip(flipping.iter())
        .filter(|(_, is_flipping)| **is_flipping)
        .map(|(arc, _)| {
            (
                layout_of(arc.key.source),
                arc.key.url_pattern,
                arc.key.location,
            )
        })
        .collect();
    let mut turned = false;
    for (arc, is_flipping) in sitemap.arcs.iter().zip(flipping.iter_mut()) {
        let layout = layout_of(arc.key.source);
        if *is_flipping || arc.self_duplicate_share >= SELF_DUPLICATE_LIMIT {
            continue;
        }
        let (pattern, role) = vertex_kind(arc.key.source);
        // A twin's loop-back kind: the arc leads from this vertex's URL pattern onto itself,
        // into a vertex of that pattern and role.
        let twin_flips = pattern == arc.key.url_pattern
            && twin_kinds.contains(&(pattern, role, arc.key.location))
            && arc
                .main_target()
                .is_none_or(|target| vertex_kind(target) == (pattern, role));
        // An arc none of whose links was sampled has no target to check; the kind's URL
        // pattern and location vouch for it.
        let within_layout = arc
            .main_target()
            .is_none_or(|target| layout_of(target) == layout)
            && flipping_kinds.contains(&(layout, arc.key.url_pattern, arc.key.location));
        if within_layout || twin_flips {
            *is_flipping = true;
            turned = true;
        }
    }
    turned
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
