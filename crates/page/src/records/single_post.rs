//! One element read as a post on its own: an opening post rendered apart above the replies, a
//! loose post between the pieces of a cut list, the one post of a page that repeats nothing.
//! Such an element has a date, an author and a body of text outside them, and no other
//! records to compare it with.

use super::anchors::anchor_of;
use super::posts::{
    followable_author_url, marks_an_edit, page_titles, without_reply_prefix, without_subject_line,
};
use super::remarks;
use super::*;
use crate::dom::{Document, NodeId, NodeKind};
use crate::regions::{column_below_root, column_of};
use crate::time::{ParsedTime, Precision};

/// Where the records of a post region show their time and their author (their columns, see
/// [`PageFacts::column`]): an element made like the records shows them in the same places.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct RecordColumns {
    /// The column of the records' times.
    pub(super) time: Option<u64>,
    /// The column of the records' authors.
    pub(super) author: Option<u64>,
}

/// Reads one element as a post when it has a date no later than the first reply, an author-like
/// link and at least a sentence of text outside them. When the element is made like the
/// records of a post region whose times and authors stand in `columns`, the date and the name
/// in those columns are the post's: the first date of such a post is often its author's join
/// date, and its name may be marked by nothing but its place.
pub(super) fn read_single_post(
    facts: &PageFacts<'_>,
    element: NodeId,
    not_after: Option<ParsedTime>,
    columns: RecordColumns,
) -> Option<Post> {
    let parts = single_post_parts(facts, element, columns)?;
    let time = parts.date.may_be_record_time().then_some(parts.date.time);
    if let (Some(limit), Some(time)) = (not_after, time)
        && time.local > limit.local
    {
        return None;
    }
    let titles = page_titles(facts.document);
    let text = without_subject_line(block_text(facts.document, parts.body), &titles);
    // A thread's title bar ("Router drops ... Discussion started by alice, May 4, 2016") is
    // dated and authored like a post, but all it says beside its date and starter is the
    // thread's title: it is the thread's header, not a post shown apart.
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if titles
        .iter()
        .any(|title| *title == without_reply_prefix(&folded))
    {
        return None;
    }
    Some(Post {
        author_url: followable_author_url(facts, parts.author.node, &parts.author.name),
        author: Some(parts.author.name),
        time,
        text,
        permalink: None,
        anchor: anchor_of(facts.document, &[element]),
        node: element,
    })
}

/// What one element read as a post on its own shows: its date, its author and the element of
/// its text.
pub(super) struct SinglePostParts {
    pub(super) date: DateCandidate,
    pub(super) author: SingleAuthor,
    pub(super) body: NodeId,
}

