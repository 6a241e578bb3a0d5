//! Fetch budgets held across workers: one for the whole fleet and one per site, in pages a day.
//!
//! A worker reserves its lease's pages before it fetches ([`Fleet::reserve_pages`]) and gives
//! back what it did not fetch when the lease ends ([`Fleet::return_pages`]). A reservation is one
//! short transaction that locks the fleet's budget row and then the site's, always in that order
//! (so two reservations never wait on each other in a cycle), and grants at most what both have
//! left today: however many workers reserve at the same moment, the pages granted on one day
//! never pass either budget. Reserving per lease rather than per fetch keeps transactions off the
//! fetch path; a worker killed mid-lease leaves its reservation spent until the day ends, which
//! errs on the side of fetching less.
//!
//! The day is the database server's (`current_date`), the one calendar every worker shares; a
//! budget row whose day has passed counts as nothing reserved.

use std::time::Duration;

use postgres::Transaction;

use crate::{Fleet, FleetError, Lease};

/// Creates the budget tables when missing, with the fleet's one row (no limit until one is set).
pub(crate) const SCHEMA: &str = "\
    CREATE TABLE IF NOT EXISTS fleet_budget (\
        id integer PRIMARY KEY CHECK (id = 1), \
        pages_per_day bigint, \
        day date NOT NULL DEFAULT current_date, \
        reserved bigint NOT NULL DEFAULT 0); \
    INSERT INTO fleet_budget (id) VALUES (1) ON CONFLICT (id) DO NOTHING; \
    CREATE TABLE IF NOT EXISTS site_budgets (\
        site bigint PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE, \
        pages_per_day bigint, \
        day date NOT NULL DEFAULT current_date, \
        reserved bigint NOT NULL DEFAULT 0);";

/// A budget's limit and what is reserved of it today.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Pages a day; `None` for no limit.
    pub pages_per_day: Option<i64>,
    /// Pages reserved today.
    pub reserved_today: i64,
}

impl Budget {
    /// Pages still to be had today (`None`: no limit).
    pub fn left_today(&self) -> Option<i64> {
        self.pages_per_day
            .map(|limit| (limit - self.reserved_today).max(0))
    }
}

impl Fleet {
    /// Sets the fleet's budget, in pages a day over every site; `None` lifts it.
    pub fn set_fleet_budget(&mut self, pages_per_day: Option<i64>) -> Result<(), FleetError> {
        self.client
            .execute(
                "UPDATE fleet_budget SET pages_per_day = $1 WHERE id = 1",
                &[&pages_per_day],
            )
            .map_err(|source| self.database_error(source))?;
        Ok(())
    }

    /// Sets `site`'s own budget, in pages a day; `None` lifts it. Returns whether the site is
    /// one of the fleet's.
    pub fn set_site_budget(
        &mut self,
        site: &str,
        pages_per_day: Option<i64>,
    ) -> Result<bool, FleetError> {
        let changed = self
            .client
            .execute(
                "INSERT INTO site_budgets (site, pages_per_day) \
                 SELECT id, $2 FROM sites WHERE url = $1 \
                 ON CONFLICT (site) DO UPDATE SET pages_per_day = EXCLUDED.pages_per_day",
                &[&site, &pages_per_day],
            )
            .map_err(|source| self.database_error(source))?;
        Ok(changed == 1)
    }

    /// The fleet's budget as it stands today.
    pub fn fleet_budget(&mut self) -> Result<Budget, FleetError> {
        let row = self
            .client
            .query_one(
                "SELECT pages_per_day, CASE WHEN day = current_date THEN reserved ELSE 0 END \
                 FROM fleet_budget WHERE id = 1",
                &[],
            )
            .map_err(|source| self.database_error(source))?;
        Ok(Budget {
            pages_per_day: row.get(0),
            reserved_today: row.get(1),
        })
    }

