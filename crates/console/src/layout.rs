//! The sitemap's graph laid out in layers, on the server, so the browser only draws boxes.
//!
//! The layout is a small Sugiyama-style one. Layers are the breadth-first distance from the
//! portal along the sitemap's arcs (the order a crawler meets the vertices in); vertices no arc
//! reaches from the portal share one last layer. Within a layer, vertices are ordered by the
//! mean position of the vertices that link to them in earlier layers (the barycentre), which
//! keeps most arcs short and uncrossed. A layer wider than [`MAX_PER_ROW`] vertices is folded
//! into several rows, so a forum with thirty kinds of pages one click from the portal still
//! fits a screen's width.
//!
//! Every box is as wide as its longest label line needs in the monospace font the SVG names,
//! plus room on its right for a page-flipping loop, and boxes in a row are packed side by side
//! with a gap: labels sit inside their own box and boxes never meet, so no two labels can
//! overlap whatever the plan. The tests check exactly that on the computed boxes. A box's
//! height grows with the logarithm of its sampled pages, which shows where the forum's bulk is
//! without letting one vertex of 300 pages dwarf the rest.

use std::collections::VecDeque;

/// Vertices in one row at most; a wider layer is folded.
pub const MAX_PER_ROW: usize = 6;
/// The width of one character of the SVG's 12-pixel monospace font: 0.6 em.
pub const CHARACTER_WIDTH: f64 = 7.2;
/// The height of one label line.
pub const LINE_HEIGHT: f64 = 16.0;
/// Characters a label line may hold before it is shortened.
pub const MAX_LABEL_CHARACTERS: usize = 34;
/// Padding between a box's border and its label.
const PADDING: f64 = 8.0;
/// Room kept right of every box for a page-flipping loop.
pub const LOOP_ROOM: f64 = 30.0;
const COLUMN_GAP: f64 = 24.0;
const ROW_GAP: f64 = 56.0;
const MARGIN: f64 = 20.0;

/// One vertex to place: its label lines and its size in pages.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeInput {
    /// The label, one entry a line, already shortened to [`MAX_LABEL_CHARACTERS`].
    pub lines: Vec<String>,
    /// Sampled pages.
    pub pages: usize,
}

/// A rectangle, top-left corner and size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Rect {
    /// Whether the two rectangles share any area (touching edges do not count).
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.x + other.width
            && other.x < self.x + self.width
            && self.y < other.y + other.height
            && other.y < self.y + self.height
    }

    /// Whether `inner` lies wholly inside this rectangle.
    pub fn contains(&self, inner: &Rect) -> bool {
        inner.x >= self.x
            && inner.y >= self.y
            && inner.x + inner.width <= self.x + self.width
            && inner.y + inner.height <= self.y + self.height
    }

    /// The centre point.
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }
}

/// Where one vertex is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedNode {
    /// The box.
    pub frame: Rect,
    /// The area its label's text covers, inside the box.
    pub label: Rect,
    /// The layer (breadth-first distance from the portal; unreached vertices last).
    pub layer: usize,
    /// Whether an arc reaches it from the portal.
    pub reached: bool,
}

/// The whole picture.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphLayout {
    /// Picture width.
    pub width: f64,
    /// Picture height.
    pub height: f64,
    /// One per input vertex, in input order.
    pub nodes: Vec<PlacedNode>,
}

impl GraphLayout {
    /// The area a vertex owns: its box and the loop room right of it.
    pub fn owned_area(&self, vertex: usize) -> Rect {
        let frame = self.nodes[vertex].frame;
        Rect {
            width: frame.width + LOOP_ROOM,
            ..frame
        }
    }
}