/// The parts of `element` read as one post, when it has a date to the day or finer (the one in
/// the time column of `columns` when there is one there, and an attribute meant for machines
/// preferred), an author (see [`single_post_author`]) and, outside both, an element with at
/// least 20 bytes of text: the largest such is the body.
pub(super) fn single_post_parts(
    facts: &PageFacts<'_>,
    element: NodeId,
    columns: RecordColumns,
) -> Option<SinglePostParts> {
    let document = facts.document;
    if facts.sizes[element as usize] < 30 {
        return None;
    }
    let inside = |node: NodeId| node == element || is_ancestor(document, element, node);
    let dated = || {
        facts.dates.iter().filter(|candidate| {
            inside(candidate.element) && candidate.time.precision >= Precision::Day
        })
    };
    // An element made like the records of a post region shows its time where they do.
    let in_column = || {
        dated().filter(|candidate| {
            columns
                .time
                .is_some_and(|column| in_column(document, element, candidate.element, column))
        })
    };
    // A date the page labels as the author's join date is taken only when there is no other:
    // it still shows that the element is a post, but it will not be given as the post's time.
    let preference = |candidate: &&DateCandidate| (candidate.profile_date, !candidate.machine);
    let date = in_column()
        .min_by_key(preference)
        .or_else(|| dated().min_by_key(preference))
        .copied()?;
    let author = single_post_author(facts, element, columns.author)?;
    // The remarks listed under the post (comments with their own authors and dates) are not
    // its body, though together they may hold more text than the body does.
    let remarks: Vec<NodeId> = dated()
        .filter_map(|candidate| remarks::remark_holding(facts, candidate.element, element))
        .collect();
    let in_or_around_remark = |node: NodeId| {
        remarks.iter().any(|&remark| {
            node == remark
                || is_ancestor(document, node, remark)
                || is_ancestor(document, remark, node)
        })
    };
    // A reply form (a box to write in, its buttons, the thread's title as its heading) is the
    // template's, however much text its labels hold: a body holds no form. Nor a hidden dialog
    // (see `is_hidden_dialog`), whose heading stands outside its form.
    let forms: Vec<NodeId> = document
        .descendants(element)
        .filter(|&node| document.node(node).is("form") || super::is_hidden_dialog(document, node))
        .collect();
    let in_or_around_form = |node: NodeId| {
        forms.iter().any(|&form| {
            node == form || is_ancestor(document, node, form) || is_ancestor(document, form, node)
        })
    };
    // A line saying when the thread was last active or the post last edited ("Last replied by
    // bob, <date>", under a topic box) is labelled and dated, and longer than a message of a few
    // words, but it is never the message: an element that is mostly such a date is left out.
    // Measured on django-simple-forum: six opening posts of one short line were read as the
    // "Last Replied By" line beside them.
    let later_activity: Vec<NodeId> = dated()
        .filter(|candidate| {
            candidate.element != date.element
                && marks_an_edit(document, candidate.element, Some(element))
        })
        .map(|candidate| candidate.element)
        .collect();
    let mostly_later_activity = |node: NodeId| {
        later_activity.iter().any(|&line| {
            (node == line || is_ancestor(document, node, line))
                && facts.sizes[line as usize] * 2 > facts.sizes[node as usize]
        })
    };
    let mut candidates: Vec<(NodeId, u32)> = document
        .descendants(element)
        .filter(|&node| {
            !(document.node(node).kind != NodeKind::Element
                || in_or_around_form(node)
                || mostly_later_activity(node)
                || node == date.element
                || is_ancestor(document, node, date.element)
                || node == author.node
                || is_ancestor(document, node, author.node)
                || in_or_around_remark(node))
        })
        .map(|node| (node, facts.sizes[node as usize]))
        .collect();
    // The largest first, the first met among equals (the outermost), as a plain scan would.
    candidates.sort_by_key(|&(_, size)| std::cmp::Reverse(size));
    // An opening post shown apart may carry the thread's title heading and the breadcrumb of
    // its board above a message shorter than either: neither is the message. Only the largest
    // candidates are tested, which keeps the test off the scan of every element.
    let (body, size) = candidates.into_iter().find(|&(node, _)| {
        !is_heading_text(document, element, node)
            && !mostly_links(facts, node)
            && !row_of_short_fields(document, node)
    })?;
    if size < 20 {
        return None;
    }
    Some(SinglePostParts { date, author, body })
}

/// Whether `node` is a heading or sits in one, looking up no further than `element`: a
/// heading names the thread or the post's subject, it is never the message.
fn is_heading_text(document: &Document, element: NodeId, node: NodeId) -> bool {
    let mut current = Some(node);
    while let Some(here) = current {
        let data = document.node(here);
        if ["h1", "h2", "h3", "h4", "h5", "h6"]
            .iter()
            .any(|heading| data.is(heading))
        {
            return true;
        }
        if here == element {
            return false;
        }
        current = data.parent;
    }
    false
}

/// Whether `node` is a row of three or more short fields side by side and no text of its own: a
/// thread's counts beside its board's name ("Networking · Replies 1 · Views 40 · Users 2"),
/// which together are longer than a message of a few words. A message's own words stand in
/// text of its element, and its paragraphs and lines are blocks, so neither is such a row.
pub(super) fn row_of_short_fields(document: &Document, node: NodeId) -> bool {
    const BLOCKS: [&str; 9] = [
        "p",
        "div",
        "br",
        "blockquote",
        "pre",
        "ul",
        "ol",
        "table",
        "hr",
    ];
    let mut fields = 0;
    for child in document.children(node) {
        let data = document.node(child);
        match data.kind {
            NodeKind::Text if !document.text_of(child).trim().is_empty() => return false,
            NodeKind::Element => {
                if BLOCKS.iter().any(|block| data.is(block))
                    || document.text_content(child).split_whitespace().count() > 3
                {
                    return false;
                }
                fields += 1;
            }
            _ => {}
        }
    }
    fields >= 3
}

/// Whether more than half of `node`'s text is the text of links: a breadcrumb or a row of
/// buttons, not a message.
fn mostly_links(facts: &PageFacts<'_>, node: NodeId) -> bool {
    let document = facts.document;
    let link_text: u32 = facts
        .links
        .iter()
        .filter(|link| link.node == node || is_ancestor(document, node, link.node))
        .map(|link| facts.sizes[link.node as usize])
        .sum();
    link_text * 2 > facts.sizes[node as usize]
}

/// The author of a post read on its own, and the element that shows it.
pub(super) struct SingleAuthor {
    pub(super) node: NodeId,
    pub(super) name: String,
}

/// Whether `node` stands in column `column` of the one-element record `element`, placed either
/// way a record's fields are (see [`PageFacts::column`]).
fn in_column(document: &Document, element: NodeId, node: NodeId, column: u64) -> bool {
    column_of(document, element, node) == column
        || column_below_root(document, element, node) == column
}

