//! The plan's sitemap drawn as SVG from the server's layout ([`crate::layout`]).
//!
//! Each vertex is a link to its own view, focusable with the keyboard (the console's script
//! moves between vertices with the arrow keys). Arcs with a followed decision are drawn thick
//! and blue, page-flipping arcs (followed keeping the relationship) red; skipped arcs thin and
//! grey. A vertex the traversal reaches has a solid border, one it does not a dashed grey one.
//! Several arcs between one pair of vertices are one line whose tooltip counts them, so the
//! picture stays readable for forums with dozens of link kinds; a vertex's view lists them all.

use std::fmt::Write;

use trawl_learn::plan::Plan;
use trawl_learn::plan_arcs::ArcBundle;

use crate::html::escape;
use crate::layout::{
    GraphLayout, LINE_HEIGHT, LOOP_ROOM, MAX_LABEL_CHARACTERS, NodeInput, lay_out, shorten,
};
use crate::plan_edit::reached_vertices;

/// The plan's arcs merged by (source, target) ([`Plan::arc_bundles`]), without those whose
/// target names no vertex of the plan (a hand edit can write one): there is no box to draw
/// them to.
pub fn edges(plan: &Plan) -> Vec<ArcBundle> {
    plan.arc_bundles()
        .into_iter()
        .filter(|bundle| bundle.target < plan.vertices.len())
        .collect()
}

/// The two label lines of a vertex: id, role and pages; its URL pattern.
pub fn vertex_lines(plan: &Plan, vertex: usize) -> Vec<String> {
    let entry = &plan.vertices[vertex];
    let pattern = plan
        .url_patterns
        .iter()
        .find(|pattern| pattern.id == entry.url_pattern)
        .map_or("?", |pattern| pattern.pattern.as_str());
    vec![
        shorten(
            &format!(
                "{} {} · {} pages",
                entry.id,
                entry.role.name(),
                entry.sampled_pages
            ),
            MAX_LABEL_CHARACTERS,
        ),
        shorten(pattern, MAX_LABEL_CHARACTERS),
    ]
}

/// The layout of the plan's sitemap.
pub fn plan_layout(plan: &Plan) -> GraphLayout {
    let nodes: Vec<NodeInput> = plan
        .vertices
        .iter()
        .map(|vertex| NodeInput {
            lines: vertex_lines(plan, vertex.id),
            pages: vertex.sampled_pages,
        })
        .collect();
    let edges: Vec<(usize, usize)> = edges(plan)
        .iter()
        .map(|edge| (edge.source, edge.target))
        .collect();
    lay_out(&nodes, &edges)
}

