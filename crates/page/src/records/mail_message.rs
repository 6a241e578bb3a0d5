//! The one message of a mailing-list archive's message page.
//!
//! List archives (pipermail, MHonArc, hypermail and the hosts built on them) give every mail a
//! page of its own. Nothing on it repeats, and nothing in it looks like a forum post: the sender
//! is not a profile link but the text of a mail header, and the message is a block of text with
//! the navigation to the neighbouring messages beside it. What the page does show is the mail's
//! header, and that is read here:
//!
//! - labelled fields, one to a line or an element: `From: Name <address>` and a `Date:` field
//!   holding a date, with the label in an element of its own (`<em>From</em>:`, `<dfn>`,
//!   `<strong>`) or in the text, in a handful of languages; the header is the smallest element
//!   within a few levels of the `From` field that also holds the `Date` field, so the `From:`
//!   lines of a follow-up list (which carry no date) are never taken for it;
//! - or pipermail's unlabelled header: the sender's name in a bare `<b>` followed by the
//!   address (a `mailto:` link or an `at`-mangled address) and the date in an element of its
//!   own among the next few siblings.
//!
//! The message is the first block after the header that is not navigation (a block at most a
//! tenth links; a block mostly links is passed over with everything inside it) and holds no
//! header field, with the blocks of text that follow it directly (paragraphs sent without a
//! wrapping element). The author is the header's display name (`Name <address>`,
//! `address (Name)`, or the address itself when no name is given).

use super::*;
use crate::dom::{Document, NodeId, NodeKind, ROOT};

/// `From` in the languages list archives are written in, lower case.
const FROM_LABELS: [&str; 9] = ["from", "von", "de", "da", "van", "från", "fra", "od", "от"];
/// `Date` (and `Sent`) likewise.
const DATE_LABELS: [&str; 9] = [
    "date", "datum", "fecha", "data", "dato", "sent", "gesendet", "envoyé", "дата",
];
/// A header field's element holds at most this many bytes of text: the field and perhaps the
/// few others of the header, never a message.
const LONGEST_HEADER: u32 = 400;
/// How many levels above the `From` field the header's `Date` field is looked for.
const HEADER_DEPTH: usize = 3;
/// How many siblings after pipermail's bold name the date may stand.
const DATE_SIBLING_REACH: usize = 4;

/// The page's one mail message as a post, when the page shows a mail header.
pub fn mail_message_post(facts: &PageFacts<'_>) -> Option<Post> {
    let document = facts.document;
    let header = labelled_header(facts).or_else(|| bold_sender_header(facts))?;
    let order = document_order(document);
    let bodies = message_blocks(facts, &header, &order);
    let text: Vec<String> = bodies
        .iter()
        .map(|&block| block_text(document, block))
        .filter(|text| !text.is_empty())
        .collect();
    if text.is_empty() {
        return None;
    }
    Some(Post {
        author: Some(header.author),
        author_url: None,
        time: Some(header.date.time),
        text: text.join("\n"),
        permalink: None,
        // A message page holds one mail, so the page itself names it; an element id or named
        // anchor at its header, where the archive gives one, is kept as for any post.
        anchor: super::anchors::anchor_of(document, &[header.first]),
        node: header.first,
    })
}

/// A mail header found on the page.
struct MailHeader {
    /// The sender's display name.
    author: String,
    /// The date of the `Date` field.
    date: DateCandidate,
    /// The header's first element, and its last (the same for a header in one element).
    first: NodeId,
    last: NodeId,
    /// Elements holding header fields, which the message never holds.
    fields: Vec<NodeId>,
}

/// The value of the field labelled by one of `labels` at the start of `line`, if it is one.
fn field_value<'line>(line: &'line str, labels: &[&str]) -> Option<&'line str> {
    let (label, value) = line.split_once(':')?;
    let label = label.trim().to_lowercase();
    labels.contains(&label.as_str()).then(|| value.trim())
}

