//! The author column of a post region: name-like links grouped by the kind of URL they lead
//! to, names stated in attributes, and name-like elements marked (or, last, styled) as names.

use super::posts::shared_identity;
use super::text_column::has_identity;
use super::unmarked_names::{
    lone_writer_column, name_box, names_an_element_of_the_page, unmarked_name_refused,
};
use super::{PageFacts, author_signals};
use crate::dom::{Document, NodeId, NodeKind};

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
pub(super) fn name_like(text: &str) -> bool {
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

pub(super) const AUTHOR_HINTS: [&str; 9] = [
    "author", "user", "name", "poster", "member", "nick", "creator", "by", "who",
];
/// Pieces of URLs that lead to a member's profile, in the languages engines are translated
/// into: their URLs are translated too (`/mitglieder/`, `/membres/`, `/usuario/`, `/utente/`).
/// "profil" covers `profile`, `profil` and `profilo`.
pub(super) const PROFILE_HINTS: [&str; 19] = [
    "member",
    "user",
    "profil",
    "/u/",
    "u=",
    "uid",
    "space-uid",
    "author",
    "membre",
    "miembro",
    "mitglied",
    "benutzer",
    "usuario",
    "utente",
    "utilisateur",
    "gebruiker",
    "/people/",
    "/person/",
    "/~",
];

pub(super) fn hinted(document: &Document, mut node: NodeId, member: NodeId) -> bool {
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
pub(super) fn own_hint(document: &Document, node: NodeId) -> bool {
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

/// Per record, the author's element and name, when found.
pub(super) type AuthorsByRecord = Vec<Option<(NodeId, String)>>;

/// One candidate author column: its id, its value per record (columns are kept in the order
/// their first link appears), and whether its links or their elements hint at authors.
pub(super) struct AuthorColumn {
    column: u64,
    pub(super) values: AuthorsByRecord,
    hinted: bool,
    /// Named by an attribute of the record element itself (`data-author`).
    explicit: bool,
    /// Offered by an element that nothing marks as a name (see [`NameEvidence::Unmarked`]).
    pub(super) unmarked: bool,
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
                    unmarked: false,
                });
                columns.last_mut().expect("just pushed")
            }
        }
    }

    /// Whether this column is hinted and could name the authors: present in more than half
    /// the records, and not one text repeated over more than three records (a rank like
    /// "Member") unless its elements are marked as names (see [`repeated_name_allowed`]).
    fn names_most_records(&self, document: &Document, records: usize) -> bool {
        let mut present: Vec<&str> = self
            .values
            .iter()
            .flatten()
            .map(|(_, name)| name.as_str())
            .collect();
        let count = present.len();
        present.sort_unstable();
        present.dedup();
        self.hinted
            && count * 2 > records
            && (records <= 3 || present.len() > 1 || repeated_name_allowed(document, &self.values))
    }
}

/// Words of a class, id or itemprop that say an element shows a member's *name*. The author
/// hints in general ("user", "member") also mark ranks and statistics (`usertitle`,
/// `memberinfo`), which is why one text repeated in every record is normally taken for a rank;
/// an element marked as a name that repeats is one member writing the whole page (an
/// announcement thread), and refusing it lost every author of such pages.
const NAME_MARKS: [&str; 2] = ["name", "author"];

/// Words that mark a rank or a title even beside a name mark (`user-title`, `author-rank`).
const RANK_MARKS: [&str; 5] = ["title", "rank", "group", "role", "status"];

/// Whether one name repeated over the records of a column may still be the author: every
/// element of the column, or one of its two nearest ancestors, is marked as a name (see
/// [`NAME_MARKS`]).
fn repeated_name_allowed(document: &Document, values: &AuthorsByRecord) -> bool {
    let marked = |node: NodeId| {
        let mut current = Some(node);
        (0..3).any(|_| {
            let Some(element) = current else { return false };
            current = document.node(element).parent;
            marked_as_name(document, element)
        })
    };
    let mut present = values.iter().flatten().peekable();
    present.peek().is_some() && present.all(|(node, _)| marked(*node))
}

/// Whether the element's own class, id or itemprop holds a name mark and no rank mark.
fn marked_as_name(document: &Document, node: NodeId) -> bool {
    let (name, rank) = name_and_rank_marks(document, node);
    name && !rank
}

/// Whether the element's own class, id or itemprop holds a rank mark and no name mark
/// (`usertitle`, `member-group`, `author-rank` aside, which say both): a user title, a rank or
/// a group badge. The author hints ("user", "member") match such badges too, which made a
/// column of "Senior Member" badges look as much like authors as the names beside them.
fn marked_as_rank(document: &Document, node: NodeId) -> bool {
    let (name, rank) = name_and_rank_marks(document, node);
    rank && !name
}

