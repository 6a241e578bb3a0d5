//! Posts of thread pages: the post region, its time, author, text, permalink and anchor
//! columns, the leading post rendered apart (found and read by `single_post`), and lists whose posts are
//! a header row and a body row made alike.

use url::Url;

use super::anchors::record_anchors;
use super::post_list::posts_of_list;
use super::post_region::post_regions;
use super::single_post::{RecordColumns, leading_post};
use super::text_column::{
    PostTexts, choose_text_column, element_identity, has_identity, repeated_control_rows,
};
use super::thread_list_texts::texts_of_a_thread_list;
use super::*;
use crate::dom::{Document, NodeId, NodeKind};
use crate::links::Link;
use crate::regions::{RecordSlot, Region, record_slots};
use crate::time::{DateContext, Precision};

/// Extracts the posts of a thread page.
pub fn extract_posts(
    document: &Document,
    regions: &[Region],
    slots: &[Option<RecordSlot>],
    links: &[Link],
    page_url: &Url,
    context: &DateContext,
) -> Vec<Post> {
    posts_from(
        &PageFacts::new(document, regions, slots, links, context),
        page_url,
    )
}

/// Extracts the posts of a thread page from facts already gathered.
///
/// The post region is the first of the ranked candidates (see `post_region::post_regions`)
/// whose texts are not those of a list of threads (see `thread_list_texts`): a board's own
/// list, "suggested topics" under a thread or a sidebar of the latest threads is authored and
/// dated like posts, but what it holds of text is each record's link to its thread, a line of
/// fields beside that link ("Started by helga · Replies: 15"), or its reply count alone.
pub fn posts_from(facts: &PageFacts<'_>, page_url: &Url) -> Vec<Post> {
    for region in post_regions(facts, page_url) {
        // A list of remarks under one post (more comments than the page has answers) is no
        // post list: the post that holds it is read as a record of its own, with the post
        // shown apart above it (the question above its one answer).
        if let Some(post) = super::remarks::post_holding_remarks(facts, region) {
            let mut regions = facts.regions.to_vec();
            regions.push(Region {
                parent: document_parent(facts.document, post),
                width: 1,
                records: vec![post],
                pattern: 0,
                text_share: 0.0,
                node_share: 0.0,
            });
            let slots = record_slots(facts.document, &regions);
            let widened = facts.with_regions(&regions, &slots);
            return posts_in_region(&widened, regions.len() - 1, page_url);
        }
        let posts = posts_of_list(facts, region, page_url);
        if !texts_of_a_thread_list(facts, region, &posts, page_url) {
            return posts;
        }
    }
    let paired = posts_of_paired_rows(facts, page_url);
    if !paired.is_empty() {
        return paired;
    }
    super::undated_posts::undated_posts(facts, page_url)
}

/// The parent of `node` (the root for the root itself).
fn document_parent(document: &Document, node: NodeId) -> NodeId {
    document.node(node).parent.unwrap_or(node)
}

/// The posts of a list whose posts are each a header row and a body row made alike (hand-made
/// tables: `<tr><td><b>name</b> wrote on date:</td></tr><tr><td>message</td></tr>`, the rows
/// differing only in colours the region finder does not compare). Such rows are all one
/// record each, so only every other record carries a date and the region is not taken for
/// posts. When a region's records are dated and undated by turns, starting with a dated one,
/// its records are read again two rows at a time.
fn posts_of_paired_rows(facts: &PageFacts<'_>, page_url: &Url) -> Vec<Post> {
    let Some(index) = (0..facts.regions.len()).find(|&index| {
        let region = &facts.regions[index];
        region.width == 1
            && region.text_share >= 0.1
            && region.records.len() >= 4
            && region.records.len().is_multiple_of(2)
            && facts
                .dates_by_record(index)
                .iter()
                .enumerate()
                .all(|(record, dates)| dates.is_empty() == (record % 2 == 1))
    }) else {
        return Vec::new();
    };
    let mut regions = facts.regions.to_vec();
    let paired = &mut regions[index];
    paired.width = 2;
    paired.records = paired.records.iter().copied().step_by(2).collect();
    let slots = record_slots(facts.document, &regions);
    let paired_facts = facts.with_regions(&regions, &slots);
    match post_regions(&paired_facts, page_url).into_iter().next() {
        Some(region) => posts_of_list(&paired_facts, region, page_url),
        None => Vec::new(),
    }
}