/// The elements whose text has a line that is a field labelled by one of `labels`, with that
/// line's value, deepest first where one holds another.
fn fields(facts: &PageFacts<'_>, labels: &[&str]) -> Vec<(NodeId, String)> {
    let document = facts.document;
    let mut found: Vec<(NodeId, String)> = Vec::new();
    for node in document.descendants(ROOT) {
        if document.node(node).kind != NodeKind::Element
            || facts.sizes[node as usize] > LONGEST_HEADER
            || facts.sizes[node as usize] == 0
        {
            continue;
        }
        let text = block_text(document, node);
        if let Some(value) = text.lines().find_map(|line| field_value(line, labels)) {
            found.push((node, value.to_string()));
        }
    }
    // An element holding a field element of its own is the field's container, not the field.
    let holders: Vec<NodeId> = found
        .iter()
        .filter(|(node, _)| {
            found
                .iter()
                .any(|(other, _)| other != node && is_ancestor(document, *node, *other))
        })
        .map(|(node, _)| *node)
        .collect();
    found.retain(|(node, _)| !holders.contains(node));
    found
}

/// The sender's display name in a `From` value: `Name <address>`, `"Name" <address>`,
/// `address (Name)`, or the bare address.
fn display_name(value: &str) -> Option<String> {
    let value = value.trim();
    let name = if let Some((name, _)) = value.split_once('<') {
        match name.trim() {
            "" => value
                .trim_start_matches('<')
                .split('>')
                .next()
                .unwrap_or(""),
            name => name,
        }
    } else if let (Some(open), true) = (value.find('('), value.ends_with(')')) {
        &value[open + 1..value.len() - 1]
    } else {
        value
    };
    let name = name.trim().trim_matches(['"', '\'']).trim();
    (!name.is_empty() && name.len() <= 120).then(|| name.to_string())
}

/// The best date of a header field inside `element`: to the minute or finer when the field
/// has one, never a date the page labels as something else.
fn date_inside(facts: &PageFacts<'_>, element: NodeId) -> Option<DateCandidate> {
    let document = facts.document;
    facts
        .dates
        .iter()
        .filter(|date| {
            date.may_be_record_time()
                && (date.element == element || is_ancestor(document, element, date.element))
        })
        .max_by_key(|date| (date.time.precision, !date.machine))
        .copied()
}

/// A header of labelled fields: a `From` field and, within [`HEADER_DEPTH`] levels above it,
/// a `Date` field holding a date.
fn labelled_header(facts: &PageFacts<'_>) -> Option<MailHeader> {
    let document = facts.document;
    let senders = fields(facts, &FROM_LABELS);
    let dated: Vec<(NodeId, DateCandidate)> = fields(facts, &DATE_LABELS)
        .into_iter()
        .filter_map(|(node, _)| date_inside(facts, node).map(|date| (node, date)))
        .collect();
    for (sender, value) in &senders {
        let Some(author) = display_name(value) else {
            continue;
        };
        let mut scope = Some(*sender);
        for _ in 0..=HEADER_DEPTH {
            let Some(container) = scope else {
                break;
            };
            let inside = |node: NodeId| node == container || is_ancestor(document, container, node);
            if let Some((field, date)) = dated.iter().find(|(field, _)| inside(*field)) {
                return Some(MailHeader {
                    author,
                    date: *date,
                    first: container,
                    last: container,
                    fields: vec![*sender, *field],
                });
            }
            scope = document.node(container).parent;
        }
    }
    None
}

