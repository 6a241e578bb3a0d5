//! Thread entries that the chosen entry region leaves out.
//!
//! Board pages show two kinds of entries apart from the run of records that makes their thread
//! list:
//!
//! - **records of the same template shown apart**: sticky threads and announcements sit in a list
//!   of their own above the normal threads (phpBB's announcement box, XenForo's sticky group), or
//!   are split from them by a separator row (vBulletin's "Normal Threads" row, Discuz!'s
//!   separator line). One sticky thread makes a list of one record, which repeats nothing, so no
//!   region holds it. Such a record is recognised by the pattern id it would carry if it repeated
//!   ([`crate::regions::single_record_candidates`]): the id is a hash of the template path from
//!   the root and the record's own tag and class, so only a record of the entry template placed
//!   in a list of the same template carries the entry region's id. Other regions of that id
//!   (two sticky threads) are gathered the same way.
//! - **the lone entry of a board page holding one thread** (the last page of a board whose
//!   thread count is one more than a multiple of the page size). The page's only list of thread
//!   links is then a "latest threads" box, which the entry region search picks. The lone entry
//!   is recognised by what an entry is made of: a link to a thread (a URL of the same shape as the
//!   box's thread links, see [`UrlShape`]) in a short element that also shows a count and a
//!   date. It replaces the box when it shows more count columns than the box's records do
//!   (boards show replies and views, boxes at most one count), the same test that ranks regions.
//!   A record of the board's own template would need a page where the list repeats to be
//!   known, which a page read alone does not have.

use super::*;
use crate::regions::single_record_candidates;

/// An element holding more text than this is a page section (a post, a sidebar), not one thread
/// entry: entries show a title, one or two names, two dates and a few counts.
const LONGEST_ENTRY: u32 = 600;
/// How many levels above a thread link its entry's element may be (a table row around a cell
/// around a title block around the link).
const ENTRY_DEPTH: usize = 6;

/// Which records the thread entries are read from.
pub(super) enum EntryRecords {
    /// The chosen region's records alone.
    Region,
    /// The chosen region's records and records of the same template shown apart, as one
    /// region in page order.
    Gathered(Region),
    /// The page's lone thread entry, read already.
    Lone(Vec<ThreadEntry>),
}

/// The records to read thread entries from, given the chosen entry region `region` and its rank.
pub(super) fn entry_records(facts: &PageFacts<'_>, region: usize, rank: EntryRank) -> EntryRecords {
    if let Some(lone) = lone_entry(facts, region, rank) {
        return EntryRecords::Lone(lone);
    }
    match same_template_records(facts, region) {
        Some(gathered) => EntryRecords::Gathered(gathered),
        None => EntryRecords::Region,
    }
}

/// The chosen region widened by the records of the same template outside it, when there are
/// any: other regions of its pattern and width, and lone elements that would carry its pattern.
fn same_template_records(facts: &PageFacts<'_>, region: usize) -> Option<Region> {
    let document = facts.document;
    let chosen = &facts.regions[region];
    let mut records: Vec<NodeId> = chosen.records.clone();
    for (index, other) in facts.regions.iter().enumerate() {
        if index != region && other.pattern == chosen.pattern && other.width == chosen.width {
            for &record in &other.records {
                offer_record(document, &mut records, record);
            }
        }
    }
    for candidate in single_record_candidates(document) {
        if candidate.pattern == chosen.pattern && candidate.width == chosen.width {
            offer_record(document, &mut records, candidate.first);
        }
    }
    // A sticky thread in the same list as the others, marked by a class on its row alone
    // (`<tr class="sticky">`), carries another pattern and breaks the run, though below its
    // root it is made like the records: the same tag with children of the same tags and
    // classes.
    if chosen.width == 1
        && let Some(children) = common_children(document, &chosen.records)
    {
        let tag = document.node(chosen.records[0]).tag();
        for sibling in document.children(chosen.parent) {
            let data = document.node(sibling);
            if data.kind == NodeKind::Element
                && data.tag() == tag
                && child_identities(document, sibling) == children
                && facts.sizes[sibling as usize] > 0
            {
                offer_record(document, &mut records, sibling);
            }
        }
    }
    if records.len() == chosen.records.len() {
        return None;
    }
    // Page order: sticky threads come first on the page and must come first in the entries.
    let mut position = vec![usize::MAX; document.len()];
    for (index, node) in document.descendants(ROOT).enumerate() {
        position[node as usize] = index;
    }
    records.sort_by_key(|&record| position[record as usize]);
    Some(Region {
        records,
        ..chosen.clone()
    })
}

