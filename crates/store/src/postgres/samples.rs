//! Pages sampled to learn a site's plan, kept as they are fetched (see [`crate::SampledPage`]).

use std::collections::HashSet;

use super::PostgresStore;
use crate::{SampledPage, StoreError};

/// The sampled pages' table, created with the others or added to a database made before it.
pub(super) const TABLE: &str = "
CREATE TABLE IF NOT EXISTS samples (
    site BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    id BIGSERIAL PRIMARY KEY,
    url TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BYTEA NOT NULL,
    fetched_at TEXT
);
ALTER TABLE samples ADD COLUMN IF NOT EXISTS fetched_at TEXT;
CREATE INDEX IF NOT EXISTS samples_of_site ON samples (site, id);
";

impl PostgresStore {
    /// See [`crate::Store::save_sample`].
    pub fn save_sample(&mut self, page: &SampledPage) -> Result<(), StoreError> {
        let site = self.site;
        let headers = serde_json::to_string(&page.headers).map_err(|error| {
            self.damaged(format!("headers of the sample {}: {error}", page.url))
        })?;
        let status = i32::from(page.status);
        let fetched_at = page.fetched_at.map(|at| at.to_string());
        self.in_transaction(|transaction, _| {
            transaction.execute(
                "INSERT INTO samples (site, url, status, headers, body, fetched_at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[&site, &page.url, &status, &headers, &page.body, &fetched_at],
            )?;
            Ok(())
        })?;
        self.waiting_samples.saved(&page.url);
        Ok(())
    }

    /// See [`crate::Store::let_samples_go`].
    pub fn let_samples_go(&mut self) -> Result<(), StoreError> {
        let site = self.site;
        self.in_transaction(|transaction, _| {
            transaction.execute(super::write::DELETE_SAMPLES, &[&site])?;
            Ok(())
        })?;
        self.waiting_samples.let_go_of_all();
        Ok(())
    }

    /// The URLs of the site's kept samples, for [`crate::waiting_samples`].
    pub(super) fn sample_urls(&self) -> Result<HashSet<String>, StoreError> {
        let site = self.site;
        let rows = self.reading(|client| {
            client.query("SELECT DISTINCT url FROM samples WHERE site = $1", &[&site])
        })?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    /// See [`crate::Store::samples`].
    pub fn samples(&self) -> Result<Vec<SampledPage>, StoreError> {
        let site = self.site;
        let rows = self.reading(|client| {
            client.query(
                "SELECT url, status, headers, body, fetched_at FROM samples WHERE site = $1 \
                 ORDER BY id",
                &[&site],
            )
        })?;
        rows.iter()
            .map(|row| {
                let url: String = row.get(0);
                let status: i32 = row.get(1);
                let headers: String = row.get(2);
                let fetched_at: Option<String> = row.get(4);
                let fetched_at =
                    fetched_at
                        .map(|text| text.parse())
                        .transpose()
                        .map_err(|error| {
                            self.damaged(format!("fetch time of the sample {url}: {error}"))
                        })?;
                Ok(SampledPage {
                    fetched_at,
                    status: status as u16,
                    headers: serde_json::from_str(&headers).map_err(|error| {
                        self.damaged(format!("headers of the sample {url}: {error}"))
                    })?,
                    body: row.get(3),
                    url,
                })
            })
            .collect()
    }
}
