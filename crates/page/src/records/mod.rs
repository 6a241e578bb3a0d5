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
//!   short, name-like and vary between records, preferably pointing at profile-like URLs; when
//!   neither links nor markup name two members, the innermost plain inline elements with
//!   name-like texts are offered, as a theme whose classes are words of its own shows names;
//! - the **text** column is the element with most text across records that holds neither the
//!   author nor the time;
//! - the **permalink** column is a link unique to each record that points into the thread.
//!
//! A record whose field stands somewhere else (a badge shifts its date, its name links to
//! `javascript:`) takes the value of an element made like the column's elements (same tag and
//! class, digits aside); a date marked as the last edit is never a post time.
//!
//! [`extract_posts`] picks the post region (`post_region`): among regions holding at least a
//! tenth of the page's text whose records mostly carry a date, and that are not teasers whose
//! title links lead to other threads ("similar threads"), the one with the most records. Its
//! pieces are read with it: other regions under the same parent (advertisements made like posts
//! cut one list into several runs) and loose posts between them (`post_list`).
//!
//! A date the page labels as an author's join, registration or last-visit date ("Joined:",
//! "Registriert seit", a `profile-joined` class) still marks its record as a post, but is never
//! a record's time: when a page prints no readable post times, its posts get none rather than
//! their authors' join dates.
//!
//! Modules: `dates` gathers the page's date candidates and `date_labels` reads the labels that
//! make one a join date, `authors` (with `author_signals`) chooses the author column (by what
//! authors are: names that repeat only for their person, not counts, not ranks that different
//! persons share; `unmarked_names` tells names that no markup marks from labels, hidden boxes,
//! clocks and permalinks), `text_column` the text column (which varies from
//! record to record, unlike template notes, and leaves out rows of buttons inside the text),
//! `post_region` the post region, `thread_list_texts` the texts that tell a list of threads
//! from a list of posts, `posts` its columns, `single_post` one element read as a post
//! on its own, `post_list` the pieces of a cut list, `lone_post` the one post of a page that
//! repeats nothing, `remarks` the one-line comments listed under a post (never its time, its
//! text or the post list), `anchors` the name each post keeps from page to page, and `entries` the
//! thread entries of board pages.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::dom::{Document, NodeId, NodeKind, ROOT, trim_whitespace};
use crate::links::Link;
use crate::regions::{RecordSlot, Region, column_below_root, column_of};
use crate::time::{DateContext, ParsedTime, Precision};

mod anchors;
mod author_signals;
mod authors;
mod date_labels;
mod dates;
mod entries;
mod lone_post;
mod mail_message;
mod post_list;
mod post_region;
mod posts;
mod remarks;
mod single_post;
mod text_column;
mod thread_list_texts;
mod undated_posts;
mod unmarked_names;

pub use entries::{extract_thread_entries, thread_entries_from};
pub use lone_post::lone_post_element;
pub use mail_message::mail_message_post;
pub use post_region::entries_lead_to_other_threads;
pub use posts::{extract_posts, posts_from, posts_in_region};

use authors::{PROFILE_HINTS, choose_author_column, hinted, name_like, own_hint, shows_a_date};
use dates::{DateCandidate, date_candidates};

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
    /// What names the post apart from its page, the same on every page that shows it (see
    /// `anchors`): the name the page gives the post's element (`data-pid=102`, `id=post-1200`,
    /// `name=msg-4400`), else its permalink. A post that an engine repeats at the top of the
    /// next page has the same anchor on both pages.
    pub anchor: Option<String>,
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

/// The text of `node` with line breaks where the page breaks lines: at `<br>` and around block
/// elements; runs of spaces collapse, blank lines are dropped.
pub fn block_text(document: &Document, node: NodeId) -> String {
    block_text_skipping(document, node, &[])
}

