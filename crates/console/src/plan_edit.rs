//! Changing a plan's decisions from the console: what a change would do, and the plan it makes.
//!
//! A change is what a person editing the plan file by hand would do: flip the `decision` of
//! some arcs, nothing else. The changed plan goes through [`Plan::from_json`] on its own file
//! text before it is offered for saving, so the console can never store a plan that `trawl
//! crawl --plan` would refuse.
//!
//! What a change does is told by the sample, as the learner itself judged the plan: a vertex is
//! reached when a chain of followed arcs leads to it from the portal's vertex, and the pages a
//! plan reaches are the sampled pages of the vertices it reaches. The preview compares those
//! before and after, vertex by vertex.

use std::collections::VecDeque;

use trawl_learn::plan::{Plan, PlanError};
use trawl_learn::traverse::Decision;

/// A decision's name in forms and in the plan file.
pub fn decision_name(decision: Decision) -> &'static str {
    match decision {
        Decision::Skip => "skip",
        Decision::Follow => "follow",
        Decision::FollowKeepRelation => "follow-keep-relation",
    }
}

/// The decision a form names.
pub fn decision_from_name(name: &str) -> Option<Decision> {
    [
        Decision::Skip,
        Decision::Follow,
        Decision::FollowKeepRelation,
    ]
    .into_iter()
    .find(|decision| decision_name(*decision) == name)
}

/// The words a person reads for a decision.
pub fn decision_words(decision: Decision) -> &'static str {
    match decision {
        Decision::Skip => "skip",
        Decision::Follow => "follow",
        Decision::FollowKeepRelation => "follow and keep the relationship",
    }
}

/// One arc's new decision, the arc named by its place in the plan's arc list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecisionChange {
    /// The arc's index in `Plan::arcs`.
    pub arc: usize,
    /// What to do with its links from now on.
    pub decision: Decision,
}

/// Why a change cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    /// The change names an arc the plan does not have.
    #[error("the plan has no arc {arc}; it has {arcs}")]
    NoSuchArc {
        /// The arc asked for.
        arc: usize,
        /// How many arcs the plan has.
        arcs: usize,
    },
    /// The changed plan does not read back as a plan.
    #[error("the changed plan is not a valid plan")]
    Invalid(#[source] PlanError),
}

/// Which vertices a chain of followed arcs reaches from the portal's vertex.
pub fn reached_vertices(plan: &Plan) -> Vec<bool> {
    let mut reached = vec![false; plan.vertices.len()];
    let portal = plan.portal_vertex();
    if portal >= reached.len() {
        return reached;
    }
    reached[portal] = true;
    let mut queue = VecDeque::from([portal]);
    while let Some(vertex) = queue.pop_front() {
        for arc in &plan.arcs {
            if arc.source != vertex || arc.decision == Decision::Skip {
                continue;
            }
            if let Some(target) = arc.target
                && target < reached.len()
                && !reached[target]
            {
                reached[target] = true;
                queue.push_back(target);
            }
        }
    }
    reached
}

/// The plan with the changes made, checked by reading its file text back.
pub fn apply_changes(plan: &Plan, changes: &[DecisionChange]) -> Result<Plan, EditError> {
    let mut changed = plan.clone();
    for change in changes {
        let arcs = changed.arcs.len();
        let arc = changed
            .arcs
            .get_mut(change.arc)
            .ok_or(EditError::NoSuchArc {
                arc: change.arc,
                arcs,
            })?;
        arc.decision = change.decision;
    }
    Plan::from_json(&changed.to_json()).map_err(EditError::Invalid)
}

/// What a change does to the pages the plan reaches, by the sample.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// Arcs whose decision the change alters: (arc, before, after).
    pub changed_arcs: Vec<(usize, Decision, Decision)>,
    /// Vertices reached after the change and not before.
    pub vertices_added: Vec<usize>,
    /// Vertices reached before and not after.
    pub vertices_removed: Vec<usize>,
    /// Sampled pages of the vertices reached before.
    pub pages_before: usize,
    /// Sampled pages of the vertices reached after.
    pub pages_after: usize,
}

impl Preview {
    /// Whether saving would change the plan at all.
    pub fn changes_anything(&self) -> bool {
        !self.changed_arcs.is_empty()
    }
}