/// Reads region `region` as the post region, whatever its size: for a caller that knows from
/// other pages which pattern holds the posts, such as a lone post that did not repeat.
pub fn posts_in_region(facts: &PageFacts<'_>, region: usize, page_url: &Url) -> Vec<Post> {
    posts_and_columns(facts, region, page_url).0
}

/// The posts of region `region` (see [`posts_in_region`]) and the columns of their times and
/// authors, which tell where a post read on its own shows its time and its author when it is
/// made like the records.
pub(super) fn posts_and_columns(
    facts: &PageFacts<'_>,
    region: usize,
    page_url: &Url,
) -> (Vec<Post>, RecordColumns) {
    let (document, regions) = (facts.document, facts.regions);
    let records = regions[region].records.len();
    let times = choose_time_column(facts, region);
    let time_column = most_common(
        times
            .iter()
            .flatten()
            .filter_map(|candidate| facts.place(region, candidate.element))
            .map(|(_, column)| column),
    );
    let mut authors = choose_author_column(facts, region);
    let author_column = most_common(
        authors
            .iter()
            .flatten()
            .filter_map(|(node, _)| facts.place(region, *node))
            .map(|(_, column)| column),
    );
    let columns = RecordColumns {
        time: time_column,
        author: author_column,
    };
    // A lone record has no column to learn the author's place from; a name printed before its
    // date ("alice, May 4, 2016") is read as a post read on its own reads it. It names who
    // wrote the post more surely than any name found only by markup, unless that is a link to
    // a profile: with one record, a class word or a link to nowhere beside the post (its
    // board's name in a row of counts, "Help and Support"; a count's label, "Users 1") cannot
    // be told from a name by how it varies (django-simple-forum's thread of one post).
    if records == 1 {
        let by_profile_link = authors[0].as_ref().is_some_and(|(node, _)| {
            facts.links.iter().any(|link| {
                link.node == *node
                    && PROFILE_HINTS
                        .iter()
                        .any(|hint| link.url.to_ascii_lowercase().contains(hint))
            })
        });
        if !by_profile_link
            && let Some(author) =
                super::single_post::name_before_date(facts, regions[region].records[0])
        {
            authors[0] = Some((author.node, author.name));
        }
    }
    let titles = page_titles(document);
    let mut excluded: Vec<NodeId> = times
        .iter()
        .flatten()
        .map(|candidate| candidate.element)
        .chain(authors.iter().flatten().map(|(node, _)| *node))
        .collect();
    // A lone record has no other records to show which of its elements vary like a message; its
    // subject line, when longer than a short message, would pass for the text. An element that
    // only repeats the thread's title is a field, not the post.
    // Nor is a breadcrumb above it (`Index › Networking`), as long as a short message.
    if records == 1 {
        excluded.extend(subject_elements(facts, region, &titles));
        excluded.extend(super::lone_post::breadcrumbs(facts));
    }
    let mut texts = PostTexts::default();
    let bodies = if records == 1 {
        lone_record_text(facts, region, &excluded, &mut texts)
    } else {
        choose_text_column(facts, region, &excluded, &mut texts)
    };
    // A lean reading keeps neither (see `PageFacts::lean`).
    let (permalinks, anchors) = if facts.lean {
        (vec![None; records], vec![None; records])
    } else {
        (
            choose_permalink_column(facts, region, page_url),
            record_anchors(facts, region),
        )
    };
    let controls = repeated_control_rows(facts, &bodies);
    let mut body_texts: Vec<String> = bodies
        .iter()
        .zip(&controls)
        .map(|(body, controls)| {
            body.map(|node| {
                let text = if controls.is_empty() {
                    texts.block(document, node).to_string()
                } else {
                    block_text_skipping(document, node, controls)
                };
                without_subject_line(text, &titles)
            })
            .unwrap_or_default()
        })
        .collect();
    texts_from_following_siblings(facts, region, &mut body_texts);
    let mut posts: Vec<Post> = (0..records)
        .zip(body_texts)
        .map(|(record, text)| Post {
            author: authors[record].as_ref().map(|(_, name)| name.clone()),
            author_url: authors[record]
                .as_ref()
                .filter(|_| !facts.lean)
                .and_then(|(node, name)| followable_author_url(facts, *node, name)),
            time: times[record].map(|candidate| candidate.time),
            text,
            anchor: anchors[record]
                .clone()
                .or_else(|| permalinks[record].clone()),
            permalink: permalinks[record].clone(),
            node: regions[region].records[record],
        })
        .filter(|post| !post.text.is_empty() || post.author.is_some())
        .collect();
    if let Some(leading) = leading_post(facts, region, &posts, columns) {
        posts.insert(0, leading);
    }
    (posts, columns)
}

