//! The store's behaviour, case by case, run against both backends: a temporary SQLite file, and
//! a site of its own in a PostgreSQL database of the test cluster (`test_support`). Tests of
//! what only one backend has are in `files` and `postgres`.

mod audit_pages;
mod files;
mod postgres;
mod rereading;
mod samples;
mod summary;

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use jiff::Timestamp;

use super::*;

/// The backends every shared case runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

/// A fresh path under the system's temporary directory; the file is removed when dropped.
struct TemporaryDatabase(PathBuf);

impl TemporaryDatabase {
    fn new() -> TemporaryDatabase {
        TemporaryDatabase(temporary_path())
    }
}

/// A path no test of this run uses, with nothing at it.
fn temporary_path() -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "trawl-store-test-{}-{}.db",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    remove_database_files(&path);
    path
}

impl Drop for TemporaryDatabase {
    fn drop(&mut self) {
        remove_database_files(&self.0);
    }
}

/// The PostgreSQL database the shared cases of this test process put their sites in: many
/// sites in one database, as a fleet keeps them, so every case also checks that a site sees
/// only its own rows.
fn shared_postgres_database() -> &'static str {
    static DATABASE: OnceLock<String> = OnceLock::new();
    DATABASE.get_or_init(test_support::fresh_database)
}

/// Where one case keeps its crawl: a temporary file, or a new site in the shared database.
struct Place {
    backend: Backend,
    location: StoreLocation,
    site: String,
    /// Removes the file when the case ends.
    _file: Option<TemporaryDatabase>,
}

impl Place {
    fn new(backend: Backend) -> Place {
        static SITES: AtomicUsize = AtomicUsize::new(0);
        let site = format!(
            "http://forum.test/?case={}",
            SITES.fetch_add(1, Ordering::Relaxed)
        );
        match backend {
            Backend::Sqlite => {
                let file = TemporaryDatabase::new();
                Place {
                    backend,
                    location: StoreLocation::File(file.0.clone()),
                    site,
                    _file: Some(file),
                }
            }
            Backend::Postgres => Place {
                backend,
                location: StoreLocation::Postgres(shared_postgres_database().to_string()),
                site,
                _file: None,
            },
        }
    }

    /// Another, empty place in the same backend.
    fn another(&self) -> Place {
        Place::new(self.backend)
    }

    /// The store, created when missing.
    fn open(&self) -> Store {
        Store::open_at(&self.location, &self.site)
            .unwrap_or_else(|error| panic!("{:?}: {error}", self.backend))
    }

    /// The store, which must exist, for reading only.
    fn open_read_only(&self) -> Store {
        Store::open_existing(&self.location, Some(&self.site), true)
            .unwrap_or_else(|error| panic!("{:?}: {error}", self.backend))
    }
}

/// Runs `case` in a new place of each backend. The backend is printed first, so a failing
/// case's output names the backend it failed on.
fn for_each_backend(case: impl Fn(&Place)) {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        eprintln!("backend: {backend:?}");
        case(&Place::new(backend));
    }
}

fn settings() -> CrawlSettings {
    CrawlSettings {
        portal: "http://forum.test/".into(),
        strategy: "plan".into(),
        plan_json: Some("{\"format_version\": 1}".into()),
        plan_generation: 0,
        started_at: Timestamp::from_second(1_700_000_000).unwrap(),
        order: Some("queue".into()),
        patterns_json: None,
    }
}

fn entry(url: &str, depth: u32) -> FrontierEntry {
    FrontierEntry {
        url: url.into(),
        depth,
        redirects: 0,
    }
}

