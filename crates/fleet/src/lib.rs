//! Many forums, many machines: stateless worker processes sharing one PostgreSQL database,
//! each crawling the sites it holds a lease on.
//!
//! The unit of work is a site (a row of the store's `sites` table, one crawl). A worker claims
//! sites whose work is due and that no one holds, for a time slice:
//!
//! ```sql
//! UPDATE sites SET lease_holder = $worker, lease_expires = now() + $slice,
//!        lease_epoch = lease_epoch + 1
//! WHERE id IN (SELECT id FROM sites WHERE <due and free> ORDER BY next_due
//!              FOR UPDATE SKIP LOCKED LIMIT $k)
//! RETURNING id, url, lease_epoch, now() - last_request_end
//! ```
//!
//! `SKIP LOCKED` lets workers claim at the same instant without waiting on each other or
//! claiming one site twice: each passes over the rows another is claiming. A worker then
//! heartbeats its leases while it works ([`Fleet::heartbeat`]) and gives each back when its
//! slice ends or its budget is spent ([`Fleet::give_back`]), saying when the site is due again.
//!
//! A lease that is not renewed expires, and another worker may claim the site: a worker that
//! was presumed dead (stopped by the kernel, cut off from the database) must then not write
//! over its successor. Every claim adds one to the site's `lease_epoch`, and a worker writes
//! only through a store opened for its lease ([`Fleet::open_store`]), which checks in each
//! write transaction, with the site's row locked, that the epoch is still the one it claimed,
//! and fails with [`trawl_store::StoreError::LeaseLost`] when it is not (fencing). The check
//! and the write commit together, so no write of an old holder lands after a new claim.
//! Politeness per site holds by construction: one holder at a time fetches from a site. Across
//! a hand-off too: every write under a lease notes its instant in the site's row
//! (`last_request_end`), and a claim returns how long ago that was ([`Lease::quiet_for`]), so
//! the next holder (another worker, or the same one with a new fetch stack) waits out what is
//! left of the delay before its first request.
//!
//! Budgets of pages a day, one for the fleet and one per site, hold across workers: a worker
//! reserves a lease's pages within both before it fetches and gives back what it did not fetch
//! (see the `budget` module).
//!
//! Once a site's crawl is complete its work becomes the watch, which keeps it fresh: the site
//! is due when its revisit policy's next fetch is (see the `fresh` module).
//!
//! Lease times are the database server's clock (`now()`), the one clock every worker shares;
//! a worker's own clock could run ahead of or behind another's. Transactions stay short: a
//! claim, a heartbeat or a give-back is one statement, and no transaction stays open across
//! a fetch.

mod audits;
mod budget;
mod fresh;

use std::time::Duration;

pub use audits::AuditSummary;
pub use budget::Budget;
use postgres::{Client, NoTls};
use trawl_store::{PostgresStore, Store, StoreError};

/// Everything that can go wrong with leases.
#[derive(Debug, thiserror::Error)]
pub enum FleetError {
    /// PostgreSQL refused an operation, or could not be reached.
    #[error("the fleet database {database} failed")]
    Database {
        /// The database's URL, without its password.
        database: String,
        /// What the PostgreSQL client said.
        #[source]
        source: postgres::Error,
    },
    /// Opening the database's tables, or a site's store, failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Another worker claimed the site since this lease was taken: the lease is gone.
    #[error("the lease of {site} (epoch {epoch}) was taken over by another worker")]
    LeaseLost {
        /// The site.
        site: String,
        /// The epoch this lease had.
        epoch: i64,
    },
}

/// A site held by a worker until its lease expires or is given back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    /// The site's id in the `sites` table.
    pub site_id: i64,
    /// The site's URL, its name.
    pub site: String,
    /// The site's lease epoch when this lease was claimed; writes fenced by it.
    pub epoch: i64,
    /// The worker holding it.
    pub holder: String,
    /// How long before the claim the last write under an earlier lease of the site was made,
    /// which came after every response it stored: the least quiet the site has had from the
    /// fleet, from which the new holder keeps the politeness delay (a request of the earlier
    /// holder that was never written ended before its lease expired). `None` for a site no
    /// lease has written to.
    pub quiet_for: Option<Duration>,
}

