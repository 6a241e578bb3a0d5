//! Rebuilding the HTTP messages a record block holds, from what the fetcher kept.
//!
//! A `FetchResponse` keeps the status, the headers in the order received and the body *after*
//! content decoding (gzip, brotli) and transfer decoding (chunked). It does not keep the HTTP
//! version, the reason phrase or the bytes on the wire. The blocks written here are therefore a
//! faithful *description* of the exchange in HTTP/1.1 form rather than a byte copy of it:
//!
//! - The status line says `HTTP/1.1`, because the version was not kept and HTTP/2 or HTTP/3
//!   framing cannot be written into an `application/http` block anyway (warcprox and warcio do
//!   the same). The reason phrase is the standard one for the code, again because the server's
//!   own was not kept.
//! - `Content-Encoding`, `Transfer-Encoding` and `Content-Length` as received are renamed to
//!   `X-Archive-Orig-Content-Encoding` and so on, and a `Content-Length` giving the length of
//!   the archived body is appended. A replay tool that saw `Content-Encoding: gzip` would try to
//!   gunzip a body that is already plain and show garbage; one that saw `Transfer-Encoding:
//!   chunked` would try to de-chunk it; the received `Content-Length` counts compressed bytes.
//!   Renaming rather than dropping keeps the evidence of what the server sent, and the
//!   `X-Archive-Orig-` prefix is the one pywb itself uses for original headers, so archive tools
//!   and their users recognise it while no HTTP parser acts on it. Re-compressing the body to match
//!   the original header was rejected: it costs CPU, needs a brotli encoder, and would still not
//!   give the server's bytes back (another compressor makes other bytes).
//! - Header names and values are sanitised so nothing a server sends can end a header line early
//!   or forge another header (see [`sanitise_field_name`] and [`sanitise_field_value`]).

use trawl_model::Header;
use url::Url;

use crate::error::WarcError;

/// The prefix given to received headers that no longer describe the archived body.
pub const ORIGINAL_HEADER_PREFIX: &str = "X-Archive-Orig-";

/// The received headers that are renamed with [`ORIGINAL_HEADER_PREFIX`], lower case.
const HEADERS_DESCRIBING_WIRE_BYTES: [&str; 3] =
    ["content-encoding", "transfer-encoding", "content-length"];