/// Whether the element's own class, id or itemprop holds a name mark, and whether it holds a
/// rank mark.
fn name_and_rank_marks(document: &Document, node: NodeId) -> (bool, bool) {
    let (mut name, mut rank) = (false, false);
    for attribute in ["class", "id", "itemprop"] {
        let Some(value) = document.attribute(node, attribute) else {
            continue;
        };
        for word in value
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty())
        {
            let word = word.to_ascii_lowercase();
            name |= NAME_MARKS.iter().any(|mark| word.contains(mark));
            rank |= RANK_MARKS.iter().any(|mark| word.contains(mark));
        }
    }
    (name, rank)
}

/// Whether `node` or one of its two nearest ancestors inside record member `member` is marked
/// as a rank (see [`marked_as_rank`]): a link inside a rank badge is the badge's.
fn inside_rank_mark(document: &Document, node: NodeId, member: NodeId) -> bool {
    let mut current = Some(node);
    for _ in 0..3 {
        let Some(element) = current else { break };
        if marked_as_rank(document, element) {
            return true;
        }
        if element == member {
            break;
        }
        current = document.node(element).parent;
    }
    false
}

/// How the elements that [`collect_name_elements`] offers are told apart from the other short
/// texts of a record when their markup says nothing of names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NameEvidence {
    /// The element's own class, id or itemprop hints at an author: it is taken as marked.
    Marked,
    /// Nothing marks the element: only what it is shown as may tell a name from a label, a
    /// badge or a part of the post time (see [`unmarked_name_refused`]), and the name's box,
    /// not the element inside it, is its column (see [`name_box`]).
    Unmarked,
}

/// Adds to `columns`, per record, the first element that `accepts`, is no followable link and
/// whose text is a name holding no date, grouped by column.
fn collect_name_elements(
    facts: &PageFacts<'_>,
    region: usize,
    columns: &mut Vec<AuthorColumn>,
    evidence: NameEvidence,
    accepts: impl Fn(&Document, NodeId) -> bool,
) {
    let document = facts.document;
    let records = facts.regions[region].records.len();
    let hinted = evidence == NameEvidence::Marked;
    let unmarked = evidence == NameEvidence::Unmarked;
    for record in 0..records {
        for member in facts.regions[region].record_nodes(document, record) {
            for node in document.descendants(member) {
                let data = document.node(node);
                // Followable links were offered as link columns already; a link that leads
                // to no page (`mailto:`, `javascript:`) is left out of the link table, but its
                // text is a name as much as a bold one is.
                if data.kind != NodeKind::Element
                    || (data.is("a") && facts.followable[node as usize])
                    || !accepts(document, node)
                {
                    continue;
                }
                let text = document.text_content(node);
                let text = author_signals::name_without_counter(document, node, &text);
                if !name_like(&text)
                    || shows_a_date(facts, node)
                    || (hinted && names_its_own_class(document, node, &text))
                {
                    continue;
                }
                let node = if unmarked {
                    if unmarked_name_refused(document, node, member, &text) {
                        continue;
                    }
                    name_box(facts, node, member)
                } else {
                    node
                };
                let column = facts.column(region, member, node);
                let entry = AuthorColumn::find_or_add(columns, column, records, hinted);
                entry.unmarked |= unmarked;
                if entry.values[record].is_none() {
                    entry.values[record] = Some((node, text));
                }
            }
        }
    }
}

/// Whether `text`, read from `node`, is a word of `node`'s own class or id: the template's label
/// for what the element counts or shows (`<span class="users">Users <b>1</b></span>` beside a
/// thread's reply and view counts), which its class marks as a name of people all the same. A
/// name is the member's own, never a word of the template's markup.
fn names_its_own_class(document: &Document, node: NodeId, text: &str) -> bool {
    let text = text.trim().to_lowercase();
    ["class", "id"]
        .iter()
        .filter_map(|attribute| document.attribute(node, attribute))
        .flat_map(str::split_whitespace)
        .any(|word| word.to_lowercase() == text)
}

/// Whether `node` holds one of the page's date candidates: a box with the name and the post
/// time together ("Marry_ 18. Dezember 2019") is a header, not a name, though both are short.
pub(super) fn shows_a_date(facts: &PageFacts<'_>, node: NodeId) -> bool {
    facts.holds_date[node as usize]
}

