//! [`WarcWriter`]: assembles records in memory, then writes each as its own gzip member.

use std::collections::HashSet;
use std::io::{self, Write};
use std::net::IpAddr;

use flate2::Compression;
use flate2::write::GzEncoder;
use jiff::Timestamp;
use trawl_model::{FetchRequest, FetchResponse};

use crate::date::format_warc_date;
use crate::digest::{Sha1Digest, Sha1Hasher};
use crate::error::WarcError;
use crate::http::{checked_target_uri, push_field, request_head, response_head};
use crate::record_id::{RecordId, RecordIdentity};

/// The version line every record starts with.
const WARC_VERSION_LINE: &[u8] = b"WARC/1.1\r\n";

/// The revisit profile for an answer of 304 Not Modified (WARC 1.1, section 6.7.3).
pub const SERVER_NOT_MODIFIED_PROFILE: &str =
    "http://netpreserve.org/warc/1.1/revisit/server-not-modified";

/// How records are laid out in the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WarcCompression {
    /// Each record is a gzip member of its own (a `.warc.gz` file). A reader can start
    /// decompressing at any record's offset, and a file cut short still yields every record before
    /// the cut. Compressing the whole file as one stream instead would compress a little better
    /// but make both impossible.
    #[default]
    GzipPerRecord,
    /// Records are written as they are (a `.warc` file).
    Uncompressed,
}

/// The kind of a record, as written in `WARC-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordType {
    /// Describes the file and the crawl that made it.
    Warcinfo,
    /// A full HTTP response.
    Response,
    /// The HTTP request that led to a response.
    Request,
    /// A response that repeats an earlier one, here a 304 Not Modified.
    Revisit,
}

impl RecordType {
    /// The `WARC-Type` value.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordType::Warcinfo => "warcinfo",
            RecordType::Response => "response",
            RecordType::Request => "request",
            RecordType::Revisit => "revisit",
        }
    }
}

/// Where a record landed and what it was, returned by every write.
///
/// `offset` and `length` are in bytes of the output as written: with
/// [`WarcCompression::GzipPerRecord`] they delimit the record's gzip member, which is what CDX
/// indexes store so a replay tool can seek to the record and decompress only it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenRecord {
    /// The `WARC-Record-ID`.
    pub record_id: RecordId,
    /// The `WARC-Type`.
    pub record_type: RecordType,
    /// The `WARC-Target-URI` as written, absent for a warcinfo record.
    pub target_uri: Option<String>,
    /// The instant written as `WARC-Date`.
    pub date: Timestamp,
    /// The offset of the record's first byte in the output.
    pub offset: u64,
    /// The number of output bytes the record occupies.
    pub length: u64,
    /// The `WARC-Block-Digest`.
    pub block_digest: Sha1Digest,
    /// The `WARC-Payload-Digest`, if the record has one.
    pub payload_digest: Option<Sha1Digest>,
}

/// The optional headers of one response, request or revisit record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordOptions {
    /// `WARC-IP-Address`: the address the exchange was made with, if the fetcher knew it.
    pub ip_address: Option<IpAddr>,
    /// `WARC-Concurrent-To`: a record made in the same exchange, such as the response a request
    /// record belongs to.
    pub concurrent_to: Option<RecordId>,
}

/// The contents of a warcinfo record, which describes the file and the crawl.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warcinfo {
    /// `WARC-Date` of the warcinfo record, usually when the export was made.
    pub date: Timestamp,
    /// `WARC-Filename`: the name of the file being written, if known.
    pub filename: Option<String>,
    /// The `application/warc-fields` block, one `name: value` line each, in order; conventional
    /// names are `software`, `format`, `conformsTo`, `isPartOf`, `description`, `robots`.
    pub fields: Vec<(String, String)>,
}

/// What a revisit record repeats. Every part is optional because an export may not have the
/// original at hand, but replay tools find the original faster the more is given: pywb looks
/// it up by `WARC-Refers-To-Target-URI` and `WARC-Refers-To-Date`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefersTo {
    /// `WARC-Refers-To`: the id of the record holding the full response.
    pub record_id: Option<RecordId>,
    /// `WARC-Refers-To-Target-URI`: the URI of that record.
    pub target_uri: Option<String>,
    /// `WARC-Refers-To-Date`: the date of that record.
    pub date: Option<Timestamp>,
    /// Written as the revisit's `WARC-Payload-Digest`, as warcio does: the payload the 304
    /// confirms unchanged.
    pub payload_digest: Option<Sha1Digest>,
}

impl From<&WrittenRecord> for RefersTo {
    fn from(original: &WrittenRecord) -> RefersTo {
        RefersTo {
            record_id: Some(original.record_id),
            target_uri: original.target_uri.clone(),
            date: Some(original.date),
            payload_digest: original.payload_digest,
        }
    }
}

