//! Posts of thread pages: the post region, its time, author, text and permalink columns, and
//! the leading post rendered apart.

use url::Url;

use super::*;
use crate::dom::{Document, NodeId, NodeKind};
use crate::links::Link;
use crate::regions::{RecordSlot, Region, column_of};
use crate::time::{DateContext, ParsedTime, Precision};

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
pub fn posts_from(facts: &PageFacts<'_>, page_url: &Url) -> Vec<Post> {
    match post_region(facts) {
        Some(region) => posts_in_region(facts, region, page_url),
        None => Vec::new(),
    }
}

/// Reads region `region` as the post region, whatever its size: for a caller that knows from
/// other pages which pattern holds the posts, such as a lone post that did not repeat.
pub fn posts_in_region(facts: &PageFacts<'_>, region: usize, page_url: &Url) -> Vec<Post> {
    let (document, regions) = (facts.document, facts.regions);
    let records = regions[region].records.len();
    let times = choose_time_column(facts, region);
    let authors = choose_author_column(facts, region);
    let excluded: Vec<NodeId> = times
        .iter()
        .flatten()
        .map(|candidate| candidate.element)
        .chain(authors.iter().flatten().map(|(node, _)| *node))
        .collect();
    let bodies = choose_text_column(facts, region, &excluded);
    let permalinks = choose_permalink_column(facts, region, page_url);
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
    if let Some(leading) = leading_post(facts, region, &posts) {
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
    // (score before the lateness bonus, mean instant, values) per usable column.
    let mut scored: Vec<(f32, i64, Vec<Option<DateCandidate>>)> = Vec::new();
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
        let mean = present.iter().sum::<i64>() / present.len().max(1) as i64;
        scored.push((score, mean, values));
    }
    // A post is written after its author joined and before the author's last visit is shown,
    // but on a page of two posts every column is "in order": the latest column is then the
    // likeliest post time, so it gets a small bonus that only decides near-ties.
    let latest = scored.iter().map(|(_, mean, _)| *mean).max().unwrap_or(0);
    scored
        .into_iter()
        .map(|(score, mean, values)| (score + if mean == latest { 0.3 } else { 0.0 }, values))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, values)| values)
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
                table.offer(column_of(document, member, node), record, node);
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
    let Some(mut chosen) = columns
        .iter()
        .max_by_key(|values| total_text(values))
        .cloned()
    else {
        return vec![None; records];
    };
    // Tighten: a column whose nodes sit inside the chosen ones and keep 80 % of their text in
    // at least 90 % of the records replaces them.
    loop {
        let tighter = columns.iter().find(|values| {
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
            Some(values) => chosen = values.clone(),
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