/// Checks that `uri` can be the `WARC-Target-URI` of an HTTP record and returns the spelling to
/// write together with the parsed URL.
///
/// A URI that is printable ASCII without spaces is written exactly as given, so the archive names
/// the resource the way the crawler's store does. One with spaces or non-ASCII characters (an IRI)
/// is written in the `url` crate's normalised form, which percent-encodes them and spells the host
/// in punycode, because a header value must be a URI. Control characters (including CR and LF)
/// are refused outright rather than stripped: a URL containing them is a bug upstream, and
/// silently archiving a different URL would hide it.
pub(crate) fn checked_target_uri(uri: &str) -> Result<(String, Url), WarcError> {
    let refuse = |reason: &str| WarcError::InvalidTargetUri {
        uri: uri.to_string(),
        reason: reason.to_string(),
    };
    if uri.chars().any(|character| character.is_control()) {
        return Err(refuse("it contains control characters"));
    }
    let parsed =
        Url::parse(uri).map_err(|error| refuse(&format!("not an absolute URL ({error})")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(refuse("only http and https exchanges are archived"));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(refuse("it names no host"));
    }
    let printable_ascii = uri.bytes().all(|byte| byte.is_ascii_graphic());
    let spelling = if printable_ascii {
        uri.to_string()
    } else {
        parsed.as_str().to_string()
    };
    Ok((spelling, parsed))
}

/// The head (status line, headers, empty line) of the archived response.
///
/// `archived_body_length` is the length of the body that follows in the block; a
/// `Content-Length` is appended for it unless the status forbids a body and there is none
/// (1xx, 204 and 304 answers, whose received `Content-Length`, if any, describes another
/// representation).
pub(crate) fn response_head(
    status: u16,
    headers: &[Header],
    archived_body_length: u64,
) -> Result<Vec<u8>, WarcError> {
    if !(100..=999).contains(&status) {
        return Err(WarcError::InvalidStatus { status });
    }
    let mut head = Vec::with_capacity(64 + headers.len() * 48);
    head.extend_from_slice(format!("HTTP/1.1 {status} {}\r\n", reason_phrase(status)).as_bytes());
    for (name, value) in headers {
        let Some(name) = sanitise_field_name(name.as_bytes()) else {
            continue;
        };
        let describes_wire_bytes = HEADERS_DESCRIBING_WIRE_BYTES
            .iter()
            .any(|wire_header| name.eq_ignore_ascii_case(wire_header.as_bytes()));
        if describes_wire_bytes {
            head.extend_from_slice(ORIGINAL_HEADER_PREFIX.as_bytes());
        }
        push_field(&mut head, &name, value.as_bytes());
    }
    let body_forbidden = matches!(status, 100..=199 | 204 | 304);
    if !(body_forbidden && archived_body_length == 0) {
        push_field(
            &mut head,
            b"Content-Length",
            archived_body_length.to_string().as_bytes(),
        );
    }
    head.extend_from_slice(b"\r\n");
    Ok(head)
}

/// The head of the archived request: a `GET` of the URL's path and query, its `Host`, then the
/// request's own headers.
///
/// `FetchRequest` holds only the headers the crawler added (conditional headers, say); headers a
/// fetcher adds by itself, such as `User-Agent`, appear only if the caller put them into the
/// request. A `Host` among the request's headers is skipped because the one derived from the URL
/// is what was sent, and two would make the message invalid.
pub(crate) fn request_head(url: &Url, headers: &[Header]) -> Vec<u8> {
    let mut target = url.path().to_string();
    if target.is_empty() {
        target.push('/');
    }
    if let Some(query) = url.query() {
        target.push('?');
        target.push_str(query);
    }
    let mut host = url.host_str().unwrap_or_default().to_string();
    if let Some(port) = url.port() {
        host.push_str(&format!(":{port}"));
    }
    let mut head = Vec::with_capacity(64 + target.len() + headers.len() * 48);
    head.extend_from_slice(format!("GET {target} HTTP/1.1\r\n").as_bytes());
    push_field(&mut head, b"Host", host.as_bytes());
    for (name, value) in headers {
        let Some(name) = sanitise_field_name(name.as_bytes()) else {
            continue;
        };
        if name.eq_ignore_ascii_case(b"host") {
            continue;
        }
        push_field(&mut head, &name, value.as_bytes());
    }
    head.extend_from_slice(b"\r\n");
    head
}

/// Appends `name: value` and CRLF, the value sanitised.
pub(crate) fn push_field(head: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    head.extend_from_slice(name);
    head.extend_from_slice(b": ");
    head.extend_from_slice(&sanitise_field_value(value));
    head.extend_from_slice(b"\r\n");
}

/// A header name made safe to write: every byte that is not an RFC 9110 token character
/// (control characters, spaces, colons, non-ASCII) becomes `-`. `None` for an empty name, which
/// cannot be written at all.
///
/// Replacing rather than dropping the header keeps what the server said visible in the archive;
/// a name that needed replacing is already unusable to any HTTP client, so nothing relies on it.
pub(crate) fn sanitise_field_name(name: &[u8]) -> Option<Vec<u8>> {
    if name.is_empty() {
        return None;
    }
    Some(
        name.iter()
            .map(|&byte| if is_token_byte(byte) { byte } else { b'-' })
            .collect(),
    )
}

/// A header value made safe to write: CR, LF, NUL and every other control character except
/// horizontal tab become a space (RFC 9110, section 5.5, allows exactly this replacement for CR,
/// LF and NUL), and leading and trailing whitespace is trimmed. Bytes above 0x7F are kept as they
/// are: HTTP allows them as `obs-text`, and WARC readers decode them as UTF-8 or Latin-1.
pub(crate) fn sanitise_field_value(value: &[u8]) -> Vec<u8> {
    let replaced: Vec<u8> = value
        .iter()
        .map(|&byte| {
            if byte == b'\t' || !(byte < 0x20 || byte == 0x7f) {
                byte
            } else {
                b' '
            }
        })
        .collect();
    let is_whitespace = |byte: &u8| *byte == b' ' || *byte == b'\t';
    let start = replaced
        .iter()
        .position(|byte| !is_whitespace(byte))
        .unwrap_or(replaced.len());
    let end = replaced
        .iter()
        .rposition(|byte| !is_whitespace(byte))
        .map_or(start, |last| last + 1);
    replaced[start..end].to_vec()
}

/// RFC 9110 `tchar`.
fn is_token_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

/// The standard reason phrase of `status` (RFC 9110 and the IANA registry), or the name of its
/// class for an unregistered code. The server's own phrase was not kept; an empty phrase is legal
/// HTTP but some older archive readers split the status line on its last space and stumble on it.
fn reason_phrase(status: u16) -> &'static str {
    registered_reason_phrase(status).unwrap_or(match status {
        100..=199 => "Informational",
        200..=299 => "Success",
        300..=399 => "Redirection",
        400..=499 => "Client Error",
        500..=599 => "Server Error",
        _ => "Unknown",
    })
}