/// Per record, the author link (or name element) and its text.
pub(super) fn choose_author_column(facts: &PageFacts<'_>, region: usize) -> AuthorsByRecord {
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
        let text =
            author_signals::name_without_counter(facts.document, link.node, link.text.trim());
        // A link whose text is a date (a permalink shown as its post time) names no one, and
        // neither does a link to an element of the page itself (`href="#p9100"`): that is the
        // post's permalink, often shown as its subject ("Re: Heat pump noise"), which varies
        // like a name on a thread of two posts. A profile is always another page. A bare `#`
        // leads nowhere by itself (scripts fill it in) and may well hold a name.
        let in_page = facts
            .document
            .attribute(link.node, "href")
            .is_some_and(names_an_element_of_the_page);
        if !name_like(&text) || facts.holds_date[link.node as usize] || in_page {
            continue;
        }
        let profile_url = PROFILE_HINTS
            .iter()
            .any(|hint| link.url.to_ascii_lowercase().contains(hint));
        let member = facts.slots[link.node as usize].map_or(link.node, |slot| slot.member);
        let hint = profile_url
            || (hinted(facts.document, link.node, member)
                && !inside_rank_mark(facts.document, link.node, member));
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
                unmarked: false,
            },
        );
    }
    // Names that are not links (guests, engines that link elsewhere): elements whose own class
    // or itemprop says author and whose text is a name. Looked for unless a hinted link column
    // already names most records: mentions of members inside a few posts' text are profile
    // links too, and must not stop the search for the names every post shows.
    let named_by_links = columns
        .iter()
        .any(|column| column.names_most_records(facts.document, records));
    if !named_by_links {
        collect_name_elements(
            facts,
            region,
            &mut columns,
            NameEvidence::Marked,
            |document, node| own_hint(document, node) && !marked_as_rank(document, node),
        );
    }
    // Last resort for templates with no author markup at all (FluxBB shows guests a bare
    // `<dt><strong>name</strong></dt>`, hand-made pages a `mailto:` link): short bold or term
    // texts and links to no page, unhinted, so that any hinted
    // column found above would have won and only a steady, varied, early column wins here.
    let hinted_names = columns
        .iter()
        .any(|column| column.names_most_records(facts.document, records));
    if !hinted_names {
        collect_name_elements(
            facts,
            region,
            &mut columns,
            NameEvidence::Unmarked,
            |document, node| {
                let data = document.node(node);
                data.is("strong") || data.is("b") || data.is("dt") || data.is("a")
            },
        );
    }
    // Names in plain inline elements, in templates whose markup says nothing of authors (a
    // theme whose classes are words of its own: `<span class="k7">ac73</span>` beside the post
    // time). Looked for only when no column found so far shows two names or more in most
    // records, so a page whose authors any signal above finds never gets here. Only innermost
    // elements are offered (text of their own, no element child with text), so that a name
    // inside several wrappers is one column, not one per wrapper.
    let named_somehow = columns
        .iter()
        .any(|column| shows_several_names(&column.values, records));
    if !named_somehow {
        let sizes = &facts.sizes;
        collect_name_elements(
            facts,
            region,
            &mut columns,
            NameEvidence::Unmarked,
            |document, node| {
                let data = document.node(node);
                [
                    "span", "div", "font", "em", "i", "cite", "small", "bdi", "b", "strong",
                ]
                .iter()
                .any(|tag| data.is(tag))
                    && holds_its_own_text_only(document, sizes, node)
            },
        );
    }
    let refused = refused_columns(facts.document, &columns, records);
    let lone_writer = lone_writer_column(&columns, &refused, records);
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
        if refused[rank] {
            continue;
        }
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
        if records > 3
            && distinct.len() == 1
            && lone_writer != Some(rank)
            && !repeated_name_allowed(facts.document, &values)
        {
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
    let mut chosen = best
        .map(|(_, values)| values)
        .unwrap_or_else(|| vec![None; records]);
    fill_alike_names(facts, region, &mut chosen);
    without_constant_label(facts.document, &mut chosen);
    chosen
}

/// Whether a column's values fill at least half of the records with two different names or more.
pub(super) fn shows_several_names(values: &AuthorsByRecord, records: usize) -> bool {
    let mut present: Vec<&str> = values
        .iter()
        .flatten()
        .map(|(_, name)| name.as_str())
        .collect();
    let count = present.len();
    present.sort_unstable();
    present.dedup();
    count * 2 >= records && present.len() >= 2
}

