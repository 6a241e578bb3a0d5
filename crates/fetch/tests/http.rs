//! `HttpFetcher` against real loopback servers: decoding, caps, statuses, timeouts, failures.

mod support;

use std::time::Duration;

use support::{Reply, brotli_stored, chunked_response, closed_port, gzip, response, serve};
use trawl_fetch::{HttpFetcher, HttpOptions, USER_AGENT};
use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher, Timestamp};

fn get(fetcher: &HttpFetcher, url: &str) -> Result<FetchResponse, FetchError> {
    fetcher.fetch(&FetchRequest::new(url, Timestamp::UNIX_EPOCH))
}

fn header_names(response: &FetchResponse) -> Vec<String> {
    response
        .headers
        .iter()
        .map(|(name, _)| name.to_ascii_lowercase())
        .collect()
}

#[test]
fn a_page_comes_back_with_its_headers_and_our_user_agent() {
    let server = serve(|_| response(200, &[("Content-Type", "text/html")], b"<p>hi</p>"));
    let fetcher = HttpFetcher::default();
    let url = server.url("/a?b=1");
    let answer = get(&fetcher, &url).unwrap();
    let seen = server.finish();
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body, b"<p>hi</p>");
    assert_eq!(answer.url, url);
    assert_eq!(answer.header("content-type"), Some("text/html"));
    assert_eq!(answer.header("content-length"), Some("9"));
    assert_eq!(answer.fetched_at, Timestamp::UNIX_EPOCH);
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/a?b=1");
    assert_eq!(seen[0].header("user-agent"), Some(USER_AGENT));
    assert_eq!(seen[0].header("accept-encoding"), Some("gzip, br"));
}

/// Serves `body` (already encoded) with `Content-Encoding: encoding` and checks that the decoded
/// body and the headers that describe it come back.
fn check_decoding(encoding: Option<&'static str>, encoded: Vec<u8>, expected: &[u8]) {
    let server = serve(move |_| {
        let mut headers = vec![
            ("Content-Type", "text/html; charset=utf-8"),
            ("ETag", "\"e\""),
        ];
        if let Some(encoding) = encoding {
            headers.push(("Content-Encoding", encoding));
        }
        response(200, &headers, &encoded)
    });
    let answer = get(&HttpFetcher::default(), &server.url("/")).unwrap();
    server.finish();
    assert_eq!(answer.body, expected, "{encoding:?}");
    let names = header_names(&answer);
    assert!(
        !names.contains(&"content-encoding".to_string()),
        "{names:?}"
    );
    assert!(!names.contains(&"content-length".to_string()), "{names:?}");
    assert_eq!(answer.header("etag"), Some("\"e\""));
    assert_eq!(
        answer.header("content-type"),
        Some("text/html; charset=utf-8")
    );
}

#[test]
fn gzip_and_brotli_bodies_are_decoded() {
    let page: Vec<u8> = "<html><body>"
        .bytes()
        .chain((0..2000).flat_map(|post| format!("<p>post {post} ünïcödé</p>").into_bytes()))
        .chain("</body></html>".bytes())
        .collect();
    check_decoding(Some("gzip"), gzip(&page), &page);
    check_decoding(Some("br"), brotli_stored(&page), &page);
    check_decoding(Some("br"), brotli_stored(b""), b"");
    check_decoding(Some("gzip"), gzip(b"x"), b"x");
}

#[test]
fn an_unknown_coding_is_passed_through_and_still_declared() {
    let server = serve(|_| response(200, &[("Content-Encoding", "zstd")], b"opaque"));
    let answer = get(&HttpFetcher::default(), &server.url("/")).unwrap();
    server.finish();
    assert_eq!(answer.body, b"opaque");
    assert_eq!(answer.header("content-encoding"), Some("zstd"));
    assert_eq!(answer.header("content-length"), Some("6"));
}

