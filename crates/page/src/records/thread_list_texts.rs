//! What the texts read from a dated region say about it: a list of threads (a board's own list,
//! "suggested topics" under a thread, a sidebar of the latest threads) is authored and dated like
//! posts, and only the texts its records give tell it from a list of posts.
//!
//! Two kinds of text give such a list away. Either each record's text is its own title link
//! (the link to the thread it lists), or it is a line of fields beside a title link: "Started
//! by helga · Replies: 15", "von Tobias, 3 Antworten". A message is written by a person and
//! varies from post to post; a line of fields is printed by a template and, once its names and
//! numbers are set aside, says the same words in every record.

use url::Url;

use super::{PageFacts, Post, author_signals};

/// Whether at least half the posts read from region `region` have for text the text of a link
/// of their record (the link table holds only links that lead to a page): the title of a thread
/// entry, never a post's message.
fn texts_are_title_links(facts: &PageFacts<'_>, region: usize, posts: &[Post]) -> bool {
    let read = texts_by_record(facts, region, posts);
    // Two records of which one gives no text (a sticky group whose one entry is read without
    // its title beside the group of the other entries) are judged by the one text given.
    if read.is_empty() || posts.len() < 2 {
        return false;
    }
    let mut titled = vec![false; facts.regions[region].records.len()];
    for link in facts.links {
        // Placed in the region's records even when the link sits in a region nested inside
        // one (a sticky group's entries inside the list of groups).
        let Some((record, _)) = facts.place(region, link.node) else {
            continue;
        };
        if titled[record] {
            continue;
        }
        let text = link.text.trim();
        if !text.is_empty()
            && read.iter().any(|&(read_record, post_text)| {
                read_record == record && same_words(post_text, text)
            })
        {
            titled[record] = true;
        }
    }
    let titles = read.iter().filter(|(record, _)| titled[*record]).count();
    titles * 2 >= read.len()
}

/// Whether the posts read from region `region` are thread entries whose text is a line of
/// fields: at least four in five of the texts read are one template of labels around names and
/// numbers (see [`field_template`] and [`same_template`]), and at least half the records hold,
/// outside that text, a title link to another page (see [`title_link_records`]).
fn texts_are_entry_lines(
    facts: &PageFacts<'_>,
    region: usize,
    posts: &[Post],
    page_url: &Url,
) -> bool {
    let read = texts_by_record(facts, region, posts);
    if read.len() < 2 {
        return false;
    }
    // Four texts in five must give a template: once more than a fifth give none (a thread
    // page's messages, the common case), the answer is known, and reading templates walks every
    // link of the page for each record.
    let mut templates: Vec<Option<Vec<String>>> = Vec::with_capacity(read.len());
    let mut without_template = 0;
    for &(record, text) in &read {
        let template = field_template(facts, region, record, text);
        if template.is_none() {
            without_template += 1;
            if without_template * 5 > read.len() {
                return false;
            }
        }
        templates.push(template);
    }
    // The template most texts share, compared with each text's own.
    let alike_count = |reference: &Vec<String>| {
        templates
            .iter()
            .flatten()
            .filter(|template| same_template(reference, template))
            .count()
    };
    let most_alike = templates
        .iter()
        .flatten()
        .map(alike_count)
        .max()
        .unwrap_or(0);
    if most_alike * 5 < read.len() * 4 {
        return false;
    }
    let titled = title_link_records(facts, region, &read, page_url);
    titled * 2 >= read.len()
}

/// The non-empty texts of `posts` with the index of the record of region `region` each was
/// read from.
fn texts_by_record<'p>(
    facts: &PageFacts<'_>,
    region: usize,
    posts: &'p [Post],
) -> Vec<(usize, &'p str)> {
    let records = &facts.regions[region].records;
    posts
        .iter()
        .filter_map(|post| {
            let record = records.iter().position(|&node| node == post.node)?;
            Some((record, post.text.trim()))
        })
        .filter(|(_, text)| !text.is_empty())
        .collect()
}