/// The profile link of an author shown by element `node` as `name`: the element's own `href`
/// when it is a link a crawler can follow, else the followable link just inside it or just
/// around it that shows the same name (`<div class="author"><a href=...>name</a></div>`, or
/// `<a href=...><span class="username">name</span></a>`), when the chosen element is the
/// name's box or its label rather than the link. A `mailto:` or `javascript:` link leads to no
/// page: the author is then the name alone.
pub(super) fn followable_author_url(
    facts: &PageFacts<'_>,
    node: NodeId,
    name: &str,
) -> Option<String> {
    let document = facts.document;
    let href = |link: NodeId| document.attribute(link, "href").map(str::to_string);
    if document.node(node).is("a") {
        return if facts.followable[node as usize] {
            href(node)
        } else {
            None
        };
    }
    let shows_name = |link: NodeId| {
        facts.followable[link as usize]
            && document
                .text_content(link)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .eq_ignore_ascii_case(name)
    };
    if let Some(inner) = document
        .descendants(node)
        .find(|&inner| inner != node && document.node(inner).is("a") && shows_name(inner))
    {
        return href(inner);
    }
    let mut current = document.node(node).parent;
    for _ in 0..3 {
        let Some(outer) = current else { break };
        if document.node(outer).is("a") {
            return if shows_name(outer) { href(outer) } else { None };
        }
        current = document.node(outer).parent;
    }
    None
}

/// Gives records without a text the text of the element that follows them, when most records
/// have none. Table layouts print a post's header (name, date, buttons) in one row and its
/// message in the next; when the messages make their rows unlike each other (a quote in one, a
/// list or code in another), only the header rows repeat, the region's records are those rows
/// and the messages stand between them, outside every record.
fn texts_from_following_siblings(facts: &PageFacts<'_>, region: usize, texts: &mut [String]) {
    let document = facts.document;
    let empty = texts.iter().filter(|text| text.is_empty()).count();
    if empty == 0 || empty * 2 < texts.len() {
        return;
    }
    let records = &facts.regions[region];
    for (record, text) in texts.iter_mut().enumerate() {
        if !text.is_empty() {
            continue;
        }
        let Some(&last) = records.record_nodes(document, record).last() else {
            continue;
        };
        let mut next = document.node(last).next_sibling;
        while let Some(node) = next.filter(|&node| document.node(node).kind != NodeKind::Element) {
            next = document.node(node).next_sibling;
        }
        // The next record, or a spacer, holds no message of this record.
        let Some(next) = next
            .filter(|&node| !records.records.contains(&node) && facts.sizes[node as usize] >= 20)
        else {
            continue;
        };
        *text = block_text(document, next);
    }
}

/// The value that occurs most often (the first seen among equals), if any.
fn most_common(values: impl Iterator<Item = u64>) -> Option<u64> {
    let mut counts: Vec<(u64, usize)> = Vec::new();
    for value in values {
        match counts.iter_mut().find(|(seen, _)| *seen == value) {
            Some((_, count)) => *count += 1,
            None => counts.push((value, 1)),
        }
    }
    counts
        .into_iter()
        .rev()
        .max_by_key(|(_, count)| *count)
        .map(|(value, _)| value)
}

