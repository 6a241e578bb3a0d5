//! Records: posts on thread pages, thread entries on board pages.
//!
//! Records are read column by column, across all records of a region at once, because one record
//! alone cannot tell its post time from its author's join date, nor its author from a "Quote"
//! button. A *column* is a position in the record template ([`crate::regions::column_of`]); a
//! field is the column whose values behave like that field across the records:
//!
//! - the **time** column holds a date in most records, in a consistent order (posts are in time
//!   order; join dates, last-visit dates and the header clock are not), at minute precision where
//!   the page gives it; within the column the machine-readable form (`<time datetime>`, a `title`
//!   or `data-time` attribute) wins over the visible text, which may be relative ("3 hours ago")
//!   and is then resolved against the fetch instant (the incremental-crawling paper's timestamp
//!   extraction);
//! - the **author** column is a link (or a name-like element) in most records whose texts are
//!   short, name-like and vary between records, preferably pointing at profile-like URLs;
//! - the **text** column is the element with most text across records that holds neither the
//!   author nor the time;
//! - the **permalink** column is a link unique to each record that points into the thread.
//!
//! [`extract_posts`] picks the post region: among regions holding at least a tenth of the page's
//! text whose records mostly carry a date, the one with the most records.

use url::Url;

use crate::dom::{Document, NodeId, NodeKind, ROOT};
use crate::links::Link;
use crate::regions::{RecordSlot, Region, column_of};
use crate::time::{DateContext, ParsedTime, Precision, find_times, parse_time, parse_unix_time};

/// A post read from a thread page.
#[derive(Debug, Clone, PartialEq)]
pub struct Post {
    /// Author's name as shown.
    pub author: Option<String>,
    /// The author link's `href` exactly as the page writes it (relative, with any session id),
    /// when the name is a link.
    pub author_url: Option<String>,
    /// Creation time as shown (relative forms resolved).
    pub time: Option<ParsedTime>,
    /// Body text: block elements and line breaks become newlines.
    pub text: String,
    /// Absolute URL of the post's permalink, fragment kept.
    pub permalink: Option<String>,
    /// The record's first element.
    pub node: NodeId,
}

/// A thread entry read from a board page.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadEntry {
    /// Title as shown.
    pub title: String,
    /// Absolute URL of the thread.
    pub url: String,
    /// Starter, when shown.
    pub author: Option<String>,
    /// Reply count, when shown.
    pub replies: Option<u64>,
    /// Time of the last reply, when shown.
    pub last_reply: Option<ParsedTime>,
}

/// A date found in a record: the element that shows it and what it says.
#[derive(Debug, Clone, Copy)]
struct DateCandidate {
    element: NodeId,
    time: ParsedTime,
    /// From an attribute meant for machines (`datetime`, `title`, `data-time`).
    machine: bool,
}

