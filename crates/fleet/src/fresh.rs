//! Which sites are kept fresh: once a site's crawl is complete, its work becomes the watch
//! (`trawl-watch`), and every later lease of it runs the watch for its slice instead of the
//! crawl.
//!
//! The watch's own state (its plan, the policy's state) lives in the site's store beside its
//! pages, so whichever worker claims the site next goes on where the last holder stood; this
//! table says only that the site is past its crawl. When the site is due is the `sites` row's
//! `next_due`, which a watching lease sets from the policy's next planned fetch when it gives
//! the site back, so that the claim's `WHERE next_due <= now()` picks it exactly when the
//! policy wants its next page.

use crate::{Fleet, FleetError, Heartbeat, Lease};

/// Creates the watched sites' table when missing.
pub(crate) const SCHEMA: &str = "\
    CREATE TABLE IF NOT EXISTS site_watches (\
        site bigint PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE, \
        since timestamptz NOT NULL DEFAULT now());";

impl Fleet {
    /// Records that the site `lease` holds has a complete crawl and is watched from now on;
    /// fails with [`FleetError::LeaseLost`], recording nothing, when another worker holds the
    /// site now.
    pub fn start_watching(&mut self, lease: &Lease) -> Result<(), FleetError> {
        let recorded = self
            .client
            .execute(
                "INSERT INTO site_watches (site) \
                 SELECT id FROM sites WHERE id = $1 AND lease_epoch = $2 \
                 ON CONFLICT (site) DO UPDATE SET since = site_watches.since",
                &[&lease.site_id, &lease.epoch],
            )
            .map_err(|source| self.database_error(source))?;
        crate::held(recorded, lease)
    }

    /// Whether the site `lease` holds is watched (its crawl is complete).
    pub fn is_watched(&mut self, lease: &Lease) -> Result<bool, FleetError> {
        let row = self
            .client
            .query_opt(
                "SELECT 1 FROM site_watches WHERE site = $1",
                &[&lease.site_id],
            )
            .map_err(|source| self.database_error(source))?;
        Ok(row.is_some())
    }

    /// How many sites are watched.
    pub fn watched_sites(&mut self) -> Result<usize, FleetError> {
        let row = self
            .client
            .query_one("SELECT count(*) FROM site_watches", &[])
            .map_err(|source| self.database_error(source))?;
        Ok(row.get::<_, i64>(0) as usize)
    }
}

impl Heartbeat<'_> {
    /// Records that this lease's site is watched from now on (see [`Fleet::start_watching`]).
    pub fn start_watching(&mut self) -> Result<(), FleetError> {
        self.fleet.start_watching(self.lease)
    }

    /// Whether this lease's site is watched, its crawl complete.
    pub fn is_watched(&mut self) -> Result<bool, FleetError> {
        self.fleet.is_watched(self.lease)
    }
}

impl Fleet {
    /// How many sites are due and held by no one: work waiting for a worker, which a lease
    /// keeping a watched site between its fetches should make way for.
    pub fn sites_waiting(&mut self) -> Result<usize, FleetError> {
        let row = self
            .client
            .query_one(
                "SELECT count(*) FROM sites WHERE next_due <= now() \
                 AND (lease_expires IS NULL OR lease_expires <= now())",
                &[],
            )
            .map_err(|source| self.database_error(source))?;
        Ok(row.get::<_, i64>(0) as usize)
    }
}

impl Heartbeat<'_> {
    /// How many sites wait for a worker (see [`Fleet::sites_waiting`]).
    pub fn sites_waiting(&mut self) -> Result<usize, FleetError> {
        self.fleet.sites_waiting()
    }
}