/// Whether `node` has text of its own and no child element holding text (by the page's text
/// sizes, `sizes`, which are at hand: reading each child's text cost an allocation per element
/// of every record on pages that come this far).
fn holds_its_own_text_only(document: &Document, sizes: &[u32], node: NodeId) -> bool {
    let mut own_text = false;
    for child in document.children(node) {
        match document.node(child).kind {
            NodeKind::Text => own_text |= sizes[child as usize] > 0,
            NodeKind::Element if sizes[child as usize] > 0 => return false,
            _ => {}
        }
    }
    own_text
}

/// Whether `label` ends as the words before an author's name do: a colon, or "by" in the
/// languages forums are most often written in.
fn ends_like_a_name_label(label: &str) -> bool {
    const BY_WORDS: [&str; 9] = ["by", "von", "par", "por", "da", "door", "av", "от", "przez"];
    label.ends_with(':')
        || label
            .split_whitespace()
            .last()
            .is_some_and(|word| BY_WORDS.iter().any(|by| word.eq_ignore_ascii_case(by)))
}

/// Takes the label off names that every record prints before them in one element ("Replied
/// by <small>bob</small>", "Posted by <b>alice</b>"): when each chosen element holds an inner
/// element with the name alone and what stands before it is the same words in every record,
/// those words are the template's, and the inner element is the name.
fn without_constant_label(document: &Document, chosen: &mut AuthorsByRecord) {
    let split: Vec<Option<(String, NodeId, String)>> = chosen
        .iter()
        .map(|value| {
            let (node, text) = value.as_ref()?;
            let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
            document
                .descendants(*node)
                .filter(|&inner| inner != *node && document.node(inner).kind == NodeKind::Element)
                .find_map(|inner| {
                    let name = document.text_content(inner);
                    let name = name.trim();
                    let label = folded.strip_suffix(name)?.trim_end();
                    (!label.is_empty() && name_like(name))
                        .then(|| (label.to_string(), inner, name.to_string()))
                })
        })
        .collect();
    let present: Vec<&(String, NodeId, String)> = split.iter().flatten().collect();
    let labelled = chosen.iter().flatten().count();
    if present.is_empty() || present.len() != labelled {
        return;
    }
    // One record shows no constancy; its label is taken only when it ends as labels before a
    // name do ("Replied by", "Geschrieben von", "Autor:").
    if present.len() == 1 && !ends_like_a_name_label(&present[0].0) {
        return;
    }
    if present.iter().any(|(label, _, _)| *label != present[0].0) {
        return;
    }
    for (value, parts) in chosen.iter_mut().zip(split) {
        if let (Some(value), Some((_, inner, name))) = (value.as_mut(), parts) {
            *value = (inner, name);
        }
    }
}

/// Which candidate columns are badges beside the name rather than the name, judged by what
/// authors are rather than by markup:
///
/// - a column whose values are mostly counts ("1,234 posts", "+52", see
///   [`author_signals::count_like`]) shows a statistic;
/// - a column strictly coarser than a column of persons is a rank, a title or a group: one
///   person always shows one badge, but different persons share a badge ("Senior Member",
///   "Moderator", "Newbie"), while a name repeats only for its person. A column of persons is
///   present in half the records or more (and in as many as the column it refines), holds no
///   counts, and has author hints or a stated name, or else links whose texts and targets pair
///   one to one with one of them repeated (one person, one profile, posting twice). Without
///   that repeat, a column of texts that are all different and each link somewhere of its own
///   would refine anything: glossary links in the messages, floor labels ("沙发", "板凳")
///   linking to each post.
///
/// A name the record states in an attribute is never refused as coarser: it is the plainest
/// signal there is.
fn refused_columns(document: &Document, columns: &[AuthorColumn], records: usize) -> Vec<bool> {
    let present: Vec<usize> = columns
        .iter()
        .map(|column| column.values.iter().flatten().count())
        .collect();
    // Columns in fewer than half the records are never chosen (see the scoring below) and
    // never refine another: most columns of a region are such, and judging them was most of
    // this function's cost.
    let covering: Vec<bool> = present.iter().map(|&count| count * 2 >= records).collect();
    let counts: Vec<bool> = columns
        .iter()
        .zip(&covering)
        .map(|(column, &covering)| covering && mostly_counts(&column.values))
        .collect();
    let persons: Vec<bool> = columns
        .iter()
        .enumerate()
        .map(|(index, column)| {
            !counts[index]
                && covering[index]
                && (column.hinted
                    || column.explicit
                    || names_pair_with_links(document, &column.values))
        })
        .collect();
    columns
        .iter()
        .enumerate()
        .map(|(index, column)| {
            counts[index]
                || (covering[index]
                    && !column.explicit
                    && columns.iter().enumerate().any(|(other, finer)| {
                        other != index
                            && persons[other]
                            && present[other] >= present[index]
                            && strictly_coarser(&column.values, &finer.values)
                    }))
        })
        .collect()
}

