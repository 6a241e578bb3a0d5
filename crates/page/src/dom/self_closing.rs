//! XHTML-style self-closed elements, rewritten before parsing so they stay empty.

/// Elements that never have content, for which `<x/>` and `<x>` mean the same.
const VOID_ELEMENTS: [&str; 14] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// Rewrites `<name .../>` as `<name ...></name>` for elements that are not void.
///
/// Browsers ignore the slash and leave such an element open, so the rest of the page nests inside
/// a `<span/>` anchor or an empty `<div/>`. Pages written as XHTML (some engines and themes emit
/// it, and archives and data sets re-serialise pages that way) mean an empty element, and reading
/// them as a browser would turns the whole post list into one deep chain. The rewrite skips
/// comments and the raw text of scripts, styles and text areas.
pub(super) fn expand_self_closing(html: &str) -> std::borrow::Cow<'_, str> {
    if !html.contains("/>") {
        return std::borrow::Cow::Borrowed(html);
    }
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len() + html.len() / 32);
    let mut copied = 0;
    let mut index = 0;
    // The scans below are `memchr`'s vectorised searches: this runs over every byte of every
    // page before html5ever does, and byte-at-a-time loops made it cost a tenth of the parse.
    while let Some(offset) = memchr::memchr(b'<', &bytes[index..]) {
        let start = index + offset;
        if html[start..].starts_with("<!--") {
            index = memchr::memmem::find(&bytes[start..], b"-->")
                .map_or(bytes.len(), |end| start + end + 3);
            continue;
        }
        let name_start = start + 1;
        if !bytes.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
            index = name_start;
            continue;
        }
        let name_end = bytes[name_start..]
            .iter()
            .position(|&b| b.is_ascii_whitespace() || b == b'/' || b == b'>')
            .map_or(bytes.len(), |p| name_start + p);
        // Compared without a lowercase copy: this runs for every tag of the page.
        let name = &html[name_start..name_end];
        // Find the tag's end, honouring quoted attribute values: outside quotes a `>` ends the
        // tag and a quote opens a value, which only the same quote closes.
        let Some(end) = tag_end(bytes, name_end) else {
            break;
        };
        let self_closed = bytes[end - 1] == b'/';
        if self_closed
            && !VOID_ELEMENTS
                .iter()
                .any(|void| void.eq_ignore_ascii_case(name))
        {
            out.push_str(&html[copied..end - 1]);
            out.push_str("></");
            out.push_str(&name.to_ascii_lowercase());
            out.push('>');
            copied = end + 1;
            index = end + 1;
            continue;
        }
        index = end + 1;
        let raw_text = ["script", "style", "textarea"]
            .iter()
            .any(|raw| raw.eq_ignore_ascii_case(name));
        if raw_text && !self_closed {
            index = find_closing_tag(bytes, index, name.as_bytes()).unwrap_or(bytes.len());
        }
    }
    out.push_str(&html[copied..]);
    std::borrow::Cow::Owned(out)
}

/// The position of the `>` that ends the tag whose name ends at `from`, quoted attribute values
/// skipped whole; `None` when the page ends first.
fn tag_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut index = from;
    loop {
        let found = index + memchr::memchr3(b'>', b'"', b'\'', bytes.get(index..)?)?;
        match bytes[found] {
            b'>' => return Some(found),
            quote => {
                let closing = memchr::memchr(quote, &bytes[found + 1..])?;
                index = found + 1 + closing + 1;
            }
        }
    }
}

/// The position of `</name` (any case) at or after `from`, without copying the document: raw-text
/// elements are frequent (dozens of scripts per page) and lower-casing the rest of the page for
/// each would make the scan quadratic.
fn find_closing_tag(bytes: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut index = from;
    while let Some(offset) = memchr::memmem::find(bytes.get(index..)?, b"</") {
        let start = index + offset;
        let candidate = bytes.get(start + 2..start + 2 + name.len())?;
        if candidate.eq_ignore_ascii_case(name) {
            return Some(start);
        }
        index = start + 2;
    }
    None
}