/// The tags and classes of the element children that every one of `records` has, in order,
/// when they all have the same ones and there are some.
fn common_children(document: &Document, records: &[NodeId]) -> Option<Vec<String>> {
    let first = child_identities(document, *records.first()?);
    (!first.is_empty()
        && records
            .iter()
            .all(|&record| child_identities(document, record) == first))
    .then_some(first)
}

/// The tag and class (digits aside) of each element child of `node`, in order.
fn child_identities(document: &Document, node: NodeId) -> Vec<String> {
    document
        .children(node)
        .filter(|&child| document.node(child).kind == NodeKind::Element)
        .map(|child| {
            let class: String = document
                .attribute(child, "class")
                .unwrap_or("")
                .chars()
                .filter(|c| !c.is_ascii_digit())
                .collect();
            format!("{}.{}", document.node(child).tag(), class.trim())
        })
        .collect()
}

/// Adds `record` to `records` unless it is one of them, holds one or lies inside one.
fn offer_record(document: &Document, records: &mut Vec<NodeId>, record: NodeId) {
    let overlaps = records.iter().any(|&known| {
        known == record
            || is_ancestor(document, known, record)
            || is_ancestor(document, record, known)
    });
    if !overlaps {
        records.push(record);
    }
}

/// The thread entry of a board page holding a single thread, when the chosen region `region`
/// (ranked `rank`) is a box of thread links with fewer count columns than that entry shows.
fn lone_entry(facts: &PageFacts<'_>, region: usize, rank: EntryRank) -> Option<Vec<ThreadEntry>> {
    let titles = title_column(facts, region)?;
    let shape = most_common_shape(titles.iter().flatten().map(|(_, _, url)| *url))?;
    read_lone_entry(facts, Some(region), Some(&shape), rank.count_columns)
}

/// The thread entry of a board page holding a single thread and no other list of threads (no
/// "latest threads" box to learn the shape of thread links from): a title link in a short
/// element that shows two counts (replies and views, as a board's list does) and a date when
/// the thread was written to, the only such element of the page, on a page holding no element
/// made like a post.
pub(in crate::records) fn lone_entry_without_list(facts: &PageFacts<'_>) -> Vec<ThreadEntry> {
    let Some(entry) = read_lone_entry(facts, None, None, 1) else {
        return Vec::new();
    };
    // A thread page of one post shows a title, counts and a date in the post's header as
    // well: a page holding an element made like a post is that thread's page, not a board's.
    if crate::records::lone_post_element(facts).is_some() {
        return Vec::new();
    }
    entry
}

