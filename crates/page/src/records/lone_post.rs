//! The one post of a thread page whose posts did not repeat.
//!
//! A thread of one post shows no repetition, so [`super::posts_from`] finds no post region on
//! its pages. The crawler knows the post pattern from the site's other pages
//! ([`crate::analysis::lone_record_posts`]); a page read alone does not, so it is recognised by
//! what a post is made of: an element that holds an author (a profile link or a name element,
//! not an entry of a menu or list), one to three dates to the day or finer (the post time, a
//! join date), and a message: the largest element holding neither the author nor a date
//! standing alone, not mostly links, with at least 20 bytes of text; the element's other text
//! (beyond its author, dates, subject headings, numbers standing alone, a title heading not
//! naming the author and a breadcrumb) may be at most half the message. Among such
//! elements the one with the largest message wins, and for that message the tightest element
//! around it, so that the page's header (the clock, the last visit) and sidebars stay out.
//!
//! List pages are never read this way: the caller only asks when the page gave neither posts
//! nor thread entries. Login walls and profiles show a name and dates too, but their names are
//! menu entries or their text is fields and navigation, which the share test turns away. Short
//! messages beside many fields are missed: with one record, nothing tells a field from a message.

use super::single_post::{RecordColumns, single_post_parts};
use super::*;
use crate::dom::{Document, NodeId, NodeKind, ROOT};

/// An element showing more dates than this is a page section (a header with the clock and the
/// last visit, a profile with join and last-visit dates and a post), not one post with its
/// author's join date.
const MOST_DATES_IN_A_POST: u32 = 3;
/// Elements with at most this many bytes of text that show a date are date fields.
const LONGEST_DATE_FIELD: u32 = 64;

/// The element of the page's lone post, when the page shows one: see the module documentation.
pub fn lone_post_element(facts: &PageFacts<'_>) -> Option<NodeId> {
    let document = facts.document;
    // Dates are counted by the element that shows them: one `<time>` gives its text, its
    // `datetime` and its `title` as three candidates, but it is one date of the post.
    let mut date_elements: Vec<NodeId> = facts
        .dates
        .iter()
        .filter(|date| date.time.precision >= Precision::Day)
        .map(|date| date.element)
        .collect();
    date_elements.sort_unstable();
    date_elements.dedup();
    let dates_below = count_below(document, date_elements.iter().map(|&element| (element, 1)));
    // A date standing in an element of its own (a `<time>`, a cell) is a field of a record; a
    // date mentioned in a sentence sits in the sentence's element, whose text is long.
    let field_dates_below = count_below(
        document,
        date_elements
            .iter()
            .filter(|&&element| facts.sizes[element as usize] <= LONGEST_DATE_FIELD)
            .map(|&element| (element, 1)),
    );
    // A minor heading inside a post is its subject line, a field like the date; the page's own
    // `h1` and `h2` name the forum, the thread or a profile, and count as other text.
    let heading_text_below = count_below(
        document,
        document
            .descendants(ROOT)
            .filter(|&node| {
                let data = document.node(node);
                ["h3", "h4", "h5", "h6"]
                    .iter()
                    .any(|heading| data.is(heading))
            })
            .map(|node| (node, facts.sizes[node as usize])),
    );
    let date_text_below = count_below(
        document,
        date_elements
            .iter()
            .map(|&element| (element, facts.sizes[element as usize])),
    );
    let link_text_below = count_below(
        document,
        facts
            .links
            .iter()
            .map(|link| (link.node, facts.sizes[link.node as usize])),
    );
    let number_text_below = count_below(
        document,
        document
            .descendants(ROOT)
            .filter(|&node| is_number_text(document, node))
            .map(|node| (node, facts.sizes[node as usize])),
    );
    // The page's own headings, read as a post's title heading when a post element holds one
    // (see `title_headings_text`).
    let title_headings: Vec<NodeId> = document
        .descendants(ROOT)
        .filter(|&node| {
            let data = document.node(node);
            data.is("h1") || data.is("h2")
        })
        .collect();
    let breadcrumbs = breadcrumbs(facts);
    // (element, its body, the body's text size, the element's text size)
    let mut best: Option<(NodeId, u32, u32)> = None;
    for element in document.descendants(ROOT) {
        let dates = dates_below[element as usize];
        if document.node(element).kind != NodeKind::Element
            || dates == 0
            || dates > MOST_DATES_IN_A_POST
        {
            continue;
        }
        let size = facts.sizes[element as usize];
        let Some(parts) = single_post_parts(facts, element, RecordColumns::default()) else {
            continue;
        };
        // A name among a run of like records is a menu entry ("Members") or a member list's
        // row, not the author of a post standing alone.
        let in_a_list = facts.slots[parts.author.node as usize]
            .is_some_and(|slot| facts.regions[slot.region as usize].records.len() >= 3);
        if in_a_list {
            continue;
        }
        // The message is the largest element of the post that holds none of its fields: no
        // date standing alone (the post time, a join date) and not the author. The body
        // `single_post_parts` found only avoids the one date it read.
        let Some(body) = message_of(
            facts,
            element,
            parts.author.node,
            &field_dates_below,
            &breadcrumbs,
        ) else {
            continue;
        };
        let body_size = facts.sizes[body as usize];
        // The message is most of a post: beside it a post shows its author, its dates, its
        // subject heading and a few short fields (a title, a rank, buttons). An element whose other text is more
        // than half the message holds more than one post's fields: a page section where a
        // header's date, a menu's member link and a notice happen to meet, or a profile whose
        // largest field is one among many.
        // Numbers standing alone (a vote count, the author's reputation and badge counts, a
        // post count) are fields too, whatever the markup calls them: on a question page the
        // author's card beside a short question holds four of them.
        let number_fields =
            number_text_below[element as usize].saturating_sub(number_text_below[body as usize]);
        let fields = facts.sizes[parts.author.node as usize]
            + date_text_below[element as usize]
            + heading_text_below[element as usize]
            + number_fields
            + title_headings_text(facts, &title_headings, element, &parts.author.name)
            + breadcrumbs_text(facts, &breadcrumbs, element, body);
        if size.saturating_sub(body_size + fields) * 2 > body_size {
            continue;
        }
        // A block whose text is mostly links is navigation or a list of threads, not a message.
        if link_text_below[body as usize] * 2 > body_size {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, best_body, best_size)) => {
                body_size > best_body || (body_size == best_body && size < best_size)
            }
        };
        if better {
            best = Some((element, body_size, size));
        }
    }
    best.map(|(element, _, _)| element)
}