/// The two records of one exchange written by [`WarcWriter::write_exchange`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExchangeRecords {
    /// The response record, written first.
    pub response: WrittenRecord,
    /// The request record, concurrent to the response.
    pub request: WrittenRecord,
}

/// Writes WARC 1.1 records to `W`, each record compressed on its own (by default).
///
/// Every record is assembled and checked in memory before any of it is written, so an invalid
/// input (a relative URL, status 42) is refused with the output untouched. Bodies are never
/// copied: the digest is computed over the body in place and the body is then written straight
/// into the compressor. Wrap a file in a `BufWriter` when writing uncompressed; the gzip encoder
/// buffers by itself.
///
/// Ids are unique within one writer: a record whose identity repeats an earlier one (the same
/// bytes about the same URI at the same instant) gets an occurrence number mixed into its id.
/// That costs one 16-byte entry per record in memory, about 20 MB per million records.
#[derive(Debug)]
pub struct WarcWriter<W: Write> {
    output: CountingWriter<W>,
    compression: WarcCompression,
    warcinfo_id: Option<RecordId>,
    issued_ids: HashSet<RecordId>,
    poisoned: bool,
}

/// A record ready to be written, everything but the id and digests filled in.
struct AssembledRecord<'a> {
    record_type: RecordType,
    target_uri: Option<String>,
    date: Timestamp,
    content_type: &'static str,
    /// Headers between `WARC-Target-URI` and the digests, in the order written.
    extra_headers: Vec<(&'static str, String)>,
    /// The start of the block, small and owned (an HTTP head, warc-fields).
    block_head: Vec<u8>,
    /// The rest of the block, borrowed from the caller (an HTTP body).
    block_body: &'a [u8],
    payload_digest: Option<Sha1Digest>,
}

impl<W: Write> WarcWriter<W> {
    /// A writer producing a `.warc.gz` file, one gzip member per record.
    pub fn new(output: W) -> WarcWriter<W> {
        WarcWriter::with_compression(output, WarcCompression::GzipPerRecord)
    }

    /// A writer producing records laid out as `compression` says.
    pub fn with_compression(output: W, compression: WarcCompression) -> WarcWriter<W> {
        WarcWriter {
            output: CountingWriter {
                inner: output,
                written: 0,
            },
            compression,
            warcinfo_id: None,
            issued_ids: HashSet::new(),
            poisoned: false,
        }
    }

    /// Bytes written to the output so far, which is the offset the next record will get.
    pub fn bytes_written(&self) -> u64 {
        self.output.written
    }

    /// The id of the last warcinfo record written, which every later record names in
    /// `WARC-Warcinfo-ID`.
    pub fn warcinfo_id(&self) -> Option<RecordId> {
        self.warcinfo_id
    }

    /// Writes a warcinfo record. Records written after it carry its id in `WARC-Warcinfo-ID`.
    ///
    /// Field names are made into tokens and values cleaned of line breaks, as HTTP headers are.
    pub fn write_warcinfo(&mut self, warcinfo: &Warcinfo) -> Result<WrittenRecord, WarcError> {
        let mut block = Vec::new();
        for (name, value) in &warcinfo.fields {
            if let Some(name) = crate::http::sanitise_field_name(name.as_bytes()) {
                push_field(&mut block, &name, value.as_bytes());
            }
        }
        let mut extra_headers = Vec::new();
        if let Some(filename) = &warcinfo.filename {
            let filename = crate::http::sanitise_field_value(filename.as_bytes());
            extra_headers.push((
                "WARC-Filename",
                String::from_utf8_lossy(&filename).into_owned(),
            ));
        }
        let written = self.write_assembled(AssembledRecord {
            record_type: RecordType::Warcinfo,
            target_uri: None,
            date: warcinfo.date,
            content_type: "application/warc-fields",
            extra_headers,
            block_head: block,
            block_body: &[],
            payload_digest: None,
        })?;
        self.warcinfo_id = Some(written.record_id);
        Ok(written)
    }

    /// Writes a response record: the response's status, headers and (already decoded) body as an
    /// HTTP/1.1 message, dated `response.fetched_at`.
    ///
    /// Headers that described the compressed or chunked wire bytes are renamed with the
    /// `X-Archive-Orig-` prefix and a `Content-Length` of the archived body is added, so replay
    /// tools do not decode the body a second time (the crate documentation explains the choice).
    pub fn write_response(
        &mut self,
        response: &FetchResponse,
        options: &RecordOptions,
    ) -> Result<WrittenRecord, WarcError> {
        let (target_uri, _) = checked_target_uri(&response.url)?;
        let head = response_head(
            response.status,
            &response.headers,
            response.body.len() as u64,
        )?;
        self.write_assembled(AssembledRecord {
            record_type: RecordType::Response,
            target_uri: Some(target_uri),
            date: response.fetched_at,
            content_type: "application/http;msgtype=response",
            extra_headers: option_headers(options),
            block_head: head,
            block_body: &response.body,
            payload_digest: Some(Sha1Digest::of(&response.body)),
        })
    }