/// The author of one post element, from the plainest signal to the weakest: a name the element
/// states in an attribute (`data-author`, with its link if it has one); a name-like element
/// standing where the records of the post region show their authors (`author_column`), when
/// the element is made like them; a name-like link to a profile URL; an element whose own class
/// or itemprop says it is a name (`span.username`) and that holds no date; a name-like link
/// somewhere under author-like markup. The order matters because post headers hold buttons
/// ("Teilen", "Share") under user-menu markup too.
fn single_post_author(
    facts: &PageFacts<'_>,
    element: NodeId,
    author_column: Option<u64>,
) -> Option<SingleAuthor> {
    let document = facts.document;
    let inside = |node: NodeId| node == element || is_ancestor(document, element, node);
    if let Some(name) = author_signals::explicit_author(document, element) {
        let node = facts
            .links
            .iter()
            .find(|link| inside(link.node) && link.text.trim().eq_ignore_ascii_case(&name))
            .map_or(element, |link| link.node);
        return Some(SingleAuthor { node, name });
    }
    // A post standing alone between the pieces of a cut list is made like the list's records:
    // its name stands where theirs do, though no class or link may mark it as a name (a theme
    // whose classes are words of its own, a name in a bare `<b>`).
    if let Some(column) = author_column {
        let placed = document.descendants(element).find_map(|node| {
            if document.node(node).kind != NodeKind::Element
                || !in_column(document, element, node, column)
            {
                return None;
            }
            let text = document.text_content(node);
            let text = text.trim();
            (name_like(text) && !shows_a_date(facts, node)).then(|| SingleAuthor {
                node,
                name: text.to_string(),
            })
        });
        if placed.is_some() {
            return placed;
        }
    }
    let name_links = || {
        facts
            .links
            .iter()
            .filter(move |link| inside(link.node) && name_like(link.text.trim()))
    };
    if let Some(link) = name_links().find(|link| {
        PROFILE_HINTS
            .iter()
            .any(|hint| link.url.to_ascii_lowercase().contains(hint))
    }) {
        return Some(SingleAuthor {
            node: link.node,
            name: link.text.trim().to_string(),
        });
    }
    if let Some(author) = name_before_date(facts, element) {
        return Some(author);
    }
    for node in document.descendants(element) {
        let data = document.node(node);
        if data.kind != NodeKind::Element || data.is("a") || !own_hint(document, node) {
            continue;
        }
        let text = document.text_content(node);
        let text = text.trim();
        if name_like(text) && !shows_a_date(facts, node) {
            return Some(SingleAuthor {
                node,
                name: text.to_string(),
            });
        }
    }
    if let Some(link) = name_links().find(|link| hinted(document, link.node, element)) {
        return Some(SingleAuthor {
            node: link.node,
            name: link.text.trim().to_string(),
        });
    }
    // Last, with no word of the URL or the markup saying "member": a one-word name linking a
    // URL that spells the same name as a segment of its path (`/people/7/kestrel/`,
    // `/m/kestrel.7/`), as profiles are addressed on engines whose words are their own. A
    // thread's or a board's link spells a title of several words, a post's link no name.
    name_links()
        .find(|link| url_spells_its_name(&link.url, link.text.trim()))
        .map(|link| SingleAuthor {
            node: link.node,
            name: link.text.trim().to_string(),
        })
}

/// Whether `name`, one word, is a segment of `url`'s path, alone or before a `.` or `-` and
/// the number of the member it names, compared without regard to case.
fn url_spells_its_name(url: &str, name: &str) -> bool {
    if name.is_empty() || name.contains(char::is_whitespace) {
        return false;
    }
    let Ok(url) = url::Url::parse(url) else {
        return false;
    };
    let name = name.to_lowercase();
    url.path().split('/').any(|segment| {
        let segment = segment.to_lowercase();
        match segment.strip_prefix(name.as_str()) {
            Some("") => true,
            Some(rest) => {
                let number = rest.strip_prefix(['.', '-']).unwrap_or("");
                !number.is_empty() && number.bytes().all(|byte| byte.is_ascii_digit())
            }
            None => false,
        }
    })
}

