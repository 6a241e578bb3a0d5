//! The tables in PostgreSQL, created by the first store that connects to an empty database and
//! checked by every later one.
//!
//! They hold the same columns as the file's tables, each with the `site` it belongs to first in
//! its key, so every lookup of one crawl reads one range of an index. Integers are `BIGINT`
//! throughout (the client maps Rust integers to PostgreSQL types by width, and 64 bits hold every
//! count and hash the crawl stores); times stay the ISO 8601 text the file keeps, so a value
//! reads back exactly as it was written whichever backend held it.

use postgres::Client;

use crate::StoreError;

/// The layout of the tables below. Bump it with any change to them; older databases are refused
/// with a message rather than misread.
pub const FORMAT_VERSION: u32 = 1;

/// Any fixed number: the advisory lock that lets one connection at a time create the tables, so
/// that workers started together on an empty database do not race to create them.
pub(super) const SCHEMA_LOCK: i64 = 0x7472_6177_6c5f_7363;

/// The tables. A site's row also holds the fleet's lease on it (`trawl-fleet`): when its work
/// is next due, who holds it until when, the epoch that every claim increments and every
/// write under a lease checks, and the instant of the last write under a lease (after the
/// responses it stores), from which the next holder keeps the politeness delay. A site's pages are numbered by the site's own `pages_written` counter, so page
/// ids count from 1 within each site as they do in a file; the frontier's order is a
/// database-wide identity, of which each site sees an increasing part. Bodies are deflated
/// already, so PostgreSQL is told not to compress them again (`STORAGE EXTERNAL`).
const TABLES: &str = "
CREATE TABLE trawl_format (format INTEGER NOT NULL);
CREATE TABLE sites (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    pages_written BIGINT NOT NULL DEFAULT 0,
    next_due TIMESTAMPTZ NOT NULL DEFAULT now(),
    lease_holder TEXT,
    lease_expires TIMESTAMPTZ,
    lease_epoch BIGINT NOT NULL DEFAULT 0,
    last_request_end TIMESTAMPTZ
);
CREATE INDEX sites_due ON sites (next_due);
CREATE TABLE meta (
    site BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (site, key)
);
CREATE TABLE frontier (
    site BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    id BIGINT GENERATED ALWAYS AS IDENTITY,
    url TEXT NOT NULL,
    depth BIGINT NOT NULL,
    redirects BIGINT NOT NULL DEFAULT 0,
    done BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (site, id),
    UNIQUE (site, url)
);
CREATE INDEX frontier_pending ON frontier (site, id) WHERE NOT done;
CREATE TABLE pages (
    site BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    url TEXT NOT NULL,
    depth BIGINT NOT NULL,
    status BIGINT NOT NULL,
    error TEXT,
    fetched_at TEXT NOT NULL,
    headers TEXT NOT NULL,
    body BYTEA NOT NULL,
    vertex BIGINT,
    role TEXT,
    title TEXT,
    signature BIGINT,
    post_pattern BIGINT,
    plan_generation BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (site, id)
);
ALTER TABLE pages ALTER COLUMN body SET STORAGE EXTERNAL;
CREATE TABLE list_links (
    site BIGINT NOT NULL,
    page BIGINT NOT NULL,
    position BIGINT NOT NULL,
    url TEXT NOT NULL,
    PRIMARY KEY (site, page, position),
    FOREIGN KEY (site, page) REFERENCES pages (site, id) ON DELETE CASCADE
);
CREATE TABLE posts (
    site BIGINT NOT NULL,
    page BIGINT NOT NULL,
    position BIGINT NOT NULL,
    author TEXT,
    time TEXT,
    text TEXT NOT NULL,
    permalink TEXT,
    PRIMARY KEY (site, page, position),
    FOREIGN KEY (site, page) REFERENCES pages (site, id) ON DELETE CASCADE
);
CREATE TABLE thread_entries (
    site BIGINT NOT NULL,
    page BIGINT NOT NULL,
    position BIGINT NOT NULL,
    title TEXT NOT NULL,
    url TEXT NOT NULL,
    author TEXT,
    replies BIGINT,
    last_reply TEXT,
    PRIMARY KEY (site, page, position),
    FOREIGN KEY (site, page) REFERENCES pages (site, id) ON DELETE CASCADE
);
CREATE TABLE cookies (
    site BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (site, name)
);
";

/// The tables trawl creates; a database holding one of them without the format table holds
/// something else under the same name.
const TABLE_NAMES: [&str; 9] = [
    "sites",
    "meta",
    "frontier",
    "pages",
    "list_links",
    "posts",
    "thread_entries",
    "cookies",
    "trawl_format",
];

