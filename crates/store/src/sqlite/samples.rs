//! Pages sampled to learn a site's plan, kept as they are fetched (see [`crate::SampledPage`]).
//! Their table is made by the first sample saved, so a file written before it keeps its format
//! and a file opened read-only is never written. A table made before samples kept their fetch
//! time gains the column at the next sample saved; its older rows have no time.

use std::collections::HashSet;

use rusqlite::{OptionalExtension, params};

use super::SqliteStore;
use crate::{SampledPage, StoreError};

const TABLE: &str = "CREATE TABLE IF NOT EXISTS samples (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    fetched_at TEXT
)";

impl SqliteStore {
    /// See [`crate::Store::save_sample`].
    pub fn save_sample(&mut self, page: &SampledPage) -> Result<(), StoreError> {
        let headers = serde_json::to_string(&page.headers).map_err(|error| {
            self.damaged(format!("headers of the sample {}: {error}", page.url))
        })?;
        let database = |error| self.database_error(error);
        self.connection.execute(TABLE, []).map_err(database)?;
        if !self.samples_have_times() {
            self.connection
                .execute("ALTER TABLE samples ADD COLUMN fetched_at TEXT", [])
                .map_err(database)?;
        }
        self.connection
            .execute(
                "INSERT INTO samples (url, status, headers, body, fetched_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    page.url,
                    page.status,
                    headers,
                    page.body,
                    page.fetched_at.map(|at| at.to_string())
                ],
            )
            .map_err(database)?;
        self.waiting_samples.saved(&page.url);
        Ok(())
    }

    /// Whether the samples' table has the fetch time column (it has, unless made before it).
    fn samples_have_times(&self) -> bool {
        self.connection
            .prepare("SELECT fetched_at FROM samples LIMIT 0")
            .is_ok()
    }

    /// See [`crate::Store::let_samples_go`].
    pub fn let_samples_go(&mut self) -> Result<(), StoreError> {
        let deleted = self.connection.transaction().and_then(|transaction| {
            SqliteStore::delete_samples(&transaction)?;
            transaction.commit()
        });
        deleted.map_err(|error| self.database_error(error))?;
        self.waiting_samples.let_go_of_all();
        Ok(())
    }

    /// The URLs of the kept samples, for [`crate::waiting_samples`].
    pub(super) fn sample_urls(&self) -> Result<HashSet<String>, StoreError> {
        let database = |error| self.database_error(error);
        if !self.samples_table_exists()? {
            return Ok(HashSet::new());
        }
        let mut statement = self
            .connection
            .prepare("SELECT DISTINCT url FROM samples")
            .map_err(database)?;
        let urls = statement
            .query_map([], |row| row.get::<_, String>(0))
            .map_err(database)?
            .collect::<Result<HashSet<String>, _>>()
            .map_err(database)?;
        Ok(urls)
    }

    /// Whether the samples' table has been made (by the first sample saved).
    fn samples_table_exists(&self) -> Result<bool, StoreError> {
        let table = self
            .connection
            .query_row(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'samples'",
                [],
                |_| Ok(()),
            )
            .optional()
            .map_err(|error| self.database_error(error))?;
        Ok(table.is_some())
    }

    /// Lets go of every kept sample, inside the caller's transaction (the one storing a plan
    /// learned again, or the crawl's end).
    pub(super) fn delete_samples(transaction: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
        let table = transaction
            .query_row(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'samples'",
                [],
                |_| Ok(()),
            )
            .optional()?;
        if table.is_some() {
            transaction.execute("DELETE FROM samples", [])?;
        }
        Ok(())
    }

    /// See [`crate::Store::samples`].
    pub fn samples(&self) -> Result<Vec<SampledPage>, StoreError> {
        let database = |error| self.database_error(error);
        if !self.samples_table_exists()? {
            return Ok(Vec::new());
        }
        let time_column = if self.samples_have_times() {
            "fetched_at"
        } else {
            "NULL"
        };
        let mut statement = self
            .connection
            .prepare(&format!(
                "SELECT url, status, headers, body, {time_column} FROM samples ORDER BY id"
            ))
            .map_err(database)?;
        let rows = statement
            .query_map([], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, u16>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, Vec<u8>>(3)?,
                    row.get::<_, Option<String>>(4)?,
                ))
            })
            .map_err(database)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(database)?;
        rows.into_iter()
            .map(|(url, status, headers, body, fetched_at)| {
                let fetched_at =
                    fetched_at
                        .map(|text| text.parse())
                        .transpose()
                        .map_err(|error| {
                            self.damaged(format!("fetch time of the sample {url}: {error}"))
                        })?;
                Ok(SampledPage {
                    fetched_at,
                    status,
                    headers: serde_json::from_str(&headers).map_err(|error| {
                        self.damaged(format!("headers of the sample {url}: {error}"))
                    })?,
                    body,
                    url,
                })
            })
            .collect()
    }
}