/// Every date shown on the page, attached to the element that shows it, in document order.
fn date_candidates(document: &Document, context: &DateContext) -> Vec<DateCandidate> {
    let mut candidates = Vec::new();
    for node in document.descendants(ROOT) {
        let data = document.node(node);
        match data.kind {
            NodeKind::Text => {
                let Some(parent) = data.parent else { continue };
                if document.node(parent).is("script") || document.node(parent).is("style") {
                    continue;
                }
                for found in find_times(document.text_of(node), context) {
                    let mut best = DateCandidate {
                        element: parent,
                        time: found.time,
                        machine: false,
                    };
                    // Engines often print the day and the clock in separate elements
                    // ("14.12.2019 <span class=time>21:42</span>"): when a text gives only a
                    // day, read the short text of the enclosing elements as one expression.
                    if found.time.precision == Precision::Day {
                        best = with_clock_nearby(document, parent, best, context);
                    }
                    candidates.push(best);
                }
            }
            NodeKind::Element => {
                for attribute in ["datetime", "title", "data-time", "data-timestamp"] {
                    let Some(value) = document.attribute(node, attribute) else {
                        continue;
                    };
                    let parsed = if attribute.starts_with("data-") {
                        parse_unix_time(value)
                    } else {
                        parse_time(value, context)
                    };
                    if let Some(time) = parsed {
                        candidates.push(DateCandidate {
                            element: node,
                            time,
                            machine: true,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    candidates
}

/// Looks up to two levels above `element` for a short text that reads as the same day with a
/// clock, and returns that reading attached to the element holding it.
fn with_clock_nearby(
    document: &Document,
    element: NodeId,
    day_only: DateCandidate,
    context: &DateContext,
) -> DateCandidate {
    let mut current = element;
    for _ in 0..2 {
        let text = document.text_content(current);
        if text.len() > 120 {
            break;
        }
        let better = find_times(&text, context).into_iter().find(|found| {
            found.time.precision >= Precision::Minute
                && found.time.local.date() == day_only.time.local.date()
        });
        if let Some(found) = better {
            return DateCandidate {
                element: current,
                time: found.time,
                machine: false,
            };
        }
        match document.node(current).parent {
            Some(parent) => current = parent,
            None => break,
        }
    }
    day_only
}

/// The text of `node` with line breaks where the page breaks lines: at `<br>` and around block
/// elements; runs of spaces collapse, blank lines are dropped.
pub fn block_text(document: &Document, node: NodeId) -> String {
    const BLOCKS: [&str; 22] = [
        "p",
        "div",
        "br",
        "li",
        "ul",
        "ol",
        "blockquote",
        "pre",
        "table",
        "tr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "dl",
        "dt",
        "dd",
        "hr",
        "section",
        "article",
    ];
    let mut lines: Vec<String> = vec![String::new()];
    let mut walk = document.descendants(node);
    let mut open_blocks: Vec<NodeId> = Vec::new();
    while let Some(id) = walk.next() {
        // Close blocks we have left: a block ends when the walk leaves its subtree.
        while let Some(&block) = open_blocks.last() {
            if is_ancestor(document, block, id) {
                break;
            }
            open_blocks.pop();
            lines.push(String::new());
        }
        let data = document.node(id);
        match data.kind {
            NodeKind::Text => {
                let line = lines.last_mut().expect("there is always a line");
                for word in document.text_of(id).split_whitespace() {
                    if !line.is_empty() && !line.ends_with(' ') {
                        line.push(' ');
                    }
                    line.push_str(word);
                }
                if document.text_of(id).ends_with(char::is_whitespace) && !line.is_empty() {
                    line.push(' ');
                }
            }
            NodeKind::Element
                if data.is("script") || data.is("style") || is_signature(document, id) =>
            {
                walk.skip_children()
            }
            NodeKind::Element if id != node && BLOCKS.iter().any(|block| data.is(block)) => {
                lines.push(String::new());
                if data.first_child.is_some() {
                    open_blocks.push(id);
                }
            }
            _ => {}
        }
    }
    let lines: Vec<&str> = lines
        .iter()
        .map(|line| line.trim())
        .filter(|line| !line.is_empty())
        .collect();
    // A line of underscores or dashes is the conventional signature separator (vBulletin's
    // "__________________", Usenet's "-- "): what follows it is the signature.
    let end = lines
        .iter()
        .skip(1)
        .position(|line| line.len() >= 5 && line.chars().all(|c| c == '_' || c == '-'))
        .map_or(lines.len(), |position| position + 1);
    lines[..end].join("\n")
}

/// Whether an element is marked as a signature by its class or id.
fn is_signature(document: &Document, node: NodeId) -> bool {
    ["class", "id"].iter().any(|attribute| {
        document.attribute(node, attribute).is_some_and(|value| {
            let value = value.to_ascii_lowercase();
            value.contains("signature") || value.split_whitespace().any(|token| token == "sig")
        })
    })
}

fn is_ancestor(document: &Document, ancestor: NodeId, mut node: NodeId) -> bool {
    while let Some(parent) = document.node(node).parent {
        if parent == ancestor {
            return true;
        }
        node = parent;
    }
    false
}

/// Text bytes below every node, scripts and styles excluded.
fn text_sizes(document: &Document) -> Vec<u32> {
    let mut sizes = vec![0u32; document.len()];
    let mut order: Vec<NodeId> = document.descendants(ROOT).collect();
    order.reverse();
    for id in order {
        let node = document.node(id);
        if node.kind == NodeKind::Text {
            sizes[id as usize] += document.text_of(id).trim().len() as u32;
        }
        if node.is("script") || node.is("style") {
            sizes[id as usize] = 0;
        }
        if let Some(parent) = node.parent {
            sizes[parent as usize] += sizes[id as usize];
        }
    }
    sizes
}

/// What every extractor needs about one page.
struct PageFacts<'a> {
    document: &'a Document,
    regions: &'a [Region],
    slots: &'a [Option<RecordSlot>],
    links: &'a [Link],
    dates: Vec<DateCandidate>,
    sizes: Vec<u32>,
}

impl PageFacts<'_> {
    /// (record index, column) of a node inside region `region`, if it is inside.
    fn place(&self, region: usize, node: NodeId) -> Option<(usize, u64)> {
        let slot = self.slots[node as usize]?;
        // A node inside an inner region still belongs to the outer region's record: walk up.
        let mut current = node;
        let mut slot = slot;
        while slot.region as usize != region {
            let parent_region = &self.regions[slot.region as usize];
            current = parent_region.parent;
            slot = self.slots[current as usize]?;
        }
        let _ = current;
        Some((
            slot.record as usize,
            column_of(self.document, slot.member, node),
        ))
    }

    /// Date candidates of region `region`, by record.
    fn dates_by_record(&self, region: usize) -> Vec<Vec<(u64, DateCandidate)>> {
        let mut by_record = vec![Vec::new(); self.regions[region].records.len()];
        for candidate in &self.dates {
            if candidate.time.precision == Precision::Month {
                continue;
            }
            if let Some((record, column)) = self.place(region, candidate.element) {
                by_record[record].push((column, *candidate));
            }
        }
        by_record
    }
}

/// Extracts the posts of a thread page.
pub fn extract_posts(
    document: &Document,
    regions: &[Region],
    slots: &[Option<RecordSlot>],
    links: &[Link],
    page_url: &Url,
    context: &DateContext,
) -> Vec<Post> {
    let facts = PageFacts {
        document,
        regions,
        slots,
        links,
        dates: date_candidates(document, context),
        sizes: text_sizes(document),
    };
    let Some(region) = post_region(&facts) else {
        return Vec::new();
    };
    let records = regions[region].records.len();
    let times = choose_time_column(&facts, region);
    let authors = choose_author_column(&facts, region);
    let excluded: Vec<NodeId> = times
        .iter()
        .flatten()
        .map(|candidate| candidate.element)
        .chain(authors.iter().flatten().map(|(node, _)| *node))
        .collect();
    let bodies = choose_text_column(&facts, region, &excluded);
    let permalinks = choose_permalink_column(&facts, region, page_url);
    let mut posts: Vec<Post> = (0..records)
        .map(|record| Post {
            author: authors[record].as_ref().map(|(_, name)| name.clone()),
            author_url: authors[record]
                .as_ref()
                .filter(|(node, _)| document.node(*node).is("a"))
                .and_then(|(node, _)| document.attribute(*node, "href"))
                .map(str::to_string),
            time: times[record].map(|candidate| candidate.time),
            text: bodies[record]
                .map(|node| block_text(document, node))
                .unwrap_or_default(),
            permalink: permalinks[record].clone(),
            node: regions[region].records[record],
        })
        .filter(|post| !post.text.is_empty() || post.author.is_some())
        .collect();
    if let Some(leading) = leading_post(&facts, region, &posts) {
        posts.insert(0, leading);
    }
    posts
}

/// Many engines render a thread's first post apart from the replies (a question box above the
/// answers, an announcement-styled opener), so it falls outside the post region. Look just before
/// the region (preceding siblings of the first record, then of the region's ancestors, a few of
/// each) for an element with a post time, a link and a body of text, and read it as a post.
fn leading_post(facts: &PageFacts<'_>, region: usize, posts: &[Post]) -> Option<Post> {
    let document = facts.document;
    let first = *facts.regions[region].records.first()?;
    let first_time = posts.first().and_then(|post| post.time);
    let mut anchor = first;
    for _ in 0..4 {
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
            if let Some(post) = read_single_post(facts, candidate, first_time) {
                return Some(post);
            }
        }
        anchor = document.node(anchor).parent?;
    }
    None
}

/// Reads one element as a post when it has a date no later than the first reply, an author-like
/// link and at least a sentence of text outside them.
fn read_single_post(
    facts: &PageFacts<'_>,
    element: NodeId,
    not_after: Option<ParsedTime>,
) -> Option<Post> {
    let document = facts.document;
    if facts.sizes[element as usize] < 30 {
        return None;
    }
    let inside = |node: NodeId| node == element || is_ancestor(document, element, node);
    let date = facts
        .dates
        .iter()
        .filter(|candidate| inside(candidate.element) && candidate.time.precision >= Precision::Day)
        .min_by_key(|candidate| !candidate.machine)
        .copied()?;
    if let Some(limit) = not_after
        && date.time.local > limit.local
    {
        return None;
    }
    let author = facts.links.iter().find(|link| {
        inside(link.node)
            && name_like(link.text.trim())
            && (PROFILE_HINTS
                .iter()
                .any(|hint| link.url.to_ascii_lowercase().contains(hint))
                || hinted(document, link.node, element))
    })?;
    let mut best: Option<(NodeId, u32)> = None;
    for node in document.descendants(element) {
        if document.node(node).kind != NodeKind::Element
            || node == date.element
            || is_ancestor(document, node, date.element)
            || node == author.node
            || is_ancestor(document, node, author.node)
        {
            continue;
        }
        let size = facts.sizes[node as usize];
        if best.is_none_or(|(_, best_size)| size > best_size) {
            best = Some((node, size));
        }
    }
    let (body, size) = best?;
    if size < 20 {
        return None;
    }
    Some(Post {
        author: Some(author.text.trim().to_string()),
        author_url: document.attribute(author.node, "href").map(str::to_string),
        time: Some(date.time),
        text: block_text(document, body),
        permalink: None,
        node: element,
    })
}

/// Among regions with a tenth of the text or more whose records mostly carry a date, the one
/// with most records (ties: more text).
fn post_region(facts: &PageFacts<'_>) -> Option<usize> {
    let mut best: Option<(usize, usize, f32)> = None;
    for (index, region) in facts.regions.iter().enumerate() {
        if region.text_share < 0.1 || region.records.len() < 2 {
            continue;
        }
        let dated = facts
            .dates_by_record(index)
            .iter()
            .filter(|dates| !dates.is_empty())
            .count();
        if (dated as f32) < 0.6 * region.records.len() as f32 {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, records, share)) => {
                region.records.len() > records
                    || (region.records.len() == records && region.text_share > share)
            }
        };
        if better {
            best = Some((index, region.records.len(), region.text_share));
        }
    }
    best.map(|(index, _, _)| index)
}

/// Per record, the date of the column that behaves like post times.
fn choose_time_column(facts: &PageFacts<'_>, region: usize) -> Vec<Option<DateCandidate>> {
    let by_record = facts.dates_by_record(region);
    let records = by_record.len();
    let mut columns: Vec<u64> = by_record
        .iter()
        .flatten()
        .map(|(column, _)| *column)
        .collect();
    columns.sort_unstable();
    columns.dedup();
    let mut best: Option<(f32, Vec<Option<DateCandidate>>)> = None;
    for column in columns {
        let values: Vec<Option<DateCandidate>> = by_record
            .iter()
            .map(|dates| {
                let in_column = dates.iter().filter(|(c, _)| *c == column).map(|(_, d)| *d);
                // Within a column, machine-readable values are exact; visible text may be relative.
                in_column
                    .clone()
                    .find(|d| d.machine)
                    .or_else(|| in_column.clone().next())
            })
            .collect();
        let present: Vec<i64> = values
            .iter()
            .flatten()
            .map(|candidate| {
                candidate
                    .time
                    .local
                    .to_zoned(jiff::tz::TimeZone::UTC)
                    .map_or(0, |z| z.timestamp().as_second())
            })
            .collect();
        let coverage = present.len() as f32 / records as f32;
        if coverage < 0.5 {
            continue;
        }
        let pairs = present.len().saturating_sub(1).max(1) as f32;
        let rising = present.windows(2).filter(|pair| pair[0] <= pair[1]).count() as f32 / pairs;
        let falling = present.windows(2).filter(|pair| pair[0] >= pair[1]).count() as f32 / pairs;
        let order = rising.max(falling);
        let precise = values
            .iter()
            .flatten()
            .filter(|candidate| candidate.time.precision >= Precision::Minute)
            .count() as f32
            / present.len().max(1) as f32;
        let score = 2.0 * coverage + 2.0 * order + 0.5 * precise;
        if best
            .as_ref()
            .is_none_or(|(best_score, _)| score > *best_score)
        {
            best = Some((score, values));
        }
    }
    best.map(|(_, values)| values)
        .unwrap_or_else(|| vec![None; records])
}

/// Words of buttons and labels that appear as links in every record but are not names.
const ACTION_WORDS: [&str; 24] = [
    "quote",
    "reply",
    "report",
    "edit",
    "delete",
    "pm",
    "message",
    "profile",
    "like",
    "share",
    "top",
    "permalink",
    "link",
    "zitieren",
    "antworten",
    "引用",
    "回复",
    "回覆",
    "citer",
    "répondre",
    "citar",
    "responder",
    "multi-quote",
    "thanks",
];

fn name_like(text: &str) -> bool {
    let words = text.split_whitespace().count();
    !text.is_empty()
        && text.chars().count() <= 40
        && words <= 4
        && !text
            .chars()
            .all(|c| c.is_ascii_digit() || c == '#' || c.is_whitespace())
        && !ACTION_WORDS
            .iter()
            .any(|word| text.eq_ignore_ascii_case(word))
}

const AUTHOR_HINTS: [&str; 9] = [
    "author", "user", "name", "poster", "member", "nick", "creator", "by", "who",
];
const PROFILE_HINTS: [&str; 8] = [
    "member",
    "user",
    "profile",
    "/u/",
    "u=",
    "uid",
    "space-uid",
    "author",
];

fn hinted(document: &Document, mut node: NodeId, member: NodeId) -> bool {
    loop {
        for attribute in ["class", "itemprop", "id", "rel"] {
            if let Some(value) = document.attribute(node, attribute) {
                let value = value.to_ascii_lowercase();
                if AUTHOR_HINTS.iter().any(|hint| value.contains(hint)) {
                    return true;
                }
            }
        }
        if node == member {
            return false;
        }
        match document.node(node).parent {
            Some(parent) => node = parent,
            None => return false,
        }
    }
}

/// Per record, the author's element and name, when found.
type AuthorsByRecord = Vec<Option<(NodeId, String)>>;

/// One candidate author column: its id, its value per record (columns are kept in the order
/// their first link appears), and whether its links or their elements hint at authors.
struct AuthorColumn {
    column: u64,
    values: AuthorsByRecord,
    hinted: bool,
}

/// Per record, the author link (or name element) and its text.
fn choose_author_column(facts: &PageFacts<'_>, region: usize) -> AuthorsByRecord {
    let records = facts.regions[region].records.len();
    // column -> per record the first name-like link of that column
    let mut columns: Vec<AuthorColumn> = Vec::new();
    for link in facts.links {
        let Some((record, column)) = facts.place(region, link.node) else {
            continue;
        };
        let text = link.text.trim().to_string();
        if !name_like(&text) {
            continue;
        }
        let profile_url = PROFILE_HINTS
            .iter()
            .any(|hint| link.url.to_ascii_lowercase().contains(hint));
        let member = facts.slots[link.node as usize].map_or(link.node, |slot| slot.member);
        let hint = profile_url || hinted(facts.document, link.node, member);
        let entry = match columns.iter_mut().find(|entry| entry.column == column) {
            Some(entry) => entry,
            None => {
                columns.push(AuthorColumn {
                    column,
                    values: vec![None; records],
                    hinted: false,
                });
                columns.last_mut().expect("just pushed")
            }
        };
        entry.hinted |= hint;
        if entry.values[record].is_none() {
            entry.values[record] = Some((link.node, text));
        }
    }
    let mut best: Option<(f32, AuthorsByRecord)> = None;
    let total_columns = columns.len().max(1) as f32;
    for (
        rank,
        AuthorColumn {
            values,
            hinted: hint,
            ..
        },
    ) in columns.into_iter().enumerate()
    {
        let present: Vec<&String> = values.iter().flatten().map(|(_, name)| name).collect();
        let coverage = present.len() as f32 / records as f32;
        if coverage < 0.5 {
            continue;
        }
        let mut distinct: Vec<&String> = present.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let variety = if records <= 2 {
            1.0
        } else {
            distinct.len() as f32 / present.len() as f32
        };
        if records > 3 && distinct.len() == 1 {
            continue;
        }
        let early = 1.0 - rank as f32 / total_columns;
        let score = coverage + 0.5 * variety + if hint { 1.0 } else { 0.0 } + 0.3 * early;
        if best
            .as_ref()
            .is_none_or(|(best_score, _)| score > *best_score)
        {
            best = Some((score, values));
        }
    }
    best.map(|(_, values)| values)
        .unwrap_or_else(|| vec![None; records])
}

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
fn choose_text_column(
    facts: &PageFacts<'_>,
    region: usize,
    excluded: &[NodeId],
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
    let mut columns: Vec<(u64, Vec<Option<NodeId>>, u64)> = Vec::new();
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
                let column = column_of(document, member, node);
                let entry = match columns.iter_mut().find(|(c, ..)| *c == column) {
                    Some(entry) => entry,
                    None => {
                        columns.push((column, vec![None; records], 0));
                        columns.last_mut().expect("just pushed")
                    }
                };
                if entry.1[record].is_none() {
                    entry.1[record] = Some(node);
                    entry.2 += u64::from(facts.sizes[node as usize]);
                }
            }
        }
    }
    columns.retain(|(_, values, _)| values.iter().flatten().count() * 2 >= records);
    let Some(mut chosen) = columns
        .iter()
        .max_by_key(|(_, _, total)| *total)
        .map(|c| c.1.clone())
    else {
        return vec![None; records];
    };
    // Tighten: a column whose nodes sit inside the chosen ones and keep 80 % of their text in
    // at least 90 % of the records replaces them.
    loop {
        let tighter = columns.iter().find(|(_, values, _)| {
            let mut kept = 0;
            let mut compared = 0;
            for (inner, outer) in values.iter().zip(&chosen) {
                let (Some(inner), Some(outer)) = (inner, outer) else {
                    continue;
                };
                compared += 1;
                if inner != outer
                    && is_ancestor(document, *outer, *inner)
                    && facts.sizes[*inner as usize] * 5 >= facts.sizes[*outer as usize] * 4
                {
                    kept += 1;
                }
            }
            compared > 0 && kept * 10 >= compared * 9
        });
        match tighter {
            Some((_, values, _)) => chosen = values.clone(),
            None => break,
        }
    }
    chosen
}

