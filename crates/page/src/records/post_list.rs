//! A post list that the region finder cut into pieces. Forums put advertisements between posts
//! ("Publicité" boxes made like posts but empty), and style some posts apart (the opening post
//! with its subject and icon, a moderator's notice): such an element breaks the run of similar
//! siblings, so one list of posts becomes several regions under one parent with odd elements
//! between them. Reading only the largest piece lost every post of the others.
//!
//! [`posts_of_list`] reads the chosen post region, then every other region under the same parent
//! with records as wide that mostly carry a date (its *companions*), then, when there are
//! companions, every element of that parent that belongs to no region and reads as a post on
//! its own ([`read_single_post`]) at a time that fits between its neighbours: posts are in time
//! order, an element dated out of that order is something else (a pinned notice, a sidebar box).
//! Without companions, only an element made like the records (same tag and class, see
//! [`shared_identity`]) is read that way: a page marker between two posts breaks the run as
//! well, and leaves the last post alone. A loose post is read with the columns of the records'
//! times and authors, since it is made like them. Records that say nothing and are dated out of
//! the list's order are advertisements made like posts, and are left out
//! ([`without_empty_posts_out_of_order`]).

use url::Url;

use super::post_region::mostly_dated;
use super::posts::{posts_and_columns, posts_in_region, shared_identity};
use super::single_post::read_single_post;
use super::text_column::has_identity;
use super::{PageFacts, Post};
use crate::dom::{NodeId, NodeKind, ROOT};
use crate::time::ParsedTime;

/// The posts of region `region` and of its companions, with the posts standing alone between
/// them, in page order, without the advertisements made like posts (see
/// [`without_empty_posts_out_of_order`]).
pub(super) fn posts_of_list(facts: &PageFacts<'_>, region: usize, page_url: &Url) -> Vec<Post> {
    without_empty_posts_out_of_order(pieces_of_list(facts, region, page_url))
}

/// `posts` without the records that say nothing and are dated out of the list's order: an
/// advertisement box made like a post (the sponsor's word where a name stands, "Today" where
/// a date stands, an empty message, its slot filled by a script) sits between posts of other
/// days, where a post of the thread would stand in time order. An empty post dated in order
/// (a message of one picture) is kept.
fn without_empty_posts_out_of_order(posts: Vec<Post>) -> Vec<Post> {
    let says_something = |post: &Post| !post.text.trim().is_empty();
    let written: Vec<Post> = posts
        .iter()
        .filter(|post| says_something(post))
        .cloned()
        .collect();
    let Some(rising) = time_direction(&written) else {
        return posts;
    };
    let mut kept: Vec<Post> = Vec::with_capacity(posts.len());
    for (index, post) in posts.iter().enumerate() {
        if says_something(post) {
            kept.push(post.clone());
            continue;
        }
        let Some(time) = post.time else {
            kept.push(post.clone());
            continue;
        };
        let previous = posts[..index]
            .iter()
            .rev()
            .filter(|other| says_something(other))
            .find_map(|other| other.time);
        let next = posts[index + 1..]
            .iter()
            .filter(|other| says_something(other))
            .find_map(|other| other.time);
        if fits_between(time, previous, next, Some(rising)) {
            kept.push(post.clone());
        }
    }
    kept
}