/// Compares the plan before and after a change.
pub fn preview(before: &Plan, after: &Plan) -> Preview {
    let reached_before = reached_vertices(before);
    let reached_after = reached_vertices(after);
    let pages = |plan: &Plan, reached: &[bool]| -> usize {
        plan.vertices
            .iter()
            .filter(|vertex| reached[vertex.id])
            .map(|vertex| vertex.sampled_pages)
            .sum()
    };
    let changed_arcs = before
        .arcs
        .iter()
        .zip(&after.arcs)
        .enumerate()
        .filter(|(_, (old, new))| old.decision != new.decision)
        .map(|(index, (old, new))| (index, old.decision, new.decision))
        .collect();
    let vertices_where = |wanted_before: bool| -> Vec<usize> {
        (0..reached_before.len())
            .filter(|&vertex| {
                reached_before[vertex] == wanted_before && reached_after[vertex] != wanted_before
            })
            .collect()
    };
    Preview {
        changed_arcs,
        vertices_added: vertices_where(false),
        vertices_removed: vertices_where(true),
        pages_before: pages(before, &reached_before),
        pages_after: pages(after, &reached_after),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A plan file's text with the given vertices (role, sampled pages) and arcs (source,
    /// target, decision); every vertex and arc has its own URL pattern.
    pub(crate) fn plan_text(vertices: &[(&str, usize)], arcs: &[(usize, usize, &str)]) -> String {
        let patterns: Vec<serde_json::Value> = (0..vertices.len() + arcs.len())
            .map(|id| serde_json::json!({"id": id, "pattern": format!("/p{id}?id={{n}}")}))
            .collect();
        let vertices: Vec<serde_json::Value> = vertices
            .iter()
            .enumerate()
            .map(|(id, (role, pages))| {
                serde_json::json!({
                    "id": id, "role": role, "verdict": "kept", "layout": id, "url_pattern": id,
                    "sampled_pages": pages, "unique_pages": pages, "depth": id as f64,
                    "average_size": 1000.0, "informativeness": 0.5,
                    "entropy_informativeness": 0.5,
                    "examples": [format!("http://f.test/p{id}?id=1")]
                })
            })
            .collect();
        let vertex_count = vertices.len();
        let arcs: Vec<serde_json::Value> = arcs
            .iter()
            .enumerate()
            .map(|(index, (source, target, decision))| {
                serde_json::json!({
                    "source": source, "url_pattern": vertex_count + index,
                    "location": {"path": {"path": format!("{:x}", index + 1)}},
                    "decision": decision, "target": target, "links": 3,
                    "connectivity": null, "examples": ["next"]
                })
            })
            .collect();
        serde_json::json!({
            "format_version": trawl_learn::plan::PLAN_FORMAT_VERSION,
            "portal": "http://f.test/",
            "sampled_pages": 10,
            "strategy": "skeleton",
            "url_patterns": patterns,
            "layout": {"patterns": [], "threshold": 1.0, "exemplars": []},
            "vertices": vertices,
            "arcs": arcs,
        })
        .to_string()
    }

    pub(crate) fn plan(vertices: &[(&str, usize)], arcs: &[(usize, usize, &str)]) -> Plan {
        Plan::from_json(&plan_text(vertices, arcs)).expect("a test plan reads")
    }

    /// A forum: portal 0 → board 1 (flipping onto itself) → thread 2 (flipping), and a member
    /// list 3 skipped from the portal.
    fn forum() -> Plan {
        plan(
            &[
                ("portal", 1),
                ("thread-list", 20),
                ("thread", 60),
                ("other", 9),
            ],
            &[
                (0, 1, "follow"),
                (1, 1, "follow-keep-relation"),
                (1, 2, "follow"),
                (2, 2, "follow-keep-relation"),
                (0, 3, "skip"),
            ],
        )
    }

    fn check(changes: &[(usize, &str)], added: &[usize], removed: &[usize], pages: (usize, usize)) {
        let before = forum();
        let changes: Vec<DecisionChange> = changes
            .iter()
            .map(|(arc, name)| DecisionChange {
                arc: *arc,
                decision: decision_from_name(name).unwrap(),
            })
            .collect();
        let after = apply_changes(&before, &changes).unwrap();
        let preview = preview(&before, &after);
        assert_eq!(preview.vertices_added, added, "{changes:?}");
        assert_eq!(preview.vertices_removed, removed, "{changes:?}");
        assert_eq!(
            (preview.pages_before, preview.pages_after),
            pages,
            "{changes:?}"
        );
        for change in &changes {
            assert_eq!(after.arcs[change.arc].decision, change.decision);
        }
    }

    #[test]
    fn a_change_shows_what_it_adds_and_removes() {
        check(&[], &[], &[], (81, 81));
        check(&[(4, "follow")], &[3], &[], (81, 90));
        check(&[(2, "skip")], &[], &[2], (81, 21));
        check(&[(0, "skip")], &[], &[1, 2], (81, 1));
        // Keeping the relationship reaches what following reaches.
        check(&[(2, "follow-keep-relation")], &[], &[], (81, 81));
        // A loop alone reaches nothing new.
        check(&[(1, "skip")], &[], &[], (81, 81));
        check(&[(0, "skip"), (4, "follow")], &[3], &[1, 2], (81, 10));
    }

    #[test]
    fn only_changed_arcs_are_listed() {
        let before = forum();
        let after = apply_changes(
            &before,
            &[
                DecisionChange {
                    arc: 1,
                    decision: Decision::FollowKeepRelation,
                },
                DecisionChange {
                    arc: 4,
                    decision: Decision::Follow,
                },
            ],
        )
        .unwrap();
        let preview = preview(&before, &after);
        assert_eq!(
            preview.changed_arcs,
            vec![(4, Decision::Skip, Decision::Follow)]
        );
        assert!(preview.changes_anything());
    }

    #[test]
    fn an_unknown_arc_is_refused() {
        let error = apply_changes(
            &forum(),
            &[DecisionChange {
                arc: 9,
                decision: Decision::Skip,
            }],
        )
        .unwrap_err();
        assert_eq!(error.to_string(), "the plan has no arc 9; it has 5");
    }

    #[test]
    fn decision_names_are_the_plan_files() {
        for decision in [
            Decision::Skip,
            Decision::Follow,
            Decision::FollowKeepRelation,
        ] {
            let in_file = serde_json::to_string(&decision).unwrap();
            assert_eq!(in_file, format!("\"{}\"", decision_name(decision)));
            assert_eq!(decision_from_name(decision_name(decision)), Some(decision));
        }
        assert_eq!(decision_from_name("maybe"), None);
    }
}
