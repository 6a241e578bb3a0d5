//! The text column of a post region: the element with most text that holds no field of the
//! record template, tightened to an inner column while that keeps nearly all of the message.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::{ColumnTable, PageFacts, SmallKeyHasher, block_text, is_ancestor};
use crate::dom::{Document, NodeId, NodeKind};
use crate::regions::column_below_root;

/// Dates whose columns recur in at least half of the records (post times, join dates, last
/// visits): fields of the record template. A post's text holds none of them systematically, so an
/// element containing one is a container of the post's metadata, not its text. Links are not
/// used the same way because post bodies on real forums routinely carry recurring links.
fn systematic_fields(facts: &PageFacts<'_>, region: usize) -> Vec<NodeId> {
    let records = facts.regions[region].records.len();
    let mut by_column: Vec<(u64, Vec<bool>, Vec<NodeId>)> = Vec::new();
    for node in facts.dates.iter().map(|candidate| candidate.element) {
        let Some((record, column)) = facts.place(region, node) else {
            continue;
        };
        let entry = match by_column.iter_mut().find(|(c, ..)| *c == column) {
            Some(entry) => entry,
            None => {
                by_column.push((column, vec![false; records], Vec::new()));
                by_column.last_mut().expect("just pushed")
            }
        };
        entry.1[record] = true;
        entry.2.push(node);
    }
    by_column
        .into_iter()
        .filter(|(_, seen, _)| seen.iter().filter(|&&s| s).count() * 2 >= records.max(2))
        .flat_map(|(_, _, nodes)| nodes)
        .collect()
}