/// What `trawl fleet status` shows of a site.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteStatus {
    /// The site's URL.
    pub site: String,
    /// How its crawl goes: `None` before its first lease begins it, else the strategy it was
    /// begun with (`plan`, learned on that lease, or `bfs`). Read from the crawl's own settings
    /// rather than kept twice.
    pub strategy: Option<String>,
    /// Pages stored for it.
    pub pages: i64,
    /// Seconds until its work is due (negative: overdue).
    pub due_in_seconds: f64,
    /// The worker holding its lease, when one does and the lease has not expired.
    pub lease_holder: Option<String>,
    /// Seconds left on that lease.
    pub lease_left_seconds: Option<f64>,
    /// How many times the site was claimed.
    pub lease_epoch: i64,
    /// The site's own budget of pages a day and what is reserved of it today.
    pub budget: Budget,
    /// What the last audit of its crawl found, once a crawl ran dry and was audited.
    pub audit: Option<AuditSummary>,
}

/// A connection to the fleet's database.
pub struct Fleet {
    client: Client,
    /// The URL as given, for the stores of leased sites.
    url: String,
}

impl std::fmt::Debug for Fleet {
    /// The client's own debug output names its connection's internals; the database is what a
    /// reader of a log needs.
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Fleet")
            .field(
                "database",
                &trawl_store::StoreLocation::parse(&self.url).to_string(),
            )
            .finish_non_exhaustive()
    }
}

/// Sites that are due and that no one holds, the first `$2` by due time, locked for this claim
/// and skipped by claims running at the same time.
const CLAIM: &str = "UPDATE sites SET lease_holder = $1, \
     lease_expires = now() + make_interval(secs => $3), lease_epoch = lease_epoch + 1 \
     WHERE id IN (SELECT id FROM sites \
         WHERE next_due <= now() AND (lease_expires IS NULL OR lease_expires <= now()) \
         ORDER BY next_due, id FOR UPDATE SKIP LOCKED LIMIT $2) \
     RETURNING id, url, lease_epoch, \
         EXTRACT(EPOCH FROM now() - last_request_end)::float8";

impl Fleet {
    /// Connects to the database at `url`, creating trawl's tables in an empty database.
    pub fn connect(url: &str) -> Result<Fleet, FleetError> {
        PostgresStore::prepare_database(url)?;
        let mut client =
            Client::connect(url, NoTls).map_err(|source| database_error(url, source))?;
        client
            .batch_execute(budget::SCHEMA)
            .and_then(|()| client.batch_execute(audits::SCHEMA))
            .and_then(|()| client.batch_execute(fresh::SCHEMA))
            .map_err(|source| database_error(url, source))?;
        Ok(Fleet {
            client,
            url: url.to_string(),
        })
    }

    /// Replaces the connection with a new one to the same database (after the server dropped
    /// the old one, or restarted).
    pub fn reconnect(&mut self) -> Result<(), FleetError> {
        self.client = Client::connect(&self.url, NoTls)
            .map_err(|source| database_error(&self.url, source))?;
        Ok(())
    }

    /// Registers `sites` (portal URLs), due at once; sites registered before are left as they
    /// are. Returns how many were new.
    pub fn add_sites(&mut self, sites: &[String]) -> Result<usize, FleetError> {
        let added = self
            .client
            .execute(
                "INSERT INTO sites (url) SELECT url FROM UNNEST($1::text[]) AS added (url) \
                 ON CONFLICT (url) DO NOTHING",
                &[&sites],
            )
            .map_err(|source| self.database_error(source))?;
        Ok(added as usize)
    }

    /// Claims up to `most` due sites that no one holds for `worker`, each for `slice`.
    pub fn claim(
        &mut self,
        worker: &str,
        most: usize,
        slice: Duration,
    ) -> Result<Vec<Lease>, FleetError> {
        let rows = self
            .client
            .query(CLAIM, &[&worker, &(most as i64), &slice.as_secs_f64()])
            .map_err(|source| self.database_error(source))?;
        let mut leases: Vec<Lease> = rows
            .iter()
            .map(|row| Lease {
                site_id: row.get(0),
                site: row.get(1),
                epoch: row.get(2),
                holder: worker.to_string(),
                quiet_for: row
                    .get::<_, Option<f64>>(3)
                    .map(|seconds| Duration::from_secs_f64(seconds.max(0.0))),
            })
            .collect();
        leases.sort_by_key(|lease| lease.site_id);
        Ok(leases)
    }

    /// Renews `lease` for another `slice` from now; fails with [`FleetError::LeaseLost`] when
    /// another worker has claimed the site since.
    pub fn heartbeat(&mut self, lease: &Lease, slice: Duration) -> Result<(), FleetError> {
        let renewed = self
            .client
            .execute(
                "UPDATE sites SET lease_expires = now() + make_interval(secs => $3) \
                 WHERE id = $1 AND lease_epoch = $2",
                &[&lease.site_id, &lease.epoch, &slice.as_secs_f64()],
            )
            .map_err(|source| self.database_error(source))?;
        held(renewed, lease)
    }