/// [`block_text`] of `node` without the elements `skipped` (and what they hold): the template's
/// rows of buttons that a post's text element holds, see
/// [`text_column::repeated_control_rows`].
fn block_text_skipping(document: &Document, node: NodeId, skipped: &[NodeId]) -> String {
    // The lines are written one after another into one buffer, each from the position
    // `line_starts` keeps: this runs for every element a post's text is tried on, and a string
    // of its own for each line (most of them empty) was a large share of the reading.
    let mut written = String::new();
    let mut line_starts: Vec<usize> = vec![0];
    let mut walk = document.descendants(node);
    // The elements the walk is inside that part words when it leaves them, each with whether
    // it is a block, which also ends the line.
    let mut open: Vec<(NodeId, bool)> = Vec::new();
    // Whether the next text continues the last one's word: nothing but the tags of inline
    // formatting stood between them, as in `<a>amarillas</a>:` or `<b>Re</b>sult`, which a
    // browser shows without a space. Any other element in between separates them.
    let mut glued = false;
    while let Some(id) = walk.next() {
        // Close the elements we have left: one ends when the walk leaves its subtree.
        while let Some(&(element, block)) = open.last() {
            if is_ancestor(document, element, id) {
                break;
            }
            open.pop();
            glued = false;
            if block {
                line_starts.push(written.len());
            }
        }
        let data = document.node(id);
        match data.kind {
            NodeKind::Text => {
                let line_start = *line_starts.last().expect("there is always a line");
                let text = document.text_of(id);
                let mut continues_word = glued && !text.starts_with(char::is_whitespace);
                for word in crate::dom::words(text) {
                    // The line is not empty when something was written since it started; its
                    // last character is the buffer's then.
                    if written.len() > line_start && !written.ends_with(' ') && !continues_word {
                        written.push(' ');
                    }
                    continues_word = false;
                    written.push_str(word);
                }
                if text.ends_with(char::is_whitespace) && written.len() > line_start {
                    written.push(' ');
                }
                glued = written.len() > line_start;
            }
            NodeKind::Element
                if data.is("script")
                    || data.is("style")
                    || data.is("textarea")
                    || is_signature(document, id)
                    || (id != node && is_hidden_dialog(document, id))
                    || skipped.contains(&id) =>
            {
                glued = false;
                walk.skip_children()
            }
            NodeKind::Element if id != node && is_block(data.tag()) => {
                glued = false;
                line_starts.push(written.len());
                if data.first_child.is_some() {
                    open.push((id, true));
                }
            }
            NodeKind::Element if id != node && !is_inline_formatting_tag(data.tag()) => {
                glued = false;
                if data.first_child.is_some() {
                    open.push((id, false));
                }
            }
            _ => {}
        }
    }
    let lines: Vec<&str> = line_starts
        .iter()
        .enumerate()
        .map(|(index, &start)| {
            let end = line_starts.get(index + 1).copied().unwrap_or(written.len());
            written[start..end].trim()
        })
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

/// Whether elements with tag `tag` only format the text they hold, so that a word goes on
/// across their tags. Elements that templates commonly style as blocks (`cite` heads a quote on
/// a line of its own) are left out: a space where a browser breaks the line is the lesser loss.
fn is_inline_formatting_tag(tag: &str) -> bool {
    matches!(
        tag,
        "a" | "abbr"
            | "b"
            | "bdi"
            | "bdo"
            | "big"
            | "code"
            | "del"
            | "em"
            | "font"
            | "i"
            | "ins"
            | "kbd"
            | "mark"
            | "s"
            | "small"
            | "span"
            | "strike"
            | "strong"
            | "sub"
            | "sup"
            | "time"
            | "tt"
            | "u"
            | "var"
    )
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
        document.node(child).kind == NodeKind::Text && {
            let text = trim_whitespace(document.text_of(child));
            text.len() >= 5 && text.bytes().all(|byte| byte == b'_' || byte == b'-')
        }
    });
    // One pass over the attributes (this runs on every element of the page); an element holds
    // each name once, so the first `class` or `id` is the only one.
    opens_with_separator
        || document.attributes(node).any(|(name, value)| {
            (name == "class" || name == "id")
                // Compared without a lowercase copy. Both marks hold "sig", which most values
                // lack: one scan dismisses them.
                && contains_ignoring_ascii_case(value, "sig")
                && (contains_ignoring_ascii_case(value, "signature")
                    || value
                        .split_whitespace()
                        .any(|token| token.eq_ignore_ascii_case("sig")))
        })
}

/// Whether `node` is a dialog the page keeps hidden until a button opens it: a `<dialog>`, an
/// element whose `role` is `dialog` or `alertdialog`, or one of class `modal` (Bootstrap's
/// spelling, which most templates use). Such a dialog inside a post's box (the form to edit a
/// reply, to answer the thread, to log in) is no part of what the post says, and its heading
/// ("Write a reply to ...") and buttons outweighed a short opening post's one line: on a real
/// engine (django-simple-forum) ten opening posts were read as their thread's reply dialog.
pub(super) fn is_hidden_dialog(document: &Document, node: NodeId) -> bool {
    let data = document.node(node);
    data.is("dialog")
        || document.attributes(node).any(|(name, value)| match name {
            "role" => {
                value.eq_ignore_ascii_case("dialog") || value.eq_ignore_ascii_case("alertdialog")
            }
            "class" => value
                .split_ascii_whitespace()
                .any(|token| token.eq_ignore_ascii_case("modal")),
            _ => false,
        })
}

