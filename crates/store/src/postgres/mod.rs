//! The shared backend: the crawls of many sites in one PostgreSQL database, through the
//! synchronous `postgres` client (the store is synchronous; the client runs its own small
//! runtime underneath).
//!
//! A [`PostgresStore`] is one connection bound to one site. Every table has a `site` column
//! referring to the `sites` table, so each crawl keeps its own rows and removing a site removes
//! them all. Writes run in one transaction each, as in the file, and a batch of fetches first
//! takes its page ids from the site's row (`pages_written`), which also locks that row: two
//! connections writing one site take turns, and page ids stay dense and in commit order.
//!
//! The connection sits in a `RefCell` so that readers take `&self`, as they do on a file (the
//! crawl driver, the watch and the audit read through shared borrows). No borrow is held while
//! a reader calls back into its caller: pages are read a chunk at a time by id, and a chunk is
//! handed over after its rows are in memory, so a visitor may use the store itself. Pages are
//! only ever appended, so reading up to the last id present when the reading began gives
//! exactly the pages committed then, without a transaction held open across the visits.
//!
//! The connection is made without TLS: the database is expected on the machine or on a private
//! network, as the workers that share it are.

mod audit_pages;
mod read;
mod rereading;
mod samples;
mod schema;
mod summary;
mod write;

use std::cell::RefCell;
use std::collections::HashMap;

use postgres::{Client, GenericClient, NoTls, Statement};

use crate::StoreError;
use crate::compression::body_compressor;
use crate::location::without_password;
use crate::waiting_samples::WaitingSamples;

/// One site's crawl in a PostgreSQL database, open for reading and writing (or reading only).
pub struct PostgresStore {
    connection: RefCell<Connection>,
    /// The URL as given, for reconnecting and for [`crate::Store::location`].
    url: String,
    /// The URL without its password, for messages.
    shown_url: String,
    /// The site's id in the `sites` table.
    site: i64,
    /// The site's URL, its name.
    site_url: String,
    /// See `SqliteStore::body_compressor`.
    body_compressor: flate2::Compress,
    /// Opening this store added the site to the database.
    created: bool,
    /// The lease epoch every write checks, for a store opened under a fleet worker's lease.
    lease_epoch: Option<i64>,
    /// The kept samples whose pages the crawl has yet to store.
    waiting_samples: WaitingSamples,
}

impl std::fmt::Debug for PostgresStore {
    /// The client's own debug output names its connection's internals; the database and the
    /// site say what a reader of a log needs.
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("PostgresStore")
            .field("database", &self.shown_url)
            .field("site", &self.site_url)
            .finish_non_exhaustive()
    }
}

/// A client with the statements prepared on it so far, by their text.
struct Connection {
    client: Client,
    statements: Statements,
}

/// Statements prepared on one connection, by their text.
type Statements = HashMap<&'static str, Statement>;

/// `sql` prepared on `client` (the connection itself or a transaction on it), once per
/// connection: a prepared statement outlives the transaction that prepared it.
fn prepared(
    statements: &mut Statements,
    client: &mut impl GenericClient,
    sql: &'static str,
) -> Result<Statement, postgres::Error> {
    if let Some(statement) = statements.get(sql) {
        return Ok(statement.clone());
    }
    let statement = client.prepare(sql)?;
    statements.insert(sql, statement.clone());
    Ok(statement)
}

impl PostgresStore {
    /// Connects to the database at `url` and opens the crawl of `site`, adding the site (and
    /// trawl's tables, to a database that has none) when it is not there.
    pub fn open(url: &str, site: &str) -> Result<PostgresStore, StoreError> {
        let shown_url = without_password(url);
        let mut client = connect(url, &shown_url)?;
        schema::prepare(&mut client, &shown_url)?;
        let database = |source| StoreError::Postgres {
            database: shown_url.clone(),
            source,
        };
        let inserted = client
            .query_opt(
                "INSERT INTO sites (url) VALUES ($1) ON CONFLICT (url) DO NOTHING RETURNING id",
                &[&site],
            )
            .map_err(database)?;
        let (id, created) = match inserted {
            Some(row) => (row.get(0), true),
            None => (
                client
                    .query_one("SELECT id FROM sites WHERE url = $1", &[&site])
                    .map_err(database)?
                    .get(0),
                false,
            ),
        };
        let mut store =
            PostgresStore::with_client(client, url, shown_url, id, site.to_string(), created);
        store.ensure_audit_pages()?;
        Ok(store)
    }