/// Per record, the element of the text column: among elements holding no field of the record
/// template, the column with most text; then, while a column below it holds nearly all of that
/// text in nearly every record (a message beside a short title), the tighter one.
pub(super) fn choose_text_column(
    facts: &PageFacts<'_>,
    region: usize,
    excluded: &[NodeId],
    texts: &mut PostTexts,
) -> Vec<Option<NodeId>> {
    let document = facts.document;
    let records = facts.regions[region].records.len();
    let mut fields: Vec<NodeId> = systematic_fields(facts, region);
    fields.extend_from_slice(excluded);
    let mut holds_field = vec![false; document.len()];
    for &field in &fields {
        let mut current = Some(field);
        while let Some(node) = current {
            if holds_field[node as usize] {
                break;
            }
            holds_field[node as usize] = true;
            current = document.node(node).parent;
        }
    }
    // What lies inside a field is the field's too: the name inside the author's link (`<a><span
    // class="name">Alexandra</span></a>`), the words inside a `<time>`. Beside short messages
    // ("Thanks!", "+1") such an element holds the most text of its column and was taken for
    // the text.
    // A field named by the record's own element (`data-author` on the post's root) is the
    // whole record: its inside is the post.
    let record_element =
        |node: NodeId| facts.slots[node as usize].is_some_and(|slot| slot.member == node);
    for &field in fields.iter().filter(|&&field| !record_element(field)) {
        for node in document.descendants(field) {
            holds_field[node as usize] = true;
        }
    }
    let mut table = ColumnTable::new(records);
    for record in 0..records {
        for member in facts.regions[region].record_nodes(document, record) {
            for node in document.descendants(member) {
                let data = document.node(node);
                if data.kind != NodeKind::Element
                    || facts.sizes[node as usize] == 0
                    || holds_field[node as usize]
                {
                    continue;
                }
                table.offer(facts.column(region, member, node), record, node);
            }
        }
    }
    let columns: Vec<Vec<Option<NodeId>>> = table
        .into_columns()
        .filter(|values| values.iter().flatten().count() * 2 >= records)
        .collect();
    let total_text = |values: &Vec<Option<NodeId>>| -> u64 {
        values
            .iter()
            .flatten()
            .map(|&node| u64::from(facts.sizes[node as usize]))
            .sum()
    };
    // The column with most text, unless it says the same in most records: a note of the reply
    // form, a row of buttons or a "log in to reply" line that the template prints under every
    // post can hold more text than short messages, but a post's text varies from record to
    // record. The next column by text is then looked at, and so on.
    let mut by_text: Vec<(u64, usize)> = columns
        .iter()
        .enumerate()
        .map(|(index, values)| (total_text(values), index))
        .collect();
    by_text.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let Some(mut chosen) = by_text
        .iter()
        .map(|&(_, index)| &columns[index])
        .find(|values| !repeats_one_text(document, &facts.sizes, texts, values))
        .cloned()
    else {
        return vec![None; records];
    };
    // Tighten: a column whose nodes sit inside the chosen ones and keep 80 % of their text in
    // at least 90 % of the records replaces them. A record where the column's position holds
    // something else (the first post of a thread carrying the thread's title above its message,
    // which shifts the message one sibling down) keeps up when it holds an element of the same
    // identity as the column's (tag and id or class, numbers aside: `post_message_1` beside
    // `post_message_39`), which is the same field whatever its position.
    // One record cannot show which inner element is a field of the template: any child
    // holding four fifths of a message (its long second paragraph) would pass, so a lone
    // record keeps its widest text element.
    if records < 2 {
        return chosen;
    }
    loop {
        // The outer element's text as a reader sees it: a signature below a separator line is
        // not part of the post (see [`block_text`]), so an inner element holding the message
        // without the signature still holds all of the post.
        let outer_texts: Vec<Rc<str>> = chosen
            .iter()
            .map(|outer| outer.map_or_else(|| Rc::from(""), |node| texts.shown(document, node)))
            .collect();
        let tighter = columns.iter().find_map(|values| {
            let mut fitting: Vec<Option<NodeId>> = vec![None; records];
            for (record, (inner, outer)) in values.iter().zip(&chosen).enumerate() {
                let (Some(inner), Some(outer)) = (inner, outer) else {
                    continue;
                };
                // The size test of `keeps_most_of` dismisses most pairs for nothing, the
                // ancestry test walks the tree and the text comparison reads the posts: cheapest
                // first.
                let inner_size = facts.sizes[*inner as usize];
                if inner != outer
                    && may_keep_most_of(inner_size, &outer_texts[record])
                    && is_ancestor(document, *outer, *inner)
                    && keeps_most_of(document, texts, inner_size, *inner, &outer_texts[record])
                {
                    fitting[record] = Some(*inner);
                }
            }
            // A column that fits no record has no identity to look for either: no record
            // would keep up, so it cannot tighten (most columns of a region are such).
            if fitting.iter().all(Option::is_none) {
                return None;
            }
            let identities: Vec<String> = fitting
                .iter()
                .flatten()
                .filter_map(|&node| element_identity(document, node))
                .collect();
            let shared = identities
                .first()
                .filter(|first| identities.iter().all(|identity| identity == *first));
            // An identity that two elements with text share inside one record's text element,
            // in any record, names a kind of block (every paragraph in a `<div class="para">`,
            // as some themes print them), not a field: a message of one such paragraph beside a
            // quote box or a link preview holds one element of it, which is that message's
            // one paragraph and not the message. Looked at only when some record needs it.
            let needs_identity = chosen
                .iter()
                .zip(&fitting)
                .any(|(outer, inner)| outer.is_some() && inner.is_none());
            let shared = shared.filter(|shared| {
                !needs_identity
                    || !chosen.iter().flatten().any(|&outer| {
                        document
                            .descendants(outer)
                            .filter(|&node| {
                                node != outer
                                    && facts.sizes[node as usize] > 0
                                    && has_identity(document, node, shared)
                            })
                            .nth(1)
                            .is_some()
                    })
            });
            let mut compared = 0;
            let mut kept = 0;
            let mut tightened = chosen.clone();
            for (record, outer) in chosen.iter().enumerate() {
                let Some(outer) = outer else { continue };
                compared += 1;
                // The element of the identity must be the only one of it in the record's text:
                // an identity that several elements of one message share (every paragraph in a
                // `<div class="para">`, as some themes print them) names a kind of block, not a
                // field, and the first such block is not the message.
                let same_identity = |shared: &str| {
                    let mut found = document.descendants(*outer).filter(|&node| {
                        node != *outer
                            && facts.sizes[node as usize] > 0
                            && has_identity(document, node, shared)
                    });
                    let first = found.next()?;
                    found.next().is_none().then_some(first)
                };
                let inner =
                    fitting[record].or_else(|| shared.and_then(|shared| same_identity(shared)));
                if let Some(inner) = inner {
                    kept += 1;
                    tightened[record] = Some(inner);
                }
            }
            // A record where the tighter column neither fits nor has its identity keeps its
            // wider element: an empty post is worse than one with a line too many.
            (kept > 0 && kept * 10 >= compared * 9).then_some(tightened)
        });
        match tighter {
            Some(values) => chosen = values,
            None => break,
        }
    }
    fill_records_marked_apart(facts, region, &holds_field, &mut chosen);
    chosen
}

