//! Pages sampled to learn a site's plan, kept as they are fetched (see [`crate::SampledPage`]).
//! Their table is made by the first sample saved, so a file written before it keeps its format
//! and a file opened read-only is never written.

use rusqlite::{OptionalExtension, params};

use super::SqliteStore;
use crate::{SampledPage, StoreError};

const TABLE: &str = "CREATE TABLE IF NOT EXISTS samples (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BLOB NOT NULL
)";

impl SqliteStore {
    /// See [`crate::Store::save_sample`].
    pub fn save_sample(&mut self, page: &SampledPage) -> Result<(), StoreError> {
        let headers = serde_json::to_string(&page.headers).map_err(|error| {
            self.damaged(format!("headers of the sample {}: {error}", page.url))
        })?;
        let database = |error| self.database_error(error);
        self.connection.execute(TABLE, []).map_err(database)?;
        self.connection
            .execute(
                "INSERT INTO samples (url, status, headers, body) VALUES (?1, ?2, ?3, ?4)",
                params![page.url, page.status, headers, page.body],
            )
            .map_err(database)?;
        Ok(())
    }

    /// See [`crate::Store::samples`].
    pub fn samples(&self) -> Result<Vec<SampledPage>, StoreError> {
        let database = |error| self.database_error(error);
        let table = self
            .connection
            .query_row(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'samples'",
                [],
                |_| Ok(()),
            )
            .optional()
            .map_err(database)?;
        if table.is_none() {
            return Ok(Vec::new());
        }
        let mut statement = self
            .connection
            .prepare("SELECT url, status, headers, body FROM samples ORDER BY id")
            .map_err(database)?;
        let rows = statement
            .query_map([], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, u16>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, Vec<u8>>(3)?,
                ))
            })
            .map_err(database)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(database)?;
        rows.into_iter()
            .map(|(url, status, headers, body)| {
                Ok(SampledPage {
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