    /// Connects to the database at `url` and opens a crawl that is there already: that of
    /// `site`, or the only one when `site` is `None`. With `read_only`, the session refuses
    /// every write, so a reading cannot change the crawl by mistake.
    pub fn open_existing(
        url: &str,
        site: Option<&str>,
        read_only: bool,
    ) -> Result<PostgresStore, StoreError> {
        let shown_url = without_password(url);
        let mut client = connect(url, &shown_url)?;
        schema::check(&mut client, &shown_url)?;
        let database = |source| StoreError::Postgres {
            database: shown_url.clone(),
            source,
        };
        if read_only {
            client
                .batch_execute("SET default_transaction_read_only = on")
                .map_err(database)?;
        }
        let (id, site_url) = match site {
            Some(site) => {
                let row = client
                    .query_opt("SELECT id FROM sites WHERE url = $1", &[&site])
                    .map_err(database)?
                    .ok_or_else(|| StoreError::NoSuchSite {
                        database: shown_url.clone(),
                        site: site.to_string(),
                    })?;
                (row.get(0), site.to_string())
            }
            None => {
                let rows = client
                    .query("SELECT id, url FROM sites ORDER BY id", &[])
                    .map_err(database)?;
                match rows.as_slice() {
                    [] => {
                        return Err(StoreError::Missing {
                            database: shown_url,
                        });
                    }
                    [only] => (only.get(0), only.get(1)),
                    several => {
                        return Err(StoreError::WhichSite {
                            database: shown_url.clone(),
                            sites: several.iter().map(|row| row.get(1)).collect(),
                        });
                    }
                }
            }
        };
        let mut store = PostgresStore::with_client(client, url, shown_url, id, site_url, false);
        if !read_only {
            store.ensure_audit_pages()?;
        }
        Ok(store)
    }

    fn with_client(
        client: Client,
        url: &str,
        shown_url: String,
        site: i64,
        site_url: String,
        created: bool,
    ) -> PostgresStore {
        PostgresStore {
            connection: RefCell::new(Connection {
                client,
                statements: HashMap::new(),
            }),
            url: url.to_string(),
            shown_url,
            site,
            site_url,
            body_compressor: body_compressor(),
            created,
            lease_epoch: None,
            waiting_samples: WaitingSamples::default(),
        }
    }

    /// Connects to the database at `url` and opens the crawl of `site` under a fleet worker's
    /// lease of epoch `epoch`: every write transaction first checks, with the site's row
    /// locked, that the site's epoch is still `epoch`, and fails with
    /// [`StoreError::LeaseLost`], writing nothing, when another worker has claimed the site
    /// since (fencing). Reading is never refused.
    pub fn open_leased(url: &str, site: &str, epoch: i64) -> Result<PostgresStore, StoreError> {
        let mut store = PostgresStore::open_existing(url, Some(site), false)?;
        store.lease_epoch = Some(epoch);
        Ok(store)
    }

    /// Creates trawl's tables in the database at `url` when it has none, or checks their
    /// format, without opening a site.
    pub fn prepare_database(url: &str) -> Result<(), StoreError> {
        let shown_url = without_password(url);
        let mut client = connect(url, &shown_url)?;
        schema::prepare(&mut client, &shown_url)
    }

    /// The database's URL as given.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The site this store reads and writes: the portal URL its crawl was asked for.
    pub fn site(&self) -> &str {
        &self.site_url
    }

    /// Whether opening this store added its site to the database.
    pub fn was_created(&self) -> bool {
        self.created
    }

    /// Removes the site with every row it has, in one transaction.
    pub fn discard(self) -> Result<(), StoreError> {
        let mut connection = self.connection.borrow_mut();
        connection
            .client
            .execute("DELETE FROM sites WHERE id = $1", &[&self.site])
            .map_err(|source| StoreError::Postgres {
                database: self.shown_url.clone(),
                source,
            })?;
        Ok(())
    }

    fn database_error(&self, source: postgres::Error) -> StoreError {
        StoreError::Postgres {
            database: self.shown_url.clone(),
            source,
        }
    }

    fn damaged(&self, detail: impl Into<String>) -> StoreError {
        StoreError::Damaged {
            database: format!("{} (site {})", self.shown_url, self.site_url),
            detail: detail.into(),
        }
    }
}

fn connect(url: &str, shown_url: &str) -> Result<Client, StoreError> {
    Client::connect(url, NoTls).map_err(|source| StoreError::Postgres {
        database: shown_url.to_string(),
        source,
    })
}
