//! Who may use the console. On a loopback address, anyone on the machine, as with every other
//! local tool; on any other address, only a browser that shows the console's token, since the
//! console can change a crawl's plan. The token comes once in the URL printed at start
//! (`?token=...`), which the console trades for a cookie and a redirect to the same page
//! without it, so the token does not stay in the address bar or the history; scripts may send
//! it as `Authorization: Bearer ...` instead.
//!
//! Forms that change the plan are also refused when the browser says they were sent from
//! another origin, so that a page on another site cannot post to a console on loopback.

use std::io::Read;
use std::net::SocketAddr;

/// The cookie holding the token.
pub const TOKEN_COOKIE: &str = "trawl_console_token";

/// Whether an address needs a token: every address but a loopback one.
pub fn needs_token(address: &SocketAddr) -> bool {
    !address.ip().is_loopback()
}

/// A new token: 128 bits from the operating system's random source, in hexadecimal.
pub fn new_token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// Compares two texts in time that depends on their lengths only, so that the time an answer
/// takes tells nothing about how much of a guessed token was right.
pub fn same_secret(given: &str, expected: &str) -> bool {
    given.len() == expected.len()
        && given
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |difference, (a, b)| difference | (a ^ b))
            == 0
}

/// What a request shows of the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// In its query: trade it for the cookie.
    InQuery,
    /// In its cookie or its authorization header.
    Held,
    /// Not at all, or a wrong one.
    Not,
}

/// Looks for `token` in a request's query, `Cookie` header and `Authorization` header.
pub fn token_shown(
    token: &str,
    query: Option<&str>,
    cookie: Option<&str>,
    authorization: Option<&str>,
) -> Shown {
    let in_query = query.is_some_and(|query| {
        url::form_urlencoded::parse(query.as_bytes())
            .any(|(name, value)| name == "token" && same_secret(&value, token))
    });
    if in_query {
        return Shown::InQuery;
    }
    let in_cookie = cookie.is_some_and(|cookie| {
        cookie.split(';').any(|pair| {
            pair.trim()
                .split_once('=')
                .is_some_and(|(name, value)| name == TOKEN_COOKIE && same_secret(value, token))
        })
    });
    let in_header = authorization.is_some_and(|header| {
        header
            .strip_prefix("Bearer ")
            .is_some_and(|given| same_secret(given.trim(), token))
    });
    if in_cookie || in_header {
        Shown::Held
    } else {
        Shown::Not
    }
}

/// The query without its `token` pair, for the redirect after the trade.
pub fn query_without_token(query: &str) -> Option<String> {
    let kept: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
        .filter(|(name, _)| name != "token")
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    if kept.is_empty() {
        return None;
    }
    Some(
        url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(kept)
            .finish(),
    )
}

/// Whether a form was posted from the console's own pages: a browser names the origin of a
/// cross-site post, and it must then be this host.
pub fn same_origin(origin: Option<&str>, host: Option<&str>) -> bool {
    match (origin, host) {
        (None, _) => true,
        (Some(origin), Some(host)) => origin
            .split_once("://")
            .is_some_and(|(_, rest)| rest.eq_ignore_ascii_case(host)),
        (Some(_), None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(
        query: Option<&str>,
        cookie: Option<&str>,
        authorization: Option<&str>,
        expected: Shown,
    ) {
        assert_eq!(
            token_shown("abc123", query, cookie, authorization),
            expected,
            "{query:?} {cookie:?} {authorization:?}"
        );
    }

    #[test]
    fn the_token_is_read_from_query_cookie_or_header() {
        check(Some("token=abc123"), None, None, Shown::InQuery);
        check(Some("from=3&token=abc123"), None, None, Shown::InQuery);
        check(Some("token=abc124"), None, None, Shown::Not);
        check(
            None,
            Some("a=1; trawl_console_token=abc123"),
            None,
            Shown::Held,
        );
        check(None, Some("trawl_console_token=abc12"), None, Shown::Not);
        check(None, Some("other_token=abc123"), None, Shown::Not);
        check(None, None, Some("Bearer abc123"), Shown::Held);
        check(None, None, Some("Basic abc123"), Shown::Not);
        check(None, None, None, Shown::Not);
    }

    #[test]
    fn loopback_needs_no_token() {
        assert!(!needs_token(&"127.0.0.1:8088".parse().unwrap()));
        assert!(!needs_token(&"[::1]:8088".parse().unwrap()));
        assert!(needs_token(&"0.0.0.0:8088".parse().unwrap()));
        assert!(needs_token(&"192.168.1.5:80".parse().unwrap()));
    }

    #[test]
    fn tokens_are_new_each_time() {
        let first = new_token().unwrap();
        assert_eq!(first.len(), 32);
        assert_ne!(first, new_token().unwrap());
    }

    #[test]
    fn the_redirect_keeps_the_other_query_pairs() {
        assert_eq!(query_without_token("token=x"), None);
        assert_eq!(
            query_without_token("url=http%3A%2F%2Ff.test%2F&token=x"),
            Some("url=http%3A%2F%2Ff.test%2F".to_string())
        );
    }

    #[test]
    fn posts_from_other_origins_are_refused() {
        assert!(same_origin(None, Some("127.0.0.1:8088")));
        assert!(same_origin(
            Some("http://127.0.0.1:8088"),
            Some("127.0.0.1:8088")
        ));
        assert!(!same_origin(
            Some("http://evil.test"),
            Some("127.0.0.1:8088")
        ));
        assert!(!same_origin(Some("http://127.0.0.1:8088"), None));
    }
}
