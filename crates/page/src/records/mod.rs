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

use crate::dom::{Document, NodeId, NodeKind, ROOT};
use crate::links::Link;
use crate::regions::{RecordSlot, Region, column_of};
use crate::time::{
    DateContext, DayMonthOrder, ParsedTime, Precision, TimeMatch, find_times, parse_time,
    parse_unix_time,
};

mod author_signals;
mod entries;
mod lone_post;
mod posts;

pub use entries::{extract_thread_entries, thread_entries_from};
pub use lone_post::lone_post_element;
pub use posts::{extract_posts, posts_from, posts_in_region};

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
    // Texts are read one by one, but the day and month order is the page's: one "28/02/2007"
    // anywhere proves that "06/02/2008" in another element is the 6th of February. So the
    // page's matches are gathered first, in document order, and the order settled over all of
    // them before they become candidates.
    let mut pending: Vec<PendingDate<'_>> = Vec::new();
    for node in document.descendants(ROOT) {
        let data = document.node(node);
        match data.kind {
            NodeKind::Text => {
                let Some(parent) = data.parent else { continue };
                if document.node(parent).is("script") || document.node(parent).is("style") {
                    continue;
                }
                let found = find_times(document.text_of(node), context);
                if !found.is_empty() {
                    pending.push(PendingDate::Text(parent, found));
                }
            }
            NodeKind::Element => {
                for attribute in ["datetime", "title", "data-time", "data-timestamp"] {
                    if let Some(value) = document.attribute(node, attribute) {
                        pending.push(PendingDate::Attribute(node, attribute, value));
                    }
                }
            }
            _ => {}
        }
    }
    let page_context = match page_day_month_order(&pending) {
        Some(order) if context.day_month_order == DayMonthOrder::Unknown => {
            for found in pending.iter_mut().flat_map(|pending| match pending {
                PendingDate::Text(_, found) => found.as_mut_slice(),
                PendingDate::Attribute(..) => &mut [],
            }) {
                if let (true, Some(alternative)) = (found.order_by_default, found.alternative) {
                    found.alternative = Some(found.time);
                    found.time = alternative;
                    found.order_by_default = false;
                }
            }
            context.with_day_month_order(order)
        }
        _ => *context,
    };
    let mut candidates = Vec::new();
    for pending in pending {
        match pending {
            PendingDate::Text(parent, found) => {
                for found in found {
                    let mut best = DateCandidate {
                        element: parent,
                        time: found.time,
                        machine: false,
                    };
                    // Engines often print the day and the clock in separate elements
                    // ("14.12.2019 <span class=time>21:42</span>"): when a text gives only a
                    // day, read the short text of the enclosing elements as one expression.
                    if found.time.precision == Precision::Day {
                        best = with_clock_nearby(document, parent, best, &page_context);
                    }
                    candidates.push(best);
                }
            }
            PendingDate::Attribute(node, attribute, value) => {
                let parsed = if attribute.starts_with("data-") {
                    parse_unix_time(value)
                } else {
                    parse_time(value, &page_context)
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
    }
    candidates
}

/// A date found on the page before the page's day and month order is settled: a text's matches
/// (with the element holding the text), or an attribute still to be read.
enum PendingDate<'document> {
    Text(NodeId, Vec<TimeMatch>),
    Attribute(NodeId, &'static str, &'document str),
}

/// Day first when some numeric date of the page can only be read day first and none only month
/// first; nothing otherwise (the readers' month-first default stands).
fn page_day_month_order(pending: &[PendingDate<'_>]) -> Option<DayMonthOrder> {
    let proves = |order: DayMonthOrder| {
        pending
            .iter()
            .flat_map(|pending| match pending {
                PendingDate::Text(_, found) => found.as_slice(),
                PendingDate::Attribute(..) => &[],
            })
            .any(|found| found.evidence == Some(order))
    };
    (proves(DayMonthOrder::DayFirst) && !proves(DayMonthOrder::MonthFirst))
        .then_some(DayMonthOrder::DayFirst)
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
            NodeKind::Element if id != node && is_block(data.tag()) => {
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
    // "__________________", Usenet's "-- "): what follows it is the signature. Authors draw the
    // same lines inside their messages too (under a heading, between sections), so only the
    // last such line whose tail is shorter than what stands above it cuts: a signature closes
    // the post and is shorter than it. Cutting at the first line instead lost whole messages
    // that open with a decorated title. A short post under a long signature keeps the signature,
    // the lesser loss.
    let characters: Vec<usize> = lines.iter().map(|line| line.chars().count()).collect();
    let total: usize = characters.iter().sum();
    let mut above = 0;
    let mut end = lines.len();
    for (index, line) in lines.iter().enumerate() {
        let separator = line.len() >= 5 && line.chars().all(|c| c == '_' || c == '-');
        if index > 0 && separator && total - above - characters[index] < above {
            end = index;
        }
        above += characters[index];
    }
    lines[..end].join("\n")
}

/// Whether elements with tag `tag` break lines in [`block_text`]. One `match` rather than a
/// comparison with each of the names: this runs for every element of every post.
fn is_block(tag: &str) -> bool {
    matches!(
        tag,
        "p" | "div"
            | "br"
            | "li"
            | "ul"
            | "ol"
            | "blockquote"
            | "pre"
            | "table"
            | "tr"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "dl"
            | "dt"
            | "dd"
            | "hr"
            | "section"
            | "article"
    )
}

/// Whether an element is marked as a signature by its class or id.
fn is_signature(document: &Document, node: NodeId) -> bool {
    // An element that opens with the conventional separator line ("__________________") holds
    // a signature even when nothing names it so, as [`block_text`] reads it in running text.
    let opens_with_separator = document.node(node).first_child.is_some_and(|child| {
        let data = document.node(child);
        let text = document.text_of(child).trim();
        data.kind == NodeKind::Text && text.len() >= 5 && text.chars().all(|c| c == '_' || c == '-')
    });
    opens_with_separator
        || ["class", "id"].iter().any(|attribute| {
            document.attribute(node, attribute).is_some_and(|value| {
                // Compared without a lowercase copy: this runs on every element of the page.
                // Both marks hold "sig", which most values lack: one scan dismisses them.
                contains_ignoring_ascii_case(value, "sig")
                    && (contains_ignoring_ascii_case(value, "signature")
                        || value
                            .split_whitespace()
                            .any(|token| token.eq_ignore_ascii_case("sig")))
            })
        })
}

/// Whether `haystack` contains `needle` (lower case ASCII, not empty), ASCII case aside.
fn contains_ignoring_ascii_case(haystack: &str, needle: &str) -> bool {
    let (first, rest) = needle.as_bytes().split_first().expect("a needle");
    let haystack = haystack.as_bytes();
    // Only the places holding the needle's first letter are compared in full.
    haystack.iter().enumerate().any(|(position, byte)| {
        byte.to_ascii_lowercase() == *first
            && haystack
                .get(position + 1..position + needle.len())
                .is_some_and(|tail| tail.eq_ignore_ascii_case(rest))
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

/// Text bytes below every node, scripts, styles and elements marked as signatures excluded (a
/// signature is the author's, repeated under each of their posts, never the post's text).
fn text_sizes(document: &Document) -> Vec<u32> {
    let mut sizes = vec![0u32; document.len()];
    let mut order: Vec<NodeId> = document.descendants(ROOT).collect();
    order.reverse();
    for id in order {
        let node = document.node(id);
        if node.kind == NodeKind::Text {
            sizes[id as usize] += document.text_of(id).trim().len() as u32;
        }
        if node.is("script")
            || node.is("style")
            || (node.kind == NodeKind::Element && is_signature(document, id))
        {
            sizes[id as usize] = 0;
        }
        if let Some(parent) = node.parent {
            sizes[parent as usize] += sizes[id as usize];
        }
    }
    sizes
}

/// For every node, whether it is one of `elements` or an ancestor of one.
fn nodes_holding(document: &Document, elements: impl Iterator<Item = NodeId>) -> Vec<bool> {
    let mut holds = vec![false; document.len()];
    for element in elements {
        let mut current = Some(element);
        while let Some(node) = current {
            // Marked nodes have their ancestors marked already.
            if holds[node as usize] {
                break;
            }
            holds[node as usize] = true;
            current = document.node(node).parent;
        }
    }
    holds
}

/// What every extractor needs about one page, computed once: the tree, its regions and link
/// table, every date shown and the text size below every node. Build it with [`PageFacts::new`]
/// and read posts and thread entries from the same facts.
#[derive(Debug)]
pub struct PageFacts<'a> {
    document: &'a Document,
    regions: &'a [Region],
    slots: &'a [Option<RecordSlot>],
    links: &'a [Link],
    dates: Vec<DateCandidate>,
    /// For every node, whether it is or contains the element of a date: asked for every link of
    /// every candidate region, which comparing with every date made quadratic.
    holds_date: Vec<bool>,
    sizes: Vec<u32>,
}

impl<'a> PageFacts<'a> {
    /// Gathers the facts of a page fetched at `context.fetched_at`.
    pub fn new(
        document: &'a Document,
        regions: &'a [Region],
        slots: &'a [Option<RecordSlot>],
        links: &'a [Link],
        context: &DateContext,
    ) -> Self {
        let dates = date_candidates(document, context);
        let holds_date = nodes_holding(document, dates.iter().map(|date| date.element));
        PageFacts {
            document,
            regions,
            slots,
            links,
            dates,
            holds_date,
            sizes: text_sizes(document),
        }
    }
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

/// Whether `text` could be a member's name: short, a few words, with a letter or digit (a
/// symbol alone, "■" or "»", is a permalink or menu marker), not a number alone and not an
/// action word.
fn name_like(text: &str) -> bool {
    let words = text.split_whitespace().count();
    text.chars().any(char::is_alphanumeric)
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
        if own_hint(document, node) {
            return true;
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

/// Whether the element's own class, itemprop, id or rel names an author. Hints are compared with
/// whole words of the attribute (`post-author`, `username`, `by`), so that `lobby` or `postbit`
/// do not count.
fn own_hint(document: &Document, node: NodeId) -> bool {
    ["class", "itemprop", "id", "rel"].iter().any(|attribute| {
        document.attribute(node, attribute).is_some_and(|value| {
            value
                .split(|c: char| !c.is_ascii_alphanumeric())
                .map(str::to_ascii_lowercase)
                .any(|word| {
                    AUTHOR_HINTS.iter().any(|hint| {
                        word == *hint
                            || (hint.len() > 3 && (word.starts_with(hint) || word.ends_with(hint)))
                    })
                })
        })
    })
}

/// Values of a record field gathered column by column: for each column, in the order it was first
/// seen, the first value each record offers in it.
struct ColumnTable<T> {
    records: usize,
    columns: Vec<(u64, Vec<Option<T>>)>,
}

impl<T: Clone> ColumnTable<T> {
    fn new(records: usize) -> Self {
        ColumnTable {
            records,
            columns: Vec::new(),
        }
    }

    /// Keeps `value` as `record`'s value in `column` unless the record already has one there.
    fn offer(&mut self, column: u64, record: usize, value: T) {
        let index = match self.columns.iter().position(|(c, _)| *c == column) {
            Some(index) => index,
            None => {
                self.columns.push((column, vec![None; self.records]));
                self.columns.len() - 1
            }
        };
        let slot = &mut self.columns[index].1[record];
        if slot.is_none() {
            *slot = Some(value);
        }
    }

    /// The columns' values per record, in the order the columns were first seen.
    fn into_columns(self) -> impl Iterator<Item = Vec<Option<T>>> {
        self.columns.into_iter().map(|(_, values)| values)
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
    /// Named by an attribute of the record element itself (`data-author`).
    explicit: bool,
}

impl AuthorColumn {
    /// The column `column` of `columns`, added empty (with `hinted`) when it is not there yet.
    fn find_or_add(
        columns: &mut Vec<AuthorColumn>,
        column: u64,
        records: usize,
        hinted: bool,
    ) -> &mut AuthorColumn {
        match columns.iter().position(|entry| entry.column == column) {
            Some(index) => &mut columns[index],
            None => {
                columns.push(AuthorColumn {
                    column,
                    values: vec![None; records],
                    hinted,
                    explicit: false,
                });
                columns.last_mut().expect("just pushed")
            }
        }
    }

    /// Whether this column is hinted and could name the authors: present in more than half
    /// the records, and not one text repeated over more than three records (a rank like "Member").
    fn names_most_records(&self, records: usize) -> bool {
        let mut present: Vec<&str> = self
            .values
            .iter()
            .flatten()
            .map(|(_, name)| name.as_str())
            .collect();
        let count = present.len();
        present.sort_unstable();
        present.dedup();
        self.hinted && count * 2 > records && !(records > 3 && present.len() == 1)
    }
}

/// Adds to `columns`, per record, the first non-link element that `accepts` and whose text is a
/// name holding no date, grouped by column.
fn collect_name_elements(
    facts: &PageFacts<'_>,
    region: usize,
    columns: &mut Vec<AuthorColumn>,
    hinted: bool,
    accepts: impl Fn(&Document, NodeId) -> bool,
) {
    let document = facts.document;
    let records = facts.regions[region].records.len();
    for record in 0..records {
        for member in facts.regions[region].record_nodes(document, record) {
            for node in document.descendants(member) {
                let data = document.node(node);
                if data.kind != NodeKind::Element || data.is("a") || !accepts(document, node) {
                    continue;
                }
                let text = document.text_content(node);
                if !name_like(&text) || shows_a_date(facts, node) {
                    continue;
                }
                let column = column_of(document, member, node);
                let entry = AuthorColumn::find_or_add(columns, column, records, hinted);
                if entry.values[record].is_none() {
                    entry.values[record] = Some((node, text));
                }
            }
        }
    }
}

/// Whether `node` holds one of the page's date candidates: a box with the name and the post
/// time together ("Marry_ 18. Dezember 2019") is a header, not a name, though both are short.
fn shows_a_date(facts: &PageFacts<'_>, node: NodeId) -> bool {
    facts.holds_date[node as usize]
}

/// Per record, the author link (or name element) and its text.
fn choose_author_column(facts: &PageFacts<'_>, region: usize) -> AuthorsByRecord {
    let records = facts.regions[region].records.len();
    // column -> per record the first name-like link of that column
    let mut columns: Vec<AuthorColumn> = Vec::new();
    for link in facts.links {
        let Some((record, _position)) = facts.place(region, link.node) else {
            continue;
        };
        // Links are grouped by where they lead rather than by their position in the record:
        // see `author_signals` for the templates that move the author link around.
        let column = author_signals::link_kind(&link.url);
        let text = link.text.trim().to_string();
        // A link whose text is a date (a permalink shown as its post time) names no one.
        if !name_like(&text) || facts.holds_date[link.node as usize] {
            continue;
        }
        let profile_url = PROFILE_HINTS
            .iter()
            .any(|hint| link.url.to_ascii_lowercase().contains(hint));
        let member = facts.slots[link.node as usize].map_or(link.node, |slot| slot.member);
        let hint = profile_url || hinted(facts.document, link.node, member);
        let entry = AuthorColumn::find_or_add(&mut columns, column, records, false);
        entry.hinted |= hint;
        if entry.values[record].is_none() {
            entry.values[record] = Some((link.node, text));
        }
    }
    // A link group that repeats the same words in every record while leading somewhere else
    // each time is a button ("Share", "Teilen"), whatever its markup hints.
    columns.retain(|column| {
        let values: Vec<(&str, &str)> = column
            .values
            .iter()
            .flatten()
            .map(|(node, text)| {
                (
                    text.as_str(),
                    facts.document.attribute(*node, "href").unwrap_or(""),
                )
            })
            .collect();
        !author_signals::is_button_group(&values)
    });
    // Engines that name the author in an attribute of the record element itself say so
    // plainly; such a column outranks any guess from links or classes.
    let explicit: AuthorsByRecord = (0..records)
        .map(|record| {
            facts.regions[region]
                .record_nodes(facts.document, record)
                .into_iter()
                .find_map(|member| {
                    author_signals::explicit_author(facts.document, member)
                        .map(|name| (member, name))
                })
                .map(|(member, name)| {
                    // The name's own link, when the record has one, keeps the profile URL.
                    let link = facts.links.iter().find(|link| {
                        link.text.trim().eq_ignore_ascii_case(&name)
                            && facts
                                .place(region, link.node)
                                .is_some_and(|(owner, _)| owner == record)
                    });
                    (link.map_or(member, |link| link.node), name)
                })
        })
        .collect();
    if explicit.iter().any(Option::is_some) {
        columns.insert(
            0,
            AuthorColumn {
                column: u64::MAX,
                values: explicit,
                hinted: true,
                explicit: true,
            },
        );
    }
    // Names that are not links (guests, engines that link elsewhere): elements whose own class
    // or itemprop says author and whose text is a name. Looked for unless a hinted link column
    // already names most records: mentions of members inside a few posts' text are profile
    // links too, and must not stop the search for the names every post shows.
    let named_by_links = columns
        .iter()
        .any(|column| column.names_most_records(records));
    if !named_by_links {
        collect_name_elements(facts, region, &mut columns, true, |document, node| {
            own_hint(document, node)
        });
    }
    // Last resort for templates with no author markup at all (FluxBB shows guests a bare
    // `<dt><strong>name</strong></dt>`): short bold or term texts, unhinted, so that any hinted
    // column found above would have won and only a steady, varied, early column wins here.
    let hinted_names = columns
        .iter()
        .any(|column| column.names_most_records(records));
    if !hinted_names {
        collect_name_elements(facts, region, &mut columns, false, |document, node| {
            let data = document.node(node);
            data.is("strong") || data.is("b") || data.is("dt")
        });
    }
    let mut best: Option<(f32, AuthorsByRecord)> = None;
    let total_columns = columns.len().max(1) as f32;
    for (
        rank,
        AuthorColumn {
            values,
            hinted: hint,
            explicit,
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
        let score = coverage
            + 0.5 * variety
            + if hint { 1.0 } else { 0.0 }
            + if explicit { 1.0 } else { 0.0 }
            + 0.3 * early;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The text `block_text` reads from the body of `html`, lines joined by " | ".
    fn check_text(html: &str, expected: &str) {
        let document = Document::parse(html);
        let body = document.find("body").expect("browsers always make a body");
        assert_eq!(
            block_text(&document, body).replace('\n', " | "),
            expected,
            "{html}"
        );
    }

    #[test]
    fn signatures_end_at_the_last_separator_that_closes_the_post() {
        check_text(
            "<div>The driver update fixed the queue for me after two days.<br>\
             __________________<br>My rig</div>",
            "The driver update fixed the queue for me after two days.",
        );
        check_text(
            "<div>LaTeX arrives<br>------<br>\
             Write formulas between tex tags and they are drawn as images.</div>",
            "LaTeX arrives | ------ | Write formulas between tex tags and they are drawn as images.",
        );
        check_text(
            "<div>First part of a long guide with sections.<br>-----<br>\
             Second part of the guide, longer than the first one.<br>_____<br>sig</div>",
            "First part of a long guide with sections. | ----- | \
             Second part of the guide, longer than the first one.",
        );
        check_text(
            "<div>Thanks!<br>_____<br>A long signature with links and quotes</div>",
            "Thanks! | _____ | A long signature with links and quotes",
        );
    }

    #[test]
    fn needles_are_found_whatever_their_case() {
        let cases = [
            ("post-signature", "signature", true),
            ("SIGNATURE", "signature", true),
            ("userSignatureBox", "signature", true),
            ("signatur", "signature", false),
            ("", "signature", false),
            ("ssignature", "signature", true),
            ("sig sig", "signature", false),
        ];
        for (haystack, needle, expected) in cases {
            assert_eq!(
                contains_ignoring_ascii_case(haystack, needle),
                expected,
                "{haystack:?} {needle:?}"
            );
        }
    }

    #[test]
    fn signatures_are_marked_by_class_id_or_separator() {
        let document = Document::parse(
            "<div id=a class='post Signature'>x</div><div id=b class='sig'>y</div>\
             <div id=c class=sigma>z</div><div id=d>__________<br>me</div><div id=e>text</div>",
        );
        let by_id = |id: &str| {
            document
                .descendants(ROOT)
                .find(|&node| document.attribute(node, "id") == Some(id))
                .expect("the element is there")
        };
        let cases = [
            ("a", true),
            ("b", true),
            ("c", false),
            ("d", true),
            ("e", false),
        ];
        for (id, expected) in cases {
            assert_eq!(is_signature(&document, by_id(id)), expected, "{id}");
        }
    }
}
