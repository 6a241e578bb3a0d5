//! What tells a member's name from the other short texts of a post's user box when the markup
//! marks nothing as a name (a theme whose classes are words of its own): the structure the
//! page shows them in. Labels of a profile card, hidden boxes, clock parts and permalinks are
//! refused; a name stands in the box that holds it whatever nests inside; and a thread that one
//! member writes alone is named by the first short text of the user box.

use super::PageFacts;
use super::author_signals;
use super::authors::{AuthorColumn, shows_several_names};
use crate::dom::{Document, NodeId, NodeKind};

/// Whether an element that nothing marks as a name is shown as something else, by structure
/// alone (a theme whose classes are words of its own leaves nothing else to go by):
///
/// - a term of a definition list of several terms (`<dl><dt>Location</dt><dd>..</dd><dt>Posts
///   </dt>..`) is a label, whatever language it is in: the list pairs labels with the values of
///   a profile's fields, and which labels a record shows varies with what its author filled in,
///   so they vary like names. A list of one term (FluxBB's `<dt><strong>name</strong></dt>`
///   above the user title) is the name's;
/// - an element inside a box the page hides (`style="display:none"`, `hidden`) is not shown,
///   as a profile card that opens on a click is not;
/// - a text that reads whole as a date or a time of day ("13h16", "9:05 PM") is a part of the
///   post time shown in an element of its own, never a name.
pub(super) fn unmarked_name_refused(
    document: &Document,
    node: NodeId,
    member: NodeId,
    text: &str,
) -> bool {
    let mut current = Some(node);
    while let Some(element) = current {
        if hidden_by_markup(document, element)
            || is_term_of_several(document, element)
            || links_into_the_page(document, element)
        {
            return true;
        }
        if element == member {
            break;
        }
        current = document.node(element).parent;
    }
    reads_as_a_time(text)
}

/// Whether the element is a link to an element of the page itself (`href="#p9100"`): a post's
/// permalink, often shown as its subject, never a member's profile, which is another page.
fn links_into_the_page(document: &Document, element: NodeId) -> bool {
    document.node(element).is("a")
        && document
            .attribute(element, "href")
            .is_some_and(names_an_element_of_the_page)
}

/// Whether `href` is a fragment naming an element of the page (`#p9100`); a bare `#` is a
/// link to `#` that scripts fill in and that leads nowhere by itself.
pub(super) fn names_an_element_of_the_page(href: &str) -> bool {
    href.trim()
        .strip_prefix('#')
        .is_some_and(|name| !name.is_empty())
}

/// Whether the element is hidden by its own markup: a `hidden` attribute, or an inline style
/// that sets `display: none` or `visibility: hidden`.
fn hidden_by_markup(document: &Document, element: NodeId) -> bool {
    document.attribute(element, "hidden").is_some()
        || document.attribute(element, "style").is_some_and(|style| {
            let folded: String = style
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
                .to_ascii_lowercase();
            folded.contains("display:none") || folded.contains("visibility:hidden")
        })
}

/// Whether the element is a `<dt>` whose definition list holds another `<dt>`.
fn is_term_of_several(document: &Document, element: NodeId) -> bool {
    if !document.node(element).is("dt") {
        return false;
    }
    let Some(list) = document.node(element).parent else {
        return false;
    };
    document
        .children(list)
        .filter(|&child| document.node(child).is("dt"))
        .nth(1)
        .is_some()
}

/// Whether `text` reads whole as a date or a time of day, on any day: the reading does not
/// depend on the fetch instant, so any context tells. A clock alone ("13h16", "9:05 PM",
/// "21.10"), which the date reader takes only beside a date, is told by its shape.
fn reads_as_a_time(text: &str) -> bool {
    if is_clock(text) {
        return true;
    }
    let context = crate::time::DateContext::new(jiff::Timestamp::UNIX_EPOCH, Some(0));
    crate::time::parse_time(text, &context).is_some()
}

