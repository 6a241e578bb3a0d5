//! The HTTP messages inside response and request records, checked byte for byte after a round
//! trip through the writer and the strict reader.

mod support;

use support::{read_gzip_members, request, response};
use trawl_warc::{RecordOptions, WarcWriter};

/// Writes one response record, reads it back strictly, and compares its HTTP head.
fn check_response(status: u16, headers: &[(&str, &str)], body: &[u8], expected_head: &str) {
    let mut writer = WarcWriter::new(Vec::new());
    let fetched = response("http://forum.example/t/1", status, headers, body);
    writer
        .write_response(&fetched, &RecordOptions::default())
        .expect("response is written");
    let file = writer.finish().expect("writer finishes");
    let outcome = read_gzip_members(&file);
    assert_eq!(
        outcome.stopped_by, None,
        "status {status}, headers {headers:?}"
    );
    let record = &outcome.records[0];
    assert_eq!(
        String::from_utf8_lossy(record.http_head()),
        expected_head,
        "status {status}, headers {headers:?}"
    );
    assert_eq!(record.http_payload(), body);
}

#[test]
fn response_heads_describe_the_archived_body() {
    check_response(
        200,
        &[("Content-Type", "text/html; charset=utf-8")],
        b"<p>hello</p>",
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 12\r\n\r\n",
    );
    // The body was gunzipped by the fetcher: the encoding and the wire length are kept only
    // under the X-Archive-Orig- prefix, and the true length is appended.
    check_response(
        200,
        &[
            ("Content-Type", "text/html"),
            ("Content-Encoding", "gzip"),
            ("Content-Length", "7"),
            ("Vary", "Accept-Encoding"),
        ],
        b"decoded body",
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Archive-Orig-Content-Encoding: gzip\r\n\
         X-Archive-Orig-Content-Length: 7\r\nVary: Accept-Encoding\r\nContent-Length: 12\r\n\r\n",
    );
    check_response(
        200,
        &[("transfer-encoding", "chunked"), ("content-encoding", "br")],
        b"x",
        "HTTP/1.1 200 OK\r\nX-Archive-Orig-transfer-encoding: chunked\r\n\
         X-Archive-Orig-content-encoding: br\r\nContent-Length: 1\r\n\r\n",
    );
    check_response(
        200,
        &[],
        b"",
        "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    );
    check_response(
        301,
        &[("Location", "http://forum.example/t/1/")],
        b"",
        "HTTP/1.1 301 Moved Permanently\r\nLocation: http://forum.example/t/1/\r\nContent-Length: 0\r\n\r\n",
    );
    check_response(
        404,
        &[("Server", "sim")],
        b"gone",
        "HTTP/1.1 404 Not Found\r\nServer: sim\r\nContent-Length: 4\r\n\r\n",
    );
    // Statuses that forbid a body get no Content-Length when there is none.
    check_response(204, &[], b"", "HTTP/1.1 204 No Content\r\n\r\n");
    check_response(
        304,
        &[("ETag", "\"v1\""), ("Content-Length", "5120")],
        b"",
        "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nX-Archive-Orig-Content-Length: 5120\r\n\r\n",
    );
    // Codes without a registered phrase get their class name.
    check_response(
        299,
        &[],
        b"",
        "HTTP/1.1 299 Success\r\nContent-Length: 0\r\n\r\n",
    );
    check_response(
        599,
        &[],
        b"",
        "HTTP/1.1 599 Server Error\r\nContent-Length: 0\r\n\r\n",
    );
    check_response(
        999,
        &[],
        b"",
        "HTTP/1.1 999 Unknown\r\nContent-Length: 0\r\n\r\n",
    );
}

#[test]
fn response_headers_cannot_inject_lines() {
    check_response(
        200,
        &[
            ("Set-Cookie", "a=1\r\nContent-Encoding: gzip"),
            ("X-Note", "  padded  "),
        ],
        b"ok",
        "HTTP/1.1 200 OK\r\nSet-Cookie: a=1  Content-Encoding: gzip\r\nX-Note: padded\r\nContent-Length: 2\r\n\r\n",
    );
    check_response(
        200,
        &[
            ("Bad Name:\r\nX", "v"),
            ("", "nameless is dropped"),
            ("X-Empty", ""),
        ],
        b"ok",
        "HTTP/1.1 200 OK\r\nBad-Name---X: v\r\nX-Empty: \r\nContent-Length: 2\r\n\r\n",
    );
    check_response(
        200,
        &[(
            "Content-Disposition",
            "attachment; filename=\"r\u{e9}sum\u{e9}.txt\"",
        )],
        b"ok",
        "HTTP/1.1 200 OK\r\nContent-Disposition: attachment; filename=\"r\u{e9}sum\u{e9}.txt\"\r\n\
         Content-Length: 2\r\n\r\n",
    );
}

/// Writes one request record, reads it back strictly, and compares its HTTP head.
fn check_request(url: &str, headers: &[(&str, &str)], expected_head: &str) {
    let mut writer = WarcWriter::new(Vec::new());
    writer
        .write_request(&request(url, headers), &RecordOptions::default())
        .expect("request is written");
    let file = writer.finish().expect("writer finishes");
    let outcome = read_gzip_members(&file);
    assert_eq!(outcome.stopped_by, None, "url {url}");
    let record = &outcome.records[0];
    assert_eq!(
        String::from_utf8_lossy(record.http_head()),
        expected_head,
        "url {url}"
    );
    assert!(record.http_payload().is_empty());
}

#[test]
fn request_heads_name_path_query_and_host() {
    check_request(
        "http://forum.example/viewtopic.php?t=12&start=20",
        &[],
        "GET /viewtopic.php?t=12&start=20 HTTP/1.1\r\nHost: forum.example\r\n\r\n",
    );
    check_request(
        "http://forum.example",
        &[],
        "GET / HTTP/1.1\r\nHost: forum.example\r\n\r\n",
    );
    check_request(
        "http://127.0.0.1:8080/board/3#post-9",
        &[],
        "GET /board/3 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
    );
    check_request(
        "https://forum.example:443/a",
        &[],
        "GET /a HTTP/1.1\r\nHost: forum.example\r\n\r\n",
    );
    check_request(
        "http://[::1]:3000/x?",
        &[],
        "GET /x? HTTP/1.1\r\nHost: [::1]:3000\r\n\r\n",
    );
    check_request(
        "http://b\u{fc}cher.example/s\u{e9}arch?q=a b",
        &[],
        "GET /s%C3%A9arch?q=a%20b HTTP/1.1\r\nHost: xn--bcher-kva.example\r\n\r\n",
    );
    check_request(
        "http://forum.example/t/1",
        &[
            ("If-None-Match", "\"v1\""),
            ("Host", "spoofed.example"),
            ("User-Agent", "trawl/0.1\r\nX: y"),
        ],
        "GET /t/1 HTTP/1.1\r\nHost: forum.example\r\nIf-None-Match: \"v1\"\r\nUser-Agent: trawl/0.1  X: y\r\n\r\n",
    );
}
