//! What only PostgreSQL has: many sites in one database, choosing among them, the database's
//! own refusals, and transactions a server can fail halfway.

use super::{entry, outcome, settings, stored_pages};
use crate::test_support::fresh_database;
use crate::{Store, StoreError, StoreLocation};

fn postgres(url: &str) -> StoreLocation {
    StoreLocation::Postgres(url.to_string())
}

/// A crawl of `site` in the database at `url`, its portal fetched: one page, two posts, two
/// URLs waiting, a cookie.
fn crawled_site(url: &str, site: &str) -> Store {
    let mut store = Store::open_at(&postgres(url), site).unwrap();
    store
        .begin_crawl(&settings(), &entry("http://forum.test/", 0))
        .unwrap();
    let mut fetched = outcome(
        "http://forum.test/",
        &["http://forum.test/a", "http://forum.test/b"],
    );
    fetched.cookies = Some(vec![("sid".into(), site.into())]);
    store.record_fetch(&fetched).unwrap();
    store
}

#[test]
fn sites_in_one_database_keep_their_own_crawls() {
    let url = fresh_database();
    let first = crawled_site(&url, "http://one.test/");
    let mut second = crawled_site(&url, "http://two.test/");
    second
        .record_fetch(&outcome("http://forum.test/a", &["http://forum.test/c"]))
        .unwrap();
    second.replace_plan("{}").unwrap();

    assert_eq!(first.page_count().unwrap(), 1);
    assert_eq!(second.page_count().unwrap(), 2);
    assert_eq!(first.post_count().unwrap(), 2);
    assert_eq!(second.post_count().unwrap(), 4);
    let ids: Vec<i64> = stored_pages(&second).iter().map(|page| page.id).collect();
    assert_eq!(ids, [1, 2], "page ids count within the site");
    assert_eq!(first.settings().unwrap().unwrap().plan_generation, 0);
    assert_eq!(first.resume_state().unwrap().pending.len(), 2);
    assert_eq!(second.resume_state().unwrap().pending.len(), 2);
    assert_eq!(
        first.cookies().unwrap(),
        [("sid".to_string(), "http://one.test/".to_string())]
    );

    second.discard().unwrap();
    let reopened = Store::open_at(&postgres(&url), "http://two.test/").unwrap();
    assert!(reopened.was_created(), "a discarded site is gone");
    assert_eq!(reopened.page_count().unwrap(), 0);
    assert_eq!(reopened.settings().unwrap(), None);
    assert_eq!(first.page_count().unwrap(), 1, "the other site is kept");
}

#[test]
fn an_existing_crawl_is_named_by_its_site_or_is_the_only_one() {
    let url = fresh_database();
    let location = postgres(&url);
    let open = |site: Option<&str>| Store::open_existing(&location, site, true);
    let error = open(None).unwrap_err();
    assert!(matches!(error, StoreError::NotACrawl { .. }), "{error}");

    Store::open_at(&location, "http://made-by-open.test/")
        .unwrap()
        .discard()
        .unwrap();
    let error = open(None).unwrap_err();
    assert!(matches!(error, StoreError::Missing { .. }), "{error}");

    drop(crawled_site(&url, "http://one.test/"));
    let only = open(None).unwrap();
    assert_eq!(only.page_count().unwrap(), 1);
    let Store::Postgres(only) = only else {
        panic!("a PostgreSQL location opened a file");
    };
    assert_eq!(only.site(), "http://one.test/");

    drop(crawled_site(&url, "http://two.test/"));
    let error = open(None).unwrap_err();
    assert!(
        matches!(&error, StoreError::WhichSite { sites, .. }
            if sites == &["http://one.test/", "http://two.test/"]),
        "{error}"
    );
    assert!(open(Some("http://two.test/")).is_ok());
    let error = open(Some("http://three.test/")).unwrap_err();
    assert!(matches!(error, StoreError::NoSuchSite { .. }), "{error}");
    let error = Store::open_existing(&location, Some("http://three.test/"), false).unwrap_err();
    assert!(matches!(error, StoreError::NoSuchSite { .. }), "{error}");
    assert!(
        matches!(open(None), Err(StoreError::WhichSite { sites, .. }) if sites.len() == 2),
        "opening an existing crawl added no site"
    );
}