/// The text column of a lone record: its headings, and its rows of short fields side by side
/// (a thread's counts beside its board's name, `single_post::row_of_short_fields`), are fields
/// when it holds, beside them, a message of 20 bytes or more. A heading names the thread or the
/// post's subject; when the page names the thread nowhere else (a `<title>` of the forum's name
/// alone), the heading is not known as the title, and beside a shorter message it held the most
/// text (django-simple-forum shows a thread's opening post under its title in an `h3`, above
/// its counts). A record whose only text is a heading keeps it: a question asked in its title
/// alone.
fn lone_record_text(
    facts: &PageFacts<'_>,
    region: usize,
    excluded: &[NodeId],
    texts: &mut PostTexts,
) -> Vec<Option<NodeId>> {
    const HEADINGS: [&str; 6] = ["h1", "h2", "h3", "h4", "h5", "h6"];
    let document = facts.document;
    let headings: Vec<NodeId> = facts.regions[region]
        .record_nodes(document, 0)
        .into_iter()
        .flat_map(|member| document.descendants(member))
        .filter(|&node| {
            let data = document.node(node);
            data.kind == NodeKind::Element
                && (HEADINGS.iter().any(|heading| data.is(heading))
                    || super::single_post::row_of_short_fields(document, node))
        })
        .collect();
    if !headings.is_empty() {
        let mut without_headings = excluded.to_vec();
        without_headings.extend(headings);
        let bodies = choose_text_column(facts, region, &without_headings, texts);
        if bodies
            .first()
            .copied()
            .flatten()
            .is_some_and(|body| facts.sizes[body as usize] >= 20)
        {
            return bodies;
        }
    }
    choose_text_column(facts, region, excluded, texts)
}

/// The thread's title as the page names it: the `<title>` and the parts it joins with a
/// separator ("Thread title - Forum name"), and the main headings.
pub(super) fn page_titles(document: &Document) -> Vec<String> {
    const SEPARATORS: [&str; 7] = [" - ", " | ", " :: ", " » ", " – ", " — ", " · "];
    let mut titles: Vec<String> = Vec::new();
    for node in document.descendants(ROOT) {
        let data = document.node(node);
        if !(data.is("title") || data.is("h1") || data.is("h2")) {
            continue;
        }
        let text = document.text_content(node);
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() || text.len() > 300 {
            continue;
        }
        let mut parts = vec![text.as_str()];
        for separator in SEPARATORS {
            parts = parts
                .into_iter()
                .flat_map(|part| part.split(separator))
                .collect();
        }
        titles.extend(
            parts
                .into_iter()
                .map(str::trim)
                .filter(|part| !part.is_empty())
                .map(str::to_string),
        );
        titles.push(text);
    }
    titles
}

/// The elements of region `region` whose whole text is the thread's title, "Re: " prefixed or
/// not.
fn subject_elements(facts: &PageFacts<'_>, region: usize, titles: &[String]) -> Vec<NodeId> {
    let document = facts.document;
    let longest = titles.iter().map(String::len).max().unwrap_or(0) + 8;
    let mut subjects = Vec::new();
    for record in 0..facts.regions[region].records.len() {
        for member in facts.regions[region].record_nodes(document, record) {
            for node in document.descendants(member) {
                let size = facts.sizes[node as usize] as usize;
                if document.node(node).kind != NodeKind::Element || size == 0 || size > longest {
                    continue;
                }
                let text = document.text_content(node);
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                if titles
                    .iter()
                    .any(|title| *title == without_reply_prefix(&text))
                {
                    subjects.push(node);
                }
            }
        }
    }
    subjects
}

/// `subject` without the "Re: " that replies put before the thread's title.
pub(super) fn without_reply_prefix(subject: &str) -> &str {
    const REPLY_PREFIXES: [&str; 6] = ["Re:", "RE:", "Aw:", "AW:", "回复:", "回复："];
    REPLY_PREFIXES
        .iter()
        .find_map(|prefix| subject.strip_prefix(prefix))
        .map_or(subject, str::trim_start)
}

/// A post's text without a first line that only repeats the thread's title (engines print the
/// subject above the message, "Re: " prefixed in replies), when more text follows: the subject
/// is the thread's, the message is the post's.
pub(super) fn without_subject_line(text: String, titles: &[String]) -> String {
    let Some((first, rest)) = text.split_once('\n') else {
        return text;
    };
    let subject = without_reply_prefix(first.trim());
    if rest.trim().is_empty() || !titles.iter().any(|title| title == subject) {
        return text;
    }
    rest.to_string()
}

