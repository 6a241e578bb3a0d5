//! `trawl plan graph`: the sitemap drawn, with the chosen traversal highlighted.
//!
//! DOT is the format people feed to Graphviz; SVG is drawn here without Graphviz so it works on
//! a machine that has none: vertices in rows by depth (the sampling level iRobot approximates
//! depth with), arcs as straight lines, followed arcs thick and coloured, page-flipping loops as
//! loops. Several arcs between one pair of vertices are drawn as one line labelled with their
//! count, so the picture stays readable on forums with dozens of link kinds.

use std::collections::BTreeMap;
use std::fmt::Write;

use trawl_learn::plan::Plan;
use trawl_learn::traverse::VertexVerdict;
use trawl_model::escape_html as escape;

fn vertex_label(plan: &Plan, vertex: usize) -> String {
    let entry = &plan.vertices[vertex];
    let pattern = plan
        .url_patterns
        .iter()
        .find(|pattern| pattern.id == entry.url_pattern)
        .map(|pattern| pattern.pattern.as_str())
        .unwrap_or("?");
    format!(
        "{} {} ({} pages)\n{}",
        entry.id,
        entry.role.name(),
        entry.sampled_pages,
        pattern
    )
}

/// The sitemap in Graphviz DOT.
pub fn dot(plan: &Plan) -> String {
    let mut out = String::from(
        "digraph sitemap {\n  rankdir=TB;\n  node [shape=box, fontname=\"sans-serif\", fontsize=10];\n",
    );
    for vertex in &plan.vertices {
        let kept = vertex.verdict == VertexVerdict::Kept;
        let _ = writeln!(
            out,
            "  v{} [label={:?}, style={}, color={}];",
            vertex.id,
            vertex_label(plan, vertex.id),
            if kept { "\"bold\"" } else { "\"dashed\"" },
            if kept { "\"#1f6feb\"" } else { "\"#999999\"" },
        );
    }
    for edge in plan.arc_bundles() {
        let label = if edge.arcs > 1 {
            format!(", label=\"{}/{}\"", edge.followed, edge.arcs)
        } else {
            String::new()
        };
        let style = if edge.flipping {
            "color=\"#d62728\", penwidth=2.5, style=bold"
        } else if edge.followed > 0 {
            "color=\"#1f6feb\", penwidth=2.5"
        } else {
            "color=\"#bbbbbb\""
        };
        let _ = writeln!(
            out,
            "  v{} -> v{} [{style}{label}];",
            edge.source, edge.target
        );
    }
    out.push_str("}\n");
    out
}

/// The sitemap as a standalone SVG picture.
pub fn svg(plan: &Plan) -> String {
    const BOX_WIDTH: f64 = 230.0;
    const BOX_HEIGHT: f64 = 44.0;
    const COLUMN_GAP: f64 = 40.0;
    const ROW_GAP: f64 = 90.0;
    // Rows by rounded depth; within a row, vertices in id order.
    let mut rows: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
    for vertex in &plan.vertices {
        rows.entry(vertex.depth.round() as i64)
            .or_default()
            .push(vertex.id);
    }
    let widest = rows.values().map(Vec::len).max().unwrap_or(1) as f64;
    let width = widest * (BOX_WIDTH + COLUMN_GAP) + COLUMN_GAP;
    let height = rows.len() as f64 * (BOX_HEIGHT + ROW_GAP) + ROW_GAP;
    let mut position: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    for (row_index, vertices) in rows.values().enumerate() {
        let row_width = vertices.len() as f64 * (BOX_WIDTH + COLUMN_GAP) - COLUMN_GAP;
        let left = (width - row_width) / 2.0;
        for (column, vertex) in vertices.iter().enumerate() {
            position.insert(
                *vertex,
                (
                    left + column as f64 * (BOX_WIDTH + COLUMN_GAP),
                    ROW_GAP / 2.0 + row_index as f64 * (BOX_HEIGHT + ROW_GAP),
                ),
            );
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    out.push_str("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"context-stroke\"/></marker></defs>\n");
    let _ = writeln!(
        out,
        "<text x=\"10\" y=\"18\" font-size=\"13\">sitemap of {} — blue: followed, red: page flipping, grey: skipped</text>",
        escape(&plan.portal)
    );
    // Edges under the boxes.
    for edge in plan.arc_bundles() {
        let (Some(&(sx, sy)), Some(&(tx, ty))) =
            (position.get(&edge.source), position.get(&edge.target))
        else {
            continue;
        };
        let (colour, stroke) = if edge.flipping {
            ("#d62728", 2.5)
        } else if edge.followed > 0 {
            ("#1f6feb", 2.5)
        } else {
            ("#cccccc", 1.0)
        };
        if edge.source == edge.target {
            let (x, y) = (sx + BOX_WIDTH, sy + BOX_HEIGHT / 2.0);
            let _ = writeln!(
                out,
                "<path d=\"M {x:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {x:.1} {:.1}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{stroke}\" marker-end=\"url(#arrow)\"/>",
                y - 8.0,
                x + 35.0,
                y - 30.0,
                x + 35.0,
                y + 30.0,
                y + 8.0
            );
            continue;
        }
        let (x1, y1) = (sx + BOX_WIDTH / 2.0, sy + BOX_HEIGHT / 2.0);
        let (x2, y2) = (tx + BOX_WIDTH / 2.0, ty + BOX_HEIGHT / 2.0);
        // End the line at the target box's border so the arrow head shows.
        let (dx, dy) = (x2 - x1, y2 - y1);
        let scale = {
            let sx_limit = if dx.abs() > 0.0 {
                (BOX_WIDTH / 2.0) / dx.abs()
            } else {
                f64::INFINITY
            };
            let sy_limit = if dy.abs() > 0.0 {
                (BOX_HEIGHT / 2.0) / dy.abs()
            } else {
                f64::INFINITY
            };
            sx_limit.min(sy_limit).min(1.0)
        };
        let _ = writeln!(
            out,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" stroke-width=\"{stroke}\" marker-end=\"url(#arrow)\"/>",
            x2 - dx * scale,
            y2 - dy * scale
        );
    }
    for vertex in &plan.vertices {
        let (x, y) = position[&vertex.id];
        let kept = vertex.verdict == VertexVerdict::Kept;
        let label = vertex_label(plan, vertex.id);
        let mut lines = label.lines();
        let _ = writeln!(
            out,
            "<g><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{BOX_WIDTH}\" height=\"{BOX_HEIGHT}\" rx=\"5\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/><text x=\"{:.1}\" y=\"{:.1}\">{}</text><text x=\"{:.1}\" y=\"{:.1}\" fill=\"#555\">{}</text></g>",
            if kept { "#eef4ff" } else { "#f6f6f6" },
            if kept { "#1f6feb" } else { "#aaaaaa" },
            if kept { 2 } else { 1 },
            if kept {
                ""
            } else {
                " stroke-dasharray=\"4 3\""
            },
            x + 6.0,
            y + 17.0,
            escape(lines.next().unwrap_or("")),
            x + 6.0,
            y + 34.0,
            escape(&shorten(lines.next().unwrap_or(""), 36)),
        );
    }
    out.push_str("</svg>\n");
    out
}

fn shorten(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        text.to_string()
    } else {
        let kept: String = text.chars().take(limit - 1).collect();
        format!("{kept}…")
    }
}