/// The lone entry outside region `region` (when given) whose title link has URL shape `shape`
/// (each link's own when none is given), read when it shows more than `fewer_counts` count
/// columns.
fn read_lone_entry(
    facts: &PageFacts<'_>,
    region: Option<usize>,
    shape: Option<&UrlShape>,
    fewer_counts: usize,
) -> Option<Vec<ThreadEntry>> {
    let document = facts.document;
    // (the entry's element, its title link's text and URL), the title first among the links
    // of one element: further links of the entry (its start date, its last page) point to the
    // same thread.
    let mut candidates: Vec<(NodeId, (String, String))> = Vec::new();
    // Which elements show a count, found in one pass over the page rather than once for every
    // level above every titled link.
    let holds_count = nodes_holding(
        document,
        document
            .descendants(ROOT)
            .filter_map(|node| count_of_text(facts, node).map(|(parent, _)| parent)),
    );
    for link in facts.links {
        let text = link.text.trim();
        if region.is_some_and(|region| facts.place(region, link.node).is_some())
            || !title_like(text)
            || !near_a_count_and_a_date(facts, &holds_count, link.node)
        {
            continue;
        }
        // Parsing the URL is the costly part, left for the few links the test above keeps.
        let Some(link_shape) = UrlShape::of(&link.url) else {
            continue;
        };
        if shape.is_some_and(|shape| *shape != link_shape) {
            continue;
        }
        let Some(element) = entry_element(facts, &holds_count, link.node, &link.url, &link_shape)
        else {
            continue;
        };
        // Without a list of threads beside it, a member's box in a post (a name, post and
        // point counts, the join date) is made like an entry too; an entry's date is when its
        // thread was last written to, never a date the page labels as a join or visit date.
        if shape.is_none()
            && !facts.dates.iter().any(|date| {
                date.may_be_record_time()
                    && (date.element == element || is_ancestor(document, element, date.element))
            })
        {
            continue;
        }
        // Nor is a post's header and footer ("Posts: 152" beside the name, "Posted on: ..."
        // beside a "Link" button): a board's row shows its counts bare, each in a cell of its
        // own (replies, views).
        if shape.is_none() && bare_numbers(document, element) < 2 {
            continue;
        }
        if !candidates.iter().any(|(known, _)| *known == element) {
            candidates.push((element, (text.to_string(), link.url.clone())));
        }
    }
    // Without the shape of thread links to go by, any link of a small page finds the whole
    // page "showing a count and a date": of elements holding one another, the innermost is the
    // entry.
    if shape.is_none() {
        let elements: Vec<NodeId> = candidates.iter().map(|(element, _)| *element).collect();
        candidates.retain(|(element, _)| {
            !elements
                .iter()
                .any(|&other| is_ancestor(document, *element, other))
        });
    }
    // Two entries outside every list are not one lone entry: a region would hold them if they
    // were the board's list.
    let [(element, (title, url))] = <[_; 1]>::try_from(candidates).ok()?;
    let mut regions = facts.regions.to_vec();
    regions.push(Region {
        parent: document.node(element).parent?,
        width: 1,
        records: vec![element],
        pattern: 0,
        text_share: 0.0,
        node_share: 0.0,
    });
    let slots = record_slots(document, &regions);
    let widened = facts.with_regions(&regions, &slots);
    let lone = regions.len() - 1;
    if count_columns(&widened, lone).len().min(2) <= fewer_counts {
        return None;
    }
    let author = choose_author_column(&widened, lone)
        .into_iter()
        .next()
        .flatten()
        .map(|(_, name)| name)
        .filter(|name| *name != title);
    Some(vec![ThreadEntry {
        title,
        url,
        author,
        replies: integer_column(&widened, lone)[0],
        last_reply: latest_date_column(&widened, lone)[0],
    }])
}

/// How many texts below `element` are a number alone ("17", "1,204"), signed or not: a
/// question's score below zero ("-1", "−2") is shown bare as well, beside its answer count.
fn bare_numbers(document: &Document, element: NodeId) -> usize {
    document
        .descendants(element)
        .filter(|&node| {
            document.node(node).kind == NodeKind::Text && {
                let text = trim_whitespace(document.text_of(node));
                let text = text.strip_prefix(['-', '−', '+']).unwrap_or(text);
                text.bytes().any(|byte| byte.is_ascii_digit())
                    && text
                        .bytes()
                        .all(|byte| byte.is_ascii_digit() || byte == b',' || byte == b'.')
            }
        })
        .count()
}