/// Per record, the date of the column that behaves like post times.
fn choose_time_column(facts: &PageFacts<'_>, region: usize) -> Vec<Option<DateCandidate>> {
    let by_record = merge_wrapped_columns(facts, region, facts.record_times_by_record(region));
    let records = by_record.len();
    let member_of = |node: NodeId| facts.slots[node as usize].map(|slot| slot.member);
    let mut columns: Vec<u64> = by_record
        .iter()
        .flatten()
        .map(|(column, _)| *column)
        .collect();
    columns.sort_unstable();
    columns.dedup();
    // (score before the lateness bonus, mean instant, values) per usable column.
    let mut scored: Vec<(f32, i64, Vec<Option<DateCandidate>>)> = Vec::new();
    for column in columns {
        let values: Vec<Option<DateCandidate>> = by_record
            .iter()
            .map(|dates| {
                let in_column = dates
                    .iter()
                    .filter(|(c, date)| {
                        *c == column
                            && !marks_an_edit(facts.document, date.element, member_of(date.element))
                    })
                    .map(|(_, d)| *d);
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
        let mean = present.iter().sum::<i64>() / present.len().max(1) as i64;
        scored.push((score, mean, values));
    }
    // A post is written after its author joined and before the author's last visit is shown,
    // but on a page of two posts every column is "in order": the latest column is then the
    // likeliest post time, so it gets a small bonus that only decides near-ties.
    let latest = scored.iter().map(|(_, mean, _)| *mean).max().unwrap_or(0);
    let mut chosen = scored
        .into_iter()
        .map(|(score, mean, values)| (score + if mean == latest { 0.3 } else { 0.0 }, values))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, values)| values)
        .unwrap_or_else(|| vec![None; records]);
    // A record whose header holds one element more or less than the others' (a "thread
    // starter" badge beside the name) shifts its date to another position, so the column
    // misses it; the element that shows it is still made like the column's elements.
    if let Some(identity) = shared_identity(facts, chosen.iter().flatten().map(|d| d.element)) {
        for (value, dates) in chosen.iter_mut().zip(&by_record) {
            if value.is_none() {
                let alike = || {
                    dates.iter().map(|(_, date)| *date).filter(|date| {
                        has_identity(facts.document, date.element, &identity)
                            && !marks_an_edit(facts.document, date.element, member_of(date.element))
                    })
                };
                // Of several alike dates (a join date made like the post time), the latest:
                // a post is written after its author joined and after the posts it quotes.
                *value = alike().max_by_key(|date| (date.machine, date.time.local));
            }
        }
    }
    chosen
}

/// The identity (see [`element_identity`]) that all of `elements` share, when there are any and
/// they share one.
pub(super) fn shared_identity(
    facts: &PageFacts<'_>,
    mut elements: impl Iterator<Item = NodeId>,
) -> Option<String> {
    let first = element_identity(facts.document, elements.next()?)?;
    elements
        .all(|element| has_identity(facts.document, element, &first))
        .then_some(first)
}

