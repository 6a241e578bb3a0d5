//! Writing trawl's fetches as WARC 1.1, the web archive format replay tools (pywb, OpenWayback)
//! and readers (warcio) understand.
//!
//! [`WarcWriter`] is the one entry point. It wraps any `std::io::Write` and writes records from
//! the types the crawler already has: [`WarcWriter::write_response`] takes a
//! [`trawl_model::FetchResponse`], [`WarcWriter::write_request`] a [`trawl_model::FetchRequest`],
//! [`WarcWriter::write_exchange`] both (response first, request linked to it by
//! `WARC-Concurrent-To`), [`WarcWriter::write_revisit`] a 304 answer with a [`RefersTo`] naming
//! the full response it confirms, and [`WarcWriter::write_warcinfo`] a [`Warcinfo`] describing
//! the file, whose id every later record carries. Each write returns a [`WrittenRecord`] with the
//! record's offset and length in the output, its [`RecordId`] and its [`Sha1Digest`]s, which is
//! what a CDX-style index needs. [`WarcWriter::finish`] flushes and hands the output back.
//! Optional per-record headers (`WARC-IP-Address`, `WARC-Concurrent-To`) come in
//! [`RecordOptions`]. Failures are [`WarcError`]s; nothing here panics on odd input.
//!
//! Choices that shape the files, each explained where it is made:
//!
//! - **One gzip member per record** ([`WarcCompression::GzipPerRecord`], the default): a replay
//!   tool seeks to a record's offset and decompresses that record alone, and a file cut short by a
//!   crash still reads up to the last whole record. The `warc` crate was not used for writing
//!   because it compresses a whole file as one stream, which allows neither.
//! - **Decoded bodies, honest headers**: fetchers keep bodies after gzip/brotli and chunked
//!   decoding, so `Content-Encoding`, `Transfer-Encoding` and `Content-Length` as received are
//!   renamed `X-Archive-Orig-…` and a true `Content-Length` is written; otherwise a replay tool
//!   would decode the body a second time (module `http`).
//! - **Deterministic record ids**: version 5 UUIDs derived from each record's type, URI, date and
//!   block digest, so exporting the same store twice gives the same bytes (module `record_id`).
//! - **Digests as tools expect**: `sha1:` and base32, for both `WARC-Block-Digest` and
//!   `WARC-Payload-Digest` (module `digest`).
//! - **Dates** are UTC with fractional seconds when the instant has them, as WARC 1.1 allows
//!   (module `date`).
//!
//! The library reads no clock: every date comes from the fetch or from the caller, in keeping
//! with trawl's rule that only `trawl-model`'s clocks read the time.

mod date;
mod digest;
mod error;
mod http;
mod record_id;
mod writer;

pub use digest::Sha1Digest;
pub use error::WarcError;
pub use http::ORIGINAL_HEADER_PREFIX;
pub use record_id::RecordId;
pub use writer::{
    ExchangeRecords, RecordOptions, RecordType, RefersTo, SERVER_NOT_MODIFIED_PROFILE,
    WarcCompression, WarcWriter, Warcinfo, WrittenRecord,
};
