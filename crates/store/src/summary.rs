//! A crawl's running totals, kept by the database itself.
//!
//! A view of a crawl that is still being written (`trawl serve`'s overview) wants the pages,
//! posts, errors, fetch rate and frontier of 100,000 pages in milliseconds, and counting them
//! again reads every page and every frontier entry (half a second and more once the crawl is
//! that big). So the store keeps the totals beside the rows they count: three small tables
//! (`summary`, `role_summary`, `fetch_seconds`) that triggers on `pages`, `posts` and
//! `frontier` bring up to date in the very statement that writes a row, hence in the same
//! transaction as every write. We chose triggers over updating the totals in each write path
//! of the two backends so that no path can forget them (a fetch, a requeue, a plan replaced,
//! a URL passed over), and so that a trawl built before the totals existed, still writing the
//! same file or database, keeps them right too.
//!
//! A store written before the totals gains them on its first opening for writing: the tables
//! and triggers are made and filled from the rows already there, in one transaction that holds
//! the writers back meanwhile (SQLite's write lock; in PostgreSQL the tables' locks that making
//! a trigger takes). A store of that age opened for reading only has no totals to read:
//! [`crate::Store::summary`] answers `None`, and a reader counts as before.

use jiff::Timestamp;

/// A crawl's totals as its last committed write left them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrawlSummary {
    /// Pages stored (every fetch, revisits included).
    pub pages: usize,
    /// Posts stored.
    pub posts: usize,
    /// Fetches that got no answer (status 0) or an error status (400 and above).
    pub errors: usize,
    /// Pages and posts by the role of the page's vertex, `None` for pages no vertex placed;
    /// ordered by role name, the unplaced first.
    pub by_role: Vec<RoleSummary>,
    /// Frontier entries waiting to be fetched.
    pub frontier_waiting: usize,
    /// Frontier entries done: fetched, or passed over as another spelling of a URL queued.
    pub frontier_done: usize,
    /// The first and the last fetch, to the second (`None` before the first).
    pub first_fetch: Option<Timestamp>,
    /// See `first_fetch`.
    pub last_fetch: Option<Timestamp>,
    /// Pages fetched in the minute up to the last fetch: later than 60 seconds before it, to
    /// the second.
    pub pages_in_last_minute: usize,
}

/// The pages of one role and the posts read from them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoleSummary {
    /// The role's name, `None` for pages no vertex placed.
    pub role: Option<String>,
    /// Pages stored of that role.
    pub pages: usize,
    /// Posts read from them.
    pub posts: usize,
}

/// The text the summary tables keep for pages without a role (a role is a vertex's role name,
/// never empty).
pub(crate) const NO_ROLE: &str = "";

/// A role as the summary tables keep it, read back.
pub(crate) fn role_of(kept: String) -> Option<String> {
    (kept != NO_ROLE).then_some(kept)
}

/// The seconds since the epoch a summary keeps, as a timestamp (`None` for a value outside
/// jiff's range, which no fetch time is).
pub(crate) fn timestamp_of(second: Option<i64>) -> Option<Timestamp> {
    second.and_then(|second| Timestamp::from_second(second).ok())
}
