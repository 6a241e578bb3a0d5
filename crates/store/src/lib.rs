//! A crawl's state in a database: the frontier, every fetched page with its raw response, and
//! the records read from it. The database is either one embedded SQLite file per crawl (the
//! default, nothing to install or run) or one PostgreSQL database holding the crawls of many
//! sites, which a fleet of workers on several machines can share.
//!
//! A crawl writes three kinds of things:
//!
//! - [`CrawlSettings`] once, when it begins: the portal, the strategy and the plan, and the
//!   order the frontier hands out URLs in with the patterns that order needs. A rerun of the
//!   same command reads them back instead of learning again, which is what makes a resumed crawl
//!   the same crawl. ([`Store::record_order`] gives a crawl begun before orders were stored
//!   its order, once.)
//! - One [`FetchOutcome`] per fetch, written by [`Store::record_fetch`] in a single transaction
//!   (or with the fetches after it by [`Store::record_fetches`]): the [`PageRecord`] (status,
//!   headers, body, vertex, role, records, list links), the frontier entry marked done, and the
//!   URLs the page added to the frontier. Because all of it commits together, a process killed at
//!   any instant leaves either the whole fetch or none of it, and a rerun fetches again only the
//!   pages that were in flight or not yet written.
//! - The session cookies ([`Store::save_cookies`]), so a resumed crawl is still the returning
//!   visitor the site saw before, and sees the same links.
//!
//! The database also keeps the crawl's running totals ([`Store::summary`]: pages, posts and
//! errors by role, fetch times and rate, the frontier by state), updated by triggers in the
//! transaction of every write, so that a view of a crawl of 100,000 pages reads them at once
//! instead of counting every row (`summary`).
//!
//! Each page is written with what an audit reads of it, reduced (`audit_pages`: its links
//! spelled as pages of its list, its posts as identities), so that an audit of 100,000 pages
//! reads neither bodies nor posts ([`Store::audit_pages`]).
//!
//! Reading back is done by [`Store::resume_state`] (what a crawler needs to go on: the pending
//! frontier in order, every URL ever queued, the record signatures of fetched pages) and by
//! [`Store::for_each_page`] and friends for export.
//!
//! # Two backends behind one type
//!
//! [`Store`] is an enum of the two backends, [`SqliteStore`] and [`PostgresStore`], with one
//! set of methods that hands each call to the backend in hand. We chose the enum over a trait
//! for three reasons. The readers take their visitor as a generic closure, which a trait object
//! cannot offer without boxing every call; the set of backends is closed (both live in this
//! crate, and a third would be a change here anyway); and the crawl driver, the watch and the
//! audit keep holding one concrete `&mut Store` instead of growing a type parameter through
//! every type that borrows a store. A method added to one backend and not the other fails to
//! compile at the enum's `match`, as a trait would make it.
//!
//! Both backends keep the same rows with the same meaning, and every write that is one SQLite
//! transaction (a batch of fetches with their records and frontier changes, a plan replaced
//! with its frontier, the cookies) is one PostgreSQL transaction. The PostgreSQL tables carry a
//! `site` column in every row: a site is one crawl, named by the portal URL the crawl was asked
//! for, and [`StoreLocation`] with a site name opens it ([`Store::open_at`],
//! [`Store::open_existing`]). Page ids count from 1 within each site, as in a file, so the two
//! backends read back the very same [`StoredPage`]s.
//!
//! A fleet worker (`trawl-fleet`) writes a site under a lease: [`PostgresStore::open_leased`]
//! opens a store whose every write transaction first checks the site's lease epoch, with the
//! site's row locked, and fails with [`StoreError::LeaseLost`] once another worker has claimed
//! the site.
//!
//! Pages sampled to learn a plan are kept as they are fetched ([`Store::save_sample`]), apart
//! from the crawl's pages, so that learning cut short goes on from them; each stays until the
//! crawl stores a page of its URL, so that a crawl cut short answers from the ones it had not
//! taken yet.
//!
//! The SQLite file format is unchanged by the PostgreSQL backend: a file written before reads
//! and resumes as it did.

