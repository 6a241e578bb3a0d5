//! The tables, created on first open and checked on every later one.

use super::SqliteStore;
use crate::StoreError;

/// The layout of the tables below. Bump it with any change to them; older files are refused
/// with a message rather than misread.
pub const FORMAT_VERSION: u32 = 1;

/// The frontier keeps its queue order in `id` and its seen set in `url`'s uniqueness; pages
/// keep fetch order in `id`. Records hang off their page by `(page, position)`, so a page and its
/// records are written and read together without a separate identity scheme.
const TABLES: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE frontier (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    depth INTEGER NOT NULL,
    redirects INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX frontier_pending ON frontier (id) WHERE done = 0;
CREATE TABLE pages (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL,
    depth INTEGER NOT NULL,
    status INTEGER NOT NULL,
    error TEXT,
    fetched_at TEXT NOT NULL,
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    vertex INTEGER,
    role TEXT,
    title TEXT,
    signature INTEGER,
    post_pattern INTEGER,
    plan_generation INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE list_links (
    page INTEGER NOT NULL,
    position INTEGER NOT NULL,
    url TEXT NOT NULL,
    PRIMARY KEY (page, position)
) WITHOUT ROWID;
CREATE TABLE posts (
    page INTEGER NOT NULL,
    position INTEGER NOT NULL,
    author TEXT,
    time TEXT,
    text TEXT NOT NULL,
    permalink TEXT,
    PRIMARY KEY (page, position)
) WITHOUT ROWID;
CREATE TABLE thread_entries (
    page INTEGER NOT NULL,
    position INTEGER NOT NULL,
    title TEXT NOT NULL,
    url TEXT NOT NULL,
    author TEXT,
    replies INTEGER,
    last_reply TEXT,
    PRIMARY KEY (page, position)
) WITHOUT ROWID;
CREATE TABLE cookies (name TEXT PRIMARY KEY, value TEXT NOT NULL);
";

/// Sets the connection up and creates or checks the tables.
pub fn prepare(store: &mut SqliteStore) -> Result<(), StoreError> {
    // The journal mode answers with a row, so it is read rather than executed.
    store
        .connection
        .query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))
        .map_err(|error| not_a_database(store, error))?;
    store
        .connection
        .execute_batch("PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;")
        .map_err(|error| store.database_error(error))?;
    let table_count: i64 = store
        .connection
        .query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))
        .map_err(|error| store.database_error(error))?;
    if table_count == 0 {
        let path = store.path.clone();
        let transaction = store
            .connection
            .transaction()
            .map_err(|source| StoreError::Sqlite {
                path: path.clone(),
                source,
            })?;
        transaction
            .execute_batch(TABLES)
            .and_then(|()| {
                transaction.execute(
                    "INSERT INTO meta (key, value) VALUES ('format', ?1)",
                    [FORMAT_VERSION.to_string()],
                )
            })
            .and_then(|_| transaction.commit())
            .map_err(|source| StoreError::Sqlite { path, source })?;
        store.ensure_summary()?;
        return store.ensure_audit_pages();
    }
    check_format(store)?;
    // The totals came after the format's tables; a file made before them gains them here
    // rather than a new format (see `crate::summary`). So do the audit's digests of pages
    // (`crate::audit_pages`), which pages written without them are given here too.
    store.ensure_summary()?;
    store.ensure_audit_pages()
}

/// Checks, without writing anything, that the file holds a crawl in this format.
pub fn check(store: &SqliteStore) -> Result<(), StoreError> {
    store
        .connection
        .execute_batch("PRAGMA busy_timeout = 5000;")
        .map_err(|error| store.database_error(error))?;
    let table_count: i64 = store
        .connection
        .query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))
        .map_err(|error| not_a_database(store, error))?;
    if table_count == 0 {
        return Err(store.not_a_crawl());
    }
    check_format(store)
}

/// The format the file's `meta` table names, against this code's.
fn check_format(store: &SqliteStore) -> Result<(), StoreError> {
    let format: Option<String> = store
        .connection
        .query_row("SELECT value FROM meta WHERE key = 'format'", [], |row| {
            row.get(0)
        })
        .ok();
    match format {
        None => Err(store.not_a_crawl()),
        Some(found) if found != FORMAT_VERSION.to_string() => Err(StoreError::WrongFormat {
            database: store.path.display().to_string(),
            found,
            expected: FORMAT_VERSION,
        }),
        Some(_) => Ok(()),
    }
}

/// A file that is not SQLite at all fails on its first statement; say so plainly.
fn not_a_database(store: &SqliteStore, error: rusqlite::Error) -> StoreError {
    match error {
        rusqlite::Error::SqliteFailure(code, _)
            if code.code == rusqlite::ErrorCode::NotADatabase =>
        {
            store.not_a_crawl()
        }
        other => store.database_error(other),
    }
}