/// Whether at least half the values of a column are counts.
fn mostly_counts(values: &AuthorsByRecord) -> bool {
    let present = values.iter().flatten().count();
    let counts = values
        .iter()
        .flatten()
        .filter(|(_, text)| author_signals::count_like(text))
        .count();
    present > 0 && counts * 2 >= present
}

/// Whether every value is a link, texts and targets pair one to one over at least two
/// distinct names, and one name comes back: a name always leads to its member's profile and no
/// one else's, and a member who posts twice shows the same name twice.
fn names_pair_with_links(document: &Document, values: &AuthorsByRecord) -> bool {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for (node, text) in values.iter().flatten() {
        let Some(href) = document.attribute(*node, "href") else {
            return false;
        };
        pairs.push((text.as_str(), href));
    }
    let values = pairs.len();
    pairs.sort_unstable();
    pairs.dedup();
    if pairs.len() == values {
        return false;
    }
    let mut texts: Vec<&str> = pairs.iter().map(|(text, _)| *text).collect();
    let mut targets: Vec<&str> = pairs.iter().map(|(_, href)| *href).collect();
    texts.dedup();
    targets.sort_unstable();
    targets.dedup();
    pairs.len() >= 2 && texts.len() == pairs.len() && targets.len() == pairs.len()
}

/// Whether column `coarse` is strictly coarser than column `fine` over the records both fill:
/// records with one value in `fine` always share their value in `coarse`, and `coarse` has
/// fewer distinct values. Needs two records in common to tell.
fn strictly_coarser(coarse: &AuthorsByRecord, fine: &AuthorsByRecord) -> bool {
    let mut pairs: Vec<(&str, &str)> = coarse
        .iter()
        .zip(fine)
        .filter_map(|(coarse, fine)| Some((fine.as_ref()?.1.as_str(), coarse.as_ref()?.1.as_str())))
        .collect();
    if pairs.len() < 2 {
        return false;
    }
    pairs.sort_unstable();
    pairs.dedup();
    let fine_values = {
        let mut values: Vec<&str> = pairs.iter().map(|(fine, _)| *fine).collect();
        values.dedup();
        values.len()
    };
    // A fine value paired with two coarse values: `fine` does not refine `coarse`.
    if fine_values != pairs.len() {
        return false;
    }
    let mut coarse_values: Vec<&str> = pairs.iter().map(|(_, coarse)| *coarse).collect();
    coarse_values.sort_unstable();
    coarse_values.dedup();
    coarse_values.len() < fine_values
}

/// Gives a record that the author column missed the name shown by an element made like the
/// column's (same tag and class, see [`shared_identity`]). Links that lead nowhere a crawler
/// can follow (`javascript:` for members whose profile is hidden) are not in the link table,
/// so such a name is missed by the link columns though it is the same field.
fn fill_alike_names(facts: &PageFacts<'_>, region: usize, chosen: &mut AuthorsByRecord) {
    let document = facts.document;
    let Some(identity) = shared_identity(facts, chosen.iter().flatten().map(|(node, _)| *node))
    else {
        return;
    };
    for (record, value) in chosen.iter_mut().enumerate() {
        if value.is_some() {
            continue;
        }
        *value = facts.regions[region]
            .record_nodes(document, record)
            .into_iter()
            .flat_map(|member| document.descendants(member))
            .filter(|&node| has_identity(document, node, &identity) && !shows_a_date(facts, node))
            .map(|node| {
                let text = document.text_content(node);
                let name = author_signals::name_without_counter(document, node, text.trim());
                (node, name)
            })
            .find(|(_, name)| name_like(name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_marked_by_name_or_author_words_without_rank_words() {
        let cases = [
            ("<span class='username'>x</span>", true),
            ("<span class='post-author'>x</span>", true),
            ("<span itemprop='name'>x</span>", true),
            ("<a id='displayName3'>x</a>", true),
            ("<span class='usertitle'>x</span>", false),
            ("<span class='author-rank'>x</span>", false),
            ("<span class='member-group'>x</span>", false),
            ("<span class='user'>x</span>", false),
            ("<span>x</span>", false),
        ];
        for (html, expected) in cases {
            let document = Document::parse(html);
            let element = document
                .find("span")
                .or_else(|| document.find("a"))
                .expect("the element is there");
            assert_eq!(marked_as_name(&document, element), expected, "{html}");
        }
    }
}