mod audit_pages;
mod compression;
mod location;
mod postgres;
mod records;
mod sqlite;
mod summary;
mod waiting_samples;

#[cfg(any(test, feature = "test-support"))]
pub mod test_support;

use std::path::{Path, PathBuf};

pub use location::StoreLocation;

/// A response fetched while sampling a site to learn its plan, kept as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampledPage {
    /// The URL asked for.
    pub url: String,
    /// The HTTP status.
    pub status: u16,
    /// The response's headers in the order received.
    pub headers: Vec<(String, String)>,
    /// The body as received.
    pub body: Vec<u8>,
    /// When it was fetched; `None` for a page kept before the store recorded the time, which
    /// can still teach a plan but is too old to stand for a page of the crawl.
    pub fetched_at: Option<jiff::Timestamp>,
}
pub use audit_pages::AuditPage;
pub use postgres::PostgresStore;
pub use records::{
    CrawlSettings, FetchOutcome, FrontierEntry, PageBeforePostPatterns, PageRecord, PostRecord,
    ResumeState, StoredPage, ThreadEntryRecord, UnfetchedFrontier,
};
pub use sqlite::{SqliteStore, remove_database_files};
pub use summary::{CrawlSummary, RoleSummary};

/// Everything that can go wrong with a store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused an operation.
    #[error("the crawl database {path} failed")]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// What SQLite said.
        #[source]
        source: rusqlite::Error,
    },
    /// PostgreSQL refused an operation, or could not be reached.
    #[error("the crawl database {database} failed")]
    Postgres {
        /// The database's URL, without its password.
        database: String,
        /// What the PostgreSQL client said.
        #[source]
        source: ::postgres::Error,
    },
    /// The database holds trawl's tables, but not in the layout this version of trawl writes.
    #[error(
        "{database} holds a trawl crawl in format {found}, but this trawl reads format \
         {expected}; export it with the trawl that wrote it, or start a new crawl in another \
         file or database"
    )]
    WrongFormat {
        /// The database file or URL.
        database: String,
        /// The format the database declares.
        found: String,
        /// The format this code writes.
        expected: u32,
    },
    /// There is no file at the path to read.
    #[error("there is no crawl database at {database}")]
    Missing {
        /// The path asked for.
        database: String,
    },
    /// The database exists, but holds something else.
    #[error("{database} is not a trawl crawl database; choose another --db file or database")]
    NotACrawl {
        /// The database file or URL.
        database: String,
    },
    /// A stored value could not be read back (the database was edited or damaged).
    #[error("the crawl database {database} holds a damaged value: {detail}")]
    Damaged {
        /// The database file or URL.
        database: String,
        /// Which value and why.
        detail: String,
    },
    /// A PostgreSQL database holds no crawl of the site asked for.
    #[error("{database} holds no crawl of {site}")]
    NoSuchSite {
        /// The database's URL, without its password.
        database: String,
        /// The site asked for.
        site: String,
    },
    /// The store was opened under a lease of its site (a fleet worker's), and another worker
    /// has claimed the site since: nothing more may be written through it.
    #[error(
        "the lease on {site} in {database} (epoch {epoch}) was taken over by another worker; \
         nothing was written"
    )]
    LeaseLost {
        /// The database's URL, without its password.
        database: String,
        /// The site.
        site: String,
        /// The lease epoch this store was opened under.
        epoch: i64,
    },
    /// A PostgreSQL database holds several crawls and none was named.
    #[error(
        "{database} holds the crawls of {} sites; name one with --site ({})",
        sites.len(),
        sites.join(", ")
    )]
    WhichSite {
        /// The database's URL, without its password.
        database: String,
        /// The sites it holds.
        sites: Vec<String>,
    },
}