/// Per record, a link unique to the record that points at the post itself.
fn choose_permalink_column(
    facts: &PageFacts<'_>,
    region: usize,
    page_url: &Url,
) -> Vec<Option<String>> {
    let records = facts.regions[region].records.len();
    let mut columns: Vec<(u64, Vec<Option<String>>)> = Vec::new();
    for link in facts.links {
        let Some((record, column)) = facts.place(region, link.node) else {
            continue;
        };
        let href = facts.document.attribute(link.node, "href").unwrap_or("");
        let text = link.text.trim().to_ascii_lowercase();
        let looks_like_permalink = href.contains('#')
            || text
                .trim_start_matches('#')
                .chars()
                .all(|c| c.is_ascii_digit())
                && !text.is_empty()
            || text.contains("permalink")
            || ["post", "msg", "pid", "/p/"]
                .iter()
                .any(|hint| href.to_ascii_lowercase().contains(hint));
        if !looks_like_permalink {
            continue;
        }
        let Ok(url) = page_url.join(href) else {
            continue;
        };
        let entry = match columns.iter_mut().find(|(c, _)| *c == column) {
            Some(entry) => entry,
            None => {
                columns.push((column, vec![None; records]));
                columns.last_mut().expect("just pushed")
            }
        };
        if entry.1[record].is_none() {
            entry.1[record] = Some(url.to_string());
        }
    }
    columns
        .into_iter()
        .filter(|(_, values)| {
            let present: Vec<&String> = values.iter().flatten().collect();
            let mut distinct = present.clone();
            distinct.sort_unstable();
            distinct.dedup();
            present.len() * 10 >= records * 6 && distinct.len() == present.len()
        })
        .map(|(_, values)| values)
        .next()
        .unwrap_or_else(|| vec![None; records])
}

