//! Pages read again once their vertex's post patterns are known: which pages those are
//! (`pages_before_post_patterns`), and their posts replaced with the totals and the audit's
//! digest kept right (`replace_posts`), on both backends.

use super::summary::checked_summary;
use super::{for_each_backend, outcome, settings};
use crate::audit_pages::audit_page_of_stored;
use crate::{FetchOutcome, PostRecord, Store};

fn post(author: &str, text: &str) -> PostRecord {
    PostRecord {
        author: Some(author.into()),
        time: Some("2026-01-02T03:04:00Z".into()),
        text: text.into(),
        permalink: None,
    }
}

/// A fetch of `url` classified into `vertex`, answered `status`, holding `posts` posts, its
/// posts found repeating in `pattern` when given.
fn fetch(url: &str, vertex: u32, status: u16, posts: usize, pattern: Option<u64>) -> FetchOutcome {
    let mut fetched = outcome(url, &[]);
    fetched.page.vertex = Some(vertex);
    fetched.page.status = status;
    fetched.page.post_pattern = pattern;
    fetched.page.posts = (0..posts)
        .map(|number| post("ann", &format!("post {number} of {url}")))
        .collect();
    fetched
}

fn ids_to_read_again(store: &Store) -> Vec<i64> {
    store
        .pages_before_post_patterns()
        .unwrap()
        .iter()
        .map(|page| page.id)
        .collect()
}

#[test]
fn pages_of_one_post_fetched_before_their_vertex_s_patterns_are_the_ones_to_read_again() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &super::entry("http://forum.test/", 0))
            .unwrap();
        let pages = [
            fetch("http://forum.test/t1", 2, 200, 1, None),
            fetch("http://forum.test/t2", 2, 200, 0, None),
            fetch("http://forum.test/t3", 3, 200, 1, None),
            fetch("http://forum.test/t4", 2, 200, 2, None),
            fetch("http://forum.test/t5", 2, 404, 0, None),
            fetch("http://forum.test/t6", 2, 200, 3, Some(41)),
            fetch("http://forum.test/t7", 2, 200, 1, None),
        ];
        for page in &pages {
            store.record_fetch(page).unwrap();
        }
        // Vertex 3 has no pattern yet, a page of two posts was read whole, an error holds none.
        assert_eq!(ids_to_read_again(&store), [1, 2]);
        let found = &store.pages_before_post_patterns().unwrap()[0];
        assert_eq!(
            (found.url.as_str(), found.vertex, found.posts, found.status),
            ("http://forum.test/t1", 2, 1, 200)
        );
        assert_eq!(found.headers, pages[0].page.headers);
        assert_eq!(found.fetched_at, pages[0].page.fetched_at);
        // A second pattern of the vertex, first shown later, puts the pages before it back.
        store
            .record_fetch(&fetch("http://forum.test/t8", 2, 200, 4, Some(43)))
            .unwrap();
        assert_eq!(ids_to_read_again(&store), [1, 2, 7]);
        // A pattern seen again is no new pattern.
        store
            .record_fetch(&fetch("http://forum.test/t9", 2, 200, 4, Some(41)))
            .unwrap();
        assert_eq!(ids_to_read_again(&store), [1, 2, 7]);
        // A page read into more posts is done.
        store
            .replace_posts(7, &[post("ann", "opening"), post("bob", "reply")])
            .unwrap();
        assert_eq!(ids_to_read_again(&store), [1, 2]);
        // Vertex numbers of an earlier plan name other vertices.
        store.replace_plan("{}").unwrap();
        assert_eq!(ids_to_read_again(&store), Vec::<i64>::new());
    });
}

#[test]
fn posts_replaced_keep_their_identities_the_totals_and_the_audit_digest() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &super::entry("http://forum.test/", 0))
            .unwrap();
        store
            .record_fetch(&fetch("http://forum.test/t1", 2, 200, 1, None))
            .unwrap();
        store
            .record_fetch(&fetch("http://forum.test/t2", 2, 200, 3, Some(41)))
            .unwrap();
        let mut read_again = vec![post("ann", "post 0 of http://forum.test/t1")];
        read_again.push(PostRecord {
            time: Some("2026-02-01T00:00:00Z".into()),
            ..post("bob", "a lone reply")
        });
        for _ in 0..2 {
            // The second time changes nothing: reading again is idempotent.
            store.replace_posts(1, &read_again).unwrap();
            let mut pages = Vec::new();
            store.for_each_page(true, |page| pages.push(page)).unwrap();
            assert_eq!(pages[0].record.posts, read_again);
            assert_eq!(pages[1].record.posts.len(), 3, "other pages keep theirs");
            assert_eq!(store.post_count().unwrap(), 5);
            let kept = checked_summary(&store);
            assert_eq!(kept.posts, 5);
            let digests = store.audit_pages().unwrap();
            let reduced: Vec<_> = pages.into_iter().map(audit_page_of_stored).collect();
            assert_eq!(digests, reduced, "the digest is the replaced posts'");
            assert_eq!(
                digests[0].posts.newest.as_deref(),
                Some("2026-02-01T00:00:00Z")
            );
        }
    });
}
