//! What an audit reads of each page, kept beside the page as it is written.
//!
//! An audit (`trawl_audit`) reads a crawl's every page: its URL, status and role, its
//! page-flipping links, the links of list pages spelled as pages of their list, the identity and
//! time of every post, and the thread entries with their counts. Read from the pages themselves
//! that is every body inflated and scanned for anchors and every post's text, 13 to 28 seconds on
//! a crawl of 100,000 pages. So each page's share of it is reduced when the page is written, in
//! the same transaction, into one row of `audit_pages` (the reduction is `trawl_audit`'s own,
//! [`trawl_audit::links_for_audit`] and [`trawl_audit::post_identity`]): the page-flipping
//! links and the kept links as lines of text, the posts as their 64-bit identities, and the
//! latest post time. An audit then reads one row per page and the thread entries, and never a
//! body or a post.
//!
//! The reduction is Rust code (an HTML scan, a hash), not SQL, so unlike the running totals
//! (`crate::summary`) it cannot be a trigger: every write path of both backends writes the row
//! with the page. A page without its row (written by a trawl from before the rows, or into a
//! store made before them and opened for reading only) is reduced from its stored body and posts
//! when read, so an audit reads the same either way; a store opened for writing first gives
//! every such page its row, under the write lock.

use trawl_audit::{PostsSeen, links_for_audit, list_role_names, post_identity};

use std::collections::HashSet;

use crate::{Bodies, PageRecord, PostRecord, StoreError, StoredPage, ThreadEntryRecord};

/// One page as an audit reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditPage {
    /// Fetch order, from 1.
    pub id: i64,
    /// The URL fetched.
    pub url: String,
    /// HTTP status; 0 when no response arrived.
    pub status: u16,
    /// Why no response arrived.
    pub error: Option<String>,
    /// The `Location` header of a redirect answer (3xx), as received.
    pub location: Option<String>,
    /// The vertex's role.
    pub role: Option<String>,
    /// The document title.
    pub title: Option<String>,
    /// Links continuing this page's list, in page order.
    pub list_links: Vec<String>,
    /// The links of a list page's body the audit may read ([`trawl_audit::links_for_audit`]);
    /// none for other pages.
    pub links: Vec<String>,
    /// The posts, as their identities and latest time.
    pub posts: PostsSeen,
    /// Thread entries, on board pages.
    pub thread_entries: Vec<ThreadEntryRecord>,
}

/// A page's row of `audit_pages`, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Digest {
    /// The page-flipping links, one a line (a URL holds no line break).
    pub(crate) list_links: String,
    /// The kept links of the body, one a line.
    pub(crate) links: String,
    /// Each post's identity, eight bytes little-endian.
    pub(crate) posts: Vec<u8>,
    /// The latest post time.
    pub(crate) newest_post: Option<String>,
}

impl Digest {
    /// The digest of `page` as it is about to be written.
    pub(crate) fn of(page: &PageRecord) -> Digest {
        let is_list_page = page
            .role
            .as_deref()
            .is_some_and(|role| list_role_names().contains(&role));
        let links = if is_list_page {
            links_for_audit(&page.url, &page.list_links, &page.body)
        } else {
            Vec::new()
        };
        let (posts, newest_post) = Digest::of_posts(&page.posts);
        Digest {
            list_links: page.list_links.join("\n"),
            links: links.join("\n"),
            posts,
            newest_post,
        }
    }

    /// The digest's share of `posts`: each post's identity, eight bytes little-endian, and
    /// the latest post time. A page's posts read again ([`crate::Store::replace_posts`]) change
    /// this share alone.
    pub(crate) fn of_posts(posts: &[PostRecord]) -> (Vec<u8>, Option<String>) {
        let mut identities = Vec::with_capacity(8 * posts.len());
        let mut seen = PostsSeen::default();
        for post in posts {
            let identity = post_identity(
                post.permalink.as_deref(),
                post.author.as_deref(),
                post.time.as_deref(),
                &post.text,
            );
            identities.extend_from_slice(&identity.to_le_bytes());
            seen.note_time(post.time.as_deref());
        }
        (identities, seen.newest)
    }

