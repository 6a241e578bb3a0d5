//! The WARC headers of each kind of record, record ids, links between records, and errors.

mod support;

use std::io::{self, Write};
use std::net::IpAddr;

use support::{ParsedRecord, instant, read_gzip_members, request, response, sha1_base32};
use trawl_model::{FetchResponse, Timestamp};
use trawl_warc::{
    RecordOptions, RecordType, RefersTo, SERVER_NOT_MODIFIED_PROFILE, WarcError, WarcWriter,
    Warcinfo,
};

/// Reads a whole file strictly; every record must be well formed.
fn read_all(file: &[u8]) -> Vec<ParsedRecord> {
    let outcome = read_gzip_members(file);
    assert_eq!(outcome.stopped_by, None);
    outcome.records
}

/// Compares a record's WARC headers, in order, with `expected`; `*` matches any value.
fn check_headers(record: &ParsedRecord, expected: &[(&str, &str)]) {
    let names: Vec<&str> = record
        .headers
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    let expected_names: Vec<&str> = expected.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, expected_names);
    for (name, expected_value) in expected {
        if *expected_value != "*" {
            assert_eq!(record.header(name), Some(*expected_value), "header {name}");
        }
    }
}

fn sample_warcinfo() -> Warcinfo {
    Warcinfo {
        date: instant(-1000),
        filename: Some("crawl.warc.gz".to_string()),
        fields: vec![
            ("software".to_string(), "trawl/0.1".to_string()),
            ("format".to_string(), "WARC File Format 1.1".to_string()),
            (
                "description".to_string(),
                "line one\r\nline two".to_string(),
            ),
            ("".to_string(), "dropped".to_string()),
        ],
    }
}

#[test]
fn each_record_type_carries_its_headers_in_order() {
    let mut writer = WarcWriter::new(Vec::new());
    let info = writer.write_warcinfo(&sample_warcinfo()).expect("warcinfo");
    let exchange = writer
        .write_exchange(
            &request("http://forum.example/t/1", &[]),
            &response(
                "http://forum.example/t/1",
                200,
                &[("ETag", "\"v1\"")],
                b"<p>post</p>",
            ),
            &RecordOptions {
                ip_address: Some("127.0.0.1".parse::<IpAddr>().expect("address")),
                concurrent_to: None,
            },
        )
        .expect("exchange");
    let mut not_modified = response("http://forum.example/t/1", 304, &[("ETag", "\"v1\"")], b"");
    not_modified.fetched_at = instant(86_400_000);
    let revisit = writer
        .write_revisit(
            &not_modified,
            &RefersTo::from(&exchange.response),
            &RecordOptions::default(),
        )
        .expect("revisit");
    let records = read_all(&writer.finish().expect("finish"));
    assert_eq!(records.len(), 4);

    let info_id = info.record_id.to_string();
    let response_id = exchange.response.record_id.to_string();
    check_headers(
        &records[0],
        &[
            ("WARC-Type", "warcinfo"),
            ("WARC-Record-ID", &info_id),
            ("WARC-Date", "2024-03-09T15:59:59Z"),
            ("WARC-Filename", "crawl.warc.gz"),
            ("WARC-Block-Digest", "*"),
            ("Content-Type", "application/warc-fields"),
            ("Content-Length", "*"),
        ],
    );
    assert_eq!(
        String::from_utf8_lossy(&records[0].block),
        "software: trawl/0.1\r\nformat: WARC File Format 1.1\r\ndescription: line one  line two\r\n"
    );
    check_headers(
        &records[1],
        &[
            ("WARC-Type", "response"),
            ("WARC-Record-ID", &response_id),
            ("WARC-Date", "2024-03-09T16:00:00.25Z"),
            ("WARC-Target-URI", "http://forum.example/t/1"),
            ("WARC-Warcinfo-ID", &info_id),
            ("WARC-IP-Address", "127.0.0.1"),
            ("WARC-Block-Digest", "*"),
            ("WARC-Payload-Digest", &sha1_base32(b"<p>post</p>")),
            ("Content-Type", "application/http;msgtype=response"),
            ("Content-Length", "*"),
        ],
    );
    check_headers(
        &records[2],
        &[
            ("WARC-Type", "request"),
            ("WARC-Record-ID", &exchange.request.record_id.to_string()),
            ("WARC-Date", "2024-03-09T16:00:00Z"),
            ("WARC-Target-URI", "http://forum.example/t/1"),
            ("WARC-Warcinfo-ID", &info_id),
            ("WARC-IP-Address", "127.0.0.1"),
            ("WARC-Concurrent-To", &response_id),
            ("WARC-Block-Digest", "*"),
            (
                "WARC-Payload-Digest",
                "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ",
            ),
            ("Content-Type", "application/http;msgtype=request"),
            ("Content-Length", "*"),
        ],
    );
    check_headers(
        &records[3],
        &[
            ("WARC-Type", "revisit"),
            ("WARC-Record-ID", &revisit.record_id.to_string()),
            ("WARC-Date", "2024-03-10T16:00:00Z"),
            ("WARC-Target-URI", "http://forum.example/t/1"),
            ("WARC-Warcinfo-ID", &info_id),
            ("WARC-Profile", SERVER_NOT_MODIFIED_PROFILE),
            ("WARC-Refers-To", &response_id),
            ("WARC-Refers-To-Target-URI", "http://forum.example/t/1"),
            ("WARC-Refers-To-Date", "2024-03-09T16:00:00.25Z"),
            ("WARC-Block-Digest", "*"),
            ("WARC-Payload-Digest", &sha1_base32(b"<p>post</p>")),
            ("Content-Type", "application/http;msgtype=response"),
            ("Content-Length", "*"),
        ],
    );
    assert_eq!(
        records[3].block, b"HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n",
        "a revisit block is the 304's head alone"
    );
    assert_eq!(
        [
            info.record_type,
            exchange.response.record_type,
            exchange.request.record_type,
            revisit.record_type
        ],
        [
            RecordType::Warcinfo,
            RecordType::Response,
            RecordType::Request,
            RecordType::Revisit
        ]
    );
}