/// Whether a date is marked as the time of a post's last edit (or of its thread's later activity,
/// "Last replied by bob, <date>", which also comes after the post): the date's element or one of its
/// three nearest ancestors inside its record (`member`, the record's element, is left out: a
/// post that was edited may say so on its own element) has a class or id word about edits
/// (`message-lastEdit`, `edited-by`), or the text just before the element says so ("Last
/// edited by a moderator: <time>"). Edits come after the post, so an edit column is always the
/// latest one on the page, and the near-tie bonus of the latest column would prefer it to the
/// post times. Only the text just before counts: "edited" elsewhere around a post time ("3 May
/// 2019 · edited") does not make it an edit time.
pub(super) fn marks_an_edit(document: &Document, element: NodeId, member: Option<NodeId>) -> bool {
    // Stems, so that the participle and the noun of one language both match ("modificato",
    // "ultima modifica di"; "modifié par", "dernière édition par").
    const EDIT_WORDS: [&str; 11] = [
        "edited",
        "bearbeitet",
        "modifié",
        "édition",
        "editado",
        "modifica",
        "bewerkt",
        "edytowan",
        "редактир",
        "编辑",
        "編集",
    ];
    // A thread's later activity printed beside its opening post ("Last replied by bob, <date>",
    // "Updated on <date>") comes after the post as an edit does.
    const LATER_ACTIVITY_WORDS: [&str; 12] = [
        "last repl",
        "last post",
        "last activity",
        "updated",
        "latest reply",
        "letzte antwort",
        "aktualisiert",
        "dernière réponse",
        "mis à jour",
        "última respuesta",
        "actualizado",
        "ultima risposta",
    ];
    let edit_word = |word: &str| {
        let word = word.to_ascii_lowercase();
        !word.contains("credit")
            && (word.ends_with("edit") || word.ends_with("edited") || word.starts_with("edited"))
    };
    let mut current = Some(element);
    for _ in 0..4 {
        let Some(node) = current.filter(|&node| Some(node) != member) else {
            break;
        };
        // Each class is judged whole: Khoros names the element that shows a post's date
        // `lia-component-post-date-last-edited` on every post, edited or not, because the same
        // component adds the edit time when there is one; a class that names the post date is
        // not an edit mark.
        let marks_edit = |class: &str| {
            let words: Vec<&str> = class
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|word| !word.is_empty())
                .collect();
            let names_post_date = words.windows(2).any(|pair| {
                pair[0].eq_ignore_ascii_case("post") && pair[1].eq_ignore_ascii_case("date")
            }) || words
                .iter()
                .any(|word| word.eq_ignore_ascii_case("postdate"));
            words.iter().any(|word| edit_word(word)) && !names_post_date
        };
        let marked = ["class", "id"].iter().any(|attribute| {
            document
                .attribute(node, attribute)
                .is_some_and(|value| value.split_ascii_whitespace().any(marks_edit))
        });
        if marked {
            return true;
        }
        current = document.node(node).parent;
    }
    let mut previous = document.node(element).previous_sibling;
    while let Some(sibling) = previous {
        let data = document.node(sibling);
        if data.kind == NodeKind::Text && document.text_of(sibling).trim().is_empty() {
            previous = data.previous_sibling;
            continue;
        }
        if data.kind != NodeKind::Text {
            return false;
        }
        let text = document.text_of(sibling).to_lowercase();
        return EDIT_WORDS
            .iter()
            .chain(LATER_ACTIVITY_WORDS.iter())
            .any(|word| text.contains(word));
    }
    false
}

/// Engines often print older dates as text and recent ones as a relative phrase wrapped in an
/// element that carries the exact time ("发表于 2025-12-23 21:35" beside "发表于 <span
/// title=...>5 天前</span>"), so one field spreads over two columns, an element and its child,
/// each covering only part of the records, and a column of join dates covering all of them
/// would win. A date whose element sits at most two levels below an element of another column
/// that holds dates in other records is counted in that outer column: it is the same field.
fn merge_wrapped_columns(
    facts: &PageFacts<'_>,
    region: usize,
    mut by_record: Vec<Vec<(u64, DateCandidate)>>,
) -> Vec<Vec<(u64, DateCandidate)>> {
    let dated_columns: Vec<u64> = by_record
        .iter()
        .flatten()
        .map(|(column, _)| *column)
        .collect();
    for (record, dates) in by_record.iter_mut().enumerate() {
        for (column, candidate) in dates.iter_mut() {
            let mut current = candidate.element;
            for _ in 0..2 {
                let Some(parent) = facts.document.node(current).parent else {
                    break;
                };
                let Some((parent_record, parent_column)) = facts.place(region, parent) else {
                    break;
                };
                if parent_record != record {
                    break;
                }
                if dated_columns.contains(&parent_column) {
                    *column = parent_column;
                }
                current = parent;
            }
        }
    }
    by_record
}

/// Per record, a link unique to the record that points at the post itself.
fn choose_permalink_column(
    facts: &PageFacts<'_>,
    region: usize,
    page_url: &Url,
) -> Vec<Option<String>> {
    let records = facts.regions[region].records.len();
    let mut columns = ColumnTable::new(records);
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
        columns.offer(column, record, url.to_string());
    }
    columns
        .into_columns()
        .find(|values: &Vec<Option<String>>| {
            let present: Vec<&String> = values.iter().flatten().collect();
            let mut distinct = present.clone();
            distinct.sort_unstable();
            distinct.dedup();
            present.len() * 10 >= records * 6 && distinct.len() == present.len()
        })
        .unwrap_or_else(|| vec![None; records])
}

#[cfg(test)]
mod tests {
    use super::*;

    const TITLES: [&str; 3] = [
        "Router keeps dropping - Northwind Forums",
        "Router keeps dropping",
        "Northwind Forums",
    ];

