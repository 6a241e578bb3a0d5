//! A small, strict WARC reader for the tests, written independently of the writer's code
//! (its own base32, its own parsing), plus fixtures.
//!
//! Strict means: every rule the writer promises is checked, not just what a lenient reader
//! needs. Each gzip member must hold exactly one record; header lines must end in CRLF with no
//! stray CR or LF; the mandatory headers must appear exactly once; `Content-Length` must match
//! the block; the block must be followed by exactly CRLF CRLF; both digests must verify; and an
//! HTTP block must carry no `Content-Encoding` or `Transfer-Encoding` and a `Content-Length`,
//! when present, equal to its payload.

#![allow(dead_code)]

use std::io::Read;

use trawl_model::{FetchRequest, FetchResponse, Timestamp};

/// One record as read back.
#[derive(Debug, Clone)]
pub struct ParsedRecord {
    /// Offset of the record (its gzip member, when compressed) in the file.
    pub offset: u64,
    /// Bytes the record (its gzip member) occupies in the file.
    pub length: u64,
    /// The WARC headers in order.
    pub headers: Vec<(String, String)>,
    /// The content block.
    pub block: Vec<u8>,
}

impl ParsedRecord {
    /// The value of the WARC header `name` (case-insensitive), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header_name, _)| header_name.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The HTTP head of the block, up to and including the empty line.
    pub fn http_head(&self) -> &[u8] {
        let end = find(&self.block, b"\r\n\r\n").expect("HTTP block has a head") + 4;
        &self.block[..end]
    }

    /// The HTTP payload of the block.
    pub fn http_payload(&self) -> &[u8] {
        &self.block[self.http_head().len()..]
    }
}

/// What reading a whole file gave: the records up to the first problem, and the problem.
#[derive(Debug)]
pub struct ReadOutcome {
    pub records: Vec<ParsedRecord>,
    pub stopped_by: Option<String>,
}

/// Reads a `.warc.gz` member by member with `flate2::bufread::GzDecoder`, which stops at the end
/// of one member and hands back the rest of the input.
pub fn read_gzip_members(file: &[u8]) -> ReadOutcome {
    let mut records = Vec::new();
    let mut remaining = file;
    while !remaining.is_empty() {
        let offset = (file.len() - remaining.len()) as u64;
        let mut decoder = flate2::bufread::GzDecoder::new(remaining);
        let mut member = Vec::new();
        if let Err(error) = decoder.read_to_end(&mut member) {
            return ReadOutcome {
                records,
                stopped_by: Some(format!("member at {offset}: {error}")),
            };
        }
        let after = decoder.into_inner();
        let length = (remaining.len() - after.len()) as u64;
        remaining = after;
        match parse_record(&member) {
            Ok((mut record, consumed)) if consumed == member.len() => {
                record.offset = offset;
                record.length = length;
                records.push(record);
            }
            Ok((_, consumed)) => {
                return ReadOutcome {
                    records,
                    stopped_by: Some(format!(
                        "member at {offset} holds {} bytes after its record",
                        member.len() - consumed
                    )),
                };
            }
            Err(problem) => {
                return ReadOutcome {
                    records,
                    stopped_by: Some(format!("record at {offset}: {problem}")),
                };
            }
        }
    }
    ReadOutcome {
        records,
        stopped_by: None,
    }
}

/// Reads an uncompressed `.warc` record by record.
pub fn read_uncompressed(file: &[u8]) -> ReadOutcome {
    let mut records = Vec::new();
    let mut position = 0;
    while position < file.len() {
        match parse_record(&file[position..]) {
            Ok((mut record, consumed)) => {
                record.offset = position as u64;
                record.length = consumed as u64;
                records.push(record);
                position += consumed;
            }
            Err(problem) => {
                return ReadOutcome {
                    records,
                    stopped_by: Some(format!("record at {position}: {problem}")),
                };
            }
        }
    }
    ReadOutcome {
        records,
        stopped_by: None,
    }
}

/// Everything `flate2::read::MultiGzDecoder` makes of the file: all members, concatenated.
pub fn gunzip_whole_file(file: &[u8]) -> Vec<u8> {
    let mut all = Vec::new();
    flate2::read::MultiGzDecoder::new(file)
        .read_to_end(&mut all)
        .expect("whole file decompresses");
    all
}