/// `text` cut to `limit` characters, an ellipsis standing for the rest.
pub fn shorten(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        text.to_string()
    } else {
        let kept: String = text.chars().take(limit.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

/// The box height of a vertex of `pages` sampled pages holding `lines` label lines.
fn box_height(lines: usize, pages: usize) -> f64 {
    let text = lines.max(1) as f64 * LINE_HEIGHT + 2.0 * PADDING;
    text + 6.0 * ((pages as f64) + 1.0).log2().min(8.0)
}

/// The width a label's text covers: its longest line, at least six characters.
fn label_width(lines: &[String]) -> f64 {
    let longest = lines
        .iter()
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    longest as f64 * CHARACTER_WIDTH
}

/// Breadth-first layers from vertex 0; vertices never reached get one layer after the last.
fn layers(count: usize, edges: &[(usize, usize)]) -> (Vec<usize>, Vec<bool>) {
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); count];
    for &(source, target) in edges {
        if source != target && source < count && target < count {
            successors[source].push(target);
        }
    }
    let mut layer: Vec<Option<usize>> = vec![None; count];
    let mut queue = VecDeque::new();
    if count > 0 {
        layer[0] = Some(0);
        queue.push_back(0);
    }
    while let Some(vertex) = queue.pop_front() {
        let next = layer[vertex].unwrap_or(0) + 1;
        for &target in &successors[vertex] {
            if layer[target].is_none() {
                layer[target] = Some(next);
                queue.push_back(target);
            }
        }
    }
    let last = layer
        .iter()
        .flatten()
        .copied()
        .max()
        .map_or(0, |max| max + 1);
    let reached = layer.iter().map(Option::is_some).collect();
    (
        layer
            .into_iter()
            .map(|layer| layer.unwrap_or(last))
            .collect(),
        reached,
    )
}