    /// Gives `lease` back, the site due again after `due_in`; fails with
    /// [`FleetError::LeaseLost`] (and changes nothing) when another worker holds it now.
    pub fn give_back(&mut self, lease: &Lease, due_in: Duration) -> Result<(), FleetError> {
        let released = self
            .client
            .execute(
                "UPDATE sites SET lease_holder = NULL, lease_expires = NULL, \
                 next_due = now() + make_interval(secs => $3) \
                 WHERE id = $1 AND lease_epoch = $2",
                &[&lease.site_id, &lease.epoch, &due_in.as_secs_f64()],
            )
            .map_err(|source| self.database_error(source))?;
        held(released, lease)
    }

    /// Whether `lease` is still the site's current lease (no one has claimed the site since).
    pub fn holds(&mut self, lease: &Lease) -> Result<bool, FleetError> {
        let row = self
            .client
            .query_opt(
                "SELECT 1 FROM sites WHERE id = $1 AND lease_epoch = $2",
                &[&lease.site_id, &lease.epoch],
            )
            .map_err(|source| self.database_error(source))?;
        Ok(row.is_some())
    }

    /// The store of the site `lease` holds, whose every write checks that the lease is still
    /// held (see the crate's documentation).
    pub fn open_store(&self, lease: &Lease) -> Result<Store, FleetError> {
        Ok(Store::postgres(PostgresStore::open_leased(
            &self.url,
            &lease.site,
            lease.epoch,
        )?))
    }

    /// Every site with its pages, due time and lease, by id.
    pub fn status(&mut self) -> Result<Vec<SiteStatus>, FleetError> {
        let rows = self
            .client
            .query(
                "SELECT url, pages_written, \
                 EXTRACT(EPOCH FROM next_due - now())::float8, \
                 CASE WHEN lease_expires > now() THEN lease_holder END, \
                 CASE WHEN lease_expires > now() \
                     THEN EXTRACT(EPOCH FROM lease_expires - now())::float8 END, \
                 lease_epoch, \
                 (SELECT value FROM meta WHERE meta.site = sites.id AND key = 'strategy'), \
                 site_budgets.pages_per_day, \
                 CASE WHEN site_budgets.day = current_date THEN site_budgets.reserved \
                     ELSE 0 END, \
                 site_audits.gaps, site_audits.posts_missing \
                 FROM sites LEFT JOIN site_budgets ON site_budgets.site = sites.id \
                 LEFT JOIN site_audits ON site_audits.site = sites.id \
                 ORDER BY id",
                &[],
            )
            .map_err(|source| self.database_error(source))?;
        Ok(rows
            .iter()
            .map(|row| SiteStatus {
                site: row.get(0),
                pages: row.get(1),
                due_in_seconds: row.get(2),
                lease_holder: row.get(3),
                lease_left_seconds: row.get(4),
                lease_epoch: row.get(5),
                strategy: row.get(6),
                budget: Budget {
                    pages_per_day: row.get(7),
                    reserved_today: row.get::<_, Option<i64>>(8).unwrap_or(0),
                },
                audit: match (row.get(9), row.get(10)) {
                    (Some(gaps), Some(posts_missing)) => Some(AuditSummary {
                        gaps,
                        posts_missing,
                    }),
                    _ => None,
                },
            })
            .collect())
    }

    fn database_error(&self, source: postgres::Error) -> FleetError {
        database_error(&self.url, source)
    }
}

fn database_error(url: &str, source: postgres::Error) -> FleetError {
    FleetError::Database {
        database: trawl_store::StoreLocation::parse(url).to_string(),
        source,
    }
}

/// `Ok` when an update of a leased site's row changed it (the epoch was still the lease's).
fn held(rows_changed: u64, lease: &Lease) -> Result<(), FleetError> {
    if rows_changed == 1 {
        Ok(())
    } else {
        Err(FleetError::LeaseLost {
            site: lease.site.clone(),
            epoch: lease.epoch,
        })
    }
}

/// How a worker takes its share of the fleet's work.
#[derive(Debug, Clone)]
pub struct WorkerOptions {
    /// The worker's name, as leases show it (host and process, say).
    pub worker: String,
    /// Sites claimed at once.
    pub sites_at_once: usize,
    /// How long a lease lasts unless renewed.
    pub slice: Duration,
    /// How long a site whose work failed waits before it is due again.
    pub retry_after: Duration,
}