/// The text of the page-level headings (`h1`, `h2`) inside `element` that do not name its
/// author. An opening post shown apart may carry the thread's title as the page's heading: a
/// field of the post like its subject line. A profile's heading names its member, and stays
/// other text, so a profile's largest field is still not taken for a message.
fn title_headings_text(
    facts: &PageFacts<'_>,
    headings: &[NodeId],
    element: NodeId,
    author: &str,
) -> u32 {
    let document = facts.document;
    let author = author.to_lowercase();
    headings
        .iter()
        .filter(|&&heading| heading == element || is_ancestor(document, element, heading))
        .filter(|&&heading| {
            !document
                .text_content(heading)
                .to_lowercase()
                .contains(&author)
        })
        .map(|&heading| facts.sizes[heading as usize])
        .sum()
}

/// The page's breadcrumbs: the outermost elements of two links or more with nothing between
/// them but separators (`Index › Networking`), which an opening post shown apart may carry
/// above its title like a field. Links without separators are no breadcrumb, and links that are
/// entries of a run of three like records or more are a menu: both stay other text, so a page
/// section holding the site's menu is still no post.
pub(super) fn breadcrumbs(facts: &PageFacts<'_>) -> Vec<NodeId> {
    let document = facts.document;
    let link_text_below = count_below(
        document,
        facts
            .links
            .iter()
            .map(|link| (link.node, facts.sizes[link.node as usize])),
    );
    let links_below = count_below(document, facts.links.iter().map(|link| (link.node, 1)));
    let mut found: Vec<NodeId> = Vec::new();
    for node in document.descendants(ROOT) {
        let links = links_below[node as usize];
        let other_text = facts.sizes[node as usize].saturating_sub(link_text_below[node as usize]);
        if document.node(node).kind != NodeKind::Element
            || links < 2
            || other_text > 4 * links
            || found
                .iter()
                .any(|&outer| is_ancestor(document, outer, node))
        {
            continue;
        }
        let row: Vec<&Link> = facts
            .links
            .iter()
            .filter(|link| is_ancestor(document, node, link.node))
            .collect();
        let in_a_menu = row.iter().any(|link| {
            facts.slots[link.node as usize]
                .is_some_and(|slot| facts.regions[slot.region as usize].records.len() >= 3)
        });
        if in_a_menu {
            continue;
        }
        let mut rest = document.text_content(node);
        for link in &row {
            rest = rest.replacen(document.text_content(link.node).as_str(), "", 1);
        }
        let separators_only = rest
            .chars()
            .all(|character| character.is_whitespace() || "»›>/→:".contains(character));
        if separators_only && rest.chars().any(|character| !character.is_whitespace()) {
            found.push(node);
        }
    }
    found
}

