//! A post's anchor: what names the post apart from the page that shows it, the same on every
//! page that shows it. Some engines repeat the last post of a page at the top of the next one
//! (NodeBB shows it as context), and page analysis, which sees one page at a time, cannot tell
//! the repeat from a post; what it can give is the name the page gives the post's element, so
//! that whoever keeps the posts of a thread's pages keeps one of two posts with one anchor.
//!
//! The name is looked for on the record's own elements first, then on the first few elements
//! inside it, then on an empty named anchor just before it (`<a name="msg-4400"></a>` above the
//! post): attributes that engines fill with a post's number (`data-pid`, `data-post-id`, ...),
//! then `id` and `name`. A value without a digit names a template part, not a post. Where a
//! region's records would share a value, the value is the template's and no record gets one.

use super::PageFacts;
use crate::dom::{Document, NodeId, NodeKind};

/// Attributes that name a post, the plainest first: the engines' own post numbers, then
/// element ids and anchor names, which pages also give to parts of a post.
const ANCHOR_ATTRIBUTES: [&str; 9] = [
    "data-pid",
    "data-post-id",
    "data-postid",
    "data-post",
    "data-message-id",
    "data-content",
    "data-id",
    "id",
    "name",
];

/// How many elements inside a record are looked at for a name, in document order: a post's
/// number sits on its root or its header, never deep in its message.
const ELEMENTS_LOOKED_AT: usize = 12;

/// Per record of region `region`, its anchor (see [`anchor_of`]), or none for every record
/// when two records would share one.
pub(super) fn record_anchors(facts: &PageFacts<'_>, region: usize) -> Vec<Option<String>> {
    let document = facts.document;
    let piece = &facts.regions[region];
    let anchors: Vec<Option<String>> = (0..piece.records.len())
        .map(|record| anchor_of(document, &piece.record_nodes(document, record)))
        .collect();
    let mut present: Vec<&String> = anchors.iter().flatten().collect();
    let count = present.len();
    present.sort_unstable();
    present.dedup();
    if present.len() == count {
        anchors
    } else {
        vec![None; anchors.len()]
    }
}

/// The anchor of the post made of the sibling elements `members`, written `attribute=value`.
pub(super) fn anchor_of(document: &Document, members: &[NodeId]) -> Option<String> {
    let first = *members.first()?;
    let looked_at: Vec<NodeId> = members
        .iter()
        .copied()
        .chain(
            members
                .iter()
                .flat_map(|&member| document.descendants(member).skip(1))
                .filter(|&node| document.node(node).kind == NodeKind::Element)
                .take(ELEMENTS_LOOKED_AT),
        )
        .chain(empty_anchor_before(document, first))
        .collect();
    ANCHOR_ATTRIBUTES.iter().find_map(|attribute| {
        looked_at.iter().find_map(|&node| {
            let value = document.attribute(node, attribute)?.trim();
            value
                .bytes()
                .any(|byte| byte.is_ascii_digit())
                .then(|| format!("{attribute}={value}"))
        })
    })
}

/// The element just before `node` when it is an empty `<a>` (an anchor that names the post
/// after it).
fn empty_anchor_before(document: &Document, node: NodeId) -> Option<NodeId> {
    let mut previous = document.node(node).previous_sibling;
    while let Some(sibling) = previous {
        let data = document.node(sibling);
        match data.kind {
            NodeKind::Element => {
                // Only an `<a>` is read for its text: the element before a post is most often
                // the post before it, whose whole text was read here for nothing.
                let empty_link = data.is("a") && document.text_content(sibling).trim().is_empty();
                return empty_link.then_some(sibling);
            }
            NodeKind::Text if !document.text_of(sibling).trim().is_empty() => return None,
            _ => previous = data.previous_sibling,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(html: &str, expected: Option<&str>) {
        let document = Document::parse(html);
        let post = document
            .descendants(crate::dom::ROOT)
            .find(|&node| document.attribute(node, "class") == Some("post"))
            .expect("the post is there");
        assert_eq!(anchor_of(&document, &[post]).as_deref(), expected, "{html}");
    }

    #[test]
    fn a_post_is_named_by_its_number_its_id_or_the_anchor_before_it() {
        let cases = [
            (
                "<li class='post' id='post-7' data-pid='102'><p>x</p></li>",
                Some("data-pid=102"),
            ),
            (
                "<div class='post' id='post-1200'><p>x</p></div>",
                Some("id=post-1200"),
            ),
            (
                "<div class='post'><a id='17'></a><p>x</p></div>",
                Some("id=17"),
            ),
            (
                "<a name='msg-4400'></a><div class='post'><p>x</p></div>",
                Some("name=msg-4400"),
            ),
            // Names without a number are the template's; a link before the post is no anchor.
            ("<div class='post' id='content'><p>x</p></div>", None),
            ("<a href='/'>Home</a><div class='post'><p>x</p></div>", None),
        ];
        for (html, expected) in cases {
            check(html, expected);
        }
    }
}