/// A name printed before the post's date in the date's own element, parted from it by a comma
/// ("alice, May 4, 2016, 9:05 p.m."): engines that show the author in a line of text rather
/// than a link or a marked element. The words before the comma must be a name and none of them
/// a date word or a number ("Monday, May 4", "4 May, 2016"), nor a label ("Posted:").
pub(super) fn name_before_date(facts: &PageFacts<'_>, element: NodeId) -> Option<SingleAuthor> {
    let document = facts.document;
    facts
        .dates
        .iter()
        .filter(|candidate| {
            candidate.may_be_record_time()
                && !candidate.machine
                && (candidate.element == element
                    || is_ancestor(document, element, candidate.element))
        })
        .find_map(|candidate| {
            let text = document.text_content(candidate.element);
            let (before, after) = text.split_once(',')?;
            let name = before.trim();
            let plain_words = name.split_whitespace().all(|word| {
                let letters: String = word.chars().filter(|c| c.is_alphabetic()).collect();
                !letters.is_empty() && !crate::time::is_date_word(&letters)
            });
            (plain_words
                && name_like(name)
                && !name.ends_with(':')
                && after.chars().any(|c| c.is_ascii_digit()))
            .then(|| SingleAuthor {
                node: candidate.element,
                name: name.to_string(),
            })
        })
}

/// Many engines render a thread's first post apart from the replies (a question box above the
/// answers, an announcement-styled opener), so it falls outside the post region. Look just before
/// the region (preceding siblings of the first record, then of the region's ancestors, a few of
/// each) for an element with a post time, a link and a body of text, and read it as a post. Its
/// date is its time when no later than the first reply's; a date equal to the last
/// post's is the thread's last activity, shown in the header above the opening post.
///
/// The ancestors are counted by the levels that hold something beside the way up: a wrapper
/// whose only element is the one below it (a theme's `<div class="inner"><div
/// class="outer">` soup around the list of replies) separates the replies from the opening post
/// by no structure, and counting it as a level lost the opening post of pages whose theme
/// wraps the reply list a few times over.
pub(super) fn leading_post(
    facts: &PageFacts<'_>,
    region: usize,
    posts: &[Post],
    columns: RecordColumns,
) -> Option<Post> {
    let document = facts.document;
    let first = *facts.regions[region].records.first()?;
    let first_time = posts.first().and_then(|post| post.time);
    let last_time = posts
        .iter()
        .filter_map(|post| post.time)
        .map(|time| time.local)
        .max();
    let mut anchor = first;
    let mut levels = 0;
    let mut climbed = 0;
    while levels < LEADING_POST_LEVELS && climbed < LEADING_POST_MOST_ANCESTORS {
        climbed += 1;
        if has_element_siblings(document, anchor) {
            levels += 1;
        }
        let mut sibling = document.node(anchor).previous_sibling;
        let mut looked = 0;
        while let Some(candidate) = sibling {
            sibling = document.node(candidate).previous_sibling;
            if document.node(candidate).kind != NodeKind::Element {
                continue;
            }
            looked += 1;
            if looked > 3 {
                break;
            }
            let Some(mut post) = read_single_post(facts, candidate, None, columns) else {
                continue;
            };
            // An element whose only date is one the page labels as a visit or join date is a
            // header (the site's "Last visit: ..." bar beside its menu links), not a post shown
            // apart: an opening post shows when it was written.
            let Some(time) = post.time else {
                continue;
            };
            // A box that shows the first post's author and time again is the thread's header
            // ("started by alice, 17 April", its tags below), not an opening post rendered
            // apart: that post is the region's first record already.
            if posts.first().is_some_and(|first| {
                first.time == Some(time) && first.author.is_some() && first.author == post.author
            }) {
                continue;
            }
            match first_time {
                Some(first) if time.local > first.local => {
                    // A thread's header may show when the thread was last active rather than
                    // when it was opened: the time of its last post, to the minute. The opening
                    // post is read then, without a time it does not show. Any other later date
                    // (the page's clock in a header box, "it is currently ...") is no post's.
                    if last_time.is_some_and(|last| time.local == last) {
                        post.time = None;
                        return Some(post);
                    }
                }
                _ => return Some(post),
            }
        }
        anchor = document.node(anchor).parent?;
    }
    None
}

/// How many levels of ancestors holding other elements beside the way up [`leading_post`]
/// looks through: the reply list, its box, the box's heading block and the thread's column.
const LEADING_POST_LEVELS: usize = 4;

/// How many ancestors [`leading_post`] climbs at most, wrappers included, so that a page of
/// nested single-child wrappers costs a bounded walk.
const LEADING_POST_MOST_ANCESTORS: usize = 16;

/// Whether `node` has an element sibling on either side: its parent holds more than the way up.
fn has_element_siblings(document: &Document, node: NodeId) -> bool {
    let is_element = |id: NodeId| document.node(id).kind == NodeKind::Element;
    let mut before = document.node(node).previous_sibling;
    while let Some(id) = before {
        if is_element(id) {
            return true;
        }
        before = document.node(id).previous_sibling;
    }
    let mut after = document.node(node).next_sibling;
    while let Some(id) = after {
        if is_element(id) {
            return true;
        }
        after = document.node(id).next_sibling;
    }
    false
}