/// The text of the breadcrumbs in `element` apart from its message `body`.
fn breadcrumbs_text(
    facts: &PageFacts<'_>,
    breadcrumbs: &[NodeId],
    element: NodeId,
    body: NodeId,
) -> u32 {
    let document = facts.document;
    breadcrumbs
        .iter()
        .filter(|&&crumbs| {
            (crumbs == element || is_ancestor(document, element, crumbs))
                && crumbs != body
                && !is_ancestor(document, crumbs, body)
                && !is_ancestor(document, body, crumbs)
        })
        .map(|&crumbs| facts.sizes[crumbs as usize])
        .sum()
}

/// Whether `node` is an `h1` or `h2` heading or sits in one, looking up no further than
/// `element`.
fn is_title_heading_text(document: &Document, element: NodeId, node: NodeId) -> bool {
    let mut current = Some(node);
    while let Some(here) = current {
        let data = document.node(here);
        if data.is("h1") || data.is("h2") {
            return true;
        }
        if here == element {
            return false;
        }
        current = data.parent;
    }
    false
}

/// The largest element of `element` holding no date field and not holding `author`, not in an
/// `h1` or `h2` heading and no breadcrumb, when it has at least 20 bytes of text.
fn message_of(
    facts: &PageFacts<'_>,
    element: NodeId,
    author: NodeId,
    field_dates_below: &[u32],
    breadcrumbs: &[NodeId],
) -> Option<NodeId> {
    let document = facts.document;
    let mut best: Option<(NodeId, u32)> = None;
    for node in document.descendants(element) {
        // The page's title heading or a breadcrumb is a field, however long beside a short
        // message; a minor heading inside may be a title the message is made of (a question's
        // entry), and is left to the share test.
        if document.node(node).kind != NodeKind::Element
            || field_dates_below[node as usize] > 0
            || node == author
            || is_ancestor(document, node, author)
            || is_title_heading_text(document, element, node)
            || breadcrumbs
                .iter()
                .any(|&crumbs| crumbs == node || is_ancestor(document, crumbs, node))
        {
            continue;
        }
        let size = facts.sizes[node as usize];
        if best.is_none_or(|(_, best_size)| size > best_size) {
            best = Some((node, size));
        }
    }
    best.filter(|(_, size)| *size >= 20).map(|(node, _)| node)
}

/// Whether `node` is a text node holding a number alone (`4635`, `1,204`): a count or a score,
/// never words of a message or of a page section.
fn is_number_text(document: &Document, node: NodeId) -> bool {
    if document.node(node).kind != NodeKind::Text {
        return false;
    }
    let text = document.text_of(node).trim();
    text.bytes()
        .next()
        .is_some_and(|byte| byte.is_ascii_digit())
        && text
            .bytes()
            .all(|byte| byte.is_ascii_digit() || byte == b',' || byte == b'.')
}

/// For every node, the sum of the `(element, amount)` amounts of the elements at or below it.
fn count_below(document: &Document, amounts: impl Iterator<Item = (NodeId, u32)>) -> Vec<u32> {
    let mut totals = vec![0u32; document.len()];
    for (element, amount) in amounts {
        let mut current = Some(element);
        while let Some(node) = current {
            totals[node as usize] += amount;
            current = document.node(node).parent;
        }
    }
    totals
}