/// Renews the lease a piece of work runs under; work that runs longer than a slice calls it
/// between fetches.
#[derive(Debug)]
pub struct Heartbeat<'fleet> {
    fleet: &'fleet mut Fleet,
    lease: &'fleet Lease,
    slice: Duration,
}

impl Heartbeat<'_> {
    /// Renews the lease for another slice; [`FleetError::LeaseLost`] when it is gone, after
    /// which the work must stop.
    ///
    /// A heartbeat whose connection fails (the server dropped it, or restarted) connects again
    /// once and renews through the new connection. The work goes on between heartbeats on
    /// connections of its own, so a heartbeat that only failed would let the lease run out
    /// while the work still fetches: another worker would then claim the site and two would
    /// fetch from one forum at once until the first one's next write was refused. The lease
    /// itself is a row, not a connection, so a new connection renews it as long as its epoch
    /// is still this lease's.
    pub fn beat(&mut self) -> Result<(), FleetError> {
        match self.fleet.heartbeat(self.lease, self.slice) {
            Err(FleetError::Database { .. }) => {
                self.fleet.reconnect()?;
                self.fleet.heartbeat(self.lease, self.slice)
            }
            outcome => outcome,
        }
    }

    /// Reserves up to `wanted` pages of today's budgets for this lease (see
    /// [`Fleet::reserve_pages`]); the work fetches no more than it was granted.
    pub fn reserve_pages(&mut self, wanted: usize) -> Result<usize, FleetError> {
        self.fleet.reserve_pages(self.lease, wanted)
    }

    /// Gives back the pages of this lease's reservation it did not fetch.
    pub fn return_pages(&mut self, unused: usize) -> Result<(), FleetError> {
        self.fleet.return_pages(self.lease, unused)
    }

    /// Records what the audit of the site's crawl found (see [`Fleet::record_audit`]).
    pub fn record_audit(&mut self, audit: AuditSummary) -> Result<(), FleetError> {
        self.fleet.record_audit(self.lease, audit)
    }

    /// Time until today's budgets start afresh.
    pub fn until_tomorrow(&mut self) -> Result<Duration, FleetError> {
        self.fleet.until_tomorrow()
    }
}

/// What one round of a worker did.
#[derive(Debug)]
pub struct Round<E> {
    /// Sites whose work ended and that were given back.
    pub done: Vec<Lease>,
    /// Sites whose work failed under a lease still held, with the failure; given back, due
    /// again after [`WorkerOptions::retry_after`].
    pub failed: Vec<(Lease, E)>,
}

impl<E> Round<E> {
    /// Whether the round found no work: no site was due and free.
    pub fn found_nothing(&self) -> bool {
        self.done.is_empty() && self.failed.is_empty()
    }
}

/// One round of a worker: claims up to `options.sites_at_once` due sites and runs `work` on
/// each with the site's fenced store and a [`Heartbeat`], giving the site back when the work
/// returns, due again after the duration it returns. When the work fails, the round asks
/// whether the lease is still held: a site whose lease was lost meanwhile (its writes and
/// heartbeats refused) is left to its new holder; a site whose own work failed (a forum that
/// does not answer, a plan that cannot be learned) is given back to be tried again after
/// `options.retry_after`, so one broken forum never stops a worker. A failure of the fleet's
/// database ends the round; the leases it leaves expire after their slice.
pub fn work_round<E>(
    fleet: &mut Fleet,
    options: &WorkerOptions,
    mut work: impl FnMut(&Lease, &mut Store, &mut Heartbeat<'_>) -> Result<Duration, E>,
) -> Result<Round<E>, FleetError> {
    let leases = fleet.claim(&options.worker, options.sites_at_once, options.slice)?;
    let mut round = Round {
        done: Vec::with_capacity(leases.len()),
        failed: Vec::new(),
    };
    for lease in leases {
        let mut store = fleet.open_store(&lease)?;
        let mut heartbeat = Heartbeat {
            fleet,
            lease: &lease,
            slice: options.slice,
        };
        let (due_in, failure) = match work(&lease, &mut store, &mut heartbeat) {
            Ok(due_in) => (due_in, None),
            Err(_) if !fleet.holds(&lease)? => continue,
            Err(failure) => (options.retry_after, Some(failure)),
        };
        match fleet.give_back(&lease, due_in) {
            Ok(()) => match failure {
                None => round.done.push(lease),
                Some(failure) => round.failed.push((lease, failure)),
            },
            Err(FleetError::LeaseLost { .. }) => {}
            Err(error) => return Err(error),
        }
    }
    Ok(round)
}

#[cfg(test)]
mod tests;
