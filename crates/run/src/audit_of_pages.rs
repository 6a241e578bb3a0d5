//! The audit read from the stored pages themselves, as [`crate::audit_store`] read it before the
//! store kept an audit digest of every page: every list page's body inflated and scanned for
//! its links, every post's text hashed. It is slow (seconds on a crawl of 100,000 pages) and
//! kept for one purpose: to be the reference the digest-based audit is held to, by the
//! simulated crawls' test of this crate and by the console's benchmark, which both assert the
//! two reports are the same. One reference for both, so they cannot drift apart.

use trawl_audit::{AuditReport, CrawlRecord, PostsSeen, anchor_links, post_identity};

use crate::RunError;
use crate::gaps::{fetched_page, stored_crawler};
use trawl_store::{AuditPage, Store};

/// The audit of `store` read from its pages, bodies and posts (see the module's essay).
pub fn audit_of_stored_pages(store: &Store) -> Result<AuditReport, RunError> {
    let crawler = stored_crawler(store)?;
    let mut record = CrawlRecord::default();
    let list_roles = trawl_audit::list_role_names();
    store.for_each_page_outline(trawl_audit::TEXT_IN_IDENTITY, &list_roles, |stored| {
        let page = stored.record;
        let location = (300..400)
            .contains(&page.status)
            .then(|| {
                page.headers
                    .iter()
                    .find(|(name, _)| name.eq_ignore_ascii_case("location"))
                    .map(|(_, location)| location.clone())
            })
            .flatten();
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
        let links = anchor_links(&page.body, &page.url);
        // The page as the store's digest would give it, read from the body and the posts
        // instead, and turned into the audit's page by the one conversion the digest path uses.
        record.pages.push(fetched_page(
            &crawler,
            AuditPage {
                id: stored.id,
                url: page.url,
                status: page.status,
                error: page.error,
                location,
                role: page.role,
                title: page.title,
                list_links: page.list_links,
                links,
                posts,
                thread_entries: page.thread_entries,
            },
        ));
    })?;
    let frontier = store.unfetched_frontier()?;
    record.waiting = frontier.waiting;
    record.passed_over = frontier.passed_over;
    Ok(trawl_audit::audit(&record))
}
