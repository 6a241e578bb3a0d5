//! Thread entries of board pages: the title column, reply counts and last-reply times.
//!
//! [`thread_entries_from`] ranks the page's regions by their count columns and titles, reads the
//! best one column by column, and lets the `gathered` submodule add what a single region misses:
//! sticky threads shown in a list of their own, and the lone entry of a board page holding one
//! thread.

use super::*;
use crate::dom::{Document, NodeId, NodeKind, trim_whitespace};
use crate::links::Link;
use crate::regions::{RecordSlot, Region, record_slots};
use crate::time::{DateContext, ParsedTime};

mod gathered;

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
    thread_entries_from(&PageFacts::new(document, regions, slots, links, context))
}

/// Extracts the thread entries of a board page from facts already gathered.
///
/// The entry region is the one whose records carry a title column and most count columns, then
/// most titles (see `EntryRank`). Two kinds of entries stand outside it and are read as well
/// (see the `gathered` submodule): records of the same template shown apart (sticky threads and
/// announcements above the normal ones), and the lone entry of a board page holding a single
/// thread, which no repetition reveals and which a "latest threads" box would otherwise stand
/// in for.
pub fn thread_entries_from(facts: &PageFacts<'_>) -> Vec<ThreadEntry> {
    let regions = facts.regions;
    let mut best: Option<(EntryRank, usize)> = None;
    for (index, region) in regions.iter().enumerate() {
        if region.text_share < 0.1 || region.records.len() < 2 {
            continue;
        }
        let Some(titles) = title_column(facts, index) else {
            continue;
        };
        let rank = EntryRank {
            count_columns: count_columns(facts, index).len().min(2),
            titles: titles.iter().flatten().count(),
        };
        if best.as_ref().is_none_or(|(best_rank, _)| rank > *best_rank) {
            best = Some((rank, index));
        }
    }
    let Some((rank, region)) = best else {
        return gathered::lone_entry_without_list(facts);
    };
    // A region whose records show no count is at best a box of thread links, and may be the
    // cells of the one row of a board's last page read as records (title, starter, last
    // poster): a lone entry showing its counts, when the page has one, is the board's list.
    if rank.count_columns == 0 {
        let lone = gathered::lone_entry_without_list(facts);
        if !lone.is_empty() {
            return lone;
        }
    }
    match gathered::entry_records(facts, region, rank) {
        gathered::EntryRecords::Region => entries_of_region(facts, region),
        gathered::EntryRecords::Gathered(gathered) => {
            let mut regions = facts.regions.to_vec();
            regions.push(gathered);
            let slots = record_slots(facts.document, &regions);
            let widened = facts.with_regions(&regions, &slots);
            let entries = entries_of_region(&widened, regions.len() - 1);
            // Records gathered by their pattern alone may spoil the title column (two links
            // to one thread in the sticky list and the normal one); the region alone still
            // gives its entries then.
            if entries.is_empty() {
                entries_of_region(facts, region)
            } else {
                entries
            }
        }
        gathered::EntryRecords::Lone(entries) => entries,
    }
}

/// How well a region's records look like a board's own thread list: first by how many count
/// columns (replies, views) they show, at most two, then by how many records have a title.
///
/// Counts come first because they tell a board's list from a "latest threads" box, which may
/// hold more records than a board's short last page but shows at most one count per thread.
/// Beyond two, more counts say nothing more: board lists show replies and views, subforum lists
/// topics and posts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct EntryRank {
    count_columns: usize,
    titles: usize,
}

/// The thread entries of the records of region `region`.
fn entries_of_region(facts: &PageFacts<'_>, region: usize) -> Vec<ThreadEntry> {
    let Some(titles) = title_column(facts, region) else {
        return Vec::new();
    };
    // A lean reading keeps no starter (see `PageFacts::lean`).
    let authors = if facts.lean {
        vec![None; facts.regions[region].records.len()]
    } else {
        choose_author_column(facts, region)
    };
    let replies = integer_column(facts, region);
    let last = latest_date_column(facts, region);
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
                title: text.to_string(),
                url: url.to_string(),
                author,
                replies: replies[record],
                last_reply: last[record],
            })
        })
        .collect()
}

