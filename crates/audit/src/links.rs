//! The links a stored page holds, read from its HTML without building a tree: the audit
//! needs every link of a list page (a pager's link the crawler did not take for page
//! flipping is still a page of the list), and only the `href` of anchors.

use url::Url;

/// The absolute http(s) URLs the anchors (`<a href>`) of `body` point to, each once, in order,
/// fragments kept: a fragment naming a post tells its permalink from a later page spelled alike
/// (`?post=2#2` beside `?page=2`), and the audit drops fragments where it compares pages. `page_url` resolves relative links. Character references that URLs
/// carry in HTML (`&amp;`, `&#38;`) are decoded; a body in another charset than UTF-8 still
/// spells its URLs in ASCII, which is all that is read.
pub fn anchor_links(body: &[u8], page_url: &str) -> Vec<String> {
    let Ok(base) = Url::parse(page_url) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(body);
    let lower = text.to_ascii_lowercase();
    let mut links: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut from = 0;
    while let Some(found) = lower[from..].find("<a") {
        let tag_start = from + found;
        let Some(tag_length) = lower[tag_start..].find('>') else {
            break;
        };
        let tag_end = tag_start + tag_length;
        from = tag_end;
        // `<abbr>`, `<article>`: only an anchor's tag name ends after its `a`.
        if !lower[tag_start + 2..].starts_with(|character: char| character.is_ascii_whitespace()) {
            continue;
        }
        let Some(value) = attribute(
            &text[tag_start..tag_end],
            &lower[tag_start..tag_end],
            "href",
        ) else {
            continue;
        };
        let Ok(url) = base.join(&decode_references(value.trim())) else {
            continue;
        };
        if !matches!(url.scheme(), "http" | "https") {
            continue;
        }
        let url = String::from(url);
        if seen.insert(url.clone()) {
            links.push(url);
        }
    }
    links
}

/// The value of attribute `name` in a tag's text (`tag`, with `lower` its lowercase copy).
fn attribute<'a>(tag: &'a str, lower: &str, name: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(found) = lower[from..].find(name) {
        let start = from + found;
        from = start + name.len();
        let before = lower[..start].chars().next_back();
        if !before.is_some_and(|character| character.is_ascii_whitespace()) {
            continue;
        }
        let rest = lower[from..].trim_start();
        let Some(after_equals) = rest.strip_prefix('=') else {
            continue;
        };
        let value_start = tag.len() - after_equals.trim_start().len();
        let value = &tag[value_start..];
        return Some(match value.chars().next() {
            Some(quote @ ('"' | '\'')) => {
                let inner = &value[1..];
                &inner[..inner.find(quote).unwrap_or(inner.len())]
            }
            _ => {
                let end = value
                    .find(|character: char| character.is_ascii_whitespace() || character == '>')
                    .unwrap_or(value.len());
                &value[..end]
            }
        });
    }
    None
}

/// `value` with the character references URLs carry in HTML decoded.
fn decode_references(value: &str) -> String {
    value
        .replace("&amp;", "&")
        .replace("&#38;", "&")
        .replace("&#x26;", "&")
        .replace("&#x26;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(html: &str, expected: &[&str]) {
        assert_eq!(
            anchor_links(html.as_bytes(), "http://f.test/b/1.html"),
            expected,
            "{html}"
        );
    }

    #[test]
    fn anchors_are_read_with_their_links_resolved() {
        check(
            r#"<p><a href="2.html">2</a> <A HREF='/b/3.html#top'>3</A> <a class=x href=/t?id=5&amp;start=10>x</a>"#,
            &[
                "http://f.test/b/2.html",
                "http://f.test/b/3.html#top",
                "http://f.test/t?id=5&start=10",
            ],
        );
        check(
            r#"<abbr href="/no">x</abbr><area href="/no"><a name="top">x</a><a data-href="/no" href="mailto:x@f.test">m</a><a href="/b/2.html">again</a><a href="2.html">twice</a>"#,
            &["http://f.test/b/2.html"],
        );
    }
}