/// Extracts the thread entries of a board page: the region whose records carry a title link
/// (a link column with long, distinct anchor texts in most records), then per record the starter
/// (as for posts), the reply count (the integer column with the smallest values, since views
/// outnumber replies) and the last-reply time (the date column with the latest dates).
pub fn extract_thread_entries(
    document: &Document,
    regions: &[Region],
    slots: &[Option<RecordSlot>],
    links: &[Link],
    context: &DateContext,
) -> Vec<ThreadEntry> {
    let facts = PageFacts {
        document,
        regions,
        slots,
        links,
        dates: date_candidates(document, context),
        sizes: text_sizes(document),
    };
    let mut best: Option<((bool, usize), usize, TitlesByRecord)> = None;
    for (index, region) in regions.iter().enumerate() {
        if region.text_share < 0.1 || region.records.len() < 2 {
            continue;
        }
        let Some(titles) = title_column(&facts, index) else {
            continue;
        };
        // A reply-count column is what tells a board's thread list from a "latest threads" box,
        // which may hold more records on a board's short last page.
        let counted = integer_column(&facts, index).iter().any(Option::is_some);
        let rank = (counted, titles.iter().flatten().count());
        if best
            .as_ref()
            .is_none_or(|(best_rank, _, _)| rank > *best_rank)
        {
            best = Some((rank, index, titles));
        }
    }
    let Some((_, region, titles)) = best else {
        return Vec::new();
    };
    let authors = choose_author_column(&facts, region);
    let replies = integer_column(&facts, region);
    let last = latest_date_column(&facts, region);
    titles
        .into_iter()
        .enumerate()
        .filter_map(|(record, title)| {
            let (_, text, url) = title?;
            let author = authors[record]
                .as_ref()
                .map(|(_, name)| name.clone())
                .filter(|name| *name != text);
            Some(ThreadEntry {
                title: text,
                url,
                author,
                replies: replies[record],
                last_reply: last[record],
            })
        })
        .collect()
}

