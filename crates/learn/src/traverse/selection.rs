//! Arc selection: the skeleton paper's branch-and-bound search (§5.1) and iRobot's directed
//! spanning tree (§5.4).

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use super::{COVERAGE_SLACK, INFORMATIVENESS_SLACK, SEARCH_BUDGET};
use crate::duplicates::entropy_informativeness;
use crate::sitemap::Sitemap;

/// The skeleton paper's search, vertex by vertex in depth order.
pub(super) fn skeleton_links(sitemap: &Sitemap, candidate: &[bool]) -> BTreeSet<usize> {
    let mut order: Vec<usize> = (0..sitemap.vertices.len()).collect();
    order.sort_by(|a, b| {
        let (va, vb) = (&sitemap.vertices[*a], &sitemap.vertices[*b]);
        va.depth
            .total_cmp(&vb.depth)
            .then(vb.informativeness.total_cmp(&va.informativeness))
            .then(a.cmp(b))
    });
    let portal = sitemap.portal_vertex();
    let edges: Vec<(usize, usize)> = sitemap
        .arcs
        .iter()
        .enumerate()
        .filter(|(index, _)| candidate[*index])
        .filter_map(|(_, arc)| Some((arc.key.source, arc.main_target()?)))
        .collect();
    // The vertices the portal reaches through candidate arcs without passing through `avoided`.
    let reachable_without = |avoided: usize| -> HashSet<usize> {
        let mut reached: HashSet<usize> = HashSet::from([portal]);
        let mut frontier = vec![portal];
        while let Some(vertex) = frontier.pop() {
            for (source, target) in &edges {
                if *source == vertex && *target != avoided && reached.insert(*target) {
                    frontier.push(*target);
                }
            }
        }
        reached
    };
    let mut selected = BTreeSet::new();
    for vertex in order {
        if vertex == portal {
            continue;
        }
        // The paper takes in-links from processed (shallower) vertices only, so that a shallow
        // vertex is not reached only through deeper ones (boards through the breadcrumbs of
        // threads). Sampled depth is a noisy order, though (later pages of a board list are
        // deeper than the threads on its first page), so trawl takes in-links from every vertex
        // the portal reaches without passing through the vertex itself, plus its own loops.
        let independent = reachable_without(vertex);
        let links: Vec<usize> = sitemap
            .arcs
            .iter()
            .enumerate()
            .filter(|(index, arc)| {
                candidate[*index]
                    && arc.main_target() == Some(vertex)
                    && (arc.key.source == vertex || independent.contains(&arc.key.source))
            })
            .map(|(index, _)| index)
            .collect();
        let considered = shallow_first(sitemap, vertex, links);
        selected.extend(best_link_set(sitemap, vertex, &considered));
    }
    selected
}

/// The in-links of `vertex` to search among: those from shallower vertices (and its own loops)
/// when they point to nearly every URL all its in-links point to, else all of them.
///
/// Coverage counts distinct target URLs over the whole sample, and a deep vertex's links can
/// cover a shallow one's pages better than the shallow route does: every thread's breadcrumb
/// names its board, so the threads' breadcrumb arc alone "covers" all boards, while the portal
/// splits its board list over two regions. But the crawler reaches a thread only through some
/// board, so boards fed by breadcrumbs are reached only from the few threads another route
/// brings (a profile's or the portal's "latest" box): on the simulator's Discourse seed 1 that
/// plan fetched one board of five and 49.7 % of the valuable pages, and on vBulletin seed 1 the
/// boards hung off single-post views. The skeleton paper takes in-links from shallower vertices
/// only; trawl does so whenever they lose less than [`COVERAGE_SLACK`] of the URLs, and falls
/// back to every in-link when a vertex's pages are mostly linked from deeper or equally deep
/// ones (the later pages of a board list the threads its first page does not).
fn shallow_first(sitemap: &Sitemap, vertex: usize, links: Vec<usize>) -> Vec<usize> {
    let depth = sitemap.vertices[vertex].depth;
    let shallow: Vec<usize> = links
        .iter()
        .copied()
        .filter(|arc| {
            let source = sitemap.arcs[*arc].key.source;
            source == vertex || sitemap.vertices[source].depth < depth
        })
        .collect();
    let urls_of = |arcs: &[usize]| -> usize {
        arcs.iter()
            .flat_map(|arc| sitemap.arcs[*arc].target_urls.iter().map(String::as_str))
            .collect::<BTreeSet<&str>>()
            .len()
    };
    if !shallow.is_empty() && urls_of(&shallow) as f64 >= COVERAGE_SLACK * urls_of(&links) as f64 {
        shallow
    } else {
        links
    }
}

