//! What only a file has: files that are not crawls, and reading a file without writing it.

use std::path::Path;

use super::TemporaryDatabase;
use crate::{Store, StoreError, StoreLocation};

#[test]
fn files_that_are_not_crawls_are_refused_with_a_reason() {
    let file = TemporaryDatabase::new();
    std::fs::write(&file.0, "just some text, certainly not SQLite ".repeat(200)).unwrap();
    let error = Store::open(&file.0).unwrap_err();
    assert!(matches!(error, StoreError::NotACrawl { .. }), "{error}");

    let other = TemporaryDatabase::new();
    let connection = rusqlite::Connection::open(&other.0).unwrap();
    connection
        .execute_batch("CREATE TABLE notes (text TEXT)")
        .unwrap();
    drop(connection);
    let error = Store::open(&other.0).unwrap_err();
    assert!(matches!(error, StoreError::NotACrawl { .. }), "{error}");

    let newer = TemporaryDatabase::new();
    drop(Store::open(&newer.0).unwrap());
    let connection = rusqlite::Connection::open(&newer.0).unwrap();
    connection
        .execute("UPDATE meta SET value = '99' WHERE key = 'format'", [])
        .unwrap();
    drop(connection);
    let error = Store::open(&newer.0).unwrap_err();
    assert!(matches!(error, StoreError::WrongFormat { .. }), "{error}");
    assert!(error.to_string().contains("format 99"));
}

/// What `Store::open_read_only` answers for a file made by `make` (given the path), checked by
/// `expected`.
fn check_read_only(case: &str, make: impl FnOnce(&Path), expected: fn(&StoreError) -> bool) {
    let file = TemporaryDatabase::new();
    make(&file.0);
    let existed = file.0.exists();
    let modified = existed.then(|| std::fs::read(&file.0).unwrap());
    let error = Store::open_read_only(&file.0).unwrap_err();
    assert!(expected(&error), "{case}: {error}");
    assert_eq!(file.0.exists(), existed, "{case}: the file was created");
    if let Some(before) = modified {
        assert_eq!(
            std::fs::read(&file.0).unwrap(),
            before,
            "{case}: the file changed"
        );
    }
}

#[test]
fn reading_only_refuses_a_missing_file_other_files_and_other_formats_without_writing() {
    check_read_only(
        "missing",
        |_| {},
        |error| matches!(error, StoreError::Missing { .. }),
    );
    check_read_only(
        "empty file",
        |path| std::fs::write(path, "").unwrap(),
        |error| matches!(error, StoreError::NotACrawl { .. }),
    );
    check_read_only(
        "text",
        |path| std::fs::write(path, "not SQLite at all ".repeat(300)).unwrap(),
        |error| matches!(error, StoreError::NotACrawl { .. }),
    );
    check_read_only(
        "another database",
        |path| {
            rusqlite::Connection::open(path)
                .unwrap()
                .execute_batch("CREATE TABLE notes (text TEXT)")
                .unwrap()
        },
        |error| matches!(error, StoreError::NotACrawl { .. }),
    );
    check_read_only(
        "an older format",
        |path| {
            drop(Store::open(path).unwrap());
            rusqlite::Connection::open(path)
                .unwrap()
                .execute("UPDATE meta SET value = '0' WHERE key = 'format'", [])
                .unwrap();
        },
        |error| {
            matches!(error, StoreError::WrongFormat { .. })
                && error.to_string().contains("in format 0")
        },
    );
}

#[test]
fn opening_an_existing_crawl_refuses_a_missing_file_without_creating_it() {
    let file = TemporaryDatabase::new();
    let location = StoreLocation::File(file.0.clone());
    for read_only in [false, true] {
        let error = Store::open_existing(&location, None, read_only).unwrap_err();
        assert!(matches!(error, StoreError::Missing { .. }), "{error}");
        assert!(!file.0.exists());
    }
}

#[test]
fn a_file_made_by_opening_is_discarded_whole() {
    let file = TemporaryDatabase::new();
    let location = StoreLocation::File(file.0.clone());
    let store = Store::open_at(&location, "http://forum.test/").unwrap();
    assert!(store.was_created());
    store.discard().unwrap();
    assert!(!file.0.exists());
    drop(Store::open(&file.0).unwrap());
    assert!(!Store::open(&file.0).unwrap().was_created());
}

/// A file whose samples' table was made before samples kept their fetch time reads its kept
/// pages without one, and gains the column with the next sample saved.
#[test]
fn samples_kept_before_their_time_was_recorded_read_without_one() {
    let file = TemporaryDatabase::new();
    drop(Store::open(&file.0).unwrap());
    let connection = rusqlite::Connection::open(&file.0).unwrap();
    connection
        .execute_batch(
            "CREATE TABLE samples (id INTEGER PRIMARY KEY, url TEXT NOT NULL, \
             status INTEGER NOT NULL, headers TEXT NOT NULL, body BLOB NOT NULL);
             INSERT INTO samples (url, status, headers, body) \
             VALUES ('http://forum.test/', 200, '[]', X'6F6C64');",
        )
        .unwrap();
    drop(connection);
    let mut store = Store::open(&file.0).unwrap();
    let old = store.samples().unwrap();
    assert_eq!(old.len(), 1);
    assert_eq!(old[0].fetched_at, None);
    assert_eq!(old[0].body, b"old");
    let new = crate::SampledPage {
        url: "http://forum.test/b/1".into(),
        status: 200,
        headers: Vec::new(),
        body: b"new".to_vec(),
        fetched_at: Some(jiff::Timestamp::from_second(1_700_000_000).unwrap()),
    };
    store.save_sample(&new).unwrap();
    let kept = Store::open(&file.0).unwrap().samples().unwrap();
    assert_eq!(kept, [old[0].clone(), new]);
}

/// A plan replaced before the store kept which generation numbers its vertices: older
/// generations are not known to number them alike, so only the current one is trusted, and a
/// change of decisions made after goes on from it.
#[test]
fn a_plan_replaced_before_its_numbering_was_kept_trusts_its_own_generation_only() {
    let file = TemporaryDatabase::new();
    let mut store = Store::open(&file.0).unwrap();
    store
        .begin_crawl(&super::settings(), &super::entry("http://forum.test/", 0))
        .unwrap();
    store.replace_plan_decisions("{}").unwrap();
    store.replace_plan_decisions("{}").unwrap();
    assert_eq!(store.plan_vertices_since().unwrap(), 0);
    drop(store);
    let connection = rusqlite::Connection::open(&file.0).unwrap();
    connection
        .execute("DELETE FROM meta WHERE key = 'plan_vertices_since'", [])
        .unwrap();
    drop(connection);
    let mut store = Store::open(&file.0).unwrap();
    assert_eq!(store.plan_vertices_since().unwrap(), 2);
    assert_eq!(store.replace_plan_decisions("{}").unwrap(), 3);
    assert_eq!(store.plan_vertices_since().unwrap(), 2);
}