/// Whether `text` is a clock and nothing more: one or two digits, a separator (`:`, `h`, `.`),
/// two digits, optionally seconds, optionally a meridiem glued on or an hour word after a space
/// ("PM", "Uhr", "a.m.").
fn is_clock(text: &str) -> bool {
    let text = text.trim();
    let hour_digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if !(1..=2).contains(&hour_digits) {
        return false;
    }
    let rest = &text[hour_digits..];
    let Some(rest) = rest
        .strip_prefix(':')
        .or_else(|| rest.strip_prefix('h'))
        .or_else(|| rest.strip_prefix('H'))
        .or_else(|| rest.strip_prefix('.'))
    else {
        return false;
    };
    let minutes = rest.bytes().take_while(u8::is_ascii_digit).count();
    if minutes != 2 {
        return false;
    }
    let mut rest = &rest[2..];
    if let Some(seconds) = rest.strip_prefix(':') {
        if seconds.bytes().take_while(u8::is_ascii_digit).count() != 2 {
            return false;
        }
        rest = &seconds[2..];
    }
    // A meridiem glued to the minutes is two letters ("9:05PM"); a word after a space may be
    // an hour word too ("16:40 Uhr", "9:05 a.m."). Longer letters glued on make a name
    // ("12h30fan").
    let word = rest.trim_start();
    let longest = if word.len() == rest.len() { 2 } else { 4 };
    word.chars().count() <= longest && word.chars().all(|c| c.is_alphabetic() || c == '.')
}

/// The box that shows a name: the outermost element around `node`, inside the record member
/// `member` and no followable link, whose text is `node`'s text and nothing more. Themes nest
/// the inline elements around a name differently from record to record (`<b><span
/// style=..>ana</span></b>` for one member's color, `<span style=..><b>bo</b></span>` for
/// another's), so the innermost element of a name stands in different columns while the box
/// that holds it stands in one.
pub(super) fn name_box(facts: &PageFacts<'_>, node: NodeId, member: NodeId) -> NodeId {
    let document = facts.document;
    let mut current = node;
    while current != member {
        let Some(parent) = document.node(current).parent else {
            break;
        };
        let data = document.node(parent);
        if data.kind != NodeKind::Element
            || (data.is("a") && facts.followable[parent as usize])
            || facts.sizes[parent as usize] != facts.sizes[current as usize]
        {
            break;
        }
        current = parent;
    }
    current
}

/// The column that names the one member who wrote every post of the region, when nothing else
/// names anyone: an announcement thread shows one name in every record, and a theme whose
/// markup marks nothing as a name leaves only structure to find it by. When no column shows two
/// names, the first column of unmarked elements (in the order of the record) that shows one
/// short text (a word or two, not a count) in at least half the records, and is not refused as
/// a badge, is that name: a user box shows the name first and the member's rank or title
/// after it, and labels, hidden profile cards and clock parts are refused before they get
/// here (see [`unmarked_name_refused`]).
pub(super) fn lone_writer_column(
    columns: &[AuthorColumn],
    refused: &[bool],
    records: usize,
) -> Option<usize> {
    if columns
        .iter()
        .any(|column| shows_several_names(&column.values, records))
    {
        return None;
    }
    let (index, column) = columns.iter().enumerate().find(|(index, column)| {
        column.unmarked && !refused[*index] && column.values.iter().flatten().count() * 2 >= records
    })?;
    let mut present = column
        .values
        .iter()
        .flatten()
        .map(|(_, name)| name.as_str());
    let first = present.next()?;
    (present.all(|name| name == first)
        && first.split_whitespace().count() <= 2
        && !author_signals::count_like(first))
    .then_some(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_alone_are_told_by_their_shape() {
        let cases = [
            ("13h16", true),
            ("07h48", true),
            ("9:05 PM", true),
            ("9:05PM", true),
            ("21.10", true),
            ("14:33:02", true),
            ("16:40 Uhr", true),
            ("mh34", false),
            ("12h30fan", false),
            ("R2-D2", false),
            ("123:45", false),
            ("9:5", false),
            ("alice", false),
        ];
        for (text, expected) in cases {
            assert_eq!(is_clock(text), expected, "{text}");
        }
    }
}
