//! The post region of a thread page: which of the page's dated regions holds the posts.

use url::Url;

use super::{PageFacts, author_signals};

/// The regions that may hold the posts, best first: among regions with a tenth of the text or
/// more whose records mostly carry a date, those with most records first (ties: more text),
/// lists of other threads after every other region.
///
/// Pages show teasers of other threads beside the posts ("similar threads", "related topics"):
/// dated records, often with the starter's name and an excerpt, and on a short thread more of
/// them than there are posts. What tells them from posts is what they are: each leads, by a
/// title, to another thread made like this page (see [`lists_other_threads`]). The caller reads
/// the first region whose texts are posts (see `posts::posts_from`): a list whose text column is
/// its title links is a list of threads, whatever page it stands on.
pub(super) fn post_regions(facts: &PageFacts<'_>, page_url: &Url) -> Vec<usize> {
    let mut candidates: Vec<usize> = (0..facts.regions.len())
        .filter(|&index| {
            let region = &facts.regions[index];
            region.text_share >= 0.1 && region.records.len() >= 2 && mostly_dated(facts, index)
        })
        .collect();
    let teasing: Vec<bool> = if candidates.len() < 2 {
        vec![false; candidates.len()]
    } else {
        candidates
            .iter()
            .map(|&index| lists_other_threads(facts, index, page_url))
            .collect()
    };
    let mut ranked: Vec<(bool, usize)> = teasing.into_iter().zip(candidates.drain(..)).collect();
    // A stable sort keeps page order among equals, as the single choice did.
    ranked.sort_by(|(teases, index), (other_teases, other)| {
        teases
            .cmp(other_teases)
            .then(more_records_first(facts, *index, *other))
    });
    ranked.into_iter().map(|(_, index)| index).collect()
}

/// The order of candidate post regions: more records first, then more of the page's text.
pub(super) fn more_records_first(
    facts: &PageFacts<'_>,
    first: usize,
    second: usize,
) -> std::cmp::Ordering {
    let (first, second) = (&facts.regions[first], &facts.regions[second]);
    second.records.len().cmp(&first.records.len()).then(
        second
            .text_share
            .partial_cmp(&first.text_share)
            .unwrap_or(std::cmp::Ordering::Equal),
    )
}

/// Whether at least half the records of region `region` hold a title link to another thread
/// made like the page at `page_url` (see [`another_thread`]): a link of two words or more and
/// a dozen characters, that is no date (a permalink shown as its post's time) and no count.
pub(super) fn lists_other_threads(facts: &PageFacts<'_>, region: usize, page_url: &Url) -> bool {
    let records = facts.regions[region].records.len();
    let mut teasing = vec![false; records];
    for link in facts.links {
        let Some((record, _)) = facts.place(region, link.node) else {
            continue;
        };
        if teasing[record] || facts.holds_date[link.node as usize] {
            continue;
        }
        let text = link.text.trim();
        if text.split_whitespace().count() < 2
            || text.chars().count() < 12
            || author_signals::count_like(text)
        {
            continue;
        }
        // Parsing is the costly part: a link to another host is no thread of this forum.
        if page_url
            .host_str()
            .is_some_and(|host| !link.url.contains(host))
        {
            continue;
        }
        if Url::parse(&link.url).is_ok_and(|url| another_thread(page_url, &url)) {
            teasing[record] = true;
        }
    }
    teasing.iter().filter(|&&teases| teases).count() * 2 >= records
}

/// Whether `link` leads to another page made like `page` and naming another thread: on the
/// same host, either the same path with a query key both share holding another number
/// (`?t=418` and `?t=505`, `?topic=418.0` and `?topic=505.0`), or a path of as many segments,
/// with the same first one, whose differing segments are each numbered on both sides or
/// slugs (`/threads/router-drops.418/` and `/threads/mesh.505/`, `/tema/418/router` and
/// `/tema/505/otro-tema`), at least one numbered. A profile link (`/forum/user/7` beside
/// `/forum/thread/418`) differs in a word, and a post's own permalink in the fragment or in a
/// key the page does not have.
fn another_thread(page: &Url, link: &Url) -> bool {
    if page.host_str() != link.host_str() {
        return false;
    }
    let numbered = |text: &str| text.bytes().any(|byte| byte.is_ascii_digit());
    if page.path() == link.path() {
        let link_pairs: Vec<(std::borrow::Cow<'_, str>, std::borrow::Cow<'_, str>)> =
            link.query_pairs().collect();
        return page.query_pairs().any(|(key, value)| {
            link_pairs.iter().any(|(other_key, other_value)| {
                *other_key == key
                    && *other_value != value
                    && numbered(&value)
                    && numbered(other_value)
            })
        });
    }
    let segments = |url: &Url| -> Vec<String> {
        url.path()
            .split('/')
            .filter(|segment| !segment.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (page_segments, link_segments) = (segments(page), segments(link));
    if page_segments.len() != link_segments.len() || page_segments.first() != link_segments.first()
    {
        return false;
    }
    let slug = |text: &str| text.contains(['-', '_', '.']);
    // Engines whose URLs carry no ids name a thread by a slug of its title alone
    // (`/topic/view/router-drops-at-night/`): a last segment that is a slug of two words or
    // more on both sides names another thread as well as a number does.
    let worded_slug = |text: &str| {
        text.split(['-', '_'])
            .filter(|word| word.chars().any(char::is_alphabetic))
            .count()
            >= 2
    };
    let last = page_segments.len().saturating_sub(1);
    let mut named_difference = false;
    for (position, (ours, theirs)) in page_segments.iter().zip(&link_segments).enumerate() {
        if ours == theirs {
            continue;
        }
        if (numbered(ours) && numbered(theirs))
            || (position == last && worded_slug(ours) && worded_slug(theirs))
        {
            named_difference = true;
        } else if !(slug(ours) || slug(theirs)) {
            return false;
        }
    }
    named_difference
}

/// Whether every entry a page lists leads to another thread made like the page (see
/// [`another_thread`]): the page is a thread's, and its entries are suggestions under it.
pub fn entries_lead_to_other_threads(page_url: &Url, entries: &[super::ThreadEntry]) -> bool {
    !entries.is_empty()
        && entries
            .iter()
            .all(|entry| Url::parse(&entry.url).is_ok_and(|url| another_thread(page_url, &url)))
}

/// Whether at least three in five records of region `region` carry a date, as posts do.
pub(super) fn mostly_dated(facts: &PageFacts<'_>, region: usize) -> bool {
    let dated = facts
        .dates_by_record(region)
        .iter()
        .filter(|dates| !dates.is_empty())
        .count();
    dated as f32 >= 0.6 * facts.regions[region].records.len() as f32
}
