//! Escaping text into HTML: the one function every page trawl writes goes through (the web
//! console's views, the benchmarks' HTML reports, the plan graph's SVG), so that no writer
//! escapes a character the others leave alone.

/// `text` safe inside HTML (or SVG) text and inside attribute values quoted either way: the
/// five characters that can end a text or a value written as `&amp;`, `&lt;`, `&gt;`,
/// `&quot;` and `&#39;`.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape_html;

    fn check(text: &str, expected: &str) {
        assert_eq!(escape_html(text), expected, "{text:?}");
    }

    #[test]
    fn markup_characters_are_written_as_references() {
        check("", "");
        check("plain words, 12 of them", "plain words, 12 of them");
        check("<b>", "&lt;b&gt;");
        check("a & b", "a &amp; b");
        check("&amp;", "&amp;amp;");
        check("say \"hi\"", "say &quot;hi&quot;");
        check("it's", "it&#39;s");
        check("板块 <é>", "板块 &lt;é&gt;");
    }
}
