//! The audit read from the stored pages themselves, as [`crate::audit_store`] read it before the
//! store kept an audit digest of every page: every list page's body inflated and scanned for
//! its links, every post's text hashed. It is slow (seconds on a crawl of 100,000 pages) and
//! kept for one purpose: to be the reference the digest-based audit is held to, by the
//! simulated crawls' test of this crate and by the console's benchmark, which both assert the
//! two reports are the same. One reference for both, so they cannot drift apart.

use trawl_audit::{
    AuditReport, CrawlRecord, EntrySeen, FetchedPage, LinkSeen, PostsSeen, anchor_links,
    post_identity,
};
use trawl_learn::sitemap::Role;
use url::Url;

use crate::RunError;
use crate::gaps::{entry_seen, queued_spelling, stored_crawler};
use trawl_store::Store;

/// The audit of `store` read from its pages, bodies and posts (see the module's essay).
pub fn audit_of_stored_pages(store: &Store) -> Result<AuditReport, RunError> {
    let crawler = stored_crawler(store)?;
    let mut record = CrawlRecord::default();
    let list_roles = trawl_audit::list_role_names();
    store.for_each_page_outline(trawl_audit::TEXT_IN_IDENTITY, &list_roles, |stored| {
        let page = stored.record;
        let redirect_to = (300..400)
            .contains(&page.status)
            .then(|| {
                let (_, location) = page
                    .headers
                    .iter()
                    .find(|(name, _)| name.eq_ignore_ascii_case("location"))?;
                Url::parse(&page.url).ok()?.join(location).ok()
            })
            .flatten()
            .map(String::from);
        let posts = PostsSeen::of(page.posts.iter().map(|post| {
            (
                post_identity(
                    post.permalink.as_deref(),
                    post.author.as_deref(),
                    post.time.as_deref(),
                    &post.text,
                ),
                post.time.as_deref(),
            )
        }));
        let links = anchor_links(&page.body, &page.url)
            .into_iter()
            .filter_map(|link| {
                Some(LinkSeen {
                    queued_as: queued_spelling(&crawler, &link)?,
                    url: link,
                })
            })
            .collect();
        let thread_entries: Vec<EntrySeen> = page
            .thread_entries
            .into_iter()
            .map(|entry| entry_seen(&crawler, entry))
            .collect();
        record.pages.push(FetchedPage {
            links,
            role: page.role.as_deref().and_then(Role::from_name),
            url: page.url,
            status: page.status,
            error: page.error,
            redirect_to,
            list_links: page.list_links,
            title: page.title,
            posts,
            thread_entries,
        });
    })?;
    let frontier = store.unfetched_frontier()?;
    record.waiting = frontier.waiting;
    record.passed_over = frontier.passed_over;
    Ok(trawl_audit::audit(&record))
}