/// GetSkeletonLinks: the smallest subset of `links` whose coverage and informativeness stay
/// within the slack of the best found, by branch and bound.
fn best_link_set(sitemap: &Sitemap, vertex: usize, links: &[usize]) -> Vec<usize> {
    if links.is_empty() {
        return Vec::new();
    }
    // Coverage counts the distinct URLs the links point to, sampled or not: a sample holds a
    // few hundred pages but tens of thousands of links, so URL coverage is far less noisy than
    // counting sampled target pages. Informativeness needs content, so it counts the sampled
    // target pages and their duplicate groups.
    // URLs are numbered once, and each of the search's evaluations counts the union of the
    // chosen links' targets by marking numbers with the evaluation's stamp. Building a set of
    // the URL strings per evaluation, as this did first, was most of learning's time when a
    // vertex has many in-links of thousands of URLs each (the simulator's tablecraft seed 2,
    // 300 samples: 60 % of a whole `trawl bench learn` run, about two seconds).
    let mut url_numbers: HashMap<&str, usize> = HashMap::new();
    let target_urls: Vec<Vec<usize>> = links
        .iter()
        .map(|arc| {
            sorted_distinct(
                sitemap.arcs[*arc]
                    .target_urls
                    .iter()
                    .map(|url| {
                        let next = url_numbers.len();
                        *url_numbers.entry(url.as_str()).or_insert(next)
                    })
                    .collect(),
            )
        })
        .collect();
    let all_urls = url_numbers.len();
    // The pages of `vertex` each link reaches, as sample indices.
    let reached: Vec<Vec<usize>> = links
        .iter()
        .map(|arc| {
            sorted_distinct(
                sitemap.arcs[*arc]
                    .sampled_pairs
                    .iter()
                    .map(|(_, target)| *target)
                    .filter(|target| sitemap.vertex_of_page[*target] == vertex)
                    .collect(),
            )
        })
        .collect();
    let marks = RefCell::new(EvaluationMarks {
        stamp: 0,
        urls: vec![0; all_urls],
        pages: vec![0; sitemap.pages.len()],
        groups: Vec::new(),
    });
    let evaluate = |chosen: &[bool]| -> (f64, f64) {
        let mut marks = marks.borrow_mut();
        let marks = &mut *marks;
        marks.stamp += 1;
        marks.groups.clear();
        let mut urls = 0usize;
        for ((numbers, pages), on) in target_urls.iter().zip(&reached).zip(chosen) {
            if !*on {
                continue;
            }
            for number in numbers {
                if marks.urls[*number] != marks.stamp {
                    marks.urls[*number] = marks.stamp;
                    urls += 1;
                }
            }
            for page in pages {
                if marks.pages[*page] != marks.stamp {
                    marks.pages[*page] = marks.stamp;
                    marks.groups.push(sitemap.duplicate_groups.group_of(*page));
                }
            }
        }
        let coverage = urls as f64 / all_urls.max(1) as f64;
        let informativeness = if marks.groups.is_empty() {
            0.0
        } else {
            entropy_informativeness(marks.groups.iter().copied())
        };
        (coverage, informativeness)
    };
    // Links are tried in order of how much they reach alone, so good sets are found early and
    // bound the rest of the search.
    let mut order: Vec<usize> = (0..links.len()).collect();
    order.sort_by_key(|index| std::cmp::Reverse(target_urls[*index].len()));
    let all_on = vec![true; links.len()];
    let (best_coverage, best_informativeness) = evaluate(&all_on);
    let mut search = Search {
        order,
        evaluate: &evaluate,
        best_coverage,
        best_informativeness,
        best: all_on.clone(),
        best_size: links.len(),
        budget: SEARCH_BUDGET,
    };
    let mut chosen = vec![false; links.len()];
    search.explore(0, &mut chosen);
    search
        .best
        .iter()
        .zip(links)
        .filter(|(on, _)| **on)
        .map(|(_, arc)| *arc)
        .collect()
}

/// `numbers` sorted, each once.
fn sorted_distinct(mut numbers: Vec<usize>) -> Vec<usize> {
    numbers.sort_unstable();
    numbers.dedup();
    numbers
}

/// What [`best_link_set`]'s evaluations mark: a URL or page counts once per evaluation when its
/// mark is not yet the evaluation's stamp.
struct EvaluationMarks {
    stamp: u32,
    urls: Vec<u32>,
    pages: Vec<u32>,
    groups: Vec<usize>,
}

struct Search<'a> {
    order: Vec<usize>,
    evaluate: &'a dyn Fn(&[bool]) -> (f64, f64),
    best_coverage: f64,
    best_informativeness: f64,
    best: Vec<bool>,
    best_size: usize,
    budget: usize,
}

