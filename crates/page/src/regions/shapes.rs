//! Record shapes and their similarities: what the region search compares.

use super::{NodeFacts, SHAPE_DEPTH, SHAPE_LIMIT};
use crate::dom::{Document, NodeId};

/// The Jaccard similarity of every child's shape with the shapes of the next `widest` children
/// (the widest record the search tries): all that [`runs`] compares. Computed once per parent, because
/// the search tries every start and width and then searches again after each run it takes, and
/// comparing the same shapes over again was most of the cost of finding regions.
pub(super) struct PairSimilarities {
    /// `by_distance[d - 1][i]`: child `i` against child `i + d`.
    by_distance: Vec<Vec<f32>>,
}

impl PairSimilarities {
    pub(super) fn new(children: &[NodeId], shapes: &Shapes, widest: usize) -> Self {
        let by_distance = (1..=widest)
            .map(|distance| {
                children
                    .iter()
                    .zip(children.iter().skip(distance))
                    .map(
                        |(&first, &second)| match (shapes.of(first), shapes.of(second)) {
                            (Some(first), Some(second)) => jaccard(first, second),
                            _ => 0.0,
                        },
                    )
                    .collect()
            })
            .collect();
        PairSimilarities { by_distance }
    }

    /// Similarity of the generalized node of `width` children from `start` with the one right
    /// after it: the smallest similarity of their members, member by member. The minimum rather
    /// than the mean, so that one misfit member (a navigation block beside two posts) cannot
    /// ride along on its neighbours' resemblance.
    pub(super) fn of_groups(&self, start: usize, width: usize) -> f32 {
        let row = &self.by_distance[width - 1];
        (start..start + width)
            .map(|member| row[member])
            .fold(1.0, f32::min)
    }
}

/// Weighted Jaccard similarity of two shapes.
fn jaccard(a: &[u32], b: &[u32]) -> f32 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let (mut i, mut j) = (0, 0);
    let (mut common, mut union) = (0.0f32, 0.0f32);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                union += entry_weight(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                union += entry_weight(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                common += entry_weight(a[i]);
                union += entry_weight(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    union += a[i..]
        .iter()
        .chain(&b[j..])
        .map(|&entry| entry_weight(entry))
        .sum::<f32>();
    common / union
}

/// The sorted set of (signature, depth) entries in the first levels below `root`. An entry keeps
/// its depth in the low two bits so that similarity can weigh it; inline formatting tags (bold,
/// line breaks...) are content, not structure, and are left out.
///
/// `scratch` holds the walk's stack and the entries before they are sorted: a page has
/// thousands of shapes, and growing two fresh vectors for each cost more than comparing them.
/// The shape is kept in `shapes`, as `root`'s.
pub(super) fn shape(
    document: &Document,
    facts: &NodeFacts,
    root: NodeId,
    scratch: &mut ShapeScratch,
    shapes: &mut Shapes,
) {
    let ShapeScratch { stack, entries } = scratch;
    stack.clear();
    entries.clear();
    stack.push((root, 0usize));
    while let Some((node, depth)) = stack.pop() {
        let signature = facts.signature[node as usize];
        if signature == 0 || (depth > 0 && is_inline_formatting(document, node)) {
            continue;
        }
        let mixed =
            signature.rotate_left(depth as u32 * 7) ^ (depth as u32).wrapping_mul(0x9E37_79B9);
        entries.push((mixed << 2) | depth as u32);
        if depth + 1 < SHAPE_DEPTH && entries.len() < SHAPE_LIMIT * 2 {
            for child in document.children(node) {
                stack.push((child, depth + 1));
            }
        }
    }
    entries.sort_unstable();
    entries.dedup();
    entries.truncate(SHAPE_LIMIT);
    shapes.keep(root, entries);
}

/// The shapes of a page's elements, end to end in one buffer: a page has thousands, and one
/// vector for each cost an allocation and a free apiece.
pub(super) struct Shapes {
    /// For every node, where its shape lies in `entries` (`None` before it is computed).
    spans: Vec<Option<(u32, u32)>>,
    entries: Vec<u32>,
}

impl Shapes {
    pub(super) fn new(nodes: usize) -> Self {
        Shapes {
            spans: vec![None; nodes],
            entries: Vec::new(),
        }
    }

    /// The shape of `node`, once computed.
    pub(super) fn of(&self, node: NodeId) -> Option<&[u32]> {
        let (start, end) = self.spans[node as usize]?;
        Some(&self.entries[start as usize..end as usize])
    }

    pub(super) fn keep(&mut self, node: NodeId, shape: &[u32]) {
        let start = self.entries.len() as u32;
        self.entries.extend_from_slice(shape);
        self.spans[node as usize] = Some((start, self.entries.len() as u32));
    }
}

/// Buffers [`shape`] reuses from one call to the next.
#[derive(Default)]
pub(super) struct ShapeScratch {
    stack: Vec<(NodeId, usize)>,
    entries: Vec<u32>,
}

/// Weight of a shape entry: structure near a record's root says more about its template than
/// structure deep inside its content, which varies from record to record.
fn entry_weight(entry: u32) -> f32 {
    1.0 / (1u32 << (entry & 3)) as f32
}

pub(super) fn is_inline_formatting(document: &Document, node: NodeId) -> bool {
    // `font` is left out on purpose: hand-made table layouts use it as their only structure.
    // One `match` rather than a comparison with each name: this runs for every element of every
    // shape.
    matches!(
        &**document.node(node).tag(),
        "b" | "i"
            | "u"
            | "em"
            | "strong"
            | "br"
            | "s"
            | "strike"
            | "sub"
            | "sup"
            | "small"
            | "big"
            | "tt"
            | "wbr"
    )
}