/// Whether an element within [`ENTRY_DEPTH`] levels above `link`, and no larger than an entry,
/// shows both a count and a date: what [`entry_element`] needs first, tested without reading
/// any URL.
fn near_a_count_and_a_date(facts: &PageFacts<'_>, holds_count: &[bool], link: NodeId) -> bool {
    let mut element = link;
    for _ in 0..ENTRY_DEPTH {
        let Some(parent) = facts.document.node(element).parent else {
            return false;
        };
        element = parent;
        if facts.sizes[element as usize] > LONGEST_ENTRY {
            return false;
        }
        if facts.holds_date[element as usize] && holds_count[element as usize] {
            return true;
        }
    }
    false
}

/// The closest element above thread link `link` (to `url`) that shows a count and a date and no
/// titled link to another thread of the same URL shape, within [`ENTRY_DEPTH`] levels and
/// [`LONGEST_ENTRY`] bytes of text.
fn entry_element(
    facts: &PageFacts<'_>,
    holds_count: &[bool],
    link: NodeId,
    url: &str,
    shape: &UrlShape,
) -> Option<NodeId> {
    let document = facts.document;
    let mut element = link;
    for _ in 0..ENTRY_DEPTH {
        element = document.node(element).parent?;
        if facts.sizes[element as usize] > LONGEST_ENTRY {
            return None;
        }
        // The cheap tests first: this runs for every titled link of a page when no list of
        // threads shows the shape of their links. An element that fails them is left for its
        // parent, which holds every link this one holds, so a link to another thread found
        // there ends the search as it would have here.
        let counted = facts.holds_date[element as usize] && holds_count[element as usize];
        if !counted {
            continue;
        }
        // Links without a title of their own (an icon to the last post, a page number, the
        // reply count) may point elsewhere in the same thread.
        // Whether the link lies inside the element is asked first: it is the cheapest test
        // and the one most links of a page fail.
        let other_thread = facts.links.iter().any(|other| {
            is_ancestor(document, element, other.node)
                && other.url != url
                && title_like(other.text.trim())
                && UrlShape::of(&other.url).as_ref() == Some(shape)
        });
        return (!other_thread).then_some(element);
    }
    None
}

/// Whether a link's text can be a thread title: three characters or more, not a number.
fn title_like(text: &str) -> bool {
    text.chars().count() >= 3 && !text.chars().all(|c| c.is_ascii_digit())
}

/// The URL shape most of `urls` have.
fn most_common_shape<'url>(urls: impl Iterator<Item = &'url str>) -> Option<UrlShape> {
    let mut counted: Vec<(UrlShape, usize)> = Vec::new();
    for shape in urls.filter_map(UrlShape::of) {
        match counted.iter_mut().find(|(known, _)| *known == shape) {
            Some((_, count)) => *count += 1,
            None => counted.push((shape, 1)),
        }
    }
    counted
        .into_iter()
        .max_by_key(|(_, count)| *count)
        .map(|(shape, _)| shape)
}

/// What the URLs of one kind of page share on a forum: the host, the number of path segments,
/// the first segment with its digits blurred, which segments are numbers alone, and the query's
/// parameter names. Thread links
/// (`showthread.php?t=7`, `/threads/some-title.143/`, `/thread-13-1-1.html`) share theirs, and
/// differ from profile, board and page links.
#[derive(Debug, Clone, PartialEq, Eq)]
struct UrlShape {
    host: String,
    segments: usize,
    first_segment: String,
    /// Per path segment, whether it is a number alone: a thread's `/questions/13/slug/` and a
    /// tag's listing `/questions/tagged/hardware/` have as many segments under one first
    /// segment, but only the thread's is numbered there.
    numbered: Vec<bool>,
    parameters: Vec<String>,
}