    /// Writes a request record: a `GET` of the request's URL with its headers, dated
    /// `request.at`. Give the response's id in [`RecordOptions::concurrent_to`] to link the two.
    pub fn write_request(
        &mut self,
        request: &FetchRequest,
        options: &RecordOptions,
    ) -> Result<WrittenRecord, WarcError> {
        let (target_uri, parsed) = checked_target_uri(&request.url)?;
        let head = request_head(&parsed, &request.headers);
        self.write_assembled(AssembledRecord {
            record_type: RecordType::Request,
            target_uri: Some(target_uri),
            date: request.at,
            content_type: "application/http;msgtype=request",
            extra_headers: option_headers(options),
            block_head: head,
            block_body: &[],
            // A GET has an empty payload; its digest is written anyway, as warcio does, so every
            // HTTP record can be checked the same way.
            payload_digest: Some(Sha1Digest::of(&[])),
        })
    }

    /// Writes the response record and then the request record of one exchange, the request
    /// naming the response in `WARC-Concurrent-To` (the order and link warcio and Heritrix use).
    /// `options.concurrent_to` is ignored; `options.ip_address` goes on both records.
    pub fn write_exchange(
        &mut self,
        request: &FetchRequest,
        response: &FetchResponse,
        options: &RecordOptions,
    ) -> Result<ExchangeRecords, WarcError> {
        // Check the request before writing the response, so a bad request URL or date cannot
        // leave a response without its request in the file.
        checked_target_uri(&request.url)?;
        format_warc_date(request.at)?;
        let response_options = RecordOptions {
            ip_address: options.ip_address,
            concurrent_to: None,
        };
        let response = self.write_response(response, &response_options)?;
        let request_options = RecordOptions {
            ip_address: options.ip_address,
            concurrent_to: Some(response.record_id),
        };
        let request = self.write_request(request, &request_options)?;
        Ok(ExchangeRecords { response, request })
    }

    /// Writes a revisit record for a 304 Not Modified answer, with the server-not-modified
    /// profile: the block holds the 304's head only, and `refers_to` names the full response
    /// it confirms.
    pub fn write_revisit(
        &mut self,
        response: &FetchResponse,
        refers_to: &RefersTo,
        options: &RecordOptions,
    ) -> Result<WrittenRecord, WarcError> {
        if response.status != 304 {
            return Err(WarcError::RevisitNeedsNotModified {
                status: response.status,
            });
        }
        let (target_uri, _) = checked_target_uri(&response.url)?;
        // A 304 has no body; should a server have sent one anyway, it is not archived, because
        // a revisit block is by definition the head alone.
        let head = response_head(response.status, &response.headers, 0)?;
        let mut extra_headers = option_headers(options);
        extra_headers.push(("WARC-Profile", SERVER_NOT_MODIFIED_PROFILE.to_string()));
        if let Some(record_id) = refers_to.record_id {
            extra_headers.push(("WARC-Refers-To", record_id.to_string()));
        }
        if let Some(original_uri) = &refers_to.target_uri {
            let (original_uri, _) = checked_target_uri(original_uri)?;
            extra_headers.push(("WARC-Refers-To-Target-URI", original_uri));
        }
        if let Some(original_date) = refers_to.date {
            extra_headers.push(("WARC-Refers-To-Date", format_warc_date(original_date)?));
        }
        self.write_assembled(AssembledRecord {
            record_type: RecordType::Revisit,
            target_uri: Some(target_uri),
            date: response.fetched_at,
            content_type: "application/http;msgtype=response",
            extra_headers,
            block_head: head,
            block_body: &[],
            payload_digest: refers_to.payload_digest,
        })
    }

    /// Flushes the output and hands it back.
    ///
    /// Refused with [`WarcError::Poisoned`] after a failed write, so that an export cannot report
    /// success for a file that may end in a partial record.
    pub fn finish(mut self) -> Result<W, WarcError> {
        if self.poisoned {
            return Err(WarcError::Poisoned);
        }
        self.output.inner.flush()?;
        Ok(self.output.inner)
    }

