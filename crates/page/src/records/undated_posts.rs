//! Post lists that show no time. Some engines date only the opening post ("Created by alice,
//! May 4, 2016") and print each reply with its author and message alone ("Replied by bob"), as
//! comment threads under an article do. Every dated candidate of such a page is something else
//! (the thread's header, a list of suggested threads), and the replies, the longest varied texts
//! of the page, were read as nothing.
//!
//! The replies are read here only when no dated list of posts was found, and only when their
//! region reads like posts without the time to say so: most records name an author, every
//! record has a message of its own (no two alike), the messages are sentences rather than
//! labels (a board index's one-line descriptions are shorter), and the messages are not the
//! records' title links (a list of threads).

use url::Url;

use super::post_region::{lists_other_threads, more_records_first, mostly_dated};
use super::posts::posts_in_region;
use super::thread_list_texts::texts_of_a_thread_list;
use super::{PageFacts, Post};

/// The shortest mean message, in characters, of a list read as undated posts: longer than the
/// one-line descriptions of a board index, shorter than most replies.
const SHORTEST_MEAN_MESSAGE: usize = 80;

/// The share of the page's text a region of undated posts must hold, of the text left once
/// dated lists of other threads are set aside.
const LEAST_TEXT_SHARE: f32 = 0.1;

/// The posts of the best region that reads as a list of undated posts, or nothing.
///
/// A region must hold a tenth of the page's text, not counting the dated lists of other
/// threads the page shows: a short thread under a long list of suggested topics (eighty
/// entries with titles, boards and dates) holds a few hundredths of the whole page. Before,
/// the replies of such threads were measured against the whole page and never read (on a real
/// engine of this kind, django-simple-forum, 49 of 1,155 posts were missed on pages the crawl
/// had fetched).
pub(super) fn undated_posts(facts: &PageFacts<'_>, page_url: &Url) -> Vec<Post> {
    let other_threads_share: f32 = (0..facts.regions.len())
        .filter(|&index| {
            mostly_dated(facts, index)
                && facts.regions[index].records.len() >= 2
                && lists_other_threads(facts, index, page_url)
        })
        .map(|index| facts.regions[index].text_share)
        .sum();
    let least_share = LEAST_TEXT_SHARE * (1.0 - other_threads_share).clamp(0.0, 1.0);
    let mut candidates: Vec<usize> = (0..facts.regions.len())
        .filter(|&index| {
            let region = &facts.regions[index];
            region.text_share >= least_share
                && region.text_share > 0.0
                && region.records.len() >= 2
                && !mostly_dated(facts, index)
        })
        .collect();
    candidates.sort_by(|&first, &second| more_records_first(facts, first, second));
    for region in candidates {
        if lists_other_threads(facts, region, page_url) {
            continue;
        }
        let posts = posts_in_region(facts, region, page_url);
        if reads_as_undated_posts(&posts)
            && !texts_of_a_thread_list(facts, region, &posts, page_url)
        {
            return posts;
        }
    }
    Vec::new()
}

/// Whether posts read without times look like replies: two or more, three in five with an
/// author, every one with a message unlike the others, and messages of sentences.
fn reads_as_undated_posts(posts: &[Post]) -> bool {
    if posts.len() < 2 {
        return false;
    }
    let authored = posts.iter().filter(|post| post.author.is_some()).count();
    if authored * 5 < posts.len() * 3 {
        return false;
    }
    let messages: Vec<String> = posts
        .iter()
        .map(|post| post.text.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    if messages.iter().any(String::is_empty) {
        return false;
    }
    let mut distinct = messages.clone();
    distinct.sort();
    distinct.dedup();
    if distinct.len() != messages.len() {
        return false;
    }
    let characters: usize = messages.iter().map(|message| message.chars().count()).sum();
    characters >= SHORTEST_MEAN_MESSAGE * messages.len()
}