/// A crawl database, open for reading and writing (or for reading only). Both backends are
/// boxed: they are a few hundred bytes each (the body compressor, the connection), and a store
/// is made once per crawl and then only borrowed.
#[derive(Debug)]
pub enum Store {
    /// One crawl in an embedded SQLite file.
    Sqlite(Box<SqliteStore>),
    /// One site's crawl in a PostgreSQL database.
    Postgres(Box<PostgresStore>),
}

/// Which bodies a reading of pages inflates.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Bodies<'a> {
    All,
    None,
    /// Those of pages with one of these roles.
    OfRoles(&'a [&'a str]),
}

/// Hands a call to the backend in hand: the same expression, typed for each.
macro_rules! on_backend {
    ($store:expr, $backend:ident => $call:expr) => {
        match $store {
            Store::Sqlite($backend) => $call,
            Store::Postgres($backend) => $call,
        }
    };
}

/// The `meta` key of a named document (see [`Store::record_fetch_with_document`]): prefixed,
/// so that no name can replace a setting.
fn document_key(name: &str) -> String {
    format!("document:{name}")
}

impl Store {
    /// Opens the crawl database file at `path`, creating it (and its schema) when it does not
    /// exist.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        SqliteStore::open(path).map(|store| Store::Sqlite(Box::new(store)))
    }

    /// Opens the crawl database file at `path` for reading only: nothing is created or changed,
    /// so a crawl can be read (audited, exported) while another process still writes it.
    /// A missing file, a file that is not a crawl database, and a crawl of another format are
    /// each refused with their own error.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        SqliteStore::open_read_only(path).map(|store| Store::Sqlite(Box::new(store)))
    }

    /// Opens the crawl of `site` (its portal URL) at `location`, creating the file, or the
    /// site's rows in PostgreSQL (and the tables, in an empty database), when it is not there.
    /// A file holds one crawl whatever `site` says.
    pub fn open_at(location: &StoreLocation, site: &str) -> Result<Store, StoreError> {
        match location {
            StoreLocation::File(path) => Store::open(path),
            StoreLocation::Postgres(url) => PostgresStore::open(url, site).map(Store::postgres),
        }
    }

    /// Opens a crawl that must be there already: the file at `location`, or in PostgreSQL the
    /// crawl of `site`, or the only crawl the database holds when `site` is `None`. With
    /// `read_only`, nothing is created or changed. A file holds one crawl whatever `site` says.
    pub fn open_existing(
        location: &StoreLocation,
        site: Option<&str>,
        read_only: bool,
    ) -> Result<Store, StoreError> {
        match location {
            StoreLocation::File(path) if read_only => Store::open_read_only(path),
            StoreLocation::File(path) if !path.exists() => Err(StoreError::Missing {
                database: path.display().to_string(),
            }),
            StoreLocation::File(path) => Store::open(path),
            StoreLocation::Postgres(url) => {
                PostgresStore::open_existing(url, site, read_only).map(Store::postgres)
            }
        }
    }

    /// A PostgreSQL store, boxed.
    pub fn postgres(store: PostgresStore) -> Store {
        Store::Postgres(Box::new(store))
    }

    /// Where the store lives: its file, or its PostgreSQL URL (shown without a password).
    pub fn location(&self) -> StoreLocation {
        match self {
            Store::Sqlite(store) => StoreLocation::File(store.path().to_path_buf()),
            Store::Postgres(store) => StoreLocation::Postgres(store.url().to_string()),
        }
    }

    /// Whether opening this store created it: a new file, or a site new to its PostgreSQL
    /// database.
    pub fn was_created(&self) -> bool {
        on_backend!(self, store => store.was_created())
    }

    /// Closes the store and removes what it holds: the file, or the site's rows. A crawl that
    /// could not even start removes the store it had just created, so that a rerun starts clean.
    pub fn discard(self) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(store) => {
                (*store).discard();
                Ok(())
            }
            Store::Postgres(store) => (*store).discard(),
        }
    }

    /// Records what a new crawl starts with and queues its portal. Refused when the store already
    /// holds a crawl (read [`Store::settings`] first and resume instead). The pages kept while
    /// sampling ([`Store::samples`]) stay: each is let go in the transaction storing a page of
    /// its URL ([`Store::record_fetches`]), or with the rest by [`Store::let_samples_go`] or
    /// [`Store::replace_plan`].
    pub fn begin_crawl(
        &mut self,
        settings: &CrawlSettings,
        portal: &FrontierEntry,
    ) -> Result<(), StoreError> {
        on_backend!(self, store => store.begin_crawl(settings, portal))
    }

    /// The settings of the crawl this store holds, or `None` for a new store.
    pub fn settings(&self) -> Result<Option<CrawlSettings>, StoreError> {
        on_backend!(self, store => store.settings())
    }

    /// Records the frontier order of a crawl begun before orders were stored (with its patterns,
    /// or none), so that later resumes keep it. Refused on a store that holds no crawl or that
    /// already names an order: a crawl's order is chosen once.
    pub fn record_order(
        &mut self,
        order: &str,
        patterns_json: Option<&str>,
    ) -> Result<(), StoreError> {
        on_backend!(self, store => store.record_order(order, patterns_json))
    }

    /// Replaces the crawl's plan with one learned again (the forum's templates changed) and
    /// returns the new generation. Pages fetched from now on carry it. Pages the old plan could
    /// not place (answered, but matching no vertex) go back into the frontier, at their old
    /// places in it, so the new plan reads them and follows their links. The samples kept from
    /// the first learning are let go in the same transaction: they show the old templates.
    pub fn replace_plan(&mut self, plan_json: &str) -> Result<u32, StoreError> {
        on_backend!(self, store => store.replace_plan(plan_json, records::PlanChange::Relearned))
    }

    /// Replaces the crawl's plan with the same plan deciding otherwise on some of its arcs (a
    /// hand edit, as the console saves one) and returns the new generation, as
    /// [`Store::replace_plan`] does; the plan's vertex numbers keep naming the same vertices,
    /// so pages of the generations before still show under their vertices
    /// ([`Store::plan_vertices_since`]).
    pub fn replace_plan_decisions(&mut self, plan_json: &str) -> Result<u32, StoreError> {
        on_backend!(self, store => store.replace_plan(plan_json, records::PlanChange::Decisions))
    }

    /// The first plan generation whose vertex numbers name the vertices of the plan held now:
    /// the generation of the last plan learned, later generations having changed decisions
    /// only. A page's vertex ([`StoredPage::plan_generation`]) names a vertex of the plan now
    /// when its generation is this one or later. A crawl whose plan was replaced before the
    /// store kept this answers its current generation: older numbers are not known to hold.
    pub fn plan_vertices_since(&self) -> Result<u32, StoreError> {
        on_backend!(self, store => store.plan_vertices_since())
    }

    /// Writes one fetch, its records, and its frontier changes in one transaction. Returns the
    /// page's id (its place in fetch order).
    pub fn record_fetch(&mut self, outcome: &FetchOutcome) -> Result<i64, StoreError> {
        let ids = self.record_fetches(std::slice::from_ref(outcome))?;
        Ok(ids[0])
    }

    /// Writes several fetches, in order, in one transaction: all of them or none. Returns their
    /// pages' ids. A kept sample of a page's URL is let go in the same transaction, so that the
    /// store holds exactly the samples the crawl has not used yet.
    ///
    /// A transaction per page rewrites the same last pages of every table and index each time,
    /// and a commit costs about as much again (a round trip more, in PostgreSQL); a crawl driver
    /// that has several pages ready at once writes them together. The store is still always the
    /// state after a whole number of fetches.
    pub fn record_fetches(&mut self, outcomes: &[FetchOutcome]) -> Result<Vec<i64>, StoreError> {
        on_backend!(self, store => store.record_fetches(outcomes))
    }

    /// Writes one fetch as [`Store::record_fetch`] does and, in the same transaction, the named
    /// document `name` (replacing the one of that name): a driver's state that changes with each
    /// page it stores (`trawl watch` keeps its revisit policy's budget and timing so), which
    /// therefore never stands before or after the pages. Returns the page's id.
    pub fn record_fetch_with_document(
        &mut self,
        outcome: &FetchOutcome,
        name: &str,
        document: &str,
    ) -> Result<i64, StoreError> {
        on_backend!(self, store => store.record_fetch_with_document(outcome, name, document))
    }

    /// The document last written under `name` by [`Store::record_fetch_with_document`], if any.
    pub fn document(&self, name: &str) -> Result<Option<String>, StoreError> {
        on_backend!(self, store => store.document(name))
    }

    /// Puts `entries` back into the frontier to be fetched: URLs never queued are queued at
    /// its end, and URLs already fetched or passed over wait again (a failed page asked for a
    /// second time). Returns how many now wait that did not before. A crawler resumed from the
    /// store afterwards fetches them; the pages they bring are stored as any fetch is.
    pub fn requeue(&mut self, entries: &[FrontierEntry]) -> Result<usize, StoreError> {
        on_backend!(self, store => store.requeue(entries))
    }

    /// Replaces the stored session cookies.
    pub fn save_cookies(&mut self, cookies: &[(String, String)]) -> Result<(), StoreError> {
        on_backend!(self, store => store.save_cookies(cookies))
    }

    /// The frontier, the seen set and the fetched pages' signatures, as the last committed
    /// fetch left them.
    pub fn resume_state(&self) -> Result<ResumeState, StoreError> {
        on_backend!(self, store => store.resume_state())
    }

    /// Keeps one page fetched while sampling the site to learn its plan, at once (not in a
    /// batch), so that learning cut short by a kill or a lease's end goes on from the pages
    /// sampled so far instead of fetching them again.
    pub fn save_sample(&mut self, page: &SampledPage) -> Result<(), StoreError> {
        on_backend!(self, store => store.save_sample(page))
    }

    /// Lets go of every kept sample: the crawl ran dry, and those it did not take were of
    /// pages it never asked for.
    pub fn let_samples_go(&mut self) -> Result<(), StoreError> {
        on_backend!(self, store => store.let_samples_go())
    }

    /// The sampled pages kept so far, in the order they were fetched.
    pub fn samples(&self) -> Result<Vec<SampledPage>, StoreError> {
        on_backend!(self, store => store.samples())
    }

    /// The stored session cookies.
    pub fn cookies(&self) -> Result<Vec<(String, String)>, StoreError> {
        on_backend!(self, store => store.cookies())
    }

    /// Pages fetched so far.
    pub fn page_count(&self) -> Result<usize, StoreError> {
        on_backend!(self, store => store.page_count())
    }

    /// Posts stored so far.
    pub fn post_count(&self) -> Result<usize, StoreError> {
        on_backend!(self, store => store.post_count())
    }

    /// The crawl's totals (pages, posts and errors, by role too, the fetch times and rate,
    /// the frontier by state) as the last committed write left them, read without counting
    /// any page (see [`CrawlSummary`]); `None` for a store written before the totals existed
    /// and opened for reading only, which has none until it is next opened for writing.
    pub fn summary(&self) -> Result<Option<CrawlSummary>, StoreError> {
        on_backend!(self, store => store.summary())
    }

    /// Calls `visit` with every fetched page in fetch order, records included. With `bodies`
    /// false the bodies are left empty, which keeps an export that does not need them fast.
    pub fn for_each_page(
        &self,
        bodies: bool,
        visit: impl FnMut(StoredPage),
    ) -> Result<(), StoreError> {
        let bodies = if bodies { Bodies::All } else { Bodies::None };
        on_backend!(self, store => store.visit_pages(bodies, None, 0, visit))
    }

    /// Calls `visit` with every page fetched after the page of id `after` (ids count fetches
    /// from 1), in fetch order, records included: what a reader that kept the pages up to
    /// `after` needs to catch up with a crawl still writing, without reading them all again.
    pub fn for_each_page_after(
        &self,
        after: i64,
        bodies: bool,
        visit: impl FnMut(StoredPage),
    ) -> Result<(), StoreError> {
        let bodies = if bodies { Bodies::All } else { Bodies::None };
        on_backend!(self, store => store.visit_pages(bodies, None, after, visit))
    }

    /// Calls `visit` with every fetched page in fetch order, with each post's text cut to its
    /// first `post_text_chars` characters and the body only of pages whose role is one of
    /// `bodies_of_roles`: what an audit of the crawl reads (which pages, their links and
    /// records, and the whole links of list pages), at a fraction of the reading.
    pub fn for_each_page_outline(
        &self,
        post_text_chars: usize,
        bodies_of_roles: &[&str],
        visit: impl FnMut(StoredPage),
    ) -> Result<(), StoreError> {
        let bodies = Bodies::OfRoles(bodies_of_roles);
        on_backend!(self, store => store.visit_pages(bodies, Some(post_text_chars), 0, visit))
    }

    /// The body of page `id` (its place in fetch order) as received, `None` when there is no
    /// such page: one page's body for a view that shows it, where reading every page would
    /// read every body.
    pub fn page_body(&self, id: i64) -> Result<Option<Vec<u8>>, StoreError> {
        on_backend!(self, store => store.page_body(id))
    }

    /// Every fetched page in fetch order as an audit reads it (`audit_pages`): its status,
    /// role and links, its posts as their identities, its thread entries; read from the
    /// digests kept beside the pages, never from a body or a post's text but for a page
    /// written without its digest.
    pub fn audit_pages(&self) -> Result<Vec<AuditPage>, StoreError> {
        on_backend!(self, store => store.audit_pages())
    }

    /// The frontier's URLs that were not fetched: those waiting (queued, the crawl stopped
    /// before them) and those passed over (queued, then found to be another spelling of a URL
    /// already queued).
    pub fn unfetched_frontier(&self) -> Result<UnfetchedFrontier, StoreError> {
        on_backend!(self, store => store.unfetched_frontier())
    }

    /// The pages of the current plan, answered (2xx) and holding at most one post, that were
    /// fetched before the first page of their vertex showing one of the post patterns the
    /// vertex is now known by ([`PageRecord::post_pattern`]), in fetch order. A crawler reads a
    /// page of one post through the patterns its vertex's posts were seen repeating in (a lone
    /// reply beside an opening post shown apart), so such a page, read before a pattern was
    /// known, may hold posts its stored records lack. The list depends on the stored pages
    /// alone: a reading of them cut short by a kill is found again.
    pub fn pages_before_post_patterns(&self) -> Result<Vec<PageBeforePostPatterns>, StoreError> {
        on_backend!(self, store => store.pages_before_post_patterns())
    }

    /// Replaces the posts of page `id` with `posts`, read again from its stored body, in one
    /// transaction with the crawl's totals and the page's audit digest. The posts keep their
    /// identity (the page and their position on it), so a post read the same is the same
    /// post, and replacing with the same posts changes nothing. Nothing else of the page
    /// changes: its signature stays what the crawler compared when it was fetched, so a
    /// resumed crawl replays the same spellings.
    pub fn replace_posts(&mut self, id: i64, posts: &[PostRecord]) -> Result<(), StoreError> {
        on_backend!(self, store => store.replace_posts(id, posts))
    }
}

#[cfg(test)]
mod tests;