/// Per record, the title link: its node, text and URL, borrowed from the link table: every region
/// of a page is tried for a title column, and copying the texts and URLs of all the page's
/// links for each was most of the cost of reading thread entries.
type TitlesByRecord<'link> = Vec<Option<(NodeId, &'link str, &'link str)>>;

/// Per record, the title link, if the region has a title column.
fn title_column<'link>(facts: &PageFacts<'link>, region: usize) -> Option<TitlesByRecord<'link>> {
    let records = facts.regions[region].records.len();
    let mut columns = ColumnTable::new(records);
    for link in facts.links {
        let Some((record, column)) = facts.place(region, link.node) else {
            continue;
        };
        let text = link.text.trim();
        if text.chars().count() < 3 || text.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        columns.offer(column, record, (link.node, text, link.url.as_str()));
    }
    // Columns are in the order their first link appears. The title is the first column whose
    // links are in most records and whose URLs and texts are nearly all distinct: author links
    // repeat when one member starts several threads, buttons repeat their text.
    let qualifying: Vec<TitlesByRecord> = columns
        .into_columns()
        .filter(|values: &TitlesByRecord| {
            let present: Vec<&(NodeId, &str, &str)> = values.iter().flatten().collect();
            let distinct = |key: &dyn Fn(&(NodeId, &'link str, &'link str)) -> &'link str| {
                let mut keys: Vec<&str> = present.iter().map(|entry| key(entry)).collect();
                keys.sort_unstable();
                keys.dedup();
                keys.len()
            };
            present.len() * 10 >= records * 6
                && distinct(&|(_, _, url)| *url) * 10 >= present.len() * 9
                && distinct(&|(_, text, _)| *text) * 10 >= present.len() * 9
        })
        .collect();
    // Authors are distinct too when each thread of a short list has another starter, and some
    // templates put the starter's link first (a "latest topics" box led by the poster). Titles
    // are sentences, names are single words: a later column whose texts are at least twice as
    // long on average, in as many records, is the title column.
    let mean_length = |values: &TitlesByRecord| {
        let present: Vec<usize> = values
            .iter()
            .flatten()
            .map(|(_, text, _)| text.chars().count())
            .collect();
        present.iter().sum::<usize>() / present.len().max(1)
    };
    let present = |values: &TitlesByRecord| values.iter().flatten().count();
    let mut qualifying = qualifying.into_iter();
    let first = qualifying.next()?;
    Some(
        qualifying
            .find(|later| {
                present(later) >= present(&first) && mean_length(later) >= mean_length(&first) * 2
            })
            .unwrap_or(first),
    )
}

/// Per record, the value of the integer column with the smallest values (replies rather than
/// views) among the count columns (see [`count_columns`]).
fn integer_column(facts: &PageFacts<'_>, region: usize) -> Vec<Option<u64>> {
    let records = facts.regions[region].records.len();
    let labelled = labelled_count_columns(facts, region);
    // A column labelled as votes or a score counts what readers thought of the thread, not its
    // replies; question lists show it beside the answers and it is often the smaller number.
    // It competes only when no other count column does.
    let unscored = labelled.iter().any(|(_, score)| !score);
    let usable: Vec<Vec<Option<u64>>> = labelled
        .into_iter()
        .filter(|(_, score)| !(unscored && *score))
        .map(|(values, _)| values)
        .collect();
    // Every thread has a reply count, but only long threads show page links ("2 3 ... 7") beside
    // their title, and those small numbers would win the smallest-values test on a page where
    // most threads are long. So only the columns present in (nearly) as many records as the
    // fullest one compete on their values.
    let fullest = usable
        .iter()
        .map(|values| values.iter().flatten().count())
        .max()
        .unwrap_or(0);
    usable
        .into_iter()
        .filter(|values| values.iter().flatten().count() * 10 >= fullest * 9)
        .min_by_key(|values| {
            let present: Vec<u64> = values.iter().flatten().copied().collect();
            present.iter().sum::<u64>() / present.len().max(1) as u64
        })
        .unwrap_or_else(|| vec![None; records])
}

/// The integer columns present in most records of region `region`, read from short texts that
/// are a number alone ("1,234" and "1.234" included) or beside a word ("12 Antworten").
///
/// A number that is part of a date is not a count: "5 小时前" ("5 hours ago") in a "latest
/// replies" box would otherwise read as a reply count and make the box look like a board's list.
fn count_columns(facts: &PageFacts<'_>, region: usize) -> Vec<Vec<Option<u64>>> {
    labelled_count_columns(facts, region)
        .into_iter()
        .map(|(values, _)| values)
        .collect()
}

