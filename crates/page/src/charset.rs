//! Turning the bytes a server sent into text, whatever charset they are in.
//!
//! The order follows the HTML standard's encoding sniffing, simplified to what forums need: a byte
//! order mark wins; then the `charset` of the `Content-Type` header; then a `<meta charset>` or
//! `<meta http-equiv="Content-Type" content="...; charset=...">` in the first 4 KB; then a guess
//! by `chardetng` from the bytes themselves; then windows-1252. Many Chinese forums name GBK or
//! Big5 only in the `<meta>` tag, and some name nothing at all, which is why the guess matters.
//! Decoding never fails: bytes that do not fit the chosen charset become U+FFFD and the result
//! says so.

use encoding_rs::Encoding;

/// Where the charset decision came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharsetSource {
    /// A byte order mark.
    ByteOrderMark,
    /// The HTTP `Content-Type` header.
    Header,
    /// A `<meta>` tag in the document.
    Meta,
    /// A `<meta>` tag named a legacy charset, but the bytes are UTF-8 with characters beyond
    /// ASCII: a page a browser saved as UTF-8 keeps the `<meta>` of the charset it was served in.
    MetaContradictedByUtf8,
    /// Guessed from the bytes.
    Detected,
}

/// A decoded page.
#[derive(Debug, Clone)]
pub struct DecodedPage {
    /// The page as Unicode text.
    pub text: String,
    /// The charset it was decoded from.
    pub encoding: &'static Encoding,
    /// How that charset was chosen.
    pub source: CharsetSource,
    /// True when some bytes did not fit the charset and were replaced by U+FFFD.
    pub had_errors: bool,
}

/// How far into the document `<meta>` declarations are looked for (the standard says 1024 bytes;
/// forums with long `<head>` comments put them later, so trawl looks a little further).
const META_SCAN_BYTES: usize = 4096;

/// Decodes `bytes` as an HTML page served with the given `Content-Type` header value.
/// `top_level_domain` ("cn", "tw", "de"...) helps the guess when nothing is declared.
pub fn decode_html(
    bytes: &[u8],
    content_type: Option<&str>,
    top_level_domain: Option<&str>,
) -> DecodedPage {
    let (encoding, source) = choose_encoding(bytes, content_type, top_level_domain);
    // `decode` strips a BOM of any Unicode charset and reports malformed sequences.
    let (text, used, had_errors) = encoding.decode(bytes);
    DecodedPage {
        text: text.into_owned(),
        encoding: used,
        source,
        had_errors,
    }
}

fn choose_encoding(
    bytes: &[u8],
    content_type: Option<&str>,
    top_level_domain: Option<&str>,
) -> (&'static Encoding, CharsetSource) {
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return (encoding, CharsetSource::ByteOrderMark);
    }
    if let Some(encoding) = content_type
        .and_then(charset_parameter)
        .and_then(html_encoding)
    {
        return (encoding, CharsetSource::Header);
    }
    if let Some(encoding) = meta_charset(&bytes[..bytes.len().min(META_SCAN_BYTES)]) {
        // Bytes beyond ASCII that form valid UTF-8 throughout are next to impossible in a page
        // really written in a legacy charset of any length (its accented letters and ideographs
        // would have to pair up into UTF-8 sequences everywhere), and exactly what a saved page
        // holds; the declaration is the stale one.
        if encoding != encoding_rs::UTF_8 && !bytes.is_ascii() && std::str::from_utf8(bytes).is_ok()
        {
            return (encoding_rs::UTF_8, CharsetSource::MetaContradictedByUtf8);
        }
        return (encoding, CharsetSource::Meta);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let tld = top_level_domain.map(str::as_bytes);
    (
        detector.guess(tld, chardetng::Utf8Detection::Allow),
        CharsetSource::Detected,
    )
}

/// An encoding label as HTML uses it: UTF-16 declared in a document means UTF-8 (the document
/// could not have been read to find the declaration otherwise), and `x-user-defined` is
/// windows-1252 for our purposes.
fn html_encoding(label: &str) -> Option<&'static Encoding> {
    let encoding = Encoding::for_label(label.trim().as_bytes())?;
    if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
        return Some(encoding_rs::UTF_8);
    }
    if encoding == encoding_rs::X_USER_DEFINED {
        return Some(encoding_rs::WINDOWS_1252);
    }
    Some(encoding)
}

/// The `charset=` parameter of a `Content-Type` value.
fn charset_parameter(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|parameter| {
        let (name, value) = parameter.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches(['"', '\'']))
    })
}

/// Finds a charset declared by a `<meta>` tag in the leading bytes of a document. The scan works
/// on bytes and ASCII case folding only, because the charset is not known yet.
fn meta_charset(head: &[u8]) -> Option<&'static Encoding> {
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let mut from = 0;
    while let Some(offset) = find(&lower[from..], b"<meta") {
        let start = from + offset + 5;
        let end = lower[start..]
            .iter()
            .position(|&b| b == b'>')
            .map_or(lower.len(), |p| start + p);
        let tag = &lower[start..end];
        if let Some(position) = find(tag, b"charset") {
            let rest = &tag[position + 7..];
            let rest = skip_spaces(rest);
            if let Some(rest) = rest.strip_prefix(b"=") {
                let value = skip_spaces(rest);
                let value = value
                    .strip_prefix(b"\"")
                    .or_else(|| value.strip_prefix(b"'"))
                    .unwrap_or(value);
                let length = value
                    .iter()
                    .position(|&b| matches!(b, b'"' | b'\'' | b';' | b' ' | b'/' | b'>'))
                    .unwrap_or(value.len());
                if let Some(encoding) = std::str::from_utf8(&value[..length])
                    .ok()
                    .and_then(html_encoding)
                {
                    return Some(encoding);
                }
            }
        }
        from = end.max(start);
    }
    None
}

