//! The mapping between the crawler's pages and the store's records, shared by every driver that
//! writes a crawl's store: `trawl crawl`'s driver and the watch. The store knows no crawler type
//! and the crawler knows no store (ARCHITECTURE.md), so the values are translated here, once, and
//! a page fetched by a revisit is stored exactly as the crawl stored it.

use trawl_crawl::{CrawlStrategy, CrawledPage, Crawler, Queued, ResumePoint};
use trawl_model::{FetchError, FetchResponse};
use trawl_store::{
    FetchOutcome, FrontierEntry, PageRecord, PostRecord, ResumeState, Store, StoreError,
    ThreadEntryRecord,
};
use url::Url;

/// A crawler following `strategy` from where the crawl held in `store` stands.
pub fn resume_crawler(
    store: &Store,
    portal: &Url,
    strategy: CrawlStrategy,
) -> Result<Crawler, StoreError> {
    Ok(resume_crawler_from(store.resume_state()?, portal, strategy))
}

/// A crawler following `strategy` from where `state` (a store's [`Store::resume_state`]) says
/// the crawl stands: for a reader that wants the state for itself too (the audit reads the
/// frontier's unfetched URLs from it).
pub fn resume_crawler_from(state: ResumeState, portal: &Url, strategy: CrawlStrategy) -> Crawler {
    let point = ResumePoint {
        pending: state
            .pending
            .iter()
            .filter_map(|entry| {
                Some(Queued {
                    url: Url::parse(&entry.url).ok()?,
                    depth: entry.depth,
                    redirects: entry.redirects,
                })
            })
            .collect(),
        seen: state.seen,
        signatures: state
            .signatures
            .into_iter()
            .filter_map(|(url, signature)| Some((Url::parse(&url).ok()?, signature)))
            .collect(),
        fetched: state.fetched,
        unclassified: state.unclassified,
        post_patterns: state
            .post_patterns
            .iter()
            .map(|&(vertex, pattern)| (vertex as usize, pattern))
            .collect(),
    };
    Crawler::resume(portal.clone(), strategy, point)
}

/// The store's view of a fetch that got no response.
pub fn failed_outcome(queued: &Queued, error: &FetchError, at: jiff::Timestamp) -> FetchOutcome {
    FetchOutcome {
        page: PageRecord {
            url: queued.url.to_string(),
            depth: queued.depth,
            error: Some(error.to_string()),
            fetched_at: at,
            ..PageRecord::default()
        },
        frontier_url: queued.url.to_string(),
        requeued: false,
        queued: Vec::new(),
        cookies: None,
        skipped: Vec::new(),
    }
}

/// The store's view of a page's posts, as they are stored with the page and as they replace
/// its stored posts when it is read again (`Store::replace_posts`).
pub fn post_records(posts: Vec<trawl_page::records::Post>) -> Vec<PostRecord> {
    posts
        .into_iter()
        .map(|post| PostRecord {
            author: post.author,
            time: post.time.map(|time| time.to_iso8601()),
            text: post.text,
            permalink: post.permalink,
        })
        .collect()
}

/// The store's view of one fetched and analysed page. The page is taken by value so its records'
/// texts move into the store's records instead of being copied: a thread page's posts are most
/// of its text.
pub fn stored_outcome(queued: &Queued, response: FetchResponse, page: CrawledPage) -> FetchOutcome {
    let CrawledPage {
        vertex,
        role,
        signature,
        post_pattern,
        list_links,
        queued: newly_queued,
        requeued,
        analysis,
        ..
    } = page;
    let title = analysis
        .document
        .find("title")
        .map(|title| analysis.document.text_content(title).trim().to_string())
        .filter(|title| !title.is_empty());
    let posts = post_records(analysis.posts);
    let thread_entries = analysis
        .thread_entries
        .into_iter()
        .map(|entry| ThreadEntryRecord {
            title: entry.title,
            url: entry.url,
            author: entry.author,
            replies: entry.replies,
            last_reply: entry.last_reply.map(|time| time.to_iso8601()),
        })
        .collect();
    FetchOutcome {
        page: PageRecord {
            url: queued.url.to_string(),
            depth: queued.depth,
            status: response.status,
            error: None,
            fetched_at: response.fetched_at,
            headers: response.headers,
            body: response.body,
            vertex: vertex.map(|vertex| vertex as u32),
            role: role.map(|role| role.name().to_string()),
            title,
            signature,
            post_pattern,
            list_links: list_links.into_iter().map(String::from).collect(),
            posts,
            thread_entries,
        },
        frontier_url: queued.url.to_string(),
        requeued,
        skipped: Vec::new(),
        queued: newly_queued
            .into_iter()
            .map(|entry| FrontierEntry {
                url: entry.url.into(),
                depth: entry.depth,
                redirects: entry.redirects,
            })
            .collect(),
        cookies: None,
    }
}