/// Gives a record that the text column missed the element standing where the column's elements
/// stand, looked for in two ways. First below the record's root, when the root alone is made
/// differently: engines mark the thread's first post (or a moderator's) by a class on the post's
/// root element, which moves all of that post's fields into columns of their own (see
/// [`column_below_root`]), so its message came out empty though it sits where every other
/// message does. Then by the way down from the root in tags and classes alone, without the
/// positions among siblings: an element that one record has and the others lack, standing
/// before the message among elements of its tag (a wrapper a theme puts around the first
/// post's title only, an attachment note, a moderator's banner), moves the message one
/// position down in that record, and its text came out empty too.
fn fill_records_marked_apart(
    facts: &PageFacts<'_>,
    region: usize,
    holds_field: &[bool],
    chosen: &mut [Option<NodeId>],
) {
    fill_missed_records(facts, region, holds_field, chosen, column_below_root);
    fill_missed_records(
        facts,
        region,
        holds_field,
        chosen,
        way_down_by_tags_and_classes,
    );
}

/// Gives every record without a text element the one element of the record that stands at the
/// place `place` gives (from the record's member and the element) to all of the column's
/// elements, when they agree on one and the record holds exactly one there that holds text and
/// no field: two or more (the paragraphs of a message, made alike) tell nothing.
fn fill_missed_records(
    facts: &PageFacts<'_>,
    region: usize,
    holds_field: &[bool],
    chosen: &mut [Option<NodeId>],
    place: fn(&Document, NodeId, NodeId) -> u64,
) {
    if chosen.iter().all(Option::is_some) {
        return;
    }
    let document = facts.document;
    let piece = &facts.regions[region];
    let member_holding = |record: usize, node: NodeId| {
        piece
            .record_nodes(document, record)
            .into_iter()
            .find(|&member| member == node || is_ancestor(document, member, node))
    };
    let mut places: Vec<u64> = chosen
        .iter()
        .enumerate()
        .filter_map(|(record, node)| {
            let node = (*node)?;
            Some(place(document, member_holding(record, node)?, node))
        })
        .collect();
    // The column's elements must agree on where they stand, or there is no place to look in.
    places.dedup();
    let [wanted] = places[..] else { return };
    for (record, value) in chosen.iter_mut().enumerate() {
        if value.is_some() {
            continue;
        }
        let mut found = piece
            .record_nodes(document, record)
            .into_iter()
            .flat_map(|member| document.descendants(member).map(move |node| (member, node)))
            .filter(|&(member, node)| {
                document.node(node).kind == NodeKind::Element
                    && facts.sizes[node as usize] > 0
                    && !holds_field[node as usize]
                    && place(document, member, node) == wanted
            })
            .map(|(_, node)| node);
        let first = found.next();
        if found.next().is_none() {
            *value = first;
        }
    }
}

/// A hash of the way from the record's member `member` down to `node`: every element's tag and
/// class (digits left out, as numbered classes name one field), without the positions among
/// siblings that [`column_below_root`] counts, and the member by its tag alone.
fn way_down_by_tags_and_classes(document: &Document, member: NodeId, node: NodeId) -> u64 {
    let mut hash = SmallKeyHasher::default();
    let mut current = node;
    while current != member {
        let data = document.node(current);
        hash.write(data.tag().as_bytes());
        hash.write_u8(b'.');
        if let Some(class) = document.attribute(current, "class") {
            for byte in class.bytes().filter(|byte| !byte.is_ascii_digit()) {
                hash.write_u8(byte);
            }
        }
        hash.write_u8(b'/');
        match data.parent {
            Some(parent) => current = parent,
            None => return hash.finish(),
        }
    }
    hash.write(document.node(member).tag().as_bytes());
    hash.finish()
}

/// Per record, the rows of buttons inside its text element: elements whose every word is a
/// link's or a button's ("Reply Quote", "Antworten Zitieren") standing at one place below the
/// text element in at least half of the records, with one same text in more than half of them.
/// Engines that print a post's buttons inside the element of its message (under the message,
/// beside the signature) made them the last line of every post; a link that the author wrote
/// says something of its own, and a row that only some posts show (a moderator's tools) is not
/// repeated enough to be taken.
pub(super) fn repeated_control_rows(
    facts: &PageFacts<'_>,
    bodies: &[Option<NodeId>],
) -> Vec<Vec<NodeId>> {
    let document = facts.document;
    let records = bodies.len();
    let mut rows: Vec<Vec<NodeId>> = vec![Vec::new(); records];
    if records < 2 {
        return rows;
    }
    // (place of the row, per record the row there and its words). A row is known by its tag
    // and class where it has one, since a signature shown above it in some posts only moves it
    // one sibling down; else by its column below the text element.
    let mut columns: Vec<(String, Vec<Option<RowAndWords>>)> = Vec::new();
    for (record, body) in bodies.iter().enumerate() {
        let Some(body) = *body else { continue };
        for row in control_rows(document, body) {
            let column = element_identity(document, row)
                .unwrap_or_else(|| format!("column {}", column_below_root(document, body, row)));
            let words = document
                .text_content(row)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let index = match columns.iter().position(|(seen, _)| *seen == column) {
                Some(index) => index,
                None => {
                    columns.push((column, vec![None; records]));
                    columns.len() - 1
                }
            };
            columns[index].1[record].get_or_insert((row, words));
        }
    }
    for (_, values) in columns {
        let present: Vec<&(NodeId, String)> = values.iter().flatten().collect();
        if present.len() * 2 < records || present.len() < 2 {
            continue;
        }
        let Some(shared) = present.iter().map(|(_, words)| words).find(|words| {
            present.iter().filter(|(_, other)| other == *words).count() * 2 > records
        }) else {
            continue;
        };
        for (record, value) in values.iter().enumerate() {
            if let Some((row, words)) = value
                && words == shared
            {
                rows[record].push(*row);
            }
        }
    }
    rows
}