/// The words a template prints around its fields: `text`, read from record `record` of region
/// `region`, with the text of every link of the record (a name, a title) and every number set
/// to one mark (marks side by side joined), when what is left is a short line (at most a dozen words) holding at least one
/// mark and at least one word that is not one (its labels). A message gives none: it is longer,
/// or says nothing but a number ("+1"), or names nothing a template fills in.
fn field_template(
    facts: &PageFacts<'_>,
    region: usize,
    record: usize,
    text: &str,
) -> Option<Vec<String>> {
    const FIELD: &str = "\u{1}";
    const LONGEST_LINE: usize = 12;
    let mut link_texts: Vec<&str> = facts
        .links
        .iter()
        .filter(|link| {
            facts
                .place(region, link.node)
                .is_some_and(|(link_record, _)| link_record == record)
        })
        .map(|link| link.text.trim())
        .filter(|text| !text.is_empty())
        .collect();
    // The longest first, so that a name inside a longer link's text is not marked alone.
    link_texts.sort_by_key(|text| std::cmp::Reverse(text.len()));
    let mut masked = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for link_text in link_texts {
        let link_text = link_text.split_whitespace().collect::<Vec<_>>().join(" ");
        masked = masked.replace(&link_text, &format!(" {FIELD} "));
    }
    let mut words: Vec<String> = masked
        .split_whitespace()
        .map(|word| {
            if author_signals::count_like(word) {
                FIELD.to_string()
            } else {
                word.to_lowercase()
            }
        })
        .collect();
    // Fields printed side by side are one: a reply count followed by the page links of a long
    // thread ("Replies: 105" and "2 3 4 6", read as "Replies: 1052346") is one count.
    words.dedup_by(|word, previous| word == FIELD && previous == FIELD);
    let fields = words.iter().filter(|word| *word == FIELD).count();
    (words.len() <= LONGEST_LINE && fields >= 1 && fields < words.len()).then_some(words)
}

/// Whether two field templates are one: the same number of words, differing in at most one
/// place (a starter's name the template prints without a link).
fn same_template(first: &[String], second: &[String]) -> bool {
    first.len() == second.len()
        && first
            .iter()
            .zip(second)
            .filter(|(one, other)| one != other)
            .count()
            <= 1
}

/// How many of the `read` records of region `region` hold a title link: a link to a page other
/// than `page_url`, of two words or more and a dozen characters, that is no date and no count
/// and whose text is not part of the record's text read (the fields beside the title).
fn title_link_records(
    facts: &PageFacts<'_>,
    region: usize,
    read: &[(usize, &str)],
    page_url: &Url,
) -> usize {
    let mut titled = vec![false; facts.regions[region].records.len()];
    for link in facts.links {
        let Some((record, _)) = facts.place(region, link.node) else {
            continue;
        };
        if titled[record] || facts.holds_date[link.node as usize] || link.url == page_url.as_str() {
            continue;
        }
        let text = link.text.trim();
        if text.split_whitespace().count() < 2
            || text.chars().count() < 12
            || author_signals::count_like(text)
        {
            continue;
        }
        let inside_text = read
            .iter()
            .any(|&(read_record, post_text)| read_record == record && post_text.contains(text));
        if !inside_text {
            titled[record] = true;
        }
    }
    read.iter().filter(|(record, _)| titled[*record]).count()
}

/// Whether two texts hold the same words, whatever the white space between them.
fn same_words(first: &str, second: &str) -> bool {
    first.split_whitespace().eq(second.split_whitespace())
}

/// Whether the posts read from region `region` are the texts of a list of threads rather than
/// messages: their texts are the records' title links, lines of fields beside a title link, or
/// counts alone.
pub(super) fn texts_of_a_thread_list(
    facts: &PageFacts<'_>,
    region: usize,
    posts: &[Post],
    page_url: &Url,
) -> bool {
    texts_are_title_links(facts, region, posts)
        || texts_are_entry_lines(facts, region, posts, page_url)
        || texts_are_counts(posts)
}

/// Whether most texts read are counts and nothing more ("4", "12 replies"): a list of threads
/// whose text column is the reply count, its titles taken for authors. A post says something.
fn texts_are_counts(posts: &[Post]) -> bool {
    let counts = posts
        .iter()
        .filter(|post| {
            let text = post.text.trim();
            text.split_whitespace().count() <= 3 && super::author_signals::count_like(text)
        })
        .count();
    posts.len() >= 2 && counts * 2 > posts.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| word.to_string()).collect()
    }

    #[test]
    fn templates_differing_in_one_place_are_one() {
        let cases = [
            (
                &["started", "by", "\u{1}", "·", "replies:", "\u{1}"][..],
                &["started", "by", "\u{1}", "·", "replies:", "\u{1}"][..],
                true,
            ),
            (
                &["started", "by", "\u{1}", "·", "replies:", "\u{1}"],
                &["started", "by", "tobias", "·", "replies:", "\u{1}"],
                true,
            ),
            (
                &["started", "by", "\u{1}", "·", "replies:", "\u{1}"],
                &["started", "by", "tobias", "·", "views:", "\u{1}"],
                false,
            ),
            (
                &["started", "by", "\u{1}"],
                &["started", "by", "\u{1}", "·", "replies:", "\u{1}"],
                false,
            ),
        ];
        for (first, second, expected) in cases {
            assert_eq!(
                same_template(&template(first), &template(second)),
                expected,
                "{first:?} and {second:?}"
            );
        }
    }
}