fn page(url: &str) -> PageRecord {
    PageRecord {
        url: url.into(),
        depth: 0,
        status: 200,
        fetched_at: Timestamp::from_second(1_700_000_100).unwrap(),
        headers: vec![("Content-Type".into(), "text/html; charset=gbk".into())],
        body: "<html><body>板块 board</body></html>"
            .repeat(40)
            .into_bytes(),
        vertex: Some(2),
        role: Some("thread".into()),
        title: Some("A thread".into()),
        signature: Some(u64::MAX - 5),
        post_pattern: Some(u64::MAX - 9),
        list_links: vec![format!("{url}&page=2"), format!("{url}&page=3")],
        posts: vec![
            PostRecord {
                author: Some("ann".into()),
                time: Some("2026-01-02T03:04:00Z".into()),
                text: "first".into(),
                permalink: Some(format!("{url}#p1")),
            },
            PostRecord {
                text: "second, anonymous and undated".into(),
                ..PostRecord::default()
            },
        ],
        thread_entries: vec![ThreadEntryRecord {
            title: "Another".into(),
            url: "http://forum.test/t?id=9".into(),
            author: None,
            replies: Some(12),
            last_reply: Some("2026-01-03T00:00:00Z".into()),
        }],
        error: None,
    }
}

fn outcome(url: &str, queued: &[&str]) -> FetchOutcome {
    FetchOutcome {
        page: page(url),
        frontier_url: url.into(),
        requeued: false,
        queued: queued.iter().map(|url| entry(url, 1)).collect(),
        cookies: None,
        skipped: Vec::new(),
    }
}

fn stored_pages(store: &Store) -> Vec<StoredPage> {
    let mut pages = Vec::new();
    store.for_each_page(true, |page| pages.push(page)).unwrap();
    pages
}

#[test]
fn a_new_file_holds_no_crawl_until_one_begins() {
    for_each_backend(|place| {
        let mut store = place.open();
        assert_eq!(store.settings().unwrap(), None);
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        drop(store);
        let store = place.open();
        assert_eq!(store.settings().unwrap(), Some(settings()));
        let state = store.resume_state().unwrap();
        assert_eq!(state.pending, [entry("http://forum.test/", 0)]);
        assert_eq!(state.fetched, 0);
    });
}

#[test]
fn a_crawl_keeps_its_frontier_order_and_patterns_across_reopening() {
    for_each_backend(|place| {
        let ordered = CrawlSettings {
            order: Some("behaviour".into()),
            patterns_json: Some("{\"format\": \"trawl-patterns/1\"}".into()),
            ..settings()
        };
        let mut store = place.open();
        store
            .begin_crawl(&ordered, &entry("http://forum.test/", 0))
            .unwrap();
        drop(store);
        let store = place.open_read_only();
        assert_eq!(store.settings().unwrap(), Some(ordered));
    });
}

#[test]
fn a_crawl_begun_before_orders_were_stored_records_one_once() {
    for_each_backend(|place| {
        let unordered = CrawlSettings {
            order: None,
            ..settings()
        };
        let mut store = place.open();
        assert!(store.record_order("queue", None).is_err(), "no crawl yet");
        store
            .begin_crawl(&unordered, &entry("http://forum.test/", 0))
            .unwrap();
        assert_eq!(store.settings().unwrap().unwrap().order, None);
        store.record_order("behaviour", Some("{}")).unwrap();
        let stored = store.settings().unwrap().unwrap();
        assert_eq!(
            (stored.order.as_deref(), stored.patterns_json.as_deref()),
            (Some("behaviour"), Some("{}"))
        );
        assert!(matches!(
            store.record_order("queue", None),
            Err(StoreError::Damaged { .. })
        ));
        assert_eq!(
            store.settings().unwrap().unwrap().order.as_deref(),
            Some("behaviour")
        );
    });
}

#[test]
fn a_crawl_cannot_begin_twice_in_one_file() {
    for_each_backend(|place| {
        let mut store = place.open();
        let portal = entry("http://forum.test/", 0);
        store.begin_crawl(&settings(), &portal).unwrap();
        assert!(store.begin_crawl(&settings(), &portal).is_err());
    });
}