/// A row of buttons and the words it shows.
type RowAndWords = (NodeId, String);

/// The outermost elements below `body` whose words are all inside links or buttons, and that
/// have a word.
fn control_rows(document: &Document, body: NodeId) -> Vec<NodeId> {
    let mut rows = Vec::new();
    let mut walk = document.descendants(body);
    while let Some(node) = walk.next() {
        if node == body || document.node(node).kind != NodeKind::Element {
            continue;
        }
        let mut worded = false;
        let mut free_words = false;
        for inner in document.descendants(node) {
            if document.node(inner).kind != NodeKind::Text
                || !document.text_of(inner).chars().any(char::is_alphanumeric)
            {
                continue;
            }
            worded = true;
            let mut current = document.node(inner).parent;
            let mut controlled = false;
            while let Some(ancestor) = current {
                let data = document.node(ancestor);
                if data.is("a") || data.is("button") {
                    controlled = true;
                    break;
                }
                if ancestor == node {
                    break;
                }
                current = data.parent;
            }
            if !controlled {
                free_words = true;
                break;
            }
        }
        if worded && !free_words {
            rows.push(node);
            walk.skip_children();
        }
    }
    rows
}

/// Whether more than half of a column's values show one same text: template text repeated
/// in every record, not messages. Needs two values to tell.
fn repeats_one_text(
    document: &Document,
    sizes: &[u32],
    texts: &mut PostTexts,
    values: &[Option<NodeId>],
) -> bool {
    // Equal texts have equal sizes: unless more than half the values share a size, no text is
    // shared either, and the texts (whole posts) need not be read. Most columns end here.
    let mut value_sizes: Vec<u32> = values
        .iter()
        .flatten()
        .map(|&node| sizes[node as usize])
        .collect();
    value_sizes.sort_unstable();
    let most_sharing = value_sizes
        .chunk_by(|a, b| a == b)
        .map(<[u32]>::len)
        .max()
        .unwrap_or(0);
    if most_sharing * 2 <= value_sizes.len() {
        return false;
    }
    let shown: Vec<Rc<str>> = values
        .iter()
        .flatten()
        .map(|&node| texts.shown(document, node))
        .collect();
    if shown.len() < 2 {
        return false;
    }
    // Counted against the first values only: a text shared by more than half of the values is
    // among the first half plus one of them.
    shown
        .iter()
        .take(shown.len() / 2 + 1)
        .any(|text| shown.iter().filter(|other| *other == text).count() * 2 > shown.len())
}

/// The texts of elements read while choosing the text column, kept by element: the tightening
/// compares the same elements again on every round and for every candidate column, and the
/// chosen elements' texts are the posts' texts. Reading each element once halves the cost of
/// reading a page's posts.
#[derive(Default)]
pub(super) struct PostTexts {
    /// [`block_text`] by element.
    block: HashMap<NodeId, Rc<str>, BuildHasherDefault<SmallKeyHasher>>,
    /// The text as a post shows it (signatures left out), without whitespace, for comparing what
    /// two nested elements show.
    shown: HashMap<NodeId, Rc<str>, BuildHasherDefault<SmallKeyHasher>>,
}

impl PostTexts {
    /// [`block_text`] of `node`, read on first use.
    pub(super) fn block(&mut self, document: &Document, node: NodeId) -> Rc<str> {
        self.block
            .entry(node)
            .or_insert_with(|| Rc::from(block_text(document, node)))
            .clone()
    }

