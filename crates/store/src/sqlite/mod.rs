//! The embedded backend: one crawl in one SQLite file (through `rusqlite`, with SQLite compiled
//! in so a fresh machine needs nothing installed).
//!
//! The file is in write-ahead-log mode with `synchronous = NORMAL`: a committed transaction
//! survives the process being killed (the operating system holds the log), which is the failure
//! crawls meet; only a power loss can take back the last transactions. `FULL` would pay a disk
//! flush per page to cover that too; a crawl loses nothing it cannot fetch again, so we do not.

mod audit_pages;
mod read;
mod rereading;
mod samples;
mod schema;
mod summary;
mod write;

use std::path::{Path, PathBuf};

use crate::StoreError;
use crate::compression::body_compressor;
use crate::waiting_samples::WaitingSamples;

/// A crawl database file, open for reading and writing (or for reading only).
#[derive(Debug)]
pub struct SqliteStore {
    connection: rusqlite::Connection,
    path: PathBuf,
    /// One raw-deflate compressor reset for every body: a fresh one allocates and clears its
    /// window and hash tables (a few hundred kilobytes) per page, which cost about as much as
    /// compressing a typical forum page at level 1.
    body_compressor: flate2::Compress,
    /// The file did not exist before this store opened it.
    created: bool,
    /// The kept samples whose pages the crawl has yet to store.
    waiting_samples: WaitingSamples,
}

impl SqliteStore {
    /// Opens the crawl database at `path`, creating it (and its schema) when it does not exist.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let created = !path.exists();
        let connection = rusqlite::Connection::open(path).map_err(|source| StoreError::Sqlite {
            path: path.to_path_buf(),
            source,
        })?;
        let mut store = SqliteStore {
            connection,
            path: path.to_path_buf(),
            body_compressor: body_compressor(),
            created,
            waiting_samples: WaitingSamples::default(),
        };
        schema::prepare(&mut store)?;
        Ok(store)
    }

    /// Opens the crawl database at `path` for reading only: nothing is created or changed,
    /// so a crawl can be read (audited, exported) while another process still writes it.
    /// A missing file, a file that is not a crawl database, and a crawl of another format are
    /// each refused with their own error.
    pub fn open_read_only(path: &Path) -> Result<SqliteStore, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing {
                database: path.display().to_string(),
            });
        }
        let connection = rusqlite::Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|source| StoreError::Sqlite {
            path: path.to_path_buf(),
            source,
        })?;
        let store = SqliteStore {
            connection,
            path: path.to_path_buf(),
            body_compressor: body_compressor(),
            created: false,
            waiting_samples: WaitingSamples::default(),
        };
        schema::check(&store)?;
        Ok(store)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether opening this store created its file.
    pub fn was_created(&self) -> bool {
        self.created
    }

    /// Closes the store and removes its file, with the write-ahead log beside it.
    pub fn discard(self) {
        let path = self.path.clone();
        drop(self);
        remove_database_files(&path);
    }

    /// Wraps a SQLite error with the file it came from.
    fn database_error(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sqlite {
            path: self.path.clone(),
            source,
        }
    }

    fn damaged(&self, detail: impl Into<String>) -> StoreError {
        StoreError::Damaged {
            database: self.path.display().to_string(),
            detail: detail.into(),
        }
    }

    fn not_a_crawl(&self) -> StoreError {
        StoreError::NotACrawl {
            database: self.path.display().to_string(),
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