#[test]
fn a_page_and_its_records_read_back_as_written() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/t?id=1", 0))
            .unwrap();
        let written = outcome(
            "http://forum.test/t?id=1",
            &["http://forum.test/t?id=1&page=2"],
        );
        assert_eq!(store.record_fetch(&written).unwrap(), 1);
        let pages = stored_pages(&store);
        assert_eq!(pages.len(), 1);
        assert_eq!(pages[0].id, 1);
        assert_eq!(pages[0].record, written.page);
        assert_eq!(store.post_count().unwrap(), 2);
        let mut without_bodies = Vec::new();
        store
            .for_each_page(false, |page| without_bodies.push(page))
            .unwrap();
        assert!(without_bodies[0].record.body.is_empty());
        assert_eq!(without_bodies[0].record.posts, written.page.posts);
    });
}

/// Bodies of every size read back as written, one after another through the store's one
/// reused compressor: an empty body, a short one, and ones larger than the compressor's first
/// output buffer, both repetitive and hard to compress (a regression test for reusing the
/// compressor: a body must not carry anything of the one before it).
#[test]
fn bodies_of_every_size_read_back_through_one_reused_compressor() {
    for_each_backend(|place| {
        let mut noise_state = 0x9e37_79b9_7f4a_7c15_u64;
        let noise: Vec<u8> = (0..300_000)
            .map(|_| {
                noise_state ^= noise_state << 13;
                noise_state ^= noise_state >> 7;
                noise_state ^= noise_state << 17;
                noise_state as u8
            })
            .collect();
        let bodies: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"<p>short</p>".to_vec(),
            "<tr><td>板块</td><td>board</td></tr>"
                .repeat(20_000)
                .into_bytes(),
            noise,
            b"<p>short again</p>".to_vec(),
        ];
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/t?id=0", 0))
            .unwrap();
        for (index, body) in bodies.iter().enumerate() {
            let mut written = outcome(&format!("http://forum.test/t?id={index}"), &[]);
            written.page.body = body.clone();
            store.record_fetch(&written).unwrap();
        }
        let read: Vec<Vec<u8>> = stored_pages(&store)
            .into_iter()
            .map(|page| page.record.body)
            .collect();
        assert_eq!(read, bodies);
    });
}

/// Frontier changes in `(fetched url, requeued, queued urls)` steps, then the expected pending
/// URLs and seen count.
/// Records `steps` (URL fetched, whether it was requeued, URLs it queued) and checks the
/// frontier read back; each case runs twice, a transaction per fetch and all fetches in one
/// (`record_fetches`), which must leave the same store.
fn check_frontier(steps: &[(&str, bool, &[&str])], pending: &[&str], seen: usize) {
    for_each_backend(|place| check_frontier_in(place, steps, pending, seen));
}

fn check_frontier_in(
    place: &Place,
    steps: &[(&str, bool, &[&str])],
    pending: &[&str],
    seen: usize,
) {
    let mut stored = Vec::new();
    for batched in [false, true] {
        let place = place.another();
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        let outcomes: Vec<FetchOutcome> = steps
            .iter()
            .map(|(url, requeued, queued)| {
                let mut step = outcome(url, queued);
                step.requeued = *requeued;
                step
            })
            .collect();
        if batched {
            let ids = store.record_fetches(&outcomes).unwrap();
            assert_eq!(ids, (1..=steps.len() as i64).collect::<Vec<_>>());
        } else {
            for step in &outcomes {
                store.record_fetch(step).unwrap();
            }
        }
        let reopened = place.open();
        let state = reopened.resume_state().unwrap();
        let pending_urls: Vec<&str> = state.pending.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(pending_urls, pending, "batched: {batched}");
        assert_eq!(state.seen.len(), seen, "batched: {batched}");
        assert_eq!(state.fetched, steps.len(), "batched: {batched}");
        assert_eq!(state.signatures.len(), steps.len(), "batched: {batched}");
        stored.push(format!("{:?}", stored_pages(&reopened)));
    }
    assert_eq!(
        stored[0], stored[1],
        "one batch stored other pages than one fetch at a time"
    );
}

