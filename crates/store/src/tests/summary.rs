//! The crawl's totals (`crate::summary`): kept right by every kind of write on both backends,
//! and made from the rows of a store written before they existed.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::{Backend, Place, entry, for_each_backend, outcome, settings};
use crate::test_support::{fresh_database, remove_the_totals};
use crate::{CrawlSummary, FetchOutcome, RoleSummary, Store, StoreLocation};

/// The totals counted from the rows themselves, as a reader did before the store kept them.
fn counted_again(store: &Store) -> CrawlSummary {
    let mut summary = CrawlSummary::default();
    let mut roles: BTreeMap<Option<String>, RoleSummary> = BTreeMap::new();
    let mut seconds: Vec<i64> = Vec::new();
    store
        .for_each_page(false, |page| {
            let record = page.record;
            summary.pages += 1;
            summary.posts += record.posts.len();
            summary.errors += usize::from(record.status == 0 || record.status >= 400);
            let role = roles.entry(record.role.clone()).or_insert(RoleSummary {
                role: record.role.clone(),
                ..RoleSummary::default()
            });
            role.pages += 1;
            role.posts += record.posts.len();
            seconds.push(record.fetched_at.as_second());
        })
        .unwrap();
    summary.by_role = roles.into_values().collect();
    let first = seconds.iter().min().copied();
    let last = seconds.iter().max().copied();
    summary.first_fetch = first.map(|second| Timestamp::from_second(second).unwrap());
    summary.last_fetch = last.map(|second| Timestamp::from_second(second).unwrap());
    summary.pages_in_last_minute = last.map_or(0, |last| {
        seconds.iter().filter(|&&second| second > last - 60).count()
    });
    let state = store.resume_state().unwrap();
    summary.frontier_waiting = state.pending.len();
    summary.frontier_done = state.seen.len() - state.pending.len();
    summary
}

/// The store's totals, which must be those counted again from its rows.
pub(super) fn checked_summary(store: &Store) -> CrawlSummary {
    let kept = store
        .summary()
        .unwrap()
        .expect("the store keeps its totals");
    assert_eq!(kept, counted_again(store));
    kept
}

fn at(second: i64) -> Timestamp {
    Timestamp::from_second(1_700_000_000 + second).unwrap()
}

/// A fetch of `url` at `second` (after the test epoch), with its role, status and post count.
fn fetch(url: &str, second: i64, role: Option<&str>, status: u16, posts: usize) -> FetchOutcome {
    let mut fetched = outcome(url, &[]);
    fetched.page.fetched_at = at(second);
    fetched.page.role = role.map(str::to_string);
    fetched.page.vertex = role.map(|_| 2);
    fetched.page.status = status;
    fetched.page.posts.truncate(posts);
    fetched
}

fn role(name: Option<&str>, pages: usize, posts: usize) -> RoleSummary {
    RoleSummary {
        role: name.map(str::to_string),
        pages,
        posts,
    }
}

/// A crawl written through every kind of write: begun, fetches one by one and in a batch
/// (errors, unplaced pages, URLs queued twice, URLs passed over, a page fetched again), URLs
/// put back, the plan replaced. Returns the totals at the end.
fn write_a_crawl(store: &mut Store) -> CrawlSummary {
    store
        .begin_crawl(&settings(), &entry("http://forum.test/", 0))
        .unwrap();
    checked_summary(store);
    let mut portal = fetch("http://forum.test/", 0, Some("board-index"), 200, 0);
    portal.queued = ["a", "b", "c", "d"]
        .iter()
        .map(|name| entry(&format!("http://forum.test/{name}"), 1))
        .collect();
    store.record_fetch(&portal).unwrap();
    checked_summary(store);
    let mut thread = fetch("http://forum.test/a", 30, Some("thread"), 200, 2);
    thread.queued = vec![
        entry("http://forum.test/b", 2),
        entry("http://forum.test/e", 2),
    ];
    thread.skipped = vec!["http://forum.test/c".into()];
    let failed = fetch("http://forum.test/b", 95, None, 503, 0);
    let unanswered = fetch("http://forum.test/d", 100, None, 0, 0);
    let unplaced = fetch("http://forum.test/e", 130, None, 200, 1);
    store
        .record_fetches(&[thread, failed, unanswered, unplaced])
        .unwrap();
    checked_summary(store);
    // A failed page asked for again, and a URL never queued.
    store
        .requeue(&[
            entry("http://forum.test/b", 1),
            entry("http://forum.test/f", 1),
        ])
        .unwrap();
    checked_summary(store);
    let mut again = fetch("http://forum.test/b", 150, Some("thread"), 200, 1);
    again.requeued = true;
    store.record_fetch(&again).unwrap();
    checked_summary(store);
    // The unplaced page that answered waits again under the new plan.
    store.replace_plan("{}").unwrap();
    checked_summary(store)
}