/// [`count_columns`], each with whether most of its counts are labelled as votes or a score
/// (see [`labels_score`]).
fn labelled_count_columns(facts: &PageFacts<'_>, region: usize) -> Vec<(Vec<Option<u64>>, bool)> {
    let document = facts.document;
    let records = facts.regions[region].records.len();
    let mut columns = ColumnTable::new(records);
    for record in 0..records {
        for member in facts.regions[region].record_nodes(document, record) {
            for node in document.descendants(member) {
                let Some((parent, value)) = count_of_text(facts, node) else {
                    continue;
                };
                let column = facts.column(region, member, parent);
                columns.offer(column, record, (value, count_label_is_score(facts, node)));
            }
        }
    }
    columns
        .into_columns()
        .filter(|values: &Vec<Option<(u64, bool)>>| {
            values.iter().flatten().count() * 10 >= records * 6
        })
        .map(|values| {
            let present = values.iter().flatten().count();
            let scored = values.iter().flatten().filter(|(_, score)| *score).count();
            (
                values
                    .iter()
                    .map(|value| value.map(|(count, _)| count))
                    .collect(),
                scored * 2 > present,
            )
        })
        .collect()
}

/// Whether the count shown by text node `node` is labelled as votes or a score: by a word in
/// its own text ("12 votes") or in the text just after its element (`<span>12</span> votes`).
fn count_label_is_score(facts: &PageFacts<'_>, node: NodeId) -> bool {
    let document = facts.document;
    labels_score(document.text_of(node))
        || document
            .node(node)
            .parent
            .and_then(|parent| document.node(parent).next_sibling)
            .filter(|&sibling| document.node(sibling).kind == NodeKind::Text)
            .is_some_and(|sibling| labels_score(document.text_of(sibling)))
}

/// Whether the first word of `text` that is not a number names votes or a score.
fn labels_score(text: &str) -> bool {
    const SCORE_WORDS: [&str; 14] = [
        "vote",
        "votes",
        "score",
        "points",
        "likes",
        "stimmen",
        "punkte",
        "votos",
        "voti",
        "stemmen",
        "голосов",
        "голоса",
        "票",
        "赞",
    ];
    text.split(|c: char| c.is_whitespace() || c == ':' || c == '：')
        .find(|word| !word.is_empty() && !word.chars().any(|c| c.is_ascii_digit()))
        .is_some_and(|word| SCORE_WORDS.contains(&word.to_lowercase().as_str()))
}

/// The element holding text node `node` and the count the text shows, when it is a short text
/// holding one number (alone or beside a word, "12 Antworten", "回覆：12") that is not a date.
fn count_of_text(facts: &PageFacts<'_>, node: NodeId) -> Option<(NodeId, u64)> {
    let document = facts.document;
    if document.node(node).kind != NodeKind::Text {
        return None;
    }
    let text = trim_whitespace(document.text_of(node));
    // Most texts of a page hold no digit and so no count: they are dismissed with one scan of
    // their bytes, before the character count and the split below (this runs on every text of
    // a page when a lone thread entry is looked for).
    if !text.bytes().any(|byte| byte.is_ascii_digit()) || text.chars().count() > 24 {
        return None;
    }
    let numbers: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ':' || c == '：')
        .filter(|token| token.chars().any(|c| c.is_ascii_digit()))
        .collect();
    let [number] = numbers[..] else { return None };
    if !number
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '\''))
    {
        return None;
    }
    let parent = document.node(node).parent?;
    if facts.holds_date[parent as usize] && facts.dates.iter().any(|date| date.element == parent) {
        return None;
    }
    let digits: String = number.chars().filter(char::is_ascii_digit).collect();
    let value = digits.parse::<u64>().ok()?;
    // Some engines count a thread's posts rather than its replies ("4 Posts": the opening post
    // and three replies); the reply count is one less.
    let counts_posts = labels_posts(text)
        || document
            .node(parent)
            .next_sibling
            .filter(|&sibling| document.node(sibling).kind == NodeKind::Text)
            .is_some_and(|sibling| labels_posts(document.text_of(sibling)));
    Some((
        parent,
        if counts_posts {
            value.saturating_sub(1)
        } else {
            value
        },
    ))
}

