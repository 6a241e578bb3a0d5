//! Stored pages read again once the post patterns of their vertex are known.
//!
//! The crawler reads a page of one post through the patterns its vertex's posts were seen
//! repeating in on other pages (a lone reply beside an opening post shown apart), and learns
//! those patterns from the pages it fetches. A page fetched before any page of its vertex showed
//! them was read without them, so which posts it gave depended on the order pages came in. When
//! a drive ends, every such page (`Store::pages_before_post_patterns`) is read again from its
//! stored body, with no new fetch, and its posts are replaced when the reading finds more, one
//! transaction per page (`Store::replace_posts`). Which pages those are follows from the stored
//! pages alone, and a page read again whole is no longer one of them, so a drive killed midway
//! reads the rest when it is run again, and a page is never read into two sets of posts.

use trawl_crawl::{Crawler, Queued, posts_read_again};
use trawl_model::FetchResponse;
use trawl_store::Store;
use trawl_watch::stored::post_records;
use url::Url;

use crate::RunError;

/// Reads again the stored pages fetched before the post patterns of their vertex were known
/// (see the module's documentation) and replaces the posts of those that now read into more.
/// Returns how many pages and how many posts were gained.
pub(crate) fn read_again_pages_before_post_patterns(
    store: &mut Store,
    crawler: &Crawler,
) -> Result<(usize, usize), RunError> {
    let Some(plan) = crawler.plan() else {
        return Ok((0, 0));
    };
    let mut pages_read_again = 0;
    let mut posts_gained = 0;
    for page in store.pages_before_post_patterns()? {
        let known = crawler.post_patterns_of(page.vertex as usize);
        if known.is_empty() {
            continue;
        }
        let (Ok(url), Some(body)) = (Url::parse(&page.url), store.page_body(page.id)?) else {
            continue;
        };
        let queued = Queued {
            url,
            depth: page.depth,
            redirects: 0,
        };
        let response = FetchResponse {
            url: page.url,
            status: page.status,
            headers: page.headers,
            body,
            fetched_at: page.fetched_at,
        };
        if let Some(posts) = posts_read_again(&queued, &response, plan, known, page.posts) {
            posts_gained += posts.len() - page.posts;
            store.replace_posts(page.id, &post_records(posts))?;
            pages_read_again += 1;
        }
    }
    Ok((pages_read_again, posts_gained))
}