/// Per record, the title link: its node, text and URL.
type TitlesByRecord = Vec<Option<(NodeId, String, String)>>;

/// Per record, the title link, if the region has a title column.
fn title_column(facts: &PageFacts<'_>, region: usize) -> Option<TitlesByRecord> {
    let records = facts.regions[region].records.len();
    let mut columns: Vec<(u64, TitlesByRecord)> = Vec::new();
    for link in facts.links {
        let Some((record, column)) = facts.place(region, link.node) else {
            continue;
        };
        let text = link.text.trim();
        if text.chars().count() < 3 || text.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let entry = match columns.iter_mut().find(|(c, _)| *c == column) {
            Some(entry) => entry,
            None => {
                columns.push((column, vec![None; records]));
                columns.last_mut().expect("just pushed")
            }
        };
        if entry.1[record].is_none() {
            entry.1[record] = Some((link.node, text.to_string(), link.url.clone()));
        }
    }
    // Columns are in the order their first link appears. The title is the first column whose
    // links are in most records and whose URLs and texts are nearly all distinct: author links
    // repeat when one member starts several threads, buttons repeat their text.
    columns
        .into_iter()
        .map(|(_, values)| values)
        .find(|values| {
            let present: Vec<&(NodeId, String, String)> = values.iter().flatten().collect();
            let distinct = |key: &dyn Fn(&(NodeId, String, String)) -> &String| {
                let mut keys: Vec<&String> = present.iter().map(|entry| key(entry)).collect();
                keys.sort_unstable();
                keys.dedup();
                keys.len()
            };
            present.len() * 10 >= records * 6
                && distinct(&|(_, _, url)| url) * 10 >= present.len() * 9
                && distinct(&|(_, text, _)| text) * 10 >= present.len() * 9
        })
}

