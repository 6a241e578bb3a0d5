//! Whole files read back: by the strict reader (offsets, truncation) and by the `warc` crate.

mod support;

use std::io::BufReader;

use support::{
    gunzip_whole_file, instant, parse_record, read_gzip_members, read_uncompressed, request,
    response,
};
use trawl_warc::{RecordOptions, RefersTo, WarcCompression, WarcWriter, Warcinfo, WrittenRecord};

/// A body that compresses poorly, so gzip members are about as long as the records.
fn noisy_body(length: usize, seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..length)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// Writes a small crawl in `compression` and returns the file and what the writer reported.
fn write_crawl(compression: WarcCompression) -> (Vec<u8>, Vec<WrittenRecord>) {
    let mut writer = WarcWriter::with_compression(Vec::new(), compression);
    let mut written = vec![
        writer
            .write_warcinfo(&Warcinfo {
                date: instant(0),
                filename: Some("test.warc.gz".to_string()),
                fields: vec![("software".to_string(), "trawl-warc tests".to_string())],
            })
            .expect("warcinfo"),
    ];
    let pages: [(&str, u16, Vec<u8>); 5] = [
        (
            "http://forum.example/",
            200,
            b"<html>portal</html>".to_vec(),
        ),
        (
            "http://forum.example/board/1?page=2",
            200,
            noisy_body(70_000, 1),
        ),
        ("http://forum.example/t/9", 404, Vec::new()),
        ("http://forum.example/t/10", 302, Vec::new()),
        (
            "http://forum.example/t/11",
            200,
            vec![0xff, 0x00, 0xfe, b'\r', b'\n'],
        ),
    ];
    for (url, status, body) in pages {
        let exchange = writer
            .write_exchange(
                &request(url, &[("User-Agent", "trawl-test")]),
                &response(
                    url,
                    status,
                    &[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
                    &body,
                ),
                &RecordOptions::default(),
            )
            .expect("exchange");
        written.push(exchange.response);
        written.push(exchange.request);
    }
    let original = written[1].clone();
    written.push(
        writer
            .write_revisit(
                &response("http://forum.example/", 304, &[("ETag", "\"e\"")], b""),
                &RefersTo::from(&original),
                &RecordOptions::default(),
            )
            .expect("revisit"),
    );
    (writer.finish().expect("finish"), written)
}

/// The reader's view of each record must match what the writer reported.
fn check_matches_writer(
    records: &[support::ParsedRecord],
    written: &[WrittenRecord],
    file_length: usize,
) {
    assert_eq!(records.len(), written.len());
    for (record, reported) in records.iter().zip(written) {
        assert_eq!(
            (record.offset, record.length),
            (reported.offset, reported.length)
        );
        assert_eq!(
            record.header("WARC-Record-ID"),
            Some(reported.record_id.to_string().as_str())
        );
        assert_eq!(
            record.header("WARC-Type"),
            Some(reported.record_type.as_str())
        );
        assert_eq!(
            record.header("WARC-Target-URI"),
            reported.target_uri.as_deref()
        );
        assert_eq!(
            record.header("WARC-Block-Digest"),
            Some(reported.block_digest.to_string().as_str())
        );
    }
    let last = written.last().expect("records were written");
    assert_eq!(
        last.offset + last.length,
        file_length as u64,
        "records tile the file"
    );
}

#[test]
fn gzip_members_are_records_at_the_reported_offsets() {
    let (file, written) = write_crawl(WarcCompression::GzipPerRecord);
    let outcome = read_gzip_members(&file);
    assert_eq!(outcome.stopped_by, None);
    check_matches_writer(&outcome.records, &written, file.len());
    // Seeking: each member decompresses alone, starting at its offset.
    for reported in &written {
        let member = &file[reported.offset as usize..(reported.offset + reported.length) as usize];
        let alone = read_gzip_members(member);
        assert_eq!(alone.stopped_by, None);
        assert_eq!(alone.records.len(), 1);
    }
    // MultiGzDecoder sees the same records as one uncompressed stream.
    let plain = gunzip_whole_file(&file);
    let mut position = 0;
    for record in &outcome.records {
        let (reparsed, consumed) = parse_record(&plain[position..]).expect("record in the stream");
        assert_eq!(reparsed.block, record.block);
        position += consumed;
    }
    assert_eq!(position, plain.len());
}

#[test]
fn uncompressed_files_hold_the_same_records() {
    let (file, written) = write_crawl(WarcCompression::Uncompressed);
    let outcome = read_uncompressed(&file);
    assert_eq!(outcome.stopped_by, None);
    check_matches_writer(&outcome.records, &written, file.len());
    let (gzipped, _) = write_crawl(WarcCompression::GzipPerRecord);
    assert_eq!(
        file,
        gunzip_whole_file(&gzipped),
        "compression changes nothing inside"
    );
}

/// Cuts the file at `cut` and checks how many records survive and whether the reader stopped
/// on an error.
fn check_truncated(file: &[u8], cut: usize, expected_records: usize, expect_error: bool) {
    let outcome = read_gzip_members(&file[..cut]);
    assert_eq!(
        outcome.records.len(),
        expected_records,
        "cut at {cut}: {:?}",
        outcome.stopped_by
    );
    assert_eq!(
        outcome.stopped_by.is_some(),
        expect_error,
        "cut at {cut}: {:?}",
        outcome.stopped_by
    );
}

#[test]
fn a_truncated_file_reads_up_to_the_last_whole_record() {
    let (file, written) = write_crawl(WarcCompression::GzipPerRecord);
    check_truncated(&file, 0, 0, false);
    for (index, record) in written.iter().enumerate() {
        let start = record.offset as usize;
        let end = (record.offset + record.length) as usize;
        // Cut at a boundary: every record before it, and no complaint.
        check_truncated(&file, start, index, false);
        check_truncated(&file, end, index + 1, false);
        // Cut inside the member: its header, its middle, one byte short of its trailer.
        for cut in [start + 1, start + 9, start + (end - start) / 2, end - 1] {
            check_truncated(&file, cut, index, true);
        }
    }
}

#[test]
fn the_warc_crate_reads_our_files() {
    for compression in [
        WarcCompression::GzipPerRecord,
        WarcCompression::Uncompressed,
    ] {
        let (file, written) = write_crawl(compression);
        // The warc crate loops forever on a truncated gzip stream, so it only ever gets whole
        // files, decompressed here by flate2.
        let plain = match compression {
            WarcCompression::GzipPerRecord => gunzip_whole_file(&file),
            WarcCompression::Uncompressed => file.clone(),
        };
        let reader = warc::WarcReader::new(BufReader::new(plain.as_slice()));
        let mut count = 0;
        for (parsed, reported) in reader.iter_records().zip(&written) {
            let parsed = parsed.expect("the warc crate parses every record");
            assert_eq!(parsed.warc_version(), "1.1");
            assert_eq!(parsed.warc_id(), reported.record_id.to_string());
            assert_eq!(
                parsed.warc_type().to_string(),
                reported.record_type.as_str()
            );
            assert_eq!(
                parsed.date().timestamp_millis(),
                reported.date.as_millisecond()
            );
            let block_digest = parsed
                .header(warc::WarcHeader::BlockDigest)
                .expect("block digest header");
            assert_eq!(block_digest, reported.block_digest.to_string());
            assert_eq!(
                parsed
                    .header(warc::WarcHeader::TargetURI)
                    .map(|uri| uri.into_owned()),
                reported.target_uri
            );
            assert_eq!(
                support::sha1_base32(parsed.body()),
                reported.block_digest.to_string()
            );
            count += 1;
        }
        assert_eq!(count, written.len(), "{compression:?}");
    }
}

#[test]
fn large_bodies_round_trip() {
    let body = noisy_body(6 * 1024 * 1024, 7);
    let mut writer = WarcWriter::new(Vec::new());
    let written = writer
        .write_response(
            &response("http://forum.example/big", 200, &[], &body),
            &RecordOptions::default(),
        )
        .expect("large response");
    let file = writer.finish().expect("finish");
    let outcome = read_gzip_members(&file);
    assert_eq!(outcome.stopped_by, None);
    assert_eq!(outcome.records[0].http_payload(), body.as_slice());
    assert_eq!(written.length, file.len() as u64);
}

/// Damages one uncompressed record with `damage` and checks the strict reader notices.
fn check_reader_rejects(damage: fn(&mut Vec<u8>), expected_problem: &str) {
    let mut writer = WarcWriter::with_compression(Vec::new(), WarcCompression::Uncompressed);
    writer
        .write_response(
            &response(
                "http://forum.example/t/1",
                200,
                &[("Content-Type", "text/plain")],
                b"body text",
            ),
            &RecordOptions::default(),
        )
        .expect("response");
    let mut file = writer.finish().expect("finish");
    assert_eq!(
        read_uncompressed(&file).stopped_by,
        None,
        "undamaged file reads"
    );
    damage(&mut file);
    let problem = read_uncompressed(&file).stopped_by.unwrap_or_default();
    assert!(
        problem.contains(expected_problem),
        "{problem:?} lacks {expected_problem:?}"
    );
}

fn replace_once(file: &mut Vec<u8>, from: &[u8], to: &[u8]) {
    let at = support::find(file, from).expect("text to damage is present");
    file.splice(at..at + from.len(), to.iter().copied());
}

#[test]
fn the_strict_reader_notices_damage() {
    // These guard the guard: a reader that accepted anything would make every test above vacuous.
    check_reader_rejects(
        |file| replace_once(file, b"body text", b"body tezt"),
        "block digest",
    );
    check_reader_rejects(
        |file| replace_once(file, b"WARC/1.1", b"WARC/1.0"),
        "version line",
    );
    check_reader_rejects(
        |file| replace_once(file, b"Type: response", b"Type: resp\nnse"),
        "stray CR, LF",
    );
    // The HTTP checks run after the block digest verifies, so these also drop the digest.
    check_reader_rejects(
        |file| {
            replace_once(file, b"WARC-Block-Digest", b"X-Unchecked");
            replace_once(
                file,
                b"Content-Type: text/plain",
                b"Content-Encoding: zipped",
            );
        },
        "still claims",
    );
    check_reader_rejects(
        |file| {
            replace_once(file, b"WARC-Block-Digest", b"X-Unchecked");
            replace_once(file, b"Content-Length: 9", b"Content-Length: 8");
        },
        "HTTP Content-Length 8",
    );
    check_reader_rejects(
        |file| {
            replace_once(file, b"WARC-Block-Digest", b"X-Unchecked");
            replace_once(file, b"body text", b"body tezt");
        },
        "payload digest",
    );
    check_reader_rejects(
        |file| replace_once(file, b"<urn:uuid:", b"<urn:uuid:X"),
        "record id",
    );
    check_reader_rejects(
        |file| replace_once(file, b"T16:00:00.25Z", b"T16:00:00.25"),
        "WARC-Date",
    );
    check_reader_rejects(
        |file| replace_once(file, b"WARC-Date", b"WARC-Type"),
        "appears 2 times",
    );
    check_reader_rejects(|file| file.truncate(file.len() - 2), "runs past");
    check_reader_rejects(
        |file| replace_once(file, b"body text\r\n\r\n", b"body text\r\nXX"),
        "CRLF CRLF",
    );
}
