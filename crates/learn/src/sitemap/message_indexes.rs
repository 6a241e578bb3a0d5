//! Lists whose entries show nothing but a link and a name.
//!
//! A thread list is recognised by its entries: rows with a title link, and a date or a count
//! beside it, that lead into pages holding posts. A mailing-list archive's indexes show none of
//! that: each row is a message's subject linking its page and the sender's name (MHonArc's
//! thread index nests the replies under the message they answer, with no date at all). The
//! entry reader finds nothing there, every vertex but the messages' own is then "other", the
//! plan keeps no list, and the crawl stops at the portal with the message pages unreached.
//!
//! The rows may still be read as entries, but then they lead into the layout of their own
//! page: the message pages, with their lists of follow-ups and neighbours, are laid out like
//! the index, and entries count for a list only where they lead into another layout.
//!
//! So, when the sampled site shows thread pages but no vertex was recognised as a thread list
//! by its entries, a vertex becomes one when its pages hold no posts and their
//! repetitive regions link, on average, at least [`LEAST_THREAD_LINKS_PER_PAGE`] pages of a
//! thread vertex spelled with another URL pattern. The fallback only runs where entries were
//! read nowhere, so the forums whose boards give entries keep their roles exactly.

use std::collections::HashSet;

use super::{LocationKey, Role, Sitemap};

/// An index page lists many messages; a profile's latest threads or a calendar month's events
/// are a handful.
const LEAST_THREAD_LINKS_PER_PAGE: f64 = 10.0;

/// Marks the vertices that list threads without entries as thread lists (see the module
/// documentation). Runs after the roles read from entries and posts.
pub(super) fn mark_indexes_without_entries(sitemap: &mut Sitemap) {
    // The portal's role is set after this; its list of lists can read as entries leading to
    // the indexes, and is no thread list.
    let portal = sitemap.portal_vertex();
    if sitemap
        .vertices
        .iter()
        .any(|vertex| vertex.role == Role::ThreadList && vertex.id != portal)
    {
        return;
    }
    let threads: HashSet<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| vertex.role == Role::Thread)
        .map(|vertex| vertex.id)
        .collect();
    if threads.is_empty() {
        return;
    }
    let indexes: Vec<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| vertex.role == Role::Other && vertex.id != portal)
        .filter(|vertex| {
            let quiet = vertex
                .pages
                .iter()
                .map(|page| &sitemap.pages[*page])
                .filter(|page| page.posts_with_time == 0)
                .count();
            2 * quiet > vertex.pages.len()
        })
        .filter(|vertex| {
            let thread_links: usize = sitemap
                .arcs
                .iter()
                .filter(|arc| {
                    arc.key.source == vertex.id
                        && matches!(arc.key.location, LocationKey::Region { .. })
                        && arc.main_target().is_some_and(|target| {
                            threads.contains(&target)
                                && sitemap.vertices[target].url_pattern != vertex.url_pattern
                        })
                })
                .map(|arc| arc.links)
                .sum();
            thread_links as f64 >= LEAST_THREAD_LINKS_PER_PAGE * vertex.pages.len().max(1) as f64
        })
        .map(|vertex| vertex.id)
        .collect();
    for vertex in indexes {
        sitemap.vertices[vertex].role = Role::ThreadList;
    }
}