#[test]
fn the_frontier_keeps_queue_order_and_drops_what_was_fetched() {
    check_frontier(&[], &["http://forum.test/"], 1);
    check_frontier(
        &[(
            "http://forum.test/",
            false,
            &["http://forum.test/a", "http://forum.test/b"],
        )],
        &["http://forum.test/a", "http://forum.test/b"],
        3,
    );
    check_frontier(
        &[
            (
                "http://forum.test/",
                false,
                &["http://forum.test/a", "http://forum.test/b"],
            ),
            ("http://forum.test/b", false, &["http://forum.test/c"]),
        ],
        &["http://forum.test/a", "http://forum.test/c"],
        4,
    );
}

#[test]
fn urls_passed_over_leave_the_frontier_with_the_next_fetch() {
    for_each_backend(|place| {
        let store = store_with_a_url_passed_over(place);
        let pending: Vec<String> = store
            .resume_state()
            .unwrap()
            .pending
            .into_iter()
            .map(|entry| entry.url)
            .collect();
        assert_eq!(pending, ["http://forum.test/b"]);
    });
}

#[test]
fn a_requeued_portal_stays_first_in_the_frontier() {
    check_frontier(
        &[("http://forum.test/", true, &[])],
        &["http://forum.test/"],
        1,
    );
}

#[test]
fn a_url_queued_twice_is_kept_once() {
    check_frontier(
        &[
            ("http://forum.test/", false, &["http://forum.test/a"]),
            (
                "http://forum.test/a",
                false,
                &["http://forum.test/", "http://forum.test/a"],
            ),
        ],
        &[],
        2,
    );
}

#[test]
fn a_plan_learned_again_starts_a_generation_whose_pages_alone_resume_it() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        store
            .record_fetch(&outcome("http://forum.test/", &["http://forum.test/a"]))
            .unwrap();
        assert_eq!(
            store.resume_state().unwrap().post_patterns,
            [(2, u64::MAX - 9)]
        );
        assert_eq!(store.replace_plan("{\"new\": true}").unwrap(), 1);
        let reopened = place.open();
        let settings = reopened.settings().unwrap().unwrap();
        assert_eq!(settings.plan_generation, 1);
        assert_eq!(settings.plan_json.as_deref(), Some("{\"new\": true}"));
        let state = reopened.resume_state().unwrap();
        assert!(state.post_patterns.is_empty(), "vertices of the old plan");
        assert_eq!(
            state.pending,
            [entry("http://forum.test/a", 1)],
            "its page had a vertex"
        );
        assert_eq!(state.fetched, 1);
        drop(reopened);
        store
            .record_fetch(&outcome("http://forum.test/a", &[]))
            .unwrap();
        assert_eq!(
            store.resume_state().unwrap().post_patterns,
            [(2, u64::MAX - 9)]
        );
    });
}

/// Plans replaced in turn (`true`: learned again, `false`: decisions changed), with the
/// generation whose vertex numbers each keeps and the generation each page fetched after it
/// reads back with.
fn check_vertex_numbering(changes: &[bool], expected_since: &[u32]) {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        assert_eq!(store.plan_vertices_since().unwrap(), 0, "a new crawl");
        let mut since = Vec::new();
        for (index, relearned) in changes.iter().enumerate() {
            let generation = if *relearned {
                store.replace_plan("{}").unwrap()
            } else {
                store.replace_plan_decisions("{}").unwrap()
            };
            assert_eq!(generation as usize, index + 1);
            store
                .record_fetch(&outcome(&format!("http://forum.test/{index}"), &[]))
                .unwrap();
            since.push(place.open().plan_vertices_since().unwrap());
        }
        assert_eq!(since, expected_since, "{changes:?}");
        let mut generations = Vec::new();
        store
            .for_each_page_after(0, false, |page| generations.push(page.plan_generation))
            .unwrap();
        let written: Vec<u32> = (1..=changes.len() as u32).collect();
        assert_eq!(generations, written);
    });
}