/// The SVG picture; a vertex links to `vertex_href` of its number.
pub fn svg(plan: &Plan, vertex_href: &dyn Fn(usize) -> String) -> String {
    let layout = plan_layout(plan);
    let reached = reached_vertices(plan);
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sitemap\" role=\"img\" \
         aria-label=\"the plan's sitemap\" width=\"{:.0}\" height=\"{:.0}\" \
         viewBox=\"0 0 {:.0} {:.0}\" font-family=\"monospace\" font-size=\"12\">",
        layout.width, layout.height, layout.width, layout.height
    );
    out.push_str(
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" \
         markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">\
         <path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"context-stroke\"/></marker></defs>",
    );
    for edge in edges(plan) {
        let class = if edge.flipping {
            "arc flipping"
        } else if edge.followed > 0 {
            "arc followed"
        } else {
            "arc skipped"
        };
        let title = format!(
            "{} → {}: {} arc{}, {} followed{}",
            edge.source,
            edge.target,
            edge.arcs,
            if edge.arcs == 1 { "" } else { "s" },
            edge.followed,
            if edge.flipping { ", page flipping" } else { "" }
        );
        let source = layout.nodes[edge.source].frame;
        let target = layout.nodes[edge.target].frame;
        let path = if edge.source == edge.target {
            // A loop in the room kept right of the box: the page-flipping mark.
            let x = source.x + source.width;
            let (top, bottom) = (source.y + 6.0, source.y + source.height - 6.0);
            let reach = LOOP_ROOM - 4.0;
            format!(
                "M {x:.1} {top:.1} C {:.1} {top:.1}, {:.1} {bottom:.1}, {x:.1} {bottom:.1}",
                x + reach,
                x + reach
            )
        } else {
            let (source_x, source_y, target_x, target_y) = if target.y > source.y + source.height {
                (
                    source.x + source.width / 2.0,
                    source.y + source.height,
                    target.x + target.width / 2.0,
                    target.y,
                )
            } else if target.y + target.height < source.y {
                (
                    source.x + source.width / 2.0,
                    source.y,
                    target.x + target.width / 2.0,
                    target.y + target.height,
                )
            } else if target.x > source.x {
                (
                    source.x + source.width + LOOP_ROOM,
                    source.y + source.height / 2.0,
                    target.x,
                    target.y + target.height / 2.0,
                )
            } else {
                (
                    source.x,
                    source.y + source.height / 2.0,
                    target.x + target.width + LOOP_ROOM,
                    target.y + target.height / 2.0,
                )
            };
            let middle_y = (source_y + target_y) / 2.0;
            format!(
                "M {source_x:.1} {source_y:.1} C {source_x:.1} {middle_y:.1}, {target_x:.1} \
                 {middle_y:.1}, {target_x:.1} {target_y:.1}"
            )
        };
        let _ = write!(
            out,
            "<path class=\"{class}\" d=\"{path}\" fill=\"none\" marker-end=\"url(#arrow)\">\
             <title>{}</title></path>",
            escape(&title)
        );
    }
    for vertex in &plan.vertices {
        let placed = &layout.nodes[vertex.id];
        let frame = placed.frame;
        let class = if reached[vertex.id] {
            "vertex traversed"
        } else {
            "vertex untraversed"
        };
        let _ = write!(
            out,
            "<a href=\"{}\" class=\"{class}\" data-vertex=\"{}\" tabindex=\"0\">\
             <title>vertex {} ({}, {}): {} sampled pages</title>\
             <rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"5\"/>",
            escape(&vertex_href(vertex.id)),
            vertex.id,
            vertex.id,
            vertex.role.name(),
            serde_json::to_value(vertex.verdict)
                .ok()
                .and_then(|value| value.as_str().map(str::to_string))
                .unwrap_or_default(),
            vertex.sampled_pages,
            frame.x,
            frame.y,
            frame.width,
            frame.height
        );
        for (line_index, line) in vertex_lines(plan, vertex.id).iter().enumerate() {
            let _ = write!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\"{}>{}</text>",
                placed.label.x,
                placed.label.y + (line_index as f64 + 1.0) * LINE_HEIGHT - 4.0,
                if line_index > 0 {
                    " class=\"pattern\""
                } else {
                    ""
                },
                escape(line)
            );
        }
        out.push_str("</a>");
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan_edit::tests::plan;

    #[test]
    fn arcs_between_one_pair_are_one_edge() {
        let plan = plan(
            &[("portal", 1), ("thread-list", 5), ("thread", 9)],
            &[
                (0, 1, "follow"),
                (0, 1, "skip"),
                (1, 1, "follow-keep-relation"),
                (1, 2, "skip"),
            ],
        );
        let expected = vec![
            ArcBundle {
                source: 0,
                target: 1,
                arcs: 2,
                followed: 1,
                flipping: false,
            },
            ArcBundle {
                source: 1,
                target: 1,
                arcs: 1,
                followed: 1,
                flipping: true,
            },
            ArcBundle {
                source: 1,
                target: 2,
                arcs: 1,
                followed: 0,
                flipping: false,
            },
        ];
        assert_eq!(edges(&plan), expected);
        let picture = svg(&plan, &|vertex| format!("vertex/{vertex}"));
        // The thread is not reached: its arc is skipped.
        assert!(picture.contains("href=\"vertex/2\" class=\"vertex untraversed\""));
        assert!(picture.contains("href=\"vertex/1\" class=\"vertex traversed\""));
        assert_eq!(picture.matches("class=\"arc flipping\"").count(), 1);
        assert_eq!(picture.matches("class=\"arc skipped\"").count(), 1);
        assert_eq!(picture.matches("class=\"arc followed\"").count(), 1);
    }

    #[test]
    fn an_arc_to_a_vertex_the_plan_lacks_is_not_drawn() {
        let plan = plan(
            &[("portal", 1), ("thread-list", 5)],
            &[(0, 1, "follow"), (0, 7, "follow")],
        );
        let targets: Vec<usize> = edges(&plan).iter().map(|edge| edge.target).collect();
        assert_eq!(targets, vec![1]);
        assert_eq!(
            svg(&plan, &|vertex| format!("vertex/{vertex}"))
                .matches("class=\"arc followed\"")
                .count(),
            1
        );
    }
}
