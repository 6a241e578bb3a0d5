//! The audit's digests of pages (`crate::audit_pages`): written with every page on both
//! backends, read back as the pages themselves would be reduced, and made on opening a store
//! whose pages were written without them; and one page's body read alone (`page_body`), as the
//! console draws a page.

use super::{Backend, Place, for_each_backend, outcome, settings};
use crate::audit_pages::audit_page_of_stored;
use crate::test_support::{fresh_database, pages_without_audit_digest, remove_the_audit_digests};
use crate::{AuditPage, FetchOutcome, PostRecord, Store, StoreLocation, ThreadEntryRecord};

/// The pages of `store` reduced from their bodies and posts, as a reader of a store without the
/// digests would reduce them.
fn reduced_again(store: &Store) -> Vec<AuditPage> {
    let mut pages = Vec::new();
    store
        .for_each_page(true, |page| pages.push(audit_page_of_stored(page)))
        .unwrap();
    pages
}

/// A crawl of every kind of page the digest treats apart: a board with a pager and entries, a
/// thread page with a pager link the crawler did not take and posts with and without
/// permalinks, a redirect, a failure, and a page of no list role whose links are not kept.
fn crawl() -> Vec<FetchOutcome> {
    let mut board = outcome("http://forum.test/b?id=1", &[]);
    board.page.role = Some("thread-list".into());
    board.page.list_links = vec!["http://forum.test/b?id=1&page=2".into()];
    board.page.body = br#"<a href="/b?id=1&amp;page=2">2</a> <a href="/b?id=1&amp;page=9">9</a>
        <a href="/t?id=5">a thread</a>"#
        .to_vec();
    board.page.posts = Vec::new();
    board.page.thread_entries = vec![
        ThreadEntryRecord {
            title: "Five".into(),
            url: "http://forum.test/t?id=5".into(),
            author: Some("ann".into()),
            replies: Some(3),
            last_reply: Some("2026-01-03T00:00:00".into()),
        },
        ThreadEntryRecord {
            title: "Six".into(),
            url: "http://forum.test/t?id=6".into(),
            author: None,
            replies: None,
            last_reply: None,
        },
    ];
    let mut thread = outcome("http://forum.test/t?id=5", &[]);
    thread.page.list_links = vec!["http://forum.test/t?id=5&page=2".into()];
    thread.page.body =
        br#"<a href="t?id=5&page=2">2</a><a href="t?id=5&page=3#x">3</a><a href="/u/1">ann</a>"#
            .to_vec();
    thread.page.thread_entries = Vec::new();
    thread.page.posts = vec![
        PostRecord {
            author: Some("ann".into()),
            time: Some("2026-01-02T03:04:00".into()),
            text: "first".into(),
            permalink: Some("http://forum.test/p/1".into()),
        },
        PostRecord {
            author: Some("bob".into()),
            time: Some("2026-01-02T05:00:00".into()),
            text: "x".repeat(500),
            permalink: None,
        },
    ];
    let mut redirect = outcome("http://forum.test/go?t=5", &[]);
    redirect.page.status = 301;
    redirect.page.role = None;
    redirect.page.headers = vec![("Location".into(), "/t?id=5".into())];
    redirect.page.posts = Vec::new();
    let mut failed = outcome("http://forum.test/t?id=6", &[]);
    failed.page.status = 0;
    failed.page.error = Some("connection reset".into());
    failed.page.posts = Vec::new();
    let mut portal = outcome("http://forum.test/", &[]);
    portal.page.role = Some("portal".into());
    portal.page.body = br#"<a href="/b?id=1">board</a><a href="/b?id=2">board</a>"#.to_vec();
    vec![portal, board, thread, redirect, failed]
}

fn written(place: &Place) -> Store {
    let mut store = place.open();
    store
        .begin_crawl(&settings(), &super::entry("http://forum.test/", 0))
        .unwrap();
    store.record_fetches(&crawl()).unwrap();
    store
}

#[test]
fn every_page_is_written_with_its_digest() {
    for_each_backend(|place| {
        let store = written(place);
        let pages = store.audit_pages().unwrap();
        assert_eq!(pages, reduced_again(&store));
        let by_url = |url: &str| {
            pages
                .iter()
                .find(|page| page.url == url)
                .unwrap_or_else(|| panic!("{url} read"))
        };
        // Of list pages, the links spelled as their list's pages and not among their page
        // flipping: the board's "9", the thread's "3" with its fragment.
        assert_eq!(
            by_url("http://forum.test/b?id=1").links,
            ["http://forum.test/b?id=1&page=9"]
        );
        assert_eq!(
            by_url("http://forum.test/t?id=5").links,
            ["http://forum.test/t?id=5&page=3#x"]
        );
        assert!(by_url("http://forum.test/").links.is_empty());
        let thread = by_url("http://forum.test/t?id=5");
        assert_eq!(thread.posts.len(), 2);
        assert_eq!(thread.posts.newest.as_deref(), Some("2026-01-02T05:00:00"));
        assert_eq!(
            thread.posts.identities[0],
            trawl_audit::post_identity(Some("http://forum.test/p/1"), None, None, "")
        );
        assert_eq!(
            by_url("http://forum.test/go?t=5").location.as_deref(),
            Some("/t?id=5")
        );
        assert_eq!(by_url("http://forum.test/b?id=1").thread_entries.len(), 2);
        assert_eq!(
            by_url("http://forum.test/t?id=6").error.as_deref(),
            Some("connection reset")
        );
        // Read only, the same.
        drop(store);
        assert_eq!(place.open_read_only().audit_pages().unwrap(), pages);
    });
}

#[test]
fn a_store_written_without_digests_is_read_alike_and_given_them_on_opening() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        eprintln!("backend: {backend:?}");
        // A database of its own: the digests' table is removed from it.
        let place = match backend {
            Backend::Sqlite => Place::new(backend),
            Backend::Postgres => Place {
                location: StoreLocation::Postgres(fresh_database()),
                ..Place::new(backend)
            },
        };
        let place = &place;
        let expected = written(place).audit_pages().unwrap();
        remove_the_audit_digests(&place.location);
        // Read only: reduced from the pages as they are read.
        assert_eq!(place.open_read_only().audit_pages().unwrap(), expected);
        // Opened for writing: given their digests, then read from them; a page written since
        // has its own.
        let mut store = place.open();
        assert_eq!(
            pages_without_audit_digest(&place.location),
            0,
            "every page has its digest after opening"
        );
        let mut more = outcome("http://forum.test/t?id=5&page=2", &[]);
        more.page.body = br#"<a href="/t?id=5&amp;page=4">4</a>"#.to_vec();
        store.record_fetch(&more).unwrap();
        let pages = store.audit_pages().unwrap();
        assert_eq!(pages[..expected.len()], expected[..]);
        assert_eq!(pages, reduced_again(&store));
        assert_eq!(pages_without_audit_digest(&place.location), 0);
    }
}

#[test]
fn one_page_body_is_read_alone() {
    for_each_backend(|place| {
        let store = written(place);
        let pages = store.audit_pages().unwrap();
        let thread = pages
            .iter()
            .find(|page| page.url == "http://forum.test/t?id=5")
            .expect("the thread page is stored");
        let body = store.page_body(thread.id).unwrap().expect("its body");
        assert!(String::from_utf8(body).unwrap().contains("t?id=5&page=3#x"));
        assert_eq!(store.page_body(9_999).unwrap(), None);
    });
}