/// The phrase RFC 9110 or the IANA status code registry gives `status`, if any.
fn registered_reason_phrase(status: u16) -> Option<&'static str> {
    let phrase = match status {
        100 => "Continue",
        101 => "Switching Protocols",
        102 => "Processing",
        103 => "Early Hints",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        203 => "Non-Authoritative Information",
        204 => "No Content",
        205 => "Reset Content",
        206 => "Partial Content",
        207 => "Multi-Status",
        208 => "Already Reported",
        226 => "IM Used",
        300 => "Multiple Choices",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        305 => "Use Proxy",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        407 => "Proxy Authentication Required",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        416 => "Range Not Satisfiable",
        417 => "Expectation Failed",
        421 => "Misdirected Request",
        422 => "Unprocessable Content",
        423 => "Locked",
        424 => "Failed Dependency",
        425 => "Too Early",
        426 => "Upgrade Required",
        428 => "Precondition Required",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        451 => "Unavailable For Legal Reasons",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        506 => "Variant Also Negotiates",
        507 => "Insufficient Storage",
        508 => "Loop Detected",
        510 => "Not Extended",
        511 => "Network Authentication Required",
        _ => return None,
    };
    Some(phrase)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_value(input: &[u8], expected: &[u8]) {
        assert_eq!(
            sanitise_field_value(input),
            expected,
            "value {:?}",
            String::from_utf8_lossy(input)
        );
    }

    #[test]
    fn values_cannot_break_a_header_line() {
        check_value(b"text/html", b"text/html");
        check_value(b"  padded\t", b"padded");
        check_value(b"a\r\nX-Evil: 1", b"a  X-Evil: 1");
        check_value(b"a\rb\nc\0d", b"a b c d");
        check_value(b"bell\x07 and del\x7f", b"bell  and del");
        check_value(b"tab\tinside", b"tab\tinside");
        check_value("caf\u{e9}".as_bytes(), "caf\u{e9}".as_bytes());
        check_value(b"\xff\xfe raw", b"\xff\xfe raw");
        check_value(b"", b"");
        check_value(b"\r\n", b"");
    }

    fn check_name(input: &[u8], expected: Option<&[u8]>) {
        assert_eq!(
            sanitise_field_name(input).as_deref(),
            expected,
            "name {:?}",
            String::from_utf8_lossy(input)
        );
    }

    #[test]
    fn names_become_tokens() {
        check_name(b"Content-Type", Some(b"Content-Type"));
        check_name(b"x_odd.name~1", Some(b"x_odd.name~1"));
        check_name(b"Bad Name", Some(b"Bad-Name"));
        check_name(b"a:b", Some(b"a-b"));
        check_name(b"X\r\nInjected", Some(b"X--Injected"));
        check_name("N\u{e4}me".as_bytes(), Some(b"N--me"));
        check_name(b"", None);
    }

    fn check_uri(input: &str, expected: Result<&str, &str>) {
        let outcome = checked_target_uri(input);
        match (outcome, expected) {
            (Ok((spelling, _)), Ok(expected_spelling)) => {
                assert_eq!(spelling, expected_spelling, "uri {input:?}")
            }
            (Err(WarcError::InvalidTargetUri { reason, .. }), Err(expected_reason)) => {
                assert!(reason.contains(expected_reason), "uri {input:?}: {reason}")
            }
            (outcome, expected) => panic!("uri {input:?}: got {outcome:?}, expected {expected:?}"),
        }
    }

    #[test]
    fn target_uris_are_checked_and_spelled_as_uris() {
        check_uri(
            "http://forum.example/t?id=1",
            Ok("http://forum.example/t?id=1"),
        );
        check_uri("HTTP://Forum.Example:80/a", Ok("HTTP://Forum.Example:80/a"));
        check_uri(
            "https://forum.example/a b",
            Ok("https://forum.example/a%20b"),
        );
        check_uri(
            "http://b\u{fc}cher.example/\u{e9}",
            Ok("http://xn--bcher-kva.example/%C3%A9"),
        );
        check_uri("http://forum.example/\r\nX: y", Err("control characters"));
        check_uri("http://forum.example/\t", Err("control characters"));
        check_uri("/relative/path", Err("not an absolute URL"));
        check_uri("ftp://files.example/a", Err("only http and https"));
        check_uri("mailto:someone@example.org", Err("only http and https"));
        check_uri("", Err("not an absolute URL"));
    }
}