impl UrlShape {
    fn of(url: &str) -> Option<UrlShape> {
        let parsed = url::Url::parse(url).ok()?;
        let segments: Vec<&str> = parsed
            .path_segments()
            .map(|segments| segments.collect())
            .unwrap_or_default();
        let mut first_segment = String::new();
        for character in segments.first().copied().unwrap_or("").chars() {
            // A run of digits becomes one mark: `thread-13-1-1.html` and `thread-224-1-1.html`.
            if character.is_ascii_digit() {
                if !first_segment.ends_with('#') {
                    first_segment.push('#');
                }
            } else {
                first_segment.push(character);
            }
        }
        let mut parameters: Vec<String> = parsed
            .query_pairs()
            .map(|(name, _)| name.into_owned())
            .collect();
        parameters.sort_unstable();
        parameters.dedup();
        Some(UrlShape {
            host: parsed.host_str().unwrap_or("").to_string(),
            segments: segments.len(),
            first_segment,
            numbered: segments
                .iter()
                .map(|segment| {
                    !segment.is_empty() && segment.bytes().all(|byte| byte.is_ascii_digit())
                })
                .collect(),
            parameters,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `first` and `second` have one URL shape.
    fn check(first: &str, second: &str, same: bool) {
        let shape = |url: &str| UrlShape::of(url).expect("a valid URL");
        assert_eq!(shape(first) == shape(second), same, "{first} and {second}");
    }

    #[test]
    fn thread_links_share_a_shape_that_other_links_lack() {
        let cases = [
            (
                "http://f.test/questions/13/looks-coffee/",
                "http://f.test/questions/214/odd-driver/",
                true,
            ),
            (
                "http://f.test/questions/13/looks-coffee/",
                "http://f.test/questions/tagged/hardware/",
                false,
            ),
            (
                "http://f.test/showthread.php?s=ab&t=7",
                "http://f.test/showthread.php?s=ab&t=240",
                true,
            ),
            (
                "http://f.test/showthread.php?t=7",
                "http://f.test/member.php?u=7",
                false,
            ),
            (
                "http://f.test/showthread.php?t=7",
                "http://f.test/showthread.php?t=7&page=2",
                false,
            ),
            (
                "http://f.test/thread-13-1-1.html",
                "http://f.test/thread-224-1-1.html",
                true,
            ),
            (
                "http://f.test/thread-13-1-1.html",
                "http://f.test/space-uid-44.html",
                false,
            ),
            (
                "http://f.test/threads/but-plan-new.143/",
                "http://f.test/threads/odd.13/",
                true,
            ),
            (
                "http://f.test/threads/odd.13/",
                "http://f.test/members/rana9.9/",
                false,
            ),
            (
                "http://f.test/index.php?topic=13.0;PHPSESSID=x",
                "http://f.test/index.php?topic=66.0",
                true,
            ),
            (
                "http://f.test/index.php?topic=13.0",
                "http://f.test/index.php?action=profile;u=5",
                false,
            ),
            (
                "http://f.test/t/b8da45e0.html",
                "http://f.test/t/d239eaeb.html",
                true,
            ),
            (
                "http://f.test/t/b8da45e0.html",
                "http://f.test/u/b908f755.html",
                false,
            ),
            (
                "http://f.test/t/b8da45e0.html",
                "http://g.test/t/d239eaeb.html",
                false,
            ),
        ];
        for (first, second, same) in cases {
            check(first, second, same);
        }
    }

    #[test]
    fn most_common_shape_is_the_majority_one() {
        let urls = [
            "http://f.test/u/ann",
            "http://f.test/t/one/1",
            "http://f.test/t/two/2",
            "http://f.test/t/three/3",
        ];
        assert_eq!(
            most_common_shape(urls.into_iter()),
            UrlShape::of("http://f.test/t/four/4")
        );
        assert_eq!(most_common_shape(std::iter::empty()), None);
    }

    #[test]
    fn titles_have_three_characters_and_are_not_numbers() {
        for (text, expected) in [
            ("Hello world", true),
            ("怎么充电", true),
            ("Hi", false),
            ("123", false),
            ("2nd try", true),
        ] {
            assert_eq!(title_like(text), expected, "{text}");
        }
    }
}
