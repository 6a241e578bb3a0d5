//! A real PostgreSQL for tests, never a mock: `scripts/test-postgres.sh` starts a private
//! cluster on a free loopback port, puts its URL in `TRAWL_TEST_POSTGRES`, runs the command it is
//! given (the README's test command runs `cargo test --workspace` through it) and stops the
//! cluster afterwards. Tests that need PostgreSQL take databases from here, and fail with a
//! message naming the script when the variable is not set or the server does not answer: a test
//! that quietly skipped would pass on a machine where the PostgreSQL backend was never tried.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The variable naming the test cluster: a `postgres://` URL of a user allowed to create
/// databases, ending with the name of a database to connect to first (as `/postgres`).
pub const SERVER_VARIABLE: &str = "TRAWL_TEST_POSTGRES";

/// The URL of the test cluster. Panics, failing the test, when it is not set.
pub fn server_url() -> String {
    match std::env::var(SERVER_VARIABLE) {
        Ok(url) if !url.is_empty() => url,
        _ => panic!(
            "{SERVER_VARIABLE} is not set: these tests need a PostgreSQL server; run them \
             through scripts/test-postgres.sh (as in `scripts/test-postgres.sh cargo test \
             --workspace`), which starts a private one and sets the variable"
        ),
    }
}

/// A new, empty database on the test cluster, by its URL. Each call makes another one, named
/// after this process, a counter and a random number (from the standard library's randomly
/// seeded hasher; a clock would do, but only `trawl-model`'s clocks read the time), so tests
/// running at once never share tables, and neither do runs against a cluster kept running.
pub fn fresh_database() -> String {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let server = server_url();
    let name = format!(
        "trawl_test_{}_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
        random_number()
    );
    let mut client = postgres::Client::connect(&server, postgres::NoTls).unwrap_or_else(|error| {
        panic!(
            "the test PostgreSQL at {} does not answer ({error}); run the tests through \
             scripts/test-postgres.sh",
            crate::location::without_password(&server)
        )
    });
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap_or_else(|error| panic!("cannot create the test database {name}: {error}"));
    with_database(&server, &name)
}

fn random_number() -> u32 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish() as u32
}

/// `url` naming the database `name` instead of its own, query kept.
pub fn with_database(url: &str, name: &str) -> String {
    let (before_query, query) = match url.split_once('?') {
        Some((before, query)) => (before, Some(query)),
        None => (url, None),
    };
    let scheme_end = before_query.find("://").map_or(0, |at| at + 3);
    let server = match before_query[scheme_end..].find('/') {
        Some(slash) => &before_query[..scheme_end + slash],
        None => before_query,
    };
    match query {
        Some(query) => format!("{server}/{name}?{query}"),
        None => format!("{server}/{name}"),
    }
}

/// Removes the crawl totals (`crate::summary`) from the store at `location`, tables, triggers
/// and functions, leaving it as a trawl built before them wrote it: how tests make such a store
/// to open. In PostgreSQL the totals of every site of the database go.
pub fn remove_the_totals(location: &crate::StoreLocation) {
    match location {
        crate::StoreLocation::File(path) => {
            let connection = rusqlite::Connection::open(path)
                .unwrap_or_else(|error| panic!("cannot open {}: {error}", path.display()));
            connection
                .execute_batch(
                    "DROP TRIGGER summary_of_pages; DROP TRIGGER summary_of_errors; \
                     DROP TRIGGER summary_of_posts; \
                     DROP TRIGGER summary_of_queued; DROP TRIGGER summary_of_frontier_states; \
                     DROP TABLE summary; DROP TABLE role_summary; DROP TABLE fetch_seconds;",
                )
                .unwrap_or_else(|error| panic!("cannot remove the totals: {error}"));
        }
        crate::StoreLocation::Postgres(url) => {
            let mut client = postgres::Client::connect(url, postgres::NoTls)
                .unwrap_or_else(|error| panic!("cannot connect to the test database: {error}"));
            client
                .batch_execute(
                    "DROP TABLE summary, role_summary, fetch_seconds; \
                     DROP FUNCTION trawl_summary_of_pages, trawl_summary_of_posts, \
                     trawl_summary_of_queued, trawl_summary_of_frontier_states CASCADE; \
                     DROP FUNCTION trawl_fetch_second;",
                )
                .unwrap_or_else(|error| panic!("cannot remove the totals: {error}"));
        }
    }
}

/// Removes the audit's digests of pages (`crate::audit_pages`) from the store at `location`,
/// leaving it as a trawl built before them wrote it. In PostgreSQL the digests of every site of
/// the database go.
pub fn remove_the_audit_digests(location: &crate::StoreLocation) {
    run_batch(location, "DROP TABLE audit_pages;");
}

/// Pages of the store at `location` (every site's, in PostgreSQL) without their audit digest.
pub fn pages_without_audit_digest(location: &crate::StoreLocation) -> i64 {
    const COUNT: &str = "SELECT count(*) FROM pages WHERE NOT EXISTS (SELECT 1 FROM audit_pages \
         WHERE audit_pages.page = pages.id";
    match location {
        crate::StoreLocation::File(path) => rusqlite::Connection::open(path)
            .and_then(|connection| connection.query_row(&format!("{COUNT})"), [], |row| row.get(0)))
            .unwrap_or_else(|error| panic!("cannot count in {}: {error}", path.display())),
        crate::StoreLocation::Postgres(url) => postgres::Client::connect(url, postgres::NoTls)
            .and_then(|mut client| {
                client.query_one(&format!("{COUNT} AND audit_pages.site = pages.site)"), &[])
            })
            .map(|row| row.get(0))
            .unwrap_or_else(|error| panic!("cannot count in the test database: {error}")),
    }
}

/// Runs `sql` on the store at `location`.
fn run_batch(location: &crate::StoreLocation, sql: &str) {
    match location {
        crate::StoreLocation::File(path) => rusqlite::Connection::open(path)
            .and_then(|connection| connection.execute_batch(sql))
            .unwrap_or_else(|error| panic!("cannot change {}: {error}", path.display())),
        crate::StoreLocation::Postgres(url) => postgres::Client::connect(url, postgres::NoTls)
            .and_then(|mut client| client.batch_execute(sql))
            .unwrap_or_else(|error| panic!("cannot change the test database: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn a_database_name_replaces_the_one_in_the_url() {
        let check = |url: &str, expected: &str| assert_eq!(with_database(url, "db2"), expected);
        check(
            "postgres://u@127.0.0.1:5555/postgres",
            "postgres://u@127.0.0.1:5555/db2",
        );
        check(
            "postgres://u@127.0.0.1:5555",
            "postgres://u@127.0.0.1:5555/db2",
        );
        check(
            "postgresql://u:p@host/postgres?host=/tmp/x",
            "postgresql://u:p@host/db2?host=/tmp/x",
        );
    }
}