#[test]
fn a_read_only_store_refuses_every_write() {
    let url = fresh_database();
    drop(crawled_site(&url, "http://one.test/"));
    let mut reader = Store::open_existing(&postgres(&url), None, true).unwrap();
    let before = stored_pages(&reader);
    assert!(matches!(
        reader.record_fetch(&outcome("http://forum.test/a", &[])),
        Err(StoreError::Postgres { .. })
    ));
    assert!(reader.save_cookies(&[]).is_err());
    assert!(reader.requeue(&[entry("http://forum.test/z", 1)]).is_err());
    assert_eq!(stored_pages(&reader), before);
    assert_eq!(reader.cookies().unwrap().len(), 1);
}

#[test]
fn databases_that_hold_other_tables_or_another_format_are_refused() {
    let foreign = fresh_database();
    let mut client = postgres::Client::connect(&foreign, postgres::NoTls).unwrap();
    client
        .batch_execute("CREATE TABLE pages (id INTEGER, note TEXT)")
        .unwrap();
    for error in [
        Store::open_at(&postgres(&foreign), "http://one.test/").unwrap_err(),
        Store::open_existing(&postgres(&foreign), None, true).unwrap_err(),
    ] {
        assert!(matches!(error, StoreError::NotACrawl { .. }), "{error}");
    }

    let newer = fresh_database();
    drop(crawled_site(&newer, "http://one.test/"));
    let mut client = postgres::Client::connect(&newer, postgres::NoTls).unwrap();
    client
        .batch_execute("UPDATE trawl_format SET format = 99")
        .unwrap();
    for error in [
        Store::open_at(&postgres(&newer), "http://one.test/").unwrap_err(),
        Store::open_existing(&postgres(&newer), None, true).unwrap_err(),
    ] {
        assert!(matches!(error, StoreError::WrongFormat { .. }), "{error}");
        assert!(error.to_string().contains("format 99"), "{error}");
    }
}

#[test]
fn a_server_that_does_not_answer_is_a_database_error_naming_it_without_its_password() {
    // Port 1 is privileged and served by nothing here, so the connection is refused at once.
    let url = "postgres://trawl:secret@127.0.0.1:1/trawl";
    let error = Store::open_at(&postgres(url), "http://one.test/").unwrap_err();
    assert!(matches!(error, StoreError::Postgres { .. }), "{error}");
    assert!(
        error.to_string().contains("trawl:***@127.0.0.1:1"),
        "{error}"
    );
    assert!(!error.to_string().contains("secret"), "{error}");
}

/// A batch of fetches that the server fails at its second page leaves nothing of the first:
/// no page, no record, no frontier change, no page id used up. The failure is a trigger the
/// test adds to the database, refusing one URL, as a server can fail any statement.
#[test]
fn a_batch_that_fails_halfway_leaves_nothing_behind() {
    let url = fresh_database();
    let mut store = Store::open_at(&postgres(&url), "http://one.test/").unwrap();
    store
        .begin_crawl(&settings(), &entry("http://forum.test/", 0))
        .unwrap();
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    client
        .batch_execute(
            "CREATE FUNCTION refuse_page() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
             IF NEW.url = 'http://forum.test/refused' THEN RAISE EXCEPTION 'refused'; END IF; \
             RETURN NEW; END $$; \
             CREATE TRIGGER refuse_page BEFORE INSERT ON pages \
             FOR EACH ROW EXECUTE FUNCTION refuse_page();",
        )
        .unwrap();
    let before = store.resume_state().unwrap();
    let error = store
        .record_fetches(&[
            outcome("http://forum.test/", &["http://forum.test/a"]),
            outcome("http://forum.test/refused", &["http://forum.test/b"]),
        ])
        .unwrap_err();
    assert!(matches!(error, StoreError::Postgres { .. }), "{error}");
    assert_eq!(store.resume_state().unwrap(), before);
    assert_eq!(store.post_count().unwrap(), 0);
    assert_eq!(
        store
            .record_fetch(&outcome("http://forum.test/", &[]))
            .unwrap(),
        1,
        "the failed batch used up no page id"
    );
}