    /// Digests, names and writes an assembled record.
    fn write_assembled(&mut self, record: AssembledRecord<'_>) -> Result<WrittenRecord, WarcError> {
        if self.poisoned {
            return Err(WarcError::Poisoned);
        }
        let warc_date = format_warc_date(record.date)?;
        let mut block_hasher = Sha1Hasher::new();
        block_hasher.update(&record.block_head);
        block_hasher.update(record.block_body);
        let block_digest = block_hasher.finish();
        let block_digest_text = block_digest.to_warc_value();
        let record_id = self.unique_record_id(&RecordIdentity {
            record_type: record.record_type.as_str(),
            target_uri: record.target_uri.as_deref().unwrap_or_default(),
            warc_date: &warc_date,
            block_digest: &block_digest_text,
        });

        let mut header = Vec::with_capacity(512);
        header.extend_from_slice(WARC_VERSION_LINE);
        push_field(
            &mut header,
            b"WARC-Type",
            record.record_type.as_str().as_bytes(),
        );
        push_field(
            &mut header,
            b"WARC-Record-ID",
            record_id.to_string().as_bytes(),
        );
        push_field(&mut header, b"WARC-Date", warc_date.as_bytes());
        if let Some(target_uri) = &record.target_uri {
            push_field(&mut header, b"WARC-Target-URI", target_uri.as_bytes());
        }
        if let (Some(warcinfo_id), false) =
            (self.warcinfo_id, record.record_type == RecordType::Warcinfo)
        {
            push_field(
                &mut header,
                b"WARC-Warcinfo-ID",
                warcinfo_id.to_string().as_bytes(),
            );
        }
        for (name, value) in &record.extra_headers {
            push_field(&mut header, name.as_bytes(), value.as_bytes());
        }
        push_field(
            &mut header,
            b"WARC-Block-Digest",
            block_digest_text.as_bytes(),
        );
        if let Some(payload_digest) = record.payload_digest {
            push_field(
                &mut header,
                b"WARC-Payload-Digest",
                payload_digest.to_warc_value().as_bytes(),
            );
        }
        push_field(&mut header, b"Content-Type", record.content_type.as_bytes());
        let block_length = record.block_head.len() as u64 + record.block_body.len() as u64;
        push_field(
            &mut header,
            b"Content-Length",
            block_length.to_string().as_bytes(),
        );
        header.extend_from_slice(b"\r\n");

        let offset = self.output.written;
        let parts: [&[u8]; 4] = [&header, &record.block_head, record.block_body, b"\r\n\r\n"];
        if let Err(error) = self.write_parts(&parts) {
            self.poisoned = true;
            return Err(WarcError::Io(error));
        }
        // Only a record that reached the output reserves its id.
        self.issued_ids.insert(record_id);
        Ok(WrittenRecord {
            record_id,
            record_type: record.record_type,
            target_uri: record.target_uri,
            date: record.date,
            offset,
            length: self.output.written - offset,
            block_digest,
            payload_digest: record.payload_digest,
        })
    }

    /// The id of `identity`, with the smallest occurrence number not yet used in this file.
    fn unique_record_id(&self, identity: &RecordIdentity<'_>) -> RecordId {
        let mut occurrence = 0;
        loop {
            let candidate = RecordId::derive(identity, occurrence);
            if !self.issued_ids.contains(&candidate) {
                return candidate;
            }
            occurrence += 1;
        }
    }

    /// Writes the record's bytes, as one gzip member or as they are.
    fn write_parts(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        match self.compression {
            WarcCompression::GzipPerRecord => {
                // A fresh encoder per record makes each record a complete member: its own
                // header, deflate stream and CRC trailer. The gzip header carries no file name
                // and a zero modification time, so equal records compress to equal bytes.
                let mut encoder = GzEncoder::new(&mut self.output, Compression::default());
                for part in parts {
                    encoder.write_all(part)?;
                }
                encoder.finish()?;
            }
            WarcCompression::Uncompressed => {
                for part in parts {
                    self.output.write_all(part)?;
                }
            }
        }
        Ok(())
    }
}

/// The headers [`RecordOptions`] asks for, in the order written.
fn option_headers(options: &RecordOptions) -> Vec<(&'static str, String)> {
    let mut headers = Vec::new();
    if let Some(ip_address) = options.ip_address {
        headers.push(("WARC-IP-Address", ip_address.to_string()));
    }
    if let Some(concurrent_to) = options.concurrent_to {
        headers.push(("WARC-Concurrent-To", concurrent_to.to_string()));
    }
    headers
}

/// Counts the bytes that reach the inner writer, which gives every record its offset.
#[derive(Debug)]
struct CountingWriter<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for CountingWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let accepted = self.inner.write(bytes)?;
        self.written += accepted as u64;
        Ok(accepted)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
