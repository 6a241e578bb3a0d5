//! After selection: joining what the portal cannot reach, and keeping only what leads to threads.

use std::collections::{BTreeSet, HashSet};

use super::VertexVerdict;
use crate::sitemap::{Role, Sitemap};

/// Choosing in-links vertex by vertex can leave a cycle the portal does not reach (boards
/// reached from threads' breadcrumbs, threads from boards). While some vertex with a candidate
/// in-link is unreached, the candidate arc from a reached vertex with the most links into it is
/// added, as a directed spanning tree would.
pub(super) fn connect_to_portal(
    sitemap: &Sitemap,
    candidate: &[bool],
    selected: &mut BTreeSet<usize>,
) {
    let portal = sitemap.portal_vertex();
    loop {
        let mut reached: HashSet<usize> = HashSet::from([portal]);
        let mut changed = true;
        while changed {
            changed = false;
            for index in selected.iter() {
                let arc = &sitemap.arcs[*index];
                if reached.contains(&arc.key.source)
                    && let Some(target) = arc.main_target()
                {
                    changed |= reached.insert(target);
                }
            }
        }
        let best = sitemap
            .arcs
            .iter()
            .enumerate()
            .filter(|(index, arc)| {
                candidate[*index]
                    && reached.contains(&arc.key.source)
                    && arc
                        .main_target()
                        .is_some_and(|target| !reached.contains(&target))
            })
            .max_by_key(|(index, arc)| (arc.target_urls.len(), std::cmp::Reverse(*index)));
        match best {
            Some((index, _)) => {
                selected.insert(index);
            }
            None => break,
        }
    }
}

/// Keeps only what leads to threads. The *goals* are the thread vertices and the primary thread
/// lists. A vertex that is not a goal is kept only when the goals reachable from the portal
/// through selected arcs shrink without it; vertices are tried deepest first, so of two routes
/// to the same goals the shallower one stays. Goals the portal cannot reach are marked
/// unreached.
pub(super) fn prune_toward_goals(
    sitemap: &Sitemap,
    primary: &HashSet<usize>,
    targets: &[Option<usize>],
    copied_edges: &[(usize, usize)],
    verdicts: &mut [VertexVerdict],
    selected: &mut BTreeSet<usize>,
) {
    let portal = sitemap.portal_vertex();
    let goals: HashSet<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| {
            (vertex.role == Role::Thread || primary.contains(&vertex.id))
                && verdicts[vertex.id] == VertexVerdict::Kept
        })
        .map(|vertex| vertex.id)
        .collect();
    let edges: Vec<(usize, usize)> = selected
        .iter()
        .filter_map(|index| {
            let arc = &sitemap.arcs[*index];
            let target = targets[*index]?;
            (verdicts[arc.key.source] == VertexVerdict::Kept
                && verdicts[target] == VertexVerdict::Kept)
                .then_some((arc.key.source, target))
        })
        .chain(copied_edges.iter().copied().filter(|(source, target)| {
            verdicts[*source] == VertexVerdict::Kept && verdicts[*target] == VertexVerdict::Kept
        }))
        .collect();
    let reach = |excluded: &HashSet<usize>| -> HashSet<usize> {
        let mut reached: HashSet<usize> = HashSet::from([portal]);
        let mut frontier = vec![portal];
        while let Some(vertex) = frontier.pop() {
            for (source, target) in &edges {
                if *source == vertex && !excluded.contains(target) && reached.insert(*target) {
                    frontier.push(*target);
                }
            }
        }
        reached
    };
    let mut excluded: HashSet<usize> = HashSet::new();
    let goals_reached = |reached: &HashSet<usize>| -> usize {
        goals.iter().filter(|goal| reached.contains(goal)).count()
    };
    let wanted = goals_reached(&reach(&excluded));
    let mut others: Vec<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| {
            vertex.id != portal
                && !goals.contains(&vertex.id)
                && verdicts[vertex.id] == VertexVerdict::Kept
        })
        .map(|vertex| vertex.id)
        .collect();
    others.sort_by(|a, b| {
        sitemap.vertices[*b]
            .depth
            .total_cmp(&sitemap.vertices[*a].depth)
            .then(b.cmp(a))
    });
    for vertex in others {
        excluded.insert(vertex);
        if goals_reached(&reach(&excluded)) < wanted {
            excluded.remove(&vertex);
        }
    }
    let reached = reach(&excluded);
    selected.retain(|index| {
        let arc = &sitemap.arcs[*index];
        reached.contains(&arc.key.source)
            && targets[*index].is_some_and(|target| reached.contains(&target) && target != portal)
    });
    for vertex in &sitemap.vertices {
        if verdicts[vertex.id] != VertexVerdict::Kept {
            continue;
        }
        if excluded.contains(&vertex.id) {
            verdicts[vertex.id] = VertexVerdict::LeadsNowhere;
        } else if !reached.contains(&vertex.id) {
            verdicts[vertex.id] = VertexVerdict::Unreached;
        }
    }
}