#[test]
fn vertex_numbers_hold_across_generations_that_changed_decisions_only() {
    check_vertex_numbering(&[false], &[0]);
    check_vertex_numbering(&[false, false], &[0, 0]);
    check_vertex_numbering(&[true], &[1]);
    check_vertex_numbering(&[true, false, false], &[1, 1, 1]);
    check_vertex_numbering(&[false, true, false, true], &[0, 2, 2, 4]);
}

#[test]
fn pages_the_old_plan_could_not_place_are_fetched_again_with_the_new_one() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        let mut unplaced = outcome("http://forum.test/", &["http://forum.test/a"]);
        unplaced.page.vertex = None;
        store.record_fetch(&unplaced).unwrap();
        assert_eq!(store.resume_state().unwrap().unclassified, 1);
        store.replace_plan("{}").unwrap();
        let state = store.resume_state().unwrap();
        let pending: Vec<&str> = state.pending.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(pending, ["http://forum.test/", "http://forum.test/a"]);
        assert_eq!(state.unclassified, 0, "counted against the old plan only");
    });
}

#[test]
fn pages_after_an_id_read_back_alone_and_in_order() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        let urls: Vec<String> = (1..=5)
            .map(|n| format!("http://forum.test/t?id={n}"))
            .collect();
        for url in &urls {
            store.record_fetch(&outcome(url, &[])).unwrap();
        }
        let after = |id: i64| -> Vec<(i64, String, usize)> {
            let mut read = Vec::new();
            store
                .for_each_page_after(id, false, |page| {
                    read.push((page.id, page.record.url, page.record.posts.len()))
                })
                .unwrap();
            read
        };
        let expected = |from: usize| -> Vec<(i64, String, usize)> {
            (from..5)
                .map(|index| (index as i64 + 1, urls[index].clone(), 2))
                .collect()
        };
        assert_eq!(after(0), expected(0), "{:?}", place.backend);
        assert_eq!(after(3), expected(3), "{:?}", place.backend);
        assert_eq!(after(5), expected(5), "{:?}", place.backend);
        assert_eq!(after(-1), expected(0), "{:?}", place.backend);
    });
}

#[test]
fn cookies_are_replaced_as_a_whole() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .save_cookies(&[("sid".into(), "1".into()), ("lang".into(), "en".into())])
            .unwrap();
        store.save_cookies(&[("sid".into(), "2".into())]).unwrap();
        assert_eq!(store.cookies().unwrap(), [("sid".into(), "2".into())]);
    });
}

#[test]
fn an_error_fetch_is_stored_without_a_body() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        let failed = FetchOutcome {
            page: PageRecord {
                url: "http://forum.test/".into(),
                error: Some("connection refused".into()),
                ..PageRecord::default()
            },
            frontier_url: "http://forum.test/".into(),
            requeued: false,
            queued: Vec::new(),
            cookies: Some(vec![("sid".into(), "abc".into())]),
            skipped: Vec::new(),
        };
        store.record_fetch(&failed).unwrap();
        let pages = stored_pages(&store);
        assert_eq!(pages[0].record, failed.page);
        let state = store.resume_state().unwrap();
        assert_eq!(
            state.unclassified, 0,
            "a failed fetch is not a page to classify"
        );
        assert_eq!(store.cookies().unwrap(), [("sid".into(), "abc".into())]);
    });
}

#[test]
fn a_crawl_reads_back_through_a_read_only_store_in_outline() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/t?id=1", 0))
            .unwrap();
        store
            .record_fetch(&outcome("http://forum.test/t?id=1", &[]))
            .unwrap();
        let reader = place.open_read_only();
        let mut pages = Vec::new();
        reader
            .for_each_page_outline(3, &["thread-list"], |page| pages.push(page))
            .unwrap();
        let texts: Vec<&str> = pages[0]
            .record
            .posts
            .iter()
            .map(|post| post.text.as_str())
            .collect();
        assert_eq!(texts, ["fir", "sec"]);
        assert!(
            pages[0].record.body.is_empty(),
            "a thread's body is left out"
        );
        assert_eq!(pages[0].record.thread_entries, page("x").thread_entries);
        let mut bodies = Vec::new();
        reader
            .for_each_page_outline(3, &["thread", "it's"], |page| bodies.push(page.record.body))
            .unwrap();
        assert_eq!(bodies, [page("x").body]);
    });
}