#[test]
fn every_write_keeps_the_totals_in_its_transaction() {
    for_each_backend(|place| {
        let mut store = place.open();
        assert_eq!(
            store.summary().unwrap(),
            Some(CrawlSummary::default()),
            "a new store keeps totals of nothing"
        );
        let summary = write_a_crawl(&mut store);
        assert_eq!(
            summary,
            CrawlSummary {
                pages: 6,
                posts: 4,
                errors: 2,
                by_role: vec![
                    role(None, 3, 1),
                    role(Some("board-index"), 1, 0),
                    role(Some("thread"), 2, 3),
                ],
                // b (put back and fetched again, but marked requeued), e (unplaced, under a
                // new plan) and f (queued by the requeue) wait.
                frontier_waiting: 3,
                frontier_done: 4,
                first_fetch: Some(at(0)),
                last_fetch: Some(at(150)),
                pages_in_last_minute: 4,
            }
        );
        // Read back by another connection, for reading only.
        drop(store);
        assert_eq!(place.open_read_only().summary().unwrap(), Some(summary));
    });
}

/// Makes the database at `location` refuse to store a page of `url`, as a server or a full
/// disk can fail any statement.
fn refuse_pages_of(location: &StoreLocation, url: &str) {
    match location {
        StoreLocation::File(path) => {
            let connection = rusqlite::Connection::open(path).unwrap();
            connection
                .execute_batch(&format!(
                    "CREATE TRIGGER refuse_page BEFORE INSERT ON pages \
                     WHEN NEW.url = '{url}' BEGIN SELECT RAISE(ABORT, 'refused'); END;"
                ))
                .unwrap();
        }
        StoreLocation::Postgres(database) => {
            let mut client = postgres::Client::connect(database, postgres::NoTls).unwrap();
            client
                .batch_execute(&format!(
                    "CREATE FUNCTION refuse_page() RETURNS trigger LANGUAGE plpgsql AS $$ \
                     BEGIN IF NEW.url = '{url}' THEN RAISE EXCEPTION 'refused'; END IF; \
                     RETURN NEW; END $$; \
                     CREATE TRIGGER refuse_page BEFORE INSERT ON pages \
                     FOR EACH ROW EXECUTE FUNCTION refuse_page();"
                ))
                .unwrap();
        }
    }
}

/// A place of `backend` in a database of its own, for a case that changes the database's
/// tables or triggers (the shared PostgreSQL database holds the sites of other cases).
fn place_of_its_own(backend: Backend) -> Place {
    match backend {
        Backend::Sqlite => Place::new(backend),
        Backend::Postgres => Place {
            location: StoreLocation::Postgres(fresh_database()),
            ..Place::new(backend)
        },
    }
}

#[test]
fn a_batch_that_fails_halfway_leaves_the_totals_as_they_were() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        eprintln!("backend: {backend:?}");
        let place = place_of_its_own(backend);
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        store
            .record_fetch(&fetch("http://forum.test/", 0, Some("thread"), 200, 2))
            .unwrap();
        let before = checked_summary(&store);
        refuse_pages_of(&place.location, "http://forum.test/refused");
        let mut first = fetch("http://forum.test/a", 10, Some("thread"), 200, 2);
        first.queued = vec![entry("http://forum.test/b", 1)];
        let refused = fetch("http://forum.test/refused", 20, None, 500, 0);
        assert!(store.record_fetches(&[first, refused]).is_err());
        assert_eq!(checked_summary(&store), before);
    }
}

#[test]
fn a_store_written_before_the_totals_gains_them_when_opened_for_writing() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        eprintln!("backend: {backend:?}");
        // A database of its own: the totals are removed for every site it holds.
        let place = place_of_its_own(backend);
        let mut store = place.open();
        let summary = write_a_crawl(&mut store);
        drop(store);
        remove_the_totals(&place.location);
        assert_eq!(
            place.open_read_only().summary().unwrap(),
            None,
            "read only, an old store is left as it is"
        );
        let mut store = place.open();
        assert_eq!(checked_summary(&store), summary);
        // And kept from then on.
        let mut later = fetch("http://forum.test/f", 170, Some("thread"), 200, 2);
        later.queued = vec![entry("http://forum.test/g", 2)];
        store.record_fetch(&later).unwrap();
        let after = checked_summary(&store);
        assert_eq!(
            (after.pages, after.posts, after.frontier_waiting),
            (7, 6, 3)
        );
    }
}

#[test]
fn each_site_of_a_database_keeps_its_own_totals() {
    let location = StoreLocation::Postgres(fresh_database());
    let mut first = Store::open_at(&location, "http://one.test/").unwrap();
    let mut second = Store::open_at(&location, "http://two.test/").unwrap();
    write_a_crawl(&mut first);
    second
        .begin_crawl(&settings(), &entry("http://forum.test/", 0))
        .unwrap();
    second
        .record_fetch(&fetch("http://forum.test/", 500, None, 404, 0))
        .unwrap();
    assert_eq!(checked_summary(&first).pages, 6);
    let other = checked_summary(&second);
    assert_eq!(
        (
            other.pages,
            other.errors,
            other.frontier_waiting,
            other.by_role
        ),
        (1, 1, 0, vec![role(None, 1, 0)])
    );
    // A site removed takes its totals along; the other keeps its own.
    second.discard().unwrap();
    let reopened = Store::open_at(&location, "http://two.test/").unwrap();
    assert_eq!(reopened.summary().unwrap(), Some(CrawlSummary::default()));
    assert_eq!(checked_summary(&first).pages, 6);
}