impl Search<'_> {
    fn explore(&mut self, depth: usize, chosen: &mut Vec<bool>) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let size = chosen.iter().filter(|on| **on).count();
        if size >= self.best_size {
            return; // Cannot beat the best: sets only grow below this node.
        }
        let (coverage, informativeness) = (self.evaluate)(chosen);
        if size > 0
            && coverage >= COVERAGE_SLACK * self.best_coverage
            && informativeness >= INFORMATIVENESS_SLACK * self.best_informativeness
        {
            self.best = chosen.clone();
            self.best_size = size;
            return;
        }
        if depth == self.order.len() {
            return;
        }
        let link = self.order[depth];
        // Select first: the order puts far-reaching links first, so selecting them finds small
        // acceptable sets early.
        chosen[link] = true;
        self.explore(depth + 1, chosen);
        chosen[link] = false;
        self.explore(depth + 1, chosen);
    }
}

/// iRobot's directed spanning tree: from the portal, repeatedly add the cheapest arc from a
/// vertex in the tree to one outside, cost = target depth, ties to the more informative target.
pub(super) fn spanning_tree(
    sitemap: &Sitemap,
    candidate: &[bool],
    flipping: &[bool],
) -> BTreeSet<usize> {
    let mut in_tree: HashSet<usize> = HashSet::from([sitemap.portal_vertex()]);
    let mut selected = BTreeSet::new();
    loop {
        let best = sitemap
            .arcs
            .iter()
            .enumerate()
            .filter(|(index, arc)| {
                candidate[*index] && !flipping[*index] && in_tree.contains(&arc.key.source)
            })
            .filter_map(|(index, arc)| {
                let target = arc.main_target()?;
                (!in_tree.contains(&target)).then_some((index, target))
            })
            .min_by(|(index_a, a), (index_b, b)| {
                let (va, vb) = (&sitemap.vertices[*a], &sitemap.vertices[*b]);
                va.depth
                    .total_cmp(&vb.depth)
                    .then(vb.informativeness.total_cmp(&va.informativeness))
                    .then(
                        sitemap.arcs[*index_b]
                            .links
                            .cmp(&sitemap.arcs[*index_a].links),
                    )
                    .then(index_a.cmp(index_b))
            });
        let Some((index, target)) = best else {
            break;
        };
        selected.insert(index);
        in_tree.insert(target);
    }
    selected
}

/// Vertices joined by page-flipping links hold pages of the same lists (a board's first pages
/// and its later ones), which show their records in the same regions; a kind of link followed
/// from one is followed from the other. The skeleton search picks in-links by the URLs they
/// cover in the sample, and when the later pages' vertex holds sampled copies of first pages
/// (`&page=1`) it covers their threads too, so the first pages' own thread links were left
/// out; the crawler, which folds `&page=1` into the first page's URL, then never reached the
/// threads listed there. Measured on the simulator's vBulletin seed 1 with 500 samples: 74.6 %
/// coverage before, 96.2 % after.
///
/// The alike arc is followed even when none of its links was sampled, which leaves it without
/// a target of its own: the sample of a larger forum holds a few later pages of each list and
/// seldom fetches a thread first seen there, yet the crawler meets nearly every thread on a
/// later page. Such arcs take the target of the arc they copy, returned as a map from arc index
/// to vertex for the pruning that follows. Measured on the simulator's tablecraft seed 1 at
/// medium scale: the later board pages' thread links (97 in the sample, none fetched) were
/// skipped, and the crawl reached 15.3 % of the forum.
pub(super) fn follow_alike_on_pages_of_the_same_lists(
    sitemap: &Sitemap,
    flipping: &[bool],
    candidate: &[bool],
    selected: &mut BTreeSet<usize>,
) -> HashMap<usize, usize> {
    let mut inferred_targets = HashMap::new();
    let mut partners: HashMap<usize, BTreeSet<usize>> = HashMap::new();
    for (index, arc) in sitemap.arcs.iter().enumerate() {
        if !flipping[index] || !candidate[index] {
            continue;
        }
        let Some(target) = arc.main_target() else {
            continue;
        };
        if target != arc.key.source {
            partners.entry(arc.key.source).or_default().insert(target);
            partners.entry(target).or_default().insert(arc.key.source);
        }
    }
    if partners.is_empty() {
        return inferred_targets;
    }
    let index_of_key = sitemap.arc_index_by_key();
    let mut added = Vec::new();
    for index in selected.iter() {
        let key = sitemap.arcs[*index].key;
        for partner in partners.get(&key.source).into_iter().flatten() {
            let alike = crate::sitemap::ArcKey {
                source: *partner,
                ..key
            };
            let Some(other) = index_of_key.get(&alike) else {
                continue;
            };
            if candidate[*other] {
                added.push(*other);
            } else if sitemap.arcs[*other].main_target().is_none()
                && let Some(target) = sitemap.arcs[*index].main_target()
            {
                added.push(*other);
                inferred_targets.insert(*other, target);
            }
        }
    }
    selected.extend(added);
    inferred_targets
}