/// Whether `haystack` contains `needle` (lower case ASCII, not empty), ASCII case aside.
fn contains_ignoring_ascii_case(haystack: &str, needle: &str) -> bool {
    let (first, rest) = needle.as_bytes().split_first().expect("a needle");
    let haystack = haystack.as_bytes();
    // Only the places holding the needle's first letter, in either case, are compared in full;
    // `memchr2` finds them without looking at each byte in turn.
    memchr::memchr2_iter(*first, first.to_ascii_uppercase(), haystack).any(|position| {
        haystack
            .get(position + 1..position + needle.len())
            .is_some_and(|tail| tail.eq_ignore_ascii_case(rest))
    })
}

fn is_ancestor(document: &Document, ancestor: NodeId, node: NodeId) -> bool {
    document.is_ancestor(ancestor, node)
}

/// Text bytes below every node, scripts, styles and elements marked as signatures excluded (a
/// signature is the author's, repeated under each of their posts, never the post's text).
fn text_sizes(document: &Document) -> Vec<u32> {
    let mut sizes = vec![0u32; document.len()];
    let mut order: Vec<NodeId> = document.descendants(ROOT).collect();
    order.reverse();
    let mut dialogs = Vec::new();
    for &id in &order {
        let node = document.node(id);
        if node.kind == NodeKind::Text {
            sizes[id as usize] += trim_whitespace(document.text_of(id)).len() as u32;
        }
        let dialog = node.kind == NodeKind::Element && is_hidden_dialog(document, id);
        if dialog {
            dialogs.push(id);
        }
        if node.is("script")
            || node.is("style")
            || node.is("textarea")
            || dialog
            || (node.kind == NodeKind::Element && is_signature(document, id))
        {
            sizes[id as usize] = 0;
        }
        if let Some(parent) = node.parent {
            sizes[parent as usize] += sizes[id as usize];
        }
    }
    // What a hidden dialog holds is no text of the page's records at any depth: no element in
    // it may be chosen as a post's text for the words it holds.
    for dialog in dialogs {
        for inner in document.descendants(dialog) {
            sizes[inner as usize] = 0;
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
    /// For every node, whether it is a link of the link table: a link that leads to a page, not
    /// a `mailto:` or `javascript:` one.
    followable: Vec<bool>,
    sizes: Vec<u32>,
    /// Whether the records are read for a recrawl scheduler only (see [`crate::lean`]): a
    /// post's permalink, anchor and author link and a thread entry's starter are left out.
    /// Nothing that decides which records a page holds, or their times, is.
    lean: bool,
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
        let mut followable = vec![false; document.len()];
        for link in links {
            followable[link.node as usize] = true;
        }
        PageFacts {
            document,
            regions,
            slots,
            links,
            dates,
            holds_date,
            followable,
            sizes: text_sizes(document),
            lean: false,
        }
    }

    /// The same facts for a lean reading (see [`crate::lean`]).
    pub(crate) fn lean(self) -> Self {
        PageFacts { lean: true, ..self }
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
        Some((slot.record as usize, self.column(region, slot.member, node)))
    }

    /// The column of `node` in the record of region `region` whose member `member` holds it.
    /// Records of one element are placed below their root, whose class may mark one record
    /// apart (the first post, a sticky thread) while the rest of it is made like the others
    /// (see [`column_below_root`]); the members of wider records are told apart by their own
    /// tag and class.
    fn column(&self, region: usize, member: NodeId, node: NodeId) -> u64 {
        if self.regions[region].width == 1 {
            column_below_root(self.document, member, node)
        } else {
            column_of(self.document, member, node)
        }
    }

    /// Date candidates of region `region` that name a day or more, by record: what tells a
    /// region of posts (dated records) from other lists. A join date counts here, since
    /// author boxes with join dates are themselves the mark of posts.
    fn dates_by_record(&self, region: usize) -> Vec<Vec<(u64, DateCandidate)>> {
        self.dates_by_record_where(region, |candidate| {
            candidate.time.precision >= Precision::Day
        })
    }

    /// Date candidates of region `region` that may be its records' times, by record: dates
    /// the page labels as join or last-visit dates are left out.
    /// A remark nested under a post (a comment with its own author and date, see `remarks`)
    /// is left out too: its date is the remark's, never its post's.
    fn record_times_by_record(&self, region: usize) -> Vec<Vec<(u64, DateCandidate)>> {
        let parent = self.regions[region].parent;
        // The record's own element is never a remark of itself, even when records are list
        // items: the walk stops at the child of the region's parent that holds the date. A date
        // outside the region has no member here (the region's reading leaves it out anyway).
        let member_of = |node: NodeId| {
            let mut current = node;
            while let Some(up) = self.document.node(current).parent {
                if up == parent {
                    return Some(current);
                }
                current = up;
            }
            None
        };
        self.dates_by_record_where(region, |candidate| {
            candidate.may_be_record_time()
                && member_of(candidate.element).is_none_or(|member| {
                    remarks::remark_holding(self, candidate.element, member).is_none()
                })
        })
    }

    fn dates_by_record_where(
        &self,
        region: usize,
        wanted: impl Fn(&DateCandidate) -> bool,
    ) -> Vec<Vec<(u64, DateCandidate)>> {
        let mut by_record = vec![Vec::new(); self.regions[region].records.len()];
        for candidate in &self.dates {
            if !wanted(candidate) {
                continue;
            }
            if let Some((record, column)) = self.place(region, candidate.element) {
                by_record[record].push((column, *candidate));
            }
        }
        by_record
    }
}

/// Values of a record field gathered column by column: for each column, in the order it was first
/// seen, the first value each record offers in it.
///
/// Every element of every record is offered to some tables (the text column's), so a region
/// holds hundreds of columns; finding a column by scanning the list made each offer cost as much
/// as the columns seen so far. An index from column id to position finds it at once, and the
/// list still keeps the order of first sight, which callers rely on.
struct ColumnTable<T> {
    records: usize,
    columns: Vec<(u64, Vec<Option<T>>)>,
    positions: HashMap<u64, usize, BuildHasherDefault<SmallKeyHasher>>,
}

impl<T: Clone> ColumnTable<T> {
    fn new(records: usize) -> Self {
        ColumnTable {
            records,
            columns: Vec::new(),
            positions: HashMap::default(),
        }
    }

    /// Keeps `value` as `record`'s value in `column` unless the record already has one there.
    fn offer(&mut self, column: u64, record: usize, value: T) {
        self.offer_with(column, record, || value);
    }

    /// [`ColumnTable::offer`] for a value that costs something to make (an owned string): it is
    /// made only when the record has no value in the column yet.
    fn offer_with(&mut self, column: u64, record: usize, value: impl FnOnce() -> T) {
        let index = *self.positions.entry(column).or_insert_with(|| {
            self.columns.push((column, vec![None; self.records]));
            self.columns.len() - 1
        });
        let slot = &mut self.columns[index].1[record];
        if slot.is_none() {
            *slot = Some(value());
        }
    }

    /// The columns' values per record, in the order the columns were first seen.
    fn into_columns(self) -> impl Iterator<Item = Vec<Option<T>>> {
        self.columns.into_iter().map(|(_, values)| values)
    }
}

/// A hasher for the small integer keys of the record readers' maps (column ids, node ids).
///
/// The standard SipHash resists keys chosen by an attacker, which these are not: column ids are
/// already FNV hashes and node ids are indexes into one page's tree. One multiplication by an
/// odd constant spreads them over the table's buckets at a fraction of SipHash's cost; the
/// `rustc-hash` crate would do the same, for a dependency.
#[derive(Default)]
pub(crate) struct SmallKeyHasher {
    hash: u64,
}

impl Hasher for SmallKeyHasher {
    fn finish(&self) -> u64 {
        self.hash
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only integer keys use this hasher; bytes are folded in for completeness.
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        // The high bits of the product choose the bucket (hashbrown takes its control byte
        // from the top seven bits and the bucket from the low ones): rotating brings the
        // well-mixed high half down too.
        self.hash = (self.hash.rotate_left(5) ^ value)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(26);
    }
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
    fn words_run_on_across_inline_formatting_and_part_at_other_elements() {
        let cases = [
            // A link's text and the colon after it, as a browser shows them.
            (
                "<p><a href='/post/102'>Tomates con hojas amarillas</a>: Puede ser</p>",
                "Tomates con hojas amarillas: Puede ser",
            ),
            (
                "<p><b>Re</b>sult <i>and</i> <u>more</u></p>",
                "Result and more",
            ),
            ("<p>回复<a href='/u/1'>小明</a>：好的</p>", "回复小明：好的"),
            // Table cells, images and elements that templates show as blocks part words.
            (
                "<table><tr><td>name</td><td>date</td></tr></table>",
                "name date",
            ),
            ("<p>one<img src='x.png'>two</p>", "one two"),
            (
                "<blockquote><cite>jp_roux a écrit :</cite>Rangez-la</blockquote>",
                "jp_roux a écrit : Rangez-la",
            ),
            ("<p><label>Name</label>Anna</p>", "Name Anna"),
            // Whitespace in the markup still parts words around inline elements.
            ("<p>said: <a href='#'>up</a> then</p>", "said: up then"),
        ];
        for (html, expected) in cases {
            check_text(html, expected);
        }
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