#[test]
fn the_unfetched_frontier_is_what_waits_and_what_was_passed_over_and_requeued_urls_wait() {
    for_each_backend(|place| {
        let mut store = store_with_a_url_passed_over(place);
        let unfetched = store.unfetched_frontier().unwrap();
        assert_eq!(unfetched.waiting, ["http://forum.test/b"]);
        assert_eq!(unfetched.passed_over, ["http://forum.test/a&page=1"]);

        // A fetched page asked for again, one waiting already, and one never queued.
        let waiting = store
            .requeue(&[
                entry("http://forum.test/a", 1),
                entry("http://forum.test/b", 1),
                entry("http://forum.test/c", 2),
            ])
            .unwrap();
        assert_eq!(waiting, 2);
        let pending: Vec<String> = store
            .resume_state()
            .unwrap()
            .pending
            .into_iter()
            .map(|entry| entry.url)
            .collect();
        assert_eq!(
            pending,
            [
                "http://forum.test/a",
                "http://forum.test/b",
                "http://forum.test/c"
            ]
        );
    });
}

/// A crawl whose portal linked `/a`, `/a&page=1` and `/b`, and whose fetch of `/a` passed over
/// `/a&page=1`: `/b` waits.
fn store_with_a_url_passed_over(place: &Place) -> Store {
    let mut store = place.open();
    store
        .begin_crawl(&settings(), &entry("http://forum.test/", 0))
        .unwrap();
    store
        .record_fetch(&outcome(
            "http://forum.test/",
            &[
                "http://forum.test/a",
                "http://forum.test/a&page=1",
                "http://forum.test/b",
            ],
        ))
        .unwrap();
    let mut next = outcome("http://forum.test/a", &[]);
    next.skipped = vec!["http://forum.test/a&page=1".into()];
    store.record_fetch(&next).unwrap();
    store
}

#[test]
fn a_document_written_with_a_page_reads_back_replaced_by_the_next_and_apart_from_settings() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        assert_eq!(store.document("watch").unwrap(), None);
        store
            .record_fetch_with_document(&outcome("http://forum.test/", &[]), "watch", "first")
            .unwrap();
        store
            .record_fetch_with_document(&outcome("http://forum.test/b1", &[]), "watch", "second")
            .unwrap();
        // A document named like a setting does not replace the setting.
        store
            .record_fetch_with_document(&outcome("http://forum.test/b2", &[]), "portal", "x")
            .unwrap();
        drop(store);
        let store = place.open();
        assert_eq!(store.document("watch").unwrap().as_deref(), Some("second"));
        assert_eq!(store.document("portal").unwrap().as_deref(), Some("x"));
        assert_eq!(store.settings().unwrap(), Some(settings()));
        let urls: Vec<String> = stored_pages(&store)
            .into_iter()
            .map(|page| page.record.url)
            .collect();
        assert_eq!(
            urls,
            [
                "http://forum.test/",
                "http://forum.test/b1",
                "http://forum.test/b2"
            ]
        );
    });
}

#[test]
fn an_outline_asking_for_no_role_s_bodies_reads_every_page_without_a_body() {
    // Regression: PostgreSQL refused the outline of `trawl watch`'s startup, which names no
    // role, as a statement of four parameters given three.
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        store
            .record_fetch(&outcome("http://forum.test/", &["http://forum.test/b1"]))
            .unwrap();
        let mut pages = Vec::new();
        store
            .for_each_page_outline(0, &[], |page| pages.push(page))
            .unwrap();
        let read: Vec<(String, usize)> = pages
            .into_iter()
            .map(|page| (page.record.url, page.record.body.len()))
            .collect();
        assert_eq!(read, [("http://forum.test/".to_string(), 0)]);
    });
}