/// Per record, the value of the integer column with the smallest values (replies rather than
/// views), read from short texts that are a number alone ("1,234" and "1.234" included).
fn integer_column(facts: &PageFacts<'_>, region: usize) -> Vec<Option<u64>> {
    let document = facts.document;
    let records = facts.regions[region].records.len();
    let mut columns: Vec<(u64, Vec<Option<u64>>)> = Vec::new();
    for record in 0..records {
        for member in facts.regions[region].record_nodes(document, record) {
            for node in document.descendants(member) {
                if document.node(node).kind != NodeKind::Text {
                    continue;
                }
                let text = document.text_of(node).trim();
                if text.is_empty() || text.chars().count() > 24 {
                    continue;
                }
                // A number alone ("1,234") or with a word beside it ("12 Antworten", "回覆：12").
                let numbers: Vec<&str> = text
                    .split(|c: char| c.is_whitespace() || c == ':' || c == '：')
                    .filter(|token| token.chars().any(|c| c.is_ascii_digit()))
                    .collect();
                let [number] = numbers[..] else { continue };
                if !number
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '\''))
                {
                    continue;
                }
                let digits: String = number.chars().filter(char::is_ascii_digit).collect();
                let Some(parent) = document.node(node).parent else {
                    continue;
                };
                let Ok(value) = digits.parse::<u64>() else {
                    continue;
                };
                let column = column_of(document, member, parent);
                let entry = match columns.iter_mut().find(|(c, _)| *c == column) {
                    Some(entry) => entry,
                    None => {
                        columns.push((column, vec![None; records]));
                        columns.last_mut().expect("just pushed")
                    }
                };
                if entry.1[record].is_none() {
                    entry.1[record] = Some(value);
                }
            }
        }
    }
    columns
        .into_iter()
        .filter(|(_, values)| values.iter().flatten().count() * 10 >= records * 6)
        .min_by_key(|(_, values)| {
            let present: Vec<u64> = values.iter().flatten().copied().collect();
            present.iter().sum::<u64>() / present.len().max(1) as u64
        })
        .map(|(_, values)| values)
        .unwrap_or_else(|| vec![None; records])
}

