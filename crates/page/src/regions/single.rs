//! Lone records: where a record would be if it repeated, for pages that show one.

use std::cell::OnceCell;

use super::{
    MAX_RECORD_WIDTH, PatternId, for_each_record_parent, node_facts, path_hash, pattern_after_path,
    pattern_id,
};
use crate::dom::{Document, NodeId};

/// Where one record would be, if it repeated: the pattern id a run of such records would get,
/// and the share of the page it covers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SingleRecord {
    /// The element whose child the record is.
    pub parent: NodeId,
    /// The record's first element.
    pub first: NodeId,
    /// Sibling elements in the record.
    pub width: usize,
    /// The pattern a repetition of this record would instantiate.
    pub pattern: PatternId,
    /// Its share of the page's visible text.
    pub text_share: f32,
    /// Its share of the page's elements.
    pub node_share: f32,
}

/// Every element (and run of up to [`MAX_RECORD_WIDTH`] sibling elements) that could be one
/// record of a repetitive pattern, with the pattern id it would carry.
///
/// A thread page holding a single post has no repetition, so [`find_regions`] finds no post
/// region on it, yet its post sits exactly where the posts of longer threads sit. Once a site's
/// patterns are known from pages where they repeat, a caller can recognise such lone records by
/// looking their would-be pattern ids up among the known ones. Only elements with text and some
/// structure (three elements or more) are offered: a bare `<br>` or an empty cell is never a
/// record worth placing a page by.
pub fn single_record_candidates(document: &Document) -> Vec<SingleRecord> {
    document
        .single_records
        .get_or_init(|| search_single_records(document))
        .clone()
}

/// The search behind [`single_record_candidates`], run once per document.
fn search_single_records(document: &Document) -> Vec<SingleRecord> {
    let facts = node_facts(document);
    let mut candidates = Vec::new();
    for_each_record_parent(document, |parent, children| {
        // The path part of the pattern id is the parent's, whatever the record: hashed once
        // per parent rather than once per candidate (up to three per child).
        let path = OnceCell::new();
        for start in 0..children.len() {
            for width in 1..=MAX_RECORD_WIDTH.min(children.len() - start) {
                let members = &children[start..start + width];
                let (text, elements) = facts.size_of(members);
                if text == 0 || elements < 3 {
                    continue;
                }
                let (text_share, node_share) = facts.shares(text, elements);
                candidates.push(SingleRecord {
                    parent,
                    first: members[0],
                    width,
                    pattern: pattern_after_path(
                        facts,
                        *path.get_or_init(|| path_hash(document, facts, parent)),
                        members,
                    ),
                    text_share,
                    node_share,
                });
            }
        }
    });
    candidates
}

/// `element` as a record of width one, as [`single_record_candidates`] would offer it, with the
/// pattern id a run of such records would carry; `None` for the root, which has no parent.
pub fn single_record_of(document: &Document, element: NodeId) -> Option<SingleRecord> {
    let parent = document.node(element).parent?;
    let facts = node_facts(document);
    let (text, elements) = facts.size_of(&[element]);
    let (text_share, node_share) = facts.shares(text, elements);
    Some(SingleRecord {
        parent,
        first: element,
        width: 1,
        pattern: pattern_id(document, facts, parent, &[element]),
        text_share,
        node_share,
    })
}
