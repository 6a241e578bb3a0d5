//! Small helpers shared by the families' templates and URL codecs.

use std::fmt::Write;

/// Escapes text for HTML element content and attribute values.
///
/// Runs without a character to escape are copied whole: every text of every simulated page
/// passes through here, and copying character by character made it a visible part of serving a
/// page in process. The five characters are ASCII, so a byte test finds them without decoding.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len() + 8);
    let mut copied = 0;
    for (index, byte) in text.bytes().enumerate() {
        let replacement = match byte {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        escaped.push_str(&text[copied..index]);
        escaped.push_str(replacement);
        copied = index + 1;
    }
    escaped.push_str(&text[copied..]);
    escaped
}

/// Splits `path?query` (a fragment, if any, is dropped).
pub fn split_path_and_query(path_and_query: &str) -> (&str, &str) {
    let without_fragment = path_and_query.split('#').next().unwrap_or("");
    match without_fragment.split_once('?') {
        Some((path, query)) => (path, query),
        None => (without_fragment, ""),
    }
}

/// Parses a query string into key/value pairs. Both `&` and `;` separate pairs (SMF uses `;`);
/// keys and values are percent-decoded.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .split(['&', ';'])
        .filter(|pair| !pair.is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((key, value)) => (percent_decode(key), percent_decode(value)),
            None => (percent_decode(pair), String::new()),
        })
        .collect()
}

/// The value of the first `key` in parsed query pairs.
pub fn query_value<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(name, _)| name == key)
        .map(|(_, value)| value.as_str())
}

/// The value of `key` parsed as a number.
pub fn query_number(pairs: &[(String, String)], key: &str) -> Option<u32> {
    query_value(pairs, key).and_then(|value| value.parse().ok())
}

/// Percent-encodes everything but unreserved characters and `/`.
pub fn percent_encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~' | b'/') {
            encoded.push(byte as char);
        } else {
            let _ = write!(encoded, "%{byte:02X}");
        }
    }
    encoded
}

/// Decodes `%XX` escapes and `+` as space; invalid escapes are kept as written.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'%' if index + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[index + 1..index + 3]).unwrap_or("");
                match u8::from_str_radix(hex, 16) {
                    Ok(value) => {
                        decoded.push(value);
                        index += 3;
                    }
                    Err(_) => {
                        decoded.push(b'%');
                        index += 1;
                    }
                }
            }
            b'+' => {
                decoded.push(b' ');
                index += 1;
            }
            other => {
                decoded.push(other);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

/// Formats a session token the way URL-session engines print them: 32 hex digits.
pub fn session_hex(token: u64) -> String {
    format!(
        "{:016x}{:016x}",
        token,
        token.rotate_left(29) ^ 0x5DEE_CE66_D1CE_4E5B
    )
}

/// Reads a session token back from its printed form (any text is accepted: engines accept and
/// replace unknown ids, so every value names some session).
pub fn session_token(text: &str) -> u64 {
    // `get` rather than slicing: a hostile session value may put a multi-byte character across
    // byte 16, and slicing there would panic the server.
    if let Some(Ok(value)) = text.get(..16).map(|prefix| u64::from_str_radix(prefix, 16)) {
        return value;
    }
    crate::random::hash_text(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_split_on_both_separators() {
        let pairs = parse_query("topic=12.0;action=print&next=%2Ft%2F3+x");
        assert_eq!(query_value(&pairs, "topic"), Some("12.0"));
        assert_eq!(query_value(&pairs, "action"), Some("print"));
        assert_eq!(query_value(&pairs, "next"), Some("/t/3 x"));
        assert_eq!(split_path_and_query("/a/b?x=1#frag"), ("/a/b", "x=1"));
    }

    #[test]
    fn percent_round_trip_and_bad_escapes() {
        let original = "/viewtopic.php?t=3&start=15";
        assert_eq!(percent_decode(&percent_encode(original)), original);
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
    }

    #[test]
    fn session_tokens_round_trip() {
        let token = 0x0123_4567_89ab_cdef;
        assert_eq!(session_token(&session_hex(token)), token);
        // Regression: a multi-byte character across byte 16 once panicked here.
        let hostile = "0123456789abcdeé";
        assert_eq!(session_token(hostile), session_token(hostile));
        assert_eq!(
            escape("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
    }
}
