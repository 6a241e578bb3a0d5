//! Why a record could not be written.

use jiff::Timestamp;

/// Everything that can stop [`crate::WarcWriter`] from writing a record.
///
/// Every error except [`WarcError::Io`] is found while the record is still being assembled in
/// memory, before a single byte reaches the output, so the file stays whole and the writer stays
/// usable. An I/O error can strike in the middle of a record; after one the writer refuses further
/// records ([`WarcError::Poisoned`]) because the offsets it would report would no longer describe
/// the file.
#[derive(Debug, thiserror::Error)]
pub enum WarcError {
    /// Writing to the output (or compressing into it) failed.
    #[error("writing the WARC output failed")]
    Io(#[from] std::io::Error),

    /// The URL cannot be a `WARC-Target-URI` of an HTTP record.
    #[error("cannot archive {uri:?}: {reason}")]
    InvalidTargetUri {
        /// The URL as it was given.
        uri: String,
        /// What is wrong with it.
        reason: String,
    },

    /// The status code is not a three-digit HTTP status, so no status line can be written.
    #[error("HTTP status {status} is not a three-digit status code")]
    InvalidStatus {
        /// The status as it was given.
        status: u16,
    },

    /// The instant lies outside the years 0000 to 9999, which is all a `WARC-Date` can spell.
    #[error("the instant {instant} cannot be written as a WARC-Date (years 0000 to 9999 only)")]
    DateOutOfRange {
        /// The instant as it was given.
        instant: Timestamp,
    },

    /// A server-not-modified revisit record was asked for an answer that is not a 304.
    #[error("a server-not-modified revisit record needs a 304 answer, not status {status}")]
    RevisitNeedsNotModified {
        /// The status of the answer that was offered.
        status: u16,
    },

    /// An earlier write failed part-way, so the output may end in a partial record.
    #[error("an earlier write failed part-way, so this writer accepts no more records")]
    Poisoned,
}
