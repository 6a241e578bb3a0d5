//! Session ids in the links of the page that opened a session.
//!
//! Engines that keep sessions in URLs for clients without a cookie (phpBB's `sid`, vBulletin's
//! `s`, SMF's `PHPSESSID`, Discuz!'s `sid`) answer a first visit with a session cookie *and*
//! write the same id into every link of that page, since they cannot know yet whether the
//! client keeps cookies. A crawler that keeps the cookie never sees the id again, so the links
//! of that first page are the only ones spelled with it.
//!
//! The crawler used to ask for the portal a second time, as a returning visitor, and read the
//! links of the second answer: one duplicate fetch per crawl, which on a small forum of 340
//! pages is 0.3 % of the whole crawl by itself. Reading the first answer's links without every
//! query pair whose value is the value of a cookie the answer set gives the links a returning
//! visitor sees without that fetch. When the answer set a cookie but no link carries its value,
//! something else may differ for a first visit (a hashed or shortened id, a welcome page) and
//! the crawler still asks again.

use trawl_model::FetchResponse;
use url::Url;

/// Shortest cookie value taken for a session id. Session ids are long random strings (32 hex
/// digits in phpBB, vBulletin and SMF; six letters and digits in Discuz!), while short values
/// such as `en` or `1` also name languages, styles and flags that a link may rightly carry.
const SHORTEST_SESSION_ID: usize = 6;

/// The values of the cookies `response` sets that look like session ids: long enough and
/// holding a digit, so that a word (a language, a style name) is never taken for one.
pub(crate) fn cookie_values(response: &FetchResponse) -> Vec<String> {
    let mut values: Vec<String> = Vec::new();
    for (_, value) in trawl_model::cookies_set_by(response) {
        let value = value.trim_matches('"');
        if value.len() >= SHORTEST_SESSION_ID
            && value.chars().any(|c| c.is_ascii_digit())
            && !values.iter().any(|known| known == value)
        {
            values.push(value.to_string());
        }
    }
    values
}

/// `url` without every query pair whose value is one of `session_values`, or `None` when it
/// carries none. Pairs are separated by `&` or by `;` (SMF appends `;PHPSESSID=` to queries it
/// writes with `;`), and the pairs kept are left exactly as written, so the URL differs from a
/// returning visitor's link only where the session id was.
pub(crate) fn without_session_pairs(url: &Url, session_values: &[String]) -> Option<Url> {
    let query = url.query()?;
    let carries_session = |pair: &str| {
        let value = pair.split_once('=').map_or("", |(_, value)| value);
        session_values.iter().any(|session| session == value)
    };
    // Each pair with the separator written before it (none before the first).
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    let mut start = 0;
    let mut separator = "";
    for (index, character) in query.char_indices() {
        if character == '&' || character == ';' {
            pairs.push((separator, &query[start..index]));
            separator = &query[index..index + 1];
            start = index + 1;
        }
    }
    pairs.push((separator, &query[start..]));
    let kept: Vec<(&str, &str)> = pairs
        .iter()
        .copied()
        .filter(|(_, pair)| !carries_session(pair))
        .collect();
    if kept.len() == pairs.len() {
        return None;
    }
    let mut rewritten_query = String::with_capacity(query.len());
    for (position, (separator, pair)) in kept.iter().enumerate() {
        if position > 0 {
            rewritten_query.push_str(separator);
        }
        rewritten_query.push_str(pair);
    }
    let mut rewritten = url.clone();
    rewritten.set_query((!rewritten_query.is_empty()).then_some(rewritten_query.as_str()));
    Some(rewritten)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(cookies: &[&str]) -> FetchResponse {
        FetchResponse {
            url: "http://f.test/".into(),
            status: 200,
            headers: cookies
                .iter()
                .map(|cookie| ("Set-Cookie".to_string(), cookie.to_string()))
                .collect(),
            body: Vec::new(),
            fetched_at: jiff::Timestamp::UNIX_EPOCH,
        }
    }

    #[test]
    fn session_like_cookie_values_are_read_from_every_set_cookie() {
        let cases: [(&[&str], &[&str]); 6] = [
            (&[], &[]),
            (
                &["phpbb3_sid=0f3a9c2e41b7d8e5; Path=/; HttpOnly"],
                &["0f3a9c2e41b7d8e5"],
            ),
            (
                &["lang=en; Path=/", "PHPSESSID=ab12cd34ef; Path=/"],
                &["ab12cd34ef"],
            ),
            (&["style=prosilver"], &[]),
            (&["tz=1"], &[]),
            (&["a=\"x1y2z3\"", "b=x1y2z3"], &["x1y2z3"]),
        ];
        for (cookies, expected) in cases {
            assert_eq!(cookie_values(&response(cookies)), expected, "{cookies:?}");
        }
    }

    #[test]
    fn query_pairs_carrying_a_session_value_are_dropped() {
        let session = vec!["0f3a9c2e41b7d8e5".to_string()];
        let cases = [
            (
                "http://f.test/viewforum.php?f=2&sid=0f3a9c2e41b7d8e5",
                Some("http://f.test/viewforum.php?f=2"),
            ),
            (
                "http://f.test/index.php?sid=0f3a9c2e41b7d8e5",
                Some("http://f.test/index.php"),
            ),
            (
                "http://f.test/index.php/board,1.0.html?PHPSESSID=0f3a9c2e41b7d8e5#top",
                Some("http://f.test/index.php/board,1.0.html#top"),
            ),
            (
                "http://f.test/index.php?topic=5.0;PHPSESSID=0f3a9c2e41b7d8e5",
                Some("http://f.test/index.php?topic=5.0"),
            ),
            (
                "http://f.test/index.php?PHPSESSID=0f3a9c2e41b7d8e5;board=1.0",
                Some("http://f.test/index.php?board=1.0"),
            ),
            (
                "http://f.test/s.php?q=a%20b&s=0f3a9c2e41b7d8e5&x=1",
                Some("http://f.test/s.php?q=a%20b&x=1"),
            ),
            ("http://f.test/viewforum.php?f=2", None),
            ("http://f.test/viewforum.php?f=2&sid=other", None),
            ("http://f.test/t/slug/5", None),
        ];
        for (before, after) in cases {
            assert_eq!(
                without_session_pairs(&Url::parse(before).unwrap(), &session).map(String::from),
                after.map(str::to_string),
                "{before}"
            );
        }
    }
}
