//! Remarks nested under posts: the one-line comments that question-and-answer sites (and
//! forums with "comments on a post") list under each post's text and signature. Each remark is
//! an item of a list, with its own author link, its own date and a line of text, so it is made
//! like a small post; but it is no post, and its date is not its post's time nor its text the
//! post's text. Read as part of a post, a remark's date is later than the post's own, and the
//! near-tie bonus of the latest date column (see `posts::choose_time_column`) preferred it; and
//! a list of remarks, holding more text than the post's own body, was taken for the body of a
//! post read on its own.

use super::PageFacts;
use crate::dom::{NodeId, NodeKind};

/// The least text, in bytes, a remark shows beside its date and its author's name: a line of
/// its own. A post header that lists its author and date as items (`<li>by <a>bob</a></li>`,
/// `<li>Posted 3 May</li>`) shows no more than labels beside them.
const REMARK_TEXT: u32 = 20;

/// The most text, in bytes, a remark shows on average: a line or two.
const LONGEST_REMARK: u64 = 240;

/// The remark (see the module) that holds the date shown by `date_element`, looking up from it
/// to `stop` (exclusive), when there is one: the nearest ancestor that is an item of a list (an
/// `li`) and also holds a link of its
/// own that is not a date and at least [`REMARK_TEXT`] bytes of text beside the date and its
/// links, in a list that `stop` holds beside a date of its own (the post's).
pub(super) fn remark_holding(
    facts: &PageFacts<'_>,
    date_element: NodeId,
    stop: NodeId,
) -> Option<NodeId> {
    let document = facts.document;
    let mut current = document.node(date_element).parent;
    while let Some(item) = current.filter(|&node| node != stop) {
        current = document.node(item).parent;
        if !list_item(facts, item) {
            continue;
        }
        let links: Vec<NodeId> = facts
            .links
            .iter()
            .map(|link| link.node)
            .filter(|&link| {
                link != date_element
                    && !facts.holds_date[link as usize]
                    && super::is_ancestor(document, item, link)
            })
            .collect();
        if links.is_empty() {
            // The nearest item decides: an item without a name of its own is part of the
            // post (a line of its text), not a remark.
            return None;
        }
        let linked: u32 = links.iter().map(|&link| facts.sizes[link as usize]).sum();
        let beside = facts.sizes[item as usize]
            .saturating_sub(facts.sizes[date_element as usize])
            .saturating_sub(linked);
        if beside < REMARK_TEXT {
            return None;
        }
        // Remarks are nested under something dated of its own, their post: `stop` holds a
        // date outside the remark's list. A list of items that are themselves the records (a
        // board's thread rows in a list of their own) has nothing dated around it.
        let list = document.node(item).parent.unwrap_or(item);
        let post_dated = facts.dates.iter().any(|candidate| {
            super::is_ancestor(document, stop, candidate.element)
                && candidate.element != list
                && !super::is_ancestor(document, list, candidate.element)
        });
        return post_dated.then_some(item);
    }
    None
}

/// Whether `node` is an item of a list (`li`). Elements merely repeated beside alike siblings
/// are not taken for remarks: post headers and bodies are made of such rows (`div.row`,
/// `td.alt1`), and reading them as remarks lost the times of whole post lists.
fn list_item(facts: &PageFacts<'_>, node: NodeId) -> bool {
    let data = facts.document.node(node);
    data.kind == NodeKind::Element && data.is("li")
}

/// The post that holds region `region` as its list of remarks, when the region is one: every
/// record of the region is a remark (see [`remark_holding`]) of the closest element above the
/// region's parent, at most two levels up, that shows a date of its own outside the list and
/// reads as a post on its own (a date, an author and a body). Remarks are one line each (at
/// most [`LONGEST_REMARK`] bytes of text on average, and no block element): a list of posts whose container shows a
/// date of its own (a thread header's) is made of longer records.
pub(super) fn post_holding_remarks(facts: &PageFacts<'_>, region: usize) -> Option<NodeId> {
    let document = facts.document;
    let list = &facts.regions[region];
    let total: u64 = list
        .records
        .iter()
        .map(|&record| u64::from(facts.sizes[record as usize]))
        .sum();
    if total > LONGEST_REMARK * list.records.len() as u64 {
        return None;
    }
    // A remark is one line: it holds no block of its own (a paragraph, a quote, a box), as
    // posts do, however short.
    let holds_block = list.records.iter().any(|&record| {
        document.descendants(record).any(|node| {
            node != record
                && document.node(node).kind == NodeKind::Element
                && super::is_block(document.node(node).tag())
        })
    });
    if holds_block {
        return None;
    }
    let mut current = document.node(list.parent).parent;
    for _ in 0..2 {
        let post = current?;
        current = document.node(post).parent;
        let holds_own_date = facts.dates.iter().any(|candidate| {
            super::is_ancestor(document, post, candidate.element)
                && candidate.element != list.parent
                && !super::is_ancestor(document, list.parent, candidate.element)
        });
        if !holds_own_date {
            continue;
        }
        let all_remarks = list.records.iter().all(|&record| {
            facts.dates.iter().any(|candidate| {
                (candidate.element == record
                    || super::is_ancestor(document, record, candidate.element))
                    && remark_holding(facts, candidate.element, post) == Some(record)
            })
        });
        let reads_as_post = super::single_post::single_post_parts(
            facts,
            post,
            super::single_post::RecordColumns::default(),
        )
        .is_some();
        return (all_remarks && reads_as_post).then_some(post);
    }
    None
}