    /// Reserves up to `wanted` pages for `lease` today, within the fleet's budget and the site's;
    /// returns how many were granted (zero when either is spent). Fails with
    /// [`FleetError::LeaseLost`], reserving nothing, when another worker holds the site now.
    pub fn reserve_pages(&mut self, lease: &Lease, wanted: usize) -> Result<usize, FleetError> {
        let url = self.url.clone();
        let failed = |source| crate::database_error(&url, source);
        let mut transaction = self.client.transaction().map_err(failed)?;
        let held = transaction
            .query_opt(
                "SELECT 1 FROM sites WHERE id = $1 AND lease_epoch = $2",
                &[&lease.site_id, &lease.epoch],
            )
            .map_err(failed)?;
        if held.is_none() {
            return Err(FleetError::LeaseLost {
                site: lease.site.clone(),
                epoch: lease.epoch,
            });
        }
        let fleet_budget = locked_budget(
            &mut transaction,
            "SELECT pages_per_day, CASE WHEN day = current_date THEN reserved ELSE 0 END \
             FROM fleet_budget WHERE id = 1 FOR UPDATE",
            None,
        )
        .map_err(failed)?;
        transaction
            .execute(
                "INSERT INTO site_budgets (site) VALUES ($1) ON CONFLICT (site) DO NOTHING",
                &[&lease.site_id],
            )
            .map_err(failed)?;
        let site_budget = locked_budget(
            &mut transaction,
            "SELECT pages_per_day, CASE WHEN day = current_date THEN reserved ELSE 0 END \
             FROM site_budgets WHERE site = $1 FOR UPDATE",
            Some(lease.site_id),
        )
        .map_err(failed)?;
        let mut granted = wanted as i64;
        for left in [fleet_budget.left_today(), site_budget.left_today()]
            .into_iter()
            .flatten()
        {
            granted = granted.min(left);
        }
        transaction
            .execute(
                "UPDATE fleet_budget SET day = current_date, reserved = $1 WHERE id = 1",
                &[&(fleet_budget.reserved_today + granted)],
            )
            .map_err(failed)?;
        transaction
            .execute(
                "UPDATE site_budgets SET day = current_date, reserved = $2 WHERE site = $1",
                &[&lease.site_id, &(site_budget.reserved_today + granted)],
            )
            .map_err(failed)?;
        transaction.commit().map_err(failed)?;
        Ok(granted as usize)
    }

    /// Gives back `unused` pages of a reservation made today for `lease`'s site, to the fleet's
    /// budget and the site's. A reservation of a day that has passed is not given back: the
    /// budgets have started the new day afresh.
    pub fn return_pages(&mut self, lease: &Lease, unused: usize) -> Result<(), FleetError> {
        if unused == 0 {
            return Ok(());
        }
        let url = self.url.clone();
        let failed = |source| crate::database_error(&url, source);
        let unused = unused as i64;
        let mut transaction = self.client.transaction().map_err(failed)?;
        transaction
            .execute(
                "UPDATE fleet_budget SET reserved = GREATEST(reserved - $1, 0) \
                 WHERE id = 1 AND day = current_date",
                &[&unused],
            )
            .map_err(failed)?;
        transaction
            .execute(
                "UPDATE site_budgets SET reserved = GREATEST(reserved - $2, 0) \
                 WHERE site = $1 AND day = current_date",
                &[&lease.site_id, &unused],
            )
            .map_err(failed)?;
        transaction.commit().map_err(failed)
    }

    /// Time until the database server's next day, when spent budgets start afresh.
    pub fn until_tomorrow(&mut self) -> Result<Duration, FleetError> {
        let row = self
            .client
            .query_one(
                "SELECT EXTRACT(EPOCH FROM (current_date + 1)::timestamptz - now())::float8",
                &[],
            )
            .map_err(|source| self.database_error(source))?;
        let seconds: f64 = row.get(0);
        Ok(Duration::from_secs_f64(seconds.max(0.0)))
    }
}

fn locked_budget(
    transaction: &mut Transaction<'_>,
    query: &str,
    site: Option<i64>,
) -> Result<Budget, postgres::Error> {
    let row = match &site {
        Some(site) => transaction.query_one(query, &[site])?,
        None => transaction.query_one(query, &[])?,
    };
    Ok(Budget {
        pages_per_day: row.get(0),
        reserved_today: row.get(1),
    })
}