/// Per record, the date of the column whose dates are latest on average (last replies come after
/// the threads' creation dates shown beside them).
fn latest_date_column(facts: &PageFacts<'_>, region: usize) -> Vec<Option<ParsedTime>> {
    let by_record = facts.dates_by_record(region);
    let records = by_record.len();
    let mut columns: Vec<u64> = by_record
        .iter()
        .flatten()
        .map(|(column, _)| *column)
        .collect();
    columns.sort_unstable();
    columns.dedup();
    let seconds = |time: &ParsedTime| {
        time.local
            .to_zoned(jiff::tz::TimeZone::UTC)
            .map_or(0, |zoned| zoned.timestamp().as_second())
    };
    columns
        .into_iter()
        .map(|column| {
            let values: Vec<Option<ParsedTime>> = by_record
                .iter()
                .map(|dates| {
                    let in_column = dates.iter().filter(|(c, _)| *c == column).map(|(_, d)| *d);
                    in_column
                        .clone()
                        .find(|d| d.machine)
                        .or_else(|| in_column.clone().next())
                        .map(|d| d.time)
                })
                .collect();
            values
        })
        .filter(|values| values.iter().flatten().count() * 2 >= records)
        .max_by_key(|values| {
            let present: Vec<i64> = values.iter().flatten().map(seconds).collect();
            present.iter().sum::<i64>() / present.len().max(1) as i64
        })
        .unwrap_or_else(|| vec![None; records])
}