/// Whether the first word of `text` that is not a number names posts (not replies or views).
fn labels_posts(text: &str) -> bool {
    const POST_WORDS: [&str; 13] = [
        "post",
        "posts",
        "beiträge",
        "beitrag",
        "messages",
        "message",
        "mensajes",
        "messaggi",
        "berichten",
        "сообщений",
        "сообщения",
        "帖子",
        "帖",
    ];
    text.split(|c: char| c.is_whitespace() || c == ':' || c == '：')
        .find(|word| !word.is_empty() && !word.chars().any(|c| c.is_ascii_digit()))
        .is_some_and(|word| POST_WORDS.contains(&word.to_lowercase().as_str()))
}

/// Per record, the date of the column whose dates are latest on average (last replies come after
/// the threads' creation dates shown beside them).
///
/// Dates are grouped by the record's cell that holds them, not by their exact column: engines
/// print recent and older last replies with different markup in the same cell (Discuz! wraps
/// "5 小时前" in a link and a span with the exact time as its title, and prints an older
/// "2025-12-20" bare), which would split one field into two columns that each cover only part of
/// the records and lose to the creation dates beside them.
fn latest_date_column(facts: &PageFacts<'_>, region: usize) -> Vec<Option<ParsedTime>> {
    let by_record = facts.record_times_by_record(region);
    let records = by_record.len();
    let seconds = |time: &ParsedTime| {
        time.local
            .to_zoned(jiff::tz::TimeZone::UTC)
            .map_or(0, |zoned| zoned.timestamp().as_second())
    };
    let by_cell: Vec<Vec<(u64, DateCandidate)>> = by_record
        .iter()
        .enumerate()
        .map(|(record, dates)| {
            dates
                .iter()
                .filter_map(|(_, date)| {
                    cell_column(facts, region, record, date.element).map(|cell| (cell, *date))
                })
                .collect()
        })
        .collect();
    let mut cells: Vec<u64> = by_cell.iter().flatten().map(|(cell, _)| *cell).collect();
    cells.sort_unstable();
    cells.dedup();
    cells
        .into_iter()
        .map(|cell| {
            by_cell
                .iter()
                .map(|dates| {
                    let in_cell: Vec<DateCandidate> = dates
                        .iter()
                        .filter(|(c, _)| *c == cell)
                        .map(|(_, d)| *d)
                        .collect();
                    // The exact time an attribute gives, else the latest the cell shows.
                    in_cell
                        .iter()
                        .find(|d| d.machine)
                        .or_else(|| in_cell.iter().max_by_key(|d| seconds(&d.time)))
                        .map(|d| d.time)
                })
                .collect::<Vec<Option<ParsedTime>>>()
        })
        .filter(|values| values.iter().flatten().count() * 2 >= records)
        .max_by_key(|values| {
            let present: Vec<i64> = values.iter().flatten().map(seconds).collect();
            present.iter().sum::<i64>() / present.len().max(1) as i64
        })
        .unwrap_or_else(|| vec![None; records])
}

/// The column of the child of record `record`'s element that holds `element`: the record's
/// cell, whatever markup the cell wraps its content in.
fn cell_column(
    facts: &PageFacts<'_>,
    region: usize,
    record: usize,
    element: NodeId,
) -> Option<u64> {
    let document = facts.document;
    let member = facts.regions[region]
        .record_nodes(document, record)
        .into_iter()
        .find(|&member| member == element || is_ancestor(document, member, element))?;
    let mut cell = element;
    while let Some(parent) = document.node(cell).parent {
        if parent == member || cell == member {
            break;
        }
        cell = parent;
    }
    Some(facts.column(region, member, cell))
}

impl<'page> PageFacts<'page> {
    /// The same facts over another list of regions (the page's own and one gathered from
    /// records they left apart) and its record slots.
    pub(super) fn with_regions<'wider>(
        &self,
        regions: &'wider [Region],
        slots: &'wider [Option<RecordSlot>],
    ) -> PageFacts<'wider>
    where
        'page: 'wider,
    {
        PageFacts {
            document: self.document,
            regions,
            slots,
            links: self.links,
            dates: self.dates.clone(),
            holds_date: self.holds_date.clone(),
            followable: self.followable.clone(),
            sizes: self.sizes.clone(),
            lean: self.lean,
        }
    }
}
