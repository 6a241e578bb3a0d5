//! A plan's arcs merged by the pair of vertices they join, for drawing the sitemap.
//!
//! A forum page links its neighbours in many places (a title, a last-post link, a pager), so a
//! learned plan often holds several arcs between one pair of vertices. Pictures of the sitemap
//! (`trawl plan graph` and the web console) draw each pair as one line whose label or tooltip
//! counts them; this is the one place that merging is done, so both pictures agree.

use std::collections::BTreeMap;

use crate::plan::PlanArc;
use crate::traverse::Decision;

/// Every arc from one vertex to another, seen as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArcBundle {
    /// The vertex whose pages hold the links.
    pub source: usize,
    /// The vertex the links lead to.
    pub target: usize,
    /// How many arcs the bundle stands for.
    pub arcs: usize,
    /// Of them, how many are followed (with or without keeping the relationship).
    pub followed: usize,
    /// Whether one of them is followed keeping the relationship: a page-flipping link.
    pub flipping: bool,
}

/// The arcs merged by (source, target), in that order; arcs whose target is unknown (no sampled
/// link led anywhere) are left out, since there is no vertex to draw them to.
pub fn bundle_arcs(arcs: &[PlanArc]) -> Vec<ArcBundle> {
    let mut merged: BTreeMap<(usize, usize), ArcBundle> = BTreeMap::new();
    for arc in arcs {
        let Some(target) = arc.target else {
            continue;
        };
        let bundle = merged.entry((arc.source, target)).or_insert(ArcBundle {
            source: arc.source,
            target,
            arcs: 0,
            followed: 0,
            flipping: false,
        });
        bundle.arcs += 1;
        bundle.followed += usize::from(arc.decision != Decision::Skip);
        bundle.flipping |= arc.decision == Decision::FollowKeepRelation;
    }
    merged.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sitemap::LocationKey;

    fn arc(source: usize, target: Option<usize>, decision: Decision, path: u64) -> PlanArc {
        PlanArc {
            source,
            url_pattern: 0,
            location: LocationKey::Path { path },
            decision,
            target,
            links: 1,
            connectivity: None,
            examples: Vec::new(),
        }
    }

    fn check(arcs: &[PlanArc], expected: &[(usize, usize, usize, usize, bool)]) {
        let got: Vec<(usize, usize, usize, usize, bool)> = bundle_arcs(arcs)
            .into_iter()
            .map(|bundle| {
                (
                    bundle.source,
                    bundle.target,
                    bundle.arcs,
                    bundle.followed,
                    bundle.flipping,
                )
            })
            .collect();
        assert_eq!(got, expected, "{arcs:?}");
    }

    #[test]
    fn no_arcs_no_bundles() {
        check(&[], &[]);
    }

    #[test]
    fn arcs_between_one_pair_are_one_bundle() {
        check(
            &[
                arc(0, Some(1), Decision::Follow, 0),
                arc(0, Some(1), Decision::Skip, 1),
            ],
            &[(0, 1, 2, 1, false)],
        );
    }

    #[test]
    fn a_page_flipping_arc_marks_its_bundle() {
        check(
            &[
                arc(1, Some(1), Decision::Skip, 0),
                arc(1, Some(1), Decision::FollowKeepRelation, 1),
            ],
            &[(1, 1, 2, 1, true)],
        );
    }

    #[test]
    fn arcs_without_a_target_are_left_out() {
        check(
            &[
                arc(0, None, Decision::Follow, 0),
                arc(0, Some(2), Decision::Skip, 1),
            ],
            &[(0, 2, 1, 0, false)],
        );
    }

    #[test]
    fn bundles_come_in_source_then_target_order() {
        check(
            &[
                arc(2, Some(0), Decision::Skip, 0),
                arc(0, Some(3), Decision::Follow, 1),
                arc(0, Some(1), Decision::Follow, 2),
            ],
            &[
                (0, 1, 1, 1, false),
                (0, 3, 1, 1, false),
                (2, 0, 1, 0, false),
            ],
        );
    }

    #[test]
    fn targets_past_the_vertices_are_kept_for_the_caller_to_judge() {
        // The plan file does not check targets; a hand edit may name a vertex that does not
        // exist, and each picture decides what to do with it.
        check(
            &[arc(0, Some(99), Decision::Follow, 0)],
            &[(0, 99, 1, 1, false)],
        );
    }
}
