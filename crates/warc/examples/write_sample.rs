//! Writes a small sample `.warc.gz` to the path given as the first argument, for checking the
//! output with other tools (for instance `warcio check FILE` and `warcio index FILE`).
//!
//! Run with `cargo run -p trawl-warc --example write_sample -- /tmp/sample.warc.gz`.

use std::error::Error;
use std::fs::File;
use std::io::BufWriter;

use trawl_model::{FetchRequest, FetchResponse, Timestamp};
use trawl_warc::{RecordOptions, RefersTo, WarcWriter, Warcinfo};

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: write_sample OUTPUT.warc.gz")?;
    let start = Timestamp::from_second(1_710_000_000)?;
    let mut writer = WarcWriter::new(BufWriter::new(File::create(&path)?));
    writer.write_warcinfo(&Warcinfo {
        date: start,
        filename: std::path::Path::new(&path)
            .file_name()
            .map(|name| name.to_string_lossy().into_owned()),
        fields: vec![
            ("software".to_string(), "trawl-warc example".to_string()),
            ("format".to_string(), "WARC File Format 1.1".to_string()),
            (
                "conformsTo".to_string(),
                "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"
                    .to_string(),
            ),
        ],
    })?;

    // URL, status, headers as received, body as decoded by the fetcher.
    type SamplePage = (
        &'static str,
        u16,
        Vec<(&'static str, &'static str)>,
        &'static [u8],
    );
    let pages: [SamplePage; 4] = [
        (
            "http://forum.example/",
            200,
            vec![
                ("Content-Type", "text/html; charset=utf-8"),
                ("Content-Encoding", "gzip"),
                ("Content-Length", "61"),
            ],
            b"<html><body><a href=\"/t/1\">first thread</a></body></html>",
        ),
        (
            "http://forum.example/t/1?page=2",
            200,
            vec![
                ("Content-Type", "text/html; charset=windows-1252"),
                ("Transfer-Encoding", "chunked"),
            ],
            b"<p>caf\xe9 \xab quoted \xbb</p>",
        ),
        (
            "http://forum.example/old",
            301,
            vec![("Location", "http://forum.example/")],
            b"",
        ),
        (
            "http://forum.example/missing",
            404,
            vec![("Content-Type", "text/plain")],
            b"not here",
        ),
    ];
    let mut first_response = None;
    for (index, (url, status, headers, body)) in pages.into_iter().enumerate() {
        let at = start.checked_add(jiff::SignedDuration::from_millis(1500 * index as i64 + 125))?;
        let request = FetchRequest::new(url, at).with_header("User-Agent", "trawl-warc example");
        let response = FetchResponse {
            url: url.to_string(),
            status,
            headers: headers
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
            body: body.to_vec(),
            fetched_at: at,
        };
        let options = RecordOptions {
            ip_address: Some("127.0.0.1".parse()?),
            concurrent_to: None,
        };
        let exchange = writer.write_exchange(&request, &response, &options)?;
        first_response.get_or_insert(exchange.response);
    }

    let original = first_response.ok_or("no response was written")?;
    let not_modified = FetchResponse {
        url: "http://forum.example/".to_string(),
        status: 304,
        headers: vec![("ETag".to_string(), "\"portal-v1\"".to_string())],
        body: Vec::new(),
        fetched_at: start.checked_add(jiff::SignedDuration::from_hours(24))?,
    };
    writer.write_revisit(
        &not_modified,
        &RefersTo::from(&original),
        &RecordOptions::default(),
    )?;
    writer.finish()?;
    Ok(())
}