    #[track_caller]
    fn check(text: &str, expected: &str) {
        let titles: Vec<String> = TITLES.iter().map(|title| title.to_string()).collect();
        assert_eq!(without_subject_line(text.to_string(), &titles), expected);
    }

    #[test]
    fn a_first_line_repeating_the_title_is_the_subject_not_the_message() {
        let cases = [
            (
                "Router keeps dropping\nIt drops every evening.",
                "It drops every evening.",
            ),
            ("Re: Router keeps dropping\nSame here.", "Same here."),
            ("AW: Router keeps dropping\nHier auch.", "Hier auch."),
            ("回复: Router keeps dropping\n我也是。", "我也是。"),
            // A title alone is all the post says: kept, as an empty post would be worse.
            ("Router keeps dropping", "Router keeps dropping"),
            ("Router keeps dropping\n  ", "Router keeps dropping\n  "),
            // Lines that only resemble the title, or repeat it later, stay.
            (
                "Router keeps dropping again\nYes.",
                "Router keeps dropping again\nYes.",
            ),
            ("Yes.\nRouter keeps dropping", "Yes.\nRouter keeps dropping"),
            ("router keeps dropping\nYes.", "router keeps dropping\nYes."),
        ];
        for (text, expected) in cases {
            check(text, expected);
        }
    }

    #[test]
    fn edit_times_are_marked_by_class_or_by_the_words_before_them() {
        let cases = [
            (
                "<div class='message-lastEdit'>Last edited: <time>x</time></div>",
                true,
            ),
            (
                "<div id='edited_by_3'><span><time>x</time></span></div>",
                true,
            ),
            ("<p>Zuletzt bearbeitet von Anna: <time>x</time></p>", true),
            // Edit notes that name the edit by a noun, or in other languages.
            ("<p>Dernière édition par Anna : <time>x</time></p>", true),
            ("<p>Ultima modifica di Anna: <time>x</time></p>", true),
            ("<p>Ostatnio edytowany przez Anna: <time>x</time></p>", true),
            (
                "<p>Последний раз редактировалось Anna: <time>x</time></p>",
                true,
            ),
            (
                "<p>Editado pela última vez por Anna: <time>x</time></p>",
                true,
            ),
            (
                "<p>Last edited by Anna: <b>on</b> <time>x</time></p>",
                false,
            ),
            ("<p>Posted <time>x</time> · edited</p>", false),
            ("<p class='post-meta'>Posted <time>x</time></p>", false),
            ("<p class='credit'><time>x</time></p>", false),
            ("<div class='editable'><time>x</time></div>", false),
            // A class naming the post date that also names its edit (Khoros, on every post).
            (
                "<div class='lia-message-post-date lia-component-post-date-last-edited'>\
                 <span><time>x</time></span></div>",
                false,
            ),
            (
                "<div class='post-date message-lastEdit'><time>x</time></div>",
                true,
            ),
            // The record's own element says the post was edited, not which date is the edit.
            (
                "<li class='post edited'><span><time>x</time></span></li>",
                false,
            ),
        ];
        for (html, expected) in cases {
            let document = Document::parse(html);
            let time = document.find("time").expect("the element is there");
            let member = document.find("li");
            assert_eq!(marks_an_edit(&document, time, member), expected, "{html}");
        }
    }

    #[test]
    fn the_most_common_value_wins_and_ties_go_to_the_first_seen() {
        let cases: [(&[u64], Option<u64>); 4] = [
            (&[], None),
            (&[7], Some(7)),
            (&[3, 5, 5, 3, 5], Some(5)),
            (&[4, 9, 9, 4], Some(4)),
        ];
        for (values, expected) in cases {
            assert_eq!(most_common(values.iter().copied()), expected, "{values:?}");
        }
    }

    #[test]
    fn page_titles_are_the_title_its_parts_and_the_main_headings() {
        let document = Document::parse(
            "<html><head><title>Router keeps dropping | Hardware - Northwind</title></head>\
             <body><h1>Router  keeps dropping</h1><h3>Not a title</h3></body></html>",
        );
        assert_eq!(
            page_titles(&document),
            [
                "Router keeps dropping",
                "Hardware",
                "Northwind",
                "Router keeps dropping | Hardware - Northwind",
                "Router keeps dropping",
                "Router keeps dropping",
            ]
        );
    }
}
