//! Single-post views: pages showing one post of a thread alone.
//!
//! Many engines give each post a page of its own (vBulletin's `showpost.php?p=N`, a "view
//! single post" or "share" link). Such a page holds one post with times and an author, so it
//! reads as a thread, and when it is laid out apart from the threads it is the representative
//! of its layout and a goal of the plan. Boards often link it from their "last post" column, so
//! the plan then fetches the last post of every thread a second time, and every post the
//! thread pages link. Measured with 46 to 66 samples of the simulator's vBulletin forums: 35 to
//! 42 % of the crawl's fetches were such pages.
//!
//! The test for content copies across layouts needs sampled pairs of one item under both
//! spellings, which a small sample seldom holds (the single post a board links is its
//! thread's last, on the thread's last page). The thread pages say it themselves, though: the
//! permalink of each of their posts names the single-post view. A thread vertex whose pages
//! show one post at most, spelled like the permalinks that posts on pages of another thread
//! vertex carry, is a copy of parts of those pages.

use std::collections::HashMap;

use super::VertexVerdict;
use crate::sitemap::{Role, Sitemap};
use crate::url_patterns::UrlPatternId;

/// Permalinks naming a URL pattern, on pages showing two posts or more, that make it the
/// pattern of single-post views.
const LEAST_PERMALINKS: usize = 2;

/// Marks as [`VertexVerdict::Copy`] the thread vertices that are single-post views of posts
/// other thread vertices show (see the module documentation).
pub(super) fn drop_single_post_views(sitemap: &Sitemap, verdicts: &mut [VertexVerdict]) {
    let portal = sitemap.portal_vertex();
    // Per URL pattern, the permalinks of posts shown on thread pages of another pattern that
    // hold two posts or more.
    let mut permalinks_of_pattern: HashMap<UrlPatternId, usize> = HashMap::new();
    for vertex in &sitemap.vertices {
        if vertex.role != Role::Thread {
            continue;
        }
        for page in &vertex.pages {
            let page = &sitemap.pages[*page];
            if page.posts < 2 {
                continue;
            }
            for permalink in &page.post_permalink_urls {
                if let Some(pattern) = sitemap.url_patterns.classify(permalink)
                    && pattern != vertex.url_pattern
                {
                    *permalinks_of_pattern.entry(pattern).or_default() += 1;
                }
            }
        }
    }
    for vertex in &sitemap.vertices {
        if vertex.id == portal
            || vertex.role != Role::Thread
            || verdicts[vertex.id] != VertexVerdict::Kept
            || permalinks_of_pattern
                .get(&vertex.url_pattern)
                .is_none_or(|count| *count < LEAST_PERMALINKS)
        {
            continue;
        }
        let single_posts = vertex
            .pages
            .iter()
            .all(|page| sitemap.pages[*page].posts <= 1);
        if single_posts {
            verdicts[vertex.id] = VertexVerdict::Copy;
        }
    }
}