/// Parses one record at the start of `bytes`; returns it and the bytes it took.
pub fn parse_record(bytes: &[u8]) -> Result<(ParsedRecord, usize), String> {
    let rest = bytes
        .strip_prefix(b"WARC/1.1\r\n")
        .ok_or("no WARC/1.1 version line")?;
    let head_end = find(rest, b"\r\n\r\n").ok_or("header block never ends")?;
    let headers = parse_fields(&rest[..head_end + 2], "WARC header")?;
    for mandatory in ["WARC-Type", "WARC-Record-ID", "WARC-Date", "Content-Length"] {
        let count = headers
            .iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case(mandatory))
            .count();
        if count != 1 {
            return Err(format!("{mandatory} appears {count} times"));
        }
    }
    let mut names: Vec<String> = headers
        .iter()
        .map(|(name, _)| name.to_lowercase())
        .collect();
    names.sort();
    if names.windows(2).any(|pair| pair[0] == pair[1]) {
        return Err(format!("a WARC header is repeated: {names:?}"));
    }
    let value = |name: &str| {
        headers
            .iter()
            .find(|(header_name, _)| header_name.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.clone())
    };
    let content_length: usize = value("Content-Length")
        .unwrap_or_default()
        .parse()
        .map_err(|_| "Content-Length is not a number")?;
    let block_start = b"WARC/1.1\r\n".len() + head_end + 4;
    let block_end = block_start + content_length;
    if bytes.len() < block_end + 4 {
        return Err(format!(
            "Content-Length {content_length} runs past the {} bytes available",
            bytes.len() - block_start
        ));
    }
    if &bytes[block_end..block_end + 4] != b"\r\n\r\n" {
        return Err("the block is not followed by CRLF CRLF".to_string());
    }
    let block = bytes[block_start..block_end].to_vec();
    check_record_id(&value("WARC-Record-ID").unwrap_or_default())?;
    check_warc_date(&value("WARC-Date").unwrap_or_default())?;
    for linking_header in ["WARC-Concurrent-To", "WARC-Warcinfo-ID", "WARC-Refers-To"] {
        if let Some(linked) = value(linking_header) {
            check_record_id(&linked)?;
        }
    }
    if let Some(expected) = value("WARC-Block-Digest")
        && expected != sha1_base32(&block)
    {
        return Err(format!("block digest {expected} does not verify"));
    }
    let record_type = value("WARC-Type").unwrap_or_default();
    if matches!(record_type.as_str(), "response" | "request" | "revisit") {
        let target = value("WARC-Target-URI").ok_or("an HTTP record lacks WARC-Target-URI")?;
        if target.bytes().any(|byte| !byte.is_ascii_graphic()) {
            return Err(format!("WARC-Target-URI {target:?} is not a printable URI"));
        }
    }
    if value("Content-Type")
        .is_some_and(|content_type| content_type.starts_with("application/http"))
    {
        check_http_block(&block, value("WARC-Payload-Digest"), &record_type)?;
    }
    Ok((
        ParsedRecord {
            offset: 0,
            length: 0,
            headers,
            block,
        },
        block_end + 4,
    ))
}

/// Checks an `application/http` block: a start line, valid fields, no encodings claimed, a
/// truthful `Content-Length`, and the payload digest (for revisits it names another payload).
fn check_http_block(
    block: &[u8],
    payload_digest: Option<String>,
    record_type: &str,
) -> Result<(), String> {
    let head_end = find(block, b"\r\n\r\n").ok_or("HTTP head never ends")? + 4;
    let first_line_end = find(block, b"\r\n").ok_or("no HTTP start line")?;
    let start_line =
        std::str::from_utf8(&block[..first_line_end]).map_err(|_| "start line not UTF-8")?;
    let parts: Vec<&str> = start_line.splitn(3, ' ').collect();
    let well_formed = if record_type == "request" {
        parts.len() == 3 && parts[0] == "GET" && parts[1].starts_with('/') && parts[2] == "HTTP/1.1"
    } else {
        parts.len() == 3
            && parts[0] == "HTTP/1.1"
            && parts[1].len() == 3
            && parts[1].bytes().all(|byte| byte.is_ascii_digit())
            && !parts[2].is_empty()
    };
    if !well_formed {
        return Err(format!("bad HTTP start line {start_line:?}"));
    }
    let fields = parse_fields(&block[first_line_end + 2..head_end - 2], "HTTP header")?;
    let payload = &block[head_end..];
    for (name, value) in &fields {
        if name.eq_ignore_ascii_case("content-encoding")
            || name.eq_ignore_ascii_case("transfer-encoding")
        {
            return Err(format!("the block still claims {name}: {value}"));
        }
        if name.eq_ignore_ascii_case("content-length")
            && value.parse::<usize>() != Ok(payload.len())
        {
            return Err(format!(
                "HTTP Content-Length {value} but payload of {}",
                payload.len()
            ));
        }
    }
    if record_type != "revisit"
        && let Some(expected) = payload_digest
        && expected != sha1_base32(payload)
    {
        return Err(format!("payload digest {expected} does not verify"));
    }
    Ok(())
}