#[test]
fn a_revisit_may_name_nothing_of_its_original() {
    let mut writer = WarcWriter::new(Vec::new());
    writer
        .write_revisit(
            &response("http://forum.example/t/2", 304, &[], b""),
            &RefersTo::default(),
            &RecordOptions::default(),
        )
        .expect("revisit");
    let records = read_all(&writer.finish().expect("finish"));
    check_headers(
        &records[0],
        &[
            ("WARC-Type", "revisit"),
            ("WARC-Record-ID", "*"),
            ("WARC-Date", "*"),
            ("WARC-Target-URI", "http://forum.example/t/2"),
            ("WARC-Profile", SERVER_NOT_MODIFIED_PROFILE),
            ("WARC-Block-Digest", "*"),
            ("Content-Type", "application/http;msgtype=response"),
            ("Content-Length", "*"),
        ],
    );
}

/// Writes a fixed little crawl and returns the file.
fn write_sample_crawl() -> Vec<u8> {
    let mut writer = WarcWriter::new(Vec::new());
    writer.write_warcinfo(&sample_warcinfo()).expect("warcinfo");
    for (path, body) in [("/", &b"portal"[..]), ("/board/1", b"board"), ("/t/1", b"")] {
        let url = format!("http://forum.example{path}");
        writer
            .write_exchange(
                &request(&url, &[]),
                &response(&url, 200, &[("Content-Type", "text/html")], body),
                &RecordOptions::default(),
            )
            .expect("exchange");
    }
    writer.finish().expect("finish")
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    assert_eq!(write_sample_crawl(), write_sample_crawl());
}