/// Pipermail's header: a bare `<b>` holding a name, the sender's address right after it (a
/// `mailto:` link, or text with `@` or ` at `), and a date among the next few siblings.
fn bold_sender_header(facts: &PageFacts<'_>) -> Option<MailHeader> {
    let document = facts.document;
    for node in document.descendants(ROOT) {
        let data = document.node(node);
        if !(data.is("b") || data.is("strong")) || document.attribute(node, "class").is_some() {
            continue;
        }
        let name = document.text_content(node);
        let name = name.trim();
        if name.is_empty() || name.len() > 80 || name.ends_with(':') {
            continue;
        }
        let siblings: Vec<NodeId> = std::iter::successors(data.next_sibling, |&sibling| {
            document.node(sibling).next_sibling
        })
        .filter(|&sibling| document.node(sibling).kind == NodeKind::Element)
        .take(DATE_SIBLING_REACH)
        .collect();
        let Some(&address) = siblings.first() else {
            continue;
        };
        let address_text = document.text_content(address);
        let is_address = document
            .attribute(address, "href")
            .is_some_and(|href| href.starts_with("mailto:"))
            || address_text.contains('@')
            || address_text.contains(" at ");
        if !is_address {
            continue;
        }
        let dated = siblings
            .iter()
            .skip(1)
            .find_map(|&sibling| date_inside(facts, sibling).map(|date| (sibling, date)));
        if let Some((last, date)) = dated {
            return Some(MailHeader {
                author: name.to_string(),
                date,
                first: node,
                last,
                fields: vec![node, address, last],
            });
        }
    }
    None
}

/// Every node's position in document order.
fn document_order(document: &Document) -> Vec<u32> {
    let mut order = vec![u32::MAX; document.len()];
    for (position, node) in document.descendants(ROOT).enumerate() {
        order[node as usize] = position as u32;
    }
    order
}

/// The blocks of the message: the first block after the header that is neither navigation
/// nor a header field, then the blocks of text following it directly.
fn message_blocks(facts: &PageFacts<'_>, header: &MailHeader, order: &[u32]) -> Vec<NodeId> {
    let document = facts.document;
    let link_text = link_text_below(facts);
    let header_end = document
        .descendants(header.last)
        .map(|node| order[node as usize])
        .max()
        .unwrap_or(order[header.last as usize]);
    let holds_field = |node: NodeId| {
        header
            .fields
            .iter()
            .any(|&field| field == node || is_ancestor(document, node, field))
            || is_ancestor(document, node, header.first)
    };
    let is_text_block = |node: NodeId| {
        let size = facts.sizes[node as usize];
        size >= 20 && link_text[node as usize] * 10 <= size && !holds_field(node)
    };
    let mut walk = document.descendants(ROOT);
    let mut first = None;
    while let Some(node) = walk.next() {
        if order[node as usize] <= header_end || document.node(node).kind != NodeKind::Element {
            continue;
        }
        let size = facts.sizes[node as usize];
        // Navigation (the date and thread neighbours, the indexes) is passed over whole.
        if link_text[node as usize] * 2 > size {
            walk.skip_children();
            continue;
        }
        if is_text_block(node) {
            first = Some(node);
            break;
        }
    }
    let Some(first) = first else {
        return Vec::new();
    };
    let mut blocks = vec![first];
    let mut next = document.node(first).next_sibling;
    while let Some(sibling) = next {
        let data = document.node(sibling);
        next = data.next_sibling;
        match data.kind {
            NodeKind::Element if data.is("hr") => break,
            NodeKind::Element if is_text_block(sibling) => blocks.push(sibling),
            NodeKind::Element => break,
            _ => {}
        }
    }
    blocks
}

/// For every node, the bytes of link text at or below it.
fn link_text_below(facts: &PageFacts<'_>) -> Vec<u32> {
    let document = facts.document;
    let mut totals = vec![0u32; document.len()];
    for node in document.descendants(ROOT) {
        if !document.node(node).is("a") || document.attribute(node, "href").is_none() {
            continue;
        }
        let size = facts.sizes[node as usize];
        let mut current = Some(node);
        while let Some(ancestor) = current {
            totals[ancestor as usize] += size;
            current = document.node(ancestor).parent;
        }
    }
    totals
}