/// The posts of region `region` and of its companions, with the posts standing alone between
/// them, in page order.
fn pieces_of_list(facts: &PageFacts<'_>, region: usize, page_url: &Url) -> Vec<Post> {
    let document = facts.document;
    let main = &facts.regions[region];
    // Posts are long beside the short dated entries a page may list next to them under the
    // same parent ("similar threads"): a companion's records carry at least a quarter of the
    // text the chosen region's records carry on average.
    let main_text = mean_record_text(facts, region);
    let companions: Vec<usize> = facts
        .regions
        .iter()
        .enumerate()
        .filter(|(index, other)| {
            *index != region
                && other.parent == main.parent
                && other.width == main.width
                && mostly_dated(facts, *index)
                && mean_record_text(facts, *index) * 4 >= main_text
        })
        .map(|(index, _)| index)
        .collect();
    let (mut posts, columns) = posts_and_columns(facts, region, page_url);
    // Without companions, a loose element is read only when it is made like the records (the
    // last post after a page marker that broke the run): nothing else shows that it belongs.
    let record_identity = shared_identity(facts, main.records.iter().copied());
    if companions.is_empty() && record_identity.is_none() {
        return posts;
    }
    // A companion's own leading post is an element between two pieces, read below with the
    // other such elements: keeping it here as well would count it twice when it is a record of
    // another piece.
    for &companion in &companions {
        let records = &facts.regions[companion].records;
        posts.extend(
            posts_in_region(facts, companion, page_url)
                .into_iter()
                .filter(|post| records.contains(&post.node)),
        );
    }
    let mut covered = vec![false; document.len()];
    for &index in companions.iter().chain([&region]) {
        let piece = &facts.regions[index];
        for record in 0..piece.records.len() {
            for node in piece.record_nodes(document, record) {
                covered[node as usize] = true;
            }
        }
    }
    let order = document_order(facts);
    posts.sort_by_key(|post| order[post.node as usize]);
    let rising = time_direction(&posts);
    let loose: Vec<NodeId> = document
        .children(main.parent)
        .filter(|&child| {
            document.node(child).kind == NodeKind::Element
                && !covered[child as usize]
                && !posts.iter().any(|post| post.node == child)
                && (!companions.is_empty()
                    || record_identity
                        .as_ref()
                        .is_some_and(|identity| has_identity(document, child, identity)))
        })
        .collect();
    for child in loose {
        let at = posts.partition_point(|post| order[post.node as usize] < order[child as usize]);
        let previous = at.checked_sub(1).and_then(|index| posts[index].time);
        let next = posts.get(at).and_then(|post| post.time);
        let Some(post) = read_single_post(facts, child, None, columns) else {
            continue;
        };
        if post
            .time
            .is_some_and(|time| fits_between(time, previous, next, rising))
        {
            posts.insert(at, post);
        }
    }
    posts
}

/// The text bytes a record of region `region` holds on average.
fn mean_record_text(facts: &PageFacts<'_>, region: usize) -> u64 {
    let piece = &facts.regions[region];
    let total: u64 = (0..piece.records.len())
        .flat_map(|record| piece.record_nodes(facts.document, record))
        .map(|node| u64::from(facts.sizes[node as usize]))
        .sum();
    total / piece.records.len().max(1) as u64
}

/// Every node's position in document order: node ids follow the parser's order of creation,
/// which foster parenting and adoption of misnested markup can move away from the tree's order.
fn document_order(facts: &PageFacts<'_>) -> Vec<usize> {
    let mut order = vec![usize::MAX; facts.document.len()];
    for (position, node) in facts.document.descendants(ROOT).enumerate() {
        order[node as usize] = position;
    }
    order
}

/// Whether the dated posts run forward in time (`Some(true)`), backward (`Some(false)`), or
/// show no direction (fewer than two distinct times).
fn time_direction(posts: &[Post]) -> Option<bool> {
    let mut times = posts.iter().filter_map(|post| post.time);
    let first = times.next()?;
    let last = times.next_back()?;
    (first.local != last.local).then_some(first.local < last.local)
}

/// Whether `time` may stand between posts dated `previous` and `next` in a list running in
/// direction `rising` (no direction: any time fits).
fn fits_between(
    time: ParsedTime,
    previous: Option<ParsedTime>,
    next: Option<ParsedTime>,
    rising: Option<bool>,
) -> bool {
    let Some(rising) = rising else { return true };
    let (earlier, later) = if rising {
        (previous, next)
    } else {
        (next, previous)
    };
    earlier.is_none_or(|earlier| earlier.local <= time.local)
        && later.is_none_or(|later| time.local <= later.local)
}