#[test]
fn chunked_bodies_are_joined_and_lose_their_transfer_encoding() {
    let body: Vec<u8> = (0..5000u32)
        .map(|index| b'a' + (index % 26) as u8)
        .collect();
    let expected = body.clone();
    let server = serve(move |_| chunked_response(200, &[("Content-Type", "text/plain")], &body));
    let answer = get(&HttpFetcher::default(), &server.url("/")).unwrap();
    server.finish();
    assert_eq!(answer.body, expected);
    assert_eq!(header_names(&answer), vec!["connection", "content-type"]);
}

#[test]
fn bytes_keep_their_charset_for_the_page_analyser() {
    // "Привет" in windows-1251: the client must not transcode it.
    let cyrillic = vec![0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2];
    let served = cyrillic.clone();
    let server = serve(move |_| {
        response(
            200,
            &[("Content-Type", "text/html; charset=windows-1251")],
            &served,
        )
    });
    let answer = get(&HttpFetcher::default(), &server.url("/")).unwrap();
    server.finish();
    assert_eq!(answer.body, cyrillic);
    assert_eq!(
        answer.header("content-type"),
        Some("text/html; charset=windows-1251")
    );
}

#[test]
fn statuses_are_answers_and_redirects_are_not_followed() {
    for status in [301, 302, 303, 307, 308, 404, 410, 500, 503] {
        let server = serve(move |_| response(status, &[("Location", "/elsewhere")], b""));
        let answer = get(&HttpFetcher::default(), &server.url("/here")).unwrap();
        let seen = server.finish();
        assert_eq!(answer.status, status);
        assert_eq!(answer.header("location"), Some("/elsewhere"));
        let paths: Vec<&str> = seen.iter().map(|seen| seen.path.as_str()).collect();
        assert_eq!(paths, ["/here"], "status {status}");
    }
}

#[test]
fn conditional_requests_get_304() {
    let date = "Wed, 21 Oct 2015 07:28:00 GMT";
    let server = serve(move |seen| {
        let fresh = seen.header("if-none-match") == Some("\"v1\"")
            && seen.header("if-modified-since") == Some(date);
        if fresh {
            response(304, &[("ETag", "\"v1\"")], b"")
        } else {
            response(200, &[("ETag", "\"v1\""), ("Last-Modified", date)], b"body")
        }
    });
    let fetcher = HttpFetcher::default();
    let url = server.url("/t/1");
    let first = get(&fetcher, &url).unwrap();
    let again = FetchRequest::new(&url, Timestamp::UNIX_EPOCH).with_validators_from(&first);
    let second = fetcher.fetch(&again).unwrap();
    let seen = server.finish();
    assert_eq!(
        (first.status, first.body.as_slice()),
        (200, b"body".as_slice())
    );
    assert!(second.is_not_modified());
    assert!(second.body.is_empty());
    assert_eq!(seen[0].header("if-none-match"), None);
    assert_eq!(seen[1].header("if-none-match"), Some("\"v1\""));
    assert_eq!(seen[1].header("if-modified-since"), Some(date));
}

/// Serves `served` with `headers` (chunked when `chunked`) to a fetcher capped at `cap` bytes,
/// and checks whether the body is refused.
fn check_cap(
    cap: u64,
    headers: &'static [(&str, &str)],
    served: Vec<u8>,
    chunked: bool,
    refused: bool,
) {
    let served_length = served.len();
    let server = serve(move |_| {
        if chunked {
            chunked_response(200, headers, &served)
        } else {
            response(200, headers, &served)
        }
    });
    let fetcher = HttpFetcher::new(HttpOptions {
        max_body_bytes: cap,
        ..HttpOptions::default()
    });
    let answer = get(&fetcher, &server.url("/big"));
    server.finish();
    match answer {
        Err(FetchError::TooLarge { limit_bytes, .. }) if refused => assert_eq!(limit_bytes, cap),
        Ok(_) if !refused => {}
        other => panic!(
            "cap {cap}, {served_length} bytes served with {headers:?}, chunked {chunked}: got {:?}",
            other.map(|answer| answer.body.len())
        ),
    }
}