fn record_ids(file: &[u8]) -> Vec<String> {
    read_all(file)
        .iter()
        .map(|record| {
            record
                .header("WARC-Record-ID")
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

#[test]
fn ids_follow_identity_and_stay_unique_within_a_file() {
    let fetched = response("http://forum.example/t/1", 200, &[], b"same");
    let write = |responses: &[FetchResponse]| {
        let mut writer = WarcWriter::new(Vec::new());
        for fetched in responses {
            writer
                .write_response(fetched, &RecordOptions::default())
                .expect("response");
        }
        writer.finish().expect("finish")
    };
    let mut later = fetched.clone();
    later.fetched_at = instant(251);
    let mut changed = fetched.clone();
    changed.body = b"different".to_vec();

    let once = record_ids(&write(std::slice::from_ref(&fetched)));
    let twice = record_ids(&write(&[fetched.clone(), fetched.clone()]));
    let with_later = record_ids(&write(&[fetched.clone(), later]));
    let with_changed = record_ids(&write(&[fetched.clone(), changed]));

    // The first record's id depends only on the record itself.
    assert_eq!(twice[0], once[0]);
    assert_eq!(with_later[0], once[0]);
    // A repeat of the very same observation still gets an id of its own.
    assert_ne!(twice[1], twice[0]);
    // Another instant or another body is another record.
    assert_ne!(with_later[1], once[0]);
    assert_ne!(with_changed[1], once[0]);
    // And repeats are numbered the same way every time.
    assert_eq!(twice, record_ids(&write(&[fetched.clone(), fetched])));
}

fn check_refused(outcome: Result<trawl_warc::WrittenRecord, WarcError>, expected: &str) {
    match outcome {
        Ok(record) => panic!("expected an error containing {expected:?}, wrote {record:?}"),
        Err(error) => assert!(
            error.to_string().contains(expected),
            "{error} lacks {expected:?}"
        ),
    }
}

#[test]
fn invalid_inputs_are_refused_without_touching_the_output() {
    let mut writer = WarcWriter::new(Vec::new());
    let options = RecordOptions::default();
    let cases: Vec<(FetchResponse, &str)> = vec![
        (response("/relative", 200, &[], b""), "not an absolute URL"),
        (
            response("ftp://forum.example/a", 200, &[], b""),
            "only http and https",
        ),
        (
            response("http://forum.example/\r\nX: 1", 200, &[], b""),
            "control characters",
        ),
        (
            response("http://forum.example/", 42, &[], b""),
            "not a three-digit status",
        ),
        (
            response("http://forum.example/", 1000, &[], b""),
            "not a three-digit status",
        ),
        (
            FetchResponse {
                fetched_at: Timestamp::MIN,
                ..response("http://forum.example/", 200, &[], b"")
            },
            "years 0000 to 9999",
        ),
    ];
    for (fetched, expected) in &cases {
        check_refused(writer.write_response(fetched, &options), expected);
    }
    check_refused(
        writer.write_revisit(
            &response("http://forum.example/", 200, &[], b""),
            &RefersTo::default(),
            &options,
        ),
        "needs a 304 answer, not status 200",
    );
    check_refused(
        writer.write_revisit(
            &response("http://forum.example/", 304, &[], b""),
            &RefersTo {
                target_uri: Some("not a url".to_string()),
                ..RefersTo::default()
            },
            &options,
        ),
        "not an absolute URL",
    );
    check_refused(
        writer.write_request(&request("mailto:someone@example.org", &[]), &options),
        "only http and https",
    );
    let exchange = writer.write_exchange(
        &request("no scheme", &[]),
        &response("http://forum.example/", 200, &[], b"ok"),
        &options,
    );
    assert!(
        matches!(exchange, Err(WarcError::InvalidTargetUri { .. })),
        "{exchange:?}"
    );
    assert_eq!(writer.bytes_written(), 0, "nothing reached the output");
    // The writer is still usable after refusals.
    writer
        .write_response(
            &response("http://forum.example/", 200, &[], b"ok"),
            &options,
        )
        .expect("a valid record after refusals");
    assert_eq!(read_all(&writer.finish().expect("finish")).len(), 1);
}

/// A writer that accepts `capacity` bytes and then fails.
struct FailingAfter {
    accepted: Vec<u8>,
    capacity: usize,
}

impl Write for FailingAfter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let room = self.capacity - self.accepted.len();
        if room == 0 {
            return Err(io::Error::other("disk full"));
        }
        let taken = room.min(bytes.len());
        self.accepted.extend_from_slice(&bytes[..taken]);
        Ok(taken)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failed_write_poisons_the_writer() {
    let first_record_length = {
        let mut probe = WarcWriter::new(Vec::new());
        probe
            .write_response(
                &response("http://forum.example/", 200, &[], b"first"),
                &RecordOptions::default(),
            )
            .expect("probe")
            .length as usize
    };
    let mut writer = WarcWriter::new(FailingAfter {
        accepted: Vec::new(),
        capacity: first_record_length + 10,
    });
    let options = RecordOptions::default();
    writer
        .write_response(
            &response("http://forum.example/", 200, &[], b"first"),
            &options,
        )
        .expect("the first record fits");
    let failed = writer.write_response(
        &response("http://forum.example/2", 200, &[], b"second"),
        &options,
    );
    assert!(matches!(failed, Err(WarcError::Io(_))), "{failed:?}");
    let after = writer.write_response(
        &response("http://forum.example/3", 200, &[], b"third"),
        &options,
    );
    assert!(matches!(after, Err(WarcError::Poisoned)), "{after:?}");
    assert!(matches!(writer.finish(), Err(WarcError::Poisoned)));
}