    /// The page-flipping links, kept links and posts this digest holds.
    pub(crate) fn read(self) -> (Vec<String>, Vec<String>, PostsSeen) {
        let lines = |text: String| -> Vec<String> {
            if text.is_empty() {
                Vec::new()
            } else {
                text.split('\n').map(str::to_string).collect()
            }
        };
        let identities = self
            .posts
            .chunks_exact(8)
            .map(|bytes| u64::from_le_bytes(bytes.try_into().expect("eight bytes")))
            .collect();
        (
            lines(self.list_links),
            lines(self.links),
            PostsSeen {
                identities,
                newest: self.newest_post,
            },
        )
    }
}

/// `page` with the links and posts its digest holds.
pub(crate) fn audit_page_of_digest(mut page: AuditPage, digest: Digest) -> AuditPage {
    let (list_links, links, posts) = digest.read();
    page.list_links = list_links;
    page.links = links;
    page.posts = posts;
    page
}

/// A stored page as an audit reads it, reduced now (a page written without its digest).
/// `stored` must hold the body of a list page and its posts' texts to
/// [`trawl_audit::TEXT_IN_IDENTITY`] characters at least.
pub(crate) fn audit_page_of_stored(stored: StoredPage) -> AuditPage {
    let digest = Digest::of(&stored.record);
    let record = stored.record;
    let page = AuditPage {
        id: stored.id,
        location: location_of(record.status, &record.headers),
        url: record.url,
        status: record.status,
        error: record.error,
        role: record.role,
        title: record.title,
        list_links: Vec::new(),
        links: Vec::new(),
        posts: PostsSeen::default(),
        thread_entries: record.thread_entries,
    };
    audit_page_of_digest(page, digest)
}

/// Reduces the pages of `pages` at the positions `without_digest` (in id order) from their stored
/// bodies and posts, which `visit_pages` hands over (the backend's page walk: the bodies of list
/// roles, post texts to [`trawl_audit::TEXT_IN_IDENTITY`] characters, pages after the id given).
/// Both backends read pages written without a digest this way, so an audit reads the same
/// either way.
pub(crate) fn reduce_pages_without_digest(
    pages: &mut [AuditPage],
    without_digest: Vec<usize>,
    visit_pages: impl FnOnce(
        Bodies<'_>,
        usize,
        i64,
        &mut dyn FnMut(StoredPage),
    ) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let Some(&first) = without_digest.first() else {
        return Ok(());
    };
    let wanted: HashSet<i64> = without_digest.iter().map(|&at| pages[at].id).collect();
    let last_id = pages.last().map_or(0, |page| page.id);
    let mut reduced: Vec<AuditPage> = Vec::new();
    let roles = list_role_names();
    visit_pages(
        Bodies::OfRoles(&roles),
        trawl_audit::TEXT_IN_IDENTITY,
        pages[first].id - 1,
        &mut |stored| {
            if wanted.contains(&stored.id) && stored.id <= last_id {
                reduced.push(audit_page_of_stored(stored));
            }
        },
    )?;
    for (at, page) in without_digest.into_iter().zip(reduced) {
        pages[at] = page;
    }
    Ok(())
}

/// The `Location` header of a redirect answer.
pub(crate) fn location_of(status: u16, headers: &[(String, String)]) -> Option<String> {
    if !(300..400).contains(&status) {
        return None;
    }
    headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("location"))
        .map(|(_, value)| value.clone())
}

/// [`location_of`] for headers kept as JSON (`None` when they do not read).
pub(crate) fn location_of_json(status: u16, headers: Option<&str>) -> Option<String> {
    let headers: Vec<(String, String)> = serde_json::from_str(headers?).ok()?;
    location_of(status, &headers)
}

/// Gives each page of `pages` (in id order) its thread entries from `entries`, given as
/// (page id, entry) in page order.
pub(crate) fn attach_entries(
    pages: &mut [AuditPage],
    entries: impl IntoIterator<Item = (i64, ThreadEntryRecord)>,
) {
    let mut index = 0;
    for (page, entry) in entries {
        while index < pages.len() && pages[index].id < page {
            index += 1;
        }
        if index < pages.len() && pages[index].id == page {
            pages[index].thread_entries.push(entry);
        }
    }
}