#[test]
fn the_size_cap_counts_decoded_bytes() {
    let plain = |length: usize| vec![b'x'; length];
    check_cap(1000, &[], plain(999), false, false);
    check_cap(1000, &[], plain(1000), false, false);
    check_cap(1000, &[], plain(1001), false, true);
    check_cap(1000, &[], plain(1000), true, false);
    check_cap(1000, &[], plain(5000), true, true);
    check_cap(0, &[], plain(0), false, false);
    check_cap(0, &[], plain(1), false, true);
    // A gzip bomb: 64 MiB of zeros in about 64 KiB, far under the 1 MiB cap on the wire.
    let bomb = gzip(&vec![0u8; 64 * 1024 * 1024]);
    assert!(bomb.len() < 1024 * 1024, "bomb is {} bytes", bomb.len());
    check_cap(
        1024 * 1024,
        &[("Content-Encoding", "gzip")],
        bomb,
        false,
        true,
    );
    let zeros = gzip(&vec![0u8; 1024 * 1024]);
    check_cap(
        1024 * 1024,
        &[("Content-Encoding", "gzip")],
        zeros,
        true,
        false,
    );
    // Brotli goes through the same decoded cap.
    check_cap(
        100_000,
        &[("Content-Encoding", "br")],
        brotli_stored(&plain(100_001)),
        false,
        true,
    );
    check_cap(
        100_000,
        &[("Content-Encoding", "br")],
        brotli_stored(&plain(99_000)),
        false,
        false,
    );
}

#[test]
fn a_silent_server_times_out() {
    let server = serve(|_| Reply::Silence);
    let fetcher = HttpFetcher::new(HttpOptions {
        timeout: Duration::from_millis(300),
        ..HttpOptions::default()
    });
    let url = server.url("/slow");
    let answer = get(&fetcher, &url);
    server.finish();
    assert_eq!(answer, Err(FetchError::Timeout { url }));
}

fn check_connection_failure(url: &str) {
    match get(&HttpFetcher::default(), url) {
        Err(FetchError::Connection {
            url: failed,
            reason,
        }) => {
            assert_eq!(failed, url);
            assert!(!reason.is_empty());
        }
        other => panic!("{url}: expected a connection failure, got {other:?}"),
    }
}

#[test]
fn a_closed_port_is_a_connection_failure() {
    check_connection_failure(&format!("http://127.0.0.1:{}/", closed_port()));
}

#[test]
fn a_failed_tls_handshake_is_a_connection_failure() {
    // TLS is compiled in: asking for https from a server that speaks plain HTTP fails in the
    // handshake, as a connection failure rather than as an unsupported scheme.
    let server = serve(|_| response(200, &[], b"plain"));
    check_connection_failure(&format!("https://127.0.0.1:{}/", server.port));
    let seen = server.finish();
    assert_eq!(seen[0].path, support::TLS_HANDSHAKE);
}

#[test]
fn urls_that_cannot_be_fetched_are_invalid() {
    for url in [
        "ftp://127.0.0.1/file",
        "http://",
        "not a url",
        "mailto:a@b.test",
    ] {
        match get(&HttpFetcher::default(), url) {
            Err(FetchError::InvalidUrl { url: failed, .. }) => assert_eq!(failed, url),
            other => panic!("{url}: expected an invalid URL, got {other:?}"),
        }
    }
}

#[test]
fn urls_are_sent_as_a_browser_would_send_them() {
    let check = |path: &str, expected_on_the_wire: &str| {
        let server = serve(|_| response(200, &[], b"ok"));
        let url = server.url(path);
        let answer = get(&HttpFetcher::default(), &url).unwrap();
        let seen = server.finish();
        assert_eq!(seen[0].path, expected_on_the_wire, "{path}");
        // The response names the URL as it was asked for, whatever went on the wire.
        assert_eq!(answer.url, url);
    };
    check("/plain?a=1", "/plain?a=1");
    check("/a b/ü?q=ä", "/a%20b/%C3%BC?q=%C3%A4");
    check("/t/1#post-5", "/t/1");
    check("/x/../y", "/y");
}