/// Parses `name: value` lines, each ending in CRLF, with token names and no stray CR or LF.
fn parse_fields(lines: &[u8], what: &str) -> Result<Vec<(String, String)>, String> {
    let mut fields = Vec::new();
    let mut rest = lines;
    while !rest.is_empty() {
        let end = find(rest, b"\r\n").ok_or_else(|| format!("{what} line without CRLF"))?;
        let line = &rest[..end];
        if line
            .iter()
            .any(|byte| *byte == b'\r' || *byte == b'\n' || *byte == 0)
        {
            return Err(format!("{what} line holds a stray CR, LF or NUL"));
        }
        let colon = line
            .iter()
            .position(|byte| *byte == b':')
            .ok_or_else(|| format!("{what} line without a colon"))?;
        let name = &line[..colon];
        let token = |byte: &u8| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(byte);
        if name.is_empty() || !name.iter().all(token) {
            return Err(format!(
                "{what} name {:?} is not a token",
                String::from_utf8_lossy(name)
            ));
        }
        let value = line[colon + 1..]
            .strip_prefix(b" ")
            .unwrap_or(&line[colon + 1..]);
        if value
            .first()
            .is_some_and(|byte| *byte == b' ' || *byte == b'\t')
            || value
                .last()
                .is_some_and(|byte| *byte == b' ' || *byte == b'\t')
        {
            return Err(format!(
                "{what} value {:?} has untrimmed whitespace",
                String::from_utf8_lossy(value)
            ));
        }
        // Latin-1 bytes a server sent are kept as bytes; show them lossily.
        fields.push((
            String::from_utf8_lossy(name).into_owned(),
            String::from_utf8_lossy(value).into_owned(),
        ));
        rest = &rest[end + 2..];
    }
    Ok(fields)
}

fn check_record_id(value: &str) -> Result<(), String> {
    let uuid = value
        .strip_prefix("<urn:uuid:")
        .and_then(|rest| rest.strip_suffix('>'))
        .ok_or_else(|| format!("record id {value:?} is not <urn:uuid:…>"))?;
    let shape_ok = uuid.len() == 36
        && uuid.char_indices().all(|(index, character)| match index {
            8 | 13 | 18 | 23 => character == '-',
            _ => character.is_ascii_digit() || ('a'..='f').contains(&character),
        });
    if !shape_ok {
        return Err(format!("record id {value:?} is not a canonical UUID"));
    }
    Ok(())
}

fn check_warc_date(value: &str) -> Result<(), String> {
    let bytes = value.as_bytes();
    let digits_at = |positions: &[usize]| {
        positions
            .iter()
            .all(|at| bytes.get(*at).is_some_and(u8::is_ascii_digit))
    };
    let seconds_part_ok = bytes.len() >= 20
        && digits_at(&[0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18])
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes[10] == b'T'
        && bytes[13] == b':'
        && bytes[16] == b':';
    let tail = &value[19.min(value.len())..];
    let tail_ok = tail == "Z"
        || tail
            .strip_prefix('.')
            .and_then(|fraction| fraction.strip_suffix('Z'))
            .is_some_and(|digits| {
                !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())
            });
    if !(seconds_part_ok && tail_ok) || value.parse::<Timestamp>().is_err() {
        return Err(format!("WARC-Date {value:?} is not W3C-DTF in UTC"));
    }
    Ok(())
}

/// `sha1:` and base32, computed with a bit-buffer loop unlike the writer's grouping.
pub fn sha1_base32(bytes: &[u8]) -> String {
    let digest = sha1_smol::Sha1::from(bytes).digest().bytes();
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut text = String::from("sha1:");
    let mut buffer: u32 = 0;
    let mut bits_in_buffer = 0;
    for byte in digest {
        buffer = (buffer << 8) | u32::from(byte);
        bits_in_buffer += 8;
        while bits_in_buffer >= 5 {
            bits_in_buffer -= 5;
            text.push(char::from(
                alphabet[((buffer >> bits_in_buffer) & 31) as usize],
            ));
        }
    }
    assert_eq!(bits_in_buffer, 0, "160 bits are 32 symbols exactly");
    text
}

pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// An instant fixed for all fixtures: 2024-03-09T16:00:00Z plus `milliseconds`.
pub fn instant(milliseconds: i64) -> Timestamp {
    Timestamp::from_millisecond(1_710_000_000_000 + milliseconds).expect("fixture instant")
}

pub fn response(url: &str, status: u16, headers: &[(&str, &str)], body: &[u8]) -> FetchResponse {
    FetchResponse {
        url: url.to_string(),
        status,
        headers: headers
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect(),
        body: body.to_vec(),
        fetched_at: instant(250),
    }
}

pub fn request(url: &str, headers: &[(&str, &str)]) -> FetchRequest {
    let mut request = FetchRequest::new(url, instant(0));
    for (name, value) in headers {
        request = request.with_header(*name, *value);
    }
    request
}