fn skip_spaces(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    &bytes[start..]
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(bytes: &[u8], content_type: Option<&str>, expected: &str, source: CharsetSource) {
        let page = decode_html(bytes, content_type, None);
        assert_eq!(
            page.encoding.name(),
            expected,
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
        assert_eq!(page.source, source);
    }

    #[test]
    fn the_declaration_order_is_followed() {
        let gbk_meta = b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gbk\" /></head></html>";
        check(gbk_meta, None, "GBK", CharsetSource::Meta);
        check(
            gbk_meta,
            Some("text/html; charset=UTF-8"),
            "UTF-8",
            CharsetSource::Header,
        );
        check(
            b"\xEF\xBB\xBF<p>x</p>",
            Some("text/html; charset=gbk"),
            "UTF-8",
            CharsetSource::ByteOrderMark,
        );
        check(b"<meta charset='big5'>", None, "Big5", CharsetSource::Meta);
        check(
            b"<META CHARSET = \"Shift_JIS\">",
            None,
            "Shift_JIS",
            CharsetSource::Meta,
        );
        check(
            b"<meta charset=\"utf-16\">",
            None,
            "UTF-8",
            CharsetSource::Meta,
        );
        // An unknown label is ignored; plain ASCII is then read as UTF-8, which decodes it alike.
        check(
            b"<meta charset=\"no-such-thing\"><p>plain</p>",
            Some("text/html"),
            "UTF-8",
            CharsetSource::Detected,
        );
    }

    #[test]
    fn undeclared_legacy_charsets_are_guessed() {
        let chinese = "<html><body><p>昨天我的电脑系统突然不能启动了，请问大家应该怎么办？谢谢大家的帮助。</p></body></html>";
        let (gbk, _, _) = encoding_rs::GBK.encode(chinese);
        let page = decode_html(&gbk, Some("text/html"), Some("cn"));
        assert_eq!(page.encoding.name(), "GBK");
        assert_eq!(page.text, chinese);
        let (big5, _, _) = encoding_rs::BIG5
            .encode("<p>昨天我的電腦系統突然不能啟動了，請問大家應該怎麼辦？謝謝。</p>");
        assert_eq!(decode_html(&big5, None, Some("tw")).encoding.name(), "Big5");
        let (japanese, _, _) = encoding_rs::SHIFT_JIS
            .encode("<p>昨日からパソコンが起動しません。どうすればいいですか。</p>");
        assert_eq!(
            decode_html(&japanese, None, Some("jp")).encoding.name(),
            "Shift_JIS"
        );
        let (western, _, _) =
            encoding_rs::WINDOWS_1252.encode("<p>Über die Brücke, süß und schön.</p>");
        assert_eq!(
            decode_html(&western, None, Some("de")).encoding.name(),
            "windows-1252"
        );
    }

    #[test]
    fn a_saved_page_in_utf8_overrules_its_stale_meta() {
        let saved = "<meta charset=\"windows-1252\"><p>Über die Brücke, süß und schön.</p>";
        let page = decode_html(saved.as_bytes(), None, None);
        assert_eq!(page.encoding.name(), "UTF-8");
        assert_eq!(page.source, CharsetSource::MetaContradictedByUtf8);
        assert_eq!(page.text, saved);
        let saved_chinese = "<meta charset=\"gbk\"><p>昨天我的电脑系统突然不能启动了</p>";
        let page = decode_html(saved_chinese.as_bytes(), None, None);
        assert_eq!(page.text, saved_chinese);
        // Real legacy bytes, and pages all in ASCII, keep their declaration.
        let (western, _, _) = encoding_rs::WINDOWS_1252
            .encode("<meta charset=\"windows-1252\"><p>Über die Brücke, süß.</p>");
        check(&western, None, "windows-1252", CharsetSource::Meta);
        let (gbk, _, _) = encoding_rs::GBK.encode("<meta charset=\"gbk\"><p>昨天我的电脑系统</p>");
        check(&gbk, None, "GBK", CharsetSource::Meta);
        check(
            b"<meta charset=\"gbk\"><p>plain</p>",
            None,
            "GBK",
            CharsetSource::Meta,
        );
        // The header is what the server says now, and it is obeyed.
        check(
            saved.as_bytes(),
            Some("text/html; charset=windows-1252"),
            "windows-1252",
            CharsetSource::Header,
        );
    }

    #[test]
    fn wrong_declarations_are_reported_not_fatal() {
        let (gbk, _, _) = encoding_rs::GBK.encode("<p>电脑问题</p>");
        let page = decode_html(&gbk, Some("text/html; charset=utf-8"), None);
        assert!(page.had_errors);
        assert!(page.text.contains('\u{FFFD}'));
        assert!(decode_html(b"", None, None).text.is_empty());
    }
}
