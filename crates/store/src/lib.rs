//! One crawl's state in one embedded database file: the frontier, every fetched page with its
//! raw response, and the records read from it.
//!
//! [`Store`] wraps a SQLite file (through `rusqlite`, with SQLite compiled in so a fresh machine
//! needs nothing installed). A crawl writes three kinds of things:
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
//! Reading back is done by [`Store::resume_state`] (what a crawler needs to go on: the pending
//! frontier in order, every URL ever queued, the record signatures of fetched pages) and by
//! [`Store::for_each_page`] and friends for export.
//!
//! The file is in write-ahead-log mode with `synchronous = NORMAL`: a committed transaction
//! survives the process being killed (the operating system holds the log), which is the failure
//! crawls meet; only a power loss can take back the last transactions. `FULL` would pay a disk
//! flush per page to cover that too; a crawl loses nothing it cannot fetch again, so we do not.
//! Bodies are stored deflated at a fast level: forum HTML shrinks about fivefold, and the
//! compression costs far less than the page analysis that runs on every page anyway.

mod read;
mod records;
mod schema;
mod write;

use std::path::{Path, PathBuf};

pub use records::{
    CrawlSettings, FetchOutcome, FrontierEntry, PageRecord, PostRecord, ResumeState, StoredPage,
    ThreadEntryRecord, UnfetchedFrontier,
};

/// Everything that can go wrong with a store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused an operation.
    #[error("the crawl database {path} failed")]
    Database {
        /// The database file.
        path: PathBuf,
        /// What SQLite said.
        #[source]
        source: rusqlite::Error,
    },
    /// The file is a database, but not one this version of trawl wrote.
    #[error(
        "{path} holds a trawl crawl in format {found}, but this trawl reads format {expected}; \
         export it with the trawl that wrote it, or start a new crawl in another file"
    )]
    WrongFormat {
        /// The database file.
        path: PathBuf,
        /// The format the file declares.
        found: String,
        /// The format this code writes.
        expected: u32,
    },
    /// There is no file at the path to read.
    #[error("there is no crawl database at {path}")]
    Missing {
        /// The path asked for.
        path: PathBuf,
    },
    /// The file exists and is a SQLite database, but holds something else.
    #[error("{path} is not a trawl crawl database; choose another --db file")]
    NotACrawl {
        /// The database file.
        path: PathBuf,
    },
    /// A stored value could not be read back (the file was edited or damaged).
    #[error("the crawl database {path} holds a damaged value: {detail}")]
    Damaged {
        /// The database file.
        path: PathBuf,
        /// Which value and why.
        detail: String,
    },
}

/// A crawl database, open for reading and writing.
#[derive(Debug)]
pub struct Store {
    connection: rusqlite::Connection,
    path: PathBuf,
    /// One raw-deflate compressor reset for every body: a fresh one allocates and clears its
    /// window and hash tables (a few hundred kilobytes) per page, which cost about as much as
    /// compressing a typical forum page at level 1.
    body_compressor: flate2::Compress,
}

impl Store {
    /// Opens the crawl database at `path`, creating it (and its schema) when it does not exist.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let connection =
            rusqlite::Connection::open(path).map_err(|source| StoreError::Database {
                path: path.to_path_buf(),
                source,
            })?;
        let mut store = Store {
            connection,
            path: path.to_path_buf(),
            body_compressor: write::body_compressor(),
        };
        schema::prepare(&mut store)?;
        Ok(store)
    }

    /// Opens the crawl database at `path` for reading only: nothing is created or changed,
    /// so a crawl can be read (audited, exported) while another process still writes it.
    /// A missing file, a file that is not a crawl database, and a crawl of another format are
    /// each refused with their own error.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing {
                path: path.to_path_buf(),
            });
        }
        let connection = rusqlite::Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|source| StoreError::Database {
            path: path.to_path_buf(),
            source,
        })?;
        let store = Store {
            connection,
            path: path.to_path_buf(),
            body_compressor: write::body_compressor(),
        };
        schema::check(&store)?;
        Ok(store)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Wraps a SQLite error with the file it came from.
    fn database_error(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Database {
            path: self.path.clone(),
            source,
        }
    }

    fn damaged(&self, detail: impl Into<String>) -> StoreError {
        StoreError::Damaged {
            path: self.path.clone(),
            detail: detail.into(),
        }
    }
}

/// Removes the crawl database at `path` with its write-ahead log and shared-memory files, as a
/// fresh crawl in the same place needs; files that are not there are no error.
pub fn remove_database_files(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.as_os_str().to_owned();
        file.push(suffix);
        // A file that cannot be removed shows itself when the store is opened again.
        let _ = std::fs::remove_file(file);
    }
}

#[cfg(test)]
mod tests;