/// Creates the tables in a database that has none of them, or checks their format.
pub fn prepare(client: &mut Client, shown_url: &str) -> Result<(), StoreError> {
    let database = |source| StoreError::Postgres {
        database: shown_url.to_string(),
        source,
    };
    let mut transaction = client.transaction().map_err(database)?;
    transaction
        .execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])
        .map_err(database)?;
    match format_of(&mut transaction, shown_url)? {
        Found::Nothing => {
            transaction.batch_execute(TABLES).map_err(database)?;
            transaction
                .batch_execute(super::samples::TABLE)
                .map_err(database)?;
            transaction
                .batch_execute(super::summary::TABLES)
                .map_err(database)?;
            transaction
                .batch_execute(super::audit_pages::TABLE)
                .map_err(database)?;
            transaction
                .execute(
                    "INSERT INTO trawl_format (format) VALUES ($1)",
                    &[&(FORMAT_VERSION as i32)],
                )
                .map_err(database)?;
            transaction.commit().map_err(database)
        }
        Found::Format(found) => {
            same_format(found, shown_url)?;
            // The site's last request came after the format's tables; a database made before
            // it gains the column here, under the schema lock, rather than a new format. It is
            // looked for first, because altering the table locks it against every worker.
            let has_last_request = transaction
                .query_opt(
                    "SELECT 1 FROM information_schema.columns WHERE table_schema = \
                     current_schema() AND table_name = 'sites' \
                     AND column_name = 'last_request_end'",
                    &[],
                )
                .map_err(database)?
                .is_some();
            if !has_last_request {
                transaction
                    .batch_execute("ALTER TABLE sites ADD COLUMN last_request_end TIMESTAMPTZ")
                    .map_err(database)?;
            }
            // Sampled pages came after the format's tables; a database made before them gains
            // their table here, under the schema lock, rather than a new format.
            transaction
                .batch_execute(super::samples::TABLE)
                .map_err(database)?;
            // The totals came after the format's tables too (see `crate::summary`): made and
            // filled here, under the schema lock, in a database made before them. Making their
            // triggers locks the tables they watch, so no write falls between the two.
            if !super::summary::has_summary(&mut transaction).map_err(database)? {
                transaction
                    .batch_execute(super::summary::TABLES)
                    .map_err(database)?;
                transaction
                    .batch_execute(super::summary::FILL)
                    .map_err(database)?;
            }
            // The audit's digests of pages came after them too (`crate::audit_pages`): their
            // table is made here; each site's pages written without one are given theirs when
            // the site is opened for writing.
            transaction
                .batch_execute(super::audit_pages::TABLE)
                .map_err(database)?;
            transaction.commit().map_err(database)
        }
        Found::OtherTables => Err(StoreError::NotACrawl {
            database: shown_url.to_string(),
        }),
    }
}

/// Checks, without writing anything, that the database holds trawl's tables in this format.
pub fn check(client: &mut Client, shown_url: &str) -> Result<(), StoreError> {
    match format_of(client, shown_url)? {
        Found::Format(found) => same_format(found, shown_url),
        Found::Nothing | Found::OtherTables => Err(StoreError::NotACrawl {
            database: shown_url.to_string(),
        }),
    }
}

/// What a database holds where trawl's tables would be.
enum Found {
    /// None of trawl's tables.
    Nothing,
    /// Trawl's tables in this format.
    Format(i32),
    /// Tables with trawl's names but no format: another program's.
    OtherTables,
}

fn format_of(
    client: &mut impl postgres::GenericClient,
    shown_url: &str,
) -> Result<Found, StoreError> {
    let database = |source| StoreError::Postgres {
        database: shown_url.to_string(),
        source,
    };
    let names: Vec<String> = TABLE_NAMES.iter().map(|name| name.to_string()).collect();
    let present: Vec<String> = client
        .query(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_name = ANY($1)",
            &[&names],
        )
        .map_err(database)?
        .iter()
        .map(|row| row.get(0))
        .collect();
    if present.is_empty() {
        return Ok(Found::Nothing);
    }
    if !present.iter().any(|name| name == "trawl_format") {
        return Ok(Found::OtherTables);
    }
    let format = client
        .query_opt("SELECT format FROM trawl_format", &[])
        .map_err(database)?;
    Ok(match format {
        Some(row) => Found::Format(row.get(0)),
        None => Found::OtherTables,
    })
}

fn same_format(found: i32, shown_url: &str) -> Result<(), StoreError> {
    if found == FORMAT_VERSION as i32 {
        Ok(())
    } else {
        Err(StoreError::WrongFormat {
            database: shown_url.to_string(),
            found: found.to_string(),
            expected: FORMAT_VERSION,
        })
    }
}