/// Lays out `nodes` joined by `edges` (source, target); vertex 0 is the portal.
pub fn lay_out(nodes: &[NodeInput], edges: &[(usize, usize)]) -> GraphLayout {
    let (layer_of, reached) = layers(nodes.len(), edges);
    let layer_count = layer_of.iter().copied().max().map_or(0, |max| max + 1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); layer_count];
    for (vertex, &layer) in layer_of.iter().enumerate() {
        members[layer].push(vertex);
    }
    // Barycentre ordering, one sweep down: a vertex's key is the mean order of the vertices of
    // earlier layers linking to it; vertices with none keep their id order after the others.
    let mut order_of: Vec<f64> = vec![0.0; nodes.len()];
    for layer in members.iter_mut() {
        let key = |vertex: usize| -> f64 {
            let sources: Vec<f64> = edges
                .iter()
                .filter(|(source, target)| {
                    *target == vertex && source != target && layer_of[*source] < layer_of[vertex]
                })
                .map(|(source, _)| order_of[*source])
                .collect();
            if sources.is_empty() {
                f64::MAX
            } else {
                sources.iter().sum::<f64>() / sources.len() as f64
            }
        };
        let mut keyed: Vec<(f64, usize)> =
            layer.iter().map(|&vertex| (key(vertex), vertex)).collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        *layer = keyed.into_iter().map(|(_, vertex)| vertex).collect();
        for (position, &vertex) in layer.iter().enumerate() {
            order_of[vertex] = position as f64;
        }
    }
    let rows: Vec<(usize, &[usize])> = members
        .iter()
        .enumerate()
        .flat_map(|(layer, vertices)| vertices.chunks(MAX_PER_ROW).map(move |row| (layer, row)))
        .collect();
    let sizes: Vec<(f64, f64)> = nodes
        .iter()
        .map(|node| {
            (
                label_width(&node.lines) + 2.0 * PADDING,
                box_height(node.lines.len(), node.pages),
            )
        })
        .collect();
    let row_width = |row: &[usize]| -> f64 {
        row.iter()
            .map(|&vertex| sizes[vertex].0 + LOOP_ROOM)
            .sum::<f64>()
            + COLUMN_GAP * row.len().saturating_sub(1) as f64
    };
    let widest = rows
        .iter()
        .map(|(_, row)| row_width(row))
        .fold(0.0, f64::max);
    let width = widest + 2.0 * MARGIN;
    let mut placed: Vec<Option<PlacedNode>> = vec![None; nodes.len()];
    let mut top = MARGIN;
    for (layer, row) in &rows {
        let tallest = row
            .iter()
            .map(|&vertex| sizes[vertex].1)
            .fold(0.0, f64::max);
        let mut left = MARGIN + (widest - row_width(row)) / 2.0;
        for &vertex in row.iter() {
            let (box_width, box_height) = sizes[vertex];
            let frame = Rect {
                x: left,
                y: top + (tallest - box_height) / 2.0,
                width: box_width,
                height: box_height,
            };
            let lines = nodes[vertex].lines.len().max(1) as f64;
            let label = Rect {
                x: frame.x + PADDING,
                y: frame.y + PADDING,
                width: label_width(&nodes[vertex].lines),
                height: lines * LINE_HEIGHT,
            };
            placed[vertex] = Some(PlacedNode {
                frame,
                label,
                layer: *layer,
                reached: reached[vertex],
            });
            left += box_width + LOOP_ROOM + COLUMN_GAP;
        }
        top += tallest + ROW_GAP;
    }
    GraphLayout {
        width,
        height: top - ROW_GAP + MARGIN,
        nodes: placed
            .into_iter()
            .map(|node| node.expect("every vertex sits in one row"))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic stream of numbers for making plans of many shapes (SplitMix64).
    struct Numbers(u64);

    impl Numbers {
        fn next(&mut self, below: usize) -> usize {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut value = self.0;
            value = (value ^ (value >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            value = (value ^ (value >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            value ^= value >> 31;
            (value % below.max(1) as u64) as usize
        }
    }

    fn node(label: &str, pages: usize) -> NodeInput {
        NodeInput {
            lines: vec![
                shorten(label, MAX_LABEL_CHARACTERS),
                format!("{pages} pages"),
            ],
            pages,
        }
    }

    /// Checks that no two labels overlap, that every label lies inside its own box with the
    /// width its text needs, and that no vertex's area (box and loop room) meets another's.
    fn check_no_overlap(nodes: &[NodeInput], layout: &GraphLayout) {
        assert_eq!(layout.nodes.len(), nodes.len());
        for (vertex, placed) in layout.nodes.iter().enumerate() {
            assert!(
                placed.frame.contains(&placed.label),
                "label {vertex} outside its box"
            );
            let needed = nodes[vertex]
                .lines
                .iter()
                .map(|line| line.chars().count())
                .max()
                .unwrap_or(0) as f64
                * CHARACTER_WIDTH;
            assert!(
                placed.label.width >= needed,
                "label {vertex} too narrow for its text"
            );
            let area = layout.owned_area(vertex);
            assert!(area.x >= 0.0 && area.x + area.width <= layout.width + 1e-9);
            assert!(area.y >= 0.0 && area.y + area.height <= layout.height + 1e-9);
            for other in vertex + 1..layout.nodes.len() {
                assert!(
                    !placed.label.overlaps(&layout.nodes[other].label),
                    "labels {vertex} and {other} overlap"
                );
                assert!(
                    !area.overlaps(&layout.owned_area(other)),
                    "vertices {vertex} and {other} overlap"
                );
            }
        }
    }

    #[test]
    fn labels_never_overlap_on_plans_up_to_fifty_vertices() {
        let mut numbers = Numbers(23);
        for count in 1..=50 {
            for _shape in 0..4 {
                let nodes: Vec<NodeInput> = (0..count)
                    .map(|vertex| {
                        let length = 4 + numbers.next(60);
                        node(
                            &format!("{vertex} {}", "x".repeat(length)),
                            numbers.next(400),
                        )
                    })
                    .collect();
                let arcs = numbers.next(count * 4);
                let edges: Vec<(usize, usize)> = (0..arcs)
                    .map(|_| (numbers.next(count), numbers.next(count)))
                    .collect();
                check_no_overlap(&nodes, &lay_out(&nodes, &edges));
            }
        }
    }

    #[test]
    fn a_star_of_fifty_vertices_folds_into_rows() {
        let nodes: Vec<NodeInput> = (0..50)
            .map(|vertex| node(&format!("v{vertex}"), 3))
            .collect();
        let edges: Vec<(usize, usize)> = (1..50).map(|target| (0, target)).collect();
        let layout = lay_out(&nodes, &edges);
        check_no_overlap(&nodes, &layout);
        // The portal's row and the 49 others folded into rows of MAX_PER_ROW.
        let rows: std::collections::BTreeSet<i64> = layout
            .nodes
            .iter()
            .map(|node| (node.frame.y + node.frame.height / 2.0).round() as i64)
            .collect();
        assert_eq!(rows.len(), 1 + 49_usize.div_ceil(MAX_PER_ROW), "{rows:?}");
        let widest_box = layout
            .nodes
            .iter()
            .map(|node| node.frame.width)
            .fold(0.0, f64::max);
        assert!(
            layout.width
                <= MAX_PER_ROW as f64 * (widest_box + LOOP_ROOM + COLUMN_GAP) + 2.0 * MARGIN
        );
    }

    fn check_layers(edges: &[(usize, usize)], count: usize, expected: &[usize], reached: &[bool]) {
        let nodes: Vec<NodeInput> = (0..count)
            .map(|vertex| node(&vertex.to_string(), 1))
            .collect();
        let layout = lay_out(&nodes, edges);
        let layers: Vec<usize> = layout.nodes.iter().map(|node| node.layer).collect();
        let got_reached: Vec<bool> = layout.nodes.iter().map(|node| node.reached).collect();
        assert_eq!(layers, expected, "{edges:?}");
        assert_eq!(got_reached, reached, "{edges:?}");
    }

    #[test]
    fn layers_are_distances_from_the_portal() {
        check_layers(&[(0, 1), (1, 2)], 3, &[0, 1, 2], &[true, true, true]);
        // A shortcut puts a vertex in the nearer layer; a loop changes nothing.
        check_layers(
            &[(0, 1), (1, 2), (0, 2), (2, 2)],
            3,
            &[0, 1, 1],
            &[true, true, true],
        );
        // An arc back up does not move the portal.
        check_layers(&[(0, 1), (1, 0)], 2, &[0, 1], &[true, true]);
        // Vertices nothing reaches share a layer after the last.
        check_layers(
            &[(0, 1), (3, 2)],
            4,
            &[0, 1, 2, 2],
            &[true, true, false, false],
        );
        check_layers(&[], 1, &[0], &[true]);
    }

    #[test]
    fn later_layers_sit_lower_and_boxes_grow_with_pages() {
        let nodes = vec![node("portal", 1), node("board", 40), node("thread", 300)];
        let layout = lay_out(&nodes, &[(0, 1), (1, 2)]);
        let centre = |vertex: usize| layout.nodes[vertex].frame.centre().1;
        assert!(centre(0) < centre(1) && centre(1) < centre(2));
        let height = |vertex: usize| layout.nodes[vertex].frame.height;
        assert!(height(0) < height(1) && height(1) < height(2));
    }

    #[test]
    fn long_labels_are_shortened() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("abcdef", 5), "abcd…");
        assert_eq!(shorten("ééééé", 5), "ééééé");
    }

    #[test]
    fn barycentres_keep_children_under_their_parents() {
        // Portal → A, B; A → a1, B → b1: a1 should come before b1 in the row, as A before B.
        let nodes: Vec<NodeInput> = ["p", "A", "B", "b1", "a1"]
            .iter()
            .map(|name| node(name, 1))
            .collect();
        let layout = lay_out(&nodes, &[(0, 1), (0, 2), (2, 3), (1, 4)]);
        let x = |vertex: usize| layout.nodes[vertex].frame.x;
        assert!(x(1) < x(2));
        assert!(x(4) < x(3), "a1 at {}, b1 at {}", x(4), x(3));
    }
}