    /// The shown text of `node`, read on first use.
    fn shown(&mut self, document: &Document, node: NodeId) -> Rc<str> {
        if let Some(shown) = self.shown.get(&node) {
            return shown.clone();
        }
        let block = self.block(document, node);
        let shown: Rc<str> = Rc::from(without_whitespace(&block));
        self.shown.insert(node, shown.clone());
        shown
    }
}

/// `text` with every whitespace character (as [`char::is_whitespace`] says) left out.
///
/// Copied run by run between whitespace rather than character by character: posts are read
/// whole for every element the text column is tightened to, and pushing each character
/// separately was a third of that reading.
fn without_whitespace(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut run_start = 0;
    let bytes = text.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        // ASCII bytes are judged alone; any other character is decoded, since some (no-break
        // and ideographic spaces) are whitespace.
        let (whitespace, width) = if byte.is_ascii() {
            (matches!(byte, b'\t'..=b'\r' | b' '), 1)
        } else {
            let character = text[index..]
                .chars()
                .next()
                .expect("a character starts here");
            (character.is_whitespace(), character.len_utf8())
        };
        if whitespace {
            kept.push_str(&text[run_start..index]);
            run_start = index + width;
        }
        index += width;
    }
    kept.push_str(&text[run_start..]);
    kept
}

/// Whether `inner` (whose text is `inner_size` bytes) shows at least 80 % of `outer_shown`, and
/// only text that `outer_shown` shows too: a signature block holds much text, but none of the
/// post's.
fn keeps_most_of(
    document: &Document,
    texts: &mut PostTexts,
    inner_size: u32,
    inner: NodeId,
    outer_shown: &str,
) -> bool {
    if !may_keep_most_of(inner_size, outer_shown) {
        return false;
    }
    let inner_shown = texts.shown(document, inner);
    inner_shown.len() * 5 >= outer_shown.len() * 4 && outer_shown.contains(&*inner_shown)
}

/// The cheap half of [`keeps_most_of`]: raw sizes count whitespace inside text nodes that the
/// shown text drops, so this test can only overestimate; the exact one runs on the few elements
/// that pass it.
fn may_keep_most_of(inner_size: u32, outer_shown: &str) -> bool {
    (inner_size as usize) * 5 >= outer_shown.len() * 4
}

/// Whether [`element_identity`] of `node` is `identity`, compared without building the
/// node's identity: the search for a field by identity visits whole posts for every candidate
/// column.
pub(super) fn has_identity(document: &Document, node: NodeId, identity: &str) -> bool {
    let data = document.node(node);
    if data.kind != NodeKind::Element {
        return false;
    }
    let (mark, value) = match document.attribute(node, "id") {
        Some(id) => ("#", id),
        None => match document.attribute(node, "class") {
            Some(class) => (".", class),
            None => return false,
        },
    };
    let Some(expected) = identity
        .strip_prefix(&**data.tag())
        .and_then(|rest| rest.strip_prefix(mark))
    else {
        return false;
    };
    // An identity's letters are never empty and never start or end with whitespace (they are
    // trimmed), so they equal the trimmed digit-less value exactly when the value is
    // whitespace, then those letters, then whitespace.
    if expected.is_empty() {
        return false;
    }
    let mut letters = value
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .skip_while(|c| c.is_whitespace());
    expected
        .chars()
        .all(|wanted| letters.next() == Some(wanted))
        && letters.all(char::is_whitespace)
}

/// What names an element apart from its position: its tag with its id, or else its class, with
/// digits removed, so that the numbered elements of one template field compare equal. Elements
/// with neither have no identity.
pub(super) fn element_identity(document: &Document, node: NodeId) -> Option<String> {
    let data = document.node(node);
    if data.kind != NodeKind::Element {
        return None;
    }
    let name = document
        .attribute(node, "id")
        .map(|id| ("#", id))
        .or_else(|| document.attribute(node, "class").map(|class| (".", class)))?;
    let letters: String = name.1.chars().filter(|c| !c.is_ascii_digit()).collect();
    if letters.trim().is_empty() {
        return None;
    }
    Some(format!("{}{}{}", data.tag(), name.0, letters.trim()))
}

#[cfg(test)]
mod tests {
    use super::without_whitespace;

    #[test]
    fn whitespace_removal_matches_a_character_filter() {
        let cases = [
            "",
            "   ",
            "a b\tc\nd",
            "no-break\u{a0}space",
            "ideographic\u{3000}space 日本",
            "\u{85}\u{2028}line separators\u{2029}",
            "ünïcödé  text ",
        ];
        for text in cases {
            let expected: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(without_whitespace(text), expected, "{text:?}");
        }
    }
}
